/* softmax_host.h — for the C tests of weeks 39 and 40 (the softmax op):
 * FP16 and BF16 on the host (round to nearest even, as __float2half_rn and
 * __float2bfloat16_rn do) and the softmax of one row in double, with
 * torch's conventions. Header-only: each test includes it once. */
#ifndef WB_SOFTMAX_HOST_H
#define WB_SOFTMAX_HOST_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "wb_bf16.h" /* wb_f32_to_bf16, wb_bf16_to_f32 */

/* ---------------------------------------------------------------- half and bfloat16 on the host */

static inline uint32_t bits_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float float_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* float -> FP16 bits, round to nearest even (what __float2half_rn does). */
static inline uint16_t to_f16(float f)
{
    uint32_t u = bits_of(f), sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u);          /* NaN */
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);         /* rounds to Inf, or is */
    if (a < 0x38800000u) {                                           /* a subnormal half (or 0) */
        if (a < 0x33000000u) return (uint16_t)sign;                  /* below half of the least: 0 */
        /* value = m 2^(e - 150), e = a >> 23; in units of 2^-24 (the least half): m >> (126 - e) */
        uint32_t m = (a & 0x7fffffu) | 0x800000u, shift = 126 - (a >> 23);
        uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1))) q++;
        return (uint16_t)(sign | q);
    }
    uint32_t r = a + 0xfffu + ((a >> 13) & 1);                        /* round to 10 mantissa bits */
    return (uint16_t)(sign | ((r - 0x38000000u) >> 13));
}

static inline float from_f16(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ffu;
    if (e == 31) return float_of(sign | 0x7f800000u | (m << 13));
    if (e == 0) return (sign ? -1.0f : 1.0f) * ldexpf((float)m, -24);
    return float_of(sign | ((e + 112) << 23) | (m << 13));
}


/* ---------------------------------------------------------------- the reference */

/* Softmax of one row in double, with torch's conventions: a NaN or a +Inf
 * makes the row NaN, -Inf elements give 0, a row of -Inf only is NaN. */
static inline void ref_row(const float *x, double *y, long long n)
{
    double m = -INFINITY, s = 0;
    int nan = 0;
    for (long long j = 0; j < n; j++) {
        if (isnan(x[j]) || x[j] == INFINITY) nan = 1;
        if (x[j] > m) m = x[j];
    }
    for (long long j = 0; j < n; j++) s += exp((double)x[j] - m);
    for (long long j = 0; j < n; j++) y[j] = (nan || m == -INFINITY) ? NAN : exp((double)x[j] - m) / s;
}

#endif
