/* blas.h — week 14: cuBLAS from C, row-major, error-checked.
 *
 * Every function enqueues on the handle's stream and returns the first
 * status that is not CUBLAS_STATUS_SUCCESS (a null handle, a bad leading
 * dimension: cuBLAS's own answer, passed on, never ignored). Matrices are
 * row-major: element (i, j) of a matrix with leading dimension ld is at
 * [i * ld + j], and ld >= max(1, columns). Device pointers throughout. */
#ifndef W14_BLAS_H
#define W14_BLAS_H

#include <cublas_v2.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Math modes for blas_gemm. */
enum { W14_FP32 = 0, W14_TF32 = 1 };

/* Host function: x rounded to TF32 (1 sign, 8 exponent, 10 mantissa bits,
 * kept in a float), to the nearest, ties away from zero (as PTX's
 * cvt.rna.tf32.f32). NaN and +-Inf are returned unchanged; a finite value
 * that rounds past the largest TF32 value becomes Inf. */
float blas_tf32_round(float x);

/* y = alpha x + y for n >= 0 elements (cublasSaxpy). */
cublasStatus_t blas_axpy(cublasHandle_t h, int n, float alpha, const float *x, float *y);

/* *result (one float in device memory) = sum x[i] y[i]; 0 when n == 0. The
 * handle's pointer mode is the same on return as on entry. */
cublasStatus_t blas_dot(cublasHandle_t h, int n, const float *x, const float *y, float *result);

/* C = alpha op(A) op(B) + beta C, row-major, C is M x N (ldc >= N).
 * op(A) is M x K: A is M x K (lda >= K) when ta == 0, K x M (lda >= M) and
 * transposed when ta != 0; likewise op(B) is K x N from B, K x N (ldb >= N)
 * or N x K (ldb >= K) when tb != 0. M, N >= 0, K >= 1. Elements of C
 * outside its M x N (padding past column N) are never written; with beta ==
 * 0 C is not read (it may hold NaN). mode: W14_FP32 (CUBLAS_PEDANTIC_MATH,
 * FP32 everywhere) or W14_TF32 (CUBLAS_TF32_TENSOR_OP_MATH); the handle's
 * math mode is the same on return as on entry. */
cublasStatus_t blas_gemm(cublasHandle_t h, int mode, int ta, int tb, int M, int N, int K, float alpha,
                         const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc);

/* For b < batch: C_b = A_b B_b, row-major and contiguous (A_b is M x K, B_b
 * K x N, C_b M x N; ld = K, N, N), M, N, K >= 1, batch >= 0. The handle's
 * math mode applies (the tests set CUBLAS_PEDANTIC_MATH).
 * _batched: A, B, C are device arrays of `batch` device pointers.
 * _strided: operand b starts stride_x elements after operand b - 1 (a
 * stride of 0 uses the same matrix for every b). */
cublasStatus_t blas_gemm_batched(cublasHandle_t h, int M, int N, int K, const float *const *A,
                                 const float *const *B, float *const *C, int batch);
cublasStatus_t blas_gemm_strided(cublasHandle_t h, int M, int N, int K, const float *A, long long stride_a,
                                 const float *B, long long stride_b, float *C, long long stride_c, int batch);

#ifdef __cplusplus
}
#endif
#endif
