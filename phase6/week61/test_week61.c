/* test_week61.c — week 61's checkpoints: 2:4 structured sparsity. On the
 * CPU, the pruning, the compression and its metadata layout (exhaustively
 * over the patterns of a group); on the GPU, y = x W^T on mma.sp against a
 * double reference of the pruned dense product, the metadata layout on one
 * mma.sp, and the speed against cuBLAS's dense FP16 GEMM on the same
 * (pruned, decompressed) weights. GPU checkpoints need compute capability
 * 8.0 (sparse tensor cores) and are SKIP below it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "wb_cublas.h"
#include "wb_f16.h"
#include "support/sp24_probe.h"
#include "sp24_pack.h"
#include "sp24_gemm.h"
#include "w61_checks.h"

/* Every GPU test starts here: mma.sp is compute capability 8.0 and newer. */
#define NEED_SM80()                                                                                              \
    do {                                                                                                         \
        if (wb_this_device()->cc_major < 8)                                                                      \
            wb_skip_test("mma.sp (sparse tensor cores) needs compute capability 8.0 or newer; this GPU is %d.%d", \
                         wb_this_device()->cc_major, wb_this_device()->cc_minor);                               \
    } while (0)

/* ---------------------------------------------------------------- the reference, on the CPU */

/* (the reference, the draws, the layout hypotheses, the tolerance and the
 * shapes: w61_checks.h, shared with the judge) */

static double gauss(wb_rng *rng)
{
    double u = 1.0 - wb_rng_unit(rng), v = wb_rng_unit(rng);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* ---------------------------------------------------------------- w61.pack: pruning */

/* Every group of 4 drawn from 8 values: +0, -0, +-1, +-2 (ties of equal
 * magnitude and opposite sign), +Inf and NaN: 4096 groups in one row. */
START_TEST(prune_exhaustive)
{
    static const uint16_t V[8] = { 0x0000, 0x8000, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x7c00, 0x7e00 };
    enum { G = 8 * 8 * 8 * 8, K = 4 * G };
    uint16_t *w = wb_hmalloc(K * 2), *wp = wb_hmalloc(K * 2), *ref = wb_hmalloc(K * 2);
    for (int g = 0; g < G; g++)
        for (int i = 0; i < 4; i++) w[4 * g + i] = V[g >> (3 * i) & 7];
    ref_prune(w, ref, K);
    memset(wp, 0xff, K * 2);
    ck_assert_msg(sp24_pack_prune(w, wp, 1, K) == cudaSuccess, "sp24_pack_prune(rows 1, K %d) refused a valid shape", K);
    for (int g = 0; g < G; g++)
        if (memcmp(wp + 4 * g, ref + 4 * g, 8))
            ck_abort_msg("group (0x%04x, 0x%04x, 0x%04x, 0x%04x) pruned to (0x%04x, 0x%04x, 0x%04x, 0x%04x); expected "
                         "(0x%04x, 0x%04x, 0x%04x, 0x%04x): keep the two largest |w| (FP16 bits without the sign), "
                         "ties to the lower k, the other two +0",
                         w[4 * g], w[4 * g + 1], w[4 * g + 2], w[4 * g + 3], wp[4 * g], wp[4 * g + 1], wp[4 * g + 2],
                         wp[4 * g + 3], ref[4 * g], ref[4 * g + 1], ref[4 * g + 2], ref[4 * g + 3]);
    /* in place, on a random matrix of several rows */
    wb_rng rng = WB_RNG();
    const int rows = 37, K2 = 1028;
    uint16_t *a = wb_hmalloc((size_t)rows * K2 * 2), *b = wb_hmalloc((size_t)rows * K2 * 2);
    fill_weights(&rng, a, rows, K2);
    for (int i = 0; i < 200; i++) a[wb_rng_int(&rng, 0, rows * K2 - 1)] ^= 0x8000; /* a few sign flips: ties of |w| stay */
    ref_prune(a, b, (size_t)rows * K2);
    ck_assert_msg(sp24_pack_prune(a, a, rows, K2) == cudaSuccess, "sp24_pack_prune in place (rows %d, K %d) refused", rows, K2);
    for (size_t i = 0; i < (size_t)rows * K2; i++)
        if (a[i] != b[i])
            ck_abort_msg("in place, rows %d K %d (seed %llu): w[%zu][%zu] = 0x%04x, expected 0x%04x", rows, K2,
                         (unsigned long long)wb_base_seed(), i / K2, i % K2, a[i], b[i]);
    /* refusals */
    const struct { int rows, K; } bad[] = { { 1, 6 }, { 1, 2 }, { 3, -4 }, { -1, 4 } };
    for (size_t i = 0; i < WB_COUNT(bad); i++)
        ck_assert_msg(sp24_pack_prune(w, wp, bad[i].rows, bad[i].K) == cudaErrorInvalidValue,
                      "sp24_pack_prune(rows %d, K %d) must be refused (K a multiple of 4, rows and K >= 0)", bad[i].rows,
                      bad[i].K);
    ck_assert_msg(sp24_pack_prune(NULL, NULL, 0, 8) == cudaSuccess && sp24_pack_prune(NULL, NULL, 4, 0) == cudaSuccess,
                  "rows == 0 or K == 0 is nothing to do (cudaSuccess), NULL pointers allowed");
    free(w), free(wp), free(ref), free(a), free(b);
}
END_TEST

/* ---------------------------------------------------------------- w61.pack: compression and layout */

/* The README's worked example: row 0 starts 0, 0.5, 0, -2; row 9 (the upper
 * half of word 1) has 3, 0, 0, 0 at k = 16..19 (one nonzero: positions 0
 * and 1); the rest zero. */
START_TEST(compress_example)
{
    enum { R = 16, K = 64 };
    uint16_t w[R * K] = { 0 }, vals[R * K / 2], back[R * K];
    uint32_t meta[32];
    w[1] = 0x3800, w[3] = 0xc000;   /* 0.5, -2 */
    w[9 * K + 16] = 0x4200;         /* 3 */
    ck_assert_msg(sp24_pack_compress(w, vals, meta, R, K) == cudaSuccess, "sp24_pack_compress(16 x 64) refused");
    ck_assert_msg((meta[0] & 0xf) == 0xd, "row 0, k 0..3 = (0, 0.5, 0, -2): positions 1 and 3, nibble 0xD in bits 0-3 of "
                                          "word 0; got 0x%x (word 0 = 0x%08x)", meta[0] & 0xf, meta[0]);
    ck_assert_msg(vals[0] == 0x3800 && vals[1] == 0xc000, "row 0's first two values: 0.5, -2 (0x3800, 0xc000); got "
                                                          "0x%04x, 0x%04x", vals[0], vals[1]);
    ck_assert_msg(meta[0] == 0x4444444du, "word 0 (rows 0 and 8, k 0..15): row 0's other groups and all of row 8 are "
                                          "zero, positions 0 and 1 (0x4): expected 0x4444444d, got 0x%08x", meta[0]);
    ck_assert_msg(meta[4 * 1 + 1] == 0x44444444u, "word 5 (g = 1, t = 1: rows 1 and 9, k 16..31): row 9's group at k "
                                                  "16 holds 3 at position 0 -> positions 0, 1 (0x4); expected 0x44444444, "
                                                  "got 0x%08x", meta[5]);
    ck_assert_msg(vals[9 * K / 2 + 8] == 0x4200 && vals[9 * K / 2 + 9] == 0, "row 9, k 16..19: values 3 and +0");
    ck_assert_msg(sp24_pack_decompress(vals, meta, back, R, K) == cudaSuccess && memcmp(back, w, sizeof w) == 0,
                  "decompress(compress(W)) must give W back");
}
END_TEST

/* Every pattern of a group with at most two nonzeros (11 of the 16), at
 * every slot of a metadata block (16 rows x 16 groups), 11 blocks: slot s
 * of block j holds pattern (j + s) % 11. Zeros are +0 or -0 at random.
 * vals and meta must equal the layout bit for bit; decompress must give
 * the matrix back, with +0 at the dropped positions. */
START_TEST(compress_exhaustive)
{
    wb_rng rng = WB_RNG();
    unsigned pats[11];
    int np = 0;
    for (unsigned p = 0; p < 16; p++)
        if (__builtin_popcount(p) <= 2) pats[np++] = p;
    const int R = 16, K = 64 * 11;
    uint16_t *w = wb_hmalloc((size_t)R * K * 2), *vals = wb_hmalloc((size_t)R * K), *rv = wb_hmalloc((size_t)R * K);
    uint16_t *back = wb_hmalloc((size_t)R * K * 2), *rback = wb_hmalloc((size_t)R * K * 2);
    uint32_t *meta = wb_hmalloc(meta_words(R, K) * 4), *rm = wb_hmalloc(meta_words(R, K) * 4);
    for (int r = 0; r < R; r++)
        for (int k = 0; k < K; k += 4) {
            const int slot = r * 16 + (k % 64) / 4;
            const unsigned p = pats[(k / 64 + slot) % 11];
            for (int i = 0; i < 4; i++)
                w[(size_t)r * K + k + i] = (p >> i & 1) ? rand_nonzero(&rng) : (uint16_t)(wb_rng_int(&rng, 0, 1) ? 0x8000 : 0);
        }
    ck_assert(ref_compress(w, rv, rm, R, K) == 0);
    memset(vals, 0xff, (size_t)R * K), memset(meta, 0xff, meta_words(R, K) * 4);
    ck_assert_msg(sp24_pack_compress(w, vals, meta, R, K) == cudaSuccess, "sp24_pack_compress(%d x %d) refused", R, K);
    for (int r = 0; r < R; r++)
        for (int k = 0; k < K; k += 4) {
            size_t wd = ref_word(r, k, K);
            int sh = ref_shift(r, k);
            unsigned got = meta[wd] >> sh & 0xf, want = rm[wd] >> sh & 0xf;
            if (got != want)
                ck_abort_msg("row %d, k %d..%d = (0x%04x, 0x%04x, 0x%04x, 0x%04x): nibble %u of word %zu (block %d, lane "
                             "%zu, bits %d..%d) is 0x%x, expected 0x%x (i0 | i1 << 2, i0 < i1; sp24_pack.h)",
                             r, k, k + 3, w[(size_t)r * K + k], w[(size_t)r * K + k + 1], w[(size_t)r * K + k + 2],
                             w[(size_t)r * K + k + 3], (k % 16) / 4, wd, (int)(wd / 32), wd % 32, sh, sh + 3, got, want);
            const size_t v = (size_t)r * (K / 2) + k / 2;
            if (vals[v] != rv[v] || vals[v + 1] != rv[v + 1])
                ck_abort_msg("row %d, k %d..%d: vals (0x%04x, 0x%04x), expected (0x%04x, 0x%04x): the kept values in k "
                             "order", r, k, k + 3, vals[v], vals[v + 1], rv[v], rv[v + 1]);
        }
    ref_decompress(rv, rm, rback, R, K);
    memset(back, 0xff, (size_t)R * K * 2);
    ck_assert_msg(sp24_pack_decompress(rv, rm, back, R, K) == cudaSuccess, "sp24_pack_decompress refused valid metadata");
    for (size_t i = 0; i < (size_t)R * K; i++)
        if (back[i] != rback[i])
            ck_abort_msg("decompress: w[%zu][%zu] = 0x%04x, expected 0x%04x (kept values where the metadata says, +0 "
                         "elsewhere)", i / K, i % K, back[i], rback[i]);
    for (size_t i = 0; i < (size_t)R * K; i++)
        ck_assert_msg(ref_mag(rback[i]) == ref_mag(w[i]), "the round trip lost w[%zu][%zu]", i / K, i % K);
    free(w), free(vals), free(rv), free(back), free(rback), free(meta), free(rm);
}
END_TEST

/* A larger random pruned matrix against the layout; groups that are not
 * 2:4 refused (each of the five patterns with 3 or 4 nonzeros, anywhere);
 * invalid metadata refused by decompress; bad shapes refused. */
START_TEST(compress_random_refusals)
{
    wb_rng rng = WB_RNG();
    const int R = 48, K = 1024;
    const size_t n = (size_t)R * K;
    uint16_t *w = wb_hmalloc(n * 2), *wp = wb_hmalloc(n * 2), *vals = wb_hmalloc(n), *rv = wb_hmalloc(n);
    uint16_t *back = wb_hmalloc(n * 2);
    uint32_t *meta = wb_hmalloc(meta_words(R, K) * 4), *rm = wb_hmalloc(meta_words(R, K) * 4);
    fill_weights(&rng, w, R, K);
    ref_prune(w, wp, n);
    ck_assert(ref_compress(wp, rv, rm, R, K) == 0);
    ck_assert_msg(sp24_pack_compress(wp, vals, meta, R, K) == cudaSuccess, "compress(48 x 1024) refused a 2:4 matrix");
    ck_assert_msg(memcmp(vals, rv, n) == 0, "vals of a random 48 x 1024 matrix differ from the layout (seed %llu)",
                  (unsigned long long)wb_base_seed());
    for (size_t i = 0; i < meta_words(R, K); i++)
        ck_assert_msg(meta[i] == rm[i], "meta word %zu (block %zu, lane %zu) = 0x%08x, expected 0x%08x (seed %llu)", i,
                      i / 32, i % 32, meta[i], rm[i], (unsigned long long)wb_base_seed());
    ck_assert_msg(sp24_pack_decompress(vals, meta, back, R, K) == cudaSuccess && memcmp(back, wp, n * 2) == 0,
                  "decompress(compress(prune(W))) must be prune(W) bit for bit");

    /* not 2:4: patterns 0x7, 0xb, 0xd, 0xe, 0xf at a random group */
    const unsigned dense[5] = { 0x7, 0xb, 0xd, 0xe, 0xf };
    for (int d = 0; d < 5; d++) {
        const int r = (int)wb_rng_int(&rng, 0, R - 1), k = 4 * (int)wb_rng_int(&rng, 0, K / 4 - 1);
        uint16_t keep[4];
        memcpy(keep, wp + (size_t)r * K + k, 8);
        for (int i = 0; i < 4; i++) wp[(size_t)r * K + k + i] = (dense[d] >> i & 1) ? rand_nonzero(&rng) : 0;
        ck_assert_msg(sp24_pack_compress(wp, vals, meta, R, K) == cudaErrorInvalidValue,
                      "a group with %d nonzero values (row %d, k %d, pattern 0x%x) is not 2:4: compress must refuse it",
                      __builtin_popcount(dense[d]), r, k, dense[d]);
        memcpy(wp + (size_t)r * K + k, keep, 8);
    }
    /* bad metadata: equal positions and descending pairs */
    const unsigned badnib[6] = { 0x0, 0x5, 0xa, 0xf, 0x1, 0x6 };
    for (int b = 0; b < 6; b++) {
        const int r = (int)wb_rng_int(&rng, 0, R - 1), k = 4 * (int)wb_rng_int(&rng, 0, K / 4 - 1);
        const size_t wd = ref_word(r, k, K);
        const int sh = ref_shift(r, k);
        const uint32_t save = rm[wd];
        rm[wd] = (rm[wd] & ~(0xfu << sh)) | badnib[b] << sh;
        ck_assert_msg(sp24_pack_decompress(rv, rm, back, R, K) == cudaErrorInvalidValue,
                      "metadata nibble 0x%x (row %d, k %d) is not two positions i0 < i1: decompress must refuse it",
                      badnib[b], r, k);
        rm[wd] = save;
    }
    /* shapes */
    const struct { int rows, K; } bad[] = { { 15, 64 }, { 16, 32 }, { 16, 100 }, { 16, 6 }, { -16, 64 }, { 16, -64 } };
    for (size_t i = 0; i < WB_COUNT(bad); i++) {
        ck_assert_msg(sp24_pack_compress(wp, vals, meta, bad[i].rows, bad[i].K) == cudaErrorInvalidValue,
                      "sp24_pack_compress(rows %d, K %d) must be refused (rows a multiple of 16, K of 64)", bad[i].rows,
                      bad[i].K);
        ck_assert_msg(sp24_pack_decompress(rv, rm, back, bad[i].rows, bad[i].K) == cudaErrorInvalidValue,
                      "sp24_pack_decompress(rows %d, K %d) must be refused", bad[i].rows, bad[i].K);
    }
    free(w), free(wp), free(vals), free(rv), free(back), free(meta), free(rm);
}
END_TEST

/* ---------------------------------------------------------------- what pruning costs (a figure) */

enum { KIND_RANDOM, KIND_LOWRANK, KIND_FRIENDLY, KINDS };
static const char *KIND_NAME[KINDS] = { "random (i.i.d. Gaussian)", "low rank 16 + 10 % noise",
                                        "2:4-friendly (2:4 + 1 % noise)" };

/* W (N x K, FP16) of a kind, pruned by the reference; x (M x K) uniform in
 * [-1, 1]. The relative Frobenius error of the weights and of y = x W^T
 * against y = x prune(W)^T, in double. */
static void prune_error(wb_rng *rng, int kind, int M, int N, int K, double *werr, double *yerr)
{
    const size_t nk = (size_t)N * K;
    double *wd = wb_hmalloc(nk * 8);
    if (kind == KIND_RANDOM) {
        for (size_t i = 0; i < nk; i++) wd[i] = gauss(rng);
    } else if (kind == KIND_LOWRANK) {
        enum { RK = 16 };
        double *u = wb_hmalloc((size_t)N * RK * 8), *v = wb_hmalloc((size_t)K * RK * 8);
        for (size_t i = 0; i < (size_t)N * RK; i++) u[i] = gauss(rng);
        for (size_t i = 0; i < (size_t)K * RK; i++) v[i] = gauss(rng);
        for (int n = 0; n < N; n++)
            for (int k = 0; k < K; k++) {
                double s = 0;
                for (int q = 0; q < RK; q++) s += u[(size_t)n * RK + q] * v[(size_t)k * RK + q];
                wd[(size_t)n * K + k] = s / sqrt((double)RK) + 0.1 * gauss(rng);
            }
        free(u), free(v);
    } else {
        for (size_t g = 0; g < nk; g += 4) {
            int a = (int)wb_rng_int(rng, 0, 3), b = (int)wb_rng_int(rng, 0, 2);
            b += b >= a;
            for (int i = 0; i < 4; i++) wd[g + i] = (i == a || i == b ? gauss(rng) : 0.0) + 0.01 * gauss(rng);
        }
    }
    uint16_t *w = wb_hmalloc(nk * 2), *wp = wb_hmalloc(nk * 2);
    for (size_t i = 0; i < nk; i++) w[i] = wb_f32_to_f16((float)wd[i]);
    ref_prune(w, wp, nk);
    double *x = wb_hmalloc((size_t)K * 8);
    double dw2 = 0, w2 = 0, dy2 = 0, y2 = 0;
    for (size_t i = 0; i < nk; i++) {
        double a = wb_f16_to_f32(w[i]), d = a - wb_f16_to_f32(wp[i]);
        w2 += a * a, dw2 += d * d;
    }
    for (int m = 0; m < M; m++) {
        for (int k = 0; k < K; k++) x[k] = 2.0 * wb_rng_unit(rng) - 1.0;
        for (int n = 0; n < N; n++) {
            double s = 0, d = 0;
            for (int k = 0; k < K; k++) {
                double a = wb_f16_to_f32(w[(size_t)n * K + k]), p = wb_f16_to_f32(wp[(size_t)n * K + k]);
                s += x[k] * a, d += x[k] * (a - p);
            }
            y2 += s * s, dy2 += d * d;
        }
    }
    *werr = sqrt(dw2 / w2), *yerr = sqrt(dy2 / y2);
    free(wd), free(w), free(wp), free(x);
}

static void print_prune_errors(wb_rng *rng, int M, int N, int K)
{
    printf("  what 2:4 pruning costs (a figure, not a gate), y = x W^T with M %d, N %d, K %d, relative Frobenius "
           "error against the unpruned product:\n", M, N, K);
    for (int kind = 0; kind < KINDS; kind++) {
        double we, ye;
        prune_error(rng, kind, M, N, K, &we, &ye);
        printf("    %-32s weights %6.2f %%, y %6.2f %%\n", KIND_NAME[kind], 100 * we, 100 * ye);
    }
}

START_TEST(prune_cost)
{
    wb_rng rng = WB_RNG();
    print_prune_errors(&rng, 16, 256, 1024);
}
END_TEST

/* ---------------------------------------------------------------- w61.gemm: the layout on one mma.sp */

static const char *HYP_NAME[HYPS] = {
    "sp24_pack.h's layout: thread 2 sel + h holds k 16h..16h+15, row g in bits 0-15, g+8 in 16-31",
    "rows g and g+8 swapped between the halves of the word",
    "the two threads of the pair swapped (thread 2 sel holds k 16..31)",
    "the two fields of a nibble swapped (i1 in bits 0-1)",
    "thread 2 sel holds row g (k 0-15 low, 16-31 high), thread 2 sel + 1 row g + 8",
};

START_TEST(mma_sp_layout)
{
    NEED_SM80();
    wb_rng rng = WB_RNG();
    static int pos[16][8][2];
    float D[16][8];
    uint32_t ha[128], hb[128], he[32];
    float hd[128];
    layout_regs(&rng, pos, ha, hb, D);
    uint32_t *da = wb_dcopy(ha, sizeof ha), *db = wb_dcopy(hb, sizeof hb), *de = wb_dmalloc(sizeof he);
    float *dd = wb_dmalloc(sizeof hd);
    char report[600] = "";
    int layout_ok = 1;
    for (int sel = 0; sel < 2; sel++) {
        int matched = -1;
        for (int h = 0; h < HYPS; h++) {
            for (int l = 0; l < 32; l++) he[l] = hyp_word((const int (*)[8][2])pos, h, sel, l);
            wb_h2d(de, he, sizeof he);
            wb_dpoison(dd, sizeof hd);
            WB_CUDA(sp24_probe_one(da, db, de, sel, dd));
            WB_CUDA(cudaDeviceSynchronize());
            wb_d2h(hd, dd, sizeof hd);
            int bad = 0;
            for (int l = 0; l < 32; l++) {
                const int g = l >> 2, t = l & 3;
                const float want[4] = { D[g][2 * t], D[g][2 * t + 1], D[g + 8][2 * t], D[g + 8][2 * t + 1] };
                for (int i = 0; i < 4; i++) bad += hd[4 * l + i] != want[i];
            }
            if (!bad) {
                matched = h;
                break;
            }
            if (h == HYP_LAYOUT) layout_ok = 0;
        }
        size_t used = strlen(report);
        snprintf(report + used, sizeof report - used, " selector %d: %s.", sel,
                 matched < 0 ? "no hypothesis tried matches the hardware" : HYP_NAME[matched]);
    }
    wb_dfree(da), wb_dfree(db), wb_dfree(de), wb_dfree(dd);
    ck_assert_msg(layout_ok, "one mma.sp.m16n8k32 (f16) with registers built by sp24_pack.h's metadata layout gave a "
                             "wrong D: the layout the workbook states is not the hardware's (authors: fix sp24_pack.h, "
                             "the reference and the README). What matched:%s", report);
}
END_TEST

/* ---------------------------------------------------------------- w61.gemm: correctness */


static sp_layer layer_make(wb_rng *rng, int M, int N, int K)
{
    sp_layer L = { M, N, K, NULL, NULL, NULL, NULL };
    const size_t nk = (size_t)N * K;
    uint16_t *w = wb_hmalloc(nk * 2 + 16);
    fill_weights(rng, w, N, K);
    ref_prune(w, w, nk);
    L.vals = wb_hmalloc(nk + 16);
    L.meta = wb_hmalloc(meta_words(N, K) * 4 + 16);
    ck_assert(ref_compress(w, L.vals, L.meta, N, K) == 0);
    free(w);
    L.kpos = wb_hmalloc(nk + 16);
    for (int n = 0; n < N; n++)
        for (int k = 0; k < K; k += 4) {
            int i0, i1;
            ref_decode(L.meta, n, k, K, &i0, &i1);
            L.kpos[(size_t)n * (K / 2) + k / 2] = (int16_t)(k + i0);
            L.kpos[(size_t)n * (K / 2) + k / 2 + 1] = (int16_t)(k + i1);
        }
    L.x = wb_hmalloc((size_t)M * K * 2 + 16);
    fill_x(rng, L.x, (size_t)M * K);
    return L;
}

static void layer_free(sp_layer *L) { free(L->x), free(L->vals), free(L->meta), free(L->kpos); }


static void check_case(wb_rng *rng, sp_shape sh)
{
    const int M = sh.M, N = sh.N, K = sh.K;
    sp_layer L = layer_make(rng, M, N, K);
    uint16_t *dx = wb_dcopy(L.x, (size_t)M * K * 2), *dv = wb_dcopy(L.vals, (size_t)N * K);
    uint32_t *dm = wb_dcopy(L.meta, meta_words(N, K) * 4);
    wb_dout o;
    uint16_t *dy = wb_dout_alloc(&o, "y", (size_t)M * N * 2, 0);
    char what[120];
    snprintf(what, sizeof what, "sp24_gemm M=%d N=%d K=%d", M, N, K);
    WB_CUDA(sp24_gemm(dx, dv, dm, dy, M, N, K));
    uint16_t *got = wb_hmalloc((size_t)M * N * 2 + 16);
    wb_expect_dout_guards(&o, got, what);
    for (size_t i = 0; i < (size_t)M * N; i++)
        if ((got[i] & 0x7c00u) == 0x7c00u)
            ck_abort_msg("%s (seed %llu): y[%zu][%zu] = 0x%04x is not finite (never written?)", what,
                         (unsigned long long)wb_base_seed(), i / N, i % N, got[i]);
    int *rows = wb_hmalloc((size_t)M * sizeof(int) + 64), nr = case_rows(rng, sh, rows);
    size_t bad = 0;
    char first[200] = "";
    for (int r = 0; r < nr; r++)
        for (int n = 0; n < N; n++) {
            const int m = rows[r];
            double nrm, ref = ref_out(&L, L.x, m, n, &nrm), g = wb_f16_to_f32(got[(size_t)m * N + n]);
            if (sp_close(g, ref, nrm)) continue;
            if (!bad++)
                snprintf(first, sizeof first, "y[%d][%d] expected %.6g got %.6g (tolerance %.3g)", m, n, ref, g,
                         SP_ATOL * nrm + SP_RTOL * fabs(ref));
        }
    if (bad)
        ck_abort_msg("%s (seed %llu): %zu of %zu outputs wrong; first %s", what, (unsigned long long)wb_base_seed(), bad,
                     (size_t)nr * N, first);
    free(rows), free(got);
    wb_dfree(dx), wb_dfree(dv), wb_dfree(dm), wb_dout_free(&o);
    layer_free(&L);
}

START_TEST(gemm_shapes)
{
    NEED_SM80();
    wb_rng rng = WB_RNG();
    check_case(&rng, SHAPES[_i]);
}
END_TEST

/* M or N == 0 writes nothing; K == 0 is an empty sum: y = 0. */
START_TEST(gemm_edges)
{
    NEED_SM80();
    uint16_t *d = wb_dmalloc(4096);
    wb_dpoison(d, 4096);
    wb_dout o;
    uint16_t *dy = wb_dout_alloc(&o, "y", 3 * 48 * 2, 0);
    uint16_t host[3 * 48];
    WB_CUDA(sp24_gemm(d, d, (const uint32_t *)d, dy, 0, 48, 64));
    wb_expect_dout_guards(&o, host, "M == 0 (N 48, K 64) writes nothing");
    for (int i = 0; i < 3 * 48; i++) ck_assert_msg(host[i] == 0xFFFFu, "M == 0: y[%d] was written", i);
    WB_CUDA(sp24_gemm(d, d, (const uint32_t *)d, dy, 3, 0, 64));
    wb_expect_dout_guards(&o, host, "N == 0 (M 3, K 64) writes nothing");
    for (int i = 0; i < 3 * 48; i++) ck_assert_msg(host[i] == 0xFFFFu, "N == 0: y[%d] was written", i);
    WB_CUDA(sp24_gemm(d, d, (const uint32_t *)d, dy, 3, 48, 0));
    wb_expect_dout_guards(&o, host, "K == 0 (M 3, N 48) gives y = 0");
    for (int i = 0; i < 3 * 48; i++)
        ck_assert_msg((host[i] & 0x7fffu) == 0, "K == 0: y[%d][%d] = 0x%04x, expected 0", i / 48, i % 48, host[i]);
    wb_dfree(d), wb_dout_free(&o);
}
END_TEST

/* Bad arguments are refused before anything is launched, so this runs
 * without a GPU: the pointers are never dereferenced. */
START_TEST(gemm_refusals)
{
    const uintptr_t base = (uintptr_t)1 << 20;
    const uint16_t *x = (const uint16_t *)base, *v = (const uint16_t *)(base + 4096);
    const uint32_t *m = (const uint32_t *)(base + 8192);
    uint16_t *y = (uint16_t *)(base + 12288);
    const struct { int M, N, K; const char *why; } bad[] = {
        { -1, 16, 64, "M < 0" },  { 3, -16, 64, "N < 0" },  { 3, 16, -64, "K < 0" },
        { 3, 16, 6, "K not a multiple of the group of 4" }, { 3, 16, 100, "K not a multiple of 64" },
        { 3, 16, 32, "K not a multiple of 64" }, { 3, 8, 64, "N not a multiple of 16" }, { 3, 24, 64, "N not a multiple of 16" },
    };
    for (size_t i = 0; i < WB_COUNT(bad); i++) {
        cudaError_t e = sp24_gemm(x, v, m, y, bad[i].M, bad[i].N, bad[i].K);
        ck_assert_msg(e == cudaErrorInvalidValue, "sp24_gemm(M=%d, N=%d, K=%d): %s must return cudaErrorInvalidValue, "
                                                  "got %d", bad[i].M, bad[i].N, bad[i].K, bad[i].why, (int)e);
    }
    const char *which[] = { "x", "vals", "meta", "y" };
    for (int p = 0; p < 4; p++) {
        cudaError_t e = sp24_gemm(p == 0 ? x + 4 : x, p == 1 ? v + 4 : v, p == 2 ? m + 2 : m, p == 3 ? y + 1 : y, 3, 16, 64);
        ck_assert_msg(e == cudaErrorInvalidValue, "sp24_gemm: a %s that is not 16-byte aligned must be refused, got %d",
                      which[p], (int)e);
    }
}
END_TEST

/* ---------------------------------------------------------------- speed */

enum { SP_M = 4096, SP_N = 8192, SP_K = 8192, SEED_SP = 6101 };

typedef struct {
    sp_layer L;
    uint16_t *x0;                /* the first x (L.x is the current one) */
    uint16_t *dx, *dv, *dy, *dyc, *dwd;
    uint32_t *dm;
    uint16_t *hy;
    cublasHandle_t h;
} sp_bench;

/* The checkpoint's layer: W random and pruned by the reference, x uniform;
 * on the device the compressed W, its dense decompressed form for cuBLAS,
 * x and two outputs. */
static void bench_open(sp_bench *b)
{
    wb_rng rng;
    wb_rng_seed(&rng, SEED_SP);
    memset(b, 0, sizeof *b);
    b->L = layer_make(&rng, SP_M, SP_N, SP_K);
    const size_t nk = (size_t)SP_N * SP_K, mk = (size_t)SP_M * SP_K, mn = (size_t)SP_M * SP_N;
    b->x0 = wb_hmalloc(mk * 2);
    memcpy(b->x0, b->L.x, mk * 2);
    uint16_t *wd = wb_hmalloc(nk * 2);
    ref_decompress(b->L.vals, b->L.meta, wd, SP_N, SP_K);
    b->dwd = wb_dcopy(wd, nk * 2);
    free(wd);
    b->dx = wb_dcopy(b->L.x, mk * 2);
    b->dv = wb_dcopy(b->L.vals, nk);
    b->dm = wb_dcopy(b->L.meta, meta_words(SP_N, SP_K) * 4);
    b->dy = wb_dmalloc(mn * 2), b->dyc = wb_dmalloc(mn * 2);
    b->hy = wb_hmalloc(mn * 2);
    b->h = wb_cublas_handle(0);
}

static void bench_close(sp_bench *b)
{
    cublasDestroy(b->h);
    wb_dfree(b->dx), wb_dfree(b->dv), wb_dfree(b->dm), wb_dfree(b->dy), wb_dfree(b->dyc), wb_dfree(b->dwd);
    free(b->x0), free(b->hy);
    layer_free(&b->L);
}

/* Check `samples` outputs of y (device) against the double reference on x
 * (host): the first and last 32 and random ones. The count wrong, the
 * first in why. */
static size_t bench_verify(sp_bench *b, const uint16_t *x, const uint16_t *dy, int samples, char *why, size_t wsize)
{
    const size_t n = (size_t)SP_M * SP_N;
    wb_d2h(b->hy, dy, n * 2);
    wb_rng rng;
    wb_rng_seed(&rng, 0x5eed61);
    size_t bad = 0;
    for (int i = 0; i < samples + 64; i++) {
        size_t e = i < 32 ? (size_t)i : i < 64 ? n - 64 + (size_t)i : (size_t)wb_rng_int(&rng, 0, (int64_t)n - 1);
        const int m = (int)(e / SP_N), c = (int)(e % SP_N);
        double nrm, ref = ref_out(&b->L, x, m, c, &nrm), got = wb_f16_to_f32(b->hy[e]);
        if (sp_close(got, ref, nrm)) continue;
        if (!bad++) snprintf(why, wsize, "y[%d][%d] expected %.6g got %.6g", m, c, ref, got);
    }
    return bad;
}

static void sp_work(void *p)
{
    sp_bench *b = p;
    WB_CUDA(sp24_gemm(b->dx, b->dv, b->dm, b->dy, SP_M, SP_N, SP_K));
}

/* cuBLAS on the dense pruned weights: row-major y = x W^T is column-major
 * y^T = W x^T, with W (row-major N x K) seen as column-major K x N,
 * transposed: the "TN" GEMM. */
static void sp_cublas(void *p)
{
    sp_bench *b = p;
    const float one = 1.f, zero = 0.f;
    WB_CUBLAS(cublasGemmEx(b->h, CUBLAS_OP_T, CUBLAS_OP_N, SP_N, SP_M, SP_K, &one, b->dwd, CUDA_R_16F, SP_K, b->dx,
                           CUDA_R_16F, SP_K, &zero, b->dyc, CUDA_R_16F, SP_N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
              "the dense yardstick");
}

/* Spot check: a new x (salted) and a poisoned y for one timed run; salt 0 puts the first x back. */
static void sp_fresh(void *p, unsigned long long salt)
{
    sp_bench *b = p;
    const size_t mk = (size_t)SP_M * SP_K;
    if (salt) {
        wb_rng rng;
        wb_rng_seed(&rng, salt);
        fill_x(&rng, b->L.x, mk);
    } else {
        memcpy(b->L.x, b->x0, mk * 2);
    }
    wb_h2d(b->dx, b->L.x, mk * 2);
    wb_dpoison(b->dy, (size_t)SP_M * SP_N * 2);
}

static int sp_check(void *p, char *why, size_t size)
{
    sp_bench *b = p;
    return bench_verify(b, b->L.x, b->dy, 256, why, size) ? 1 : 0;
}

/* cuBLAS's row (the yardstick), both outputs checked. */
static wb_bench_row cublas_row(sp_bench *b)
{
    const double flops = 2.0 * SP_M * SP_N * SP_K;
    char why[200];
    wb_bench_row lib = { .exercise = "sp24_gemm", .variant = "cuBLAS GemmEx, dense pruned FP16", .n = SP_M,
                         .flops = flops, .bytes = 2.0 * SP_M * SP_K + 2.0 * SP_N * SP_K + 2.0 * SP_M * SP_N,
                         .unit = "TFLOP/s" };
    wb_dpoison(b->dyc, (size_t)SP_M * SP_N * 2);
    wb_time(sp_cublas, b, NULL, &lib.t);
    lib.value = flops / (lib.t.median * 1e-3) / 1e12;
    if (bench_verify(b, b->x0, b->dyc, 512, why, sizeof why)) wb_bench_invalid(&lib, why);
    return lib;
}

/* The checkpoint's row: M = 4096, K = N = 8192 (x 64 MiB, the compressed W
 * 64 MiB and its metadata 8 MiB, y 64 MiB: each past the H100's 50 MB L2,
 * as a prefill layer's are), TFLOP/s counted as the dense product's 2 M N K
 * against cuBLAS on the same weights decompressed, same run. */
static wb_bench_row speed_row(sp_bench *b)
{
    const double flops = 2.0 * SP_M * SP_N * SP_K;
    wb_bench_row lib = cublas_row(b);
    wb_bench_emit(&lib);
    wb_bench_row row = { .exercise = "sp24_gemm", .variant = "yours, 2:4 on mma.sp", .n = SP_M, .flops = flops,
                         .bytes = 2.0 * SP_M * SP_K + (double)SP_N * SP_K + SP_N * (double)SP_K / 8 + 2.0 * SP_M * SP_N,
                         .unit = "TFLOP/s", .yard_name = "cuBLAS", .yard = lib.invalid ? NAN : lib.value };
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = sp_fresh, o.check = sp_check;
    wb_dpoison(b->dy, (size_t)SP_M * SP_N * 2);
    wb_time(sp_work, b, &o, &row.t);
    row.value = flops / (row.t.median * 1e-3) / 1e12;
    char why[200];
    if (bench_verify(b, b->x0, b->dy, 512, why, sizeof why)) wb_bench_invalid(&row, why);
    return row;
}

START_TEST(sparse_speed)
{
    NEED_SM80();
    sp_bench b;
    bench_open(&b);
    wb_bench_row row = speed_row(&b);
    wb_expect_target_row("w61.sparse-speed", &row);
    bench_close(&b);
}
END_TEST

/* `bench NAME=speed`: the checkpoint's rows, printed (the test judges them). */
static double bench_speed(void)
{
    if (wb_this_device()->cc_major < 8) {
        printf("speed: skipped, mma.sp needs compute capability 8.0 (this GPU is %d.%d)\n", wb_this_device()->cc_major,
               wb_this_device()->cc_minor);
        return NAN;
    }
    sp_bench b;
    bench_open(&b);
    wb_bench_row row = speed_row(&b);
    wb_bench_emit(&row);
    bench_close(&b);
    return wb_bench_ratio(&row);
}

/* ---------------------------------------------------------------- the probe: where the target comes from */

typedef struct { int sparse, smem, blocks, iters; float *out; } probe_run;

static void probe_work(void *p)
{
    probe_run *r = p;
    WB_CUDA(sp24_probe_mma(r->sparse, r->smem, r->blocks, r->iters, r->out));
}

/* `bench NAME=probe`: the tensor cores' rate for week 26's warp tile (64 x
 * 64, 32 mmas a k-step, 8 warps a block, a block an SM), dense mma.sync
 * m16n8k16 against mma.sp m16n8k32, the fragments kept in registers and
 * loaded by ldmatrix every k-step; each in dense-equivalent TFLOP/s against
 * cuBLAS at the checkpoint's shape. The ldmatrix-fed sparse rate over
 * cuBLAS is what an mma.sp kernel with this warp tile can reach at best;
 * the README says how the target follows. */
static double bench_probe(void)
{
    if (wb_this_device()->cc_major < 8) {
        printf("probe: skipped, mma.sp needs compute capability 8.0 (this GPU is %d.%d)\n", wb_this_device()->cc_major,
               wb_this_device()->cc_minor);
        return NAN;
    }
    sp_bench b;
    bench_open(&b);
    wb_bench_row lib = cublas_row(&b);
    wb_bench_emit(&lib);
    const double yard = lib.invalid ? NAN : lib.value;
    bench_close(&b);

    const int blocks = wb_this_device()->sm_count, iters = 2048;
    float *out = wb_dmalloc((size_t)blocks * 256 * 4), *host = wb_hmalloc((size_t)blocks * 256 * 4);
    static const char *VAR[2][2] = { { "probe: mma.sync m16n8k16, registers", "probe: mma.sync m16n8k16, ldmatrix-fed" },
                                     { "probe: mma.sp m16n8k32, registers", "probe: mma.sp m16n8k32, ldmatrix-fed" } };
    double tf[2][2];
    for (int smem = 0; smem < 2; smem++)
        for (int sparse = 0; sparse < 2; sparse++) {
            probe_run r = { sparse, smem, blocks, iters, out };
            const double flops = (double)blocks * 8 * iters * 32 * 2.0 * 16 * 8 * (sparse ? 32 : 16);
            wb_bench_row row = { .exercise = "sp24_probe", .variant = VAR[sparse][smem], .n = (size_t)blocks,
                                 .flops = flops, .unit = "TFLOP/s", .yard_name = "cuBLAS", .yard = yard };
            wb_dpoison(out, (size_t)blocks * 256 * 4);
            wb_time(probe_work, &r, NULL, &row.t);
            row.value = flops / (row.t.median * 1e-3) / 1e12;
            wb_d2h(host, out, (size_t)blocks * 256 * 4);
            for (int i = 0; i < blocks * 256; i++)
                if (host[i] != 8.0f * iters) {
                    char why[120];
                    snprintf(why, sizeof why, "thread %d summed %g, expected %g", i, host[i], 8.0 * iters);
                    wb_bench_invalid(&row, why);
                    break;
                }
            wb_bench_emit(&row);
            tf[sparse][smem] = row.invalid ? NAN : row.value;
        }
    printf("  sparse over dense: %.3f from registers, %.3f ldmatrix-fed; the ldmatrix-fed sparse rate is %.3f of "
           "cuBLAS (the ceiling of an mma.sp kernel with this warp tile), the dense one %.3f\n",
           tf[1][0] / tf[0][0], tf[1][1] / tf[0][1], tf[1][1] / yard, tf[0][1] / yard);
    wb_dfree(out), free(host);
    return tf[1][1] / yard;
}

/* `bench NAME=accuracy`: what pruning costs, at a larger size than the CPU
 * test prints (double precision on the CPU; the GPU is not used). */
static double bench_accuracy(void)
{
    wb_rng rng;
    wb_rng_seed(&rng, 6102);
    print_prune_errors(&rng, 64, 1024, 4096);
    return NAN;
}

static const wb_test TESTS[] = {
    { "w61.pack", WB_T(prune_exhaustive), WB_CPU, 0 },
    { "w61.pack", WB_T(compress_example), WB_CPU, 0 },
    { "w61.pack", WB_T(compress_exhaustive), WB_CPU, 0 },
    { "w61.pack", WB_T(compress_random_refusals), WB_CPU, 0 },
    { "w61.pack", WB_T(prune_cost), WB_CPU, 0 },
    { "w61.gemm", WB_T(gemm_refusals), WB_CPU, 0 },
    { "w61.gemm", WB_T(mma_sp_layout), WB_GPU, 0 },
    { "w61.gemm", WB_T(gemm_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w61.gemm", WB_T(gemm_edges), WB_GPU, 0 },
    { "w61.sparse-speed", WB_T(sparse_speed), WB_GPU, 0 },
};

/* Benchmarks that serve no checkpoint: the speed rows (the test judges
 * them), the probe that sets the target, and what pruning costs. */
static const wb_benchmark BENCHES[] = {
    { "speed", bench_speed },
    { "probe", bench_probe },
    { "accuracy", bench_accuracy, .cpu_only = 1 }, /* the CPU alone: runs without a GPU */
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
