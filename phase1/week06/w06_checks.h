/* w06_checks.h — what week 06's checks expect, shared by the week's test
 * program (test_week06.c) and the instructor's judge (instructor/judge_w06.c,
 * which runs the student's code in a separate runner): the shapes, strides
 * and sizes, how each case is drawn from its generator, the CPU references
 * and the polynomial's tolerance. Change a check here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below; the
 * test asserts it). The judge draws case i from wb_rng_for_seed(seed, TAG, i)
 * through the same functions, so for a seed it gets the test's cases. */
#ifndef W06_CHECKS_H
#define W06_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "constmem.h"
#include "wb_rand.h"

#define W06_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- transpose */

#define W06_TRANSPOSE_TAG "transpose_shapes_fn"
/* rows x cols: empty, one element, single rows and columns, tile edges, odd and long shapes */
static const int W06_TR[] = { 0, 1, 1, 33, 31, 32, 257, 1000, 4097, 3, 2049 };
static const int W06_TC[] = { 5, 1, 33, 1, 33, 32, 129, 3, 1025, 70001, 2047 };
#define W06_N_SHAPES W06_COUNT(W06_TR)

/* Shape i's input: rows x cols + 1 floats in [-1000, 1000) (one past the
 * end: a read past it is a wrong value, not a fault) and the expected
 * out[c * rows + r] = in[r * cols + c]. */
static inline void w06_transpose_case(wb_rng *r, int rows, int cols, float *in, float *ref)
{
    size_t n = (size_t)rows * cols;
    wb_fill_uniform_f32(r, in, n + 1, -1e3f, 1e3f);
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) ref[(size_t)x * rows + y] = in[(size_t)y * cols + x];
}

/* ---------------------------------------------------------------- strided */

#define W06_STRIDED_TAG "strided_correct_fn"
static const int W06_STRIDES_CORRECT[] = { 1, 2, 3, 4, 7, 8, 32, 33, 64, 1000 };
#define W06_N_STRIDED W06_COUNT(W06_STRIDES_CORRECT)
#define W06_STRIDED_MAX_R 20000

/* Case i: s = W06_STRIDES_CORRECT[i], R rows drawn (case 0: n = R = 1),
 * n = R s; the input (n floats in [-1, 1)) from the same generator. */
static inline size_t w06_strided_n(wb_rng *r, int i, size_t *R)
{
    int s = W06_STRIDES_CORRECT[i];
    *R = (size_t)wb_rng_int(r, 1, W06_STRIDED_MAX_R);
    size_t n = *R * (size_t)s;
    if (i == 0) n = 1, *R = 1;
    return n;
}
static inline void w06_strided_ref(const float *in, float *ref, size_t n, size_t R, int s)
{
    for (size_t i = 0; i < n; i++) ref[i] = in[(i % R) * (size_t)s + i / R];
}

/* The sweep's strides: one benchmark row each (w06.strided: every row's
 * output correct), one point each of strided.csv and its plot. */
static const int W06_SWEEP[] = { 1, 2, 4, 8, 16, 32, 64 };
#define W06_N_SWEEP W06_COUNT(W06_SWEEP)
/* The sweep's size: wb_bench_bytes() / 4 floats, a multiple of 64 (every stride divides it). */
static inline size_t w06_sweep_n(size_t bench_bytes) { return (bench_bytes / 4) & ~(size_t)63; }

/* ---------------------------------------------------------------- median of 9 */

#define W06_MEDIAN_TAG "median9_correct_fn"
static const size_t W06_MEDIAN_N[] = { 0, 1, 2, 5, 9, 257, 100003 };
#define W06_N_MEDIAN W06_COUNT(W06_MEDIAN_N)

/* The window's index k (0..8) around i: i + k - 4 clamped to [0, n-1]. */
static inline size_t w06_median9_at(size_t n, size_t i, int k)
{
    long long j = (long long)i + k - 4;
    return j < 0 ? 0 : (j >= (long long)n ? n - 1 : (size_t)j);
}
/* The median of 9 values (a fixed sort of a, in place). */
static inline float w06_median9_of(float a[9])
{
    for (int p = 0; p < 9; p++)
        for (int j = 0; j < 8 - p; j++)
            if (a[j] > a[j + 1]) {
                float t = a[j];
                a[j] = a[j + 1], a[j + 1] = t;
            }
    return a[4];
}
/* The median of the window in[clamp(i-4)] .. in[clamp(i+4)]. */
static inline float w06_median9_ref(const float *in, size_t n, size_t i)
{
    float a[9];
    for (int k = 0; k < 9; k++) a[k] = in[w06_median9_at(n, i, k)];
    return w06_median9_of(a);
}

/* Case i: n = W06_MEDIAN_N[i], the input n + 1 floats in [-10, 10), the
 * expected output. */
static inline void w06_median_case(wb_rng *r, size_t n, float *in, float *ref)
{
    wb_fill_uniform_f32(r, in, n + 1, -10, 10);
    for (size_t i = 0; i < n; i++) ref[i] = w06_median9_ref(in, n, i);
}

/* ---------------------------------------------------------------- constant memory */

#define W06_POLY_TAG "poly_correct_fn"
static const int    W06_POLY_M[] = { 1, 2, 5, 17, 64 };
static const size_t W06_POLY_N[] = { 0, 1, 257, 100003, 3 };
#define W06_N_POLY   W06_COUNT(W06_POLY_M)
#define W06_POLY_RTOL 1e-6

/* Case i's draws: POLY_MAX coefficients in [-1, 1), then x (n + 1 floats in [-1, 1)). */
static inline void w06_poly_case(wb_rng *r, size_t n, float coef[POLY_MAX], float *x)
{
    wb_fill_uniform_f32(r, coef, POLY_MAX, -1, 1);
    wb_fill_uniform_f32(r, x, n + 1, -1, 1);
}
/* y[i] by Horner in double with the first m coefficients. */
static inline void w06_poly_ref(const float *c, int m, const float *x, double *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double acc = c[m - 1];
        for (int k = m - 2; k >= 0; k--) acc = acc * x[i] + c[k];
        y[i] = acc;
    }
}
/* The absolute tolerance for m coefficients: 4e-7 m sum |c_k|. */
static inline double w06_poly_atol(const float *c, int m)
{
    double sumabs = 0;
    for (int k = 0; k < m; k++) sumabs += fabs(c[k]);
    return 4e-7 * m * sumabs;
}
/* The second round's coefficients: the first m reversed, in place. */
static inline void w06_poly_reverse(float *c, int m)
{
    for (int k = 0; k < m / 2; k++) {
        float t = c[k];
        c[k] = c[m - 1 - k], c[m - 1 - k] = t;
    }
}

#endif
