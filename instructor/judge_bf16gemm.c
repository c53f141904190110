/* judge_bf16gemm.c — the checks of the Hopper-track BF16 GEMM weeks'
 * judges (judge_w54.c: wgmma_gemm_bf16; judge_w55.c: ws_gemm_bf16 and
 * ws_gemm_bf16_grid; judge_bf16gemm.h). Links no student
 * code: the student's function is called by the week's runner on guarded
 * buffers this process allocated, filled and poisoned.
 *
 * Correctness (w54.gemm, w55.gemm): the test's cases (copied into the week's judge),
 * each drawn as bf16_check_gemm draws it (A then B uniform in [-1, 1], a
 * NaN in A, +Inf and -Inf in B for the special ones, rounded to BF16) from
 * wb_rng_for_seed with the week's tag for the hidden seed; C (M rows of
 * ldc = N + pad floats) starts `off` floats past the band and is poisoned
 * whole with JD_GBAND bytes of poison on each side (jd_gbuf, as the test's
 * wb_dout); every element of the M x N result within bf16_gemm_atol(K) +
 * BF16_GEMM_RTOL |ref| of the product in double (an element still the
 * poison where NaN is due counts as not written), every padding float
 * still the poison, nothing written outside C. The large shapes, which the
 * test samples at 4096 elements, are checked at every element: their
 * inputs filled on the device from hidden seeds (wb_dfill_uniform_bf16,
 * the test's fill), their reference cuBLAS's DGEMM of the same BF16 values
 * (the judge links cuBLAS: instructor code). The refusals: each of the
 * test's cases on real buffers, cudaErrorInvalidValue and C (poisoned)
 * untouched; and the empty shapes on NULL pointers, cudaSuccess. That the
 * refusals come before any CUDA call is the test's CPU half
 * (gemm_contract), judged here too through a runner that opens no GPU
 * (bg_judge_contract: host buffers, only its FAIL stands).
 *
 * Week 55's function takes a grid as well: every case is run through
 * ws_gemm_bf16_grid on the case's grid, and the refusals through both
 * entries, as the test's bf16_gemm_api with a grid_fn does.
 *
 * Speed (w54.gemm-speed, w55.gemm-speed, each through its plain entry): the timed-call protocol (judge_week.h) at
 * 4096^3: K calls a request, each on its own A and B fresh from the hidden
 * seed (BF16 in [-1, 1), wb_dfill_uniform_bf16) and its own poisoned C, the
 * judge's look after the reply, then every element of every timed C
 * checked within the test's tolerance of the double product (the DGEMM of
 * that rep's inputs, cached by their seeds; jd_prefix_check_f32: every
 * element finite and close); the median of 7 requests. The yardstick,
 * cublasGemmEx BF16 TN (bf16_gemm_cublas_tn), runs through a runner of the
 * instructor's (judge_bf16gemm_yard_runner.c, beside the judge, no student
 * object; judge-w54-yard-runner, which week 55's judge runs too) on the
 * same protocol, sizes, fresh inputs and checks, before the
 * student's runner starts and again after the student's calls, the faster
 * kept (jd_yard_faster). TFLOP/s = 2 4096^3 / the median call's time by
 * the judge's clock.
 *
 * Off compute capability 9.0 the GPU checkpoints SKIP with the test's
 * reason (the kernels are sm_90a code). */
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
#include "judge_bf16gemm.h"
#include "judge_bf16gemm_kernels.h"
#include "judge_gemm_refs.h"
#include "judge_kernels.h"
#include "judge_week.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_f16.h"
#include "wb_rand.h"

#define LO    (-1.0f)
#define HI    1.0f
#define BENCH 4096 /* the speed checkpoint's M = N = K, as the tests' */
#define TIMED JD_YARD_TIMED
#define POISON 0xffffffffu

int bg_on_sm90(const bg_week *w, jd_tally *t) { return jd_on_sm90(t, w->sm90_what); }

const bf16_refused_case bg_refused[BG_N_REFUSED_TMA + 1] = {
    { 8, 8, 12, 8, 0, 0, "K = 12 is not a multiple of 8 (24-byte rows)", 0 },
    { 8, 8, 7, 8, 0, 0, "K = 7", 0 },
    { 8, 8, 8, 7, 0, 0, "ldc < N", 0 },
    { -1, 8, 8, 8, 0, 0, "M < 0", 0 },
    { 8, -8, 8, 8, 0, 0, "N < 0", 0 },
    { 8, 8, -8, 8, 0, 0, "K < 0", 0 },
    { 8, 8, 8, 8, 4, 0, "A 8 bytes past a 16-byte boundary", 0 },
    { 8, 8, 8, 8, 0, 1, "B 2 bytes past a 16-byte boundary", 0 },
    { 8, 8, 8, 8, 0, 0, "grid < 0", -1 },
};

static const bg_week *g_week;
void bg_use(const bg_week *w) { g_week = w; }
void bg_gemm_ck(jd_ck *k) { bg_judge_gemm(k, g_week); }
void bg_contract_ck(jd *J, jd_tally *t) { bg_judge_contract(J, t, g_week); }
void bg_speed_ck(jd_ck *k) { bg_judge_vs_cublas(k, g_week); }
void bg_before(void) { bg_cublas_before(g_week); }

/* ---------------------------------------------------------------- the reference in double */

static cublasHandle_t g_blas;

/* ref (device, M x N doubles, row-major) = A B^T in double, A (M x K) and B
 * (N x K) the BF16 values wb_dfill_uniform_bf16 draws from sa and sb in
 * [LO, HI), drawn again here into the judge's own scratch (h16a, h16b: M K
 * and N K halves; da, db: as many doubles), never read from the buffers
 * the runner maps. 0, or -1. Waited for. */
static int ref_gemm(int M, int N, int K, unsigned long long sa, unsigned long long sb, uint16_t *h16a, uint16_t *h16b,
                    double *da, double *db, double *ref)
{
    wb_dfill_uniform_bf16(h16a, (size_t)M * K, sa, LO, HI);
    wb_dfill_uniform_bf16(h16b, (size_t)N * K, sb, LO, HI);
    if (!g_blas) {
        if (cublasCreate(&g_blas) != CUBLAS_STATUS_SUCCESS) return g_blas = NULL, -1;
        if (cublasSetStream(g_blas, jd_stream) != CUBLAS_STATUS_SUCCESS) return -1;
    }
    if (cudaDeviceSynchronize() != cudaSuccess || /* the fills, on the default stream */
        jd_bf16_to_f64(h16a, da, (size_t)M * K, jd_stream) != cudaSuccess ||
        jd_bf16_to_f64(h16b, db, (size_t)N * K, jd_stream) != cudaSuccess)
        return -1;
    /* row-major C = A B^T is column-major C^T (N x M) = B A^T: B^T's column-major K x N read transposed */
    const double one = 1.0, zero = 0.0;
    if (cublasDgemm(g_blas, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, db, K, da, K, &zero, ref, N) !=
        CUBLAS_STATUS_SUCCESS)
        return -1;
    return cudaStreamSynchronize(jd_stream) == cudaSuccess ? 0 : -1;
}

/* ---------------------------------------------------------------- correctness */

/* One case: on the host (ha, hb: the BF16 bits, ref: the product in double),
 * or, for a large one (ha NULL), filled on the device from sa, sb (ref by
 * cuBLAS's DGEMM after the call). */
typedef struct {
    bf16_gemm_shape s;
    const uint16_t *ha, *hb;
    unsigned long long sa, sb;
    double *ref; /* M x N */
    const char *what;
} bg_case;

/* The call's request: A, B, C as given, the shape, ldc, the grid (through
 * the grid entry where the week has one, as the test's bf16_check_gemm). */
static void gemm_request(jd_req *rq, const bg_week *w, int M, int N, int K, size_t ldc, int grid)
{
    jd_call_setup(rq, w->grid_name ? BG_FN_GRID : BG_FN_GEMM, 1, 3);
    rq->i64[0] = (long long)M * N, rq->i64[1] = M, rq->i64[2] = N, rq->i64[3] = K, rq->i64[4] = (long long)ldc;
    rq->i64[5] = grid;
}

static const char *called(const bg_week *w) { return w->grid_name ? w->grid_name : w->fn_name; }

/* The case: A, B and C guarded, C poisoned, the student's function called,
 * C read back (the bands checked), every element, every padding float.
 * 0 when it ran (passed or failed), -1 when the runner or the judge's own
 * copies failed. */
static int run_case(jd *J, const bg_week *w, bg_case *c, jd_tally *t)
{
    const size_t M = (size_t)c->s.M, N = (size_t)c->s.N, K = (size_t)c->s.K, ldc = N + (size_t)c->s.pad;
    const size_t na = M * K, nb = N * K, nc = M * ldc, off = (size_t)c->s.off;
    jd_gbuf A = { .id = -1 }, B = { .id = -1 }, C = { .id = -1 };
    float *got = malloc((nc + 1) * 4);
    double *da = NULL, *db = NULL, *dref = NULL;
    uint16_t *ha = NULL, *hb = NULL;
    int rc = -1;
    t->tests++;
    if (!got) return jd_failf(t, "%s: the judge is out of memory", c->what), -1;
    if (jd_gbuf_alloc(J, &A, na * 2 + 16, t) != 0 || jd_gbuf_alloc(J, &B, nb * 2 + 16, t) != 0 ||
        jd_gbuf_alloc(J, &C, (nc + off) * 4, t) != 0)
        goto out;
    if (c->ha) {
        if (jd_gbuf_put(&A, 0, c->ha, na * 2) != 0 || jd_gbuf_put(&B, 0, c->hb, nb * 2) != 0) goto copies;
    } else {
        wb_dfill_uniform_bf16((uint16_t *)(A.d + JD_GBAND), na, c->sa, LO, HI);
        wb_dfill_uniform_bf16((uint16_t *)(B.d + JD_GBAND), nb, c->sb, LO, HI);
        if (cudaDeviceSynchronize() != cudaSuccess) goto copies;
    }
    if (jd_gbuf_poison(&C, off * 4, nc * 4) != 0) goto copies;
    jd_req rq;
    jd_rep rp;
    gemm_request(&rq, w, c->s.M, c->s.N, c->s.K, ldc, c->s.grid);
    jd_gbuf_arg(&rq, 0, na ? &A : NULL, 0);
    jd_gbuf_arg(&rq, 1, nb ? &B : NULL, 0);
    jd_gbuf_arg(&rq, 2, &C, off * 4);
    if (jd_call(J, &rq, &rp, NULL) != 0) {
        jd_failf(t, "%s: %s", c->what, J->why);
        goto out;
    }
    rc = 0;
    if (rp.status != 0) {
        jd_failf(t, "%s: %s returned %s", c->what, called(w),
                 rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status));
        goto out;
    }
    int f = jd_gbuf_fetch(&C, off * 4, nc * 4, got, "C", c->what, t);
    if (f) {
        rc = f < 0 ? -1 : 0;
        goto out;
    }
    if (!c->ha) { /* the large shape's reference: cuBLAS's DGEMM of the same BF16 values, drawn again */
        if (cudaMalloc((void **)&da, na * 8) != cudaSuccess || cudaMalloc((void **)&db, nb * 8) != cudaSuccess ||
            cudaMalloc((void **)&ha, na * 2) != cudaSuccess || cudaMalloc((void **)&hb, nb * 2) != cudaSuccess ||
            cudaMalloc((void **)&dref, M * N * 8) != cudaSuccess ||
            ref_gemm(c->s.M, c->s.N, c->s.K, c->sa, c->sb, ha, hb, da, db, dref) != 0 ||
            cudaMemcpy(c->ref, dref, M * N * 8, cudaMemcpyDeviceToHost) != cudaSuccess) {
            rc = -1;
            jd_failf(t, "%s: the judge's reference (cuBLAS's DGEMM) failed", c->what);
            goto out;
        }
    }
    const double atol = bf16_gemm_atol(c->s.K);
    for (size_t i = 0; i < M; i++) {
        for (size_t j = 0; j < ldc; j++) {
            float g = got[i * ldc + j];
            uint32_t u;
            memcpy(&u, &g, 4);
            if (j >= N) {
                if (u != POISON) {
                    jd_failf(t, "%s: C[%zu * ldc + %zu] is row padding (column %zu >= N) and was written (0x%08x)",
                             c->what, i, j, j, u);
                    goto out;
                }
                continue;
            }
            double r = c->ref[i * N + j];
            if (isnan(r) && u == POISON) {
                jd_failf(t, "%s: C[%zu][%zu], where NaN is expected, was never written (it still holds the poison)",
                         c->what, i, j);
                goto out;
            }
            if (!wb_close(g, r, atol, BF16_GEMM_RTOL)) {
                jd_failf(t, "%s: C[%zu][%zu] expected %.9g got %.9g", c->what, i, j, r, (double)g);
                goto out;
            }
        }
    }
    goto out;
copies:
    jd_failf(t, "%s: the judge's own copies failed", c->what);
out:
    cudaFree(da), cudaFree(db), cudaFree(ha), cudaFree(hb), cudaFree(dref);
    cudaGetLastError(); /* a failed allocation above is not the next call's error */
    jd_gbuf_free(J, &A), jd_gbuf_free(J, &B), jd_gbuf_free(J, &C);
    free(got);
    return rc;
}

/* What a case is called, as the test's bf16_check_gemm names it. */
static void case_what(char *what, size_t n, const bg_week *w, bf16_gemm_shape s, const char *more)
{
    const char *aligned = s.off % 2 ? " (C 4-byte aligned)"
                          : s.off % 4 ? " (C 8-byte aligned)"
                          : s.off     ? " (C 16-byte aligned, not 256)"
                                      : "";
    const char *special = s.special ? " with NaN, +Inf and -Inf inputs" : "";
    if (w->grid_name)
        snprintf(what, n, "M=%d N=%d K=%d ldc=%d, grid %d%s%s%s%s", s.M, s.N, s.K, s.N + s.pad, s.grid,
                 s.grid ? "" : " (one CTA per SM)", aligned, special, more);
    else
        snprintf(what, n, "M=%d N=%d K=%d ldc=%d%s%s%s", s.M, s.N, s.K, s.N + s.pad, aligned, special, more);
}

/* A case of the test's own drawing (bf16_check_gemm) from r: A and B
 * uniform in [-1, 1], the NaN and infinities `special` asks for, rounded to
 * BF16; the product in double on the host. 0 ran, -1 lost. */
static int host_case(jd *J, const bg_week *w, wb_rng *r, bf16_gemm_shape s, jd_tally *t)
{
    const size_t M = (size_t)s.M, N = (size_t)s.N, K = (size_t)s.K, na = M * K, nb = N * K;
    char what[200];
    case_what(what, sizeof what, w, s, "");
    float *fa = malloc((na + 1) * 4), *fb = malloc((nb + 1) * 4);
    uint16_t *ha = malloc((na + 1) * 2), *hb = malloc((nb + 1) * 2);
    double *ref = malloc((M * N + 1) * 8);
    int rc = -1;
    if (!fa || !fb || !ha || !hb || !ref) {
        jd_failf(t, "%s: the judge is out of memory", what);
    } else {
        wb_fill_uniform_f32(r, fa, na, -1, 1);
        wb_fill_uniform_f32(r, fb, nb, -1, 1);
        if (s.special && na && nb) {
            fa[wb_rng_int(r, 0, (int64_t)na - 1)] = NAN;
            fb[wb_rng_int(r, 0, (int64_t)nb - 1)] = INFINITY;
            fb[wb_rng_int(r, 0, (int64_t)nb - 1)] = -INFINITY;
        }
        for (size_t i = 0; i < na; i++) ha[i] = wb_f32_to_bf16(fa[i]), fa[i] = wb_bf16_to_f32(ha[i]);
        for (size_t i = 0; i < nb; i++) hb[i] = wb_f32_to_bf16(fb[i]), fb[i] = wb_bf16_to_f32(hb[i]);
        for (size_t i = 0; i < M; i++)
            for (size_t j = 0; j < N; j++) {
                const float *a = fa + i * K, *b = fb + j * K;
                double acc = 0;
                for (size_t k = 0; k < K; k++) acc += (double)a[k] * b[k];
                ref[i * N + j] = acc;
            }
        bg_case c = { s, ha, hb, 0, 0, ref, what };
        rc = run_case(J, w, &c, t);
    }
    free(fa), free(fb), free(ha), free(hb), free(ref);
    return rc;
}

/* ---------------------------------------------------------------- the contract */

/* A buffer of the runner's kind (device, or host in a run without a GPU):
 * poisoned whole, or read back. */
static int buf_poison(jd *J, void *p, size_t bytes)
{
    if (J->kind != JD_MEM_DEVICE) return memset(p, 0xff, bytes), 0;
    return cudaMemset(p, 0xff, bytes) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
}

static int buf_read(jd *J, void *host, const void *p, size_t bytes)
{
    if (J->kind != JD_MEM_DEVICE) return memcpy(host, p, bytes), 0;
    return cudaMemcpy(host, p, bytes, cudaMemcpyDeviceToHost) == cudaSuccess ? 0 : -1;
}

enum { REF_BYTES = 4096, REF_C = 256 /* floats */ };

/* The refusals, each on real buffers (A and B 4096 bytes, A a_off and B
 * b_off halves in, C 256 floats poisoned): cudaErrorInvalidValue, by the
 * grid entry (where the week has one) and, where the case's grid is 0, by
 * the plain one too (bf16_expect_refused), and C untouched; then the empty
 * shapes on NULL pointers (bf16_check_contract's), cudaSuccess. 0, or -1
 * when the runner or the judge's copies failed. */
static int refusals(jd *J, jd_tally *t, const bg_week *w)
{
    void *pa = NULL, *pb = NULL, *pc = NULL;
    int ia = jd_alloc(J, REF_BYTES, &pa), ib = jd_alloc(J, REF_BYTES, &pb), ic = jd_alloc(J, REF_C * 4, &pc);
    uint32_t back[REF_C];
    int rc = -1;
    if (ia < 0 || ib < 0 || ic < 0) {
        jd_failf(t, "buffers: %s", J->why);
        goto out;
    }
    for (int i = 0; i < w->n_refused && !J->lost; i++) {
        const bf16_refused_case *c = &w->refused[i];
        for (int pass = 0; pass < 2; pass++) {
            const int grid_entry = pass == 0 && w->grid_name;
            if (pass == 0 && !w->grid_name) continue;
            if (pass == 1 && w->grid_name && c->grid) break;
            t->tests++;
            if (buf_poison(J, pc, REF_C * 4) != 0) {
                jd_failf(t, "%s: the judge's own copies failed", c->why);
                goto out;
            }
            jd_req rq;
            jd_rep rp;
            jd_call_setup(&rq, grid_entry ? BG_FN_GRID : BG_FN_GEMM, 1, 3);
            rq.arg_buf[0][0] = ia, rq.arg_off[0][0] = (unsigned long long)c->a_off * 2;
            rq.arg_buf[0][1] = ib, rq.arg_off[0][1] = (unsigned long long)c->b_off * 2;
            rq.arg_buf[0][2] = ic, rq.arg_off[0][2] = 0;
            rq.i64[1] = c->M, rq.i64[2] = c->N, rq.i64[3] = c->K, rq.i64[4] = (long long)c->ldc, rq.i64[5] = c->grid;
            const char *name = grid_entry ? w->grid_name : w->fn_name;
            if (jd_call(J, &rq, &rp, NULL) != 0) {
                jd_failf(t, "%s: %s", c->why, J->why);
                goto out;
            }
            if (rp.status != (int)cudaErrorInvalidValue) {
                jd_failf(t, "%s: %s must refuse it with cudaErrorInvalidValue, got %s", c->why, name,
                         rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status));
                continue;
            }
            if (buf_read(J, back, pc, sizeof back) != 0) {
                jd_failf(t, "%s: reading C back: the judge's copy failed", c->why);
                goto out;
            }
            for (int k = 0; k < REF_C; k++)
                if (back[k] != POISON) {
                    jd_failf(t, "%s: refused, yet C[%d] was written (0x%08x)", c->why, k, back[k]);
                    break;
                }
        }
    }
    static const int E[][4] = { { 0, 8, 8, 0 }, { 8, 0, 8, 0 }, { 0, 0, 0, 0 }, { 0, 5, 16, 3 } };
    for (int i = 0; i < (int)(sizeof E / sizeof E[0]) && !J->lost; i++) {
        jd_req rq;
        jd_rep rp;
        t->tests++;
        gemm_request(&rq, w, E[i][0], E[i][1], E[i][2], 8, w->grid_name ? E[i][3] : 0);
        if (jd_call(J, &rq, &rp, NULL) != 0) {
            jd_failf(t, "M=%d N=%d K=%d with NULL pointers: %s", E[i][0], E[i][1], E[i][2], J->why);
            goto out;
        }
        if (rp.status != 0)
            jd_failf(t, "M=%d N=%d K=%d with NULL pointers: an empty C is cudaSuccess, %s returned %s", E[i][0],
                     E[i][1], E[i][2], called(w), rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status));
    }
    rc = 0;
out:
    if (ia >= 0) jd_free(J, ia);
    if (ib >= 0) jd_free(J, ib);
    if (ic >= 0) jd_free(J, ic);
    return rc;
}

void bg_judge_contract(jd *J, jd_tally *t, const bg_week *w) { refusals(J, t, w); }

void bg_judge_gemm(jd_ck *k, const bg_week *w)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    if (!bg_on_sm90(w, t)) return;
    char tag[64];
    int lost = 0;
    snprintf(tag, sizeof tag, "%s_gemm_shapes", w->tag);
    for (int i = 0; !lost && i < w->n_shapes; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, tag, i);
        lost = host_case(J, w, &r, w->shapes[i], t) < 0;
    }
    snprintf(tag, sizeof tag, "%s_gemm_random", w->tag);
    for (int i = 0; !lost && i < w->n_random; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, tag, i);
        bf16_gemm_shape s = w->random(&r, i);
        lost = host_case(J, w, &r, s, t) < 0;
    }
    for (int i = 0; !lost && i < w->n_large; i++) {
        bf16_gemm_shape s = w->large[i];
        double *ref = malloc((size_t)s.M * s.N * 8);
        char what[240];
        case_what(what, sizeof what, w, s, " (every element)");
        if (!ref) {
            jd_failf(t, "%s: the judge is out of memory", what);
            break;
        }
        uint64_t h = jd_mix(jd_seed ^ 0x4246313647454d4dull ^ (uint64_t)i); /* the hidden seed's, this case's */
        bg_case c = { s, NULL, NULL, jd_mix(h ^ 1), jd_mix(h ^ 2), ref, what };
        lost = run_case(J, w, &c, t) < 0;
        free(ref);
    }
    if (!lost) refusals(J, t, w);
}

/* ---------------------------------------------------------------- speed */

/* The timed reps' references (judge_gemm_refs.c, cached by the rep's
 * seeds): the rep's inputs drawn again as the protocol filled them
 * (fill_bf16 below, in [LO, HI)), and their DGEMM, on scratch kept between reps. */
static double   *g_da, *g_db;
static uint16_t *g_ha, *g_hb;

static void scratch_free(void)
{
    cudaFree(g_da), cudaFree(g_db), cudaFree(g_ha), cudaFree(g_hb);
    g_da = g_db = NULL, g_ha = g_hb = NULL;
}

static int make_ref(const jd_bench *b, const unsigned long long *seed, double *ref)
{
    int M = (int)b->i64[1], N = (int)b->i64[2], K = (int)b->i64[3];
    if (!g_da && (cudaMalloc((void **)&g_da, (size_t)M * K * 8) != cudaSuccess ||
                  cudaMalloc((void **)&g_db, (size_t)N * K * 8) != cudaSuccess ||
                  cudaMalloc((void **)&g_ha, (size_t)M * K * 2) != cudaSuccess ||
                  cudaMalloc((void **)&g_hb, (size_t)N * K * 2) != cudaSuccess)) {
        scratch_free();
        cudaGetLastError();
        return -1;
    }
    return ref_gemm(M, N, K, seed[0], seed[1], g_ha, g_hb, g_da, g_db, ref);
}

/* An input: BENCH x BENCH BF16 values from seed (A's M K, B's N K: square here). */
static void fill_bf16(const jd_bench *b, void *in, unsigned long long seed)
{
    wb_dfill_uniform_bf16(in, b->in_bytes / 2, seed, b->lo, b->hi);
}

/* fn at BENCH^3: two inputs (A, B), C out (the protocol's n: M N floats, ldc N), the test's tolerance at K. */
static void bench_setup(jd_bench *x, int fn, const char *fn_name)
{
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 2, x->max_k = JD_BENCH_MAX_K, x->n = (size_t)BENCH * BENCH;
    x->i64[1] = BENCH, x->i64[2] = BENCH, x->i64[3] = BENCH, x->i64[4] = BENCH, x->i64[5] = 0;
    x->in_bytes = (size_t)BENCH * BENCH * 2;
    x->fill = fill_bf16;
    x->lo = LO, x->hi = HI, x->atol = bf16_gemm_atol(BENCH), x->rtol = BF16_GEMM_RTOL;
    x->fn_name = fn_name, x->out_name = "C", x->expect = jd_refs_expect, x->full_check = jd_refs_check;
    jd_refs_use(make_ref, scratch_free);
}

static jd_bench g_mine, g_yard; /* large: their sample arrays */
static double   g_before_ms = NAN;
static char     g_before_why[600];

void bg_cublas_before(const bg_week *w)
{
    bench_setup(&g_yard, BG_YARD_CUBLAS, "cublasGemmEx");
    if (jd_yard_bench(w->yard_runner, &g_yard, TIMED, &g_before_ms, g_before_why, sizeof g_before_why) != 0)
        g_before_ms = NAN;
    jd_refs_release();
}

/* The student's function timed (its plain entry, ldc N), then cuBLAS again
 * (the faster of before and after kept); TFLOP/s of each, their ratio the figure. */
void bg_judge_vs_cublas(jd_ck *k, const bg_week *w)
{
    if (!bg_on_sm90(w, k->t)) return;
    char shape[24];
    snprintf(shape, sizeof shape, "%d^3", BENCH);
    bench_setup(&g_mine, BG_FN_GEMM, w->fn_name);
    bench_setup(&g_yard, BG_YARD_CUBLAS, "cublasGemmEx");
    jd_gemm_speed(k, &g_mine, &g_yard, w->yard_runner, g_before_ms, g_before_why, 2.0 * BENCH * BENCH * (double)BENCH,
                  shape, "cuBLAS");
}
