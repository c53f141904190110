/* judge_w07.h — week 07's judge and runner agree on the exercise numbers
 * and on each call's arguments. */
#ifndef JUDGE_W07_H
#define JUDGE_W07_H

enum { W07_FN_REDUCE = 1, W07_FN_SCAN, W07_FN_HIST, W07_FN_COMPACT, W07_FN_KEYCOUNT, W07_FN_MATMUL };

/* W07_FN_REDUCE:   p[0] x, p[1] the sum (one float); i64[0] n, i64[1] the version, i64[2] the workspace
 *                  (W07_WS_*): reduce_tmp_bytes(n) bytes of the runner's own device memory.
 * W07_FN_SCAN:     p[0] x, p[1] y; i64[0] n, i64[1] 0 scan_hs, 1 scan_blelloch, 2 scan_fast, i64[2] the
 *                  workspace (scan_tmp_bytes(n)).
 * W07_FN_HIST:     p[0] the bytes, p[1] the 256 bins; i64[0] n, i64[1] 0 hist_global, 1 hist_shared, 2 hist_warp.
 * W07_FN_COMPACT:  p[0] x, p[1] out, p[2] count; i64[0] n, i64[1] thresh (atomics_compact_warp).
 * W07_FN_KEYCOUNT: p[0] keys, p[1] counts; i64[0] n, i64[1] nkeys (atomics_keycount_warp).
 * W07_FN_MATMUL:   p[0] A, p[1] B, p[2] C; i64[0] M, i64[1] N, i64[2] K, i64[3] 0 matmul_naive, 1 matmul_tiled.
 * A buffer argument the judge leaves out (-1) is NULL, as the test's wb_dcopy of no bytes gives. */
enum {
    W07_WS_NONE = 0,   /* a NULL workspace (the bad-version case: reduce_sum(0, NULL, 10, NULL, NULL)) */
    W07_WS_POISON = 1, /* the workspace, every byte 0xff before the call (a correctness case) */
    W07_WS_KEEP = 2,   /* the workspace as the last call left it (timed calls: the test allocates it once) */
};

/* The yard runner's (judge_w07_yard_runner.c), numbered apart from the
 * student's: p[0] the input, p[1] the output, i64[0] n:
 * W07_YARD_CUB_SUM: cub::DeviceReduce::Sum, one float out;
 * W07_YARD_CUB_HIST: the 256 bins zeroed, then cub::DeviceHistogram::HistogramEven;
 * W07_YARD_NAIVE_KEYCOUNT: yard_keycount_naive, i64[1] nkeys;
 * W07_YARD_CUB_SCAN: cub::DeviceScan::InclusiveSum, n floats out. */
enum { W07_YARD_CUB_SUM = 101, W07_YARD_CUB_HIST, W07_YARD_NAIVE_KEYCOUNT, W07_YARD_CUB_SCAN };
#define W07_YARD_RUNNER "judge-w07-yard-runner"

#endif
