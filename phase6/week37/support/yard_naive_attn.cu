/* yard_naive_attn.cu — week 37, given: attention the way it is written first,
 * printed beside the speed checkpoint's rows (its yardstick is cuBLAS,
 * support/yard_cublas_attn.cu).
 *
 * Three kernels a call, for all heads at once:
 *   1. na_scores: scores = scale * Q K^T, -inf where masked (keys past S do
 *      not exist here; causal: key j > query i), all S x S of them stored;
 *   2. na_softmax: each row of scores softmaxed in place (a block a row:
 *      max, sum of exp, normalise), masked entries become 0;
 *   3. na_pv: O = P V.
 * The two GEMMs use the same shared-memory tiles and 4 x 4 register tiles as
 * the first version of the flash kernel (the README's step 1: 64 x 64
 * outputs per block of 256 threads, padded shared rows, one float a load),
 * so the comparison with that version measures the algorithm, not a weaker
 * matrix multiply. What it pays and the flash kernel does not:
 * the S x S matrix written, read, written and read again (16 S^2 bytes a
 * head), and, when causal, every masked score computed anyway. */
#include <math.h>
#include "flash_attn.h"

#define NA_T 64    /* output tile edge */
#define NA_K 16    /* depth of one shared-memory step */
#define NA_THREADS 256

/* scores[h][i][j] = scale * sum_d Q[h][i][d] K[h][j][d], or -inf when masked. */
static __global__ void __launch_bounds__(NA_THREADS)
na_scores(const float *__restrict__ q, const float *__restrict__ k, float *__restrict__ sc, int S, int D,
          float scale, int causal)
{
    __shared__ float Qs[NA_T][NA_K + 1], Ks[NA_T][NA_K + 1];
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const int i0 = blockIdx.y * NA_T, j0 = blockIdx.x * NA_T;
    const size_t h = blockIdx.z;
    const float *qh = q + h * S * D, *kh = k + h * S * D;
    float acc[4][4] = {};
    for (int d0 = 0; d0 < D; d0 += NA_K) {
        for (int e = threadIdx.x; e < NA_T * NA_K; e += NA_THREADS) {
            int r = e / NA_K, d = e % NA_K;
            Qs[r][d] = i0 + r < S ? qh[(size_t)(i0 + r) * D + d0 + d] : 0.0f;
            Ks[r][d] = j0 + r < S ? kh[(size_t)(j0 + r) * D + d0 + d] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int d = 0; d < NA_K; d++) {
            float a[4], b[4];
#pragma unroll
            for (int x = 0; x < 4; x++) a[x] = Qs[ty + 16 * x][d], b[x] = Ks[tx + 16 * x][d];
#pragma unroll
            for (int x = 0; x < 4; x++)
#pragma unroll
                for (int y = 0; y < 4; y++) acc[x][y] = fmaf(a[x], b[y], acc[x][y]);
        }
        __syncthreads();
    }
    float *sh = sc + h * S * S;
#pragma unroll
    for (int x = 0; x < 4; x++) {
        int i = i0 + ty + 16 * x;
        if (i >= S) continue;
#pragma unroll
        for (int y = 0; y < 4; y++) {
            int j = j0 + tx + 16 * y;
            if (j < S) sh[(size_t)i * S + j] = causal && j > i ? -INFINITY : acc[x][y] * scale;
        }
    }
}

/* One block a row: max, sum of exp(x - max), then x = exp(x - max) / sum. */
static __global__ void __launch_bounds__(NA_THREADS) na_softmax(float *sc, int S)
{
    __shared__ float red[NA_THREADS / 32];
    float *row = sc + (size_t)blockIdx.x * S;
    const int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
    float mx = -INFINITY;
    for (int j = threadIdx.x; j < S; j += NA_THREADS) mx = fmaxf(mx, row[j]);
    for (int s = 16; s >= 1; s /= 2) mx = fmaxf(mx, __shfl_xor_sync(~0u, mx, s));
    if (lane == 0) red[wid] = mx;
    __syncthreads();
    mx = red[0];
    for (int w = 1; w < NA_THREADS / 32; w++) mx = fmaxf(mx, red[w]);
    __syncthreads(); /* everyone has read red before it is reused */
    float sum = 0.0f;
    for (int j = threadIdx.x; j < S; j += NA_THREADS) sum += expf(row[j] - mx);
    for (int s = 16; s >= 1; s /= 2) sum += __shfl_xor_sync(~0u, sum, s);
    if (lane == 0) red[wid] = sum;
    __syncthreads();
    sum = 0.0f;
    for (int w = 0; w < NA_THREADS / 32; w++) sum += red[w];
    const float inv = 1.0f / sum;
    for (int j = threadIdx.x; j < S; j += NA_THREADS) row[j] = expf(row[j] - mx) * inv;
}

/* O[h][i][d] = sum_j P[h][i][j] V[h][j][d]. */
static __global__ void __launch_bounds__(NA_THREADS)
na_pv(const float *__restrict__ p, const float *__restrict__ v, float *__restrict__ o, int S, int D)
{
    __shared__ float Ps[NA_T][NA_K + 1], Vs[NA_K][NA_T];
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const int i0 = blockIdx.y * NA_T, c0 = blockIdx.x * NA_T;
    const size_t h = blockIdx.z;
    const float *ph = p + h * S * S, *vh = v + h * S * D;
    float acc[4][4] = {};
    for (int j0 = 0; j0 < S; j0 += NA_K) {
        for (int e = threadIdx.x; e < NA_T * NA_K; e += NA_THREADS) {
            int r = e / NA_K, c = e % NA_K;      /* Ps: row r, key c (16 keys of a row are contiguous) */
            Ps[r][c] = i0 + r < S && j0 + c < S ? ph[(size_t)(i0 + r) * S + j0 + c] : 0.0f;
            int vr = e / NA_T, vc = e % NA_T;    /* Vs: key vr, column vc */
            Vs[vr][vc] = j0 + vr < S && c0 + vc < D ? vh[(size_t)(j0 + vr) * D + c0 + vc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int c = 0; c < NA_K; c++) {
            float a[4], b[4];
#pragma unroll
            for (int x = 0; x < 4; x++) a[x] = Ps[ty + 16 * x][c], b[x] = Vs[c][tx + 16 * x];
#pragma unroll
            for (int x = 0; x < 4; x++)
#pragma unroll
                for (int y = 0; y < 4; y++) acc[x][y] = fmaf(a[x], b[y], acc[x][y]);
        }
        __syncthreads();
    }
    float *oh = o + h * S * D;
#pragma unroll
    for (int x = 0; x < 4; x++) {
        int i = i0 + ty + 16 * x;
        if (i >= S) continue;
#pragma unroll
        for (int y = 0; y < 4; y++) {
            int c = c0 + tx + 16 * y;
            if (c < D) oh[(size_t)i * D + c] = acc[x][y];
        }
    }
}

size_t yard_attn_naive_workspace_bytes(int bh, int S)
{
    return bh > 0 && S > 0 ? (size_t)bh * S * S * sizeof(float) : 0;
}

cudaError_t yard_attn_naive(const float *q, const float *k, const float *v, float *o, float *scores, int bh, int S,
                            int D, float scale, int causal)
{
    if (D <= 0 || D % NA_K || bh < 0 || bh > 65535 || S < 0 || S > 65535 * NA_T || (size_t)bh * S > 0x7fffffffu)
        return cudaErrorInvalidValue; /* grid limits: z = bh, y = S / 64 tiles, x = bh * S rows */
    if (S == 0 || bh == 0) return cudaSuccess; /* nothing to compute */
    const unsigned tiles = (unsigned)((S + NA_T - 1) / NA_T);
    na_scores<<<dim3(tiles, tiles, bh), NA_THREADS>>>(q, k, scores, S, D, scale, causal);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    na_softmax<<<(unsigned)((size_t)bh * S), NA_THREADS>>>(scores, S);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    na_pv<<<dim3((unsigned)((D + NA_T - 1) / NA_T), tiles, bh), NA_THREADS>>>(scores, v, o, S, D);
    return cudaGetLastError();
}
