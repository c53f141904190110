/* w30_checks.h — what week 30's checks expect, shared by the week's test
 * program (test_week30.c) and the instructor's judge (instructor/
 * judge_w30.c, which runs the student's code in a separate runner): the
 * tolerance, the CPU check's cases and its two-pass reference, the GPU
 * checks' shapes, special rows and offset draws. Change a check here and
 * both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below; the
 * test asserts it); the offset cases draw from wb_rng_for(NAME, i), NAME the
 * function's. The judge draws case i from wb_rng_for_seed(seed, TAG, i)
 * through the same functions, so for a seed it gets the test's cases, sizes
 * and inputs alike. */
#ifndef W30_CHECKS_H
#define W30_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "wb_rand.h"

#define W30_COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define W30_ATOL 1e-7 /* every softmax output: atol + rtol |ref| against the double reference */
#define W30_RTOL 5e-5

/* ---------------------------------------------------------------- online (CPU) */

#define W30_ONLINE_CPU_TAG "online_cpu_fn"
#define W30_OC_MAX_N       200000 /* the longest x of the CPU check */

/* The two-pass definition, in double: m = max (NaN skipped, as fmaxf does),
 * s = sum of exp(x - m) with -Inf entries adding 0 (so a row of -Inf only
 * gives m = -Inf, s = 0; a +Inf gives s = NaN, Inf - Inf). */
static inline void w30_stats_ref(const float *x, size_t n, double *m, double *s)
{
    double mm = -INFINITY, ss = 0;
    for (size_t j = 0; j < n; j++)
        if (x[j] > mm) mm = x[j];
    for (size_t j = 0; j < n; j++)
        if (x[j] != -INFINITY) ss += exp((double)x[j] - mm);
    *m = mm, *s = ss;
}

/* Case k of the CPU check: what x holds. */
static const char *const W30_OC_WHAT[] = { "uniform in [-20, 20]",
                                           "near +1e4",
                                           "near -1e4",
                                           "increasing (a new max at every element)",
                                           "-Inf first, then finite",
                                           "all -Inf",
                                           "empty",
                                           "a NaN",
                                           "a +Inf",
                                           "one element",
                                           "over +-1e4, every third -Inf" };
#define W30_N_OC W30_COUNT(W30_OC_WHAT)

/* Case k's length, the generator's first draw (2 to W30_OC_MAX_N; 0 and 1
 * for the empty and one-element cases). */
static inline size_t w30_oc_n(wb_rng *rng, int k)
{
    size_t n = (size_t)wb_rng_int(rng, 2, W30_OC_MAX_N);
    if (k == 6) n = 0;
    if (k == 9) n = 1;
    return n;
}

/* Case k's x[0..n), from the generator after w30_oc_n. */
static inline void w30_oc_fill(wb_rng *rng, int k, float *x, size_t n)
{
    wb_fill_uniform_f32(rng, x, n, -20, 20);
    for (size_t j = 0; j < n; j++) {
        if (k == 1) x[j] = 1e4f + (float)(wb_rng_unit(rng) * 16 - 8);
        if (k == 2) x[j] = -1e4f + (float)(wb_rng_unit(rng) * 16 - 8);
        if (k == 3) x[j] = (float)(-50.0 + 100.0 * (double)j / (double)n);
        if (k == 4 && j < n / 3) x[j] = -INFINITY;
        if (k == 5) x[j] = -INFINITY;
        if (k == 10) x[j] = j % 3 == 2 ? -INFINITY : (float)(wb_rng_unit(rng) * 2e4 - 1e4);
    }
    if (k == 7) x[wb_rng_int(rng, 0, (int64_t)n - 1)] = NAN;
    if (k == 8) x[wb_rng_int(rng, 0, (int64_t)n - 1)] = INFINITY;
}

/* ---------------------------------------------------------------- GPU shapes */

#define W30_WARP_SHAPES_TAG   "warp_shapes_fn"
#define W30_BLOCK_SHAPES_TAG  "block_shapes_fn"
#define W30_ONLINE_SHAPES_TAG "online_shapes_fn"
#define W30_PAST_2G_TAG       "online_past_2g_fn"

/* Every register size of both kernels, the streamed path past 32768 and for
 * cols % 4 != 0, rows past 65535, groups of 8 and 16 lanes with a partial
 * warp of rows. */
static const int W30_SHAPES[][2] = { { 0, 5 },      { 5, 0 },     { 1, 1 },     { 9, 1 },      { 13, 8 },
                                     { 8, 31 },     { 9, 32 },    { 8, 33 },    { 37, 64 },    { 9, 100 },
                                     { 8, 256 },    { 9, 512 },   { 8, 1000 },  { 9, 1024 },   { 8, 1028 },
                                     { 9, 2048 },   { 8, 4096 },  { 9, 8192 },  { 8, 16388 },  { 9, 32768 },
                                     { 8, 32772 },  { 3, 100003 }, { 70000, 4 }, { 5000, 32 } };
#define W30_N_SHAPES W30_COUNT(W30_SHAPES)

/* Rows 0-7 when rows >= 8: near +1e4, near -1e4, over +-1e4, small with
 * every third -Inf, all -Inf (NaN), a NaN, a +Inf (NaN), near -1e4 with
 * every second -Inf. */
static inline void w30_specials(wb_rng *rng, float *x, int rows, int cols)
{
    if (rows < 8 || cols < 1) return;
    for (int j = 0; j < cols; j++) {
        x[j] = 1e4f + (float)(wb_rng_unit(rng) * 16 - 8);
        x[(size_t)cols + j] = -1e4f + (float)(wb_rng_unit(rng) * 16 - 8);
        x[2 * (size_t)cols + j] = (float)(wb_rng_unit(rng) * 2e4 - 1e4);
        if (j % 3 == 1) x[3 * (size_t)cols + j] = -INFINITY;
        x[4 * (size_t)cols + j] = -INFINITY;
        x[7 * (size_t)cols + j] = j % 2 ? -INFINITY : -1e4f + (float)(wb_rng_unit(rng) * 16 - 8);
    }
    x[5 * (size_t)cols + (size_t)wb_rng_int(rng, 0, cols - 1)] = NAN;
    x[6 * (size_t)cols + (size_t)wb_rng_int(rng, 0, cols - 1)] = INFINITY;
}

/* Offset case i (the generator: wb_rng_for(the function's name, i)): 8 to
 * 64 rows of 1 to 3000 floats, of 4 to 10000 (a multiple of 4) when
 * i % 3 == 0 (i = 0: the float4 paths; i = 3: the same cols, misaligned);
 * x one float off when i & 1, y when i & 2. */
#define W30_OFF_MAX_N (64 * 10000)
static inline void w30_offsets_case(wb_rng *rng, int i, int *rows, int *cols, size_t *ox, size_t *oy)
{
    *rows = (int)wb_rng_int(rng, 8, 64), *cols = (int)wb_rng_int(rng, 1, 3000);
    if (i % 3 == 0) *cols = 4 * (int)wb_rng_int(rng, 1, 2500);
    *ox = (size_t)(i & 1), *oy = (size_t)((i >> 1) & 1);
}

#endif
