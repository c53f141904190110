/* occupancy.cu — week 10, exercise 1: the occupancy calculator.
 *
 * A block is resident on an SM only when all its resources are free at once:
 * warp slots, a block slot, registers and shared memory. Each gives a limit
 * on blocks per SM; the smallest wins. The details that make a calculator
 * exact rather than approximately right: registers go to whole warps in
 * units of 256 and each of the 4 sub-partitions holds whole warps from its
 * own quarter of the register file; every block pays 1 KB of shared memory
 * reserved by the driver, rounded up to 128-byte units; a block that exceeds
 * a per-block limit does not launch at all (0, not 1). */
#include "occupancy.h"


int occ_blocks_per_sm(const occ_device *d, const occ_config *c, occ_limiter *limiter)
{
    /* TODO: the smallest of four limits (warps, blocks, registers, shared
     * memory), and 0 when one block alone does not fit. Hints: make phase2/week10 hint */
    (void)d, (void)c;
    if (limiter) *limiter = OCC_LIMIT_NONE;
    return 0;
}

double occ_fraction(const occ_device *d, const occ_config *c)
{
    /* TODO: active warps / maximum warps per SM. */
    (void)d, (void)c;
    return -1;
}
