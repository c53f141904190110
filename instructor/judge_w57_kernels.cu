// judge_w57_kernels.cu — week 57's judge's own kernels (judge_w57_kernels.h).
// The reference is the test's pb_verify (test_week57.c) on the GPU: the
// scores q.k of the bf16 values in double, the softmax and P V in double
// over the sequence's rows gathered through its block table, one warp a
// query head of a sequence; a timed output has 2048 of them, each over
// 2k-6k tokens, which the host would take seconds to redo.
#include <math.h>
#include <stdint.h>

#include "judge_w57_kernels.h"

enum { WARPS = 8, MAX_D = 128 };

static __device__ __forceinline__ float bf(unsigned h) { return __uint_as_float((h & 0xffffu) << 16); }

// Row r = b * Hq + h of the reference, by the whole warp: keys 32 at a time,
// a lane a key for the score, then the lanes split d for P V (o[c] is d =
// lane + 32 c); online softmax in double. sq: D floats of shared memory for
// this warp.
template <int DC>
static __device__ void ref_row(const jd_w57_batch B, long long r, float *sq, double o[DC])
{
    const int lane = threadIdx.x & 31, D = DC * 32;
    const int b = (int)(r / B.Hq), h = (int)(r % B.Hq), kvh = h / (B.Hq / B.kvh);
    const int n = B.lens[b];
    const int32_t *tab = B.tab + (size_t)b * B.maxb;
    __syncwarp();
    for (int d = lane; d < D; d += 32) sq[d] = bf(B.q[(size_t)r * D + d]);
    __syncwarp();
    double m = -INFINITY, l = 0;
    for (int c = 0; c < DC; c++) o[c] = 0;
    for (int j0 = 0; j0 < n; j0 += 32) {
        const int j = j0 + lane;
        double s = -INFINITY;
        if (j < n) {
            const size_t at = (((size_t)tab[j / B.bs] * B.kvh + kvh) * B.bs + j % B.bs) * D;
            const uint4 *kr = (const uint4 *)(B.k + at);
            double acc = 0;
            for (int w = 0; w < D / 8; w++) {
                const uint4 u = kr[w];
                const unsigned x[4] = { u.x, u.y, u.z, u.w };
                for (int e = 0; e < 4; e++) {
                    acc += (double)sq[8 * w + 2 * e] * (double)bf(x[e]);
                    acc += (double)sq[8 * w + 2 * e + 1] * (double)bf(x[e] >> 16);
                }
            }
            s = acc * B.scale;
        }
        double cm = s;
        for (int off = 16; off; off >>= 1) cm = fmax(cm, __shfl_xor_sync(0xffffffffu, cm, off));
        const double mn = fmax(m, cm);    // finite: key j0 is seen
        const double alpha = exp(m - mn); // 0 on the first chunk (m = -inf)
        const double p = j < n ? exp(s - mn) : 0.0;
        l = l * alpha + p;
        for (int c = 0; c < DC; c++) o[c] *= alpha;
        const int cnt = n - j0 < 32 ? n - j0 : 32; // the same in every lane
        for (int jj = 0; jj < cnt; jj++) {
            const double pj = __shfl_sync(0xffffffffu, p, jj);
            const int t = j0 + jj;
            const uint16_t *vr = B.v + (((size_t)tab[t / B.bs] * B.kvh + kvh) * B.bs + t % B.bs) * D + lane;
            for (int c = 0; c < DC; c++) o[c] += pj * (double)bf(vr[32 * c]);
        }
        m = mn;
    }
    for (int off = 16; off; off >>= 1) l += __shfl_xor_sync(0xffffffffu, l, off);
    for (int c = 0; c < DC; c++) o[c] = n ? o[c] / l : 0.0;
}

static __device__ bool off_by(double got, double ref, double atol, double rtol)
{
    return !(fabs(got - ref) <= atol + rtol * fabs(ref)); // NaN never passes
}

template <int DC>
static __global__ void check_k(const jd_w57_batch B, const uint16_t *O, double atol, double rtol,
                               unsigned long long *bad)
{
    __shared__ float sq[WARPS][MAX_D];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, D = DC * 32;
    const long long rows = (long long)B.batch * B.Hq;
    for (long long r = (long long)blockIdx.x * WARPS + warp; r < rows; r += (long long)gridDim.x * WARPS) {
        double o[DC];
        ref_row<DC>(B, r, sq[warp], o);
        for (int c = 0; c < DC; c++) {
            const size_t e = (size_t)r * D + lane + 32 * c;
            if (off_by(bf(O[e]), o[c], atol, rtol)) {
                atomicAdd(&bad[0], 1ull);
                atomicMin(&bad[1], (unsigned long long)e);
            }
        }
    }
}

extern "C" cudaError_t jd_w57_check(const jd_w57_batch *B, const uint16_t *out, double atol, double rtol,
                                    unsigned long long *bad, cudaStream_t st)
{
    cudaError_t e = cudaMemsetAsync(bad, 0, sizeof *bad, st);
    if (e == cudaSuccess) e = cudaMemsetAsync(bad + 1, 0xff, sizeof *bad, st);
    if (e != cudaSuccess) return e;
    const long long rows = (long long)B->batch * B->Hq;
    if (rows <= 0) return cudaSuccess;
    long long blocks = (rows + WARPS - 1) / WARPS;
    if (blocks > 65536) blocks = 65536;
    if (B->D == 64) check_k<2><<<(unsigned)blocks, WARPS * 32, 0, st>>>(*B, out, atol, rtol, bad);
    else if (B->D == 128) check_k<4><<<(unsigned)blocks, WARPS * 32, 0, st>>>(*B, out, atol, rtol, bad);
    else return cudaErrorInvalidValue;
    return cudaGetLastError();
}

template <int DC>
static __global__ void at_k(const jd_w57_batch B, const unsigned long long *idx, int npos, float *out)
{
    __shared__ float sq[WARPS][MAX_D];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, D = DC * 32;
    const long long rows = (long long)B.batch * B.Hq;
    const size_t words = (size_t)rows * D / 2;
    for (int j = blockIdx.x * WARPS + warp; j < npos; j += gridDim.x * WARPS) {
        const unsigned long long w = idx[j];
        if (w >= words) { // not a word of the output: no value can match
            if (lane == 0) out[j] = __int_as_float(0x7fc00000);
            continue;
        }
        const size_t e = 2 * (size_t)w + 1;
        const long long r = (long long)(e / D);
        const int d = (int)(e % D);
        double o[DC];
        ref_row<DC>(B, r, sq[warp], o);
        for (int c = 0; c < DC; c++)
            if (lane + 32 * c == d) out[j] = (float)o[c];
    }
}

extern "C" cudaError_t jd_w57_at(const jd_w57_batch *B, const unsigned long long *idx, int npos, float *out,
                                 cudaStream_t st)
{
    if (npos <= 0) return cudaSuccess;
    const unsigned blocks = (unsigned)((npos + WARPS - 1) / WARPS);
    if (B->D == 64) at_k<2><<<blocks, WARPS * 32, 0, st>>>(*B, idx, npos, out);
    else if (B->D == 128) at_k<4><<<blocks, WARPS * 32, 0, st>>>(*B, idx, npos, out);
    else return cudaErrorInvalidValue;
    return cudaGetLastError();
}
