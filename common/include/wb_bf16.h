/* wb_bf16.h — bfloat16 on the host, for the tests that feed BF16 kernels and
 * check them (weeks 38, 39, 40, 54, 55): one conversion each way, the same
 * everywhere, so a test's reference sees exactly the values the GPU does.
 *
 * bfloat16 is the top half of a float: 1 sign bit, 8 exponent bits, 7
 * mantissa bits. Header only (static inline), C and C++. */
#ifndef WB_BF16_H
#define WB_BF16_H

#include <stdint.h>
#include <string.h>

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
