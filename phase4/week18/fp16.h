/* fp16.h — week 18: the same layer with half-precision weights, FP32
 * activations and FP32 accumulation. */
#ifndef FP16_H
#define FP16_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dst[i] = src[i] rounded to the nearest IEEE half (ties to even; past
 * 65504 it is +-Inf, NaN stays NaN), as bit patterns (C has no half type),
 * for i < n. Device arrays; any n >= 0. Default stream, no wait. */
cudaError_t fp16_from_f32(const float *src, uint16_t *dst, size_t n);

/* fp32_linear (fp32.h) with W held as halves: each weight is widened to float
 * exactly, the products summed in float. Same shapes, rules and errors. */
cudaError_t fp16_linear(const float *x, const uint16_t *W, const float *b, float *y, int batch, int in, int out,
                        int relu);

#ifdef __cplusplus
}
#endif
#endif
