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

static const double EPS = 1e-5;

/* The inputs of one case, in double on the host: x by row kind (r % 4:
 * U(-3, 3), 1e4 + U(-1, 1), a constant row, U(-1e3, 1e3)), dy U(-1, 1) (a NaN
 * at [1][cols / 2] when nan), weight U(-1.5, 1.5); mean and rstd as the
 * forward saves them, rounded to the type (the reference uses the rounded
 * ones, as the kernel does). */
typedef struct {
    int     rows, cols;
    double *x, *dy, *w, *mean, *rstd; /* values representable in the type under test */
} bcase;

static double rnd(double v, int f32) { return f32 ? (double)(float)v : v; }

static bcase make_case(wb_rng *rng, int rows, int cols, int f32, int nan)
{
    bcase c = { rows, cols, NULL, NULL, NULL, NULL, NULL };
    size_t n = (size_t)rows * cols;
    c.x = wb_hmalloc(n * 8 + 8), c.dy = wb_hmalloc(n * 8 + 8), c.w = wb_hmalloc((size_t)cols * 8 + 8);
    c.mean = wb_hmalloc((size_t)rows * 8 + 8), c.rstd = wb_hmalloc((size_t)rows * 8 + 8);
    for (int r = 0; r < rows; r++) {
        double *xr = c.x + (size_t)r * cols;
        switch (r % 4) {
        case 0: wb_fill_uniform_f64(rng, xr, (size_t)cols, -3, 3); break;
        case 1: wb_fill_uniform_f64(rng, xr, (size_t)cols, 1e4 - 1, 1e4 + 1); break;
        case 2: { double k = (double)wb_rng_int(rng, -4, 4); for (int j = 0; j < cols; j++) xr[j] = k; break; }
        default: wb_fill_uniform_f64(rng, xr, (size_t)cols, -1e3, 1e3);
        }
        double s = 0, q = 0;
        for (int j = 0; j < cols; j++) xr[j] = rnd(xr[j], f32), s += xr[j];
        double m = s / cols;
        for (int j = 0; j < cols; j++) q += (xr[j] - m) * (xr[j] - m);
        c.mean[r] = rnd(m, f32), c.rstd[r] = rnd(1 / sqrt(q / cols + EPS), f32);
    }
    wb_fill_uniform_f64(rng, c.dy, n, -1, 1);
    wb_fill_uniform_f64(rng, c.w, (size_t)cols, -1.5, 1.5);
    for (size_t i = 0; i < n; i++) c.dy[i] = rnd(c.dy[i], f32);
    for (int j = 0; j < cols; j++) c.w[j] = rnd(c.w[j], f32);
    if (nan && rows > 1) c.dy[(size_t)cols + cols / 2] = NAN;
    return c;
}

static void free_case(bcase *c) { free(c->x), free(c->dy), free(c->w), free(c->mean), free(c->rstd); }

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

static double host_at(const void *h, size_t i, int f32) { return f32 ? ((const float *)h)[i] : ((const double *)h)[i]; }

/* Run the backward of type f32 (1) or f64 (0) and compare dx, dweight,
 * dbias with the double reference; then run again and compare the bits. */
static void check_bwd(wb_rng *rng, int rows, int cols, int f32, int nan)
{
    bcase c = make_case(rng, rows, cols, f32, nan);
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
    const double u = f32 ? 2e-5 : 1e-12; /* relative to the size of what is summed */
    size_t bad = 0, used = 0;
    msg[0] = 0;
#define BAD(...)                                                                                        \
    do {                                                                                                \
        if (bad++ < 3 && used < sizeof msg) used += (size_t)snprintf(msg + used, sizeof msg - used, __VA_ARGS__); \
    } while (0)
    for (int i = 0; i < rows; i++) {
        const double *xr = c.x + (size_t)i * cols, *dr = c.dy + (size_t)i * cols, mi = c.mean[i], ri = c.rstd[i];
        double a = 0, b = 0, aa = 0, ab = 0;
        for (int j = 0; j < cols; j++) {
            double g = dr[j] * c.w[j], xh = (xr[j] - mi) * ri;
            a += g, b += g * xh, aa += fabs(g), ab += fabs(g * xh);
        }
        a /= cols, b /= cols, aa /= cols, ab /= cols;
        for (int j = 0; j < cols; j++) {
            double g = dr[j] * c.w[j], xh = (xr[j] - mi) * ri, ref = ri * (g - a - xh * b);
            double tol = 8 * u * ri * (fabs(g) + aa + fabs(xh) * (ab + fabs(b))) + 1e-300;
            double got = host_at(h[0][0], (size_t)i * cols + j, f32);
            if (!(fabs(got - ref) <= tol) && !(isnan(ref) && isnan(got))) {
                BAD("; dx[%d][%d] expected %.12g, got %.12g (tolerance %.3g)", i, j, ref, got, tol);
                break;
            }
        }
    }
    for (int j = 0; j < cols; j++) {
        double sw = 0, sb = 0, aw = 0, abs_b = 0;
        for (int i = 0; i < rows; i++) {
            double d = c.dy[(size_t)i * cols + j], t = d * ((c.x[(size_t)i * cols + j] - c.mean[i]) * c.rstd[i]);
            sw += t, sb += d, aw += fabs(t), abs_b += fabs(d);
        }
        double gw = host_at(h[0][1], (size_t)j, f32), gb = host_at(h[0][2], (size_t)j, f32);
        if (!(fabs(gw - sw) <= 2 * u * aw + 1e-300) && !(isnan(sw) && isnan(gw)))
            BAD("; dweight[%d] expected %.12g, got %.12g (tolerance %.3g)", j, sw, gw, 2 * u * aw);
        if (!(fabs(gb - sb) <= 2 * u * abs_b + 1e-300) && !(isnan(sb) && isnan(gb)))
            BAD("; dbias[%d] expected %.12g, got %.12g (tolerance %.3g)", j, sb, gb, 2 * u * abs_b);
    }
#undef BAD
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

static const int SHAPES[][2] = { { 0, 5 },    { 1, 1 },     { 7, 1 },    { 3, 7 },     { 5, 33 },    { 9, 127 },
                                 { 4, 255 },  { 33, 1024 }, { 9, 1025 }, { 17, 4096 }, { 5, 8193 },  { 3, 20000 },
                                 { 3000, 64 }, { 1000, 257 }, { 40000, 3 } };

START_TEST(bwd_f32)
{
    wb_rng rng = WB_RNG();
    check_bwd(&rng, SHAPES[_i][0], SHAPES[_i][1], 1, 0);
}
END_TEST

START_TEST(bwd_f64)
{
    wb_rng rng = WB_RNG();
    check_bwd(&rng, SHAPES[_i][0], SHAPES[_i][1], 0, 0);
}
END_TEST

START_TEST(bwd_nan)
{
    wb_rng rng = WB_RNG();
    check_bwd(&rng, 6, _i ? 1000 : 33, _i & 1, 1);
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
    { "w42.kernel", WB_T(bwd_f32), WB_GPU, WB_COUNT(SHAPES) },
    { "w42.kernel", WB_T(bwd_f64), WB_GPU, WB_COUNT(SHAPES) },
    { "w42.kernel", WB_T(bwd_nan), WB_GPU, 2 },
    { "w42.kernel", WB_T(bwd_args), WB_GPU, 0 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
