/* test_week28.c — week 28's checkpoints: GEMM + bias + ReLU/GELU fused in
 * the epilogue, the separate element-wise pass, and the fused kernel's speed
 * against cuBLASLt's fused epilogue on the same data (with the library's
 * unfused pair and yours beside it, reported). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "gemm_epilogue.h"
#include "support/yard_epilogue.h" /* cuBLASLt's epilogues and the library unfused pair */
#include "hgemm_check.h"
#include "hgemm_wmma.h" /* weeks 25-27's kernels, for the ladder (week.txt: uses) */
#include "hgemm_mma.h"
#include "hgemm_tiled.h"
#include "cutlass_gemm.h"
#include "cutlass3_gemm.h"

/* The GEMM's tolerance is hgemm_check.h's, with a 20 % margin for the
 * bias add and the activation. */
static double fused_atol(int K) { return 1.2 * hgemm_atol(K); }

/* The activations in double, as gemm_epilogue.h defines them. */
static double act_ref(double v, int act)
{
    if (act == ACT_RELU) return v < 0 ? 0 : v;
    if (act == ACT_GELU) return 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    return v;
}
static const char *ACT_NAME[] = { "none", "relu", "gelu" };

/* ---------------------------------------------------------------- correctness */

/* Random halves in [-1, 1] and a random bias (special: a NaN in A, +Inf and
 * -Inf in B; hgemm_check.h's inputs and reference), act(A B + bias) in
 * double on the CPU, every element checked, C guarded on both sides. A and
 * B start `off` halves, bias and C `off` floats past a 256-byte boundary
 * (off odd: C only 4-byte aligned). */
static void check_fused(wb_rng *rng, int M, int N, int K, int act, int with_bias, int special, int off)
{
    size_t nc = (size_t)M * N;
    float *bias = wb_hmalloc(((size_t)N + 1) * 4);
    hgemm_case g;
    hgemm_case_open(&g, rng, M, N, K, bias, special ? HGEMM_NAN_PM_INF : HGEMM_FINITE, off);
    for (size_t i = 0; i < nc; i++) g.ref[i] = act_ref(g.ref[i] + (with_bias ? bias[i % N] : 0), act);
    float *dbias_base = wb_dmalloc(((size_t)N + g.off + 1) * 4), *dbias = dbias_base + g.off;
    wb_h2d(dbias, bias, (size_t)N * 4);
    wb_dout c;
    float *dc = wb_dout_alloc(&c, "C", nc * 4, (size_t)g.off * 4);
    WB_CUDA(gemm_epilogue_bias_act(g.dA, g.dB, with_bias ? dbias : NULL, dc, M, N, K, act));
    char what[160];
    snprintf(what, sizeof what, "M=%d N=%d K=%d act=%s%s%s%s", M, N, K, ACT_NAME[act], with_bias ? " bias" : " no bias",
             special ? ", NaN and Inf inputs" : "",
             g.off ? (g.off % 2 ? " (A, B, bias, C unaligned: C 4-byte aligned)"
                                : " (A, B, bias, C unaligned: C 8-byte aligned)")
                   : "");
    wb_expect_dout_f32_f64(&c, g.ref, nc, fused_atol(K), HGEMM_RTOL, what);
    wb_dfree(dbias_base), wb_dout_free(&c);
    hgemm_case_close(&g);
    free(bias);
}

/* Every shape with every activation, with and without a bias. */
START_TEST(fused_shapes)
{
    wb_rng rng = WB_RNG();
    const hgemm_shape *s = &HGEMM_SHAPES[_i / 3];
    check_fused(&rng, s->M, s->N, s->K, _i % 3, (_i / 3) % 4 != 1, 0, 0);
}
END_TEST

/* hgemm_check.h's unaligned shapes with every activation and a bias: the
 * epilogue's float2 store must not trust an even N alone. */
START_TEST(fused_unaligned)
{
    wb_rng rng = WB_RNG();
    const hgemm_offset_shape *s = &HGEMM_UNALIGNED[_i / 3];
    check_fused(&rng, s->M, s->N, s->K, _i % 3, 1, 0, s->off);
}
END_TEST

START_TEST(fused_nan_inf)
{
    wb_rng rng = WB_RNG();
    check_fused(&rng, 40 + 216 * (_i / 3), 300, 50 + 14 * (_i / 3), _i % 3, 1, 1, 0);
}
END_TEST

/* The separate pass on random C, including NaN and infinities, C guarded on
 * both sides; C and bias start `off` floats past a 256-byte boundary. */
static void check_bias_act(wb_rng *rng, int M, int N, int act, int off)
{
    size_t nc = (size_t)M * N, o = off > 0 ? (size_t)off : 0;
    float *hc = wb_hmalloc((nc + 1) * 4), *bias = wb_hmalloc(((size_t)N + 1) * 4);
    double *ref = wb_hmalloc((nc + 1) * 8);
    wb_fill_uniform_f32(rng, hc, nc, -50, 50);
    wb_fill_uniform_f32(rng, bias, (size_t)N, -2, 2);
    if (nc > 3) hc[0] = NAN, hc[1] = INFINITY, hc[2] = -INFINITY;
    for (size_t i = 0; i < nc; i++) ref[i] = act_ref((double)(hc[i] + bias[i % N]), act);
    wb_dout c;
    float *dc = wb_dout_alloc(&c, "C", nc * 4, o * 4);
    float *dbias_base = wb_dmalloc(((size_t)N + o + 1) * 4), *dbias = dbias_base + o;
    wb_h2d(dbias, bias, (size_t)N * 4);
    wb_h2d(dc, hc, nc * 4); /* in place: the input goes into the guarded output */
    WB_CUDA(gemm_epilogue_act(dc, dbias, M, N, act));
    char what[128];
    snprintf(what, sizeof what, "gemm_epilogue_act M=%d N=%d act=%s%s", M, N, ACT_NAME[act],
             o ? (o % 2 ? " (C, bias unaligned: C 4-byte aligned)" : " (C, bias unaligned: C 8-byte aligned)") : "");
    wb_expect_dout_f32_f64(&c, ref, nc, 1e-5, 1e-5, what);
    wb_dout_free(&c), wb_dfree(dbias_base);
    free(hc), free(bias), free(ref);
}

/* Every shape with every activation. */
static const hgemm_shape BIAS_ACT_SHAPES[] = { { 0, 7, 0 },     { 1, 1, 0 },       { 3, 5, 0 },   { 33, 63, 0 },
                                         { 64, 256, 0 }, { 1000, 1003, 0 }, { 517, 2048, 0 } };

START_TEST(bias_act_shapes)
{
    wb_rng rng = WB_RNG();
    check_bias_act(&rng, BIAS_ACT_SHAPES[_i / 3].M, BIAS_ACT_SHAPES[_i / 3].N, _i % 3, 0);
}
END_TEST

/* N a multiple of 4 (where only the pointer says float4 is wrong) with C and
 * bias 1, 2 and 3 floats off their 256-byte boundary; every activation. */
static const hgemm_offset_shape BIAS_ACT_UNALIGNED[] = { { 64, 256, 0, 1 }, { 33, 64, 0, 2 }, { 5, 12, 0, 3 } };

START_TEST(bias_act_unaligned)
{
    wb_rng rng = WB_RNG();
    const hgemm_offset_shape *s = &BIAS_ACT_UNALIGNED[_i / 3];
    check_bias_act(&rng, s->M, s->N, _i % 3, s->off);
}
END_TEST

/* ---------------------------------------------------------------- large shapes, sampled */

enum { SEED_A = 281, SEED_B = 282, SEED_BIAS = 283 };

/* Seeded inputs (hgemm_check.h) and a bias from its own seed; the
 * benchmark's cuBLASLt plans (support/yard_epilogue.h). */
typedef struct {
    hgemm_seeded d; float *bias; unsigned long long sbias; int act;
    yard_lt *lt_fused, *lt_plain;
} run_ctx;

/* Element i of C: element i of A B, plus the replayed bias, through the activation. */
static double fused_expect(size_t i, const void *p)
{
    const run_ctx *r = p;
    size_t c = i % (size_t)r->d.N;
    return act_ref(hgemm_seeded_dot(&r->d, i) + wb_hash_uniform_f32(r->sbias, c, -2, 2), r->act);
}

static run_ctx make_inputs(int M, int N, int K)
{
    run_ctx r;
    memset(&r, 0, sizeof r);
    r.d = hgemm_seeded_open(M, N, K, SEED_A, SEED_B);
    r.sbias = SEED_BIAS;
    r.bias = wb_dmalloc((size_t)N * 4);
    wb_dfill_uniform_f32(r.bias, (size_t)N, r.sbias, -2, 2);
    return r;
}

static void free_inputs(run_ctx *r)
{
    hgemm_seeded_close(&r->d);
    wb_dfree(r->bias);
}

static size_t verify_c(run_ctx *r, size_t samples, wb_cmp *cmp)
{
    return wb_dverify_f32("C", r->d.C, (size_t)r->d.M * r->d.N, fused_expect, r, samples, fused_atol(r->d.K),
                          HGEMM_RTOL, cmp);
}

START_TEST(fused_large)
{
    run_ctx r = make_inputs(HGEMM_LARGE[_i].M, HGEMM_LARGE[_i].N, HGEMM_LARGE[_i].K);
    hgemm_seeded *d = &r.d;
    r.act = _i ? ACT_RELU : ACT_GELU;
    wb_dpoison(d->C, (size_t)d->M * d->N * 4);
    WB_CUDA(gemm_epilogue_bias_act(d->A, d->B, r.bias, d->C, d->M, d->N, d->K, r.act));
    wb_sync();
    wb_cmp cmp;
    verify_c(&r, 4096, &cmp);
    char what[80];
    snprintf(what, sizeof what, "M=%d N=%d K=%d act=%s (sampled)", d->M, d->N, d->K, ACT_NAME[r.act]);
    WB_EXPECT_CMP(cmp, what);
    free_inputs(&r);
}
END_TEST

/* ---------------------------------------------------------------- speed */

/* The four timed pairs of work, on the same A, B, bias and C. */
static void run_fused(void *p) /* yours, fused */
{
    run_ctx *r = p;
    WB_CUDA(gemm_epilogue_bias_act(r->d.A, r->d.B, r->bias, r->d.C, r->d.M, r->d.N, r->d.K, r->act));
}

static void run_unfused(void *p) /* yours: GEMM, then gemm_epilogue_act */
{
    run_ctx *r = p;
    WB_CUDA(gemm_epilogue_bias_act(r->d.A, r->d.B, NULL, r->d.C, r->d.M, r->d.N, r->d.K, ACT_NONE));
    WB_CUDA(gemm_epilogue_act(r->d.C, r->bias, r->d.M, r->d.N, r->act));
}

static void run_lt_fused(void *p) /* cuBLASLt, RELU_BIAS or GELU_BIAS */
{
    run_ctx *r = p;
    int s = yard_lt_run(r->lt_fused);
    ck_assert_msg(s == 0, "cublasLtMatmul (%s) failed: status %d", yard_lt_epilogue(r->lt_fused), s);
}

static void run_lib_unfused(void *p) /* cuBLASLt with no epilogue, then the given bias+act */
{
    run_ctx *r = p;
    int s = yard_lt_run(r->lt_plain);
    ck_assert_msg(s == 0, "cublasLtMatmul (%s) failed: status %d", yard_lt_epilogue(r->lt_plain), s);
    WB_CUDA(yard_bias_act(r->d.C, r->bias, r->d.M, r->d.N, r->act));
}

/* The timing's spot check (wb_bench_opts): new A, B and bias in place (the
 * cuBLASLt plans keep their pointers), drawn from seeds moved by salt (0:
 * the first ones back), and a poisoned C; then the sampled check of C. */
static void ctx_fresh(void *p, unsigned long long salt)
{
    run_ctx *r = p;
    unsigned long long m = salt * 0x9E3779B97F4A7C15ull;
    r->d.sa = SEED_A ^ m, r->d.sb = SEED_B ^ m, r->sbias = SEED_BIAS ^ m;
    WB_CUDA(fill_half_uniform(r->d.A, (size_t)r->d.M * r->d.K, r->d.sa, -1, 1));
    WB_CUDA(fill_half_uniform(r->d.B, (size_t)r->d.K * r->d.N, r->d.sb, -1, 1));
    wb_dfill_uniform_f32(r->bias, (size_t)r->d.N, r->sbias, -2, 2);
    wb_dpoison(r->d.C, (size_t)r->d.M * r->d.N * 4);
}

static int ctx_check(void *p, char *why, size_t size)
{
    wb_cmp cmp;
    if (verify_c(p, 256, &cmp) == 0) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* Time fn into a poisoned C with the spot check, then check 1024 sampled
 * elements of the timed output (every row, the yardsticks' included: a
 * yardstick that computes something else is no yardstick). */
static void time_row(run_ctx *r, wb_work_fn fn, wb_bench_row *row)
{
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = ctx_fresh, o.check = ctx_check;
    wb_dpoison(r->d.C, (size_t)r->d.M * r->d.N * 4);
    wb_time(fn, r, &o, &row->t);
    row->value = hgemm_tflops(row);
    wb_cmp cmp;
    if (verify_c(r, 1024, &cmp)) wb_bench_invalid(row, cmp.msg);
}

/* An MLP-like layer (8192 tokens, 512 -> 4096): K is small, so C's round
 * trip through memory is a large share of the unfused time. Per activation,
 * on the same data, every row against cuBLASLt's fused epilogue:
 *   cuBLASLt RELU_BIAS / GELU_BIAS   the yardstick
 *   library unfused                  cuBLASLt with no epilogue, then the given bias+act (report)
 *   unfused (yours)                  your GEMM, then your gemm_epilogue_act (report)
 *   fused (yours)                    ReLU: w28.fused-speed's headline; GELU: report only,
 *                                    until its cuBLASLt path has been timed on a GPU
 * The summary line gives what fusion buys: your fused over your unfused, and
 * cuBLASLt fused over the library unfused pair. */
static double bench_fused(wb_headline *h)
{
    int M = 8192, N = 4096, K = 512;
    run_ctx r = make_inputs(M, N, K);
    double flops = 2.0 * M * N * K, headline = NAN;
    char plain_why[256] = "", why[256] = "", detail[300] = "";
    r.lt_plain = yard_lt_open(r.d.A, r.d.B, NULL, r.d.C, M, N, K, ACT_NONE, plain_why, sizeof plain_why);
    for (int act = ACT_RELU; act <= ACT_GELU; act++) {
        int gelu = act == ACT_GELU;
        r.act = act;
        wb_bench_row lt = { .exercise = "gemm+bias+act", .variant = gelu ? "cuBLASLt GELU_BIAS" : "cuBLASLt RELU_BIAS",
                            .n = (size_t)K, .flops = flops, .unit = "TFLOP/s" };
        r.lt_fused = yard_lt_open(r.d.A, r.d.B, r.bias, r.d.C, M, N, K, act, why, sizeof why);
        if (r.lt_fused) time_row(&r, run_lt_fused, &lt);
        else wb_bench_invalid(&lt, why);
        wb_bench_emit(&lt);
        double yard = lt.invalid ? NAN : lt.value;

        wb_bench_row lib = { .exercise = "gemm+bias+act",
                             .variant = gelu ? "cuBLASLt GEMM, then bias+GELU (library unfused)"
                                             : "cuBLASLt GEMM, then bias+ReLU (library unfused)",
                             .n = (size_t)K, .flops = flops, .unit = "TFLOP/s", .yard_name = "cuBLASLt", .yard = yard };
        if (r.lt_plain) time_row(&r, run_lib_unfused, &lib);
        else wb_bench_invalid(&lib, plain_why);
        wb_bench_emit(&lib);

        wb_bench_row un = { .exercise = "gemm+bias+act", .variant = gelu ? "unfused gelu (yours)" : "unfused relu (yours)",
                            .n = (size_t)K, .flops = flops, .unit = "TFLOP/s", .yard_name = "cuBLASLt", .yard = yard };
        time_row(&r, run_unfused, &un);
        wb_bench_emit(&un);

        wb_bench_row fu = { .exercise = "gemm+bias+act", .variant = gelu ? "fused gelu (yours)" : "fused relu (yours)",
                            .n = (size_t)K, .flops = flops, .unit = "TFLOP/s", .yard_name = "cuBLASLt", .yard = yard };
        time_row(&r, run_fused, &fu);
        if (gelu) wb_bench_emit(&fu); /* reported, not judged */
        else {
            headline = wb_bench_headline(&fu, h); /* fills fu.target from week.txt */
            wb_bench_detail(&fu, detail, sizeof detail);
        }
        printf("  %s: fused (yours) %.3f ms, unfused (yours) %.3f ms, fused / unfused (yours) %.3f (not judged); "
               "cuBLASLt fused %.3f ms, library unfused %.3f ms, fused / unfused (library) %.3f (M=%d N=%d K=%d)\n",
               ACT_NAME[act], fu.t.median, un.t.median, fu.invalid || un.invalid ? NAN : un.t.median / fu.t.median,
               lt.t.median, lib.t.median, lt.invalid || lib.invalid ? NAN : lib.t.median / lt.t.median, M, N, K);
        yard_lt_close(r.lt_fused);
        r.lt_fused = NULL;
    }
    yard_lt_close(r.lt_plain);
    free_inputs(&r);
    printf("  headline (w28.fused-speed: fused ReLU against cuBLASLt RELU_BIAS; GELU reported only) %s\n", detail);
    return headline;
}

/* ---------------------------------------------------------------- CPU: the half helpers */

START_TEST(half_rounding)
{
    wb_rng rng = WB_RNG();
    hgemm_check_half_rounding(&rng);
}
END_TEST

START_TEST(activation_values)
{
    ck_assert(act_ref(-3, ACT_RELU) == 0 && act_ref(2.5, ACT_RELU) == 2.5 && isnan(act_ref(NAN, ACT_RELU)));
    ck_assert_double_eq_tol(act_ref(1.0, ACT_GELU), 0.8411919906, 1e-9);
    ck_assert_double_eq_tol(act_ref(-1.0, ACT_GELU), -0.1588080094, 1e-9);
    ck_assert(act_ref(INFINITY, ACT_GELU) == INFINITY && isnan(act_ref(-INFINITY, ACT_GELU)));
}
END_TEST

static const wb_test TESTS[] = {
    { "w28.fused", WB_T(half_rounding), WB_CPU, 0 },
    { "w28.fused", WB_T(activation_values), WB_CPU, 0 },
    { "w28.fused", WB_T(fused_shapes), WB_GPU, 3 * WB_COUNT(HGEMM_SHAPES) },
    { "w28.fused", WB_T(fused_nan_inf), WB_GPU, 6 },
    { "w28.fused", WB_T(fused_unaligned), WB_GPU, 3 * WB_COUNT(HGEMM_UNALIGNED) },
    { "w28.fused", WB_T(fused_large), WB_GPU, WB_COUNT(HGEMM_LARGE) },
    { "w28.bias-act", WB_T(bias_act_shapes), WB_GPU, 3 * WB_COUNT(BIAS_ACT_SHAPES) },
    { "w28.bias-act", WB_T(bias_act_unaligned), WB_GPU, 3 * WB_COUNT(BIAS_ACT_UNALIGNED) },
    WB_SPEED("w28.fused-speed", bench_fused),
};

/* The fused kernel with no bias and no activation: the plain GEMM of the ladder. */
static cudaError_t gemm_plain(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K)
{
    return gemm_epilogue_bias_act(A, B, NULL, C, M, N, K, ACT_NONE);
}

/* The ladder (hgemm_host.h). Serves no checkpoint: `--bench ladder` runs it. */
static double bench_ladder(void)
{
    /* CUTLASS 3's sm90a kernel loads on compute capability 9.0 only: its
     * rung is there on such a GPU and left out elsewhere. */
    const hgemm_version v[] = { { "wmma (week 25)", hgemm_wmma }, { "mma.sync (week 26)", hgemm_mma },
                                { "restructured (week 27)", hgemm_tiled }, { "CUTLASS 2.x device::Gemm", cutlass_hgemm },
                                { "epilogue kernel, no bias/act", gemm_plain },
                                { "CUTLASS 3 sm90 collective (week 27)", cutlass3_hgemm } };
    return hgemm_ladder(v, wb_device_is_cc(9, 0) ? 6 : 5, -1);
}

/* Benchmarks that serve no checkpoint; `--bench` also runs the WB_SPEED one (fused). */
static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
