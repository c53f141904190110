/* matmul.cu — week 07, exercise 5: SGEMM, first steps.
 *
 * naive: one thread per C element, K multiply-adds reading A and B from
 *   global memory: 2 loads per FMA; the caches carry it, barely.
 * tiled: a block loads a 32x32 tile of A and one of B into shared memory
 *   once, and each of its 1024 threads reads them 32 times: global traffic
 *   falls 32x, shared-memory bandwidth becomes the limit. Phase 5 goes on
 *   (register tiles, vector loads, tensor cores); cuBLAS is the yardstick. */
#include "matmul.h"

#define MT 32

/* TODO: two kernels, blocks of MT x MT threads, thread (x, y) computing
 * C[row = blockIdx.y*MT + y][col = blockIdx.x*MT + x]. */
static __global__ void matmul_naive_kernel(const float *A, const float *B, float *C, int M, int N, int K)
{
    (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
}
static __global__ void matmul_tiled_kernel(const float *A, const float *B, float *C, int M, int N, int K)
{
    (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
}

static cudaError_t launch(int tiled, const float *A, const float *B, float *C, int M, int N, int K)
{
    if (M <= 0 || N <= 0) return cudaSuccess;
    dim3 block(MT, MT), grid((unsigned)((N + MT - 1) / MT), (unsigned)((M + MT - 1) / MT));
    if (tiled) matmul_tiled_kernel<<<grid, block>>>(A, B, C, M, N, K);
    else matmul_naive_kernel<<<grid, block>>>(A, B, C, M, N, K);
    return cudaGetLastError();
}

cudaError_t matmul_naive(const float *A, const float *B, float *C, int M, int N, int K) { return launch(0, A, B, C, M, N, K); }
cudaError_t matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K) { return launch(1, A, B, C, M, N, K); }
