/* yard_slow.cu — week 11, given: a correct kernel with five performance bugs, each
 * one a different ncu section. Do not edit it: your polyt is timed against it.
 *
 *  1. uncoalesced loads: threadIdx.x walks down a column, so the 32 lanes of
 *     a warp read 32 different rows (32 sectors per request);
 *  2. accidental double precision: pow() on a double for odd lanes (the FP64
 *     pipe, and a long software sequence);
 *  3. divergence: odd and even lanes take different paths, so every warp runs
 *     both, one after the other;
 *  4. a local-memory array: the coefficients are copied into an array that is
 *     indexed with a value the compiler cannot know (local loads, like spills);
 *  5. bank conflicts: a staging tile [32][32] written and read down columns,
 *     32 lanes on one bank. */
#include <cuda_runtime.h>
#include <math.h>
#include "polyt.h"

static __global__ void slow_kernel(const float *in, float *out, int rows, int cols, const float *coef, int shift)
{
    __shared__ float tile[32][32];
    int r = blockIdx.x * 32 + threadIdx.x;
    int c = blockIdx.y * 32 + threadIdx.y;
    float x = (r < rows && c < cols) ? in[(size_t)r * cols + c] : 0.0f;
    float k[POLYT_TERMS];
    for (int j = 0; j < POLYT_TERMS; j++) k[j] = coef[j];
    float y = 0;
    if (threadIdx.x & 1) {
        for (int j = 0; j < POLYT_TERMS; j++) y += (float)(k[(j + shift) & (POLYT_TERMS - 1)] * pow((double)x, (double)j));
    } else {
        for (int j = POLYT_TERMS - 1; j >= 0; j--) y = y * x + k[(j + shift) & (POLYT_TERMS - 1)];
    }
    tile[threadIdx.x][threadIdx.y] = y;
    __syncthreads();
    if (r < rows && c < cols) out[(size_t)c * rows + r] = tile[threadIdx.x][threadIdx.y];
}

extern "C" cudaError_t yard_polyt_given(const float *in, float *out, int rows, int cols, const float *coef)
{
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    static float *dcoef = NULL; /* kept for the life of the process */
    cudaError_t e;
    if (!dcoef && (e = cudaMalloc(&dcoef, POLYT_TERMS * sizeof(float))) != cudaSuccess) return e;
    if ((e = cudaMemcpyAsync(dcoef, coef, POLYT_TERMS * sizeof(float), cudaMemcpyHostToDevice, 0)) != cudaSuccess) return e;
    dim3 block(32, 32), grid((rows + 31) / 32, (cols + 31) / 32);
    slow_kernel<<<grid, block>>>(in, out, rows, cols, dcoef, 0);
    return cudaGetLastError();
}
