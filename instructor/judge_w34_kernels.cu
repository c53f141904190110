// judge_w34_kernels.cu — week 34's judge kernel (judge_w34_kernels.h): a
// timed softmax's output checked in full against a double reference. The
// scores come as doubles that the judge wrote from their seed
// (jd_hash_fill_f64), never from the buffers the runner saw.
#include <math.h>

#include "judge_w34_kernels.h"

#define SM_THREADS 256

static __device__ void flag(unsigned long long *bad, size_t i)
{
    atomicAdd(&bad[0], 1ull);
    atomicMin(&bad[1], (unsigned long long)i);
}

// One block a row: its max over the numbers, whether it holds a NaN, the
// sum of exp(x - max) over the entries that are not -inf; then every element.
static __global__ void softmax_check_k(const float *P, const double *x, size_t rows, int L, unsigned long long *bad)
{
    __shared__ double part[SM_THREADS];
    __shared__ int nan_row;
    const double U = 5.9604644775390625e-8; // 2^-24
    for (size_t row = blockIdx.x; row < rows; row += gridDim.x) {
        const double *xr = x + row * (size_t)L;
        const float *pr = P + row * (size_t)L;
        if (threadIdx.x == 0) nan_row = 0;
        __syncthreads();
        double m = -INFINITY;
        int nan = 0;
        for (int j = threadIdx.x; j < L; j += SM_THREADS) {
            if (isnan(xr[j])) nan = 1;
            else if (xr[j] > m) m = xr[j];
        }
        if (nan) nan_row = 1;
        part[threadIdx.x] = m;
        __syncthreads();
        for (int s = SM_THREADS / 2; s > 0; s >>= 1) {
            if (threadIdx.x < s) part[threadIdx.x] = fmax(part[threadIdx.x], part[threadIdx.x + s]);
            __syncthreads();
        }
        m = part[0];
        nan = nan_row;
        __syncthreads();
        double sum = 0;
        if (!nan)
            for (int j = threadIdx.x; j < L; j += SM_THREADS)
                if (xr[j] != -INFINITY) sum += exp(xr[j] - m);
        part[threadIdx.x] = sum;
        __syncthreads();
        for (int s = SM_THREADS / 2; s > 0; s >>= 1) {
            if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
            __syncthreads();
        }
        sum = part[0];
        __syncthreads();
        for (int j = threadIdx.x; j < L; j += SM_THREADS) {
            const float got = pr[j];
            bool ok;
            if (nan) ok = isnan(got);
            else if (m == -INFINITY || xr[j] == -INFINITY) ok = got == 0.0f;
            else {
                const double ref = exp(xr[j] - m) / sum, tol = 1e-12 + ref * U * (16 + 2 * fabs(xr[j] - m) + L);
                ok = isfinite(got) && fabs((double)got - ref) <= tol;
            }
            if (!ok) flag(bad, row * (size_t)L + j);
        }
    }
}

extern "C" cudaError_t jd_w34_softmax_check_f32(const float *P, const double *x, size_t rows, int L,
                                                unsigned long long *bad, cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess || rows == 0 || L <= 0) return e;
    softmax_check_k<<<(unsigned)(rows < 65535 ? rows : 65535), SM_THREADS, 0, s>>>(P, x, rows, L, bad);
    return cudaGetLastError();
}
