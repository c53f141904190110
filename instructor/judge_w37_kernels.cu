/* judge_w37_kernels.cu — week 37's judge kernels (judge_w37_kernels.h). */
#include <math.h>

#include "judge_w37_kernels.h"

#define SM_THREADS 256

static __device__ double block_reduce(double v, double *red, int is_max)
{
    red[threadIdx.x] = v;
    __syncthreads();
    for (int s = SM_THREADS / 2; s > 0; s /= 2) {
        if ((int)threadIdx.x < s) {
            double o = red[threadIdx.x + s];
            red[threadIdx.x] = is_max ? fmax(red[threadIdx.x], o) : red[threadIdx.x] + o;
        }
        __syncthreads();
    }
    double r = red[0];
    __syncthreads(); /* everyone has read red[0] before it is reused */
    return r;
}

/* One block a row. */
static __global__ void __launch_bounds__(SM_THREADS) softmax_f64_k(double *sc, int kv, int r0, int causal, double *lse)
{
    __shared__ double red[SM_THREADS];
    const int i = (int)blockIdx.x;
    double *row = sc + (size_t)i * (size_t)kv;
    const int n = causal ? (r0 + i + 1 < kv ? r0 + i + 1 : kv) : kv; /* keys row i sees */
    double m = -INFINITY;
    for (int j = (int)threadIdx.x; j < n; j += SM_THREADS) m = fmax(m, row[j]);
    m = block_reduce(m, red, 1);
    double l = 0;
    for (int j = (int)threadIdx.x; j < n; j += SM_THREADS) l += exp(row[j] - m);
    l = block_reduce(l, red, 0);
    for (int j = (int)threadIdx.x; j < kv; j += SM_THREADS) row[j] = j < n ? exp(row[j] - m) / l : 0.0;
    if (threadIdx.x == 0) lse[i] = m + log(l);
}

extern "C" cudaError_t jd_w37_softmax_f64(double *sc, int rows, int kv, int r0, int causal, double *lse,
                                          cudaStream_t st)
{
    if (rows <= 0 || kv <= 0) return cudaSuccess;
    softmax_f64_k<<<(unsigned)rows, SM_THREADS, 0, st>>>(sc, kv, r0, causal, lse);
    return cudaGetLastError();
}

static __global__ void gather_f64_k(const double *o, size_t n, const double *lse, const unsigned long long *idx, int m,
                                    double *out)
{
    int j = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (j < m) out[j] = idx[j] < n ? o[idx[j]] : lse[idx[j] - n];
}

extern "C" cudaError_t jd_w37_gather_f64(const double *o, size_t n, const double *lse, const unsigned long long *idx,
                                         int m, double *out, cudaStream_t st)
{
    if (m <= 0) return cudaSuccess;
    gather_f64_k<<<(unsigned)((m + 255) / 256), 256, 0, st>>>(o, n, lse, idx, m, out);
    return cudaGetLastError();
}
