/* test_week04.c — week 04's checkpoints: the library (saxpy, dot), its CLI
 * (called as a function with argument vectors), and its CSV benchmark
 * (`make phase0/week04 bench` appends the rows to a CSV file in build/bench/). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_test.h"
#include "saxpylib.h"

static const size_t SIZES[] = { 0, 1, 2, 3, 5, 255, 256, 257, 1023, 4097, 65537, 1000003, ((size_t)1 << 24) + 1 };

/* ---------------------------------------------------------------- saxpy */

/* x starts ox elements into its buffer; y, input and output, starts oy
 * elements into a guarded one (wb_dout): its n elements are written with the
 * input, and the lead and guard bands around them must stay poisoned. */
static void check_saxpy(wb_rng *rng, size_t n, size_t ox, size_t oy, int nonfinite)
{
    float *hx = wb_hmalloc((n + ox) * 4), *hy = wb_hmalloc(n * 4);
    double *ref = wb_hmalloc(n * sizeof(double));
    wb_fill_uniform_f32(rng, hx, n + ox, -1, 1);
    wb_fill_uniform_f32(rng, hy, n, -1, 1);
    float a = (float)(4 * wb_rng_unit(rng) - 2);
    if (nonfinite)
        for (size_t i = 0; i < n; i += 5) hx[ox + i] = (i / 5) % 3 == 0 ? NAN : (i / 5) % 3 == 1 ? INFINITY : -INFINITY;
    for (size_t i = 0; i < n; i++) ref[i] = (double)a * hx[ox + i] + hy[i];
    float *dx = wb_dcopy(hx, (n + ox) * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    wb_h2d(dy, hy, n * 4);
    WB_CUDA(sl_saxpy(a, dx ? dx + ox : NULL, dy, n));
    char what[96];
    snprintf(what, sizeof what, "n=%zu a=%g offsets x+%zu y+%zu%s", n, a, ox, oy, nonfinite ? ", NaN/Inf in x" : "");
    wb_expect_dout_f32_f64(&y, ref, n, 1e-6, 1e-6, what);
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(hy), free(ref);
}

START_TEST(saxpy_sizes)
{
    wb_rng rng = WB_RNG();
    check_saxpy(&rng, SIZES[_i], 0, 0, 0);
}
END_TEST

START_TEST(saxpy_offsets)
{
    wb_rng rng = WB_RNG();
    check_saxpy(&rng, (size_t)wb_rng_int(&rng, 1000, 200000), (size_t)(_i & 3), (size_t)(_i >> 2), 0);
}
END_TEST

START_TEST(saxpy_nonfinite)
{
    wb_rng rng = WB_RNG();
    check_saxpy(&rng, 10007, 0, (size_t)_i, 1);
}
END_TEST

/* ---------------------------------------------------------------- dot */

/* The inputs start ox and oy elements into their buffers; the result is one
 * guarded float (nothing may be written beside it). */
static float run_dot(const float *hx, const float *hy, size_t n, size_t ox, size_t oy)
{
    float *dx = wb_dmalloc((n + 4) * 4), *dy = wb_dmalloc((n + 4) * 4), got;
    wb_h2d(dx + ox, hx, n * 4);
    wb_h2d(dy + oy, hy, n * 4);
    wb_dout r;
    float *dr = wb_dout_alloc(&r, "result", 4, 0);
    WB_CUDA(sl_dot(dx + ox, dy + oy, n, dr));
    char what[64];
    snprintf(what, sizeof what, "dot, n=%zu, offsets x+%zu y+%zu", n, ox, oy);
    wb_expect_dout_guards(&r, &got, what);
    wb_dfree(dx), wb_dfree(dy), wb_dout_free(&r);
    return got;
}

/* Float accumulation error grows with n: the tolerance of saxpylib.h. */
static double dot_tolerance(const float *x, const float *y, size_t n, double *ref)
{
    double s = 0, sq = 0;
    for (size_t i = 0; i < n; i++) {
        double t = (double)x[i] * y[i];
        s += t;
        sq += t * t;
    }
    *ref = s;
    return 8 * FLT_EPSILON * sqrt((double)n) * sqrt(sq) + 1e-6 * fabs(s);
}

START_TEST(dot_sizes)
{
    size_t n = SIZES[_i];
    wb_rng rng = WB_RNG();
    float *hx = wb_hmalloc(n * 4), *hy = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, hx, n, -1, 1);
    wb_fill_uniform_f32(&rng, hy, n, -1, 1);
    size_t ox = (size_t)wb_rng_int(&rng, 0, 3), oy = (size_t)wb_rng_int(&rng, 0, 3);
    double ref, tol = dot_tolerance(hx, hy, n, &ref);
    float got = run_dot(hx, hy, n, ox, oy);
    ck_assert_msg(fabs(got - ref) <= tol, "n=%zu (offsets x+%zu y+%zu, seed %llu): dot %.9g, reference %.9g, |error| %.3g > tolerance %.3g",
                  n, ox, oy, (unsigned long long)wb_base_seed(), got, ref, fabs(got - ref), tol);
    free(hx), free(hy);
}
END_TEST

/* Small integers: every partial sum is an integer below 2^24, so any order of
 * float additions is exact, and one element counted twice or missed shows. */
START_TEST(dot_exact)
{
    wb_rng rng = WB_RNG();
    size_t n = _i == 0 ? ((size_t)1 << 20) : (size_t)wb_rng_int(&rng, 1, 1 << 20);
    float *hx = wb_hmalloc(n * 4), *hy = wb_hmalloc(n * 4);
    double ref = 0;
    for (size_t i = 0; i < n; i++) {
        hx[i] = (float)wb_rng_int(&rng, -4, 4);
        hy[i] = (float)wb_rng_int(&rng, -4, 4);
        ref += (double)hx[i] * hy[i];
    }
    float got = run_dot(hx, hy, n, 0, (size_t)(_i & 1));
    ck_assert_msg(got == ref, "n=%zu, integers in [-4, 4]: dot %.9g, exact %.9g", n, got, ref);
    free(hx), free(hy);
}
END_TEST

START_TEST(dot_nonfinite)
{
    size_t n = 3001;
    float *hx = wb_hmalloc(n * 4), *hy = wb_hmalloc(n * 4);
    wb_rng rng = WB_RNG();
    wb_fill_uniform_f32(&rng, hx, n, -1, 1);
    wb_fill_uniform_f32(&rng, hy, n, 0.5f, 1);
    hx[(size_t)wb_rng_int(&rng, 0, (int64_t)n - 1)] = _i ? INFINITY : NAN;
    float got = run_dot(hx, hy, n, 0, 0);
    if (_i) ck_assert_msg(isinf(got) && got > 0, "one x[i] = +Inf, y > 0: dot must be +Inf, got %g", got);
    else ck_assert_msg(isnan(got), "one x[i] = NaN: dot must be NaN, got %g", got);
    free(hx), free(hy);
}
END_TEST

/* ---------------------------------------------------------------- CLI */

/* Call saxpy_cli with the words of `args` and return its exit code; the
 * text it printed lands in out (at most outsz - 1 characters). */
static int cli(const char *args, char *out, size_t outsz)
{
    char buf[512], *argv[16];
    int argc = 0;
    snprintf(buf, sizeof buf, "saxpy-cli %s", args);
    for (char *tok = strtok(buf, " "); tok && argc < 15; tok = strtok(NULL, " ")) argv[argc++] = tok;
    argv[argc] = NULL;
    FILE *f = tmpfile();
    ck_assert_msg(f != NULL, "tmpfile failed");
    int rc = saxpy_cli(argc, argv, f);
    fflush(f);
    rewind(f);
    size_t k = fread(out, 1, outsz - 1, f);
    out[k] = 0;
    fclose(f);
    return rc;
}

START_TEST(cli_bad_args)
{
    static const char *bad[] = {
        "",                    /* no command */
        "frobnicate 10",       /* unknown command */
        "saxpy",               /* too few */
        "saxpy 10",
        "saxpy 10 2 7 9",      /* too many */
        "saxpy -5 2",          /* a sign */
        "saxpy 12x 2",         /* trailing junk */
        "saxpy 1e3 2",         /* not a decimal integer */
        "saxpy 99999999999999999999999 2", /* overflow */
        "saxpy 10 two",
        "saxpy 10 2.5x",
        "saxpy 10 inf",
        "saxpy 10 nan",
        "saxpy 10 2 seed",
        "dot",
        "dot ten",
        "dot 10 1 2",
        "dot 10 -1",
        "--help extra",
    };
    char out[2048];
    for (size_t i = 0; i < WB_COUNT(bad); i++) {
        int rc = cli(bad[i], out, sizeof out);
        ck_assert_msg(rc == 2, "`saxpy-cli %s`: exit code %d, expected 2 (bad arguments); printed \"%.200s\"", bad[i],
                      rc, out);
        ck_assert_msg(strncmp(out, "error: ", 7) == 0, "`saxpy-cli %s`: the first line must start with \"error: \", got \"%.200s\"",
                      bad[i], out);
        char *nl = strchr(out, '\n');
        ck_assert_msg(nl && strncmp(nl + 1, "usage: saxpy-cli saxpy N A [SEED]", 33) == 0,
                      "`saxpy-cli %s`: the second line must be the usage line, got \"%.300s\"", bad[i], out);
    }
    for (int h = 0; h < 2; h++) {
        int rc = cli(h ? "--help" : "-h", out, sizeof out);
        ck_assert_msg(rc == 0, "`saxpy-cli %s`: exit code %d, expected 0", h ? "--help" : "-h", rc);
        ck_assert_msg(strncmp(out, "usage: saxpy-cli saxpy N A [SEED] | saxpy-cli dot N [SEED] | saxpy-cli --help\n",
                              79) == 0, "`saxpy-cli --help`: expected the usage line, got \"%.200s\"", out);
    }
}
END_TEST

START_TEST(cli_runs)
{
    char out[2048], args[128];
    wb_rng rng = WB_RNG();
    size_t sizes[] = { 0, 1, 1000, (size_t)wb_rng_int(&rng, 2, 300000) };
    for (int k = 0; k < 4; k++) {
        size_t n = sizes[k], gn = 0;
        double a = (double)wb_rng_int(&rng, -40, 40) / 8, ga = 0, err = -1;
        snprintf(args, sizeof args, "saxpy %zu %g %d", n, a, k + 3);
        int rc = cli(args, out, sizeof out);
        ck_assert_msg(rc == 0, "`saxpy-cli %s`: exit code %d; printed \"%.200s\"", args, rc, out);
        char ok[16] = "";
        int got = sscanf(out, "saxpy n=%zu a=%lf max_err=%lf %15s", &gn, &ga, &err, ok);
        ck_assert_msg(got == 4 && gn == n && ga == a && err >= 0 && err <= 1e-5 && strcmp(ok, "ok") == 0,
                      "`saxpy-cli %s`: expected \"saxpy n=%zu a=%g max_err=E ok\", got \"%.200s\"", args, n, a, out);
    }
    for (int k = 0; k < 4; k++) {
        size_t n = sizes[k], gn = 0;
        double r = NAN, f = NAN;
        if (k == 3) snprintf(args, sizeof args, "dot %zu", n); /* the default seed */
        else snprintf(args, sizeof args, "dot %zu %d", n, 11 + k);
        int rc = cli(args, out, sizeof out);
        ck_assert_msg(rc == 0, "`saxpy-cli %s`: exit code %d; printed \"%.200s\"", args, rc, out);
        char ok[16] = "";
        int got = sscanf(out, "dot n=%zu result=%lf ref=%lf %15s", &gn, &r, &f, ok);
        ck_assert_msg(got == 4 && gn == n && strcmp(ok, "ok") == 0 && fabs(r - f) <= 1e-3 * (1 + sqrt((double)n)),
                      "`saxpy-cli %s`: expected \"dot n=%zu result=R ref=F ok\", got \"%.200s\"", args, n, out);
        if (n == 0) ck_assert_msg(r == 0 && f == 0, "`saxpy-cli %s`: an empty dot is 0, got \"%.200s\"", args, out);
    }
    /* The same seed gives the same inputs, another seed other inputs. The
     * CPU reference (ref=) identifies the inputs; the GPU result may differ
     * in its last bits between runs, because atomics add in any order. */
    char o1[256], o2[256], o3[256];
    const char *ro[3];
    cli("dot 5000 42", o1, sizeof o1);
    cli("dot 5000 42", o2, sizeof o2);
    cli("dot 5000 43", o3, sizeof o3);
    ro[0] = strstr(o1, " ref="); ro[1] = strstr(o2, " ref="); ro[2] = strstr(o3, " ref=");
    ck_assert_msg(ro[0] && ro[1] && ro[2] && strcmp(ro[0], ro[1]) == 0 && strcmp(ro[0], ro[2]) != 0,
                  "SEED must pick the inputs (the ref= value): \"%s\" \"%s\" \"%s\"", o1, o2, o3);
}
END_TEST

/* ---------------------------------------------------------------- benchmarks */

enum { SEED_X = 41, SEED_Y = 42 };

typedef struct { const float *x; float *y; float *r; size_t n; float a; int calls; } sl_ctx;

static void saxpy_work(void *p)
{
    sl_ctx *c = p;
    WB_CUDA(sl_saxpy(c->a, c->x, c->y, c->n));
    c->calls++;
}

/* After `calls` runs in place: y = y0 + calls * a * x (each run rounds once). */
static double saxpy_expect(size_t i, const void *ctx)
{
    const sl_ctx *c = ctx;
    return (double)wb_hash_uniform_f32(SEED_Y, i, -1, 1) + c->calls * (double)c->a * wb_hash_uniform_f32(SEED_X, i, -1, 1);
}

static double bench_saxpy(void)
{
    size_t bytes = wb_bench_bytes(), n = bytes / 4;
    sl_ctx c = { wb_dmalloc(bytes), wb_dmalloc(bytes), NULL, n, 0.5f, 0 };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_X, -1, 1);
    wb_dfill_uniform_f32(c.y, n, SEED_Y, -1, 1);
    double copy = wb_yard_copy_gbps(bytes);
    wb_bench_row r = { .exercise = "saxpy", .variant = "sl_saxpy", .n = n, .bytes = 12.0 * n, .flops = 2.0 * n,
                       .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    wb_time(saxpy_work, &c, NULL, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("y", c.y, n, saxpy_expect, &c, 1 << 16, 1e-4, 1e-5, &cmp)) wb_bench_invalid(&r, cmp.msg);
    wb_dfree((void *)c.x), wb_dfree(c.y);
    return wb_bench_headline(&r);
}

static void dot_work(void *p)
{
    sl_ctx *c = p;
    WB_CUDA(sl_dot(c->x, c->y, c->n, c->r));
}

static double dot_expect(size_t i, const void *ctx)
{
    (void)i;
    return *(const double *)ctx;
}

static double bench_dot(void)
{
    size_t bytes = wb_bench_bytes(), n = bytes / 4;
    sl_ctx c = { wb_dmalloc(bytes), wb_dmalloc(bytes), wb_dmalloc(4), n, 0, 0 };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_X, -1, 1);
    wb_dfill_uniform_f32(c.y, n, SEED_Y, -1, 1);
    wb_dpoison(c.r, 4);
    double copy = wb_yard_copy_gbps(bytes);
    wb_bench_row r = { .exercise = "dot", .variant = "sl_dot", .n = n, .bytes = 8.0 * n, .flops = 2.0 * n,
                       .unit = "GB/s", .yard_name = "COPY", .yard = copy, .target = 0 };
    wb_time(dot_work, &c, NULL, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    double ref = 0, sq = 0;
    for (size_t i = 0; i < n; i++) {
        double t = (double)wb_hash_uniform_f32(SEED_X, i, -1, 1) * wb_hash_uniform_f32(SEED_Y, i, -1, 1);
        ref += t;
        sq += t * t;
    }
    double tol = 8 * FLT_EPSILON * sqrt((double)n) * sqrt(sq) + 1e-6 * fabs(ref);
    wb_cmp cmp;
    if (wb_dverify_f32("dot", c.r, 1, dot_expect, &ref, 1, tol, 0, &cmp)) wb_bench_invalid(&r, cmp.msg);
    wb_bench_emit(&r);
    wb_dfree((void *)c.x), wb_dfree(c.y), wb_dfree(c.r);
    return wb_bench_ratio(&r);
}

START_TEST(dot_bandwidth)
{
    double ratio = bench_dot();
    const char *detail = wb_bench_last_detail();
    ck_assert_msg(!isnan(ratio), "w04.dot-bw: %s", detail[0] ? detail : "the benchmark gave no figure");
    char fig[160];
    snprintf(fig, sizeof fig, "%.3f of COPY (%s)", ratio, detail);
    wb_report(fig);
}
END_TEST

static const wb_test TESTS[] = {
    { "w04.saxpy", WB_T(saxpy_sizes), WB_GPU, WB_COUNT(SIZES) },
    { "w04.saxpy", WB_T(saxpy_offsets), WB_GPU, 16 },
    { "w04.saxpy", WB_T(saxpy_nonfinite), WB_GPU, 4 },
    { "w04.dot", WB_T(dot_sizes), WB_GPU, WB_COUNT(SIZES) },
    { "w04.dot", WB_T(dot_exact), WB_GPU, 4 },
    { "w04.dot", WB_T(dot_nonfinite), WB_GPU, 2 },
    { "w04.cli-args", WB_T(cli_bad_args), WB_CPU, 0 },
    { "w04.cli", WB_T(cli_runs), WB_GPU, 0 },
    WB_SPEED("w04.saxpy-bw", bench_saxpy),
    { "w04.dot-bw", WB_T(dot_bandwidth), WB_GPU, 0 },
};

/* Benchmarks that serve no speed checkpoint (w04.dot-bw is a figure only, with
 * no target: dot_bandwidth reports it); `--bench` also runs bench_saxpy. */
static const wb_benchmark BENCHES[] = {
    { "dot", bench_dot },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
