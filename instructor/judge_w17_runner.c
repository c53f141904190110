/* judge_w17_runner.c — week 17's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's pgm.o, conv2d.o, separable.o,
 * equalize.o, resize.o, sobel.o and pipeline.o, nothing that writes a
 * record. Each entry calls one function of the week's API on what the
 * judge sent (judge_w17.h); judge_w17.c holds every check. The files of
 * W17_FN_READ and W17_FN_FILE are the runner's own, in $TMPDIR (/tmp in
 * the sandbox), removed after the call. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cuda_runtime_api.h>

#include "conv2d.h"
#include "equalize.h"
#include "judge.h"
#include "judge_w17.h"
#include "pgm.h"
#include "pipeline.h"
#include "resize.h"
#include "separable.h"
#include "sobel.h"

/* ---------------------------------------------------------------- PGM */

static void pgm_reply(const jr_args *a, pgm_image *im, int rc, const char *err, size_t cap, w17_pgm_rep *r)
{
    r->rc = rc, r->width = im->width, r->height = im->height, r->channels = im->channels, r->maxval = im->maxval;
    r->err_set = err[0] != 0, r->data_null = im->data == NULL;
    if (rc == 0 && im->data && im->width > 0 && im->height > 0 && (im->channels == 1 || im->channels == 3)) {
        size_t n = (size_t)im->width * im->height * im->channels;
        if (n <= cap && a->p[1]) memcpy(a->p[1], im->data, n * sizeof(uint16_t)), r->copied = 1;
    }
    if (rc == 0) {
        pgm_free(im);
        r->freed_null = im->data == NULL && im->width == 0 && im->height == 0;
    }
    memcpy(a->out, r, sizeof *r), *a->out_len = sizeof *r;
}

static int decode(const jr_args *a)
{
    pgm_image im;
    memset(&im, 0x5A, sizeof im);
    char err[200] = "";
    w17_pgm_rep r;
    memset(&r, 0, sizeof r);
    int rc = pgm_decode((const unsigned char *)a->p[0], (size_t)a->i64[1], &im, err, sizeof err);
    pgm_reply(a, &im, rc, err, (size_t)a->i64[2], &r);
    return 0;
}

/* A file of the runner's own in $TMPDIR: its path into path, its descriptor returned (-1: none). */
static int own_file(char *path, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path, n, "%s/w17-judge-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkstemp(path);
}

static int read_file(const jr_args *a)
{
    w17_pgm_rep r;
    memset(&r, 0, sizeof r);
    char path[300], err[300] = "";
    int fd = own_file(path, sizeof path);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
    size_t len = (size_t)a->i64[1];
    if (!f || (len && fwrite(a->p[0], 1, len, f) != len) || fclose(f) != 0) {
        r.io_failed = 1;
        if (fd >= 0) remove(path);
        memcpy(a->out, &r, sizeof r), *a->out_len = sizeof r;
        return 0;
    }
    pgm_image im;
    memset(&im, 0x5A, sizeof im);
    int rc = pgm_read(path, &im, err, sizeof err);
    remove(path);
    pgm_reply(a, &im, rc, err, (size_t)a->i64[2], &r);
    return 0;
}

static pgm_image image_of(const jr_args *a)
{
    pgm_image im = { (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (int)a->i64[4], (uint16_t *)a->p[0] };
    return im;
}

static int encode(const jr_args *a)
{
    pgm_image im = image_of(a);
    size_t r = pgm_encode(&im, a->i64[5] ? "round trip" : NULL, (unsigned char *)a->p[1], (size_t)a->i64[6]);
    memcpy(a->out, &r, sizeof r), *a->out_len = sizeof r;
    return 0;
}

static int file_round_trip(const jr_args *a)
{
    w17_pgm_rep r;
    memset(&r, 0, sizeof r);
    pgm_image im = image_of(a);
    char path[300], err[300] = "";
    int fd = own_file(path, sizeof path);
    if (fd < 0) {
        r.io_failed = 1;
        memcpy(a->out, &r, sizeof r), *a->out_len = sizeof r;
        return 0;
    }
    close(fd);
    r.write_rc = pgm_write(path, &im, "made by test_week17", err, sizeof err);
    pgm_image back;
    memset(&back, 0x5A, sizeof back);
    err[0] = 0;
    int rc = pgm_read(path, &back, err, sizeof err);
    remove(path);
    pgm_reply(a, &back, rc, err, (size_t)a->i64[6], &r);
    return 0;
}

/* ---------------------------------------------------------------- conv2d */

static int conv_naive(const jr_args *a)
{
    return (int)conv2d_naive((const float *)a->p[0], (float *)a->p[2], (int)a->i64[1], (int)a->i64[2],
                             (const float *)a->p[1], (int)a->i64[3]);
}

/* The k x k (or 2r + 1) weights from the device buffer w to the host array h (n floats at most). */
static cudaError_t weights_to_host(const float *w, float *h, long long n, long long cap)
{
    if (n < 0 || n > cap) return cudaErrorInvalidValue;
    return n ? cudaMemcpy(h, w, (size_t)n * sizeof *h, cudaMemcpyDeviceToHost) : cudaSuccess;
}

static int conv_tiled(const jr_args *a)
{
    float h[CONV_MAX_K * CONV_MAX_K];
    long long k = a->i64[3];
    cudaError_t e = weights_to_host((const float *)a->p[1], h, k * k, CONV_MAX_K * CONV_MAX_K);
    if (e != cudaSuccess) return -1;
    e = conv2d_set_weights(h, (int)k);
    for (int i = 0; i < CONV_MAX_K * CONV_MAX_K; i++) h[i] = NAN; /* the copy must be made by now */
    if (e != cudaSuccess) return (int)e;
    return (int)conv2d_tiled((const float *)a->p[0], (float *)a->p[2], (int)a->i64[1], (int)a->i64[2]);
}

static int conv_set(const jr_args *a)
{
    float h[CONV_MAX_K * CONV_MAX_K];
    long long k = a->i64[1];
    if (k < 1 || k > CONV_MAX_K) return -1;
    memcpy(h, a->p[0], (size_t)(k * k) * sizeof *h);
    cudaError_t e = conv2d_set_weights(h, (int)k);
    for (int i = 0; i < CONV_MAX_K * CONV_MAX_K; i++) h[i] = NAN;
    return (int)e;
}

static int conv_run(const jr_args *a)
{
    return (int)conv2d_tiled((const float *)a->p[0], (float *)a->p[1], (int)a->i64[1], (int)a->i64[2]);
}

static int conv_bad(const jr_args *a)
{
    static const int K[W17_N_BAD_K] = W17_BAD_K;
    float wt[CONV_MAX_K * CONV_MAX_K + 2] = { 0 };
    float *d = (float *)a->p[0];
    int st[2 * W17_N_BAD_K];
    for (int i = 0; i < W17_N_BAD_K; i++) {
        st[2 * i] = (int)conv2d_set_weights(wt, K[i]);
        st[2 * i + 1] = (int)conv2d_naive(d, d + 32, 4, 4, d, K[i]);
    }
    memcpy(a->out, st, sizeof st), *a->out_len = sizeof st;
    return 0;
}

/* ---------------------------------------------------------------- separable */

static int sep_weights(const jr_args *a, float *h)
{
    long long r = a->i64[3];
    if (weights_to_host((const float *)a->p[1], h, 2 * r + 1, 2 * SEP_MAX_R + 1) != cudaSuccess) return -1;
    cudaError_t e = sep_set_weights(h, (int)r);
    for (int i = 0; i < 2 * SEP_MAX_R + 1; i++) h[i] = NAN; /* the copy must be made by now */
    return (int)e;
}

static int sep_pass(const jr_args *a, int which)
{
    float h[2 * SEP_MAX_R + 1];
    int e = sep_weights(a, h);
    if (e != 0) return e;
    const float *in = (const float *)a->p[0];
    float *out = (float *)a->p[2];
    int w = (int)a->i64[1], ht = (int)a->i64[2];
    if (which == 0) return (int)sep_rows(in, out, w, ht);
    if (which == 1) return (int)sep_cols(in, out, w, ht);
    float *tmp = NULL;
    if (cudaMalloc((void **)&tmp, (size_t)w * ht * 4 + 4) != cudaSuccess) return -1;
    cudaError_t c = sep_rows(in, tmp, w, ht);
    if (c == cudaSuccess) c = sep_cols(tmp, out, w, ht);
    cudaDeviceSynchronize();
    cudaFree(tmp);
    return (int)c;
}

static int sep_r(const jr_args *a) { return sep_pass(a, 0); }
static int sep_c(const jr_args *a) { return sep_pass(a, 1); }
static int sep_both(const jr_args *a) { return sep_pass(a, 2); }

static int sep_bad(const jr_args *a)
{
    float wt[2 * SEP_MAX_R + 3] = { 0 };
    int st[2] = { (int)sep_set_weights(wt, -1), (int)sep_set_weights(wt, SEP_MAX_R + 1) };
    memcpy(a->out, st, sizeof st), *a->out_len = sizeof st;
    return 0;
}

/* ---------------------------------------------------------------- equalize, resize, sobel, pipeline */

static int eq_hist(const jr_args *a)
{
    return (int)eq_histogram((const uint8_t *)a->p[0], (size_t)a->i64[1], (unsigned *)a->p[1]);
}

static int eq_l(const jr_args *a) { return (int)eq_lut((const unsigned *)a->p[0], (uint8_t *)a->p[1]); }

static int eq_app(const jr_args *a)
{
    return (int)eq_apply((const uint8_t *)a->p[0], (uint8_t *)a->p[1], (size_t)a->i64[1], (const uint8_t *)a->p[2]);
}

static int resize(const jr_args *a)
{
    return (int)resize_bilinear((const float *)a->p[0], (int)a->i64[1], (int)a->i64[2], (float *)a->p[1],
                                (int)a->i64[3], (int)a->i64[4]);
}

static int resize_bad(const jr_args *a)
{
    int st = (int)resize_bilinear((const float *)a->p[0], 0, (int)a->i64[2], (float *)a->p[1], 3, 3);
    memcpy(a->out, &st, sizeof st), *a->out_len = sizeof st;
    return 0;
}

static int sob(const jr_args *a)
{
    return (int)sobel((const float *)a->p[0], (float *)a->p[1], (int)a->i64[1], (int)a->i64[2]);
}

static int pipe_ws(const jr_args *a)
{
    size_t b = pipeline_workspace_bytes((int)a->i64[1], (int)a->i64[2]);
    memcpy(a->out, &b, sizeof b), *a->out_len = sizeof b;
    return 0;
}

static int pipe_apply(const jr_args *a)
{
    return (int)pipeline_apply((const uint8_t *)a->p[0], (uint8_t *)a->p[1], (int)a->i64[1], (int)a->i64[2], a->p[2]);
}

static void *g_work;

static int pipe_prep(const jr_args *a)
{
    size_t b = pipeline_workspace_bytes((int)a->i64[1], (int)a->i64[2]);
    if (g_work) cudaFree(g_work), g_work = NULL;
    if (b && cudaMalloc(&g_work, b) != cudaSuccess) return fprintf(stderr, "no room for a workspace of %zu bytes\n", b), -1;
    return 0;
}

static int pipe_run(const jr_args *a)
{
    return (int)pipeline_apply((const uint8_t *)a->p[0], (uint8_t *)a->p[1], (int)a->i64[1], (int)a->i64[2], g_work);
}

static int pipe_free(const jr_args *a)
{
    (void)a;
    if (g_work) cudaFree(g_work), g_work = NULL;
    return 0;
}

JR_MAIN({ W17_FN_DECODE, "pgm_decode", decode }, { W17_FN_READ, "pgm_read", read_file },
        { W17_FN_ENCODE, "pgm_encode", encode }, { W17_FN_FILE, "pgm_write, pgm_read", file_round_trip },
        { W17_FN_CONV_NAIVE, "conv2d_naive", conv_naive }, { W17_FN_CONV_TILED, "conv2d_tiled", conv_tiled },
        { W17_FN_CONV_SET, "conv2d_set_weights", conv_set }, { W17_FN_CONV_RUN, "conv2d_tiled", conv_run },
        { W17_FN_CONV_BAD, "conv2d_set_weights, conv2d_naive", conv_bad }, { W17_FN_SEP_ROWS, "sep_rows", sep_r },
        { W17_FN_SEP_COLS, "sep_cols", sep_c }, { W17_FN_SEP_BOTH, "sep_rows, sep_cols", sep_both },
        { W17_FN_SEP_BAD, "sep_set_weights", sep_bad }, { W17_FN_EQ_HIST, "eq_histogram", eq_hist },
        { W17_FN_EQ_LUT, "eq_lut", eq_l }, { W17_FN_EQ_APPLY, "eq_apply", eq_app },
        { W17_FN_RESIZE, "resize_bilinear", resize }, { W17_FN_RESIZE_BAD, "resize_bilinear", resize_bad },
        { W17_FN_SOBEL, "sobel", sob }, { W17_FN_PIPE_WS, "pipeline_workspace_bytes", pipe_ws },
        { W17_FN_PIPE, "pipeline_apply", pipe_apply }, { W17_FN_PIPE_PREP, "pipeline_workspace_bytes", pipe_prep },
        { W17_FN_PIPE_RUN, "pipeline_apply", pipe_run }, { W17_FN_PIPE_FREE, "cudaFree", pipe_free })
