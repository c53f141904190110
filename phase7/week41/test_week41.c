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
#include "w41_checks.h"

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
    w41_fill_rows(rng, hx, rows, cols, 1);
    wb_fill_uniform_f32(rng, hw, (size_t)cols, -1.5f, 1.5f);
    wb_fill_uniform_f32(rng, hb, (size_t)cols, -1, 1);
    float *dx = wb_dcopy(bx, (n + ox) * 4), *dw = wb_dcopy(bw, ((size_t)cols + op) * 4),
          *db = wb_dcopy(bb, ((size_t)cols + op) * 4);
    wb_dout y, m, r;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    float *dm = wb_dout_alloc(&m, "mean", (size_t)rows * 4, 0), *dr = wb_dout_alloc(&r, "rstd", (size_t)rows * 4, 0);
    WB_CUDA(ln_fwd(dx ? dx + ox : NULL, dw + op, db + op, dy, dm, dr, rows, cols, W41_EPS));
    float *hy = wb_hmalloc(n * 4 + 4), *hm = wb_hmalloc((size_t)rows * 4 + 4), *hr = wb_hmalloc((size_t)rows * 4 + 4);
    char what[120], msg[600];
    snprintf(what, sizeof what, "ln_fwd, rows=%d cols=%d, x+%zu weight/bias+%zu y+%zu", rows, cols, ox, op, oy);
    wb_expect_dout_guards(&y, hy, what);
    wb_expect_dout_guards(&m, hm, what);
    wb_expect_dout_guards(&r, hr, what);
    size_t bad = w41_compare(hx, hw, hb, hy, hm, hr, rows, cols, 0, msg, sizeof msg);
    if (bad)
        ck_abort_msg("%s (seed %llu; rows by r %% 5: U(-5,5), U(-1e4,1e4), +-1e4 + U(-1,1), constant, U(-1,1)%s): "
                     "%zu wrong%s", what, (unsigned long long)wb_base_seed(),
                     rows >= 7 ? "; row 6 a NaN, row 8 an Inf" : "", bad, msg);
    wb_dfree(dx), wb_dfree(dw), wb_dfree(db);
    wb_dout_free(&y), wb_dout_free(&m), wb_dout_free(&r);
    free(bx), free(bw), free(bb), free(hy), free(hm), free(hr);
}

/* The shapes: W41_SHAPES (w41_checks.h). */
START_TEST(fwd_shapes)
{
    wb_rng rng = WB_RNG();
    check_fwd(&rng, W41_SHAPES[_i][0], W41_SHAPES[_i][1], 0, 0, 0);
}
END_TEST

/* Misaligned starts, cols % 4 == 0 (the float4 case) and not. */
START_TEST(fwd_offsets)
{
    wb_rng rng = WB_RNG();
    int rows, cols;
    size_t ox, op, oy;
    w41_offset_case(&rng, _i, &rows, &cols, &ox, &op, &oy);
    check_fwd(&rng, rows, cols, ox, op, oy);
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
    { "w41.kernel", WB_T(fwd_shapes), WB_GPU, WB_COUNT(W41_SHAPES) },
    { "w41.kernel", WB_T(fwd_offsets), WB_GPU, W41_OFFSET_CASES },
    { "w41.kernel", WB_T(fwd_args), WB_GPU, 0 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
