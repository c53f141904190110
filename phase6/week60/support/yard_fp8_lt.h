/* yard_fp8_lt.h — week 60, given: cuBLASLt's FP8 GEMM, the yardstick of
 * w60.fp8-speed (support/yard_fp8_lt.cu). Nothing here is the learner's code.
 *
 * The same product as fp8_gemm on the same buffers: D (M x N, row-major
 * BF16, ldd = N) = bf16(scale_a[0] * scale_b[0] * A B^T), A (M x K) and
 * B (N x K) row-major E4M3, FP32 compute (CUBLAS_COMPUTE_32F), the scales
 * as cuBLASLt's scale pointers. cuBLASLt is column-major, and its FP8
 * kernels take only the "TN" form (its A transposed, its B not): row-major
 * D is column-major D^T (N x M) = B A^T, so cuBLASLt's A is our B (K x N
 * column-major, ld K, transposed) and its B is our A (K x M, ld K, as it
 * is); their scale pointers swap with them. Both operands K-major: the
 * layout fp8_gemm takes, with no copy.
 *
 * fast_accum 1 sets CUBLASLT_MATMUL_DESC_FAST_ACCUM: the tensor cores'
 * partial sums are not "periodically promoted to a higher precision"
 * (cublasLt.h), which is what fp8_gemm does too; 0 is cuBLASLt's default,
 * which promotes them. The algorithm is cublasLtMatmulAlgoGetHeuristic's
 * first choice with a 32 MiB workspace. */
#ifndef W60_YARD_FP8_LT_H
#define W60_YARD_FP8_LT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct yard_fp8 yard_fp8;

/* A plan on these buffers, or NULL with the reason in why (no algorithm,
 * no memory, an unsupported combination). Opening runs the product once
 * (each of cuBLASLt's first eight candidates in turn, until one runs):
 * D is written. */
yard_fp8 *yard_fp8_open(const uint8_t *A, const uint8_t *B, const float *scale_a, const float *scale_b, uint16_t *D,
                        int M, int N, int K, int fast_accum, char *why, size_t why_size);
/* Enqueue the planned matmul on the default stream; the cublasStatus_t (0: success). */
int yard_fp8_run(const yard_fp8 *p);
/* cuBLAS's name for a status yard_fp8_run returned. */
const char *yard_fp8_status(int status);
void yard_fp8_close(yard_fp8 *p);

#ifdef __cplusplus
}
#endif
#endif
