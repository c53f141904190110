/* test_week20.c — week 20's checkpoints: libwbk's API layer (checked without
 * a GPU), its operations and their split across devices, the end-to-end
 * program, the Python bindings (python/test_wbk.py, run as a subprocess with
 * the libwbk.so.1 built beside this binary), and the speed of a host-to-host
 * call against the transfers it cannot avoid. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wb_harness.h"
#include "wbk.h"
#include "app.h"

static const size_t SIZES[] = { 0, 1, 3, 31, 255, 256, 257, 1023, 4097, 65537, 1000003, ((size_t)1 << 24) + 1 };

/* ---------------------------------------------------------------- host outputs
 * The library's outputs are host arrays: each gets GUARD floats of 0xFF on
 * both sides (and is poisoned itself, NaN), and the guards are checked after. */
enum { GUARD = 64 };

static float *hout_alloc(size_t n)
{
    float *b = wb_hmalloc((n + 2 * GUARD) * sizeof(float));
    wb_hpoison(b, (n + 2 * GUARD) * sizeof(float));
    return b + GUARD;
}

static void hout_check_free(float *p, size_t n, const char *what)
{
    float *b = p - GUARD;
    size_t bad = wb_count_not_byte(b, GUARD * sizeof(float), 0xFF) +
                 wb_count_not_byte(p + n, GUARD * sizeof(float), 0xFF);
    free(b);
    ck_assert_msg(bad == 0, "%s: %zu bytes written outside the output's %zu floats", what, bad, n);
}

static void expect_f32(const float *got, const double *ref, size_t n, double atol, double rtol, const char *what)
{
    wb_cmp cmp;
    wb_compare_f32_f64("y", got, ref, n, atol, rtol, &cmp);
    WB_EXPECT_CMP(cmp, what);
}

/* ---------------------------------------------------------------- CPU references */

static void ref_dot(const float *x, const float *y, size_t n, double *sum, double *tol)
{
    double s = 0, sq = 0, sa = 0;
    for (size_t i = 0; i < n; i++) {
        double t = (double)x[i] * (y ? y[i] : 1.0f);
        s += t, sq += t * t, sa += fabs(t);
    }
    *sum = s;
    /* wbk.h's bound, and 2e-6 of the sum of |terms|: data far from 0 (x in
     * [3, 9]) add a rounding of the running total at every step of the
     * block sums' atomics, which grows with the total, not with sqrt(n). */
    *tol = 8 * FLT_EPSILON * sqrt((double)n) * sqrt(sq) + 1e-6 * fabs(s) + 2e-6 * sa;
}

/* y = (x - mean) * scale in double; the library's rule for a constant vector. */
static void ref_standardize(const float *x, size_t n, double *y, double *mean, double *sd)
{
    double s = 0, ss = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    double m = s / (double)n;
    for (size_t i = 0; i < n; i++) ss += (x[i] - m) * (x[i] - m);
    double d = sqrt(ss / (double)n), scale = d > 1e-5 * fabs(m) ? 1 / d : 1;
    for (size_t i = 0; i < n; i++) y[i] = (x[i] - m) * scale;
    *mean = m, *sd = d;
}

/* ---------------------------------------------------------------- w20.api (no GPU) */

static const char *st_name(wbk_status s) { return wbk_status_name((int)s); }

/* A call returned `got`; expect `want`, and for an error a message that
 * starts with "func: " and says something. */
static void expect_status(wbk_status got, wbk_status want, const char *func, const char *expr)
{
    ck_assert_msg(got == want, "%s returned %s, expected %s (message: \"%s\")", expr, st_name(got), st_name(want),
                  wbk_last_error());
    if (want == WBK_OK) return;
    const char *msg = wbk_last_error();
    size_t k = strlen(func);
    ck_assert_msg(msg && strncmp(msg, func, k) == 0 && msg[k] == ':' && msg[k + 1] == ' ' && strlen(msg) > k + 4,
                  "%s: wbk_last_error() is \"%s\", expected \"%s: what is wrong\"", expr, msg ? msg : "(NULL)", func);
}
#define EXPECT(call, want, func) expect_status((call), (want), (func), #call)

START_TEST(api_version_and_statuses)
{
    ck_assert_msg(wbk_version() == WBK_VERSION, "wbk_version() = %d, the header says %d", wbk_version(), WBK_VERSION);
    static const char *names[WBK_STATUS_COUNT] = { "WBK_OK", "WBK_ERR_INVALID_ARG", "WBK_ERR_INVALID_HANDLE",
                                                   "WBK_ERR_NO_DEVICE", "WBK_ERR_OUT_OF_MEMORY", "WBK_ERR_CUDA" };
    for (int s = 0; s < WBK_STATUS_COUNT; s++) {
        ck_assert_str_eq(wbk_status_name(s), names[s]);
        const char *t = wbk_status_string(s);
        ck_assert_msg(t && *t, "wbk_status_string(%d) is empty", s);
        for (int u = 0; u < s; u++)
            ck_assert_msg(strcmp(t, wbk_status_string(u)) != 0, "statuses %d and %d have the same text", u, s);
    }
    ck_assert_str_eq(wbk_status_name(-1), "WBK_ERR_UNKNOWN");
    ck_assert_str_eq(wbk_status_name(WBK_STATUS_COUNT), "WBK_ERR_UNKNOWN");
    ck_assert_msg(*wbk_status_string(1000), "wbk_status_string(1000) is empty");
}
END_TEST

static void *read_last_error(void *out)
{
    snprintf((char *)out, 64, "%s", wbk_last_error());
    return NULL;
}

/* Every function with a NULL context: a bad argument is INVALID_ARG with a
 * message naming the function, good arguments are INVALID_HANDLE, and
 * nothing here touches a GPU (this runs on machines without one). */
START_TEST(api_arguments_checked_first)
{
    wb_rng rng = WB_RNG();
    size_t n = (size_t)wb_rng_int(&rng, 2, 1000);
    float *x = wb_hmalloc(2 * n * sizeof(float)), *y = x + n;
    wb_fill_uniform_f32(&rng, x, 2 * n, -1, 1);
    double r = -7;
    int k = -7, devs[3] = { 0, -2, 0 };
    wbk_ctx *c = (wbk_ctx *)&k; /* a sentinel: must become NULL */
    const size_t big = WBK_MAX_N + 1;

    EXPECT(wbk_create(NULL, 0), WBK_ERR_INVALID_ARG, "wbk_create");
    EXPECT(wbk_create(&c, -1), WBK_ERR_INVALID_ARG, "wbk_create");
    ck_assert_msg(c == NULL, "wbk_create failed but left *ctx set");
    c = (wbk_ctx *)&k;
    EXPECT(wbk_create_on(&c, NULL, 1), WBK_ERR_INVALID_ARG, "wbk_create_on");
    ck_assert_msg(c == NULL, "wbk_create_on failed but left *ctx set");
    EXPECT(wbk_create_on(NULL, devs, 1), WBK_ERR_INVALID_ARG, "wbk_create_on");
    EXPECT(wbk_create_on(&c, devs, 0), WBK_ERR_INVALID_ARG, "wbk_create_on");
    EXPECT(wbk_create_on(&c, devs, WBK_MAX_DEVICES + 1), WBK_ERR_INVALID_ARG, "wbk_create_on");
    EXPECT(wbk_create_on(&c, devs, 3), WBK_ERR_INVALID_ARG, "wbk_create_on"); /* devices[1] = -2 */
    EXPECT(wbk_device_count(NULL, NULL), WBK_ERR_INVALID_ARG, "wbk_device_count");
    EXPECT(wbk_device_count(NULL, &k), WBK_ERR_INVALID_HANDLE, "wbk_device_count");

    EXPECT(wbk_saxpy(NULL, 2, x, n, y, n - 1), WBK_ERR_INVALID_ARG, "wbk_saxpy");
    char msg[512];
    snprintf(msg, sizeof msg, "%s", wbk_last_error());
    char nn[32], n1[32];
    snprintf(nn, sizeof nn, "%zu", n), snprintf(n1, sizeof n1, "%zu", n - 1);
    ck_assert_msg(strstr(msg, nn) && strstr(msg, n1), "the message should give both lengths (%s and %s): \"%s\"", nn,
                  n1, msg);
    EXPECT(wbk_saxpy(NULL, 2, NULL, n, y, n), WBK_ERR_INVALID_ARG, "wbk_saxpy");
    EXPECT(wbk_saxpy(NULL, 2, x, n, NULL, n), WBK_ERR_INVALID_ARG, "wbk_saxpy");
    EXPECT(wbk_saxpy(NULL, 2, x, big, y, big), WBK_ERR_INVALID_ARG, "wbk_saxpy");
    EXPECT(wbk_saxpy(NULL, 2, x, n, y, n), WBK_ERR_INVALID_HANDLE, "wbk_saxpy");
    EXPECT(wbk_saxpy(NULL, 2, NULL, 0, NULL, 0), WBK_ERR_INVALID_HANDLE, "wbk_saxpy");

    EXPECT(wbk_dot(NULL, x, n, y, n + 1, &r), WBK_ERR_INVALID_ARG, "wbk_dot");
    EXPECT(wbk_dot(NULL, x, n, NULL, n, &r), WBK_ERR_INVALID_ARG, "wbk_dot");
    EXPECT(wbk_dot(NULL, x, n, y, n, NULL), WBK_ERR_INVALID_ARG, "wbk_dot");
    EXPECT(wbk_dot(NULL, x, big, y, big, &r), WBK_ERR_INVALID_ARG, "wbk_dot");
    EXPECT(wbk_dot(NULL, x, n, y, n, &r), WBK_ERR_INVALID_HANDLE, "wbk_dot");

    EXPECT(wbk_sum(NULL, NULL, n, &r), WBK_ERR_INVALID_ARG, "wbk_sum");
    EXPECT(wbk_sum(NULL, x, n, NULL), WBK_ERR_INVALID_ARG, "wbk_sum");
    EXPECT(wbk_sum(NULL, x, big, &r), WBK_ERR_INVALID_ARG, "wbk_sum");
    EXPECT(wbk_sum(NULL, x, n, &r), WBK_ERR_INVALID_HANDLE, "wbk_sum");
    EXPECT(wbk_sum(NULL, NULL, 0, &r), WBK_ERR_INVALID_HANDLE, "wbk_sum");
    ck_assert_msg(r == -7, "a failed wbk_dot or wbk_sum wrote its result (%g)", r);

    int rows = (int)wb_rng_int(&rng, 1, n < 30 ? (int64_t)n : 30), cols = (int)(2 * n / (size_t)rows); /* cols >= 2 */
    size_t m = (size_t)rows * (size_t)cols; /* <= 2n */
    float *out = wb_hmalloc(2 * n * sizeof(float));
    EXPECT(wbk_transpose(NULL, x, m, out, m, -1, cols), WBK_ERR_INVALID_ARG, "wbk_transpose");
    EXPECT(wbk_transpose(NULL, x, m, out, m, rows, -5), WBK_ERR_INVALID_ARG, "wbk_transpose");
    EXPECT(wbk_transpose(NULL, x, 0, out, 0, WBK_MAX_DIM + 1, 0), WBK_ERR_INVALID_ARG, "wbk_transpose");
    EXPECT(wbk_transpose(NULL, x, 0, out, 0, 0, INT_MAX), WBK_ERR_INVALID_ARG, "wbk_transpose");
    EXPECT(wbk_transpose(NULL, x, m - 1, out, m, rows, cols), WBK_ERR_INVALID_ARG, "wbk_transpose");
    EXPECT(wbk_transpose(NULL, x, m, out, m + 1, rows, cols), WBK_ERR_INVALID_ARG, "wbk_transpose");
    EXPECT(wbk_transpose(NULL, NULL, m, out, m, rows, cols), WBK_ERR_INVALID_ARG, "wbk_transpose");
    EXPECT(wbk_transpose(NULL, x, m, NULL, m, rows, cols), WBK_ERR_INVALID_ARG, "wbk_transpose");
    EXPECT(wbk_transpose(NULL, x, m, x, m, rows, cols), WBK_ERR_INVALID_ARG, "wbk_transpose");         /* in place */
    EXPECT(wbk_transpose(NULL, x, m, x + 1, m, rows, cols), WBK_ERR_INVALID_ARG, "wbk_transpose");     /* overlap */
    EXPECT(wbk_transpose(NULL, x, m, out, m, rows, cols), WBK_ERR_INVALID_HANDLE, "wbk_transpose");
    EXPECT(wbk_transpose(NULL, NULL, 0, NULL, 0, 0, cols), WBK_ERR_INVALID_HANDLE, "wbk_transpose");

    wbk_stats st;
    EXPECT(wbk_standardize(NULL, x, 0, y, 0, &st), WBK_ERR_INVALID_ARG, "wbk_standardize");
    EXPECT(wbk_standardize(NULL, x, n, y, n - 1, &st), WBK_ERR_INVALID_ARG, "wbk_standardize");
    EXPECT(wbk_standardize(NULL, NULL, n, y, n, &st), WBK_ERR_INVALID_ARG, "wbk_standardize");
    EXPECT(wbk_standardize(NULL, x, n, NULL, n, &st), WBK_ERR_INVALID_ARG, "wbk_standardize");
    EXPECT(wbk_standardize(NULL, x, big, y, big, &st), WBK_ERR_INVALID_ARG, "wbk_standardize");
    EXPECT(wbk_standardize(NULL, x, n, y, n, NULL), WBK_ERR_INVALID_HANDLE, "wbk_standardize");
    EXPECT(wbk_standardize(NULL, x, n, x, n, &st), WBK_ERR_INVALID_HANDLE, "wbk_standardize"); /* in place is allowed */

    /* The message stays until the next failure; another thread has its own. */
    EXPECT(wbk_sum(NULL, NULL, n, &r), WBK_ERR_INVALID_ARG, "wbk_sum");
    snprintf(msg, sizeof msg, "%s", wbk_last_error());
    ck_assert_int_eq(wbk_destroy(NULL), WBK_OK);
    ck_assert_msg(strcmp(msg, wbk_last_error()) == 0, "a call that succeeded changed wbk_last_error(): \"%s\" became \"%s\"",
                  msg, wbk_last_error());
    char other[64] = "unread";
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, read_last_error, other), 0);
    pthread_join(t, NULL);
    ck_assert_msg(other[0] == 0, "a new thread's wbk_last_error() is \"%s\", expected \"\" (one message per thread)", other);
    free(x), free(out);
}
END_TEST

/* ---------------------------------------------------------------- w20.ops */

static wbk_ctx *open_ctx(const int *devs, int ndev)
{
    wbk_ctx *c = NULL;
    wbk_status s = devs ? wbk_create_on(&c, devs, ndev) : wbk_create(&c, ndev);
    ck_assert_msg(s == WBK_OK && c, "creating a context: %s: %s", st_name(s), wbk_last_error());
    return c;
}

#define OK(call) \
    do { wbk_status s_ = (call); ck_assert_msg(s_ == WBK_OK, "%s: %s: %s", #call, st_name(s_), wbk_last_error()); } while (0)

/* saxpy, dot, sum and standardize on n fresh elements through ctx. */
static void check_vector_ops(wbk_ctx *ctx, wb_rng *rng, size_t n, const char *tag)
{
    float *x = wb_hmalloc((n + 1) * sizeof(float)), *y0 = wb_hmalloc((n + 1) * sizeof(float));
    double *ref = wb_hmalloc((n + 1) * sizeof(double));
    float lo = (float)wb_rng_int(rng, -8, 4), hi = lo + (float)wb_rng_int(rng, 1, 6);
    wb_fill_uniform_f32(rng, x, n, lo, hi);
    wb_fill_uniform_f32(rng, y0, n, -1, 1);
    float a = (float)(4 * wb_rng_unit(rng) - 2);
    char what[160];

    float *y = hout_alloc(n);
    memcpy(y, y0, n * sizeof(float));
    for (size_t i = 0; i < n; i++) ref[i] = (double)a * x[i] + y0[i];
    OK(wbk_saxpy(ctx, a, x, n, y, n));
    snprintf(what, sizeof what, "%s: wbk_saxpy n=%zu a=%g", tag, n, a);
    expect_f32(y, ref, n, 1e-6, 1e-6, what);
    hout_check_free(y, n, what);

    double got = NAN, want, tol;
    ref_dot(x, y0, n, &want, &tol);
    OK(wbk_dot(ctx, x, n, y0, n, &got));
    ck_assert_msg(fabs(got - want) <= tol, "%s: wbk_dot n=%zu: %.9g, reference %.9g, |error| %.3g > tolerance %.3g", tag,
                  n, got, want, fabs(got - want), tol);
    ref_dot(x, NULL, n, &want, &tol);
    got = NAN;
    OK(wbk_sum(ctx, x, n, &got));
    ck_assert_msg(fabs(got - want) <= tol, "%s: wbk_sum n=%zu: %.9g, reference %.9g, |error| %.3g > tolerance %.3g", tag,
                  n, got, want, fabs(got - want), tol);

    if (n > 0) {
        double mean, sd;
        wbk_stats st = { NAN, NAN };
        ref_standardize(x, n, ref, &mean, &sd);
        y = hout_alloc(n);
        OK(wbk_standardize(ctx, x, n, y, n, &st));
        snprintf(what, sizeof what, "%s: wbk_standardize n=%zu, x in [%g, %g)", tag, n, lo, hi);
        expect_f32(y, ref, n, 1e-4, 1e-4, what);
        hout_check_free(y, n, what);
        ck_assert_msg(wb_close(st.mean, mean, 1e-5, 1e-5) && wb_close(st.std, sd, 1e-5, 1e-5),
                      "%s: mean %.9g std %.9g, reference %.9g %.9g", what, st.mean, st.std, mean, sd);
    }
    free(x), free(y0), free(ref);
}

static void check_transpose(wbk_ctx *ctx, wb_rng *rng, int rows, int cols, const char *tag)
{
    const size_t n = (size_t)rows * (size_t)cols;
    float *in = wb_hmalloc((n + 1) * sizeof(float)), *want = wb_hmalloc((n + 1) * sizeof(float));
    wb_fill_uniform_f32(rng, in, n, -100, 100);
    for (size_t r = 0; r < (size_t)rows; r++)
        for (size_t c = 0; c < (size_t)cols; c++) want[c * rows + r] = in[r * cols + c];
    float *out = hout_alloc(n);
    OK(wbk_transpose(ctx, in, n, out, n, rows, cols));
    char what[128];
    snprintf(what, sizeof what, "%s: wbk_transpose %d x %d", tag, rows, cols);
    wb_cmp cmp;
    wb_compare_f32("out", out, want, n, 0, 0, &cmp);
    WB_EXPECT_CMP(cmp, what);
    hout_check_free(out, n, what);
    free(in), free(want);
}

START_TEST(ops_sizes)
{
    wb_rng rng = WB_RNG();
    wbk_ctx *ctx = open_ctx(NULL, 1);
    check_vector_ops(ctx, &rng, SIZES[_i], "one device");
    wbk_destroy(ctx);
}
END_TEST

static const int SHAPES[][2] = { { 0, 0 }, { 0, 7 }, { 5, 0 }, { 1, 1 }, { 1, 1000 }, { 1000, 1 }, { 31, 33 },
                                 { 32, 32 }, { 33, 31 }, { 257, 129 }, { 1000, 1003 }, { 4099, 4097 } };

START_TEST(ops_transpose)
{
    wb_rng rng = WB_RNG();
    wbk_ctx *ctx = open_ctx(NULL, 1);
    check_transpose(ctx, &rng, SHAPES[_i][0], SHAPES[_i][1], "one device");
    wbk_destroy(ctx);
}
END_TEST

/* NaN and Inf: saxpy and dot propagate them, sum too, standardize makes
 * everything NaN (its mean is NaN). */
START_TEST(ops_nonfinite)
{
    wb_rng rng = WB_RNG();
    size_t n = (size_t)wb_rng_int(&rng, 1000, 100000), at = (size_t)wb_rng_int(&rng, 0, (int64_t)n - 1);
    float *x = wb_hmalloc(n * sizeof(float)), *y = wb_hmalloc(n * sizeof(float));
    wb_fill_uniform_f32(&rng, x, n, 0.5f, 1);
    wb_fill_uniform_f32(&rng, y, n, 0.5f, 1);
    x[at] = _i ? INFINITY : NAN;
    wbk_ctx *ctx = open_ctx(NULL, 1);
    double d = 0, s = 0;
    OK(wbk_dot(ctx, x, n, y, n, &d));
    OK(wbk_sum(ctx, x, n, &s));
    if (_i) ck_assert_msg(isinf(d) && d > 0 && isinf(s) && s > 0, "one x = +Inf: dot %g and sum %g must be +Inf", d, s);
    else ck_assert_msg(isnan(d) && isnan(s), "one x = NaN: dot %g and sum %g must be NaN", d, s);
    float yat = y[at];
    OK(wbk_saxpy(ctx, 2.0f, x, n, y, n));
    ck_assert_msg(_i ? (isinf(y[at]) && y[at] > 0) : isnan(y[at]), "saxpy: y[%zu] = %g from x = %g and y = %g", at,
                  y[at], x[at], yat);
    float *z = hout_alloc(n);
    wbk_stats st;
    OK(wbk_standardize(ctx, x, n, z, n, &st));
    size_t not_nan = 0;
    for (size_t i = 0; i < n; i++) not_nan += !isnan(z[i]);
    ck_assert_msg(isnan(st.mean) || isinf(st.mean), "standardize with x[%zu] = %g: mean %g", at, x[at], st.mean);
    ck_assert_msg(not_nan == 0, "standardize with x[%zu] = %g: %zu of %zu outputs are not NaN", at, x[at], not_nan, n);
    hout_check_free(z, n, "standardize, NaN/Inf");
    wbk_destroy(ctx);
    free(x), free(y);
}
END_TEST

/* One context, sizes up and down: the workspace grows and is reused. */
START_TEST(ops_workspace_reuse)
{
    wb_rng rng = WB_RNG();
    wbk_ctx *ctx = open_ctx(NULL, 1);
    static const size_t seq[] = { 10, 300000, 7, 1 << 20, 1000, 1 << 20, 1 };
    for (size_t k = 0; k < WB_COUNT(seq); k++) check_vector_ops(ctx, &rng, seq[k], "one context, many sizes");
    check_transpose(ctx, &rng, 2000, 3000, "one context, many sizes");
    check_transpose(ctx, &rng, 3, 5, "one context, many sizes");
    wbk_destroy(ctx);
}
END_TEST

/* A constant vector: std 0, y = 0, not +-1 from dividing rounding noise. */
START_TEST(ops_constant)
{
    wb_rng rng = WB_RNG();
    size_t n = _i ? (size_t)wb_rng_int(&rng, 2, 3000000) : 1;
    float c = (float)(20 * wb_rng_unit(&rng) - 10), *x = wb_hmalloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) x[i] = c;
    double *ref = wb_hmalloc(n * sizeof(double)), mean, sd;
    ref_standardize(x, n, ref, &mean, &sd);
    wbk_ctx *ctx = open_ctx(NULL, 1);
    float *y = hout_alloc(n);
    wbk_stats st;
    OK(wbk_standardize(ctx, x, n, y, n, &st));
    char what[96];
    snprintf(what, sizeof what, "wbk_standardize of %zu copies of %g", n, c);
    expect_f32(y, ref, n, 1e-4, 0, what);
    hout_check_free(y, n, what);
    ck_assert_msg(wb_close(st.mean, mean, 1e-5, 1e-5) && st.std <= 1e-5 * (1 + fabs(mean)), "%s: mean %g std %g", what,
                  st.mean, st.std);
    wbk_destroy(ctx);
    free(x), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- w20.split */

/* Device 0 listed 1 to 5 times: the chunks, the partial results added on the
 * host, the transpose's strided copies, some entries with nothing to do. */
START_TEST(split_repeated_device)
{
    wb_rng rng = WB_RNG();
    int reps = _i + 1, devs[5] = { 0, 0, 0, 0, 0 }, count = 0;
    wbk_ctx *ctx = open_ctx(devs, reps);
    OK(wbk_device_count(ctx, &count));
    ck_assert_msg(count == reps, "wbk_device_count: %d, the context lists %d", count, reps);
    char tag[48];
    snprintf(tag, sizeof tag, "device 0 listed %d times", reps);
    static const size_t ns[] = { 1, 2, 4, 5, 6, 1000, 65537, 1000003 };
    for (size_t k = 0; k < WB_COUNT(ns); k++) check_vector_ops(ctx, &rng, ns[k], tag);
    check_transpose(ctx, &rng, 1, 9, tag);
    check_transpose(ctx, &rng, 3, 40, tag);
    check_transpose(ctx, &rng, 1001, 77, tag);
    wbk_destroy(ctx);
}
END_TEST

/* Every GPU of the machine (one on most): the same results; the caller's
 * current device is the same after each call. */
START_TEST(split_every_gpu)
{
    int count = 0, ndev = 0, cur = -1;
    WB_CUDA(cudaGetDeviceCount(&count));
    wbk_ctx *ctx = open_ctx(NULL, 0);
    OK(wbk_device_count(ctx, &ndev));
    int want = count < WBK_MAX_DEVICES ? count : WBK_MAX_DEVICES;
    ck_assert_msg(ndev == want, "wbk_create(&ctx, 0) uses %d devices, this machine has %d", ndev, count);
    WB_CUDA(cudaSetDevice(count - 1));
    wb_rng rng = WB_RNG();
    check_vector_ops(ctx, &rng, 3000017, "every GPU");
    check_transpose(ctx, &rng, 1999, 1001, "every GPU");
    WB_CUDA(cudaGetDevice(&cur));
    ck_assert_msg(cur == count - 1, "the current device was %d before the calls and %d after", count - 1, cur);
    wbk_destroy(ctx);
    char fig[120];
    if (count == 1) snprintf(fig, sizeof fig, "1 GPU: the single-GPU path (the split is checked with device 0 listed 1-5 times)");
    else snprintf(fig, sizeof fig, "%d GPUs: data split across %d", count, ndev);
    printf("  %s\n", fig);
    wb_report(fig);
}
END_TEST

/* ---------------------------------------------------------------- w20.app */

static const int TABLES[][2] = { { 1, 1 }, { 2, 3 }, { 1, 67 }, { 1000, 1 }, { 33, 17 }, { 777, 67 }, { 100000, 3 } };

START_TEST(app_tables)
{
    wb_rng rng = WB_RNG();
    int rows = TABLES[_i][0], cols = TABLES[_i][1];
    const size_t n = (size_t)rows * (size_t)cols;
    float *data = wb_hmalloc(n * sizeof(float)), *col = wb_hmalloc((size_t)rows * sizeof(float));
    double *ref = wb_hmalloc(n * sizeof(double)), *cref = wb_hmalloc((size_t)rows * sizeof(double));
    double *means = wb_hmalloc(cols * sizeof(double)), *stds = wb_hmalloc(cols * sizeof(double));
    double *rmean = wb_hmalloc(cols * sizeof(double)), *rstd = wb_hmalloc(cols * sizeof(double));
    for (size_t i = 0; i < n; i++) {
        double j = (double)(i % (size_t)cols);
        data[i] = (float)(j - 5 + (4 + j / 8) * wb_rng_unit(&rng));
    }
    for (int j = 0; j < cols; j++) {
        for (int r = 0; r < rows; r++) col[r] = data[(size_t)r * cols + j];
        ref_standardize(col, (size_t)rows, cref, &rmean[j], &rstd[j]);
        for (int r = 0; r < rows; r++) ref[(size_t)r * cols + j] = cref[r];
    }
    wb_hpoison(means, cols * sizeof(double)), wb_hpoison(stds, cols * sizeof(double));
    wbk_ctx *ctx = open_ctx(NULL, 0);
    float *out = hout_alloc(n);
    OK(app_standardize_columns(ctx, data, rows, cols, out, means, stds));
    char what[96];
    snprintf(what, sizeof what, "app_standardize_columns %d x %d", rows, cols);
    expect_f32(out, ref, n, 1e-4, 1e-4, what);
    hout_check_free(out, n, what);
    wb_cmp cmp;
    wb_compare_f64("means", means, rmean, (size_t)cols, 1e-5, 1e-5, &cmp);
    WB_EXPECT_CMP(cmp, what);
    wb_compare_f64("stds", stds, rstd, (size_t)cols, 1e-5, 1e-5, &cmp);
    WB_EXPECT_CMP(cmp, what);
    wbk_destroy(ctx);
    free(data), free(col), free(ref), free(cref), free(means), free(stds), free(rmean), free(rstd);
}
END_TEST

/* Call app_main with the words of args; its output lands in out. */
static int app(const char *args, char *out, size_t outsz)
{
    char buf[256], *argv[16];
    int argc = 0;
    snprintf(buf, sizeof buf, "wbk-app %s", args);
    for (char *tok = strtok(buf, " "); tok && argc < 15; tok = strtok(NULL, " ")) argv[argc++] = tok;
    argv[argc] = NULL;
    FILE *f = tmpfile();
    ck_assert_msg(f != NULL, "tmpfile failed");
    int rc = app_main(argc, argv, f);
    fflush(f);
    rewind(f);
    size_t k = fread(out, 1, outsz - 1, f);
    out[k] = 0;
    fclose(f);
    return rc;
}

START_TEST(app_program)
{
    char out[4096];
    static const char *bad[] = { "", "10", "0 5", "5 0", "x 5", "5 5 -1", "1048577 1", "100000 10000", "5 5 5 5" };
    for (size_t i = 0; i < WB_COUNT(bad); i++) {
        int rc = app(bad[i], out, sizeof out);
        ck_assert_msg(rc == 2 && strncmp(out, "error: ", 7) == 0 && strstr(out, "\nusage: wbk-app ROWS COLS [SEED]\n"),
                      "`wbk-app %s`: exit %d, printed \"%.300s\"; expected exit 2, \"error: ...\" and the usage line",
                      bad[i], rc, out);
    }
    wb_rng rng = WB_RNG();
    char args[64];
    snprintf(args, sizeof args, "%d %d %d", (int)wb_rng_int(&rng, 100, 3000), (int)wb_rng_int(&rng, 1, 9),
             (int)wb_rng_int(&rng, 0, 1000));
    int rc = app(args, out, sizeof out);
    ck_assert_msg(rc == 0, "`wbk-app %s`: exit %d; printed \"%.400s\"", args, rc, out);
    ck_assert_msg(strncmp(out, "devices: ", 9) == 0 && strstr(out, "\nfeature 0: mean="),
                  "`wbk-app %s`: expected \"devices: ...\" then \"feature 0: mean=...\", got \"%.400s\"", args, out);
    const char *last = strstr(out, "\nscaled ");
    double err = -1;
    char ok[16] = "";
    ck_assert_msg(last && sscanf(last + 1, "scaled %*dx%*d max_err=%lf %15s", &err, ok) == 2 && strcmp(ok, "ok") == 0 &&
                      err >= 0 && err <= 1e-3,
                  "`wbk-app %s`: expected a last line \"scaled RxC max_err=E ok\", got \"%.400s\"", args, out);
}
END_TEST

/* ---------------------------------------------------------------- the Python bindings */

/* Run python/test_wbk.py MODE against the libwbk.so.1 beside this binary;
 * print what it printed; fail with its first FAIL line unless it exits 0. */
static void run_python(const char *mode)
{
    char exe[4096], lib[4200], script[4200], cmd[9000];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    ck_assert_msg(k > 0, "cannot find this test's own path (/proc/self/exe)");
    exe[k] = 0;
    char *slash = strrchr(exe, '/');
    *slash = 0;
    snprintf(lib, sizeof lib, "%s/libwbk.so.1", exe);
    ck_assert_msg(access(lib, R_OK) == 0, "%s is missing: phase4/week20/week.mk builds it with the test (make phase4/week20)", lib);
    const char *wd = getenv("WB_WEEK_DIR");
    snprintf(script, sizeof script, "%s/python/test_wbk.py", wd && *wd ? wd : "phase4/week20");
    ck_assert_msg(access(script, R_OK) == 0, "%s is missing (run from the workbook's top folder)", script);
    snprintf(cmd, sizeof cmd, "WBK_LIBRARY='%s' python3 -B '%s' %s %llu 2>&1", lib, script, mode,
             (unsigned long long)wb_base_seed());
    fflush(stdout);
    FILE *p = popen(cmd, "r");
    ck_assert_msg(p != NULL, "cannot start python3");
    char line[1024], first_fail[600] = "", last[600] = "";
    while (fgets(line, sizeof line, p)) {
        printf("  | %s", line);
        line[strcspn(line, "\n")] = 0;
        if (!first_fail[0] && strncmp(line, "FAIL ", 5) == 0) snprintf(first_fail, sizeof first_fail, "%s", line);
        snprintf(last, sizeof last, "%s", line);
    }
    int st = pclose(p);
    fflush(stdout);
    ck_assert_msg(!(WIFEXITED(st) && WEXITSTATUS(st) == 127), "python3 was not found: this checkpoint needs it");
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "python/test_wbk.py %s: %s", mode,
                  first_fail[0] ? first_fail : last[0] ? last : "it exited without a word");
}

START_TEST(python_cpu) { run_python("cpu"); }
END_TEST

START_TEST(python_gpu) { run_python("gpu"); }
END_TEST

/* ---------------------------------------------------------------- speed */

typedef struct {
    wbk_ctx    *ctx;
    float      *x, *y, *d;
    size_t      n;
    wbk_stats   st;
    wbk_status  status;
} std_bench;

static void standardize_work(void *p)
{
    std_bench *b = p;
    wbk_status s = wbk_standardize(b->ctx, b->x, b->n, b->y, b->n, &b->st);
    if (s != WBK_OK) b->status = s;
}

/* The transfers a host-to-host call cannot avoid: x up, y down, between the
 * same pinned host buffers the library is given (XFER). */
static void xfer_work(void *p)
{
    std_bench *b = p;
    WB_CUDA(cudaMemcpy(b->d, b->x, b->n * sizeof(float), cudaMemcpyHostToDevice));
    WB_CUDA(cudaMemcpy(b->y, b->d, b->n * sizeof(float), cudaMemcpyDeviceToHost));
}

/* The timing's spot check (wb_bench_opts): new x and a poisoned y for one
 * timed run, then that y and the statistics verified. Drawing 10^8 new
 * floats on the host takes seconds, so the new x is the old one times -2
 * (exact: a power of two and a sign), which changes every element, the mean
 * and the spread; salt 0 multiplies by -1/2 and gives the first x back, bit
 * for bit. */
static void standardize_fresh(void *p, unsigned long long salt)
{
    std_bench *b = p;
    const float f = salt ? -2.0f : -0.5f;
    for (size_t i = 0; i < b->n; i++) b->x[i] *= f;
    wb_hpoison(b->y, b->n * sizeof(float));
}

/* y and the statistics of the last call against x in double: the first and
 * last 64 outputs and 65536 random ones. 0 if right, else 1 and why. */
static int standardize_verify(const std_bench *b, wb_rng *rng, char *why, size_t size)
{
    const float *x = b->x;
    size_t n = b->n;
    double mean, sd, sum = 0, ss = 0;
    for (size_t i = 0; i < n; i++) sum += x[i];
    mean = sum / (double)n;
    for (size_t i = 0; i < n; i++) ss += (x[i] - mean) * (x[i] - mean);
    sd = sqrt(ss / (double)n);
    size_t bad = 0, first = 0;
    for (size_t k = 0; k < 65536 + 128; k++) {
        size_t i = k < 64 ? k : k < 128 ? n - 1 - (k - 64) : (size_t)wb_rng_int(rng, 0, (int64_t)n - 1);
        double ref = (x[i] - mean) / sd;
        if (!(fabs(b->y[i] - ref) <= 1e-4 + 1e-4 * fabs(ref)) && bad++ == 0) first = i;
    }
    if (b->status != WBK_OK) snprintf(why, size, "wbk_standardize failed: %s", wbk_last_error());
    else if (bad) snprintf(why, size, "%zu of 65664 sampled outputs wrong; y[%zu] = %g, expected %g", bad, first,
                           b->y[first], (x[first] - mean) / sd);
    else if (!wb_close(b->st.mean, mean, 1e-5, 1e-5) || !wb_close(b->st.std, sd, 1e-5, 1e-5))
        snprintf(why, size, "stats mean %g std %g, expected %g %g", b->st.mean, b->st.std, mean, sd);
    else return 0;
    return 1;
}

static int standardize_check(void *p, char *why, size_t size)
{
    wb_rng rng = wb_rng_for("bench_standardize spot", 0);
    return standardize_verify(p, &rng, why, size);
}

/* wbk_standardize host to host on wb_bench_bytes() of floats, x and y in
 * pinned host memory (the link at its full rate: week 16's pinned
 * transfers), against the same bytes copied up and back down between the
 * same buffers (XFER), same run. The statistics need all of x before the
 * first y can be written, so the copy in and the copy out cannot overlap
 * each other: XFER is the floor, and what a library adds to it is its
 * device work and whatever of it does not hide behind the copies. */
static double bench_standardize(wb_headline *h)
{
    size_t bytes = wb_bench_bytes(), n = bytes / sizeof(float);
    std_bench b = { NULL, NULL, NULL, wb_dmalloc(bytes), n, { 0, 0 }, WBK_OK };
    WB_CUDA(cudaMallocHost((void **)&b.x, bytes));
    WB_CUDA(cudaMallocHost((void **)&b.y, bytes));
    wb_rng rng = wb_rng_for("bench_standardize", 0);
    wb_fill_uniform_f32(&rng, b.x, n, 2, 5);
    wb_bench_row r = { .exercise = "standardize", .variant = "host to host, pinned", .n = n, .bytes = 2.0 * bytes,
                       .flops = 4.0 * n, .unit = "GB/s", .yard_name = "XFER" };
    wbk_ctx *ctx = NULL;
    wbk_status s = wbk_create(&ctx, 0);
    ck_assert_msg(s == WBK_OK, "wbk_create: %s", wbk_last_error());
    b.ctx = ctx;
    /* A first call on 4096 elements: a library that is not written yet
     * gets no figure, and costs no yardstick. */
    {
        enum { SMALL = 4096 };
        double ref[SMALL], mean, sd;
        float got[SMALL];
        wb_hpoison(got, sizeof got);
        ref_standardize(b.x, SMALL, ref, &mean, &sd);
        wbk_status s0 = wbk_standardize(ctx, b.x, SMALL, got, SMALL, NULL);
        wb_cmp cmp;
        if (s0 != WBK_OK || wb_compare_f32_f64("y", got, ref, SMALL, 1e-4, 1e-4, &cmp)) {
            char why[200];
            snprintf(why, sizeof why, "wbk_standardize on 4096 elements: %s",
                     s0 != WBK_OK ? wbk_last_error() : cmp.msg);
            wb_bench_invalid(&r, why);
            wbk_destroy(ctx);
            wb_dfree(b.d), cudaFreeHost(b.x), cudaFreeHost(b.y);
            return wb_bench_headline(&r, h);
        }
    }
    wb_summary tx;
    wb_time(xfer_work, &b, NULL, &tx);
    wb_dfree(b.d);
    b.d = NULL;
    r.yard = 2.0 * bytes / (tx.median * 1e-3) / 1e9;
    wb_hpoison(b.y, bytes);
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = standardize_fresh, o.check = standardize_check;
    wb_time(standardize_work, &b, &o, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    /* Check the timed output (after the spot check wb_time ran the work once
     * more on the first x). */
    char why[200] = "";
    if (b.status != WBK_OK) snprintf(why, sizeof why, "wbk_standardize failed: %s", wbk_last_error());
    else standardize_verify(&b, &rng, why, sizeof why);
    if (why[0]) wb_bench_invalid(&r, why);
    wbk_destroy(ctx);
    cudaFreeHost(b.x), cudaFreeHost(b.y);
    return wb_bench_headline(&r, h);
}

static const wb_test TESTS[] = {
    { "w20.api", WB_T(api_version_and_statuses), WB_CPU, 0 },
    { "w20.api", WB_T(api_arguments_checked_first), WB_CPU, 4 },
    { "w20.ops", WB_T(ops_sizes), WB_GPU, WB_COUNT(SIZES) },
    { "w20.ops", WB_T(ops_transpose), WB_GPU, WB_COUNT(SHAPES) },
    { "w20.ops", WB_T(ops_nonfinite), WB_GPU, 2 },
    { "w20.ops", WB_T(ops_workspace_reuse), WB_GPU, 0 },
    { "w20.ops", WB_T(ops_constant), WB_GPU, 3 },
    { "w20.split", WB_T(split_repeated_device), WB_GPU, 5 },
    { "w20.split", WB_T(split_every_gpu), WB_GPU, 0 },
    { "w20.app", WB_T(app_tables), WB_GPU, WB_COUNT(TABLES) },
    { "w20.app", WB_T(app_program), WB_GPU, 0 },
    { "w20.py-errors", WB_T(python_cpu), WB_CPU, 0 },
    { "w20.py", WB_T(python_gpu), WB_GPU, 0 },
    WB_SPEED("w20.standardize-speed", bench_standardize),
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
