/* w41_checks.h — what week 41's C checks expect, shared by the week's test
 * program (test_week41.c) and the instructor's judge (instructor/
 * judge_w41.c, which runs the student's code in a separate runner): the
 * shapes, how each row's inputs are drawn from its generator, the double
 * reference and its tolerances. Change a check here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below).
 * The judge draws case i from wb_rng_for_seed(seed, TAG, i) through the same
 * functions, so for a seed it gets the test's cases and inputs alike. */
#ifndef W41_CHECKS_H
#define W41_CHECKS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "wb_rand.h"

#define W41_COUNT(a)    (sizeof(a) / sizeof((a)[0]))
#define W41_U32         5.9604644775390625e-8 /* 2^-24 */
#define W41_EPS         1e-5f                 /* torch's default */
#define W41_SHAPES_TAG  "fwd_shapes_fn"
#define W41_OFFSETS_TAG "fwd_offsets_fn"
#define W41_ARGS_TAG    "fwd_args_fn"
#define W41_OFFSET_CASES 6

/* rows x cols: one element, odd, not a multiple of 4, warp and float4 edges,
 * hidden sizes of models, the register path's limit (16384) and past it. */
static const int W41_SHAPES[][2] = { { 0, 7 },     { 1, 1 },     { 9, 1 },      { 10, 2 },    { 10, 3 },    { 10, 5 },
                                     { 10, 31 },   { 10, 33 },   { 10, 127 },   { 16, 128 },  { 10, 255 },  { 33, 1024 },
                                     { 10, 1025 }, { 20, 4096 }, { 10, 4097 },  { 10, 8192 }, { 10, 8193 }, { 10, 16384 },
                                     { 10, 16385 }, { 10, 20000 }, { 3000, 64 }, { 300, 768 } };

/* The misaligned cases' shape, drawn first from case k's generator: 10 to 40
 * rows; cols a multiple of 4 (the float4 case) for k < 3, any for k >= 3; x
 * (k 0, 3), weight and bias (k 1, 4) or y (k 2, 5) one float off. */
static inline void w41_offset_case(wb_rng *rng, int k, int *rows, int *cols, size_t *ox, size_t *op, size_t *oy)
{
    *rows = (int)wb_rng_int(rng, 10, 40);
    *cols = k < 3 ? 4 * (int)wb_rng_int(rng, 1, 1500) : (int)wb_rng_int(rng, 1, 6000);
    *ox = (size_t)(k == 0 || k == 3), *op = (size_t)(k == 1 || k == 4), *oy = (size_t)(k == 2 || k == 5);
}

/* Row kinds by r % 5: U(-5, 5); U(-1e4, 1e4); +-1e4 + U(-1, 1) (|mean| >> std);
 * a constant row (variance exactly 0: every y is bias); U(-1, 1). With
 * specials and rows >= 7: row 6 holds a NaN, and when rows >= 9 row 8 an Inf. */
static inline void w41_fill_rows(wb_rng *rng, float *x, int rows, int cols, int specials)
{
    for (int r = 0; r < rows; r++) {
        float *xr = x + (size_t)r * cols;
        switch (r % 5) {
        case 0: wb_fill_uniform_f32(rng, xr, (size_t)cols, -5, 5); break;
        case 1: wb_fill_uniform_f32(rng, xr, (size_t)cols, -1e4f, 1e4f); break;
        case 2:
            wb_fill_uniform_f32(rng, xr, (size_t)cols, -1, 1);
            for (int j = 0; j < cols; j++) xr[j] += r % 2 ? -1e4f : 1e4f;
            break;
        case 3: { /* a small integer: its sum and mean are exact, so var is exactly 0 */
            float c = (float)wb_rng_int(rng, -8, 8);
            for (int j = 0; j < cols; j++) xr[j] = c;
            break;
        }
        default: wb_fill_uniform_f32(rng, xr, (size_t)cols, -1, 1);
        }
    }
    if (specials && rows >= 7) x[6 * (size_t)cols + (size_t)wb_rng_int(rng, 0, cols - 1)] = NAN;
    if (specials && rows >= 9) x[8 * (size_t)cols + (size_t)wb_rng_int(rng, 0, cols - 1)] = INFINITY;
}

/* The poison's bits (0xFF bytes, the harness's wb_dout and the judge's jd_gbuf): a value never written. */
static inline int w41_is_poison(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u == 0xffffffffu;
}

/* Compare y, mean, rstd (host copies) with a double reference, row by row.
 * The float mean is good to a few steps of max(|mean|, std) (2e-6 of it);
 * the two-pass variance errs to first order in |mean| * rstd times u; y gets
 * the error those carry into it plus 2e-5 (1 + |y|). A non-finite row must be
 * NaN in all of y and in rstd; where strict (the judge's), a NaN that is the
 * poison's bits counts as not written. Returns the count of wrong values,
 * the first three told in msg. */
static inline size_t w41_compare(const float *x, const float *w, const float *b, const float *y, const float *mean,
                                 const float *rstd, int rows, int cols, int strict, char *msg, size_t size)
{
    size_t bad = 0, used = 0;
    msg[0] = 0;
#define W41_BAD(...)                                                                                  \
    do {                                                                                              \
        if (bad++ < 3 && used < size) used += (size_t)snprintf(msg + used, size - used, __VA_ARGS__); \
    } while (0)
#define W41_NEVER(v) (w41_is_poison(v) ? " (never written: still the poison)" : "")
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * cols, *yr = y + (size_t)r * cols;
        double s = 0, q = 0;
        for (int j = 0; j < cols; j++) s += xr[j];
        const double m = s / cols;
        for (int j = 0; j < cols; j++) q += ((double)xr[j] - m) * ((double)xr[j] - m);
        const double var = q / cols, rs = 1.0 / sqrt(var + (double)W41_EPS);
        if (!isfinite(m) || !isfinite(var)) {
            if (!isnan(rstd[r]) || (strict && w41_is_poison(rstd[r])))
                W41_BAD("; row %d holds a NaN or Inf: rstd expected NaN, got %.9g%s", r, rstd[r], W41_NEVER(rstd[r]));
            for (int j = 0; j < cols; j++)
                if (!isnan(yr[j]) || (strict && w41_is_poison(yr[j]))) {
                    W41_BAD("; row %d holds a NaN or Inf: y[%d] expected NaN, got %.9g%s", r, j, yr[j], W41_NEVER(yr[j]));
                    break;
                }
            continue;
        }
        const double mtol = 2e-6 * fmax(fabs(m), sqrt(var)) + 1e-30;
        const double rtol = 2e-5 + 16 * W41_U32 * fabs(m) * rs;
        if (!(fabs(mean[r] - m) <= mtol))
            W41_BAD("; mean[%d] expected %.9g, got %.9g (tolerance %.3g)", r, m, mean[r], mtol);
        if (!(fabs(rstd[r] - rs) <= rtol * rs))
            W41_BAD("; rstd[%d] expected %.9g, got %.9g (relative tolerance %.3g)", r, rs, rstd[r], rtol);
        for (int j = 0; j < cols; j++) {
            const double d = (double)xr[j] - m, ref = d * rs * w[j] + b[j];
            const double tol = 2e-5 * (1 + fabs(ref)) + fabs(w[j]) * rs * (mtol + rtol * fabs(d));
            if (!(fabs(yr[j] - ref) <= tol)) { /* NaN fails */
                W41_BAD("; y[%d][%d] expected %.9g, got %.9g (tolerance %.3g)%s", r, j, ref, yr[j], tol, W41_NEVER(yr[j]));
                break;
            }
        }
    }
#undef W41_NEVER
#undef W41_BAD
    return bad;
}

#endif
