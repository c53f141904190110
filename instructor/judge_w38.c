/* judge_w38.c — build/instructor/judge-w38: week 38's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (the week is graded with its
 * linked test until this judge has run on a GPU). It links no student code:
 * the student's flash_attn.o is linked into the runner (judge_w38_runner.c),
 * which this process starts (or is handed) and asks to call flash_attn_fwd
 * on buffers it allocated (judge.h). It poisons, fills, times and checks,
 * and writes the results record itself, outside the runner's reach. The
 * command line, the runner's start, the record, the guarded buffers, the
 * timed-call protocol are judge_week.c's:
 *
 *   judge-w38 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases, the reference and the tolerances are test_week38.c's, shared
 * through phase6/week38/w38_checks.h: its CASES, its ref_row in double, its
 * ATOL, RTOL, ATOL_BIG_LOGITS, LSE_RTOL and lse_atol, its draw_bf16; its
 * fwd_long shapes and fixed rows and its fwd_args calls are copied here
 * (they sit in the test's bodies). Each case is drawn as the test draws it
 * for the seed (wb_rng_for_seed with the test's tags, W38_CASES_TAG and
 * W38_LONG_TAG: the same inputs as the test's for the same seed; the
 * reference with the test's double scale, the call given it as a float).
 * Outputs sit in guarded buffers (jd_gbuf: poisoned, JD_GBAND bytes of band
 * each side, read back with the bands checked):
 *   w38.fwd        the test's 18 cases (S 1 to 1031, D 64 and 128, causal
 *                  and not, scale 1 with logits near 1e4), every element of
 *                  O and every lse against the double reference on the
 *                  host; its 4 long cases (B 2, H 3, S 4133, D 64 and 128,
 *                  causal and not), the test's 32 rows a head against the
 *                  host reference as the test does, and every row of every
 *                  head against the same reference computed in double on the
 *                  GPU (judge_w38_kernels.cu, one warp a row, from the
 *                  judge's own copies of the inputs); nothing written past O
 *                  or lse (the bands) in any case; the test's fwd_args: B, H
 *                  or S == 0 is cudaSuccess, D 96, scale 0, scale NaN, a Q
 *                  two bytes off, a NULL lse and an lse two bytes off are
 *                  cudaErrorInvalidValue, and none of these calls writes a
 *                  byte of O or lse;
 *   w38.fwd-speed  B4 H16 S4096 D128 non-causal, scale 1/sqrt(128), O and
 *                  lse, through the timed-call protocol (judge_week.h): 8
 *                  calls a request (a call is about 2 ms at the target, so
 *                  the protocol's cost is well under the figure's noise;
 *                  the full check of a call's output takes tens of ms),
 *                  each on its own Q, K and V (one buffer, Q then K then V;
 *                  Q and K bf16 in [-3, 3), V in [-1, 1), the test's
 *                  ranges, filled on the device from the hidden seed) and
 *                  its own poisoned output (O, then lse right after it),
 *                  the judge's look right after the reply (256 positions a
 *                  call: the word's upper bf16 of O, or an lse, against the
 *                  double reference at ATOL + 1e-4 and RTOL + 2^-7, the
 *                  slack for the lower bf16 that sits in a float's low
 *                  bits), then
 *                  every element of every timed O and lse checked by the
 *                  judge's kernel at the test's tolerances; the median of 7
 *                  requests. cuDNN's fused attention (SDPA, O only, the
 *                  test's yardstick: phase6/common/cudnn-frontend/
 *                  yard_sdpa_cudnn.cu, built with the frontend's graph API
 *                  behind a C interface, cuDNN loaded at run time as the
 *                  test loads it) on the same protocol, sizes and checks
 *                  (O at the test's 2e-2, 2e-2 for cuDNN) through the
 *                  judge's own yard runner (judge-w38-yard-runner, no
 *                  student object), timed before the student's runner
 *                  starts and after, the faster kept. TFLOP/s = 4 B H S^2 D
 *                  / the median call's time by the judge's clock; the
 *                  target (week.txt) is >= 0.45 of cuDNN's. A wrong output
 *                  of the student's FAILs, with or without cuDNN; then,
 *                  where the judge cannot load cuDNN (wb_cudnn_open, the
 *                  test's loader) or cuDNN cannot run the shape (no engine,
 *                  a frontend error: the yard runner says why), SKIP with
 *                  that reason, as the test's cudnn_ready; a cuDNN output
 *                  that is wrong FAILs, as the test's !lib.invalid.
 * Left to the linked test (unlisted: the grader runs them in the test
 * program and says so):
 *   w38.more-shapes  a report with no target (the first shape against the
 *                    stretch 0.55, the causal one and B8 H16 S2048 D64,
 *                    each against cuDNN): it passes whenever the student's
 *                    outputs are right, and that correctness is judged here
 *                    (w38.fwd's causal cases and D 64, the headline shape's
 *                    timed outputs in w38.fwd-speed);
 *   w38.plot         TFLOP/s against S written to build/.../attn_vs_seq.csv
 *                    and drawn to a PNG by gnuplot: its verdict is that the
 *                    student's run wrote and drew its files.
 * Not yet run on a GPU. Without a GPU the plumbing is tested by
 * instructor/tests/judge_w38.sh (both checkpoints SKIP, never PASS; the
 * week has no CPU checkpoint). */
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
#include "judge_w38.h"
#include "judge_w38_kernels.h"
#include "judge_week.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_cudnn.h"
#include "wb_f16.h"
#include "wb_rand.h"
#include "w38_checks.h"

#define TIMED 7
#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))

/* ---------------------------------------------------------------- w38.fwd */

static const char *status_name(int s) { return s < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)s); }

/* One case on the rng's fresh inputs (the test's check_case): O and lse
 * poisoned in guarded buffers, flash_attn_fwd called, the bands checked,
 * the rows listed in rows[] (every row when rows == NULL) against the host
 * reference, and with gpu_all every row of every head against the GPU
 * reference too. 0 when the case ran (passed or failed), -1 when the runner
 * or the judge's own copies failed. */
static int fa_case_run(jd *J, jd_tally *t, wb_rng *rng, const fa_case *c, const int *rows, int n_rows, int gpu_all)
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
    jd_call_setup(&rq, W38_FN_FWD, 1, 5);
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
        jd_failf(t, "%s: flash_attn_fwd returned %s", what, status_name(rp.status));
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

/* The test's fwd_args: one call on the poisoned O (4096 bytes, also the
 * inputs, as the test's) and lse (1024 bytes); qoff, loff: byte offsets of
 * Q and lse; no_lse: lse NULL. The status, or -1 when the call failed. */
static int args_call(jd *J, jd_gbuf *o, jd_gbuf *l, int B, int H, int S, int D, int causal, float scale,
                     size_t qoff, size_t loff, int no_lse, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W38_FN_FWD, 1, 5);
    jd_gbuf_arg(&rq, 0, o, qoff), jd_gbuf_arg(&rq, 1, o, 0), jd_gbuf_arg(&rq, 2, o, 0), jd_gbuf_arg(&rq, 3, o, 0);
    jd_gbuf_arg(&rq, 4, no_lse ? NULL : l, loff);
    rq.i64[0] = 0, rq.i64[1] = B, rq.i64[2] = H, rq.i64[3] = S, rq.i64[4] = D, rq.i64[5] = causal;
    rq.f64[0] = scale;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "bad arguments: %s", J->why), -1;
    return rp.status;
}

static void fa_args(jd *J, jd_tally *t)
{
    jd_gbuf o = { -1, NULL, 0 }, l = { -1, NULL, 0 };
    unsigned char host[4096];
    static const struct {
        int B, H, S, D, causal;
        float scale;
        size_t qoff, loff;
        int no_lse, refused;
        const char *what;
    } CALLS[] = {
        { 0, 4, 16, 64, 0, 0.125f, 0, 0, 0, 0, "B = 0 is nothing to do (cudaSuccess)" },
        { 2, 0, 16, 128, 1, 0.125f, 0, 0, 0, 0, "H = 0 is nothing to do (cudaSuccess)" },
        { 2, 4, 0, 64, 1, 0.125f, 0, 0, 0, 0, "S = 0 is nothing to do (cudaSuccess)" },
        { 1, 1, 16, 96, 0, 0.1f, 0, 0, 0, 1, "D = 96 must be refused" },
        { 1, 1, 16, 64, 0, 0.f, 0, 0, 0, 1, "scale 0 must be refused" },
        { 1, 1, 16, 64, 0, NAN, 0, 0, 0, 1, "scale NaN must be refused" },
        { 1, 1, 16, 64, 0, 0.1f, 2, 0, 0, 1, "a Q that is not 16-byte aligned must be refused" },
        { 1, 1, 16, 64, 0, 0.1f, 0, 0, 1, 1, "a NULL lse must be refused (it is required, like O)" },
        { 1, 1, 16, 64, 0, 0.1f, 0, 2, 0, 1, "an lse that is not 4-byte aligned must be refused" },
    };
    t->tests++;
    if (jd_gbuf_alloc(J, &o, 4096, t) || jd_gbuf_alloc(J, &l, 1024, t)) goto out;
    if (jd_gbuf_poison(&o, 0, 4096) || jd_gbuf_poison(&l, 0, 1024)) {
        jd_failf(t, "bad arguments: the judge's own copies failed");
        goto out;
    }
    for (int i = 0; i < N_OF(CALLS); i++) {
        const int s = args_call(J, &o, &l, CALLS[i].B, CALLS[i].H, CALLS[i].S, CALLS[i].D, CALLS[i].causal,
                                CALLS[i].scale, CALLS[i].qoff, CALLS[i].loff, CALLS[i].no_lse, t);
        if (s == -1 && J->lost) goto out;
        const int want = CALLS[i].refused ? (int)cudaErrorInvalidValue : (int)cudaSuccess;
        if (s != want) {
            jd_failf(t, "flash_attn_fwd: %s; it returned %s", CALLS[i].what, status_name(s));
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

static void judge_fwd(jd_ck *k)
{
    for (int i = 0; i < N_OF(CASES) && !k->J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W38_CASES_TAG, i);
        if (fa_case_run(k->J, k->t, &rng, &CASES[i], NULL, 0, 0) < 0) return;
    }
    for (int i = 0; i < 4 && !k->J->lost; i++) { /* the test's fwd_long: its rows drawn first, as it draws them */
        wb_rng rng = wb_rng_for_seed(jd_seed, W38_LONG_TAG, i);
        fa_case c = { 2, 3, 4133, (i & 1) ? 128 : 64, i >> 1, 0 };
        int rows[32] = { 0, 1, 63, 64, 127, 128, 129, 2047, 2048, 4031, 4032, 4095, 4096, 4097, 4131, 4132 };
        for (int r = 16; r < 32; r++) rows[r] = (int)wb_rng_int(&rng, 0, c.S - 1);
        if (fa_case_run(k->J, k->t, &rng, &c, rows, 32, 1) < 0) return;
    }
    if (!k->J->lost) fa_args(k->J, k->t);
}

/* ---------------------------------------------------------------- w38.fwd-speed */

/* The timed shape (test_week38.c's fwd_speed) */
enum { TB = 4, TH = 16, TS = 4096, TD = 128 };
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
    int                 at_fn, at_ok;
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
    if (!g_ref.at_ok || g_ref.at_seed != seed[0] || g_ref.at_pick != b->pick || g_ref.at_fn != b->fn) {
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
        g_ref.at_seed = seed[0], g_ref.at_pick = b->pick, g_ref.at_fn = b->fn, g_ref.at_ok = 1;
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
static void fa_bench(jd_bench *x, int fn, const char *fn_name)
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
    x->i64[1] = TB, x->i64[2] = TH, x->i64[3] = TS, x->i64[4] = TD, x->i64[5] = 0;
    x->f64[0] = (double)(float)(1.0 / sqrt((double)TD));
    x->expect = at_expect, x->full_check = fa_full_check;
    x->fn_name = fn_name, x->out_name = "O+lse words";
}

static jd_bench g_bench, g_yard_b; /* large: their sample arrays */

static int    g_have_cudnn = -1; /* -1: not looked for yet */
static char   g_no_cudnn[300];
static double g_cudnn_before = NAN;
static char   g_cudnn_before_why[600];

/* cuDNN as the test finds it (wb_cudnn_open); the yard runner, a child of
 * this process, finds the same. */
static int have_cudnn(void)
{
    if (g_have_cudnn < 0) g_have_cudnn = wb_cudnn_open(g_no_cudnn, sizeof g_no_cudnn);
    return g_have_cudnn;
}

static void cudnn_before(void)
{
    g_cudnn_before = NAN;
    snprintf(g_cudnn_before_why, sizeof g_cudnn_before_why, "cuDNN could not be loaded");
    if (!have_cudnn()) return;
    fa_bench(&g_yard_b, W38_YARD_CUDNN, "cuDNN SDPA");
    if (jd_yard_bench(W38_YARD_RUNNER, &g_yard_b, TIMED, &g_cudnn_before, g_cudnn_before_why,
                      sizeof g_cudnn_before_why) != 0)
        g_cudnn_before = NAN;
    ref_release();
}

static void judge_speed(jd_ck *k)
{
    const double flops = 4.0 * TB * TH * (double)TS * TS * TD;
    double ms = NAN, after = NAN, value = NAN, yard = NAN;
    char why[700] = "", w[600] = "", detail[300] = "";
    fa_bench(&g_bench, W38_FN_FWD_TIMED, "flash_attn_fwd");
    if (jd_bench_run(k->J, &g_bench, TIMED, &ms, w, sizeof w) != 0) {
        snprintf(why, sizeof why, "B%d H%d S%d D%d non-causal: %s", TB, TH, TS, TD, w);
        goto done;
    }
    value = flops / (ms * 1e-3) / 1e12;
    if (!have_cudnn()) { /* your output was right; no yardstick: SKIP, as the test */
        k->t->skipped++;
        snprintf(k->t->msg, sizeof k->t->msg, "cuDNN SDPA cannot run here, so there is no yardstick: %s", g_no_cudnn);
        ref_release();
        return;
    }
    fa_bench(&g_yard_b, W38_YARD_CUDNN, "cuDNN SDPA");
    const double cms = jd_yard_faster(W38_YARD_RUNNER, &g_yard_b, TIMED, g_cudnn_before, g_cudnn_before_why, &after, w,
                                      sizeof w);
    printf("  B%d H%d S%d D%d non-causal: flash_attn_fwd %.4f ms a call, cuDNN %.4f (before the runner %.4f, after "
           "%.4f), by the judge's clock\n", TB, TH, TS, TD, ms, cms, g_cudnn_before, after);
    if (!(cms > 0)) {
        if (strstr(w, JD_TIMED_WRONG)) { /* the test's !lib.invalid: FAIL */
            snprintf(why, sizeof why, "cuDNN's SDPA output does not match the reference (test bug?): %s", w);
            goto done;
        }
        k->t->skipped++; /* the test's cudnn_ready: no engine for the shape, a frontend error */
        snprintf(k->t->msg, sizeof k->t->msg, "cuDNN SDPA cannot run here, so there is no yardstick: %s", w);
        ref_release();
        return;
    }
    yard = flops / (cms * 1e-3) / 1e12;
    snprintf(detail, sizeof detail, "B%d H%d S%d D%d non-causal, O and lse: %.0f TFLOP/s vs cuDNN SDPA %.0f (O only)",
             TB, TH, TS, TD, value, yard);
done:
    ref_release();
    jd_speed_result(k->R, k->t, k->c, k->gpu, why[0] ? NAN : value, "TFLOP/s", "cuDNN", yard, detail, why);
}

static const jd_checkpoint CPS[] = {
    { "w38.fwd", judge_fwd, NULL, 0, 0, NULL },
    { "w38.fwd-speed", judge_speed, NULL, 0, 0, cudnn_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w38", "phase6/week38", CPS, N_OF(CPS));
}
