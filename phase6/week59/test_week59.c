/* test_week59.c — week 59's checkpoints: the FlashAttention-2 backward on the
 * tensor cores, correct against a double reference (D 64 and 128, causal and
 * not, any S), its errors beside cuDNN's, and its speed against cuDNN's SDPA
 * backward on the same data. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "flash_bwd.h"
#include "support/attn_fwd_lse.h"
#include "support/yard_sdpa_bwd_cudnn.h"
#include "bf16_fill.h" /* phase6/common/ */
#include "wb_f16.h" /* wb_f32_to_bf16, wb_bf16_to_f32 */

#include "support/bwd_ref.h" /* the double reference and its tolerance */

/* Device inputs and outputs of one backward, and the selection to check. */
typedef struct {
    int B, H, S, D, causal;
    float scale;
    const uint16_t *q, *k, *v, *o, *g;
    const float *lse;
} bwd_in;

static uint16_t *fetch_bf16(const uint16_t *d, size_t n, float *f)
{
    uint16_t *h = wb_hmalloc(n * 2 + 2);
    wb_d2h(h, d, n * 2);
    for (size_t i = 0; i < n; i++) f[i] = wb_bf16_to_f32(h[i]);
    return h;
}

/* Compares dQ rows, dK and dV rows of the indices idx[0..n_idx) (every index
 * when idx is NULL) in each head of heads[0..n_heads) (every head when NULL)
 * with the reference; with fwd, also the given forward's lse and O of those
 * rows. Reads everything back from the device. */
static void check_heads(const bwd_in *in, const uint16_t *dQ, const uint16_t *dK, const uint16_t *dV,
                        const long long *heads, int n_heads, const int *idx, int n_idx, int fwd, bwd_errs *out)
{
    wb_sync();
    const int S = in->S, D = in->D;
    const size_t hs = (size_t)S * D;
    const long long BH = (long long)in->B * in->H;
    float *f[8];
    for (int a = 0; a < 8; a++) f[a] = wb_hmalloc(hs * 4 + 4);
    float *lse = wb_hmalloc((size_t)S * 4 + 4);
    double *drow = wb_hmalloc((size_t)S * 8 + 8), *ep = wb_hmalloc((size_t)S * 8 + 8), *dl = wb_hmalloc((size_t)S * 8 + 8);
    double r1[128], b1[128], r2[128], b2[128];
    for (int hh = 0; hh < (heads ? n_heads : BH); hh++) {
        const long long bh = heads ? heads[hh] : hh;
        const size_t off = (size_t)bh * hs;
        const uint16_t *src[8] = { in->q + off, in->k + off, in->v + off, in->o + off, in->g + off,
                                   dQ + off,    dK + off,    dV + off };
        for (int a = 0; a < 8; a++) free(fetch_bf16(src[a], hs, f[a]));
        wb_d2h(lse, in->lse + (size_t)bh * S, (size_t)S * 4);
        ref_head h = { S, D, in->causal, in->scale, f[0], f[1], f[2], f[3], f[4], lse, drow, ep, dl };
        ref_prepare(&h);
        for (int x = 0; x < (idx ? n_idx : S); x++) {
            const int i = idx ? idx[x] : x;
            const size_t r = (size_t)i * D;
            ref_dq_row(&h, i, r1, b1);
            for (int d = 0; d < D; d++) acc_elem(&out->e[E_DQ], bh, i, d, f[5][r + d], r1[d], ATOL + RTOL * fabs(r1[d]) + b1[d]);
            ref_dkv_row(&h, i, r1, b1, r2, b2);
            for (int d = 0; d < D; d++) {
                acc_elem(&out->e[E_DK], bh, i, d, f[6][r + d], r1[d], ATOL + RTOL * fabs(r1[d]) + b1[d]);
                acc_elem(&out->e[E_DV], bh, i, d, f[7][r + d], r2[d], ATOL + RTOL * fabs(r2[d]) + b2[d]);
            }
            if (fwd) {
                double l = ref_fwd_row(&h, i, r1);
                acc_elem(&out->e[E_LSE], bh, i, 0, lse[i], l, 1e-5 + ep[i] + 0x1p-18 * fabs(l));
                for (int d = 0; d < D; d++)
                    acc_elem(&out->e[E_O], bh, i, d, f[3][r + d], r1[d], O_ATOL + O_RTOL * fabs(r1[d]));
            }
        }
    }
    for (int a = 0; a < 8; a++) free(f[a]);
    free(lse), free(drow), free(ep), free(dl);
}

/* 0 when every compared element is within its tolerance, else the number of
 * bad ones, with the first one named in msg (the given forward's first). */
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

/* ---------------------------------------------------------------- correctness */

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

static void draw_bf16(wb_rng *rng, uint16_t *h, float *f, size_t n, float lo, float hi)
{
    wb_fill_uniform_f32(rng, f, n, lo, hi);
    for (size_t i = 0; i < n; i++) h[i] = wb_f32_to_bf16(f[i]);
}

/* Device inputs of a case, drawn from rng on the host, with the given
 * forward's O and lse. */
static bwd_in case_inputs(wb_rng *rng, const bwd_case *c)
{
    const size_t n = (size_t)c->B * c->H * c->S * c->D;
    uint16_t *h = wb_hmalloc(n * 2 + 2);
    float *f = wb_hmalloc(n * 4 + 4);
    bwd_in in = { c->B, c->H, c->S, c->D, c->causal, case_scale(c), 0, 0, 0, 0, 0, 0 };
    draw_bf16(rng, h, f, n, -c->qk, c->qk);
    in.q = wb_dcopy(h, n * 2);
    draw_bf16(rng, h, f, n, -c->qk, c->qk);
    in.k = wb_dcopy(h, n * 2);
    draw_bf16(rng, h, f, n, -1, 1);
    in.v = wb_dcopy(h, n * 2);
    draw_bf16(rng, h, f, n, -1, 1);
    in.g = wb_dcopy(h, n * 2);
    free(h), free(f);
    uint16_t *o = wb_dmalloc(n * 2);
    float *lse = wb_dmalloc((size_t)c->B * c->H * c->S * 4);
    WB_CUDA(attn_fwd_lse(in.q, in.k, in.v, o, lse, c->B, c->H, c->S, c->D, c->causal, in.scale));
    in.o = o, in.lse = lse;
    return in;
}

static void free_inputs(bwd_in *in)
{
    wb_dfree((void *)in->q), wb_dfree((void *)in->k), wb_dfree((void *)in->v), wb_dfree((void *)in->g);
    wb_dfree((void *)in->o), wb_dfree((void *)in->lse);
}

static void case_name(const bwd_in *in, float qk, char *what, size_t size)
{
    snprintf(what, size, "B=%d H=%d S=%d D=%d %s, scale %.4g, |q|, |k| <= %g", in->B, in->H, in->S, in->D,
             in->causal ? "causal" : "non-causal", in->scale, qk);
}

/* Runs flash_bwd on a case into guarded, poisoned outputs with a poisoned
 * workspace, checks the guards and the listed rows (all when idx is NULL);
 * fills errs. */
static void run_and_check(const bwd_in *in, const int *idx, int n_idx, float qk, bwd_errs *errs)
{
    const size_t n = (size_t)in->B * in->H * in->S * in->D;
    char what[300];
    case_name(in, qk, what, sizeof what);
    const size_t wsb = flash_bwd_workspace_bytes(in->B, in->H, in->S, in->D);
    ck_assert_msg(wsb >= n * 4, "%s: flash_bwd_workspace_bytes gives %zu bytes, less than an FP32 dQ", what, wsb);
    void *ws = wb_dmalloc(wsb);
    wb_dpoison(ws, wsb); /* NaN: the kernel must set what it reads */
    wb_dout dq, dk, dv;
    uint16_t *dQ = wb_dout_alloc(&dq, "dQ", n * 2, 0), *dK = wb_dout_alloc(&dk, "dK", n * 2, 0),
             *dV = wb_dout_alloc(&dv, "dV", n * 2, 0);
    WB_CUDA(flash_bwd(in->q, in->k, in->v, in->o, in->g, in->lse, dQ, dK, dV, ws, in->B, in->H, in->S, in->D,
                      in->causal, in->scale));
    wb_sync();
    uint16_t *host = wb_hmalloc(n * 2 + 2);
    wb_expect_dout_guards(&dq, host, what);
    wb_expect_dout_guards(&dk, host, what);
    wb_expect_dout_guards(&dv, host, what);
    memset(errs, 0, sizeof *errs);
    check_heads(in, dQ, dK, dV, NULL, 0, idx, n_idx, 1, errs);
    char msg[600];
    if (errs_bad(errs, msg, sizeof msg)) ck_abort_msg("%s: %s", what, msg);
    free(host);
    wb_dfree(ws), wb_dout_free(&dq), wb_dout_free(&dk), wb_dout_free(&dv);
}

START_TEST(bwd_cases)
{
    wb_rng rng = WB_RNG();
    bwd_in in = case_inputs(&rng, &CASES[_i]);
    bwd_errs e;
    run_and_check(&in, NULL, 0, CASES[_i].qk, &e);
    free_inputs(&in);
}
END_TEST

/* Long sequences, sampled: S = 4133 (64 query tiles and 37 rows, 32 key
 * blocks and 37 keys): dQ rows and dK, dV rows at the tile edges, the last
 * ones and random ones, in both heads. */
START_TEST(bwd_long)
{
    wb_rng rng = WB_RNG();
    bwd_case c = { 1, 2, 4133, (_i & 1) ? 128 : 64, _i >> 1, 3, 0 };
    int idx[24] = { 0, 1, 63, 64, 65, 127, 128, 129, 2047, 2048, 4031, 4032, 4095, 4096, 4097, 4131, 4132 };
    for (int x = 17; x < 24; x++) idx[x] = (int)wb_rng_int(&rng, 0, c.S - 1);
    bwd_in in = case_inputs(&rng, &c);
    bwd_errs e;
    run_and_check(&in, idx, 24, c.qk, &e);
    free_inputs(&in);
}
END_TEST

/* Empty shapes are nothing to do; other head sizes, bad scales, NULL or
 * misaligned pointers are refused. */
START_TEST(bwd_args)
{
    wb_dout o;
    uint16_t *d = wb_dout_alloc(&o, "dQ", 4096, 0);
    float *l = (float *)d;
    void *ws = wb_dmalloc(1 << 16);
    ck_assert_int_eq(flash_bwd(d, d, d, d, d, l, d, d, d, ws, 0, 4, 16, 64, 0, 0.125f), cudaSuccess);
    ck_assert_int_eq(flash_bwd(d, d, d, d, d, l, d, d, d, ws, 2, 0, 16, 128, 1, 0.125f), cudaSuccess);
    ck_assert_int_eq(flash_bwd(d, d, d, d, d, l, d, d, d, ws, 2, 4, 0, 64, 1, 0.125f), cudaSuccess);
    uint16_t *host = wb_hmalloc(4096);
    wb_sync();
    wb_expect_dout_guards(&o, host, "B, H or S == 0 writes nothing");
    for (size_t i = 0; i < 2048; i++)
        if (host[i] != 0xFFFFu) ck_abort_msg("B, H or S == 0: dQ[%zu] was written (0x%04x)", i, host[i]);
    ck_assert_msg(flash_bwd_workspace_bytes(1, 1, 0, 64) == 0, "no workspace for S == 0");
    ck_assert_msg(flash_bwd_workspace_bytes(1, 1, 1, 64) >= 64 * 4, "S == 1 needs at least one FP32 row of dQ");
    ck_assert_msg(flash_bwd(d, d, d, d, d, l, d, d, d, ws, 1, 1, 16, 96, 0, 0.1f) == cudaErrorInvalidValue,
                  "D = 96 must be refused");
    ck_assert_msg(flash_bwd(d, d, d, d, d, l, d, d, d, ws, 1, 1, 16, 64, 0, 0.f) == cudaErrorInvalidValue,
                  "scale 0 must be refused");
    ck_assert_msg(flash_bwd(d, d, d, d, d, l, d, d, d, ws, 1, 1, 16, 64, 0, NAN) == cudaErrorInvalidValue,
                  "scale NaN must be refused");
    ck_assert_msg(flash_bwd(d, d, d, d, d, l, d, d, d, NULL, 1, 1, 16, 64, 0, 0.1f) == cudaErrorInvalidValue,
                  "a NULL workspace must be refused");
    ck_assert_msg(flash_bwd(d + 1, d, d, d, d, l, d, d, d, ws, 1, 1, 16, 64, 0, 0.1f) == cudaErrorInvalidValue,
                  "a Q that is not 16-byte aligned must be refused");
    ck_assert_msg(flash_bwd(d, d, d, d, d, l, d, d, d + 1, ws, 1, 1, 16, 64, 0, 0.1f) == cudaErrorInvalidValue,
                  "a dV that is not 16-byte aligned must be refused");
    cudaGetLastError();
    wb_dfree(ws), wb_dout_free(&o);
    free(host);
}
END_TEST

/* ---------------------------------------------------------------- errors beside cuDNN's */

static const bwd_case ERR_CASES[] = {
    { 1, 2, 1024, 128, 0, 3, 0 }, { 1, 2, 1024, 128, 1, 3, 0 }, { 1, 2, 1000, 64, 0, 3, 0 },
    { 1, 2, 1000, 64, 1, 3, 0 },
};

/* w59.errors (a report): yours and cuDNN's SDPA backward on the same inputs
 * (the given forward's O and lse), each against the double reference: the
 * largest |error| and the largest error / tolerance of dQ, dK and dV. */
START_TEST(bwd_errors)
{
    char fig[1200] = "", why[400] = "";
    int lib_ok = 1;
    printf("  %-34s %-6s %-24s %-24s\n", "shape", "", "yours: max |err|, of tol", "cuDNN: max |err|, of tol");
    for (size_t c = 0; c < WB_COUNT(ERR_CASES); c++) {
        wb_rng rng = wb_rng_for("bwd_errors", (int)c);
        bwd_in in = case_inputs(&rng, &ERR_CASES[c]);
        bwd_errs mine, lib;
        run_and_check(&in, NULL, 0, ERR_CASES[c].qk, &mine); /* a wrong kernel fails here */
        const size_t n = (size_t)in.B * in.H * in.S * in.D;
        uint16_t *lq = wb_dmalloc(n * 2), *lk = wb_dmalloc(n * 2), *lv = wb_dmalloc(n * 2);
        wb_dpoison(lq, n * 2), wb_dpoison(lk, n * 2), wb_dpoison(lv, n * 2);
        memset(&lib, 0, sizeof lib);
        int ran = lib_ok && yard_sdpa_bwd_cudnn(in.q, in.k, in.v, in.o, in.g, in.lse, lq, lk, lv, in.B, in.H, in.S,
                                                in.D, in.causal, in.scale, why, sizeof why);
        if (ran) check_heads(&in, lq, lk, lv, NULL, 0, NULL, 0, 0, &lib);
        lib_ok &= ran;
        char shape[64];
        snprintf(shape, sizeof shape, "B%d H%d S%d D%d %s", in.B, in.H, in.S, in.D, in.causal ? "causal" : "non-causal");
        for (int t = E_DQ; t <= E_DV; t++) {
            char l[64] = "not run";
            if (ran) snprintf(l, sizeof l, "%.3g, %.3f", lib.e[t].maxabs, lib.e[t].worst);
            printf("  %-34s %-6s %.3g, %-14.3f %s\n", t == E_DQ ? shape : "", E_NAME[t], mine.e[t].maxabs,
                   mine.e[t].worst, l);
        }
        if (ran)
            snprintf(fig + strlen(fig), sizeof fig - strlen(fig),
                     "%s%s: of tol dQ %.2f/%.2f dK %.2f/%.2f dV %.2f/%.2f", c ? "; " : "", shape, mine.e[E_DQ].worst,
                     lib.e[E_DQ].worst, mine.e[E_DK].worst, lib.e[E_DK].worst, mine.e[E_DV].worst, lib.e[E_DV].worst);
        wb_dfree(lq), wb_dfree(lk), wb_dfree(lv);
        free_inputs(&in);
    }
    if (!lib_ok) wb_skip_test("cuDNN's SDPA backward cannot run here, so there is nothing to compare with: %s", why);
    snprintf(fig + strlen(fig), sizeof fig - strlen(fig), " (yours/cuDNN, largest error over tolerance)");
    wb_report(fig);
}
END_TEST

/* ---------------------------------------------------------------- timing */

enum { SEED_Q = 591, SEED_K = 592, SEED_V = 593, SEED_G = 594 };

typedef struct {
    bwd_in in;
    uint16_t *dq, *dk, *dv;
    void *ws;
    int cudnn; /* 0: yours, 1: cuDNN */
} bw_run;

/* New inputs (salt 0: the first ones again) and the given forward's O and lse. */
static void bw_fill(bw_run *r, unsigned long long salt)
{
    bwd_in *in = &r->in;
    const size_t n = (size_t)in->B * in->H * in->S * in->D;
    WB_CUDA(bf16_fill_uniform((uint16_t *)in->q, n, SEED_Q + 11 * salt, -3, 3));
    WB_CUDA(bf16_fill_uniform((uint16_t *)in->k, n, SEED_K + 11 * salt, -3, 3));
    WB_CUDA(bf16_fill_uniform((uint16_t *)in->v, n, SEED_V + 11 * salt, -1, 1));
    WB_CUDA(bf16_fill_uniform((uint16_t *)in->g, n, SEED_G + 11 * salt, -1, 1));
    WB_CUDA(attn_fwd_lse(in->q, in->k, in->v, (uint16_t *)in->o, (float *)in->lse, in->B, in->H, in->S, in->D,
                         in->causal, in->scale));
}

static void bw_work(void *p)
{
    bw_run *r = p;
    const bwd_in *in = &r->in;
    if (!r->cudnn) {
        WB_CUDA(flash_bwd(in->q, in->k, in->v, in->o, in->g, in->lse, r->dq, r->dk, r->dv, r->ws, in->B, in->H,
                          in->S, in->D, in->causal, in->scale));
        return;
    }
    char why[400];
    if (!yard_sdpa_bwd_cudnn(in->q, in->k, in->v, in->o, in->g, in->lse, r->dq, r->dk, r->dv, in->B, in->H, in->S,
                             in->D, in->causal, in->scale, why, sizeof why))
        ck_abort_msg("%s", why);
}

/* Checks 3 heads (first, last, one random) x 8 indices (first, last, 6
 * random): dQ rows and dK, dV rows, tolerance times tol_mul. 0 when right. */
static size_t bw_verify(const bw_run *r, unsigned long long salt, double tol_mul, char *msg, size_t size)
{
    const bwd_in *in = &r->in;
    wb_rng rng = wb_rng_for("bw_verify", (int)(salt & 0x7fffffff));
    const long long BH = (long long)in->B * in->H;
    long long heads[3] = { 0, BH - 1, (long long)wb_rng_int(&rng, 0, BH - 1) };
    int idx[8] = { 0, in->S - 1 };
    for (int x = 2; x < 8; x++) idx[x] = (int)wb_rng_int(&rng, 0, in->S - 1);
    bwd_errs e;
    memset(&e, 0, sizeof e);
    check_heads(in, r->dq, r->dk, r->dv, heads, 3, idx, 8, 0, &e);
    size_t bad = 0;
    for (int t = E_DQ; t <= E_DV; t++) /* tol_mul: the yardstick gets a wider band (a check of its set-up) */
        if (e.e[t].worst > tol_mul) bad++;
    if (bad) {
        if (!errs_bad(&e, msg, size))
            snprintf(msg, size, "an error of %.3g of the tolerance", fmax(e.e[0].worst, fmax(e.e[1].worst, e.e[2].worst)));
    }
    return bad;
}

static void bw_fresh(void *p, unsigned long long salt)
{
    bw_run *r = p;
    const size_t n = (size_t)r->in.B * r->in.H * r->in.S * r->in.D;
    bw_fill(r, salt);
    wb_dpoison(r->dq, n * 2), wb_dpoison(r->dk, n * 2), wb_dpoison(r->dv, n * 2);
}

static int bw_check(void *p, char *why, size_t size) { return bw_verify(p, 1, 1.0, why, size) ? 1 : 0; }

/* The backward's work: 2.5 x the forward's 4 B H S^2 D (five S x S x D
 * products against two), half of it with the causal mask. */
static double bwd_flops(int B, int H, int S, int D, int causal)
{
    double f = 2.5 * 4.0 * B * H * (double)S * S * D;
    return causal ? f / 2 : f;
}

/* Times yours and cuDNN's on the same inputs in the same run, both outputs
 * checked. 1 when cuDNN ran, 0 when it could not (why). A wrong output of
 * yours marks your row invalid before anything is timed. */
static int measure(int B, int H, int S, int D, int causal, int samples, wb_bench_row *mine, wb_bench_row *lib,
                   char *why, size_t why_size)
{
    const size_t n = (size_t)B * H * S * D;
    bw_run r = { { B, H, S, D, causal, (float)(1.0 / sqrt((double)D)), wb_dmalloc(n * 2), wb_dmalloc(n * 2),
                   wb_dmalloc(n * 2), wb_dmalloc(n * 2), wb_dmalloc(n * 2), wb_dmalloc((size_t)B * H * S * 4) },
                 wb_dmalloc(n * 2), wb_dmalloc(n * 2), wb_dmalloc(n * 2), NULL, 0 };
    const size_t wsb = flash_bwd_workspace_bytes(B, H, S, D);
    r.ws = wb_dmalloc(wsb ? wsb : 16);
    bw_run rl = r;
    rl.dq = wb_dmalloc(n * 2), rl.dk = wb_dmalloc(n * 2), rl.dv = wb_dmalloc(n * 2), rl.cudnn = 1;
    bw_fresh(&r, 0);
    wb_dpoison(r.ws, wsb ? wsb : 16);
    wb_dpoison(rl.dq, n * 2), wb_dpoison(rl.dk, n * 2), wb_dpoison(rl.dv, n * 2);
    const double flops = bwd_flops(B, H, S, D, causal);
    mine->flops = lib->flops = flops;
    mine->bytes = lib->bytes = 16.0 * n; /* Q, K, V, O, dO read, dQ, dK, dV written, once */
    mine->unit = lib->unit = "TFLOP/s";
    mine->yard_name = "cuDNN";
    mine->value = lib->value = mine->yard = NAN;
    int ok = 1;
    char msg[600];

    bw_work(&r); /* one untimed run, checked: a wrong kernel is not timed */
    if (bw_verify(&r, 0, 1.0, msg, sizeof msg)) {
        wb_bench_invalid(mine, msg);
        goto done;
    }
    if (!yard_sdpa_bwd_cudnn_prepare(B, H, S, D, causal, r.in.scale, why, why_size)) {
        ok = 0;
        goto done;
    }
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.samples = samples;
    wb_time(bw_work, &rl, &o, &lib->t);
    lib->value = flops / (lib->t.median * 1e-3) / 1e12;
    /* the yardstick's output too (at 4x the tolerance): a graph with another mask or layout would be no yardstick */
    if (bw_verify(&rl, 0, 4.0, msg, sizeof msg)) {
        snprintf(why, why_size, "cuDNN's SDPA backward does not match the reference (test bug?): %s", msg);
        wb_bench_invalid(lib, why);
    }
    mine->yard = lib->value;
    o.fresh = bw_fresh, o.check = bw_check;
    wb_time(bw_work, &r, &o, &mine->t);
    mine->value = flops / (mine->t.median * 1e-3) / 1e12;
    if (bw_verify(&r, 0, 1.0, msg, sizeof msg)) wb_bench_invalid(mine, msg);
done:
    free_inputs(&r.in);
    wb_dfree(r.dq), wb_dfree(r.dk), wb_dfree(r.dv), wb_dfree(r.ws);
    wb_dfree(rl.dq), wb_dfree(rl.dk), wb_dfree(rl.dv);
    return ok;
}

static void name_rows(wb_bench_row *mine, wb_bench_row *lib, char *variant, size_t size, int B, int H, int S, int D,
                      int causal)
{
    snprintf(variant, size, "bwd B%d H%d S%d D%d %s", B, H, S, D, causal ? "causal" : "non-causal");
    mine->exercise = "flash_bwd", lib->exercise = "cudnn_sdpa_bwd";
    mine->variant = lib->variant = variant;
    mine->n = lib->n = (size_t)S;
}

/* w59.bwd-speed: B4 H16 S4096 D128, non-causal and causal, yours against
 * cuDNN; the figure is the lower of the two ratios. A test (not WB_SPEED)
 * so that it can SKIP where cuDNN does not load: cuDNN is looked for first. */
START_TEST(bwd_speed)
{
    const int B = 4, H = 16, S = 4096, D = 128;
    char why[400] = "", detail[600] = "", variant[2][64];
    if (!yard_sdpa_bwd_cudnn_prepare(B, H, S, D, 0, (float)(1.0 / sqrt((double)D)), why, sizeof why))
        wb_skip_test("cuDNN's SDPA backward cannot run here, so there is no yardstick: %s", why);
    double worst = INFINITY;
    for (int causal = 0; causal < 2; causal++) {
        wb_bench_row mine = { 0 }, lib = { 0 };
        name_rows(&mine, &lib, variant[causal], sizeof variant[causal], B, H, S, D, causal);
        int ok = measure(B, H, S, D, causal, 20, &mine, &lib, why, sizeof why);
        if (mine.invalid) { /* wrong output: no figure, whatever cuDNN can do */
            wb_bench_emit(&mine);
            ck_abort_msg("w59.bwd-speed, %s: %s", variant[causal], mine.why);
        }
        if (!ok) wb_skip_test("cuDNN's SDPA backward cannot run here, so there is no yardstick: %s", why);
        wb_bench_emit(&lib);
        wb_bench_emit(&mine);
        ck_assert_msg(!lib.invalid, "w59.bwd-speed: %s", lib.why);
        const double ratio = wb_bench_ratio(&mine);
        if (ratio < worst) worst = ratio;
        snprintf(detail + strlen(detail), sizeof detail - strlen(detail), "%s%s: %.0f TFLOP/s, cuDNN %.0f, %.3f",
                 causal ? "; " : "", variant[causal], mine.value, lib.value, ratio);
    }
    wb_expect_target("w59.bwd-speed", worst, detail);
}
END_TEST

/* `make phase6/week59 bench`: the headline shape, non-causal (yours and cuDNN). */
static double bench_bwd(void)
{
    wb_bench_row mine = { 0 }, lib = { 0 };
    char variant[64], why[400] = "";
    name_rows(&mine, &lib, variant, sizeof variant, 4, 16, 4096, 128, 0);
    if (!measure(4, 16, 4096, 128, 0, 20, &mine, &lib, why, sizeof why) && !mine.invalid)
        printf("  cuDNN's SDPA backward cannot run here: %s\n", why);
    else if (!mine.invalid)
        wb_bench_emit(&lib);
    wb_bench_emit(&mine);
    return wb_bench_ratio(&mine);
}

static const wb_test TESTS[] = {
    { "w59.bwd", WB_T(bwd_cases), WB_GPU, WB_COUNT(CASES) },
    { "w59.bwd", WB_T(bwd_long), WB_GPU, 4 },
    { "w59.bwd", WB_T(bwd_args), WB_GPU, 0 },
    { "w59.errors", WB_T(bwd_errors), WB_GPU, 0 },
    { "w59.bwd-speed", WB_T(bwd_speed), WB_GPU, 0 },
};

static const wb_benchmark BENCHES[] = {
    { "bwd", bench_bwd },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
