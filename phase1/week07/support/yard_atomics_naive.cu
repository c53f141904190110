/* yard_atomics_naive.cu — week 07, given: the yardsticks of atomics.cu, one
 * global atomic per kept element (compact) or per key (keycount), a
 * grid-stride loop each. Contracts in atomics.h.
 *
 * Look at the SASS of compact_naive_kernel (make phase1/week07 sass): the
 * counter's address is the same in every lane, and ptxas turns the
 * per-lane atomicAdd into VOTEU.ANY, FLO, POPC, one ATOMG and a SHFL, the
 * aggregation you write by hand. keycount_naive_kernel's address depends on
 * the key, so it stays one REDG per lane. */
#include <limits.h>
#include "atomics.h"
#include "atomics_launch.h"

#define NBLOCK 256

static __global__ void compact_naive_kernel(const unsigned int *__restrict__ x, size_t n, unsigned int thresh,
                                            unsigned int *__restrict__ out, unsigned int *__restrict__ count)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned int v = x[i];
        if (v < thresh) out[atomicAdd(count, 1u)] = v;
    }
}

static __global__ void keycount_naive_kernel(const unsigned int *__restrict__ keys, size_t n, unsigned int nkeys,
                                             unsigned int *counts)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned int k = keys[i];
        if (k < nkeys) atomicAdd(&counts[k], 1u);
    }
}

cudaError_t yard_compact_naive(const unsigned int *x, size_t n, unsigned int thresh, unsigned int *out,
                               unsigned int *count)
{
    return atomics_launch_compact(compact_naive_kernel, NBLOCK, x, n, thresh, out, count);
}

cudaError_t yard_keycount_naive(const unsigned int *keys, size_t n, unsigned int nkeys, unsigned int *counts)
{
    return atomics_launch_keycount(keycount_naive_kernel, NBLOCK, keys, n, nkeys, counts);
}
