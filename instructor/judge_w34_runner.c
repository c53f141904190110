/* judge_w34_runner.c — week 34's runner (instructor/judge.h): this main,
 * judge_runner.c, the student's softmax.o, pv.o and attention.o, and week
 * 33's qkt.o and mask.o as the week's test program links them (week.txt's
 * uses:), with cuBLAS; nothing that writes a record. Each entry calls one
 * function of the week's API on what the judge sent (judge_w34.h);
 * judge_w34.c holds every check. */
#include <string.h>
#include <cublas_v2.h>

#include "attention.h"
#include "judge.h"
#include "judge_w34.h"
#include "pv.h"
#include "softmax.h"

static int model(const jr_args *a)
{
    const int B = (int)a->i64[1], H = (int)a->i64[2], L = (int)a->i64[3], D = (int)a->i64[4];
    double v[3] = { attention_naive_bytes(B, H, L, D, (int)a->i64[5]), attention_fused_bytes(B, H, L, D),
                    attention_flops(B, H, L, D) };
    memcpy(a->out, v, sizeof v), *a->out_len = sizeof v;
    return 0;
}

static int softmax(const jr_args *a)
{
    return (int)softmax_scores((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[1], (int)a->i64[2]);
}

/* A handle of the runner's own, made for this call in pedantic FP32 (the
 * test's wb_cublas_handle(1)), or a null one (i64[5]): 0, or -1. */
static int handle(const jr_args *a, cublasHandle_t *h)
{
    *h = NULL;
    if (a->i64[5]) return 0;
    if (cublasCreate(h) != CUBLAS_STATUS_SUCCESS) return *h = NULL, -1;
    if (cublasSetMathMode(*h, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) return cublasDestroy(*h), *h = NULL, -1;
    return 0;
}

static int pv(const jr_args *a)
{
    cublasHandle_t h;
    if (handle(a, &h) != 0) return -1;
    cublasStatus_t s = pv_output(h, (const float *)a->p[0], (const float *)a->p[1], (float *)a->p[2], (int)a->i64[1],
                                 (int)a->i64[2], (int)a->i64[3], (int)a->i64[4]);
    if (h) cublasDestroy(h); /* the runner synchronises the device before it replies */
    return (int)s;
}

static int att(const jr_args *a)
{
    cublasHandle_t h;
    if (handle(a, &h) != 0) return -1;
    cublasStatus_t s = attention(h, (const float *)a->p[0], (const float *)a->p[1], (const float *)a->p[2],
                                 (float *)a->p[3], (float *)a->p[4], (int)a->i64[1], (int)a->i64[2], (int)a->i64[3],
                                 (int)a->i64[4], (int)a->i64[6], (const int *)a->p[5]);
    if (h) cublasDestroy(h);
    return (int)s;
}

JR_MAIN({ W34_FN_MODEL, "attention_naive_bytes", model }, { W34_FN_SOFTMAX, "softmax_scores", softmax },
        { W34_FN_PV, "pv_output", pv }, { W34_FN_ATT, "attention", att })
