/* judge_w58_kernels.cu — week 58's judge's own kernels (judge_w58_kernels.h):
 * the timed decode's inputs made from a seed and the exact outputs they
 * give, computed from the seed again (never from the buffers the runner was
 * handed), in integers. */
#include <cuda_fp16.h>
#include <stdint.h>

#include "judge_w58_kernels.h"
#include "wb_hd.h"

/* splitmix64's finaliser over (seed, part, i) */
__device__ __forceinline__ uint64_t h64(unsigned long long seed, unsigned part, size_t i)
{
    uint64_t z = seed ^ (0x9e3779b97f4a7c15ull * (part + 1)) ^ (uint64_t)i * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* x[m][k] an integer -3 .. 3; word (kb, n); scale (g, n) 1 (2^-8) or 2 (2^-7) in units of 2^-8; zero (g, n) 0 .. 15 */
__device__ __forceinline__ int x_of(unsigned long long s, int K, int m, int k) { return (int)(h64(s, 0, (size_t)m * K + k) % 7) - 3; }
__device__ __forceinline__ uint32_t w_of(unsigned long long s, int N, int kb, int n) { return (uint32_t)h64(s, 1, (size_t)kb * N + n); }
__device__ __forceinline__ int s_of(unsigned long long s, int N, int g, int n) { return 1 + (int)(h64(s, 2, (size_t)g * N + n) & 1); }
__device__ __forceinline__ int z_of(unsigned long long s, int N, int g, int n) { return (int)(h64(s, 3, (size_t)g * N + n) & 15); }

/* FP16 bits of small integers and of the two scales */
__device__ __forceinline__ uint16_t half_int(int v) { return __half_as_ushort(__int2half_rn(v)); }

__global__ void fill_kernel(unsigned char *in, int M, int N, int K, unsigned long long seed, size_t o1, size_t o2,
                            size_t o3)
{
    const size_t nx = (size_t)M * K, nw = (size_t)K / 8 * N, ng = (size_t)K / 128 * N;
    uint16_t *x = (uint16_t *)in, *sc = (uint16_t *)(in + o2), *zr = (uint16_t *)(in + o3);
    uint32_t *w = (uint32_t *)(in + o1);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nx + nw + ng; i += (size_t)gridDim.x * blockDim.x) {
        if (i < nx) {
            x[i] = half_int(x_of(seed, K, (int)(i / K), (int)(i % K)));
        } else if (i < nx + nw) {
            const size_t j = i - nx;
            w[j] = w_of(seed, N, (int)(j / N), (int)(j % N));
        } else {
            const size_t j = i - nx - nw;
            const int g = (int)(j / N), n = (int)(j % N);
            sc[j] = s_of(seed, N, g, n) == 1 ? (uint16_t)0x1c00u : (uint16_t)0x2000u; /* 2^-8, 2^-7 */
            zr[j] = half_int(z_of(seed, N, g, n));
        }
    }
}

cudaError_t jd_w58_fill(unsigned char *in, int M, int N, int K, unsigned long long seed, cudaStream_t st)
{
    size_t off[5];
    w58_timed_layout((size_t)M, (size_t)N, (size_t)K, off);
    fill_kernel<<<1024, 256, 0, st>>>(in, M, N, K, seed, off[1], off[2], off[3]);
    return cudaGetLastError();
}

/* The exact y[m][n] in units of 2^-8 (|S| < 2^21 at K = 16384), to FP16 bits (nearest even: S 2^-8 is exact in float). */
__device__ __forceinline__ uint16_t y_bits(int S) { return __half_as_ushort(__float2half_rn(ldexpf((float)S, -8))); }

__device__ __forceinline__ int same_bits(uint16_t got, uint16_t want)
{
    return got == want || ((got | want) & 0x7fffu) == 0; /* +0 and -0 alike */
}

/* One thread a column, all M rows; x of a group (M x 128) in shared memory. */
enum { CK_THREADS = 256, CK_MAXM = 16 };
__global__ void check_kernel(const uint16_t *y, int M, int N, int K, unsigned long long seed, unsigned long long *bad)
{
    __shared__ signed char xs[CK_MAXM][128];
    const int n = blockIdx.x * CK_THREADS + threadIdx.x;
    int acc[CK_MAXM];
    for (int m = 0; m < CK_MAXM; m++) acc[m] = 0;
    for (int g = 0; g < K / 128; g++) {
        __syncthreads();
        for (int e = threadIdx.x; e < M * 128; e += CK_THREADS) xs[e / 128][e % 128] = (signed char)x_of(seed, K, e / 128, g * 128 + e % 128);
        __syncthreads();
        if (n >= N) continue;
        const int sc = s_of(seed, N, g, n), z = z_of(seed, N, g, n);
        for (int kb = 0; kb < 16; kb++) {
            const uint32_t w = w_of(seed, N, g * 16 + kb, n);
            for (int i = 0; i < 8; i++) {
                const int d = ((int)(w >> (4 * i) & 15u) - z) * sc;
                for (int m = 0; m < CK_MAXM; m++)
                    if (m < M) acc[m] += xs[m][kb * 8 + i] * d;
            }
        }
    }
    if (n >= N) return;
    for (int m = 0; m < M && m < CK_MAXM; m++) {
        const size_t e = (size_t)m * N + n;
        if (same_bits(y[e], y_bits(acc[m]))) continue;
        atomicAdd(bad, 1ull);
        atomicMin(bad + 1, (unsigned long long)e);
    }
}

cudaError_t jd_w58_check(const uint16_t *y, int M, int N, int K, unsigned long long seed, unsigned long long *bad,
                         cudaStream_t st)
{
    const unsigned long long init[2] = { 0, ~0ull };
    if (M > CK_MAXM) return cudaErrorInvalidValue;
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, st);
    if (e != cudaSuccess) return e;
    if (M == 0 || N == 0) return cudaSuccess;
    check_kernel<<<(N + CK_THREADS - 1) / CK_THREADS, CK_THREADS, 0, st>>>(y, M, N, K, seed, bad);
    return cudaGetLastError();
}

/* One warp a position: the two elements of word idx[j], the k loop over the lanes. */
__global__ void at_kernel(int M, int N, int K, unsigned long long seed, const unsigned long long *idx, int npos, float *out)
{
    const int j = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (j >= npos) return;
    uint32_t bits = 0;
    for (int h = 0; h < 2; h++) {
        const size_t e = (size_t)idx[j] * 2 + h;
        const int m = (int)(e / N), n = (int)(e % N);
        int S = 0;
        if (m < M)
            for (int k = lane; k < K; k += 32) {
                const int q = (int)(w_of(seed, N, k / 8, n) >> (4 * (k % 8)) & 15u);
                S += x_of(seed, K, m, k) * (q - z_of(seed, N, k / 128, n)) * s_of(seed, N, k / 128, n);
            }
        for (int o = 16; o; o >>= 1) S += __shfl_xor_sync(0xffffffffu, S, o);
        bits |= (uint32_t)(m < M ? y_bits(S) : 0xffffu) << (16 * h);
    }
    if (lane == 0) out[j] = __uint_as_float(bits);
}

cudaError_t jd_w58_at(int M, int N, int K, unsigned long long seed, const unsigned long long *idx, int npos,
                      float *out, cudaStream_t st)
{
    at_kernel<<<(npos + 7) / 8, 256, 0, st>>>(M, N, K, seed, idx, npos, out);
    return cudaGetLastError();
}

/* x (M x K halves) at in, then dequant(W) dense (K x N halves) at w58_dense_at(M, K): the same layer as
 * jd_w58_fill's, its weights dequantised (exactly: (q - z) s with s a power of two) */
__global__ void fill_dense_kernel(unsigned char *in, int M, int N, int K, unsigned long long seed, size_t o1)
{
    const size_t nx = (size_t)M * K, nw = (size_t)K * N;
    uint16_t *x = (uint16_t *)in, *w = (uint16_t *)(in + o1);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nx + nw; i += (size_t)gridDim.x * blockDim.x) {
        if (i < nx) {
            x[i] = half_int(x_of(seed, K, (int)(i / K), (int)(i % K)));
        } else {
            const size_t j = i - nx;
            const int k = (int)(j / N), n = (int)(j % N), g = k / 128;
            const int q = (int)(w_of(seed, N, k / 8, n) >> (4 * (k % 8)) & 15u);
            const int d = (q - z_of(seed, N, g, n)) * s_of(seed, N, g, n);
            w[j] = __half_as_ushort(__float2half_rn(ldexpf((float)d, -8)));
        }
    }
}

/* The test's kind of layer (x uniform in [-1, 1], scales in [2^-9, 2^-6], random words, integer zeros), x and
 * dequant(W) dense as fill_dense_kernel lays them out: what cuBLAS's time is taken on. */
__global__ void fill_dense_test_kernel(unsigned char *in, int M, int N, int K, unsigned long long seed, size_t o1)
{
    const size_t nx = (size_t)M * K, nw = (size_t)K * N;
    uint16_t *x = (uint16_t *)in, *w = (uint16_t *)(in + o1);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nx + nw; i += (size_t)gridDim.x * blockDim.x) {
        if (i < nx) {
            x[i] = __half_as_ushort(__float2half_rn(wb_hash_uniform(seed, i, -1.f, 1.f)));
        } else {
            const size_t j = i - nx;
            const int k = (int)(j / N), n = (int)(j % N), g = k / 128;
            const int q = (int)(w_of(seed, N, k / 8, n) >> (4 * (k % 8)) & 15u);
            const float sc = __half2float(__float2half_rn(wb_hash_uniform(seed ^ 0x5c, (size_t)g * N + n, 1.f, 8.f) *
                                                          (1.f / 512.f)));
            w[j] = __half_as_ushort(__float2half_rn((float)(q - z_of(seed, N, g, n)) * sc));
        }
    }
}

cudaError_t jd_w58_fill_dense_test(unsigned char *in, int M, int N, int K, unsigned long long seed, cudaStream_t st)
{
    fill_dense_test_kernel<<<1024, 256, 0, st>>>(in, M, N, K, seed, w58_dense_at((size_t)M, (size_t)K));
    return cudaGetLastError();
}

cudaError_t jd_w58_fill_dense(unsigned char *in, int M, int N, int K, unsigned long long seed, cudaStream_t st)
{
    fill_dense_kernel<<<1024, 256, 0, st>>>(in, M, N, K, seed, w58_dense_at((size_t)M, (size_t)K));
    return cudaGetLastError();
}

__global__ void same_kernel(const uint16_t *y, const uint16_t *ref, size_t n, unsigned long long *bad)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        if (!same_bits(y[i], ref[i])) {
            atomicAdd(bad, 1ull);
            atomicMin(bad + 1, (unsigned long long)i);
        }
}

cudaError_t jd_w58_same(const uint16_t *y, const uint16_t *ref, size_t n, unsigned long long *bad, cudaStream_t st)
{
    const unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, st);
    if (e != cudaSuccess || n == 0) return e;
    same_kernel<<<2048, 256, 0, st>>>(y, ref, n, bad);
    return cudaGetLastError();
}
