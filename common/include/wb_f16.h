/* wb_f16.h — the 16-bit floats on the host, FP16 (half) and BF16
 * (bfloat16), for the tests that feed such kernels and check them (weeks 18,
 * 25-28, 38, 39, 40, 54, 55): one conversion each way for each, the same
 * everywhere, so a test's reference sees exactly the values the GPU does.
 *
 * half: 1 sign bit, 5 exponent bits (bias 15), 10 mantissa bits; largest
 * finite 65504, least normal 2^-14, least subnormal 2^-24. bfloat16 is the
 * top half of a float: 1 sign bit, 8 exponent bits, 7 mantissa bits.
 * Integer arithmetic only: no result depends on the rounding mode. Header
 * only (static inline), C and C++. */
#ifndef WB_F16_H
#define WB_F16_H

#include <stdint.h>
#include <string.h>

/* float -> half bits, round to nearest even (what __float2half_rn does):
 * past 65504 by half a step (65520) and more is Inf, below 2^-14 a
 * subnormal half, at most 2^-25 zero (of the float's sign); a NaN is the
 * quiet NaN of its sign, 0x7e00 or 0xfe00. */
static inline uint16_t wb_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u); /* NaN */
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* 65520 and up (Inf included) */
    if (a < 0x38800000u) {                                    /* below 2^-14 */
        if (a <= 0x33000000u) return (uint16_t)sign;          /* at most 2^-25: a tie goes to the even 0 */
        /* the value is m 2^(e - 150) with e = a >> 23; in units of 2^-24 (the least half) it is m >> (126 - e) */
        uint32_t m = (a & 0x7fffffu) | 0x800000u, shift = 126 - (a >> 23);
        uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        return (uint16_t)(sign | (q + (rem > half || (rem == half && (q & 1)))));
    }
    /* a normal half: round the 13 bits dropped, the carry walking into the exponent */
    return (uint16_t)(sign | ((a + 0xfffu + ((a >> 13) & 1) - 0x38000000u) >> 13));
}

/* half bits -> float: exact; a NaN keeps its sign and its payload bits
 * (what __half2float does). */
static inline float wb_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x = sign;
    if (e == 31) x |= 0x7f800000u | (m << 13); /* Inf, NaN */
    else if (e) x |= ((e + 112) << 23) | (m << 13);
    else if (m) { /* a subnormal, m 2^-24: a normal float once m's top bit is moved to bit 10 */
        uint32_t s = 0;
        while (!(m & 0x400u)) m <<= 1, s++;
        x |= ((113 - s) << 23) | ((m & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

/* float -> bfloat16 bits, round to nearest even (what __float2bfloat16_rn
 * does); a NaN stays a NaN of the same sign (made quiet), an infinity an
 * infinity. No subnormal or overflow case is special: the carry of the
 * rounding walks into the exponent (to Inf past the largest finite). */
static inline uint16_t wb_f32_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x0040u);
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

/* bfloat16 bits -> float: exact. */
static inline float wb_bf16_to_f32(uint16_t h)
{
    uint32_t x = (uint32_t)h << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

#endif
