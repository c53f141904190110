/* tiled.cu — week 22: shared-memory tiling.
 *
 * A block of T x T threads owns a T x T tile of C. It walks K in steps of T:
 * every thread copies one element of A's T x T tile and one of B's into
 * shared memory, the block waits, and each thread does T multiply-adds from
 * shared memory. Each float brought from global memory is now used T times,
 * so global traffic falls by a factor T. What remains: 2 shared-memory loads
 * per FMA, which caps this design far below the FP32 peak (weeks 23-24 keep
 * values in registers to fix that). T = 8, 16, 32 give 64, 256, 1024
 * threads per block; tiled_sgemm_blocks_per_sm reports how many fit per SM. */
#include "tiled.h"

//@solution
template <int T>
static __global__ void __launch_bounds__(T *T) sgemm_tiled_kernel(int M, int N, int K, const float *__restrict__ A,
                                                                  const float *__restrict__ B, float *__restrict__ C)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float s = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[(size_t)row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(size_t)(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; k++) s += As[ty][k] * Bs[k][tx];
        __syncthreads(); /* the tile is overwritten next: everyone must be done with it */
    }
    if (row < M && col < N) C[(size_t)row * N + col] = s;
}

template <int T>
static cudaError_t launch_tiled(int M, int N, int K, const float *A, const float *B, float *C)
{
    if (M <= 0 || N <= 0) return cudaSuccess;
    dim3 grid((N + T - 1) / T, (M + T - 1) / T);
    sgemm_tiled_kernel<T><<<grid, dim3(T, T)>>>(M, N, K, A, B, C);
    return cudaGetLastError();
}

template <int T>
static int blocks_per_sm(void)
{
    int b = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, sgemm_tiled_kernel<T>, T * T, 0) != cudaSuccess) return 0;
    return b;
}
//@starter
//| /* TODO: a kernel templated on the tile size T, run by T x T threads:
//|  *   __shared__ float As[T][T], Bs[T][T];
//|  *   for each step k0 of T along K: load one element of each tile (0.0f
//|  *   when out of range), __syncthreads(), T multiply-adds, __syncthreads().
//|  *   Store C[row][col] if in range. */
//| template <int T>
//| static __global__ void sgemm_tiled_kernel(int M, int N, int K, const float *A, const float *B, float *C)
//| {
//| }
//|
//| template <int T>
//| static cudaError_t launch_tiled(int M, int N, int K, const float *A, const float *B, float *C)
//| {
//|     /* TODO: a grid of ceil(N/T) x ceil(M/T) blocks of T x T threads;
//|      * nothing when M or N is 0; return cudaGetLastError(). */
//|     sgemm_tiled_kernel<T><<<1, 1>>>(M, N, K, A, B, C);
//|     return cudaGetLastError();
//| }
//|
//| template <int T>
//| static int blocks_per_sm(void)
//| {
//|     /* TODO: cudaOccupancyMaxActiveBlocksPerMultiprocessor for sgemm_tiled_kernel<T>. */
//|     return 0;
//| }
//@end

cudaError_t tiled_sgemm_t(int T, int M, int N, int K, const float *A, const float *B, float *C)
{
    switch (T) {
    case 8: return launch_tiled<8>(M, N, K, A, B, C);
    case 16: return launch_tiled<16>(M, N, K, A, B, C);
    case 32: return launch_tiled<32>(M, N, K, A, B, C);
    default: return cudaErrorInvalidValue;
    }
}

int tiled_sgemm_blocks_per_sm(int T)
{
    switch (T) {
    case 8: return blocks_per_sm<8>();
    case 16: return blocks_per_sm<16>();
    case 32: return blocks_per_sm<32>();
    default: return 0;
    }
}

cudaError_t tiled_sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
    //@solution
    return tiled_sgemm_t(32, M, N, K, A, B, C);
    //@starter
    //| /* TODO: after the sweep (make phase5/week22 bench), pick your fastest T. */
    //| return tiled_sgemm_t(32, M, N, K, A, B, C);
    //@end
}
