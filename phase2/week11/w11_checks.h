/* w11_checks.h — what week 11's checks expect, shared by the week's test
 * program (test_week11.c) and the instructor's judge (instructor/
 * judge_w11.c, which runs the student's polyt in a separate runner): the
 * shapes, how each case is drawn from its generator, the double reference
 * and its tolerance, and the benchmark's size. Change a check here and both
 * follow.
 *
 * The generator: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (W11_SHAPES_TAG; the
 * test asserts it). The judge draws case i from wb_rng_for_seed(seed,
 * W11_SHAPES_TAG, i) through the same function, so for a seed it gets the
 * test's coefficients and inputs alike. */
#ifndef W11_CHECKS_H
#define W11_CHECKS_H

#include <math.h>
#include <stddef.h>

#include "polyt.h"
#include "wb_rand.h"

/* Shapes: empty (both ways), one, a row, a column, one tile, odd edges, large. */
static const int W11_SHAPES[][2] = { { 0, 0 }, { 0, 5 }, { 1, 1 }, { 1, 37 }, { 37, 1 }, { 32, 32 }, { 33, 65 },
                                     { 100, 257 }, { 1000, 1003 }, { 2048, 4096 }, { 4099, 1031 } };
#define W11_N_SHAPES   (sizeof W11_SHAPES / sizeof W11_SHAPES[0])
#define W11_SHAPES_TAG "polyt_shapes_fn"
#define W11_MAX_N      ((size_t)2048 * 4096) /* the most elements of a shape */
#define W11_ATOL       1e-5
#define W11_RTOL       1e-5

/* p(x) in double, Horner's rule on the float coefficients. */
static inline double w11_poly_ref(double x, const float *coef)
{
    double y = coef[POLYT_TERMS - 1];
    for (int t = POLYT_TERMS - 2; t >= 0; t--) y = y * x + coef[t];
    return y;
}

/* A case's draw from r: the coefficients (POLYT_TERMS in [-1, 1)) first,
 * then the input (rows x cols in [-1, 1)), then a NaN at n / 2 and at
 * n - 1 where n >= 2 (it must come out where its element lands). */
static inline void w11_draw(wb_rng *r, int rows, int cols, float *coef, float *hin)
{
    size_t n = (size_t)rows * cols;
    wb_fill_uniform_f32(r, coef, POLYT_TERMS, -1, 1);
    wb_fill_uniform_f32(r, hin, n, -1, 1);
    if (n >= 2) hin[n / 2] = NAN, hin[n - 1] = NAN;
}

/* The transposed reference: ref[c * rows + r] = p(in[r * cols + c]). */
static inline void w11_polyt_ref(const float *hin, int rows, int cols, const float *coef, double *ref)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) ref[(size_t)c * rows + r] = w11_poly_ref(hin[(size_t)r * cols + c], coef);
}

/* The benchmark: one 8192 x 8192 matrix in [-1, 1), the given kernel and
 * polyt on the same data. */
#define W11_BENCH_ROWS 8192
#define W11_BENCH_COLS 8192

#endif
