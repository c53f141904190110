/* judge_w18_runner.c — week 18's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's model_io.o, fp32.o, fp16.o, int8.o,
 * plan.o and bf16.o, nothing that writes a record. Each entry calls one
 * function of the week's API on the buffers the judge sent (judge_w18.h)
 * and holds no check. The files of W18_FN_MLP_LOAD and W18_FN_DIGITS_LOAD
 * are the runner's own, in $TMPDIR (/tmp in the sandbox), removed after
 * the call. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bf16.h"
#include "fp16.h"
#include "fp32.h"
#include "int8.h"
#include "judge.h"
#include "judge_w18.h"
#include "model_io.h"
#include "plan.h"

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

/* ---------------------------------------------------------------- the loaders and the plan (CPU) */

/* The bytes p[0] (i64[1] of them) in a file of the runner's own: 0 and its path, or -1. i64[1] < 0: a path
 * in a folder that does not exist. */
static int own_file(const jr_args *a, char *path, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    if (a->i64[1] < 0) return snprintf(path, n, "%s/w18-judge-none/no-such-file.bin", tmp && *tmp ? tmp : "/tmp"), 0;
    snprintf(path, n, "%s/w18-judge-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
    const size_t len = (size_t)a->i64[1];
    if (!f || (len && fwrite(a->p[0], 1, len, f) != len) || fclose(f) != 0) {
        if (fd >= 0) remove(path);
        return -1;
    }
    return 0;
}

/* A load's start: *r cleared and the file written (0), or the reply sent saying the runner's own file
 * work failed (-1). */
static int load_begin(const jr_args *a, w18_load_rep *r, char *path, size_t n)
{
    memset(r, 0, sizeof *r);
    if (own_file(a, path, n) == 0) return 0;
    r->io_failed = 1;
    memcpy(a->out, r, sizeof *r), *a->out_len = sizeof *r;
    return -1;
}

static int mlp_load(const jr_args *a)
{
    w18_load_rep r;
    char path[400], err[300] = "";
    if (load_begin(a, &r, path, sizeof path)) return 0;
    mlp_model m;
    memset(&m, 0x5A, sizeof m);
    r.rc = model_io_mlp_load(path, &m, err, sizeof err);
    if (a->i64[1] >= 0) remove(path);
    r.err_set = err[0] != 0;
    r.empty = m.n_layers == 0 && m.storage == NULL && m.W[0] == NULL && m.b[0] == NULL;
    r.n_layers = m.n_layers;
    if (r.rc == 0 && m.n_layers >= 1 && m.n_layers <= W18_MAX_LAYERS) {
        size_t total = 0;
        for (int l = 0; l <= m.n_layers; l++) r.dims[l] = m.dims[l];
        for (int l = 0; l < m.n_layers; l++) {
            r.null_array |= m.W[l] == NULL || m.b[l] == NULL;
            total += (size_t)m.dims[l + 1] * ((size_t)m.dims[l] + 1);
        }
        if (!r.null_array && total <= (size_t)a->i64[2] && a->p[1]) {
            float *o = (float *)a->p[1];
            for (int l = 0; l < m.n_layers; l++) {
                size_t nw = (size_t)m.dims[l + 1] * m.dims[l];
                memcpy(o, m.W[l], nw * 4), o += nw;
                memcpy(o, m.b[l], (size_t)m.dims[l + 1] * 4), o += m.dims[l + 1];
            }
            r.copied = 1;
        }
    }
    if (r.rc == 0) {
        model_io_mlp_free(&m);
        r.freed_empty = m.storage == NULL && m.n_layers == 0;
    }
    memcpy(a->out, &r, sizeof r), *a->out_len = sizeof r;
    return 0;
}

static int digits_load(const jr_args *a)
{
    w18_load_rep r;
    char path[400], err[300] = "";
    if (load_begin(a, &r, path, sizeof path)) return 0;
    digits_set d;
    memset(&d, 0x5A, sizeof d);
    r.rc = model_io_digits_load(path, &d, err, sizeof err);
    if (a->i64[1] >= 0) remove(path);
    r.err_set = err[0] != 0;
    r.empty = d.n == 0 && d.x == NULL && d.label == NULL;
    r.n = d.n, r.features = d.features;
    if (r.rc == 0) {
        r.null_array = d.x == NULL || d.label == NULL;
        if (!r.null_array && d.n >= 0 && d.features >= 0 && (size_t)d.n * d.features <= (size_t)a->i64[2] &&
            d.n <= a->i64[3] && a->p[1] && a->p[2]) {
            memcpy(a->p[1], d.x, (size_t)d.n * d.features * 4);
            memcpy(a->p[2], d.label, (size_t)d.n);
            r.copied = 1;
        }
        model_io_digits_free(&d);
        r.freed_empty = d.x == NULL && d.label == NULL;
    }
    memcpy(a->out, &r, sizeof r), *a->out_len = sizeof r;
    return 0;
}

static int plan_bytes(const jr_args *a)
{
    size_t r = plan_mlp_bytes((const int *)a->p[0], (int)a->i64[1], (int)a->i64[2]);
    memcpy(a->out, &r, sizeof r), *a->out_len = sizeof r;
    return 0;
}

/* ---------------------------------------------------------------- the model on the device */

/* The dims of i64[4..7]; 0, or -1 for a layer count the judge never sends. */
static int dims_of(const jr_args *a, int *dims)
{
    const int L = (int)a->i64[4];
    if (L < 1 || L > W18_MAX_LAYERS) return -1;
    w18_dims_unpack(a->i64, dims, L);
    return 0;
}

static int forward(const jr_args *a)
{
    int dims[W18_MAX_LAYERS + 1];
    if (dims_of(a, dims)) return (int)cudaErrorInvalidValue;
    const int L = (int)a->i64[4];
    unsigned char *par = (unsigned char *)a->p[0], *cv = (unsigned char *)a->p[1];
    mlp_dev m;
    memset(&m, 0, sizeof m);
    m.n_layers = L;
    memcpy(m.dims, dims, sizeof m.dims);
    for (int l = 0; l < L; l++) {
        m.W32[l] = (const float *)(par + w18_param_at(dims, l, 0));
        m.b[l] = (const float *)(par + w18_param_at(dims, l, 1));
        if (!cv) continue;
        uint16_t *Wh = (uint16_t *)(cv + w18_conv_at(dims, l, 0));
        int8_t *q = (int8_t *)(cv + w18_conv_at(dims, l, 1));
        float *s = (float *)(cv + w18_conv_at(dims, l, 2));
        cudaError_t e = fp16_from_f32(m.W32[l], Wh, (size_t)dims[l + 1] * dims[l]);
        if (e == cudaSuccess) e = int8_quantize_rows(m.W32[l], dims[l + 1], dims[l], q, s);
        if (e != cudaSuccess) return (int)e;
        m.W16[l] = Wh, m.W8[l] = q, m.sw8[l] = s;
    }
    if (cv) {
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) return (int)e;
    }
    return (int)plan_mlp_forward(&m, (int)a->i64[1], (const float *)a->p[2], (int)a->i64[2], (float *)a->p[3],
                                 (int *)a->p[4], a->p[5], (size_t)a->i64[3]);
}

static int bf16_chain(const jr_args *a)
{
    int dims[W18_MAX_LAYERS + 1];
    if (dims_of(a, dims)) return (int)cudaErrorInvalidValue;
    const int L = (int)a->i64[4], n = (int)a->i64[2];
    unsigned char *par = (unsigned char *)a->p[0], *cv = (unsigned char *)a->p[1];
    float *h = (float *)a->p[3], *logits = (float *)a->p[5];
    uint16_t *act = (uint16_t *)a->p[4];
    cudaError_t e = bf16_from_f32((const float *)a->p[2], act, (size_t)n * dims[0]);
    for (int l = 0; l < L && e == cudaSuccess; l++) {
        const int in = dims[l], out = dims[l + 1];
        const float *W = (const float *)(par + w18_param_at(dims, l, 0)), *b = (const float *)(par + w18_param_at(dims, l, 1));
        uint16_t *Wb = (uint16_t *)(cv + w18_conv_at(dims, l, 0));
        e = bf16_from_f32(W, Wb, (size_t)out * in);
        if (e == cudaSuccess) e = bf16_linear(act, Wb, b, l == L - 1 ? logits : h, n, in, out, l < L - 1);
        if (e == cudaSuccess && l < L - 1) e = bf16_from_f32(h, act, (size_t)n * out);
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
    }
    return (int)e;
}

JR_MAIN({ W18_FN_F32, "fp32_linear", f32 }, { W18_FN_F16, "fp16_linear", f16 }, { W18_FN_I8, "int8_linear", i8 },
        { W18_FN_BF16, "bf16_linear", bf }, { W18_FN_SOFTMAX, "fp32_softmax_argmax", softmax },
        { W18_FN_F16_CONV, "fp16_from_f32", f16_conv }, { W18_FN_BF16_CONV, "bf16_from_f32", bf16_conv },
        { W18_FN_I8_QUANT, "int8_quantize_rows", quant }, { W18_FN_F32_BAD, "fp32_linear", f32_bad },
        { W18_FN_BF16_BAD, "bf16_linear", bf16_bad }, { W18_FN_TIMED_F32, "fp32_linear", timed_f32 },
        { W18_FN_TIMED_BF16, "bf16_linear", timed_bf16 }, { W18_FN_MLP_LOAD, "model_io_mlp_load", mlp_load },
        { W18_FN_DIGITS_LOAD, "model_io_digits_load", digits_load }, { W18_FN_PLAN_BYTES, "plan_mlp_bytes", plan_bytes },
        { W18_FN_FORWARD, "plan_mlp_forward", forward }, { W18_FN_BF16_CHAIN, "bf16_linear", bf16_chain })
