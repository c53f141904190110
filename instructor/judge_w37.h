/* judge_w37.h — week 37's judge, its runner and its yard runner agree on
 * the exercise numbers and on each call's arguments. */
#ifndef JUDGE_W37_H
#define JUDGE_W37_H

enum { W37_FN_IO_NAIVE = 1, W37_FN_IO_FLASH, W37_FN_FLASH, W37_FN_FLASH_PACKED };

/* W37_FN_IO_NAIVE:  i64[1] bh, i64[2] S, i64[3] D; out: the double
 *                   attn_io_naive_bytes returned (a CPU function: no buffer).
 * W37_FN_IO_FLASH:  i64[1] bh, i64[2] S, i64[3] D, i64[4] Br, i64[5] Bc,
 *                   i64[6] causal; out: the double attn_io_flash_bytes returned.
 * W37_FN_FLASH:     p[0] q, p[1] k, p[2] v, p[3] o, p[4] lse, i64[1] bh,
 *                   i64[2] S, i64[3] D, i64[4] causal, f64[0] scale:
 *                   flash_attn (a buffer the judge leaves out, -1, is NULL,
 *                   as the test's wb_dcopy of no bytes gives).
 * W37_FN_FLASH_PACKED: the timed call: p[0] Q, K and V one after the other
 *                   (i64[0] = bh S D floats each), p[1] O (i64[0] floats)
 *                   then lse (bh S floats); the other scalars as W37_FN_FLASH.
 * (i64[0] is the judge's: a timed request's element count.) */

/* The yard runner's (judge_w37_yard_runner.c), numbered apart from the
 * student's: W37_YARD_CUBLAS: p[0] Q, K, V as W37_FN_FLASH_PACKED, p[1] O
 * (no lse), the same scalars: yard_attn_cublas (the week's given
 * support/yard_cublas_attn.cu) on the yard runner's own cuBLAS handle
 * (CUBLAS_DEFAULT_MATH, as the test's wb_cublas_handle(0)) and its own S x S
 * scores buffer, both made on the first call (the protocol's untimed warm-up
 * request). */
enum { W37_YARD_CUBLAS = 101 };
#define W37_YARD_RUNNER "judge-w37-yard-runner"

#endif
