/* dropout.h — week 35: y = residual + dropout(x + bias, p), in one kernel,
 * with the mask kept for the backward pass. */
#ifndef DROPOUT_H
#define DROPOUT_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* x, residual and y are rows x cols floats, row-major and contiguous; bias
 * has cols floats; mask has rows x cols bytes. All device pointers, of any
 * float (mask: any byte) alignment. For element i = row * cols + col:
 *
 *   mask[i] = keep(i)   1 or 0, the mask of philox.h's philox_dropout_keep_host:
 *                       curand_init(seed, i / 4, 4 * offset, &state) on a
 *                       curandStatePhilox4_32_10_t, curand_uniform4(&state),
 *                       keep when component i % 4 is > p
 *   y[i]    = keep(i) ? residual[i] + (x[i] + bias[col]) * scale : residual[i]
 *             scale = 1.0f / (1.0f - p), in float; one rounding (fmaf) or
 *             two (multiply, then add) are both right
 *
 * The mask of element i depends on seed, offset and i only: not on the
 * launch configuration, the alignment or the shape, so the same seed and
 * offset give the same mask bit for bit, and the CPU can reproduce it. A
 * different seed or offset gives an independent mask (a second dropout in
 * the same step uses offset + 1). A dropped element gives residual[i]
 * exactly, even where x is NaN or Inf (a select, not a multiply by 0).
 *
 * p in [0, 1]: p = 0 keeps everything (a curand uniform is never 0), p = 1
 * drops everything (y = residual, mask all 0). p < 0, p > 1 or NaN:
 * cudaErrorInvalidValue and nothing launched. rows or cols <= 0 does nothing
 * (cudaSuccess). offset < 2^62. Nothing outside y and mask written. Default
 * stream, no wait; returns the launch's error. */
cudaError_t dropout_bias_residual(const float *x, const float *bias, const float *residual, float *y,
                                  uint8_t *mask, int rows, int cols, float p, unsigned long long seed,
                                  unsigned long long offset);

#ifdef __cplusplus
}
#endif
#endif
