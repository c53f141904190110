/* test_week37.c — week 37's checkpoints: the IO model of attention (CPU),
 * the tiled flash kernel (O and the log-sum-exp of every row) against a
 * double-precision reference, the kernel at
 * a length whose S x S scores would not fit in device memory, and its speed
 * against attention on cuBLAS in FP32 (support/yard_cublas_attn.cu) in the
 * same run, the given naive attention (support/yard_naive_attn.cu) printed
 * beside it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "wb_cublas.h"
#include "attn_io.h"
#include "flash_attn.h"
#include "support/yard_cublas_attn.h"
#include "w37_checks.h" /* the references, tolerances and cases, shared with the instructor's judge */

/* ---------------------------------------------------------------- IO model (CPU) */

/* The model's own derivation (w37_io_flash_ref, w37_io_naive_ref) and the
 * grid are in w37_checks.h. */

START_TEST(io_model)
{
    const int64_t *SS = W37_IO_S, *DS = W37_IO_D, *BHS = W37_IO_BH;
    const int64_t(*TILES)[2] = W37_IO_TILES;
    for (size_t a = 0; a < WB_COUNT(W37_IO_S); a++)
        for (size_t b = 0; b < WB_COUNT(W37_IO_D); b++)
            for (size_t h = 0; h < WB_COUNT(W37_IO_BH); h++) {
                int64_t S = SS[a], D = DS[b], bh = BHS[h];
                double got = attn_io_naive_bytes(bh, S, D), want = w37_io_naive_ref(bh, S, D);
                if (got != want)
                    ck_abort_msg("attn_io_naive_bytes(bh=%lld, S=%lld, D=%lld) = %.17g, expected %.17g: count the "
                                 "three kernels again (attn_io.h)",
                                 (long long)bh, (long long)S, (long long)D, got, want);
                for (size_t t = 0; t < WB_COUNT(W37_IO_TILES); t++)
                    for (int causal = 0; causal < 2; causal++) {
                        int64_t Br = TILES[t][0], Bc = TILES[t][1];
                        got = attn_io_flash_bytes(bh, S, D, Br, Bc, causal);
                        want = w37_io_flash_ref(bh, S, D, Br, Bc, causal);
                        if (got != want)
                            ck_abort_msg("attn_io_flash_bytes(bh=%lld, S=%lld, D=%lld, Br=%lld, Bc=%lld, %s) = "
                                         "%.17g, expected %.17g%s",
                                         (long long)bh, (long long)S, (long long)D, (long long)Br, (long long)Bc,
                                         causal ? "causal" : "non-causal", got, want,
                                         causal ? ": a causal query tile visits the key tiles up to the one "
                                                  "holding its last row, and the last tile may be partial"
                                                : ": every query tile (the last may be partial) loads all of K "
                                                  "and V");
                    }
            }
    ck_assert_msg(attn_io_naive_bytes(-1, 8, 64) == -1 && attn_io_naive_bytes(1, -8, 64) == -1 &&
                      attn_io_naive_bytes(1, 8, 0) == -1,
                  "attn_io_naive_bytes must return -1 for a negative bh or S, or D <= 0");
    ck_assert_msg(attn_io_flash_bytes(1, 8, 64, 0, 64, 0) == -1 && attn_io_flash_bytes(1, 8, 64, 64, 0, 1) == -1 &&
                      attn_io_flash_bytes(1, 8, -64, 64, 64, 0) == -1 && attn_io_flash_bytes(-2, 8, 64, 64, 64, 0) == -1,
                  "attn_io_flash_bytes must return -1 for a negative bh or S, or D, Br, Bc <= 0");

    /* What the model says, one head, the reference tiling (FA_BR x FA_BC). */
    printf("  IO model, one head, FP32, tiles %d x %d (MB = 1e6 bytes; floor = Q, K, V read and O written once)\n",
           FA_BR, FA_BC);
    printf("  %6s %4s %12s %12s %12s %10s %12s %12s\n", "S", "D", "naive MB", "tiled MB", "causal MB", "floor MB",
           "naive/tiled", "tiled/floor");
    for (int D = 64; D <= 128; D *= 2)
        for (int64_t S = 1024; S <= 16384; S *= 2) {
            double nv = attn_io_naive_bytes(1, S, D), fl = attn_io_flash_bytes(1, S, D, FA_BR, FA_BC, 0);
            double fc = attn_io_flash_bytes(1, S, D, FA_BR, FA_BC, 1), floor = 16.0 * (double)S * D;
            printf("  %6lld %4d %12.1f %12.1f %12.1f %10.2f %11.2fx %11.1fx\n", (long long)S, D, nv / 1e6, fl / 1e6,
                   fc / 1e6, floor / 1e6, nv / fl, fl / floor);
        }
    printf("  naive grows as S^2 (16 bytes a score); tiled as S^2 D / Br (K and V once per query tile): its\n"
           "  DRAM bytes fall to the floor, O(S D), when a head's K and V (8 S D bytes) stay in L2 between tiles.\n");
}
END_TEST

/* ---------------------------------------------------------------- reference */

/* The double reference (w37_ref_row) and the tolerances of O and lse
 * (W37_O_ATOL, W37_O_RTOL, W37_HUGE_ATOL; w37_lse_atol, W37_LSE_RTOL: why
 * they are what they are) are in w37_checks.h. */

/* The rows a check compares: every row when the reference is cheap, else
 * per head the first and last 64 and 64 at random. */
typedef struct { int h, i; } rowid;

static size_t pick_rows(wb_rng *rng, int bh, int S, int D, rowid **out)
{
    size_t n = 0;
    int all = (double)bh * S * S * D <= 6e8;
    rowid *r = wb_hmalloc(((size_t)(all ? (size_t)bh * S : (size_t)bh * 192) + 1) * sizeof *r);
    for (int h = 0; h < bh; h++) {
        if (all) {
            for (int i = 0; i < S; i++) r[n++] = (rowid){ h, i };
            continue;
        }
        for (int i = 0; i < 64; i++) r[n++] = (rowid){ h, i };
        for (int i = S - 64; i < S; i++) r[n++] = (rowid){ h, i };
        for (int t = 0; t < 64; t++) r[n++] = (rowid){ h, (int)wb_rng_int(rng, 64, S - 65) };
    }
    *out = r;
    return n;
}

/* Compare rows `rows` of got (bh x S x D) and of got_lse (bh x S) with the
 * double reference. */
static void expect_rows(const float *q, const float *k, const float *v, const float *got, const float *got_lse,
                        int S, int D, double scale, int causal, const rowid *rows, size_t nrows, double atol,
                        double rtol, int huge, const char *what)
{
    float *g = wb_hmalloc(nrows * D * sizeof *g + 4), *gl = wb_hmalloc(nrows * sizeof *gl + 4);
    double *want = wb_hmalloc(nrows * D * sizeof *want + 8), *s = wb_hmalloc(((size_t)S + 1) * sizeof *s);
    double *want_lse = wb_hmalloc(nrows * sizeof *want_lse + 8);
    for (size_t r = 0; r < nrows; r++) {
        size_t head = (size_t)rows[r].h * S * D, at = head + (size_t)rows[r].i * D;
        want_lse[r] = w37_ref_row(q + at, k + head, v + head, S, D, scale, causal, rows[r].i, want + r * D, s);
        memcpy(g + r * D, got + at, (size_t)D * sizeof *g);
        gl[r] = got_lse[(size_t)rows[r].h * S + rows[r].i];
    }
    wb_cmp cmp;
    wb_compare_f32_f64("o", g, want, nrows * D, atol, rtol, &cmp);
    if (cmp.bad) {
        size_t r = cmp.first_bad / D;
        ck_abort_msg("%s (seed %llu): first wrong output in head %d, row %d, column %zu (rows compared in the "
                     "order head, row): %s",
                     what, (unsigned long long)wb_base_seed(), rows[r].h, rows[r].i, cmp.first_bad % D, cmp.msg);
    }
    wb_compare_f32_f64("lse", gl, want_lse, nrows, w37_lse_atol(S, huge), W37_LSE_RTOL, &cmp);
    if (cmp.bad) {
        size_t r = cmp.first_bad;
        ck_abort_msg("%s (seed %llu): first wrong lse in head %d, row %d (lse[h * S + i] = m + log(l), natural "
                     "log; rows compared in the order head, row): %s",
                     what, (unsigned long long)wb_base_seed(), rows[r].h, rows[r].i, cmp.msg);
    }
    free(g), free(gl), free(want), free(want_lse), free(s);
}

/* ---------------------------------------------------------------- flash_attn */

/* The cases (W37_CASES: 0 and 1 rows, tile edges, odd lengths, several
 * heads, long rows (sampled), logits near +-1e4, a NaN key, misaligned
 * pointers) and how their inputs are drawn (w37_case_fill) are in
 * w37_checks.h. */

static void check_flash(wb_rng *rng, const w37_case *c)
{
    const int bh = c->bh, S = c->S, D = c->D;
    const size_t n = (size_t)bh * S * D, off = (size_t)c->offset;
    const double scale = 1.0 / sqrt((double)D);
    float *q = wb_hmalloc((n + off + 1) * 4), *k = wb_hmalloc((n + off + 1) * 4), *v = wb_hmalloc((n + off + 1) * 4);
    w37_case_fill(rng, c, q, k, v); /* logits ~ N(0, 1.3), or near +-1e4; a NaN key */
    char what[200];
    snprintf(what, sizeof what, "bh=%d S=%d D=%d %s%s%s, pointers +%d floats", bh, S, D,
             c->causal ? "causal" : "non-causal",
             c->kind == W37_HUGE_LOGITS ? ", logits near +-1e4 (subtract the running max before exp)" : "",
             c->kind == W37_NAN_KEY ? ", a NaN in one key: the rows that see it are NaN, the others not" : "",
             c->offset);
    float *dq = wb_dcopy(q, (n + off) * 4), *dk = wb_dcopy(k, (n + off) * 4), *dv = wb_dcopy(v, (n + off) * 4);
    const size_t nl = (size_t)bh * S; /* lse: one float a row */
    wb_dout o, ol;
    float *dout = wb_dout_alloc(&o, "o", n * 4, off * 4), *dlse = wb_dout_alloc(&ol, "lse", nl * 4, off * 4);
    WB_CUDA(flash_attn(dq ? dq + off : NULL, dk ? dk + off : NULL, dv ? dv + off : NULL, dout, dlse, bh, S, D,
                       (float)scale, c->causal));
    float *got = wb_hmalloc(n * 4 + 4), *got_lse = wb_hmalloc(nl * 4 + 4);
    wb_expect_dout_guards(&o, got, what);
    wb_expect_dout_guards(&ol, got_lse, what);
    if (n > 0) {
        rowid *rows;
        size_t nrows = pick_rows(rng, bh, S, D, &rows);
        int huge = c->kind == W37_HUGE_LOGITS;
        double atol = huge ? W37_HUGE_ATOL : W37_O_ATOL, rtol = huge ? 0 : W37_O_RTOL;
        expect_rows(q + off, k + off, v + off, got, got_lse, S, D, scale, c->causal, rows, nrows, atol, rtol, huge,
                    what);
        free(rows);
    }
    wb_dfree(dq), wb_dfree(dk), wb_dfree(dv), wb_dout_free(&o), wb_dout_free(&ol);
    free(q), free(k), free(v), free(got), free(got_lse);
}

START_TEST(flash_cases)
{
    ck_assert_str_eq(__func__, W37_CASES_TAG); /* the judge draws these cases by this tag (w37_checks.h) */
    wb_rng rng = WB_RNG();
    check_flash(&rng, &W37_CASES[_i]);
}
END_TEST

/* D other than 64 and 128: an error, and nothing written (O nor lse). */
START_TEST(flash_rejects)
{
    static const int BAD_D[] = { 0, 32, 96, 129 };
    const int S = 70;
    size_t n = (size_t)S * 256;
    float *dx = wb_dmalloc(n * 4);
    wb_dfill_uniform_f32(dx, n, 7, -1, 1);
    for (size_t t = 0; t < WB_COUNT(BAD_D); t++) {
        wb_dout o, ol;
        float *dout = wb_dout_alloc(&o, "o", n * 4, 0), *dlse = wb_dout_alloc(&ol, "lse", (size_t)S * 4, 0);
        cudaError_t e = flash_attn(dx, dx, dx, dout, dlse, 1, S, BAD_D[t], 0.1f, 0);
        cudaGetLastError();
        ck_assert_msg(e == cudaErrorInvalidValue, "flash_attn with D=%d returned %s; expected cudaErrorInvalidValue",
                      BAD_D[t], cudaGetErrorName(e));
        float *host = wb_hmalloc(n * 4);
        wb_expect_dout_guards(&o, host, "D unsupported");
        ck_assert_msg(wb_count_not_byte(host, n * 4, 0xFF) == 0,
                      "flash_attn with D=%d wrote its output; an unsupported D must launch nothing", BAD_D[t]);
        wb_expect_dout_guards(&ol, host, "D unsupported");
        ck_assert_msg(wb_count_not_byte(host, (size_t)S * 4, 0xFF) == 0,
                      "flash_attn with D=%d wrote lse; an unsupported D must launch nothing", BAD_D[t]);
        free(host);
        wb_dout_free(&o), wb_dout_free(&ol);
    }
    wb_dfree(dx);
}
END_TEST

/* ---------------------------------------------------------------- no S x S buffer */

/* One causal head, D = 64, long enough that its S x S scores in FP32 would
 * need more than the device's whole memory: only a kernel that never stores
 * them can answer. Sampled rows against the double reference. */
START_TEST(flash_long)
{
    size_t free_b = 0, total_b = 0;
    WB_CUDA(cudaMemGetInfo(&free_b, &total_b));
    const int D = 64;
    int S = w37_long_S(total_b);
    size_t n = (size_t)S * D;
    const double scale = 1.0 / sqrt((double)D);
    ck_assert_str_eq(__func__, W37_LONG_TAG); /* the judge draws this case by this tag (w37_checks.h) */
    wb_rng rng = WB_RNG();
    float *q = wb_hmalloc(n * 4), *k = wb_hmalloc(n * 4), *v = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, q, n, -2, 2);
    wb_fill_uniform_f32(&rng, k, n, -2, 2);
    wb_fill_uniform_f32(&rng, v, n, -1, 1);
    float *dq = wb_dcopy(q, n * 4), *dk = wb_dcopy(k, n * 4), *dv = wb_dcopy(v, n * 4);
    wb_dout o, ol;
    float *dout = wb_dout_alloc(&o, "o", n * 4, 0), *dlse = wb_dout_alloc(&ol, "lse", (size_t)S * 4, 0);
    WB_CUDA(flash_attn(dq, dk, dv, dout, dlse, 1, S, D, (float)scale, 1));
    float *got = wb_hmalloc(n * 4), *got_lse = wb_hmalloc((size_t)S * 4);
    char what[200];
    snprintf(what, sizeof what, "one causal head, S=%d D=%d (its scores would be %.1f GB; the device has %.1f GB)", S,
             D, 4.0 * S * (double)S / 1e9, total_b / 1e9);
    wb_expect_dout_guards(&o, got, what);
    wb_expect_dout_guards(&ol, got_lse, what);
    rowid rows[24];
    size_t nr = 0;
    rows[nr++] = (rowid){ 0, 0 }, rows[nr++] = (rowid){ 0, 1 }, rows[nr++] = (rowid){ 0, 64 };
    rows[nr++] = (rowid){ 0, S - 1 }, rows[nr++] = (rowid){ 0, S - 2 };
    while (nr < WB_COUNT(rows)) rows[nr++] = (rowid){ 0, (int)wb_rng_int(&rng, 2, S - 3) };
    expect_rows(q, k, v, got, got_lse, S, D, scale, 1, rows, nr, W37_O_ATOL, W37_O_RTOL, 0, what);
    printf("  %s: correct with Q, K, V, O and lse only (%.0f MB in all)\n", what, (16.0 * (double)n + 4.0 * S) / 1e6);
    wb_dfree(dq), wb_dfree(dk), wb_dfree(dv), wb_dout_free(&o), wb_dout_free(&ol);
    free(q), free(k), free(v), free(got), free(got_lse);
}
END_TEST

/* ---------------------------------------------------------------- speed */

enum { SEED_Q = 71, SEED_K = 72, SEED_V = 73 };

enum { FLASH, NAIVE, CUBLAS };
static const char *const ATTN_NAMES[] = { "flash_attn", "naive", "cuBLAS" };

typedef struct {
    float *q, *k, *v, *o, *scores; /* scores: the S x S buffers of NAIVE and CUBLAS */
    float *lse;                    /* FLASH: bh x S; the pipelines write none */
    int kind, bh, S, D, causal;
    cublasHandle_t h; /* CUBLAS */
    unsigned long long salt;
} attn_ctx;

static void attn_work(void *p)
{
    attn_ctx *a = p;
    float scale = (float)(1.0 / sqrt((double)a->D));
    if (a->kind == NAIVE)
        WB_CUDA(yard_attn_naive(a->q, a->k, a->v, a->o, a->scores, a->bh, a->S, a->D, scale, a->causal));
    else if (a->kind == CUBLAS)
        WB_CUDA(yard_attn_cublas(a->h, a->q, a->k, a->v, a->o, a->scores, a->bh, a->S, a->D, scale, a->causal));
    else
        WB_CUDA(flash_attn(a->q, a->k, a->v, a->o, a->lse, a->bh, a->S, a->D, scale, a->causal));
}

static void attn_fill(attn_ctx *a, unsigned long long salt)
{
    size_t n = (size_t)a->bh * a->S * a->D;
    a->salt = salt;
    wb_dfill_uniform_f32(a->q, n, SEED_Q + salt, -2, 2);
    wb_dfill_uniform_f32(a->k, n, SEED_K + salt, -2, 2);
    wb_dfill_uniform_f32(a->v, n, SEED_V + salt, -1, 1);
}

static void attn_fresh(void *p, unsigned long long salt)
{
    attn_ctx *a = p;
    attn_fill(a, salt);
    wb_dpoison(a->o, (size_t)a->bh * a->S * a->D * 4);
    if (a->lse) wb_dpoison(a->lse, (size_t)a->bh * a->S * 4);
}

/* Check rows of 3 heads (first, last, one at random), 8 rows each, of the
 * output in a->o (and their lse in a->lse, when there is one), against the
 * double reference on inputs made on the host from the same hashes. 0 when
 * right, else the message in why. */
static int attn_verify(const attn_ctx *a, char *why, size_t size)
{
    const int S = a->S, D = a->D;
    const size_t hd = (size_t)S * D;
    float *q = wb_hmalloc(hd * 4), *k = wb_hmalloc(hd * 4), *v = wb_hmalloc(hd * 4), *g = wb_hmalloc((size_t)D * 4);
    double *want = wb_hmalloc((size_t)D * 8), *s = wb_hmalloc((size_t)S * 8);
    int heads[3] = { 0, a->bh - 1, (int)(a->salt % (unsigned long long)a->bh) };
    int rows[8] = { 0, 1, 63, 64, S / 2 + 17, S - 65, S - 2, S - 1 };
    int bad = 0;
    for (int t = 0; t < 3 && !bad; t++) {
        size_t base = (size_t)heads[t] * hd;
        for (size_t e = 0; e < hd; e++) {
            q[e] = wb_hash_uniform_f32(SEED_Q + a->salt, base + e, -2, 2);
            k[e] = wb_hash_uniform_f32(SEED_K + a->salt, base + e, -2, 2);
            v[e] = wb_hash_uniform_f32(SEED_V + a->salt, base + e, -1, 1);
        }
        for (int r = 0; r < 8 && !bad; r++) {
            int i = rows[r];
            double want_lse = w37_ref_row(q + (size_t)i * D, k, v, S, D, 1.0 / sqrt((double)D), a->causal, i, want, s);
            wb_d2h(g, a->o + base + (size_t)i * D, (size_t)D * 4);
            wb_cmp cmp;
            if (wb_compare_f32_f64("o", g, want, D, W37_O_ATOL, W37_O_RTOL, &cmp)) {
                snprintf(why, size, "%s: head %d row %d: %s", ATTN_NAMES[a->kind], heads[t], i, cmp.msg);
                bad = 1;
            }
            float got_lse;
            if (!bad && a->lse) {
                wb_d2h(&got_lse, a->lse + (size_t)heads[t] * S + i, 4);
                if (wb_compare_f32_f64("lse", &got_lse, &want_lse, 1, w37_lse_atol(S, 0), W37_LSE_RTOL, &cmp)) {
                    snprintf(why, size, "%s: head %d row %d: %s", ATTN_NAMES[a->kind], heads[t], i, cmp.msg);
                    bad = 1;
                }
            }
        }
    }
    free(q), free(k), free(v), free(g), free(want), free(s);
    return bad;
}

static int attn_check(void *p, char *why, size_t size) { return attn_verify(p, why, size); }

/* Time attention on cuBLAS (the yardstick), the given naive attention (a
 * report row) and flash_attn on the same inputs; useful flops are 4 D per
 * score a query sees (QK^T and PV), the same count for all three, so a ratio
 * is a ratio of times. The two S x S pipelines share one scores buffer. The
 * flash row is the speed checkpoint's headline when `headline` is given;
 * flash_attn writes lse as well (4 bytes a row, counted in its bytes), which
 * the pipelines do not: what training needs from the forward, at the cost of
 * its bytes only. */
static double run_attn(int bh, int S, int D, int causal, wb_headline *headline)
{
    size_t n = (size_t)bh * S * D;
    float *scores = wb_dmalloc(yard_attn_cublas_workspace_bytes(bh, S));
    attn_ctx f = { wb_dmalloc(n * 4), wb_dmalloc(n * 4), wb_dmalloc(n * 4), wb_dmalloc(n * 4), NULL,
                   wb_dmalloc((size_t)bh * S * 4), FLASH, bh, S, D, causal, NULL, 0 };
    attn_ctx nv = f, cb = f;
    nv.kind = NAIVE, nv.o = wb_dmalloc(n * 4), nv.scores = scores, nv.lse = NULL;
    cb.kind = CUBLAS, cb.o = wb_dmalloc(n * 4), cb.scores = scores, cb.lse = NULL;
    cb.h = wb_cublas_handle(0); /* FP32, no TF32 */
    attn_fill(&f, 0);
    wb_dpoison(f.o, n * 4), wb_dpoison(f.lse, (size_t)bh * S * 4), wb_dpoison(nv.o, n * 4), wb_dpoison(cb.o, n * 4);
    double scores_seen = causal ? (double)S * (S + 1) / 2 : (double)S * S;
    double flops = 4.0 * D * scores_seen * bh;
    char variant[96], why[256];
    snprintf(variant, sizeof variant, "bh=%d S=%d D=%d %s", bh, S, D, causal ? "causal" : "non-causal");

    wb_bench_row y = { .exercise = "attn_cublas", .variant = variant, .n = (size_t)S, .flops = flops,
                       .bytes = w37_io_naive_ref(bh, S, D), .unit = "TFLOP/s" };
    wb_time(attn_work, &cb, NULL, &y.t);
    y.value = flops / (y.t.median * 1e-3) / 1e12;
    if (attn_verify(&cb, why, sizeof why)) wb_bench_invalid(&y, why);
    wb_bench_emit(&y);
    double yard = y.invalid ? NAN : y.value;

    wb_bench_row nr = { .exercise = "attn_naive", .variant = variant, .n = (size_t)S, .flops = flops,
                        .bytes = w37_io_naive_ref(bh, S, D), .unit = "TFLOP/s", .yard_name = "cuBLAS", .yard = yard };
    wb_time(attn_work, &nv, NULL, &nr.t);
    nr.value = flops / (nr.t.median * 1e-3) / 1e12;
    if (attn_verify(&nv, why, sizeof why)) wb_bench_invalid(&nr, why);
    wb_bench_emit(&nr);

    wb_bench_row r = { .exercise = "flash_attn", .variant = variant, .n = (size_t)S, .flops = flops,
                       .bytes = w37_io_flash_ref(bh, S, D, FA_BR, FA_BC, causal) + 4.0 * bh * S, .unit = "TFLOP/s",
                       .yard_name = "cuBLAS", .yard = yard };
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = attn_fresh, o.check = attn_check;
    wb_time(attn_work, &f, &o, &r.t);
    r.value = flops / (r.t.median * 1e-3) / 1e12;
    if (attn_verify(&f, why, sizeof why)) wb_bench_invalid(&r, why);
    if (y.invalid) wb_bench_invalid(&r, "the cuBLAS yardstick's output was wrong: no ratio");
    cublasDestroy(cb.h);
    wb_dfree(f.q), wb_dfree(f.k), wb_dfree(f.v), wb_dfree(f.o), wb_dfree(f.lse), wb_dfree(nv.o), wb_dfree(cb.o);
    wb_dfree(scores);
    if (headline) return wb_bench_headline(&r, headline);
    wb_bench_emit(&r);
    return wb_bench_ratio(&r);
}

/* The checkpoint: causal, 2 x 16 heads of 4096 x 64. */
static double bench_flash(wb_headline *h) { return run_attn(32, 4096, 64, 1, h); }

/* The report behind the README's table: both head dims, causal and not. */
static double bench_ladder(void)
{
    run_attn(32, 4096, 64, 0, NULL);
    run_attn(32, 4096, 64, 1, NULL);
    run_attn(16, 4096, 128, 0, NULL);
    return run_attn(16, 4096, 128, 1, NULL);
}

static const wb_test TESTS[] = {
    { "w37.io", WB_T(io_model), WB_CPU, 0 },
    { "w37.flash", WB_T(flash_cases), WB_GPU, W37_N_CASES },
    { "w37.flash", WB_T(flash_rejects), WB_GPU, 0 },
    { "w37.long", WB_T(flash_long), WB_GPU, 0 },
    WB_SPEED("w37.flash-speed", bench_flash),
};

static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
