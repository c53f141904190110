/* test_compare.c — the harness's tests of comparisons (wb_compare.h) and the
 * bfloat16 conversions (wb_f16.h). */

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "wb.h"
#include "wb_f16.h"
#include "wb_hd.h"
#include "test_harness.h"

START_TEST(compare_within_tolerance)
{
    float ref[4] = { 1.0f, -2.0f, 100.0f, 0.0f };
    float got[4] = { 1.0f + 1e-6f, -2.0f, 100.001f, 1e-7f };
    wb_cmp c;
    ck_assert_uint_eq(wb_compare_f32("x", got, ref, 4, 1e-6, 1e-5, &c), 0);
    got[2] = 100.01f; /* 1e-2 > 1e-6 + 1e-5 * 100 */
    ck_assert_uint_eq(wb_compare_f32("x", got, ref, 4, 1e-6, 1e-5, &c), 1);
    ck_assert_uint_eq(c.first_bad, 2);
    ck_assert_msg(strstr(c.msg, "x[2] expected 100 got 100.01") != NULL, "message: %s", c.msg);
}
END_TEST

START_TEST(compare_nan_never_passes)
{
    float ref[3] = { 1.0f, 2.0f, 3.0f }, got[3] = { 1.0f, NAN, 3.0f };
    wb_cmp c;
    ck_assert_uint_eq(wb_compare_f32("y", got, ref, 3, 1e9, 1e9, &c), 1);
    ck_assert_msg(strstr(c.msg, "got nan") != NULL, "message: %s", c.msg);
    got[1] = INFINITY;
    ck_assert_uint_eq(wb_compare_f32("y", got, ref, 3, 1e9, 1e9, &c), 1);
}
END_TEST

START_TEST(compare_nonfinite_references)
{
    ck_assert(wb_close(NAN, NAN, 0, 0));
    ck_assert(!wb_close(1.0, NAN, 1e9, 1e9));
    ck_assert(wb_close(INFINITY, INFINITY, 0, 0));
    ck_assert(!wb_close(-INFINITY, INFINITY, 0, 0));
    ck_assert(!wb_close(1e30, INFINITY, 1e9, 1e9));
}
END_TEST

START_TEST(compare_poisoned_output_fails)
{
    float ref[8] = { 0 }, got[8];
    wb_hpoison(got, sizeof got);
    ck_assert(isnan(got[0]));
    wb_cmp c;
    ck_assert_uint_eq(wb_compare_f32("z", got, ref, 8, 1e-3, 1e-3, &c), 8);
    ck_assert_msg(strstr(c.msg, "8 of 8 elements wrong") != NULL, "message: %s", c.msg);
    uint32_t a[3] = { 1, 2, 3 }, b[3] = { 1, 5, 3 };
    ck_assert_uint_eq(wb_compare_u32("h", a, b, 3, &c), 1);
    ck_assert_uint_eq(wb_count_not_byte(got, sizeof got, 0xFF), 0);
}
END_TEST

/* wb_f16.h, bfloat16: round to nearest even on the 16 bits dropped, NaN kept NaN
 * (quiet, same sign), Inf kept, the largest finite rounding up to Inf, and
 * every bfloat16 back to float exactly. */
static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float flt(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* wb_hd.h's hash is splitmix64 (its first output from state 0 at i = 0),
 * its uniform is wb_hash_uniform_f32's bits in [lo, hi), and wb_close is
 * wb_close_hd. */
START_TEST(hash_is_splitmix_and_one_copy)
{
    ck_assert_uint_eq(wb_hash_bits(0, 0), 0xE220A8397B1DCDAFull);
    for (size_t i = 0; i < 4096; i++) {
        unsigned long long seed = 0x5EEDull * (i % 7);
        float a = wb_hash_uniform(seed, i, -3, 5), b = wb_hash_uniform_f32(seed, i, -3, 5);
        uint32_t ua, ub;
        memcpy(&ua, &a, 4), memcpy(&ub, &b, 4);
        ck_assert_uint_eq(ua, ub);
        ck_assert(a >= -3 && a < 5);
    }
    const double v[] = { 0, 1, -1, 1e-7, NAN, INFINITY, -INFINITY };
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j++)
            ck_assert_int_eq(!!wb_close(v[i], v[j], 1e-6, 1e-5), !!wb_close_hd(v[i], v[j], 1e-6, 1e-5));
}
END_TEST

START_TEST(bf16_round_and_back)
{
    const struct { uint32_t in; uint16_t want; } C[] = {
        { 0x3f800000u, 0x3f80 },  /* 1 */
        { 0x3f808000u, 0x3f80 },  /* halfway, even below: stays */
        { 0x3f818000u, 0x3f82 },  /* halfway, odd below: rounds up to even */
        { 0x3f808001u, 0x3f81 },  /* just past halfway */
        { 0x3f807fffu, 0x3f80 },  /* just under halfway */
        { 0x80000000u, 0x8000 },  /* -0 */
        { 0x00000001u, 0x0000 },  /* the smallest denormal rounds to +0 */
        { 0x7f800000u, 0x7f80 },  /* +Inf */
        { 0xff800000u, 0xff80 },  /* -Inf */
        { 0x7f7fffffu, 0x7f80 },  /* the largest float: past bf16's largest, to Inf */
        { 0x7f800001u, 0x7fc0 },  /* a signalling NaN whose payload is all in the low half: still NaN, quiet */
        { 0xffc12345u, 0xffc1 },  /* a negative quiet NaN keeps its sign and top payload */
    };
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        uint16_t got = wb_f32_to_bf16(flt(C[i].in));
        ck_assert_msg(got == C[i].want, "wb_f32_to_bf16(0x%08x) = 0x%04x, want 0x%04x", C[i].in, got, C[i].want);
    }
    for (uint32_t h = 0; h <= 0xffffu; h++) {
        float f = wb_bf16_to_f32((uint16_t)h);
        ck_assert_msg(bits(f) == h << 16, "wb_bf16_to_f32(0x%04x) is not exact", h);
        if (!isnan(f)) ck_assert_msg(wb_f32_to_bf16(f) == h, "0x%04x does not come back from float", h);
    }
}
END_TEST

void compare_tests(TCase *t)
{
    tcase_add_test(t, compare_within_tolerance);
    tcase_add_test(t, compare_nan_never_passes);
    tcase_add_test(t, compare_nonfinite_references);
    tcase_add_test(t, compare_poisoned_output_fails);
    tcase_add_test(t, hash_is_splitmix_and_one_copy);
    tcase_add_test(t, bf16_round_and_back);
}
