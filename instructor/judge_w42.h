/* judge_w42.h — week 42's judge and runner agree on the exercise numbers
 * and on what each call's arguments are. */
#ifndef JUDGE_W42_H
#define JUDGE_W42_H

enum { W42_FN_WS = 1, W42_FN_F32, W42_FN_F64 };

/* W42_FN_WS:  ln_bwd_workspace_bytes(i64[1] rows, i64[2] cols, i64[3] elem_bytes), its size_t in the
 *             reply's out (8 bytes); status 0.
 * W42_FN_F32 / W42_FN_F64: ln_bwd_f32 / ln_bwd_f64 with nine pointers, more than a call's JD_MAX_ARGS:
 *             the five inputs in one buffer p[0], x, dy, weight, mean and rstd at byte offsets i64[3] to
 *             i64[7] into it (an offset < 0, or p[0] NULL: that input is NULL); p[1] dx, p[2] dweight,
 *             p[3] dbias, p[4] workspace; i64[1] rows, i64[2] cols; the status is its cudaError_t. */
#define W42_IN_X    3
#define W42_IN_DY   4
#define W42_IN_W    5
#define W42_IN_MEAN 6
#define W42_IN_RSTD 7

#endif
