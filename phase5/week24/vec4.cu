/* vec4.cu — week 24, exercise 1: float4 loads and a transposed A tile.
 *
 * Week 23's 2D kernel, block tile 128 x 128 x 8, 256 threads, 8 x 8 results
 * per thread, with wider memory operations:
 *   - global memory: each thread loads ONE float4 of the A tile (row t/2,
 *     k (t%2)*4) and ONE float4 of the B tile (row t/32, column (t%32)*4)
 *     per step, instead of 4 + 4 scalar loads; C is stored as float4;
 *   - shared memory: A is stored transposed, As[k][m], so the 8 A values a
 *     thread needs at step k are contiguous: two 16-byte LDS.128 instead of
 *     8 scalar loads; B's 8 values are contiguous already. The transposed
 *     store would hit each bank twice; 4 floats of padding per row fix that.
 * float4 needs 16-byte alignment: the float4 path runs when M, N, K are
 * multiples of the tile and the pointers are aligned; otherwise the same
 * kernel is instantiated with CHECKED = true (scalar, guarded accesses). */
#include <stdint.h>
#include "vec4.h"

#define V_BM 128
#define V_BN 128
#define V_BK 8
#define V_PAD 4
#define V_THREADS 256

/* Given: 4 consecutive floats of a contiguous row-major matrix (rows x
 * cols) starting at (row, col). CHECKED reads them one by one, 0.0f
 * outside the matrix; otherwise one aligned float4 load. */
template <bool CHECKED>
static __device__ __forceinline__ float4 ld4(const float *__restrict__ p, int row, int col, int rows, int cols)
{
    if constexpr (!CHECKED) {
        return *reinterpret_cast<const float4 *>(p + (size_t)row * cols + col);
    } else {
        float v[4];
#pragma unroll
        for (int j = 0; j < 4; j++) v[j] = (row < rows && col + j < cols) ? p[(size_t)row * cols + col + j] : 0.0f;
        return make_float4(v[0], v[1], v[2], v[3]);
    }
}

template <bool CHECKED>
static __device__ __forceinline__ void st4(float *__restrict__ p, int row, int col, int rows, int cols, float4 v)
{
    if constexpr (!CHECKED) {
        *reinterpret_cast<float4 *>(p + (size_t)row * cols + col) = v;
    } else {
        const float w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
        for (int j = 0; j < 4; j++)
            if (row < rows && col + j < cols) p[(size_t)row * cols + col + j] = w[j];
    }
}

/* TODO: week 23's 2D kernel (128 x 128 x 8 tile, 256 threads, 8 x 8 per
 * thread) with:
 *   __shared__ __align__(16) float As[V_BK][V_BM + V_PAD];  (A transposed)
 *   __shared__ __align__(16) float Bs[V_BK][V_BN];
 * per step: a = ld4<CHECKED>(A, r0 + tid/2, k0 + (tid%2)*4, M, K), stored
 * into As[k][m] one component at a time; b = ld4<CHECKED>(B, k0 + tid/32,
 * c0 + (tid%32)*4, K, N), stored as one float4. Read the 8 + 8 register
 * values as four float4 from shared memory; store C with st4<CHECKED>. */
template <bool CHECKED>
static __global__ void sgemm_vec4_kernel(int M, int N, int K, const float *A, const float *B, float *C)
{
}

cudaError_t vec4_sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
    if (M <= 0 || N <= 0) return cudaSuccess;
    dim3 grid((N + V_BN - 1) / V_BN, (M + V_BM - 1) / V_BM);
    int full = M % V_BM == 0 && N % V_BN == 0 && K % V_BK == 0 &&
               (((uintptr_t)A | (uintptr_t)B | (uintptr_t)C) & 15) == 0;
    if (full) sgemm_vec4_kernel<false><<<grid, V_THREADS>>>(M, N, K, A, B, C);
    else sgemm_vec4_kernel<true><<<grid, V_THREADS>>>(M, N, K, A, B, C);
    return cudaGetLastError();
}
