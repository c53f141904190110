/* judge_cublas.h — for the judges of weeks whose functions return a cuBLAS
 * status (judge_w33.c, judge_w34.c; they link cuBLAS): a runner's reply
 * status told in words. Header-only. */
#ifndef JUDGE_CUBLAS_H
#define JUDGE_CUBLAS_H

#include <stdio.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

/* st: the status a runner replied for a function that returns a
 * cublasStatus_t: cuBLAS's name and words for it; a CUDA error (the
 * device's, found when the runner synchronised after the function returned
 * success) named as such; a negative one the runner's own failure (it could
 * not make a cuBLAS handle). Written into buf (n bytes) or a constant. */
static inline const char *jd_cublas_status(int st, char *buf, size_t n)
{
    if (st < 0) return "a runner failure (it could not make a cuBLAS handle)";
    if (st >= 100) /* no cuBLAS status is as large */
        snprintf(buf, n, "CUBLAS_STATUS_SUCCESS, then %s on the device", cudaGetErrorName((cudaError_t)st));
    else
        snprintf(buf, n, "%s (%s)", cublasGetStatusName((cublasStatus_t)st), cublasGetStatusString((cublasStatus_t)st));
    return buf;
}

#endif
