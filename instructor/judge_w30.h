/* judge_w30.h — week 30's judge, its runner and its yard runner agree on
 * the exercise numbers and on each call's arguments. */
#ifndef JUDGE_W30_H
#define JUDGE_W30_H

enum { W30_FN_STATS = 1, W30_FN_WARP, W30_FN_BLOCK, W30_FN_ONLINE };

/* W30_FN_STATS:  p[0] x (host memory: a CPU function), i64[1] n; out: two
 *                doubles, the m and s online_stats stored (12345 each
 *                where it stored nothing, as the test starts them).
 * W30_FN_WARP, W30_FN_BLOCK, W30_FN_ONLINE:
 *                p[0] x, p[1] y, i64[1] rows, i64[2] cols: rowsoftmax_warp,
 *                rowsoftmax_block, rowsoftmax_online.
 * (i64[0] is the judge's: a checked case's output length, a timed
 * request's input length; the sizes travel in i64[1..2].)
 * A buffer argument the judge leaves out (-1) is NULL, as the test's
 * wb_dcopy of no bytes gives. */

/* The yard runner's (judge_w30_yard_runner.c), numbered apart from the
 * student's: W30_YARD_CUDNN: p[0] x, p[1] y, i64[1] rows, i64[2] cols:
 * cudnnSoftmaxForward (accurate, instance mode) through the week's given
 * support/yard_cudnn_softmax.cu. */
enum { W30_YARD_CUDNN = 101 };
#define W30_YARD_RUNNER "judge-w30-yard-runner"

#endif
