// judge_w31_kernels.cu — week 31's judge kernel (judge_w31_kernels.h): a
// timed LayerNorm or RMSNorm output checked in full against a double
// reference. The inputs come as doubles that the judge wrote from their
// seeds (jd_hash_fill_f64), never from the buffers the runner saw.
#include <math.h>

#include "judge_w31_kernels.h"

#define NORM_THREADS 256

// The sum over the block of v, every thread gets it (sh: NORM_THREADS / 32
// doubles; a barrier first, so the previous sum's readers are done).
static __device__ double block_sum_d(double v, double *sh)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    __syncthreads();
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
    __syncthreads();
    double s = 0;
    for (int w = 0; w < NORM_THREADS / 32; w++) s += sh[w];
    return s;
}

static __device__ void flag(unsigned long long *bad, size_t i)
{
    atomicAdd(&bad[0], 1ull);
    atomicMin(&bad[1], (unsigned long long)i);
}

// |got - ref| <= atol + rtol |ref|, got finite (NaN fails the comparison).
static __device__ bool near_d(float got, double ref, double atol, double rtol)
{
    return isfinite(got) && fabs((double)got - ref) <= atol + rtol * fabs(ref);
}

// One block a row.
static __global__ void norm_check_k(const float *out, const double *x, const double *g, const double *b, size_t rows,
                                    int cols, int rms, double eps, double tol, double mean_rtol, unsigned long long *bad)
{
    __shared__ double sh[NORM_THREADS / 32];
    const size_t n = rows * (size_t)cols;
    for (size_t row = blockIdx.x; row < rows; row += gridDim.x) {
        const double *xr = x + row * cols;
        double s = 0;
        if (!rms)
            for (int j = threadIdx.x; j < cols; j += NORM_THREADS) s += xr[j];
        const double mean = rms ? 0.0 : block_sum_d(s, sh) / cols;
        double q = 0;
        for (int j = threadIdx.x; j < cols; j += NORM_THREADS) q += (xr[j] - mean) * (xr[j] - mean);
        const double var = block_sum_d(q, sh) / cols, rstd = 1.0 / sqrt(var + eps);
        for (int j = threadIdx.x; j < cols; j += NORM_THREADS) {
            double ref = (xr[j] - mean) * rstd * g[j] + (rms ? 0.0 : b[j]);
            if (!near_d(out[row * cols + j], ref, tol, tol)) flag(bad, row * cols + j);
        }
        if (threadIdx.x == 0) {
            size_t im = n + row, ir = rms ? n + row : n + rows + row;
            if (!rms && !near_d(out[im], mean, mean_rtol * fmax(fabs(mean), sqrt(var)) + 1e-30, 0)) flag(bad, im);
            if (!near_d(out[ir], rstd, 0, tol)) flag(bad, ir);
        }
    }
}

extern "C" cudaError_t jd_w31_norm_check_f32(const float *out, const double *x, const double *g, const double *b,
                                             size_t rows, int cols, int rms, double eps, double tol, double mean_rtol,
                                             unsigned long long *bad, cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess || rows == 0 || cols <= 0) return e;
    norm_check_k<<<(unsigned)(rows < 65535 ? rows : 65535), NORM_THREADS, 0, s>>>(out, x, g, b, rows, cols, rms, eps,
                                                                                  tol, mean_rtol, bad);
    return cudaGetLastError();
}
