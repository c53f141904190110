// probe_ipc_kernels.cu — the kernels of build/instructor/probe-ipc
// (probe_ipc.h): the pattern fill, an empty kernel, a timed wait.
#include "probe_ipc.h"

static __global__ void fill_k(uint32_t *p, size_t words, uint32_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words; i += (size_t)gridDim.x * blockDim.x)
        p[i] = probe_word(i, seed);
}

static __global__ void empty_k() {}

static __device__ unsigned long long global_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __global__ void spin_k(unsigned long long ns)
{
    unsigned long long t0 = global_ns();
    while (global_ns() - t0 < ns) __nanosleep(1000);
}

extern "C" cudaError_t probe_fill(void *p, size_t words, uint32_t seed, cudaStream_t s)
{
    fill_k<<<1024, 256, 0, s>>>(static_cast<uint32_t *>(p), words, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t probe_empty(cudaStream_t s)
{
    empty_k<<<1, 1, 0, s>>>();
    return cudaGetLastError();
}

extern "C" cudaError_t probe_spin(unsigned long long ns, cudaStream_t s)
{
    spin_k<<<1, 1, 0, s>>>(ns);
    return cudaGetLastError();
}
