/* judge_w60_kernels.cu — week 60's judge's own kernels (judge_w60_kernels.h). */
#include <math.h>

#include "judge_w60.h"
#include "judge_w60_kernels.h"
#include "support/fp8_fill.h"

/* test_week60.c's tolerance (BF16_RTOL, BF16_ATOL, BF16_INF_AT) */
#define W60_RTOL (0x1p-8 + 0x1p-20)
#define W60_ATOL 0x1p-133
#define W60_INF_AT (0x1p128 * (1.0 - 0x1p-9))

static __global__ void fill_kernel(uint8_t *in, int M, int N, int K, unsigned long long seed_a,
                                   unsigned long long seed_b, int range, int ea, int eb, float sa, float sb)
{
    const size_t na = (size_t)M * K, nb = (size_t)N * K, boff = W60_B_AT(M, K);
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < na + nb; i += (size_t)gridDim.x * blockDim.x) {
        if (i < na) in[i] = fp8_fill_code(fp8_fill_int(seed_a, i, range), ea);
        else in[boff + (i - na)] = fp8_fill_code(fp8_fill_int(seed_b, i - na, range), eb);
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float *s = (float *)(in + W60_S_AT(M, N, K));
        s[0] = sa, s[1] = s[2] = s[3] = 0.f, s[4] = sb;
    }
}

extern "C" cudaError_t jd_w60_fill(uint8_t *in, int M, int N, int K, unsigned long long seed_a,
                                   unsigned long long seed_b, int range, int ea, int eb, float sa, float sb)
{
    fill_kernel<<<4096, 256>>>(in, M, N, K, seed_a, seed_b, range, ea, eb, sa, sb);
    return cudaGetLastError();
}

static __global__ void ints_kernel(int8_t *v, size_t n, unsigned long long seed, int range)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        v[i] = (int8_t)fp8_fill_int(seed, i, range);
}

extern "C" cudaError_t jd_w60_ints(int8_t *v, size_t n, unsigned long long seed, int range, cudaStream_t stream)
{
    ints_kernel<<<4096, 256, 0, stream>>>(v, n, seed, range);
    return cudaGetLastError();
}

static __device__ float bf16_value(uint16_t b) { return __uint_as_float((unsigned)b << 16); }

/* test_week60.c's out_ok */
static __device__ int out_ok(uint16_t bits, double ref, double allow)
{
    const double got = (double)bf16_value(bits);
    if (isnan(ref)) return isnan(got);
    if (isnan(got)) return 0;
    const double tol = allow * (1 + W60_RTOL) + W60_RTOL * fabs(ref) + W60_ATOL;
    if (isinf(got)) return (got > 0) == (ref > 0) && fabs(ref) + tol >= W60_INF_AT;
    return fabs(got - ref) <= tol && fabs(ref) - tol < W60_INF_AT;
}

/* 64 x 64 outputs a block of 256 threads, 4 x 4 a thread; k in steps of 32
 * (one wgmma slice, ref_dot's): each output's exact integer sum P and, per
 * slice, T = |P before the slice| + the slice's sum of |a_k b_k|: where T
 * reaches 2^11 the allowance grows by 2^-5 T (ref_dot), in units. */
enum { CT = 64, CK = 32 };
static __global__ void check_kernel(const int8_t *av, const int8_t *bv, const uint16_t *D, int M, int N, int K,
                                    double s, unsigned long long *bad)
{
    __shared__ int sa[CT][CK / 4 + 1], sb[CT][CK / 4 + 1];
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const int i0 = blockIdx.y * CT, j0 = blockIdx.x * CT;
    int P[4][4] = {}, E[4][4] = {}; /* E: the allowance's sum of T, in units */
    for (int k0 = 0; k0 < K; k0 += CK) {
        for (int t = threadIdx.x; t < CT * CK / 4; t += blockDim.x) {
            const int r = t / (CK / 4), c = t % (CK / 4);
            sa[r][c] = *(const int *)(av + (size_t)(i0 + r) * K + k0 + 4 * c);
            sb[r][c] = *(const int *)(bv + (size_t)(j0 + r) * K + k0 + 4 * c);
        }
        __syncthreads();
        int part[4][4] = {}, mag[4][4] = {};
        for (int c = 0; c < CK / 4; c++)
            for (int u = 0; u < 4; u++) {
                const int a = sa[ty + 16 * u][c], aa = (int)__vabsss4((unsigned)a);
                for (int w = 0; w < 4; w++) {
                    const int b = sb[tx + 16 * w][c];
                    part[u][w] = __dp4a(a, b, part[u][w]);
                    mag[u][w] = __dp4a(aa, (int)__vabsss4((unsigned)b), mag[u][w]);
                }
            }
        for (int u = 0; u < 4; u++)
            for (int w = 0; w < 4; w++) {
                const int T = abs(P[u][w]) + mag[u][w];
                if (T >= 2048) E[u][w] += T;
                P[u][w] += part[u][w];
            }
        __syncthreads();
    }
    for (int u = 0; u < 4; u++)
        for (int w = 0; w < 4; w++) {
            const size_t i = (size_t)i0 + ty + 16 * u, j = (size_t)j0 + tx + 16 * w;
            const double ref = s * (double)P[u][w], allow = fabs(s) * 0x1p-5 * (double)E[u][w];
            if (!out_ok(D[i * N + j], ref, allow)) {
                atomicAdd(&bad[0], 1ull);
                atomicMin(&bad[1], (unsigned long long)(i * N + j));
            }
        }
}

extern "C" cudaError_t jd_w60_check(const int8_t *av, const int8_t *bv, const uint16_t *D, int M, int N, int K,
                                    double s, unsigned long long *bad, cudaStream_t stream)
{
    if (M % CT || N % CT || K % CK) return cudaErrorInvalidValue;
    const unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, stream);
    if (e != cudaSuccess) return e;
    check_kernel<<<dim3((unsigned)(N / CT), (unsigned)(M / CT)), 256, 0, stream>>>(av, bv, D, M, N, K, s, bad);
    return cudaGetLastError();
}
