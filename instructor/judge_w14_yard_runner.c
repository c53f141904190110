/* judge_w14_yard_runner.c — week 14's yardsticks' runner (judge_w14.h,
 * jd_yard_bench): judge_runner.c and this main with cuBLAS, instructor code
 * only, beside the judge. W14_YARD_TF32 is the test's yardstick for
 * w14.tf32-speed: row-major C = A B by one cublasSgemm (operands swapped)
 * on a handle in CUBLAS_TF32_TENSOR_OP_MATH; W14_YARD_LOOP is
 * w14.strided-speed's: batch such products of n^3, one cublasSgemm each,
 * on a handle in CUBLAS_PEDANTIC_MATH. Each handle is made on the first
 * call (the untimed warm-up request), both enqueue on the default stream.
 * W14_YARD_SORT is w14.sort-speed's ALLBITS: CUB's own
 * cub::DeviceRadixSort::SortPairs (judge_w14_kernels.cu) over bits
 * [0, i64[2]) on the default stream, the query and then the call with this
 * runner's workspace (judge_ws.h), as the student's entry calls
 * cubdev_sort_pairs. */
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "judge.h"
#include "judge_w14.h"
#include "judge_w14_kernels.h"
#include "judge_ws.h"

static cublasHandle_t made(cublasHandle_t *h, cublasMath_t mode)
{
    if (!*h) {
        cublasHandle_t m;
        if (cublasCreate(&m) != CUBLAS_STATUS_SUCCESS) return NULL;
        if (cublasSetMathMode(m, mode) != CUBLAS_STATUS_SUCCESS) return cublasDestroy(m), NULL;
        *h = m;
    }
    return *h;
}

static int yard_tf32(const jr_args *a)
{
    static cublasHandle_t h;
    int M = (int)a->i64[1], N = (int)a->i64[2], K = (int)a->i64[3];
    const float one = 1.0f, zero = 0.0f;
    if (!made(&h, CUBLAS_TF32_TENSOR_OP_MATH)) return (int)cudaErrorUnknown;
    return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, a->p[1], N, a->p[0], K, &zero, a->p[2], N) ==
                   CUBLAS_STATUS_SUCCESS
               ? 0
               : (int)cudaErrorUnknown;
}

static int yard_loop(const jr_args *a)
{
    static cublasHandle_t h;
    int n = (int)a->i64[1], batch = (int)a->i64[2];
    size_t nn = (size_t)n * n;
    const float one = 1.0f, zero = 0.0f, *A = a->p[0], *B = a->p[1];
    float *C = a->p[2];
    if (!made(&h, CUBLAS_PEDANTIC_MATH)) return (int)cudaErrorUnknown;
    for (int b = 0; b < batch; b++)
        if (cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B + b * nn, n, A + b * nn, n, &zero, C + b * nn, n) !=
            CUBLAS_STATUS_SUCCESS)
            return (int)cudaErrorUnknown;
    return 0;
}

static int yard_sort(const jr_args *a)
{
    int n = (int)a->i64[0], end_bit = (int)a->i64[2];
    const unsigned *ki = a->p[0], *vi = a->p[1];
    unsigned *ko = a->p[2], *vo = ko + n;
    size_t bytes = 0;
    cudaError_t e = jd_w14_cub_sort_pairs(NULL, &bytes, ki, ko, vi, vo, n, end_bit, 0);
    if (e != cudaSuccess) return (int)e;
    void *tmp = jr_workspace(bytes ? bytes : 1);
    if (!tmp) return (int)cudaErrorMemoryAllocation;
    return (int)jd_w14_cub_sort_pairs(tmp, &bytes, ki, ko, vi, vo, n, end_bit, 0);
}

JR_MAIN({ W14_YARD_TF32, "cublasSgemm (TF32 tensor ops)", yard_tf32 }, { W14_YARD_LOOP, "a loop of cublasSgemm", yard_loop },
        { W14_YARD_SORT, "cub::DeviceRadixSort::SortPairs", yard_sort })
