/* w15_checks.h — what week 15's checks expect, shared by the week's test
 * program (test_week15.c) and the instructor's judge (instructor/judge_w15.c,
 * which runs the student's code in a separate runner): the traffic figures
 * and their check, the shapes, sizes and offsets, how each case is drawn
 * from its generator, the CPU references and the tolerances. Change a check
 * here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below; the
 * test asserts it). The judge draws case i from wb_rng_for_seed(seed, TAG, i)
 * through the same functions, so for a seed it gets the test's cases, sizes
 * and inputs alike. */
#ifndef W15_CHECKS_H
#define W15_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "traffic.h"
#include "wb_rand.h"

#define W15_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- traffic (CPU) */

/* Bytes per element of each chain, unfused and fused (the model of
 * traffic.h): the benchmarks' byte counts, and what traffic_bytes must say. */
static const double W15_BYTES[TR_CHAINS][2] = {
    [TR_GELU] = { 36, 12 }, [TR_L2NORM] = { 12, 4 }, [TR_SOFTMAX] = { 16, 8 },
    [TR_SMOOTH] = { 16, 8 }, [TR_NORMALIZE] = { 12, 12 },
};
static const char *const W15_CHAIN_NAMES[TR_CHAINS] = { "gelu chain", "l2norm", "softmax", "smooth", "normalize" };

/* The whole of w15.traffic over bytes(chain, fused) (the student's
 * traffic_bytes, linked or through the judge's runner): 0, or 1 with why. */
static inline int w15_traffic_check(double (*bytes)(int chain, int fused), char *why, size_t n)
{
    for (int c = 0; c < TR_CHAINS; c++)
        for (int f = 0; f < 2; f++) {
            double got = bytes(c, f);
            if (got != W15_BYTES[c][f])
                return snprintf(why, n, "%s, %s: traffic_bytes says %g bytes an element; count again (%s)",
                                W15_CHAIN_NAMES[c], f ? "fused" : "unfused", got,
                                f ? "your one kernel: what must it read, what must it write?"
                                  : "support/yard_unfused.cu: each kernel's reads and writes, added up"), 1;
        }
    if (!(bytes(TR_CHAINS, 0) == -1 && bytes(-1, 1) == -1 && bytes(TR_GELU, 2) == -1))
        return snprintf(why, n, "a chain or version that does not exist must give -1"), 1;
    return 0;
}

/* ---------------------------------------------------------------- GELU chain */

#define W15_GELU_SHAPES_TAG  "gelu_shapes_fn"
#define W15_GELU_OFFSETS_TAG "gelu_offsets_fn"
#define W15_GELU_ATOL 5e-5
#define W15_GELU_RTOL 1e-5

static inline double w15_gelu_ref(double v) { return v / (1.0 + exp(-1.5957691216057308 * (v + 0.044715 * v * v * v))); }

static const int W15_GSHAPES[][2] = { { 0, 7 },     { 7, 0 },     { 1, 1 },     { 1, 3 },      { 3, 5 },     { 2, 4 },
                                      { 5, 1023 },  { 33, 1024 }, { 17, 4097 }, { 1000, 257 }, { 300, 4096 }, { 70000, 8 } };
#define W15_N_GSHAPES W15_COUNT(W15_GSHAPES)

/* Pointers that are not 16-byte aligned (x, bias, r, y offsets in floats):
 * the float4 path must not be taken. Each of the four pointers is
 * misaligned alone once (a kernel that checks three of them faults there),
 * then several together. */
static const size_t W15_GOFFS[][4] = { { 0, 0, 0, 0 }, { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 },
                                       { 0, 0, 0, 1 }, { 0, 0, 0, 2 }, { 1, 1, 1, 3 }, { 2, 3, 1, 0 } };
#define W15_N_GOFFS W15_COUNT(W15_GOFFS)
#define W15_GOFF_MAX_ROWS 300
#define W15_GOFF_MAX_COLS 1200

/* An offsets case's shape: rows in [1, 300], cols a multiple of 4 up to 1200. */
static inline void w15_gelu_offsets_shape(wb_rng *r, int *rows, int *cols)
{
    *rows = (int)wb_rng_int(r, 1, W15_GOFF_MAX_ROWS), *cols = 4 * (int)wb_rng_int(r, 1, W15_GOFF_MAX_COLS / 4);
}

/* Elements of a rows x cols case (0 when either is <= 0), and of its bias. */
static inline size_t w15_elems(int rows, int cols)
{
    return (size_t)(rows > 0 ? rows : 0) * (size_t)(cols > 0 ? cols : 0);
}

/* rows x cols from r: hx (n + ox floats in [-6, 6), NaN, +Inf, +-1e20 at
 * its first four where n >= 4), hb (cols + ob in [-1, 1)), hr (n + orr in
 * [-1, 1)), *s in [0.5, 1.5), and ref[i] = r + s gelu(x + bias) in double. */
static inline void w15_gelu_case(wb_rng *r, int rows, int cols, size_t ox, size_t ob, size_t orr, float *hx, float *hb,
                                 float *hr, float *s, double *ref)
{
    size_t n = w15_elems(rows, cols), nb = cols > 0 ? (size_t)cols : 0;
    wb_fill_uniform_f32(r, hx, n + ox, -6, 6);
    wb_fill_uniform_f32(r, hb, nb + ob, -1, 1);
    wb_fill_uniform_f32(r, hr, n + orr, -1, 1);
    *s = (float)(0.5 + wb_rng_unit(r));
    if (n >= 4) hx[ox] = NAN, hx[ox + 1] = INFINITY, hx[ox + 2] = 1e20f, hx[ox + 3] = -1e20f;
    for (size_t i = 0; i < n; i++)
        ref[i] = hr[orr + i] + *s * w15_gelu_ref((double)hx[ox + i] + hb[ob + i % (size_t)cols]);
}

/* ---------------------------------------------------------------- L2 norm */

#define W15_L2NORM_SIZES_TAG    "l2norm_sizes_fn"
#define W15_L2NORM_SPECIALS_TAG "l2norm_specials_fn"
#define W15_NORM_RTOL 2e-5

static const size_t W15_NSIZES[] = { 0, 1, 3, 4, 5, 255, 1024, 1025, 4099, 65537, 1000003, ((size_t)1 << 24) + 3 };
#define W15_N_NSIZES W15_COUNT(W15_NSIZES)
#define W15_N_NSPECIALS 3
#define W15_NSPECIAL_MAX 300000

/* Size case i: n = W15_NSIZES[i], x at float offset i % 3, hx (n + off
 * floats in [-2, 2)); returns the norm in double. */
static inline double w15_l2norm_sizes_case(wb_rng *r, size_t n, size_t off, float *hx)
{
    wb_fill_uniform_f32(r, hx, n + off, -2, 2);
    double sq = 0;
    for (size_t i = 0; i < n; i++) sq += (double)hx[off + i] * hx[off + i];
    return sqrt(sq);
}

/* Special case i's size and position (drawn first: the test sizes its buffer by them). */
static inline void w15_l2norm_specials_n(wb_rng *r, size_t *n, size_t *at)
{
    *n = (size_t)wb_rng_int(r, 2, W15_NSPECIAL_MAX), *at = (size_t)wb_rng_int(r, 0, (int64_t)*n - 1);
}
/* Special case i: hx (n floats in [-1, 1)) with a NaN at `at` (0), an Inf
 * at `at` (1), or -Inf first and NaN last (2); its what and the norm. */
static inline double w15_l2norm_specials_case(wb_rng *r, int i, size_t n, size_t at, float *hx, const char **what)
{
    wb_fill_uniform_f32(r, hx, n, -1, 1);
    *what = i == 0 ? "a NaN" : i == 1 ? "an Inf" : "-Inf and a NaN";
    if (i == 0) hx[at] = NAN;
    else if (i == 1) hx[at] = INFINITY;
    else hx[0] = -INFINITY, hx[n - 1] = NAN;
    return i == 1 ? INFINITY : NAN;
}

/* ---------------------------------------------------------------- softmax */

#define W15_SOFTMAX_SHAPES_TAG  "softmax_shapes_fn"
#define W15_SOFTMAX_OFFSETS_TAG "softmax_offsets_fn"
#define W15_SOFTMAX_ATOL 1e-7
#define W15_SOFTMAX_RTOL 2e-5

static const int W15_SSHAPES[][2] = { { 0, 5 },     { 5, 0 },    { 1, 1 },      { 1, 4 },       { 3, 3 },     { 7, 31 },
                                      { 9, 32 },    { 6, 33 },   { 16, 128 },   { 10, 1000 },   { 33, 1024 }, { 6, 1025 },
                                      { 8, 4096 },  { 6, 5000 }, { 2000, 64 },  { 1000, 512 },  { 7, 1028 } };
#define W15_N_SSHAPES W15_COUNT(W15_SSHAPES)
#define W15_N_SOFFSETS 4
#define W15_SOFF_MAX_ROWS 200
#define W15_SOFF_MAX_COLS 1200

static inline void w15_softmax_offsets_shape(wb_rng *r, int *rows, int *cols)
{
    *rows = (int)wb_rng_int(r, 6, W15_SOFF_MAX_ROWS), *cols = 4 * (int)wb_rng_int(r, 1, W15_SOFF_MAX_COLS / 4);
}

/* The rows' specials: row 0 near 3e4 (exp overflows without the max), row 1
 * of +-1e30, row 2 with -Inf entries, row 3 all -Inf, row 4 a NaN, row 5 a
 * +Inf; the last three give NaN rows. */
static inline void w15_softmax_specials(wb_rng *rng, float *x, int rows, int cols)
{
    if (rows < 6 || cols < 2) return;
    for (int j = 0; j < cols; j++) {
        x[j] = 3e4f + (float)(wb_rng_unit(rng) * 16 - 8);
        x[(size_t)cols + j] = (float)((wb_rng_unit(rng) * 2 - 1) * 1e30);
        if (j % 3 == 1) x[2 * (size_t)cols + j] = -INFINITY;
        x[3 * (size_t)cols + j] = -INFINITY;
    }
    x[4 * (size_t)cols + (size_t)wb_rng_int(rng, 0, cols - 1)] = NAN;
    x[5 * (size_t)cols + (size_t)wb_rng_int(rng, 0, cols - 1)] = INFINITY;
}

static inline void w15_softmax_ref(const float *x, double *y, int rows, int cols)
{
    for (int i = 0; i < rows; i++) {
        const float *xr = x + (size_t)i * cols;
        double *yr = y + (size_t)i * cols, m = -INFINITY, s = 0;
        for (int j = 0; j < cols; j++)
            if (xr[j] > m) m = xr[j]; /* NaN is skipped, as fmaxf does: its exp makes the row NaN anyway */
        for (int j = 0; j < cols; j++) s += yr[j] = exp((double)xr[j] - m);
        for (int j = 0; j < cols; j++) yr[j] /= s;
    }
}

/* rows x cols from r: hx (n + ox floats in [-5, 5), the specials in rows
 * 0-5) and ref. */
static inline void w15_softmax_case(wb_rng *r, int rows, int cols, size_t ox, float *hx, double *ref)
{
    size_t n = w15_elems(rows, cols);
    wb_fill_uniform_f32(r, hx, n + ox, -5, 5);
    w15_softmax_specials(r, hx + ox, rows, cols);
    w15_softmax_ref(hx + ox, ref, rows, cols);
}

/* ---------------------------------------------------------------- smooth */

#define W15_SMOOTH_SIZES_TAG   "smooth_sizes_fn"
#define W15_SMOOTH_OFFSETS_TAG "smooth_offsets_fn"
#define W15_SMOOTH_ATOL 1e-6
#define W15_SMOOTH_RTOL 1e-5

static const size_t W15_MSIZES[] = { 0, 1, 2, 3, 4, 5, 7, 8, 127, 128, 129, 255, 256, 257, 1023, 4096, 4097, 65537,
                                     1000003, ((size_t)1 << 22) + 1 };
#define W15_N_MSIZES W15_COUNT(W15_MSIZES)
#define W15_N_MOFFSETS 8
#define W15_MOFF_MAX 300000

static inline double w15_bell(double v) { return exp(-v * v); }

/* An offsets case's n. */
static inline size_t w15_smooth_offsets_n(wb_rng *r) { return (size_t)wb_rng_int(r, 100, W15_MOFF_MAX); }

/* n from r: hx (n + ox floats in [-3, 3); NaN at 1, +Inf at n/2, -Inf at
 * n-2, 1e20 at n-4 where n >= 8) and ref. */
static inline void w15_smooth_case(wb_rng *r, size_t n, size_t ox, float *hx, double *ref)
{
    wb_fill_uniform_f32(r, hx, n + ox, -3, 3);
    float *x = hx + ox;
    if (n >= 8) x[1] = NAN, x[n / 2] = INFINITY, x[n - 2] = -INFINITY, x[n - 4] = 1e20f;
    for (size_t i = 0; i < n; i++)
        ref[i] = 0.25 * ((i > 0 ? w15_bell(x[i - 1]) : 0) + (i + 1 < n ? w15_bell(x[i + 1]) : 0)) + 0.5 * w15_bell(x[i]);
}

/* ---------------------------------------------------------------- linear */

#define W15_LINEAR_TAG "linear_shapes_fn"
#define W15_LINEAR_RTOL 1e-5
static inline double w15_linear_atol(int K) { return 1e-6 * K + 1e-6; }

static const int W15_LSHAPES[][3] = { { 1, 1, 1 },     { 1, 17, 33 },     { 33, 1, 65 }, { 31, 33, 35 },   { 64, 64, 64 },
                                      { 65, 129, 17 }, { 100, 257, 129 }, { 5, 7, 0 },   { 257, 31, 300 }, { 128, 192, 256 } };
#define W15_N_LSHAPES W15_COUNT(W15_LSHAPES)

/* M x N x K from r: hA (M K + 1 floats in [-1, 1): one more, so never NULL
 * on the device, even for K = 0), hB (K N + 1), hbias (N); A[0][0] NaN when
 * nan (row 0 of C NaN, ReLU included); ref = A B and ref2 = relu(A B + bias)
 * in double. */
static inline void w15_linear_case(wb_rng *r, int M, int N, int K, int nan, float *hA, float *hB, float *hbias,
                                   double *ref, double *ref2)
{
    size_t na = (size_t)M * K, nb = (size_t)K * N;
    wb_fill_uniform_f32(r, hA, na + 1, -1, 1);
    wb_fill_uniform_f32(r, hB, nb + 1, -1, 1);
    wb_fill_uniform_f32(r, hbias, (size_t)N, -1, 1);
    if (nan && na) hA[0] = NAN;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0;
            for (int k = 0; k < K; k++) acc += (double)hA[(size_t)i * K + k] * hB[(size_t)k * N + j];
            double v = acc + hbias[j];
            ref[(size_t)i * N + j] = acc;
            ref2[(size_t)i * N + j] = v < 0 ? 0 : v;
        }
}

/* The report's shape (a short K: the epilogue's share is large) and its
 * timed outputs' tolerance. */
enum { W15_LM = 8192, W15_LN = 4096, W15_LK = 128 };
#define W15_LBIG_ATOL 1e-4

/* ---------------------------------------------------------------- normalize */

#define W15_NORMALIZE_SIZES_TAG "normalize_sizes_fn"
#define W15_NORMALIZE_ZERO_TAG  "normalize_zero_fn"
#define W15_NORMALIZE_ATOL 1e-7
#define W15_NORMALIZE_ZERO_N 1000

static const size_t W15_ZSIZES[] = { 0, 1, 3, 4, 5, 1000, 4099, 65537, 1000003, ((size_t)1 << 24) + 1 };
#define W15_N_ZSIZES W15_COUNT(W15_ZSIZES)

/* n from r: hx (n + ox floats in [-2, 2), all zero when zero) and ref = x / ||x|| (0 / 0 is NaN). */
static inline void w15_normalize_case(wb_rng *r, size_t n, size_t ox, int zero, float *hx, double *ref)
{
    wb_fill_uniform_f32(r, hx, n + ox, -2, 2);
    if (zero) memset(hx, 0, (n + ox) * 4);
    double sq = 0;
    for (size_t i = 0; i < n; i++) sq += (double)hx[ox + i] * hx[ox + i];
    for (size_t i = 0; i < n; i++) ref[i] = hx[ox + i] / sqrt(sq);
}

/* ---------------------------------------------------------------- benchmarks */

/* The timed runs' inputs, as test_week15.c fills them (wb_dfill_uniform_f32
 * ranges) and the GELU chain's columns and the softmax's. */
#define W15_GELU_COLS    4096
#define W15_SOFTMAX_COLS 1024
#define W15_GELU_X_LO (-6.0f)
#define W15_GELU_X_HI 6.0f
#define W15_SOFTMAX_LO (-4.0f)
#define W15_SOFTMAX_HI 4.0f
#define W15_SMOOTH_LO (-3.0f)
#define W15_SMOOTH_HI 3.0f

#endif
