/* vote.cu — week 13, exercise 3: warp votes, and a compaction built on them.
 *
 * __ballot_sync(mask, p) gives every lane the 32-bit word of p over the
 * lanes of mask (bit j for lane j, 0 for lanes outside mask);
 * __any_sync(mask, p) and __all_sync(mask, p) say whether p holds for some,
 * or for every, lane of mask. "Every" is where a partial warp bites: with a
 * full mask in the last warp, lanes past n would vote too. Take the mask of
 * valid lanes with a ballot while all 32 lanes are still here.
 *
 * Compaction (keep the x[i] > thr): a warp counts its keepers with
 * __popc(ballot), one lane reserves that many slots with one atomicAdd,
 * __shfl_sync hands the base to the others, and each keeper writes at
 * base + (keepers in the lanes below it) = base + __popc(ballot &
 * lanes_below(lane)). One atomic per warp instead of one per element, and
 * the warp's elements stay in order. */
#include "vote.h"

#define THREADS 256

static __host__ __device__ __forceinline__ unsigned lanes_below(unsigned lane)
{
    /* TODO: bits 0 .. lane-1 set, for lane = 0 .. 31 (lane 0: none). */
    (void)lane;
    return 0;
}

unsigned vt_lanes_below(unsigned lane) { return lanes_below(lane); }

/* TODO: both kernels take one thread per element, one warp per group of 32
 * (blocks of THREADS). Start with mask = __ballot_sync(0xffffffff, i < n)
 * while all lanes are present; then lanes past n return.
 * votes_kernel: ballot of v > thr, __any_sync of isnan(v),
 * __all_sync of v > thr, all over mask; lane 0 writes ballot[g] and flags[g].
 * compact_kernel: keepers = ballot of v > thr; lane 0 reserves
 * __popc(keepers) slots with atomicAdd(count, ...); __shfl_sync(mask, base, 0)
 * shares the base; each keeper writes at base + __popc(keepers & lanes_below(lane)). */
static __global__ void votes_kernel(const float *x, size_t n, float thr, unsigned *ballot, unsigned *flags)
{
    (void)x, (void)n, (void)thr, (void)ballot, (void)flags;
}

static __global__ void compact_kernel(const float *x, size_t n, float thr, float *out, unsigned long long *count)
{
    (void)x, (void)n, (void)thr, (void)out, (void)count;
}

/* ---- given: the launchers ---- */
cudaError_t vt_warp_votes(const float *x, size_t n, float thr, unsigned *ballot, unsigned *flags)
{
    if (n == 0) return cudaSuccess;
    votes_kernel<<<(unsigned)((n + THREADS - 1) / THREADS), THREADS>>>(x, n, thr, ballot, flags);
    return cudaGetLastError();
}

cudaError_t vt_compact(const float *x, size_t n, float thr, float *out, unsigned long long *count)
{
    cudaError_t e = cudaMemsetAsync(count, 0, sizeof *count, 0);
    if (e != cudaSuccess || n == 0) return e;
    compact_kernel<<<(unsigned)((n + THREADS - 1) / THREADS), THREADS>>>(x, n, thr, out, count);
    return cudaGetLastError();
}
