/* naive.cu — week 21, exercise 1: the naive SGEMM and the TFLOP/s formula.
 *
 * One thread computes one element of C with a K-long dot product. The mapping
 * is the textbook one and deliberately the wrong way round for the memory
 * system: threadIdx.x picks the ROW, so the 32 lanes of a warp read A from 32
 * rows K floats apart and store C 32 rows N floats apart; every load is its
 * own 32-byte sector. The next exercise (coalesced.cu) swaps the roles. */
#include <math.h>
#include "naive.h"

//@solution
static __global__ void sgemm_naive_kernel(int M, int N, int K, const float *__restrict__ A,
                                          const float *__restrict__ B, float *__restrict__ C)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x; /* lanes walk rows: uncoalesced */
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float s = 0.0f;
    for (int k = 0; k < K; k++) s += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = s;
}
//@starter
//| /* TODO: one thread per element of C. row from threadIdx.x (this version
//|  * is meant to be the slow one), col from threadIdx.y; guard both; sum
//|  * A[row*K + k] * B[k*N + col] over k in a float and store it. */
//| static __global__ void sgemm_naive_kernel(int M, int N, int K, const float *A, const float *B, float *C)
//| {
//| }
//@end

cudaError_t naive_sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
    //@solution
    if (M <= 0 || N <= 0) return cudaSuccess;
    dim3 block(32, 32);
    dim3 grid((M + 31) / 32, (N + 31) / 32);
    sgemm_naive_kernel<<<grid, block>>>(M, N, K, A, B, C);
    return cudaGetLastError();
    //@starter
    //| /* TODO: 32 x 32 blocks, a grid covering M (x) and N (y); launch nothing
    //|  * when M or N is 0; return cudaGetLastError(). */
    //| sgemm_naive_kernel<<<1, 1>>>(M, N, K, A, B, C);
    //| return cudaGetLastError();
    //@end
}

double naive_gemm_tflops(int M, int N, int K, double ms)
{
    //@solution
    if (!(ms > 0)) return NAN;
    return 2.0 * (double)M * (double)N * (double)K / (ms * 1e-3) / 1e12;
    //@starter
    //| /* TODO: 2 flops per multiply-add, M*N*K of them, in `ms` milliseconds.
    //|  * Mind the int overflow; NaN when ms <= 0. */
    //| (void)M, (void)N, (void)K, (void)ms;
    //| return 0.0;
    //@end
}
