/* yard_cublas_attn.h — week 37, given: the library yardstick (cuBLAS) of the
 * speed checkpoint, attention as week 34 built it on cuBLAS in FP32.
 *
 * Same layout, arguments and O as flash_attn (flash_attn.h), without lse:
 * Q, K, V and O are bh x S x D floats, head after head. Three steps a call,
 * for all heads at once:
 *   1. scores = scale * Q K^T, one cublasSgemmStridedBatched (FP32, no TF32);
 *   2. a row softmax in place, the causal mask folded in (a masked score is
 *      neither read nor weighed; it is written as 0), the row in registers:
 *      read once, written once;
 *   3. O = P V, one cublasSgemmStridedBatched.
 * `scores` is a device buffer of yard_attn_cublas_workspace_bytes(bh, S)
 * bytes (the S x S matrix of every head); `h` a cuBLAS handle in
 * CUBLAS_DEFAULT_MATH or CUBLAS_PEDANTIC_MATH (FP32 either way), on the
 * default stream. S from 1 to YARD_CUBLAS_MAX_S, any D >= 1; 0 heads or
 * S == 0 compute nothing. Returns cudaErrorInvalidValue for arguments out of
 * range, cudaErrorUnknown when cuBLAS fails, else the last launch's error. */
#ifndef YARD_CUBLAS_ATTN_H
#define YARD_CUBLAS_ATTN_H

#include <stddef.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define YARD_CUBLAS_MAX_S 16384 /* the softmax keeps a row in registers */

cudaError_t yard_attn_cublas(cublasHandle_t h, const float *q, const float *k, const float *v, float *o,
                             float *scores, int bh, int S, int D, float scale, int causal);
size_t yard_attn_cublas_workspace_bytes(int bh, int S);

#ifdef __cplusplus
}
#endif
#endif
