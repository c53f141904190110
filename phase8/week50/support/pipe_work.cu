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
