/* judge_w35_runner.c — week 35's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's philox.o and dropout.o, nothing that
 * writes a record. Each entry calls one function of the week's API on what
 * the judge sent; judge_w35.c holds every check. */
#include <stdint.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "dropout.h"
#include "judge.h"
#include "judge_w35.h"
#include "philox.h"

static int philox(const jr_args *a)
{
    const uint32_t ctr[4] = { (uint32_t)a->i64[0], (uint32_t)a->i64[1], (uint32_t)a->i64[2], (uint32_t)a->i64[3] };
    const uint32_t key[2] = { (uint32_t)a->i64[4], (uint32_t)a->i64[5] };
    uint32_t out[4] = { 0xdeadbeefu, 0xdeadbeefu, 0xdeadbeefu, 0xdeadbeefu }; /* what writing nothing leaves */
    philox4x32_10(ctr, key, out);
    memcpy(a->out, out, sizeof out), *a->out_len = sizeof out;
    return 0;
}

static int uniform(const jr_args *a)
{
    float u = philox_uniform((uint32_t)a->i64[0]);
    memcpy(a->out, &u, sizeof u), *a->out_len = sizeof u;
    return 0;
}

static int keep(const jr_args *a)
{
    int k = philox_dropout_keep_host((unsigned long long)a->i64[0], (unsigned long long)a->i64[1], (size_t)a->i64[2],
                                     (float)a->f64[0]);
    memcpy(a->out, &k, sizeof k), *a->out_len = sizeof k;
    return 0;
}

static int dropout(const jr_args *a)
{
    return (int)dropout_bias_residual((const float *)a->p[0], (const float *)a->p[1], (const float *)a->p[2],
                                      (float *)a->p[3], (uint8_t *)a->p[4], (int)a->i64[1], (int)a->i64[2],
                                      (float)a->f64[0], (unsigned long long)a->i64[3], (unsigned long long)a->i64[4]);
}

static int dropout_timed(const jr_args *a)
{
    const size_t rows = (size_t)a->i64[1], cols = (size_t)a->i64[2], n = rows * cols;
    const float *x = (const float *)a->p[0];
    float *y = (float *)a->p[1];
    return (int)dropout_bias_residual(x, x + 2 * n, x + n, y, (uint8_t *)(y + n), (int)rows, (int)cols,
                                      (float)a->f64[0], (unsigned long long)a->i64[3], (unsigned long long)a->i64[4]);
}

JR_MAIN({ W35_FN_PHILOX, "philox4x32_10", philox }, { W35_FN_UNIFORM, "philox_uniform", uniform },
        { W35_FN_KEEP, "philox_dropout_keep_host", keep }, { W35_FN_DROPOUT, "dropout_bias_residual", dropout },
        { W35_FN_DROPOUT_TIMED, "dropout_bias_residual", dropout_timed })
