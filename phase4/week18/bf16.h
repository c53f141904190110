/* bf16.h — week 18: the layer on the tensor cores, BF16 inputs and weights,
 * FP32 accumulation, FP32 output. */
#ifndef BF16_H
#define BF16_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dst[i] = src[i] rounded to the nearest bfloat16 (ties to even; an
 * infinity stays one, a NaN stays a NaN, a value past the largest finite
 * bfloat16 by half a step or more is +-Inf), as bit patterns, for i < n.
 * Device arrays; any n >= 0. Default stream, no wait. */
cudaError_t bf16_from_f32(const float *src, uint16_t *dst, size_t n);

/* fp32_linear (fp32.h) on the tensor cores: y[r][o] = act(sum_k x[r][k]
 * W[o][k] + b[o]) with x (batch x in) and W (out x in) as bfloat16 bit
 * patterns, b (out) and y (batch x out) FP32, all row-major device arrays.
 * Each product of two bfloat16 is exact in FP32; the sum is FP32, in an
 * order of the tensor cores' own. ReLU as in fp32_linear when relu != 0.
 *
 * The alignment contract: in is a multiple of 8 and x and W start 16-byte
 * aligned, so every row of x and W is 16-byte aligned and moves in whole
 * 16-byte pieces; anything else is cudaErrorInvalidValue, nothing launched.
 * Any batch >= 0 and out >= 1 (out need not be a multiple of anything); y
 * any float alignment; nothing outside y[0 .. batch*out) written. Default
 * stream, no wait; returns the launch's error. */
cudaError_t bf16_linear(const uint16_t *x, const uint16_t *W, const float *b, float *y, int batch, int in, int out,
                        int relu);

#ifdef __cplusplus
}
#endif
#endif
