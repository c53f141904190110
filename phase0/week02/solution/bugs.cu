/* bugs.cu — week 02: find and fix the planted bugs.
 *
 * Every function below compiles, launches and looks plausible, and each one
 * has exactly one bug (bug_check_launch is not written yet). The contract of each
 * function is in bugs.h. Find them with the tools, not by staring:
 *
 *   make phase0/week02 check       which checkpoints fail, on which sizes
 *   make phase0/week02 sanitize    compute-sanitizer memcheck, racecheck,
 *                                  initcheck, synccheck: kernel, line, address
 *
 * and cuda-gdb for the rest (README.md says how). Fix a bug where it is; do
 * not change the contracts in bugs.h. */
#include <stdio.h>
#include "bugs.h"

static unsigned blocks_for(size_t work, int threads)
{
    size_t b = (work + threads - 1) / threads;
    return (unsigned)(b < 65535u * 32u ? b : 65535u * 32u);
}

/* ---------------------------------------------------------------- 1. scale */

static __global__ void scale_kernel(const float *x, float *y, size_t n, float s)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    //@solution
    if (i < n) y[i] = s * x[i];
    //@starter
    //| y[i] = s * x[i];
    //@end
}

cudaError_t bug_scale(const float *x, float *y, size_t n, float s)
{
    if (n == 0) return cudaSuccess;
    const int threads = 256;
    scale_kernel<<<(unsigned)((n + threads - 1) / threads), threads>>>(x, y, n, s);
    return cudaGetLastError();
}

/* ---------------------------------------------------------------- 2. histogram */

static __global__ void histogram_kernel(const unsigned *keys, size_t n, unsigned *hist)
{
    __shared__ unsigned s[HIST_BINS];
    if (threadIdx.x < HIST_BINS) s[threadIdx.x] = 0;
    __syncthreads();
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        //@solution
        atomicAdd(&s[keys[i] % HIST_BINS], 1u);
        //@starter
        //| s[keys[i] % HIST_BINS] += 1;
        //@end
    }
    __syncthreads();
    if (threadIdx.x < HIST_BINS && s[threadIdx.x]) atomicAdd(&hist[threadIdx.x], s[threadIdx.x]);
}

cudaError_t bug_histogram(const unsigned *keys, size_t n, unsigned *hist)
{
    cudaError_t e = cudaMemsetAsync(hist, 0, HIST_BINS * sizeof(unsigned), 0);
    if (e != cudaSuccess || n == 0) return e;
    const int threads = 1024;
    histogram_kernel<<<blocks_for(n, threads) < 1024 ? blocks_for(n, threads) : 1024, threads>>>(keys, n, hist);
    return cudaGetLastError();
}

/* ---------------------------------------------------------------- 3. reverse */

static __global__ void reverse_kernel(const float *x, float *y, size_t n)
{
    __shared__ float s[REVERSE_SEG];
    size_t base = (size_t)blockIdx.x * REVERSE_SEG;
    unsigned t = threadIdx.x;
    unsigned m = (unsigned)(n - base < REVERSE_SEG ? n - base : REVERSE_SEG);
    if (t < m) s[t] = x[base + t];
    //@solution
    __syncthreads(); /* every write to s happens before any read of s */
    //@starter
    //@end
    if (t < m) y[base + t] = s[m - 1 - t];
}

cudaError_t bug_reverse(const float *x, float *y, size_t n)
{
    if (n == 0) return cudaSuccess;
    size_t segs = (n + REVERSE_SEG - 1) / REVERSE_SEG;
    reverse_kernel<<<(unsigned)segs, REVERSE_SEG>>>(x, y, n);
    return cudaGetLastError();
}

/* ---------------------------------------------------------------- 4. normalise */

static __global__ void sum_kernel(const float *x, size_t n, double *sum)
{
    __shared__ double warp_sums[32];
    double acc = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) acc += x[i];
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {
        acc = threadIdx.x < (blockDim.x >> 5) ? warp_sums[threadIdx.x] : 0.0;
        for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
        if (threadIdx.x == 0) atomicAdd(sum, acc);
    }
}

static __global__ void divide_kernel(const float *x, float *y, size_t n, const double *sum)
{
    double inv = 1.0 / *sum;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = (float)(x[i] * inv);
}

cudaError_t bug_normalise(const float *x, float *y, size_t n, double *work)
{
    if (n == 0) return cudaSuccess;
    const int threads = 256;
    unsigned blocks = blocks_for(n, threads) < 1024 ? blocks_for(n, threads) : 1024;
    //@solution
    cudaError_t e = cudaMemsetAsync(work, 0, sizeof(double), 0); /* the sum starts at zero */
    if (e != cudaSuccess) return e;
    //@starter
    //| cudaError_t e;
    //@end
    sum_kernel<<<blocks, threads>>>(x, n, work);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    divide_kernel<<<blocks_for(n, threads), threads>>>(x, y, n, work);
    return cudaGetLastError();
}

/* ---------------------------------------------------------------- 5. affine */

static __global__ void affine_kernel(const float *x, float *y, size_t n, float a, float b)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = a * x[i] + b;
}

cudaError_t bug_affine(const float *x, float *y, size_t n, float a, float b, int block, size_t smem_bytes)
{
    if (n == 0) return cudaSuccess;
    if (block <= 0) return cudaErrorInvalidConfiguration;
    affine_kernel<<<blocks_for(n, block), block, smem_bytes>>>(x, y, n, a, b);
    //@solution
    return cudaGetLastError();
    //@starter
    //| return cudaSuccess;
    //@end
}

/* ---------------------------------------------------------------- 6. error report */

cudaError_t bug_check_launch(const char *what, int sync, char *msg, size_t msgsz)
{
    //@solution
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess && sync) e = cudaDeviceSynchronize();
    if (msg && msgsz) {
        if (e == cudaSuccess) msg[0] = 0;
        else snprintf(msg, msgsz, "%s: %s: %s", what ? what : "launch", cudaGetErrorName(e), cudaGetErrorString(e));
    }
    return e;
    //@starter
    //| /* TODO: see bugs.h. Ask cudaGetLastError() (and cudaDeviceSynchronize()
    //|  * when sync is set), write the message, return the error. Never exit. */
    //| (void)what, (void)sync, (void)msg, (void)msgsz;
    //| return cudaSuccess;
    //@end
}
