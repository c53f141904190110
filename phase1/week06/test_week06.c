/* test_week06.c — week 06's checkpoints: transposes, the strided sweep,
 * registers versus local memory, constant memory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "constmem.h"
#include "localmem.h"
#include "strided.h"
#include "transpose.h"
#include "w06_checks.h" /* the checks instructor/judge_w06.c shares */

/* ---------------------------------------------------------------- transpose */

typedef cudaError_t (*transpose_fn)(const float *, float *, int, int);
static const transpose_fn TFN[3] = { transpose_naive, transpose_tiled, transpose_padded };
static const char *const TNAME[3] = { "transpose_naive", "transpose_tiled", "transpose_padded" };
START_TEST(transpose_shapes)
{
    ck_assert_str_eq(__func__, W06_TRANSPOSE_TAG); /* the judge draws these cases by this tag (w06_checks.h) */
    wb_rng rng = WB_RNG();
    int rows = W06_TR[_i], cols = W06_TC[_i];
    size_t n = (size_t)rows * cols;
    float *hin = wb_hmalloc((n + 1) * 4), *ref = wb_hmalloc(n * 4);
    w06_transpose_case(&rng, rows, cols, hin, ref);
    float *din = wb_dcopy(hin, (n + 1) * 4);
    wb_dout out;
    float *dout = wb_dout_alloc(&out, "out", n * 4, 0);
    for (int v = 0; v < 3; v++) {
        if (v) wb_dout_poison(&out); /* each version writes into a fresh poison */
        WB_CUDA(TFN[v](din, dout, rows, cols));
        char what[96];
        snprintf(what, sizeof what, "%s, %d x %d", TNAME[v], rows, cols);
        wb_expect_dout_f32(&out, ref, n, 0, 0, what);
    }
    wb_dfree(din), wb_dout_free(&out);
    free(hin), free(ref);
}
END_TEST

typedef struct { const float *in; float *out; int rows, cols, which; } tp_ctx;

static void tr_work(void *p)
{
    tp_ctx *c = p;
    WB_CUDA(TFN[c->which](c->in, c->out, c->rows, c->cols));
}

enum { SEED_T = 61, SEED_S = 62, SEED_M = 63 };

static double tr_expect(size_t i, const void *ctx)
{
    const tp_ctx *c = ctx;
    size_t r = i % (size_t)c->rows, col = i / (size_t)c->rows; /* out[col][r] = in[r][col] */
    return wb_hash_uniform_f32(SEED_T, r * (size_t)c->cols + col, -1, 1);
}

/* Three rows (the ladder); the padded version's row is the headline. */
static double bench_transpose(wb_headline *h)
{
    size_t bytes = wb_bench_bytes();
    int side = ((int)sqrt((double)(bytes / 4)) / 32) * 32;
    size_t n = (size_t)side * side;
    tp_ctx c = { wb_dmalloc(n * 4), wb_dmalloc(n * 4), side, side, 0 };
    wb_dfill_uniform_f32((float *)c.in, n, SEED_T, -1, 1);
    double copy = wb_yard_copy_gbps(n * 4), ratio = NAN;
    static const char *const VAR[3] = { "naive", "shared tile", "shared tile, padded" };
    for (int v = 0; v < 3; v++) {
        c.which = v;
        wb_dpoison(c.out, n * 4);
        wb_bench_row r = { .exercise = "transpose", .variant = VAR[v], .n = n, .bytes = 8.0 * n, .unit = "GB/s",
                           .yard_name = "COPY", .yard = copy };
        wb_time(tr_work, &c, NULL, &r.t);
        r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
        wb_cmp cmp;
        if (wb_dverify_f32("out", c.out, n, tr_expect, &c, 1 << 14, 0, 0, &cmp)) wb_bench_invalid(&r, cmp.msg);
        if (v == 2) ratio = wb_bench_headline(&r, h);
        else wb_bench_emit(&r);
    }
    wb_dfree((void *)c.in), wb_dfree(c.out);
    return ratio;
}

/* ---------------------------------------------------------------- strided */

START_TEST(strided_correct)
{
    ck_assert_str_eq(__func__, W06_STRIDED_TAG);
    wb_rng rng = WB_RNG();
    int s = W06_STRIDES_CORRECT[_i];
    size_t R, n = w06_strided_n(&rng, _i, &R);
    float *hin = wb_hmalloc(n * 4), *ref = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, hin, n, -1, 1);
    w06_strided_ref(hin, ref, n, R, s);
    float *din = wb_dcopy(hin, n * 4);
    wb_dout out;
    float *dout = wb_dout_alloc(&out, "out", n * 4, 0);
    WB_CUDA(strided_copy(din, dout, n, s));
    char what[64];
    snprintf(what, sizeof what, "n=%zu, s=%d", n, s);
    wb_expect_dout_f32(&out, ref, n, 0, 0, what);
    ck_assert_msg(strided_copy(din, dout, 7, 2) == cudaErrorInvalidValue, "n %% s != 0 must return cudaErrorInvalidValue");
    ck_assert_msg(strided_copy(din, dout, n, 0) == cudaErrorInvalidValue, "s = 0 must return cudaErrorInvalidValue");
    wb_dfree(din), wb_dout_free(&out);
    free(hin), free(ref);
}
END_TEST

typedef struct { const float *in; float *out; size_t n, R; int s; } st_ctx;

static void st_work(void *p)
{
    st_ctx *c = p;
    WB_CUDA(strided_copy(c->in, c->out, c->n, c->s));
}

static double st_expect(size_t i, const void *ctx)
{
    const st_ctx *c = ctx;
    return wb_hash_uniform_f32(SEED_S, (i % c->R) * (size_t)c->s + i / c->R, -1, 1);
}

/* The strides of the sweep: one benchmark row each (the CSV of make
 * phase1/week06 bench), and one point each of strided.csv and its plot
 * (w06_checks.h's W06_SWEEP). */
#define STRIDES W06_SWEEP

typedef struct {
    double copy;                      /* COPY GB/s, same buffer size, same run */
    double gbps[WB_COUNT(STRIDES)];   /* useful GB/s (8 bytes an element); NaN when the output was wrong */
    int valid;                        /* strides with a verified output */
} st_sweep;

static void run_stride_sweep(st_sweep *sw)
{
    size_t n = w06_sweep_n(wb_bench_bytes());
    st_ctx c = { wb_dmalloc(n * 4), wb_dmalloc(n * 4), n, 0, 1 };
    wb_dfill_uniform_f32((float *)c.in, n, SEED_S, -1, 1);
    sw->copy = wb_yard_copy_gbps(n * 4);
    sw->valid = 0;
    wb_bench_opts o = { 1, 10, 1 };
    for (size_t j = 0; j < WB_COUNT(STRIDES); j++) {
        char var[32];
        snprintf(var, sizeof var, "stride=%d", STRIDES[j]);
        c.s = STRIDES[j], c.R = n / (size_t)c.s;
        wb_dpoison(c.out, n * 4);
        wb_bench_row r = { .exercise = "strided", .variant = var, .n = n, .bytes = 8.0 * n, .unit = "GB/s",
                           .yard_name = "COPY", .yard = sw->copy };
        wb_time(st_work, &c, &o, &r.t);
        r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
        wb_cmp cmp;
        if (wb_dverify_f32("out", c.out, n, st_expect, &c, 1 << 12, 0, 0, &cmp)) wb_bench_invalid(&r, cmp.msg);
        else sw->valid++;
        wb_bench_emit(&r);
        sw->gbps[j] = r.invalid ? NAN : r.value;
    }
    wb_dfree((void *)c.in), wb_dfree(c.out);
}

/* The README's model of the sweep: the written side is contiguous (4 bytes
 * an element); the read side moves `a` bytes of DRAM for each useful byte.
 * A granule of g bytes fetched from DRAM holds g / 4s useful floats while
 * s < g / 4, and one when s >= g / 4: a = min(s, g / 4). Useful GB/s
 * = 8 bytes / (4 a + 4 bytes moved) x copy = 2 copy / (1 + a). */
static double stride_model_gbps(double copy, int s, double granule)
{
    double a = s < granule / 4 ? s : granule / 4;
    return 2 * copy / (1 + a);
}

/* Writes the sweep to `csv` with the model's two granules beside it:
 * 1 when written. */
static int write_stride_csv(const st_sweep *sw, const char *csv)
{
    FILE *f = fopen(csv, "w");
    if (!f) {
        printf("  cannot write %s\n", csv);
        return 0;
    }
    fprintf(f, "stride,gbps,ratio_copy,copy_gbps,model_32B_gbps,model_64B_gbps\n");
    for (size_t j = 0; j < WB_COUNT(STRIDES); j++)
        fprintf(f, "%d,%.6g,%.4f,%.6g,%.6g,%.6g\n", STRIDES[j], sw->gbps[j], sw->gbps[j] / sw->copy, sw->copy,
                stride_model_gbps(sw->copy, STRIDES[j], 32), stride_model_gbps(sw->copy, STRIDES[j], 64));
    return fclose(f) == 0;
}

/* build/<week>/strided.{csv,png} and the week's strided.gp; 0 when the
 * folder cannot be made. */
static int stride_paths(char *csv, char *png, char *gp, size_t size)
{
    const char *wk = getenv("WB_WEEK_DIR");
    if (!wk || !*wk) wk = "phase1/week06";
    char cmd[400];
    snprintf(cmd, sizeof cmd, "mkdir -p 'build/%s'", wk);
    snprintf(csv, size, "build/%s/strided.csv", wk);
    snprintf(png, size, "build/%s/strided.png", wk);
    snprintf(gp, size, "%s/strided.gp", wk);
    return system(cmd) == 0;
}

/* `make phase1/week06 bench NAME=strided`: the rows, the CSV and, with
 * gnuplot, the plot. Returns the fraction of strides with a valid output. */
static double bench_strided(void)
{
    st_sweep sw;
    run_stride_sweep(&sw);
    char csv[300], png[300], gp[300];
    if (stride_paths(csv, png, gp, sizeof csv) && write_stride_csv(&sw, csv)) {
        printf("  sweep: %s\n", csv);
        remove(png); /* an old plot must not pass for this sweep */
        if (sw.valid == (int)WB_COUNT(STRIDES)) wb_gnuplot(gp, csv, png);
    }
    return (double)sw.valid / WB_COUNT(STRIDES);
}

START_TEST(strided_sweep)
{
    st_sweep sw;
    run_stride_sweep(&sw);
    ck_assert_msg(sw.valid == (int)WB_COUNT(STRIDES), "%d of %d strides of the sweep had a wrong output",
                  (int)WB_COUNT(STRIDES) - sw.valid, (int)WB_COUNT(STRIDES));
}
END_TEST

/* The plot: every stride verified, the CSV written, the PNG drawn afresh
 * (an old one is removed first, so only this run's drawing passes). */
START_TEST(strided_plot)
{
    st_sweep sw;
    run_stride_sweep(&sw);
    ck_assert_msg(sw.valid == (int)WB_COUNT(STRIDES), "%d of %d strides of the sweep had a wrong output",
                  (int)WB_COUNT(STRIDES) - sw.valid, (int)WB_COUNT(STRIDES));
    char csv[300], png[300], gp[300];
    ck_assert_msg(stride_paths(csv, png, gp, sizeof csv), "cannot make the folder of %s", csv);
    ck_assert_msg(write_stride_csv(&sw, csv), "cannot write %s", csv);
    remove(png);
    int drawn = wb_gnuplot(gp, csv, png);
    if (drawn == 0) wb_skip_test_no_gnuplot(csv);
    ck_assert_msg(drawn > 0 && wb_png_ok(png), "the sweep was measured but %s was not drawn", png);
    char fig[160];
    size_t last = WB_COUNT(STRIDES) - 1; /* s = 64 */
    snprintf(fig, sizeof fig, "s = %d: %.0f GB/s against the 64 B model's %.0f; %s", STRIDES[last], sw.gbps[last],
             stride_model_gbps(sw.copy, STRIDES[last], 64), png);
    wb_report(fig);
}
END_TEST

/* ---------------------------------------------------------------- spill */

START_TEST(median9_correct)
{
    ck_assert_str_eq(__func__, W06_MEDIAN_TAG);
    wb_rng rng = WB_RNG();
    size_t n = W06_MEDIAN_N[_i];
    float *hin = wb_hmalloc((n + 1) * 4), *ref = wb_hmalloc(n * 4);
    w06_median_case(&rng, n, hin, ref);
    float *din = wb_dcopy(hin, (n + 1) * 4);
    wb_dout out;
    float *dout = wb_dout_alloc(&out, "out", n * 4, 0);
    cudaError_t (*fn[2])(const float *, float *, size_t) = { localmem_median9_local, localmem_median9_regs };
    for (int v = 0; v < 2; v++) {
        if (v) wb_dout_poison(&out); /* each version writes into a fresh poison */
        WB_CUDA(fn[v](din, dout, n));
        char what[64];
        snprintf(what, sizeof what, "%s, n=%zu", v ? "localmem_median9_regs" : "localmem_median9_local", n);
        wb_expect_dout_f32(&out, ref, n, 0, 0, what);
    }
    wb_dfree(din), wb_dout_free(&out);
    free(hin), free(ref);
}
END_TEST

START_TEST(median9_no_local_memory)
{
    int lb0 = -1, r0 = -1, lb1 = -1, r1 = -1;
    WB_CUDA(localmem_median9_attrs(0, &lb0, &r0));
    WB_CUDA(localmem_median9_attrs(1, &lb1, &r1));
    printf("  localmem_median9_local: %d bytes local memory, %d registers; localmem_median9_regs: %d bytes, %d "
           "registers\n", lb0, r0, lb1, r1);
    ck_assert_msg(lb1 == 0,
                  "localmem_median9_regs uses %d bytes of local memory per thread: some index into the window is not a "
                  "compile-time constant", lb1);
}
END_TEST

typedef struct { const float *in; float *out; size_t n; int which; } md_ctx;

static void md_work(void *p)
{
    md_ctx *c = p;
    WB_CUDA(c->which ? localmem_median9_regs(c->in, c->out, c->n) : localmem_median9_local(c->in, c->out, c->n));
}

static double md_expect(size_t i, const void *ctx)
{
    const md_ctx *c = ctx;
    float a[9];
    for (int k = 0; k < 9; k++) a[k] = wb_hash_uniform_f32(SEED_M, w06_median9_at(c->n, i, k), -1, 1);
    return w06_median9_of(a);
}

static double bench_median9(void)
{
    size_t bytes = wb_bench_bytes(), n = bytes / 4;
    md_ctx c = { wb_dmalloc(bytes), wb_dmalloc(bytes), n, 0 };
    wb_dfill_uniform_f32((float *)c.in, n, SEED_M, -1, 1);
    double copy = wb_yard_copy_gbps(bytes), ratio = NAN;
    for (int v = 0; v < 2; v++) {
        c.which = v;
        wb_dpoison(c.out, bytes);
        wb_bench_row r = { .exercise = "median9", .variant = v ? "window in registers" : "window in local memory",
                           .n = n, .bytes = 8.0 * n, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
        wb_time(md_work, &c, NULL, &r.t);
        r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
        wb_cmp cmp;
        if (wb_dverify_f32("out", c.out, n, md_expect, &c, 1 << 12, 0, 0, &cmp)) wb_bench_invalid(&r, cmp.msg);
        wb_bench_emit(&r);
        ratio = wb_bench_ratio(&r);
    }
    wb_dfree((void *)c.in), wb_dfree(c.out);
    return ratio;
}

/* ---------------------------------------------------------------- constant memory */

START_TEST(poly_correct)
{
    ck_assert_str_eq(__func__, W06_POLY_TAG);
    wb_rng rng = WB_RNG();
    int m = W06_POLY_M[_i];
    size_t n = W06_POLY_N[_i];
    float coef[POLY_MAX], x_host_coef[POLY_MAX];
    float *hx = wb_hmalloc((n + 1) * 4);
    double *ref = wb_hmalloc(n * 8);
    w06_poly_case(&rng, n, coef, hx);
    memcpy(x_host_coef, coef, sizeof coef);
    float *dx = wb_dcopy(hx, (n + 1) * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    double atol = w06_poly_atol(coef, m);
    for (int round = 0; round < 2; round++) {
        WB_CUDA(constmem_poly_set(x_host_coef, m));
        for (int k = 0; k < POLY_MAX; k++) x_host_coef[k] = NAN; /* the copy must already be made */
        w06_poly_ref(coef, m, hx, ref, n);
        if (round) wb_dout_poison(&y); /* the second set writes into a fresh poison */
        WB_CUDA(constmem_poly_eval(dx, dy, n));
        char what[64];
        snprintf(what, sizeof what, "%d coefficients, n=%zu, set %d", m, n, round + 1);
        wb_expect_dout_f32_f64(&y, ref, n, atol, W06_POLY_RTOL, what);
        /* second round: new coefficients, reversed */
        w06_poly_reverse(coef, m);
        memcpy(x_host_coef, coef, (size_t)m * 4);
    }
    ck_assert_msg(constmem_poly_set(coef, 0) == cudaErrorInvalidValue &&
                      constmem_poly_set(coef, POLY_MAX + 1) == cudaErrorInvalidValue,
                  "constmem_poly_set must refuse 0 and more than POLY_MAX coefficients");
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref);
}
END_TEST

static const wb_test TESTS[] = {
    { "w06.transpose", WB_T(transpose_shapes), WB_GPU, W06_N_SHAPES },
    WB_SPEED("w06.transpose-bw", bench_transpose),
    { "w06.strided", WB_T(strided_correct), WB_GPU, W06_N_STRIDED },
    { "w06.strided", WB_T(strided_sweep), WB_GPU, 0 },
    { "w06.strided-plot", WB_T(strided_plot), WB_GPU, 0 },
    { "w06.localmem", WB_T(median9_correct), WB_GPU, W06_N_MEDIAN },
    { "w06.localmem", WB_T(median9_no_local_memory), WB_GPU, 0 },
    { "w06.const", WB_T(poly_correct), WB_GPU, W06_N_POLY },
};

/* Benchmarks that serve no checkpoint; `--bench` also runs every WB_SPEED one. */
static const wb_benchmark BENCHES[] = {
    { "strided", bench_strided },
    { "median9", bench_median9 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
