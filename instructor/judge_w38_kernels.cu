// judge_w38_kernels.cu — week 38's judge's own kernels (judge_w38_kernels.h).
// The reference is the test's ref_row (test_week38.c) on the GPU: the scores
// q.k of the bf16 values in double, the softmax and P V in double, one warp a
// query row; a row re-derived on the host takes about a millisecond at
// S = 4096, and a timed output has 262144 of them.
#include <math.h>
#include <stdint.h>

#include "judge_w38_kernels.h"

enum { WARPS = 8, MAX_D = 128 };

static __device__ __forceinline__ float bf(unsigned h) { return __uint_as_float((h & 0xffffu) << 16); }

// Floats to bf16, to nearest even (the values are finite).
static __global__ void to_bf16_k(const float *f, uint16_t *h, size_t n)
{
    for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < n; e += (size_t)gridDim.x * blockDim.x) {
        unsigned b = __float_as_uint(f[e]);
        b += 0x7fffu + ((b >> 16) & 1u);
        h[e] = (uint16_t)(b >> 16);
    }
}

extern "C" cudaError_t jd_w38_to_bf16(const float *f, uint16_t *h, size_t n, cudaStream_t st)
{
    if (n == 0) return cudaSuccess;
    to_bf16_k<<<2048, 256, 0, st>>>(f, h, n);
    return cudaGetLastError();
}

// One query row, by the whole warp: q (D bf16), kh and vh its head's keys
// and values (S x D bf16, 16-byte aligned rows), n the keys it sees. Keys
// 32 at a time, a lane a key for the score, then the lanes split d for
// P V (o[c] is d = lane + 32 c); online softmax in double. sq: D floats of
// shared memory for this warp.
template <int DC>
static __device__ void ref_row(const uint16_t *q, const uint16_t *kh, const uint16_t *vh, int n, double scale,
                               float *sq, double o[DC], double *lse)
{
    const int lane = threadIdx.x & 31, D = DC * 32;
    __syncwarp();
    for (int d = lane; d < D; d += 32) sq[d] = bf(q[d]);
    __syncwarp();
    double m = -INFINITY, l = 0;
    for (int c = 0; c < DC; c++) o[c] = 0;
    for (int j0 = 0; j0 < n; j0 += 32) {
        const int j = j0 + lane;
        double s = -INFINITY;
        if (j < n) {
            const uint4 *kr = (const uint4 *)(kh + (size_t)j * D);
            double acc = 0;
            for (int w = 0; w < D / 8; w++) {
                const uint4 u = kr[w];
                const unsigned x[4] = { u.x, u.y, u.z, u.w };
                for (int h = 0; h < 4; h++) {
                    acc += (double)sq[8 * w + 2 * h] * (double)bf(x[h]);
                    acc += (double)sq[8 * w + 2 * h + 1] * (double)bf(x[h] >> 16);
                }
            }
            s = acc * scale;
        }
        double cm = s;
        for (int off = 16; off; off >>= 1) cm = fmax(cm, __shfl_xor_sync(0xffffffffu, cm, off));
        const double mn = fmax(m, cm); // finite: key j0 is seen
        const double alpha = exp(m - mn); // 0 on the first tile (m = -inf)
        const double p = j < n ? exp(s - mn) : 0.0;
        l = l * alpha + p;
        for (int c = 0; c < DC; c++) o[c] *= alpha;
        const int cnt = n - j0 < 32 ? n - j0 : 32; // the same in every lane
        for (int jj = 0; jj < cnt; jj++) {
            const double pj = __shfl_sync(0xffffffffu, p, jj);
            const uint16_t *vr = vh + (size_t)(j0 + jj) * D + lane;
            for (int c = 0; c < DC; c++) o[c] += pj * (double)bf(vr[32 * c]);
        }
        m = mn;
    }
    for (int off = 16; off; off >>= 1) l += __shfl_xor_sync(0xffffffffu, l, off);
    for (int c = 0; c < DC; c++) o[c] /= l;
    *lse = m + log(l);
}

static __device__ bool off_by(double got, double ref, double atol, double rtol)
{
    return !(fabs(got - ref) <= atol + rtol * fabs(ref)); // NaN never passes
}

template <int DC>
static __global__ void check_k(const uint16_t *Q, const uint16_t *K, const uint16_t *V, const uint16_t *O,
                               const float *lse, long long rows, int S, int causal, double scale, double atol,
                               double rtol, double latol, double lrtol, unsigned long long *bad)
{
    __shared__ float sq[WARPS][MAX_D];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, D = DC * 32;
    const size_t n = (size_t)rows * D, hs = (size_t)S * D;
    for (long long r = (long long)blockIdx.x * WARPS + warp; r < rows; r += (long long)gridDim.x * WARPS) {
        const long long bh = r / S;
        const int i = (int)(r % S);
        double o[DC], ls;
        ref_row<DC>(Q + (size_t)r * D, K + bh * hs, V + bh * hs, causal ? i + 1 : S, scale, sq[warp], o, &ls);
        for (int c = 0; c < DC; c++) {
            const size_t e = (size_t)r * D + lane + 32 * c;
            if (off_by(bf(O[e]), o[c], atol, rtol)) {
                atomicAdd(&bad[0], 1ull);
                atomicMin(&bad[1], (unsigned long long)e);
            }
        }
        if (lse && lane == 0 && off_by(lse[r], ls, latol, lrtol)) {
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)(n + r));
        }
    }
}

extern "C" cudaError_t jd_w38_attn_check(const uint16_t *Q, const uint16_t *K, const uint16_t *V, const uint16_t *O,
                                         const float *lse, int BH, int S, int D, int causal, double scale, double atol,
                                         double rtol, double latol, double lrtol, unsigned long long *bad,
                                         cudaStream_t st)
{
    cudaError_t e = cudaMemsetAsync(bad, 0, sizeof *bad, st);
    if (e == cudaSuccess) e = cudaMemsetAsync(bad + 1, 0xff, sizeof *bad, st);
    if (e != cudaSuccess) return e;
    const long long rows = (long long)BH * S;
    if (rows <= 0) return cudaSuccess;
    long long blocks = (rows + WARPS - 1) / WARPS;
    if (blocks > 65536) blocks = 65536;
    if (D == 64)
        check_k<2><<<(unsigned)blocks, WARPS * 32, 0, st>>>(Q, K, V, O, lse, rows, S, causal, scale, atol, rtol, latol,
                                                            lrtol, bad);
    else if (D == 128)
        check_k<4><<<(unsigned)blocks, WARPS * 32, 0, st>>>(Q, K, V, O, lse, rows, S, causal, scale, atol, rtol, latol,
                                                            lrtol, bad);
    else
        return cudaErrorInvalidValue;
    return cudaGetLastError();
}

template <int DC>
static __global__ void at_k(const uint16_t *Q, const uint16_t *K, const uint16_t *V, const unsigned long long *idx,
                            int npos, long long rows, int S, int causal, double scale, float *out)
{
    __shared__ float sq[WARPS][MAX_D];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, D = DC * 32;
    const size_t words = (size_t)rows * D / 2, hs = (size_t)S * D;
    for (int j = blockIdx.x * WARPS + warp; j < npos; j += gridDim.x * WARPS) {
        const unsigned long long w = idx[j];
        long long r;
        int d = -1; // -1: the row's lse
        if (w < words) {
            const size_t e = 2 * (size_t)w + 1;
            r = (long long)(e / D), d = (int)(e % D);
        } else {
            r = (long long)(w - words);
        }
        if (r >= rows) { // not a word of the output: no value can match
            if (lane == 0) out[j] = __int_as_float(0x7fc00000);
            continue;
        }
        const long long bh = r / S;
        const int i = (int)(r % S);
        double o[DC], ls;
        ref_row<DC>(Q + (size_t)r * D, K + bh * hs, V + bh * hs, causal ? i + 1 : S, scale, sq[warp], o, &ls);
        if (d < 0) {
            if (lane == 0) out[j] = (float)ls;
        } else {
            for (int c = 0; c < DC; c++)
                if (lane + 32 * c == d) out[j] = (float)o[c];
        }
    }
}

extern "C" cudaError_t jd_w38_attn_at(const uint16_t *Q, const uint16_t *K, const uint16_t *V,
                                      const unsigned long long *idx, int npos, int BH, int S, int D, int causal,
                                      double scale, float *out, cudaStream_t st)
{
    if (npos <= 0) return cudaSuccess;
    const long long rows = (long long)BH * S;
    const unsigned blocks = (unsigned)((npos + WARPS - 1) / WARPS);
    if (D == 64) at_k<2><<<blocks, WARPS * 32, 0, st>>>(Q, K, V, idx, npos, rows, S, causal, scale, out);
    else if (D == 128) at_k<4><<<blocks, WARPS * 32, 0, st>>>(Q, K, V, idx, npos, rows, S, causal, scale, out);
    else return cudaErrorInvalidValue;
    return cudaGetLastError();
}
