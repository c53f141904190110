/* judge_hgemm.c — the checks of the tensor-core HGEMM weeks' judges
 * (judge_w25.c: hgemm_wmma; judge_w26.c: hgemm_mma; judge_hgemm.h). Links
 * no student code: the student's function is called by the week's runner on
 * guarded buffers this process allocated, filled and poisoned.
 *
 * Correctness (w25.wmma, w26.mma): the cases mirror test_week25.c's and
 * test_week26.c's, their shapes and tolerance read from the tests' own
 * phase5/common/hgemm_check.h (HGEMM_SHAPES, HGEMM_SPECIAL,
 * HGEMM_UNALIGNED, HGEMM_LARGE, hgemm_atol(K) + HGEMM_RTOL |ref|), each drawn
 * as hgemm_case_open draws it (A and B uniform in [-1, 1] rounded to half, a
 * NaN in A and +Inf in B for the special shapes) from wb_rng_for_seed with
 * the test's tag for the hidden seed; A and B start `off` halves and C `off`
 * floats past a 256-byte boundary (0 but for the unaligned shapes, as the
 * test's), C is poisoned whole with JD_GBAND bytes of poison on each side
 * (jd_gbuf, as the test's wb_dout), and every element of C is compared with
 * the product in double (an element still the poison where NaN is due
 * counts as not written; a byte outside C changed fails). The large shapes,
 * which the test samples at 4096 elements, are checked at every element here:
 * their inputs are filled on the device from hidden seeds and their
 * reference is cuBLAS's DGEMM of the same halves in double (the judge links
 * cuBLAS: instructor code).
 *
 * Speed (w25.wmma-speed, w26.mma-speed, w26.tc-wins): the timed-call
 * protocol (judge_week.h) at 4096^3: K calls a request, each on its own A
 * and B fresh from the hidden seed (halves in [-1, 1), jd_hash_half) and
 * its own poisoned C, the judge's look after the reply, then every element
 * of every timed C checked within the test's tolerance of the double product
 * (the DGEMM of that rep's inputs, cached by their seeds, and
 * jd_prefix_check_f32: every element finite and close); the median of 7
 * requests. The yardsticks run through a runner of the instructor's
 * (judge_hgemm_yard_runner.c: judge-w25-yard-runner, judge-w26-yard-runner
 * beside the judge, no student object) on the same protocol, sizes, fresh
 * inputs and checks: cublasGemmEx (FP16 in, FP32 compute, FP32 C: the
 * tests' hgemm_cublas_rm), and for w26.tc-wins week 26's given FP32
 * CUDA-core GEMM (support/yard_sgemm_simt.cu) on floats holding the same
 * halves (the test converts its halves to floats before timing it); each
 * timed before the student's runner starts and again after the student's
 * calls, the faster kept (jd_yard_faster). TFLOP/s = 2 4096^3 / the median
 * call's time by the judge's clock.
 *
 * Weeks 27 and 28 (judge_w27.c, judge_w28.c) reuse all of
 * it. Week 27: the same cases on each of its three functions (hg_week.fn:
 * the runner's exercise number), CUTLASS 3's with its own case lists
 * (hg_cases: N and K multiples of 8, a NaN and +-Inf), the yardsticks
 * cublasGemmEx and week 26's reference hgemm_mma (HG_YARD_W26) in
 * judge-w27-yard-runner. Week 28 (hg_week.epi): every case also draws a
 * bias after B (as hgemm_case_open does) and its reference is act(A B +
 * bias[col]) in double (the host's, or jd_bias_act_f64 on cuBLAS's DGEMM
 * for the large and timed ones) at 1.2 hgemm_atol(K) (test_week28.c's
 * fused_atol); the timed shape is M = 8192, N = 4096, K = 512 with a bias
 * and ReLU, the bias N floats 256-byte aligned after B in B's buffer (the
 * protocol sends two inputs a call), and the yardstick cuBLASLt's
 * RELU_BIAS (HG_YARD_LT, the week's given support/yard_epilogue.cu) in
 * judge-w28-yard-runner. */
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

#include "judge.h"
#include "judge_hgemm.h"
#include "judge_kernels.h"
#include "judge_week.h"
#include "hgemm_check.h" /* the test's shapes and tolerance */
#include "wb_compare.h"
#include "wb_f16.h"
#include "wb_rand.h"

#define LO     (-1.0f)
#define HI     1.0f
#define BENCH  4096 /* the speed checkpoints' M = N = K, as the tests' */
#define TIMED  JD_YARD_TIMED
#define BIAS_LO (-2.0f) /* week 28's bias, as test_week28.c draws it */
#define BIAS_HI 2.0f

/* Week 28's epilogue: the activation (gemm_epilogue.h's ACT_NONE 0, ACT_RELU
 * 1, ACT_GELU 2), whether there is a bias, and (large and timed cases) the
 * seed its N floats are drawn from in [BIAS_LO, BIAS_HI). */
typedef struct {
    int                act, with_bias;
    unsigned long long sbias;
} hg_epi;

/* The activations in double, as gemm_epilogue.h defines them (test_week28.c's act_ref). */
static double act_ref(double v, int act)
{
    if (act == 1) return v < 0 ? 0 : v;
    if (act == 2) return 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    return v;
}

/* The tolerance at K: the tests' hgemm_atol, week 28's with its 20 % margin. */
static double atol_for(const hg_week *w, int K) { return (w->atol_scale > 0 ? w->atol_scale : 1) * hgemm_atol(K); }

/* ---------------------------------------------------------------- the reference in double */

static cublasHandle_t g_blas;

/* ref (device, M x N doubles, row-major) = A B in double, A (M x K) and B
 * (K x N) the halves jd_hash_half draws from sa and sb in [LO, HI), then
 * (e not NULL) week 28's act(ref + bias[col]); da and db device scratch of
 * M K and K N doubles. 0, or -1. Waited for. */
static int ref_gemm(int M, int N, int K, unsigned long long sa, unsigned long long sb, double *da, double *db,
                    double *ref, const hg_epi *e)
{
    if (!g_blas) {
        if (cublasCreate(&g_blas) != CUBLAS_STATUS_SUCCESS) return g_blas = NULL, -1;
        if (cublasSetStream(g_blas, jd_stream) != CUBLAS_STATUS_SUCCESS) return -1;
    }
    if (jd_hash_half(da, JD_HALF_F64, (size_t)M * K, sa, LO, HI, jd_stream) != cudaSuccess ||
        jd_hash_half(db, JD_HALF_F64, (size_t)K * N, sb, LO, HI, jd_stream) != cudaSuccess)
        return -1;
    const double one = 1.0, zero = 0.0; /* row-major C = A B is column-major C^T = B^T A^T */
    if (cublasDgemm(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, db, N, da, K, &zero, ref, N) !=
        CUBLAS_STATUS_SUCCESS)
        return -1;
    if (e && (e->act || e->with_bias) &&
        jd_bias_act_f64(ref, (size_t)M * N, (size_t)N, e->sbias, e->with_bias, BIAS_LO, BIAS_HI, e->act, jd_stream) !=
            cudaSuccess)
        return -1;
    return cudaStreamSynchronize(jd_stream) == cudaSuccess ? 0 : -1;
}

/* ---------------------------------------------------------------- correctness */

/* got (n floats of C) against ref (double) within atol + HGEMM_RTOL |ref|: 0, or 1 with t's message. */
static int expect_c(const float *got, const double *ref, size_t n, double atol, const char *what, jd_tally *t)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &got[i], 4);
        if (isnan(ref[i]) && u == 0xffffffffu)
            return jd_failf(t, "%s: C[%zu], where NaN is expected, was never written (it still holds the poison)", what, i), 1;
        if (!wb_close(got[i], ref[i], atol, HGEMM_RTOL))
            return jd_failf(t, "%s: C[%zu] expected %.9g got %.9g", what, i, ref[i], (double)got[i]), 1;
    }
    return 0;
}

/* One case's inputs: on the host (ha, hb: the halves, ref: the product in
 * double), or, for a large shape (ha NULL), drawn on the device from sa, sb
 * (ref computed by ref_gemm after the call). */
typedef struct {
    int M, N, K, off;
    const uint16_t *ha, *hb;
    unsigned long long sa, sb;
    double *ref;
    const char *what;
    const float *bias; /* week 28 (w->epi): N floats, NULL for a large case (drawn from epi.sbias) */
    hg_epi epi;
} hg_case;

/* The case: A, B and C guarded (A and B `off` halves, C `off` floats past
 * the band), C poisoned, the student's function called, C read back (the
 * bands checked) and compared. 0 when it ran (passed or failed), -1 when the
 * runner or the judge's own copies failed. */
static int run_case(jd *J, const hg_week *w, hg_case *c, jd_tally *t)
{
    size_t na = (size_t)c->M * c->K, nb = (size_t)c->K * c->N, nc = (size_t)c->M * c->N, off = (size_t)c->off;
    jd_gbuf A = { .id = -1 }, B = { .id = -1 }, C = { .id = -1 }, Bias = { .id = -1 };
    float *hbias = NULL;
    float *got = malloc((nc + 1) * 4);
    double *da = NULL, *db = NULL, *dref = NULL;
    int rc = -1;
    t->tests++;
    if (!got) return jd_failf(t, "%s: the judge is out of memory", c->what), -1;
    if (jd_gbuf_alloc(J, &A, (na + off) * 2, t) != 0 || jd_gbuf_alloc(J, &B, (nb + off) * 2, t) != 0 ||
        jd_gbuf_alloc(J, &C, (nc + off) * 4, t) != 0 ||
        (w->epi && jd_gbuf_alloc(J, &Bias, ((size_t)c->N + off) * 4, t) != 0))
        goto out;
    if (w->epi) { /* the bias, `off` floats in as C (the test's), from the case or its seed */
        const float *b = c->bias;
        if (!b) {
            if (!(hbias = malloc(((size_t)c->N + 1) * 4))) goto copies;
            for (int x = 0; x < c->N; x++) hbias[x] = wb_hash_uniform_f32(c->epi.sbias, (size_t)x, BIAS_LO, BIAS_HI);
            b = hbias;
        }
        if (jd_gbuf_put(&Bias, off * 4, b, (size_t)c->N * 4) != 0) goto copies;
    }
    if (c->ha) {
        if (jd_gbuf_put(&A, off * 2, c->ha, na * 2) != 0 || jd_gbuf_put(&B, off * 2, c->hb, nb * 2) != 0) goto copies;
    } else if (jd_hash_half(A.d + JD_GBAND + off * 2, JD_HALF_BITS, na, c->sa, LO, HI, jd_stream) != cudaSuccess ||
               jd_hash_half(B.d + JD_GBAND + off * 2, JD_HALF_BITS, nb, c->sb, LO, HI, jd_stream) != cudaSuccess ||
               cudaStreamSynchronize(jd_stream) != cudaSuccess) {
        goto copies;
    }
    if (jd_gbuf_poison(&C, off * 4, nc * 4) != 0) goto copies;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, w->fn ? w->fn : HG_FN_STUDENT, 1, w->epi ? 4 : 3);
    jd_gbuf_arg(&rq, 0, &A, off * 2);
    jd_gbuf_arg(&rq, 1, &B, off * 2);
    jd_gbuf_arg(&rq, 2, &C, off * 4);
    rq.i64[0] = (long long)nc, rq.i64[1] = c->M, rq.i64[2] = c->N, rq.i64[3] = c->K;
    if (w->epi) {
        if (c->epi.with_bias) jd_gbuf_arg(&rq, 3, &Bias, off * 4); /* else p[3] NULL */
        rq.i64[4] = c->epi.act;
    }
    if (jd_call(J, &rq, &rp, NULL) != 0) {
        jd_failf(t, "%s: %s", c->what, J->why);
        goto out;
    }
    rc = 0;
    if (rp.status != 0) {
        jd_failf(t, "%s: %s returned %s", c->what, w->fn_name,
                 rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status));
        goto out;
    }
    int f = jd_gbuf_fetch(&C, off * 4, nc * 4, got, "C", c->what, t);
    if (f) {
        rc = f < 0 ? -1 : 0;
        goto out;
    }
    if (!c->ha) { /* the large shape's reference: cuBLAS's DGEMM of the same halves */
        if (cudaMalloc((void **)&da, na * 8) != cudaSuccess || cudaMalloc((void **)&db, nb * 8) != cudaSuccess ||
            cudaMalloc((void **)&dref, nc * 8) != cudaSuccess ||
            ref_gemm(c->M, c->N, c->K, c->sa, c->sb, da, db, dref, w->epi ? &c->epi : NULL) != 0 ||
            cudaMemcpy(c->ref, dref, nc * 8, cudaMemcpyDeviceToHost) != cudaSuccess) {
            rc = -1;
            jd_failf(t, "%s: the judge's reference (cuBLAS's DGEMM) failed", c->what);
            goto out;
        }
    }
    expect_c(got, c->ref, nc, atol_for(w, c->K), c->what, t);
    goto out;
copies:
    jd_failf(t, "%s: the judge's own copies failed", c->what);
out:
    cudaFree(da), cudaFree(db), cudaFree(dref);
    cudaGetLastError(); /* a failed allocation above is not the next call's error */
    jd_gbuf_free(J, &A), jd_gbuf_free(J, &B), jd_gbuf_free(J, &C), jd_gbuf_free(J, &Bias);
    free(got), free(hbias);
    return rc;
}

/* A case of the test's own drawing (hgemm_case_open): A and B uniform in
 * [-1, 1] from the test's tag and index for the hidden seed, (week 28) N
 * bias floats in [-2, 2], the NaN and infinities `special` asks for
 * (HGEMM_NAN_INF, HGEMM_NAN_PM_INF), rounded to half; the product in double
 * on the host, (week 28) act(product + bias[col]) with the bias when
 * e->with_bias (drawn either way, as the test's). 0 ran, -1 lost. */
static int host_case(jd *J, const hg_week *w, const char *test, int i, int M, int N, int K, int special, int off,
                     const hg_epi *e, jd_tally *t)
{
    static const char *ACT[] = { "none", "relu", "gelu" };
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    char tag[64], what[200], ew[40] = "";
    snprintf(tag, sizeof tag, "%s_%s_fn", w->tag, test);
    if (w->epi) snprintf(ew, sizeof ew, " act=%s%s", ACT[e->act], e->with_bias ? " bias" : " no bias");
    snprintf(what, sizeof what, "M=%d N=%d K=%d%s%s%s", M, N, K, ew, special ? " with NaN and Inf inputs" : "",
             off ? (off % 2 ? " (A, B, C unaligned: C 4-byte aligned)" : " (A, B, C unaligned: C 8-byte aligned)") : "");
    float *fa = malloc((na + 1) * 4), *fb = malloc((nb + 1) * 4), *bias = malloc(((size_t)N + 1) * 4);
    uint16_t *ha = malloc((na + 1) * 2), *hb = malloc((nb + 1) * 2);
    double *ref = calloc(nc + 1, 8);
    int rc = -1;
    if (!fa || !fb || !ha || !hb || !ref || !bias) {
        jd_failf(t, "%s: the judge is out of memory", what);
    } else {
        wb_rng r = wb_rng_for_seed(jd_seed, tag, i);
        wb_fill_uniform_f32(&r, fa, na, -1, 1);
        wb_fill_uniform_f32(&r, fb, nb, -1, 1);
        if (w->epi) wb_fill_uniform_f32(&r, bias, (size_t)N, BIAS_LO, BIAS_HI);
        if (special && na && nb) {
            fa[wb_rng_int(&r, 0, (int64_t)na - 1)] = NAN;
            fb[wb_rng_int(&r, 0, (int64_t)nb - 1)] = INFINITY;
            if (special == HGEMM_NAN_PM_INF) fb[wb_rng_int(&r, 0, (int64_t)nb - 1)] = -INFINITY;
        }
        for (size_t k = 0; k < na; k++) ha[k] = wb_f32_to_f16(fa[k]), fa[k] = wb_f16_to_f32(ha[k]);
        for (size_t k = 0; k < nb; k++) hb[k] = wb_f32_to_f16(fb[k]), fb[k] = wb_f16_to_f32(hb[k]);
        for (int y = 0; y < M; y++)
            for (int k = 0; k < K; k++) {
                double a = fa[(size_t)y * K + k];
                const float *brow = fb + (size_t)k * N;
                double *crow = ref + (size_t)y * N;
                for (int x = 0; x < N; x++) crow[x] += a * brow[x];
            }
        hg_case c = { M, N, K, off, ha, hb, 0, 0, ref, what, bias, { 0, 0, 0 } };
        if (w->epi) {
            c.epi = *e;
            for (size_t k = 0; k < nc; k++) ref[k] = act_ref(ref[k] + (e->with_bias ? bias[k % N] : 0), e->act);
        }
        rc = run_case(J, w, &c, t);
    }
    free(fa), free(fb), free(ha), free(hb), free(ref), free(bias);
    return rc;
}

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

/* hgemm_check.h's cases (weeks 25, 26 and 27's hgemm_tiled and cutlass_hgemm). */
static const hg_cases *default_cases(void)
{
    static hg_shape sh[COUNT(HGEMM_SHAPES)], sp[COUNT(HGEMM_SPECIAL)], un[COUNT(HGEMM_UNALIGNED)], lg[COUNT(HGEMM_LARGE)];
    static hg_cases c;
    for (int i = 0; i < COUNT(HGEMM_SHAPES); i++) sh[i] = (hg_shape){ HGEMM_SHAPES[i].M, HGEMM_SHAPES[i].N, HGEMM_SHAPES[i].K, 0 };
    for (int i = 0; i < COUNT(HGEMM_SPECIAL); i++) sp[i] = (hg_shape){ HGEMM_SPECIAL[i].M, HGEMM_SPECIAL[i].N, HGEMM_SPECIAL[i].K, 0 };
    for (int i = 0; i < COUNT(HGEMM_UNALIGNED); i++)
        un[i] = (hg_shape){ HGEMM_UNALIGNED[i].M, HGEMM_UNALIGNED[i].N, HGEMM_UNALIGNED[i].K, HGEMM_UNALIGNED[i].off };
    for (int i = 0; i < COUNT(HGEMM_LARGE); i++) lg[i] = (hg_shape){ HGEMM_LARGE[i].M, HGEMM_LARGE[i].N, HGEMM_LARGE[i].K, 0 };
    c = (hg_cases){ sh, sp, un, lg, COUNT(sh), COUNT(sp), HGEMM_NAN_INF, COUNT(un), COUNT(lg) };
    return &c;
}

void hg_judge_correct(jd_ck *k, const hg_week *w)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    const hg_cases *cs = w->cases ? w->cases : default_cases();
    int lost = 0;
    for (int i = 0; !lost && i < cs->n_shapes; i++)
        lost = host_case(J, w, "shapes", i, cs->shapes[i].M, cs->shapes[i].N, cs->shapes[i].K, HGEMM_FINITE, 0, NULL,
                         t) < 0;
    for (int i = 0; !lost && i < cs->n_special; i++)
        lost = host_case(J, w, "nan_inf", i, cs->special[i].M, cs->special[i].N, cs->special[i].K, cs->special_kind, 0,
                         NULL, t) < 0;
    for (int i = 0; !lost && i < cs->n_unaligned; i++) {
        hg_shape s = cs->unaligned[i];
        lost = host_case(J, w, "unaligned", i, s.M, s.N, s.K, HGEMM_FINITE, s.off, NULL, t) < 0;
    }
    for (int i = 0; !lost && i < cs->n_large; i++) {
        hg_shape s = cs->large[i];
        size_t nc = (size_t)s.M * s.N;
        double *ref = malloc(nc * 8);
        char what[96];
        snprintf(what, sizeof what, "M=%d N=%d K=%d (every element)", s.M, s.N, s.K);
        if (!ref) {
            jd_failf(t, "%s: the judge is out of memory", what);
            break;
        }
        uint64_t h = jd_mix(jd_seed ^ 0x4847454d4d4c41ull ^ (uint64_t)i); /* the hidden seed's, this case's */
        hg_case c = { s.M, s.N, s.K, 0, NULL, NULL, jd_mix(h ^ 1), jd_mix(h ^ 2), ref, what, NULL, { 0, 0, 0 } };
        lost = run_case(J, w, &c, t) < 0;
        free(ref);
    }
}

/* test_week28.c's cases, in its order and with its tags and indices:
 * fused_shapes (HGEMM_SHAPES[i / 3], activation i % 3, a bias unless
 * (i / 3) % 4 == 1), fused_nan_inf (M = 40 + 216 (i / 3), N = 300, K = 50 +
 * 14 (i / 3), a NaN in A, +Inf and -Inf in B, a bias), fused_unaligned
 * (HGEMM_UNALIGNED[i / 3], a bias `off` floats in as C), fused_large
 * (HGEMM_LARGE[i], GELU then ReLU, a bias: every element here, sampled
 * there; inputs and bias from the hidden seed, the reference cuBLAS's DGEMM
 * with the epilogue applied in double). */
void hg_judge_fused(jd_ck *k, const hg_week *w)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    int lost = 0, nsh = (int)(sizeof HGEMM_SHAPES / sizeof *HGEMM_SHAPES),
        nun = (int)(sizeof HGEMM_UNALIGNED / sizeof *HGEMM_UNALIGNED);
    for (int i = 0; !lost && i < 3 * nsh; i++) {
        const hgemm_shape *s = &HGEMM_SHAPES[i / 3];
        hg_epi e = { i % 3, (i / 3) % 4 != 1, 0 };
        lost = host_case(J, w, "shapes", i, s->M, s->N, s->K, HGEMM_FINITE, 0, &e, t) < 0;
    }
    for (int i = 0; !lost && i < 6; i++) {
        hg_epi e = { i % 3, 1, 0 };
        lost = host_case(J, w, "nan_inf", i, 40 + 216 * (i / 3), 300, 50 + 14 * (i / 3), HGEMM_NAN_PM_INF, 0, &e, t) < 0;
    }
    for (int i = 0; !lost && i < 3 * nun; i++) {
        const hgemm_offset_shape *s = &HGEMM_UNALIGNED[i / 3];
        hg_epi e = { i % 3, 1, 0 };
        lost = host_case(J, w, "unaligned", i, s->M, s->N, s->K, HGEMM_FINITE, s->off, &e, t) < 0;
    }
    for (int i = 0; !lost && i < (int)(sizeof HGEMM_LARGE / sizeof *HGEMM_LARGE); i++) {
        hgemm_shape s = HGEMM_LARGE[i];
        size_t nc = (size_t)s.M * s.N;
        double *ref = malloc(nc * 8);
        char what[120];
        snprintf(what, sizeof what, "M=%d N=%d K=%d act=%s bias (every element)", s.M, s.N, s.K, i ? "relu" : "gelu");
        if (!ref) {
            jd_failf(t, "%s: the judge is out of memory", what);
            break;
        }
        uint64_t h = jd_mix(jd_seed ^ 0x4550494c4f475545ull ^ (uint64_t)i); /* the hidden seed's, this case's */
        hg_case c = { s.M, s.N, s.K, 0, NULL, NULL, jd_mix(h ^ 1), jd_mix(h ^ 2), ref, what, NULL,
                      { i ? 1 : 2, 1, jd_mix(h ^ 3) } };
        lost = run_case(J, w, &c, t) < 0;
        free(ref);
    }
}

/* ---------------------------------------------------------------- speed */

/* The timed calls' shapes: i64[1..3] M, N, K; week 28's i64[4] the
 * activation and i64[5] the byte offset of the bias in the second input's
 * buffer (0: none). Each input buffer holds max(M K, K N) halves from its
 * seed (A reads the first M K, B the first K N: element i of a fill is the
 * same whatever its length), then, week 28's, N bias floats at i64[5] from
 * bias_seed of the buffer's seed (only the second input's is read). */
static unsigned long long bias_seed(unsigned long long seed) { return jd_mix(seed ^ 0x62696173ull); }
static size_t bench_halves(const jd_bench *b)
{
    size_t mk = (size_t)b->i64[1] * b->i64[3], kn = (size_t)b->i64[3] * b->i64[2];
    return mk > kn ? mk : kn;
}

/* The timed reps' references: the DGEMM of a rep's inputs, by their seeds,
 * one slot a rep (as many as the device holds, then reused in turn), so the
 * look's expected values before a request and the full checks after it
 * compute each rep's product once. */
typedef struct {
    unsigned long long sa, sb;
    int                ok;
    double            *ref;
} ref_slot;
static ref_slot g_slot[JD_BENCH_MAX_K];
static int      g_nslot, g_turn;
static double  *g_da, *g_db;

static void refs_release(void)
{
    for (int i = 0; i < g_nslot; i++) cudaFree(g_slot[i].ref);
    cudaFree(g_da), cudaFree(g_db);
    g_da = g_db = NULL, g_nslot = 0, g_turn = 0;
    cudaGetLastError();
}

static const double *bench_ref(const jd_bench *b, const unsigned long long *seed)
{
    int M = (int)b->i64[1], N = (int)b->i64[2], K = (int)b->i64[3];
    for (int i = 0; i < g_nslot; i++)
        if (g_slot[i].ok && g_slot[i].sa == seed[0] && g_slot[i].sb == seed[1]) return g_slot[i].ref;
    if (!g_da && (cudaMalloc((void **)&g_da, (size_t)M * K * 8) != cudaSuccess ||
                  cudaMalloc((void **)&g_db, (size_t)K * N * 8) != cudaSuccess)) {
        refs_release();
        return NULL;
    }
    ref_slot *s = NULL;
    if (g_nslot < JD_BENCH_MAX_K) {
        double *r = NULL;
        if (cudaMalloc((void **)&r, (size_t)M * N * 8) == cudaSuccess) s = &g_slot[g_nslot++], s->ref = r;
        cudaGetLastError();
    }
    if (!s) {
        if (!g_nslot) return NULL;
        s = &g_slot[g_turn++ % g_nslot];
    }
    s->ok = 0;
    hg_epi e = { (int)b->i64[4], b->i64[5] > 0, bias_seed(seed[1]) }; /* week 28's: the bias after B */
    if (ref_gemm(M, N, K, seed[0], seed[1], g_da, g_db, s->ref, &e) != 0) return NULL;
    s->sa = seed[0], s->sb = seed[1], s->ok = 1;
    return s->ref;
}

/* Element i of C for inputs from seed[0] (A) and seed[1] (B): the look's expected value. */
static float bench_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    const double *ref = bench_ref(b, seed);
    double r = NAN;
    if (!ref || cudaMemcpy(&r, ref + i, sizeof r, cudaMemcpyDeviceToHost) != cudaSuccess) return NAN;
    return (float)r;
}

/* Every element of a timed C: finite and within the test's tolerance of the double product. */
static int bench_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                       unsigned long long h[2])
{
    const double *ref = bench_ref(b, seed);
    if (!ref) return -1;
    return jd_full_check_done(jd_prefix_check_f32(out, ref, b->n, b->atol, b->rtol, bad, jd_stream), bad, h);
}

/* An input: the halves (the SIMT GEMM's: floats holding the same halves)
 * from seed, and week 28's bias after them. */
static void fill_halves(const jd_bench *b, void *in, unsigned long long seed)
{
    jd_hash_half(in, b->fn == HG_YARD_SIMT ? JD_HALF_F32 : JD_HALF_BITS, bench_halves(b), seed, b->lo, b->hi, 0);
    if (b->i64[5] > 0) wb_dfill_uniform_f32((float *)((char *)in + b->i64[5]), (size_t)b->i64[2], bias_seed(seed), BIAS_LO, BIAS_HI);
}

/* fn at the week's timed shape (BENCH^3 unless w says): two inputs (A, and
 * B with week 28's bias after it), C out (the protocol's n: M N floats),
 * the test's tolerance at K. */
static void bench_setup(jd_bench *x, int fn, const char *fn_name, const hg_week *w)
{
    int M = w->bm ? w->bm : BENCH, N = w->bn ? w->bn : BENCH, K = w->bk ? w->bk : BENCH;
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 2, x->max_k = JD_BENCH_MAX_K, x->n = (size_t)M * N;
    x->i64[1] = M, x->i64[2] = N, x->i64[3] = K;
    size_t halves = bench_halves(x) * (fn == HG_YARD_SIMT ? 4 : 2);
    x->in_bytes = halves;
    if (w->epi) { /* the bias 256-byte aligned after the halves, and the activation */
        x->i64[4] = w->bact, x->i64[5] = (long long)((halves + 255) / 256 * 256);
        x->in_bytes = (size_t)x->i64[5] + (size_t)N * 4;
    }
    x->fill = fill_halves;
    x->lo = LO, x->hi = HI, x->atol = atol_for(w, K), x->rtol = HGEMM_RTOL;
    x->fn_name = fn_name, x->out_name = "C", x->expect = bench_expect, x->full_check = bench_check;
}

/* The yardsticks: 0 cuBLAS, 1 the given SIMT GEMM, 2 week 28's cuBLASLt
 * fused epilogue, 3 week 26's reference kernel (week 27's). */
static const struct {
    int         fn;
    const char *name, *label;
} YARD[4] = { { HG_YARD_CUBLAS, "cublasGemmEx", "cuBLAS" },
              { HG_YARD_SIMT, "yard_sgemm_simt", "SIMT" },
              { HG_YARD_LT, "cublasLtMatmul RELU_BIAS", "cuBLASLt" },
              { HG_YARD_W26, "hgemm_mma (week 26's reference)", "W26" } };

static jd_bench g_mine, g_yard; /* large: their sample arrays */
static double   g_before_ms[4] = { NAN, NAN, NAN, NAN };
static char     g_before_why[4][600];

static void yard_before(const hg_week *w, int y)
{
    bench_setup(&g_yard, YARD[y].fn, YARD[y].name, w);
    if (jd_yard_bench(w->yard_runner, &g_yard, TIMED, &g_before_ms[y], g_before_why[y], sizeof g_before_why[y]) != 0)
        g_before_ms[y] = NAN;
    refs_release();
}

void hg_cublas_before(const hg_week *w) { yard_before(w, 0); }
void hg_simt_before(const hg_week *w) { yard_before(w, 1); }
void hg_lt_before(const hg_week *w) { yard_before(w, 2); }
void hg_w26_before(const hg_week *w) { yard_before(w, 3); }

/* The student's function timed, then yardstick y again (the faster of
 * before and after kept); TFLOP/s of each, their ratio the figure. */
static void judge_speed(jd_ck *k, const hg_week *w, int y)
{
    double ms = NAN, yms = NAN, value = NAN, yard = NAN;
    char why[700] = "", ywhy[600] = "", detail[240] = "", shape[48];
    bench_setup(&g_mine, w->epi ? HG_FN_PACKED : w->fn ? w->fn : HG_FN_STUDENT, w->fn_name, w);
    long long M = g_mine.i64[1], N = g_mine.i64[2], K = g_mine.i64[3];
    double flops = 2.0 * M * N * K;
    if (M == N && N == K) snprintf(shape, sizeof shape, "%lld^3", M);
    else snprintf(shape, sizeof shape, "M=%lld N=%lld K=%lld", M, N, K);
    int rc = jd_bench_run(k->J, &g_mine, TIMED, &ms, why, sizeof why);
    refs_release();
    if (rc == 0) {
        double after = NAN;
        bench_setup(&g_yard, YARD[y].fn, YARD[y].name, w);
        yms = jd_yard_faster(w->yard_runner, &g_yard, TIMED, g_before_ms[y], g_before_why[y], &after, ywhy, sizeof ywhy);
        refs_release();
        if (!(yms > 0)) {
            snprintf(why, sizeof why, "no figure for %s: %s", YARD[y].name, ywhy);
        } else {
            value = flops / (ms * 1e-3) / 1e12, yard = flops / (yms * 1e-3) / 1e12;
            snprintf(detail, sizeof detail, "%.4g TFLOP/s vs %s %.4g at %s (judge's clock, %d calls a request, median of %d)",
                     value, YARD[y].label, yard, shape, g_mine.k, TIMED);
            printf("  %s: %.4f ms a call by the judge's clock (%.4f by the runner's own); %s %.4f (before the runner "
                   "%.4f, after %.4f): %.3fx\n",
                   w->fn_name, ms, g_mine.runner_ms, YARD[y].name, yms, g_before_ms[y], after, yms / ms);
        }
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "TFLOP/s", YARD[y].label, yard, detail, why);
}

void hg_judge_vs_cublas(jd_ck *k, const hg_week *w) { judge_speed(k, w, 0); }
void hg_judge_vs_simt(jd_ck *k, const hg_week *w) { judge_speed(k, w, 1); }
void hg_judge_vs_lt(jd_ck *k, const hg_week *w) { judge_speed(k, w, 2); }
void hg_judge_vs_w26(jd_ck *k, const hg_week *w) { judge_speed(k, w, 3); }
