/* judge_w35.h — week 35's judge and runner agree on the exercise numbers
 * and on what each call's arguments are. */
#ifndef JUDGE_W35_H
#define JUDGE_W35_H

enum { W35_FN_PHILOX = 1, W35_FN_UNIFORM, W35_FN_KEEP, W35_FN_DROPOUT, W35_FN_DROPOUT_TIMED };

/* W35_FN_PHILOX:        i64[0..3] the counter, i64[4..5] the key (32-bit words); out: the four words
 *                       philox4x32_10 wrote over 0xdeadbeef.
 * W35_FN_UNIFORM:       i64[0] x (32 bits); out: the float philox_uniform returned.
 * W35_FN_KEEP:          i64[0] seed, i64[1] offset (the bits of unsigned long long), i64[2] i, f64[0] p;
 *                       out: the int philox_dropout_keep_host returned.
 * W35_FN_DROPOUT:       p[0] x, p[1] bias, p[2] residual, p[3] y, p[4] mask; i64[1] rows, i64[2] cols,
 *                       i64[3] seed, i64[4] offset, f64[0] p (as a float).
 * W35_FN_DROPOUT_TIMED: the timed protocol's one input and one output: p[0] x (rows x cols floats), then
 *                       the residual (rows x cols), then the bias (cols); p[1] y (rows x cols floats), then
 *                       the mask (rows x cols bytes); i64[1] rows, i64[2] cols, i64[3] seed, i64[4] offset,
 *                       f64[0] p. */

#endif
