/* vote.cu — week 08, exercise 3: compaction with warp votes.
 *
 * Per element an atomicAdd on the output counter would serialise every
 * kept element on one address. A warp instead votes (__ballot_sync: one bit
 * per lane), one lane reserves all the warp's slots with a single atomicAdd,
 * and each keeping lane finds its slot from the popcount of the bits below
 * its own: 32x fewer atomics, and order kept inside each warp's 32 elements. */
#include "vote.h"

/* TODO: the kernel: vote, reserve with one atomicAdd per warp, write at
 * base + the rank of this lane among the keeping lanes. */
static __global__ void compact_kernel(const float *x, size_t n, float *out, unsigned int *count)
{
    (void)x, (void)n, (void)out, (void)count;
}

/* ---- given ---- */
cudaError_t vote_compact_positive(const float *x, size_t n, float *out, unsigned int *count)
{
    cudaError_t e = cudaMemsetAsync(count, 0, sizeof *count, 0);
    if (e != cudaSuccess || n == 0) return e;
    size_t b = (n + 255) / 256;
    compact_kernel<<<(unsigned)(b < 132 * 8 ? b : 132 * 8), 256>>>(x, n, out, count);
    return cudaGetLastError();
}
