/* test_week04.c — week 04's checkpoints: the library (saxpy, dot), its CLI
 * (called as a function with argument vectors), its CSV benchmark
 * (`make phase0/week04 bench` appends the rows to a CSV file in build/bench/),
 * and the learner's own test and benchmark (mytest.cu), tested here in turn:
 * against correct and planted-bug SAXPYs, and by parsing their CSV. The
 * cases and checks the instructor's judge also runs are in w04_checks.h. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "saxpylib.h"
#include "mytest.h"
#include "w04_checks.h" /* the sizes, the cases' drawing and the checks, shared with the instructor's judge */

#define SIZES W04_SIZES

/* ---------------------------------------------------------------- saxpy */

/* x starts ox elements into its buffer; y, input and output, starts oy
 * elements into a guarded one (wb_dout): its n elements are written with the
 * input, and the lead and guard bands around them must stay poisoned. */
static void check_saxpy(wb_rng *rng, size_t n, size_t ox, size_t oy, int nonfinite)
{
    float *hx = wb_hmalloc((n + ox) * 4), *hy = wb_hmalloc(n * 4);
    double *ref = wb_hmalloc(n * sizeof(double));
    float a = w04_saxpy_draw(rng, n, ox, nonfinite, hx, hy, ref);
    float *dx = wb_dcopy(hx, (n + ox) * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    wb_h2d(dy, hy, n * 4);
    WB_CUDA(sl_saxpy(a, dx ? dx + ox : NULL, dy, n));
    char what[96];
    snprintf(what, sizeof what, "n=%zu a=%g offsets x+%zu y+%zu%s", n, a, ox, oy, nonfinite ? ", NaN/Inf in x" : "");
    wb_expect_dout_f32_f64(&y, ref, n, W04_SAXPY_ATOL, W04_SAXPY_RTOL, what);
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(hy), free(ref);
}

START_TEST(saxpy_sizes)
{
    ck_assert_str_eq(__func__, W04_SAXPY_SIZES_TAG); /* the judge draws these cases by this tag (w04_checks.h) */
    wb_rng rng = WB_RNG();
    check_saxpy(&rng, SIZES[_i], 0, 0, 0);
}
END_TEST

START_TEST(saxpy_offsets)
{
    ck_assert_str_eq(__func__, W04_SAXPY_OFFSETS_TAG);
    wb_rng rng = WB_RNG();
    check_saxpy(&rng, w04_saxpy_offsets_n(&rng), (size_t)(_i & 3), (size_t)(_i >> 2), 0);
}
END_TEST

START_TEST(saxpy_nonfinite)
{
    ck_assert_str_eq(__func__, W04_SAXPY_NONFINITE_TAG);
    wb_rng rng = WB_RNG();
    check_saxpy(&rng, W04_SAXPY_NONFINITE_N, 0, (size_t)_i, 1);
}
END_TEST

/* ---------------------------------------------------------------- dot */

/* The inputs start ox and oy elements into their buffers; the result is one
 * guarded float (nothing may be written beside it). */
static float run_dot(const float *hx, const float *hy, size_t n, size_t ox, size_t oy)
{
    float *dx = wb_dmalloc((n + W04_DOT_PAD) * 4), *dy = wb_dmalloc((n + W04_DOT_PAD) * 4), got;
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

START_TEST(dot_sizes)
{
    ck_assert_str_eq(__func__, W04_DOT_SIZES_TAG);
    size_t n = SIZES[_i];
    wb_rng rng = WB_RNG();
    float *hx = wb_hmalloc(n * 4), *hy = wb_hmalloc(n * 4);
    size_t ox, oy;
    w04_dot_sizes_draw(&rng, n, hx, hy, &ox, &oy);
    double ref, tol = w04_dot_tolerance(hx, hy, n, &ref);
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
    ck_assert_str_eq(__func__, W04_DOT_EXACT_TAG);
    wb_rng rng = WB_RNG();
    size_t n = w04_dot_exact_n(&rng, _i);
    float *hx = wb_hmalloc(n * 4), *hy = wb_hmalloc(n * 4);
    double ref = w04_dot_exact_fill(&rng, hx, hy, n);
    float got = run_dot(hx, hy, n, 0, (size_t)(_i & 1));
    ck_assert_msg(got == ref, "n=%zu, integers in [-4, 4]: dot %.9g, exact %.9g", n, got, ref);
    free(hx), free(hy);
}
END_TEST

START_TEST(dot_nonfinite)
{
    ck_assert_str_eq(__func__, W04_DOT_NONFINITE_TAG);
    size_t n = W04_DOT_NONFINITE_N;
    float *hx = wb_hmalloc(n * 4), *hy = wb_hmalloc(n * 4);
    wb_rng rng = WB_RNG();
    w04_dot_nonfinite_draw(&rng, _i, hx, hy);
    float got = run_dot(hx, hy, n, 0, 0);
    if (_i) ck_assert_msg(isinf(got) && got > 0, "one x[i] = +Inf, y > 0: dot must be +Inf, got %g", got);
    else ck_assert_msg(isnan(got), "one x[i] = NaN: dot must be NaN, got %g", got);
    free(hx), free(hy);
}
END_TEST

/* ---------------------------------------------------------------- CLI */

/* Call cli_saxpy with the words of `args` and return its exit code; the
 * text it printed lands in out (at most outsz - 1 characters). */
static int cli(const char *args, char *out, size_t outsz)
{
    char buf[512], *argv[16];
    int argc = w04_cli_argv(args, buf, sizeof buf, argv);
    FILE *f = tmpfile();
    ck_assert_msg(f != NULL, "tmpfile failed");
    int rc = cli_saxpy(argc, argv, f);
    fflush(f);
    rewind(f);
    size_t k = fread(out, 1, outsz - 1, f);
    out[k] = 0;
    fclose(f);
    return rc;
}

/* w04_checks.h's CLI under test: cli_saxpy itself. */
static int cli_direct(void *ctx, const char *args, char *out, size_t outsz)
{
    (void)ctx;
    return cli(args, out, outsz);
}

START_TEST(cli_bad_args)
{
    char why[600];
    ck_assert_msg(w04_cli_bad_args(cli_direct, NULL, why, sizeof why) == 0, "%s", why);
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

/* ---------------------------------------------------------------- exercise 3: your test, tested */

/* The SAXPYs handed to mt_check_saxpy, correct and with planted bugs: W04_MT_IMPLS (w04_checks.h). */

/* mt_check_saxpy on one SAXPY, with a fresh seed; its failure count, and
 * the first line it logged in first (at most firstsz - 1 characters). */
static int run_mytest(mt_saxpy_fn fn, uint64_t seed, char *first, size_t firstsz)
{
    FILE *log = tmpfile();
    ck_assert_msg(log != NULL, "tmpfile failed");
    int failed = mt_check_saxpy(fn, seed, log);
    fflush(log);
    rewind(log);
    first[0] = 0;
    if (!fgets(first, (int)firstsz, log)) first[0] = 0;
    first[strcspn(first, "\n")] = 0;
    fclose(log);
    return failed;
}

START_TEST(mytest_cpu)
{
    ck_assert_str_eq(__func__, W04_MYTEST_CPU_TAG);
    wb_rng rng = WB_RNG();
    uint64_t seed = wb_rng_u64(&rng);
    char first[256];
    int failed = run_mytest(W04_MT_IMPLS[_i].fn, seed, first, sizeof first);
    char why[800];
    ck_assert_msg(w04_mytest_verdict(_i, failed, seed, first, why, sizeof why) == 0, "%s", why);
}
END_TEST

/* sl_saxpy behind mt_saxpy_fn: host arrays to the GPU and back. */
static int saxpy_on_gpu(float a, const float *x, float *y, size_t n)
{
    if (n == 0) return sl_saxpy(a, NULL, NULL, 0) != cudaSuccess;
    float *dx = wb_dcopy(x, n * 4), *dy = wb_dcopy(y, n * 4);
    cudaError_t e = sl_saxpy(a, dx, dy, n);
    if (e == cudaSuccess && (e = cudaDeviceSynchronize()) == cudaSuccess) wb_d2h(y, dy, n * 4);
    wb_dfree(dx), wb_dfree(dy);
    return e != cudaSuccess;
}

START_TEST(mytest_gpu)
{
    ck_assert_str_eq(__func__, W04_MYTEST_GPU_TAG);
    wb_rng rng = WB_RNG();
    uint64_t seed = wb_rng_u64(&rng);
    char first[256];
    int failed = run_mytest(saxpy_on_gpu, seed, first, sizeof first);
    char why[800];
    ck_assert_msg(w04_mytest_lib_verdict(failed, seed, first, why, sizeof why) == 0, "%s", why);
}
END_TEST

/* The CSV of mytest.h in text (w04_expect_csv); the row's time and GB/s. */
static void expect_csv(const char *text, const char *name, size_t n, double ms, double *ms_out, double *gbps_out)
{
    char why[600];
    ck_assert_msg(w04_expect_csv(text, name, n, ms, ms_out, gbps_out, why, sizeof why) == 0, "%s", why);
}

START_TEST(mybench_csv)
{
    ck_assert_str_eq(__func__, W04_MYBENCH_CSV_TAG);
    wb_rng rng = WB_RNG();
    size_t n;
    double ms;
    char name[32], text[W04_CSV_TEXT];
    w04_csv_case(&rng, &n, &ms, name, sizeof name);
    FILE *f = tmpfile();
    ck_assert_msg(f != NULL, "tmpfile failed");
    mt_csv_header(f);
    mt_csv_row(f, name, n, ms);
    w04_slurp(f, text, sizeof text);
    double got_ms, gbps;
    expect_csv(text, name, n, ms, &got_ms, &gbps);
}
END_TEST

START_TEST(mybench_gpu)
{
    wb_rng rng = WB_RNG();
    size_t n = (size_t)wb_rng_int(&rng, 1 << 22, 1 << 24);
    char text[1024];
    FILE *f = tmpfile();
    ck_assert_msg(f != NULL, "tmpfile failed");
    int rc = mt_bench_saxpy(n, f);
    w04_slurp(f, text, sizeof text);
    ck_assert_msg(rc == 0, "mt_bench_saxpy(%zu) returned %d (the starter returns -1); it wrote \"%.200s\"", n, rc, text);
    double ms, gbps;
    expect_csv(text, "sl_saxpy", n, 0, &ms, &gbps);
    char fig[160];
    snprintf(fig, sizeof fig, "your benchmark: %.4g ms, %.4g GB/s on %zu floats (not judged)", ms, gbps, n);
    wb_report(fig);
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

static double bench_saxpy(wb_headline *h)
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
    return wb_bench_headline(&r, h);
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

static char dot_detail[600]; /* bench_dot's row (wb_bench_detail), for its test's message */

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
    wb_bench_detail(&r, dot_detail, sizeof dot_detail);
    wb_dfree((void *)c.x), wb_dfree(c.y), wb_dfree(c.r);
    return wb_bench_ratio(&r);
}

START_TEST(dot_bandwidth)
{
    double ratio = bench_dot();
    const char *detail = dot_detail;
    ck_assert_msg(!isnan(ratio), "w04.dot-bw: %s", detail[0] ? detail : "the benchmark gave no figure");
    char fig[160];
    snprintf(fig, sizeof fig, "%.3f of COPY (%s)", ratio, detail);
    wb_report(fig);
}
END_TEST

static const wb_test TESTS[] = {
    { "w04.saxpy", WB_T(saxpy_sizes), WB_GPU, WB_COUNT(SIZES) },
    { "w04.saxpy", WB_T(saxpy_offsets), WB_GPU, W04_N_SAXPY_OFFSETS },
    { "w04.saxpy", WB_T(saxpy_nonfinite), WB_GPU, W04_N_SAXPY_NONFINITE },
    { "w04.dot", WB_T(dot_sizes), WB_GPU, WB_COUNT(SIZES) },
    { "w04.dot", WB_T(dot_exact), WB_GPU, W04_N_DOT_EXACT },
    { "w04.dot", WB_T(dot_nonfinite), WB_GPU, W04_N_DOT_NONFINITE },
    { "w04.cli-args", WB_T(cli_bad_args), WB_CPU, 0 },
    { "w04.cli", WB_T(cli_runs), WB_GPU, 0 },
    WB_SPEED("w04.saxpy-bw", bench_saxpy),
    { "w04.mytest", WB_T(mytest_cpu), WB_CPU, W04_N_MT_IMPLS },
    { "w04.mytest-lib", WB_T(mytest_gpu), WB_GPU, 0 },
    { "w04.mybench-csv", WB_T(mybench_csv), WB_CPU, W04_N_MYBENCH_CSV },
    { "w04.mybench", WB_T(mybench_gpu), WB_GPU, 0 },
    { "w04.dot-bw", WB_T(dot_bandwidth), WB_GPU, 0 },
};

/* Benchmarks that serve no speed checkpoint (w04.dot-bw is a figure only, with
 * no target: dot_bandwidth reports it); `--bench` also runs bench_saxpy. */
static const wb_benchmark BENCHES[] = {
    { "dot", bench_dot },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
