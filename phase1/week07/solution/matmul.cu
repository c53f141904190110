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

//@solution
static __global__ void matmul_naive_kernel(const float *__restrict__ A, const float *__restrict__ B,
                                           float *__restrict__ C, int M, int N, int K)
{
    int col = blockIdx.x * MT + threadIdx.x, row = blockIdx.y * MT + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.f;
    for (int k = 0; k < K; k++) acc = fmaf(A[(size_t)row * K + k], B[(size_t)k * N + col], acc);
    C[(size_t)row * N + col] = acc;
}

static __global__ void matmul_tiled_kernel(const float *__restrict__ A, const float *__restrict__ B,
                                           float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[MT][MT], Bs[MT][MT + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * MT + tx, row = blockIdx.y * MT + ty;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += MT) {
        As[ty][tx] = row < M && k0 + tx < K ? A[(size_t)row * K + k0 + tx] : 0.f;
        Bs[ty][tx] = k0 + ty < K && col < N ? B[(size_t)(k0 + ty) * N + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < MT; k++) acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N) C[(size_t)row * N + col] = acc;
}
//@starter
//| /* TODO: two kernels, blocks of MT x MT threads, thread (x, y) computing
//|  * C[row = blockIdx.y*MT + y][col = blockIdx.x*MT + x]. */
//| static __global__ void matmul_naive_kernel(const float *A, const float *B, float *C, int M, int N, int K)
//| {
//|     (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
//| }
//| static __global__ void matmul_tiled_kernel(const float *A, const float *B, float *C, int M, int N, int K)
//| {
//|     (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
//| }
//@end

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
