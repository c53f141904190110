// judge_w30_kernels.cu — week 30's judge's own kernel (judge_w30_kernels.h):
// the expected values at a timed softmax's look positions, made on the GPU
// because a row of up to 32768 floats, re-derived on the host for each of
// the look's 256 positions of each of 64 calls, would take seconds a request.
#include <math.h>

#include "judge_w30_kernels.h"
#include "wb_hd.h"

enum { AT_THREADS = 256 };

// A block a position: the row's max, then its sum of exp(x - max), in
// double (tree reductions in shared memory), then the position's value.
static __global__ void softmax_at_k(const unsigned long long *idx, int npos, int cols, unsigned long long seed,
                                    float lo, float hi, double *out)
{
    __shared__ double part[AT_THREADS];
    for (int j = blockIdx.x; j < npos; j += gridDim.x) {
        const size_t i = (size_t)idx[j], base = i / (size_t)cols * (size_t)cols;
        double m = -INFINITY;
        for (int c = threadIdx.x; c < cols; c += AT_THREADS)
            m = fmax(m, (double)wb_hash_uniform(seed, base + c, lo, hi));
        part[threadIdx.x] = m;
        __syncthreads();
        for (int s = AT_THREADS / 2; s > 0; s >>= 1) {
            if (threadIdx.x < s) part[threadIdx.x] = fmax(part[threadIdx.x], part[threadIdx.x + s]);
            __syncthreads();
        }
        m = part[0];
        __syncthreads();
        double sum = 0;
        for (int c = threadIdx.x; c < cols; c += AT_THREADS)
            sum += exp((double)wb_hash_uniform(seed, base + c, lo, hi) - m);
        part[threadIdx.x] = sum;
        __syncthreads();
        for (int s = AT_THREADS / 2; s > 0; s >>= 1) {
            if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
            __syncthreads();
        }
        if (threadIdx.x == 0) out[j] = exp((double)wb_hash_uniform(seed, i, lo, hi) - m) / part[0];
        __syncthreads();
    }
}

extern "C" cudaError_t jd_w30_softmax_at(const unsigned long long *idx, int npos, int cols, unsigned long long seed,
                                         float lo, float hi, double *out, cudaStream_t st)
{
    if (npos <= 0 || cols <= 0) return cudaSuccess;
    softmax_at_k<<<npos < 1024 ? npos : 1024, AT_THREADS, 0, st>>>(idx, npos, cols, seed, lo, hi, out);
    return cudaGetLastError();
}
