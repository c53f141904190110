/* test_week52.c — week 52's checkpoints: the median, the baseline and the
 * verdict of a regression suite on the CPU (exercise `band`), then the same
 * functions on real runs of a kernel on the GPU: reruns of an unchanged
 * kernel raise no alarm, a planted 20 % slowdown is caught every time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "band.h"
#include "support/yard_triad.h"

#define MIN_BAND 0.05
#define MAX_BAND 0.15

/* ---------------------------------------------------------------- the CPU reference */

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double ref_median(const double *x, int n)
{
    double *y = wb_hmalloc((size_t)n * sizeof *y);
    memcpy(y, x, (size_t)n * sizeof *y);
    qsort(y, (size_t)n, sizeof *y, cmp_d);
    const int h = n / 2;
    double m = (n & 1) ? y[h] : (y[h - 1] + y[h]) / 2;
    free(y);
    return m;
}

/* n ratios near 1: distinct, with duplicates, or spread wide, as `kind` says. */
static void draw_ratios(wb_rng *rng, double *x, int n, int kind)
{
    for (int i = 0; i < n; i++) {
        switch (kind % 3) {
        case 0: x[i] = 0.9 + 0.2 * wb_rng_unit(rng); break;                     /* spread 20 %: the top of the band */
        case 1: x[i] = 1.0 + 0.002 * wb_rng_unit(rng); break;                   /* 0.2 %: the floor */
        default: x[i] = i && wb_rng_unit(rng) < 0.5 ? x[i - 1] : 0.97 + 0.06 * wb_rng_unit(rng); /* repeats, 6 % */
        }
    }
}

static const int COUNTS[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 101 };

/* ---------------------------------------------------------------- w52.median */

START_TEST(median_values)
{
    wb_rng rng = WB_RNG();
    double x[128], keep[128], got;
    for (size_t k = 0; k < WB_COUNT(COUNTS); k++)
        for (int kind = 0; kind < 3; kind++) {
            int n = COUNTS[k];
            draw_ratios(&rng, x, n, kind);
            memcpy(keep, x, sizeof x);
            got = -7;
            ck_assert_msg(band_median(x, n, &got) == 0, "band_median(n = %d) refused a good input", n);
            double want = ref_median(x, n);
            ck_assert_msg(got == want, "band_median(n = %d) = %.17g, expected %.17g%s", n, got, want,
                          n % 2 ? "" : " (even count: the mean of the middle two)");
            ck_assert_msg(memcmp(x, keep, (size_t)n * sizeof *x) == 0, "band_median(n = %d) changed its input", n);
        }
    /* the middle of an even count: the mean of the two, not either */
    const double four[4] = { 4, 1, 3, 2 };
    ck_assert_msg(band_median(four, 4, &got) == 0 && got == 2.5, "band_median({4, 1, 3, 2}) = %g, expected 2.5", got);
    /* refusals leave *out alone */
    const double nan3[3] = { 1, NAN, 2 };
    got = -7;
    ck_assert_msg(band_median(nan3, 3, &got) == -1 && got == -7,
                  "band_median of {1, NaN, 2}: -1 expected, *out untouched");
    ck_assert_msg(band_median(four, 0, &got) == -1 && got == -7, "band_median(n = 0): -1 expected, *out untouched");
}
END_TEST

/* ---------------------------------------------------------------- w52.baseline */

static void check_baseline(const double *x, int n, double min_band, double max_band)
{
    band_base b = { -1, -1, -1, -1, -1 };
    ck_assert_msg(band_baseline(x, n, min_band, max_band, &b) == 0, "band_baseline(n = %d) refused good ratios", n);
    double med = ref_median(x, n), lo = x[0], hi = x[0];
    for (int i = 1; i < n; i++) lo = fmin(lo, x[i]), hi = fmax(hi, x[i]);
    double band = fmin(fmax(1.5 * (hi - lo) / med, min_band), max_band);
    ck_assert_msg(b.runs == n, "runs = %d, expected %d", b.runs, n);
    ck_assert_msg(b.median == med, "n = %d: median %.17g, expected %.17g", n, b.median, med);
    ck_assert_msg(b.lo == lo && b.hi == hi, "n = %d: lo, hi = %.17g, %.17g, expected %.17g, %.17g", n, b.lo, b.hi, lo, hi);
    ck_assert_msg(fabs(b.band - band) <= 1e-12 * band,
                  "n = %d, spread %.4g of the median: band %.6g, expected %.6g (1.5 x spread / median in [%g, %g])", n,
                  (hi - lo) / med, b.band, band, min_band, max_band);
}

START_TEST(baseline_values)
{
    wb_rng rng = WB_RNG();
    double x[128];
    for (size_t k = 0; k < WB_COUNT(COUNTS); k++)
        for (int kind = 0; kind < 3; kind++) {
            draw_ratios(&rng, x, COUNTS[k], kind);
            check_baseline(x, COUNTS[k], MIN_BAND, MAX_BAND);
            check_baseline(x, COUNTS[k], 0.01, 0.5);
        }
    /* one run: no spread, the floor */
    const double one[1] = { 0.93 };
    check_baseline(one, 1, MIN_BAND, MAX_BAND);
    /* refusals: no runs, a ratio of 0, below 0, NaN, Inf; *out untouched */
    const double bad[][3] = { { 1, 0, 1 }, { 1, -0.5, 1 }, { 1, NAN, 1 }, { 1, INFINITY, 1 } };
    for (size_t k = 0; k <= WB_COUNT(bad); k++) {
        band_base b = { -7, -7, -7, -7, -7 };
        int n = k < WB_COUNT(bad) ? 3 : 0;
        ck_assert_msg(band_baseline(k < WB_COUNT(bad) ? bad[k] : one, n, MIN_BAND, MAX_BAND, &b) == -1 &&
                          b.runs == -7 && b.median == -7,
                      "band_baseline of %s: -1 expected and *out untouched",
                      k < WB_COUNT(bad) ? (k == 0 ? "{1, 0, 1}" : k == 1 ? "{1, -0.5, 1}" : k == 2 ? "{1, NaN, 1}" : "{1, Inf, 1}")
                                        : "no runs");
    }
}
END_TEST

/* ---------------------------------------------------------------- w52.verdict */

START_TEST(verdict_values)
{
    wb_rng rng = WB_RNG();
    for (int k = 0; k < 200; k++) {
        band_base b;
        b.runs = 3, b.median = 0.2 + 2 * wb_rng_unit(&rng), b.band = 0.05 + 0.1 * wb_rng_unit(&rng);
        b.lo = b.median * 0.99, b.hi = b.median * 1.01;
        const double lo = b.median * (1 - b.band), hi = b.median * (1 + b.band);
        const struct { double now; int want; const char *what; } cases[] = {
            { b.median, 0, "the median" },
            { lo * (1 + 1e-9), 0, "just inside the lower edge" },
            { hi * (1 - 1e-9), 0, "just inside the upper edge" },
            { lo * (1 - 1e-9), -1, "just below the band" },
            { hi * (1 + 1e-9), 1, "just above the band" },
            { b.median * 0.8, -1, "a 20 % slowdown" },
            { b.median * 1.3, 1, "30 % faster" },
            { NAN, -1, "NaN (no figure)" },
            { INFINITY, -1, "Inf" },
            { 0, -1, "0" },
            { -b.median, -1, "a negative ratio" },
        };
        for (size_t c = 0; c < WB_COUNT(cases); c++) {
            int got = band_verdict(&b, cases[c].now);
            ck_assert_msg(got == cases[c].want, "median %.4f, band %.4f, now %.9g (%s): verdict %d, expected %d", b.median,
                          b.band, cases[c].now, cases[c].what, got, cases[c].want);
        }
    }
}
END_TEST

/* ---------------------------------------------------------------- w52.catch (GPU) */

typedef struct {
    float  *a, *b, *c, *hb, *hc;
    size_t  n;
    double  planted;
} tctx;

static const float S = 3.0f;

static void triad_work(void *p)
{
    tctx *t = p;
    WB_CUDA(yard_triad(t->a, t->b, t->c, S, t->n, t->planted));
}

static double triad_expect(size_t i, const void *p)
{
    const tctx *t = p;
    return (double)t->hb[i] + (double)S * (double)t->hc[i];
}

/* One run of the checkpoint the suite watches: the triad's GB/s (on the
 * plain triad's 12 bytes an element) over COPY, both measured now, the
 * output poisoned before and checked after. */
static double one_run(tctx *t, double planted, double *gbps, double *copy)
{
    t->planted = planted;
    WB_CUDA(cudaMemset(t->a, 0xff, t->n * 4)); /* NaN */
    wb_summary s;
    wb_time(triad_work, t, NULL, &s);
    wb_cmp cmp;
    size_t bad = wb_dverify_f32("a", t->a, t->n, triad_expect, t, 4096, 1e-6, 1e-6, &cmp);
    ck_assert_msg(bad == 0, "the given triad gave wrong output (planted %.2f): %s", planted, cmp.msg);
    *gbps = 12.0 * (double)t->n / (s.median * 1e6);
    *copy = wb_yard_copy_gbps(t->n * 4);
    return *gbps / *copy;
}

START_TEST(catch_planted)
{
    wb_rng rng = WB_RNG();
    tctx t;
    t.n = wb_bench_bytes() / 4 + 3; /* past L2, and a tail of 3 */
    t.hb = wb_hmalloc(t.n * 4), t.hc = wb_hmalloc(t.n * 4);
    wb_fill_uniform_f32(&rng, t.hb, t.n, -1, 1);
    wb_fill_uniform_f32(&rng, t.hc, t.n, -1, 1);
    t.a = wb_dmalloc(t.n * 4), t.b = wb_dmalloc(t.n * 4), t.c = wb_dmalloc(t.n * 4);
    WB_CUDA(cudaMemcpy(t.b, t.hb, t.n * 4, cudaMemcpyHostToDevice));
    WB_CUDA(cudaMemcpy(t.c, t.hc, t.n * 4, cudaMemcpyHostToDevice));

    enum { BASE = 5, CLEAN = 3, PLANTED = 3 };
    double r[BASE], g, c;
    printf("  %-26s %10s %10s %8s  %s\n", "run", "GB/s", "COPY GB/s", "ratio", "verdict");
    for (int i = 0; i < BASE; i++) {
        r[i] = one_run(&t, 0, &g, &c);
        printf("  baseline %-17d %10.1f %10.1f %8.4f\n", i + 1, g, c, r[i]);
    }
    band_base b;
    ck_assert_msg(band_baseline(r, BASE, MIN_BAND, MAX_BAND, &b) == 0, "band_baseline refused %d measured ratios",
                  BASE);
    ck_assert_msg(b.runs == BASE && b.median == ref_median(r, BASE) && b.band >= MIN_BAND && b.band <= MAX_BAND,
                  "the baseline of the measured runs is wrong (runs %d, median %.6g, band %.4g)", b.runs, b.median, b.band);
    printf("  baseline: median %.4f, spread %.2f %%, band %.1f %%\n", b.median, 100 * (b.hi - b.lo) / b.median, 100 * b.band);
    static const char *WORD[] = { "REGRESSION", "ok", "faster" };
    for (int i = 0; i < CLEAN; i++) {
        double now = one_run(&t, 0, &g, &c);
        int v = band_verdict(&b, now);
        printf("  unchanged %-16d %10.1f %10.1f %8.4f  %s (%+.1f %%)\n", i + 1, g, c, now, WORD[v + 1], 100 * (now / b.median - 1));
        ck_assert_msg(v != -1, "a rerun of the unchanged kernel raised an alarm: ratio %.4f against median %.4f, band %.1f %%",
                      now, b.median, 100 * b.band);
    }
    for (int i = 0; i < PLANTED; i++) {
        double now = one_run(&t, 0.25, &g, &c);
        int v = band_verdict(&b, now);
        printf("  planted 20 %% slowdown %-4d %10.1f %10.1f %8.4f  %s (%+.1f %%)\n", i + 1, g, c, now, WORD[v + 1],
               100 * (now / b.median - 1));
        ck_assert_msg(v == -1, "the planted 20 %% slowdown was not caught: ratio %.4f against median %.4f, band %.1f %%", now,
                      b.median, 100 * b.band);
    }
    wb_dfree(t.a), wb_dfree(t.b), wb_dfree(t.c);
    free(t.hb), free(t.hc);
}
END_TEST

static const wb_test TESTS[] = {
    { "w52.median", WB_T(median_values), WB_CPU, 0 },
    { "w52.baseline", WB_T(baseline_values), WB_CPU, 0 },
    { "w52.verdict", WB_T(verdict_values), WB_CPU, 0 },
    { "w52.catch", WB_T(catch_planted), WB_GPU, 0 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
