/* judge_w18_runner.c — week 18's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's fp32.o, fp16.o, int8.o and bf16.o (with
 * the week's other objects, model_io.o and plan.o, which no entry calls).
 * Each entry calls one function of the week's API on the buffers the judge
 * sent (judge_w18.h) and holds no check. */
#include <stddef.h>
#include <stdint.h>

#include "bf16.h"
#include "fp16.h"
#include "fp32.h"
#include "int8.h"
#include "judge.h"
#include "judge_w18.h"

#define BATCH (int)a->i64[1]
#define IN    (int)a->i64[2]
#define OUT   (int)a->i64[3]
#define RELU  (int)a->i64[4]

static int f32(const jr_args *a)
{
    return (int)fp32_linear((const float *)a->p[0], (const float *)a->p[1], (const float *)a->p[2], (float *)a->p[3],
                            BATCH, IN, OUT, RELU);
}

static int f16(const jr_args *a)
{
    return (int)fp16_linear((const float *)a->p[0], (const uint16_t *)a->p[1], (const float *)a->p[2],
                            (float *)a->p[3], BATCH, IN, OUT, RELU);
}

static int i8(const jr_args *a)
{
    return (int)int8_linear((const float *)a->p[0], (const int8_t *)a->p[1], (const float *)a->p[2],
                            (const float *)a->p[3], (float *)a->p[4], BATCH, IN, OUT, RELU);
}

static int bf(const jr_args *a)
{
    return (int)bf16_linear((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], (const float *)a->p[2],
                            (float *)a->p[3], BATCH, IN, OUT, RELU);
}

static int softmax(const jr_args *a)
{
    return (int)fp32_softmax_argmax((const float *)a->p[0], (float *)a->p[1], (int *)a->p[2], (int)a->i64[1],
                                    (int)a->i64[2]);
}

static int f16_conv(const jr_args *a)
{
    return (int)fp16_from_f32((const float *)a->p[0], (uint16_t *)a->p[1], (size_t)a->i64[1]);
}

static int bf16_conv(const jr_args *a)
{
    return (int)bf16_from_f32((const float *)a->p[0], (uint16_t *)a->p[1], (size_t)a->i64[1]);
}

static int quant(const jr_args *a)
{
    return (int)int8_quantize_rows((const float *)a->p[0], (int)a->i64[1], (int)a->i64[2], (int8_t *)a->p[1],
                                   (float *)a->p[2]);
}

/* test_week18.c's bad_sizes, its calls in its order */
static int f32_bad(const jr_args *a)
{
    float *d = (float *)a->p[0];
    int *out = (int *)a->out;
    out[0] = (int)fp32_linear(d, d, d, d, -1, 4, 4, 0);
    out[1] = (int)fp32_linear(d, d, d, d, 4, 0, 4, 0);
    out[2] = (int)fp32_linear(d, d, d, d, 4, 4, 0, 0);
    out[3] = (int)fp32_softmax_argmax(d, d, (int *)d, 4, 0);
    *a->out_len = 4 * sizeof *out;
    return 0;
}

/* test_week18.c's bf16_refusals, its calls in its order */
static int bf16_bad(const jr_args *a)
{
    const uint16_t *d = (const uint16_t *)a->p[0];
    const float *b = (const float *)a->p[1];
    float *y = (float *)a->p[2];
    int *out = (int *)a->out;
    const struct { const uint16_t *x, *W; int batch, in, out; } C[] = {
        { d, d + 4096, 16, 12, 16 }, { d + 1, d + 4096, 16, 16, 16 }, { d, d + 4100, 16, 16, 16 },
        { d, d + 4096, -1, 16, 16 }, { d, d + 4096, 16, 0, 16 },      { d, d + 4096, 16, 16, 0 },
    };
    for (int i = 0; i < 6; i++) out[i] = (int)bf16_linear(C[i].x, C[i].W, b, y, C[i].batch, C[i].in, C[i].out, 1);
    out[6] = (int)bf16_linear(d, d + 4096, b, y, 0, 16, 16, 1);
    *a->out_len = 7 * sizeof *out;
    return 0;
}

static int timed_f32(const jr_args *a)
{
    const unsigned char *in = (const unsigned char *)a->p[0];
    return (int)fp32_linear((const float *)in, (const float *)(in + W18_W_AT(4, BATCH, IN)),
                            (const float *)(in + W18_B_AT(4, BATCH, IN, OUT)), (float *)a->p[1], BATCH, IN, OUT, 1);
}

static int timed_bf16(const jr_args *a)
{
    const unsigned char *in = (const unsigned char *)a->p[0];
    return (int)bf16_linear((const uint16_t *)in, (const uint16_t *)(in + W18_W_AT(2, BATCH, IN)),
                            (const float *)(in + W18_B_AT(2, BATCH, IN, OUT)), (float *)a->p[1], BATCH, IN, OUT, 1);
}

JR_MAIN({ W18_FN_F32, "fp32_linear", f32 }, { W18_FN_F16, "fp16_linear", f16 }, { W18_FN_I8, "int8_linear", i8 },
        { W18_FN_BF16, "bf16_linear", bf }, { W18_FN_SOFTMAX, "fp32_softmax_argmax", softmax },
        { W18_FN_F16_CONV, "fp16_from_f32", f16_conv }, { W18_FN_BF16_CONV, "bf16_from_f32", bf16_conv },
        { W18_FN_I8_QUANT, "int8_quantize_rows", quant }, { W18_FN_F32_BAD, "fp32_linear", f32_bad },
        { W18_FN_BF16_BAD, "bf16_linear", bf16_bad }, { W18_FN_TIMED_F32, "fp32_linear", timed_f32 },
        { W18_FN_TIMED_BF16, "bf16_linear", timed_bf16 })
