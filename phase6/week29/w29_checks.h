/* w29_checks.h — what week 29's checks expect, shared by the week's test
 * program (test_week29.c) and the instructor's judge (instructor/judge_w29.c,
 * which runs the student's code in a separate runner): the limits, the
 * shapes and offsets, how each case is drawn from its generator, the
 * overflow rows and the tolerances (the double reference is
 * phase6/common/softmax_check.h's softmax_ref). Change a check here and both
 * follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below; the
 * test asserts it). The judge draws case i from wb_rng_for_seed(seed, TAG, i)
 * through the same functions, so for a seed it gets the test's cases, sizes
 * and inputs alike. */
#ifndef W29_CHECKS_H
#define W29_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "softmax_check.h"
#include "wb_rand.h"

#define W29_COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define W29_ATOL 1e-7
#define W29_RTOL 5e-5

/* ---------------------------------------------------------------- limit (CPU) */

/* ln(FLT_MAX / cols) for the columns the tests use, to 1e-9; naive_limit
 * must give each within 1e-6. */
static const struct { int cols; double limit; } W29_LIMITS[] = {
    { 1, 88.722839052 },    { 2, 88.029691872 },    { 3, 87.624226763 },    { 10, 86.420253959 },   { 37, 85.111921139 },
    { 1000, 81.815083773 }, { 4096, 80.405072885 }, { 32768, 78.325631344 }, { 1 << 20, 74.859895441 },
};
#define W29_N_LIMITS W29_COUNT(W29_LIMITS)
#define W29_LIMIT_ATOL 1e-6

/* The listed limit for cols, NaN where it is not listed. */
static inline double w29_limit_of(int cols)
{
    for (size_t k = 0; k < W29_N_LIMITS; k++)
        if (W29_LIMITS[k].cols == cols) return W29_LIMITS[k].limit;
    return NAN;
}

/* ---------------------------------------------------------------- naive and stable */

#define W29_NAIVE_SHAPES_TAG   "naive_shapes_fn"
#define W29_NAIVE_OFFSETS_TAG  "naive_offsets_fn"
#define W29_STABLE_SHAPES_TAG  "stable_shapes_fn"
#define W29_STABLE_OFFSETS_TAG "stable_offsets_fn"

static const int W29_SHAPES[][2] = { { 0, 5 },    { 5, 0 },     { 1, 1 },     { 9, 1 },       { 1, 7 },     { 8, 31 },
                                     { 9, 32 },   { 8, 33 },    { 16, 255 },  { 10, 256 },    { 11, 257 },  { 33, 1000 },
                                     { 8, 1025 }, { 8, 4096 },  { 9, 5000 },  { 2000, 64 },   { 70000, 3 }, { 3, 100003 },
                                     { 8, 32768 } };
#define W29_N_SHAPES  W29_COUNT(W29_SHAPES)
#define W29_N_OFFSETS 4 /* case i: x + (i & 1), y + (i >> 1) floats */
#define W29_OFF_MAX_ROWS 200
#define W29_OFF_MAX_COLS 1500

/* The offset cases' shapes: the naive one's rows from 1, the stable one's
 * from 8 (its special rows need 8). */
static inline void w29_offsets_shape(wb_rng *r, int stable, int *rows, int *cols)
{
    *rows = (int)wb_rng_int(r, stable ? 8 : 1, W29_OFF_MAX_ROWS), *cols = (int)wb_rng_int(r, 1, W29_OFF_MAX_COLS);
}

/* rows x cols from r for the naive softmax: hx (n + ox floats, logits in
 * [-10, 10]: every exp between 4.5e-5 and 2.2e4, sums far from FLT_MAX even
 * for 100003 columns) and ref (n doubles, of hx + ox). */
static inline void w29_naive_case(wb_rng *r, int rows, int cols, size_t ox, float *hx, double *ref)
{
    wb_fill_uniform_f32(r, hx, softmax_elems(rows, cols) + ox, -10, 10);
    softmax_ref(hx + ox, ref, rows, cols);
}

/* The stable softmax's special rows (when rows >= 8): 0 near +1e4, 1 near
 * -1e4, 2 spread over +-1e4, 3 small with every third entry -Inf (masked),
 * 4 all -Inf, 5 a NaN, 6 a +Inf, 7 near -1e4 with every second entry -Inf.
 * Rows 4-6 give NaN. */
#define W29_STABLE_SPECIALS "(rows 0-7: near +1e4, near -1e4, over +-1e4, masked, all -Inf, a NaN, a +Inf, near -1e4 masked)"
static inline void w29_stable_specials(wb_rng *rng, float *x, int rows, int cols)
{
    if (rows < 8) return;
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

/* rows x cols from r for the stable softmax: hx (n + ox floats in
 * [-20, 20], the special rows at hx + ox) and ref. */
static inline void w29_stable_case(wb_rng *r, int rows, int cols, size_t ox, float *hx, double *ref)
{
    wb_fill_uniform_f32(r, hx, softmax_elems(rows, cols) + ox, -20, 20);
    if (cols > 0) w29_stable_specials(r, hx + ox, rows, cols);
    softmax_ref(hx + ox, ref, rows, cols);
}

/* ---------------------------------------------------------------- overflow */

/* Eight rows through the naive softmax: rows 0, 2, 6 and 7 small logits,
 * row 4 just below the limit (the sum reaches at most 0.61 FLT_MAX): these
 * must be right. Row 1 near +1e4 (exp = Inf: Inf / Inf), row 3 near -1e4
 * (exp = 0: 0 / 0), row 5 just past the limit (each exp finite, the sum past
 * e * FLT_MAX: Inf): every element of these must be written and wrong. The
 * limit is the listed ln(FLT_MAX / cols) (W29_LIMITS), not the student's. */
#define W29_OVERFLOW_TAG "overflow_naive_fn"
enum { W29_OV_ROWS = 8 };
static const int W29_OV_COLS[] = { 1, 37, 1000, 4096 };
#define W29_N_OV_COLS W29_COUNT(W29_OV_COLS)
static const char *const W29_OV_WHAT[W29_OV_ROWS] = { "small", "near +1e4", "small", "near -1e4", "just below the limit",
                                                      "just past the limit", "small", "small" };

static inline int w29_ov_must_fail(int row) { return row == 1 || row == 3 || row == 5; }

/* The 8 x cols case from r: hx (8 x cols floats) and ref; lim is
 * w29_limit_of(cols). */
static inline void w29_overflow_case(wb_rng *r, int cols, double lim, float *hx, double *ref)
{
    wb_fill_uniform_f32(r, hx, (size_t)W29_OV_ROWS * cols, -5, 5);
    for (int j = 0; j < cols; j++) {
        hx[1 * (size_t)cols + j] = 1e4f + (float)(wb_rng_unit(r) * 16 - 8);
        hx[3 * (size_t)cols + j] = -1e4f + (float)(wb_rng_unit(r) * 16 - 8);
        hx[4 * (size_t)cols + j] = (float)(lim - 1.5 + wb_rng_unit(r));
        hx[5 * (size_t)cols + j] = (float)(lim + 1.0 + wb_rng_unit(r));
    }
    softmax_ref(hx, ref, W29_OV_ROWS, cols);
}

/* One output row g of cols elements against its reference w: how many are
 * still the poison (all bits set) and how many are right. */
static inline void w29_ov_count(const float *g, const double *w, int cols, size_t *unwritten, size_t *right)
{
    *unwritten = *right = 0;
    for (int j = 0; j < cols; j++) {
        uint32_t bits;
        memcpy(&bits, &g[j], 4);
        *unwritten += bits == 0xFFFFFFFFu;
        *right += wb_close(g[j], w[j], W29_ATOL, W29_RTOL);
    }
}

#endif
