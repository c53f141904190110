/* cublas_rm.cu — week 21, exercise 3: cuBLAS from row-major data.
 *
 * cuBLAS stores matrices by columns. A row-major M x N matrix C is, read by
 * columns, the N x M matrix C^T; and C = A B means C^T = B^T A^T. B^T and A^T
 * are, read by columns, exactly the row-major B and A we already have. So the
 * row-major product is one column-major call with the operands swapped and
 * no transposes at all:
 *   cublasSgemm(h, N, N, n=N, m=M, k=K, 1, B, ldb=N, A, lda=K, 0, C, ldc=N).
 * CUBLAS_PEDANTIC_MATH keeps it in FP32 (no TF32 tensor cores), the same
 * arithmetic as our kernels: the fair yardstick for the weeks that follow. */
#include "cublas_rm.h"

cublasStatus_t cublas_rm_sgemm(cublasHandle_t h, int M, int N, int K, const float *A, const float *B, float *C)
{
    //@solution
    if (M <= 0 || N <= 0) return CUBLAS_STATUS_SUCCESS; /* ldc = N must be >= 1: no call */
    cublasStatus_t s = cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
    if (s != CUBLAS_STATUS_SUCCESS) return s;
    if (K == 0) { /* an empty sum: C = 0 (lda = K would be an invalid 0) */
        cudaStream_t st;
        if ((s = cublasGetStream(h, &st)) != CUBLAS_STATUS_SUCCESS) return s;
        return cudaMemsetAsync(C, 0, (size_t)M * N * sizeof(float), st) == cudaSuccess ? CUBLAS_STATUS_SUCCESS
                                                                                      : CUBLAS_STATUS_EXECUTION_FAILED;
    }
    const float one = 1.0f, zero = 0.0f;
    return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N);
    //@starter
    //| /* TODO: FP32 only (cublasSetMathMode), then one cublasSgemm computing
    //|  * the column-major C^T = B^T A^T. Handle M or N == 0 (no call) and
    //|  * K == 0 (C = 0). */
    //| (void)h, (void)M, (void)N, (void)K, (void)A, (void)B, (void)C;
    //| return CUBLAS_STATUS_NOT_SUPPORTED;
    //@end
}
