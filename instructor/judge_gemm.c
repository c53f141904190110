/* judge_gemm.c — the part the judges of phase 5's SGEMM weeks (21-24)
 * share (judge_gemm.h): the correctness cases of phase5/common/gemm_check.h
 * (the header the weeks' tests draw theirs from, read here, not copied),
 * and the 4096^3 speed run against cuBLAS FP32 (pedantic).
 *
 * References: the judge's own, in double. The cases' finite products come
 * from cublasDgemm on the judge's device (every element checked, where the
 * test samples its two largest cases); the NaN/Inf cases' from the test's
 * own CPU product (gemm_ref_f64: IEEE's NaN rows and Inf columns, which a
 * library need not promise). A timed run's outputs: every element against
 * cublasDgemm of the inputs the judge fills again from their seeds
 * (jd_hash_fill_f64), within the test's gemm_tol(4096), the test's own
 * tolerance for its speed run, which samples 1024 elements. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_check.h"
#include "judge.h"
#include "judge_gemm.h"
#include "judge_kernels.h"
#include "judge_week.h"
#include "wb_cuda.h"

#define BENCH_N 4096 /* the test's gemm_vs_cublas_4096 */
#define TIMED   5    /* requests timed, the median kept (the test's samples for a call over 50 ms) */
#define LO      (-1.0f)
#define HI      1.0f

/* ---------------------------------------------------------------- the judge's double product */

/* The judge's cuBLAS handle (on jd_stream, pedantic: no emulation or
 * reduced precision) and device room for one product of up to cap_a, cap_b,
 * cap_c doubles: grown as needed, kept for the run. */
static cublasHandle_t g_h;
static double        *g_a, *g_b, *g_c;
static size_t         g_cap_a, g_cap_b, g_cap_c;

static int grow(double **p, size_t *cap, size_t n)
{
    if (n <= *cap) return 0;
    if (*p) cudaFree(*p);
    *p = NULL, *cap = 0;
    if (cudaMalloc((void **)p, (n ? n : 1) * sizeof(double)) != cudaSuccess) return *p = NULL, -1;
    *cap = n;
    return 0;
}

/* Room for an M x K by K x N product and the handle: 0, or -1. */
static int dref_room(int M, int N, int K)
{
    if (!g_h) {
        if (cublasCreate(&g_h) != CUBLAS_STATUS_SUCCESS) return g_h = NULL, -1;
        if (cublasSetMathMode(g_h, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS ||
            cublasSetStream(g_h, jd_stream) != CUBLAS_STATUS_SUCCESS)
            return -1;
    }
    return grow(&g_a, &g_cap_a, (size_t)M * K) || grow(&g_b, &g_cap_b, (size_t)K * N) ||
                   grow(&g_c, &g_cap_c, (size_t)M * N)
               ? -1
               : 0;
}

/* g_c = g_a g_b in double, row-major (the column-major C^T = B^T A^T), on
 * jd_stream, not waited for. M, N, K > 0. */
static int dref_gemm(int M, int N, int K)
{
    const double one = 1.0, zero = 0.0;
    return cublasDgemm(g_h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, g_b, N, g_a, K, &zero, g_c, N) ==
                   CUBLAS_STATUS_SUCCESS
               ? 0
               : -1;
}

/* ref = A B in double for host A and B (finite): 0, or -1. */
static int dref_host(int M, int N, int K, const float *A, const float *B, double *ref)
{
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    if (nc == 0) return 0;
    if (K == 0) {
        memset(ref, 0, nc * sizeof *ref);
        return 0;
    }
    double *w = malloc((na > nb ? na : nb) * sizeof *w);
    int rc = w && dref_room(M, N, K) == 0 ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < na; i++) w[i] = A[i];
    if (rc == 0 && cudaMemcpy(g_a, w, na * sizeof *w, cudaMemcpyHostToDevice) != cudaSuccess) rc = -1;
    for (size_t i = 0; rc == 0 && i < nb; i++) w[i] = B[i];
    if (rc == 0 && cudaMemcpy(g_b, w, nb * sizeof *w, cudaMemcpyHostToDevice) != cudaSuccess) rc = -1;
    if (rc == 0 && dref_gemm(M, N, K) != 0) rc = -1;
    if (rc == 0 && (cudaMemcpyAsync(ref, g_c, nc * sizeof *ref, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
                    cudaStreamSynchronize(jd_stream) != cudaSuccess))
        rc = -1;
    free(w);
    return rc;
}

/* ---------------------------------------------------------------- correctness */

#define N_SIZES ((int)WB_COUNT(GEMM_CASES))

typedef struct {
    const jg_set *set;
    int           n_sizes, n_nonfinite; /* cases of each kind, in this order, then the extra */
    float        *a, *b;                /* host: the inputs, each after `off` leading floats */
    double       *ref;
} gemm_room;

/* Case i of the set: GEMM_CASES[only[i]] (uniform in [-1, 1], A, B and C
 * `off` floats past an aligned start), then gemm_check_nonfinite's cases
 * (128^3 and 131 x 133 x 135, a NaN in A and an Inf in B), then the
 * week's extra case (uniform in [-1, 1]). */
static int gemm_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    gemm_room    *g = ctx;
    const jg_set *set = g->set;
    int nonfinite = i >= g->n_sizes && i < g->n_sizes + g->n_nonfinite, extra = i >= g->n_sizes + g->n_nonfinite;
    int j = extra ? 0 : nonfinite ? i - g->n_sizes : set->only ? set->only[i] : i;
    gemm_case c = extra       ? (gemm_case){ set->extra->M, set->extra->N, set->extra->K, set->extra->off, 0 }
                  : nonfinite ? (gemm_case){ j ? 131 : 128, j ? 133 : 128, j ? 135 : 128, 0, 0 }
                              : GEMM_CASES[j];
    int M = c.M, N = c.N, K = c.K;
    size_t o = c.off > 0 ? (size_t)c.off : 0, na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    const char *tag = extra ? set->extra->tag : nonfinite ? set->tag_nonfinite : set->tag_sizes;
    wb_rng rng = wb_rng_for_seed(jd_seed, tag, j);
    float *hA = g->a + o, *hB = g->b + o;
    memset(g->a, 0, (o + na + 1) * 4), memset(g->b, 0, (o + nb + 1) * 4);
    wb_fill_uniform_f32(&rng, hA, na, -1, 1);
    wb_fill_uniform_f32(&rng, hB, nb, -1, 1);
    if (nonfinite) { /* as gemm_check_nonfinite draws it */
        int r = (int)wb_rng_int(&rng, 0, M - 1), p = (int)wb_rng_int(&rng, 0, K - 1);
        int q = (int)wb_rng_int(&rng, 0, K - 1), col = (int)wb_rng_int(&rng, 0, N - 1);
        hA[(size_t)r * K + p] = NAN;
        hB[(size_t)q * N + col] = INFINITY;
        for (int row = 0; row < M; row++)
            if (hA[(size_t)row * K + q] == 0.0f) hA[(size_t)row * K + q] = 0.5f;
        gemm_ref_f64(M, N, K, hA, hB, g->ref);
    } else if (dref_host(M, N, K, hA, hB, g->ref) != 0) {
        return jd_failf(t, "the judge's reference product (cublasDgemm) failed"), -1;
    }
    char what[160], fn[48];
    if (set->arg_name) snprintf(fn, sizeof fn, "%s %s=%lld", set->fn_name, set->arg_name, set->arg);
    else snprintf(fn, sizeof fn, "%s", set->fn_name);
    snprintf(what, sizeof what, "%s M=%d N=%d K=%d%s%s%s", fn, M, N, K, o ? " (unaligned pointers)" : "",
             nonfinite ? " (a NaN in A, an Inf in B)" : "", set->note ? set->note : "");
    double tol = gemm_tol(K);
    /* the inputs with their leading floats and one more, as the test allocates them: never NULL */
    jd_case cs = { .fn = set->fn, .in = { g->a, g->b }, .in_n = { o + na + 1, o + nb + 1 }, .in_off = { o, o },
                   .n = nc, .out_off = o, .ref64 = g->ref, .atol = tol, .rtol = tol,
                   .i64 = { 0, M, N, K, set->arg }, .what = what, .out_name = "C", .fn_name = set->fn_name };
    return jd_case_run(J, B, &cs, t);
}

void jg_correct(jd_ck *k, const jg_set *set)
{
    gemm_room g = { set, set->only ? set->n_only : N_SIZES, set->tag_nonfinite ? 2 : 0, NULL, NULL, NULL };
    size_t in = 135 * 133 + 1, out = 131 * 133; /* the larger NaN/Inf case's B (K x N) and C */
    for (int i = 0; i <= g.n_sizes; i++) {
        if (i == g.n_sizes && !set->extra) break;
        gemm_case c = i == g.n_sizes ? (gemm_case){ set->extra->M, set->extra->N, set->extra->K, set->extra->off, 0 }
                                     : GEMM_CASES[set->only ? set->only[i] : i];
        size_t o = c.off > 0 ? (size_t)c.off : 0;
        size_t a = o + (size_t)c.M * c.K + 1, b = o + (size_t)c.K * c.N + 1, m = (size_t)c.M * c.N;
        if (a > in) in = a;
        if (b > in) in = b;
        if (m > out) out = m;
    }
    g.a = malloc(in * 4), g.b = malloc(in * 4), g.ref = malloc(out * sizeof(double));
    if (!g.a || !g.b || !g.ref) jd_failf(k->t, "buffers: out of memory");
    else jd_cases(k->J, k->t, 2, in, out, g.n_sizes + g.n_nonfinite + (set->extra ? 1 : 0), gemm_one, &g);
    free(g.a), free(g.b), free(g.ref);
}

void jg_correct_all(jd_ck *k, int fn, const char *fn_name, const char *tag_sizes, const char *tag_nonfinite,
                    const jg_extra *extra)
{
    jg_set set = { .fn = fn, .fn_name = fn_name, .tag_sizes = tag_sizes, .tag_nonfinite = tag_nonfinite, .extra = extra };
    jg_correct(k, &set);
}

/* ---------------------------------------------------------------- 4096^3, timed */

/* Element i of a rep's C, in double from the inputs' seeds (the look's). */
static float gemm_bench_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    size_t n = (size_t)b->i64[1], row = i / n, col = i % n;
    double s = 0;
    for (size_t k = 0; k < n; k++)
        s += (double)wb_hash_uniform_f32(seed[0], row * n + k, b->lo, b->hi) *
             (double)wb_hash_uniform_f32(seed[1], k * n + col, b->lo, b->hi);
    return (float)s;
}

/* Every element of a rep's C against cublasDgemm of its inputs, filled
 * again by the judge from their seeds. */
static int gemm_bench_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                            unsigned long long h[2])
{
    int n = (int)b->i64[1];
    size_t nn = (size_t)n * n;
    if (dref_room(n, n, n) != 0 || jd_hash_fill_f64(g_a, nn, seed[0], b->lo, b->hi, jd_stream) != cudaSuccess ||
        jd_hash_fill_f64(g_b, nn, seed[1], b->lo, b->hi, jd_stream) != cudaSuccess || dref_gemm(n, n, n) != 0)
        return -1;
    return jd_full_check_done(jd_prefix_check_f32(out, g_c, nn, b->atol, b->rtol, bad, jd_stream), bad, h);
}

void jg_bench_setup(jd_bench *x, int fn, const char *fn_name, int max_k)
{
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 2, x->max_k = max_k, x->n = (size_t)BENCH_N * BENCH_N;
    x->lo = LO, x->hi = HI, x->atol = gemm_tol(BENCH_N), x->rtol = gemm_tol(BENCH_N);
    x->i64[1] = BENCH_N, x->i64[2] = BENCH_N, x->i64[3] = BENCH_N;
    x->fn_name = fn_name, x->out_name = "C";
    x->expect = gemm_bench_expect, x->full_check = gemm_bench_check;
}

double jg_tflops(const jd_bench *x, double ms)
{
    double n = (double)x->i64[1];
    return 2.0 * n * n * n / (ms * 1e-3) / 1e12;
}

/* The yardsticks, by the yard runner's exercise number: what the feedback
 * calls each, its function's name, and the calls a request (as the
 * student's version it is set against). */
static const struct {
    int         fn;
    const char *name, *fn_name;
    int         max_k;
} YARD[] = {
    { JG_YARD_CUBLAS, "cuBLAS FP32 (pedantic)", "cublasSgemm (pedantic)", JD_BENCH_MAX_K },
    { JG_YARD_NAIVE, "the reference naive SGEMM", "yard_naive_sgemm", JG_NAIVE_MAX_K },
};
enum { N_YARD = (int)(sizeof YARD / sizeof YARD[0]) };

static jd_bench g_yard;                                 /* large: its sample arrays */
static double   g_yard_before_ms[N_YARD] = { NAN, NAN }; /* each before the student's runner started */
static char     g_yard_before_why[N_YARD][600];

static int yard_of(int yard_fn)
{
    for (int y = 0; y < N_YARD; y++)
        if (YARD[y].fn == yard_fn) return y;
    return 0;
}

static void yard_before(int y)
{
    jg_bench_setup(&g_yard, YARD[y].fn, YARD[y].fn_name, YARD[y].max_k);
    if (jd_yard_bench(JG_YARD_RUNNER, &g_yard, TIMED, &g_yard_before_ms[y], g_yard_before_why[y],
                      sizeof g_yard_before_why[y]) != 0)
        g_yard_before_ms[y] = NAN;
}

void jg_yard_before(void) { yard_before(yard_of(JG_YARD_CUBLAS)); }
void jg_naive_before(void) { yard_before(yard_of(JG_YARD_NAIVE)); }

void jg_speed(jd_ck *k, int fn, const char *fn_name, const char *label, int yard_fn)
{
    static jd_bench x; /* large: its sample arrays */
    int y = yard_of(yard_fn);
    double ms = NAN, value = NAN, yard = NAN;
    char why[600] = "", ywhy[600] = "", detail[240] = "";
    jg_bench_setup(&x, fn, fn_name, YARD[y].max_k);
    if (jd_bench_run(k->J, &x, TIMED, &ms, why, sizeof why) == 0) {
        double after = NAN, before = g_yard_before_ms[y];
        jg_bench_setup(&g_yard, YARD[y].fn, YARD[y].fn_name, YARD[y].max_k);
        double yms =
            jd_yard_faster(JG_YARD_RUNNER, &g_yard, TIMED, before, g_yard_before_why[y], &after, ywhy, sizeof ywhy);
        if (!(yms > 0)) {
            snprintf(why, sizeof why, "no figure for %s: %s", YARD[y].name, ywhy);
        } else {
            value = jg_tflops(&x, ms), yard = jg_tflops(&g_yard, yms);
            snprintf(detail, sizeof detail, "%.3g TFLOP/s vs %s %.3g at 4096^3 (judge's clock, %d calls a request, "
                     "median of %d)", value, YARD[y].name, yard, x.k, TIMED);
            printf("  %s: %.3f ms a call by the judge's clock (%.3f by the runner's own); %s %.3f (before the "
                   "runner %.3f, after %.3f): %.3f of it\n",
                   label, ms, x.runner_ms, YARD[y].name, yms, before, after, value / yard);
        }
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "TFLOP/s", YARD[y].fn == JG_YARD_NAIVE ? "NAIVE" : "cuBLAS", yard,
                    detail, why);
}

void jg_speed_vs_cublas(jd_ck *k, int fn, const char *fn_name, const char *label)
{
    jg_speed(k, fn, fn_name, label, JG_YARD_CUBLAS);
}
