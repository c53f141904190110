/* judge_w40.h — week 40's judge and runner agree on the exercise number and
 * on what a call's arguments are. */
#ifndef JUDGE_W40_H
#define JUDGE_W40_H

/* W40_FN_SOFTMAX: softmax_checked(p[0] x or NULL, p[1] y or NULL (x itself in place), i64[1] rows, i64[2] cols,
 *                 i64[3] dtype, stream 0); the status is its cudaError_t. i64[4] != 0: the runner then
 *                 synchronises the device and puts that cudaError_t (an int) in out[0..4) (judge_smx7.h,
 *                 SMX7_FN: the same entry as week 39's). */
enum { W40_FN_SOFTMAX = 1 };

#endif
