/* judge_week.c — what every week's GPU judge shares (judge_week.h). Links
 * no student code: the runner's functions are reached through jd_call. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "judge_kernels.h"
#include "judge_sb.h"
#include "judge_week.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_stats.h"

unsigned long long jd_seed = 20261128;
int                jd_dev;
cudaStream_t       jd_stream;
/* COPY through the yard runner (jd_copy_yard), measured before the runner
 * has run any student code; its size (bytes a call) and the judge's folder,
 * where the yard runners are */
static double g_copy_before = NAN;
static size_t g_copy_floats;
static int    g_copy_max_k; /* the COPY's calls a request (jd_checkpoint.copy_max_k; 0: JD_BENCH_MAX_K) */
static char   g_judge_dir[PATH_MAX];
static char   g_yard_why[300];

uint64_t jd_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

float jd_fresh_factor(uint64_t r)
{
    double u = (double)(jd_mix(r) >> 11) / 9007199254740992.0;
    float a = (float)(0.5 + 1.5 * u);
    if (a == 1.0f) a = 1.25f;
    return (jd_mix(r ^ 0x5a) & 1) ? -a : a;
}

void jd_failf(jd_tally *t, const char *fmt, ...)
{
    t->failed++;
    if (t->msg[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->msg, sizeof t->msg, fmt, ap);
    va_end(ap);
}

void jd_call_setup(jd_req *rq, int fn, int reps, int nargs)
{
    memset(rq, 0, sizeof *rq);
    rq->op = JD_OP_CALL, rq->fn = fn, rq->reps = reps, rq->nargs = nargs;
    for (int r = 0; r < JD_MAX_REPS; r++)
        for (int a = 0; a < JD_MAX_ARGS; a++) rq->arg_buf[r][a] = -1;
}

static int same(float got, float want, double atol, double rtol)
{
    if (atol == JD_BITWISE) return memcmp(&got, &want, 4) == 0;
    return wb_close(got, want, atol, rtol);
}

/* ------------------------------------------------------------ a checked case */

int jd_case_bufs_alloc(jd *J, jd_case_bufs *B, int n_in, size_t in_cap, size_t out_cap, jd_tally *t)
{
    memset(B, 0, sizeof *B);
    B->n_in = n_in, B->in_cap = in_cap, B->out_cap = out_cap;
    for (int i = 0; i < 3; i++) B->ib[i] = -1;
    for (int i = 0; i <= n_in; i++) {
        size_t bytes = (i < n_in ? in_cap : JD_GUARD + 4 + out_cap + JD_GUARD) * 4;
        B->ib[i] = jd_alloc(J, bytes, (void **)&B->d[i]);
        B->h[i] = malloc(bytes);
        if (B->ib[i] < 0 || !B->h[i]) return jd_failf(t, "buffers: %s", J->why), -1;
    }
    return 0;
}

void jd_case_bufs_free(jd *J, jd_case_bufs *B)
{
    for (int i = 0; i < 3; i++) {
        jd_free(J, B->ib[i]);
        free(B->h[i]);
        B->ib[i] = -1, B->h[i] = NULL;
    }
}

_Static_assert(JD_GBAND == WB_GUARD_BYTES, "a judge's guard band is the harness's (wb_dout)");

int jd_gbuf_alloc(jd *J, jd_gbuf *b, size_t cap, jd_tally *t)
{
    b->cap = cap;
    b->id = jd_alloc(J, 2 * JD_GBAND + cap, (void **)&b->d);
    if (b->id < 0) return jd_failf(t, "buffers: %s", J->why), -1;
    return 0;
}

void jd_gbuf_free(jd *J, jd_gbuf *b)
{
    if (b->id >= 0) jd_free(J, b->id);
    b->id = -1;
}

int jd_gbuf_poison(jd_gbuf *b, size_t lead, size_t bytes)
{
    if (lead + bytes > b->cap) return -1;
    return cudaMemset(b->d, 0xff, 2 * JD_GBAND + lead + bytes) == cudaSuccess &&
                   cudaDeviceSynchronize() == cudaSuccess
               ? 0
               : -1;
}

/* Synchronised: a copy from pageable memory may return before its DMA
 * lands, and the runner reads the buffer from another process. */
int jd_gbuf_put(jd_gbuf *b, size_t lead, const void *host, size_t bytes)
{
    if (!bytes) return 0;
    if (lead + bytes > b->cap) return -1;
    return cudaMemcpy(b->d + JD_GBAND + lead, host, bytes, cudaMemcpyHostToDevice) == cudaSuccess &&
                   cudaDeviceSynchronize() == cudaSuccess
               ? 0
               : -1;
}

void jd_gbuf_arg(jd_req *rq, int k, const jd_gbuf *b, size_t lead)
{
    rq->arg_buf[0][k] = b ? b->id : -1;
    rq->arg_off[0][k] = b ? JD_GBAND + lead : 0;
}

int jd_gbuf_fetch(jd_gbuf *b, size_t lead, size_t bytes, void *host, const char *name, const char *what, jd_tally *t)
{
    size_t         front = JD_GBAND + lead, all = front + bytes + JD_GBAND;
    unsigned char *w = lead + bytes <= b->cap ? malloc(all) : NULL;
    if (!w || cudaMemcpy(w, b->d, all, cudaMemcpyDeviceToHost) != cudaSuccess) {
        free(w);
        return jd_failf(t, "%s: reading %s back: the judge's copy failed", what, name), -1;
    }
    long      changed = 0;
    long long first = 0;
    for (size_t i = 0; i < all; i++) {
        if (i == front) i += bytes;
        if (i < all && w[i] != 0xff && !changed++) first = (long long)i - (long long)front;
    }
    if (!changed && bytes) memcpy(host, w + front, bytes);
    free(w);
    if (changed)
        return jd_failf(t, "%s: written outside %s: %ld bytes of its guard band changed, the first %lld bytes from its start",
                        what, name, changed, first),
               1;
    return 0;
}

int jd_case_run(jd *J, jd_case_bufs *B, const jd_case *c, jd_tally *t)
{
    t->tests++;
    const int o = B->n_in; /* the output's slot */
    size_t cn = JD_GUARD + c->out_off + c->n + JD_GUARD;
    cudaError_t e = cudaSuccess;
    for (int i = 0; i < B->n_in && e == cudaSuccess; i++)
        if (c->in_n[i]) e = cudaMemcpy(B->d[i], c->in[i], c->in_n[i] * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemset(B->d[o], 0xff, cn * 4);
    if (e == cudaSuccess && c->out_init && c->n)
        e = cudaMemcpy(B->d[o] + JD_GUARD + c->out_off, c->out_init, c->n * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return jd_failf(t, "the judge's own copies: %s", cudaGetErrorName(e)), -1;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, c->fn, 1, B->n_in + 1);
    for (int i = 0; i < B->n_in; i++) /* no input floats: NULL, as the test's wb_dcopy of 0 bytes gives */
        if (c->in_n[i]) rq.arg_buf[0][i] = B->ib[i], rq.arg_off[0][i] = c->in_off[i] * 4;
    rq.arg_buf[0][o] = B->ib[o], rq.arg_off[0][o] = (JD_GUARD + c->out_off) * 4;
    memcpy(rq.i64, c->i64, sizeof rq.i64);
    memcpy(rq.f64, c->f64, sizeof rq.f64);
    rq.i64[0] = (long long)c->n;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", c->what, J->why), -1;
    if (rp.status != 0)
        return jd_failf(t, "%s: %s returned %s", c->what, c->fn_name, cudaGetErrorName((cudaError_t)rp.status)), 0;
    float *h = B->h[o];
    e = cudaMemcpy(h, B->d[o], cn * 4, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return jd_failf(t, "%s: reading the output: %s", c->what, cudaGetErrorName(e)), -1;
    for (size_t i = 0; i < cn; i++) {
        int inside = i >= JD_GUARD + c->out_off && i < JD_GUARD + c->out_off + c->n;
        size_t k = i - JD_GUARD - c->out_off;
        uint32_t got;
        memcpy(&got, &h[i], 4);
        double want = inside ? (c->ref64 ? c->ref64[k] : (double)c->ref[k]) : 0;
        int ok = !inside || (c->ref64 ? wb_close(h[i], want, c->atol, c->rtol) : same(h[i], c->ref[k], c->atol, c->rtol));
        if (!ok)
            return jd_failf(t, "%s: %s[%zu] expected %.9g got %.9g", c->what, c->out_name, k, want, (double)h[i]), 0;
        if (inside && isnan(want) && got == 0xffffffffu)
            return jd_failf(t, "%s: %s[%zu], where NaN is expected, was never written (it still holds the poison)",
                            c->what, c->out_name, k), 0;
        if (!inside && got != 0xffffffffu)
            return jd_failf(t, "%s: written outside the output (%zd from its start)", c->what,
                            (ssize_t)i - (ssize_t)(JD_GUARD + c->out_off)), 0;
    }
    return 0;
}

void jd_cases(jd *J, jd_tally *t, int n_in, size_t in_cap, size_t out_cap, int n,
              int (*one)(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx), void *ctx)
{
    jd_case_bufs B;
    if (jd_case_bufs_alloc(J, &B, n_in, in_cap, out_cap, t) == 0)
        for (int i = 0; i < n && !J->lost; i++)
            if (one(J, &B, i, t, ctx) < 0) break;
    jd_case_bufs_free(J, &B);
}

/* ---------------------------------------------------------- a timed checkpoint */

/* The positions idx_h onto the device, waited for: done before a request is
 * sent, so the look inside the timed window is one launch and one copy back. */
static int put_idx(jd_bench *x)
{
    return cudaMemcpyAsync(x->idx_d, x->idx_h, sizeof x->idx_h, cudaMemcpyHostToDevice, jd_stream) == cudaSuccess &&
                   cudaStreamSynchronize(jd_stream) == cudaSuccess
               ? 0
               : -1;
}

/* JD_SAMPLES positions of every rep's output, those put_idx put: one kernel over all the
 * reps (its cost does not grow with k: a launch a rep cost 370-500 us a
 * look at 64 reps on an H200, most of it not subtracted, about 7 us charged
 * to every call of week 58's decode). */
static int gather(jd_bench *x)
{
    if (jd_gather_reps_f32((const float *const *)x->outs_d, x->k, x->idx_d, JD_SAMPLES, x->got_d, jd_stream) != cudaSuccess) return -1;
    if (cudaMemcpyAsync(x->got_h, x->got_d, sizeof(float) * JD_SAMPLES * x->k, cudaMemcpyDeviceToHost, jd_stream) !=
        cudaSuccess)
        return -1;
    return cudaStreamSynchronize(jd_stream) == cudaSuccess ? 0 : -1;
}

/* Floats of each output. */
static size_t outn(const jd_bench *x) { return x->out_n ? x->out_n : x->n; }

/* New hidden positions for the next gather. */
static void pick(jd_bench *x)
{
    uint64_t k = x->pick = jd_mix(x->pick);
    for (int j = 0; j < JD_SAMPLES; j++) x->idx_h[j] = (k = jd_mix(k)) % outn(x);
}

/* The look right after a reply: every sampled value is the expected one
 * (computed before the request was sent, so the look costs a gather and a
 * comparison whatever the exercise). */
static int look(void *p, char *why, size_t n)
{
    jd_bench *x = p;
    if (gather(x) != 0) return snprintf(why, n, "the judge's look did not run"), 1;
    for (int r = 0; r < x->k; r++)
        for (int j = 0; j < JD_SAMPLES; j++) {
            float got = x->got_h[r * JD_SAMPLES + j], want = x->want[r * JD_SAMPLES + j];
            if (!same(got, want, x->atol, x->rtol)) {
                uint32_t u;
                memcpy(&u, &got, 4);
                return snprintf(why, n, JD_TIMED_WRONG ": call %d of a timed request: %s[%llu] %s right after the reply",
                                r, x->out_name, x->idx_h[j],
                                u == 0xffffffffu ? "not yet written (still the poison)" : "wrong"), 1;
            }
        }
    return 0;
}

/* Fresh inputs and poisoned outputs for every rep; a look that must find
 * every sampled output still poison (nothing computed before the call);
 * then the next look's positions and their expected values. */
static int refill(jd_bench *x, uint64_t *salt, char *why, size_t n)
{
    if (x->fresh) x->fresh(x, *salt = jd_mix(*salt));
    for (int r = 0; r < x->k; r++) {
        for (int i = 0; i < x->n_in; i++) {
            x->seed[r][i] = *salt = jd_mix(*salt);
            if (x->fill) x->fill(x, x->in[r][i], x->seed[r][i]);
            else wb_dfill_uniform_f32(x->in[r][i], x->n, x->seed[r][i], x->lo, x->hi);
        }
        if (x->inout) {
            x->seed[r][x->n_in] = *salt = jd_mix(*salt);
            wb_dfill_uniform_f32(x->out[r], x->n, x->seed[r][x->n_in], x->lo, x->hi);
        } else {
            cudaMemsetAsync(x->out[r], 0xff, outn(x) * 4, 0);
        }
    }
    pick(x);
    if (cudaDeviceSynchronize() != cudaSuccess || put_idx(x) != 0 || gather(x) != 0)
        return snprintf(why, n, "the judge's fill failed"), -1;
    for (int j = 0; j < JD_SAMPLES * x->k; j++) {
        uint32_t u, fill = 0xffffffffu; /* the poison, or an in-out output's fill */
        memcpy(&u, &x->got_h[j], 4);
        if (x->inout) {
            float f = wb_hash_uniform_f32(x->seed[j / JD_SAMPLES][x->n_in], x->idx_h[j % JD_SAMPLES], x->lo, x->hi);
            memcpy(&fill, &f, 4);
        }
        if (u != fill)
            return snprintf(why, n, "call %d: the output was written before the request was sent", j / JD_SAMPLES), 1;
    }
    pick(x);
    if (put_idx(x) != 0) return snprintf(why, n, "the judge's look positions: a copy failed"), -1;
    for (int r = 0; r < x->k; r++)
        for (int j = 0; j < JD_SAMPLES; j++) x->want[r * JD_SAMPLES + j] = x->expect(x, x->seed[r], x->idx_h[j]);
    return 0;
}

static int full_check(jd_bench *x, unsigned long long *bad, char *why, size_t n)
{
    for (int r = 0; r < x->k; r++) {
        unsigned long long h[2];
        if (x->full_check(x, x->out[r], x->seed[r], bad, h) != 0) return snprintf(why, n, "the judge's check did not run"), 1;
        if (h[0])
            return snprintf(why, n, JD_TIMED_WRONG ": call %d of a timed request: %llu of %zu elements wrong, the first "
                            "%s[%llu] (checked in full after the timing)", r, h[0], outn(x), x->out_name, h[1]), 1;
    }
    return 0;
}

/* 64 random bits drawn once a judge process (getrandom), mixed into the
 * timed protocol's salts: the timed requests' inputs, scalars and the look's
 * positions follow from them, not from the class seed alone, which every
 * student knows (the feedback prints it; the linked test of a partly judged
 * week runs with it). A runner that knew the positions the judge reads
 * right after a reply could write those first and finish the rest after
 * its reply, inside the timing: the full check comes only after. The
 * correctness cases still follow the class seed, so a learner can replay a
 * failing one. One process's timed runs, its yardsticks' included, share
 * the bits: week 11 times its given kernel on the very inputs of the
 * student's requests. */
static uint64_t jd_secret(void)
{
    static uint64_t s;
    static int have;
    if (!have) {
        if (getrandom(&s, sizeof s, 0) != (ssize_t)sizeof s) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            s = jd_mix((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40));
        }
        have = 1;
    }
    return s;
}

int jd_bench_run(jd *J, jd_bench *x, int timed, double *ms, char *why, size_t why_n)
{
    size_t bytes = x->in_bytes ? x->in_bytes : x->n * 4, out_bytes = outn(x) * 4, free_b = 0, total = 0;
    int nbuf = x->n_in + 1, rc = -1, prepared = 0;
    cudaMemGetInfo(&free_b, &total);
    x->k = (int)(free_b / 2 / (x->n_in * bytes + out_bytes));
    if (x->k > x->max_k) x->k = x->max_k;
    if (x->k > JD_BENCH_MAX_K) x->k = JD_BENCH_MAX_K;
    if (x->k < 1) x->k = 1;
    x->pick = jd_mix(jd_seed ^ 0x51ed ^ jd_secret());
    x->idx_d = NULL, x->got_d = NULL, x->outs_d = NULL;
    for (int r = 0; r < JD_BENCH_MAX_K; r++) x->iin[r][0] = x->iin[r][1] = x->iout[r] = -1;
    why[0] = 0;
    unsigned long long *bad = NULL;
    double *t = calloc((size_t)timed, sizeof *t);
    for (int r = 0; r < x->k; r++) {
        int ok = 1;
        for (int i = 0; i < x->n_in && ok; i++) ok = (x->iin[r][i] = jd_alloc(J, bytes, (void **)&x->in[r][i])) >= 0;
        if (!ok || (x->iout[r] = jd_alloc(J, out_bytes, (void **)&x->out[r])) < 0) {
            snprintf(why, why_n, "buffers: %s", J->why);
            goto out;
        }
    }
    if (!t || cudaMalloc((void **)&x->idx_d, sizeof x->idx_h) != cudaSuccess ||
        cudaMalloc((void **)&x->got_d, sizeof x->got_h) != cudaSuccess || cudaMalloc((void **)&bad, 16) != cudaSuccess ||
        cudaMalloc((void **)&x->outs_d, sizeof x->out) != cudaSuccess ||
        cudaMemcpy(x->outs_d, x->out, sizeof x->out, cudaMemcpyHostToDevice) != cudaSuccess) {
        snprintf(why, why_n, "the judge's own buffers: cudaMalloc failed");
        goto out;
    }
    if (x->prepare) {
        if (x->prepare(J, x, why, why_n) != 0) {
            if (!why[0]) snprintf(why, why_n, "the set-up before the timed calls failed");
            goto out;
        }
        prepared = 1;
    }
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, x->fn, x->k, nbuf);
    for (int r = 0; r < x->k; r++) {
        for (int i = 0; i < x->n_in; i++) rq.arg_buf[r][i] = x->iin[r][i];
        rq.arg_buf[r][x->n_in] = x->iout[r];
    }
    uint64_t salt = jd_mix(jd_seed ^ 0xb0b ^ jd_secret());
    double look_us = 0, us = 0, runner_us = 0;
    for (int k = -1; k < timed; k++) { /* k = -1: a warm-up, checked, not timed */
        if (refill(x, &salt, why, why_n)) goto out;
        memcpy(rq.i64, x->i64, sizeof rq.i64); /* this request's scalars */
        memcpy(rq.f64, x->f64, sizeof rq.f64);
        rq.i64[0] = (long long)x->n;
        int c = jd_timed_call(J, &rq, &rp, look, x, look_us, &us);
        if (c == -1) snprintf(why, why_n, "%s", J->why);
        else if (c == 1) snprintf(why, why_n, "%s returned %s", x->fn_name, cudaGetErrorName((cudaError_t)rp.status));
        else if (c == 2) snprintf(why, why_n, "%s", J->why);
        else if (rp.reps_done != x->k) snprintf(why, why_n, "the runner made %d of %d calls", rp.reps_done, x->k);
        else full_check(x, bad, why, why_n);
        if (why[0]) goto out;
        if (k < 0) { /* the judge's own cost of a look (gather and compare), on a finished output: min of 5 */
            look_us = 1e30;
            for (int j = 0; j < 5; j++) {
                char w2[200];
                double a0 = jd_now_us();
                look(x, w2, sizeof w2);
                double d = jd_now_us() - a0;
                if (d < look_us) look_us = d;
            }
        } else {
            t[k] = us / x->k / 1e3; /* ms a call */
            runner_us += rp.host_us;
        }
    }
    *ms = wb_median(t, timed);
    x->runner_ms = runner_us / timed / x->k / 1e3;
    rc = 0;
out:
    if (prepared && x->release) x->release(J, x);
    free(t);
    if (bad) cudaFree(bad);
    if (x->idx_d) cudaFree(x->idx_d);
    if (x->got_d) cudaFree(x->got_d);
    if (x->outs_d) cudaFree(x->outs_d);
    for (int r = 0; r < x->k; r++) jd_free(J, x->iin[r][0]), jd_free(J, x->iin[r][1]), jd_free(J, x->iout[r]);
    return rc;
}

int jd_full_check_done(cudaError_t e, const unsigned long long *bad, unsigned long long h[2])
{
    return e == cudaSuccess && cudaMemcpyAsync(h, bad, 2 * sizeof *h, cudaMemcpyDeviceToHost, jd_stream) == cudaSuccess &&
                   cudaStreamSynchronize(jd_stream) == cudaSuccess
               ? 0
               : -1;
}

int jd_fma_full_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    return jd_full_check_done(jd_fma_check_f32(out, b->n, seed[0], b->lo, b->hi, (int)b->i64[1], (float)b->f64[0],
                                               (float)b->f64[1], b->atol, b->rtol, bad, jd_stream),
                              bad, h);
}

/* ---------------------------------------------------------------- COPY */

/* The yard runner's copy: the output equals the input, bit for bit. */
static float copy_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    return wb_hash_uniform_f32(seed[0], i, b->lo, b->hi);
}

static int copy_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    return jd_fma_check_f32(out, b->n, seed[0], b->lo, b->hi, 0, 1.0f, 0.0f, 0, 0, bad, jd_stream) == cudaSuccess &&
                   cudaMemcpyAsync(h, bad, 2 * sizeof *h, cudaMemcpyDeviceToHost, jd_stream) == cudaSuccess &&
                   cudaStreamSynchronize(jd_stream) == cudaSuccess
               ? 0
               : -1;
}

static jd_bench g_yard; /* large: its sample arrays */

int jd_yard_bench(const char *name, jd_bench *x, int timed, double *ms, char *why, size_t why_n)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", g_judge_dir, name);
    jd Y;
    char *argv[2] = { path, NULL };
    if (jd_start_plain(&Y, argv, NULL) != 0 || jd_hello(&Y, JD_MEM_DEVICE, jd_dev) != 0) {
        snprintf(why, why_n, "the yard runner (%s) did not start: %s", path, Y.why);
        jd_stop(&Y);
        return -1;
    }
    int rc = jd_bench_run(&Y, x, timed, ms, why, why_n);
    jd_stop(&Y);
    if (rc == 0 && !(*ms > 0)) rc = -1, snprintf(why, why_n, "no time");
    return rc;
}

double jd_yard_faster(const char *name, jd_bench *x, int timed, double before_ms, const char *before_why,
                      double *after_ms, char *why, size_t why_n)
{
    char now_why[600] = "";
    double after = NAN;
    if (jd_yard_bench(name, x, timed, &after, now_why, sizeof now_why) != 0) after = NAN;
    *after_ms = after;
    double ms = !(after > 0) ? before_ms : !(before_ms > 0) ? after : fmin(before_ms, after);
    if (!(ms > 0)) snprintf(why, why_n, "%s", now_why[0] ? now_why : before_why);
    return ms;
}

/* COPY of g_copy_floats floats a call through the yard runner, timed by the
 * same protocol as a student's calls; GB/s (read plus written), or NAN with
 * g_yard_why. */
static double yard_copy_gbps(void)
{
    memset(&g_yard, 0, sizeof g_yard);
    g_yard.fn = JD_YARD_FN_COPY, g_yard.n_in = 1, g_yard.max_k = g_copy_max_k > 0 ? g_copy_max_k : JD_BENCH_MAX_K;
    g_yard.n = g_copy_floats;
    g_yard.lo = -1.0f, g_yard.hi = 1.0f, g_yard.fn_name = "cudaMemcpyAsync", g_yard.out_name = "copy";
    g_yard.expect = copy_expect, g_yard.full_check = copy_check;
    double ms = NAN;
    char why[600] = "";
    if (jd_yard_bench("judge-yard-runner", &g_yard, JD_YARD_TIMED, &ms, why, sizeof why) != 0) {
        snprintf(g_yard_why, sizeof g_yard_why, "the yard runner's copy: %s", why[0] ? why : "no time");
        return NAN;
    }
    return 8.0 * (double)g_copy_floats / (ms * 1e-3) / 1e9;
}

double jd_copy_yard(void)
{
    double copy = yard_copy_gbps();
    if (!(copy > 0)) return g_copy_before; /* NAN too when that failed: no figure */
    return g_copy_before > copy ? g_copy_before : copy;
}

const char *jd_copy_yard_why(void) { return g_yard_why; }

void jd_bw_checkpoint(jd_ck *k, jd_bench *x, int timed, double bytes_per_elem, const char *label)
{
    double ms = NAN, value = NAN, copy = NAN;
    char why[600] = "", detail[200] = "";
    if (jd_bench_run(k->J, x, timed, &ms, why, sizeof why) == 0) {
        copy = jd_copy_yard(); /* through the same protocol: the larger of before any student code ran and now */
        if (!(copy > 0)) snprintf(why, sizeof why, "no COPY figure: %s", jd_copy_yard_why());
        value = bytes_per_elem * (double)x->n / (ms * 1e-3) / 1e9;
        snprintf(detail, sizeof detail, "%.0f GB/s vs COPY %.0f GB/s (judge's clock, %d calls a request, median of %d)",
                 value, copy, x->k, timed);
        printf("  %s: %.4f ms a call by the judge's clock (%.4f by the runner's own), %s\n", label, ms, x->runner_ms,
               detail);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "GB/s", "COPY", copy, detail, why);
}

void jd_speed_result(wb_result *R, jd_tally *t, const wb_checkpoint *c, const char *gpu, double value,
                     const char *unit, const char *yard, double yard_value, const char *detail, const char *why)
{
    double target = wb_target_for(c, gpu, NULL);
    if (c->yard[0]) yard = c->yard;
    t->tests = 1, t->failed = 0;
    if (why && why[0]) { /* no figure from a wrong run */
        R->value = R->ratio = NAN;
        jd_failf(t, "%s", why);
        return;
    }
    R->value = value;
    R->yard_value = yard_value;
    R->ratio = yard_value > 0 ? value / yard_value : NAN;
    R->target = target;
    snprintf(R->unit, sizeof R->unit, "%s", unit);
    snprintf(R->yard, sizeof R->yard, "%s", yard);
    snprintf(R->detail, sizeof R->detail, "%s", detail);
    char tgt[96];
    if (!(R->ratio >= target))
        jd_failf(t, "below target: %.3f of %s (target %s)", R->ratio, yard, wb_target_text(c, gpu, tgt, sizeof tgt));
}

/* ----------------------------------------------------------------- the week */

/* --sandbox SCRATCH RUNNER: the sandbox shows the scratch folder and nothing
 * of the tree, so the runner is copied in (SCRATCH/judge-runner, 0755; the
 * folder made if missing, its absolute path used) and run from there; its
 * output goes to RECORD.runner.log, beside the record, outside the sandbox.
 * 0, or -1 with why. */
static char g_sb_scratch[PATH_MAX], g_sb_runner[PATH_MAX + 16], g_sb_log[PATH_MAX + 16];
static int sandbox_runner(const char *scratch, const char *runner, const char *record, char *why, size_t why_size)
{
    mkdir(scratch, 0755);
    if (!realpath(scratch, g_sb_scratch)) return snprintf(why, why_size, "--sandbox %s: not a folder", scratch), -1;
    snprintf(g_sb_runner, sizeof g_sb_runner, "%s/judge-runner", g_sb_scratch);
    snprintf(g_sb_log, sizeof g_sb_log, "%s.runner.log", record);
    if (sb_copy_exe(runner, g_sb_runner) != 0)
        return snprintf(why, why_size, "copying %s to %s failed", runner, g_sb_runner), -1;
    return 0;
}

/* Start the runner: a socket handed in, in the sandbox, or a plain child;
 * then its hello (kind: JD_MEM_DEVICE with a GPU, JD_MEM_HOST without).
 * 1 when it answers, else 0 (J->why). */
static int start_runner(jd *J, int sock, int pid, const char *scratch, char **plain_argv, int kind)
{
    int started;
    if (sock >= 0) jd_adopt(J, sock, pid), started = 1;
    else if (scratch) {
        char *sb_argv[2] = { g_sb_runner, NULL };
        sb_opts o;
        memset(&o, 0, sizeof o);
        o.scratch = scratch, o.max_procs = 64, o.log_path = g_sb_log;
        if (kind == JD_MEM_DEVICE) {
            o.gpu = 1, o.wall_s = 600, o.mem_bytes = 16ll << 30;
            if (access("/usr/local/nvidia/lib64", F_OK) == 0) o.ld_library_path = "/usr/local/nvidia/lib64";
        } else {
            o.wall_s = 120, o.mem_bytes = 4ll << 30;
        }
        started = jd_start_sandboxed(J, &o, sb_argv) == 0;
    } else {
        started = jd_start_plain(J, plain_argv, NULL) == 0;
    }
    return started && jd_hello(J, kind, kind == JD_MEM_DEVICE ? jd_dev : -1) == 0;
}

static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] "
                    "(--sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)\n", prog);
}

#define MAX_CPS 16 /* week 07 has ten */

int jd_week_main(int argc, char **argv, const char *prog, const char *week_dir, const jd_checkpoint *cps, int n)
{
    const char *record = NULL, *which = NULL, *scratch = NULL;
    int sock = -1, pid = -1, i = 1;
    if (n > MAX_CPS) return fprintf(stderr, "%s: more than %d checkpoints\n", prog, MAX_CPS), 2;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--list")) { /* the checkpoints this judge forms (the grader asks) */
            for (int k = 0; k < n; k++) printf("%s\n", cps[k].id);
            return 0;
        }
        if (!strcmp(argv[i], "--record") && i + 1 < argc) record = argv[++i];
        else if (!strcmp(argv[i], "--checkpoint") && i + 1 < argc) which = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) jd_seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--device") && i + 1 < argc) jd_dev = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--week-dir") && i + 1 < argc) week_dir = argv[++i];
        else if (!strcmp(argv[i], "--sock") && i + 1 < argc) sock = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--pid") && i + 1 < argc) pid = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sandbox") && i + 1 < argc) scratch = argv[++i];
        else return usage(prog), 2;
    }
    if (!record || !which || (sock < 0 && i >= argc)) return usage(prog), 2;
    { /* the yard runners (judge-yard-runner, a week's own): beside this program (instructor code only) */
        char self[PATH_MAX];
        ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
        self[len > 0 ? len : 0] = 0;
        char *slash = strrchr(self, '/');
        if (slash) *slash = 0;
        snprintf(g_judge_dir, sizeof g_judge_dir, "%s", slash ? self : ".");
    }
    if (scratch && sock < 0) {
        char why[PATH_MAX * 2 + 64];
        if (sandbox_runner(scratch, argv[i], record, why, sizeof why) != 0) return fprintf(stderr, "%s: %s\n", prog, why), 2;
        scratch = g_sb_scratch;
    }
    /* week.txt: the checkpoints and the speed targets */
    char wt[600], err[400];
    snprintf(wt, sizeof wt, "%s/week.txt", week_dir);
    static wb_week W;
    if (wb_week_load(wt, &W, err, sizeof err) != 0) return fprintf(stderr, "%s: %s\n", prog, err), 2;
    wb_result R[MAX_CPS];
    int want[MAX_CPS], n_out = 0, copy = 0, cpu = 0;
    size_t copy_bytes = 0;
    for (int k = 0; k < n; k++) {
        want[k] = !strcmp(which, "all") || !strcmp(which, cps[k].id);
        wb_result_init(&R[k]);
        snprintf(R[k].week, sizeof R[k].week, "%s", week_dir);
        snprintf(R[k].id, sizeof R[k].id, "%s", cps[k].id);
        R[k].seed = jd_seed;
        n_out += want[k];
        if (want[k] && cps[k].copy_yard) {
            if (copy && (copy != cps[k].copy_yard || copy_bytes != cps[k].copy_bytes || g_copy_max_k != cps[k].copy_max_k))
                return fprintf(stderr, "%s: checkpoints timed against COPY of different sizes\n", prog), 2;
            copy = cps[k].copy_yard, copy_bytes = cps[k].copy_bytes, g_copy_max_k = cps[k].copy_max_k;
        }
        cpu |= want[k] && cps[k].cpu;
        if (!wb_week_checkpoint(&W, cps[k].id)) return fprintf(stderr, "%s: %s has no checkpoint %s\n", prog, wt, cps[k].id), 2;
    }
    if (!n_out) return fprintf(stderr, "%s: no checkpoint %s in %s\n", prog, which, week_dir), 2;
    /* the GPU, or every checkpoint is SKIP (nogpu) but what a CPU check decides */
    int count = 0;
    const char *ng = getenv("WB_NO_GPU");
    cudaError_t e = ng && !strcmp(ng, "1") ? cudaErrorNoDevice : cudaGetDeviceCount(&count);
    if (e == cudaSuccess && count > jd_dev) e = cudaSetDevice(jd_dev);
    if (e == cudaSuccess && count > jd_dev) e = cudaStreamCreateWithFlags(&jd_stream, cudaStreamNonBlocking);
    int gpu_ok = e == cudaSuccess && count > jd_dev;
    jd J;
    char gpu[128] = "-";
    if (!gpu_ok) {
        for (int k = 0; k < n; k++) {
            R[k].status = WB_RES_SKIP, R[k].reason = WB_WHY_NOGPU, R[k].skipped = 1;
            snprintf(R[k].message, sizeof R[k].message, "no GPU for the judge (%s)", cudaGetErrorName(e));
        }
        /* CPU functions are checked anyway, through a runner that opens no
         * GPU (host buffers only), as the week's test checks them without
         * one: a wrong one FAILs; a check that is the whole checkpoint PASSes */
        if (cpu) {
            int started = start_runner(&J, sock, pid, scratch, argv + i, JD_MEM_HOST);
            for (int k = 0; k < n; k++) {
                if (!want[k] || !cps[k].cpu) continue;
                jd_tally t;
                memset(&t, 0, sizeof t);
                if (!started || J.lost)
                    jd_failf(&t, "the runner %s: %s%s%s", started ? "is gone" : "did not start", J.why,
                             scratch ? "; its output: " : "", scratch ? g_sb_log : "");
                else cps[k].cpu(&J, &t);
                if (t.failed || cps[k].cpu_whole) {
                    R[k].status = t.failed ? WB_RES_FAIL : WB_RES_PASS;
                    R[k].reason = t.failed ? WB_WHY_CODE : WB_WHY_NONE;
                    R[k].tests = t.tests, R[k].failed = t.failed, R[k].skipped = 0;
                    snprintf(R[k].message, sizeof R[k].message, "%s", t.msg);
                }
            }
            jd_stop(&J);
        } else if (sock >= 0) {
            close(sock);
        }
    } else {
        struct cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, jd_dev) == cudaSuccess) snprintf(gpu, sizeof gpu, "%s", p.name);
        if (copy) { /* before any student code runs, the size of the student's timed calls */
            g_copy_floats = copy_bytes ? copy_bytes / 4 : wb_bench_bytes() / 4 * (size_t)copy / 8;
            g_copy_before = yard_copy_gbps();
        }
        for (int k = 0; k < n; k++) /* a week's own yardstick, before any student code runs too */
            if (want[k] && cps[k].yard_before) cps[k].yard_before();
        int started = start_runner(&J, sock, pid, scratch, argv + i, JD_MEM_DEVICE);
        for (int k = 0; k < n; k++) {
            if (!want[k]) continue;
            snprintf(R[k].gpu, sizeof R[k].gpu, "%s", gpu);
            jd_tally t;
            memset(&t, 0, sizeof t);
            if (!started || J.lost) {
                jd_failf(&t, "the runner %s: %s%s%s", started ? "is gone" : "did not start", J.why,
                         scratch ? "; its output: " : "", scratch ? g_sb_log : "");
            } else {
                jd_ck ck = { &J, &t, &R[k], wb_week_checkpoint(&W, cps[k].id), gpu };
                cps[k].gpu(&ck);
            }
            R[k].tests = t.tests, R[k].failed = t.failed, R[k].skipped = t.skipped;
            snprintf(R[k].message, sizeof R[k].message, "%s", t.msg);
            R[k].status = t.failed ? WB_RES_FAIL : t.skipped || !t.tests ? WB_RES_SKIP : WB_RES_PASS;
            R[k].reason = t.failed ? WB_WHY_CODE : R[k].status == WB_RES_SKIP ? WB_WHY_ENV : WB_WHY_NONE;
        }
        jd_stop(&J);
    }
    /* only the checkpoints asked for */
    wb_result out[MAX_CPS];
    int m = 0;
    for (int k = 0; k < n; k++)
        if (want[k]) out[m++] = R[k];
    for (int k = 0; k < m; k++)
        printf("%s: %s %s%s%s\n", prog, out[k].id, wb_result_status_name(out[k].status), out[k].message[0] ? ": " : "",
               out[k].message);
    if (wb_results_write(record, out, m, err, sizeof err) != 0) return fprintf(stderr, "%s: %s\n", prog, err), 2;
    return 0;
}
