/* judge_w07_yard_runner.c — week 07's yardsticks' runner (judge_week.h,
 * jd_yard_bench): judge_runner.c, this main and the week's given support
 * objects (phase1/week07/support/yard_cub.cu, CUB's sum, scan and histogram;
 * yard_atomics_naive.cu, the naive key count), instructor code only. The
 * judge times them through it with the same protocol as the student's
 * calls, so what the protocol costs is in both figures and not in their
 * ratio. CUB's workspaces are the runner's own (judge_ws.h), allocated on
 * the first call of a size (the warm-up request: not timed), as the test
 * allocates CUB's before timing. */
#include <stddef.h>
#include <cuda_runtime_api.h>

#include "judge.h"
#include "judge_ws.h"
#include "atomics.h"
#include "judge_w07.h"
#include "support/yard_cub.h"

/* p[0] x, p[1] the sum (one float), i64[0] n */
static int cub_sum(const jr_args *a)
{
    size_t n = (size_t)a->i64[0], bytes = yard_cub_sum_bytes(n);
    void *ws = jr_workspace(bytes);
    return ws ? (int)yard_cub_sum(ws, bytes, (const float *)a->p[0], (float *)a->p[1], n) : -1;
}

/* p[0] x, p[1] y, i64[0] n */
static int cub_scan(const jr_args *a)
{
    size_t n = (size_t)a->i64[0], bytes = yard_cub_scan_bytes(n);
    void *ws = jr_workspace(bytes);
    return ws ? (int)yard_cub_scan(ws, bytes, (const float *)a->p[0], (float *)a->p[1], n) : -1;
}

/* p[0] the bytes, p[1] the 256 bins, i64[0] n: zeroed first, as the test's
 * yardstick does (the exercises zero their own) */
static int cub_hist(const jr_args *a)
{
    size_t n = (size_t)a->i64[0], bytes = yard_cub_hist_bytes(n);
    void *ws = jr_workspace(bytes);
    if (!ws) return -1;
    cudaError_t e = cudaMemsetAsync(a->p[1], 0, 256 * sizeof(unsigned int), 0);
    return (int)(e != cudaSuccess ? e : yard_cub_hist(ws, bytes, (const unsigned char *)a->p[0], (unsigned int *)a->p[1], n));
}

/* p[0] the keys, p[1] the counts, i64[0] n, i64[1] nkeys */
static int naive_keycount(const jr_args *a)
{
    return (int)yard_keycount_naive((const unsigned int *)a->p[0], (size_t)a->i64[0], (unsigned int)a->i64[1],
                                    (unsigned int *)a->p[1]);
}

JR_MAIN({ W07_YARD_CUB_SUM, "cub::DeviceReduce::Sum", cub_sum },
        { W07_YARD_CUB_HIST, "cub::DeviceHistogram::HistogramEven", cub_hist },
        { W07_YARD_NAIVE_KEYCOUNT, "yard_keycount_naive", naive_keycount },
        { W07_YARD_CUB_SCAN, "cub::DeviceScan::InclusiveSum", cub_scan })
