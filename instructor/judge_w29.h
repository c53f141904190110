/* judge_w29.h — week 29's judge and runner agree on the exercise numbers
 * and on what each call's arguments are. */
#ifndef JUDGE_W29_H
#define JUDGE_W29_H

enum { W29_FN_LIMIT = 1, W29_FN_NAIVE, W29_FN_STABLE };

/* W29_FN_LIMIT:  i64[0] cols; out: the double naive_limit returned (status 0).
 * W29_FN_NAIVE:  p[0] x, p[1] y, p[2] sums, i64[1] rows, i64[2] cols.
 * W29_FN_STABLE: p[0] x, p[1] y, i64[1] rows, i64[2] cols.
 * After a call that returned cudaSuccess the runner waits for the device
 * where it has one, also when the judge gave it host buffers (no GPU for the
 * judge: the plumbing mode, judge_w29.c's CPU pass), so the judge never
 * reads an output a kernel is still writing. */

#endif
