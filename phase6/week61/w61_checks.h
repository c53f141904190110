/* w61_checks.h — week 61's reference and case list, shared by the week's
 * Check test (test_week61.c) and its judge (instructor/judge_w61.c): 2:4
 * pruning, compression and the metadata layout of sp24_pack.h on the CPU,
 * the draws of the weights and inputs, the register words of one mma.sp by
 * a hypothesis of the layout, the GEMM's tolerance and its shapes. */
#ifndef W61_CHECKS_H
#define W61_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wb_f16.h"
#include "wb_rand.h"


/* The magnitude order of sp24_pack.h: FP16 bits without the sign. */
static unsigned ref_mag(uint16_t h) { return h & 0x7fffu; }

/* The two positions pruning keeps in a group: sort by magnitude
 * (descending), ties by position (ascending), take the first two. A bit
 * mask of positions. */
static unsigned ref_keep(const uint16_t v[4])
{
    int order[4] = { 0, 1, 2, 3 };
    for (int a = 1; a < 4; a++) /* insertion sort: stable, so ties keep the lower position first */
        for (int b = a; b > 0 && ref_mag(v[order[b]]) > ref_mag(v[order[b - 1]]); b--) {
            int t = order[b];
            order[b] = order[b - 1], order[b - 1] = t;
        }
    return (1u << order[0]) | (1u << order[1]);
}

static void ref_prune(const uint16_t *w, uint16_t *wp, size_t n)
{
    for (size_t g = 0; g < n; g += 4) {
        unsigned keep = ref_keep(w + g);
        for (int i = 0; i < 4; i++) wp[g + i] = (keep >> i & 1) ? w[g + i] : 0;
    }
}

/* The positions compression keeps: the nonzero ones, completed with zero
 * positions from the lowest up. -1 when the group has more than two nonzeros. */
static int ref_positions(const uint16_t v[4], int *i0, int *i1)
{
    unsigned nz = 0;
    for (int i = 0; i < 4; i++) nz |= (ref_mag(v[i]) != 0) << i;
    if (__builtin_popcount(nz) > 2) return -1;
    for (int i = 0; i < 4 && __builtin_popcount(nz) < 2; i++) nz |= 1u << i;
    *i0 = __builtin_ctz(nz);
    *i1 = 31 - __builtin_clz(nz);
    return 0;
}

/* sp24_pack.h's layout, written as the mma.sp registers it encodes: the
 * metadata of (row r, group starting at k) is in block (r/16, k/64), in the
 * word of lane 4 g + t with g = r % 8 and t = (k % 64) / 16, in the half
 * (r % 16) / 8, at nibble (k % 16) / 4. */
static size_t ref_word(int r, int k, int K) { return ((size_t)(r / 16) * (K / 64) + k / 64) * 32 + 4 * (r % 8) + (k % 64) / 16; }
static int ref_shift(int r, int k) { return (r % 16) / 8 * 16 + (k % 16) / 4 * 4; }

static size_t meta_words(int rows, int K) { return (size_t)(rows / 16) * (K / 64) * 32; }

/* Compress a 2:4 matrix (rows % 16 == 0, K % 64 == 0); -1 if a group is not 2:4. */
static int ref_compress(const uint16_t *wp, uint16_t *vals, uint32_t *meta, int rows, int K)
{
    memset(meta, 0, meta_words(rows, K) * 4);
    for (int r = 0; r < rows; r++)
        for (int k = 0; k < K; k += 4) {
            const uint16_t *v = wp + (size_t)r * K + k;
            int i0, i1;
            if (ref_positions(v, &i0, &i1)) return -1;
            vals[(size_t)r * (K / 2) + k / 2] = v[i0];
            vals[(size_t)r * (K / 2) + k / 2 + 1] = v[i1];
            meta[ref_word(r, k, K)] |= (uint32_t)(i0 | i1 << 2) << ref_shift(r, k);
        }
    return 0;
}

/* The two positions of group (r, k) from the metadata. */
static void ref_decode(const uint32_t *meta, int r, int k, int K, int *i0, int *i1)
{
    unsigned nib = meta[ref_word(r, k, K)] >> ref_shift(r, k) & 0xfu;
    *i0 = nib & 3, *i1 = nib >> 2;
}

static void ref_decompress(const uint16_t *vals, const uint32_t *meta, uint16_t *w, int rows, int K)
{
    for (int r = 0; r < rows; r++)
        for (int k = 0; k < K; k += 4) {
            int i0, i1;
            ref_decode(meta, r, k, K, &i0, &i1);
            uint16_t *o = w + (size_t)r * K + k;
            o[0] = o[1] = o[2] = o[3] = 0;
            o[i0] = vals[(size_t)r * (K / 2) + k / 2];
            o[i1] = vals[(size_t)r * (K / 2) + k / 2 + 1];
        }
}

/* A nonzero FP16 value: magnitude in [2^-6, 2), either sign. */
static uint16_t rand_nonzero(wb_rng *rng)
{
    float v = (float)ldexp(1.0 + wb_rng_unit(rng), (int)wb_rng_int(rng, -6, 0));
    return wb_f32_to_f16(wb_rng_int(rng, 0, 1) ? -v : v);
}

/* Weights as a layer's are: every row its own amplitude (0.01 .. 1). */
static void fill_weights(wb_rng *rng, uint16_t *W, int rows, int K)
{
    for (int r = 0; r < rows; r++) {
        double amp = pow(10.0, -2.0 + 2.0 * wb_rng_unit(rng));
        for (int k = 0; k < K; k++) W[(size_t)r * K + k] = wb_f32_to_f16((float)(amp * (2.0 * wb_rng_unit(rng) - 1.0)));
    }
}

static void fill_x(wb_rng *rng, uint16_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++) x[i] = wb_f32_to_f16((float)(2.0 * wb_rng_unit(rng) - 1.0));
}

/* A 16 x 32 2:4 matrix A (values multiples of 1/8, so every product and
 * sum below is exact in FP32), B 32 x 8; the registers built by the PTX
 * ISA's fragment layouts for mma.sp.m16n8k32 (f16): lane l = 4g + t holds
 *   A: {ac[g][2t..2t+1]}, {ac[g+8][2t..]}, {ac[g][2t+8..]}, {ac[g+8][2t+8..]}
 *      (ac: the 16 x 16 kept values, the dense m16n8k16 A layout)
 *   B: {B[2t + 8i][g], B[2t + 8i + 1][g]}, i = 0..3
 *   D: D[g][2t], D[g][2t+1], D[g+8][2t], D[g+8][2t+1]
 * and the metadata by hypothesis h (0: sp24_pack.h's layout). */
enum { HYP_LAYOUT, HYP_HALVES, HYP_PAIRS, HYP_NIBBLE, HYP_ROWPAIR, HYPS };

/* The probe's case, drawn from rng: pos the kept positions of A's 8
 * groups a row (i0 < i1), the A and B registers of the 32 lanes (ha, hb:
 * 4 words a lane) and the exact D (16 x 8). */
static void layout_regs(wb_rng *rng, int (*pos)[8][2], uint32_t *ha, uint32_t *hb, float (*D)[8])
{
    float A[16][32] = { { 0 } }, B[32][8];
    uint16_t ac[16][16];
    for (int r = 0; r < 16; r++)
        for (int q = 0; q < 8; q++) {
            int a = (int)wb_rng_int(rng, 0, 3), b = (int)wb_rng_int(rng, 0, 2);
            b += b >= a;
            pos[r][q][0] = a < b ? a : b, pos[r][q][1] = a < b ? b : a;
            for (int s = 0; s < 2; s++) {
                float v = (float)(wb_rng_int(rng, 1, 16) * (wb_rng_int(rng, 0, 1) ? 1 : -1)) / 8.f;
                A[r][4 * q + pos[r][q][s]] = v;
                ac[r][2 * q + s] = wb_f32_to_f16(v);
            }
        }
    for (int k = 0; k < 32; k++)
        for (int n = 0; n < 8; n++) B[k][n] = (float)wb_rng_int(rng, -16, 16) / 8.f;
    for (int r = 0; r < 16; r++)
        for (int n = 0; n < 8; n++) {
            double s = 0;
            for (int k = 0; k < 32; k++) s += (double)A[r][k] * B[k][n];
            D[r][n] = (float)s;
        }
#define PK(lo, hi) ((uint32_t)(lo) | (uint32_t)(hi) << 16)
    for (int l = 0; l < 32; l++) {
        const int g = l >> 2, t = l & 3;
        ha[4 * l + 0] = PK(ac[g][2 * t], ac[g][2 * t + 1]);
        ha[4 * l + 1] = PK(ac[g + 8][2 * t], ac[g + 8][2 * t + 1]);
        ha[4 * l + 2] = PK(ac[g][2 * t + 8], ac[g][2 * t + 9]);
        ha[4 * l + 3] = PK(ac[g + 8][2 * t + 8], ac[g + 8][2 * t + 9]);
        for (int i = 0; i < 4; i++)
            hb[4 * l + i] = PK(wb_f32_to_f16(B[2 * t + 8 * i][g]), wb_f32_to_f16(B[2 * t + 8 * i + 1][g]));
    }
#undef PK
}

static uint32_t nib16(const int (*pos)[8][2], int r, int q0, int swap_fields)
{
    uint32_t v = 0;
    for (int u = 0; u < 4; u++) {
        int i0 = pos[r][q0 + u][0], i1 = pos[r][q0 + u][1];
        v |= (uint32_t)(swap_fields ? (i1 | i0 << 2) : (i0 | i1 << 2)) << (4 * u);
    }
    return v;
}

static uint32_t hyp_word(const int (*pos)[8][2], int h, int sel, int lane)
{
    const int g = lane / 4, t = lane - 4 * g;
    if (t / 2 != sel) return 0xffffffffu; /* the other pair: invalid nibbles, never to be read */
    int hf = t % 2;                        /* which thread of the pair */
    if (h == HYP_PAIRS) hf ^= 1;
    if (h == HYP_ROWPAIR) return hf ? nib16(pos, g + 8, 0, 0) | nib16(pos, g + 8, 4, 0) << 16
                                    : nib16(pos, g, 0, 0) | nib16(pos, g, 4, 0) << 16;
    const uint32_t lo = nib16(pos, g, 4 * hf, h == HYP_NIBBLE), hi = nib16(pos, g + 8, 4 * hf, h == HYP_NIBBLE);
    return h == HYP_HALVES ? hi | lo << 16 : lo | hi << 16;
}

/* The tolerance: |got - ref| <= ATOL sqrt(sum_k (x_k w_k)^2) + RTOL |ref| +
 * 2^-24. The weights are given exactly (FP16, the same bits on both
 * sides); what differs is FP32 accumulation (far below 2^-11 of the norm)
 * and y's rounding to FP16 (2^-11 relative, twice over in RTOL). One wrong
 * position, value or row costs a product or more, about the norm /
 * sqrt(K / 2), at least 25 times ATOL at the test's largest K. */
#define SP_ATOL 0x1p-11
#define SP_RTOL 0x1p-10

static int sp_close(double got, double ref, double nrm)
{
    return isfinite(got) && fabs(got - ref) <= SP_ATOL * nrm + SP_RTOL * fabs(ref) + 0x1p-24;
}

typedef struct { int M, N, K, rows; } sp_shape;

/* rows: 0 checks every row; otherwise the first, the last, tile edges and random ones. */
static const sp_shape SHAPES[] = {
    { 1, 16, 64, 0 },      { 3, 48, 128, 0 },     { 17, 256, 192, 0 },   { 128, 272, 64, 0 },
    { 129, 16, 4096, 0 },  { 1000, 48, 11008, 0 }, { 3, 4112, 4096, 0 }, { 129, 4112, 192, 0 },
    { 1000, 272, 4096, 0 }, { 4096, 256, 128, 24 }, { 4096, 4112, 4096, 16 },
};

/* A GEMM case's layer: x, W compressed, and the k of each kept value. */
typedef struct {
    int M, N, K;
    uint16_t *x;     /* M x K */
    uint16_t *vals;  /* N x K/2 */
    uint32_t *meta;
    int16_t *kpos;   /* N x K/2: the k of each kept value (from the metadata) */
} sp_layer;

/* y[m][n] in double, and its norm sqrt(sum (x w)^2), over the kept values. */
static double ref_out(const sp_layer *L, const uint16_t *x, int m, int n, double *nrm)
{
    const uint16_t *v = L->vals + (size_t)n * (L->K / 2);
    const int16_t *kp = L->kpos + (size_t)n * (L->K / 2);
    const uint16_t *xr = x + (size_t)m * L->K;
    double s = 0, s2 = 0;
    for (int i = 0; i < L->K / 2; i++) {
        double p = (double)wb_f16_to_f32(v[i]) * wb_f16_to_f32(xr[kp[i]]);
        s += p, s2 += p * p;
    }
    *nrm = sqrt(s2);
    return s;
}

/* The rows of y a case checks (rows: room for M): every row, or (sh.rows
 * > 0) the first, the last, tile edges and random ones drawn from rng. */
static int case_rows(wb_rng *rng, sp_shape sh, int *rows)
{
    const int M = sh.M;
    int nr = 0;
    if (sh.rows == 0 || sh.rows >= M) {
        for (int m = 0; m < M; m++) rows[nr++] = m;
    } else {
        const int fixed[] = { 0, 1, 127, 128, M - 1 };
        for (size_t f = 0; f < sizeof fixed / sizeof *fixed; f++)
            if (fixed[f] < M) rows[nr++] = fixed[f];
        while (nr < sh.rows) rows[nr++] = (int)wb_rng_int(rng, 0, M - 1);
    }
    return nr;
}

#endif
