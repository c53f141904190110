/* test_week09.c — week 09's checkpoints: intensity arithmetic, the sweep
 * kernel, both ends of the roof, and the plot. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "intensity.h"
#include "sweep.h"
#include "w09_checks.h" /* the checks instructor/judge_w09.c shares */

/* ---------------------------------------------------------------- intensity (CPU) */

/* The checks are w09_checks.h's, shared with the judge: here on your functions. */
static const w09_intensity_ops OPS = { intensity_of, intensity_vecadd, intensity_saxpy, intensity_dot,
                                       intensity_stencil5, intensity_gemm, intensity_roof_gflops, intensity_ridge,
                                       intensity_memory_bound };

START_TEST(intensity_given_kernels)
{
    char why[400];
    ck_assert_msg(w09_intensity_given(&OPS, why, sizeof why) == 0, "%s", why);
}
END_TEST

START_TEST(intensity_roof_and_ridge)
{
    char why[400];
    ck_assert_msg(w09_intensity_roof(&OPS, why, sizeof why) == 0, "%s", why);
}
END_TEST

/* ---------------------------------------------------------------- sweep correctness */

/* Every size with one k each; odd _i put NaN and +-Inf in front, which
 * must propagate as they do through fmaf. Sizes, k, a, b and inputs:
 * w09_checks.h, as the judge draws them. */
START_TEST(sweep_sizes)
{
    ck_assert_str_eq(__func__, W09_SWEEP_SIZES_TAG); /* the judge draws these cases by this tag (w09_checks.h) */
    wb_rng rng = WB_RNG();
    size_t n = W09_SIZES[_i % W09_N_SIZES];
    float *hx = wb_hmalloc(n * 4), *ref = wb_hmalloc(n * 4);
    w09_sweep_case c;
    w09_sweep_draw(&rng, _i, hx, &c);
    for (size_t i = 0; i < n; i++) ref[i] = w09_sweep_ref(hx[i], c.k, c.a, c.b);
    float *dx = wb_dcopy(hx, n * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    WB_CUDA(sweep_fma(dx, dy, n, c.k, c.a, c.b));
    char what[96];
    snprintf(what, sizeof what, "n=%zu k=%d a=%g b=%g", n, c.k, c.a, c.b);
    wb_expect_dout_f32(&y, ref, n, W09_SWEEP_ATOL, W09_SWEEP_RTOL, what);
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- the roof, measured */

enum { SEED_X = 91 };
static const float SA = W09_SA, SB = W09_SB;
typedef struct { const float *x; float *y; size_t n; int k; } sweep_ctx;

static void sweep_work(void *p)
{
    sweep_ctx *s = p;
    WB_CUDA(sweep_fma(s->x, s->y, s->n, s->k, SA, SB));
}

static double sweep_expect(size_t i, const void *ctx)
{
    const sweep_ctx *s = ctx;
    return w09_sweep_ref(wb_hash_uniform_f32(SEED_X, i, -1, 1), s->k, SA, SB);
}

/* The roof's two halves, measured once per process: copy GB/s and FMA GFLOP/s. */
static double g_copy, g_peak;
static size_t g_bytes;
static void measure_roof(void)
{
    if (g_copy > 0) return;
    g_bytes = wb_bench_bytes() & ~(size_t)15;
    g_copy = wb_yard_copy_gbps(g_bytes);
    int sms = wb_this_device()->sm_count;
    wb_summary t;
    double peak_flops;
    g_peak = w09_fmapeak_gflops(&t, &peak_flops); /* as the judge takes it (w09_checks.h) */
    printf("  roof: copy %.0f GB/s, FMA peak %.0f GFLOP/s measured (datasheet %.0f), ridge %.1f flop/byte\n", g_copy,
           g_peak, wb_this_device()->peak_fp32_gflops, g_peak / g_copy);
    wb_bench_row r = { .exercise = "roof", .variant = "copy (cudaMemcpy D2D)", .n = g_bytes / 4,
                       .bytes = 2.0 * g_bytes, .unit = "GB/s", .value = g_copy };
    r.t.median = r.t.min = r.bytes / g_copy / 1e6;
    wb_bench_emit(&r);
    wb_bench_row q = { .exercise = "roof", .variant = "fma peak (8 chains)", .n = yard_fmapeak_threads(sms),
                       .flops = peak_flops, .t = t, .unit = "GFLOP/s", .value = g_peak };
    wb_bench_emit(&q);
}

/* Times sweep_fma at k FMAs per element on a buffer far past L2, verifies
 * the timed output, and returns GFLOP/s over the roof at its intensity.
 * `headline`: the row is a speed checkpoint's (wb_bench_headline), not one
 * point of the plot (NULL). */
static double sweep_point(int k, wb_headline *headline, double *gflops_out, double *roof_out)
{
    measure_roof();
    size_t n = g_bytes / 4;
    sweep_ctx s = { wb_dmalloc(g_bytes), wb_dmalloc(g_bytes), n, k };
    wb_dfill_uniform_f32((float *)s.x, n, SEED_X, -1, 1);
    wb_dpoison(s.y, g_bytes);
    double ai = k / 4.0;
    double roof = w09_roof(ai, g_copy, g_peak);
    char variant[48];
    snprintf(variant, sizeof variant, "k=%d (%.3g flop/B)", k, ai);
    wb_bench_row r = { .exercise = "sweep", .variant = variant, .n = n, .bytes = 8.0 * n, .flops = 2.0 * k * n,
                       .unit = "GFLOP/s", .yard_name = "ROOF", .yard = roof };
    wb_time(sweep_work, &s, NULL, &r.t);
    r.value = r.flops / (r.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("y", s.y, n, sweep_expect, &s, 1 << 14, 1e-6, 1e-5, &cmp)) wb_bench_invalid(&r, cmp.msg);
    double ratio;
    if (headline) {
        ratio = wb_bench_headline(&r, headline);
    } else {
        wb_bench_emit(&r);
        ratio = wb_bench_ratio(&r);
    }
    wb_dfree((void *)s.x), wb_dfree(s.y);
    if (gflops_out) *gflops_out = r.value;
    if (roof_out) *roof_out = roof;
    return ratio;
}

static double bench_roof_low(wb_headline *h) { return sweep_point(W09_K_LOW, h, NULL, NULL); }
static double bench_roof_high(wb_headline *h) { return sweep_point(W09_K_HIGH, h, NULL, NULL); }

/* ---------------------------------------------------------------- the plot */

static const int SWEEP_K[] = { 1, 2, 4, 8, 16, 32, 48, 64, 80, 96, 128, 192, 256, 512, 1024 };

static int g_no_gnuplot; /* set by bench_sweep: the CSV was written, no plot could be drawn */
static char g_png[300];  /* the PNG bench_sweep drew (or tried to) */

/* The sweep: every point measured and checked, written to sweep.csv, and
 * drawn when gnuplot is here. 1 when done (or when only gnuplot is missing:
 * g_no_gnuplot), 0 when gnuplot failed, NAN when a point was wrong. */
static double bench_sweep(void)
{
    const char *wk = getenv("WB_WEEK_DIR");
    char dir[256], csv[300], png[300], cmd[1200];
    snprintf(dir, sizeof dir, "build/%s", wk && *wk ? wk : "phase2/week09");
    snprintf(csv, sizeof csv, "%s/sweep.csv", dir);
    snprintf(png, sizeof png, "%s/sweep.png", dir);
    snprintf(g_png, sizeof g_png, "%s", png);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    if (system(cmd) != 0) return NAN;
    FILE *f = fopen(csv, "w");
    if (!f) {
        printf("  cannot write %s\n", csv);
        return NAN;
    }
    int bad = 0;
    for (size_t j = 0; j < WB_COUNT(SWEEP_K); j++) {
        double gf = 0, roof = 0, ratio = sweep_point(SWEEP_K[j], NULL, &gf, &roof);
        if (isnan(ratio)) bad++;
        if (j == 0) fprintf(f, "k,intensity_flop_per_byte,gflops,roof_gflops,ratio,copy_gbps,peak_gflops\n");
        fprintf(f, "%d,%.6g,%.6g,%.6g,%.4f,%.6g,%.6g\n", SWEEP_K[j], SWEEP_K[j] / 4.0, gf, roof, ratio, g_copy, g_peak);
    }
    fclose(f);
    printf("  sweep: %s (%d points, %d without a valid figure)\n", csv, (int)WB_COUNT(SWEEP_K), bad);
    if (bad) return NAN;
    char gp[300];
    snprintf(gp, sizeof gp, "%s/sweep.gp", wk && *wk ? wk : "phase2/week09");
    remove(png); /* only this run's drawing counts: wb_gnuplot then checks the PNG is there, signed and non-empty */
    int drawn = wb_gnuplot(gp, csv, png);
    g_no_gnuplot = drawn == 0;
    return drawn < 0 ? 0 : 1;
}

START_TEST(sweep_plot)
{
    double ok = bench_sweep();
    ck_assert_msg(!isnan(ok), "some points of the sweep gave wrong output (see the rows above)");
    if (g_no_gnuplot) wb_skip_test_no_gnuplot("build/phase2/week09/sweep.csv");
    ck_assert_msg(ok > 0 && wb_png_ok(g_png), "the sweep was measured but %s was not drawn", g_png);
    wb_report("sweep.csv and sweep.png in build/phase2/week09");
}
END_TEST

static const wb_test TESTS[] = {
    { "w09.intensity", WB_T(intensity_given_kernels), WB_CPU, 0 },
    { "w09.intensity", WB_T(intensity_roof_and_ridge), WB_CPU, 0 },
    { "w09.sweep", WB_T(sweep_sizes), WB_GPU, W09_N_SWEEP_CASES },
    WB_SPEED("w09.roof-low", bench_roof_low),
    WB_SPEED("w09.roof-high", bench_roof_high),
    { "w09.plot", WB_T(sweep_plot), WB_GPU, 0 },
};

/* The plot serves no target; `--bench` also runs roof_low and roof_high. */
static const wb_benchmark BENCHES[] = {
    { "sweep", bench_sweep },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
