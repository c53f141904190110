/* atomics.cu — week 07, exercise 4: warp-aggregated global atomics
 * (contracts in atomics.h).
 *
 * compact_warp_kernel: each warp keeps some of its 32 elements. The naive
 *   filter asks the counter for a slot once per kept element; here the warp
 *   asks once for all of them: ballot = __ballot_sync(FULL, keep), one lane
 *   adds __popc(ballot) to *count and gets the warp's base, __shfl_sync
 *   hands the base to every lane, and a kept lane writes to
 *   base + __popc(ballot & ((1u << lane) - 1)).
 * keycount_warp_kernel: lanes with the same key find each other with
 *   peers = __match_any_sync(FULL, key); the lowest lane of each group adds
 *   __popc(peers) to counts[key]: one atomic per distinct key in the warp
 *   instead of one per lane.
 *
 * Both shuffles/votes need all 32 lanes: the loop bound must be the same for
 * every lane of a warp (step over whole warps; lanes past n take part with
 * nothing to keep, or with a key no one counts). */
#include <limits.h>
#include "atomics.h"
#include "support/atomics_launch.h"

#define ABLOCK 256 /* a multiple of 32: whole warps */
#define FULL 0xffffffffu

//@solution
static __global__ void compact_warp_kernel(const unsigned int *__restrict__ x, size_t n, unsigned int thresh,
                                           unsigned int *out, unsigned int *count)
{
    const unsigned lane = threadIdx.x & 31;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t w = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) & ~(size_t)31; w < n; w += stride) {
        size_t i = w + lane;
        unsigned int v = i < n ? x[i] : 0;
        bool keep = i < n && v < thresh;
        unsigned ballot = __ballot_sync(FULL, keep);
        if (ballot == 0) continue; /* the same in every lane */
        unsigned base = 0;
        if (lane == 0) base = atomicAdd(count, (unsigned)__popc(ballot));
        base = __shfl_sync(FULL, base, 0);
        if (keep) out[base + __popc(ballot & ((1u << lane) - 1))] = v;
    }
}

static __global__ void keycount_warp_kernel(const unsigned int *__restrict__ keys, size_t n, unsigned int nkeys,
                                            unsigned int *counts)
{
    const unsigned lane = threadIdx.x & 31;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t w = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) & ~(size_t)31; w < n; w += stride) {
        size_t i = w + lane;
        unsigned int k = i < n ? keys[i] : nkeys;
        if (k > nkeys) k = nkeys; /* every key not counted in one group, nkeys */
        unsigned peers = __match_any_sync(FULL, k);
        if (k < nkeys && lane == (unsigned)(__ffs(peers) - 1)) atomicAdd(&counts[k], (unsigned)__popc(peers));
    }
}
//@starter
//| /* TODO: two kernels (see the comment at the top and `make phase1/week07 hint`). */
//| static __global__ void compact_warp_kernel(const unsigned int *x, size_t n, unsigned int thresh, unsigned int *out,
//|                                            unsigned int *count)
//| {
//|     (void)x, (void)n, (void)thresh, (void)out, (void)count;
//| }
//| static __global__ void keycount_warp_kernel(const unsigned int *keys, size_t n, unsigned int nkeys,
//|                                             unsigned int *counts)
//| {
//|     (void)keys, (void)n, (void)nkeys, (void)counts;
//| }
//@end

/* ---- given: zero the outputs, launch a few blocks per SM (support/atomics_launch.h) ---- */

cudaError_t atomics_compact_warp(const unsigned int *x, size_t n, unsigned int thresh, unsigned int *out,
                                 unsigned int *count)
{
    return atomics_launch_compact(compact_warp_kernel, ABLOCK, x, n, thresh, out, count);
}

cudaError_t atomics_keycount_warp(const unsigned int *keys, size_t n, unsigned int nkeys, unsigned int *counts)
{
    return atomics_launch_keycount(keycount_warp_kernel, ABLOCK, keys, n, nkeys, counts);
}
