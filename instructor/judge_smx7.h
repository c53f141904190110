/* judge_smx7.h — what the judges of weeks 39 and 40 share (judge_w39.c,
 * judge_w40.c): Phase 7's row softmax behind a C API, f(x, y, rows, cols,
 * dtype, stream) in FP32, FP16 or BF16 storage, called by the runner on the
 * legacy default stream. One case: x drawn by the caller (floats), rounded to
 * the storage type, y poisoned (a guarded byte buffer, jd_gbuf), the call,
 * y read back whole (nothing written outside it) and every element against
 * the double reference of phase7/common/softmax_host.h (ref_row, on the
 * rounded inputs) within ATOL + RTOL |ref|, a NaN only where the reference
 * is NaN: the weeks' tests' check (test_week39.c, test_week40.c), their
 * tolerances copied here (the tests have no shared header of them). Then the
 * refused calls: each returns cudaErrorInvalidValue, y not touched, and a
 * good call after them still right (nothing launched that broke the
 * context). Header-only, included by one judge each. */
#ifndef JUDGE_SMX7_H
#define JUDGE_SMX7_H

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "judge_week.h"
#include "softmax_host.h"
#include "wb_rand.h"

/* The runner's entry for the week's function: p[0] x (NULL allowed), p[1] y
 * (NULL allowed, or x itself), i64[1] rows, i64[2] cols, i64[3] dtype; the
 * status is its cudaError_t. With i64[4] != 0 the runner also synchronises
 * the device after the call and puts that cudaError_t (an int) in out[0..4):
 * the tests' "something was launched anyway and failed" (untrusted; the good
 * call after the refusals is the judge's own evidence). */
enum { SMX7_FN = 1 };

static const char *const SMX7_NAMES[] = { "FP32", "FP16", "BF16" };
static const size_t      SMX7_ELEM[] = { 4, 2, 2 };
/* The output is float rounded once to the storage type: 2 units in the last place (the tests' values). */
static const double SMX7_RTOL[] = { 1e-5, 2e-3, 1.6e-2 }, SMX7_ATOL[] = { 1e-6, 1e-7, 1e-7 };

static inline float smx7_get(const unsigned char *h, int dt, size_t i)
{
    float    f;
    uint16_t u;
    if (dt == 0) {
        memcpy(&f, h + 4 * i, 4);
        return f;
    }
    memcpy(&u, h + 2 * i, 2);
    return dt == 1 ? wb_f16_to_f32(u) : wb_bf16_to_f32(u);
}

static inline const char *smx7_status(int st)
{
    return st < 0 ? "a failure of the runner (it could not make the call)" : cudaGetErrorName((cudaError_t)st);
}

/* x and y guarded on the device; the case's floats, reference and bytes on the host. */
typedef struct {
    jd_gbuf        x, y;
    float         *xf;
    double        *ref;
    unsigned char *hx, *hy;
    size_t         n_max; /* elements */
} smx7_bufs;

static void smx7_free(jd *J, smx7_bufs *B)
{
    jd_gbuf_free(J, &B->x), jd_gbuf_free(J, &B->y);
    free(B->xf), free(B->ref), free(B->hx), free(B->hy);
    memset(B, 0, sizeof *B);
    B->x.id = B->y.id = -1;
}

/* The most elements of n shapes (rows, cols), at least m. */
static size_t smx7_largest(const long long (*S)[2], size_t n, size_t m)
{
    for (size_t i = 0; i < n; i++)
        if ((size_t)(S[i][0] * S[i][1]) > m) m = (size_t)(S[i][0] * S[i][1]);
    return m;
}

/* Room for n_max elements of any of the three types: 0, or -1 with t failed; smx7_free after either. */
static int smx7_alloc(jd *J, smx7_bufs *B, size_t n_max, jd_tally *t)
{
    memset(B, 0, sizeof *B);
    B->x.id = B->y.id = -1;
    if (n_max < 64) n_max = 64;
    B->n_max = n_max;
    if (jd_gbuf_alloc(J, &B->x, n_max * 4, t) != 0 || jd_gbuf_alloc(J, &B->y, n_max * 4, t) != 0) return -1;
    if (!(B->xf = malloc(n_max * 4)) || !(B->ref = malloc(n_max * 8)) || !(B->hx = malloc(n_max * 4)) ||
        !(B->hy = malloc(n_max * 4)))
        return jd_failf(t, "buffers: out of memory"), -1;
    return 0;
}

/* The function on x and y (either NULL), rows x cols of dtype: 0 with *st
 * (and *later, the runner's word, where sync), or -1 with t failed (the
 * runner is lost). */
static int smx7_call(jd *J, const jd_gbuf *x, const jd_gbuf *y, long long rows, long long cols, int dt, int sync,
                     int *st, int *later, const char *what, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, SMX7_FN, 1, 2);
    jd_gbuf_arg(&rq, 0, x, 0), jd_gbuf_arg(&rq, 1, y, 0);
    rq.i64[1] = rows, rq.i64[2] = cols, rq.i64[3] = dt, rq.i64[4] = sync;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    *st = rp.status;
    if (later) {
        *later = -1;
        if (rp.out_len >= 4) memcpy(later, rp.out, 4);
    }
    return 0;
}

/* One case on the rows * cols floats the caller drew into B->xf (rounded
 * here to the storage type dt, in place): y separate, or x itself where
 * in_place (y poisoned, then x put there). what names the case; fn_name the
 * function. 0 when the case ran (passed or failed), -1 when the runner or
 * the judge's own copies failed. */
static int smx7_case(jd *J, smx7_bufs *B, const char *fn_name, int dt, long long rows, long long cols, int in_place,
                     const char *what, jd_tally *t)
{
    const size_t n = (size_t)(rows * cols), es = SMX7_ELEM[dt], nb = n * es;
    if (n > B->n_max) return jd_failf(t, "%s: the judge's buffers are too small", what), -1;
    for (size_t i = 0; i < n; i++) { /* the storage type's inputs, and the floats they hold */
        if (dt == 0) {
            memcpy(B->hx + 4 * i, &B->xf[i], 4);
            continue;
        }
        uint16_t h = dt == 1 ? wb_f32_to_f16(B->xf[i]) : wb_f32_to_bf16(B->xf[i]);
        memcpy(B->hx + 2 * i, &h, 2);
        B->xf[i] = smx7_get(B->hx, dt, i);
    }
    for (long long r = 0; r < rows; r++) ref_row(B->xf + r * cols, B->ref + r * cols, cols);
    t->tests++;
    /* y's array is n elements; with none, the whole buffer is band (nothing may be written) and the
     * pointers are still not NULL, as the tests' wb_dcopy and wb_dout_alloc of one element give */
    if (jd_gbuf_poison(&B->y, 0, nb) != 0 || jd_gbuf_put(in_place ? &B->y : &B->x, 0, B->hx, nb) != 0)
        return jd_failf(t, "%s: the judge's own copies failed", what), -1;
    int st;
    if (smx7_call(J, in_place ? &B->y : &B->x, &B->y, rows, cols, dt, 0, &st, NULL, what, t) != 0) return -1;
    if (st != 0) return jd_failf(t, "%s: %s returned %s", what, fn_name, smx7_status(st)), 0;
    int f = jd_gbuf_fetch(&B->y, 0, nb, B->hy, "y", what, t);
    if (f < 0) return -1;
    if (f) return 0;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        const float  g = smx7_get(B->hy, dt, i);
        const double r = B->ref[i];
        int ok = isnan(r) ? isnan(g) : (!isnan(g) && fabs(g - r) <= SMX7_ATOL[dt] + SMX7_RTOL[dt] * fabs(r));
        if (!ok && bad++ == 0) first = i;
    }
    if (bad) {
        const float g = smx7_get(B->hy, dt, first);
        jd_failf(t, "%s: %zu of %zu elements wrong; first at row %zu col %zu: got %.9g, want %.9g%s", what, bad, n,
                 first / (size_t)cols, first % (size_t)cols, (double)g, B->ref[first],
                 isnan(g) ? " (NaN: never written, or a wrong NaN)" : "");
    }
    return 0;
}

/* A refused call: sizes, dtype, and which of x and y is NULL. */
typedef struct {
    long long   rows, cols;
    int         dt, nullx, nully;
    const char *what;
} smx7_bad;

/* Every call of bad[] returns cudaErrorInvalidValue (on x of 32 random
 * floats and a poisoned y of 32 floats, or NULL where the case says), the
 * runner's synchronisation after each finds no error, y is not touched
 * (every byte the poison, its bands too), and a good FP32 4 x 8 call after
 * them is right (a refused call that launched anyway and faulted leaves the
 * runner's context broken: that call fails). 0 ran, -1 the runner or the
 * judge's copies failed. */
static int smx7_refusals(jd *J, smx7_bufs *B, const char *fn_name, const smx7_bad *bad, size_t n_bad, const char *tag,
                         jd_tally *t)
{
    enum { N = 32 };
    wb_rng rng = wb_rng_for_seed(jd_seed, tag, 0);
    wb_fill_uniform_f32(&rng, B->xf, N, -1, 1);
    char what[200];
    t->tests++;
    if (jd_gbuf_put(&B->x, 0, B->xf, N * 4) != 0 || jd_gbuf_poison(&B->y, 0, N * 4) != 0)
        return jd_failf(t, "%s's refusals: the judge's own copies failed", fn_name), -1;
    for (size_t k = 0; k < n_bad; k++) {
        int st, later;
        snprintf(what, sizeof what, "%s with %s", fn_name, bad[k].what);
        if (smx7_call(J, bad[k].nullx ? NULL : &B->x, bad[k].nully ? NULL : &B->y, bad[k].rows, bad[k].cols, bad[k].dt,
                      1, &st, &later, what, t) != 0)
            return -1;
        if (st != (int)cudaErrorInvalidValue)
            return jd_failf(t, "%s returned %s, want cudaErrorInvalidValue (refuse it before launching)", what,
                            smx7_status(st)),
                   0;
        if (later != 0)
            return jd_failf(t, "%s: something was launched anyway and failed: %s", what,
                            later < 0 ? "the runner did not say" : cudaGetErrorName((cudaError_t)later)),
                   0;
    }
    int f = jd_gbuf_fetch(&B->y, 0, N * 4, B->hy, "y", "the refused calls", t);
    if (f < 0) return -1;
    if (f) return 0;
    for (size_t i = 0; i < N * 4; i++)
        if (B->hy[i] != 0xff)
            return jd_failf(t, "y was written (byte %zu changed) by a call that should have been refused", i), 0;
    wb_fill_uniform_f32(&rng, B->xf, N, -5, 5);
    snprintf(what, sizeof what, "FP32 4 x 8 after the refused calls (a refused call that launched anyway breaks it)");
    return smx7_case(J, B, fn_name, 0, 4, 8, 0, what, t);
}

/* A checkpoint's end: the refusals where its cases ran (rc 0) and the runner answers, then the buffers freed. */
static void smx7_finish(jd *J, smx7_bufs *B, int rc, const char *fn_name, const smx7_bad *bad, size_t n_bad,
                        jd_tally *t)
{
    if (rc == 0 && !J->lost) smx7_refusals(J, B, fn_name, bad, n_bad, "capi_refuses", t);
    smx7_free(J, B);
}

#endif
