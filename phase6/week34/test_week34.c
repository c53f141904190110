/* test_week34.c — week 34's checkpoints: the traffic model of naive
 * attention, the row softmax of masked scores (and its bandwidth), the PV
 * GEMM, attention end to end, and a timed report at a transformer's size. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cublas_v2.h>

#include "wb_harness.h"
#include "wb_cublas.h"
#include "softmax.h"
#include "pv.h"
#include "attention.h"
#include "qkt.h"  /* week 33 */
#include "mask.h" /* week 33 */
#include "w34_checks.h" /* the cases, references and tolerances, shared with the judge */

/* ---------------------------------------------------------------- helpers */

/* Compare got with ref element by element at tol[k] (NaN never passes where
 * ref is a number; ref NaN wants NaN). */
static void expect_tol(const float *got, const double *ref, const double *tol, size_t n, const char *name,
                       const char *what)
{
    size_t first = 0, bad = w34_tol_bad(got, ref, tol, n, &first);
    if (bad)
        ck_abort_msg("%s (seed %llu): %zu of %zu wrong; %s[%zu] expected %.9g (tolerance %.3g), got %.9g", what,
                     (unsigned long long)wb_base_seed(), bad, n, name, first, ref[first], tol[first], (double)got[first]);
}

/* ---------------------------------------------------------------- traffic model (CPU) */

START_TEST(traffic_model)
{
    const w34_shape4 *C = W34_TRAFFIC;
    for (size_t k = 0; k < W34_COUNT(W34_TRAFFIC); k++)
        for (int causal = 0; causal < 2; causal++) {
            double want = 4 * w34_model_floats(C[k].B, C[k].H, C[k].L, C[k].D, causal);
            double got = attention_naive_bytes(C[k].B, C[k].H, C[k].L, C[k].D, causal);
            ck_assert_msg(wb_close(got, want, 0, 1e-12),
                          "attention_naive_bytes(B=%d, H=%d, L=%d, D=%d, causal=%d) = %.17g, expected %.17g", C[k].B,
                          C[k].H, C[k].L, C[k].D, causal, got, want);
        }
    for (size_t k = 0; k < W34_COUNT(W34_TRAFFIC); k++) {
        double fused = 16.0 * C[k].B * C[k].H * (double)C[k].L * C[k].D, flops = 4.0 * C[k].B * C[k].H * (double)C[k].L * C[k].L * C[k].D;
        ck_assert_msg(wb_close(attention_fused_bytes(C[k].B, C[k].H, C[k].L, C[k].D), fused, 0, 1e-12),
                      "attention_fused_bytes(B=%d, H=%d, L=%d, D=%d) = %.17g, expected %.17g (Q, K, V read, O written)",
                      C[k].B, C[k].H, C[k].L, C[k].D, attention_fused_bytes(C[k].B, C[k].H, C[k].L, C[k].D), fused);
        ck_assert_msg(wb_close(attention_flops(C[k].B, C[k].H, C[k].L, C[k].D), flops, 0, 1e-12),
                      "attention_flops(B=%d, H=%d, L=%d, D=%d) = %.17g, expected %.17g (two GEMMs, 2 L^2 D each a "
                      "head)", C[k].B, C[k].H, C[k].L, C[k].D, attention_flops(C[k].B, C[k].H, C[k].L, C[k].D), flops);
    }
    /* The table: B 4, H 16, D 64, not causal. */
    char fig[200] = "naive/fused GB at B4 H16 D64:";
    printf("  naive attention, B 4, H 16, D 64, FP32, not causal:\n");
    printf("  %6s %12s %12s %10s %14s %16s\n", "L", "naive GB", "fused GB", "ratio", "S share %", "flops per byte");
    for (int L = 512; L <= 16384; L *= 2) {
        double nb = attention_naive_bytes(4, 16, L, 64, 0), fb = attention_fused_bytes(4, 16, L, 64);
        printf("  %6d %12.2f %12.3f %10.1f %14.1f %16.1f\n", L, nb / 1e9, fb / 1e9, nb / fb, 100 * (nb - fb) / nb,
               attention_flops(4, 16, L, 64) / nb);
        char cell[40];
        snprintf(cell, sizeof cell, " L%d %.1f/%.2f", L, nb / 1e9, fb / 1e9);
        strncat(fig, cell, sizeof fig - strlen(fig) - 1);
    }
    wb_report(fig);
}
END_TEST

/* ---------------------------------------------------------------- softmax */

START_TEST(softmax_rows)
{
    wb_rng rng = WB_RNG();
    size_t rows = W34_SM_SHAPES[_i].rows, n = rows * (size_t)W34_SM_SHAPES[_i].L;
    int L = W34_SM_SHAPES[_i].L;
    float *hS = wb_hmalloc(n * 4 + 16);
    double *ref = wb_hmalloc(n * 8 + 16), *tol = wb_hmalloc(n * 8 + 16);
    float *got = wb_hmalloc(n * 4 + 16);
    w34_fill_softmax_rows(&rng, hS, rows, L);
    w34_softmax_ref(hS, ref, tol, rows, L);
    float *dS = wb_dcopy(hS, n * 4);
    wb_dout P;
    float *dP = wb_dout_alloc(&P, "P", n * 4, 4 * (size_t)(_i & 1)); /* odd loops: P starts 4 bytes off */
    char what[120];
    snprintf(what, sizeof what, "softmax_scores, %zu rows of L=%d (row kinds by r %% 6: see the test), out of place",
             rows, L);
    WB_CUDA(softmax_scores(dS, dP, rows, L));
    wb_expect_dout_guards(&P, got, what);
    expect_tol(got, ref, tol, n, "P", what);
    /* in place: P holds the scores, and becomes their softmax */
    wb_dout_poison(&P);
    if (n) wb_h2d(dP, hS, n * 4);
    snprintf(what, sizeof what, "softmax_scores, %zu rows of L=%d, in place (P == S)", rows, L);
    WB_CUDA(softmax_scores(dP, dP, rows, L));
    wb_expect_dout_guards(&P, got, what);
    expect_tol(got, ref, tol, n, "P", what);
    wb_dfree(dS), wb_dout_free(&P);
    free(hS), free(ref), free(tol), free(got);
}
END_TEST

START_TEST(softmax_errors)
{
    wb_dout P;
    float *dP = wb_dout_alloc(&P, "P", 64, 0);
    cudaError_t e = softmax_scores(dP, dP, 4, -4);
    ck_assert_msg(e == cudaErrorInvalidValue, "softmax_scores with L = -4 returned %s, expected cudaErrorInvalidValue",
                  cudaGetErrorString(e));
    cudaGetLastError();
    float got[16];
    wb_expect_dout_guards(&P, got, "a refused call");
    for (int k = 0; k < 16; k++) ck_assert_msg(isnan(got[k]), "a refused softmax_scores call wrote P[%d]", k);
    wb_dout_free(&P);
}
END_TEST

/* ---------------------------------------------------------------- softmax bandwidth */

enum { SEED_SM = 341 };
enum { SM_BENCH_L = W34_SM_BENCH_L };
typedef struct { const float *S; float *P; size_t rows; int L; unsigned long long salt; } sm_ctx;

static void sm_work(void *p)
{
    sm_ctx *c = p;
    WB_CUDA(softmax_scores(c->S, c->P, c->rows, c->L));
}

/* `count` rows of P (random, and the last one) against the hashed scores,
 * in double. Returns the number of wrong elements, the first in msg. */
static size_t sm_verify(const sm_ctx *c, int count, unsigned long long pick, char *msg, size_t size)
{
    size_t L = (size_t)c->L, bad = 0;
    float *x = wb_hmalloc(L * 4), *got = wb_hmalloc(L * 4);
    double *ref = wb_hmalloc(L * 8), *tol = wb_hmalloc(L * 8);
    wb_rng rng;
    wb_rng_seed(&rng, pick);
    for (int t = 0; t < count && !bad; t++) {
        size_t r = t == 0 ? c->rows - 1 : (size_t)wb_rng_int(&rng, 0, (int64_t)c->rows - 1);
        for (size_t j = 0; j < L; j++) x[j] = wb_hash_uniform_f32(SEED_SM + c->salt, r * L + j, W34_SM_BENCH_LO, W34_SM_BENCH_HI);
        w34_softmax_ref(x, ref, tol, 1, c->L);
        wb_d2h(got, c->P + r * L, L * 4);
        wb_cmp cmp;
        for (size_t j = 0; j < L; j++)
            if (!(isfinite(got[j]) && fabs(got[j] - ref[j]) <= tol[j])) {
                if (bad++ == 0) snprintf(msg, size, "P[row %zu][%zu] = %.9g, expected %.9g", r, j, (double)got[j], ref[j]);
            }
        (void)cmp;
    }
    free(x), free(got), free(ref), free(tol);
    return bad;
}

static void sm_fresh(void *p, unsigned long long salt)
{
    sm_ctx *c = p;
    c->salt = salt;
    wb_dfill_uniform_f32((float *)c->S, c->rows * c->L, SEED_SM + salt, W34_SM_BENCH_LO, W34_SM_BENCH_HI);
    wb_dpoison(c->P, c->rows * c->L * 4);
}

static int sm_check(void *p, char *why, size_t size)
{
    return sm_verify(p, 8, 7, why, size) ? 1 : 0;
}

/* Rows of 2048 scores (one head's row at L = 2048), as many as fill
 * wb_bench_bytes(); softmax out of place: each score read once and each
 * weight written once, 8 bytes an element, the copy's own convention
 * (wb_yard_copy_gbps counts read + written bytes). */
static double bench_softmax(wb_headline *h)
{
    size_t bytes = wb_bench_bytes();
    sm_ctx c = { NULL, NULL, bytes / (4 * (size_t)SM_BENCH_L), SM_BENCH_L, 0 };
    size_t n = c.rows * SM_BENCH_L;
    c.S = wb_dmalloc(n * 4), c.P = wb_dmalloc(n * 4);
    wb_dfill_uniform_f32((float *)c.S, n, SEED_SM, W34_SM_BENCH_LO, W34_SM_BENCH_HI);
    wb_dpoison(c.P, n * 4);
    double copy = wb_yard_copy_gbps(n * 4);
    wb_bench_row r = { .exercise = "softmax", .variant = "yours, rows of 2048", .n = n, .bytes = 8.0 * n,
                       .flops = 0, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = sm_fresh, o.check = sm_check;
    wb_time(sm_work, &c, &o, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    wb_sync();
    char msg[200];
    if (sm_verify(&c, 64, 99, msg, sizeof msg)) wb_bench_invalid(&r, msg);
    wb_dfree((void *)c.S), wb_dfree(c.P);
    return wb_bench_headline(&r, h);
}

/* ---------------------------------------------------------------- PV */

START_TEST(pv_shapes)
{
    wb_rng rng = WB_RNG();
    w34_shape4 s = W34_SHAPES[_i];
    size_t heads = (size_t)s.B * s.H, L = (size_t)s.L, D = (size_t)s.D;
    size_t np = heads * L * L, nv = heads * L * D;
    float *hP = wb_hmalloc(np * 4 + 16), *hV = wb_hmalloc(nv * 4 + 16), *got = wb_hmalloc(nv * 4 + 16);
    double *ref = wb_hmalloc(nv * 8 + 16), *tol = wb_hmalloc(nv * 8 + 16);
    w34_pv_case(&rng, s, hP, hV, ref, tol); /* rows of weights: non-negative, summing to about 1, some exactly 0 */
    float *dP = wb_dcopy(hP, np * 4), *dV = wb_dcopy(hV, nv * 4);
    wb_dout O;
    float *dO = wb_dout_alloc(&O, "O", nv * 4, 0);
    char what[120];
    snprintf(what, sizeof what, "pv_output B=%d H=%d L=%d D=%d", s.B, s.H, s.L, s.D);
    cublasHandle_t h = wb_cublas_handle(1);
    WB_CUBLAS(pv_output(h, dP, dV, dO, s.B, s.H, s.L, s.D), what);
    wb_expect_dout_guards(&O, got, what);
    expect_tol(got, ref, tol, nv, "O", what);
    cublasDestroy(h);
    wb_dfree(dP), wb_dfree(dV), wb_dout_free(&O);
    free(hP), free(hV), free(got), free(ref), free(tol);
}
END_TEST

START_TEST(pv_errors)
{
    enum { L = W34_ERR_L, D = W34_ERR_D };
    wb_dout O;
    float *dO = wb_dout_alloc(&O, "O", L * D * 4, 0);
    float *dP = wb_dmalloc(L * L * 4), *dV = wb_dmalloc(L * D * 4);
    wb_dpoison(dP, L * L * 4), wb_dpoison(dV, L * D * 4);
    cublasHandle_t h = wb_cublas_handle(1);
    const w34_bad4 *bad = W34_PV_BAD;
    for (size_t k = 0; k < W34_COUNT(W34_PV_BAD); k++) {
        cublasStatus_t st = pv_output(h, dP, dV, dO, bad[k].B, bad[k].H, bad[k].L, bad[k].D);
        ck_assert_msg(st == CUBLAS_STATUS_INVALID_VALUE,
                      "pv_output with %s returned %s, expected CUBLAS_STATUS_INVALID_VALUE", bad[k].what,
                      cublasGetStatusString(st));
    }
    cublasStatus_t st = pv_output(NULL, dP, dV, dO, 1, 1, L, D);
    ck_assert_msg(st != CUBLAS_STATUS_SUCCESS, "pv_output with a null handle returned CUBLAS_STATUS_SUCCESS");
    float got[L * D];
    wb_expect_dout_guards(&O, got, "failed calls");
    for (int k = 0; k < L * D; k++) ck_assert_msg(isnan(got[k]), "a failed pv_output call wrote O[%d]", k);
    cublasDestroy(h);
    wb_dfree(dP), wb_dfree(dV), wb_dout_free(&O);
}
END_TEST

/* ---------------------------------------------------------------- attention end to end */

START_TEST(attention_e2e)
{
    wb_rng rng = WB_RNG();
    w34_shape4 sh = W34_SHAPES[_i];
    size_t heads = (size_t)sh.B * sh.H, L = (size_t)sh.L, D = (size_t)sh.D, n = heads * L * D;
    float *hQ = wb_hmalloc(n * 4 + 16), *hK = wb_hmalloc(n * 4 + 16), *hV = wb_hmalloc(n * 4 + 16);
    float *got = wb_hmalloc(n * 4 + 16);
    double *ref = wb_hmalloc(n * 8 + 16), *tol = wb_hmalloc(n * 8 + 16), *s = wb_hmalloc(L * 8 + 16), *p = wb_hmalloc(L * 8 + 16);
    char *dead = wb_hmalloc(heads * L + 16);
    int *kv = wb_hmalloc((size_t)sh.B * 4 + 16);
    float r = w34_attention_inputs(&rng, _i, sh, hQ, hK, hV, kv); /* +-4 on odd cases: sharp rows */
    float *dQ = wb_dcopy(hQ, n * 4), *dK = wb_dcopy(hK, n * 4), *dV = wb_dcopy(hV, n * 4);
    float *dW = wb_dmalloc(heads * L * L * 4 + 4);
    int *dkv = wb_dcopy(kv, (size_t)sh.B * 4);
    wb_dout O;
    float *dO = wb_dout_alloc(&O, "O", n * 4, 0);
    cublasHandle_t h = wb_cublas_handle(1);
    for (int combo = 0; combo < 4; combo++) {
        int causal = combo & 1, padded = combo >> 1;
        w34_attention_ref(hQ, hK, hV, sh, causal, padded ? kv : NULL, ref, tol, dead, s, p);
        char what[200];
        snprintf(what, sizeof what, "attention B=%d H=%d L=%d D=%d, inputs +-%g, %s%s", sh.B, sh.H, sh.L, sh.D, (double)r,
                 causal ? "causal" : "not causal", padded ? ", padded (batch 0 has no valid key)" : ", no padding");
        wb_dout_poison(&O);
        wb_dpoison(dW, heads * L * L * 4 + 4);
        WB_CUBLAS(attention(h, dQ, dK, dV, dO, dW, sh.B, sh.H, sh.L, sh.D, causal, padded ? dkv : NULL), what);
        wb_expect_dout_guards(&O, got, what);
        for (size_t row = 0; row < heads * L; row++)
            if (dead[row])
                for (size_t d = 0; d < D; d++)
                    if (got[row * D + d] != 0.0f)
                        ck_abort_msg("%s (seed %llu): query %zu of head %zu sees no key (all masked), so its output row "
                                     "must be zeros; O[..][%zu] = %.9g",
                                     what, (unsigned long long)wb_base_seed(), row % L, row / L, d, (double)got[row * D + d]);
        expect_tol(got, ref, tol, n, "O", what);
    }
    cublasDestroy(h);
    wb_dfree(dQ), wb_dfree(dK), wb_dfree(dV), wb_dfree(dW), wb_dfree(dkv), wb_dout_free(&O);
    free(hQ), free(hK), free(hV), free(got), free(ref), free(tol), free(s), free(p), free(dead), free(kv);
}
END_TEST

/* ---------------------------------------------------------------- the timed report */

enum { SEED_Q = 342, SEED_K = 343, SEED_V = 344 };
typedef struct {
    cublasHandle_t h;
    float *Q, *K, *V, *O, *W;
    int B, H, L, D;
    unsigned long long salt;
} att_ctx;

static void att_work(void *p)
{
    att_ctx *c = p;
    WB_CUBLAS(attention(c->h, c->Q, c->K, c->V, c->O, c->W, c->B, c->H, c->L, c->D, 0, NULL), "timed attention");
}

/* The yardstick: your two GEMM steps alone on the same data (the scores
 * are not softmaxed: the GEMM's time does not depend on the values). */
static void gemms_work(void *p)
{
    att_ctx *c = p;
    WB_CUBLAS(qkt_scores(c->h, c->Q, c->K, c->W, c->B, c->H, c->L, c->D), "timed GEMMs");
    WB_CUBLAS(pv_output(c->h, c->W, c->V, c->O, c->B, c->H, c->L, c->D), "timed GEMMs");
}

static void att_fill(att_ctx *c, unsigned long long salt)
{
    size_t n = (size_t)c->B * c->H * c->L * c->D;
    c->salt = salt;
    wb_dfill_uniform_f32(c->Q, n, SEED_Q + salt, -1, 1);
    wb_dfill_uniform_f32(c->K, n, SEED_K + salt, -1, 1);
    wb_dfill_uniform_f32(c->V, n, SEED_V + salt, -1, 1);
    wb_dpoison(c->O, n * 4);
}

/* `count` output rows against the double reference from the hashed inputs. */
static size_t att_verify(const att_ctx *c, int count, unsigned long long pick, char *msg, size_t size)
{
    size_t L = (size_t)c->L, D = (size_t)c->D, heads = (size_t)c->B * c->H, bad = 0;
    float *q = wb_hmalloc(D * 4), *K = wb_hmalloc(L * D * 4), *V = wb_hmalloc(L * D * 4), *got = wb_hmalloc(D * 4);
    double *o = wb_hmalloc(D * 8), *tol = wb_hmalloc(D * 8), *s = wb_hmalloc(L * 8), *p = wb_hmalloc(L * 8);
    wb_rng rng;
    wb_rng_seed(&rng, pick);
    for (int t = 0; t < count && !bad; t++) {
        size_t bh = (size_t)wb_rng_int(&rng, 0, (int64_t)heads - 1), i = (size_t)wb_rng_int(&rng, 0, (int64_t)L - 1);
        if (t == 0) bh = heads - 1, i = L - 1; /* the very last row */
        for (size_t d = 0; d < D; d++) q[d] = wb_hash_uniform_f32(SEED_Q + c->salt, (bh * L + i) * D + d, -1, 1);
        for (size_t k = 0; k < L * D; k++) {
            K[k] = wb_hash_uniform_f32(SEED_K + c->salt, bh * L * D + k, -1, 1);
            V[k] = wb_hash_uniform_f32(SEED_V + c->salt, bh * L * D + k, -1, 1);
        }
        w34_attention_row(q, K, V, c->L, c->D, c->L, o, tol, s, p);
        wb_d2h(got, c->O + (bh * L + i) * D, D * 4);
        for (size_t d = 0; d < D; d++)
            if (!(isfinite(got[d]) && fabs(got[d] - o[d]) <= tol[d]) && bad++ == 0)
                snprintf(msg, size, "O[head %zu][row %zu][%zu] = %.9g, expected %.9g", bh, i, d, (double)got[d], o[d]);
    }
    free(q), free(K), free(V), free(got), free(o), free(tol), free(s), free(p);
    return bad;
}

static void att_fresh(void *p, unsigned long long salt) { att_fill(p, salt); }
static int att_check(void *p, char *why, size_t size) { return att_verify(p, 2, 5, why, size) ? 1 : 0; }

/* B 4, H 16, L 1024 / 2048 / 4096, D 64 / 128, not causal, FP32 pedantic:
 * each configuration's TFLOP/s (attention_flops over the median time) against
 * your own qkt_scores + pv_output alone on the same data, and the traffic the
 * model says it moved, in GB/s. Every timed output is checked. */
START_TEST(attention_report)
{
    const int Ls[] = { 1024, 2048, 4096 }, Ds[] = { 64, 128 };
    att_ctx c = { wb_cublas_handle(1), NULL, NULL, NULL, NULL, NULL, 4, 16, 4096, 128, 0 };
    size_t nmax = (size_t)c.B * c.H * 4096 * 128, wmax = (size_t)c.B * c.H * 4096 * 4096;
    c.Q = wb_dmalloc(nmax * 4), c.K = wb_dmalloc(nmax * 4), c.V = wb_dmalloc(nmax * 4), c.O = wb_dmalloc(nmax * 4);
    c.W = wb_dmalloc(wmax * 4);
    char fig[200] = "TFLOP/s (share of time in the GEMMs):";
    for (size_t a = 0; a < WB_COUNT(Ls); a++)
        for (size_t b = 0; b < WB_COUNT(Ds); b++) {
            c.L = Ls[a], c.D = Ds[b];
            att_fill(&c, 0);
            char variant[64];
            snprintf(variant, sizeof variant, "B4 H16 L%d D%d, naive", c.L, c.D);
            wb_bench_row g = { .exercise = "attention", .variant = "your qkt + pv alone", .n = (size_t)c.L,
                               .flops = attention_flops(c.B, c.H, c.L, c.D), .unit = "TFLOP/s" };
            wb_time(gemms_work, &c, NULL, &g.t);
            g.value = g.flops / (g.t.median * 1e-3) / 1e12;
            wb_bench_row r = { .exercise = "attention", .variant = variant, .n = (size_t)c.L,
                               .bytes = attention_naive_bytes(c.B, c.H, c.L, c.D,
                                                              0), .flops = g.flops, .unit = "TFLOP/s",
                               .yard_name = "GEMMS", .yard = g.value };
            att_fill(&c, 0);
            wb_bench_opts o = WB_BENCH_DEFAULTS;
            o.fresh = att_fresh, o.check = att_check;
            wb_time(att_work, &c, &o, &r.t);
            r.value = r.flops / (r.t.median * 1e-3) / 1e12;
            wb_sync();
            char msg[200];
            if (att_verify(&c, 4, 11 + a * 2 + b, msg, sizeof msg)) wb_bench_invalid(&r, msg);
            wb_bench_emit(&g);
            wb_bench_emit(&r);
            printf("  L %d D %d: model traffic %.2f GB -> %.0f GB/s effective; GEMMs %.3f ms of %.3f ms\n", c.L, c.D,
                   r.bytes / 1e9, r.bytes / (r.t.median * 1e-3) / 1e9, g.t.median, r.t.median);
            ck_assert_msg(!r.invalid, "attention B4 H16 L%d D%d: the timed output is wrong: %s", c.L, c.D, r.why);
            ck_assert_msg(isfinite(r.value), "attention B4 H16 L%d D%d: no time (%s)", c.L, c.D, r.why);
            char cell[40];
            snprintf(cell, sizeof cell, " %d/%d %.1f (%.0f%%)", c.L, c.D, r.value, 100.0 * g.t.median / r.t.median);
            strncat(fig, cell, sizeof fig - strlen(fig) - 1);
        }
    cublasDestroy(c.h);
    wb_dfree(c.Q), wb_dfree(c.K), wb_dfree(c.V), wb_dfree(c.O), wb_dfree(c.W);
    wb_report(fig);
}
END_TEST

static const wb_test TESTS[] = {
    { "w34.traffic", WB_T(traffic_model), WB_CPU, 0 },
    { "w34.softmax", WB_T(softmax_rows), WB_GPU, WB_COUNT(W34_SM_SHAPES) },
    { "w34.softmax", WB_T(softmax_errors), WB_GPU, 0 },
    WB_SPEED("w34.softmax-bw", bench_softmax),
    { "w34.pv", WB_T(pv_shapes), WB_GPU, WB_COUNT(W34_SHAPES) },
    { "w34.pv", WB_T(pv_errors), WB_GPU, 0 },
    { "w34.attention", WB_T(attention_e2e), WB_GPU, WB_COUNT(W34_SHAPES) },
    { "w34.report", WB_T(attention_report), WB_GPU, 0 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
