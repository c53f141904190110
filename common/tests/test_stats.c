/* test_stats.c — the harness's tests of summary statistics, random numbers
 * and the device facts that need no device. */

#include <check.h>
#include <math.h>
#include <stdint.h>

#include "wb.h"
#include "test_harness.h"

START_TEST(stats_median)
{
    double odd[5] = { 5, 1, 4, 2, 3 }, even[4] = { 4, 1, 3, 2 };
    ck_assert_double_eq(wb_median(odd, 5), 3);
    ck_assert_double_eq(wb_median(even, 4), 2.5);
    ck_assert_double_eq(odd[0], 5); /* input not reordered */
    ck_assert(isnan(wb_median(odd, 0)));
    wb_summary s;
    wb_summarize(odd, 5, &s);
    ck_assert_double_eq(s.min, 1);
    ck_assert_double_eq(s.max, 5);
    ck_assert_double_eq(s.mean, 3);
}
END_TEST

START_TEST(rng_reproducible_and_distinct)
{
    wb_rng a = wb_rng_for("t", 0), b = wb_rng_for("t", 0), c = wb_rng_for("t", 1), d = wb_rng_for("u", 0);
    uint64_t x = wb_rng_u64(&a);
    ck_assert_uint_eq(x, wb_rng_u64(&b));
    ck_assert_uint_ne(x, wb_rng_u64(&c));
    ck_assert_uint_ne(x, wb_rng_u64(&d));
    float v[1000];
    wb_fill_uniform_f32(&a, v, 1000, -1, 1);
    for (int i = 0; i < 1000; i++) ck_assert(v[i] >= -1 && v[i] < 1);
    for (int i = 0; i < 100; i++) {
        int64_t k = wb_rng_int(&a, 3, 7);
        ck_assert(k >= 3 && k <= 7);
    }
}
END_TEST

/* ---- device facts that need no device ---- */

START_TEST(fp32_lanes_table)
{
    ck_assert_int_eq(wb_fp32_lanes_per_sm(9, 0), 128);
    ck_assert_int_eq(wb_fp32_lanes_per_sm(8, 0), 64);
    ck_assert_int_eq(wb_fp32_lanes_per_sm(8, 6), 128);
    ck_assert_int_eq(wb_fp32_lanes_per_sm(7, 0), 64);
}
END_TEST

void stats_tests(TCase *t)
{
    tcase_add_test(t, stats_median);
    tcase_add_test(t, rng_reproducible_and_distinct);
    tcase_add_test(t, fp32_lanes_table);
}
