/* w32_checks.h — what week 32's checks expect, shared by the week's test
 * program (test_week32.c) and the instructor's judge (instructor/
 * judge_w32.c, which runs the student's code in a separate runner): the
 * forward and the analytic reference in double, central differences, the
 * shapes and offsets of every case, how each case's inputs are drawn from
 * its generator, the tolerances, and the benchmarks' widths and input
 * ranges. Change a check here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below; the
 * test asserts it). The judge draws case i from wb_rng_for_seed(seed, TAG, i)
 * through the same functions, so for a seed it gets the test's cases. */
#ifndef W32_CHECKS_H
#define W32_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ln_host.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_rand.h"

#define W32_COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define W32_GRADCHECK_TAG  "gradcheck_fd_fn"
#define W32_HOST_REF_TAG   "host_vs_ref_fn"
#define W32_DX_SHAPES_TAG  "dx_shapes_fn"
#define W32_DX_OFFSETS_TAG "dx_offsets_fn"
#define W32_DX_NAN_TAG     "dx_nan_fn"
#define W32_DGB_SHAPES_TAG "dgb_shapes_fn"
#define W32_DGB_OFFSETS_TAG "dgb_offsets_fn"
#define W32_DGB_NAN_TAG    "dgb_nan_fn"

#define W32_FD_H      1e-5  /* the central differences' step */
#define W32_FD_TOL    1e-6  /* the gradcheck's atol and rtol (double against differences) */
#define W32_HOST_TOL  1e-12 /* the host backward against the reference, of each result's scale */
#define W32_DEV_TOL   3e-5  /* the device's floats against the reference, of each result's scale */
#define W32_N_DX_OFFSETS  8
#define W32_N_DGB_OFFSETS 4
#define W32_N_NAN         2
#define W32_DX_OFF_MAX_ROWS  200 /* the offset cases' rows: 1 to this */
#define W32_DGB_OFF_MAX_ROWS 500
#define W32_OFF_MAX_COLS     8192 /* and their widest rows */

/* ---------------------------------------------------------------- forward and reference (double) */

/* mean and rstd of each row, two passes, as ln_host.h defines them. */
static void ln_stats(const double *x, int rows, int cols, double *mean, double *rstd)
{
    for (int i = 0; i < rows; i++) {
        const double *xr = x + (size_t)i * cols;
        double s = 0, v = 0;
        for (int j = 0; j < cols; j++) s += xr[j];
        const double mu = s / cols;
        for (int j = 0; j < cols; j++) v += (xr[j] - mu) * (xr[j] - mu);
        mean[i] = mu, rstd[i] = 1.0 / sqrt(v / cols + LN_EPS);
    }
}

/* The loss whose gradient the backward computes: L = sum_ij w_ij y_ij with
 * y = LayerNorm(x) (mean and rstd recomputed from x), so dL/dy = w. */
static double ln_loss(const double *x, const double *gamma, const double *beta, const double *w, int rows, int cols)
{
    double L = 0;
    for (int i = 0; i < rows; i++) {
        const double *xr = x + (size_t)i * cols, *wr = w + (size_t)i * cols;
        double mu, rs;
        ln_stats(xr, 1, cols, &mu, &rs);
        for (int j = 0; j < cols; j++) L += wr[j] * ((xr[j] - mu) * rs * gamma[j] + beta[j]);
    }
    return L;
}

static double fmax_num(double a, double b) { return isnan(b) ? a : (b > a ? b : a); }

/* The analytic backward: the definitions of ln_dx.h and ln_dgb.h, with xhat
 * and g of a row kept in arrays. When dxs, dgs, dbs are not NULL they get
 * the scale each result's float rounding is judged against: per row of dx,
 * rstd * max|g| * (1 + max xhat^2) (the size of the terms dx is made of);
 * per column, the sums of |dy xhat| and of |dy| (a float sum is off by a
 * few ulps of the sum of its |terms|). */
static void ref_backward(const double *x, const double *gamma, const double *mean, const double *rstd,
                         const double *dy, double *dx, double *dgamma, double *dbeta, int rows, int cols,
                         double *dxs, double *dgs, double *dbs)
{
    if (cols <= 0) return;
    const size_t nc = (size_t)cols;
    const double inv = 1.0 / cols;
    double *xh = wb_hmalloc(nc * 8), *g = wb_hmalloc(nc * 8);
    memset(dgamma, 0, nc * 8), memset(dbeta, 0, nc * 8);
    if (dgs) memset(dgs, 0, nc * 8), memset(dbs, 0, nc * 8);
    for (size_t r = 0; r < (size_t)(rows > 0 ? rows : 0); r++) {
        const size_t o = r * nc;
        double sum_g = 0, sum_gxh = 0, big_g = 0, big_xh = 0;
        for (size_t j = 0; j < nc; j++) {
            xh[j] = (x[o + j] - mean[r]) * rstd[r];
            g[j] = dy[o + j] * gamma[j];
            sum_g += g[j];
            sum_gxh += g[j] * xh[j];
            big_g = fmax_num(big_g, fabs(g[j]));
            big_xh = fmax_num(big_xh, fabs(xh[j]));
        }
        for (size_t j = 0; j < nc; j++) {
            dx[o + j] = rstd[r] * (g[j] - inv * sum_g - inv * sum_gxh * xh[j]);
            dgamma[j] += dy[o + j] * xh[j];
            dbeta[j] += dy[o + j];
            if (dgs) dgs[j] += fabs(dy[o + j] * xh[j]), dbs[j] += fabs(dy[o + j]);
        }
        if (dxs) dxs[r] = rstd[r] * big_g * (1 + big_xh * big_xh);
    }
    free(xh), free(g);
}

/* ---------------------------------------------------------------- gradcheck (CPU) */

/* Central differences of the loss, step W32_FD_H, for every element of v
 * (x, gamma or beta). */
static void fd_grad(double *v, size_t n, double *out, double *x, double *gamma, double *beta, const double *w,
                    int rows, int cols)
{
    const double h = W32_FD_H;
    for (size_t k = 0; k < n; k++) {
        const double keep = v[k];
        v[k] = keep + h;
        const double lp = ln_loss(x, gamma, beta, w, rows, cols);
        v[k] = keep - h;
        const double lm = ln_loss(x, gamma, beta, w, rows, cols);
        v[k] = keep;
        out[k] = (lp - lm) / (2 * h);
    }
}

/* Small shapes: one element, one row, one column, odd widths. */
static const int GC[][2] = { { 1, 1 }, { 1, 2 }, { 1, 7 }, { 3, 1 }, { 2, 5 }, { 4, 16 }, { 3, 33 } };

/* A gradcheck case's inputs (x, dy: rows x cols; gamma, beta: cols) and the
 * saved statistics of x (mean, rstd: rows). */
static void gc_draw(wb_rng *rng, int rows, int cols, double *x, double *dy, double *gamma, double *beta, double *mean,
                    double *rstd)
{
    const size_t n = (size_t)rows * cols;
    wb_fill_uniform_f64(rng, x, n, -2, 2);
    wb_fill_uniform_f64(rng, dy, n, -1, 1);
    wb_fill_uniform_f64(rng, gamma, cols, -1.5, 1.5);
    wb_fill_uniform_f64(rng, beta, cols, -1, 1);
    for (int i = 0; i < rows; i++) {
        double *xr = x + (size_t)i * cols;
        if (cols >= 2) xr[0] = -2 - wb_rng_unit(rng), xr[1] = 2 + wb_rng_unit(rng); /* variance well above eps */
        if (i == 1)
            for (int j = 0; j < cols; j++) xr[j] += 100; /* the mean must come out of every term */
    }
    ln_stats(x, rows, cols, mean, rstd);
}

/* Inputs that stress the formulas, one row pattern each: every 5th row (from
 * row 1) offset by 1e4, every 7th (from row 3) constant (variance 0, rstd =
 * 1/sqrt(eps)), dy of every 6th (from row 2) scaled by 1e4. Floats, as the
 * device gets them. */
static void make_inputs(wb_rng *rng, float *x, float *gamma, float *dy, int rows, int cols)
{
    const size_t n = (size_t)rows * cols;
    wb_fill_uniform_f32(rng, x, n, -2, 2);
    wb_fill_uniform_f32(rng, gamma, (size_t)cols, -1.5f, 1.5f);
    wb_fill_uniform_f32(rng, dy, n, -1, 1);
    for (int i = 0; i < rows; i++) {
        float *xr = x + (size_t)i * cols, *dr = dy + (size_t)i * cols;
        if (i % 5 == 1)
            for (int j = 0; j < cols; j++) xr[j] += 1e4f;
        else if (i % 7 == 3)
            for (int j = 1; j < cols; j++) xr[j] = xr[0];
        if (i % 6 == 2)
            for (int j = 0; j < cols; j++) dr[j] *= 1e4f;
    }
}

/* The saved statistics of float rows, as a forward would store them. */
static void float_stats(const float *x, int rows, int cols, float *mean, float *rstd)
{
    double *xd = wb_hmalloc((size_t)cols * 8), mu, rs;
    for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) xd[j] = x[(size_t)i * cols + j];
        ln_stats(xd, 1, cols, &mu, &rs);
        mean[i] = (float)mu, rstd[i] = (float)rs;
    }
    free(xd);
}

static double *widen(const float *v, size_t n)
{
    double *d = wb_hmalloc(n * 8);
    for (size_t k = 0; k < n; k++) d[k] = v[k];
    return d;
}

/* The reference and its scales for float inputs (as the device gets them),
 * widened to double. */
static void float_ref(const float *x, const float *gamma, const float *dy, const float *mean, const float *rstd,
                      int rows, int cols, double *dx, double *dgamma, double *dbeta, double *dxs, double *dgs,
                      double *dbs)
{
    const size_t n = (size_t)rows * cols, nr = (size_t)rows, nc = (size_t)cols;
    double *xd = widen(x, n), *dyd = widen(dy, n), *g = widen(gamma, nc), *m = widen(mean, nr), *r = widen(rstd, nr);
    ref_backward(xd, g, m, r, dyd, dx, dgamma, dbeta, rows, cols, dxs, dgs, dbs);
    free(xd), free(dyd), free(g), free(m), free(r);
}

/* The host backward against the reference on wider rows (double both: only
 * the order of the additions differs). rows 0 must give zero dgamma and dbeta. */
static const int HS[][2] = { { 0, 5 }, { 5, 0 }, { 37, 1000 }, { 1, 4097 }, { 200, 3 } };

/* A host case: the inputs in double, central differences (the gradcheck's
 * cases), the reference with its scales, and room for the host backward's
 * results, poisoned (0xFF bytes: NaN). */
typedef struct {
    int     rows, cols;
    size_t  n;
    double *x, *dy, *gamma, *beta, *mean, *rstd;
    double *fx, *fg, *fb; /* central differences */
    double *rx, *rg, *rb; /* the reference */
    double *sx, *sg, *sb; /* its scales */
    double *yx, *yg, *yb; /* the host backward's results */
} host_case;

static void host_case_alloc(host_case *h, int rows, int cols)
{
    const size_t n = (size_t)rows * cols, nr = (size_t)rows, nc = (size_t)cols;
    h->rows = rows, h->cols = cols, h->n = n;
    h->x = wb_hmalloc(n * 8), h->dy = wb_hmalloc(n * 8), h->gamma = wb_hmalloc(nc * 8), h->beta = wb_hmalloc(nc * 8);
    h->mean = wb_hmalloc(nr * 8), h->rstd = wb_hmalloc(nr * 8);
    h->fx = wb_hmalloc(n * 8), h->fg = wb_hmalloc(nc * 8), h->fb = wb_hmalloc(nc * 8);
    h->rx = wb_hmalloc(n * 8), h->rg = wb_hmalloc(nc * 8), h->rb = wb_hmalloc(nc * 8);
    h->sx = wb_hmalloc(nr * 8), h->sg = wb_hmalloc(nc * 8), h->sb = wb_hmalloc(nc * 8);
    h->yx = wb_hmalloc(n * 8), h->yg = wb_hmalloc(nc * 8), h->yb = wb_hmalloc(nc * 8);
    wb_hpoison(h->yx, n * 8), wb_hpoison(h->yg, nc * 8), wb_hpoison(h->yb, nc * 8);
}

static void host_case_free(host_case *h)
{
    free(h->x), free(h->dy), free(h->gamma), free(h->beta), free(h->mean), free(h->rstd);
    free(h->fx), free(h->fg), free(h->fb), free(h->rx), free(h->rg), free(h->rb);
    free(h->sx), free(h->sg), free(h->sb), free(h->yx), free(h->yg), free(h->yb);
}

/* A gradcheck case (GC): the inputs, central differences for x, gamma and
 * beta, and the reference (no scales). */
static void gc_make(host_case *h, wb_rng *rng, int rows, int cols)
{
    host_case_alloc(h, rows, cols);
    gc_draw(rng, rows, cols, h->x, h->dy, h->gamma, h->beta, h->mean, h->rstd);
    fd_grad(h->x, h->n, h->fx, h->x, h->gamma, h->beta, h->dy, rows, cols);
    fd_grad(h->gamma, (size_t)cols, h->fg, h->x, h->gamma, h->beta, h->dy, rows, cols);
    fd_grad(h->beta, (size_t)cols, h->fb, h->x, h->gamma, h->beta, h->dy, rows, cols);
    ref_backward(h->x, h->gamma, h->mean, h->rstd, h->dy, h->rx, h->rg, h->rb, rows, cols, NULL, NULL, NULL);
}

/* A wider case (HS): float inputs as the device gets them (make_inputs,
 * float_stats) widened to double, and the reference with its scales. */
static void hr_make(host_case *h, wb_rng *rng, int rows, int cols)
{
    const size_t n = (size_t)rows * cols, nr = (size_t)rows, nc = (size_t)cols;
    host_case_alloc(h, rows, cols);
    float *fx = wb_hmalloc(n * 4), *fdy = wb_hmalloc(n * 4), *fg = wb_hmalloc(nc * 4);
    float *fm = wb_hmalloc(nr * 4), *fr = wb_hmalloc(nr * 4);
    make_inputs(rng, fx, fg, fdy, rows, cols);
    float_stats(fx, rows, cols, fm, fr);
    for (size_t k = 0; k < n; k++) h->x[k] = fx[k], h->dy[k] = fdy[k];
    for (size_t j = 0; j < nc; j++) h->gamma[j] = fg[j];
    for (size_t i = 0; i < nr; i++) h->mean[i] = fm[i], h->rstd[i] = fr[i];
    ref_backward(h->x, h->gamma, h->mean, h->rstd, h->dy, h->rx, h->rg, h->rb, rows, cols, h->sx, h->sg, h->sb);
    free(fx), free(fdy), free(fg), free(fm), free(fr);
}

/* The host backward's results (y*) against the reference's (r*) within
 * W32_HOST_TOL of each result's scale (s*): NULL when all are, else the
 * first wrong array's name ("dx", "dgamma", "dbeta") and *first its index. */
static const char *host_mismatch(const double *yx, const double *yg, const double *yb, const double *rx,
                                 const double *rg, const double *rb, const double *sx, const double *sg,
                                 const double *sb, int rows, int cols, size_t *first)
{
    const size_t n = (size_t)rows * cols;
    for (size_t k = 0; k < n; k++)
        if (!wb_close(yx[k], rx[k], W32_HOST_TOL * sx[k / cols], W32_HOST_TOL)) return *first = k, "dx";
    for (int j = 0; j < cols; j++)
        if (!wb_close(yg[j], rg[j], W32_HOST_TOL * sg[j], W32_HOST_TOL)) return *first = (size_t)j, "dgamma";
    for (int j = 0; j < cols; j++)
        if (!wb_close(yb[j], rb[j], W32_HOST_TOL * sb[j], W32_HOST_TOL)) return *first = (size_t)j, "dbeta";
    return NULL;
}

/* ---------------------------------------------------------------- the device cases */

/* One device case's inputs on the host (x, dy: rows x cols; gamma: cols;
 * mean, rstd: rows, the statistics a forward saves), with a NaN in dy[2][5]
 * where nan is set and the shape has room for it. */
static void problem_draw(wb_rng *rng, int rows, int cols, int nan, float *x, float *gamma, float *dy, float *mean,
                         float *rstd)
{
    make_inputs(rng, x, gamma, dy, rows, cols);
    if (nan && rows >= 3 && cols >= 6) dy[2 * (size_t)cols + 5] = NAN; /* row 2, column 5 */
    float_stats(x, rows, cols, mean, rstd);
}

/* Empty, one element, one column, odd widths, every register-kernel width
 * (128 to 8192), past 8192, many short rows, many 1024-wide rows. */
static const int DXS[][2] = { { 0, 5 },     { 5, 0 },     { 1, 1 },     { 3, 1 },      { 1, 7 },      { 2, 3 },
                              { 7, 33 },    { 5, 128 },   { 9, 512 },   { 4, 1024 },   { 3, 1023 },   { 6, 2048 },
                              { 9, 6144 },  { 16, 4096 }, { 5, 8192 },  { 3, 8193 },   { 2, 20000 },  { 1000, 257 },
                              { 40000, 64 }, { 4096, 1024 } };

/* The offsets (in floats) of a dx case: x, dy, gamma, mean/rstd, dx. */
enum { OFF_X, OFF_DY, OFF_G, OFF_M, OFF_OUT };

/* dx_offsets case i: the shape (rows drawn from rng first) and each of x,
 * dy, gamma, mean/rstd and dx shifted by a float or more. */
static void dx_offsets_case(wb_rng *rng, int i, int *rows, int *cols, size_t off[5])
{
    static const int COLS[] = { 1024, 4096, 8192, 1000 };
    *rows = (int)wb_rng_int(rng, 1, W32_DX_OFF_MAX_ROWS), *cols = COLS[i % 4];
    off[OFF_X] = (size_t)(i & 1), off[OFF_DY] = (size_t)((i >> 1) & 1), off[OFF_G] = (size_t)((i >> 2) & 1);
    off[OFF_M] = (size_t)((i >> 1) & 1), off[OFF_OUT] = (size_t)((i * 3) & 3);
}

/* dx_nan case i (a NaN in dy[2][5]). */
static void dx_nan_shape(int i, int *rows, int *cols) { *rows = i ? 3 : 6, *cols = i ? 8192 : 1000; }

/* Empty (rows 0: zeros), one element, one row, one column, odd and wide
 * shapes, many rows of few columns. */
static const int DGS[][2] = { { 0, 5 },     { 5, 0 },      { 1, 1 },      { 1, 7 },    { 3, 1 },
                              { 7, 33 },    { 33, 128 },   { 100, 1000 }, { 1000, 257 }, { 2048, 1024 },
                              { 40000, 64 }, { 70000, 3 }, { 300, 8192 }, { 3, 20000 } };

/* dgb_offsets case i: the shape (rows drawn from rng first) and the offsets
 * of x, dy, mean/rstd and dgamma/dbeta (gamma is not an input: OFF_G 0). */
static void dgb_offsets_case(wb_rng *rng, int i, int *rows, int *cols, size_t off[5])
{
    static const int COLS[] = { 1024, 4096, 1000, 8192 };
    *rows = (int)wb_rng_int(rng, 1, W32_DGB_OFF_MAX_ROWS), *cols = COLS[i % 4];
    off[OFF_X] = (size_t)(i & 1), off[OFF_DY] = (size_t)((i >> 1) & 1), off[OFF_G] = 0;
    off[OFF_M] = (size_t)(i & 1), off[OFF_OUT] = (size_t)((i * 3) & 3);
}

/* dgb_nan case i (a NaN in dy[2][5]). */
static void dgb_nan_shape(int i, int *rows, int *cols) { *rows = i ? 3 : 600, *cols = i ? 8192 : 1000; }

/* ---------------------------------------------------------------- bandwidth */

/* The benchmarks' widths (rows: wb_bench_bytes() / 4 / cols) and inputs: x
 * and dy uniform in [-1, 1], gamma in [0.5, 1.5], and statistics of the size
 * a forward would give for such rows (mean near 0, rstd near sqrt(3)). */
static const int BENCH_COLS[] = { 1024, 4096, 8192 };
#define BENCH_MAX_COLS 8192
#define W32_X_LO    -1.0f
#define W32_X_HI    1.0f
#define W32_G_LO    0.5f
#define W32_G_HI    1.5f
#define W32_M_LO    -0.01f
#define W32_M_HI    0.01f
#define W32_R_LO    1.70f
#define W32_R_HI    1.76f
#define W32_DX_BW_TOL 1e-4 /* dx's timed outputs: atol and rtol */
#define W32_DGB_BW_ATOL_ROW 1e-5 /* dgamma's and dbeta's: atol 1e-5 a row (a long float sum), rtol 1e-5 */
#define W32_DGB_BW_RTOL 1e-5
/* Bytes a timed call moves: dx reads x and dy and writes dx (12 an
 * element), gamma once, mean and rstd; dgamma and dbeta read x and dy (8 an
 * element), mean and rstd, and write dgamma and dbeta (the workspace's
 * partials are the kernel's own overhead and not counted). */
static inline double w32_dx_bytes(size_t rows, size_t cols) { return 12.0 * rows * cols + 4.0 * cols + 8.0 * rows; }
static inline double w32_dgb_bytes(size_t rows, size_t cols) { return 8.0 * rows * cols + 8.0 * rows + 8.0 * cols; }

#endif
