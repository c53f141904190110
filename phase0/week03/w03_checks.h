/* w03_checks.h — what week 03's checks expect, shared by the week's test
 * program (test_week03.c) and the instructor's judge (instructor/judge_w03.c,
 * which runs the student's code in a separate runner): the sizes, how each
 * case is drawn from its generator, the FMA replay and its tolerance, the
 * benchmarks' sizes and the PEAK_FP32 yardstick, and the roofline checks
 * themselves (over a table of the five cost functions and rl_analyse, so
 * the judge can pass ones that call the runner). Change a check here and
 * both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below; the
 * test asserts it). The judge draws case i from wb_rng_for_seed(seed, TAG, i)
 * through the same functions, so for a seed it gets the test's cases, sizes
 * and inputs alike. */
#ifndef W03_CHECKS_H
#define W03_CHECKS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "roofline.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_rand.h"

/* Sizes: empty, one, a float4 tail of each length, block edges, large. */
static const size_t W03_SIZES[] = { 0, 1, 2, 3, 4, 5, 7, 255, 256, 1023, 1024, 1025, 4099, 65537, 1000003,
                                    ((size_t)1 << 24) + 3 };
#define W03_N_SIZES (sizeof W03_SIZES / sizeof W03_SIZES[0])

/* ---------------------------------------------------------------- copy */

#define W03_COPY_SIZES_TAG      "copy_sizes_fn"
#define W03_COPY_OFFSETS_TAG    "copy_offsets_fn"
#define W03_N_COPY_OFFSET_CASES 16

/* A copy case's input: n + ox floats in [-100, 100) from r, a NaN and an
 * Inf planted where n > 2 (a copy moves bits, whatever they are). */
static inline void w03_copy_input(wb_rng *r, float *hx, size_t n, size_t ox)
{
    wb_fill_uniform_f32(r, hx, n + ox, -100, 100);
    if (n > 2) hx[ox + n / 2] = NAN, hx[ox + n / 3] = INFINITY;
}

/* Offset case i: n drawn first (then the input, w03_copy_input, from the
 * same generator); x starts (i & 3) floats in, y (i >> 2). */
static inline void w03_copy_offset_case(wb_rng *r, int i, size_t *n, size_t *ox, size_t *oy)
{
    *n = (size_t)wb_rng_int(r, 1000, 300000);
    *ox = (size_t)(i & 3), *oy = (size_t)(i >> 2);
}

/* ---------------------------------------------------------------- fma chains */

#define W03_FMA_SIZES_TAG     "fma_sizes_fn"
#define W03_FMA_NONFINITE_TAG "fma_nonfinite_fn"
#define W03_N_FMA_NONFINITE   3
#define W03_FMA_ATOL          1e-6
#define W03_FMA_RTOL          1e-6

/* The CPU replay the output is compared with. */
static inline float w03_fma_replay(float v, int iters, float a, float b)
{
    for (int k = 0; k < iters; k++) v = fmaf(v, a, b);
    return v;
}

typedef struct {
    size_t n;
    int    iters;
    float  a, b;
} w03_fma_case;

/* fma_sizes case: n = W03_SIZES[i]; the input (n floats in [-2, 2)) drawn
 * first into hx, then the iteration count, a and b. */
static inline void w03_fma_sizes_case(wb_rng *r, int i, float *hx, w03_fma_case *c)
{
    c->n = W03_SIZES[i];
    wb_fill_uniform_f32(r, hx, c->n, -2, 2);
    c->iters = (int)wb_rng_int(r, 0, c->n > 100000 ? 8 : 64);
    c->a = (float)(0.5 + 0.5 * wb_rng_unit(r)), c->b = (float)(2 * wb_rng_unit(r) - 1);
}

/* fma_nonfinite case i: NaN stays NaN, Inf stays Inf (a > 0), finite values
 * that grow overflow to Inf. n = 5000 + i floats (hx must hold them). */
static inline size_t w03_fma_nonfinite_n(int i) { return 5000 + (size_t)i; }
static inline void w03_fma_nonfinite_case(wb_rng *r, int i, float *hx, w03_fma_case *c)
{
    c->n = w03_fma_nonfinite_n(i);
    wb_fill_uniform_f32(r, hx, c->n, -1e30f, 1e30f);
    for (size_t k = 0; k < c->n; k += 7) hx[k] = (k / 7) % 3 == 0 ? NAN : (k / 7) % 3 == 1 ? INFINITY : -INFINITY;
    c->iters = 40 + i, c->a = 1.5f + 0.25f * (float)i, c->b = 0.5f;
}

/* ---------------------------------------------------------------- benchmarks */

/* fmachain's benchmark: enough chains for every resident thread 16 times
 * over; 4096 steps each, about 70 GFLOP a run on an H100. Inputs in [-1, 1). */
#define W03_FMA_ITERS 4096
#define W03_FMA_A     0.9999f
#define W03_FMA_B     1e-4f
static inline size_t w03_fma_bench_n(int sm_count) { return (size_t)sm_count * 2048 * 16; }

/* PEAK_FP32, the yardstick of w03.fma-peak: the datasheet peak of the
 * current device from its attributes (2 x FP32 lanes x SMs x SM clock,
 * wb_device_query), as the linked test and the judge both take it. */
static inline double w03_peak_fp32_gflops(void) { return wb_this_device()->peak_fp32_gflops; }

/* ---------------------------------------------------------------- roofline (CPU) */

/* The functions under test: the student's own in the test; in the judge,
 * ones that ask the runner to call the student's. */
typedef struct {
    rl_cost (*vecadd)(size_t n);
    rl_cost (*saxpy)(size_t n);
    rl_cost (*dot)(size_t n);
    rl_cost (*gemm)(size_t m, size_t n, size_t k);
    rl_cost (*stencil5)(size_t nx, size_t ny);
    int (*analyse)(rl_cost c, double ms, double peak_gbps, double peak_gflops, rl_point *p);
} w03_rl_ops;

/* Datasheet peaks: an H100 SXM (3352 GB/s, 66.9 TFLOP/s, ridge 20 flops/byte)
 * and an RTX 3060-like part (360 GB/s, 12.7 TFLOP/s, ridge 35). */
#define W03_H100_GBPS    3352.32
#define W03_H100_GFLOPS  66908.16
#define W03_R3060_GBPS   360.048
#define W03_R3060_GFLOPS 12737.536
#define W03_NEAR(got, want) wb_close((got), (want), 0, 1e-12)

/* Each check: 0 when right, else 1 with the first failure in why. */
#define W03_EXPECT(cond, ...)                  \
    do {                                       \
        if (!(cond)) {                         \
            snprintf(why, why_n, __VA_ARGS__); \
            return 1;                          \
        }                                      \
    } while (0)

static inline int w03_roofline_costs(const w03_rl_ops *o, char *why, size_t why_n)
{
    struct { const char *name; rl_cost got; double bytes, flops; } k[] = {
        { "vecadd(1e6)", o->vecadd(1000000), 12e6, 1e6 },
        { "vecadd(0)", o->vecadd(0), 0, 0 },
        { "saxpy(2^28)", o->saxpy((size_t)1 << 28), 12.0 * 268435456, 2.0 * 268435456 },
        { "dot(1000)", o->dot(1000), 8000, 2000 },
        { "gemm(4096,4096,4096)", o->gemm(4096, 4096, 4096), 4.0 * 3 * 4096.0 * 4096, 2.0 * 4096 * 4096.0 * 4096 },
        { "gemm(100,200,300)", o->gemm(100, 200, 300), 4.0 * (100 * 300 + 300 * 200 + 100 * 200), 2.0 * 100 * 200 * 300 },
        { "gemm(1,1,1e6)", o->gemm(1, 1, 1000000), 4.0 * (1e6 + 1e6 + 1), 2e6 },
        { "stencil5(1000,2000)", o->stencil5(1000, 2000), 4.0 * 1000 * 2000 + 4.0 * 998 * 1998, 5.0 * 998 * 1998 },
        { "stencil5(3,3)", o->stencil5(3, 3), 4.0 * 9 + 4.0, 5.0 },
        { "stencil5(2,100)", o->stencil5(2, 100), 800, 0 },
    };
    for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
        W03_EXPECT(W03_NEAR(k[i].got.bytes, k[i].bytes), "%s: bytes %.17g, expected %.17g", k[i].name, k[i].got.bytes,
                   k[i].bytes);
        W03_EXPECT(W03_NEAR(k[i].got.flops, k[i].flops), "%s: flops %.17g, expected %.17g", k[i].name, k[i].got.flops,
                   k[i].flops);
    }
    return 0;
}

/* The bound of each given kernel on two devices: the same kernel can be
 * memory-bound on one and compute-bound on the other. */
static inline int w03_roofline_bounds(const w03_rl_ops *o, char *why, size_t why_n)
{
    struct { const char *name; rl_cost c; double ms; const char *h100, *r3060; } k[] = {
        { "vecadd 2^28", o->vecadd((size_t)1 << 28), 1.1, "memory", "memory" },
        { "saxpy 2^28", o->saxpy((size_t)1 << 28), 1.1, "memory", "memory" },
        { "dot 2^28", o->dot((size_t)1 << 28), 0.75, "memory", "memory" },
        { "stencil5 8192^2", o->stencil5(8192, 8192), 0.2, "memory", "memory" },
        { "gemm 4096^3", o->gemm(4096, 4096, 4096), 2.7, "compute", "compute" },
        { "gemm 64^3", o->gemm(64, 64, 64), 0.01, "memory", "memory" },       /* I = 10.7 */
        { "gemm 128^3", o->gemm(128, 128, 128), 0.01, "compute", "memory" },  /* I = 21.3: between the ridges */
        { "gemm 256^3", o->gemm(256, 256, 256), 0.02, "compute", "compute" }, /* I = 42.7 */
        { "gemm 8192x8192x1", o->gemm(8192, 8192, 1), 0.1, "memory", "memory" }, /* an outer product */
    };
    for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
        for (int d = 0; d < 2; d++) {
            double bw = d ? W03_R3060_GBPS : W03_H100_GBPS, fl = d ? W03_R3060_GFLOPS : W03_H100_GFLOPS;
            const char *want = d ? k[i].r3060 : k[i].h100, *dev = d ? "RTX 3060-like" : "H100";
            rl_point p;
            memset(&p, 0, sizeof p);
            W03_EXPECT(o->analyse(k[i].c, k[i].ms, bw, fl, &p) == 0, "%s on %s: rl_analyse returned an error", k[i].name,
                       dev);
            double I = k[i].c.flops / k[i].c.bytes, s = k[i].ms * 1e-3;
            W03_EXPECT(p.bound && strcmp(p.bound, want) == 0,
                       "%s on %s (intensity %.3g, ridge %.3g): bound \"%s\", expected \"%s\"", k[i].name, dev, I, fl / bw,
                       p.bound ? p.bound : "(null)", want);
            W03_EXPECT(W03_NEAR(p.intensity, I), "%s: intensity %.17g, expected %.17g", k[i].name, p.intensity, I);
            W03_EXPECT(W03_NEAR(p.ridge, fl / bw), "%s on %s: ridge %.17g, expected %.17g", k[i].name, dev, p.ridge,
                       fl / bw);
            W03_EXPECT(W03_NEAR(p.gbps, k[i].c.bytes / s / 1e9), "%s: GB/s %.17g, expected %.17g", k[i].name, p.gbps,
                       k[i].c.bytes / s / 1e9);
            W03_EXPECT(W03_NEAR(p.gflops, k[i].c.flops / s / 1e9), "%s: GFLOP/s %.17g, expected %.17g", k[i].name,
                       p.gflops, k[i].c.flops / s / 1e9);
            double roof = I * bw < fl ? I * bw : fl;
            W03_EXPECT(W03_NEAR(p.roof_gflops, roof), "%s on %s: roof %.17g GFLOP/s, expected %.17g", k[i].name, dev,
                       p.roof_gflops, roof);
            double frac = strcmp(want, "memory") == 0 ? p.gbps / bw : p.gflops / fl;
            W03_EXPECT(W03_NEAR(p.fraction, frac), "%s on %s: fraction %.17g, expected %.17g", k[i].name, dev,
                       p.fraction, frac);
        }
    }
    return 0;
}

static inline int w03_roofline_edges(const w03_rl_ops *o, char *why, size_t why_n)
{
    rl_point p;
    /* a pure copy: no flops, intensity 0, memory-bound, roof 0 */
    rl_cost copy = { 2e9, 0 };
    W03_EXPECT(o->analyse(copy, 1.0, W03_H100_GBPS, W03_H100_GFLOPS, &p) == 0, "no flops: rl_analyse returned an error");
    W03_EXPECT(p.bound && strcmp(p.bound, "memory") == 0, "no flops: memory-bound");
    W03_EXPECT(p.intensity == 0 && p.roof_gflops == 0, "no flops: intensity %g and roof %g must be 0", p.intensity,
               p.roof_gflops);
    W03_EXPECT(W03_NEAR(p.gbps, 2000) && W03_NEAR(p.fraction, 2000 / W03_H100_GBPS),
               "2e9 bytes in 1 ms: %g GB/s, fraction %g", p.gbps, p.fraction);
    /* all in registers: no bytes, infinite intensity, compute-bound at the flat roof */
    rl_cost regs = { 0, 5e10 };
    W03_EXPECT(o->analyse(regs, 1.0, W03_H100_GBPS, W03_H100_GFLOPS, &p) == 0, "no bytes: rl_analyse returned an error");
    W03_EXPECT(p.bound && strcmp(p.bound, "compute") == 0, "no bytes: compute-bound");
    W03_EXPECT(isinf(p.intensity) && p.intensity > 0, "no bytes: intensity must be +INFINITY, got %g", p.intensity);
    W03_EXPECT(W03_NEAR(p.roof_gflops, W03_H100_GFLOPS), "no bytes: roof %g, expected the peak", p.roof_gflops);
    W03_EXPECT(W03_NEAR(p.fraction, 50000 / W03_H100_GFLOPS), "5e10 flops in 1 ms: fraction %g", p.fraction);
    /* exactly at the ridge: compute */
    rl_cost ridge = { 1e9, 1e9 * (W03_H100_GFLOPS / W03_H100_GBPS) };
    W03_EXPECT(o->analyse(ridge, 1.0, W03_H100_GBPS, W03_H100_GFLOPS, &p) == 0,
               "at the ridge point: rl_analyse returned an error");
    W03_EXPECT(p.bound && strcmp(p.bound, "compute") == 0, "at the ridge point: \"compute\" (memory only below it)");
    /* unusable arguments: -1, *p untouched */
    struct { rl_cost c; double ms, bw, fl; const char *why; } bad[] = {
        { { 1, 1 }, 0, 1, 1, "ms == 0" },           { { 1, 1 }, -1, 1, 1, "ms < 0" },
        { { 1, 1 }, NAN, 1, 1, "ms NaN" },          { { 1, 1 }, 1, 0, 1, "peak GB/s 0" },
        { { 1, 1 }, 1, 1, -5, "peak GFLOP/s < 0" }, { { -1, 1 }, 1, 1, 1, "bytes < 0" },
        { { 1, NAN }, 1, 1, 1, "flops NaN" },       { { 0, 0 }, 1, 1, 1, "no bytes and no flops" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        memset(&p, 0x5A, sizeof p);
        rl_point before = p;
        W03_EXPECT(o->analyse(bad[i].c, bad[i].ms, bad[i].bw, bad[i].fl, &p) == -1, "%s: must return -1", bad[i].why);
        W03_EXPECT(memcmp(&p, &before, sizeof p) == 0, "%s: *p must be left alone", bad[i].why);
    }
    return 0;
}
#undef W03_EXPECT

#endif
