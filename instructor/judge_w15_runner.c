/* judge_w15_runner.c — week 15's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's traffic.o, gelu_chain.o, norm.o,
 * softmax.o, smooth.o and linear.o (with the week's given
 * support/yard_unfused.o, as its test program links it), nothing that writes
 * a record. Each entry calls one function of the week's API on what the
 * judge sent; judge_w15.c holds every check. */
#include <string.h>
#include <cuda_runtime_api.h>

#include "gelu_chain.h"
#include "judge.h"
#include "judge_w15.h"
#include "linear.h"
#include "norm.h"
#include "smooth.h"
#include "softmax.h"
#include "traffic.h"

static int traffic(const jr_args *a)
{
    double b = traffic_bytes((int)a->i64[0], (int)a->i64[1]);
    memcpy(a->out, &b, sizeof b), *a->out_len = sizeof b;
    return 0;
}

static int tmp_bytes(const jr_args *a)
{
    unsigned long long b = (unsigned long long)norm_tmp_bytes();
    memcpy(a->out, &b, sizeof b), *a->out_len = sizeof b;
    return 0;
}

static int gelu(const jr_args *a)
{
    return (int)gelu_chain_fused((const float *)a->p[0], (const float *)a->p[1], (const float *)a->p[2], (float *)a->p[3],
                                 (int)a->i64[1], (int)a->i64[2], (float)a->f64[0]);
}

static int gelu_timed(const jr_args *a)
{
    const float *x = (const float *)a->p[0];
    return (int)gelu_chain_fused(x, x + (size_t)a->i64[0], (const float *)a->p[1], (float *)a->p[2], (int)a->i64[1],
                                 (int)a->i64[2], (float)a->f64[0]);
}

static int norm(const jr_args *a)
{
    return (int)norm_l2((const float *)a->p[0], (size_t)a->i64[0], (float *)a->p[1], a->p[2]);
}

static int norm_timed(const jr_args *a)
{
    return (int)norm_l2((const float *)a->p[0], (size_t)a->i64[0], (float *)a->p[1], (char *)a->p[0] + a->i64[1]);
}

static int softmax(const jr_args *a)
{
    return (int)softmax_fused((const float *)a->p[0], (float *)a->p[1], (int)a->i64[1], (int)a->i64[2]);
}

static int smooth(const jr_args *a) { return (int)smooth_fused((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0]); }

static int sgemm(const jr_args *a)
{
    return (int)linear_sgemm((const float *)a->p[0], (const float *)a->p[1], (float *)a->p[2], (int)a->i64[1],
                             (int)a->i64[2], (int)a->i64[3]);
}

static int sgemm_br(const jr_args *a)
{
    return (int)linear_sgemm_bias_relu((const float *)a->p[0], (const float *)a->p[1], (const float *)a->p[2],
                                       (float *)a->p[3], (int)a->i64[1], (int)a->i64[2], (int)a->i64[3]);
}

static int normalize(const jr_args *a)
{
    return (int)normalize_fused((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0], a->p[2]);
}

JR_MAIN({ W15_FN_TRAFFIC, "traffic_bytes", traffic }, { W15_FN_TMP_BYTES, "norm_tmp_bytes", tmp_bytes },
        { W15_FN_GELU, "gelu_chain_fused", gelu }, { W15_FN_GELU_TIMED, "gelu_chain_fused", gelu_timed },
        { W15_FN_NORM, "norm_l2", norm }, { W15_FN_NORM_TIMED, "norm_l2", norm_timed },
        { W15_FN_SOFTMAX, "softmax_fused", softmax }, { W15_FN_SMOOTH, "smooth_fused", smooth },
        { W15_FN_SGEMM, "linear_sgemm", sgemm }, { W15_FN_SGEMM_BIAS_RELU, "linear_sgemm_bias_relu", sgemm_br },
        { W15_FN_NORMALIZE, "normalize_fused", normalize })
