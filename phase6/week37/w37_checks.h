/* w37_checks.h — what week 37's checks expect, shared by the week's test
 * program (test_week37.c) and the instructor's judge (instructor/
 * judge_w37.c, which runs the student's code in a separate runner): the IO
 * model's own derivation, the double reference of a row of attention, the
 * tolerances, the flash cases and how their inputs are drawn, the long
 * head's length. Change a check here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below; the
 * test asserts it). The judge draws case i from wb_rng_for_seed(seed, TAG,
 * i) through the same functions, so for a seed it gets the test's cases and
 * inputs alike. */
#ifndef W37_CHECKS_H
#define W37_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "flash_attn.h"
#include "wb_rand.h"

#define W37_CASES_TAG "flash_cases_fn" /* START_TEST(flash_cases) */
#define W37_LONG_TAG  "flash_long_fn"  /* START_TEST(flash_long) */

/* ---------------------------------------------------------------- IO model (CPU) */

/* The checks' own derivation of attn_io.h's model, written per key tile
 * rather than per query tile: key tile j (rows j*Bc .. min((j+1)*Bc, S) - 1)
 * is loaded, K and V, by every query tile that visits it: all T_r of them, or
 * causal, the query tiles whose last row is at or past j*Bc. */
static inline double w37_io_flash_ref(int64_t bh, int64_t S, int64_t D, int64_t Br, int64_t Bc, int causal)
{
    if (S < 0 || bh < 0 || D < 1 || Br < 1 || Bc < 1) return -1;
    int64_t tr = (S + Br - 1) / Br;
    double kv_rows = 0;
    for (int64_t j0 = 0; j0 < S; j0 += Bc) {
        int64_t rows = S - j0 < Bc ? S - j0 : Bc, visitors = tr;
        if (causal) {
            /* query tile i visits it when min((i+1)*Br, S) - 1 >= j0, i.e. i >= ceil((j0+1)/Br) - 1 */
            int64_t first = (j0 + 1 + Br - 1) / Br - 1;
            visitors = tr - first;
        }
        kv_rows += (double)rows * (double)visitors;
    }
    return (double)bh * 4.0 * (double)D * (2.0 * (double)S + 2.0 * kv_rows);
}

static inline double w37_io_naive_ref(int64_t bh, int64_t S, int64_t D)
{
    if (S < 0 || bh < 0 || D < 1) return -1;
    return (double)bh * (16.0 * (double)S * (double)S + 16.0 * (double)S * (double)D);
}

/* The IO check's grid: every S, D, bh, tiling, causal or not. */
static const int64_t W37_IO_S[] = { 0, 1, 2, 63, 64, 65, 100, 127, 1000, 1023, 4096, 4097, 16384, 100003 };
static const int64_t W37_IO_D[] = { 64, 128, 80 };
static const int64_t W37_IO_TILES[][2] = { { 64, 64 }, { 128, 64 }, { 64, 128 }, { 32, 96 }, { 96, 32 }, { 1, 1 }, { 7, 5 } };
static const int64_t W37_IO_BH[] = { 1, 3, 64 };

/* ---------------------------------------------------------------- reference */

/* Row i of one head's attention in double: q_row is row i of Q, kh and vh
 * the head's K and V (S x D). Keys j < S, or j <= i when causal. fmax skips
 * a NaN logit for the max, and exp(NaN - m) then makes the row NaN. Returns
 * the row's log-sum-exp, m + log(l). */
static inline double w37_ref_row(const float *q_row, const float *kh, const float *vh, int S, int D, double scale,
                                 int causal, int i, double *out, double *s)
{
    int n = causal ? i + 1 : S;
    double m = -INFINITY;
    for (int j = 0; j < n; j++) {
        double acc = 0;
        for (int d = 0; d < D; d++) acc += (double)q_row[d] * kh[(size_t)j * D + d];
        s[j] = acc * scale;
        m = fmax(m, s[j]);
    }
    double l = 0;
    for (int d = 0; d < D; d++) out[d] = 0;
    for (int j = 0; j < n; j++) {
        double p = exp(s[j] - m);
        l += p;
        for (int d = 0; d < D; d++) out[d] += p * vh[(size_t)j * D + d];
    }
    for (int d = 0; d < D; d++) out[d] /= l;
    return m + log(l);
}

/* O against the double reference: atol + rtol |ref|; near logits of +-1e4
 * (HUGE_LOGITS) W37_HUGE_ATOL alone. */
#define W37_O_ATOL    3e-5
#define W37_O_RTOL    1e-4
#define W37_HUGE_ATOL 5e-2

/* Tolerance of lse, the FP32 m + log(l) (m in base 2 is fine: ln 2 (m2 +
 * log2 l)), against the double reference:
 *   - m: the largest logit, rounded a few times on its way (the logit times
 *     scale log2 e, the add of log2 l, the product by ln 2), 5 roundings of
 *     |lse| at most (|m| <= |lse| + log S): rtol 1e-6;
 *   - l: a sum of positive terms, exp within 2 ulp each, carried from key
 *     tile to key tile by one multiply-add: its relative error, which is
 *     log l's absolute one, stays under (T + 16) 2^-23 for T key tiles;
 *   - the logits' own FP32 error (a dot product of D terms), which lse
 *     carries as a weighted mean: about 1e-6 on these inputs (|q|, |k| <= 2),
 *     1e-5 allowed; near +-1e4 the 5e-2 that O allows there.
 * A slip (a natural log taken as base 2, the scale or m left out, a row
 * shifted) is off by far more on almost every row. */
#define W37_LSE_RTOL 1e-6
static inline double w37_lse_atol(int S, int huge)
{
    return (huge ? W37_HUGE_ATOL : 1e-5) + ((S + FA_BC - 1) / FA_BC + 16) * 0x1p-23;
}

/* ---------------------------------------------------------------- flash cases */

enum { W37_NORMAL, W37_HUGE_LOGITS, W37_NAN_KEY };
typedef struct {
    int bh, S, D, causal, kind, offset;
} w37_case;

/* 0 and 1 rows, tile edges (63, 64, 65, 127-129), odd lengths, several
 * heads, long rows, logits near +-1e4, a NaN key; `offset` floats into
 * every buffer (misaligned pointers). */
static const w37_case W37_CASES[] = {
    { 1, 0, 64, 0, W37_NORMAL, 0 },          { 0, 16, 128, 1, W37_NORMAL, 0 },   { 1, 1, 64, 0, W37_NORMAL, 0 },
    { 1, 1, 64, 1, W37_NORMAL, 0 },          { 2, 1, 128, 0, W37_NORMAL, 1 },    { 1, 2, 128, 1, W37_NORMAL, 0 },
    { 1, 17, 64, 0, W37_NORMAL, 0 },         { 1, 63, 64, 1, W37_NORMAL, 0 },    { 1, 64, 64, 0, W37_NORMAL, 0 },
    { 1, 64, 128, 1, W37_NORMAL, 0 },        { 1, 65, 64, 1, W37_NORMAL, 0 },    { 1, 65, 128, 0, W37_NORMAL, 0 },
    { 3, 127, 64, 0, W37_NORMAL, 0 },        { 2, 128, 128, 1, W37_NORMAL, 3 },  { 2, 129, 128, 1, W37_NORMAL, 0 },
    { 4, 200, 64, 1, W37_NORMAL, 1 },        { 5, 333, 128, 0, W37_NORMAL, 0 },  { 1, 1000, 64, 0, W37_NORMAL, 0 },
    { 1, 1023, 128, 1, W37_NORMAL, 0 },      { 2, 1500, 64, 1, W37_NORMAL, 2 },  { 1, 4096, 64, 0, W37_NORMAL, 0 },
    { 1, 4097, 128, 1, W37_NORMAL, 0 },      { 2, 300, 64, 0, W37_HUGE_LOGITS, 0 },
    { 1, 517, 128, 1, W37_HUGE_LOGITS, 0 },  { 2, 150, 64, 0, W37_NAN_KEY, 0 },  { 2, 190, 128, 1, W37_NAN_KEY, 0 },
};
#define W37_N_CASES (sizeof W37_CASES / sizeof W37_CASES[0])

/* A case's inputs, each n + offset floats (n = bh S D), drawn from rng in
 * this order: q, k, v; logits ~ N(0, 1.3) for W37_NORMAL, q, k of +-150
 * giving logits of +-1e4 for W37_HUGE_LOGITS; W37_NAN_KEY then draws a head,
 * a key and a column and puts a NaN there in k. */
static inline void w37_case_fill(wb_rng *rng, const w37_case *c, float *q, float *k, float *v)
{
    const size_t n = (size_t)c->bh * c->S * c->D, off = (size_t)c->offset;
    float qk = c->kind == W37_HUGE_LOGITS ? 150.0f : 2.0f;
    wb_fill_uniform_f32(rng, q, n + off, -qk, qk);
    wb_fill_uniform_f32(rng, k, n + off, -qk, qk);
    wb_fill_uniform_f32(rng, v, n + off, -1, 1);
    if (c->kind == W37_NAN_KEY) {
        int nh = (int)wb_rng_int(rng, 0, c->bh - 1), nj = (int)wb_rng_int(rng, 0, c->S - 1);
        k[off + ((size_t)nh * c->S + nj) * c->D + (size_t)wb_rng_int(rng, 0, c->D - 1)] = NAN;
    }
}

/* The long head (flash_long): D = 64, causal, long enough that its S x S
 * scores in FP32 would need more than the device's total memory. */
static inline int w37_long_S(size_t total_bytes)
{
    int S = (int)ceil(sqrt((double)total_bytes / 4.0)) + 1001;
    if (S % 64 == 0) S++;
    return S;
}

#endif
