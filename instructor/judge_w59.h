/* judge_w59.h — week 59's judge and its runner agree on the exercise
 * numbers and on each call's arguments. */
#ifndef JUDGE_W59_H
#define JUDGE_W59_H

enum { W59_FN_WS = 1, W59_FN_BWD };

/* W59_FN_WS:  flash_bwd_workspace_bytes(i64[1] B, i64[2] H, i64[3] S,
 *             i64[4] D), answered as an unsigned long long in the reply's out.
 * W59_FN_BWD: flash_bwd: p[0] Q; p[1] K, with V, O and dO i64[6] bytes apart
 *             after it and lse 4 i64[6] bytes past K (i64[6] = 0: every one of
 *             them is p[1], as the test's bad-argument calls pass one buffer
 *             for all); p[2] dQ, p[3] dK, p[4] dV, p[5] workspace (each NULL
 *             where the judge sends none, each at the byte offset the judge
 *             chose: a misaligned pointer is a case); i64[1] B, i64[2] H,
 *             i64[3] S, i64[4] D, i64[5] causal; f64[0] scale.
 * (A call has at most JD_MAX_ARGS buffer arguments, flash_bwd ten pointers:
 * hence the inputs K, V, O, dO and lse in one buffer. i64[0] is the judge's.) */

#endif
