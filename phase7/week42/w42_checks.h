/* w42_checks.h — what week 42's C checks expect, shared by the week's test
 * program (test_week42.c) and the instructor's judge (instructor/
 * judge_w42.c, which runs the student's code in a separate runner): the
 * shapes, how each case's inputs are drawn from its generator, the double
 * reference of dx, dweight and dbias and their tolerances. Change a check
 * here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below).
 * The judge draws case i from wb_rng_for_seed(seed, TAG, i) through the same
 * functions, so for a seed it gets the test's cases and inputs alike. */
#ifndef W42_CHECKS_H
#define W42_CHECKS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "wb_rand.h"

#define W42_COUNT(a)   (sizeof(a) / sizeof((a)[0]))
#define W42_EPS        1e-5
#define W42_F32_TAG    "bwd_f32_fn"
#define W42_F64_TAG    "bwd_f64_fn"
#define W42_NAN_TAG    "bwd_nan_fn"
#define W42_NAN_CASES  2 /* case i: 6 rows, 1000 columns (i 1, float) or 33 (i 0, double) */
#define W42_NAN_COLS(i) ((i) ? 1000 : 33)

static const int W42_SHAPES[][2] = { { 0, 5 },    { 1, 1 },     { 7, 1 },    { 3, 7 },     { 5, 33 },    { 9, 127 },
                                     { 4, 255 },  { 33, 1024 }, { 9, 1025 }, { 17, 4096 }, { 5, 8193 },  { 3, 20000 },
                                     { 3000, 64 }, { 1000, 257 }, { 40000, 3 } };

/* The inputs of one case, in double on the host: x by row kind (r % 4:
 * U(-3, 3), 1e4 + U(-1, 1), a constant row, U(-1e3, 1e3)), dy U(-1, 1) (a NaN
 * at [1][cols / 2] when nan), weight U(-1.5, 1.5); mean and rstd as the
 * forward saves them, rounded to the type (the reference uses the rounded
 * ones, as the kernel does). The caller allocates the arrays: x and dy
 * rows * cols doubles, w cols, mean and rstd rows. */
typedef struct {
    int     rows, cols;
    double *x, *dy, *w, *mean, *rstd; /* values representable in the type under test */
} w42_case;

static inline double w42_rnd(double v, int f32) { return f32 ? (double)(float)v : v; }

static inline void w42_fill_case(wb_rng *rng, w42_case *c, int f32, int nan)
{
    const int rows = c->rows, cols = c->cols;
    size_t n = (size_t)rows * cols;
    for (int r = 0; r < rows; r++) {
        double *xr = c->x + (size_t)r * cols;
        switch (r % 4) {
        case 0: wb_fill_uniform_f64(rng, xr, (size_t)cols, -3, 3); break;
        case 1: wb_fill_uniform_f64(rng, xr, (size_t)cols, 1e4 - 1, 1e4 + 1); break;
        case 2: { double k = (double)wb_rng_int(rng, -4, 4); for (int j = 0; j < cols; j++) xr[j] = k; break; }
        default: wb_fill_uniform_f64(rng, xr, (size_t)cols, -1e3, 1e3);
        }
        double s = 0, q = 0;
        for (int j = 0; j < cols; j++) xr[j] = w42_rnd(xr[j], f32), s += xr[j];
        double m = s / cols;
        for (int j = 0; j < cols; j++) q += (xr[j] - m) * (xr[j] - m);
        c->mean[r] = w42_rnd(m, f32), c->rstd[r] = w42_rnd(1 / sqrt(q / cols + W42_EPS), f32);
    }
    wb_fill_uniform_f64(rng, c->dy, n, -1, 1);
    wb_fill_uniform_f64(rng, c->w, (size_t)cols, -1.5, 1.5);
    for (size_t i = 0; i < n; i++) c->dy[i] = w42_rnd(c->dy[i], f32);
    for (int j = 0; j < cols; j++) c->w[j] = w42_rnd(c->w[j], f32);
    if (nan && rows > 1) c->dy[(size_t)cols + cols / 2] = NAN;
}

static inline double w42_at(const void *h, size_t i, int f32)
{
    return f32 ? ((const float *)h)[i] : ((const double *)h)[i];
}

/* The poison's bits (0xFF bytes, the harness's wb_dout and the judge's jd_gbuf) at element i: never written. */
static inline int w42_poison_at(const void *h, size_t i, int f32)
{
    static const unsigned char ff[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    return memcmp((const unsigned char *)h + i * (f32 ? 4 : 8), ff, f32 ? 4 : 8) == 0;
}

/* dx, dweight, dbias (host copies of the type: f32 1 float, 0 double)
 * against the double reference: dx within 8 u of what its row sums hold,
 * the column sums within 2 u of theirs (u 2e-5 in float, 1e-12 in double);
 * NaN where the reference is NaN. Where strict (the judge's), a value that
 * is the poison's bits counts as not written, NaN due or not. Returns the
 * count of wrong values, the first three told in msg. */
static inline size_t w42_compare(const w42_case *c, const void *hdx, const void *hdw, const void *hdb, int f32,
                                 int strict, char *msg, size_t size)
{
    const int rows = c->rows, cols = c->cols;
    const double u = f32 ? 2e-5 : 1e-12; /* relative to the size of what is summed */
    size_t bad = 0, used = 0;
    msg[0] = 0;
#define W42_BAD(...)                                                                                  \
    do {                                                                                              \
        if (bad++ < 3 && used < size) used += (size_t)snprintf(msg + used, size - used, __VA_ARGS__); \
    } while (0)
#define W42_UNSET(h, i) (strict && w42_poison_at(h, i, f32))
#define W42_NEVER(h, i) (w42_poison_at(h, i, f32) ? " (never written: still the poison)" : "")
    for (int i = 0; i < rows; i++) {
        const double *xr = c->x + (size_t)i * cols, *dr = c->dy + (size_t)i * cols, mi = c->mean[i], ri = c->rstd[i];
        double a = 0, b = 0, aa = 0, ab = 0;
        for (int j = 0; j < cols; j++) {
            double g = dr[j] * c->w[j], xh = (xr[j] - mi) * ri;
            a += g, b += g * xh, aa += fabs(g), ab += fabs(g * xh);
        }
        a /= cols, b /= cols, aa /= cols, ab /= cols;
        for (int j = 0; j < cols; j++) {
            const size_t k = (size_t)i * cols + j;
            double g = dr[j] * c->w[j], xh = (xr[j] - mi) * ri, ref = ri * (g - a - xh * b);
            double tol = 8 * u * ri * (fabs(g) + aa + fabs(xh) * (ab + fabs(b))) + 1e-300;
            double got = w42_at(hdx, k, f32);
            if ((!(fabs(got - ref) <= tol) && !(isnan(ref) && isnan(got))) || W42_UNSET(hdx, k)) {
                W42_BAD("; dx[%d][%d] expected %.12g, got %.12g (tolerance %.3g)%s", i, j, ref, got, tol,
                        W42_NEVER(hdx, k));
                break;
            }
        }
    }
    for (int j = 0; j < cols; j++) {
        double sw = 0, sb = 0, aw = 0, abs_b = 0;
        for (int i = 0; i < rows; i++) {
            double d = c->dy[(size_t)i * cols + j], t = d * ((c->x[(size_t)i * cols + j] - c->mean[i]) * c->rstd[i]);
            sw += t, sb += d, aw += fabs(t), abs_b += fabs(d);
        }
        double gw = w42_at(hdw, (size_t)j, f32), gb = w42_at(hdb, (size_t)j, f32);
        if ((!(fabs(gw - sw) <= 2 * u * aw + 1e-300) && !(isnan(sw) && isnan(gw))) || W42_UNSET(hdw, (size_t)j))
            W42_BAD("; dweight[%d] expected %.12g, got %.12g (tolerance %.3g)%s", j, sw, gw, 2 * u * aw,
                    W42_NEVER(hdw, (size_t)j));
        if ((!(fabs(gb - sb) <= 2 * u * abs_b + 1e-300) && !(isnan(sb) && isnan(gb))) || W42_UNSET(hdb, (size_t)j))
            W42_BAD("; dbias[%d] expected %.12g, got %.12g (tolerance %.3g)%s", j, sb, gb, 2 * u * abs_b,
                    W42_NEVER(hdb, (size_t)j));
    }
#undef W42_NEVER
#undef W42_UNSET
#undef W42_BAD
    return bad;
}

#endif
