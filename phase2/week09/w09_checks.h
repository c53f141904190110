/* w09_checks.h — what week 09's checks expect, shared by the week's test
 * program (test_week09.c) and the instructor's judge (instructor/judge_w09.c,
 * which runs the student's code in a separate runner): the intensity checks
 * (over a table of the student's functions, so the judge can pass ones that
 * call the runner), the sweep's sizes and how each case is drawn, the CPU
 * replay and its tolerance, the roof's k values and the roof itself, and the
 * FMA peak as both take it. Change a check here and both follow.
 *
 * The generator: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (W09_SWEEP_SIZES_TAG;
 * the test asserts it). The judge draws case i from wb_rng_for_seed(seed,
 * TAG, i) through the same function, so for a seed it gets the test's
 * cases, sizes and inputs alike. */
#ifndef W09_CHECKS_H
#define W09_CHECKS_H

#include <math.h>
#include <stdio.h>

#include "support/yard_fmapeak.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_rand.h"

/* ---------------------------------------------------------------- intensity (CPU) */

/* The functions under test: the student's own in the test; in the judge,
 * ones that ask the runner to call the student's. */
typedef struct {
    double (*of)(double flops, double bytes);
    double (*vecadd)(void);
    double (*saxpy)(void);
    double (*dot)(void);
    double (*stencil5)(void);
    double (*gemm)(double m, double n, double k, double elem_bytes);
    double (*roof_gflops)(double ai, double gbps, double peak_gflops);
    double (*ridge)(double gbps, double peak_gflops);
    int (*memory_bound)(double ai, double gbps, double peak_gflops);
} w09_intensity_ops;

/* Each check: 0 when right, else 1 with the first failure in why. */
#define W09_EXPECT(cond, ...)                  \
    do {                                       \
        if (!(cond)) {                         \
            snprintf(why, why_n, __VA_ARGS__); \
            return 1;                          \
        }                                      \
    } while (0)
#define W09_NEAR(name, got, want)                                                                                   \
    do {                                                                                                            \
        double g_ = (got), w_ = (want);                                                                             \
        W09_EXPECT(wb_close(g_, w_, 1e-12, 1e-9), "%s = %.9g, expected %.9g", name, g_, w_);                        \
    } while (0)
#define W09_INT(name, got, want)                                                                                    \
    do {                                                                                                            \
        int g_ = (got), w_ = (want);                                                                                \
        W09_EXPECT(g_ == w_, "%s = %d, expected %d", name, g_, w_);                                                 \
    } while (0)

static inline int w09_intensity_given(const w09_intensity_ops *o, char *why, size_t why_n)
{
    W09_NEAR("intensity_of(10, 4)", o->of(10, 4), 2.5);
    W09_EXPECT(isnan(o->of(10, 0)), "intensity_of(10, 0) must be NaN (no bytes moved)");
    W09_NEAR("intensity_vecadd()", o->vecadd(), 1.0 / 12);
    W09_NEAR("intensity_saxpy()", o->saxpy(), 2.0 / 12);
    W09_NEAR("intensity_dot()", o->dot(), 0.25);
    W09_NEAR("intensity_stencil5()", o->stencil5(), 9.0 / 8);
    /* square FP32 GEMM: 2 n^3 / (3 n^2 * 4) = n / 6 */
    W09_NEAR("intensity_gemm(4096, 4096, 4096, 4)", o->gemm(4096, 4096, 4096, 4), 4096.0 / 6);
    /* a skinny one: matrix-vector is 2 flops per 4-byte weight, about 0.5 */
    W09_NEAR("intensity_gemm(8192, 1, 8192, 4)", o->gemm(8192, 1, 8192, 4),
             2.0 * 8192 * 8192 / ((8192.0 * 8192 + 8192 + 8192) * 4));
    W09_NEAR("intensity_gemm(128, 256, 512, 2)", o->gemm(128, 256, 512, 2),
             2.0 * 128 * 256 * 512 / ((128.0 * 512 + 512 * 256 + 128 * 256) * 2));
    return 0;
}

static inline int w09_intensity_roof(const w09_intensity_ops *o, char *why, size_t why_n)
{
    /* an H100-like device: 3000 GB/s, 60000 GFLOP/s -> ridge at 20 flop/byte */
    W09_NEAR("intensity_ridge(3000, 60000)", o->ridge(3000, 60000), 20);
    W09_NEAR("intensity_roof_gflops(0.25, 3000, 60000)", o->roof_gflops(0.25, 3000, 60000), 750);
    W09_NEAR("intensity_roof_gflops(20, 3000, 60000)", o->roof_gflops(20, 3000, 60000), 60000);
    W09_NEAR("intensity_roof_gflops(256, 3000, 60000)", o->roof_gflops(256, 3000, 60000), 60000);
    W09_NEAR("intensity_roof_gflops(19.5, 3000, 60000)", o->roof_gflops(19.5, 3000, 60000), 58500);
    /* a smaller part with a different ridge */
    W09_NEAR("intensity_ridge(360, 12737.536)", o->ridge(360, 12737.536), 12737.536 / 360);
    W09_INT("intensity_memory_bound(intensity_vecadd(), 3000, 60000)", o->memory_bound(o->vecadd(), 3000, 60000), 1);
    W09_INT("intensity_memory_bound(intensity_stencil5(), 3000, 60000)", o->memory_bound(o->stencil5(), 3000, 60000),
            1);
    W09_INT("intensity_memory_bound(intensity_gemm(4096, 4096, 4096, 4), 3000, 60000)",
            o->memory_bound(o->gemm(4096, 4096, 4096, 4), 3000, 60000), 0);
    W09_INT("intensity_memory_bound(20, 3000, 60000)", o->memory_bound(20, 3000, 60000), 0);
    W09_INT("intensity_memory_bound(intensity_gemm(8192, 1, 8192, 4), 3000, 60000)",
            o->memory_bound(o->gemm(8192, 1, 8192, 4), 3000, 60000), 1);
    W09_INT("intensity_memory_bound(8, 360, 12737.536)", o->memory_bound(8, 360, 12737.536), 1);
    W09_INT("intensity_memory_bound(40, 360, 12737.536)", o->memory_bound(40, 360, 12737.536), 0);
    return 0;
}
#undef W09_INT
#undef W09_NEAR
#undef W09_EXPECT

/* ---------------------------------------------------------------- sweep correctness */

static const size_t W09_SIZES[] = { 0, 1, 3, 4, 5, 255, 256, 257, 1023, 4097, 65537, 1000003, (size_t)1 << 22 };
static const int    W09_KS[] = { 0, 1, 3, 17, 64 };
#define W09_N_SIZES         (sizeof W09_SIZES / sizeof W09_SIZES[0])
#define W09_N_KS            (sizeof W09_KS / sizeof W09_KS[0])
#define W09_N_SWEEP_CASES   (2 * (int)W09_N_SIZES)
#define W09_SWEEP_SIZES_TAG "sweep_sizes_fn"
#define W09_SWEEP_ATOL      1e-6
#define W09_SWEEP_RTOL      1e-5

/* The CPU replay the output is compared with. */
static inline float w09_sweep_ref(float v, int k, float a, float b)
{
    for (int j = 0; j < k; j++) v = fmaf(v, a, b);
    return v;
}

typedef struct {
    size_t n;
    int    k;
    float  a, b;
} w09_sweep_case;

/* Case i: every size with one k each (n = W09_SIZES[i % 13], k =
 * W09_KS[i % 5]); a and b drawn, then the input (n floats in [-10, 10))
 * into hx; odd i put NaN and +-Inf in front, which must propagate as they
 * do through fmaf. */
static inline void w09_sweep_draw(wb_rng *r, int i, float *hx, w09_sweep_case *c)
{
    c->n = W09_SIZES[(size_t)i % W09_N_SIZES];
    c->k = W09_KS[(size_t)i % W09_N_KS];
    c->a = (float)(0.5 + 0.45 * wb_rng_unit(r)), c->b = (float)(wb_rng_unit(r) - 0.5);
    wb_fill_uniform_f32(r, hx, c->n, -10, 10);
    if (c->n >= 3 && (i & 1)) hx[0] = NAN, hx[1] = INFINITY, hx[2] = -INFINITY;
}

/* ---------------------------------------------------------------- the roof */

/* The two speed checkpoints' FMAs per element: intensity k / 4 flop/byte. */
#define W09_K_LOW  1
#define W09_K_HIGH 1024
/* The timed runs' inputs: x in [-1, 1); a and b the test's (the judge draws
 * new ones near them for every request, w09_fresh_ab). */
#define W09_SA 0.9f
#define W09_SB 0.05f

/* The roof at intensity ai: the memory roof (COPY's GB/s times ai) or the
 * measured FMA peak, the lower. */
static inline double w09_roof(double ai, double copy_gbps, double peak_gflops)
{
    return ai * copy_gbps < peak_gflops ? ai * copy_gbps : peak_gflops;
}

/* The compute half of the roof as the test takes it: the given peak kernel
 * (support/yard_fmapeak.cu, 4096 iterations, on the current device's SMs)
 * timed by wb_time (3 warm-ups, the median of 20, no L2 flush), in
 * GFLOP/s; *t and *flops (where given) the timing and the flops a launch. */
typedef struct { float *out; int sms, iters; } w09_peak_ctx;
static inline void w09_peak_work(void *p)
{
    w09_peak_ctx *c = (w09_peak_ctx *)p;
    WB_CUDA(yard_fmapeak_launch(c->out, c->sms, c->iters));
}
static inline double w09_fmapeak_gflops(wb_summary *t, double *flops)
{
    int sms = wb_this_device()->sm_count;
    w09_peak_ctx c = { (float *)wb_dmalloc(yard_fmapeak_threads(sms) * 4), sms, 4096 };
    wb_bench_opts o = { 3, 20, 0 };
    wb_summary s;
    wb_time(w09_peak_work, &c, &o, &s);
    wb_dfree(c.out);
    double f = yard_fmapeak_flops(sms, c.iters);
    if (t) *t = s;
    if (flops) *flops = f;
    return f / (s.median * 1e-3) / 1e9;
}

#endif
