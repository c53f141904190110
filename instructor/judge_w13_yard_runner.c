/* judge_w13_yard_runner.c — week 13's yardsticks' runner (judge_week.h,
 * jd_yard_bench): judge_runner.c, this main and the week's given support
 * objects phase3/week13/support/yard_cub_scan.cu (CUB's DeviceScan::
 * InclusiveSum of int32) and yard_cub_rowsum.cu (CUB's row sums, two
 * ways), instructor code only. The judge times it through
 * it with the same protocol as the student's calls, so what the protocol
 * costs is in both figures and not in their ratio. CUB's workspaces are
 * the runner's own (judge_ws.h), allocated on the first call of a size (the
 * warm-up request: not timed), as the test allocates CUB's before timing. */
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "judge.h"
#include "judge_ws.h"
#include "judge_w13.h"
#include "support/yard_cub_rowsum.h"
#include "support/yard_cub_scan.h"

/* p[0] x, p[1] y, i64[0] n */
static int cub_scan(const jr_args *a)
{
    size_t n = (size_t)a->i64[0], bytes = yard_cub_scan_i32_bytes(n);
    void *ws = bytes ? jr_workspace(bytes) : NULL;
    return ws ? (int)yard_cub_scan_i32(ws, bytes, (const int32_t *)a->p[0], (int32_t *)a->p[1], n) : -1;
}

/* p[0] x, p[1] out, i64[1] cols, i64[2] rows */
static int cub_rowsum_block(const jr_args *a)
{
    return (int)yard_cub_rowsum_block((const float *)a->p[0], (size_t)a->i64[2], (size_t)a->i64[1], (float *)a->p[1]);
}

static int cub_rowsum_seg(const jr_args *a)
{
    size_t rows = (size_t)a->i64[2], cols = (size_t)a->i64[1], bytes = yard_cub_rowsum_seg_bytes(rows, cols);
    void *ws = jr_workspace(bytes ? bytes : 1);
    return ws ? (int)yard_cub_rowsum_seg(ws, bytes, (const float *)a->p[0], rows, cols, (float *)a->p[1]) : -1;
}

JR_MAIN({ W13_YARD_CUB_SCAN, "cub::DeviceScan::InclusiveSum", cub_scan },
        { W13_YARD_CUB_ROWSUM_BLOCK, "CUB BlockLoad + BlockReduce", cub_rowsum_block },
        { W13_YARD_CUB_ROWSUM_SEG, "cub::DeviceSegmentedReduce::Sum", cub_rowsum_seg })
