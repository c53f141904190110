/* gemm_epilogue.h — week 28: GEMM + bias + activation, fused and not. */
#ifndef GEMM_EPILOGUE_H
#define GEMM_EPILOGUE_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { ACT_NONE = 0, ACT_RELU = 1, ACT_GELU = 2 };

/* C[r][c] = act(sum_k A[r][k] B[k][c] + bias[c]), row-major: A is M x K and
 * B is K x N (half bit patterns), bias has N floats (NULL: no bias), C is
 * M x N float, accumulation in float. act: ACT_NONE, ACT_RELU (v < 0 ? 0 : v,
 * so NaN stays NaN) or ACT_GELU (tanh form: 0.5 v (1 + tanh(0.7978845608 (v +
 * 0.044715 v^3)))). Fused: one kernel, C written once. Any M, N, K >= 0;
 * nothing outside C[0 .. M*N) written. Default stream, no wait; returns the
 * first error (cudaErrorInvalidValue for a bad act or a negative size). */
cudaError_t gemm_epilogue_bias_act(const uint16_t *A, const uint16_t *B, const float *bias, float *C, int M, int N,
                                   int K, int act);

/* The separate pass, in place: C[r][c] = act(C[r][c] + bias[c]) for an
 * M x N row-major C (bias may be NULL). Same rules as above. */
cudaError_t gemm_epilogue_act(float *C, const float *bias, int M, int N, int act);

#ifdef __cplusplus
}
#endif
#endif
