/* wb_cublas.h — cuBLAS in a week's test: one status check, one handle.
 * Header-only, so libwb needs no cuBLAS: include it from a test whose
 * week.txt links -lcublas.
 *
 *   cublasHandle_t h = wb_cublas_handle(1);       pedantic FP32: no TF32, so
 *                                                 an FP32 error bound holds
 *   WB_CUBLAS(blas_gemm(h, ...), "M=3 N=4 K=5");   fails the test with the call,
 *                                                 cuBLAS's status, what ran and
 *                                                 the seed unless it succeeded */
#ifndef WB_CUBLAS_H
#define WB_CUBLAS_H

#include <cublas_v2.h>
#include "wb_harness.h"

static inline void wb_cublas_ok_(cublasStatus_t s, const char *expr, const char *what)
{
    ck_assert_msg(s == CUBLAS_STATUS_SUCCESS, "%s returned %s (%s, seed %llu)", expr, cublasGetStatusString(s), what,
                  (unsigned long long)wb_base_seed());
}
#define WB_CUBLAS(expr, what) wb_cublas_ok_((expr), #expr, (what))

/* A new handle (the test destroys it) in CUBLAS_PEDANTIC_MATH (pedantic)
 * or CUBLAS_DEFAULT_MATH. */
static inline cublasHandle_t wb_cublas_handle(int pedantic)
{
    cublasHandle_t h = NULL;
    cublasStatus_t s = cublasCreate(&h);
    ck_assert_msg(s == CUBLAS_STATUS_SUCCESS, "cublasCreate: %s", cublasGetStatusString(s));
    cublasMath_t mode = pedantic ? CUBLAS_PEDANTIC_MATH : CUBLAS_DEFAULT_MATH;
    s = cublasSetMathMode(h, mode);
    ck_assert_msg(s == CUBLAS_STATUS_SUCCESS, "cublasSetMathMode(%d): %s", (int)mode, cublasGetStatusString(s));
    return h;
}

#endif
