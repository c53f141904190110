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

//@solution
template <bool CHECKED>
static __global__ void __launch_bounds__(V_THREADS)
    sgemm_vec4_kernel(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B,
                      float *__restrict__ C)
{
    __shared__ __align__(16) float As[V_BK][V_BM + V_PAD]; /* transposed: As[k][m] */
    __shared__ __align__(16) float Bs[V_BK][V_BN];
    const int tid = threadIdx.x;
    const int trow = tid / (V_BN / 8), tcol = tid % (V_BN / 8);
    const int r0 = blockIdx.y * V_BM, c0 = blockIdx.x * V_BN;
    const int ar = tid >> 1, ac = (tid & 1) << 2, br = tid >> 5, bc = (tid & 31) << 2;
    float acc[8][8] = {};
    for (int k0 = 0; k0 < K; k0 += V_BK) {
        float4 a = ld4<CHECKED>(A, r0 + ar, k0 + ac, M, K);
        float4 b = ld4<CHECKED>(B, k0 + br, c0 + bc, K, N);
        As[ac + 0][ar] = a.x, As[ac + 1][ar] = a.y, As[ac + 2][ar] = a.z, As[ac + 3][ar] = a.w;
        *reinterpret_cast<float4 *>(&Bs[br][bc]) = b;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < V_BK; k++) {
            float4 m0 = *reinterpret_cast<const float4 *>(&As[k][trow * 8]);
            float4 m1 = *reinterpret_cast<const float4 *>(&As[k][trow * 8 + 4]);
            float4 n0 = *reinterpret_cast<const float4 *>(&Bs[k][tcol * 8]);
            float4 n1 = *reinterpret_cast<const float4 *>(&Bs[k][tcol * 8 + 4]);
            const float rm[8] = { m0.x, m0.y, m0.z, m0.w, m1.x, m1.y, m1.z, m1.w };
            const float rn[8] = { n0.x, n0.y, n0.z, n0.w, n1.x, n1.y, n1.z, n1.w };
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++) acc[i][j] += rm[i] * rn[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 8; i++) {
        int r = r0 + trow * 8 + i, c = c0 + tcol * 8;
        st4<CHECKED>(C, r, c, M, N, make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]));
        st4<CHECKED>(C, r, c + 4, M, N, make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]));
    }
}
//@starter
//| /* TODO: week 23's 2D kernel (128 x 128 x 8 tile, 256 threads, 8 x 8 per
//|  * thread) with:
//|  *   __shared__ __align__(16) float As[V_BK][V_BM + V_PAD];  (A transposed)
//|  *   __shared__ __align__(16) float Bs[V_BK][V_BN];
//|  * per step: a = ld4<CHECKED>(A, r0 + tid/2, k0 + (tid%2)*4, M, K), stored
//|  * into As[k][m] one component at a time; b = ld4<CHECKED>(B, k0 + tid/32,
//|  * c0 + (tid%32)*4, K, N), stored as one float4. Read the 8 + 8 register
//|  * values as four float4 from shared memory; store C with st4<CHECKED>. */
//| template <bool CHECKED>
//| static __global__ void sgemm_vec4_kernel(int M, int N, int K, const float *A, const float *B, float *C)
//| {
//| }
//@end

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
