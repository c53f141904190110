/* test_week38.c — week 38's checkpoints: the BF16 tensor-core FlashAttention
 * forward, correct (O and the log-sum-exp of every row; causal and not, D 64
 * and 128, any S, logits of 1e4), and its speed against cuDNN's fused
 * attention on the same data. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "flash_attn.h"
#include "yard_sdpa_cudnn.h" /* phase6/common/cudnn-frontend/ */
#include "bf16_fill.h" /* phase6/common/ */
#include "wb_f16.h" /* wb_f32_to_bf16, wb_bf16_to_f32 */
#include "w38_checks.h" /* the reference, the tolerances and the cases, shared with the instructor's judge */

/* ---------------------------------------------------------------- correctness */

/* Run one case on fresh random inputs; compare the rows listed in rows[]
 * (every row of every head when rows == NULL) with the double reference and
 * check that nothing was written outside O. */
static void check_case(wb_rng *rng, const fa_case *c, const int *rows, int n_rows)
{
    size_t n = (size_t)c->B * c->H * c->S * c->D;
    float qk = c->big ? 50.f : 3.f;
    double scale = c->big ? 1.0 : 1.0 / sqrt((double)c->D);
    uint16_t *hq = wb_hmalloc(n * 2 + 2), *hk = wb_hmalloc(n * 2 + 2), *hv = wb_hmalloc(n * 2 + 2);
    float *fq = wb_hmalloc(n * 4 + 4), *fk = wb_hmalloc(n * 4 + 4), *fv = wb_hmalloc(n * 4 + 4);
    draw_bf16(rng, hq, fq, n, -qk, qk);
    draw_bf16(rng, hk, fk, n, -qk, qk);
    draw_bf16(rng, hv, fv, n, -1, 1);
    uint16_t *dq = wb_dcopy(hq, n * 2), *dk = wb_dcopy(hk, n * 2), *dv = wb_dcopy(hv, n * 2);
    const size_t nl = (size_t)c->B * c->H * c->S; /* lse: one float a row */
    wb_dout o, ol;
    uint16_t *dO = wb_dout_alloc(&o, "O", n * 2, 0);
    float *dlse = wb_dout_alloc(&ol, "lse", nl * 4, 0);
    WB_CUDA(flash_attn_fwd(dq, dk, dv, dO, dlse, c->B, c->H, c->S, c->D, c->causal, (float)scale));
    wb_sync();
    char what[200];
    snprintf(what, sizeof what, "B=%d H=%d S=%d D=%d %s%s", c->B, c->H, c->S, c->D, c->causal ? "causal" : "non-causal",
             c->big ? ", scale 1 and logits near 1e4" : "");
    uint16_t *got = wb_hmalloc(n * 2 + 2);
    float *got_lse = wb_hmalloc(nl * 4 + 4);
    wb_expect_dout_guards(&o, got, what);
    wb_expect_dout_guards(&ol, got_lse, what);

    int per_head = rows ? n_rows : c->S;
    size_t m = (size_t)c->B * c->H * per_head * c->D, ml = (size_t)c->B * c->H * per_head;
    float *g = wb_hmalloc(m * 4 + 4), *gl = wb_hmalloc(ml * 4 + 4);
    double *ref = wb_hmalloc(m * 8 + 8), *sc = wb_hmalloc((size_t)c->S * 8 + 8), *ref_lse = wb_hmalloc(ml * 8 + 8);
    w38_rows(c, rows, per_head, fq, fk, fv, got, got_lse, scale, sc, g, gl, ref, ref_lse);
    wb_cmp cmp;
    wb_compare_f32_f64("O", g, ref, m, c->big ? ATOL_BIG_LOGITS : ATOL, RTOL, &cmp);
    if (cmp.bad && m) { /* say which (head, row, d) the first bad element is */
        size_t i = cmp.first_bad, per = (size_t)per_head * c->D;
        int r = (int)(i % per / c->D);
        snprintf(what + strlen(what), sizeof what - strlen(what), "; first bad: head %zu, row %d, d %zu (O below is "
                 "the compared rows, %d a head)", i / per, rows ? rows[r] : r, i % c->D, per_head);
    }
    WB_EXPECT_CMP(cmp, what);
    wb_compare_f32_f64("lse", gl, ref_lse, ml, lse_atol(c->S, c->big), LSE_RTOL, &cmp);
    if (cmp.bad) { /* which (head, row) */
        size_t i = cmp.first_bad;
        snprintf(what + strlen(what), sizeof what - strlen(what), "; first bad lse: head %zu, row %d (lse[bh * S + "
                 "row] = m + log(l), natural log)", i / per_head, rows ? rows[i % per_head] : (int)(i % per_head));
    }
    WB_EXPECT_CMP(cmp, what);
    wb_dfree(dq), wb_dfree(dk), wb_dfree(dv), wb_dout_free(&o), wb_dout_free(&ol);
    free(hq), free(hk), free(hv), free(fq), free(fk), free(fv), free(got), free(got_lse), free(g), free(gl);
    free(ref), free(ref_lse), free(sc);
}

START_TEST(fwd_cases)
{
    wb_rng rng = WB_RNG();
    check_case(&rng, &CASES[_i], NULL, 0);
}
END_TEST

/* Long sequences, sampled: S = 4133 = 32 tiles of 128 and 37 rows; rows at
 * the tile edges, the last rows, and random ones, in every head. */
START_TEST(fwd_long)
{
    wb_rng rng = WB_RNG();
    fa_case c = { 2, 3, 4133, (_i & 1) ? 128 : 64, _i >> 1, 0 };
    int rows[32] = { 0, 1, 63, 64, 127, 128, 129, 2047, 2048, 4031, 4032, 4095, 4096, 4097, 4131, 4132 };
    for (int k = 16; k < 32; k++) rows[k] = (int)wb_rng_int(&rng, 0, c.S - 1);
    check_case(&rng, &c, rows, 32);
}
END_TEST

/* Empty shapes are nothing to do; other head sizes, bad scales, a missing or
 * misaligned lse are refused; nothing is written to O or lse. */
START_TEST(fwd_args)
{
    wb_dout o, ol;
    uint16_t *d = wb_dout_alloc(&o, "O", 4096, 0);
    float *dl = wb_dout_alloc(&ol, "lse", 1024, 0);
    ck_assert_int_eq(flash_attn_fwd(d, d, d, d, dl, 0, 4, 16, 64, 0, 0.125f), cudaSuccess);
    ck_assert_int_eq(flash_attn_fwd(d, d, d, d, dl, 2, 0, 16, 128, 1, 0.125f), cudaSuccess);
    ck_assert_int_eq(flash_attn_fwd(d, d, d, d, dl, 2, 4, 0, 64, 1, 0.125f), cudaSuccess);
    ck_assert_msg(flash_attn_fwd(d, d, d, d, dl, 1, 1, 16, 96, 0, 0.1f) == cudaErrorInvalidValue,
                  "D = 96 must be refused");
    ck_assert_msg(flash_attn_fwd(d, d, d, d, dl, 1, 1, 16, 64, 0, 0.f) == cudaErrorInvalidValue,
                  "scale 0 must be refused");
    ck_assert_msg(flash_attn_fwd(d, d, d, d, dl, 1, 1, 16, 64, 0, NAN) == cudaErrorInvalidValue,
                  "scale NaN must be refused");
    ck_assert_msg(flash_attn_fwd(d + 1, d, d, d, dl, 1, 1, 16, 64, 0, 0.1f) == cudaErrorInvalidValue,
                  "a Q that is not 16-byte aligned must be refused");
    ck_assert_msg(flash_attn_fwd(d, d, d, d, NULL, 1, 1, 16, 64, 0, 0.1f) == cudaErrorInvalidValue,
                  "a NULL lse must be refused (it is required, like O)");
    ck_assert_msg(flash_attn_fwd(d, d, d, d, (float *)((char *)dl + 2), 1, 1, 16, 64, 0, 0.1f) ==
                      cudaErrorInvalidValue,
                  "an lse that is not 4-byte aligned must be refused");
    uint16_t *host = wb_hmalloc(4096);
    wb_sync();
    wb_expect_dout_guards(&o, host, "B, H or S == 0, or a refused call, writes nothing");
    for (size_t i = 0; i < 2048; i++)
        if (host[i] != 0xFFFFu) ck_abort_msg("B, H or S == 0, or a refused call: O[%zu] was written (0x%04x)", i, host[i]);
    wb_expect_dout_guards(&ol, host, "B, H or S == 0, or a refused call, writes nothing");
    ck_assert_msg(wb_count_not_byte(host, 1024, 0xFF) == 0, "B, H or S == 0, or a refused call: lse was written");
    cudaGetLastError();
    wb_dout_free(&o), wb_dout_free(&ol);
    free(host);
}
END_TEST

/* ---------------------------------------------------------------- timing */

enum { SEED_Q = 381, SEED_K = 382, SEED_V = 383 };

typedef struct {
    uint16_t *q, *k, *v, *o;
    float *lse; /* yours: B x H x S; cuDNN's run (inference, no stats) writes none */
    int B, H, S, D, causal;
    float scale;
    int cudnn; /* 0: yours, 1: cuDNN */
} fa_run;

static void fa_fill(fa_run *r, unsigned long long salt)
{
    size_t n = (size_t)r->B * r->H * r->S * r->D;
    WB_CUDA(bf16_fill_uniform(r->q, n, SEED_Q + 7 * salt, -3, 3));
    WB_CUDA(bf16_fill_uniform(r->k, n, SEED_K + 7 * salt, -3, 3));
    WB_CUDA(bf16_fill_uniform(r->v, n, SEED_V + 7 * salt, -1, 1));
}

static void fa_work(void *p)
{
    fa_run *r = p;
    if (!r->cudnn) {
        WB_CUDA(flash_attn_fwd(r->q, r->k, r->v, r->o, r->lse, r->B, r->H, r->S, r->D, r->causal, r->scale));
        return;
    }
    char why[400];
    if (!yard_sdpa_cudnn_fwd(r->q, r->k, r->v, r->o, r->B, r->H, r->S, r->D, r->causal, r->scale, why, sizeof why))
        ck_abort_msg("%s", why);
}

/* Checks 4 heads (first, last, two random) x 8 rows (first, last, 6 random)
 * of the output (and their lse, when the run has one) against the double
 * reference, reading the inputs back from the device. 0 when right, else the
 * number of bad elements and the message. */
static size_t fa_verify(const fa_run *r, unsigned long long salt, double atol, double rtol, wb_cmp *cmp)
{
    wb_sync();
    const int HEADS = 4, ROWS = 8, BH = r->B * r->H, S = r->S, D = r->D;
    size_t hs = (size_t)S * D;
    uint16_t *hk = wb_hmalloc(hs * 2), *hv = wb_hmalloc(hs * 2), *hq = wb_hmalloc((size_t)D * 2),
             *ho = wb_hmalloc((size_t)D * 2);
    float *fk = wb_hmalloc(hs * 4), *fv = wb_hmalloc(hs * 4), *fq = wb_hmalloc((size_t)D * 4);
    float *g = wb_hmalloc((size_t)HEADS * ROWS * D * 4), *gl = wb_hmalloc((size_t)HEADS * ROWS * 4);
    double *ref = wb_hmalloc((size_t)HEADS * ROWS * D * 8), *sc = wb_hmalloc((size_t)S * 8);
    double *ref_lse = wb_hmalloc((size_t)HEADS * ROWS * 8);
    wb_rng rng = wb_rng_for("fa_verify", (int)(salt & 0x7fffffff));
    size_t at = 0;
    for (int hh = 0; hh < HEADS; hh++) {
        int bh = hh == 0 ? 0 : hh == 1 ? BH - 1 : (int)wb_rng_int(&rng, 0, BH - 1);
        wb_d2h(hk, r->k + bh * hs, hs * 2);
        wb_d2h(hv, r->v + bh * hs, hs * 2);
        for (size_t i = 0; i < hs; i++) fk[i] = wb_bf16_to_f32(hk[i]), fv[i] = wb_bf16_to_f32(hv[i]);
        for (int rr = 0; rr < ROWS; rr++) {
            int row = rr == 0 ? 0 : rr == 1 ? S - 1 : (int)wb_rng_int(&rng, 0, S - 1);
            wb_d2h(hq, r->q + bh * hs + (size_t)row * D, (size_t)D * 2);
            wb_d2h(ho, r->o + bh * hs + (size_t)row * D, (size_t)D * 2);
            for (int d = 0; d < D; d++) fq[d] = wb_bf16_to_f32(hq[d]), g[at + d] = wb_bf16_to_f32(ho[d]);
            ref_lse[hh * ROWS + rr] = ref_row(fq, fk, fv, S, D, row, r->causal, r->scale, sc, ref + at);
            if (r->lse) wb_d2h(&gl[hh * ROWS + rr], r->lse + (size_t)bh * S + row, 4);
            at += D;
        }
    }
    size_t bad = wb_compare_f32_f64("O (sampled rows)", g, ref, at, atol, rtol, cmp);
    if (!bad && r->lse) bad = wb_compare_f32_f64("lse (sampled rows)", gl, ref_lse, HEADS * ROWS, lse_atol(S, 0),
                                                 LSE_RTOL, cmp);
    free(hk), free(hv), free(hq), free(ho), free(fk), free(fv), free(fq), free(g), free(gl), free(ref), free(ref_lse);
    free(sc);
    return bad;
}

/* The timing's spot check: new inputs and a poisoned output for one timed run. */
static void fa_fresh(void *p, unsigned long long salt)
{
    fa_run *r = p;
    fa_fill(r, salt);
    wb_dpoison(r->o, (size_t)r->B * r->H * r->S * r->D * 2);
    if (r->lse) wb_dpoison(r->lse, (size_t)r->B * r->H * r->S * 4);
}

static int fa_check(void *p, char *why, size_t size)
{
    wb_cmp cmp;
    if (!fa_verify(p, 1, ATOL, RTOL, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

static double attn_flops(const fa_run *r)
{
    double f = 4.0 * r->B * r->H * (double)r->S * r->S * r->D;
    return r->causal ? f / 2 : f;
}

/* Times yours and cuDNN's on the same inputs, in the same run, and checks
 * both outputs. Fills the two rows (TFLOP/s); returns 1 when cuDNN ran, 0
 * when it could not (why says why: the comparison is then not possible). A
 * wrong output of yours marks your row invalid before anything is timed.
 * Yours writes lse too (4 bytes a row, in its bytes), what training needs;
 * cuDNN's graph is the inference one (no stats), as it was when the target
 * was set: the ratio staying where it was is lse costing only its bytes. */
static int measure(int B, int H, int S, int D, int causal, int samples, wb_bench_row *mine, wb_bench_row *lib,
                   char *why, size_t why_size)
{
    size_t n = (size_t)B * H * S * D;
    const size_t nl = (size_t)B * H * S;
    fa_run r = { wb_dmalloc(n * 2), wb_dmalloc(n * 2), wb_dmalloc(n * 2), wb_dmalloc(n * 2), wb_dmalloc(nl * 4),
                 B, H, S, D, causal, (float)(1.0 / sqrt((double)D)), 0 };
    uint16_t *o_lib = wb_dmalloc(n * 2);
    fa_fill(&r, 0);
    wb_dpoison(r.o, n * 2);
    wb_dpoison(r.lse, nl * 4);
    wb_dpoison(o_lib, n * 2);
    double flops = attn_flops(&r);
    mine->flops = lib->flops = flops;
    lib->bytes = 8.0 * n;              /* Q, K, V read once, O written once */
    mine->bytes = 8.0 * n + 4.0 * nl; /* and lse written once */
    mine->unit = lib->unit = "TFLOP/s";
    mine->yard_name = "cuDNN";
    mine->value = lib->value = mine->yard = NAN;
    int ok = 1;
    wb_cmp cmp;

    fa_work(&r); /* one untimed run, checked: a wrong kernel is not timed */
    if (fa_verify(&r, 0, ATOL, RTOL, &cmp)) {
        wb_bench_invalid(mine, cmp.msg);
        goto done;
    }
    if (!yard_sdpa_cudnn_prepare(B, H, S, D, causal, r.scale, why, why_size)) {
        ok = 0;
        goto done;
    }
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.samples = samples;
    fa_run rl = r;
    rl.o = o_lib, rl.lse = NULL, rl.cudnn = 1;
    wb_time(fa_work, &rl, &o, &lib->t);
    lib->value = flops / (lib->t.median * 1e-3) / 1e12;
    /* the yardstick's output too: a cuDNN graph of another mask or layout would be a meaningless yardstick */
    if (fa_verify(&rl, 0, 2e-2, 2e-2, &cmp)) {
        snprintf(why, why_size, "cuDNN's SDPA output does not match the reference (test bug?): %s", cmp.msg);
        wb_bench_invalid(lib, why);
    }
    mine->yard = lib->value;
    o.fresh = fa_fresh, o.check = fa_check;
    wb_time(fa_work, &r, &o, &mine->t);
    mine->value = flops / (mine->t.median * 1e-3) / 1e12;
    if (fa_verify(&r, 0, ATOL, RTOL, &cmp)) wb_bench_invalid(mine, cmp.msg);
done:
    wb_dfree(r.q), wb_dfree(r.k), wb_dfree(r.v), wb_dfree(r.o), wb_dfree(r.lse), wb_dfree(o_lib);
    return ok;
}

/* cuDNN first: where it cannot run, a checkpoint measured against it is SKIP
 * (AUTHORING: never PASS, never FAIL), whatever the kernel does. The graph
 * built here is the one measure() then uses. */
static int cudnn_ready(int B, int H, int S, int D, int causal, char *why, size_t why_size)
{
    return yard_sdpa_cudnn_prepare(B, H, S, D, causal, (float)(1.0 / sqrt((double)D)), why, why_size);
}

static void name_rows(wb_bench_row *mine, wb_bench_row *lib, char *variant, size_t size, int B, int H, int S, int D,
                      int causal)
{
    snprintf(variant, size, "B%d H%d S%d D%d %s", B, H, S, D, causal ? "causal" : "non-causal");
    mine->exercise = "flash_attn", lib->exercise = "cudnn_sdpa";
    mine->variant = lib->variant = variant;
    mine->n = lib->n = (size_t)S;
}

/* w38.fwd-speed: B4 H16 S4096 D128 non-causal, yours against cuDNN. A test
 * (not WB_SPEED) so that it can SKIP where cuDNN does not load. */
START_TEST(fwd_speed)
{
    wb_bench_row mine = { 0 }, lib = { 0 };
    char variant[64], why[400] = "";
    if (!cudnn_ready(4, 16, 4096, 128, 0, why, sizeof why))
        wb_skip_test("cuDNN SDPA cannot run here, so there is no yardstick: %s", why);
    name_rows(&mine, &lib, variant, sizeof variant, 4, 16, 4096, 128, 0);
    int ok = measure(4, 16, 4096, 128, 0, 20, &mine, &lib, why, sizeof why);
    if (mine.invalid) { /* wrong output: no figure, whatever cuDNN can do */
        wb_bench_emit(&mine);
        ck_abort_msg("w38.fwd-speed: %s", mine.why);
    }
    if (!ok) wb_skip_test("cuDNN SDPA cannot run here, so there is no yardstick: %s", why);
    wb_bench_emit(&lib);
    wb_bench_emit(&mine);
    ck_assert_msg(!lib.invalid, "w38.fwd-speed: %s", lib.why);
    char detail[600];
    wb_expect_target("w38.fwd-speed", wb_bench_ratio(&mine), wb_bench_detail(&mine, detail, sizeof detail));
}
END_TEST

/* w38.more-shapes (a report): the stretch ratio (0.55, FlashAttention-2's
 * level), causal, and head dim 64, each against cuDNN. */
static const struct { int B, H, S, D, causal; } SHAPES[] = {
    { 4, 16, 4096, 128, 0 }, { 4, 16, 4096, 128, 1 }, { 8, 16, 2048, 64, 0 },
};

START_TEST(fwd_shapes)
{
    char fig[400] = "", why[400] = "";
    double first = NAN;
    if (!cudnn_ready(SHAPES[0].B, SHAPES[0].H, SHAPES[0].S, SHAPES[0].D, SHAPES[0].causal, why, sizeof why))
        wb_skip_test("cuDNN SDPA cannot run here, so there is no yardstick: %s", why);
    for (size_t s = 0; s < WB_COUNT(SHAPES); s++) {
        wb_bench_row mine = { 0 }, lib = { 0 };
        char variant[64];
        name_rows(&mine, &lib, variant, sizeof variant, SHAPES[s].B, SHAPES[s].H, SHAPES[s].S, SHAPES[s].D,
                  SHAPES[s].causal);
        int ok = measure(SHAPES[s].B, SHAPES[s].H, SHAPES[s].S, SHAPES[s].D, SHAPES[s].causal, 10, &mine, &lib, why,
                         sizeof why);
        if (mine.invalid) {
            wb_bench_emit(&mine);
            ck_abort_msg("%s: %s", variant, mine.why);
        }
        if (!ok && s == 0) wb_skip_test("cuDNN SDPA cannot run here, so there is no yardstick: %s", why);
        if (!ok) { /* this shape only (a mask or head size this cuDNN lacks): say so, go on */
            snprintf(fig + strlen(fig), sizeof fig - strlen(fig), "; %s: no cuDNN figure (%.120s)", variant, why);
            continue;
        }
        wb_bench_emit(&lib);
        wb_bench_emit(&mine);
        ck_assert_msg(!lib.invalid, "%s: %s", variant, lib.why);
        double ratio = wb_bench_ratio(&mine);
        if (s == 0) first = ratio;
        snprintf(fig + strlen(fig), sizeof fig - strlen(fig), "%s%s: %.0f TFLOP/s, %.2f of cuDNN", s ? "; " : "",
                 variant, mine.value, ratio);
    }
    snprintf(fig + strlen(fig), sizeof fig - strlen(fig), " (stretch >= 0.55 at the first: %s)",
             first >= 0.55 ? "reached" : "not yet");
    wb_report(fig);
}
END_TEST

/* w38.plot: TFLOP/s against S at 16384 tokens a batch (B = 16384 / S), H 16,
 * D 128, non-causal, yours and cuDNN: CSV and PNG in build/phase6/week38. */
static const int PLOT_S[] = { 512, 1024, 2048, 4096, 8192, 16384 };

START_TEST(fwd_plot)
{
    const char *wk = getenv("WB_WEEK_DIR");
    if (!wk || !*wk) wk = "phase6/week38";
    char dir[256], csv[300], png[300], gp[300], cmd[600], why[400] = "", variant[64];
    snprintf(dir, sizeof dir, "build/%s", wk);
    snprintf(csv, sizeof csv, "%s/attn_vs_seq.csv", dir);
    snprintf(png, sizeof png, "%s/attn_vs_seq.png", dir);
    snprintf(gp, sizeof gp, "%s/attn_vs_seq.gp", wk);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    ck_assert_msg(system(cmd) == 0, "cannot create %s", dir);
    FILE *f = fopen(csv, "w");
    ck_assert_msg(f != NULL, "cannot write %s", csv);
    if (!cudnn_ready(16384 / PLOT_S[0], 16, PLOT_S[0], 128, 0, why, sizeof why)) {
        fclose(f);
        wb_skip_test("cuDNN SDPA cannot run here, so the plot has no yardstick: %s", why);
    }
    fprintf(f, "S,B,yours_tflops,cudnn_tflops,yours_ms,cudnn_ms\n");
    int cudnn_ok = 1;
    for (size_t s = 0; s < WB_COUNT(PLOT_S); s++) {
        int S = PLOT_S[s], B = 16384 / S;
        wb_bench_row mine = { 0 }, lib = { 0 };
        name_rows(&mine, &lib, variant, sizeof variant, B, 16, S, 128, 0);
        cudnn_ok &= measure(B, 16, S, 128, 0, 10, &mine, &lib, why, sizeof why);
        if (mine.invalid) {
            fclose(f);
            wb_bench_emit(&mine);
            ck_abort_msg("%s: %s", variant, mine.why);
        }
        if (!cudnn_ok) break; /* without the yardstick the plot is not what the checkpoint asks */
        wb_bench_emit(&lib);
        wb_bench_emit(&mine);
        ck_assert_msg(!lib.invalid, "%s: %s", variant, lib.why);
        fprintf(f, "%d,%d,%.6g,%.6g,%.6g,%.6g\n", S, B, mine.value, lib.value, mine.t.median, lib.t.median);
    }
    fclose(f);
    if (!cudnn_ok) wb_skip_test("cuDNN SDPA cannot run here, so the plot has no yardstick: %s", why);
    int drawn = wb_gnuplot(gp, csv, png);
    ck_assert_msg(drawn != -1, "gnuplot failed to draw %s from %s", png, csv);
    if (drawn == 0) wb_skip_test_no_gnuplot(csv);
    wb_report("attn_vs_seq.csv and attn_vs_seq.png in build/phase6/week38");
}
END_TEST

/* `make phase6/week38 bench`: the headline shape alone (yours and cuDNN). */
static double bench_fwd(void)
{
    wb_bench_row mine = { 0 }, lib = { 0 };
    char variant[64], why[400] = "";
    name_rows(&mine, &lib, variant, sizeof variant, 4, 16, 4096, 128, 0);
    if (!measure(4, 16, 4096, 128, 0, 20, &mine, &lib, why, sizeof why) && !mine.invalid)
        printf("  cuDNN SDPA cannot run here: %s\n", why);
    else if (!mine.invalid)
        wb_bench_emit(&lib);
    wb_bench_emit(&mine);
    return wb_bench_ratio(&mine);
}

static const wb_test TESTS[] = {
    { "w38.fwd", WB_T(fwd_cases), WB_GPU, WB_COUNT(CASES) },
    { "w38.fwd", WB_T(fwd_long), WB_GPU, 4 },
    { "w38.fwd", WB_T(fwd_args), WB_GPU, 0 },
    { "w38.fwd-speed", WB_T(fwd_speed), WB_GPU, 0 },
    { "w38.more-shapes", WB_T(fwd_shapes), WB_GPU, 0 },
    { "w38.plot", WB_T(fwd_plot), WB_GPU, 0 },
};

static const wb_benchmark BENCHES[] = {
    { "fwd", bench_fwd },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
