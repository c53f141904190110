/* blas.cu — week 14, exercise 1: cuBLAS from C, row-major, every status
 * checked.
 *
 * cuBLAS keeps the Fortran convention: matrices are stored by columns. A
 * row-major M x N matrix with leading dimension ld, read by columns, is its
 * N x M transpose with the same ld. So row-major C = op(A) op(B) is, read
 * by columns, C^T = op(B)^T op(A)^T: one column-major call with the two
 * operands swapped, the sizes swapped (N, M, K) and the transpose flags
 * unchanged. No data moves.
 *
 * State on the handle (pointer mode, math mode) belongs to the caller: a
 * function that changes it for its own call sets it back, even on failure.
 * TF32 (CUBLAS_TF32_TENSOR_OP_MATH) lets cuBLAS round the inputs to 10
 * mantissa bits and use the tensor cores; CUBLAS_PEDANTIC_MATH keeps every
 * step in FP32. blas_tf32_round shows on the CPU what the rounding does. */
#include <string.h>
#include <stdint.h>
#include "blas.h"

float blas_tf32_round(float x)
{
    //@solution
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) == 0x7f800000u) return x; /* NaN, +-Inf: unchanged */
    u += 0x1000u;                                    /* half of the 13 dropped bits: ties go up in magnitude */
    u &= 0xffffe000u;                                /* a carry into the exponent is right (and may give Inf) */
    memcpy(&x, &u, sizeof x);
    return x;
    //@starter
    //| /* TODO: keep 10 of the 23 mantissa bits, rounding to the nearest (ties
    //|  * away from zero). Work on the bits (memcpy into a uint32_t); NaN and
    //|  * Inf come back unchanged. */
    //| return x;
    //@end
}

cublasStatus_t blas_axpy(cublasHandle_t h, int n, float alpha, const float *x, float *y)
{
    //@solution
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    return cublasSaxpy(h, n, &alpha, x, 1, y, 1); /* alpha read from the host: the default pointer mode */
    //@starter
    //| /* TODO: one cublasSaxpy (unit strides), its status returned. */
    //| (void)h, (void)n, (void)alpha, (void)x, (void)y;
    //| return CUBLAS_STATUS_NOT_SUPPORTED;
    //@end
}

cublasStatus_t blas_dot(cublasHandle_t h, int n, const float *x, const float *y, float *result)
{
    //@solution
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    cublasStatus_t s;
    if (n <= 0) { /* the empty sum: written here, on the handle's stream */
        cudaStream_t st;
        if ((s = cublasGetStream(h, &st)) != CUBLAS_STATUS_SUCCESS) return s;
        return cudaMemsetAsync(result, 0, sizeof(float), st) == cudaSuccess ? CUBLAS_STATUS_SUCCESS
                                                                            : CUBLAS_STATUS_EXECUTION_FAILED;
    }
    cublasPointerMode_t was;
    if ((s = cublasGetPointerMode(h, &was)) != CUBLAS_STATUS_SUCCESS) return s;
    if ((s = cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE)) != CUBLAS_STATUS_SUCCESS) return s;
    s = cublasSdot(h, n, x, 1, y, 1, result); /* device pointer mode: no wait for the result */
    cublasStatus_t back = cublasSetPointerMode(h, was);
    return s != CUBLAS_STATUS_SUCCESS ? s : back;
    //@starter
    //| /* TODO: remember the pointer mode, switch to CUBLAS_POINTER_MODE_DEVICE
    //|  * (the result goes to device memory), cublasSdot, restore the mode. The
    //|  * empty sum (n == 0) is 0: write it yourself. */
    //| (void)h, (void)n, (void)x, (void)y, (void)result;
    //| return CUBLAS_STATUS_NOT_SUPPORTED;
    //@end
}

cublasStatus_t blas_gemm(cublasHandle_t h, int mode, int ta, int tb, int M, int N, int K, float alpha,
                         const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc)
{
    //@solution
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (mode != W14_FP32 && mode != W14_TF32) return CUBLAS_STATUS_INVALID_VALUE;
    if (M == 0 || N == 0) return CUBLAS_STATUS_SUCCESS; /* nothing to write */
    cublasMath_t was;
    cublasStatus_t s;
    if ((s = cublasGetMathMode(h, &was)) != CUBLAS_STATUS_SUCCESS) return s;
    s = cublasSetMathMode(h, mode == W14_TF32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_PEDANTIC_MATH);
    if (s != CUBLAS_STATUS_SUCCESS) return s;
    /* column-major C^T (N x M, ldc) = op(B)^T (N x K, ldb) op(A)^T (K x M, lda) */
    s = cublasSgemm(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K, &alpha, B, ldb,
                    A, lda, &beta, C, ldc);
    cublasStatus_t back = cublasSetMathMode(h, was);
    return s != CUBLAS_STATUS_SUCCESS ? s : back;
    //@starter
    //| /* TODO: remember the math mode (cublasGetMathMode), set
    //|  * CUBLAS_PEDANTIC_MATH or CUBLAS_TF32_TENSOR_OP_MATH, one cublasSgemm for
    //|  * the column-major C^T = op(B)^T op(A)^T, restore the mode. M or N == 0:
    //|  * no call. The first failed status is the answer. */
    //| (void)h, (void)mode, (void)ta, (void)tb, (void)M, (void)N, (void)K, (void)alpha;
    //| (void)A, (void)lda, (void)B, (void)ldb, (void)beta, (void)C, (void)ldc;
    //| return CUBLAS_STATUS_NOT_SUPPORTED;
    //@end
}

cublasStatus_t blas_gemm_batched(cublasHandle_t h, int M, int N, int K, const float *const *A,
                                 const float *const *B, float *const *C, int batch)
{
    //@solution
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (batch == 0) return CUBLAS_STATUS_SUCCESS;
    const float one = 1.0f, zero = 0.0f;
    return cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N, batch);
    //@starter
    //| /* TODO: cublasSgemmBatched, operands swapped as in blas_gemm. */
    //| (void)h, (void)M, (void)N, (void)K, (void)A, (void)B, (void)C, (void)batch;
    //| return CUBLAS_STATUS_NOT_SUPPORTED;
    //@end
}

cublasStatus_t blas_gemm_strided(cublasHandle_t h, int M, int N, int K, const float *A, long long stride_a,
                                 const float *B, long long stride_b, float *C, long long stride_c, int batch)
{
    //@solution
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (batch == 0) return CUBLAS_STATUS_SUCCESS;
    const float one = 1.0f, zero = 0.0f;
    return cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, stride_b, A, K, stride_a,
                                     &zero, C, N, stride_c, batch);
    //@starter
    //| /* TODO: cublasSgemmStridedBatched, operands (and their strides) swapped
    //|  * as in blas_gemm. */
    //| (void)h, (void)M, (void)N, (void)K, (void)A, (void)stride_a, (void)B, (void)stride_b;
    //| (void)C, (void)stride_c, (void)batch;
    //| return CUBLAS_STATUS_NOT_SUPPORTED;
    //@end
}
