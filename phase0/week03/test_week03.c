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

/* Sizes: empty, one, a float4 tail of each length, block edges, large. */
static const size_t SIZES[] = { 0, 1, 2, 3, 4, 5, 7, 255, 256, 1023, 1024, 1025, 4099, 65537, 1000003,
                                ((size_t)1 << 24) + 3 };

/* ---------------------------------------------------------------- copy */

/* Copy n elements starting ox into x to a guarded, poisoned output starting
 * oy elements into its allocation; check every element and that nothing was
 * written outside it. */
static void check_copy(wb_rng *rng, size_t n, size_t ox, size_t oy)
{
    float *hx = wb_hmalloc((n + ox) * 4);
    wb_fill_uniform_f32(rng, hx, n + ox, -100, 100);
    if (n > 2) hx[ox + n / 2] = NAN, hx[ox + n / 3] = INFINITY; /* a copy moves bits, whatever they are */
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
    wb_rng rng = WB_RNG();
    check_copy(&rng, SIZES[_i], 0, 0);
}
END_TEST

START_TEST(copy_offsets)
{
    wb_rng rng = WB_RNG();
    check_copy(&rng, (size_t)wb_rng_int(&rng, 1000, 300000), (size_t)(_i & 3), (size_t)(_i >> 2));
}
END_TEST

/* ---------------------------------------------------------------- fma chains */

static float replay(float v, int iters, float a, float b)
{
    for (int k = 0; k < iters; k++) v = fmaf(v, a, b);
    return v;
}

static void check_fma(const float *hx, size_t n, int iters, float a, float b, const char *what)
{
    float *ref = wb_hmalloc(n * 4);
    for (size_t i = 0; i < n; i++) ref[i] = replay(hx[i], iters, a, b);
    float *dx = wb_dcopy(hx, n * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    WB_CUDA(fmachain_run(dx, dy, n, iters, a, b));
    char msg[160];
    snprintf(msg, sizeof msg, "%s: n=%zu iters=%d a=%.9g b=%.9g", what, n, iters, a, b);
    wb_expect_dout_f32(&y, ref, n, 1e-6, 1e-6, msg);
    wb_dfree(dx), wb_dout_free(&y);
    free(ref);
}

START_TEST(fma_sizes)
{
    wb_rng rng = WB_RNG();
    size_t n = SIZES[_i];
    float *hx = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, hx, n, -2, 2);
    int iters = (int)wb_rng_int(&rng, 0, n > 100000 ? 8 : 64);
    float a = (float)(0.5 + 0.5 * wb_rng_unit(&rng)), b = (float)(2 * wb_rng_unit(&rng) - 1);
    check_fma(hx, n, iters, a, b, "random");
    free(hx);
}
END_TEST

/* NaN stays NaN, Inf stays Inf (a > 0), finite values that grow overflow to Inf. */
START_TEST(fma_nonfinite)
{
    wb_rng rng = WB_RNG();
    size_t n = 5000 + (size_t)_i;
    float *hx = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, hx, n, -1e30f, 1e30f);
    for (size_t i = 0; i < n; i += 7) hx[i] = (i / 7) % 3 == 0 ? NAN : (i / 7) % 3 == 1 ? INFINITY : -INFINITY;
    check_fma(hx, n, 40 + _i, 1.5f + 0.25f * (float)_i, 0.5f, "NaN, Inf and overflow");
    free(hx);
}
END_TEST

/* ---------------------------------------------------------------- roofline (CPU) */

/* Datasheet peaks: an H100 SXM (3352 GB/s, 66.9 TFLOP/s, ridge 20 flops/byte)
 * and an RTX 3060-like part (360 GB/s, 12.7 TFLOP/s, ridge 35). */
#define H100_GBPS 3352.32
#define H100_GFLOPS 66908.16
#define R3060_GBPS 360.048
#define R3060_GFLOPS 12737.536

#define NEAR(got, want) wb_close((got), (want), 0, 1e-12)

START_TEST(roofline_costs)
{
    struct { const char *name; rl_cost got; double bytes, flops; } k[] = {
        { "vecadd(1e6)", rl_cost_vecadd(1000000), 12e6, 1e6 },
        { "vecadd(0)", rl_cost_vecadd(0), 0, 0 },
        { "saxpy(2^28)", rl_cost_saxpy((size_t)1 << 28), 12.0 * 268435456, 2.0 * 268435456 },
        { "dot(1000)", rl_cost_dot(1000), 8000, 2000 },
        { "gemm(4096,4096,4096)", rl_cost_gemm(4096, 4096, 4096), 4.0 * 3 * 4096.0 * 4096, 2.0 * 4096 * 4096.0 * 4096 },
        { "gemm(100,200,300)", rl_cost_gemm(100, 200, 300), 4.0 * (100 * 300 + 300 * 200 + 100 * 200),
          2.0 * 100 * 200 * 300 },
        { "gemm(1,1,1e6)", rl_cost_gemm(1, 1, 1000000), 4.0 * (1e6 + 1e6 + 1), 2e6 },
        { "stencil5(1000,2000)", rl_cost_stencil5(1000, 2000), 4.0 * 1000 * 2000 + 4.0 * 998 * 1998, 5.0 * 998 * 1998 },
        { "stencil5(3,3)", rl_cost_stencil5(3, 3), 4.0 * 9 + 4.0, 5.0 },
        { "stencil5(2,100)", rl_cost_stencil5(2, 100), 800, 0 },
    };
    for (size_t i = 0; i < WB_COUNT(k); i++) {
        ck_assert_msg(NEAR(k[i].got.bytes, k[i].bytes), "%s: bytes %.17g, expected %.17g", k[i].name, k[i].got.bytes,
                      k[i].bytes);
        ck_assert_msg(NEAR(k[i].got.flops, k[i].flops), "%s: flops %.17g, expected %.17g", k[i].name, k[i].got.flops,
                      k[i].flops);
    }
}
END_TEST

/* The bound of each given kernel on two devices: the same kernel can be
 * memory-bound on one and compute-bound on the other. */
START_TEST(roofline_bounds)
{
    struct { const char *name; rl_cost c; double ms; const char *h100, *r3060; } k[] = {
        { "vecadd 2^28", rl_cost_vecadd((size_t)1 << 28), 1.1, "memory", "memory" },
        { "saxpy 2^28", rl_cost_saxpy((size_t)1 << 28), 1.1, "memory", "memory" },
        { "dot 2^28", rl_cost_dot((size_t)1 << 28), 0.75, "memory", "memory" },
        { "stencil5 8192^2", rl_cost_stencil5(8192, 8192), 0.2, "memory", "memory" },
        { "gemm 4096^3", rl_cost_gemm(4096, 4096, 4096), 2.7, "compute", "compute" },
        { "gemm 64^3", rl_cost_gemm(64, 64, 64), 0.01, "memory", "memory" },    /* I = 10.7 */
        { "gemm 128^3", rl_cost_gemm(128, 128, 128), 0.01, "compute", "memory" }, /* I = 21.3: between the ridges */
        { "gemm 256^3", rl_cost_gemm(256, 256, 256), 0.02, "compute", "compute" }, /* I = 42.7 */
        { "gemm 8192x8192x1", rl_cost_gemm(8192, 8192, 1), 0.1, "memory", "memory" }, /* an outer product */
    };
    for (size_t i = 0; i < WB_COUNT(k); i++) {
        for (int d = 0; d < 2; d++) {
            double bw = d ? R3060_GBPS : H100_GBPS, fl = d ? R3060_GFLOPS : H100_GFLOPS;
            const char *want = d ? k[i].r3060 : k[i].h100, *dev = d ? "RTX 3060-like" : "H100";
            rl_point p;
            memset(&p, 0, sizeof p);
            ck_assert_msg(rl_analyse(k[i].c, k[i].ms, bw, fl, &p) == 0, "%s on %s: rl_analyse returned an error",
                          k[i].name, dev);
            double I = k[i].c.flops / k[i].c.bytes, s = k[i].ms * 1e-3;
            ck_assert_msg(p.bound && strcmp(p.bound, want) == 0, "%s on %s (intensity %.3g, ridge %.3g): bound \"%s\", expected \"%s\"",
                          k[i].name, dev, I, fl / bw, p.bound ? p.bound : "(null)", want);
            ck_assert_msg(NEAR(p.intensity, I), "%s: intensity %.17g, expected %.17g", k[i].name, p.intensity, I);
            ck_assert_msg(NEAR(p.ridge, fl / bw), "%s on %s: ridge %.17g, expected %.17g", k[i].name, dev, p.ridge, fl / bw);
            ck_assert_msg(NEAR(p.gbps, k[i].c.bytes / s / 1e9), "%s: GB/s %.17g, expected %.17g", k[i].name, p.gbps,
                          k[i].c.bytes / s / 1e9);
            ck_assert_msg(NEAR(p.gflops, k[i].c.flops / s / 1e9), "%s: GFLOP/s %.17g, expected %.17g", k[i].name,
                          p.gflops, k[i].c.flops / s / 1e9);
            double roof = I * bw < fl ? I * bw : fl;
            ck_assert_msg(NEAR(p.roof_gflops, roof), "%s on %s: roof %.17g GFLOP/s, expected %.17g", k[i].name, dev,
                          p.roof_gflops, roof);
            double frac = strcmp(want, "memory") == 0 ? p.gbps / bw : p.gflops / fl;
            ck_assert_msg(NEAR(p.fraction, frac), "%s on %s: fraction %.17g, expected %.17g", k[i].name, dev,
                          p.fraction, frac);
        }
    }
}
END_TEST

START_TEST(roofline_edges)
{
    rl_point p;
    /* a pure copy: no flops, intensity 0, memory-bound, roof 0 */
    rl_cost copy = { 2e9, 0 };
    ck_assert(rl_analyse(copy, 1.0, H100_GBPS, H100_GFLOPS, &p) == 0);
    ck_assert_msg(p.bound && strcmp(p.bound, "memory") == 0, "no flops: memory-bound");
    ck_assert_msg(p.intensity == 0 && p.roof_gflops == 0, "no flops: intensity %g and roof %g must be 0", p.intensity,
                  p.roof_gflops);
    ck_assert_msg(NEAR(p.gbps, 2000) && NEAR(p.fraction, 2000 / H100_GBPS), "2e9 bytes in 1 ms: %g GB/s, fraction %g",
                  p.gbps, p.fraction);
    /* all in registers: no bytes, infinite intensity, compute-bound at the flat roof */
    rl_cost regs = { 0, 5e10 };
    ck_assert(rl_analyse(regs, 1.0, H100_GBPS, H100_GFLOPS, &p) == 0);
    ck_assert_msg(p.bound && strcmp(p.bound, "compute") == 0, "no bytes: compute-bound");
    ck_assert_msg(isinf(p.intensity) && p.intensity > 0, "no bytes: intensity must be +INFINITY, got %g", p.intensity);
    ck_assert_msg(NEAR(p.roof_gflops, H100_GFLOPS), "no bytes: roof %g, expected the peak", p.roof_gflops);
    ck_assert_msg(NEAR(p.fraction, 50000 / H100_GFLOPS), "5e10 flops in 1 ms: fraction %g", p.fraction);
    /* exactly at the ridge: compute */
    rl_cost ridge = { 1e9, 1e9 * (H100_GFLOPS / H100_GBPS) };
    ck_assert(rl_analyse(ridge, 1.0, H100_GBPS, H100_GFLOPS, &p) == 0);
    ck_assert_msg(p.bound && strcmp(p.bound, "compute") == 0, "at the ridge point: \"compute\" (memory only below it)");
    /* unusable arguments: -1, *p untouched */
    struct { rl_cost c; double ms, bw, fl; const char *why; } bad[] = {
        { { 1, 1 }, 0, 1, 1, "ms == 0" },          { { 1, 1 }, -1, 1, 1, "ms < 0" },
        { { 1, 1 }, NAN, 1, 1, "ms NaN" },         { { 1, 1 }, 1, 0, 1, "peak GB/s 0" },
        { { 1, 1 }, 1, 1, -5, "peak GFLOP/s < 0" }, { { -1, 1 }, 1, 1, 1, "bytes < 0" },
        { { 1, NAN }, 1, 1, 1, "flops NaN" },       { { 0, 0 }, 1, 1, 1, "no bytes and no flops" },
    };
    for (size_t i = 0; i < WB_COUNT(bad); i++) {
        memset(&p, 0x5A, sizeof p);
        rl_point before = p;
        ck_assert_msg(rl_analyse(bad[i].c, bad[i].ms, bad[i].bw, bad[i].fl, &p) == -1, "%s: must return -1", bad[i].why);
        ck_assert_msg(memcmp(&p, &before, sizeof p) == 0, "%s: *p must be left alone", bad[i].why);
    }
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
    return replay(wb_hash_uniform_f32(SEED_FMA, i, -1, 1), c->iters, c->a, c->b);
}

/* Enough chains for every resident thread 16 times over; 4096 steps each:
 * about 70 GFLOP per run, a millisecond at the peak. The yardstick is the
 * datasheet peak from the device's attributes (2 x lanes x SMs x clock). */
static double bench_fmachain(wb_headline *h)
{
    const wb_device *d = wb_this_device();
    size_t n = (size_t)d->sm_count * 2048 * 16;
    fma_ctx c = { wb_dmalloc(n * 4), wb_dmalloc(n * 4), n, 4096, 0.9999f, 1e-4f };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_FMA, -1, 1);
    wb_dpoison(c.y, n * 4);
    wb_bench_row r = { .exercise = "fmachain", .variant = "yours", .n = n, .bytes = 8.0 * n,
                       .flops = 2.0 * c.iters * (double)n, .unit = "GFLOP/s", .yard_name = "PEAK_FP32",
                       .yard = d->peak_fp32_gflops };
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
    { "w03.copy", WB_T(copy_sizes), WB_GPU, WB_COUNT(SIZES) },
    { "w03.copy", WB_T(copy_offsets), WB_GPU, 16 },
    WB_SPEED("w03.copy-bw", bench_copy),
    { "w03.fma", WB_T(fma_sizes), WB_GPU, WB_COUNT(SIZES) },
    { "w03.fma", WB_T(fma_nonfinite), WB_GPU, 3 },
    WB_SPEED("w03.fma-peak", bench_fmachain),
    { "w03.roofline", WB_T(roofline_costs), WB_CPU, 0 },
    { "w03.roofline", WB_T(roofline_bounds), WB_CPU, 0 },
    { "w03.roofline", WB_T(roofline_edges), WB_CPU, 0 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
