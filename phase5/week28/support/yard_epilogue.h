/* yard_epilogue.h — week 28, given: the library yardsticks of the fused
 * benchmark (support/yard_epilogue.cu). Nothing here is the learner's code.
 *
 * yard_lt_*: cublasLtMatmul on row-major data, FP16 A (M x K) and B (K x N),
 * FP32 accumulate (CUBLAS_COMPUTE_32F), FP32 C (M x N, row-major, as the
 * week's C), with the epilogue that matches `act` and `bias`:
 *
 *   ACT_RELU + bias -> CUBLASLT_EPILOGUE_RELU_BIAS   ACT_RELU, no bias -> RELU
 *   ACT_GELU + bias -> CUBLASLT_EPILOGUE_GELU_BIAS   ACT_GELU, no bias -> GELU
 *   ACT_NONE + bias -> CUBLASLT_EPILOGUE_BIAS        ACT_NONE, no bias -> DEFAULT
 *
 * (DEFAULT is the library's plain GEMM: the first half of the library
 * unfused pair.) Row-major C = A B is column-major C^T = B^T A^T, so B is
 * cuBLASLt's first operand, nothing is transposed, and cuBLASLt's bias,
 * which runs along its rows, runs along C's columns: bias[col], the week's
 * definition. The algorithm is cublasLtMatmulAlgoGetHeuristic's first
 * choice for these pointers' alignment, with a 32 MiB workspace.
 * cuBLASLt's GELU is its own (documented only as "GELU"): the test checks
 * its output against the week's tanh form at the week's tolerance.
 *
 * yard_bias_act: the element-wise pass C = act(C + bias[col]) in place, one
 * float a thread, grid-stride (GELU with tanhf, the textbook form): the
 * second half of the library unfused pair, independent of the learner's
 * gemm_epilogue_act. A stopwatch for a plain DRAM-bound pass, not an answer key. */
#ifndef W28_YARD_EPILOGUE_H
#define W28_YARD_EPILOGUE_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct yard_lt yard_lt;

/* A plan for C = act(A B + bias) on these buffers (bias may be NULL), or
 * NULL with the reason in why (no GPU, an unsupported epilogue, no
 * algorithm). */
yard_lt *yard_lt_open(const uint16_t *A, const uint16_t *B, const float *bias, float *C, int M, int N, int K, int act,
                      char *why, size_t why_size);
/* Enqueue the planned matmul on the default stream; returns the
 * cublasStatus_t (0: success). */
int yard_lt_run(const yard_lt *p);
/* The epilogue's name ("CUBLASLT_EPILOGUE_RELU_BIAS"). */
const char *yard_lt_epilogue(const yard_lt *p);
void yard_lt_close(yard_lt *p);

/* C = act(C + bias[col]) in place, M x N row-major (bias may be NULL). */
cudaError_t yard_bias_act(float *C, const float *bias, int M, int N, int act);

#ifdef __cplusplus
}
#endif
#endif
