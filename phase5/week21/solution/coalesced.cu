/* coalesced.cu — week 21, exercise 2: the same dot products, coalesced.
 *
 * Now threadIdx.x picks the COLUMN. In one step of the k loop the 32 lanes
 * of a warp read 32 consecutive floats of a B row (one 128-byte line), all
 * read the same A element (one broadcast) and, at the end, store 32
 * consecutive floats of C. Same flops, same algorithm, a fraction of the
 * memory transactions: several times faster. */
#include "coalesced.h"

//@solution
static __global__ void sgemm_coalesced_kernel(int M, int N, int K, const float *__restrict__ A,
                                              const float *__restrict__ B, float *__restrict__ C)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x; /* lanes walk columns: coalesced */
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    const float *a = A + (size_t)row * K;
    float s = 0.0f;
    for (int k = 0; k < K; k++) s += a[k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = s;
}
//@starter
//| /* TODO: the naive kernel with the roles swapped: col from threadIdx.x,
//|  * row from threadIdx.y, so a warp reads consecutive floats of B and C. */
//| static __global__ void sgemm_coalesced_kernel(int M, int N, int K, const float *A, const float *B, float *C)
//| {
//| }
//@end

cudaError_t coalesced_sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
    //@solution
    if (M <= 0 || N <= 0) return cudaSuccess;
    dim3 block(32, 32);
    dim3 grid((N + 31) / 32, (M + 31) / 32);
    sgemm_coalesced_kernel<<<grid, block>>>(M, N, K, A, B, C);
    return cudaGetLastError();
    //@starter
    //| /* TODO: 32 x 32 blocks, a grid covering N (x) and M (y); nothing when
    //|  * M or N is 0; return cudaGetLastError(). */
    //| sgemm_coalesced_kernel<<<1, 1>>>(M, N, K, A, B, C);
    //| return cudaGetLastError();
    //@end
}
