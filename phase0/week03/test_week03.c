/* test_week03.c — week 03's checkpoints: the copy ceiling, the FP32 ceiling,
 * and a roofline calculator checked on the CPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "copy.h"
#include "fmachain.h"
#include "roofline.h"
#include "w03_checks.h" /* the checks instructor/judge_w03.c shares */

/* ---------------------------------------------------------------- copy */

/* Copy n elements starting ox into x to a guarded, poisoned output starting
 * oy elements into its allocation; check every element and that nothing was
 * written outside it. */
static void check_copy(wb_rng *rng, size_t n, size_t ox, size_t oy)
{
    float *hx = wb_hmalloc((n + ox) * 4);
    w03_copy_input(rng, hx, n, ox);
    float *dx = wb_dcopy(hx, (n + ox) * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    WB_CUDA(copy_f32(dx ? dx + ox : NULL, dy, n));
    char what[96];
    snprintf(what, sizeof what, "n=%zu, offsets x+%zu y+%zu", n, ox, oy);
    wb_expect_dout_f32(&y, hx + ox, n, 0, 0, what);
    wb_dfree(dx), wb_dout_free(&y);
    free(hx);
}

START_TEST(copy_sizes)
{
    ck_assert_str_eq(__func__, W03_COPY_SIZES_TAG); /* the judge draws these cases by this tag (w03_checks.h) */
    wb_rng rng = WB_RNG();
    check_copy(&rng, W03_SIZES[_i], 0, 0);
}
END_TEST

START_TEST(copy_offsets)
{
    ck_assert_str_eq(__func__, W03_COPY_OFFSETS_TAG);
    wb_rng rng = WB_RNG();
    size_t n, ox, oy;
    w03_copy_offset_case(&rng, _i, &n, &ox, &oy);
    check_copy(&rng, n, ox, oy);
}
END_TEST

/* ---------------------------------------------------------------- fma chains */

static void check_fma(const float *hx, size_t n, int iters, float a, float b, const char *what)
{
    float *ref = wb_hmalloc(n * 4);
    for (size_t i = 0; i < n; i++) ref[i] = w03_fma_replay(hx[i], iters, a, b);
    float *dx = wb_dcopy(hx, n * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    WB_CUDA(fmachain_run(dx, dy, n, iters, a, b));
    char msg[160];
    snprintf(msg, sizeof msg, "%s: n=%zu iters=%d a=%.9g b=%.9g", what, n, iters, a, b);
    wb_expect_dout_f32(&y, ref, n, W03_FMA_ATOL, W03_FMA_RTOL, msg);
    wb_dfree(dx), wb_dout_free(&y);
    free(ref);
}

START_TEST(fma_sizes)
{
    ck_assert_str_eq(__func__, W03_FMA_SIZES_TAG); /* the judge's tag for these cases (w03_checks.h) */
    wb_rng rng = WB_RNG();
    float *hx = wb_hmalloc(W03_SIZES[_i] * 4);
    w03_fma_case c;
    w03_fma_sizes_case(&rng, _i, hx, &c);
    check_fma(hx, c.n, c.iters, c.a, c.b, "random");
    free(hx);
}
END_TEST

/* NaN stays NaN, Inf stays Inf (a > 0), finite values that grow overflow to Inf. */
START_TEST(fma_nonfinite)
{
    ck_assert_str_eq(__func__, W03_FMA_NONFINITE_TAG);
    wb_rng rng = WB_RNG();
    float *hx = wb_hmalloc(w03_fma_nonfinite_n(_i) * 4);
    w03_fma_case c;
    w03_fma_nonfinite_case(&rng, _i, hx, &c);
    check_fma(hx, c.n, c.iters, c.a, c.b, "NaN, Inf and overflow");
    free(hx);
}
END_TEST

/* ---------------------------------------------------------------- roofline (CPU) */

/* The checks are w03_checks.h's, shared with the judge: here on your functions. */
static const w03_rl_ops OPS = { rl_cost_vecadd, rl_cost_saxpy, rl_cost_dot, rl_cost_gemm, rl_cost_stencil5, rl_analyse };

START_TEST(roofline_costs)
{
    char why[400];
    ck_assert_msg(w03_roofline_costs(&OPS, why, sizeof why) == 0, "%s", why);
}
END_TEST

/* The bound of each given kernel on two devices: the same kernel can be
 * memory-bound on one and compute-bound on the other. */
START_TEST(roofline_bounds)
{
    char why[400];
    ck_assert_msg(w03_roofline_bounds(&OPS, why, sizeof why) == 0, "%s", why);
}
END_TEST

START_TEST(roofline_edges)
{
    char why[400];
    ck_assert_msg(w03_roofline_edges(&OPS, why, sizeof why) == 0, "%s", why);
}
END_TEST

/* ---------------------------------------------------------------- benchmarks */

/* Where a measured run sits on this device's roofline, by your rl_analyse. */
static void print_roofline(const char *what, rl_cost c, double ms)
{
    const wb_device *d = wb_this_device();
    rl_point p;
    if (rl_analyse(c, ms, d->peak_gbps, d->peak_fp32_gflops, &p) == 0)
        printf("  roofline: %s: %.3g flops/byte (ridge %.3g), %s-bound, %.2f of the roof (datasheet peaks)\n", what,
               p.intensity, p.ridge, p.bound, p.fraction);
}

typedef struct { const float *x; float *y; size_t n; } copy_ctx;

static void copy_work(void *p)
{
    copy_ctx *c = p;
    WB_CUDA(copy_f32(c->x, c->y, c->n));
}

enum { SEED_COPY = 31, SEED_FMA = 32 };

static double copy_expect(size_t i, const void *ctx)
{
    (void)ctx;
    return wb_hash_uniform_f32(SEED_COPY, i, -1, 1);
}

static double bench_copy(wb_headline *h)
{
    size_t bytes = wb_bench_bytes(), n = bytes / 4;
    copy_ctx c = { wb_dmalloc(bytes), wb_dmalloc(bytes), n };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_COPY, -1, 1);
    wb_dpoison(c.y, bytes);
    double copy = wb_yard_copy_gbps(bytes);
    wb_bench_row r = { .exercise = "copy", .variant = "yours", .n = n, .bytes = 8.0 * n, .flops = 0, .unit = "GB/s",
                       .yard_name = "COPY", .yard = copy };
    wb_time(copy_work, &c, NULL, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("y", c.y, n, copy_expect, NULL, 1 << 16, 0, 0, &cmp)) wb_bench_invalid(&r, cmp.msg);
    double ratio = wb_bench_headline(&r, h);
    if (!r.invalid) print_roofline("copy", (rl_cost){ r.bytes, 0 }, r.t.median);
    wb_dfree((void *)c.x), wb_dfree(c.y);
    return ratio;
}

typedef struct { const float *x; float *y; size_t n; int iters; float a, b; } fma_ctx;

static void fma_work(void *p)
{
    fma_ctx *c = p;
    WB_CUDA(fmachain_run(c->x, c->y, c->n, c->iters, c->a, c->b));
}

static double fma_expect(size_t i, const void *ctx)
{
    const fma_ctx *c = ctx;
    return w03_fma_replay(wb_hash_uniform_f32(SEED_FMA, i, -1, 1), c->iters, c->a, c->b);
}

/* Enough chains for every resident thread 16 times over; 4096 steps each:
 * about 70 GFLOP per run, a millisecond at the peak. The yardstick is the
 * datasheet peak from the device's attributes (2 x lanes x SMs x clock).
 * Sizes and yardstick: w03_checks.h, as the judge takes them. */
static double bench_fmachain(wb_headline *h)
{
    const wb_device *d = wb_this_device();
    size_t n = w03_fma_bench_n(d->sm_count);
    fma_ctx c = { wb_dmalloc(n * 4), wb_dmalloc(n * 4), n, W03_FMA_ITERS, W03_FMA_A, W03_FMA_B };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_FMA, -1, 1);
    wb_dpoison(c.y, n * 4);
    wb_bench_row r = { .exercise = "fmachain", .variant = "yours", .n = n, .bytes = 8.0 * n,
                       .flops = 2.0 * c.iters * (double)n, .unit = "GFLOP/s", .yard_name = "PEAK_FP32",
                       .yard = w03_peak_fp32_gflops() };
    wb_bench_opts o = { 3, 20, 0 }; /* nothing to flush: 8 bytes per 8192 flops */
    wb_time(fma_work, &c, &o, &r.t);
    r.value = r.flops / (r.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("y", c.y, n, fma_expect, &c, 1024, 1e-6, 1e-6, &cmp)) wb_bench_invalid(&r, cmp.msg);
    double ratio = wb_bench_headline(&r, h);
    if (!r.invalid) {
        printf("  fmachain: %.0f MHz would give this figure with every FP32 lane busy every clock (datasheet %d MHz)\n",
               r.value * 1e3 / (2.0 * d->fp32_lanes_per_sm * d->sm_count), d->sm_clock_khz / 1000);
        print_roofline("fmachain", (rl_cost){ r.bytes, r.flops }, r.t.median);
    }
    wb_dfree((void *)c.x), wb_dfree(c.y);
    return ratio;
}

static const wb_test TESTS[] = {
    { "w03.copy", WB_T(copy_sizes), WB_GPU, (int)W03_N_SIZES },
    { "w03.copy", WB_T(copy_offsets), WB_GPU, W03_N_COPY_OFFSET_CASES },
    WB_SPEED("w03.copy-bw", bench_copy),
    { "w03.fma", WB_T(fma_sizes), WB_GPU, (int)W03_N_SIZES },
    { "w03.fma", WB_T(fma_nonfinite), WB_GPU, W03_N_FMA_NONFINITE },
    WB_SPEED("w03.fma-peak", bench_fmachain),
    { "w03.roofline", WB_T(roofline_costs), WB_CPU, 0 },
    { "w03.roofline", WB_T(roofline_bounds), WB_CPU, 0 },
    { "w03.roofline", WB_T(roofline_edges), WB_CPU, 0 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
