/* judge_w34.h — week 34's judge and runner agree on the exercise numbers
 * and on what each call's arguments are. */
#ifndef JUDGE_W34_H
#define JUDGE_W34_H

enum { W34_FN_MODEL = 1, W34_FN_SOFTMAX, W34_FN_PV, W34_FN_ATT };

/* W34_FN_MODEL:   attention_naive_bytes(B, H, L, D, causal), attention_fused_bytes(B, H, L, D) and
 *                 attention_flops(B, H, L, D), i64[1..5] B, H, L, D, causal: out, three doubles in that
 *                 order (host functions: no buffer, no GPU).
 * W34_FN_SOFTMAX: softmax_scores(p[0] S, p[1] P, i64[1] rows, i64[2] L) (P == S: in place); also the
 *                 timed protocol's call (p[0] its input, p[1] its output).
 * W34_FN_PV:      pv_output(h, p[0] P, p[1] V, p[2] O, i64[1] B, i64[2] H, i64[3] L, i64[4] D), and
 * W34_FN_ATT:     attention(h, p[0] Q, p[1] K, p[2] V, p[3] O, p[4] work, i64[1] B, i64[2] H, i64[3] L,
 *                 i64[4] D, i64[6] causal, p[5] kv_len or NULL),
 *                 each on a handle the runner makes for the call (a handle cannot cross processes) in
 *                 CUBLAS_PEDANTIC_MATH, as the test's wb_cublas_handle(1), and destroys after; i64[5] != 0:
 *                 a null handle instead. The status is cuBLAS's, -1 when the runner could not make the
 *                 handle. */

#endif
