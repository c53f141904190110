/* judge_w21_runner.c — week 21's runner (instructor/judge.h): this main,
 * judge_runner.c, the student's naive.o, coalesced.o and cublas_rm.o and
 * the week's given support/yard_naive.o (linked as the test program links
 * it; the judge times its own copy), nothing that writes a record. Each
 * entry calls one function of the week's API on what the judge sent;
 * judge_w21.c holds every check. */
#include <string.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#define JG_RUNNER_ONLY
#include "coalesced.h"
#include "cublas_rm.h"
#include "judge.h"
#include "judge_gemm.h"
#include "judge_w21.h"
#include "naive.h"

static int tflops(const jr_args *a)
{
    double t = naive_gemm_tflops((int)a->i64[1], (int)a->i64[2], (int)a->i64[3], a->f64[0]);
    memcpy(a->out, &t, sizeof t), *a->out_len = sizeof t;
    return 0;
}

static int naive(const jr_args *a) { return jg_call(a, naive_sgemm); }
static int coalesced(const jr_args *a) { return jg_call(a, coalesced_sgemm); }

/* The student's cuBLAS call on the runner's handle, as the test's your_cublas. */
static int cublas(const jr_args *a)
{
    static cublasHandle_t h;
    if (a->i64[4] && h) cublasDestroy(h), h = NULL; /* a new handle, as the test makes for its TF32 case */
    if (!h && cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return h = NULL, (int)cudaErrorUnknown;
    if (a->i64[4] && cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH) != CUBLAS_STATUS_SUCCESS)
        return (int)cudaErrorUnknown;
    cublasStatus_t s = cublas_rm_sgemm(h, (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (const float *)a->p[0],
                                       (const float *)a->p[1], (float *)a->p[2]);
    return s == CUBLAS_STATUS_SUCCESS ? 0 : (int)cudaErrorUnknown;
}

JR_MAIN({ W21_FN_TFLOPS, "naive_gemm_tflops", tflops }, { W21_FN_NAIVE, "naive_sgemm", naive },
        { W21_FN_COALESCED, "coalesced_sgemm", coalesced }, { W21_FN_CUBLAS, "cublas_rm_sgemm", cublas })
