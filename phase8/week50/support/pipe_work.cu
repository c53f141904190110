/* pipe_work.cu — week 50, given: an op of known duration for the pipeline
 * run. One thread spins on %globaltimer, the GPU's nanosecond clock (the
 * same for every SM of a GPU; not synchronised between GPUs), so the op
 * lasts `us` microseconds whatever the SM clock does, and it says when it
 * ran. */
#include "pipe.h"

static __device__ __forceinline__ unsigned long long global_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __global__ void k_work(unsigned long long ns, unsigned long long *stamp)
{
    unsigned long long t0 = global_ns(), t = t0;
    while (t - t0 < ns) t = global_ns();
    stamp[0] = t0;
    stamp[1] = t;
}

extern "C" cudaError_t pipe_work(double us, unsigned long long *stamp, cudaStream_t s)
{
    if (!(us >= 0) || !stamp) return cudaErrorInvalidValue;
    k_work<<<1, 1, 0, s>>>((unsigned long long)(us * 1e3 + 0.5), stamp);
    return cudaGetLastError();
}

/* The op with data: thread 0 spins as k_work does while the others wait,
 * then the block writes out = in + add, then thread 0 takes the end stamp:
 * the op has ended only once its output is written. */
enum { DATA_THREADS = 256 };

static __global__ void k_work_data(unsigned long long ns, unsigned long long *stamp, const float *in, float *out,
                                   size_t n, float add)
{
    __shared__ unsigned long long t0;
    if (threadIdx.x == 0) {
        unsigned long long t = t0 = global_ns();
        while (t - t0 < ns) t = global_ns();
    }
    __syncthreads();
    for (size_t j = threadIdx.x; j < n; j += blockDim.x) out[j] = in[j] + add;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        stamp[0] = t0;
        stamp[1] = global_ns();
    }
}

extern "C" cudaError_t pipe_work_data(double us, unsigned long long *stamp, int s, pipe_op op, const float *in,
                                      float *out, size_t n, cudaStream_t st)
{
    if (!(us >= 0) || !stamp || (n && (!in || !out))) return cudaErrorInvalidValue;
    k_work_data<<<1, DATA_THREADS, 0, st>>>((unsigned long long)(us * 1e3 + 0.5), stamp, in, out, n,
                                            pipe_add(s, op.bwd));
    return cudaGetLastError();
}
