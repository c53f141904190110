/* judge_w61_kernels.cu — week 61's judge's own kernels (judge_w61_kernels.h). */
#include <cuda_fp16.h>
#include <math.h>

#include "judge_w61.h"
#include "judge_w61_kernels.h"
#include "wb_hd.h"

static __device__ uint16_t h16(float v) { return __half_as_ushort(__float2half_rn(v)); }

static __global__ void fill_kernel(uint8_t *in, int M, int N, int K, unsigned long long sx, unsigned long long sw,
                                   int dense)
{
    const size_t nx = (size_t)M * K, ng = (size_t)N * (K / 4), nm = (size_t)(N / 16) * (K / 64) * 32;
    uint16_t *x = (uint16_t *)in, *w = (uint16_t *)(in + W61_V_AT(M, K));
    uint32_t *meta = (uint32_t *)(in + W61_E_AT(M, N, K));
    const size_t total = nx + ng + (dense ? 0 : nm), step = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        if (i < nx) {
            x[i] = dense == 2 ? h16(wb_hash_uniform(sx, i, -1.f, 1.f)) : h16((float)w61_xint(sx, i) * 0.125f);
        } else if (i < nx + ng) {
            const size_t g = i - nx;
            const int p = w61_pair(sw, g);
            uint16_t v0 = h16((float)w61_wint(sw, g, 0) * 0.0625f), v1 = h16((float)w61_wint(sw, g, 1) * 0.0625f);
            if (dense == 2) { /* the test's kind: a row's amplitude (a power of two, 1 to 2^-6) times uniform values */
                const float amp = ldexpf(1.f, -(int)(wb_hash_bits(sw ^ 0xa3, g / (size_t)(K / 4)) % 7u));
                v0 = h16(amp * wb_hash_uniform(sw, 2 * g, -1.f, 1.f)), v1 = h16(amp * wb_hash_uniform(sw, 2 * g + 1, -1.f, 1.f));
            }
            if (dense) {
                uint16_t *o = w + 4 * g; /* row n = g / (K/4), k = 4 (g % (K/4)): W[n][k] at n K + k = 4 g */
                for (int j = 0; j < 4; j++) o[j] = j == w61_i0(p) ? v0 : j == w61_i1(p) ? v1 : 0;
            } else {
                w[2 * g] = v0, w[2 * g + 1] = v1; /* vals[n][2q + s] at n K/2 + 2q + s = 2 g + s */
            }
        } else {
            /* word 4 gr + t of block (b, j): rows 16 b + gr (bits 0-15) and + 8 (16-31), k 64 j + 16 t .. + 15 */
            const size_t wi = i - nx - ng, blk = wi / 32;
            const int lane = (int)(wi % 32), gr = lane / 4, t = lane % 4;
            const size_t b = blk / (size_t)(K / 64), j = blk % (size_t)(K / 64);
            uint32_t word = 0;
            for (int h = 0; h < 2; h++)
                for (int u = 0; u < 4; u++) {
                    const size_t r = 16 * b + gr + 8 * h, q = (64 * j + 16 * t + 4 * u) / 4;
                    const int p = w61_pair(sw, r * (size_t)(K / 4) + q);
                    word |= (uint32_t)(w61_i0(p) | w61_i1(p) << 2) << (16 * h + 4 * u);
                }
            meta[wi] = word;
        }
    }
}

extern "C" cudaError_t jd_w61_fill(uint8_t *in, int M, int N, int K, unsigned long long seed_x,
                                   unsigned long long seed_w, int dense)
{
    if (N % 16 || K % 64) return cudaErrorInvalidValue;
    fill_kernel<<<8192, 256>>>(in, M, N, K, seed_x, seed_w, dense);
    return cudaGetLastError();
}

static __global__ void ints_kernel(int8_t *xi, int8_t *wi, int M, int N, int K, unsigned long long sx,
                                   unsigned long long sw)
{
    const size_t nx = (size_t)M * K, ng = (size_t)N * (K / 4), step = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < nx + ng; i += step) {
        if (i < nx) {
            xi[i] = (int8_t)w61_xint(sx, i);
        } else {
            const size_t g = i - nx;
            const int p = w61_pair(sw, g), a = w61_wint(sw, g, 0), b = w61_wint(sw, g, 1);
            for (int j = 0; j < 4; j++) wi[4 * g + j] = (int8_t)(j == w61_i0(p) ? a : j == w61_i1(p) ? b : 0);
        }
    }
}

extern "C" cudaError_t jd_w61_ints(int8_t *xi, int8_t *wi, int M, int N, int K, unsigned long long seed_x,
                                   unsigned long long seed_w, cudaStream_t stream)
{
    ints_kernel<<<8192, 256, 0, stream>>>(xi, wi, M, N, K, seed_x, seed_w);
    return cudaGetLastError();
}

/* each byte of a squared: |a| <= 8, so a^2 <= 64 fits a signed byte */
static __device__ int sq4(int a)
{
    int r = 0;
    for (int j = 0; j < 4; j++) {
        const int v = (int)(signed char)(a >> (8 * j));
        r |= (v * v) << (8 * j);
    }
    return r;
}

/* 64 x 64 outputs a block of 256 threads, 4 x 4 a thread; k in steps of 32
 * (8 words of 4 int8), dp4a: P = sum x w and Q = sum (x w)^2 exactly. */
enum { CT = 64, CK = 32 };
static __global__ void check_kernel(const int8_t *xi, const int8_t *wi, const uint16_t *y, int M, int N, int K,
                                    unsigned long long *bad)
{
    __shared__ int sx[CT][CK / 4 + 1], sw[CT][CK / 4 + 1], sx2[CT][CK / 4 + 1], sw2[CT][CK / 4 + 1];
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const int i0 = blockIdx.y * CT, j0 = blockIdx.x * CT;
    int P[4][4] = {}, Q[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += CK) {
        for (int t = threadIdx.x; t < CT * CK / 4; t += blockDim.x) {
            const int r = t / (CK / 4), c = t % (CK / 4);
            const int a = *(const int *)(xi + (size_t)(i0 + r) * K + k0 + 4 * c);
            const int b = *(const int *)(wi + (size_t)(j0 + r) * K + k0 + 4 * c);
            sx[r][c] = a, sw[r][c] = b, sx2[r][c] = sq4(a), sw2[r][c] = sq4(b);
        }
        __syncthreads();
        for (int c = 0; c < CK / 4; c++)
            for (int u = 0; u < 4; u++) {
                const int a = sx[ty + 16 * u][c], a2 = sx2[ty + 16 * u][c];
                for (int w = 0; w < 4; w++) {
                    P[u][w] = __dp4a(a, sw[tx + 16 * w][c], P[u][w]);
                    Q[u][w] = __dp4a(a2, sw2[tx + 16 * w][c], Q[u][w]);
                }
            }
        __syncthreads();
    }
    for (int u = 0; u < 4; u++)
        for (int w = 0; w < 4; w++) {
            const size_t i = (size_t)i0 + ty + 16 * u, j = (size_t)j0 + tx + 16 * w;
            const double ref = (double)P[u][w] * 0x1p-7, nrm = sqrt((double)Q[u][w]) * 0x1p-7;
            const double got = (double)__half2float(__ushort_as_half(y[i * N + j]));
            if (!(isfinite(got) && fabs(got - ref) <= 0x1p-11 * nrm + 0x1p-10 * fabs(ref) + 0x1p-24)) {
                atomicAdd(&bad[0], 1ull);
                atomicMin(&bad[1], (unsigned long long)(i * N + j));
            }
        }
}

extern "C" cudaError_t jd_w61_check(const int8_t *xi, const int8_t *wi, const uint16_t *y, int M, int N, int K,
                                    unsigned long long *bad, cudaStream_t stream)
{
    if (M % CT || N % CT || K % CK) return cudaErrorInvalidValue;
    const unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, stream);
    if (e != cudaSuccess) return e;
    check_kernel<<<dim3((unsigned)(N / CT), (unsigned)(M / CT)), 256, 0, stream>>>(xi, wi, y, M, N, K, bad);
    return cudaGetLastError();
}
