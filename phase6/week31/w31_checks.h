/* w31_checks.h — what week 31's checks expect, shared by the week's test
 * program (test_week31.c) and the instructor's judge (instructor/judge_w31.c,
 * which runs the student's code in a separate runner): the sizes and
 * shapes, how each case's inputs are drawn from its generator, the double
 * references and the tolerances, and the verdicts on the CPU moments and on
 * the instability. Change a check here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below, which
 * the test passes by name); the LayerNorm checkpoints draw from the
 * function's name (W31_LN_NAMES). The judge draws case i from
 * wb_rng_for_seed(seed, TAG, i) through the same functions, so for a seed it
 * gets the test's cases, sizes and inputs alike. */
#ifndef W31_CHECKS_H
#define W31_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "wb_rand.h"

#define W31_COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define W31_U32      5.9604644775390625e-8 /* 2^-24: float's unit roundoff */
#define W31_EPS      1e-5f                 /* torch's default */

#define W31_MOMENTS_TAG     "moments_sizes_fn"
#define W31_STABLE_CPU_TAG  "stable_cpu_fn"
#define W31_STABLE_GPU_TAG  "stable_gpu_fn"
#define W31_RMS_SHAPES_TAG  "rmsnorm_shapes_fn"
#define W31_RMS_OFFSETS_TAG "rmsnorm_offsets_fn"

enum { W31_TWOPASS, W31_WELFORD, W31_SUMSQ, W31_METHODS };
/* The LayerNorm functions, in W31_* order: their names are their cases' tags
 * (shape i: index i; offset mix k: index 100 + k). */
static const char *const W31_LN_NAMES[W31_METHODS] = { "layernorm_twopass", "layernorm_welford", "layernorm_sumsq" };
#define W31_OFFSET_INDEX 100 /* the offset mixes' first index in the LayerNorm tags */
#define W31_N_OFFSETS    6   /* offset mixes a function */

/* ---------------------------------------------------------------- moments (CPU) */

/* mean and population variance in double, the deviations formed first. */
static inline void w31_ref_moments(const float *x, size_t n, double *mean, double *var)
{
    double s = 0, q = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    double m = n ? s / (double)n : 0;
    for (size_t i = 0; i < n; i++) q += ((double)x[i] - m) * ((double)x[i] - m);
    *mean = m, *var = n ? q / (double)n : 0;
}

/* w31.moments: benign rows of U(-5, 5) of these lengths (x drawn by
 * wb_fill_uniform_f32 over n floats); all three functions within these
 * tolerances of the reference: float's error for a sequential sum, and for
 * the single pass its cancellation (the mean^2 term). */
static const size_t W31_MSIZES[] = { 0, 1, 2, 3, 1000, 65537 };
#define W31_N_MSIZES W31_COUNT(W31_MSIZES)
static inline void w31_moments_tol(double m, double v, double *mtol, double *vtol)
{
    *mtol = 1e-5 * (1 + fabs(m)), *vtol = 1e-3 * v + 64 * W31_U32 * (m * m + v) + 1e-12;
}

/* w31.welford-stable on the CPU: x = offset + U(-1, 1) over n floats (the
 * noise drawn first, then the offset added). */
static const struct {
    float  offset;
    size_t n;
} W31_SHOW[] = { { 1e4f, 1024 }, { 1e4f, 4096 }, { -1e4f, 4096 }, { 1e4f, 65536 } };
#define W31_N_SHOW W31_COUNT(W31_SHOW)
static inline void w31_show_fill(wb_rng *rng, float *x, float off, size_t n)
{
    wb_fill_uniform_f32(rng, x, n, -1, 1);
    for (size_t i = 0; i < n; i++) x[i] += off;
}

/* A variance's relative error, infinite when it is not finite. */
static inline double w31_var_err(float var, double v) { return isfinite(var) ? fabs(var - v) / v : INFINITY; }

/* The verdict on one row of W31_SHOW: mean[f] and var[f] from the single
 * pass (f = 0), the two-pass (1) and Welford (2); m and v the reference.
 * Welford must keep the variance to 1 % and the mean to 1e-5; the two-pass
 * the variance to 1 % up to 4096 elements (at 65536 its first float sum,
 * near 6.5e8, loses the mean itself); the single pass must lose it (an
 * error above 0.5: one float step of 1e8 is 8, against 0.33): that is the
 * lesson, and a single pass that survives is not the float single pass
 * asked for. 0, or 1 with why (what: the case, for the message). */
static inline int w31_stable_verdict(const float mean[3], const float var[3], double m, double v, size_t n,
                                     const char *what, char *why, size_t size)
{
    double e0 = w31_var_err(var[0], v), e1 = w31_var_err(var[1], v), e2 = w31_var_err(var[2], v);
    if (!(e2 <= 1e-2))
        return snprintf(why, size, "%s: moments_welford gives variance %.9g, the variance is %.9g: Welford keeps it "
                        "within 1 %%", what, var[2], v), 1;
    if (n <= 4096 && !(e1 <= 1e-2))
        return snprintf(why, size, "%s: moments_twopass gives variance %.9g, the variance is %.9g", what, var[1], v), 1;
    if (!(fabs(mean[2] - m) <= 1e-5 * fabs(m)))
        return snprintf(why, size, "%s: moments_welford gives mean %.9g, the mean is %.9g", what, mean[2], m), 1;
    if (!(e0 > 0.5))
        return snprintf(why, size, "%s: moments_sumsq gives variance %.9g against %.9g, error %.3g: the float single "
                        "pass (q / n - mean * mean) cannot keep it; does it accumulate in float?", what, var[0], v, e0),
               1;
    return 0;
}

/* ---------------------------------------------------------------- LayerNorm and RMSNorm */

/* Rows by kind, r % 3: U(-5, 5); U(-1e4, 1e4); a large offset, +-1e4 +
 * U(-1, 1), for the stable methods (the single pass gets 2 + U(-5, 5): the
 * offset rows are w31.welford-stable's). With at least 8 rows: row 3 holds a
 * NaN, row 4 a +Inf, row 7 a -Inf. */
static inline void w31_ln_fill(wb_rng *rng, float *x, int rows, int cols, int stable, int specials)
{
    for (int r = 0; r < rows; r++) {
        float *xr = x + (size_t)r * cols;
        switch (r % 3) {
        case 0: wb_fill_uniform_f32(rng, xr, (size_t)cols, -5, 5); break;
        case 1: wb_fill_uniform_f32(rng, xr, (size_t)cols, -1e4f, 1e4f); break;
        default:
            wb_fill_uniform_f32(rng, xr, (size_t)cols, stable ? -1 : -5, stable ? 1 : 5);
            for (int j = 0; j < cols; j++) xr[j] += stable ? (r % 2 ? -1e4f : 1e4f) : 2.f;
        }
    }
    if (specials && rows >= 8) {
        x[3 * (size_t)cols + (size_t)wb_rng_int(rng, 0, cols - 1)] = NAN;
        x[4 * (size_t)cols + (size_t)wb_rng_int(rng, 0, cols - 1)] = INFINITY;
        x[7 * (size_t)cols + (size_t)wb_rng_int(rng, 0, cols - 1)] = -INFINITY;
    }
}

/* One row's reference in double and the tolerances its conditioning allows.
 * The float mean is good to a few steps of max(|mean|, std): mean_tol. The
 * variance: the two-pass and Welford forms err to first order in the
 * rounding of the mean relative to the std (|mean| * rstd); the single pass
 * to second order, mean^2 / var: that is why it fails at 1e4 + noise. Each
 * bound carries the length of the chain of roundings, here the depth of the
 * kernel's reduction, taken as 32 for the variance (16 for rstd, half). */
typedef struct {
    double mean, rstd, mean_tol, rstd_rtol;
    int    finite;
} w31_ln_row;

static inline w31_ln_row w31_ln_ref_row(const float *xr, int cols, int sumsq)
{
    w31_ln_row r;
    double var;
    w31_ref_moments(xr, (size_t)cols, &r.mean, &var);
    r.finite = isfinite(r.mean) && isfinite(var);
    r.rstd = 1.0 / sqrt(var + (double)W31_EPS);
    double scale = fmax(fabs(r.mean), sqrt(var));
    r.mean_tol = 2e-6 * scale + 1e-30;
    double cond = sumsq ? (r.mean * r.mean + var) * r.rstd * r.rstd : fabs(r.mean) * r.rstd;
    r.rstd_rtol = 2e-5 + 16 * W31_U32 * cond;
    return r;
}

/* Compare y, mean and rstd (host copies) with the double reference, row by
 * row. A row with a NaN or Inf must give NaN for all of its y and its rstd.
 * Returns the number of wrong values; the first few go to msg. */
static inline size_t w31_ln_compare(const float *x, const float *g, const float *b, const float *y, const float *mean,
                                    const float *rstd, int rows, int cols, int sumsq, char *msg, size_t size)
{
    size_t bad = 0, used = 0;
    msg[0] = 0;
#define W31_LN_BAD(...)                                                                               \
    do {                                                                                              \
        if (bad++ < 3 && used < size) used += (size_t)snprintf(msg + used, size - used, __VA_ARGS__); \
    } while (0)
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * cols, *yr = y + (size_t)r * cols;
        w31_ln_row t = w31_ln_ref_row(xr, cols, sumsq);
        if (!t.finite) {
            if (!isnan(rstd[r])) W31_LN_BAD("; row %d holds a NaN or Inf: rstd expected NaN got %.9g", r, rstd[r]);
            for (int j = 0; j < cols; j++)
                if (!isnan(yr[j])) {
                    W31_LN_BAD("; row %d holds a NaN or Inf: y[%d] expected NaN got %.9g", r, j, yr[j]);
                    break;
                }
            continue;
        }
        if (!(fabs(mean[r] - t.mean) <= t.mean_tol))
            W31_LN_BAD("; mean[%d] expected %.9g got %.9g (tolerance %.3g)", r, t.mean, mean[r], t.mean_tol);
        if (!(fabs(rstd[r] - t.rstd) <= t.rstd_rtol * t.rstd))
            W31_LN_BAD("; rstd[%d] expected %.9g got %.9g (relative tolerance %.3g)", r, t.rstd, rstd[r], t.rstd_rtol);
        for (int j = 0; j < cols; j++) {
            double d = (double)xr[j] - t.mean, ref = d * t.rstd * g[j] + b[j];
            double tol = 2e-5 * (1 + fabs(ref)) + fabs(g[j]) * t.rstd * (t.mean_tol + t.rstd_rtol * fabs(d));
            if (!(fabs(yr[j] - ref) <= tol)) { /* NaN fails */
                W31_LN_BAD("; y[%d][%d] expected %.9g got %.9g (tolerance %.3g)", r, j, ref, yr[j], tol);
                break; /* one a row is enough */
            }
        }
    }
#undef W31_LN_BAD
    return bad;
}

/* rows x cols: one element, odd, a warp, block and float4 edges, the
 * register path's limit (16384) and past it (the sweep), many short rows. */
static const int W31_SHAPES[][2] = { { 0, 7 },    { 1, 1 },     { 9, 1 },    { 3, 2 },     { 8, 3 },     { 9, 5 },
                                     { 9, 31 },   { 8, 32 },    { 9, 33 },   { 8, 100 },   { 16, 128 },  { 9, 255 },
                                     { 12, 768 }, { 33, 1024 }, { 9, 1025 }, { 8, 4096 },  { 9, 4097 },  { 8, 8192 },
                                     { 8, 16384 }, { 8, 16385 }, { 8, 20000 }, { 2000, 64 }, { 300, 1000 } };
#define W31_N_SHAPES W31_COUNT(W31_SHAPES)

/* Offset mix k (0 .. W31_N_OFFSETS - 1), drawn from its generator: 8 to 60
 * rows; cols % 4 == 0 (the fast path's case) for k < 4, any cols up to 5000
 * after; x (ox), gamma and beta (op) and y (oy) each 0 or 1 floats in. */
static inline void w31_offset_case(wb_rng *rng, int k, int *rows, int *cols, size_t *ox, size_t *op, size_t *oy)
{
    *rows = (int)wb_rng_int(rng, 8, 60);
    *cols = k < 4 ? 4 * (int)wb_rng_int(rng, 1, 1200) : (int)wb_rng_int(rng, 1, 5000);
    *ox = (size_t)(k & 1), *op = (size_t)((k >> 1) & 1), *oy = (size_t)(k == 2 || k == 5);
}

/* A LayerNorm case's inputs, in the generator's order: bx (ox floats of
 * lead, then rows x cols of x: w31_ln_fill with the specials, stable rows
 * unless sumsq), bg and bb (op floats of lead each, then gamma = U(0.5, 1.5)
 * and beta = U(-1, 1), cols each). */
static inline void w31_ln_inputs(wb_rng *rng, int sumsq, int rows, int cols, size_t ox, size_t op, float *bx, float *bg,
                                 float *bb)
{
    wb_fill_uniform_f32(rng, bx, ox, -1, 1);
    wb_fill_uniform_f32(rng, bg, op, -1, 1);
    wb_fill_uniform_f32(rng, bb, op, -1, 1);
    w31_ln_fill(rng, bx + ox, rows, cols, !sumsq, 1);
    wb_fill_uniform_f32(rng, bg + op, (size_t)cols, 0.5f, 1.5f);
    wb_fill_uniform_f32(rng, bb + op, (size_t)cols, -1, 1);
}

/* w31.welford-stable on the GPU: W31_STABLE_ROWS rows of +-1e4 + U(-1, 1)
 * (row r: + for even r), case i's cols W31_STABLE_COLS[i]; gamma and beta as
 * w31_ln_inputs draws them. Two-pass and Welford within their checkpoint's
 * tolerance (w31_ln_compare, not sumsq); the single pass's rstd off by more
 * than 10 % (w31_rstd_off) in at least half of the rows. */
#define W31_STABLE_ROWS 64
static const int W31_STABLE_COLS[] = { 1024, 4096 };
static inline void w31_stable_inputs(wb_rng *rng, int rows, int cols, float *hx, float *hg, float *hb)
{
    size_t n = (size_t)rows * cols;
    wb_fill_uniform_f32(rng, hx, n, -1, 1);
    for (size_t i = 0; i < n; i++) hx[i] += (i / (size_t)cols) % 2 ? -1e4f : 1e4f;
    wb_fill_uniform_f32(rng, hg, (size_t)cols, 0.5f, 1.5f);
    wb_fill_uniform_f32(rng, hb, (size_t)cols, -1, 1);
}
/* rstd's relative error against row xr's reference (infinite when not finite). */
static inline double w31_rstd_err(float rstd, const float *xr, int cols)
{
    w31_ln_row t = w31_ln_ref_row(xr, cols, 0);
    return isfinite(rstd) ? fabs(rstd - t.rstd) / t.rstd : INFINITY;
}

/* RMSNorm's reference in double; y within W31_RMS_Y_ATOL + W31_RMS_Y_RTOL
 * |ref|, rstd within W31_RMS_R_RTOL |ref| (wb_close's rules: NaN for NaN). */
#define W31_RMS_Y_ATOL 1e-6
#define W31_RMS_Y_RTOL 4e-5
#define W31_RMS_R_RTOL 2e-5
static inline void w31_rms_ref(const float *x, const float *g, double *y, double *rstd, int rows, int cols)
{
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * cols;
        double q = 0;
        for (int j = 0; j < cols; j++) q += (double)xr[j] * xr[j];
        rstd[r] = 1.0 / sqrt(q / cols + (double)W31_EPS);
        for (int j = 0; j < cols; j++) y[(size_t)r * cols + j] = (double)xr[j] * rstd[r] * g[j];
    }
}

/* An RMSNorm case's inputs, in the generator's order: bx (ox floats of lead,
 * then x: w31_ln_fill, stable rows, the specials), bg (op floats of lead,
 * then gamma = U(0.5, 1.5)). */
static inline void w31_rms_inputs(wb_rng *rng, int rows, int cols, size_t ox, size_t op, float *bx, float *bg)
{
    wb_fill_uniform_f32(rng, bx, ox, -1, 1);
    wb_fill_uniform_f32(rng, bg, op, -1, 1);
    w31_ln_fill(rng, bx + ox, rows, cols, 1, 1);
    wb_fill_uniform_f32(rng, bg + op, (size_t)cols, 0.5f, 1.5f);
}

/* The argument cases (every function): 64 floats of x and y, 16 of gamma
 * (and beta), 4 of mean and rstd; rows == 0 succeeds and writes nothing;
 * rows < 0, cols <= 0 and eps < 0 are cudaErrorInvalidValue (invalid = 1)
 * and write nothing. */
static const struct {
    int   rows, cols;
    float eps;
    int   invalid;
} W31_ARGS[] = { { 0, 16, 1e-5f, 0 },  { 0, 0, 1e-5f, 0 },  { -1, 16, 1e-5f, 1 },
                 { 4, 0, 1e-5f, 1 },   { 4, -3, 1e-5f, 1 }, { 4, 16, -1.f, 1 } };
#define W31_N_ARGS W31_COUNT(W31_ARGS)

/* ---------------------------------------------------------------- bandwidth */

/* The hidden sizes of w31.layernorm-bw and w31.rmsnorm-bw: x of
 * wb_bench_bytes() (8x the L2), rows = that / 4 / hidden; the slowest of the
 * four against a copy of x's size. x = U(-4, 4), gamma = U(0.5, 1.5), beta =
 * U(-1, 1); y within W31_BW_TOL + W31_BW_TOL |ref|, rstd within W31_BW_TOL
 * |ref|. Bytes counted: x read and y written, 8 an element (as the copy's),
 * and gamma (and beta) read, rstd (and mean) written. */
static const int W31_HIDDEN[] = { 1024, 2048, 4096, 8192 };
#define W31_N_HIDDEN W31_COUNT(W31_HIDDEN)
#define W31_BW_TOL   2e-5
static inline double w31_bw_bytes(int rms, size_t rows, int cols)
{
    double params = rms ? 4.0 * cols + 4.0 * (double)rows : 8.0 * cols + 8.0 * (double)rows;
    return 8.0 * (double)rows * cols + params;
}

#endif
