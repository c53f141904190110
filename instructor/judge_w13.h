/* judge_w13.h — week 13's judge and runners agree on the exercise numbers
 * and on each call's arguments. */
#ifndef JUDGE_W13_H
#define JUDGE_W13_H

enum { W13_FN_SCAN1 = 1, W13_FN_ROWSUM, W13_FN_SUM, W13_FN_GEMV, W13_FN_MASKS, W13_FN_WREDUCE, W13_FN_WSCAN,
       W13_FN_CG_TILE, W13_FN_CG_SUM, W13_FN_REDUX, W13_FN_VOTES, W13_FN_COMPACT };

/* W13_FN_SCAN1:  p[0] x, p[1] y; i64[0] n, i64[1] shake, i64[2] the workspace (W13_WS_*):
 *                scan1pass_tmp_bytes(n) bytes of the runner's own device memory.
 * W13_FN_ROWSUM: p[0] x, p[1] out; i64[1] cols, i64[2] rows (br_rowsum).
 * W13_FN_SUM:    p[0] x, p[1] the sum (one float); i64[1] n (br_sum).
 * W13_FN_GEMV:   p[0] A, p[1] x, p[2] y; i64[1] cols, i64[2] rows (gv_gemv).
 * W13_FN_MASKS:  no argument; the reply's out[] is wr_tail_mask(0 .. 32) then vt_lanes_below(0 .. 31),
 *                65 unsigned ints (host functions: the CPU checkpoint w13.masks).
 * W13_FN_WREDUCE: p[0] x, p[1] out; i64[1] op, i64[2] n (wr_warp_reduce).
 * W13_FN_WSCAN:  p[0] x, p[1] y; i64[0] n, i64[1] inclusive (warpscan_prefix_sum).
 * W13_FN_CG_TILE: p[0] x, p[1] out; i64[1] op, i64[2] n, i64[3] tile (cgr_tile_reduce).
 * W13_FN_CG_SUM: p[0] x, p[1] the sum (one float); i64[1] n (cgr_sum).
 * W13_FN_REDUX:  p[0] x, p[1] out (uint32); i64[1] op, i64[2] n (cgr_warp_u32).
 * W13_FN_VOTES:  p[0] x, p[1] ballot, p[2] flags; i64[2] n, f64[0] thr (vt_warp_votes).
 * W13_FN_COMPACT: p[0] x, p[1] out, p[2] count (one unsigned long long); i64[2] n, f64[0] thr (vt_compact).
 * (i64[0] is the judge's: a checked case's output length, a timed request's
 * input length; the sizes travel in i64[1..2].)
 * A buffer argument the judge leaves out (-1) is NULL, as the test's wb_dcopy of no bytes gives. */
enum {
    W13_WS_NONE = 0,   /* a NULL workspace (scan1_too_large: scan1pass(NULL, NULL, SCAN1_TILE << 31, NULL, 0)) */
    W13_WS_POISON = 1, /* the workspace, every byte 0xff before the call (a correctness case's first run) */
    W13_WS_KEEP = 2,   /* the workspace as the last call left it (a case's second run; timed calls) */
};

/* The yard runner's (judge_w13_yard_runner.c), numbered apart from the
 * student's: W13_YARD_CUB_SCAN: p[0] x, p[1] y, i64[0] n:
 * cub::DeviceScan::InclusiveSum of int32 (support/yard_cub_scan.cu);
 * W13_YARD_CUB_ROWSUM_BLOCK and _SEG: p[0] x, p[1] out; i64[1] cols, i64[2]
 * rows: CUB's BlockLoad + BlockReduce kernel and DeviceSegmentedReduce::Sum
 * (support/yard_cub_rowsum.cu). */
enum { W13_YARD_CUB_SCAN = 101, W13_YARD_CUB_ROWSUM_BLOCK, W13_YARD_CUB_ROWSUM_SEG };
#define W13_YARD_RUNNER "judge-w13-yard-runner"

#endif
