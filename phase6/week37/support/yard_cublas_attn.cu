/* yard_cublas_attn.cu — week 37, given: attention on cuBLAS in FP32, the
 * yardstick (cuBLAS) of the speed checkpoint: week 34's pipeline, with the
 * causal mask folded into the softmax so that no kernel of its own runs for
 * it. The two products are the library's FP32 GEMMs, batched over the heads;
 * the softmax reads a row once and writes it once, a copy's traffic. What it
 * pays and the flash kernel does not: the S x S scores written, read and
 * written, then read by the second GEMM, and, when causal, the masked half
 * of both products computed anyway (a GEMM has no mask). */
#include <limits.h>
#include <math.h>
#include "yard_cublas_attn.h"

#define YC_THREADS 256

static __device__ float yc_block_max(float v, float *red)
{
    for (int lane_gap = 16; lane_gap >= 1; lane_gap /= 2) v = fmaxf(v, __shfl_xor_sync(~0u, v, lane_gap));
    if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = v;
    __syncthreads();
    v = red[0];
    for (int w = 1; w < YC_THREADS / 32; w++) v = fmaxf(v, red[w]);
    __syncthreads(); /* everyone has read red before it is reused */
    return v;
}

static __device__ float yc_block_sum(float v, float *red)
{
    for (int lane_gap = 16; lane_gap >= 1; lane_gap /= 2) v += __shfl_xor_sync(~0u, v, lane_gap);
    if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = v;
    __syncthreads();
    v = 0.0f;
    for (int w = 0; w < YC_THREADS / 32; w++) v += red[w];
    __syncthreads();
    return v;
}

/* One block a row of S scores (row r of the flattened bh x S rows is query
 * r % S of its head), NE scores a thread in registers: thread t owns keys
 * t, t + 256, ..., so every warp access is 128 contiguous bytes. Causal:
 * keys past the query are not read and are written as 0. */
template <int NE>
static __global__ void __launch_bounds__(YC_THREADS) yc_softmax(float *sc, int S, int causal)
{
    __shared__ float red[YC_THREADS / 32];
    const size_t r = blockIdx.x;
    float *row = sc + r * (size_t)S;
    const int n = causal ? (int)(r % (size_t)S) + 1 : S; /* keys this query sees */
    float x[NE];
    float m = -INFINITY;
#pragma unroll
    for (int e = 0; e < NE; e++) {
        const int j = (int)threadIdx.x + YC_THREADS * e;
        x[e] = j < n ? row[j] : -INFINITY;
        m = fmaxf(m, x[e]);
    }
    m = yc_block_max(m, red);
    float s = 0.0f;
#pragma unroll
    for (int e = 0; e < NE; e++) {
        const int j = (int)threadIdx.x + YC_THREADS * e;
        x[e] = j < n ? __expf(x[e] - m) : 0.0f;
        s += x[e];
    }
    const float inv = 1.0f / yc_block_sum(s, red);
#pragma unroll
    for (int e = 0; e < NE; e++) {
        const int j = (int)threadIdx.x + YC_THREADS * e;
        if (j < S) row[j] = x[e] * inv;
    }
}

template <int NE> static cudaError_t yc_softmax_launch(float *sc, int rows, int S, int causal)
{
    yc_softmax<NE><<<(unsigned)rows, YC_THREADS>>>(sc, S, causal);
    return cudaGetLastError();
}

size_t yard_attn_cublas_workspace_bytes(int bh, int S)
{
    return bh > 0 && S > 0 ? (size_t)bh * S * S * sizeof(float) : 0;
}

cudaError_t yard_attn_cublas(cublasHandle_t h, const float *q, const float *k, const float *v, float *o,
                             float *scores, int bh, int S, int D, float scale, int causal)
{
    if (!h || bh < 0 || S < 0 || S > YARD_CUBLAS_MAX_S || D < 1 || (long long)bh * S > INT_MAX)
        return cudaErrorInvalidValue;
    if (!bh || !S) return cudaSuccess; /* nothing to attend */
    const float zero = 0.0f, one = 1.0f;
    const long long sd = (long long)S * D, ss = (long long)S * S;
    /* Row-major scores (S x S) = Q K^T is column-major scores^T = K Q^T: K's
     * storage read by columns is K^T (D x S, ld D), so A = K transposed,
     * B = Q as it is. */
    if (cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, S, S, D, &scale, k, D, sd, q, D, sd, &zero, scores, S,
                                  ss, bh) != CUBLAS_STATUS_SUCCESS)
        return cudaErrorUnknown;
    const int rows = bh * S;
    cudaError_t e;
    if (S <= YC_THREADS * 1) e = yc_softmax_launch<1>(scores, rows, S, causal);
    else if (S <= YC_THREADS * 2) e = yc_softmax_launch<2>(scores, rows, S, causal);
    else if (S <= YC_THREADS * 4) e = yc_softmax_launch<4>(scores, rows, S, causal);
    else if (S <= YC_THREADS * 8) e = yc_softmax_launch<8>(scores, rows, S, causal);
    else if (S <= YC_THREADS * 16) e = yc_softmax_launch<16>(scores, rows, S, causal);
    else if (S <= YC_THREADS * 32) e = yc_softmax_launch<32>(scores, rows, S, causal);
    else e = yc_softmax_launch<64>(scores, rows, S, causal);
    if (e != cudaSuccess) return e;
    /* Row-major O (S x D) = P V is column-major O^T = V^T P^T: V's storage is
     * V^T (D x S, ld D), P's is P^T (ld S), neither transposed. */
    if (cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, D, S, S, &one, v, D, sd, scores, S, ss, &zero, o, D,
                                  sd, bh) != CUBLAS_STATUS_SUCCESS)
        return cudaErrorUnknown;
    return cudaGetLastError();
}
