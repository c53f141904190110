/* yard.cu — phase 5's yardsticks (see yard.h): cuBLAS SGEMM in pedantic FP32
 * on row-major data, and the reference naive kernel. */
#include <stdio.h>
#include <cublas_v2.h>
#include "wb_cuda.h"
#include "yard.h"

static cublasHandle_t yard_handle(void)
{
    static cublasHandle_t h;
    if (!h) {
        cublasStatus_t s = cublasCreate(&h);
        if (s == CUBLAS_STATUS_SUCCESS) s = cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
        if (s != CUBLAS_STATUS_SUCCESS) {
            char what[128];
            snprintf(what, sizeof what, "cublasCreate/cublasSetMathMode: %s", cublasGetStatusString(s));
            wb_cuda_check_(cudaErrorUnknown, what, __FILE__, __LINE__);
            h = NULL;
        }
    }
    return h;
}

cudaError_t yard_sgemm_cublas(int M, int N, int K, const float *A, const float *B, float *C)
{
    if (M <= 0 || N <= 0) return cudaSuccess;
    if (K == 0) return cudaMemsetAsync(C, 0, (size_t)M * N * sizeof(float), 0);
    cublasHandle_t h = yard_handle();
    if (!h) return cudaErrorUnknown;
    const float one = 1.0f, zero = 0.0f;
    /* row-major C = A B is column-major C^T = B^T A^T */
    cublasStatus_t s = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N);
    if (s != CUBLAS_STATUS_SUCCESS) {
        char what[128];
        snprintf(what, sizeof what, "cublasSgemm: %s", cublasGetStatusString(s));
        return wb_cuda_check_(cudaErrorUnknown, what, __FILE__, __LINE__);
    }
    return cudaSuccess;
}

static __global__ void yard_naive_kernel(int M, int N, int K, const float *__restrict__ A,
                                         const float *__restrict__ B, float *__restrict__ C)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float s = 0.0f;
    for (int k = 0; k < K; k++) s += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = s;
}

cudaError_t yard_sgemm_naive(int M, int N, int K, const float *A, const float *B, float *C)
{
    if (M <= 0 || N <= 0) return cudaSuccess;
    yard_naive_kernel<<<dim3((M + 31) / 32, (N + 31) / 32), dim3(32, 32)>>>(M, N, K, A, B, C);
    return cudaGetLastError();
}
