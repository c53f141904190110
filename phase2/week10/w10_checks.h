/* w10_checks.h — what week 10's checks expect, shared by the week's test
 * program (test_week10.c) and the instructor's judge (instructor/judge_w10.c,
 * which runs the student's code in a separate runner): the calculator's
 * hand-worked H100 cases and its check (over a table of the student's
 * functions, so the judge can pass ones that call the runner), the grid of
 * configurations compared with the runtime, the volkov cases and how each
 * is drawn, the CPU replay, and the race's sizes. Change a check here and
 * both follow.
 *
 * The generator: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (W10_VOLKOV_SIZES_TAG;
 * the test asserts it). The judge draws from wb_rng_for_seed(seed, TAG, i)
 * through the same functions, so for a seed it gets the test's cases. */
#ifndef W10_CHECKS_H
#define W10_CHECKS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>

#include "occupancy.h"
#include "support/occ_kernels.h"
#include "wb_compare.h"
#include "wb_rand.h"

/* ---------------------------------------------------------------- calculator (CPU) */

static const occ_device W10_H100 = { 32, 2048, 32, 1024, 65536, 65536, 255, 256, 4, 233472, 49152, 232448, 1024, 128 };

typedef struct { int threads, regs; size_t smem_static, smem_dyn; int opt_in, blocks; occ_limiter why; } w10_occ_case;

/* Worked by hand from the rules in the README (H100 limits above). */
static const w10_occ_case W10_CASES[] = {
    { 256, 32, 0, 0, 0, 8, OCC_LIMIT_WARPS },        /* 8 warps a block, 64 warps an SM */
    { 128, 64, 0, 0, 0, 8, OCC_LIMIT_REGS },         /* 2048 regs a warp: 8 warps a sub-partition */
    { 1024, 72, 0, 0, 0, 0, OCC_LIMIT_NONE },        /* 2304 * 32 > 65536: cannot launch */
    { 1024, 64, 0, 0, 0, 1, OCC_LIMIT_REGS },        /* exactly the register file */
    { 96, 40, 0, 20000, 0, 11, OCC_LIMIT_SMEM },     /* 21024 -> 21120 bytes: 233472 / 21120 = 11 */
    { 32, 16, 0, 0, 0, 32, OCC_LIMIT_BLOCKS },       /* the 32-block limit */
    { 256, 32, 0, 100000, 1, 2, OCC_LIMIT_SMEM },    /* opted in: 101120 bytes a block */
    { 256, 32, 0, 60000, 0, 0, OCC_LIMIT_NONE },     /* over 48 KB + 1 KB without opting in */
    { 256, 255, 0, 0, 0, 1, OCC_LIMIT_REGS },        /* 8160 -> 8192 regs a warp */
    { 256, 256, 0, 0, 0, 0, OCC_LIMIT_NONE },        /* over 255 registers a thread */
    { 1025, 16, 0, 0, 0, 0, OCC_LIMIT_NONE },        /* over 1024 threads a block */
    { 100, 48, 4096, 0, 0, 10, OCC_LIMIT_REGS },     /* 4 warps; 1536 regs a warp: 10 warps a sub-partition */
    { 32, 200, 0, 0, 0, 8, OCC_LIMIT_REGS },         /* 6400 regs a warp: 2 per sub-partition, not 65536/6400 = 10 */
    { 64, 16, 47000, 1000, 1, 4, OCC_LIMIT_SMEM },   /* 49024 -> 49152 bytes: 4 blocks */
};
#define W10_N_CASES (sizeof W10_CASES / sizeof W10_CASES[0])

static const char *const W10_LIMITS[] = { "none", "warps", "blocks", "registers", "shared memory" };

static inline const char *w10_limit_name(int why) { return why >= 0 && why <= OCC_LIMIT_SMEM ? W10_LIMITS[why] : "?"; }

/* The functions under test: the student's own in the test; in the judge,
 * ones that ask the runner to call the student's. */
typedef struct {
    int (*blocks)(void *ctx, const occ_device *d, const occ_config *c, occ_limiter *limiter);
    double (*fraction)(void *ctx, const occ_device *d, const occ_config *c);
    void *ctx;
} w10_calc_ops;

/* Every hand-worked case (blocks, and the limiter where one block fits),
 * then occ_fraction at 100 % and at 33/64: 0, or 1 with the first failure
 * in why. */
static inline int w10_calc_hand(const w10_calc_ops *o, char *why, size_t why_n)
{
    for (size_t j = 0; j < W10_N_CASES; j++) {
        const w10_occ_case *k = &W10_CASES[j];
        occ_config c = { k->threads, k->regs, k->smem_static, k->smem_dyn, k->opt_in };
        occ_limiter lim = OCC_LIMIT_NONE;
        int got = o->blocks(o->ctx, &W10_H100, &c, &lim);
        if (got != k->blocks)
            return snprintf(why, why_n, "%d threads, %d regs, %zu+%zu B shared%s: %d blocks per SM, expected %d",
                            k->threads, k->regs, k->smem_static, k->smem_dyn, k->opt_in ? " (opted in)" : "", got,
                            k->blocks), 1;
        if (k->blocks > 0 && lim != k->why)
            return snprintf(why, why_n, "%d threads, %d regs, %zu+%zu B shared: limited by %s, expected %s", k->threads,
                            k->regs, k->smem_static, k->smem_dyn, w10_limit_name(lim), W10_LIMITS[k->why]), 1;
    }
    occ_config full = { 256, 32, 0, 0, 0 }, part = { 96, 40, 0, 20000, 0 };
    double f = o->fraction(o->ctx, &W10_H100, &full);
    if (!wb_close(f, 1.0, 0, 1e-12)) return snprintf(why, why_n, "occ_fraction: %g, expected 1", f), 1;
    f = o->fraction(o->ctx, &W10_H100, &part);
    if (!wb_close(f, 33.0 / 64, 0, 1e-12)) return snprintf(why, why_n, "occ_fraction: %g, expected 33/64", f), 1;
    return 0;
}

/* ---------------------------------------------------------------- calculator vs the runtime (GPU) */

/* The grid compared with cudaOccupancyMaxActiveBlocksPerMultiprocessor on
 * each given kernel (support/occ_kernels.cu): 18 block sizes x 14 dynamic
 * shared sizes. */
static const int    W10_THREADS[] = { 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 384, 416, 512, 544, 640, 768, 800, 1024 };
static const size_t W10_DYN[] = { 0, 1, 1000, 3000, 8192, 20000, 40000, 47000, 48128, 49152, 60000, 100000, 150000, 230000 };
#define W10_N_THREADS (sizeof W10_THREADS / sizeof W10_THREADS[0])
#define W10_N_DYN     (sizeof W10_DYN / sizeof W10_DYN[0])

/* This device's limits (dev), as the runtime reports them: 255 registers
 * a thread, 256-register units, 4 sub-partitions and 128-byte shared-memory
 * units hold from Volta (cc 7.0) on. */
static inline cudaError_t w10_device(int dev, occ_device *d)
{
    int v[10];
    const enum cudaDeviceAttr A[10] = {
        cudaDevAttrWarpSize, cudaDevAttrMaxThreadsPerMultiProcessor, cudaDevAttrMaxBlocksPerMultiprocessor,
        cudaDevAttrMaxThreadsPerBlock, cudaDevAttrMaxRegistersPerMultiprocessor, cudaDevAttrMaxRegistersPerBlock,
        cudaDevAttrMaxSharedMemoryPerMultiprocessor, cudaDevAttrMaxSharedMemoryPerBlock,
        cudaDevAttrMaxSharedMemoryPerBlockOptin, cudaDevAttrReservedSharedMemoryPerBlock,
    };
    for (int j = 0; j < 10; j++) {
        cudaError_t e = cudaDeviceGetAttribute(&v[j], A[j], dev);
        if (e != cudaSuccess) return e;
    }
    occ_device x = { v[0], v[1], v[2], v[3], v[4], v[5], 255, 256, 4, (size_t)v[6], (size_t)v[7], (size_t)v[8],
                     (size_t)v[9], 128 };
    *d = x;
    return cudaSuccess;
}

/* Every configuration of the grid on every given kernel: the calculator
 * (o) on dev (w10_device's) against
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor, in this process. Returns
 * how many differ (the first told in first) with *compared the count, or
 * -1 when a CUDA call of the check itself failed (first says which). */
static inline int w10_calc_runtime(const w10_calc_ops *o, const occ_device *dev, int *compared, char *first,
                                   size_t first_n)
{
    int wrong = 0;
    *compared = 0, first[0] = 0;
    for (int k = 0; k < occk_count(); k++) {
        struct cudaFuncAttributes a;
        cudaError_t e = occk_attr(k, &a);
        if (e == cudaSuccess && occk_opted_in(k)) e = occk_opt_in(k, (int)(dev->smem_per_block_optin - a.sharedSizeBytes));
        if (e != cudaSuccess) return snprintf(first, first_n, "kernel %s: %s", occk_name(k), cudaGetErrorString(e)), -1;
        occ_device d = *dev; /* the runtime ignores the kernel's own maxThreadsPerBlock here */
        printf("  kernel %-32s %3d registers, %5zu B static shared, at most %d threads a block\n", occk_name(k),
               a.numRegs, a.sharedSizeBytes, a.maxThreadsPerBlock);
        for (size_t t = 0; t < W10_N_THREADS; t++)
            for (size_t s = 0; s < W10_N_DYN; s++) {
                int rt = -1;
                if (occk_max_active(k, W10_THREADS[t], W10_DYN[s], &rt) != cudaSuccess) rt = 0; /* cannot launch */
                cudaGetLastError();
                occ_config c = { W10_THREADS[t], a.numRegs, a.sharedSizeBytes, W10_DYN[s], occk_opted_in(k) };
                int mine = o->blocks(o->ctx, &d, &c, NULL);
                (*compared)++;
                if (mine != rt && wrong++ == 0)
                    snprintf(first, first_n, "kernel %s, %d threads, %d regs, %zu+%zu B shared%s: yours %d, runtime %d",
                             occk_name(k), W10_THREADS[t], a.numRegs, a.sharedSizeBytes, W10_DYN[s],
                             occk_opted_in(k) ? " (opted in)" : "", mine, rt);
            }
    }
    printf("  %d configurations compared, %d differ from cudaOccupancyMaxActiveBlocksPerMultiprocessor\n", *compared,
           wrong);
    return wrong;
}

/* ---------------------------------------------------------------- volkov */

/* The chain the exercise runs, replayed on the CPU: fmaf is exact on both
 * sides (one rounding), so the GPU must give these bits. */
static inline float w10_chain_ref(float x, int steps, float a, float b)
{
    float v = x;
    for (int s = 0; s < steps; s++) v = fmaf(v, a, b);
    return v;
}

static const int W10_KS[] = { 1, 2, 4, 8 };
#define W10_N_KS 4

/* n = 0, 1, around a warp, a block and K * blockDim, a prime, past 2^22 (none
 * of them but 0 and the exact-cover one a multiple of K * blockDim). */
static const size_t W10_VK_SIZES[] = { 0, 1, 31, 255, 257, 2047, 2049, 8193, 65537, 1000003, (1u << 22) + 3 };
#define W10_N_VK_SIZES (sizeof W10_VK_SIZES / sizeof W10_VK_SIZES[0])
#define W10_VK_MAX_N   (((size_t)1 << 22) + 3)
/* (threads, blocks): one block, a few, a warp, a block of 96 (not a power of
 * two), 1024 threads, more blocks than tiles; 0 blocks = exactly one tile a
 * block (n / (K * threads) rounded up). */
static const int W10_VK_GRID[][2] = { { 256, 1 }, { 256, 3 }, { 32, 1 }, { 96, 7 }, { 1024, 2 }, { 128, 1000 }, { 256, 0 } };
#define W10_N_VK_GRID (sizeof W10_VK_GRID / sizeof W10_VK_GRID[0])
#define W10_VOLKOV_SIZES_TAG "volkov_sizes_fn"

/* Any k but these is refused (cudaErrorInvalidValue) without a write. */
static const int W10_BAD_KS[] = { 0, -1, 3, 5, 16 };
#define W10_N_BAD_KS (sizeof W10_BAD_KS / sizeof W10_BAD_KS[0])

typedef struct {
    int    k;
    size_t n, lead; /* lead: the output starts this many floats into its buffer */
    int    steps, threads, blocks;
    float  a, b;
} w10_vk_case;

/* Case j (size W10_VK_SIZES[j]) of the test for k = W10_KS[ki], drawn from
 * r, the test's one generator for that k, case after case (j = 0, 1, ...
 * in order): its grid, step count, a and b, the input (n floats into hx)
 * with NaN, +Inf, -Inf and a near-overflow value planted, and the expected
 * output into ref. */
static inline void w10_vk_draw(wb_rng *r, int ki, size_t j, float *hx, float *ref, w10_vk_case *c)
{
    size_t n = W10_VK_SIZES[j];
    const int *g = W10_VK_GRID[(j + (size_t)ki) % W10_N_VK_GRID];
    c->k = W10_KS[ki], c->n = n, c->lead = j & 1; /* every other output starts one float in */
    c->threads = g[0], c->blocks = g[1];
    if (c->blocks == 0)
        c->blocks = n ? (int)((n + (size_t)c->k * c->threads - 1) / ((size_t)c->k * c->threads)) : 1;
    c->steps = n > 100000 ? (int)wb_rng_int(r, 1, 3) : j == 1 ? 0 : (int)wb_rng_int(r, 0, 40);
    c->a = (float)(wb_rng_unit(r) * 2.2 - 1.1), c->b = (float)(wb_rng_unit(r) * 2 - 1);
    wb_fill_uniform_f32(r, hx, n, -4, 4);
    if (n >= 8) {
        hx[wb_rng_int(r, 0, (int64_t)n - 1)] = NAN;
        hx[wb_rng_int(r, 0, (int64_t)n - 1)] = INFINITY;
        hx[wb_rng_int(r, 0, (int64_t)n - 1)] = -INFINITY;
        hx[n - 1] = 3.0e38f; /* overflows to Inf where |a| > 1 */
    }
    for (size_t i = 0; i < n; i++) ref[i] = w10_chain_ref(hx[i], c->steps, c->a, c->b);
}

/* The race (w10.volkov-speed). Both sides run the same elements through the
 * same chains on every SM; what differs is where the independent FMAs come
 * from: FULLOCC (given), 1 chain a thread, 8 blocks of 256 per SM = 64
 * warps; yours, k = 8 chains a thread, 1 block of 256 per SM = 8 warps.
 * n = SMs x 8 x 256 x 4: a whole number of tiles for every SM on both
 * sides (2048 elements a SM a round, W10_VK_ROUNDS rounds); W10_VK_STEPS
 * steps a chain, so the loads and stores are a few percent. */
enum { W10_VK_THREADS = 256, W10_VK_FULL_BPS = 8, W10_VK_ROUNDS = 4, W10_VK_STEPS = 4096, W10_VK_SPEED_K = 8 };
#define W10_VK_A 0.99951171875f /* 1 - 2^-11: v drifts towards b / (1 - a), never settles */
#define W10_VK_B 0.0625f

static inline size_t w10_vk_race_n(int sms)
{
    return (size_t)sms * W10_VK_FULL_BPS * W10_VK_THREADS * W10_VK_ROUNDS;
}

#endif
