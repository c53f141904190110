/* w02_checks.h — what week 02's checks expect, shared by the week's test
 * program (test_week02.c) and the instructor's judge (instructor/judge_w02.c,
 * which runs the student's code in a separate runner): the sizes, how each
 * case is drawn from its generator and what it must give, the tolerances,
 * the launch configurations, and the check of bug_check_launch's message.
 * Change a check here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below; the
 * test asserts it). The judge draws case i from wb_rng_for_seed(seed, TAG, i)
 * through the same functions, so for a seed it gets the test's cases, sizes
 * and inputs alike. */
#ifndef W02_CHECKS_H
#define W02_CHECKS_H

#include <stdio.h>
#include <string.h>

#include "bugs.h"
#include "wb_rand.h"

/* Sizes: empty, one, a warp, block edges, not a multiple of any block, large. */
static const size_t W02_SIZES[] = { 0, 1, 31, 255, 256, 257, 1000, 1023, 1024, 1025, 4097, 100003, 1 << 20, 3000017 };
#define W02_N_SIZES (sizeof W02_SIZES / sizeof W02_SIZES[0])

/* ---------------------------------------------------------------- 1. scale */

#define W02_SCALE_SIZES_TAG "scale_sizes_fn"
#define W02_SCALE_EXACT_TAG "scale_exact_allocation_fn"
#define W02_SCALE_EXACT_N   1000
#define W02_SCALE_RTOL      1e-7 /* atol 0 */

/* n inputs in [-10, 10) into hx, then s in [-2, 2); ref = s x. Returns s. */
static inline float w02_scale_case(wb_rng *r, float *hx, float *ref, size_t n)
{
    wb_fill_uniform_f32(r, hx, n, -10, 10);
    float s = (float)wb_rng_unit(r) * 4 - 2;
    for (size_t i = 0; i < n; i++) ref[i] = s * hx[i];
    return s;
}

/* ---------------------------------------------------------------- 2. histogram */

#define W02_HIST_SIZES_TAG   "histogram_sizes_fn"
#define W02_HIST_ONE_BIN_TAG "histogram_one_bin_fn"
#define W02_HIST_ONE_BIN_N   ((size_t)1 << 16)

/* n keys of any value below 1000003 (the kernel takes each % HIST_BINS); ref the counts. */
static inline void w02_hist_case(wb_rng *r, unsigned *hk, size_t n, unsigned ref[HIST_BINS])
{
    wb_fill_u32(r, hk, n, 1000003u);
    memset(ref, 0, HIST_BINS * sizeof *ref);
    for (size_t i = 0; i < n; i++) ref[hk[i] % HIST_BINS]++;
}

/* W02_HIST_ONE_BIN_N keys, all in one bin drawn first: every thread of every warp collides. */
static inline void w02_hist_one_bin_case(wb_rng *r, unsigned *hk, unsigned ref[HIST_BINS])
{
    size_t n = W02_HIST_ONE_BIN_N;
    unsigned b = (unsigned)wb_rng_int(r, 0, HIST_BINS - 1);
    for (size_t i = 0; i < n; i++) hk[i] = b + HIST_BINS * (unsigned)wb_rng_int(r, 0, 1000);
    memset(ref, 0, HIST_BINS * sizeof *ref);
    ref[b] = (unsigned)n;
}

/* ---------------------------------------------------------------- 3. reverse */

#define W02_REVERSE_TAG "reverse_sizes_fn"

/* n inputs in [-1, 1); ref reversed in segments of REVERSE_SEG (a permutation: compared exactly). */
static inline void w02_reverse_case(wb_rng *r, float *hx, float *ref, size_t n)
{
    wb_fill_uniform_f32(r, hx, n, -1, 1);
    for (size_t base = 0; base < n; base += REVERSE_SEG) {
        size_t m = n - base < REVERSE_SEG ? n - base : REVERSE_SEG;
        for (size_t t = 0; t < m; t++) ref[base + t] = hx[base + m - 1 - t];
    }
}

/* ---------------------------------------------------------------- 4. normalise */

#define W02_NORMALISE_SIZES_TAG "normalise_sizes_fn"
#define W02_NORMALISE_FRESH_TAG "normalise_fresh_workspace_fn"
#define W02_NORMALISE_FRESH_N   5000
#define W02_NORMALISE_RTOL      1e-5 /* atol 0 */

/* n inputs in [1, 2) (positive: the sum is far from 0); ref = x / sum (in double). */
static inline void w02_normalise_case(wb_rng *r, float *hx, float *ref, size_t n)
{
    wb_fill_uniform_f32(r, hx, n, 1, 2);
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += hx[i];
    for (size_t i = 0; i < n; i++) ref[i] = (float)(hx[i] / sum);
}

/* ---------------------------------------------------------------- 5. affine */

#define W02_AFFINE_TAG   "affine_configs_fn"
#define W02_AFFINE_MAX_N 300000
#define W02_AFFINE_TOL   1e-6 /* atol and rtol */

/* Good configurations must run correctly; bad ones must come back as errors. */
static const struct { int block; size_t smem; int ok; } W02_CONFIGS[] = {
    { 256, 0, 1 }, { 1024, 0, 1 }, { 96, 0, 1 }, { 32, 4096, 1 },
    { 2048, 0, 0 },        /* more threads per block than any device allows */
    { 1025, 0, 0 },
    { 256, 1 << 20, 0 },   /* 1 MiB of dynamic shared memory: no device has it */
};
#define W02_N_CONFIGS (sizeof W02_CONFIGS / sizeof W02_CONFIGS[0])

/* n in [1000, W02_AFFINE_MAX_N] drawn first, then n inputs in [-10, 10), a and
 * b in [-2, 2); ref = a x + b. Returns n. */
static inline size_t w02_affine_case(wb_rng *r, float *hx, float *ref, float *a, float *b)
{
    size_t n = (size_t)wb_rng_int(r, 1000, W02_AFFINE_MAX_N);
    wb_fill_uniform_f32(r, hx, n, -10, 10);
    *a = (float)wb_rng_unit(r) * 4 - 2;
    *b = (float)wb_rng_unit(r) * 4 - 2;
    for (size_t i = 0; i < n; i++) ref[i] = *a * hx[i] + *b;
    return n;
}

/* ---------------------------------------------------------------- 6. bug_check_launch */

#define W02_GOOD_TAG  "check_launch_good_fn"
#define W02_GOOD_MAX_N 100000
#define W02_BAD_N     4097 /* the output of the bad launches (nothing runs) */

/* The bad launches of w02_launch_fill that bug_check_launch must report. */
static const struct { int block; size_t smem; } W02_BAD_LAUNCHES[] = { { 2048, 0 }, { 256, 1 << 20 } };
#define W02_N_BAD_LAUNCHES (sizeof W02_BAD_LAUNCHES / sizeof W02_BAD_LAUNCHES[0])

/* The good launch: n in [1, W02_GOOD_MAX_N], then the value v in [0, 1). */
static inline size_t w02_good_case(wb_rng *r, float *v)
{
    size_t n = (size_t)wb_rng_int(r, 1, W02_GOOD_MAX_N);
    *v = (float)wb_rng_unit(r);
    return n;
}

/* bug_check_launch's message for an error e, in a buffer of cap bytes:
 * terminated within them, starting with the label, naming the error
 * (cudaGetErrorName) and, with meaning set, saying what it means
 * (cudaGetErrorString). 0 when it does, else 1 with why. */
static inline int w02_report_check(const char *label, cudaError_t e, const char *msg, size_t cap, int meaning,
                                   char *why, size_t why_n)
{
    if (memchr(msg, 0, cap) == NULL) return snprintf(why, why_n, "the message is not a terminated string"), 1;
    if (strstr(msg, label) != msg)
        return snprintf(why, why_n, "the message must start with the label '%s': \"%.200s\"", label, msg), 1;
    if (strstr(msg, cudaGetErrorName(e)) == NULL)
        return snprintf(why, why_n, "the message must name the error (%s): \"%.200s\"", cudaGetErrorName(e), msg), 1;
    if (meaning && strstr(msg, cudaGetErrorString(e)) == NULL)
        return snprintf(why, why_n, "the message must say what it means (%s): \"%.200s\"", cudaGetErrorString(e), msg), 1;
    return 0;
}

#endif
