/* w01_checks.h — what week 01's checks expect, shared by the week's test
 * program (test_week01.c) and the instructor's judge (instructor/judge_w01.c,
 * which runs the student's code in a separate runner): the sizes, the peak
 * formulas' known answers, and the device report compared with the
 * runtime's own. Change a check here and both follow. */
#ifndef W01_CHECKS_H
#define W01_CHECKS_H

#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "devquery.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_rand.h"

/* vecadd's sizes: empty, one, a warp's worth, block edges, a vector tail, large. */
static const size_t W01_SIZES[] = { 0, 1, 3, 31, 255, 256, 257, 1023, 4097, 65537, 1000003, (size_t)1 << 24 };
#define W01_N_SIZES (sizeof W01_SIZES / sizeof W01_SIZES[0])
/* vecadd_sizes's generator tag (its case s: wb_rng_for(__func__, s), the
 * inputs a then b, each n floats in [-100, 100)); the judge's is
 * wb_rng_for_seed(seed, W01_SIZES_TAG, s), the same inputs for a seed */
#define W01_SIZES_TAG "vecadd_sizes_fn"

/* vecadd's offset cases (16 of them): case i's inputs start (i & 3) and
 * ((i >> 2) & 3) floats into their buffers; its size n and the output's
 * offset are drawn from the case's generator, n first, then the offset, and
 * the inputs after that (check_vecadd in test_week01.c fills them from the
 * same generator). The test's generator is WB_RNG(), wb_rng_for(__func__, i),
 * and a Check test's __func__ is its name with "_fn" after it: W01_OFFSETS_TAG.
 * The judge (instructor/judge_w01.c) draws case i from
 * wb_rng_for_seed(seed, W01_OFFSETS_TAG, i) through this same function, so a
 * seed gives it the cases the test draws, sizes and inputs alike (a slip at
 * one size a hidden seed draws is found by both). */
#define W01_N_OFFSET_CASES 16
#define W01_OFFSETS_TAG    "vecadd_offsets_fn"
static inline void w01_offset_case(wb_rng *r, int i, size_t *n, size_t *oa, size_t *ob, size_t *oc)
{
    *n = (size_t)wb_rng_int(r, 1000, 200000);
    *oc = (size_t)wb_rng_int(r, 0, 3);
    *oa = (size_t)(i & 3), *ob = (size_t)((i >> 2) & 3);
}

/* The peak formulas on known parts: H100 SXM (2619 MHz HBM3 on a 5120-bit
 * bus; 132 SMs x 128 lanes at 1980 MHz), and an RTX 3060-like part, to catch
 * a formula that only fits one device. */
static const struct { int mem_khz, bus_bits; double gbps; int sms, lanes, sm_khz; double gflops; } W01_PEAKS[] = {
    { 2619000, 5120, 3352.32, 132, 128, 1980000, 66908.16 },
    { 7501000, 192, 360.048, 28, 128, 1777000, 12737.536 },
};
#define W01_N_PEAKS (sizeof W01_PEAKS / sizeof W01_PEAKS[0])
#define W01_PEAK_TOL 1e-6

/* 0 when the report r matches device dev as the runtime sees it; else 1,
 * with the first difference in why. */
static inline int w01_report_diff(const dq_report *r, int dev, char *why, size_t n)
{
    struct cudaDeviceProp p;
    int clk = 0, mclk = 0;
    cudaError_t e = cudaGetDeviceProperties(&p, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, dev);
    if (e != cudaSuccess) return snprintf(why, n, "the runtime's own query failed: %s", cudaGetErrorName(e)), 1;
#define W01_FIELD(f, want)                                                                                  \
    if ((long long)r->f != (long long)(want))                                                               \
        return snprintf(why, n, #f " is %lld, expected %lld", (long long)r->f, (long long)(want)), 1;
    if (strncmp(r->name, p.name, sizeof r->name) != 0)
        return snprintf(why, n, "name \"%.80s\", expected \"%.80s\"", r->name, p.name), 1;
    W01_FIELD(cc_major, p.major)
    W01_FIELD(cc_minor, p.minor)
    W01_FIELD(sm_count, p.multiProcessorCount)
    W01_FIELD(l2_bytes, p.l2CacheSize)
    W01_FIELD(bus_width_bits, p.memoryBusWidth)
    W01_FIELD(global_mem_bytes, p.totalGlobalMem)
    W01_FIELD(sm_clock_khz, clk)
    W01_FIELD(mem_clock_khz, mclk)
#undef W01_FIELD
    double gbps = 2.0 * mclk * 1e3 * (p.memoryBusWidth / 8.0) / 1e9;
    double gflops = 2.0 * wb_fp32_lanes_per_sm(p.major, p.minor) * p.multiProcessorCount * clk * 1e3 / 1e9;
    if (!wb_close(r->peak_gbps, gbps, 0, 1e-9)) return snprintf(why, n, "peak_gbps %g, expected %g", r->peak_gbps, gbps), 1;
    if (!wb_close(r->peak_fp32_gflops, gflops, 0, 1e-9))
        return snprintf(why, n, "peak_fp32_gflops %g, expected %g", r->peak_fp32_gflops, gflops), 1;
    return 0;
}

#endif
