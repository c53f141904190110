/* judge_w33_runner.c — week 33's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's qkt.o and mask.o (with cuBLAS, the
 * week's libs), nothing that writes a record. Each entry calls one function
 * of the week's API on what the judge sent (judge_w33.h); judge_w33.c holds
 * every check. */
#include <cublas_v2.h>

#include "judge.h"
#include "judge_w33.h"
#include "mask.h"
#include "qkt.h"

/* qkt_scores on a handle of the runner's own, made for this call in pedantic
 * FP32 (the test's wb_cublas_handle(1)), or on a null handle (i64[5]). */
static int qkt(const jr_args *a)
{
    cublasHandle_t h = NULL;
    if (!a->i64[5]) {
        if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return -1;
        if (cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) return cublasDestroy(h), -1;
    }
    cublasStatus_t s = qkt_scores(h, (const float *)a->p[0], (const float *)a->p[1], (float *)a->p[2], (int)a->i64[1],
                                  (int)a->i64[2], (int)a->i64[3], (int)a->i64[4]);
    if (h) cublasDestroy(h); /* the runner synchronises the device before it replies */
    return (int)s;
}

static int mask(const jr_args *a)
{
    return (int)mask_scores((float *)a->p[0], (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (int)a->i64[4],
                            (const int *)a->p[1]);
}

JR_MAIN({ W33_FN_QKT, "qkt_scores", qkt }, { W33_FN_MASK, "mask_scores", mask })
