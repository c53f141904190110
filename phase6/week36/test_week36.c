/* test_week36.c — week 36's checkpoints: the traffic model of three ways to
 * run scale + mask + softmax over attention scores, the fused kernel, the
 * key-split kernel, their speeds, the model held against the measured times,
 * and the shape where one block a row leaves the GPU idle. The yardsticks
 * (the given unfused chain, a device-to-device copy) run on the same data in
 * the same run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "smx.h"
#include "split.h"
#include "traffic.h"
#include "w36_checks.h"

/* The traffic model, the mask, the reference, the cases and their draws,
 * the tolerances: w36_checks.h (shared with the instructor's judge). */

/* ---------------------------------------------------------------- traffic (CPU) */

START_TEST(traffic_model)
{
    const int(*SH)[4] = TRAFFIC_SH; /* batch, rows, cols, causal */
    for (int k = 0; k < (int)WB_COUNT(TRAFFIC_SH); k++)
        for (int v = 0; v < FUS_VARIANTS; v++) {
            double want = model_bytes_per_score(v, SH[k][2], SH[k][3]) * SH[k][0] * SH[k][1] * (double)SH[k][2];
            double got = traffic_variant_bytes(v, SH[k][0], SH[k][1], SH[k][2], SH[k][3]);
            if (got != want)
                ck_abort_msg("%s, batch %d rows %d cols %d %s: traffic_variant_bytes says %.17g bytes, the model gives "
                             "%.17g (%g bytes a score); list its kernels and what each reads and writes",
                             VARIANT_NAMES[v], SH[k][0], SH[k][1], SH[k][2], SH[k][3] ? "causal" : "no mask", got, want,
                             model_bytes_per_score(v, SH[k][2], SH[k][3]));
        }
    const int(*EMPTY)[3] = TRAFFIC_EMPTY;
    for (int k = 0; k < (int)WB_COUNT(TRAFFIC_EMPTY); k++)
        for (int v = 0; v < FUS_VARIANTS; v++) {
            double got = traffic_variant_bytes(v, EMPTY[k][0], EMPTY[k][1], EMPTY[k][2], 1);
            if (got != 0)
                ck_abort_msg("%s, batch %d rows %d cols %d: nothing to do, so 0 bytes; traffic_variant_bytes says %g",
                             VARIANT_NAMES[v], EMPTY[k][0], EMPTY[k][1], EMPTY[k][2], got);
        }
    ck_assert_msg(traffic_variant_bytes(-1, 1, 1, 1, 0) == -1 && traffic_variant_bytes(FUS_VARIANTS, 1, 1, 1, 0) == -1,
                  "a variant that does not exist must give -1");
}
END_TEST

enum { RUN_FUSED = 0, RUN_SPLIT = 1 };

/* One case: fresh scores, the specials, S and P at float offsets oS and oP,
 * P guarded and poisoned; the fused or the split version. */
static void check_case(wb_rng *rng, int which, int batch, int rows, int cols, int causal, size_t oS, size_t oP)
{
    size_t nrows = batch > 0 && rows > 0 ? (size_t)batch * rows : 0, n = cols > 0 ? nrows * (size_t)cols : 0;
    if (n == 0) nrows = 0;
    float *hS = wb_hmalloc((n + oS) * 4);
    double *ref = wb_hmalloc(n * 8 + 8);
    float scale = case_draw(rng, hS, n, oS, nrows, rows, cols, causal);
    smx_ref(hS + oS, ref, nrows, rows, cols, scale, causal);
    float *dS = wb_dcopy(hS, (n + oS) * 4);
    wb_dout P;
    float *dP = wb_dout_alloc(&P, "P", n * 4, oP * 4);
    char what[256];
    snprintf(what, sizeof what, "%s, batch %d rows %d cols %d %s, scale %g, S+%zu P+%zu%s",
             which == RUN_FUSED ? "smx_fused" : "split_smx", batch, rows, cols, causal ? "causal" : "no mask",
             (double)scale, oS, oP, n && cols >= 2 ? "; " : "");
    if (n && cols >= 2) strncat(what, SPECIALS, sizeof what - strlen(what) - 1);
    if (which == RUN_FUSED) {
        WB_CUDA(smx_fused(dS ? dS + oS : NULL, dP, batch, rows, cols, scale, causal));
    } else {
        size_t tb = split_smx_tmp_bytes(batch, rows, cols);
        void *tmp = wb_dmalloc(tb);
        if (tmp) wb_dpoison(tmp, tb); /* its contents on entry mean nothing */
        WB_CUDA(split_smx(dS ? dS + oS : NULL, dP, batch, rows, cols, scale, causal, tmp));
        wb_sync();
        wb_dfree(tmp);
    }
    wb_expect_dout_f32_f64(&P, ref, n, smx_atol(cols), SMX_RTOL, what);
    wb_dfree(dS), wb_dout_free(&P);
    free(hS), free(ref);
}


START_TEST(smx_shapes)
{
    ck_assert_str_eq(__func__, W36_SMX_SHAPES_TAG); /* the judge draws these cases by this tag (w36_checks.h) */
    wb_rng rng = WB_RNG();
    check_case(&rng, RUN_FUSED, SHAPES[_i][0], SHAPES[_i][1], SHAPES[_i][2], SHAPES[_i][3], 0, 0);
}
END_TEST

/* Sub-arrays at any float offset (w36_checks.h, offsets_shape). */
static void check_offsets(wb_rng *rng, int which, int k)
{
    int batch, rows, cols, causal;
    size_t oS, oP;
    offsets_shape(rng, k, &batch, &rows, &cols, &causal, &oS, &oP);
    check_case(rng, which, batch, rows, cols, causal, oS, oP);
}

START_TEST(smx_offsets)
{
    ck_assert_str_eq(__func__, W36_SMX_OFFSETS_TAG);
    wb_rng rng = WB_RNG();
    check_offsets(&rng, RUN_FUSED, _i);
}
END_TEST

START_TEST(split_shapes)
{
    ck_assert_str_eq(__func__, W36_SPLIT_SHAPES_TAG);
    wb_rng rng = WB_RNG();
    check_case(&rng, RUN_SPLIT, SHAPES[_i][0], SHAPES[_i][1], SHAPES[_i][2], SHAPES[_i][3], 0, 0);
}
END_TEST

START_TEST(split_offsets)
{
    ck_assert_str_eq(__func__, W36_SPLIT_OFFSETS_TAG);
    wb_rng rng = WB_RNG();
    check_offsets(&rng, RUN_SPLIT, _i);
}
END_TEST

/* Many chunks a row: 4 M keys, 257 chunks, a NaN and the specials. */
START_TEST(split_long)
{
    ck_assert_str_eq(__func__, W36_SPLIT_LONG_TAG);
    wb_rng rng = WB_RNG();
    check_case(&rng, RUN_SPLIT, W36_LONG_BATCH, W36_LONG_ROWS, W36_LONG_COLS, 1, 0, 0);
}
END_TEST

START_TEST(split_tmp_size)
{
    const int(*SH)[3] = TMP_SH;
    for (int k = 0; k < (int)WB_COUNT(TMP_SH); k++) {
        size_t chunks = ((size_t)SH[k][2] + SPLIT_CHUNK - 1) / SPLIT_CHUNK;
        size_t need = (size_t)SH[k][0] * SH[k][1] * chunks * 2 * sizeof(float);
        size_t got = split_smx_tmp_bytes(SH[k][0], SH[k][1], SH[k][2]);
        if (got < need)
            ck_abort_msg("split_smx_tmp_bytes(%d, %d, %d) = %zu: one (max, sum) pair of floats for each of the %zu "
                         "chunks of %zu rows needs %zu", SH[k][0], SH[k][1], SH[k][2], got, chunks,
                         (size_t)SH[k][0] * SH[k][1], need);
    }
    ck_assert_msg(split_smx_tmp_bytes(0, 4, 4) == 0 && split_smx_tmp_bytes(4, 0, 4) == 0 &&
                      split_smx_tmp_bytes(4, 4, 0) == 0,
                  "an empty shape needs no scratch: split_smx_tmp_bytes must say 0");
}
END_TEST

/* ---------------------------------------------------------------- benchmarks */

enum { SEED_S = 361 };

/* One shape on the device, the variant to run, and the expected P from the
 * hash of the scores (wb_dfill_uniform_f32), with each row's max and sum
 * computed on the host in double when first needed. Slot 0 keeps the first
 * inputs' rows, slot 1 the spot check's. */
typedef struct {
    int batch, rows, cols, causal, variant;
    size_t nrows, n;
    float *S, *T, *P;
    void *tmp;
    unsigned long long salt;
    double *m[2], *s[2];
    unsigned char *done[2];
    unsigned long long slot_salt[2];
} sx_ctx;

static sx_ctx sx_setup(int batch, int rows, int cols, int causal, int with_T)
{
    sx_ctx c;
    memset(&c, 0, sizeof c);
    c.batch = batch, c.rows = rows, c.cols = cols, c.causal = causal;
    c.nrows = (size_t)batch * rows, c.n = c.nrows * (size_t)cols;
    c.S = wb_dmalloc(c.n * 4), c.P = wb_dmalloc(c.n * 4), c.T = with_T ? wb_dmalloc(c.n * 4) : NULL;
    size_t tb = split_smx_tmp_bytes(batch, rows, cols);
    c.tmp = wb_dmalloc(tb ? tb : 4);
    for (int k = 0; k < 2; k++) {
        c.m[k] = wb_hmalloc(c.nrows * 8), c.s[k] = wb_hmalloc(c.nrows * 8), c.done[k] = calloc(c.nrows, 1);
        c.slot_salt[k] = (unsigned long long)k;
    }
    wb_dfill_uniform_f32(c.S, c.n, SEED_S, W36_S_LO, W36_S_HI);
    return c;
}

static void sx_free(sx_ctx *c)
{
    wb_dfree(c->S), wb_dfree(c->P), wb_dfree(c->T), wb_dfree(c->tmp);
    for (int k = 0; k < 2; k++) free(c->m[k]), free(c->s[k]), free(c->done[k]);
}

static void sx_work(void *p)
{
    sx_ctx *c = p;
    if (c->variant == FUS_UNFUSED)
        WB_CUDA(yard_smx_unfused(c->S, c->T, c->P, c->batch, c->rows, c->cols, BSCALE, c->causal));
    else if (c->variant == FUS_FUSED) WB_CUDA(smx_fused(c->S, c->P, c->batch, c->rows, c->cols, BSCALE, c->causal));
    else WB_CUDA(split_smx(c->S, c->P, c->batch, c->rows, c->cols, BSCALE, c->causal, c->tmp));
}

/* The row's max and sum of the current inputs (seed SEED_S + salt). */
static void sx_row(sx_ctx *c, size_t r, double *m_out, double *s_out)
{
    int k = c->salt == 0 ? 0 : 1;
    if (c->slot_salt[k] != c->salt) memset(c->done[k], 0, c->nrows), c->slot_salt[k] = c->salt;
    if (!c->done[k][r]) {
        const unsigned long long seed = SEED_S + c->salt;
        long long kept = kept_of(r, c->rows, c->cols, c->causal);
        size_t base = r * (size_t)c->cols;
        double m = -INFINITY, s = 0;
        float *z = wb_hmalloc((size_t)(kept > 0 ? kept : 1) * 4);
        for (long long j = 0; j < kept; j++) {
            z[j] = zscale(BSCALE, wb_hash_uniform_f32(seed, base + (size_t)j, W36_S_LO, W36_S_HI));
            if (z[j] > m) m = z[j];
        }
        for (long long j = 0; j < kept; j++) s += exp((double)z[j] - m);
        free(z);
        c->m[k][r] = m, c->s[k][r] = s, c->done[k][r] = 1;
    }
    *m_out = c->m[k][r], *s_out = c->s[k][r];
}

static double sx_expect(size_t i, const void *p)
{
    sx_ctx *c = (sx_ctx *)p; /* the row cache is filled as rows are asked for */
    size_t r = i / (size_t)c->cols;
    long long j = (long long)(i % (size_t)c->cols);
    double m, s;
    sx_row(c, r, &m, &s);
    if (m == -INFINITY) return 0;
    if (j >= kept_of(r, c->rows, c->cols, c->causal)) return 0;
    double z = zscale(BSCALE, wb_hash_uniform_f32(SEED_S + c->salt, i, W36_S_LO, W36_S_HI));
    return exp(z - m) / s;
}

/* The spot check of a timing: new scores (salt 0: the first ones back), P poisoned. */
static void sx_fresh(void *p, unsigned long long salt)
{
    sx_ctx *c = p;
    c->salt = salt;
    wb_dfill_uniform_f32(c->S, c->n, SEED_S + salt, W36_S_LO, W36_S_HI);
    wb_dpoison(c->P, c->n * 4);
}
static int sx_check(void *p, char *why, size_t size)
{
    sx_ctx *c = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("P", c->P, c->n, sx_expect, c, 1 << 10, smx_atol(c->cols), SMX_RTOL, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* Time variant v on c into *r, bytes from the week's model; the figure is
 * GB/s at those bytes (per_score 0) or G scores/s (per_score 1). The output
 * is poisoned first and checked after. Your versions get the spot check
 * (spot = 1), the given chain none. */
static void sx_time(sx_ctx *c, int v, int spot, int per_score, wb_bench_row *r)
{
    c->variant = v;
    c->salt = 0;
    wb_dpoison(c->P, c->n * 4);
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    if (spot) o.fresh = sx_fresh, o.check = sx_check;
    wb_time(sx_work, c, &o, &r->t);
    r->n = c->n;
    r->bytes = model_bytes_per_score(v, c->cols, c->causal) * (double)c->n;
    r->flops = 5.0 * (double)c->n;
    r->value = (per_score ? (double)c->n : r->bytes) / (r->t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32(r->variant, c->P, c->n, sx_expect, c, 1 << 12, smx_atol(c->cols), SMX_RTOL, &cmp))
        wb_bench_invalid(r, cmp.msg);
}

/* The two shapes. Prefill: 256 queries (a chunk of a prompt) against 4096
 * keys, causal (3 % of the scores masked), as many heads as fill
 * wb_bench_bytes() (100 heads and 400 MiB of scores on the H100). Decode:
 * 32 heads of one query against as many keys as fill it (3.3 M). */
static int prefill_batch(void) { return (int)(wb_bench_bytes() / 4 / ((size_t)PF_ROWS * PF_COLS)); }
static sx_ctx prefill_ctx(int with_T) { return sx_setup(prefill_batch(), PF_ROWS, PF_COLS, 1, with_T); }
static sx_ctx decode_ctx(void)
{
    size_t cols = wb_bench_bytes() / 4 / DC_BATCH / 4096 * 4096;
    return sx_setup(DC_BATCH, 1, (int)cols, 1, 0);
}

static double gbps(double bytes, const wb_bench_row *r) { return bytes / (r->t.median * 1e-3) / 1e9; }

static void print_traffic(const sx_ctx *c, const wb_bench_row *r, int v, double copy)
{
    double b = model_bytes_per_score(v, c->cols, c->causal);
    if (r->invalid) return;
    printf("    traffic, %s on %d x %d x %d: %g B/score -> %.0f GB/s, %.3f of COPY (%.0f GB/s)\n", VARIANT_NAMES[v],
           c->batch, c->rows, c->cols, b, gbps(b * (double)c->n, r), gbps(b * (double)c->n, r) / copy, copy);
}

/* w36.smx-speed: the fused kernel on the prefill shape, its 8 bytes a score
 * against a copy of the scores (the ceiling); the given chain is printed
 * beside it, in GB/s of its own 24 bytes a score. */
static double bench_smx(wb_headline *h)
{
    sx_ctx c = prefill_ctx(1);
    double copy = wb_yard_copy_gbps(c.n * 4);
    wb_bench_row u = { .exercise = "smx", .variant = "given: scale, mask, softmax", .unit = "GB/s", .yard_name = "COPY",
                       .yard = copy };
    sx_time(&c, FUS_UNFUSED, 0, 0, &u);
    wb_bench_emit(&u);
    wb_bench_row f = { .exercise = "smx", .variant = "yours: one kernel", .unit = "GB/s", .yard_name = "COPY",
                       .yard = copy };
    sx_time(&c, FUS_FUSED, 1, 0, &f);
    if (!u.invalid && !f.invalid)
        printf("    yours against the given chain: %.2fx the scores a second\n", u.t.median / f.t.median);
    double ratio = wb_bench_headline(&f, h);
    print_traffic(&c, &u, FUS_UNFUSED, copy);
    print_traffic(&c, &f, FUS_FUSED, copy);
    printf("    the bytes allow %.2fx (24 against 8 bytes a score)\n",
           model_bytes_per_score(FUS_UNFUSED, c.cols, 1) / model_bytes_per_score(FUS_FUSED, c.cols, 1));
    sx_free(&c);
    return ratio;
}

/* w36.split-speed: the split version on the decode shape, GB/s at its 12
 * bytes a score against a copy of the same 400 MiB. */
static double bench_split(wb_headline *h)
{
    sx_ctx c = decode_ctx();
    double copy = wb_yard_copy_gbps(c.n * 4);
    wb_bench_row r = { .exercise = "split", .variant = "yours: stats, then normalise", .unit = "GB/s", .yard_name = "COPY",
                       .yard = copy };
    sx_time(&c, FUS_SPLIT, 1, 0, &r);
    double ratio = wb_bench_headline(&r, h);
    sx_free(&c);
    return ratio;
}

/* w36.model: your traffic_variant_bytes over the measured times. For each variant that
 * can use the whole machine, the modelled GB/s (your bytes / time) is set
 * beside the copy of the same buffer size; a right model of a bandwidth-bound
 * kernel lands near 1. The figure is the lowest of the four; one above
 * FIT_HIGH x COPY means the model counts bytes the kernel cannot have moved,
 * and the row gets no figure. */
static double bench_model(wb_headline *h)
{
    sx_ctx pf = prefill_ctx(1), dc = decode_ctx();
    double copy_pf = wb_yard_copy_gbps(pf.n * 4), copy_dc = wb_yard_copy_gbps(dc.n * 4);
    struct { sx_ctx *c; int v; const char *name; double copy; } run[4] = {
        { &pf, FUS_UNFUSED, "unfused, prefill", copy_pf }, { &pf, FUS_FUSED, "fused, prefill", copy_pf },
        { &pf, FUS_SPLIT, "split, prefill", copy_pf },     { &dc, FUS_SPLIT, "split, decode", copy_dc },
    };
    wb_bench_row head = { .exercise = "traffic", .variant = "lowest modelled GB/s of the four", .unit = "GB/s",
                          .yard_name = "COPY", .yard = copy_pf };
    double lowest = INFINITY;
    char bad[200] = "";
    double fits[4], times[4];
    for (int k = 0; k < 4; k++) {
        sx_ctx *c = run[k].c;
        wb_bench_row r = { .exercise = "traffic", .variant = run[k].name, .unit = "GB/s", .yard_name = "COPY",
                           .yard = run[k].copy };
        sx_time(c, run[k].v, run[k].v != FUS_UNFUSED, 0, &r);
        double yours = traffic_variant_bytes(run[k].v, c->batch, c->rows, c->cols, c->causal);
        r.bytes = yours; /* the row's GB/s: your bytes over the time */
        if (!r.invalid) r.value = gbps(yours, &r);
        wb_bench_emit(&r);
        double fit = fits[k] = r.value / run[k].copy;
        times[k] = r.t.median;
        if (bad[0]) continue;
        if (r.invalid) snprintf(bad, sizeof bad, "%s: %s", run[k].name, r.why);
        else if (!(yours > 0)) snprintf(bad, sizeof bad, "%s: traffic_variant_bytes says %g bytes", run[k].name, yours);
        else if (isnan(fit)) snprintf(bad, sizeof bad, "%s: no valid time", run[k].name);
        else if (fit > FIT_HIGH)
            snprintf(bad, sizeof bad, "%s: your model gives %.0f GB/s, %.2f x COPY: more bytes than the kernel can have moved",
                     run[k].name, r.value, fit);
        else if (fit < lowest) {
            lowest = fit;
            head.value = r.value, head.yard = run[k].copy, head.t = r.t, head.n = c->n, head.bytes = yours;
        }
    }
    printf("    %-18s %12s %12s %10s %8s\n", "variant", "your B/score", "model B/sc.", "ms", "/ COPY");
    for (int k = 0; k < 4; k++) {
        const sx_ctx *c = run[k].c;
        double yours = traffic_variant_bytes(run[k].v, c->batch, c->rows, c->cols, c->causal);
        printf("    %-18s %12.4g %12.4g %10.4f %8.3f%s\n", run[k].name, yours / (double)c->n,
               model_bytes_per_score(run[k].v, c->cols, c->causal), times[k], fits[k],
               isnan(fits[k]) ? "" : fabs(fits[k] - 1) <= 0.10 ? "  within 10 %" : "");
    }
    if (bad[0]) wb_bench_invalid(&head, bad);
    sx_free(&pf), sx_free(&dc);
    return wb_bench_headline(&head, h);
}

/* w36.hurts: fused against split on both shapes, reported. */
static char hurts_figure[320];
static char hurts_detail[600]; /* the last row's detail (wb_bench_detail), for the test's message */
static double bench_hurts(void)
{
    double ms[2][2] = { { NAN, NAN }, { NAN, NAN } }; /* [prefill, decode][fused, split] */
    int valid = 1;
    for (int sh = 0; sh < 2; sh++) {
        sx_ctx c = sh ? decode_ctx() : prefill_ctx(0);
        double copy = wb_yard_copy_gbps(c.n * 4);
        for (int k = 0; k < 2; k++) {
            int v = k ? FUS_SPLIT : FUS_FUSED;
            char name[64];
            snprintf(name, sizeof name, "%s, %s", k ? "split" : "fused", sh ? "decode" : "prefill");
            wb_bench_row r = { .exercise = "hurts", .variant = name, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
            sx_time(&c, v, 0, 0, &r);
            wb_bench_emit(&r);
            wb_bench_detail(&r, hurts_detail, sizeof hurts_detail);
            print_traffic(&c, &r, v, copy);
            if (r.invalid || isnan(r.t.median)) valid = 0;
            ms[sh][k] = r.t.median;
        }
        if (sh)
            snprintf(hurts_figure, sizeof hurts_figure,
                     "decode %d x 1 x %d: fused %.3f ms, split %.3f ms (split %.2fx faster where the model says 1.00x); "
                     "prefill %d x %d x %d: fused %.3f ms, split %.3f ms (fused %.2fx faster, the model says 1.50x)",
                     c.batch, c.cols, ms[1][0], ms[1][1], ms[1][0] / ms[1][1], prefill_batch(), PF_ROWS, PF_COLS,
                     ms[0][0], ms[0][1], ms[0][1] / ms[0][0]);
        sx_free(&c);
    }
    return valid ? ms[1][0] / ms[1][1] : NAN;
}

START_TEST(hurts_report)
{
    double r = bench_hurts();
    ck_assert_msg(!isnan(r), "a timed output was wrong: %s", hurts_detail);
    wb_report(hurts_figure);
}
END_TEST

static const wb_test TESTS[] = {
    { "w36.traffic", WB_T(traffic_model), WB_CPU, 0 },
    { "w36.smx", WB_T(smx_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w36.smx", WB_T(smx_offsets), WB_GPU, 8 },
    WB_SPEED("w36.smx-speed", bench_smx),
    { "w36.split", WB_T(split_tmp_size), WB_CPU, 0 },
    { "w36.split", WB_T(split_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w36.split", WB_T(split_offsets), WB_GPU, 8 },
    { "w36.split", WB_T(split_long), WB_GPU, 0 },
    WB_SPEED("w36.split-speed", bench_split),
    WB_SPEED("w36.model", bench_model),
    { "w36.hurts", WB_T(hurts_report), WB_GPU, 0 },
};

/* The report's benchmark; `--bench` also runs every WB_SPEED one. */
static const wb_benchmark BENCHES[] = {
    { "hurts", bench_hurts },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
