/* judge_w59.c — build/instructor/judge-w59: week 59's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (the week is graded with its
 * linked test until this judge has run on a GPU). It links no student code:
 * the student's flash_bwd.o is linked into the runner (judge_w59_runner.c),
 * which this process starts (or is handed) and asks to call
 * flash_bwd_workspace_bytes and flash_bwd on buffers it allocated
 * (judge.h). It poisons, fills, checks and writes the results record
 * itself, outside the runner's reach. The command line, the runner's start,
 * the record and the guarded buffers are judge_week.c's:
 *
 *   judge-w59 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The reference and its per-element tolerance are the week's given
 * phase6/week59/support/bwd_ref.h, the test's own (shared, not copied). The
 * test keeps its case list, its long shapes and rows and its bad-argument
 * calls in its bodies (test_week59.c has no checks header): they are copied
 * here. Each case is drawn as the test draws it for the seed
 * (wb_rng_for_seed with the test's tags "bwd_cases_fn" and "bwd_long_fn": Q
 * and K uniform in [-qk, qk), V and dO in [-1, 1), rounded to bf16, in that
 * order), and O and lse come from the week's given forward
 * (support/attn_fwd_lse.cu, linked into this judge, run by the judge on its
 * own copies of Q, K and V, as the test runs it). Outputs and the workspace
 * sit in guarded buffers (jd_gbuf: poisoned with 0xFF, NaN for the FP32
 * workspace as the test's wb_dpoison, JD_GBAND bytes of band each side,
 * read back with the bands checked):
 *   w59.bwd  the test's 20 cases (B 1-2, H 1-3, S 1 to 1000 with 63, 64,
 *            65, 127-129 for the tile tails, D 64 and 128, causal and not,
 *            scale 1 and 0.3 beside 1/sqrt(D), |q|, |k| up to 12 so that
 *            logits pass exp's range): flash_bwd_workspace_bytes at least an
 *            FP32 dQ (B H S D floats), flash_bwd's status cudaSuccess,
 *            nothing written past dQ, dK or dV (the bands), every element
 *            of dQ, dK and dV against the double reference with bwd_ref.h's
 *            bound (ATOL + RTOL |ref| + the sum over terms), the given
 *            forward's lse and O of every row against the exact forward (as
 *            the test: a wrong given forward is named as such); its 4 long
 *            cases (B 1, H 2, S 4133, D 64 and 128, causal and not), the
 *            test's 24 rows a head (17 at the tile edges and the end, 7
 *            drawn first from the case's rng, as the test draws them) in
 *            both heads; the test's bwd_args: B, H or S == 0 is cudaSuccess
 *            and writes no byte of dQ (its band and its 4096 bytes),
 *            flash_bwd_workspace_bytes(1, 1, 0, 64) is 0 and (1, 1, 1, 64)
 *            at least 256, D 96, scale 0, scale NaN, a NULL workspace, a Q
 *            and a dV two bytes off are cudaErrorInvalidValue.
 * Left to the linked test (unlisted: the grader runs them in the test
 * program and says so):
 *   w59.errors     a report (no target): the largest error of dQ, dK and dV
 *                  against the reference, the student's and cuDNN's SDPA
 *                  backward on the same inputs. The student's half fails
 *                  only where w59.bwd's check fails (the test runs the same
 *                  run_and_check on it), and that is judged here; the rest is
 *                  figures printed for people.
 *   w59.bwd-speed  B4 H16 S4096 D128 against cuDNN's SDPA backward. The
 *                  yardstick itself could be driven through a yard runner
 *                  over the week's given support/yard_sdpa_bwd_cudnn.o (a C
 *                  interface), as week 38's judge does with the forward;
 *                  what this judge lacks is the check of every element of
 *                  every timed output (judge_week.h's protocol: a look and a
 *                  full check), which needs the backward's double reference
 *                  on the GPU (dQ summed over keys, dK and dV over queries:
 *                  a judge kernel of its own), not written yet. Until then
 *                  the linked test times it, checking 3 heads x 8 rows of
 *                  each timed output against the same reference.
 * Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS, the starter FAIL. Without a GPU the plumbing is tested by
 * instructor/tests/judge_w59.sh (w59.bwd SKIPs, never PASSes; the week has
 * no CPU checkpoint). */
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
#include "judge_w59.h"
#include "judge_week.h"
#include "wb_compare.h"
#include "wb_f16.h"
#include "wb_rand.h"
#include "support/attn_fwd_lse.h"

#include "support/bwd_ref.h" /* the test's double reference and its tolerance */

#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))

#define W59_CASES_TAG "bwd_cases_fn" /* test_week59.c's bwd_cases */
#define W59_LONG_TAG  "bwd_long_fn"  /* and its bwd_long */

static const char *status_name(int s) { return s < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)s); }

/* test_week59.c's bwd_case and CASES (copied: they sit in the test's body) */
typedef struct {
    int B, H, S, D, causal;
    float qk, scale; /* |q|, |k| <= qk; scale 0: 1 / sqrt(D) */
} bwd_case;

static const bwd_case CASES[] = {
    { 1, 1, 1, 64, 0, 3, 0 },      { 1, 1, 1, 128, 1, 3, 0 },     { 1, 1, 63, 128, 0, 3, 0 },
    { 1, 2, 64, 64, 1, 3, 0 },     { 2, 1, 65, 128, 1, 3, 0 },    { 1, 1, 65, 64, 0, 3, 0 },
    { 1, 1, 127, 128, 1, 3, 0 },   { 1, 3, 128, 64, 0, 3, 0 },    { 2, 1, 129, 128, 0, 3, 0 },
    { 1, 1, 129, 64, 1, 3, 0 },    { 1, 1, 200, 128, 1, 3, 0 },   { 2, 3, 333, 64, 0, 3, 0 },
    { 1, 1, 333, 128, 1, 3, 0 },   { 1, 1, 1000, 128, 0, 3, 0 },  { 1, 1, 1000, 64, 1, 3, 0 },
    { 1, 1, 1000, 128, 1, 3, 0 },  { 1, 2, 300, 64, 1, 1, 1.0f }, { 1, 1, 257, 128, 0, 1, 0.3f },
    { 1, 2, 300, 128, 0, 12, 0 },  { 1, 1, 513, 64, 1, 12, 0 },
};

static float case_scale(const bwd_case *c) { return c->scale > 0 ? c->scale : (float)(1.0 / sqrt((double)c->D)); }

/* The test's draw (the same numbers from the rng), and f[] the BF16 values
 * the device holds: the reference is formed from what the kernels read, as
 * the test's is from its device copies read back, never from the floats
 * before rounding. */
static void draw_bf16(wb_rng *rng, uint16_t *h, float *f, size_t n, float lo, float hi)
{
    wb_fill_uniform_f32(rng, f, n, lo, hi);
    for (size_t i = 0; i < n; i++) h[i] = wb_f32_to_bf16(f[i]), f[i] = wb_bf16_to_f32(h[i]);
}

/* flash_bwd_workspace_bytes through the runner: 0 and *v, or -1 (t says why). */
static int ws_bytes(jd *J, int B, int H, int S, int D, unsigned long long *v, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W59_FN_WS, 1, 0);
    rq.i64[0] = 0, rq.i64[1] = B, rq.i64[2] = H, rq.i64[3] = S, rq.i64[4] = D;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "flash_bwd_workspace_bytes: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *v)
        return jd_failf(t, "flash_bwd_workspace_bytes: the runner did not answer (%s)", status_name(rp.status)), -1;
    memcpy(v, rp.out, sizeof *v);
    return 0;
}

/* The test's check_heads on host copies: dQ rows and dK, dV rows of the
 * indices idx[0..n_idx) (every one when idx is NULL) in every head, and the
 * given forward's lse and O of those rows. f[0..7]: q k v o g dQ dK dV. */
static void check_all(const bwd_case *c, float scale, float *const f[8], const float *lse, const int *idx, int n_idx,
                      bwd_errs *out)
{
    const int S = c->S, D = c->D;
    const size_t hs = (size_t)S * D;
    const long long BH = (long long)c->B * c->H;
    double *drow = malloc((size_t)S * 8 + 8), *ep = malloc((size_t)S * 8 + 8), *dl = malloc((size_t)S * 8 + 8);
    double r1[128], b1[128], r2[128], b2[128];
    for (long long bh = 0; bh < BH; bh++) {
        const size_t off = (size_t)bh * hs;
        const float *hl = lse + (size_t)bh * S;
        ref_head h = { S, D, c->causal, scale, f[0] + off, f[1] + off, f[2] + off, f[3] + off, f[4] + off, hl,
                       drow, ep, dl };
        ref_prepare(&h);
        for (int x = 0; x < (idx ? n_idx : S); x++) {
            const int i = idx ? idx[x] : x;
            const size_t r = off + (size_t)i * D;
            ref_dq_row(&h, i, r1, b1);
            for (int d = 0; d < D; d++) acc_elem(&out->e[E_DQ], bh, i, d, f[5][r + d], r1[d], ATOL + RTOL * fabs(r1[d]) + b1[d]);
            ref_dkv_row(&h, i, r1, b1, r2, b2);
            for (int d = 0; d < D; d++) {
                acc_elem(&out->e[E_DK], bh, i, d, f[6][r + d], r1[d], ATOL + RTOL * fabs(r1[d]) + b1[d]);
                acc_elem(&out->e[E_DV], bh, i, d, f[7][r + d], r2[d], ATOL + RTOL * fabs(r2[d]) + b2[d]);
            }
            double l = ref_fwd_row(&h, i, r1);
            acc_elem(&out->e[E_LSE], bh, i, 0, hl[i], l, 1e-5 + ep[i] + 0x1p-18 * fabs(l));
            for (int d = 0; d < D; d++)
                acc_elem(&out->e[E_O], bh, i, d, f[3][r + d], r1[d], O_ATOL + O_RTOL * fabs(r1[d]));
        }
    }
    free(drow), free(ep), free(dl);
}

/* The test's errs_bad: the number of bad elements, the first named in msg. */
static size_t errs_bad(const bwd_errs *e, char *msg, size_t size)
{
    static const int ORDER[E_N] = { E_LSE, E_O, E_DV, E_DK, E_DQ };
    size_t bad = 0;
    msg[0] = 0;
    for (int x = 0; x < E_N; x++) {
        const err_acc *a = &e->e[ORDER[x]];
        if (a->bad && !bad)
            snprintf(msg, size, "%s: %zu of %zu elements off, first %s%s", E_NAME[ORDER[x]], a->bad, a->n, a->first,
                     ORDER[x] >= E_LSE ? " (given code, support/attn_fwd_lse.cu: not the exercise)" : "");
        bad += a->bad;
    }
    return bad;
}

/* One case (the test's case_inputs and run_and_check) on the rng's fresh
 * inputs: Q in its own buffer, K, V, O, dO and lse one after another in
 * another (the runner's p[1]), O and lse from the given forward run here on
 * those buffers, dQ, dK, dV and the workspace poisoned in guarded buffers,
 * flash_bwd called, the bands checked, the rows idx[] (every row when NULL)
 * of every head against the reference. 0 when the case ran (passed or
 * failed), -1 when the runner or the judge's own copies failed. */
static int bwd_case_run(jd *J, jd_tally *t, wb_rng *rng, const bwd_case *c, const int *idx, int n_idx)
{
    const size_t n = (size_t)c->B * c->H * c->S * c->D, nl = (size_t)c->B * c->H * c->S, nb = n * 2;
    const float scale = case_scale(c);
    int rc = -1;
    char what[300], msg[600];
    snprintf(what, sizeof what, "B=%d H=%d S=%d D=%d %s, scale %.4g, |q|, |k| <= %g", c->B, c->H, c->S, c->D,
             c->causal ? "causal" : "non-causal", scale, c->qk);
    jd_gbuf bq = { -1, NULL, 0 }, bin = { -1, NULL, 0 }, bdq = { -1, NULL, 0 }, bdk = { -1, NULL, 0 },
            bdv = { -1, NULL, 0 }, bws = { -1, NULL, 0 };
    uint16_t *h = malloc(nb + 2);
    float *f[8] = { 0 }, *lse = malloc(nl * 4 + 4);
    int oom = !h || !lse;
    for (int a = 0; a < 8; a++) oom |= !(f[a] = malloc(n * 4 + 4));
    unsigned long long wsb = 0;
    t->tests++;
    if (oom) {
        jd_failf(t, "%s: buffers: out of memory", what);
        goto out;
    }
    if (ws_bytes(J, c->B, c->H, c->S, c->D, &wsb, t)) goto out;
    if (wsb < n * 4) {
        rc = 0;
        jd_failf(t, "%s: flash_bwd_workspace_bytes gives %llu bytes, less than an FP32 dQ", what, wsb);
        goto out;
    }
    if (jd_gbuf_alloc(J, &bq, nb, t) || jd_gbuf_alloc(J, &bin, 4 * nb + nl * 4, t) || jd_gbuf_alloc(J, &bdq, nb, t) ||
        jd_gbuf_alloc(J, &bdk, nb, t) || jd_gbuf_alloc(J, &bdv, nb, t) || jd_gbuf_alloc(J, &bws, (size_t)wsb, t))
        goto out;
    /* the test's draws: q, k, v, then g (dO) */
    int e = 0;
    draw_bf16(rng, h, f[0], n, -c->qk, c->qk);
    e |= jd_gbuf_put(&bq, 0, h, nb);
    draw_bf16(rng, h, f[1], n, -c->qk, c->qk);
    e |= jd_gbuf_put(&bin, 0, h, nb);
    draw_bf16(rng, h, f[2], n, -1, 1);
    e |= jd_gbuf_put(&bin, nb, h, nb);
    draw_bf16(rng, h, f[4], n, -1, 1);
    e |= jd_gbuf_put(&bin, 3 * nb, h, nb);
    if (e) {
        jd_failf(t, "%s: the judge's own copies failed", what);
        goto out;
    }
    unsigned char *in = bin.d + JD_GBAND;
    cudaError_t fe = attn_fwd_lse((const uint16_t *)(bq.d + JD_GBAND), (const uint16_t *)in,
                                  (const uint16_t *)(in + nb), (uint16_t *)(in + 2 * nb), (float *)(in + 4 * nb), c->B,
                                  c->H, c->S, c->D, c->causal, scale);
    if (fe == cudaSuccess) fe = cudaDeviceSynchronize();
    if (fe == cudaSuccess) fe = cudaMemcpy(h, in + 2 * nb, nb, cudaMemcpyDeviceToHost);
    if (fe == cudaSuccess) fe = cudaMemcpy(lse, in + 4 * nb, nl * 4, cudaMemcpyDeviceToHost);
    if (fe != cudaSuccess) {
        jd_failf(t, "%s: the given forward (support/attn_fwd_lse.cu) in the judge failed: %s", what,
                 cudaGetErrorString(fe));
        goto out;
    }
    for (size_t i = 0; i < n; i++) f[3][i] = wb_bf16_to_f32(h[i]);
    if (jd_gbuf_poison(&bdq, 0, nb) || jd_gbuf_poison(&bdk, 0, nb) || jd_gbuf_poison(&bdv, 0, nb) ||
        jd_gbuf_poison(&bws, 0, (size_t)wsb)) {
        jd_failf(t, "%s: the judge's own copies failed", what);
        goto out;
    }
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W59_FN_BWD, 1, 6);
    jd_gbuf_arg(&rq, 0, &bq, 0), jd_gbuf_arg(&rq, 1, &bin, 0), jd_gbuf_arg(&rq, 2, &bdq, 0);
    jd_gbuf_arg(&rq, 3, &bdk, 0), jd_gbuf_arg(&rq, 4, &bdv, 0), jd_gbuf_arg(&rq, 5, &bws, 0);
    rq.i64[0] = (long long)n, rq.i64[1] = c->B, rq.i64[2] = c->H, rq.i64[3] = c->S, rq.i64[4] = c->D;
    rq.i64[5] = c->causal, rq.i64[6] = (long long)nb, rq.f64[0] = scale;
    if (jd_call(J, &rq, &rp, NULL) != 0) {
        jd_failf(t, "%s: %s", what, J->why);
        goto out;
    }
    rc = 0;
    if (rp.status != 0) {
        jd_failf(t, "%s: flash_bwd returned %s", what, status_name(rp.status));
        goto out;
    }
    jd_gbuf *outs[3] = { &bdq, &bdk, &bdv };
    static const char *const NAMES[3] = { "dQ", "dK", "dV" };
    for (int a = 0; a < 3; a++) {
        int fr = jd_gbuf_fetch(outs[a], 0, nb, h, NAMES[a], what, t);
        if (fr) {
            if (fr < 0) rc = -1;
            goto out;
        }
        for (size_t i = 0; i < n; i++) f[5 + a][i] = wb_bf16_to_f32(h[i]);
    }
    bwd_errs errs;
    memset(&errs, 0, sizeof errs);
    check_all(c, scale, f, lse, idx, n_idx, &errs);
    if (errs_bad(&errs, msg, sizeof msg)) jd_failf(t, "%s: %s", what, msg);
out:
    jd_gbuf_free(J, &bq), jd_gbuf_free(J, &bin), jd_gbuf_free(J, &bdq), jd_gbuf_free(J, &bdk);
    jd_gbuf_free(J, &bdv), jd_gbuf_free(J, &bws);
    free(h), free(lse);
    for (int a = 0; a < 8; a++) free(f[a]);
    return rc;
}

/* The test's bwd_args: one flash_bwd call with every array the poisoned
 * 4096-byte d (Q qoff bytes in, dV voff bytes in), the workspace ws or NULL.
 * The status, or -1 when the call failed. */
static int args_call(jd *J, jd_gbuf *d, jd_gbuf *ws, int B, int H, int S, int D, int causal, float scale,
                     size_t qoff, size_t voff, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W59_FN_BWD, 1, 6);
    jd_gbuf_arg(&rq, 0, d, qoff), jd_gbuf_arg(&rq, 1, d, 0), jd_gbuf_arg(&rq, 2, d, 0), jd_gbuf_arg(&rq, 3, d, 0);
    jd_gbuf_arg(&rq, 4, d, voff), jd_gbuf_arg(&rq, 5, ws, 0);
    rq.i64[0] = 0, rq.i64[1] = B, rq.i64[2] = H, rq.i64[3] = S, rq.i64[4] = D, rq.i64[5] = causal, rq.i64[6] = 0;
    rq.f64[0] = scale;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "bad arguments: %s", J->why), -1;
    return rp.status;
}

static void bwd_args(jd *J, jd_tally *t)
{
    jd_gbuf d = { -1, NULL, 0 }, ws = { -1, NULL, 0 };
    unsigned char host[4096];
    unsigned long long v = 0;
    typedef struct {
        int B, H, S, D, causal;
        float scale;
        size_t qoff, voff;
        int no_ws, refused;
        const char *what;
    } args_case;
    static const args_case EMPTY[] = {
        { 0, 4, 16, 64, 0, 0.125f, 0, 0, 0, 0, "B = 0 is nothing to do (cudaSuccess)" },
        { 2, 0, 16, 128, 1, 0.125f, 0, 0, 0, 0, "H = 0 is nothing to do (cudaSuccess)" },
        { 2, 4, 0, 64, 1, 0.125f, 0, 0, 0, 0, "S = 0 is nothing to do (cudaSuccess)" },
    };
    static const args_case REFUSED[] = {
        { 1, 1, 16, 96, 0, 0.1f, 0, 0, 0, 1, "D = 96 must be refused" },
        { 1, 1, 16, 64, 0, 0.f, 0, 0, 0, 1, "scale 0 must be refused" },
        { 1, 1, 16, 64, 0, NAN, 0, 0, 0, 1, "scale NaN must be refused" },
        { 1, 1, 16, 64, 0, 0.1f, 0, 0, 1, 1, "a NULL workspace must be refused" },
        { 1, 1, 16, 64, 0, 0.1f, 2, 0, 0, 1, "a Q that is not 16-byte aligned must be refused" },
        { 1, 1, 16, 64, 0, 0.1f, 0, 2, 0, 1, "a dV that is not 16-byte aligned must be refused" },
    };
    t->tests++;
    if (jd_gbuf_alloc(J, &d, 4096, t) || jd_gbuf_alloc(J, &ws, 1 << 16, t)) goto out;
    if (jd_gbuf_poison(&d, 0, 4096) || jd_gbuf_poison(&ws, 0, 1 << 16)) {
        jd_failf(t, "bad arguments: the judge's own copies failed");
        goto out;
    }
    for (int pass = 0; pass < 2; pass++) {
        const int n = pass ? N_OF(REFUSED) : N_OF(EMPTY);
        for (int i = 0; i < n; i++) {
            const args_case *x = pass ? &REFUSED[i] : &EMPTY[i];
            const int s = args_call(J, &d, x->no_ws ? NULL : &ws, x->B, x->H, x->S, x->D, x->causal, x->scale,
                                    x->qoff, x->voff, t);
            if (s == -1 && J->lost) goto out;
            const int want = x->refused ? (int)cudaErrorInvalidValue : (int)cudaSuccess;
            if (s != want) {
                jd_failf(t, "flash_bwd: %s; it returned %s", x->what, status_name(s));
                goto out;
            }
        }
        if (pass) break;
        /* the test's look after the empty calls: dQ's guards and its 4096 bytes */
        const char *what = "B, H or S == 0 writes nothing";
        if (jd_gbuf_fetch(&d, 0, 4096, host, "dQ", what, t)) goto out;
        for (size_t i = 0; i < 4096; i += 2)
            if (host[i] != 0xff || host[i + 1] != 0xff) {
                jd_failf(t, "B, H or S == 0: dQ[%zu] was written (0x%02x%02x)", i / 2, host[i + 1], host[i]);
                goto out;
            }
        if (ws_bytes(J, 1, 1, 0, 64, &v, t)) goto out;
        if (v != 0) {
            jd_failf(t, "no workspace for S == 0: flash_bwd_workspace_bytes(1, 1, 0, 64) gives %llu", v);
            goto out;
        }
        if (ws_bytes(J, 1, 1, 1, 64, &v, t)) goto out;
        if (v < 64 * 4) {
            jd_failf(t, "S == 1 needs at least one FP32 row of dQ: flash_bwd_workspace_bytes(1, 1, 1, 64) gives %llu",
                     v);
            goto out;
        }
    }
out:
    jd_gbuf_free(J, &d), jd_gbuf_free(J, &ws);
}

static void judge_bwd(jd_ck *k)
{
    for (int i = 0; i < N_OF(CASES) && !k->J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W59_CASES_TAG, i);
        if (bwd_case_run(k->J, k->t, &rng, &CASES[i], NULL, 0) < 0) return;
    }
    for (int i = 0; i < 4 && !k->J->lost; i++) { /* the test's bwd_long: its rows drawn first, as it draws them */
        wb_rng rng = wb_rng_for_seed(jd_seed, W59_LONG_TAG, i);
        bwd_case c = { 1, 2, 4133, (i & 1) ? 128 : 64, i >> 1, 3, 0 };
        int idx[24] = { 0, 1, 63, 64, 65, 127, 128, 129, 2047, 2048, 4031, 4032, 4095, 4096, 4097, 4131, 4132 };
        for (int x = 17; x < 24; x++) idx[x] = (int)wb_rng_int(&rng, 0, c.S - 1);
        if (bwd_case_run(k->J, k->t, &rng, &c, idx, 24) < 0) return;
    }
    if (!k->J->lost) bwd_args(k->J, k->t);
}

static const jd_checkpoint CPS[] = {
    { "w59.bwd", judge_bwd, NULL, 0, 0, NULL },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w59", "phase6/week59", CPS, N_OF(CPS));
}
