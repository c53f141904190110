/* judge_w60.c — build/instructor/judge-w60: week 60's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (the week is graded with its
 * linked test until this judge has run on a GPU). It links no student code:
 * the student's fp8_convert.o and fp8_gemm.o are linked into the runner
 * (judge_w60_runner.c, as the week's rules build them: fp8_gemm.o is sm_90a
 * code), which this process starts (or is handed) and asks to call them on
 * buffers it allocated (judge.h). It poisons, fills, times and checks, and
 * writes the results record itself, outside the runner's reach. The
 * command line, the runner's start, the record, the guarded buffers and the
 * timed-call protocol are judge_week.c's:
 *
 *   judge-w60 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week60.c's, shared through phase6/week60/w60_checks.h:
 * the formats' model (model_value, model_code; the judge's fmt8 holds no
 * learner function), the tolerance (the BF16 rounding and the PTX ISA's
 * accumulation allowance), ref_dot, out_ok, the inputs' draws (data_exact,
 * data_full_range, random_scale), the case tables (SHAPES, FULL, SPECIAL,
 * LARGE, REFUSED). The test bodies' lists of conversion inputs and their
 * order of draws are copied here; the judge draws each case from the
 * class seed with tags of its own (wb_rng_for_seed), not the test's draws.
 *   w60.convert  a CPU checkpoint, on host memory both processes map
 *                (judged with or without a GPU; without one the runner
 *                opens none): the 256 codes of each format decoded by
 *                fp8_convert_from_* against the model bit for bit (NaN for
 *                NaN); every finite code's value and its negative, every
 *                midpoint between neighbours and the floats either side of
 *                it, the saturation values (max, past it, 1e30, FLT_MAX,
 *                Inf), four NaNs, +-0, the floats around the least
 *                subnormal, and 1,000,000 random floats a format (half
 *                random bit patterns, half values over the format's
 *                exponents), all encoded by fp8_convert_to_* in one call a
 *                format, each against the model's nearest-even saturated
 *                code (any NaN code for a NaN); outputs poisoned (0xFF) with
 *                a poisoned band after them checked untouched;
 *   w60.gemm     with a compute capability 9.0 GPU: the test's 35 SHAPES
 *                (small integers times powers of two: exact sums), 8 random
 *                shapes and grids, its 5 FULL (codes of the whole E4M3
 *                range), its 7 SPECIAL (NaN codes, infinities from scales
 *                2^60, subnormals with -0 codes) on guarded buffers (A, B,
 *                the scales and D each jd_gbuf; D `off` BF16 past a
 *                256-byte boundary, the poisoned lead and the band checked
 *                untouched, the row padding past N still the poison), every
 *                output against the double reference of the decoded inputs
 *                on the host; its 4 LARGE shapes (4096^3, 2049 x 3001 x
 *                4112 on one CTA a SM and on 5, 2049 x 3008 x 4112) with
 *                inputs of support/fp8_fill.h made on the host, 4096
 *                sampled outputs and the first and last 64 against the
 *                same reference, the bands checked; its 11 refusals on real
 *                buffers (cudaErrorInvalidValue, D untouched); then, with or
 *                without a GPU (through a runner that opens none without
 *                one: its FAIL stands there, its PASS needs the GPU
 *                cases), the test's gemm_contract: the refusals on made-up
 *                pointers and the empty shapes on NULL pointers, which
 *                must return before any CUDA call. On a GPU of another
 *                compute capability: SKIP, with the test's reason (sm_90a
 *                code loads nowhere else);
 *   w60.fp8-speed  8192^3 (M = N = K), the timed-call protocol (judge_week.h):
 *                up to 8 calls a request, each on its own input (A, B and
 *                the two scales in one buffer: judge_w60.h's W60_FN_TIMED;
 *                filled on the device by the judge's kernel from the hidden
 *                seed as support/fp8_fill.h fills: -2 .. 2, as the test's,
 *                the scales |.| in [0.5, 2) drawn from it) and its own
 *                poisoned D; the judge's look right after the reply (256
 *                4-byte words a call: the word's upper BF16, D[2w + 1],
 *                against the exact sum computed on the host, at the test's
 *                tolerance + 2^-7 for the lower BF16 that sits in a float's
 *                low bits; without ref_dot's accumulation allowance, which
 *                is 0 unless a partial sum reaches 2^11, over ten standard
 *                deviations of these sums at K = 8192: the full check has
 *                it), then every output of every timed call checked
 *                by the judge's kernel (judge_w60_kernels.cu: the exact
 *                integer sums with ref_dot's allowance, out_ok); the median
 *                of 7 requests. cuBLASLt's FP8 GEMM (the week's given
 *                support/yard_fp8_lt.cu: E4M3 TN, BF16 out, FP32 compute,
 *                the scale pointers, fast accumulation, as the test's
 *                yardstick) on the same protocol, sizes and checks through
 *                the judge's own yard runner (judge-w60-yard-runner, no
 *                student object), timed before the student's runner starts
 *                and after, the faster kept; its outputs fully checked
 *                against the CPU's sums stand for the test's yard_check (a
 *                wrong cuBLASLt output FAILs, as there). TFLOP/s = 2 n^3 /
 *                the median call's time by the judge's clock; the target
 *                (week.txt) is >= 0.85 of cuBLASLt's. The test's second
 *                row (cuBLASLt with its default, promoted accumulation) is
 *                printed there with no target: not formed here. On a GPU of
 *                another compute capability: SKIP, as w60.gemm.
 * Every checkpoint of week 60 is judged: none is left to the linked test.
 * Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS, the starter FAIL. Without a GPU the plumbing is tested by
 * instructor/tests/judge_w60.sh (w60.convert PASS for the reference and
 * FAIL for the starter; w60.gemm and w60.fp8-speed SKIP, never PASS). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "judge_w60.h"
#include "judge_w60_kernels.h"
#include "judge_week.h"
#include "wb_cuda.h"
#include "wb_f16.h"
#include "wb_rand.h"
#include "fp8_convert.h"
#include "fp8_gemm.h"
#include "support/fp8_fill.h"
#include "w60_checks.h"

#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))
#define TIMED 7

static const char *status_name(int s) { return s < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)s); }

/* ---------------------------------------------------------------- the formats (w60_checks.h's model) */

static fmt8 E4M3 = { "E4M3", 4, 3, 0, FP8_E4M3_MAX_CODE, NULL, NULL, { 0 } };
static fmt8 E5M2 = { "E5M2", 5, 2, 1, FP8_E5M2_MAX_CODE, NULL, NULL, { 0 } };

/* ---------------------------------------------------------------- w60.convert */

enum { RANDOM_DRAWS = 500000, BAND = 256 };

/* The floats encoded for format f: the test's codes_and_ties, edges and random draws. */
static size_t convert_inputs(fmt8 *f, int fi, float *x)
{
    size_t n = 0;
    for (int c = 0; c <= f->top; c++) x[n++] = (float)f->table[c], x[n++] = -(float)f->table[c];
    for (int c = 0; c < f->top; c++) {
        const float mid = (float)((f->table[c] + f->table[c + 1]) / 2);
        const float up = nextafterf(mid, INFINITY), down = nextafterf(mid, 0.f);
        x[n++] = mid, x[n++] = -mid, x[n++] = up, x[n++] = -up, x[n++] = down, x[n++] = -down;
    }
    const float max = (float)f->table[f->top], least = (float)f->table[1];
    const float big[] = { max, nextafterf(max, INFINITY), max * 1.0625f, max * 1.5f, max * 2.f, 1e30f, FLT_MAX,
                          INFINITY };
    for (int i = 0; i < N_OF(big); i++) x[n++] = big[i], x[n++] = -big[i];
    const float nans[] = { NAN, -NAN, bits_f32(0x7f800001u), bits_f32(0xffc12345u) };
    for (int i = 0; i < N_OF(nans); i++) x[n++] = nans[i];
    x[n++] = 0.f, x[n++] = -0.f;
    const float tiny[] = { least / 2, nextafterf(least / 2, INFINITY), nextafterf(least / 2, 0.f), least / 4,
                           least * 1.5f, least * 2.5f, least * 3.5f, bits_f32(1), bits_f32(0x007fffffu), FLT_MIN,
                           1e-30f };
    for (int i = 0; i < N_OF(tiny); i++) x[n++] = tiny[i], x[n++] = -tiny[i];
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w60_convert_random", fi);
    for (int i = 0; i < RANDOM_DRAWS; i++) {
        x[n++] = bits_f32((uint32_t)wb_rng_u64(&rng));
        const double e = (double)wb_rng_int(&rng, f->has_inf ? -19 : -12, f->has_inf ? 17 : 10);
        x[n++] = (float)((wb_rng_unit(&rng) < 0.5 ? -1 : 1) * (1.0 + wb_rng_unit(&rng)) * pow(2.0, e));
    }
    return n;
}

#define CONVERT_CAP (2 * RANDOM_DRAWS + 2048)

static int convert_format(jd *J, jd_tally *t, int fi, float *x, unsigned char *out, int ix, int io, float *dec,
                           int idec)
{
    fmt8 *f = fi ? &E5M2 : &E4M3;
    model_init(f);
    jd_req rq;
    jd_rep rp;
    t->tests++;
    /* every code decoded */
    memset(dec, 0xff, (256 + BAND) * 4);
    jd_call_setup(&rq, W60_FN_DECODE, 1, 1);
    rq.arg_buf[0][0] = idec;
    rq.i64[1] = fi;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s decode: %s", f->name, J->why), 1;
    if (rp.status != 0) return jd_failf(t, "%s decode: the runner failed (%d)", f->name, rp.status), 1;
    for (unsigned c = 0; c < 256; c++) {
        const double want = model_value(f, c);
        const float got = dec[c];
        if (isnan(want) ? !isnan(got) : f32_bits(got) != f32_bits((float)want))
            return jd_failf(t, "%s code 0x%02x is %.9g; fp8_convert_from gave %.9g (bits 0x%08x, expected 0x%08x)",
                            f->name, c, want, got, f32_bits(got), f32_bits((float)want)),
                   1;
    }
    for (int i = 256; i < 256 + BAND; i++)
        if (f32_bits(dec[i]) != 0xffffffffu)
            return jd_failf(t, "%s decode: written past the 256 values", f->name), 1;
    /* the floats encoded */
    const size_t n = convert_inputs(f, fi, x);
    memset(out, 0xff, n + BAND);
    jd_call_setup(&rq, W60_FN_ENCODE, 1, 2);
    rq.arg_buf[0][0] = ix, rq.arg_buf[0][1] = io;
    rq.i64[1] = fi, rq.i64[2] = (long long)n;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s encode: %s", f->name, J->why), 1;
    if (rp.status != 0) return jd_failf(t, "%s encode: the runner failed (%d)", f->name, rp.status), 1;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        const int want = model_code(f, x[i]);
        const unsigned got = out[i];
        if (want < 0 ? !is_nan_code(f, got) : got != (unsigned)want)
            if (bad++ == 0) first = i;
    }
    if (bad) {
        const int want = model_code(f, x[first]);
        return jd_failf(t, "%s: %zu of %zu floats encoded wrong, the first %.9g (bits 0x%08x): expected "
                        "%s0x%02x (%.9g), got 0x%02x (%.9g)", f->name, bad, n, x[first], f32_bits(x[first]),
                        want < 0 ? "a NaN code such as " : "", want < 0 ? 0x7f : want,
                        want < 0 ? NAN : model_value(f, (unsigned)want), out[first], model_value(f, out[first])),
               1;
    }
    for (size_t i = n; i < n + BAND; i++)
        if (out[i] != 0xff) return jd_failf(t, "%s encode: written past the %zu codes", f->name, n), 1;
    return 0;
}

static void judge_convert(jd *J, jd_tally *t)
{
    float *x = NULL, *dec = NULL;
    unsigned char *out = NULL;
    const int ix = jd_alloc_kind(J, JD_MEM_HOST, CONVERT_CAP * 4, (void **)&x);
    const int io = ix < 0 ? -1 : jd_alloc_kind(J, JD_MEM_HOST, CONVERT_CAP + BAND, (void **)&out);
    const int idec = io < 0 ? -1 : jd_alloc_kind(J, JD_MEM_HOST, (256 + BAND) * 4, (void **)&dec);
    if (idec < 0) jd_failf(t, "buffers: %s", J->why);
    else
        for (int fi = 0; fi < 2 && !J->lost; fi++)
            if (convert_format(J, t, fi, x, out, ix, io, dec, idec)) break;
    if (ix >= 0) jd_free(J, ix);
    if (io >= 0) jd_free(J, io);
    if (idec >= 0) jd_free(J, idec);
}

static void judge_convert_gpu(jd_ck *k) { judge_convert(k->J, k->t); }

/* ---------------------------------------------------------------- w60.gemm's cases */

/* (the tolerance, ref_dot, out_ok, cmp_one, the inputs' draws, the case
 * tables: phase6/week60/w60_checks.h, the test's) */

/* Guarded buffers of one GEMM call: A, B, the scales (scale_b 4 bytes after
 * scale_a, as the test's), D. */
typedef struct {
    jd_gbuf a, b, s, d;
} g_bufs;

static void bufs_free(jd *J, g_bufs *B)
{
    jd_gbuf_free(J, &B->a), jd_gbuf_free(J, &B->b), jd_gbuf_free(J, &B->s), jd_gbuf_free(J, &B->d);
}

static int bufs_alloc(jd *J, g_bufs *B, size_t na, size_t nb, size_t dbytes, jd_tally *t)
{
    B->a.id = B->b.id = B->s.id = B->d.id = -1;
    if (jd_gbuf_alloc(J, &B->a, na + 16, t) || jd_gbuf_alloc(J, &B->b, nb + 16, t) ||
        jd_gbuf_alloc(J, &B->s, 64, t) || jd_gbuf_alloc(J, &B->d, dbytes + 512, t))
        return -1;
    return 0;
}

/* One call of fp8_gemm (grid 0) or fp8_gemm_grid: the status, or -1 when the runner failed. */
static int gemm_call(jd *J, const g_bufs *B, size_t aoff, size_t boff, int null_scale, size_t doff, int M, int N,
                     int K, size_t ldd, int grid, int use_grid, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W60_FN_GEMM, 1, 5);
    if (B) {
        jd_gbuf_arg(&rq, 0, &B->a, aoff), jd_gbuf_arg(&rq, 1, &B->b, boff);
        if (null_scale != 1) jd_gbuf_arg(&rq, 2, &B->s, 0);
        if (null_scale != 2) jd_gbuf_arg(&rq, 3, &B->s, 4);
        jd_gbuf_arg(&rq, 4, &B->d, doff);
    }
    rq.i64[1] = M, rq.i64[2] = N, rq.i64[3] = K, rq.i64[4] = (long long)ldd, rq.i64[5] = grid, rq.i64[6] = use_grid;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "fp8_gemm: %s", J->why), -1;
    return rp.status;
}

/* The test's check_data: g on poisoned, guarded D of M rows of ldd, `off`
 * BF16 past a 256-byte boundary; every output, the padding and the bands. */
static int check_data(jd *J, jd_tally *t, const g_data *g, g_shape s, const char *note)
{
    const size_t M = (size_t)s.M, N = (size_t)s.N, K = (size_t)s.K, ldd = N + (size_t)s.pad, nd = M * ldd;
    const size_t lead = (size_t)s.off * 2;
    char what[300];
    snprintf(what, sizeof what, "M=%d N=%d K=%d ldd=%zu, grid %d%s, D %d bytes past 256, %s, scales %.6g and %.6g%s%s",
             s.M, s.N, s.K, ldd, s.grid, s.grid ? "" : " (one CTA per SM)", 2 * s.off, g->kind, g->sa, g->sb,
             note ? ", " : "", note ? note : "");
    t->tests++;
    g_bufs B;
    int rc = -1;
    uint16_t *h = wb_hmalloc(nd * 2 + 2);
    double *ref = wb_hmalloc(M * N * 8 + 8), *allow = wb_hmalloc(M * N * 8 + 8);
    const float sc[2] = { g->sa, g->sb };
    if (bufs_alloc(J, &B, M * K, N * K, nd * 2 + lead, t)) goto out;
    if (jd_gbuf_put(&B.a, 0, g->a, M * K) || jd_gbuf_put(&B.b, 0, g->b, N * K) || jd_gbuf_put(&B.s, 0, sc, 8) ||
        jd_gbuf_poison(&B.d, 0, lead + nd * 2)) {
        jd_failf(t, "%s: the judge's own copies failed", what);
        goto out;
    }
    data_reference(g, ref, allow);
    const int st = gemm_call(J, &B, 0, 0, 0, lead, s.M, s.N, s.K, ldd, s.grid, s.grid != 0, t);
    if (st == -1 && J->lost) goto out;
    rc = 0;
    if (st != 0) {
        jd_failf(t, "%s: %s returned %s", what, s.grid ? "fp8_gemm_grid" : "fp8_gemm", status_name(st));
        goto out;
    }
    if (jd_gbuf_fetch(&B.d, lead, nd * 2, h, "D", what, t)) goto out;
    out_cmp c = { 0, 0, "" };
    for (size_t i = 0; i < M; i++) {
        for (size_t j = 0; j < N; j++) cmp_one(&c, i, j, h[i * ldd + j], ref[i * N + j], allow[i * N + j]);
        for (size_t j = N; j < ldd; j++)
            if (h[i * ldd + j] != 0xFFFFu) {
                jd_failf(t, "%s: D[%zu * ldd + %zu] is row padding (column %zu >= N) and was written (0x%04x)", what,
                         i, j, j, h[i * ldd + j]);
                goto out;
            }
    }
    if (c.bad) jd_failf(t, "%s: %zu of %zu outputs wrong: %s", what, c.bad, c.n, c.msg);
out:
    bufs_free(J, &B);
    free(h), free(ref), free(allow);
    return rc;
}

/* One refusal through fp8_gemm_grid (and fp8_gemm where the grid is 0), on
 * B's buffers or (B NULL) made-up pointers. 0, 1 (failed), -1 (runner lost). */
static int refused_call(jd *J, const g_bufs *B, const g_refused *r, jd_tally *t)
{
    for (int use_grid = 1; use_grid >= (r->grid ? 1 : 0); use_grid--) {
        int st;
        if (B) {
            st = gemm_call(J, B, (size_t)r->a_off, (size_t)r->b_off, r->null_scale, 0, r->M, r->N, r->K, r->ldd,
                           r->grid, use_grid, t);
        } else {
            jd_req rq;
            jd_rep rp;
            jd_call_setup(&rq, W60_FN_GEMM, 1, 5);
            rq.i64[1] = r->M, rq.i64[2] = r->N, rq.i64[3] = r->K, rq.i64[4] = (long long)r->ldd;
            rq.i64[5] = r->grid, rq.i64[6] = use_grid;
            rq.i64[7] = W60_MADE_UP | (long long)r->a_off << 8 | (long long)r->b_off << 16 | (long long)r->null_scale << 24;
            st = jd_call(J, &rq, &rp, NULL) != 0 ? (jd_failf(t, "fp8_gemm: %s", J->why), -1) : rp.status;
        }
        if (st == -1 && J->lost) return -1;
        if (st != (int)cudaErrorInvalidValue)
            return jd_failf(t, "%s: %s must refuse it with cudaErrorInvalidValue, got %s", r->why,
                            use_grid ? "fp8_gemm_grid" : "fp8_gemm", status_name(st)),
                   1;
    }
    return 0;
}

/* The test's gemm_contract (no GPU needed): refusals on made-up pointers,
 * empty shapes on NULL pointers, none of which may make a CUDA call. */
static void judge_contract(jd *J, jd_tally *t)
{
    t->tests++;
    for (int i = 0; i < N_OF(REFUSED); i++)
        if (refused_call(J, NULL, &REFUSED[i], t) != 0) return;
    static const int E[][4] = { { 0, 8, 16, 0 }, { 8, 0, 16, 0 }, { 0, 0, 0, 0 }, { 0, 5, 32, 3 } };
    for (int i = 0; i < N_OF(E); i++)
        for (int use_grid = 1; use_grid >= (E[i][3] ? 1 : 0); use_grid--) {
            jd_req rq;
            jd_rep rp;
            jd_call_setup(&rq, W60_FN_GEMM, 1, 5);
            rq.i64[1] = E[i][0], rq.i64[2] = E[i][1], rq.i64[3] = E[i][2], rq.i64[4] = 8, rq.i64[5] = E[i][3];
            rq.i64[6] = use_grid, rq.i64[7] = W60_ALL_NULL;
            if (jd_call(J, &rq, &rp, NULL) != 0) {
                jd_failf(t, "fp8_gemm: %s", J->why);
                return;
            }
            if (rp.status != 0) {
                jd_failf(t, "%s M=%d N=%d K=%d grid %d with NULL pointers: an empty D is cudaSuccess, got %s",
                         use_grid ? "fp8_gemm_grid" : "fp8_gemm", E[i][0], E[i][1], E[i][2], E[i][3],
                         status_name(rp.status));
                return;
            }
        }
}

/* The test's gemm_refused: on real buffers, refused, D (poisoned) untouched. */
static void judge_refused(jd *J, jd_tally *t)
{
    g_bufs B;
    unsigned char h[256];
    t->tests++;
    if (bufs_alloc(J, &B, 4096, 4096, 256, t) == 0 && jd_gbuf_poison(&B.d, 0, 256) == 0) {
        for (int i = 0; i < N_OF(REFUSED); i++) {
            if (refused_call(J, &B, &REFUSED[i], t) != 0) break;
            if (jd_gbuf_fetch(&B.d, 0, 256, h, "D", REFUSED[i].why, t)) break;
            for (int j = 0; j < 256; j++)
                if (h[j] != 0xff) {
                    jd_failf(t, "%s: refused, yet D was written", REFUSED[i].why);
                    goto out;
                }
        }
    }
out:
    bufs_free(J, &B);
}

/* The special cases' data (the test's gemm_special). */
static const char *special_data(g_data *g, wb_rng *rng, int what)
{
    const size_t na = (size_t)g->M * g->K, nb = (size_t)g->N * g->K;
    data_exact(g, rng, 3, what == 2 ? -9 : 0, what == 2 ? -8 : 0);
    if (what == 0) {
        g->a[wb_rng_int(rng, 0, (int64_t)na - 1)] = 0x7f;
        g->b[wb_rng_int(rng, 0, (int64_t)nb - 1)] = 0xff;
        g->b[wb_rng_int(rng, 0, (int64_t)nb - 1)] = 0x7f;
        data_decode(g);
        return "NaN codes 0x7f and 0xff in A and B";
    }
    if (what == 1) {
        g->sa = 0x1p60f, g->sb = 0x1p60f;
        return "scales 2^60 and 2^60: outputs past BF16's range are +-Inf";
    }
    for (size_t i = 0; i < na; i++)
        if (g->a[i] == 0 && wb_rng_int(rng, 0, 1)) g->a[i] = 0x80;
    for (size_t i = 0; i < nb; i++)
        if (g->b[i] == 0 && wb_rng_int(rng, 0, 1)) g->b[i] = 0x80;
    data_decode(g);
    g->sa = 0x1p9f, g->sb = 0x1p8f;
    return "subnormal E4M3 inputs and -0 codes";
}

/* The test's gemm_large: inputs of support/fp8_fill.h (made here, on the
 * host), 4096 sampled outputs and the first and last 64. */
static int large_run(jd *J, jd_tally *t, const g_shape s, int i)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w60_large", i);
    const int range = 3, ea = (int)wb_rng_int(&rng, -2, 2), eb = (int)wb_rng_int(&rng, -2, 2);
    const unsigned long long sda = wb_rng_u64(&rng), sdb = wb_rng_u64(&rng);
    const float sc[2] = { random_scale(&rng), random_scale(&rng) };
    const size_t M = (size_t)s.M, N = (size_t)s.N, K = (size_t)s.K, n = M * N;
    char what[200];
    snprintf(what, sizeof what, "M=%d N=%d K=%d, grid %d, values -3..3 times 2^%d and 2^%d (4096 sampled outputs)",
             s.M, s.N, s.K, s.grid, ea, eb);
    t->tests++;
    g_bufs B;
    int rc = -1;
    uint8_t *a = wb_hmalloc(M * K), *b = wb_hmalloc(N * K);
    uint16_t *h = wb_hmalloc(n * 2);
    float *ra = wb_hmalloc(K * 4), *rb = wb_hmalloc(K * 4);
    for (size_t x = 0; x < M * K; x++) a[x] = fp8_fill_code(fp8_fill_int(sda, x, range), ea);
    for (size_t x = 0; x < N * K; x++) b[x] = fp8_fill_code(fp8_fill_int(sdb, x, range), eb);
    if (bufs_alloc(J, &B, M * K, N * K, n * 2, t)) goto out;
    if (jd_gbuf_put(&B.a, 0, a, M * K) || jd_gbuf_put(&B.b, 0, b, N * K) || jd_gbuf_put(&B.s, 0, sc, 8) ||
        jd_gbuf_poison(&B.d, 0, n * 2)) {
        jd_failf(t, "%s: the judge's own copies failed", what);
        goto out;
    }
    const int st = gemm_call(J, &B, 0, 0, 0, 0, s.M, s.N, s.K, N, s.grid, s.grid != 0, t);
    if (st == -1 && J->lost) goto out;
    rc = 0;
    if (st != 0) {
        jd_failf(t, "%s: %s returned %s", what, s.grid ? "fp8_gemm_grid" : "fp8_gemm", status_name(st));
        goto out;
    }
    if (jd_gbuf_fetch(&B.d, 0, n * 2, h, "D", what, t)) goto out;
    out_cmp c = { 0, 0, "" };
    const double sd = (double)sc[0] * (double)sc[1], unit = ldexp(1.0, ea + eb);
    for (size_t q = 0; q < 4096 + 128; q++) {
        const size_t idx = q < 64 ? q : q < 128 ? n - 1 - (q - 64) : (size_t)wb_rng_int(&rng, 0, (int64_t)n - 1);
        const size_t r = idx / N, col = idx % N;
        for (size_t k = 0; k < K; k++) {
            ra[k] = (float)ldexp(fp8_fill_int(sda, r * K + k, range), ea);
            rb[k] = (float)ldexp(fp8_fill_int(sdb, col * K + k, range), eb);
        }
        double ref, allow;
        ref_dot(ra, rb, (int)K, sd, unit, &ref, &allow);
        cmp_one(&c, r, col, h[idx], ref, allow);
    }
    if (c.bad) jd_failf(t, "%s: %zu of %zu outputs wrong: %s", what, c.bad, c.n, c.msg);
out:
    bufs_free(J, &B);
    free(a), free(b), free(h), free(ra), free(rb);
    return rc;
}

/* sm_90a code loads on compute capability 9.0 alone: elsewhere SKIP, with
 * the test's reason (wb_need_sm90a). 1 when skipped. */
static int need_sm90a(jd_tally *t)
{
    struct cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, jd_dev) != cudaSuccess) return jd_failf(t, "cudaGetDeviceProperties failed"), 1;
    if (p.major == 9 && p.minor == 0) return 0;
    t->skipped++;
    snprintf(t->msg, sizeof t->msg, "fp8_gemm (FP8 wgmma, TMA, setmaxnreg) is sm_90a code, which loads only on a "
             "compute capability 9.0 GPU (H100, H200); this one is %d.%d", p.major, p.minor);
    return 1;
}

/* One shape on small integers times powers of two (exact sums), random
 * scales: the test's gemm_shapes and gemm_random. check_data's return. */
static int exact_case(jd *J, jd_tally *t, wb_rng *rng, g_shape s)
{
    g_data g;
    data_alloc(&g, s.M, s.N, s.K);
    const int ea = (int)wb_rng_int(rng, -4, 3), eb = (int)wb_rng_int(rng, -4, 3);
    data_exact(&g, rng, 3, ea, eb);
    const int rc = check_data(J, t, &g, s, NULL);
    data_free(&g);
    return rc;
}

static void judge_gemm(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    judge_contract(J, t);
    if (need_sm90a(t)) return;
    for (int i = 0; i < N_OF(SHAPES) && !J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w60_shapes", i);
        if (exact_case(J, t, &rng, SHAPES[i]) < 0) return;
    }
    for (int i = 0; i < 8 && !J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w60_random", i);
        g_shape s;
        s.M = (int)wb_rng_int(&rng, 1, 900), s.N = (int)wb_rng_int(&rng, 1, 900);
        s.K = 16 * (int)wb_rng_int(&rng, 1, 40), s.pad = (int)wb_rng_int(&rng, 0, 9);
        s.off = (int)wb_rng_int(&rng, 0, 3), s.grid = (int)wb_rng_int(&rng, 0, 5);
        if (i % 2)
            s.N = (s.N + 7) / 8 * 8, s.pad = 8 * (int)wb_rng_int(&rng, 0, 1), s.off = 8 * (int)wb_rng_int(&rng, 0, 1);
        if (exact_case(J, t, &rng, s) < 0) return;
    }
    for (int i = 0; i < N_OF(FULL) && !J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w60_full", i);
        g_data g;
        data_alloc(&g, FULL[i].M, FULL[i].N, FULL[i].K);
        data_full_range(&g, &rng);
        const int rc = check_data(J, t, &g, FULL[i], NULL);
        data_free(&g);
        if (rc < 0) return;
    }
    for (int i = 0; i < N_OF(SPECIAL) && !J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w60_special", i);
        const g_shape s = SPECIAL[i].s;
        g_data g;
        data_alloc(&g, s.M, s.N, s.K);
        const char *note = special_data(&g, &rng, SPECIAL[i].what);
        const int rc = check_data(J, t, &g, s, note);
        data_free(&g);
        if (rc < 0) return;
    }
    for (int i = 0; i < N_OF(LARGE) && !J->lost; i++)
        if (large_run(J, t, LARGE[i], i) < 0) return;
    if (!J->lost) judge_refused(J, t);
}

/* ---------------------------------------------------------------- w60.fp8-speed */

enum { SN = 8192, S_RANGE = 2, BENCH_MAX_K = 8 };
#define S_IN_BYTES (W60_S_AT(SN, SN, SN) + 32)

/* A rep's seeds and scales from its hidden seed: A's and B's fill seeds,
 * scale_a and scale_b |.| in [0.5, 2), never 1. */
static void rep_of(unsigned long long seed, unsigned long long *sa_seed, unsigned long long *sb_seed, float *sa,
                   float *sb)
{
    *sa_seed = seed, *sb_seed = jd_mix(seed ^ 0xb);
    *sa = fabsf(jd_fresh_factor(jd_mix(seed ^ 0x5a))), *sb = fabsf(jd_fresh_factor(jd_mix(seed ^ 0x5b)));
}

static void fill_in(const jd_bench *b, void *in, unsigned long long seed)
{
    (void)b;
    unsigned long long a, bb;
    float sa, sb;
    rep_of(seed, &a, &bb, &sa, &sb);
    jd_w60_fill((uint8_t *)in, SN, SN, SN, a, bb, S_RANGE, 0, 0, sa, sb);
}

/* The look's value at word i: D[2i + 1] (the word's upper BF16), the exact
 * sum times the scales (the float of the double reference). */
static float at_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    (void)b;
    unsigned long long a, bb;
    float sa, sb;
    rep_of(seed[0], &a, &bb, &sa, &sb);
    const size_t e = 2 * i + 1, r = e / SN, c = e % SN;
    long long P = 0;
    for (size_t k = 0; k < SN; k++)
        P += (long long)fp8_fill_int(a, r * SN + k, S_RANGE) * fp8_fill_int(bb, c * SN + k, S_RANGE);
    return (float)((double)sa * (double)sb * (double)P);
}

/* The judge's own integers of one rep's inputs (device memory the runner never sees). */
static struct {
    int8_t            *av, *bv;
    unsigned long long seed;
    int                have;
} g_ref;

static void ref_release(void)
{
    if (g_ref.av) cudaFree(g_ref.av);
    if (g_ref.bv) cudaFree(g_ref.bv);
    memset(&g_ref, 0, sizeof g_ref);
}

static int full_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    (void)b;
    unsigned long long a, bb;
    float sa, sb;
    rep_of(seed[0], &a, &bb, &sa, &sb);
    const size_t n = (size_t)SN * SN;
    if ((!g_ref.av && cudaMalloc((void **)&g_ref.av, n) != cudaSuccess) ||
        (!g_ref.bv && cudaMalloc((void **)&g_ref.bv, n) != cudaSuccess))
        return -1;
    if (!g_ref.have || g_ref.seed != seed[0]) {
        g_ref.have = 0;
        if (jd_w60_ints(g_ref.av, n, a, S_RANGE, jd_stream) != cudaSuccess ||
            jd_w60_ints(g_ref.bv, n, bb, S_RANGE, jd_stream) != cudaSuccess)
            return -1;
        g_ref.have = 1, g_ref.seed = seed[0];
    }
    if (jd_full_check_done(jd_w60_check(g_ref.av, g_ref.bv, (const uint16_t *)out, SN, SN, SN,
                                        (double)sa * (double)sb, bad, jd_stream),
                           bad, h) != 0)
        return -1;
    if (h[0]) h[1] /= 2; /* as the look's: a 4-byte word of two BF16 */
    return 0;
}

static void speed_bench(jd_bench *x, int fn, const char *fn_name)
{
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 1, x->max_k = BENCH_MAX_K;
    x->n = (size_t)SN * SN / 2; /* D's 4-byte words */
    x->in_bytes = S_IN_BYTES;
    x->fill = fill_in;
    x->atol = 0x1p-132;          /* the word's lower BF16 under an upper 0: a float below 2^-132 */
    x->rtol = BF16_RTOL + 0x1p-7; /* the lower BF16 in the float's low bits */
    x->i64[1] = SN, x->i64[2] = SN, x->i64[3] = SN;
    x->expect = at_expect, x->full_check = full_check;
    x->fn_name = fn_name, x->out_name = "D's BF16 pairs";
}

static jd_bench g_bench, g_yard_b; /* large: their sample arrays */
static double g_lt_before = NAN;
static char g_lt_before_why[600];

static int is_sm90(void)
{
    struct cudaDeviceProp p;
    return cudaGetDeviceProperties(&p, jd_dev) == cudaSuccess && p.major == 9 && p.minor == 0;
}

static void lt_before(void)
{
    g_lt_before = NAN;
    snprintf(g_lt_before_why, sizeof g_lt_before_why, "not a compute capability 9.0 GPU");
    if (!is_sm90()) return;
    speed_bench(&g_yard_b, W60_YARD_LT, "cublasLtMatmul (FP8)");
    if (jd_yard_bench(W60_YARD_RUNNER, &g_yard_b, TIMED, &g_lt_before, g_lt_before_why, sizeof g_lt_before_why) != 0)
        g_lt_before = NAN;
    ref_release();
}

static void judge_speed(jd_ck *k)
{
    const double flops = 2.0 * SN * (double)SN * SN;
    double ms = NAN, after = NAN, value = NAN, yard = NAN;
    char why[700] = "", w[600] = "", detail[300] = "";
    if (need_sm90a(k->t)) return;
    speed_bench(&g_bench, W60_FN_TIMED, "fp8_gemm");
    if (jd_bench_run(k->J, &g_bench, TIMED, &ms, w, sizeof w) != 0) {
        snprintf(why, sizeof why, "%d^3: %s", SN, w);
        goto done;
    }
    value = flops / (ms * 1e-3) / 1e12;
    speed_bench(&g_yard_b, W60_YARD_LT, "cublasLtMatmul (FP8)");
    const double lms = jd_yard_faster(W60_YARD_RUNNER, &g_yard_b, TIMED, g_lt_before, g_lt_before_why, &after, w,
                                      sizeof w);
    printf("  %d^3 FP8: fp8_gemm %.4f ms a call, cuBLASLt %.4f (before the runner %.4f, after %.4f), by the judge's "
           "clock\n", SN, ms, lms, g_lt_before, after);
    if (!(lms > 0)) { /* the test asserts the yardstick's plan and its output: FAIL, saying so */
        snprintf(why, sizeof why, "the yardstick (cublasLtMatmul, FP8 TN, fast accumulation): %s", w);
        goto done;
    }
    yard = flops / (lms * 1e-3) / 1e12;
    snprintf(detail, sizeof detail, "%d^3 E4M3 TN, BF16 out: %.0f TFLOP/s vs cuBLASLt FP8 (fast accumulation) %.0f",
             SN, value, yard);
done:
    ref_release();
    jd_speed_result(k->R, k->t, k->c, k->gpu, why[0] ? NAN : value, "TFLOP/s", "cuBLASLt", yard, detail, why);
}

static const jd_checkpoint CPS[] = {
    { "w60.convert", judge_convert_gpu, judge_convert, 1, 0, NULL },
    { "w60.gemm", judge_gemm, judge_contract, 0, 0, NULL },
    { "w60.fp8-speed", judge_speed, NULL, 0, 0, lt_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w60", "phase6/week60", CPS, N_OF(CPS));
}
