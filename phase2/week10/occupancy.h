/* occupancy.h — week 10: how many blocks of a kernel fit on one SM. */
#ifndef OCCUPANCY_H
#define OCCUPANCY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The limits of one SM (H100: 32, 2048, 32, 1024, 65536, 65536, 255, 256, 4,
 * 233472, 49152, 232448, 1024, 128). */
typedef struct {
    int    warp_size;
    int    max_threads_per_sm;
    int    max_blocks_per_sm;
    int    max_threads_per_block;
    int    regs_per_sm;
    int    regs_per_block;        /* most registers one block may hold */
    int    max_regs_per_thread;
    int    reg_alloc_unit;        /* registers are given to a warp in units of this many */
    int    sub_partitions;        /* schedulers per SM, each with 1/n of the register file */
    size_t smem_per_sm;           /* shared memory an SM can give to blocks */
    size_t smem_per_block;        /* per-block limit without opting in */
    size_t smem_per_block_optin;  /* per-block limit after cudaFuncSetAttribute(MaxDynamicSharedMemorySize) */
    size_t smem_reserved_per_block; /* taken by the driver from every block */
    size_t smem_alloc_unit;       /* shared memory is given in units of this many bytes */
} occ_device;

/* One launch of one kernel. */
typedef struct {
    int    threads_per_block;
    int    regs_per_thread;       /* cudaFuncAttributes.numRegs */
    size_t smem_static;           /* cudaFuncAttributes.sharedSizeBytes */
    size_t smem_dynamic;          /* the launch's third <<< >>> argument */
    int    opt_in;                /* 1: the kernel raised its dynamic limit to the maximum */
} occ_config;

typedef enum { OCC_LIMIT_NONE = 0, OCC_LIMIT_WARPS, OCC_LIMIT_BLOCKS, OCC_LIMIT_REGS, OCC_LIMIT_SMEM } occ_limiter;

/* Active blocks per SM for this launch (0 when it cannot launch at all:
 * too many threads, registers or shared memory for one block). When
 * limiter is not NULL it receives which limit decided (the first of warps,
 * blocks, registers, shared memory to reach the minimum). */
int occ_blocks_per_sm(const occ_device *d, const occ_config *c, occ_limiter *limiter);

/* Occupancy: active warps over the SM's maximum warps, in [0, 1]. */
double occ_fraction(const occ_device *d, const occ_config *c);

#ifdef __cplusplus
}
#endif
#endif
