/* judge_attn.c — the judges of week 38's attention forward contract
 * (judge_w38.c: flash_attn_fwd; judge_w62.c: fa3_fwd) share this: a case
 * drawn, called and checked against w38_checks.h's double reference (host)
 * and judge_w38_kernels.cu's (GPU, every row), the bad-argument calls, and
 * the timed headline shape against cuDNN's fused attention through
 * judge-w38-yard-runner (judge_attn.h; the protocol is judge_week.c's). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "judge_attn.h"
#include "judge_w38.h"
#include "judge_w38_kernels.h"
#include "judge_week.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_cudnn.h"
#include "wb_f16.h"
#include "wb_rand.h"

#define TIMED 7
#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))

static const ja_week *g_w;

void ja_use(const ja_week *w) { g_w = w; }

static const char *status_name(int s) { return s < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)s); }

int ja_case_run(jd *J, jd_tally *t, wb_rng *rng, const fa_case *c, const int *rows, int n_rows, int gpu_all)
{
    const size_t n = (size_t)c->B * c->H * c->S * c->D, hs = (size_t)c->S * c->D, nl = (size_t)c->B * c->H * c->S;
    const float qk = c->big ? 50.f : 3.f;
    const double scale = c->big ? 1.0 : 1.0 / sqrt((double)c->D);
    const int per_head = rows ? n_rows : c->S;
    const size_t m = (size_t)c->B * c->H * per_head * c->D, ml = (size_t)c->B * c->H * per_head;
    int rc = -1;
    char what[300];
    snprintf(what, sizeof what, "B=%d H=%d S=%d D=%d %s%s", c->B, c->H, c->S, c->D, c->causal ? "causal" : "non-causal",
             c->big ? ", scale 1 and logits near 1e4" : "");
    jd_gbuf bq = { -1, NULL, 0 }, bk = { -1, NULL, 0 }, bv = { -1, NULL, 0 }, bo = { -1, NULL, 0 },
            bl = { -1, NULL, 0 };
    uint16_t *hq = malloc(n * 2 + 2), *hk = malloc(n * 2 + 2), *hv = malloc(n * 2 + 2), *got = malloc(n * 2 + 2);
    float *fq = malloc(n * 4 + 4), *fk = malloc(n * 4 + 4), *fv = malloc(n * 4 + 4), *got_lse = malloc(nl * 4 + 4);
    float *g = malloc(m * 4 + 4), *gl = malloc(ml * 4 + 4);
    double *ref = malloc(m * 8 + 8), *sc = malloc((size_t)c->S * 8 + 8), *ref_lse = malloc(ml * 8 + 8);
    uint16_t *dq = NULL;
    unsigned long long *bad = NULL;
    t->tests++;
    if (!hq || !hk || !hv || !got || !fq || !fk || !fv || !got_lse || !g || !gl || !ref || !sc || !ref_lse) {
        jd_failf(t, "%s: buffers: out of memory", what);
        goto out;
    }
    draw_bf16(rng, hq, fq, n, -qk, qk);
    draw_bf16(rng, hk, fk, n, -qk, qk);
    draw_bf16(rng, hv, fv, n, -1, 1);
    if (jd_gbuf_alloc(J, &bq, n * 2, t) || jd_gbuf_alloc(J, &bk, n * 2, t) || jd_gbuf_alloc(J, &bv, n * 2, t) ||
        jd_gbuf_alloc(J, &bo, n * 2, t) || jd_gbuf_alloc(J, &bl, nl * 4, t))
        goto out;
    if (jd_gbuf_put(&bq, 0, hq, n * 2) || jd_gbuf_put(&bk, 0, hk, n * 2) || jd_gbuf_put(&bv, 0, hv, n * 2) ||
        jd_gbuf_poison(&bo, 0, n * 2) || jd_gbuf_poison(&bl, 0, nl * 4)) {
        jd_failf(t, "%s: the judge's own copies failed", what);
        goto out;
    }
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, g_w->fn_fwd, 1, 5);
    jd_gbuf_arg(&rq, 0, &bq, 0), jd_gbuf_arg(&rq, 1, &bk, 0), jd_gbuf_arg(&rq, 2, &bv, 0);
    jd_gbuf_arg(&rq, 3, &bo, 0), jd_gbuf_arg(&rq, 4, &bl, 0);
    rq.i64[0] = (long long)n, rq.i64[1] = c->B, rq.i64[2] = c->H, rq.i64[3] = c->S, rq.i64[4] = c->D;
    rq.i64[5] = c->causal, rq.f64[0] = (double)(float)scale;
    if (jd_call(J, &rq, &rp, NULL) != 0) {
        jd_failf(t, "%s: %s", what, J->why);
        goto out;
    }
    rc = 0;
    if (rp.status != 0) {
        jd_failf(t, "%s: %s returned %s", what, g_w->fn_name, status_name(rp.status));
        goto out;
    }
    int f = jd_gbuf_fetch(&bo, 0, n * 2, got, "O", what, t);
    if (!f) f = jd_gbuf_fetch(&bl, 0, nl * 4, got_lse, "lse", what, t);
    if (f) {
        if (f < 0) rc = -1;
        goto out;
    }
    w38_rows(c, rows, per_head, fq, fk, fv, got, got_lse, scale, sc, g, gl, ref, ref_lse);
    wb_cmp cmp;
    wb_compare_f32_f64("O", g, ref, m, c->big ? ATOL_BIG_LOGITS : ATOL, RTOL, &cmp);
    if (cmp.bad) {
        const size_t i = cmp.first_bad, per = (size_t)per_head * c->D;
        const int r = (int)(i % per / c->D);
        jd_failf(t, "%s; first bad: head %zu, row %d, d %zu: %s", what, i / per, rows ? rows[r] : r, i % c->D,
                 cmp.msg);
        goto out;
    }
    wb_compare_f32_f64("lse", gl, ref_lse, ml, lse_atol(c->S, c->big), LSE_RTOL, &cmp);
    if (cmp.bad) {
        const size_t i = cmp.first_bad;
        jd_failf(t, "%s; first bad lse: head %zu, row %d (lse[bh * S + row] = m + log(l), natural log): %s", what,
                 i / per_head, rows ? rows[i % per_head] : (int)(i % per_head), cmp.msg);
        goto out;
    }
    if (gpu_all) { /* every row: the judge's own copies of the inputs and of the O and lse it read back */
        unsigned long long h[2] = { 0, 0 };
        if (cudaMalloc((void **)&dq, n * 8 + nl * 4) != cudaSuccess || cudaMalloc((void **)&bad, 16) != cudaSuccess ||
            cudaMemcpy(dq, hq, n * 2, cudaMemcpyHostToDevice) != cudaSuccess ||
            cudaMemcpy(dq + n, hk, n * 2, cudaMemcpyHostToDevice) != cudaSuccess ||
            cudaMemcpy(dq + 2 * n, hv, n * 2, cudaMemcpyHostToDevice) != cudaSuccess ||
            cudaMemcpy(dq + 3 * n, got, n * 2, cudaMemcpyHostToDevice) != cudaSuccess ||
            cudaMemcpy(dq + 4 * n, got_lse, nl * 4, cudaMemcpyHostToDevice) != cudaSuccess ||
            jd_full_check_done(jd_w38_attn_check(dq, dq + n, dq + 2 * n, dq + 3 * n, (const float *)(dq + 4 * n),
                                                 c->B * c->H, c->S, c->D, c->causal,
                                                 scale, c->big ? ATOL_BIG_LOGITS : ATOL, RTOL,
                                                 lse_atol(c->S, c->big), LSE_RTOL, bad, jd_stream),
                               bad, h) != 0) {
            jd_failf(t, "%s: the judge's check of every row did not run", what);
            rc = -1;
            goto out;
        }
        if (h[0]) {
            const unsigned long long e = h[1];
            if (e < n)
                jd_failf(t, "%s: %llu of %zu elements of O and lse wrong (every row checked), the first O at head %llu, "
                         "row %llu, d %llu: expected within %g + %g |ref| of the double reference, got %.6g",
                         what, h[0], n + nl, e / hs, e % hs / c->D, e % c->D, c->big ? ATOL_BIG_LOGITS : ATOL, RTOL,
                         (double)wb_bf16_to_f32(got[e]));
            else
                jd_failf(t, "%s: %llu of %zu elements of O and lse wrong (every row checked), the first lse at head "
                         "%llu, row %llu (lse[bh * S + row] = m + log(l), natural log): got %.9g", what, h[0], n + nl,
                         (e - n) / c->S, (e - n) % c->S, (double)got_lse[e - n]);
        }
    }
out:
    if (bad) cudaFree(bad);
    if (dq) cudaFree(dq);
    jd_gbuf_free(J, &bq), jd_gbuf_free(J, &bk), jd_gbuf_free(J, &bv), jd_gbuf_free(J, &bo), jd_gbuf_free(J, &bl);
    free(hq), free(hk), free(hv), free(got), free(fq), free(fk), free(fv), free(got_lse), free(g), free(gl);
    free(ref), free(sc), free(ref_lse);
    return rc;
}

/* One bad-argument call on the poisoned O (also the inputs, as the tests')
 * and lse. The status, or -1 when the call failed. */
static int args_call(jd *J, jd_gbuf *o, jd_gbuf *l, const ja_arg_call *c, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, g_w->fn_fwd, 1, 5);
    jd_gbuf_arg(&rq, 0, o, c->qoff), jd_gbuf_arg(&rq, 1, c->no_k ? NULL : o, 0), jd_gbuf_arg(&rq, 2, o, 0);
    jd_gbuf_arg(&rq, 3, o, c->ooff), jd_gbuf_arg(&rq, 4, c->no_lse ? NULL : l, c->loff);
    rq.i64[0] = 0, rq.i64[1] = c->B, rq.i64[2] = c->H, rq.i64[3] = c->S, rq.i64[4] = c->D, rq.i64[5] = c->causal;
    rq.f64[0] = c->scale;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "bad arguments: %s", J->why), -1;
    return rp.status;
}

void ja_args(jd *J, jd_tally *t, const ja_arg_call *calls, int n)
{
    jd_gbuf o = { -1, NULL, 0 }, l = { -1, NULL, 0 };
    unsigned char host[4096];
    t->tests++;
    if (jd_gbuf_alloc(J, &o, 4096, t) || jd_gbuf_alloc(J, &l, 1024, t)) goto out;
    if (jd_gbuf_poison(&o, 0, 4096) || jd_gbuf_poison(&l, 0, 1024)) {
        jd_failf(t, "bad arguments: the judge's own copies failed");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        const int s = args_call(J, &o, &l, &calls[i], t);
        if (s == -1 && J->lost) goto out;
        const int want = calls[i].refused ? (int)cudaErrorInvalidValue : (int)cudaSuccess;
        if (s != want) {
            jd_failf(t, "%s: %s; it returned %s", g_w->fn_name, calls[i].what, status_name(s));
            goto out;
        }
    }
    const char *what = "B, H or S == 0, or a refused call, writes nothing";
    if (jd_gbuf_fetch(&o, 0, 4096, host, "O", what, t)) goto out;
    for (size_t i = 0; i < 4096; i += 2)
        if (host[i] != 0xff || host[i + 1] != 0xff) {
            jd_failf(t, "B, H or S == 0, or a refused call: O[%zu] was written (0x%02x%02x)", i / 2, host[i + 1],
                     host[i]);
            goto out;
        }
    if (jd_gbuf_fetch(&l, 0, 1024, host, "lse", what, t)) goto out;
    if (wb_count_not_byte(host, 1024, 0xFF) != 0) jd_failf(t, "B, H or S == 0, or a refused call: lse was written");
out:
    jd_gbuf_free(J, &o), jd_gbuf_free(J, &l);
}

void ja_fwd(jd_ck *k, const fa_case *cases, int n, const fa_case *longs, int n_long, const ja_arg_call *calls,
            int n_calls)
{
    for (int i = 0; i < n && !k->J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W38_CASES_TAG, i);
        if (ja_case_run(k->J, k->t, &rng, &cases[i], NULL, 0, 0) < 0) return;
    }
    for (int i = 0; i < n_long && !k->J->lost; i++) { /* the tests' fwd_long: its rows drawn first, as it draws them */
        wb_rng rng = wb_rng_for_seed(jd_seed, W38_LONG_TAG, i);
        int rows[32] = { 0, 1, 63, 64, 127, 128, 129, 2047, 2048, 4031, 4032, 4095, 4096, 4097, 4131, 4132 };
        for (int r = 16; r < 32; r++) rows[r] = (int)wb_rng_int(&rng, 0, longs[i].S - 1);
        if (ja_case_run(k->J, k->t, &rng, &longs[i], rows, 32, 1) < 0) return;
    }
    if (!k->J->lost) ja_args(k->J, k->t, calls, n_calls);
}

/* ---------------------------------------------------------------- the timed shape */

enum { TB = JA_TB, TH = JA_TH, TS = JA_TS, TD = JA_TD };
#define T_ELEMS ((size_t)TB * TH * TS * TD)
#define T_ROWS  ((size_t)TB * TH * TS)
#define CUDNN_TOL 2e-2 /* the test's check of cuDNN's output: atol and rtol */
#define BENCH_MAX_K 8

/* The judge's own copy of one rep's inputs (device memory the runner never
 * sees: the reference is not made from the buffers the runner was handed),
 * the floats they are rounded from, and the look's expected values for one
 * rep, kept until the seed or the positions change. */
static struct {
    uint16_t           *qkv;
    float              *tmp;
    unsigned long long  seed;
    int                 have;
    unsigned long long *idx_d;
    float              *at_d, at_h[JD_SAMPLES];
    unsigned long long  at_seed;
    uint64_t            at_pick;
    int                 at_fn, at_causal, at_ok;
} g_ref;

static void ref_release(void)
{
    if (g_ref.qkv) cudaFree(g_ref.qkv);
    if (g_ref.tmp) cudaFree(g_ref.tmp);
    if (g_ref.idx_d) cudaFree(g_ref.idx_d);
    if (g_ref.at_d) cudaFree(g_ref.at_d);
    memset(&g_ref, 0, sizeof g_ref);
}

/* One rep's Q, K and V from its seed, on the default stream: Q and K
 * uniform in [-3, 3), V in [-1, 1) (the test's ranges, wb_dfill_uniform_f32),
 * rounded to bf16. 0, or -1. */
static int fill_qkv_from(uint16_t *qkv, unsigned long long seed)
{
    if (!g_ref.tmp && cudaMalloc((void **)&g_ref.tmp, 3 * T_ELEMS * 4) != cudaSuccess) return g_ref.tmp = NULL, -1;
    wb_dfill_uniform_f32(g_ref.tmp, 2 * T_ELEMS, seed, -3, 3);
    wb_dfill_uniform_f32(g_ref.tmp + 2 * T_ELEMS, T_ELEMS, jd_mix(seed), -1, 1);
    return jd_w38_to_bf16(g_ref.tmp, qkv, 3 * T_ELEMS, 0) == cudaSuccess ? 0 : -1;
}

/* The judge's copy holds the inputs of seed, ready for jd_stream: 0, or -1. */
static int ref_inputs(unsigned long long seed)
{
    if (g_ref.have && g_ref.seed == seed) return 0;
    g_ref.have = 0;
    if (!g_ref.qkv && cudaMalloc((void **)&g_ref.qkv, 3 * T_ELEMS * 2) != cudaSuccess) return g_ref.qkv = NULL, -1;
    if (fill_qkv_from(g_ref.qkv, seed) != 0 || cudaStreamSynchronize(0) != cudaSuccess) return -1;
    g_ref.seed = seed, g_ref.have = 1;
    return 0;
}

/* The protocol's fill of a rep's input (the engine waits for the device after it). */
static void fill_qkv(const jd_bench *b, void *in, unsigned long long seed)
{
    (void)b;
    fill_qkv_from((uint16_t *)in, seed);
}

static float at_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    if (!g_ref.at_ok || g_ref.at_seed != seed[0] || g_ref.at_pick != b->pick || g_ref.at_fn != b->fn ||
        g_ref.at_causal != (int)b->i64[5]) {
        g_ref.at_ok = 0;
        if ((!g_ref.idx_d && cudaMalloc((void **)&g_ref.idx_d, sizeof b->idx_h) != cudaSuccess) ||
            (!g_ref.at_d && cudaMalloc((void **)&g_ref.at_d, sizeof g_ref.at_h) != cudaSuccess) ||
            ref_inputs(seed[0]) != 0 ||
            cudaMemcpyAsync(g_ref.idx_d, b->idx_h, sizeof b->idx_h, cudaMemcpyHostToDevice, jd_stream) != cudaSuccess ||
            jd_w38_attn_at(g_ref.qkv, g_ref.qkv + T_ELEMS, g_ref.qkv + 2 * T_ELEMS, g_ref.idx_d, JD_SAMPLES, TB * TH,
                           TS, TD, (int)b->i64[5], b->f64[0], g_ref.at_d, jd_stream) != cudaSuccess ||
            cudaMemcpyAsync(g_ref.at_h, g_ref.at_d, sizeof g_ref.at_h, cudaMemcpyDeviceToHost, jd_stream) !=
                cudaSuccess ||
            cudaStreamSynchronize(jd_stream) != cudaSuccess)
            return NAN; /* the look then fails: no figure from an unchecked run */
        g_ref.at_seed = seed[0], g_ref.at_pick = b->pick, g_ref.at_fn = b->fn, g_ref.at_causal = (int)b->i64[5];
        g_ref.at_ok = 1;
    }
    for (int j = 0; j < JD_SAMPLES; j++)
        if (b->idx_h[j] == i) return g_ref.at_h[j];
    return NAN;
}

/* Every element of one rep's O (and lse, the student's run) against the
 * double reference of that rep's inputs; h[1] as an index of the output's
 * 4-byte words (O's bf16 pairs, then lse), as the look's. */
static int fa_full_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                         unsigned long long h[2])
{
    const int yard = b->fn == W38_YARD_CUDNN;
    const uint16_t *o = (const uint16_t *)out;
    if (ref_inputs(seed[0]) != 0) return -1;
    if (jd_full_check_done(jd_w38_attn_check(g_ref.qkv, g_ref.qkv + T_ELEMS, g_ref.qkv + 2 * T_ELEMS, o,
                                             yard ? NULL : (const float *)(o + T_ELEMS), TB * TH, TS, TD,
                                             (int)b->i64[5], b->f64[0], yard ? CUDNN_TOL : ATOL,
                                             yard ? CUDNN_TOL : RTOL, lse_atol(TS, 0), LSE_RTOL, bad, jd_stream),
                           bad, h) != 0)
        return -1;
    if (h[0]) h[1] = h[1] < T_ELEMS ? h[1] / 2 : T_ELEMS / 2 + (h[1] - T_ELEMS);
    return 0;
}

/* A timed call of the headline shape: the student's (O and lse) or cuDNN's (O). */
static void fa_bench(jd_bench *x, int fn, const char *fn_name, int causal)
{
    const int yard = fn == W38_YARD_CUDNN;
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 1, x->max_k = BENCH_MAX_K;
    x->n = T_ELEMS / 2 + T_ROWS;           /* the output's 4-byte words: O, then lse */
    x->out_n = yard ? T_ELEMS / 2 : 0;     /* cuDNN's: O alone */
    x->in_bytes = 3 * T_ELEMS * 2;         /* Q, K, V */
    x->fill = fill_qkv;
    x->lo = -3, x->hi = 3;                 /* (the fill's own: Q, K in [-3, 3), V in [-1, 1)) */
    x->atol = (yard ? CUDNN_TOL : ATOL) + 1e-4; /* the look: see the header */
    x->rtol = (yard ? CUDNN_TOL : RTOL) + 0x1p-7;
    x->i64[1] = TB, x->i64[2] = TH, x->i64[3] = TS, x->i64[4] = TD, x->i64[5] = causal;
    x->f64[0] = (double)(float)(1.0 / sqrt((double)TD));
    x->expect = at_expect, x->full_check = fa_full_check;
    x->fn_name = fn_name, x->out_name = "O+lse words";
}

static jd_bench g_bench, g_yard_b; /* large: their sample arrays */

static int    g_have_cudnn = -1; /* -1: not looked for yet */
static char   g_no_cudnn[300];
static double g_cudnn_before[2] = { NAN, NAN }; /* non-causal, causal */
static char   g_cudnn_before_why[2][600];

/* cuDNN as the test finds it (wb_cudnn_open); the yard runner, a child of
 * this process, finds the same. */
static int have_cudnn(void)
{
    if (g_have_cudnn < 0) g_have_cudnn = wb_cudnn_open(g_no_cudnn, sizeof g_no_cudnn);
    return g_have_cudnn;
}

void ja_cudnn_before(int causal)
{
    g_cudnn_before[causal] = NAN;
    snprintf(g_cudnn_before_why[causal], sizeof g_cudnn_before_why[causal], "cuDNN could not be loaded");
    if (!have_cudnn()) return;
    fa_bench(&g_yard_b, W38_YARD_CUDNN, "cuDNN SDPA", causal);
    if (jd_yard_bench(W38_YARD_RUNNER, &g_yard_b, TIMED, &g_cudnn_before[causal], g_cudnn_before_why[causal],
                      sizeof g_cudnn_before_why[causal]) != 0)
        g_cudnn_before[causal] = NAN;
    ref_release();
}

int ja_time_shape(jd_ck *k, int causal, double *value, double *yard, char *why, size_t why_n)
{
    const double flops = 4.0 * TB * TH * (double)TS * TS * TD / (causal ? 2 : 1);
    const char *variant = causal ? "causal" : "non-causal";
    double ms = NAN, after = NAN;
    char w[600] = "";
    int rc = 1;
    *value = *yard = NAN;
    fa_bench(&g_bench, g_w->fn_timed, g_w->fn_name, causal);
    if (jd_bench_run(k->J, &g_bench, TIMED, &ms, w, sizeof w) != 0) {
        snprintf(why, why_n, "B%d H%d S%d D%d %s: %s", TB, TH, TS, TD, variant, w);
        goto done;
    }
    if (!have_cudnn()) { /* your output was right; no yardstick: SKIP, as the test */
        snprintf(why, why_n, "cuDNN SDPA cannot run here, so there is no yardstick: %s", g_no_cudnn);
        rc = 2;
        goto done;
    }
    fa_bench(&g_yard_b, W38_YARD_CUDNN, "cuDNN SDPA", causal);
    const double cms = jd_yard_faster(W38_YARD_RUNNER, &g_yard_b, TIMED, g_cudnn_before[causal],
                                      g_cudnn_before_why[causal], &after, w, sizeof w);
    printf("  B%d H%d S%d D%d %s: %s %.4f ms a call, cuDNN %.4f (before the runner %.4f, after %.4f), by the "
           "judge's clock\n", TB, TH, TS, TD, variant, g_w->fn_name, ms, cms, g_cudnn_before[causal], after);
    if (!(cms > 0)) {
        if (strstr(w, JD_TIMED_WRONG)) { /* the test's !lib.invalid: FAIL */
            snprintf(why, why_n, "cuDNN's SDPA output does not match the reference (test bug?): %s", w);
            goto done;
        }
        rc = 2; /* the test's cudnn_ready: no engine for the shape, a frontend error */
        snprintf(why, why_n, "cuDNN SDPA cannot run here, so there is no yardstick: %s", w);
        goto done;
    }
    *value = flops / (ms * 1e-3) / 1e12;
    *yard = flops / (cms * 1e-3) / 1e12;
    rc = 0;
done:
    ref_release();
    return rc;
}
