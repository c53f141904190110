/* test_week28.c — week 28's checkpoints: GEMM + bias + ReLU/GELU fused in
 * the epilogue, the separate element-wise pass, and the fused kernel's speed
 * against GEMM-then-elementwise (with cuBLASLt's fused epilogue beside it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublasLt.h>

#include "wb_test.h"
#include "gemm_epilogue.h"
#include "gemm_support.h"
#include "hgemm_host.h"
#include "hgemm_wmma.h" /* weeks 25-27's kernels, for the ladder (week.txt: uses) */
#include "hgemm_mma.h"
#include "hgemm_tiled.h"
#include "cutlass_gemm.h"

/* Products of halves are exact in float; only the float accumulation errs,
 * about sqrt(K) roundings of the running sum. A result rounded through half
 * (2^-11 relative) or a dropped product fails. */
static double gemm_atol(int K) { return 1e-6 + 0.1 * sqrt((double)K) * ldexp(1.0, -11); }
#define GEMM_RTOL 1e-4

/* The activations in double, as gemm_epilogue.h defines them. */
static double act_ref(double v, int act)
{
    if (act == ACT_RELU) return v < 0 ? 0 : v;
    if (act == ACT_GELU) return 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    return v;
}
static const char *ACT_NAME[] = { "none", "relu", "gelu" };

/* ---------------------------------------------------------------- correctness */

typedef struct { int M, N, K; } shape;
static const shape SHAPES[] = {
    { 1, 1, 1 },     { 0, 5, 7 },     { 5, 0, 7 },      { 5, 7, 0 },       { 16, 8, 16 },    { 17, 33, 65 },
    { 128, 256, 32 }, { 129, 257, 33 }, { 256, 512, 96 }, { 333, 1000, 517 }, { 100, 3, 2000 }, { 64, 640, 4096 },
};

/* Random halves in [-1, 1] and a random bias (special: a NaN in A and an
 * infinity in B), act(A B + bias) in double on the CPU, every element
 * checked, C guarded on both sides. */
static void check_fused(wb_rng *rng, int M, int N, int K, int act, int with_bias, int special)
{
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    float *fa = wb_hmalloc((na + 1) * 4), *fb = wb_hmalloc((nb + 1) * 4), *bias = wb_hmalloc(((size_t)N + 1) * 4);
    uint16_t *ha = wb_hmalloc((na + 1) * 2), *hb = wb_hmalloc((nb + 1) * 2);
    wb_fill_uniform_f32(rng, fa, na, -1, 1);
    wb_fill_uniform_f32(rng, fb, nb, -1, 1);
    wb_fill_uniform_f32(rng, bias, (size_t)N, -2, 2);
    if (special && na && nb) {
        fa[wb_rng_int(rng, 0, (int64_t)na - 1)] = NAN;
        fb[wb_rng_int(rng, 0, (int64_t)nb - 1)] = INFINITY;
        fb[wb_rng_int(rng, 0, (int64_t)nb - 1)] = -INFINITY;
    }
    for (size_t i = 0; i < na; i++) ha[i] = f32_to_f16(fa[i]), fa[i] = f16_to_f32(ha[i]);
    for (size_t i = 0; i < nb; i++) hb[i] = f32_to_f16(fb[i]), fb[i] = f16_to_f32(hb[i]);
    double *ref = wb_hmalloc((nc + 1) * 8);
    for (size_t i = 0; i < nc; i++) ref[i] = 0;
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) {
            double a = fa[(size_t)i * K + k];
            const float *brow = fb + (size_t)k * N;
            double *crow = ref + (size_t)i * N;
            for (int j = 0; j < N; j++) crow[j] += a * brow[j];
        }
    for (size_t i = 0; i < nc; i++) ref[i] = act_ref(ref[i] + (with_bias ? bias[i % N] : 0), act);
    uint16_t *da = wb_dcopy(ha, (na + 1) * 2), *db = wb_dcopy(hb, (nb + 1) * 2);
    float *dbias = wb_dcopy(bias, ((size_t)N + 1) * 4);
    wb_dout c;
    float *dc = wb_dout_alloc(&c, "C", nc * 4, 0);
    WB_CUDA(gemm_bias_act(da, db, with_bias ? dbias : NULL, dc, M, N, K, act));
    char what[128];
    snprintf(what, sizeof what, "M=%d N=%d K=%d act=%s%s%s", M, N, K, ACT_NAME[act], with_bias ? " bias" : " no bias",
             special ? ", NaN and Inf inputs" : "");
    wb_expect_dout_f32_f64(&c, ref, nc, 1.2 * gemm_atol(K), GEMM_RTOL, what);
    wb_dfree(da), wb_dfree(db), wb_dfree(dbias), wb_dout_free(&c);
    free(fa), free(fb), free(bias), free(ha), free(hb), free(ref);
}

/* Every shape with every activation, with and without a bias. */
START_TEST(fused_shapes)
{
    wb_rng rng = WB_RNG();
    const shape *s = &SHAPES[_i / 3];
    check_fused(&rng, s->M, s->N, s->K, _i % 3, (_i / 3) % 4 != 1, 0);
}
END_TEST

START_TEST(fused_nan_inf)
{
    wb_rng rng = WB_RNG();
    check_fused(&rng, 40 + 216 * (_i / 3), 300, 50 + 14 * (_i / 3), _i % 3, 1, 1);
}
END_TEST

/* The separate pass on random C, including NaN and infinities, C guarded on
 * both sides. Every shape with every activation. */
static const shape BIAS_ACT_SHAPES[] = { { 0, 7, 0 },     { 1, 1, 0 },       { 3, 5, 0 },   { 33, 63, 0 },
                                         { 64, 256, 0 }, { 1000, 1003, 0 }, { 517, 2048, 0 } };

START_TEST(bias_act_shapes)
{
    wb_rng rng = WB_RNG();
    int M = BIAS_ACT_SHAPES[_i / 3].M, N = BIAS_ACT_SHAPES[_i / 3].N, act = _i % 3;
    size_t nc = (size_t)M * N;
    float *hc = wb_hmalloc((nc + 1) * 4), *bias = wb_hmalloc(((size_t)N + 1) * 4);
    double *ref = wb_hmalloc((nc + 1) * 8);
    wb_fill_uniform_f32(&rng, hc, nc, -50, 50);
    wb_fill_uniform_f32(&rng, bias, (size_t)N, -2, 2);
    if (nc > 3) hc[0] = NAN, hc[1] = INFINITY, hc[2] = -INFINITY;
    for (size_t i = 0; i < nc; i++) ref[i] = act_ref((double)(hc[i] + bias[i % N]), act);
    wb_dout c;
    float *dc = wb_dout_alloc(&c, "C", nc * 4, 0), *dbias = wb_dcopy(bias, (size_t)N * 4);
    wb_h2d(dc, hc, nc * 4); /* in place: the input goes into the guarded output */
    WB_CUDA(bias_act(dc, dbias, M, N, act));
    char what[96];
    snprintf(what, sizeof what, "bias_act M=%d N=%d act=%s", M, N, ACT_NAME[act]);
    wb_expect_dout_f32_f64(&c, ref, nc, 1e-5, 1e-5, what);
    wb_dout_free(&c), wb_dfree(dbias);
    free(hc), free(bias), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- large shapes, sampled */

enum { SEED_A = 281, SEED_B = 282, SEED_BIAS = 283 };
typedef struct { int M, N, K, act; } gemm_ctx;

/* Element i of C: one dot product in double over the replayed halves, plus
 * the replayed bias, through the activation. */
static double fused_expect(size_t i, const void *p)
{
    const gemm_ctx *g = p;
    size_t r = i / (size_t)g->N, c = i % (size_t)g->N;
    double s = 0;
    for (int k = 0; k < g->K; k++)
        s += (double)f16_to_f32(f32_to_f16(wb_hash_uniform_f32(SEED_A, r * g->K + k, -1, 1))) *
             (double)f16_to_f32(f32_to_f16(wb_hash_uniform_f32(SEED_B, (size_t)k * g->N + c, -1, 1)));
    return act_ref(s + wb_hash_uniform_f32(SEED_BIAS, c, -2, 2), g->act);
}

typedef struct {
    const uint16_t *A, *B; const float *bias; float *C; int M, N, K, act;
    cublasLtHandle_t lt; cublasLtMatmulDesc_t op; cublasLtMatrixLayout_t la, lb, lc;
    cublasLtMatmulAlgo_t algo; void *ws; size_t ws_bytes;
} run_ctx;

static run_ctx make_inputs(int M, int N, int K)
{
    run_ctx r;
    memset(&r, 0, sizeof r);
    r.A = wb_dmalloc((size_t)M * K * 2), r.B = wb_dmalloc((size_t)K * N * 2), r.C = wb_dmalloc((size_t)M * N * 4);
    r.bias = wb_dmalloc((size_t)N * 4);
    r.M = M, r.N = N, r.K = K;
    WB_CUDA(fill_half_uniform((uint16_t *)r.A, (size_t)M * K, SEED_A, -1, 1));
    WB_CUDA(fill_half_uniform((uint16_t *)r.B, (size_t)K * N, SEED_B, -1, 1));
    wb_dfill_uniform_f32((float *)r.bias, (size_t)N, SEED_BIAS, -2, 2);
    return r;
}

static void free_inputs(run_ctx *r)
{
    wb_dfree((void *)r->A), wb_dfree((void *)r->B), wb_dfree((void *)r->bias), wb_dfree(r->C);
}

static size_t verify_c(run_ctx *r, size_t samples, wb_cmp *cmp)
{
    gemm_ctx g = { r->M, r->N, r->K, r->act };
    return wb_dverify_f32("C", r->C, (size_t)r->M * r->N, fused_expect, &g, samples, 1.2 * gemm_atol(r->K), GEMM_RTOL,
                          cmp);
}

static const shape LARGE[] = { { 2047, 2049, 2051 }, { 4096, 4096, 4096 } };

START_TEST(fused_large)
{
    run_ctx r = make_inputs(LARGE[_i].M, LARGE[_i].N, LARGE[_i].K);
    r.act = _i ? ACT_RELU : ACT_GELU;
    wb_dpoison(r.C, (size_t)r.M * r.N * 4);
    WB_CUDA(gemm_bias_act(r.A, r.B, r.bias, r.C, r.M, r.N, r.K, r.act));
    wb_sync();
    wb_cmp cmp;
    verify_c(&r, 4096, &cmp);
    char what[80];
    snprintf(what, sizeof what, "M=%d N=%d K=%d act=%s (sampled)", r.M, r.N, r.K, ACT_NAME[r.act]);
    WB_EXPECT_CMP(cmp, what);
    free_inputs(&r);
}
END_TEST

/* ---------------------------------------------------------------- speed */

static void run_fused(void *p)
{
    run_ctx *r = p;
    WB_CUDA(gemm_bias_act(r->A, r->B, r->bias, r->C, r->M, r->N, r->K, r->act));
}

static void run_unfused(void *p)
{
    run_ctx *r = p;
    WB_CUDA(gemm_bias_act(r->A, r->B, NULL, r->C, r->M, r->N, r->K, ACT_NONE));
    WB_CUDA(bias_act(r->C, r->bias, r->M, r->N, r->act));
}

/* cuBLASLt with its fused epilogue. Row-major C = A B is column-major
 * C^T = B^T A^T: B is Lt's first operand; the bias runs along Lt's rows,
 * which are C's columns. */
static int lt_setup(run_ctx *r, char *why, size_t whysz)
{
    cublasStatus_t s;
#define LT(call) if ((s = (call)) != CUBLAS_STATUS_SUCCESS) { snprintf(why, whysz, "%s: status %d", #call, (int)s); return -1; }
    LT(cublasLtCreate(&r->lt));
    LT(cublasLtMatmulDescCreate(&r->op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasLtEpilogue_t epi = r->act == ACT_GELU ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_RELU_BIAS;
    LT(cublasLtMatmulDescSetAttribute(r->op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
    LT(cublasLtMatmulDescSetAttribute(r->op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &r->bias, sizeof r->bias));
    LT(cublasLtMatrixLayoutCreate(&r->la, CUDA_R_16F, (uint64_t)r->N, (uint64_t)r->K, r->N));
    LT(cublasLtMatrixLayoutCreate(&r->lb, CUDA_R_16F, (uint64_t)r->K, (uint64_t)r->M, r->K));
    LT(cublasLtMatrixLayoutCreate(&r->lc, CUDA_R_32F, (uint64_t)r->N, (uint64_t)r->M, r->N));
    cublasLtMatmulPreference_t pref;
    LT(cublasLtMatmulPreferenceCreate(&pref));
    r->ws_bytes = 32u << 20;
    r->ws = wb_dmalloc(r->ws_bytes);
    LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &r->ws_bytes,
                                            sizeof r->ws_bytes));
    cublasLtMatmulHeuristicResult_t res;
    int found = 0;
    LT(cublasLtMatmulAlgoGetHeuristic(r->lt, r->op, r->la, r->lb, r->lc, r->lc, pref, 1, &res, &found));
    cublasLtMatmulPreferenceDestroy(pref);
    if (!found) { snprintf(why, whysz, "cuBLASLt found no algorithm for this epilogue"); return -1; }
    r->algo = res.algo;
#undef LT
    return 0;
}

static void lt_teardown(run_ctx *r)
{
    if (r->la) cublasLtMatrixLayoutDestroy(r->la);
    if (r->lb) cublasLtMatrixLayoutDestroy(r->lb);
    if (r->lc) cublasLtMatrixLayoutDestroy(r->lc);
    if (r->op) cublasLtMatmulDescDestroy(r->op);
    if (r->lt) cublasLtDestroy(r->lt);
    if (r->ws) wb_dfree(r->ws);
    r->la = r->lb = r->lc = NULL, r->op = NULL, r->lt = NULL, r->ws = NULL;
}

static void run_lt(void *p)
{
    run_ctx *r = p;
    const float one = 1.f, zero = 0.f;
    cublasStatus_t s = cublasLtMatmul(r->lt, r->op, &one, r->B, r->la, r->A, r->lb, &zero, r->C, r->lc, r->C, r->lc,
                                      &r->algo, r->ws, r->ws_bytes, 0);
    ck_assert_msg(s == CUBLAS_STATUS_SUCCESS, "cublasLtMatmul failed: status %d", (int)s);
}

static double tflops(const wb_bench_row *row) { return row->flops / (row->t.median * 1e-3) / 1e12; }

/* An MLP-like layer (8192 tokens, 512 -> 4096): K is small, so C's round
 * trip through memory is a large share of the unfused time. Per activation:
 * cuBLASLt fused, yours unfused (GEMM, then bias_act), yours fused against
 * your unfused. The headline row (w28.fused-speed's figure) is the fused row
 * with the smaller ratio: ReLU's is emitted as the headline, then GELU's
 * replaces it if smaller (or wrong); both rows show the target. */
static double bench_fused(void)
{
    int M = 8192, N = 4096, K = 512;
    run_ctx r = make_inputs(M, N, K);
    double flops = 2.0 * M * N * K, worst = INFINITY, target = 0;
    char detail[300] = "";
    for (int act = ACT_RELU; act <= ACT_GELU; act++) {
        r.act = act;
        wb_cmp cmp;
        char why[200] = "";
        wb_bench_row lt = { .exercise = "gemm+bias+act", .variant = act == ACT_GELU ? "cuBLASLt GELU_BIAS" : "cuBLASLt RELU_BIAS",
                            .n = (size_t)K, .flops = flops, .unit = "TFLOP/s" };
        if (lt_setup(&r, why, sizeof why) == 0) {
            wb_time(run_lt, &r, NULL, &lt.t);
            lt.value = tflops(&lt);
        } else wb_bench_invalid(&lt, why);
        wb_bench_emit(&lt);
        lt_teardown(&r);
        wb_bench_row un = { .exercise = "gemm+bias+act", .variant = act == ACT_GELU ? "unfused gelu (yours)" : "unfused relu (yours)",
                            .n = (size_t)K, .flops = flops, .unit = "TFLOP/s", .yard_name = "cuBLASLt", .yard = lt.value };
        wb_dpoison(r.C, (size_t)M * N * 4);
        wb_time(run_unfused, &r, NULL, &un.t);
        un.value = tflops(&un);
        if (verify_c(&r, 1024, &cmp)) wb_bench_invalid(&un, cmp.msg);
        wb_bench_emit(&un);
        wb_bench_row fu = { .exercise = "gemm+bias+act", .variant = act == ACT_GELU ? "fused gelu (yours)" : "fused relu (yours)",
                            .n = (size_t)K, .flops = flops, .unit = "TFLOP/s", .yard_name = "UNFUSED", .yard = un.value,
                            .target = target };
        wb_dpoison(r.C, (size_t)M * N * 4);
        wb_time(run_fused, &r, NULL, &fu.t);
        fu.value = tflops(&fu);
        if (verify_c(&r, 1024, &cmp)) wb_bench_invalid(&fu, cmp.msg);
        double ratio = wb_bench_ratio(&fu);
        if (isnan(ratio) || ratio < worst) {
            worst = wb_bench_headline(&fu); /* fills fu.target from week.txt */
            target = fu.target;
            snprintf(detail, sizeof detail, "%s: %s", ACT_NAME[act], wb_bench_last_detail());
        } else {
            wb_bench_emit(&fu);
        }
        if (isnan(ratio)) break;
        printf("  %s: fused %.3f ms, unfused %.3f ms, cuBLASLt fused %.3f ms (M=%d N=%d K=%d)\n", ACT_NAME[act],
               fu.t.median, un.t.median, lt.t.median, M, N, K);
    }
    free_inputs(&r);
    printf("  headline (the smaller ratio) %s\n", detail);
    return worst;
}

/* ---------------------------------------------------------------- CPU: the half helpers */

START_TEST(half_rounding)
{
    ck_assert_uint_eq(f32_to_f16(1.0f), 0x3c00);
    ck_assert_uint_eq(f32_to_f16(-2.0f), 0xc000);
    ck_assert_uint_eq(f32_to_f16(65504.0f), 0x7bff);
    ck_assert_uint_eq(f32_to_f16(65520.0f), 0x7c00);
    ck_assert_uint_eq(f32_to_f16(1.0f + ldexpf(1, -11)), 0x3c00);                     /* tie: to even */
    ck_assert_uint_eq(f32_to_f16(1.0f + 3 * ldexpf(1, -11)), 0x3c02);                 /* tie: to even, up */
    ck_assert_uint_eq(f32_to_f16(ldexpf(1, -24)), 0x0001);                            /* smallest subnormal */
    ck_assert_uint_eq(f32_to_f16(ldexpf(1, -14) - ldexpf(1, -25)), 0x0400);           /* rounds up to normal */
    ck_assert(f16_to_f32(0x7e00) != f16_to_f32(0x7e00));                              /* NaN */
    ck_assert(f16_to_f32(0x0001) == ldexpf(1, -24));
    wb_rng rng = WB_RNG();
    for (int i = 0; i < 100000; i++) { /* round trip of every half is exact */
        uint16_t h = (uint16_t)wb_rng_int(&rng, 0, 0xffff);
        if (((h >> 10) & 0x1f) == 31) continue;
        if (f32_to_f16(f16_to_f32(h)) != h) ck_abort_msg("half 0x%04x does not survive the round trip through float", (unsigned)h);
    }
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
    { "w28.fused", WB_T(fused_shapes), WB_GPU, 3 * WB_COUNT(SHAPES) },
    { "w28.fused", WB_T(fused_nan_inf), WB_GPU, 6 },
    { "w28.fused", WB_T(fused_large), WB_GPU, WB_COUNT(LARGE) },
    { "w28.bias-act", WB_T(bias_act_shapes), WB_GPU, 3 * WB_COUNT(BIAS_ACT_SHAPES) },
    WB_SPEED("w28.fused-speed", bench_fused),
};

/* The fused kernel with no bias and no activation: the plain GEMM of the ladder. */
static cudaError_t gemm_plain(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K)
{
    return gemm_bias_act(A, B, NULL, C, M, N, K, ACT_NONE);
}

/* The ladder (hgemm_host.h). Serves no checkpoint: `--bench ladder` runs it. */
static double bench_ladder(void)
{
    const hgemm_version v[] = { { "wmma (week 25)", hgemm_wmma }, { "mma.sync (week 26)", hgemm_mma },
                                { "restructured (week 27)", hgemm_tiled }, { "CUTLASS device::Gemm", cutlass_hgemm },
                                { "epilogue kernel, no bias/act", gemm_plain } };
    return hgemm_ladder(v, 5, -1, NULL);
}

/* Benchmarks that serve no checkpoint; `--bench` also runs the WB_SPEED one (fused). */
static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
