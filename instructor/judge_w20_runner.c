/* judge_w20_runner.c — week 20's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's wbk.o and app.o (with the kernels of the
 * weeks week.txt `uses:`, as the week's test program links them), nothing
 * that writes a record. Each entry calls one function of libwbk's API (or
 * app.h's) on the host buffers the judge sent (judge_w20.h) and hands back
 * what it returned, holding no check. A context handle cannot cross a
 * process: the runner makes its own contexts, in slots the judge names. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "app.h"
#include "judge.h"
#include "judge_w20.h"
#include "wbk.h"

static wbk_ctx *g_slot[W20_SLOTS];

/* The slot's context: -1 (or a slot out of range) is NULL. */
static wbk_ctx *ctx_of(const jr_args *a)
{
    long long s = a->i64[1];
    return s >= 0 && s < W20_SLOTS ? g_slot[s] : NULL;
}

static w20_rep *rep_begin(const jr_args *a)
{
    w20_rep *r = (w20_rep *)a->out;
    memset(r, 0, sizeof *r);
    r->result = W20_UNSET, r->count = (int)W20_UNSET, r->mean = r->std = NAN;
    *a->out_len = sizeof *r;
    return r;
}

static int rep_end(w20_rep *r, int status)
{
    const char *m = wbk_last_error();
    r->status = status;
    r->null_text = m == NULL;
    snprintf(r->msg, sizeof r->msg, "%s", m ? m : "");
    return 0;
}

static int info(const jr_args *a)
{
    w20_rep *r = rep_begin(a);
    const char *name = wbk_status_name((int)a->i64[2]), *text = wbk_status_string((int)a->i64[2]);
    r->rc = wbk_version();
    r->null_text = !name || !text;
    snprintf(r->msg, sizeof r->msg, "%s\n%s", name ? name : "", text ? text : "");
    return 0;
}

/* A creator's slot: the handle the call gets (a sentinel first), or NULL for -1. */
static int create_common(const jr_args *a, int on)
{
    w20_rep *r = rep_begin(a);
    long long s = a->i64[1];
    static int sentinel;
    wbk_ctx *c = (wbk_ctx *)&sentinel, **pc = s >= 0 && s < W20_SLOTS ? &c : NULL;
    wbk_status st = on ? wbk_create_on(pc, (const int *)a->p[0], (int)a->i64[2]) : wbk_create(pc, (int)a->i64[2]);
    r->ctx_null = c == NULL;
    if (pc && st == WBK_OK && c && c != (wbk_ctx *)&sentinel) {
        if (g_slot[s]) wbk_destroy(g_slot[s]);
        g_slot[s] = c;
    }
    return rep_end(r, (int)st);
}

static int create(const jr_args *a) { return create_common(a, 0); }
static int create_on(const jr_args *a) { return create_common(a, 1); }

static int destroy(const jr_args *a)
{
    w20_rep *r = rep_begin(a);
    wbk_status st = wbk_destroy(ctx_of(a));
    long long s = a->i64[1];
    if (s >= 0 && s < W20_SLOTS) g_slot[s] = NULL;
    return rep_end(r, (int)st);
}

static int count(const jr_args *a)
{
    w20_rep *r = rep_begin(a);
    int c = (int)W20_UNSET;
    wbk_status st = wbk_device_count(ctx_of(a), a->i64[4] ? NULL : &c);
    r->count = c;
    return rep_end(r, (int)st);
}

static int saxpy(const jr_args *a)
{
    w20_rep *r = rep_begin(a);
    return rep_end(r, (int)wbk_saxpy(ctx_of(a), (float)a->f64[0], (const float *)a->p[0], (size_t)a->i64[2],
                                     (float *)a->p[1], (size_t)a->i64[3]));
}

static int dot(const jr_args *a)
{
    w20_rep *r = rep_begin(a);
    double v = W20_UNSET;
    wbk_status st = wbk_dot(ctx_of(a), (const float *)a->p[0], (size_t)a->i64[2], (const float *)a->p[1],
                            (size_t)a->i64[3], a->i64[4] ? NULL : &v);
    r->result = v;
    return rep_end(r, (int)st);
}

static int sum(const jr_args *a)
{
    w20_rep *r = rep_begin(a);
    double v = W20_UNSET;
    wbk_status st = wbk_sum(ctx_of(a), (const float *)a->p[0], (size_t)a->i64[2], a->i64[4] ? NULL : &v);
    r->result = v;
    return rep_end(r, (int)st);
}

static int transpose(const jr_args *a)
{
    w20_rep *r = rep_begin(a);
    return rep_end(r, (int)wbk_transpose(ctx_of(a), (const float *)a->p[0], (size_t)a->i64[2], (float *)a->p[1],
                                         (size_t)a->i64[3], (int)a->i64[4], (int)a->i64[5]));
}

static int standardize(const jr_args *a)
{
    w20_rep *r = rep_begin(a);
    wbk_stats st = { NAN, NAN };
    wbk_status s = wbk_standardize(ctx_of(a), (const float *)a->p[0], (size_t)a->i64[2], (float *)a->p[1],
                                   (size_t)a->i64[3], a->i64[4] ? NULL : &st);
    r->mean = st.mean, r->std = st.std;
    return rep_end(r, (int)s);
}

static void *read_last_error(void *out)
{
    const char *m = wbk_last_error();
    snprintf((char *)out, W20_MSG, "%s", m ? m : "(NULL)");
    return NULL;
}

static int thread_err(const jr_args *a)
{
    w20_rep *r = rep_begin(a);
    pthread_t t;
    snprintf(r->msg, sizeof r->msg, "unread");
    if (pthread_create(&t, NULL, read_last_error, r->msg) != 0) return -1;
    pthread_join(t, NULL);
    return 0;
}

static int app_cols(const jr_args *a)
{
    w20_rep *r = rep_begin(a);
    return rep_end(r, (int)app_standardize_columns(ctx_of(a), (const float *)a->p[0], (int)a->i64[4], (int)a->i64[5],
                                                   (float *)a->p[1], (double *)a->p[2], (double *)a->p[3]));
}

/* app_main on the words of p[0], as the week's test calls it; what it printed into p[1]. */
static int app_prog(const jr_args *a)
{
    w20_rep *r = rep_begin(a);
    char buf[256], *argv[16], *text = NULL;
    size_t len = 0, cap = (size_t)a->i64[2];
    int argc = 0;
    snprintf(buf, sizeof buf, "wbk-app %s", a->p[0] ? (const char *)a->p[0] : "");
    for (char *tok = strtok(buf, " "); tok && argc < 15; tok = strtok(NULL, " ")) argv[argc++] = tok;
    argv[argc] = NULL;
    FILE *f = open_memstream(&text, &len);
    if (!f || !a->p[1] || cap < 1) return -1;
    r->status = app_main(argc, argv, f);
    fclose(f);
    r->count = (int)len;
    if (len >= cap) len = cap - 1;
    memcpy(a->p[1], text, len);
    ((char *)a->p[1])[len] = 0;
    free(text);
    return 0;
}

static int device(const jr_args *a)
{
    w20_rep *r = rep_begin(a);
    cudaError_t e = a->i64[2] >= 0 ? cudaSetDevice((int)a->i64[2]) : cudaSuccess;
    if (e == cudaSuccess) e = cudaGetDeviceCount(&r->count);
    if (e == cudaSuccess) e = cudaGetDevice(&r->cur);
    r->rc = (int)e;
    return 0;
}

/* W20_FN_PIN (i64[2] bytes) and W20_FN_UNPIN (i64[2] 0), as the yard runner's. */
static int pin(const jr_args *a)
{
    w20_rep *r = rep_begin(a);
    r->rc = a->i64[2] ? (int)cudaHostRegister(a->p[0], (size_t)a->i64[2], cudaHostRegisterDefault)
                      : (int)cudaHostUnregister(a->p[0]);
    (void)cudaGetLastError();
    return 0;
}

static int timed(const jr_args *a)
{
    w20_timed_rep *r = (w20_timed_rep *)a->out;
    if (a->rep == 0) memset(r, 0, sizeof *r), *a->out_len = sizeof *r;
    if (a->rep >= W20_TIMED_MAX_K) return -1;
    wbk_stats st = { NAN, NAN };
    r->status[a->rep] = (int)wbk_standardize(ctx_of(a), (const float *)a->p[0], (size_t)a->i64[2], (float *)a->p[1],
                                             (size_t)a->i64[2], &st);
    r->mean[a->rep] = st.mean, r->std[a->rep] = st.std;
    return 0;
}

JR_MAIN({ W20_FN_INFO, "wbk_status_name", info }, { W20_FN_CREATE, "wbk_create", create },
        { W20_FN_CREATE_ON, "wbk_create_on", create_on }, { W20_FN_DESTROY, "wbk_destroy", destroy },
        { W20_FN_COUNT, "wbk_device_count", count }, { W20_FN_SAXPY, "wbk_saxpy", saxpy }, { W20_FN_DOT, "wbk_dot", dot },
        { W20_FN_SUM, "wbk_sum", sum }, { W20_FN_TRANSPOSE, "wbk_transpose", transpose },
        { W20_FN_STANDARDIZE, "wbk_standardize", standardize }, { W20_FN_THREAD, "wbk_last_error", thread_err },
        { W20_FN_APP_COLS, "app_standardize_columns", app_cols }, { W20_FN_APP_MAIN, "app_main", app_prog },
        { W20_FN_DEVICE, "cudaGetDevice", device }, { W20_FN_PIN, "cudaHostRegister", pin },
        { W20_FN_UNPIN, "cudaHostUnregister", pin }, { W20_FN_TIMED, "wbk_standardize", timed })
