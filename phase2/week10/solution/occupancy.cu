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

//@solution
static long round_up(long x, long unit) { return unit > 0 ? (x + unit - 1) / unit * unit : x; }
//@end

int occ_blocks_per_sm(const occ_device *d, const occ_config *c, occ_limiter *limiter)
{
    //@solution
    if (limiter) *limiter = OCC_LIMIT_NONE;
    if (c->threads_per_block <= 0 || c->threads_per_block > d->max_threads_per_block) return 0;
    int warps = (c->threads_per_block + d->warp_size - 1) / d->warp_size;

    /* warp slots and block slots */
    int by_warps = d->max_threads_per_sm / d->warp_size / warps;
    int by_blocks = d->max_blocks_per_sm;

    /* registers: per warp, rounded to the allocation unit, per sub-partition */
    long per_warp = round_up((long)c->regs_per_thread * d->warp_size, d->reg_alloc_unit);
    long assumed = per_warp * round_up(warps, d->sub_partitions);
    if (c->regs_per_thread > d->max_regs_per_thread || per_warp * warps > d->regs_per_block ||
        assumed > d->regs_per_block)
        return 0;
    int by_regs = per_warp > 0 ? (int)((d->regs_per_sm / d->sub_partitions / per_warp) * d->sub_partitions / warps)
                               : by_blocks;

    /* shared memory: the driver's reserve, rounded to the allocation unit */
    long alloc = round_up((long)(c->smem_static + c->smem_dynamic + d->smem_reserved_per_block), (long)d->smem_alloc_unit);
    long per_block_limit = (long)((c->opt_in ? d->smem_per_block_optin : d->smem_per_block) + d->smem_reserved_per_block);
    if (alloc > per_block_limit) return 0;
    int by_smem = alloc > 0 ? (int)((long)d->smem_per_sm / alloc) : by_blocks;

    int best = by_warps;
    occ_limiter why = OCC_LIMIT_WARPS;
    if (by_blocks < best) best = by_blocks, why = OCC_LIMIT_BLOCKS;
    if (by_regs < best) best = by_regs, why = OCC_LIMIT_REGS;
    if (by_smem < best) best = by_smem, why = OCC_LIMIT_SMEM;
    if (limiter) *limiter = why;
    return best;
    //@starter
    //| /* TODO: the smallest of four limits (warps, blocks, registers, shared
    //|  * memory), and 0 when one block alone does not fit. Hints: make phase2/week10 hint */
    //| (void)d, (void)c;
    //| if (limiter) *limiter = OCC_LIMIT_NONE;
    //| return 0;
    //@end
}

double occ_fraction(const occ_device *d, const occ_config *c)
{
    //@solution
    int warps = (c->threads_per_block + d->warp_size - 1) / d->warp_size;
    return (double)occ_blocks_per_sm(d, c, NULL) * warps / (d->max_threads_per_sm / d->warp_size);
    //@starter
    //| /* TODO: active warps / maximum warps per SM. */
    //| (void)d, (void)c;
    //| return -1;
    //@end
}
