/* test_f16.c — FP16 on the host (common/include/wb_f16.h) against a
 * reference of its own, written another way (double arithmetic: frexp,
 * ldexp, nearbyint with its default ties to even): every half to float,
 * every float whose half is subnormal, every rounding boundary of every
 * normal half, a sample of all other floats, and the special values. */

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "test_harness.h"
#include "wb_f16.h"
#include "wb_rand.h"

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float from_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* The nearest half to f: Inf from 65520 (half a step past 65504), subnormal
 * halves in units of 2^-24, otherwise 11 significant bits. */
static uint16_t ref_to_half(float f)
{
    uint16_t sign = signbit(f) ? 0x8000u : 0;
    double a = fabs((double)f);
    if (isnan(f)) return sign | 0x7e00u;
    if (a >= 65520.0) return sign | 0x7c00u;
    if (a < 0x1p-14) return sign | (uint16_t)nearbyint(a * 0x1p24);
    int e;
    double M = nearbyint(ldexp(frexp(a, &e), 11));
    if (M == 2048) M = 1024, e++;
    return sign | (uint16_t)((e + 14) << 10) | (uint16_t)((int)M - 1024);
}

/* Fails on the first float whose half differs from the reference's. */
static void expect_half(float f)
{
    uint16_t got = wb_f32_to_f16(f), want = ref_to_half(f);
    if (got != want)
        ck_abort_msg("wb_f32_to_f16(%.9g, bits 0x%08x) = 0x%04x, expected 0x%04x", (double)f, bits(f), got, want);
}

/* Every half: the float it stands for exactly (a NaN keeps its sign and
 * payload), and back to the same half (a NaN to the quiet NaN of its sign). */
START_TEST(f16_every_half)
{
    for (uint32_t h = 0; h <= 0xffff; h++) {
        uint32_t e = (h >> 10) & 31, m = h & 0x3ff;
        int nan = e == 31 && m != 0;
        double v = e == 0 ? ldexp(m, -24) : e == 31 ? INFINITY : ldexp(m + 1024, (int)e - 25);
        float got = wb_f16_to_f32((uint16_t)h), want = (float)((h & 0x8000) ? -v : v);
        if (nan) {
            ck_assert_msg(isnan(got) && (bits(got) >> 31) == (h >> 15) && ((bits(got) >> 13) & 0x3ff) == m,
                          "wb_f16_to_f32(0x%04x) = bits 0x%08x: not a NaN of that sign and payload", h, bits(got));
        } else {
            ck_assert_msg(bits(got) == bits(want), "wb_f16_to_f32(0x%04x) = %.9g, expected %.9g", h, (double)got,
                          (double)want);
        }
        uint16_t back = wb_f32_to_f16(got), expect = nan ? (uint16_t)((h & 0x8000) | 0x7e00) : (uint16_t)h;
        ck_assert_msg(back == expect, "half 0x%04x came back from float as 0x%04x, expected 0x%04x", h, back, expect);
    }
}
END_TEST

/* Of both signs: every float from just under 2^-25 (half the least
 * subnormal half) to 2^-14 (the least normal half), each subnormal half
 * being rounded at its own position, and the smaller ones 4096 apart; for
 * every normal half, the floats at its rounding boundaries (of the 13 bits
 * dropped: none, the last, just under, at and just past the tie, all) and
 * one more at random. */
START_TEST(f16_rounding_every_boundary)
{
    for (uint32_t a = 0; a < 0x38800000u; a += a < 0x32f00000u ? 0x1000u : 1u) {
        expect_half(from_bits(a));
        expect_half(from_bits(a | 0x80000000u));
    }
    wb_rng rng;
    wb_rng_seed(&rng, 0xf16);
    static const uint32_t LOW[] = { 0, 1, 0xfff, 0x1000, 0x1001, 0x1fff };
    for (uint32_t hi = 0x38800000u >> 13; hi <= 0x7f800000u >> 13; hi++)
        for (size_t k = 0; k <= sizeof LOW / sizeof LOW[0]; k++) {
            uint32_t low = k < sizeof LOW / sizeof LOW[0] ? LOW[k] : (uint32_t)wb_rng_u64(&rng) & 0x1fffu;
            expect_half(from_bits(hi << 13 | low));
            expect_half(from_bits(0x80000000u | hi << 13 | low));
        }
}
END_TEST

/* 2^24 floats of any bit pattern, and the values the weeks' tests name. */
START_TEST(f16_rounding_sample_and_specials)
{
    wb_rng rng;
    wb_rng_seed(&rng, 0xf16f);
    for (int i = 0; i < 1 << 24; i++) {
        float f = from_bits((uint32_t)wb_rng_u64(&rng));
        if (isnan(f)) {
            ck_assert_uint_eq(wb_f32_to_f16(f), signbit(f) ? 0xfe00u : 0x7e00u);
        } else {
            expect_half(f);
        }
    }
    static const struct { float f; uint16_t h; } SPECIAL[] = {
        { 0.f, 0x0000 },          { -0.f, 0x8000 },           { 1.f, 0x3c00 },          { -2.f, 0xc000 },
        { 65504.f, 0x7bff },      { 65519.f, 0x7bff },        { 65520.f, 0x7c00 },      { 1e9f, 0x7c00 },
        { INFINITY, 0x7c00 },     { -INFINITY, 0xfc00 },      { NAN, 0x7e00 },          { -NAN, 0xfe00 },
        { 0x1p-14f, 0x0400 },     { 0x1p-14f - 0x1p-25f, 0x0400 }, { 0x1p-24f, 0x0001 }, { 0x1p-25f, 0x0000 },
        { 0x1.8p-25f, 0x0001 },   { 0x1p-26f, 0x0000 },       { -0x1p-26f, 0x8000 },    { 6e-8f, 0x0001 },
        { 1.00048828125f, 0x3c00 }, { 1.00146484375f, 0x3c02 }, { 0x1p-149f, 0x0000 },
    };
    for (size_t i = 0; i < sizeof SPECIAL / sizeof SPECIAL[0]; i++)
        ck_assert_msg(wb_f32_to_f16(SPECIAL[i].f) == SPECIAL[i].h, "wb_f32_to_f16(%.9g) = 0x%04x, expected 0x%04x",
                      (double)SPECIAL[i].f, wb_f32_to_f16(SPECIAL[i].f), SPECIAL[i].h);
}
END_TEST

void f16_tests(TCase *t)
{
    tcase_set_timeout(t, 120); /* some 10^8 conversions on a busy machine */
    tcase_add_test(t, f16_every_half);
    tcase_add_test(t, f16_rounding_every_boundary);
    tcase_add_test(t, f16_rounding_sample_and_specials);
}
