/* w36_checks.h — what week 36's checks expect, shared by the week's test
 * program (test_week36.c) and the instructor's judge (instructor/
 * judge_w36.c, which runs the student's code in a separate runner): the
 * traffic model, the mask, the double reference, the shapes, specials and
 * offsets of every case, how each case's inputs are drawn from its
 * generator, the tolerances, and the benchmarks' shapes and input range.
 * Change a check here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below; the
 * test asserts it). The judge draws case i from wb_rng_for_seed(seed, TAG, i)
 * through the same functions, so for a seed it gets the test's cases. */
#ifndef W36_CHECKS_H
#define W36_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "smx.h"
#include "split.h"
#include "traffic.h"
#include "wb_cuda.h"
#include "wb_rand.h"

#define W36_COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define W36_SMX_SHAPES_TAG    "smx_shapes_fn"
#define W36_SMX_OFFSETS_TAG   "smx_offsets_fn"
#define W36_SPLIT_SHAPES_TAG  "split_shapes_fn"
#define W36_SPLIT_OFFSETS_TAG "split_offsets_fn"
#define W36_SPLIT_LONG_TAG    "split_long_fn"

static const char *const VARIANT_NAMES[FUS_VARIANTS] = { "unfused (given)", "fused (yours)", "split (yours)" };

/* The week's traffic model (README, "The traffic model"), bytes a score:
 * what traffic_variant_bytes must say. */
static double model_bytes_per_score(int variant, int cols, int causal)
{
    switch (variant) {
    case FUS_UNFUSED: return causal ? 24 : 16;  /* scale 8, mask 8 (causal only), softmax 8 */
    case FUS_FUSED: return cols <= SMX_ONCHIP_COLS ? 8 : 12;
    case FUS_SPLIT: return 12;
    default: return -1;
    }
}

/* Keys 0 .. kept-1 of flattened row r survive the mask (smx.h). */
static long long kept_of(size_t r, int rows, int cols, int causal)
{
    long long n_keep = causal ? (long long)(r % (size_t)rows) + 1 + (cols - rows) : cols; /* keys 0 .. i + cols - rows */
    if (n_keep < 0) n_keep = 0;
    return n_keep > cols ? cols : n_keep;
}

/* z as the kernels make it: the float product scale * s, rounded once (the
 * product of two floats is exact in double; one rounding to float). */
static float zscale(float scale, float s) { return (float)((double)scale * (double)s); }

/* traffic_model's shapes (batch, rows, cols, causal), its empty ones
 * (batch, rows, cols: 0 bytes), and split_tmp_size's (batch, rows, cols). */
static const int TRAFFIC_SH[][4] = { { 100, 256, 4096, 1 }, { 32, 1, 3276800, 1 }, { 4, 128, 8192, 0 }, { 4, 128, 8193, 0 },
                                     { 2, 5, 7, 1 },        { 2, 5, 7, 0 },        { 1, 1, 1, 1 },      { 7, 3, 8191, 1 },
                                     { 1, 2, 100000, 0 },   { 70000, 1, 5, 0 } };
static const int TRAFFIC_EMPTY[][3] = { { 0, 5, 5 }, { 3, 0, 5 }, { 3, 5, 0 }, { -1, 5, 5 }, { 3, 5, -7 } };
static const int TMP_SH[][3] = { { 1, 1, 1 }, { 2, 3, 16384 }, { 2, 3, 16385 }, { 32, 1, 3276800 }, { 70000, 1, 5 } };

/* P of every flattened row in double, from the float z the kernels make. */
static void smx_ref(const float *S, double *ref, size_t nrows, int rows, int cols, float scale, int causal)
{
    double *z = wb_hmalloc((size_t)cols * 8);
    for (size_t r = 0; r < nrows; r++) {
        const float *x = &S[r * (size_t)cols];
        double *p = ref + r * (size_t)cols, m = -INFINITY, s = 0;
        long long kept = kept_of(r, rows, cols, causal);
        for (long long j = 0; j < cols; j++) {
            z[j] = j < kept ? (double)zscale(scale, x[j]) : -INFINITY;
            if (z[j] > m) m = z[j]; /* NaN compares false: skipped, as fmaxf does */
        }
        if (m == -INFINITY) { /* nothing kept: zeros */
            for (long long j = 0; j < cols; j++) p[j] = 0;
            continue;
        }
        for (long long j = 0; j < cols; j++) s += exp(z[j] - m);
        for (long long j = 0; j < cols; j++) p[j] = exp(z[j] - m) / s;
    }
    free(z);
}

/* The first eight flattened rows get the adversarial cases (cols >= 2):
 * 0 logits near 1e4 (exp overflows without the max), 1 logits of +-1e4,
 * 2 every third key -Inf, 3 all -Inf (zeros), 4 a NaN at a kept key (a NaN
 * row), 5 a +Inf at a kept key (a NaN row), 6 a NaN at a masked key (masked
 * away; -Inf at a key when nothing is masked), 7 -Inf at every kept key but
 * one (that one gets 1). */
static const char *const SPECIALS = "rows 0-7: near 1e4, +-1e4, some -Inf, all -Inf, a NaN, a +Inf, a masked NaN, one key left";

static void plant_specials(wb_rng *rng, float *S, size_t nrows, int rows, int cols, int causal)
{
    if (cols < 2) return;
    for (size_t r = 0; r < nrows && r < 8; r++) {
        float *x = S + r * (size_t)cols;
        long long kept = kept_of(r, rows, cols, causal);
        switch (r) {
        case 0:
            for (int j = 0; j < cols; j++) x[j] = 1e4f + (float)(wb_rng_unit(rng) * 16 - 8);
            break;
        case 1:
            for (int j = 0; j < cols; j++) x[j] = (float)((wb_rng_unit(rng) * 2 - 1) * 1e4);
            break;
        case 2:
            for (int j = 1; j < cols; j += 3) x[j] = -INFINITY;
            break;
        case 3:
            for (int j = 0; j < cols; j++) x[j] = -INFINITY;
            break;
        case 4:
            if (kept > 0) x[wb_rng_int(rng, 0, kept - 1)] = NAN;
            break;
        case 5:
            if (kept > 0) x[wb_rng_int(rng, 0, kept - 1)] = INFINITY;
            break;
        case 6:
            x[kept < cols ? wb_rng_int(rng, kept, cols - 1) : wb_rng_int(rng, 0, cols - 1)] = kept < cols ? NAN : -INFINITY;
            break;
        default:
            if (kept > 0) {
                long long keep = wb_rng_int(rng, 0, kept - 1);
                for (long long j = 0; j < kept; j++)
                    if (j != keep) x[j] = -INFINITY;
            }
        }
    }
}

/* Tolerances: P is compared at atol + rtol |ref|, atol a ten-thousandth of
 * the mean probability 1 / cols, so a masked key (ref 0) given any real
 * weight fails, and rtol for the float sum and exp. */
#define SMX_RTOL 2e-4
static double smx_atol(int cols) { return 1e-4 / (cols > 0 ? cols : 1); }

/* Scores: uniform in [W36_S_LO, W36_S_HI), in the cases and the benchmarks. */
#define W36_S_LO -16
#define W36_S_HI 16

/* A case's draws, in the test's order: the scale, then n + oS scores (the
 * case's S starts oS floats in), then the specials in its first rows.
 * Returns the scale. */
static float case_draw(wb_rng *rng, float *hS, size_t n, size_t oS, size_t nrows, int rows, int cols, int causal)
{
    float scale = (float)(0.05 + 0.2 * wb_rng_unit(rng));
    wb_fill_uniform_f32(rng, hS, n + oS, W36_S_LO, W36_S_HI);
    plant_specials(rng, hS + oS, nrows, rows, cols, causal);
    return scale;
}

/* batch, rows, cols, causal: empty shapes, one score, rows > cols (the first
 * rows - cols queries see no key), every template size of the on-chip
 * version and its edges, the long-row version, rows past 65535, split chunk
 * edges (16384) and a chunk with nothing kept (2 x 4 x 16386 causal: row 0
 * keeps 16383 keys). */
static const int SHAPES[][4] = {
    { 0, 3, 5, 1 },     { 2, 0, 4, 0 },       { 2, 3, 0, 1 },      { 1, 1, 1, 0 },          { 1, 1, 1, 1 },
    { 1, 1, 7, 1 },     { 3, 5, 5, 1 },       { 2, 7, 3, 1 },      { 1, 40, 3, 1 },         { 1, 9, 33, 0 },
    { 4, 33, 257, 1 },  { 2, 64, 511, 0 },    { 2, 64, 513, 1 },   { 1, 16, 1024, 1 },      { 1, 8, 2047, 0 },
    { 1, 8, 4096, 1 },  { 1, 6, 4097, 0 },    { 1, 4, 8192, 1 },   { 1, 3, 8193, 1 },       { 2, 3, 20000, 0 },
    { 2, 4, 16384, 1 }, { 2, 4, 16386, 1 },   { 1, 3, 49157, 1 },  { 1, 2, (1 << 20) + 3, 1 }, { 70000, 1, 5, 0 },
    { 3, 1000, 64, 1 },
};

/* Sub-arrays at any float offset: a float4 path must check the alignment of
 * both pointers (and that cols keeps every row aligned). Offset case k of
 * W36_N_OFFSETS: its shape drawn first, then the case as any other. */
#define W36_N_OFFSETS 8
static void offsets_shape(wb_rng *rng, int k, int *batch, int *rows, int *cols, int *causal, size_t *oS, size_t *oP)
{
    *batch = (int)wb_rng_int(rng, 1, 3), *rows = (int)wb_rng_int(rng, 8, 40);
    *cols = k < 4 ? 4 * (int)wb_rng_int(rng, 2, 600) : (int)wb_rng_int(rng, 8200, 12000);
    *causal = k & 1, *oS = (size_t)(k & 3), *oP = (size_t)((k >> 1) & 3);
}

/* split_long: many chunks a row, 4 M keys, 257 chunks, a NaN and the specials. */
#define W36_LONG_BATCH 1
#define W36_LONG_ROWS  9
#define W36_LONG_COLS  ((1 << 22) + 7)

/* The benchmarks: scale 1 / sqrt(64); prefill, 256 queries (a chunk of a
 * prompt) against 4096 keys, causal, as many heads as fill wb_bench_bytes();
 * decode, 32 heads of one query against as many keys as fill it (a multiple
 * of 4096); a modelled GB/s above FIT_HIGH x COPY counts bytes never moved. */
static const float BSCALE = 0.125f;
enum { PF_ROWS = 256, PF_COLS = 4096, DC_BATCH = 32 };
#define FIT_HIGH 1.15

#endif
