/* sp24_gemm.h — week 61: y = x W^T with W pruned to 2:4 and compressed,
 * on the sparse tensor cores (mma.sp). */
#ifndef SP24_GEMM_H
#define SP24_GEMM_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y (M x N, FP16, row-major) = x (M x K, FP16, row-major) times W^T, where
 * W (N x K: a linear layer's weight, out_features x in_features, as torch
 * stores it) is 2:4 along K and given compressed as sp24_pack.h says: vals
 * (N x K/2 FP16) and meta ((N/16) x (K/64) blocks of 32 words). FP32
 * accumulation, one rounding to FP16 at the end.
 *
 * The mapping onto mma.sp: the sparse operand of mma.sp is A, so W is A and
 * the product computed is y^T = W x^T (a 16 x 8 tile of the mma is 16
 * outputs n by 8 rows m of x); x is B, read k-contiguous (".col").
 *
 * Device pointers, each 16-byte aligned. M >= 0 any; N a multiple of 16
 * (a metadata block's rows); K a multiple of 64 (a metadata block's k: 16
 * groups of 4), or cudaErrorInvalidValue before anything is launched (so a
 * K that is not a multiple of the 2:4 group is refused too). M == 0 or
 * N == 0 writes nothing; K == 0 gives y = 0. Nothing outside y[0 .. M*N)
 * is written. Launches on the default stream without waiting and returns
 * the first error (cudaSuccess if none). Needs compute capability 8.0 or
 * newer (mma.sp, cp.async). */
cudaError_t sp24_gemm(const uint16_t *x, const uint16_t *vals, const uint32_t *meta, uint16_t *y, int M, int N,
                      int K);

#ifdef __cplusplus
}
#endif
#endif
