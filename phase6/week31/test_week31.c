/* test_week31.c — week 31's checkpoints: mean and variance three ways on the
 * CPU, the instability of the single pass shown, LayerNorm (two-pass,
 * Welford, single-pass) and RMSNorm forward against double references, and
 * their bandwidth against a copy. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "moments.h"
#include "layernorm.h"
#include "rmsnorm.h"

#define U32 5.9604644775390625e-8 /* 2^-24: float's unit roundoff */
static const float EPS = 1e-5f;   /* torch's default */

/* ---------------------------------------------------------------- moments (CPU) */

typedef void (*moments_fn)(const float *, size_t, float *, float *);
static const struct {
    const char *name;
    moments_fn  fn;
} MOMENTS[] = { { "moments_sumsq", moments_sumsq }, { "moments_twopass", moments_twopass },
                { "moments_welford", moments_welford } };

/* mean and population variance in double, the deviations formed first. */
static void ref_moments(const float *x, size_t n, double *mean, double *var)
{
    double s = 0, q = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    double m = n ? s / (double)n : 0;
    for (size_t i = 0; i < n; i++) q += ((double)x[i] - m) * ((double)x[i] - m);
    *mean = m, *var = n ? q / (double)n : 0;
}

static const size_t MSIZES[] = { 0, 1, 2, 3, 1000, 65537 };

/* Benign data, U(-5, 5): all three are right here, within float's error for
 * a sequential sum (and the single pass within its cancellation, which the
 * mean^2 term of the tolerance allows for). */
START_TEST(moments_sizes)
{
    wb_rng rng = WB_RNG();
    size_t n = MSIZES[_i];
    float *x = wb_hmalloc((n ? n : 1) * 4);
    wb_fill_uniform_f32(&rng, x, n, -5, 5);
    double m, v;
    ref_moments(x, n, &m, &v);
    for (size_t f = 0; f < WB_COUNT(MOMENTS); f++) {
        float gm = NAN, gv = NAN; /* poisoned: a function that writes nothing fails */
        MOMENTS[f].fn(x, n, &gm, &gv);
        double mtol = 1e-5 * (1 + fabs(m)), vtol = 1e-3 * v + 64 * U32 * (m * m + v) + 1e-12;
        if (!wb_close(gm, m, mtol, 0) || !wb_close(gv, v, vtol, 0))
            ck_abort_msg("%s, n=%zu (seed %llu): mean %.9g var %.9g, expected %.9g and %.9g (tolerance %.3g, %.3g)",
                         MOMENTS[f].name, n, (unsigned long long)wb_base_seed(), gm, gv, m, v, mtol, vtol);
    }
    free(x);
}
END_TEST

/* ---------------------------------------------------------------- the instability, shown (CPU) */

static const struct {
    float  offset;
    size_t n;
} SHOW[] = { { 1e4f, 1024 }, { 1e4f, 4096 }, { -1e4f, 4096 }, { 1e4f, 65536 } };

/* x = offset + U(-1, 1): the variance is about 1/3, the mean about 1e4.
 * Welford must keep it to 1 %; the single pass must lose it (its error is
 * at least a float step of 1e8, 8, against 0.33): that is the lesson, and a
 * single pass that survives here is not the float single pass asked for.
 * The sequential two-pass is held to 1 % up to 4096 elements; at 65536 its
 * first pass, one long float sum near 6.5e8, loses the mean itself, and
 * the test prints what it got. */
START_TEST(stable_cpu)
{
    wb_rng rng = WB_RNG();
    const float off = SHOW[_i].offset;
    const size_t n = SHOW[_i].n;
    float *x = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, x, n, -1, 1);
    for (size_t i = 0; i < n; i++) x[i] += off;
    double m, v;
    ref_moments(x, n, &m, &v);
    float mean[3], var[3];
    double err[3];
    for (int f = 0; f < 3; f++) {
        mean[f] = var[f] = NAN;
        MOMENTS[f].fn(x, n, &mean[f], &var[f]);
        err[f] = isfinite(var[f]) ? fabs(var[f] - v) / v : INFINITY;
    }
    printf("  x = %g + U(-1,1), n = %zu: variance %.6f; single pass %.6g (error %.3g), two-pass %.6g (%.3g), "
           "Welford %.6g (%.3g)\n", (double)off, n, v, var[0], err[0], var[1], err[1], var[2], err[2]);
    char what[96];
    snprintf(what, sizeof what, "x = %g + U(-1,1), n = %zu (seed %llu)", (double)off, n,
             (unsigned long long)wb_base_seed());
    if (!(err[2] <= 1e-2))
        ck_abort_msg("%s: moments_welford gives variance %.9g, the variance is %.9g: Welford keeps it within 1 %%",
                     what, var[2], v);
    if (n <= 4096 && !(err[1] <= 1e-2))
        ck_abort_msg("%s: moments_twopass gives variance %.9g, the variance is %.9g", what, var[1], v);
    if (!(fabs(mean[2] - m) <= 1e-5 * fabs(m)))
        ck_abort_msg("%s: moments_welford gives mean %.9g, the mean is %.9g", what, mean[2], m);
    if (!(err[0] > 0.5))
        ck_abort_msg("%s: moments_sumsq gives variance %.9g against %.9g, error %.3g: the float single pass "
                     "(q / n - mean * mean) cannot keep it; does it accumulate in float?", what, var[0], v, err[0]);
}
END_TEST

/* ---------------------------------------------------------------- LayerNorm */

typedef cudaError_t (*ln_fn)(const float *, const float *, const float *, float *, float *, float *, int, int, float);
enum { M_TWOPASS, M_WELFORD, M_SUMSQ, M_COUNT };
static const struct {
    const char *name;
    ln_fn       fn;
} LN[M_COUNT] = { { "layernorm_twopass", layernorm_twopass },
                  { "layernorm_welford", layernorm_welford },
                  { "layernorm_sumsq", layernorm_sumsq } };

/* Rows by kind, r % 3: U(-5, 5); U(-1e4, 1e4); a large offset, +-1e4 +
 * U(-1, 1), for the stable methods (the single pass gets 2 + U(-5, 5): the
 * offset rows are w31.welford-stable's). With at least 8 rows: row 3 holds a
 * NaN, row 4 a +Inf, row 7 a -Inf. */
static void ln_fill(wb_rng *rng, float *x, int rows, int cols, int stable, int specials)
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
} ln_row;

static ln_row ln_ref_row(const float *xr, int cols, int sumsq)
{
    ln_row r;
    double var;
    ref_moments(xr, (size_t)cols, &r.mean, &var);
    r.finite = isfinite(r.mean) && isfinite(var);
    r.rstd = 1.0 / sqrt(var + (double)EPS);
    double scale = fmax(fabs(r.mean), sqrt(var));
    r.mean_tol = 2e-6 * scale + 1e-30;
    double cond = sumsq ? (r.mean * r.mean + var) * r.rstd * r.rstd : fabs(r.mean) * r.rstd;
    r.rstd_rtol = 2e-5 + 16 * U32 * cond;
    return r;
}

/* Compare y, mean and rstd (host copies) with the double reference, row by
 * row. A row with a NaN or Inf must give NaN for all of its y and its rstd.
 * Returns the number of wrong values; the first few go to msg. */
static size_t ln_compare(const float *x, const float *g, const float *b, const float *y, const float *mean,
                         const float *rstd, int rows, int cols, int sumsq, char *msg, size_t size)
{
    size_t bad = 0, used = 0;
    msg[0] = 0;
#define LN_BAD(...)                                                                                   \
    do {                                                                                              \
        if (bad++ < 3 && used < size) used += (size_t)snprintf(msg + used, size - used, __VA_ARGS__); \
    } while (0)
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * cols, *yr = y + (size_t)r * cols;
        ln_row t = ln_ref_row(xr, cols, sumsq);
        if (!t.finite) {
            if (!isnan(rstd[r])) LN_BAD("; row %d holds a NaN or Inf: rstd expected NaN got %.9g", r, rstd[r]);
            for (int j = 0; j < cols; j++)
                if (!isnan(yr[j])) {
                    LN_BAD("; row %d holds a NaN or Inf: y[%d] expected NaN got %.9g", r, j, yr[j]);
                    break;
                }
            continue;
        }
        if (!(fabs(mean[r] - t.mean) <= t.mean_tol))
            LN_BAD("; mean[%d] expected %.9g got %.9g (tolerance %.3g)", r, t.mean, mean[r], t.mean_tol);
        if (!(fabs(rstd[r] - t.rstd) <= t.rstd_rtol * t.rstd))
            LN_BAD("; rstd[%d] expected %.9g got %.9g (relative tolerance %.3g)", r, t.rstd, rstd[r], t.rstd_rtol);
        for (int j = 0; j < cols; j++) {
            double d = (double)xr[j] - t.mean, ref = d * t.rstd * g[j] + b[j];
            double tol = 2e-5 * (1 + fabs(ref)) + fabs(g[j]) * t.rstd * (t.mean_tol + t.rstd_rtol * fabs(d));
            if (!(fabs(yr[j] - ref) <= tol)) { /* NaN fails */
                LN_BAD("; y[%d][%d] expected %.9g got %.9g (tolerance %.3g)", r, j, ref, yr[j], tol);
                break; /* one a row is enough */
            }
        }
    }
#undef LN_BAD
    return bad;
}

/* The device side of one LayerNorm run: inputs at element offsets ox (x) and
 * op (gamma, beta), outputs at oy (y) in guarded, poisoned buffers. */
typedef struct {
    float  *x, *g, *b, *hy, *hm, *hr;
    wb_dout y, m, r;
} ln_run;

static void ln_run_one(int method, const float *hx, const float *hg, const float *hb, int rows, int cols,
                       size_t ox, size_t op, size_t oy, ln_run *run)
{
    size_t n = (size_t)rows * (size_t)cols; /* elements of x and y */
    run->x = wb_dcopy(hx - ox, (n + ox) * 4);
    run->g = wb_dcopy(hg - op, ((size_t)cols + op) * 4);
    run->b = wb_dcopy(hb - op, ((size_t)cols + op) * 4);
    float *dy = wb_dout_alloc(&run->y, "y", n * 4, oy * 4);
    float *dm = wb_dout_alloc(&run->m, "mean", (size_t)rows * 4, 0);
    float *dr = wb_dout_alloc(&run->r, "rstd", (size_t)rows * 4, 0);
    WB_CUDA(LN[method].fn(run->x ? run->x + ox : NULL, run->g + op, run->b + op, dy, dm, dr, rows, cols, EPS));
    run->hy = wb_hmalloc(n * 4 + 4), run->hm = wb_hmalloc((size_t)rows * 4 + 4), run->hr = wb_hmalloc((size_t)rows * 4 + 4);
    char what[96];
    snprintf(what, sizeof what, "%s, rows=%d cols=%d", LN[method].name, rows, cols);
    wb_expect_dout_guards(&run->y, run->hy, what);
    wb_expect_dout_guards(&run->m, run->hm, what);
    wb_expect_dout_guards(&run->r, run->hr, what);
}

static void ln_run_free(ln_run *run)
{
    wb_dfree(run->x), wb_dfree(run->g), wb_dfree(run->b);
    wb_dout_free(&run->y), wb_dout_free(&run->m), wb_dout_free(&run->r);
    free(run->hy), free(run->hm), free(run->hr);
}

/* Fresh data of every kind, the method's output checked everywhere. hx etc.
 * carry `ox`/`op` floats of lead so the device copies can start misaligned. */
static void check_layernorm(wb_rng *rng, int method, int rows, int cols, size_t ox, size_t op, size_t oy)
{
    size_t n = (size_t)rows * (size_t)cols; /* elements of x and y */
    float *bx = wb_hmalloc((n + ox + 1) * 4), *bg = wb_hmalloc(((size_t)cols + op) * 4),
          *bb = wb_hmalloc(((size_t)cols + op) * 4);
    float *hx = bx + ox, *hg = bg + op, *hb = bb + op;
    wb_fill_uniform_f32(rng, bx, ox, -1, 1);
    wb_fill_uniform_f32(rng, bg, op, -1, 1);
    wb_fill_uniform_f32(rng, bb, op, -1, 1);
    ln_fill(rng, hx, rows, cols, method != M_SUMSQ, 1);
    wb_fill_uniform_f32(rng, hg, (size_t)cols, 0.5f, 1.5f);
    wb_fill_uniform_f32(rng, hb, (size_t)cols, -1, 1);
    ln_run run;
    ln_run_one(method, hx, hg, hb, rows, cols, ox, op, oy, &run);
    char msg[600];
    size_t bad = ln_compare(hx, hg, hb, run.hy, run.hm, run.hr, rows, cols, method == M_SUMSQ, msg, sizeof msg);
    if (bad)
        ck_abort_msg("%s, rows=%d cols=%d, x+%zu gamma/beta+%zu y+%zu (seed %llu; rows by r %% 3: U(-5,5), "
                     "U(-1e4,1e4), %s%s): %zu wrong%s",
                     LN[method].name, rows, cols, ox, op, oy, (unsigned long long)wb_base_seed(),
                     method == M_SUMSQ ? "2 + U(-5,5)" : "+-1e4 + U(-1,1)",
                     rows >= 8 ? "; row 3 a NaN, row 4 a +Inf, row 7 a -Inf" : "", bad, msg);
    ln_run_free(&run);
    free(bx), free(bg), free(bb);
}

/* rows x cols: one element, odd, a warp, block and float4 edges, the
 * register path's limit (16384) and past it (the sweep), many short rows. */
static const int SHAPES[][2] = { { 0, 7 },    { 1, 1 },     { 9, 1 },    { 3, 2 },     { 8, 3 },     { 9, 5 },
                                 { 9, 31 },   { 8, 32 },    { 9, 33 },   { 8, 100 },   { 16, 128 },  { 9, 255 },
                                 { 12, 768 }, { 33, 1024 }, { 9, 1025 }, { 8, 4096 },  { 9, 4097 },  { 8, 8192 },
                                 { 8, 16384 }, { 8, 16385 }, { 8, 20000 }, { 2000, 64 }, { 300, 1000 } };

/* Each method is its own checkpoint: a learner with two of the three right
 * sees which one is not. Every shape, then misaligned starts (x, gamma/beta
 * and y each 0 or 1 floats in, cols % 4 == 0, the fast path's case, and
 * not). */
static void layernorm_shape(int method, int i)
{
    wb_rng rng = wb_rng_for(LN[method].name, i);
    check_layernorm(&rng, method, SHAPES[i][0], SHAPES[i][1], 0, 0, 0);
}

static void layernorm_offset(int method, int k)
{
    wb_rng rng = wb_rng_for(LN[method].name, 100 + k);
    int rows = (int)wb_rng_int(&rng, 8, 60);
    int cols = k < 4 ? 4 * (int)wb_rng_int(&rng, 1, 1200) : (int)wb_rng_int(&rng, 1, 5000);
    check_layernorm(&rng, method, rows, cols, (size_t)(k & 1), (size_t)((k >> 1) & 1), (size_t)(k == 2 || k == 5));
}

START_TEST(twopass_shapes) { layernorm_shape(M_TWOPASS, _i); }
END_TEST
START_TEST(twopass_offsets) { layernorm_offset(M_TWOPASS, _i); }
END_TEST
START_TEST(welford_shapes) { layernorm_shape(M_WELFORD, _i); }
END_TEST
START_TEST(welford_offsets) { layernorm_offset(M_WELFORD, _i); }
END_TEST
START_TEST(sumsq_shapes) { layernorm_shape(M_SUMSQ, _i); }
END_TEST
START_TEST(sumsq_offsets) { layernorm_offset(M_SUMSQ, _i); }
END_TEST

/* Arguments: rows == 0 writes nothing and succeeds; rows < 0, cols <= 0 and
 * eps < 0 are cudaErrorInvalidValue and write nothing. */
static cudaError_t call_norm(int which, const float *x, const float *g, float *y, float *m, float *r, int rows,
                             int cols, float eps)
{
    if (which < M_COUNT) return LN[which].fn(x, g, g, y, m, r, rows, cols, eps);
    return rmsnorm(x, g, y, r, rows, cols, eps);
}

static void check_args(int which, const char *name)
{
    float *x = wb_dmalloc(64 * 4), *g = wb_dmalloc(16 * 4);
    wb_dfill_uniform_f32(x, 64, 1, -1, 1);
    wb_dfill_uniform_f32(g, 16, 2, -1, 1);
    static const struct { int rows, cols; float eps; cudaError_t want; } CASES[] = {
        { 0, 16, 1e-5f, cudaSuccess }, { 0, 0, 1e-5f, cudaSuccess }, { -1, 16, 1e-5f, cudaErrorInvalidValue },
        { 4, 0, 1e-5f, cudaErrorInvalidValue }, { 4, -3, 1e-5f, cudaErrorInvalidValue },
        { 4, 16, -1.f, cudaErrorInvalidValue },
    };
    for (size_t c = 0; c < WB_COUNT(CASES); c++) {
        wb_dout y, m, r;
        float *dy = wb_dout_alloc(&y, "y", 64 * 4, 0), *dm = wb_dout_alloc(&m, "mean", 4 * 4, 0),
              *dr = wb_dout_alloc(&r, "rstd", 4 * 4, 0);
        cudaError_t e = call_norm(which, x, g, dy, dm, dr, CASES[c].rows, CASES[c].cols, CASES[c].eps);
        cudaError_t late = cudaDeviceSynchronize();
        cudaGetLastError();
        float hy[64], hm[4], hr[4];
        char what[120];
        snprintf(what, sizeof what, "%s(rows=%d, cols=%d, eps=%g)", name, CASES[c].rows, CASES[c].cols,
                 (double)CASES[c].eps);
        ck_assert_msg(e == CASES[c].want, "%s returned %s, expected %s", what, cudaGetErrorName(e),
                      cudaGetErrorName(CASES[c].want));
        ck_assert_msg(late == cudaSuccess, "%s: the device reported %s afterwards", what, cudaGetErrorName(late));
        wb_expect_dout_guards(&y, hy, what);
        wb_expect_dout_guards(&m, hm, what);
        wb_expect_dout_guards(&r, hr, what);
        size_t touched = wb_count_not_byte(hy, sizeof hy, 0xFF) + wb_count_not_byte(hm, sizeof hm, 0xFF) +
                         wb_count_not_byte(hr, sizeof hr, 0xFF);
        ck_assert_msg(touched == 0, "%s wrote %zu bytes; it must write nothing", what, touched);
        wb_dout_free(&y), wb_dout_free(&m), wb_dout_free(&r);
    }
    wb_dfree(x), wb_dfree(g);
}

START_TEST(twopass_args) { check_args(M_TWOPASS, LN[M_TWOPASS].name); }
END_TEST
START_TEST(welford_args) { check_args(M_WELFORD, LN[M_WELFORD].name); }
END_TEST
START_TEST(sumsq_args) { check_args(M_SUMSQ, LN[M_SUMSQ].name); }
END_TEST

/* ---------------------------------------------------------------- the instability, on the GPU */

/* Every row +-1e4 + U(-1, 1): two-pass and Welford within the tolerance of
 * its method's checkpoint; the single pass's rstd off by more than 10 % in most rows
 * (in practice all: its variance comes out 0, clamped, or a multiple of 8). */
START_TEST(stable_gpu)
{
    wb_rng rng = WB_RNG();
    const int rows = 64, cols = _i ? 4096 : 1024;
    size_t n = (size_t)rows * cols;
    float *hx = wb_hmalloc(n * 4), *hg = wb_hmalloc((size_t)cols * 4), *hb = wb_hmalloc((size_t)cols * 4);
    wb_fill_uniform_f32(&rng, hx, n, -1, 1);
    for (size_t i = 0; i < n; i++) hx[i] += (i / (size_t)cols) % 2 ? -1e4f : 1e4f;
    wb_fill_uniform_f32(&rng, hg, (size_t)cols, 0.5f, 1.5f);
    wb_fill_uniform_f32(&rng, hb, (size_t)cols, -1, 1);
    double worst[M_COUNT];
    int off10 = 0;
    char msg[M_COUNT][600];
    size_t bad[M_COUNT];
    for (int f = 0; f < M_COUNT; f++) {
        ln_run run;
        ln_run_one(f, hx, hg, hb, rows, cols, 0, 0, 0, &run);
        bad[f] = ln_compare(hx, hg, hb, run.hy, run.hm, run.hr, rows, cols, 0, msg[f], sizeof msg[f]);
        worst[f] = 0;
        for (int r = 0; r < rows; r++) {
            ln_row t = ln_ref_row(hx + (size_t)r * cols, cols, 0);
            double e = isfinite(run.hr[r]) ? fabs(run.hr[r] - t.rstd) / t.rstd : INFINITY;
            worst[f] = fmax(worst[f], e);
            if (f == M_SUMSQ && e > 0.1) off10++;
        }
        ln_run_free(&run);
    }
    printf("  rows of +-1e4 + U(-1,1), cols %d: largest rstd error: two-pass %.3g, Welford %.3g, single pass %.3g "
           "(%d of %d rows off by more than 10 %%)\n", cols, worst[0], worst[1], worst[2], off10, rows);
    for (int f = 0; f < M_SUMSQ; f++)
        if (bad[f])
            ck_abort_msg("%s on rows of +-1e4 + U(-1,1), cols=%d (seed %llu): %zu wrong%s", LN[f].name, cols,
                         (unsigned long long)wb_base_seed(), bad[f], msg[f]);
    ck_assert_msg(off10 >= rows / 2,
                  "layernorm_sumsq on rows of +-1e4 + U(-1,1), cols=%d: only %d of %d rows have rstd off by more "
                  "than 10 %%; the float single pass (q / cols - mean * mean) cannot keep this variance: does it "
                  "sum in float?", cols, off10, rows);
    free(hx), free(hg), free(hb);
}
END_TEST

/* ---------------------------------------------------------------- RMSNorm */

static void rms_ref(const float *x, const float *g, double *y, double *rstd, int rows, int cols)
{
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * cols;
        double q = 0;
        for (int j = 0; j < cols; j++) q += (double)xr[j] * xr[j];
        rstd[r] = 1.0 / sqrt(q / cols + (double)EPS);
        for (int j = 0; j < cols; j++) y[(size_t)r * cols + j] = (double)xr[j] * rstd[r] * g[j];
    }
}

static void check_rmsnorm(wb_rng *rng, int rows, int cols, size_t ox, size_t op, size_t oy)
{
    size_t n = (size_t)rows * (size_t)cols; /* elements of x and y */
    float *bx = wb_hmalloc((n + ox + 1) * 4), *bg = wb_hmalloc(((size_t)cols + op) * 4);
    float *hx = bx + ox, *hg = bg + op;
    double *ref = wb_hmalloc(n * 8 + 8), *rref = wb_hmalloc((size_t)rows * 8 + 8);
    wb_fill_uniform_f32(rng, bx, ox, -1, 1);
    wb_fill_uniform_f32(rng, bg, op, -1, 1);
    ln_fill(rng, hx, rows, cols, 1, 1);
    wb_fill_uniform_f32(rng, hg, (size_t)cols, 0.5f, 1.5f);
    rms_ref(hx, hg, ref, rref, rows, cols);
    float *dx = wb_dcopy(bx, (n + ox) * 4), *dg = wb_dcopy(bg, ((size_t)cols + op) * 4);
    wb_dout y, r;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4), *dr = wb_dout_alloc(&r, "rstd", (size_t)rows * 4, 0);
    WB_CUDA(rmsnorm(dx ? dx + ox : NULL, dg + op, dy, dr, rows, cols, EPS));
    char what[200];
    snprintf(what, sizeof what, "rmsnorm, rows=%d cols=%d, x+%zu gamma+%zu y+%zu (rows by r %% 3: U(-5,5), "
             "U(-1e4,1e4), +-1e4 + U(-1,1)%s)", rows, cols, ox, op, oy,
             rows >= 8 ? "; row 3 a NaN, row 4 a +Inf, row 7 a -Inf" : "");
    wb_expect_dout_f32_f64(&r, rref, (size_t)rows, 0, 2e-5, what);
    wb_expect_dout_f32_f64(&y, ref, n, 1e-6, 4e-5, what);
    wb_dfree(dx), wb_dfree(dg), wb_dout_free(&y), wb_dout_free(&r);
    free(bx), free(bg), free(ref), free(rref);
}

START_TEST(rmsnorm_shapes)
{
    wb_rng rng = WB_RNG();
    check_rmsnorm(&rng, SHAPES[_i][0], SHAPES[_i][1], 0, 0, 0);
}
END_TEST

START_TEST(rmsnorm_offsets)
{
    wb_rng rng = WB_RNG();
    int rows = (int)wb_rng_int(&rng, 8, 60);
    int cols = _i < 4 ? 4 * (int)wb_rng_int(&rng, 1, 1200) : (int)wb_rng_int(&rng, 1, 5000);
    check_rmsnorm(&rng, rows, cols, (size_t)(_i & 1), (size_t)((_i >> 1) & 1), (size_t)(_i == 2 || _i == 5));
}
END_TEST

START_TEST(rmsnorm_args) { check_args(M_COUNT, "rmsnorm"); }
END_TEST

/* ---------------------------------------------------------------- bandwidth */

enum { SEED_X = 31, SEED_G = 32, SEED_B = 33 };
enum { K_TWOPASS = M_TWOPASS, K_WELFORD = M_WELFORD, K_SUMSQ = M_SUMSQ, K_RMS };
static const char *const KIND_NAME[] = { "two-pass", "Welford", "single pass", "RMSNorm" };
static const int HIDDEN[] = { 1024, 2048, 4096, 8192 };

/* x = U(-4, 4), gamma = U(0.5, 1.5), beta = U(-1, 1), made on the device
 * (wb_dfill_uniform_f32) and known on the host element by element. */
typedef struct {
    int kind, rows, cols;
    float *x, *g, *b, *y, *m, *r;
    unsigned long long salt;
    int cached_row;                 /* the row whose statistics are below */
    unsigned long long cached_salt;
    double mean, rstd;
} nb_ctx;

static void nb_work(void *p)
{
    nb_ctx *c = p;
    if (c->kind == K_RMS) WB_CUDA(rmsnorm(c->x, c->g, c->y, c->r, c->rows, c->cols, EPS));
    else WB_CUDA(LN[c->kind].fn(c->x, c->g, c->b, c->y, c->m, c->r, c->rows, c->cols, EPS));
}

static double nb_xval(const nb_ctx *c, size_t i) { return wb_hash_uniform_f32(SEED_X + c->salt, i, -4, 4); }

static void nb_stats(nb_ctx *c, int row)
{
    if (c->cached_row == row && c->cached_salt == c->salt) return;
    size_t base = (size_t)row * c->cols;
    double s = 0, q = 0;
    for (int j = 0; j < c->cols; j++) s += nb_xval(c, base + j);
    double mean = c->kind == K_RMS ? 0 : s / c->cols;
    for (int j = 0; j < c->cols; j++) q += (nb_xval(c, base + j) - mean) * (nb_xval(c, base + j) - mean);
    c->mean = mean, c->rstd = 1.0 / sqrt(q / c->cols + (double)EPS);
    c->cached_row = row, c->cached_salt = c->salt;
}

static double nb_expect_y(size_t i, const void *p)
{
    nb_ctx *c = (nb_ctx *)p; /* the statistics cache: the context is ours and not const */
    nb_stats(c, (int)(i / (size_t)c->cols));
    int j = (int)(i % (size_t)c->cols);
    double gj = wb_hash_uniform_f32(SEED_G, (size_t)j, 0.5f, 1.5f);
    if (c->kind == K_RMS) return nb_xval(c, i) * c->rstd * gj;
    return (nb_xval(c, i) - c->mean) * c->rstd * gj + wb_hash_uniform_f32(SEED_B, (size_t)j, -1, 1);
}

static double nb_expect_rstd(size_t i, const void *p)
{
    nb_ctx *c = (nb_ctx *)p;
    nb_stats(c, (int)i);
    return c->rstd;
}

static void nb_fresh(void *p, unsigned long long salt)
{
    nb_ctx *c = p;
    c->salt = salt;
    wb_dfill_uniform_f32(c->x, (size_t)c->rows * c->cols, SEED_X + salt, -4, 4);
    wb_dpoison(c->y, (size_t)c->rows * c->cols * 4);
}

static int nb_check(void *p, char *why, size_t size)
{
    nb_ctx *c = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("y", c->y, (size_t)c->rows * c->cols, nb_expect_y, c, 1 << 9, 2e-5, 2e-5, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

typedef struct {
    float *x, *g, *b, *y, *m, *r;
} nb_bufs;

static nb_bufs nb_alloc(void)
{
    size_t bytes = wb_bench_bytes(), rows = bytes / 4 / HIDDEN[0];
    nb_bufs B = { wb_dmalloc(bytes), wb_dmalloc(8192 * 4), wb_dmalloc(8192 * 4), wb_dmalloc(bytes),
                  wb_dmalloc(rows * 4), wb_dmalloc(rows * 4) };
    wb_dfill_uniform_f32(B.g, 8192, SEED_G, 0.5f, 1.5f);
    wb_dfill_uniform_f32(B.b, 8192, SEED_B, -1, 1);
    return B;
}

static void nb_free(nb_bufs *B)
{
    wb_dfree(B->x), wb_dfree(B->g), wb_dfree(B->b), wb_dfree(B->y), wb_dfree(B->m), wb_dfree(B->r);
}

/* One kernel at one hidden size on wb_bench_bytes() of x, against a copy of
 * x's size in the same run. Bytes counted: x read and y written (the copy
 * counts its read and write the same way), gamma (and beta) read, rstd (and
 * mean) written. The timed output is checked afterwards, y and rstd. */
static void nb_one(int kind, int cols, const nb_bufs *B, wb_bench_row *row, char *variant, size_t vsize)
{
    size_t rows = wb_bench_bytes() / 4 / (size_t)cols, n = rows * (size_t)cols;
    nb_ctx c = { kind, (int)rows, cols, B->x, B->g, B->b, B->y, B->m, B->r, 0, -1, 0, 0, 0 };
    wb_dfill_uniform_f32(c.x, n, SEED_X, -4, 4);
    wb_dpoison(c.y, n * 4);
    double params = kind == K_RMS ? 4.0 * cols + 4.0 * rows : 8.0 * cols + 8.0 * rows;
    snprintf(variant, vsize, "%s, %zu x %d", KIND_NAME[kind], rows, cols);
    wb_bench_row r = { .exercise = kind == K_RMS ? "rmsnorm" : "layernorm", .variant = variant, .n = n,
                       .bytes = 8.0 * n + params, .flops = (kind == K_RMS ? 5.0 : 8.0) * n, .unit = "GB/s",
                       .yard_name = "COPY", .yard = wb_yard_copy_gbps(n * 4) };
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = nb_fresh, o.check = nb_check;
    wb_time(nb_work, &c, &o, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("y", c.y, n, nb_expect_y, &c, 1 << 10, 2e-5, 2e-5, &cmp) ||
        wb_dverify_f32("rstd", c.r, rows, nb_expect_rstd, &c, 1 << 8, 0, 2e-5, &cmp))
        wb_bench_invalid(&r, cmp.msg);
    *row = r;
}

/* A row's ratio for picking the worst: a wrong output or no figure (NaN) is
 * the worst of all. */
static double nb_score(const wb_bench_row *r)
{
    double q = wb_bench_ratio(r);
    return r->invalid || isnan(q) ? -1 : q;
}

/* The four hidden sizes; every row printed, the slowest against the copy
 * judged (a wrong one first), into head. */
static double bench_sweep(int kind, wb_headline *head)
{
    nb_bufs B = nb_alloc();
    static char variant[WB_COUNT(HIDDEN)][64];
    wb_bench_row rows[WB_COUNT(HIDDEN)];
    size_t worst = 0;
    for (size_t h = 0; h < WB_COUNT(HIDDEN); h++) {
        nb_one(kind, HIDDEN[h], &B, &rows[h], variant[h], sizeof variant[h]);
        if (nb_score(&rows[h]) < nb_score(&rows[worst])) worst = h;
    }
    for (size_t h = 0; h < WB_COUNT(HIDDEN); h++)
        if (h != worst) wb_bench_emit(&rows[h]);
    nb_free(&B);
    return wb_bench_headline(&rows[worst], head);
}

static double bench_layernorm(wb_headline *h) { return bench_sweep(K_WELFORD, h); }
static double bench_rmsnorm(wb_headline *h) { return bench_sweep(K_RMS, h); }

/* The ladder (no checkpoint): all four kernels at each hidden size. */
static double bench_ladder(void)
{
    nb_bufs B = nb_alloc();
    static char variant[64];
    for (size_t h = 0; h < WB_COUNT(HIDDEN); h++)
        for (int k = 0; k <= K_RMS; k++) {
            wb_bench_row r;
            nb_one(k, HIDDEN[h], &B, &r, variant, sizeof variant);
            wb_bench_emit(&r);
        }
    nb_free(&B);
    return NAN;
}

static const wb_test TESTS[] = {
    { "w31.moments", WB_T(moments_sizes), WB_CPU, WB_COUNT(MSIZES) },
    { "w31.welford-stable", WB_T(stable_cpu), WB_CPU, WB_COUNT(SHOW) },
    { "w31.welford-stable", WB_T(stable_gpu), WB_GPU, 2 },
    { "w31.layernorm-twopass", WB_T(twopass_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w31.layernorm-twopass", WB_T(twopass_offsets), WB_GPU, 6 },
    { "w31.layernorm-twopass", WB_T(twopass_args), WB_GPU, 0 },
    { "w31.layernorm-welford", WB_T(welford_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w31.layernorm-welford", WB_T(welford_offsets), WB_GPU, 6 },
    { "w31.layernorm-welford", WB_T(welford_args), WB_GPU, 0 },
    { "w31.layernorm-sumsq", WB_T(sumsq_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w31.layernorm-sumsq", WB_T(sumsq_offsets), WB_GPU, 6 },
    { "w31.layernorm-sumsq", WB_T(sumsq_args), WB_GPU, 0 },
    { "w31.rmsnorm", WB_T(rmsnorm_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w31.rmsnorm", WB_T(rmsnorm_offsets), WB_GPU, 6 },
    { "w31.rmsnorm", WB_T(rmsnorm_args), WB_GPU, 0 },
    WB_SPEED("w31.layernorm-bw", bench_layernorm),
    WB_SPEED("w31.rmsnorm-bw", bench_rmsnorm),
};

/* Benchmarks that serve no checkpoint; `--bench` also runs every WB_SPEED one. */
static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
