/* yard_sgemm_simt.cu — given: an FP32 CUDA-core GEMM for week 26's
 * w26.tc-wins (tensor cores against the CUDA cores on the same problem).
 * It is a register-tiled SGEMM, so it lives with week 26 and is released
 * only with it, never with the SGEMM weeks 21-24 that teach that technique. */
#include <cuda_runtime.h>
#include "yard_sgemm_simt.h"

/* 64 x 64 tile of C per block of 256 threads, each thread 4 x 4 outputs;
 * K in steps of 16 through shared memory; every load guarded. */
static __global__ void __launch_bounds__(256) sgemm_simt_kernel(const float *__restrict__ A, const float *__restrict__ B,
                                                                float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[16][64 + 4]; /* As[k][m] */
    __shared__ float Bs[16][64 + 4]; /* Bs[k][n] */
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int i = threadIdx.x; i < 64 * 16; i += 256) {
            int r = i / 16, k = i % 16; /* A: 64 rows x 16 k */
            int gm = m0 + r, gk = k0 + k;
            As[k][r] = (gm < M && gk < K) ? A[(size_t)gm * K + gk] : 0.f;
            int kb = i / 64, c = i % 64; /* B: 16 k x 64 cols */
            int gkb = k0 + kb, gn = n0 + c;
            Bs[kb][c] = (gkb < K && gn < N) ? B[(size_t)gkb * N + gn] : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 16; k++) {
            float a[4], b[4];
#pragma unroll
            for (int i = 0; i < 4; i++) a[i] = As[k][ty * 4 + i], b[i] = Bs[k][tx * 4 + i];
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            int r = m0 + ty * 4 + i, c = n0 + tx * 4 + j;
            if (r < M && c < N) C[(size_t)r * N + c] = acc[i][j];
        }
}

extern "C" cudaError_t yard_sgemm_simt(const float *A, const float *B, float *C, int M, int N, int K)
{
    if (M <= 0 || N <= 0) return cudaSuccess;
    dim3 grid((N + 63) / 64, (M + 63) / 64);
    sgemm_simt_kernel<<<grid, 256>>>(A, B, C, M, N, K);
    return cudaGetLastError();
}
