/* traffic.cu — week 15, exercise 1: count the bytes before you fuse.
 *
 * A memory-bound kernel's time is its DRAM bytes over the bandwidth, so the
 * most a fusion can gain is the ratio of the bytes the chain moves to the
 * bytes the fused kernel moves. Count, per element of x, what every kernel
 * of each version reads and writes (4 bytes a float), under the model in
 * traffic.h: each array once per kernel that touches it, re-reads inside one
 * kernel free, per-row and per-column vectors free. The benchmarks print the
 * same figures beside the times they measure. */
#include "traffic.h"

double traffic_bytes(int chain, int fused)
{
    /* TODO: for each chain (the enum in traffic.h), the bytes one element
     * costs in the unfused chain (support/yard_unfused.cu: list its kernels and
     * what each reads and writes) and in your fused kernel. README, "The
     * chains", describes each one; -1 for anything else. */
    (void)chain, (void)fused;
    return 0;
}
