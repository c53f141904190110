/* naive.h — week 21: the first SGEMM, and how fast a GEMM is.
 *
 * Every SGEMM of phase 5 has this interface: C = A B, where A is M x K, B is
 * K x N and C is M x N, all row-major and contiguous (element (i, j) of C is
 * C[i*N + j]), device pointers with any float alignment. M, N, K >= 0. Every
 * element of C is written (K == 0 gives zeros), nothing outside C is. There
 * is no beta: C is output only, and the tests fill it with NaN before each
 * call, so a BLAS-style kernel that reads C (beta * C, even with beta = 0)
 * gets NaN everywhere. The kernel is enqueued on the default stream; the
 * function returns the launch's error (cudaSuccess if none) without waiting. */
#ifndef NAIVE_H
#define NAIVE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One thread per element of C, threadIdx.x walking the rows (uncoalesced). */
cudaError_t naive_sgemm(int M, int N, int K, const float *A, const float *B, float *C);

/* TFLOP/s of an M x N x K GEMM that took `ms` milliseconds (2 flops per
 * multiply-add); NaN when ms <= 0. A pure host function. */
double naive_gemm_tflops(int M, int N, int K, double ms);

#ifdef __cplusplus
}
#endif
#endif
