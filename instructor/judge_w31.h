/* judge_w31.h — week 31's judge and runner agree on the exercise numbers
 * and on what each call's arguments are. */
#ifndef JUDGE_W31_H
#define JUDGE_W31_H

enum { W31_FN_MOMENTS = 1, W31_FN_LN, W31_FN_RMS, W31_FN_LN_TIMED, W31_FN_RMS_TIMED };

/* W31_FN_MOMENTS:   p[0] x (host floats), i64[0] n, i64[1] which (0 moments_sumsq, 1 moments_twopass,
 *                   2 moments_welford); out: the float mean and variance it wrote over two NaNs.
 * W31_FN_LN:        p[0] x, p[1] gamma, p[2] beta, p[3] y, p[4] mean, p[5] rstd, i64[1] rows, i64[2] cols,
 *                   i64[3] the method (W31_TWOPASS, W31_WELFORD, W31_SUMSQ of w31_checks.h), f64[0] eps.
 * W31_FN_RMS:       p[0] x, p[1] gamma, p[2] y, p[3] rstd, i64[1] rows, i64[2] cols, f64[0] eps.
 * W31_FN_LN_TIMED:  the timed protocol's one input and one output: p[0] x (rows x cols floats) with gamma
 *                   and beta after it (cols floats each, at x + rows x cols and after that), p[1] y (rows x
 *                   cols floats) with mean and rstd after it (rows floats each); i64[1] rows, i64[2] cols,
 *                   i64[3] the method, f64[0] eps.
 * W31_FN_RMS_TIMED: p[0] x with gamma after it, p[1] y with rstd after it; i64[1] rows, i64[2] cols,
 *                   f64[0] eps. */

#endif
