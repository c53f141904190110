/* test_bench.c — the harness's tests of benchmark rows (wb_bench.h) that need
 * no device: a row's detail, made from the row alone, and the headline a
 * speed benchmark hands back through its wb_headline. */

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb.h"
#include "test_harness.h"

/* wb_bench_headline prints its row: kept off the test's output. */
static int saved_stdout = -1;

static void quiet(void)
{
    fflush(stdout);
    saved_stdout = dup(1);
    FILE *null = freopen("/dev/null", "w", stdout);
    ck_assert_ptr_nonnull(null);
}

static void loud(void)
{
    fflush(stdout);
    dup2(saved_stdout, 1);
    close(saved_stdout);
}

static wb_bench_row copy_row(double value, double yard)
{
    wb_bench_row r = { .exercise = "vecadd", .variant = "yours", .n = 1024, .bytes = 12.0 * 1024,
                       .value = value, .unit = "GB/s", .yard_name = "COPY", .yard = yard };
    r.t.median = r.t.min = 0.25;
    return r;
}

START_TEST(bench_detail_from_the_row)
{
    char d[600];
    wb_bench_row r = copy_row(3027.4, 2957.1);
    ck_assert_str_eq(wb_bench_detail(&r, d, sizeof d), "3027 GB/s vs COPY 2957 GB/s");
    r.yard_name = NULL;
    ck_assert_str_eq(wb_bench_detail(&r, d, sizeof d), "3027 GB/s");
    r = copy_row(3027.4, NAN);
    ck_assert_str_eq(wb_bench_detail(&r, d, sizeof d), "3027 GB/s, but the yardstick COPY gave no valid figure (its "
                                                       "output was wrong or it failed: see its row)");
    r = copy_row(3027.4, 2957.1);
    wb_bench_invalid(&r, "c[7] expected 1 got 0");
    ck_assert(isnan(r.value) && isnan(wb_bench_ratio(&r)));
    ck_assert_str_eq(wb_bench_detail(&r, d, sizeof d), "WRONG OUTPUT, no valid figure: c[7] expected 1 got 0");

    /* a refused timing travels in the row's own summary: a row measured
     * earlier and described after another keeps its reason */
    wb_bench_row refused = copy_row(NAN, 2957.1), fine = copy_row(3027.4, 2957.1);
    refused.t.median = refused.t.min = NAN;
    snprintf(refused.t.refused, sizeof refused.t.refused, "device work went on after the timed region: no figure");
    snprintf(fine.t.refused, sizeof fine.t.refused, "said only with no time"); /* a number: no refusal */
    ck_assert_str_eq(wb_bench_detail(&fine, d, sizeof d), "3027 GB/s vs COPY 2957 GB/s");
    ck_assert_str_eq(wb_bench_detail(&refused, d, sizeof d), "device work went on after the timed region: no figure");
    wb_bench_invalid(&refused, "y[0] expected 2 got nan");
    ck_assert_str_eq(wb_bench_detail(&refused, d, sizeof d),
                     "device work went on after the timed region: no figure; then WRONG OUTPUT: y[0] expected 2 got nan");
    /* wb_summarize starts a summary with no refusal */
    double ms[3] = { 1, 2, 3 };
    wb_summarize(ms, 3, &refused.t);
    ck_assert_str_eq(refused.t.refused, "");
}
END_TEST

START_TEST(bench_headline_out_parameter)
{
    unsetenv("WB_CSV");
    quiet();
    /* the target comes in through h, the row and its detail come out */
    wb_headline h = { .target = 0.85 };
    wb_bench_row r = copy_row(3000, 2000);
    double ratio = wb_bench_headline(&r, &h);
    wb_headline other = { .target = 0.5 };
    wb_bench_row bad = copy_row(3000, 2000);
    bad.target = 0.9;
    wb_bench_invalid(&bad, "c[3] expected 4 got 5");
    double bad_ratio = wb_bench_headline(&bad, &other);
    wb_bench_row nobody = copy_row(10, 5);
    double alone = wb_bench_headline(&nobody, NULL); /* a headline no checkpoint judges */
    wb_bench_row wide = copy_row(3000, 2000);
    wide.yard_name = "a yardstick with a very long name, long enough that the detail of its row runs past the "
                     "hundred and fifty characters a sized detail keeps";
    wb_headline w = { 0 };
    wb_bench_headline(&wide, &w);
    loud();

    ck_assert_double_eq(ratio, 1.5);
    ck_assert(h.set && !h.invalid);
    ck_assert_double_eq(h.ratio, 1.5);
    ck_assert_double_eq(h.value, 3000);
    ck_assert_double_eq(h.yard, 2000);
    ck_assert_double_eq(h.target, 0.85);
    ck_assert_double_eq(r.target, 0.85); /* the row without a target took the checkpoint's */
    ck_assert_str_eq(h.unit, "GB/s");
    ck_assert_str_eq(h.yard_name, "COPY");
    ck_assert_str_eq(h.detail, "3000 GB/s vs COPY 2000 GB/s at n = 1024");
    /* a second headline, into its own wb_headline, leaves the first as it was */
    ck_assert(other.set && other.invalid && isnan(bad_ratio) && isnan(other.ratio));
    ck_assert_double_eq(bad.target, 0.9); /* its own target stands */
    ck_assert_str_eq(other.detail, "WRONG OUTPUT, no valid figure: c[3] expected 4 got 5");
    ck_assert_str_eq(h.detail, "3000 GB/s vs COPY 2000 GB/s at n = 1024");
    ck_assert_double_eq(alone, 2);
    /* a long detail is cut to 150 characters, and the size still follows */
    char want[200];
    snprintf(want, sizeof want, "%.150s at n = 1024", "3000 GB/s vs a yardstick with a very long name, long enough "
             "that the detail of its row runs past the hundred and fifty characters a sized detail keeps 2000 GB/s");
    ck_assert_str_eq(w.detail, want);
}
END_TEST

void bench_tests(TCase *t)
{
    tcase_add_test(t, bench_detail_from_the_row);
    tcase_add_test(t, bench_headline_out_parameter);
}
