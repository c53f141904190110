/* gelu_chain.h — week 15: bias + GELU + scale + residual, fused. */
#ifndef GELU_CHAIN_H
#define GELU_CHAIN_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* GELU, tanh form (Hendrycks and Gimpel): gelu(v) = 0.5 v (1 + tanh(0.7978845608 (v + 0.044715 v^3))),
 * the same function as v / (1 + exp(-1.5957691216 (v + 0.044715 v^3))).
 * NaN gives NaN and +Inf gives +Inf; -Inf is not asked for (both forms give
 * -Inf * 0 = NaN there).
 *
 * x, r and y are rows x cols, row-major and contiguous, bias has cols
 * elements; all device pointers, any float alignment:
 *     y[i][j] = r[i][j] + s * gelu(x[i][j] + bias[j])
 * Yours: one kernel (or one kernel and a tail). Nothing outside y written;
 * rows or cols <= 0 does nothing. Default stream, no wait; the launch's error. */
cudaError_t gelu_chain_fused(const float *x, const float *bias, const float *r, float *y, int rows, int cols, float s);

/* Given (support/yard_unfused.cu): the same as four kernels, the way a framework
 * runs it op by op, through one temporary t of rows x cols floats:
 * t = x + bias; t = gelu(t); t = s t; y = t + r. */
cudaError_t yard_gelu_chain_unfused(const float *x, const float *bias, const float *r, float *t, float *y, int rows,
                                    int cols, float s);

#ifdef __cplusplus
}
#endif
#endif
