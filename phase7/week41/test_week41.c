/* test_week41.c — week 41's C checkpoint: the LayerNorm forward kernel behind
 * the autograd Function, against a double reference on the CPU (the Python
 * checkpoints, test_week41.py, test the Function against torch). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "ln_fwd.h"

#define U32 5.9604644775390625e-8 /* 2^-24 */
static const float EPS = 1e-5f;   /* torch's default */

/* Row kinds by r % 5: U(-5, 5); U(-1e4, 1e4); +-1e4 + U(-1, 1) (|mean| >> std);
 * a constant row (variance exactly 0: every y is bias); U(-1, 1). With
 * specials and rows >= 7: row 6 holds a NaN, and when rows >= 9 row 8 an Inf. */
static void fill_rows(wb_rng *rng, float *x, int rows, int cols, int specials)
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

/* Compare y, mean, rstd (host copies) with a double reference, row by row.
 * The float mean is good to a few steps of max(|mean|, std) (2e-6 of it);
 * the two-pass variance errs to first order in |mean| * rstd times u; y gets
 * the error those carry into it plus 2e-5 (1 + |y|). A non-finite row must be
 * NaN in all of y and in rstd. Returns the count of wrong values. */
static size_t compare(const float *x, const float *w, const float *b, const float *y, const float *mean,
                      const float *rstd, int rows, int cols, char *msg, size_t size)
{
    size_t bad = 0, used = 0;
    msg[0] = 0;
#define BAD(...)                                                                                      \
    do {                                                                                              \
        if (bad++ < 3 && used < size) used += (size_t)snprintf(msg + used, size - used, __VA_ARGS__); \
    } while (0)
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * cols, *yr = y + (size_t)r * cols;
        double s = 0, q = 0;
        for (int j = 0; j < cols; j++) s += xr[j];
        const double m = s / cols;
        for (int j = 0; j < cols; j++) q += ((double)xr[j] - m) * ((double)xr[j] - m);
        const double var = q / cols, rs = 1.0 / sqrt(var + (double)EPS);
        if (!isfinite(m) || !isfinite(var)) {
            if (!isnan(rstd[r])) BAD("; row %d holds a NaN or Inf: rstd expected NaN, got %.9g", r, rstd[r]);
            for (int j = 0; j < cols; j++)
                if (!isnan(yr[j])) {
                    BAD("; row %d holds a NaN or Inf: y[%d] expected NaN, got %.9g", r, j, yr[j]);
                    break;
                }
            continue;
        }
        const double mtol = 2e-6 * fmax(fabs(m), sqrt(var)) + 1e-30;
        const double rtol = 2e-5 + 16 * U32 * fabs(m) * rs;
        if (!(fabs(mean[r] - m) <= mtol)) BAD("; mean[%d] expected %.9g, got %.9g (tolerance %.3g)", r, m, mean[r], mtol);
        if (!(fabs(rstd[r] - rs) <= rtol * rs))
            BAD("; rstd[%d] expected %.9g, got %.9g (relative tolerance %.3g)", r, rs, rstd[r], rtol);
        for (int j = 0; j < cols; j++) {
            const double d = (double)xr[j] - m, ref = d * rs * w[j] + b[j];
            const double tol = 2e-5 * (1 + fabs(ref)) + fabs(w[j]) * rs * (mtol + rtol * fabs(d));
            if (!(fabs(yr[j] - ref) <= tol)) { /* NaN fails */
                BAD("; y[%d][%d] expected %.9g, got %.9g (tolerance %.3g)", r, j, ref, yr[j], tol);
                break;
            }
        }
    }
#undef BAD
    return bad;
}

/* One run on fresh inputs: x at ox floats past an aligned address, weight and
 * bias at op, y at oy (poisoned, guarded), mean and rstd guarded. */
static void check_fwd(wb_rng *rng, int rows, int cols, size_t ox, size_t op, size_t oy)
{
    const size_t n = (size_t)rows * (size_t)cols;
    float *bx = wb_hmalloc((n + ox + 1) * 4), *bw = wb_hmalloc(((size_t)cols + op + 1) * 4),
          *bb = wb_hmalloc(((size_t)cols + op + 1) * 4);
    float *hx = bx + ox, *hw = bw + op, *hb = bb + op;
    wb_fill_uniform_f32(rng, bx, ox, -1, 1);
    wb_fill_uniform_f32(rng, bw, op, -1, 1);
    wb_fill_uniform_f32(rng, bb, op, -1, 1);
    fill_rows(rng, hx, rows, cols, 1);
    wb_fill_uniform_f32(rng, hw, (size_t)cols, -1.5f, 1.5f);
    wb_fill_uniform_f32(rng, hb, (size_t)cols, -1, 1);
    float *dx = wb_dcopy(bx, (n + ox) * 4), *dw = wb_dcopy(bw, ((size_t)cols + op) * 4),
          *db = wb_dcopy(bb, ((size_t)cols + op) * 4);
    wb_dout y, m, r;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    float *dm = wb_dout_alloc(&m, "mean", (size_t)rows * 4, 0), *dr = wb_dout_alloc(&r, "rstd", (size_t)rows * 4, 0);
    WB_CUDA(ln_fwd(dx ? dx + ox : NULL, dw + op, db + op, dy, dm, dr, rows, cols, EPS));
    float *hy = wb_hmalloc(n * 4 + 4), *hm = wb_hmalloc((size_t)rows * 4 + 4), *hr = wb_hmalloc((size_t)rows * 4 + 4);
    char what[120], msg[600];
    snprintf(what, sizeof what, "ln_fwd, rows=%d cols=%d, x+%zu weight/bias+%zu y+%zu", rows, cols, ox, op, oy);
    wb_expect_dout_guards(&y, hy, what);
    wb_expect_dout_guards(&m, hm, what);
    wb_expect_dout_guards(&r, hr, what);
    size_t bad = compare(hx, hw, hb, hy, hm, hr, rows, cols, msg, sizeof msg);
    if (bad)
        ck_abort_msg("%s (seed %llu; rows by r %% 5: U(-5,5), U(-1e4,1e4), +-1e4 + U(-1,1), constant, U(-1,1)%s): "
                     "%zu wrong%s", what, (unsigned long long)wb_base_seed(),
                     rows >= 7 ? "; row 6 a NaN, row 8 an Inf" : "", bad, msg);
    wb_dfree(dx), wb_dfree(dw), wb_dfree(db);
    wb_dout_free(&y), wb_dout_free(&m), wb_dout_free(&r);
    free(bx), free(bw), free(bb), free(hy), free(hm), free(hr);
}

/* rows x cols: one element, odd, not a multiple of 4, warp and float4 edges,
 * hidden sizes of models, the register path's limit (16384) and past it. */
static const int SHAPES[][2] = { { 0, 7 },     { 1, 1 },     { 9, 1 },      { 10, 2 },    { 10, 3 },    { 10, 5 },
                                 { 10, 31 },   { 10, 33 },   { 10, 127 },   { 16, 128 },  { 10, 255 },  { 33, 1024 },
                                 { 10, 1025 }, { 20, 4096 }, { 10, 4097 },  { 10, 8192 }, { 10, 8193 }, { 10, 16384 },
                                 { 10, 16385 }, { 10, 20000 }, { 3000, 64 }, { 300, 768 } };

START_TEST(fwd_shapes)
{
    wb_rng rng = WB_RNG();
    check_fwd(&rng, SHAPES[_i][0], SHAPES[_i][1], 0, 0, 0);
}
END_TEST

/* Misaligned starts, cols % 4 == 0 (the float4 case) and not. */
START_TEST(fwd_offsets)
{
    wb_rng rng = WB_RNG();
    const int k = _i, rows = (int)wb_rng_int(&rng, 10, 40);
    const int cols = k < 3 ? 4 * (int)wb_rng_int(&rng, 1, 1500) : (int)wb_rng_int(&rng, 1, 6000);
    check_fwd(&rng, rows, cols, (size_t)(k == 0 || k == 3), (size_t)(k == 1 || k == 4), (size_t)(k == 2 || k == 5));
}
END_TEST

/* rows == 0 writes nothing and succeeds; rows < 0, cols <= 0, eps < 0 or NaN
 * are cudaErrorInvalidValue and write nothing. */
START_TEST(fwd_args)
{
    float *x = wb_dmalloc(64 * 4), *w = wb_dmalloc(16 * 4);
    wb_dfill_uniform_f32(x, 64, 1, -1, 1);
    wb_dfill_uniform_f32(w, 16, 2, -1, 1);
    static const struct { int rows, cols; float eps; cudaError_t want; } CASES[] = {
        { 0, 16, 1e-5f, cudaSuccess },           { 0, 0, 1e-5f, cudaSuccess },
        { -1, 16, 1e-5f, cudaErrorInvalidValue }, { 4, 0, 1e-5f, cudaErrorInvalidValue },
        { 4, -3, 1e-5f, cudaErrorInvalidValue }, { 4, 16, -1.f, cudaErrorInvalidValue },
        { 4, 16, NAN, cudaErrorInvalidValue },
    };
    for (size_t c = 0; c < WB_COUNT(CASES); c++) {
        wb_dout y, m, r;
        float *dy = wb_dout_alloc(&y, "y", 64 * 4, 0), *dm = wb_dout_alloc(&m, "mean", 4 * 4, 0),
              *dr = wb_dout_alloc(&r, "rstd", 4 * 4, 0);
        cudaError_t e = ln_fwd(x, w, w, dy, dm, dr, CASES[c].rows, CASES[c].cols, CASES[c].eps);
        cudaError_t late = cudaDeviceSynchronize();
        cudaGetLastError();
        float hy[64], hm[4], hr[4];
        char what[120];
        snprintf(what, sizeof what, "ln_fwd(rows=%d, cols=%d, eps=%g)", CASES[c].rows, CASES[c].cols,
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
    wb_dfree(x), wb_dfree(w);
}
END_TEST

static const wb_test TESTS[] = {
    { "w41.kernel", WB_T(fwd_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w41.kernel", WB_T(fwd_offsets), WB_GPU, 6 },
    { "w41.kernel", WB_T(fwd_args), WB_GPU, 0 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
