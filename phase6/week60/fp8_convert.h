/* fp8_convert.h — week 60: the two 8-bit floating-point formats of Hopper's
 * tensor cores, converted on the CPU (exact, no GPU needed).
 *
 * A code is one byte, sign | exponent | mantissa:
 *
 *   E4M3: s eeee mmm, bias 7.  Normal (e = 1..15): (1 + m/8) 2^(e-7);
 *         subnormal (e = 0): (m/8) 2^-6, steps of 2^-9. No infinity: the
 *         codes s 1111 111 (0x7F, 0xFF) are NaN, so e = 15 holds only
 *         m = 0..6 and the largest finite value is 1.75 * 2^8 = 448 (0x7E).
 *   E5M2: s eeeee mm, bias 15. Normal (e = 1..30): (1 + m/4) 2^(e-15);
 *         subnormal (e = 0): (m/4) 2^-14, steps of 2^-16. e = 31 is IEEE's:
 *         m = 0 is +-infinity (0x7C, 0xFC), m != 0 NaN; the largest finite
 *         value is 1.75 * 2^15 = 57344 (0x7B).
 *
 * Both have a negative zero (0x80). These are the OCP 8-bit floating point
 * formats (E4M3 is the one often called E4M3FN: finite, one NaN pattern a
 * sign) that PTX calls .e4m3 and .e5m2.
 *
 * The conversions from float are the ones `cvt.rn.satfinite.e4m3x2.f32`
 * (and .e5m2x2) performs: round to nearest, ties to the even code (the one
 * whose mantissa's last bit is 0); a finite value beyond the largest finite
 * one, and an infinity, become the largest finite value of the same sign
 * (saturation, PTX's .satfinite); NaN becomes a NaN code (0x7F or 0xFF);
 * the sign of zero is kept. Pure arithmetic: no CUDA call. */
#ifndef FP8_CONVERT_H
#define FP8_CONVERT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest finite values and their codes. */
#define FP8_E4M3_MAX 448.0f
#define FP8_E5M2_MAX 57344.0f
enum { FP8_E4M3_MAX_CODE = 0x7E, FP8_E5M2_MAX_CODE = 0x7B };

/* The value of a code, exact (every E4M3 and E5M2 value is a float): NaN
 * for a NaN code, +-infinity for E5M2's infinities, -0.0f for 0x80. */
float fp8_convert_from_e4m3(uint8_t code);
float fp8_convert_from_e5m2(uint8_t code);

/* The code of x, rounded to nearest even and saturated, as above. */
uint8_t fp8_convert_to_e4m3(float x);
uint8_t fp8_convert_to_e5m2(float x);

#ifdef __cplusplus
}
#endif
#endif
