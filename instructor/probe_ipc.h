/* probe_ipc.h — what probe_ipc.c (the judge and the runner of
 * build/instructor/probe-ipc) and probe_ipc_kernels.cu share: the pattern
 * each side writes into device memory and the kernels that write it.
 *
 * The pattern depends on the word's index as well as a seed, so a mapping
 * that lands at the wrong offset, or a side that reads stale memory, shows
 * as a mismatch, not as a coincidence. */
#ifndef PROBE_IPC_H
#define PROBE_IPC_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __CUDACC__
#define PROBE_HD __host__ __device__
#else
#define PROBE_HD
#endif

/* Word i of the pattern with this seed. */
static inline PROBE_HD uint32_t probe_word(size_t i, uint32_t seed)
{
    uint32_t x = (uint32_t)i * 2654435761u ^ (uint32_t)(i >> 32) ^ seed;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    return x;
}

#ifdef __cplusplus
extern "C" {
#endif

/* p[0..words) = the pattern of seed, on stream s (not waited for). */
cudaError_t probe_fill(void *p, size_t words, uint32_t seed, cudaStream_t s);
/* A kernel that does nothing: the cost of a call, without its work. */
cudaError_t probe_empty(cudaStream_t s);
/* One thread that waits ns nanoseconds of the GPU's clock. */
cudaError_t probe_spin(unsigned long long ns, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
