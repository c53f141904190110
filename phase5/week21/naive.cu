/* naive.cu — week 21, exercise 1: the naive SGEMM and the TFLOP/s formula.
 *
 * One thread computes one element of C with a K-long dot product. The mapping
 * is the textbook one and deliberately the wrong way round for the memory
 * system: threadIdx.x picks the ROW, so the 32 lanes of a warp read A from 32
 * rows K floats apart and store C 32 rows N floats apart; every load is its
 * own 32-byte sector. The next exercise (coalesced.cu) swaps the roles. */
#include <math.h>
#include "naive.h"

/* TODO: one thread per element of C. row from threadIdx.x (this version
 * is meant to be the slow one), col from threadIdx.y; guard both; sum
 * A[row*K + k] * B[k*N + col] over k in a float and store it. */
static __global__ void sgemm_naive_kernel(int M, int N, int K, const float *A, const float *B, float *C)
{
}

cudaError_t naive_sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
    /* TODO: 32 x 32 blocks, a grid covering M (x) and N (y); launch nothing
     * when M or N is 0; return cudaGetLastError(). */
    sgemm_naive_kernel<<<1, 1>>>(M, N, K, A, B, C);
    return cudaGetLastError();
}

double naive_gemm_tflops(int M, int N, int K, double ms)
{
    /* TODO: 2 flops per multiply-add, M*N*K of them, in `ms` milliseconds.
     * Mind the int overflow; NaN when ms <= 0. */
    (void)M, (void)N, (void)K, (void)ms;
    return 0.0;
}
