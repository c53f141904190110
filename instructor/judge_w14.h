/* judge_w14.h — week 14's judge and runner agree on the exercise numbers
 * and on each call's arguments (judge_w14.c, judge_w14_runner.c). */
#ifndef JUDGE_W14_H
#define JUDGE_W14_H

enum { W14_FN_TF32 = 1, W14_FN_AXPY, W14_FN_DOT, W14_FN_GEMM, W14_FN_BATCHED, W14_FN_STRIDED, W14_FN_CUB_SUM,
       W14_FN_CUB_SCAN, W14_FN_CUB_SORT, W14_FN_ARGMAX, W14_FN_AMAX, W14_FN_SQDIST, W14_FN_SORT_BY_KEY,
       W14_FN_THRUST_OOM, W14_FN_GEMM_TF32, W14_FN_STRIDED_TIMED, W14_FN_SORT_TIMED };

/* The cuBLAS entries run on a handle of the runner's own (a handle cannot
 * cross processes), made once; before each call its stream is the default
 * stream, its pointer mode CUBLAS_POINTER_MODE_HOST and its math mode the
 * one the judge names (the test makes a new handle a case in
 * CUBLAS_DEFAULT_MATH, or sets one); W14_NULL_HANDLE passes a null handle.
 * The reply's out[] holds, as two ints, the handle's pointer mode and math
 * mode after the call (what the runner reads off its handle: untrusted, as
 * every reply).
 *
 * W14_FN_TF32:    p[0] x, p[1] y, host buffers of i64[1] floats: y[i] = blas_tf32_round(x[i]).
 * W14_FN_AXPY:    p[0] x, p[1] y; i64[1] n, i64[2] flags (W14_NULL_HANDLE), f64[0] alpha.
 * W14_FN_DOT:     p[0] x, p[1] y, p[2] the result (one float); i64[1] n, i64[2] flags.
 * W14_FN_GEMM:    p[0] A, p[1] B, p[2] C; i64[1..6] M, N, K, lda, ldb, ldc; i64[7] flags (W14_TA, W14_TB,
 *                 W14_MODE_TF32, W14_NULL_HANDLE) | the math mode before the call << 8; f64[0] alpha,
 *                 f64[1] beta.
 * W14_FN_BATCHED: p[0] A, p[1] B, p[2] C, each batch contiguous matrices; i64[1..4] M, N, K, batch: the runner
 *                 builds the three arrays of device pointers in its own device memory (pointers of its
 *                 mappings) and calls blas_gemm_batched, math mode CUBLAS_PEDANTIC_MATH.
 * W14_FN_STRIDED: p[0] A, p[1] B, p[2] C; i64[1..4] M, N, K, batch, i64[5..7] stride_a, stride_b, stride_c;
 *                 f64[0] != 0: a null handle; math mode CUBLAS_PEDANTIC_MATH.
 * W14_FN_CUB_SUM, _SCAN: p[0] x, p[1] the sum or y; i64[1] n, i64[3] W14_WS_*.
 * W14_FN_CUB_SORT: p[0] keys_in, p[1] keys_out, p[2] vals_in, p[3] vals_out; i64[1] n, i64[2] end_bit,
 *                 i64[3] W14_WS_*.
 *   W14_WS_QUERY: the query (tmp NULL, the size variable set to all ones first), then the call with a
 *                 workspace of the runner's own of that many bytes (at least 1); out[] the query's
 *                 answer (an unsigned long long; all ones: not written). The query's own failure is the
 *                 status.
 *   W14_WS_SMALL: the query, then the call with that workspace but a size of 1 byte; the call's status
 *                 returned (the runtime's last error cleared after it, as the test does).
 * W14_FN_ARGMAX, _AMAX: p[0] x, p[1] idx or amax; i64[1] rows, i64[2] cols.
 * W14_FN_SQDIST:  p[0] x, p[1] y; i64[1] n; out[] the double thr_sqdist wrote (NaN before the call).
 * W14_FN_SORT_BY_KEY: p[0] keys, p[1] vals (in place); i64[1] n.
 * W14_FN_THRUST_OOM: p[0] keys, p[1] vals of W14_OOM_N pairs: thr_sort_by_key of 2^20 of them first (its
 *                 status, if not success, is the reply's), then the runner takes all the device memory it
 *                 can (1 GB, 64 MB, 4 MB chunks, at most 1024), calls thr_sort_by_key on all W14_OOM_N,
 *                 frees what it took; out[] the big call's status (an int) and, 8 bytes in, the free
 *                 bytes it saw (an unsigned long long); the reply's status is the small sort's.
 * W14_FN_GEMM_TF32: timed (judge_gemm.h's layout: p[0] A, p[1] B, p[2] C, i64[1..3] M, N, K, row-major,
 *                 contiguous): blas_gemm(W14_TF32, alpha 1, beta 0) on the runner's handle in
 *                 CUBLAS_DEFAULT_MATH (the test's: the TF32 must come from blas_gemm).
 * W14_FN_STRIDED_TIMED: timed: p[0] A, p[1] B, p[2] C, i64[1] n, i64[2] batch: blas_gemm_strided of batch
 *                 contiguous n x n products (strides n * n), the handle in CUBLAS_PEDANTIC_MATH.
 *                 The timed entries return cudaErrorUnknown for a cuBLAS status other than success (the
 *                 timed protocol names a reply's status as a CUDA error).
 * W14_FN_SORT_TIMED: timed (w14.sort-speed): p[0] keys_in,
 *                 p[1] vals_in, p[2] the output, keys_out (i64[0] words) then vals_out (i64[0] more);
 *                 i64[0] n, i64[2] end_bit: cubdev_sort_pairs's query, then the call with the runner's
 *                 workspace (judge_ws.h) of that size; the call's status.
 * (i64[0] is the judge's.)
 *
 * The yard runner's (judge_w14_yard_runner.c, instructor code only, beside the judge; jd_yard_bench):
 * W14_YARD_TF32: cublasSgemm on a handle in CUBLAS_TF32_TENSOR_OP_MATH, W14_FN_GEMM_TF32's arguments (the
 * test's yardstick for w14.tf32-speed); W14_YARD_LOOP: W14_FN_STRIDED_TIMED's arguments, a loop of batch
 * cublasSgemm calls on a handle in CUBLAS_PEDANTIC_MATH (w14.strided-speed's); W14_YARD_SORT:
 * W14_FN_SORT_TIMED's arguments, cub::DeviceRadixSort::SortPairs over bits [0, i64[2]) (judge_w14_kernels.cu;
 * w14.sort-speed's ALLBITS: i64[2] = 32, the judge's). */
enum { W14_YARD_TF32 = 101, W14_YARD_LOOP, W14_YARD_SORT };
#define W14_YARD_RUNNER "judge-w14-yard-runner"
#define W14_BATCH_N     64   /* w14.strided-speed: 4096 products of 64^3 */
#define W14_BATCH_COUNT 4096
enum { W14_TA = 1, W14_TB = 2, W14_MODE_TF32 = 4, W14_NULL_HANDLE = 8 };
enum { W14_WS_QUERY = 0, W14_WS_SMALL = 1 };
#define W14_OOM_N   ((long long)1 << 25)
#define W14_SORT_N  (1 << 25) /* w14.sort-speed: 32M pairs, keys below 2^16 (the test's bench_sort) */

#endif
