/* w4_quant.h — week 58 (given): the 4-bit weight layout, its quantiser and
 * its dequantiser, on the CPU. Header only (static inline), C and C++.
 *
 * The layout. W is K x N (y = x W: K inputs, N outputs), cut along K into
 * groups of W4_GROUP = 128 rows; every group of every column has one FP16
 * scale s and one FP16 zero z, z an integer 0..15:
 *
 *   wq     uint32 [K/8][N]     word (kb, n) holds W[8 kb + i][n] as a 4-bit
 *                              q in bits 4i .. 4i+3, i = 0..7 (the lowest
 *                              nibble is the lowest k); words of one k-row
 *                              of words are contiguous along n
 *   scales FP16   [K/128][N]   s of group g = k / 128, column n
 *   zeros  FP16   [K/128][N]   z of the same group and column
 *
 * dequant(W)[k][n] = fp16((q - z) * s), rounded once, to nearest even. q - z
 * is an integer in -15..15 and s an FP16, so the product is exact in float
 * and in (h - (1024 + z)) * s on FP16 values (the README's 0x6400 trick): the
 * same half either way. K is a multiple of 128 and N of 8.
 *
 * This is GPTQ's packing (qweight [K/8][N], eight values along K in a word)
 * without its activation reordering, with the zero kept as an FP16 beside
 * the scale instead of packed 4-bit zeros. */
#ifndef W4_QUANT_H
#define W4_QUANT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "wb_f16.h"

#define W4_GROUP 128

/* Nibble k of column n. */
static inline unsigned w4_q(const uint32_t *wq, int N, int k, int n)
{
    return (wq[(size_t)(k / 8) * N + n] >> (4 * (k % 8))) & 15u;
}

/* The dequantised weight, an FP16 value as a float (exactly). */
static inline float w4_dequant_one(unsigned q, uint16_t s, uint16_t z)
{
    float d = ((float)q - wb_f16_to_f32(z)) * wb_f16_to_f32(s); /* exact in float */
    return wb_f16_to_f32(wb_f32_to_f16(d));
}

/* Quantise one group of one column: v[i * stride], i = 0..127. The range is
 * [min(v, 0), max(v, 0)] (0 is always exactly representable, as in GPTQ),
 * the scale its width over 15 rounded to FP16 (at least 2^-14, the least
 * normal half, so that it never rounds to 0), the zero round(-lo / s), and
 * each q = clamp(round(v / s) + z, 0, 15) with the scale stored, so that
 * |v - dequant| <= s / 2 (and a few 2^-11 s of rounding). Finite v only. */
static inline void w4_quant_group(const float *v, size_t stride, uint8_t *q, uint16_t *s, uint16_t *z)
{
    float lo = 0.f, hi = 0.f;
    for (int i = 0; i < W4_GROUP; i++) {
        float x = v[(size_t)i * stride];
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    float scale = (hi - lo) / 15.f;
    if (scale < 0x1p-14f) scale = 0x1p-14f;
    uint16_t sh = wb_f32_to_f16(scale);
    float sf = wb_f16_to_f32(sh);
    float zf = rintf(-lo / sf);
    zf = zf <= 0.f ? 0.f : zf > 15.f ? 15.f : zf; /* -0 becomes +0 */
    for (int i = 0; i < W4_GROUP; i++) {
        float r = rintf(v[(size_t)i * stride] / sf) + zf;
        q[i] = (uint8_t)(r < 0.f ? 0.f : r > 15.f ? 15.f : r);
    }
    *s = sh;
    *z = wb_f32_to_f16(zf);
}

/* Quantise W (K x N floats, row-major) into wq (K/8 x N words), scales and
 * zeros (K/128 x N halves each). K a multiple of 128. */
static inline void w4_quantise(const float *W, int K, int N, uint32_t *wq, uint16_t *scales, uint16_t *zeros)
{
    uint8_t q[W4_GROUP];
    for (size_t i = 0; i < (size_t)(K / 8) * N; i++) wq[i] = 0;
    for (int g = 0; g < K / W4_GROUP; g++)
        for (int n = 0; n < N; n++) {
            size_t sz = (size_t)g * N + n;
            w4_quant_group(W + (size_t)g * W4_GROUP * N + n, (size_t)N, q, &scales[sz], &zeros[sz]);
            for (int i = 0; i < W4_GROUP; i++) {
                int k = g * W4_GROUP + i;
                wq[(size_t)(k / 8) * N + n] |= (uint32_t)q[i] << (4 * (k % 8));
            }
        }
}

/* dequant(W) as floats (each an FP16 value), K x N row-major. */
static inline void w4_dequantise(const uint32_t *wq, const uint16_t *scales, const uint16_t *zeros, int K, int N,
                                 float *W)
{
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) {
            size_t sz = (size_t)(k / W4_GROUP) * N + n;
            W[(size_t)k * N + n] = w4_dequant_one(w4_q(wq, N, k, n), scales[sz], zeros[sz]);
        }
}

#endif
