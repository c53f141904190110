/* test_week42.c — week 42's C checkpoint: the LayerNorm backward kernels in
 * float and double against a double reference on the CPU (the Python
 * checkpoints, test_week42.py, test the Function with gradcheck and against
 * torch's autograd). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "ln_bwd.h"
#include "w42_checks.h"

/* One case's inputs (w42_checks.h: w42_fill_case draws them), in arrays of the harness's. */
static w42_case make_case(wb_rng *rng, int rows, int cols, int f32, int nan)
{
    w42_case c = { rows, cols, NULL, NULL, NULL, NULL, NULL };
    size_t n = (size_t)rows * cols;
    c.x = wb_hmalloc(n * 8 + 8), c.dy = wb_hmalloc(n * 8 + 8), c.w = wb_hmalloc((size_t)cols * 8 + 8);
    c.mean = wb_hmalloc((size_t)rows * 8 + 8), c.rstd = wb_hmalloc((size_t)rows * 8 + 8);
    w42_fill_case(rng, &c, f32, nan);
    return c;
}

static void free_case(w42_case *c) { free(c->x), free(c->dy), free(c->w), free(c->mean), free(c->rstd); }

/* The type's copy of a double array, on the device. */
static void *dev_copy(const double *h, size_t n, int f32)
{
    if (!f32) return wb_dcopy(h, n * 8);
    float *t = wb_hmalloc(n * 4 + 4);
    for (size_t i = 0; i < n; i++) t[i] = (float)h[i];
    void *d = wb_dcopy(t, n * 4);
    free(t);
    return d;
}

/* Run the backward of type f32 (1) or f64 (0) and compare dx, dweight,
 * dbias with the double reference; then run again and compare the bits. */
static void check_bwd(wb_rng *rng, int rows, int cols, int f32, int nan)
{
    w42_case c = make_case(rng, rows, cols, f32, nan);
    const size_t n = (size_t)rows * cols, es = f32 ? 4 : 8;
    void *x = dev_copy(c.x, n, f32), *dy = dev_copy(c.dy, n, f32), *w = dev_copy(c.w, (size_t)cols, f32);
    void *m = dev_copy(c.mean, (size_t)rows, f32), *r = dev_copy(c.rstd, (size_t)rows, f32);
    size_t wsb = ln_bwd_workspace_bytes(rows, cols, es);
    void *ws = wsb ? wb_dmalloc(wsb) : NULL;
    char what[140], msg[600];
    snprintf(what, sizeof what, "ln_bwd_%s, rows=%d cols=%d%s", f32 ? "f32" : "f64", rows, cols,
             nan ? ", a NaN in dy[1]" : "");
    void *h[2][3];
    for (int run = 0; run < 2; run++) {
        wb_dout odx, odw, odb;
        void *ddx = wb_dout_alloc(&odx, "dx", n * es, 0), *ddw = wb_dout_alloc(&odw, "dweight", (size_t)cols * es, 0),
             *ddb = wb_dout_alloc(&odb, "dbias", (size_t)cols * es, 0);
        if (f32)
            WB_CUDA(ln_bwd_f32(x, dy, w, m, r, ddx, ddw, ddb, ws, rows, cols));
        else
            WB_CUDA(ln_bwd_f64(x, dy, w, m, r, ddx, ddw, ddb, ws, rows, cols));
        h[run][0] = wb_hmalloc(n * es + 8), h[run][1] = wb_hmalloc((size_t)cols * es + 8),
        h[run][2] = wb_hmalloc((size_t)cols * es + 8);
        wb_expect_dout_guards(&odx, h[run][0], what);
        wb_expect_dout_guards(&odw, h[run][1], what);
        wb_expect_dout_guards(&odb, h[run][2], what);
        wb_dout_free(&odx), wb_dout_free(&odw), wb_dout_free(&odb);
    }
    size_t bad = w42_compare(&c, h[0][0], h[0][1], h[0][2], f32, 0, msg, sizeof msg);
    if (bad)
        ck_abort_msg("%s (seed %llu; rows by r %% 4: U(-3,3), 1e4 + U(-1,1), constant, U(-1e3,1e3)): %zu wrong%s",
                     what, (unsigned long long)wb_base_seed(), bad, msg);
    ck_assert_msg(memcmp(h[0][0], h[1][0], n * es) == 0 && memcmp(h[0][1], h[1][1], (size_t)cols * es) == 0 &&
                      memcmp(h[0][2], h[1][2], (size_t)cols * es) == 0,
                  "%s: a second run on the same inputs gave other bits (atomics in the column sums?)", what);
    for (int k = 0; k < 2; k++) free(h[k][0]), free(h[k][1]), free(h[k][2]);
    wb_dfree(x), wb_dfree(dy), wb_dfree(w), wb_dfree(m), wb_dfree(r), wb_dfree(ws);
    free_case(&c);
}

/* The shapes: W42_SHAPES (w42_checks.h). */

START_TEST(bwd_f32)
{
    wb_rng rng = WB_RNG();
    check_bwd(&rng, W42_SHAPES[_i][0], W42_SHAPES[_i][1], 1, 0);
}
END_TEST

START_TEST(bwd_f64)
{
    wb_rng rng = WB_RNG();
    check_bwd(&rng, W42_SHAPES[_i][0], W42_SHAPES[_i][1], 0, 0);
}
END_TEST

START_TEST(bwd_nan)
{
    wb_rng rng = WB_RNG();
    check_bwd(&rng, 6, W42_NAN_COLS(_i), _i & 1, 1);
}
END_TEST

/* rows < 0 or cols < 0: cudaErrorInvalidValue, nothing written; cols == 0 does nothing. */
START_TEST(bwd_args)
{
    double *buf = wb_dmalloc(64 * 8);
    static const struct { int rows, cols; cudaError_t want; } CASES[] = {
        { -1, 4, cudaErrorInvalidValue }, { 4, -1, cudaErrorInvalidValue }, { 4, 0, cudaSuccess } };
    for (size_t k = 0; k < WB_COUNT(CASES); k++)
        for (int f32 = 0; f32 < 2; f32++) {
            wb_dout o;
            void *d = wb_dout_alloc(&o, "dx/dweight/dbias", 64 * 8, 0);
            cudaError_t e = f32 ? ln_bwd_f32((float *)buf, (float *)buf, (float *)buf, (float *)buf, (float *)buf,
                                             (float *)d, (float *)d, (float *)d, NULL, CASES[k].rows, CASES[k].cols)
                                : ln_bwd_f64(buf, buf, buf, buf, buf, (double *)d, (double *)d, (double *)d, NULL,
                                             CASES[k].rows, CASES[k].cols);
            cudaError_t late = cudaDeviceSynchronize();
            cudaGetLastError();
            char what[80];
            snprintf(what, sizeof what, "ln_bwd_%s(rows=%d, cols=%d)", f32 ? "f32" : "f64", CASES[k].rows,
                     CASES[k].cols);
            ck_assert_msg(e == CASES[k].want, "%s returned %s, expected %s", what, cudaGetErrorName(e),
                          cudaGetErrorName(CASES[k].want));
            ck_assert_msg(late == cudaSuccess, "%s: the device reported %s afterwards", what, cudaGetErrorName(late));
            unsigned char h[64 * 8];
            wb_expect_dout_guards(&o, h, what);
            ck_assert_msg(wb_count_not_byte(h, sizeof h, 0xFF) == 0, "%s wrote to its outputs; it must write nothing",
                          what);
            wb_dout_free(&o);
        }
    wb_dfree(buf);
}
END_TEST

static const wb_test TESTS[] = {
    { "w42.kernel", WB_T(bwd_f32), WB_GPU, WB_COUNT(W42_SHAPES) },
    { "w42.kernel", WB_T(bwd_f64), WB_GPU, WB_COUNT(W42_SHAPES) },
    { "w42.kernel", WB_T(bwd_nan), WB_GPU, W42_NAN_CASES },
    { "w42.kernel", WB_T(bwd_args), WB_GPU, 0 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
