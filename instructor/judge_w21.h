/* judge_w21.h — week 21's judge and runner agree on the exercise numbers
 * and on each call's arguments. */
#ifndef JUDGE_W21_H
#define JUDGE_W21_H

enum { W21_FN_TFLOPS = 1, W21_FN_NAIVE, W21_FN_COALESCED, W21_FN_CUBLAS };

/* W21_FN_TFLOPS:    i64[1] M, i64[2] N, i64[3] K, f64[0] ms; out: naive_gemm_tflops's double (status 0).
 * W21_FN_NAIVE, W21_FN_COALESCED: judge_gemm.h's layout (p[0] A, p[1] B, p[2] C, i64[1] M, i64[2] N,
 *                   i64[3] K).
 * W21_FN_CUBLAS:    cublas_rm_sgemm on a handle of the runner's (made on the first call), the same
 *                   layout; i64[4] 1: a new handle, left in CUBLAS_TF32_TENSOR_OP_MATH before the call
 *                   (the test's cublas_tf32_handle). Status: cudaErrorUnknown when cuBLAS returned
 *                   anything but CUBLAS_STATUS_SUCCESS (or the handle could not be made). */

#endif
