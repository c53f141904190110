/* tile1d.cu — week 23, exercise 1: 1D register tiling.
 *
 * Week 22's tiled kernel does 2 shared-memory loads per FMA. Here a block of
 * 512 threads owns a 64 x 64 tile of C, and each thread owns 8 elements of
 * one column (TM = 8). In each step k it loads ONE value of B from shared
 * memory into a register and uses it for 8 FMAs with 8 values of A: about
 * 1.1 shared loads per FMA, and 8 results per thread to hide latency with. */
#include "tile1d.h"

#define T1_BM 64
#define T1_BN 64
#define T1_BK 8
#define T1_TM 8
#define T1_THREADS (T1_BM * T1_BN / T1_TM) /* 512 */

//@solution
static __global__ void __launch_bounds__(T1_THREADS)
    sgemm_1d_kernel(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B,
                    float *__restrict__ C)
{
    __shared__ float As[T1_BM * T1_BK];
    __shared__ float Bs[T1_BK * T1_BN];
    static_assert(T1_BM * T1_BK == T1_THREADS && T1_BK * T1_BN == T1_THREADS, "one tile element per thread");
    const int tid = threadIdx.x;
    const int tcol = tid % T1_BN, trow = tid / T1_BN; /* trow: which 8-row slice */
    const int r0 = blockIdx.y * T1_BM, c0 = blockIdx.x * T1_BN;
    const int ar = tid / T1_BK, ac = tid % T1_BK, br = tid / T1_BN, bc = tid % T1_BN;
    float acc[T1_TM] = {};
    for (int k0 = 0; k0 < K; k0 += T1_BK) {
        As[ar * T1_BK + ac] = (r0 + ar < M && k0 + ac < K) ? A[(size_t)(r0 + ar) * K + k0 + ac] : 0.0f;
        Bs[br * T1_BN + bc] = (k0 + br < K && c0 + bc < N) ? B[(size_t)(k0 + br) * N + c0 + bc] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T1_BK; k++) {
            float b = Bs[k * T1_BN + tcol];
#pragma unroll
            for (int i = 0; i < T1_TM; i++) acc[i] += As[(trow * T1_TM + i) * T1_BK + k] * b;
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < T1_TM; i++) {
        int r = r0 + trow * T1_TM + i, c = c0 + tcol;
        if (r < M && c < N) C[(size_t)r * N + c] = acc[i];
    }
}
//@starter
//| /* TODO: 512 threads own a 64 x 64 tile of C, 8 rows of one column each.
//|  * Per step of 8 along K: each thread loads one element of the 64 x 8 A
//|  * tile and one of the 8 x 64 B tile into shared memory (0.0f out of
//|  * range), __syncthreads(); then for each k one B value into a register,
//|  * 8 FMAs into float acc[8]; __syncthreads(). Store the 8 results. */
//| static __global__ void sgemm_1d_kernel(int M, int N, int K, const float *A, const float *B, float *C)
//| {
//| }
//@end

cudaError_t tile1d_sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
    if (M <= 0 || N <= 0) return cudaSuccess;
    dim3 grid((N + T1_BN - 1) / T1_BN, (M + T1_BM - 1) / T1_BM);
    sgemm_1d_kernel<<<grid, T1_THREADS>>>(M, N, K, A, B, C);
    return cudaGetLastError();
}
