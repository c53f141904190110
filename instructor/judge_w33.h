/* judge_w33.h — week 33's judge and runner agree on the exercise numbers
 * and on what each call's arguments are. */
#ifndef JUDGE_W33_H
#define JUDGE_W33_H

enum { W33_FN_QKT = 1, W33_FN_MASK };

/* W33_FN_QKT:  qkt_scores(h, p[0] Q, p[1] K, p[2] S, i64[1] B, i64[2] H, i64[3] L, i64[4] D) on a handle
 *              the runner creates for the call (a handle cannot cross processes) in CUBLAS_PEDANTIC_MATH,
 *              as the test's wb_cublas_handle(1), and destroys after; i64[5] != 0: a null handle instead.
 *              The status is cuBLAS's (a cublasStatus_t), -1 when the runner could not make the handle.
 * W33_FN_MASK: mask_scores(p[0] S, i64[1] B, i64[2] H, i64[3] L, i64[4] causal, p[1] kv_len or NULL);
 *              the status is its cudaError_t. */

#endif
