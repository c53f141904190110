/* judge_w15.c — build/instructor/judge-w15: week 15's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's traffic.o, gelu_chain.o, norm.o, softmax.o, smooth.o and
 * linear.o are linked into the runner (judge_w15_runner.c, with the week's
 * given support/yard_unfused.o as the test program has it), which this
 * process starts (or is handed) and asks to call them on buffers it
 * allocated (judge.h). It poisons, fills, times and checks, and writes the
 * results record itself, outside the runner's reach. The command line, the
 * runner's start, the record, the guarded buffers, the timed-call protocol
 * and the COPY yardstick are judge_week.c's:
 *
 *   judge-w15 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week15.c's (shared through phase3/week15/w15_checks.h),
 * each case drawn as the test draws it for the seed (wb_rng_for_seed with
 * the test's tag), every output in a guarded buffer (jd_gbuf: a poisoned
 * band each side, the misaligned lead included), every element against the
 * double reference within the test's tolerance (NaN where NaN is due, the
 * poison left there counted as not written), nothing written outside it:
 *   w15.traffic       traffic_bytes for every chain and version, and -1 for
 *                     three that do not exist (w15_traffic_check, the
 *                     test's): the runner calls the student's function and
 *                     sends the number back, the judge compares it with its
 *                     own table. A CPU function: judged with or without a
 *                     GPU (the runner then opens none);
 *   w15.gelu          the test's 12 shapes (0 x 7 to 70000 x 8, rows past
 *                     65535, 17 x 4097) and its 8 offset mixes (each of x,
 *                     bias, r and y misaligned alone, then several), NaN,
 *                     +Inf, +-1e20, at 5e-5 + 1e-5 |ref|;
 *   w15.l2norm        the test's 12 sizes (0 to 2^24 + 3, x at float offset
 *                     i % 3) and its 3 cases of NaN and Inf, one guarded
 *                     float at 2e-5 relative, the workspace tmp a poisoned
 *                     buffer of the norm_tmp_bytes() the student's norm.o
 *                     reports (as the test sizes it, capped at 256 MiB);
 *   w15.softmax       the test's 17 shapes and 4 offset mixes, the special
 *                     rows (near 3e4, +-1e30, -Inf, all -Inf, NaN, +Inf),
 *                     at 1e-7 + 2e-5 |ref|;
 *   w15.smooth        the test's 20 sizes (0 to 2^22 + 1) and 8 offset
 *                     mixes, NaN, +-Inf, 1e20, at 1e-6 + 1e-5 |ref|;
 *   w15.linear        the test's 10 shapes (K = 0 included, A[0][0] NaN in
 *                     every other), linear_sgemm and then
 *                     linear_sgemm_bias_relu on a fresh poison, at
 *                     1e-6 K + 1e-6 + 1e-5 |ref|; then the report's shape
 *                     (M = 8192, N = 4096, K = 128) through both, inputs
 *                     filled on the device from the seed, every element
 *                     checked by the judge's kernel (jd_gemm_check_f32, at
 *                     the test's 1e-4 + 1e-5 |ref|; the test samples 256).
 *                     The times by the judge's clock are printed, not
 *                     judged: the checkpoint has no target, and the given
 *                     separate bias_relu pass the test reports beside them
 *                     is not run (the verdict does not stand on it);
 *   w15.normalize     the test's 10 sizes (0 to 2^24 + 1, offsets) and the
 *                     zero vector (NaN), at 1e-7 + 2e-5 |ref|; then
 *                     wb_bench_bytes() / 4 floats, x from the seed, every
 *                     element of y checked by the judge's kernels
 *                     (jd_hash_sumsq_f64, jd_scale_check_f32, at the test's
 *                     1e-9 + 2e-5 |ref|; the test samples 16384). The
 *                     cooperative launch happens inside the student's
 *                     normalize_fused, in the runner: what the judge sees is
 *                     its status and its output, which is the checkpoint.
 *                     Its time is printed, not judged (no target);
 *   w15.gelu-speed, w15.l2norm-speed, w15.softmax-speed, w15.smooth-speed
 *                     the timed-call protocol (judge_week.h): K calls a
 *                     request, each on its own inputs and output of the
 *                     test's sizes (25600 x 4096 for the GELU chain, 102400
 *                     x 1024 for the softmax, wb_bench_bytes() / 4 floats
 *                     for the norm and the smoothing), fresh inputs from the
 *                     hidden seed before every request (the GELU chain's
 *                     scale s and the norm's range drawn afresh too: a
 *                     remembered answer is wrong), a poisoned output, the
 *                     judge's look after the reply and every output checked
 *                     in full by the judge's kernels (jd_gelu_check_f32,
 *                     jd_softmax_check_f32, jd_smooth_check_f32; the norm's
 *                     one float against jd_hash_sumsq_f64's) at the test's
 *                     tolerances; the median of 7 requests. The figure is
 *                     GB/s of the bytes the week counts for the fused kernel
 *                     (12, 4, 8 and 8 an element), against COPY of an array
 *                     of the same size (400 MB read and written, the test's
 *                     yardstick) timed through the same protocol
 *                     (jd_copy_yard), the target for this GPU from week.txt.
 *                     The GELU chain's bias travels after x in x's buffer and
 *                     the norm's workspace after x in its buffer (the
 *                     protocol gives a call two inputs and one output). The
 *                     given unfused chains the test reports beside each
 *                     figure are reports, not gates: not run here.
 * Every checkpoint of week 15 is judged: none is left to the linked test.
 * Not yet run on a GPU. Without a GPU the plumbing is tested by
 * instructor/tests/judge_w15.sh (w15.traffic PASS for the reference and
 * FAIL for the starter; every other checkpoint SKIP, never PASS). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "judge_kernels.h"
#include "judge_w15.h"
#include "judge_week.h"
#include "w15_checks.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cuda.h"

#define TIMED 7
#define W15_TMP_CAP ((size_t)256 << 20) /* the most workspace the judge gives norm_l2 and normalize_fused */

static const char *status_name(int st) { return st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st); }

/* ---------------------------------------------------------------- traffic (CPU) */

/* traffic_bytes through the runner; NaN when the runner did not answer (the
 * check then fails; the message says the runner is gone). */
static jd *g_J;

static double traffic_call(int chain, int fused)
{
    double b = NAN;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W15_FN_TRAFFIC, 1, 0);
    rq.i64[0] = chain, rq.i64[1] = fused;
    if (jd_call(g_J, &rq, &rp, NULL) == 0 && rp.status == 0 && rp.out_len == sizeof b) memcpy(&b, rp.out, sizeof b);
    return b;
}

static void judge_traffic(jd *J, jd_tally *t)
{
    char why[400];
    g_J = J;
    t->tests++;
    if (w15_traffic_check(traffic_call, why, sizeof why) != 0) jd_failf(t, "%s", J->lost ? J->why : why);
}

static void judge_traffic_gpu(jd_ck *k) { judge_traffic(k->J, k->t); }

/* ---------------------------------------------------------------- guarded cases */

/* Up to three inputs, an output and a workspace, each a guarded buffer;
 * host room for the inputs (hin), the output (h) and two references. */
typedef struct {
    jd_gbuf in[3], out, tmp;
    size_t  tmp_bytes;
    float  *hin[3], *h;
    double *ref, *ref2;
} w15_bufs;

static void bufs_free(jd *J, w15_bufs *B)
{
    for (int k = 0; k < 3; k++) jd_gbuf_free(J, &B->in[k]), free(B->hin[k]);
    jd_gbuf_free(J, &B->out), jd_gbuf_free(J, &B->tmp);
    free(B->h), free(B->ref), free(B->ref2);
}

/* in_cap[k] floats of input k (0: none), out_cap floats of output (a lead
 * of up to 3 floats besides) and of each reference, tmp_bytes of workspace
 * (0: none). 0, or -1 with t failed; bufs_free after either. */
static int bufs_alloc(jd *J, w15_bufs *B, const size_t in_cap[3], size_t out_cap, size_t tmp_bytes, jd_tally *t)
{
    memset(B, 0, sizeof *B);
    for (int k = 0; k < 3; k++) B->in[k].id = -1;
    B->out.id = B->tmp.id = -1;
    B->tmp_bytes = tmp_bytes;
    for (int k = 0; k < 3; k++) {
        if (in_cap[k] && jd_gbuf_alloc(J, &B->in[k], in_cap[k] * 4, t) != 0) return -1;
        if (in_cap[k] && !(B->hin[k] = malloc(in_cap[k] * 4))) return jd_failf(t, "buffers: out of memory"), -1;
    }
    if (jd_gbuf_alloc(J, &B->out, (out_cap + 4) * 4, t) != 0) return -1;
    if (tmp_bytes && jd_gbuf_alloc(J, &B->tmp, tmp_bytes, t) != 0) return -1;
    if (!(B->h = malloc((out_cap + 1) * 4)) || !(B->ref = malloc((out_cap + 1) * 8)) ||
        !(B->ref2 = malloc((out_cap + 1) * 8)))
        return jd_failf(t, "buffers: out of memory"), -1;
    return 0;
}

/* The largest of a[0..n) and floor. */
static size_t max_size(const size_t *a, size_t n, size_t floor)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] > floor) floor = a[i];
    return floor;
}

/* One call: inputs in[k] (in_n[k] floats, the call's pointer in_off[k]
 * floats in; none: NULL, as the test's wb_dcopy of 0 bytes gives), the
 * output (n floats, out_off floats into its buffer) poisoned, then the
 * workspace (poisoned) where with_tmp; i64 and f64 as given (the runner's
 * entry reads them: judge_w15.h). */
typedef struct {
    int           fn, nin, with_tmp;
    const float  *in[3];
    size_t        in_n[3], in_off[3];
    size_t        n, out_off;
    const double *ref;
    double        atol, rtol;
    long long     i64[8];
    double        f64[4];
    const char   *what, *fn_name, *out_name;
} w15_case;

/* 0 when the case ran (passed or failed: t says), -1 when the runner or the
 * judge's own copies failed. */
static int case_run(jd *J, w15_bufs *B, const w15_case *c, jd_tally *t)
{
    t->tests++;
    for (int k = 0; k < c->nin; k++)
        if (jd_gbuf_put(&B->in[k], 0, c->in[k], c->in_n[k] * 4) != 0)
            return jd_failf(t, "%s: the judge's own copies failed", c->what), -1;
    if (jd_gbuf_poison(&B->out, c->out_off * 4, c->n * 4) != 0 ||
        (c->with_tmp && jd_gbuf_poison(&B->tmp, 0, B->tmp_bytes) != 0))
        return jd_failf(t, "%s: the judge's own copies failed", c->what), -1;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, c->fn, 1, c->nin + 1 + (c->with_tmp ? 1 : 0));
    for (int k = 0; k < c->nin; k++) jd_gbuf_arg(&rq, k, c->in_n[k] ? &B->in[k] : NULL, c->in_off[k] * 4);
    jd_gbuf_arg(&rq, c->nin, &B->out, c->out_off * 4);
    if (c->with_tmp) jd_gbuf_arg(&rq, c->nin + 1, &B->tmp, 0);
    memcpy(rq.i64, c->i64, sizeof rq.i64);
    memcpy(rq.f64, c->f64, sizeof rq.f64);
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", c->what, J->why), -1;
    if (rp.status != 0) return jd_failf(t, "%s: %s returned %s", c->what, c->fn_name, status_name(rp.status)), 0;
    int f = jd_gbuf_fetch(&B->out, c->out_off * 4, c->n * 4, B->h, c->out_name, c->what, t);
    if (f != 0) return f < 0 ? -1 : 0;
    for (size_t i = 0; i < c->n; i++) {
        uint32_t got;
        memcpy(&got, &B->h[i], 4);
        if (!wb_close(B->h[i], c->ref[i], c->atol, c->rtol))
            return jd_failf(t, "%s: %s[%zu] expected %.9g got %.9g", c->what, c->out_name, i, c->ref[i], (double)B->h[i]), 0;
        if (isnan(c->ref[i]) && got == 0xffffffffu)
            return jd_failf(t, "%s: %s[%zu], where NaN is expected, was never written (it still holds the poison)",
                            c->what, c->out_name, i), 0;
    }
    return 0;
}

/* norm_tmp_bytes() of the student's norm.o, through the runner: 0 and *b,
 * or -1 with t failed. */
static int tmp_bytes(jd *J, size_t *b, jd_tally *t)
{
    unsigned long long v = 0;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W15_FN_TMP_BYTES, 1, 0);
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "norm_tmp_bytes: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof v) return jd_failf(t, "norm_tmp_bytes: no answer from the runner"), -1;
    memcpy(&v, rp.out, sizeof v);
    if (v == 0 || v > W15_TMP_CAP)
        return jd_failf(t, "norm_tmp_bytes() says %llu bytes: the judge gives 1 to %zu", v, W15_TMP_CAP), -1;
    *b = (size_t)v;
    return 0;
}

/* ---------------------------------------------------------------- GELU chain */

static void judge_gelu(jd_ck *k)
{
    size_t maxn = (size_t)W15_GOFF_MAX_ROWS * W15_GOFF_MAX_COLS, maxc = W15_GOFF_MAX_COLS;
    for (size_t i = 0; i < W15_N_GSHAPES; i++) {
        size_t n = w15_elems(W15_GSHAPES[i][0], W15_GSHAPES[i][1]);
        if (n > maxn) maxn = n;
        if ((size_t)W15_GSHAPES[i][1] > maxc) maxc = (size_t)W15_GSHAPES[i][1];
    }
    size_t cap[3] = { maxn + 4, maxc + 4, maxn + 4 };
    w15_bufs B;
    float **h = B.hin;
    if (bufs_alloc(k->J, &B, cap, maxn, 0, k->t) == 0)
        for (int i = 0; i < (int)(W15_N_GSHAPES + W15_N_GOFFS) && !k->J->lost; i++) {
            int shapes = i < (int)W15_N_GSHAPES, c = shapes ? i : i - (int)W15_N_GSHAPES, rows, cols;
            wb_rng rng = wb_rng_for_seed(jd_seed, shapes ? W15_GELU_SHAPES_TAG : W15_GELU_OFFSETS_TAG, c);
            size_t o[4] = { 0, 0, 0, 0 };
            if (shapes) rows = W15_GSHAPES[c][0], cols = W15_GSHAPES[c][1];
            else w15_gelu_offsets_shape(&rng, &rows, &cols), memcpy(o, W15_GOFFS[c], sizeof o);
            size_t n = w15_elems(rows, cols), nb = cols > 0 ? (size_t)cols : 0;
            float s;
            w15_gelu_case(&rng, rows, cols, o[0], o[1], o[2], h[0], h[1], h[2], &s, B.ref);
            char what[128];
            snprintf(what, sizeof what, "rows=%d cols=%d, offsets x+%zu bias+%zu r+%zu y+%zu", rows, cols, o[0], o[1], o[2],
                     o[3]);
            w15_case cs = { .fn = W15_FN_GELU, .nin = 3, .in = { h[0], h[1], h[2] }, .in_n = { n + o[0], nb + o[1], n + o[2] },
                            .in_off = { o[0], o[1], o[2] }, .n = n, .out_off = o[3], .ref = B.ref, .atol = W15_GELU_ATOL,
                            .rtol = W15_GELU_RTOL, .i64 = { (long long)n, rows, cols }, .f64 = { s }, .what = what,
                            .fn_name = "gelu_chain_fused", .out_name = "y" };
            if (case_run(k->J, &B, &cs, k->t) < 0) break;
        }
    bufs_free(k->J, &B);
}

/* ---------------------------------------------------------------- L2 norm */

static void judge_l2norm(jd_ck *k)
{
    size_t tb = 0, cap[3] = { max_size(W15_NSIZES, W15_N_NSIZES, W15_NSPECIAL_MAX) + 3, 0, 0 };
    if (tmp_bytes(k->J, &tb, k->t) != 0) return;
    w15_bufs B;
    if (bufs_alloc(k->J, &B, cap, 1, tb, k->t) == 0)
        for (int i = 0; i < (int)(W15_N_NSIZES + W15_N_NSPECIALS) && !k->J->lost; i++) {
            int sizes = i < (int)W15_N_NSIZES, c = sizes ? i : i - (int)W15_N_NSIZES;
            wb_rng rng = wb_rng_for_seed(jd_seed, sizes ? W15_L2NORM_SIZES_TAG : W15_L2NORM_SPECIALS_TAG, c);
            size_t n, off = 0, at = 0;
            double want;
            char what[64];
            if (sizes) {
                n = W15_NSIZES[c], off = (size_t)(c % 3);
                want = w15_l2norm_sizes_case(&rng, n, off, B.hin[0]);
                snprintf(what, sizeof what, "n=%zu, x+%zu", n, off);
            } else {
                const char *sp;
                w15_l2norm_specials_n(&rng, &n, &at);
                want = w15_l2norm_specials_case(&rng, c, n, at, B.hin[0], &sp);
                snprintf(what, sizeof what, "n=%zu with %s", n, sp);
            }
            w15_case cs = { .fn = W15_FN_NORM, .nin = 1, .with_tmp = 1, .in = { B.hin[0] }, .in_n = { n + off },
                            .in_off = { off }, .n = 1, .ref = &want, .atol = 0, .rtol = W15_NORM_RTOL,
                            .i64 = { (long long)n }, .what = what, .fn_name = "norm_l2", .out_name = "norm" };
            if (case_run(k->J, &B, &cs, k->t) < 0) break;
        }
    bufs_free(k->J, &B);
}

/* ---------------------------------------------------------------- softmax */

static void judge_softmax(jd_ck *k)
{
    size_t maxn = (size_t)W15_SOFF_MAX_ROWS * W15_SOFF_MAX_COLS;
    for (size_t i = 0; i < W15_N_SSHAPES; i++)
        if (w15_elems(W15_SSHAPES[i][0], W15_SSHAPES[i][1]) > maxn) maxn = w15_elems(W15_SSHAPES[i][0], W15_SSHAPES[i][1]);
    size_t cap[3] = { maxn + 2, 0, 0 };
    w15_bufs B;
    if (bufs_alloc(k->J, &B, cap, maxn, 0, k->t) == 0)
        for (int i = 0; i < (int)(W15_N_SSHAPES + W15_N_SOFFSETS) && !k->J->lost; i++) {
            int shapes = i < (int)W15_N_SSHAPES, c = shapes ? i : i - (int)W15_N_SSHAPES, rows, cols;
            wb_rng rng = wb_rng_for_seed(jd_seed, shapes ? W15_SOFTMAX_SHAPES_TAG : W15_SOFTMAX_OFFSETS_TAG, c);
            size_t ox = 0, oy = 0;
            if (shapes) rows = W15_SSHAPES[c][0], cols = W15_SSHAPES[c][1];
            else w15_softmax_offsets_shape(&rng, &rows, &cols), ox = (size_t)(c & 1), oy = (size_t)(c >> 1);
            size_t n = w15_elems(rows, cols);
            w15_softmax_case(&rng, rows, cols, ox, B.hin[0], B.ref);
            char what[160];
            snprintf(what, sizeof what, "rows=%d cols=%d, x+%zu y+%zu%s", rows, cols, ox, oy,
                     rows >= 6 && cols >= 2 ? " (rows 0-5: near 3e4, +-1e30, some -Inf, all -Inf, a NaN, a +Inf)" : "");
            w15_case cs = { .fn = W15_FN_SOFTMAX, .nin = 1, .in = { B.hin[0] }, .in_n = { n + ox }, .in_off = { ox },
                            .n = n, .out_off = oy, .ref = B.ref, .atol = W15_SOFTMAX_ATOL, .rtol = W15_SOFTMAX_RTOL,
                            .i64 = { (long long)n, rows, cols }, .what = what, .fn_name = "softmax_fused", .out_name = "y" };
            if (case_run(k->J, &B, &cs, k->t) < 0) break;
        }
    bufs_free(k->J, &B);
}

/* ---------------------------------------------------------------- smooth */

static void judge_smooth(jd_ck *k)
{
    size_t maxn = max_size(W15_MSIZES, W15_N_MSIZES, W15_MOFF_MAX), cap[3] = { maxn + 4, 0, 0 };
    w15_bufs B;
    if (bufs_alloc(k->J, &B, cap, maxn, 0, k->t) == 0)
        for (int i = 0; i < (int)(W15_N_MSIZES + W15_N_MOFFSETS) && !k->J->lost; i++) {
            int sizes = i < (int)W15_N_MSIZES, c = sizes ? i : i - (int)W15_N_MSIZES;
            wb_rng rng = wb_rng_for_seed(jd_seed, sizes ? W15_SMOOTH_SIZES_TAG : W15_SMOOTH_OFFSETS_TAG, c);
            size_t n, ox = 0, oy = 0;
            if (sizes) n = W15_MSIZES[c];
            else n = w15_smooth_offsets_n(&rng), ox = (size_t)(c & 3), oy = (size_t)(c >> 2);
            w15_smooth_case(&rng, n, ox, B.hin[0], B.ref);
            char what[128];
            snprintf(what, sizeof what, "n=%zu, x+%zu y+%zu%s", n, ox, oy,
                     n >= 8 ? " (NaN at 1, +Inf at n/2, -Inf at n-2)" : "");
            w15_case cs = { .fn = W15_FN_SMOOTH, .nin = 1, .in = { B.hin[0] }, .in_n = { n + ox }, .in_off = { ox },
                            .n = n, .out_off = oy, .ref = B.ref, .atol = W15_SMOOTH_ATOL, .rtol = W15_SMOOTH_RTOL,
                            .i64 = { (long long)n }, .what = what, .fn_name = "smooth_fused", .out_name = "y" };
            if (case_run(k->J, &B, &cs, k->t) < 0) break;
        }
    bufs_free(k->J, &B);
}

/* ---------------------------------------------------------------- large outputs */

/* A large output checked on the device (the report runs of w15.linear and
 * w15.normalize): device inputs filled from seeds, the output poisoned, one
 * call, then a judge kernel counts the wrong elements. */
static unsigned long long *g_bad; /* 2 device words */
static double             *g_dsum; /* 1 device double */

static int dev_scratch(jd_tally *t)
{
    if (!g_bad && cudaMalloc((void **)&g_bad, 16) != cudaSuccess) g_bad = NULL;
    if (!g_dsum && cudaMalloc((void **)&g_dsum, sizeof(double)) != cudaSuccess) g_dsum = NULL;
    if (!g_bad || !g_dsum) return jd_failf(t, "the judge's own buffers: cudaMalloc failed"), -1;
    return 0;
}

/* The call rq (its arguments set) timed by the judge's clock: 0 and *ms, or
 * -1 with t failed. */
static int big_call(jd *J, jd_req *rq, const char *what, const char *fn_name, double *ms, jd_tally *t)
{
    jd_rep rp;
    double us = 0;
    t->tests++;
    if (cudaDeviceSynchronize() != cudaSuccess) return jd_failf(t, "%s: the judge's fill failed", what), -1;
    if (jd_call(J, rq, &rp, &us) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0) return jd_failf(t, "%s: %s returned %s", what, fn_name, status_name(rp.status)), -1;
    *ms = us / 1e3;
    return 0;
}

/* A check kernel's end (e its launch): 0 when no element was wrong, else -1 with t failed. */
static int big_verdict(cudaError_t e, const char *what, const char *out_name, size_t n, jd_tally *t)
{
    unsigned long long h[2];
    if (jd_full_check_done(e, g_bad, h) != 0) return jd_failf(t, "%s: the judge's check did not run", what), -1;
    if (h[0])
        return jd_failf(t, "%s: %llu of %zu elements wrong, the first %s[%llu] (checked in full)", what, h[0], n, out_name,
                        h[1]), -1;
    return 0;
}

/* ---------------------------------------------------------------- linear */

static void linear_big(jd_ck *k)
{
    const int M = W15_LM, N = W15_LN, K = W15_LK;
    const size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    const unsigned long long sa = jd_mix(jd_seed ^ 0x15a), sb = jd_mix(jd_seed ^ 0x15b), sbias = jd_mix(jd_seed ^ 0x15c);
    jd_gbuf A = { -1, NULL, 0 }, Bm = { -1, NULL, 0 }, bias = { -1, NULL, 0 }, C = { -1, NULL, 0 };
    double ms[2] = { NAN, NAN };
    if (dev_scratch(k->t) != 0 || jd_gbuf_alloc(k->J, &A, na * 4, k->t) != 0 || jd_gbuf_alloc(k->J, &Bm, nb * 4, k->t) != 0 ||
        jd_gbuf_alloc(k->J, &bias, (size_t)N * 4, k->t) != 0 || jd_gbuf_alloc(k->J, &C, nc * 4, k->t) != 0)
        goto out;
    wb_dfill_uniform_f32((float *)(A.d + JD_GBAND), na, sa, -1, 1);
    wb_dfill_uniform_f32((float *)(Bm.d + JD_GBAND), nb, sb, -1, 1);
    wb_dfill_uniform_f32((float *)(bias.d + JD_GBAND), (size_t)N, sbias, -1, 1);
    for (int v = 0; v < 2 && !k->J->lost; v++) {
        char what[96];
        const char *name = v ? "linear_sgemm_bias_relu" : "linear_sgemm";
        snprintf(what, sizeof what, "%s, M=%d N=%d K=%d (the report's shape)", name, M, N, K);
        if (jd_gbuf_poison(&C, 0, nc * 4) != 0) {
            jd_failf(k->t, "%s: the judge's own copies failed", what);
            break;
        }
        jd_req rq;
        jd_call_setup(&rq, v ? W15_FN_SGEMM_BIAS_RELU : W15_FN_SGEMM, 1, v ? 4 : 3);
        jd_gbuf_arg(&rq, 0, &A, 0), jd_gbuf_arg(&rq, 1, &Bm, 0);
        if (v) jd_gbuf_arg(&rq, 2, &bias, 0);
        jd_gbuf_arg(&rq, v ? 3 : 2, &C, 0);
        rq.i64[1] = M, rq.i64[2] = N, rq.i64[3] = K;
        if (big_call(k->J, &rq, what, name, &ms[v], k->t) != 0) break;
        const float *c = (const float *)(C.d + JD_GBAND);
        if (big_verdict(jd_gemm_check_f32(c, M, N, K, sa, sb, sbias, -1, 1, v, W15_LBIG_ATOL, W15_LINEAR_RTOL, g_bad,
                                          jd_stream),
                        what, "C", nc, k->t) != 0)
            break;
    }
    if (!isnan(ms[1]))
        printf("  linear, M=%d N=%d K=%d: GEMM %.4f ms, fused epilogue %.4f ms by the judge's clock, one call each (shown, "
               "not judged: no target)\n", M, N, K, ms[0], ms[1]);
out:
    jd_gbuf_free(k->J, &A), jd_gbuf_free(k->J, &Bm), jd_gbuf_free(k->J, &bias), jd_gbuf_free(k->J, &C);
}

static void judge_linear(jd_ck *k)
{
    size_t ma = 1, mb = 1, mc = 1, mn = 1;
    for (size_t i = 0; i < W15_N_LSHAPES; i++) {
        size_t M = (size_t)W15_LSHAPES[i][0], N = (size_t)W15_LSHAPES[i][1], K = (size_t)W15_LSHAPES[i][2];
        if (M * K > ma) ma = M * K;
        if (K * N > mb) mb = K * N;
        if (M * N > mc) mc = M * N;
        if (N > mn) mn = N;
    }
    size_t cap[3] = { ma + 1, mb + 1, mn };
    w15_bufs B;
    if (bufs_alloc(k->J, &B, cap, mc, 0, k->t) == 0)
        for (int i = 0; i < (int)W15_N_LSHAPES && !k->J->lost; i++) {
            int M = W15_LSHAPES[i][0], N = W15_LSHAPES[i][1], K = W15_LSHAPES[i][2], nan = i % 2, rc = 0;
            size_t na = (size_t)M * K, nb = (size_t)K * N;
            wb_rng rng = wb_rng_for_seed(jd_seed, W15_LINEAR_TAG, i);
            w15_linear_case(&rng, M, N, K, nan, B.hin[0], B.hin[1], B.hin[2], B.ref, B.ref2);
            for (int v = 0; v < 2 && rc == 0; v++) {
                char what[96];
                snprintf(what, sizeof what, "%s, M=%d N=%d K=%d%s", v ? "linear_sgemm_bias_relu" : "linear_sgemm", M, N, K,
                         nan && na ? ", A[0][0] NaN" : "");
                w15_case cs = { .fn = v ? W15_FN_SGEMM_BIAS_RELU : W15_FN_SGEMM, .nin = v ? 3 : 2,
                                .in = { B.hin[0], B.hin[1], B.hin[2] }, .in_n = { na + 1, nb + 1, (size_t)N },
                                .n = (size_t)M * N, .ref = v ? B.ref2 : B.ref, .atol = w15_linear_atol(K), .rtol = W15_LINEAR_RTOL,
                                .i64 = { (long long)M * N, M, N, K }, .what = what,
                                .fn_name = v ? "linear_sgemm_bias_relu" : "linear_sgemm", .out_name = "C" };
                rc = case_run(k->J, &B, &cs, k->t);
            }
            if (rc < 0) break;
        }
    bufs_free(k->J, &B);
    if (!k->t->failed && !k->J->lost) linear_big(k);
}

/* ---------------------------------------------------------------- normalize */

static void normalize_big(jd_ck *k, size_t tb)
{
    const size_t n = wb_bench_bytes() / 4;
    const unsigned long long sx = jd_mix(jd_seed ^ 0x152);
    jd_gbuf x = { -1, NULL, 0 }, y = { -1, NULL, 0 }, tmp = { -1, NULL, 0 };
    char what[96];
    double ms = NAN;
    snprintf(what, sizeof what, "n=%zu (the report's size)", n);
    if (dev_scratch(k->t) != 0 || jd_gbuf_alloc(k->J, &x, n * 4, k->t) != 0 || jd_gbuf_alloc(k->J, &y, n * 4, k->t) != 0 ||
        jd_gbuf_alloc(k->J, &tmp, tb, k->t) != 0)
        goto out;
    wb_dfill_uniform_f32((float *)(x.d + JD_GBAND), n, sx, -1, 1);
    if (jd_gbuf_poison(&y, 0, n * 4) != 0 || jd_gbuf_poison(&tmp, 0, tb) != 0) {
        jd_failf(k->t, "%s: the judge's own copies failed", what);
        goto out;
    }
    jd_req rq;
    jd_call_setup(&rq, W15_FN_NORMALIZE, 1, 3);
    jd_gbuf_arg(&rq, 0, &x, 0), jd_gbuf_arg(&rq, 1, &y, 0), jd_gbuf_arg(&rq, 2, &tmp, 0);
    rq.i64[0] = (long long)n;
    if (big_call(k->J, &rq, what, "normalize_fused", &ms, k->t) != 0) goto out;
    cudaError_t e = jd_hash_sumsq_f64(n, sx, -1, 1, g_dsum, jd_stream);
    if (e == cudaSuccess)
        e = jd_scale_check_f32((const float *)(y.d + JD_GBAND), n, sx, -1, 1, g_dsum, 1e-9, W15_NORM_RTOL, g_bad, jd_stream);
    if (big_verdict(e, what, "y", n, k->t) == 0)
        printf("  normalize_fused, n=%zu: %.4f ms by the judge's clock, one call, %.0f GB/s of 12 bytes an element "
               "(shown, not judged: no target)\n", n, ms, 12.0 * (double)n / (ms * 1e-3) / 1e9);
out:
    jd_gbuf_free(k->J, &x), jd_gbuf_free(k->J, &y), jd_gbuf_free(k->J, &tmp);
}

static void judge_normalize(jd_ck *k)
{
    size_t tb = 0, maxn = max_size(W15_ZSIZES, W15_N_ZSIZES, W15_NORMALIZE_ZERO_N), cap[3] = { maxn + 2, 0, 0 };
    if (tmp_bytes(k->J, &tb, k->t) != 0) return;
    w15_bufs B;
    if (bufs_alloc(k->J, &B, cap, maxn, tb, k->t) == 0)
        for (int i = 0; i <= (int)W15_N_ZSIZES && !k->J->lost; i++) {
            int zero = i == (int)W15_N_ZSIZES;
            wb_rng rng = wb_rng_for_seed(jd_seed, zero ? W15_NORMALIZE_ZERO_TAG : W15_NORMALIZE_SIZES_TAG, zero ? 0 : i);
            size_t n = zero ? W15_NORMALIZE_ZERO_N : W15_ZSIZES[i], ox = zero ? 0 : (size_t)(i % 2),
                   oy = zero ? 0 : (size_t)(i % 3);
            w15_normalize_case(&rng, n, ox, zero, B.hin[0], B.ref);
            char what[96];
            snprintf(what, sizeof what, "n=%zu, x+%zu y+%zu%s", n, ox, oy, zero ? ", all zeros: 0/0 is NaN" : "");
            w15_case cs = { .fn = W15_FN_NORMALIZE, .nin = 1, .with_tmp = 1, .in = { B.hin[0] }, .in_n = { n + ox },
                            .in_off = { ox }, .n = n, .out_off = oy, .ref = B.ref, .atol = W15_NORMALIZE_ATOL,
                            .rtol = W15_NORM_RTOL, .i64 = { (long long)n }, .what = what, .fn_name = "normalize_fused",
                            .out_name = "y" };
            if (case_run(k->J, &B, &cs, k->t) < 0) break;
        }
    bufs_free(k->J, &B);
    if (!k->t->failed && !k->J->lost) normalize_big(k, tb);
}

/* ---------------------------------------------------------------- timed checkpoints */

static jd_bench g_bench; /* large: its sample arrays */

static void bench_setup(int fn, int n_in, size_t n, float lo, float hi, double atol, double rtol, const char *fn_name)
{
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.fn = fn, g_bench.n_in = n_in, g_bench.max_k = JD_BENCH_MAX_K, g_bench.n = n;
    g_bench.lo = lo, g_bench.hi = hi, g_bench.atol = atol, g_bench.rtol = rtol;
    g_bench.fn_name = fn_name, g_bench.out_name = "y";
}

/* A value in [0, 1) from the hidden value r. */
static double unit_of(uint64_t r) { return (double)(jd_mix(r) >> 11) / 9007199254740992.0; }

/* -- the GELU chain: x with bias after it (input 0), r (input 1); s fresh a request */
static unsigned long long bias_seed(unsigned long long sx) { return jd_mix(sx ^ 0xb1a5); }

static void gelu_fill(const jd_bench *b, void *in, unsigned long long seed)
{
    int first = 0, cols = (int)b->i64[2];
    for (int r = 0; r < b->k; r++) first |= in == b->in[r][0];
    float *p = in;
    if (first) {
        wb_dfill_uniform_f32(p, b->n, seed, W15_GELU_X_LO, W15_GELU_X_HI);
        wb_dfill_uniform_f32(p + b->n, (size_t)cols, bias_seed(seed), -1, 1);
    } else {
        wb_dfill_uniform_f32(p, b->n, seed, -1, 1);
        cudaMemsetAsync(p + b->n, 0xff, (size_t)cols * 4, 0);
    }
}

static void gelu_fresh(jd_bench *b, uint64_t r) { b->f64[0] = (double)(float)(0.5 + unit_of(r)); }

static float gelu_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    size_t cols = (size_t)b->i64[2];
    double v = (double)wb_hash_uniform_f32(seed[0], i, W15_GELU_X_LO, W15_GELU_X_HI) +
               wb_hash_uniform_f32(bias_seed(seed[0]), i % cols, -1, 1);
    return (float)(wb_hash_uniform_f32(seed[1], i, -1, 1) + (float)b->f64[0] * w15_gelu_ref(v));
}

static int gelu_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    return jd_full_check_done(jd_gelu_check_f32(out, b->n, (int)b->i64[2], seed[0], W15_GELU_X_LO, W15_GELU_X_HI,
                                                bias_seed(seed[0]), seed[1], -1, 1, (float)b->f64[0], b->atol, b->rtol,
                                                bad, jd_stream),
                              bad, h);
}

static void judge_gelu_speed(jd_ck *k)
{
    const size_t cols = W15_GELU_COLS, rows = wb_bench_bytes() / 4 / cols, n = rows * cols;
    bench_setup(W15_FN_GELU_TIMED, 2, n, W15_GELU_X_LO, W15_GELU_X_HI, W15_GELU_ATOL, W15_GELU_RTOL, "gelu_chain_fused");
    g_bench.in_bytes = (n + cols) * 4;
    g_bench.i64[1] = (long long)rows, g_bench.i64[2] = (long long)cols;
    g_bench.fill = gelu_fill, g_bench.fresh = gelu_fresh;
    g_bench.expect = gelu_expect, g_bench.full_check = gelu_check;
    jd_bw_checkpoint(k, &g_bench, TIMED, W15_BYTES[TR_GELU][1], "gelu_chain_fused");
}

/* -- the L2 norm: x with the workspace after it (input 0), one float out; the range fresh a request */
static size_t g_tmp_off, g_tmp_bytes;
static struct { unsigned long long seed; float hi; double norm; } g_norms[JD_BENCH_MAX_K * 2];
static int g_n_norms;

static void norm_fill(const jd_bench *b, void *in, unsigned long long seed)
{
    wb_dfill_uniform_f32(in, b->n, seed, b->lo, b->hi);
    cudaMemsetAsync((char *)in + g_tmp_off, 0xff, g_tmp_bytes, 0);
}

static void norm_fresh(jd_bench *b, uint64_t r)
{
    float amp = (float)(1.0 + unit_of(r));
    b->lo = -amp, b->hi = amp;
}

/* The norm of what norm_fill wrote from seed (the judge's kernel, in double), remembered per seed. */
static double norm_of(const jd_bench *b, unsigned long long seed)
{
    for (int j = 0; j < g_n_norms; j++)
        if (g_norms[j].seed == seed && g_norms[j].hi == b->hi) return g_norms[j].norm;
    double sq = NAN;
    if (jd_hash_sumsq_f64(b->n, seed, b->lo, b->hi, g_dsum, jd_stream) != cudaSuccess ||
        cudaMemcpyAsync(&sq, g_dsum, sizeof sq, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
        cudaStreamSynchronize(jd_stream) != cudaSuccess)
        return NAN; /* the look then fails: no figure from an unchecked run */
    int j = g_n_norms < (int)(sizeof g_norms / sizeof g_norms[0]) ? g_n_norms++ : (int)(seed % g_n_norms);
    g_norms[j].seed = seed, g_norms[j].hi = b->hi, g_norms[j].norm = sqrt(sq);
    return g_norms[j].norm;
}

static float norm_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    (void)i;
    return (float)norm_of(b, seed[0]);
}

static int norm_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    (void)bad;
    float got = NAN;
    double want = norm_of(b, seed[0]);
    if (cudaMemcpyAsync(&got, out, sizeof got, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
        cudaStreamSynchronize(jd_stream) != cudaSuccess || isnan(want))
        return -1;
    h[0] = !wb_close(got, want, 0, W15_NORM_RTOL), h[1] = 0;
    return 0;
}

static void judge_l2norm_speed(jd_ck *k)
{
    const size_t n = wb_bench_bytes() / 4;
    size_t tb = 0;
    if (dev_scratch(k->t) != 0 || tmp_bytes(k->J, &tb, k->t) != 0) return;
    g_tmp_off = (n * 4 + 255) / 256 * 256, g_tmp_bytes = tb, g_n_norms = 0;
    bench_setup(W15_FN_NORM_TIMED, 1, n, -1, 1, 0, W15_NORM_RTOL, "norm_l2");
    g_bench.out_n = 1, g_bench.in_bytes = g_tmp_off + tb, g_bench.out_name = "norm";
    g_bench.i64[1] = (long long)g_tmp_off;
    g_bench.fill = norm_fill, g_bench.fresh = norm_fresh;
    g_bench.expect = norm_expect, g_bench.full_check = norm_check;
    jd_bw_checkpoint(k, &g_bench, TIMED, W15_BYTES[TR_L2NORM][1], "norm_l2");
}

/* -- softmax: 1024 columns */
static float softmax_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    size_t cols = (size_t)b->i64[2], base = i / cols * cols;
    double m = -INFINITY, s = 0;
    for (size_t j = 0; j < cols; j++) m = fmax(m, wb_hash_uniform_f32(seed[0], base + j, b->lo, b->hi));
    for (size_t j = 0; j < cols; j++) s += exp(wb_hash_uniform_f32(seed[0], base + j, b->lo, b->hi) - m);
    return (float)(exp(wb_hash_uniform_f32(seed[0], i, b->lo, b->hi) - m) / s);
}

static int softmax_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                         unsigned long long h[2])
{
    return jd_full_check_done(jd_softmax_check_f32(out, (int)b->i64[1], (int)b->i64[2], seed[0], b->lo, b->hi, b->atol,
                                                   b->rtol, bad, jd_stream),
                              bad, h);
}

static void judge_softmax_speed(jd_ck *k)
{
    const size_t cols = W15_SOFTMAX_COLS, rows = wb_bench_bytes() / 4 / cols;
    bench_setup(W15_FN_SOFTMAX, 1, rows * cols, W15_SOFTMAX_LO, W15_SOFTMAX_HI, W15_SOFTMAX_ATOL, W15_SOFTMAX_RTOL,
                "softmax_fused");
    g_bench.i64[1] = (long long)rows, g_bench.i64[2] = (long long)cols;
    g_bench.expect = softmax_expect, g_bench.full_check = softmax_check;
    jd_bw_checkpoint(k, &g_bench, TIMED, W15_BYTES[TR_SOFTMAX][1], "softmax_fused");
}

/* -- smooth */
static float smooth_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    double l = i > 0 ? w15_bell(wb_hash_uniform_f32(seed[0], i - 1, b->lo, b->hi)) : 0;
    double r = i + 1 < b->n ? w15_bell(wb_hash_uniform_f32(seed[0], i + 1, b->lo, b->hi)) : 0;
    return (float)(0.25 * (l + r) + 0.5 * w15_bell(wb_hash_uniform_f32(seed[0], i, b->lo, b->hi)));
}

static int smooth_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                        unsigned long long h[2])
{
    return jd_full_check_done(jd_smooth_check_f32(out, b->n, seed[0], b->lo, b->hi, b->atol, b->rtol, bad, jd_stream), bad,
                              h);
}

static void judge_smooth_speed(jd_ck *k)
{
    bench_setup(W15_FN_SMOOTH, 1, wb_bench_bytes() / 4, W15_SMOOTH_LO, W15_SMOOTH_HI, W15_SMOOTH_ATOL, W15_SMOOTH_RTOL,
                "smooth_fused");
    g_bench.expect = smooth_expect, g_bench.full_check = smooth_check;
    jd_bw_checkpoint(k, &g_bench, TIMED, W15_BYTES[TR_SMOOTH][1], "smooth_fused");
}

/* COPY of an array of the test's size (wb_bench_bytes(), read and written:
 * 8 bytes a float of wb_bench_bytes() / 4) for all four speed checkpoints,
 * as the test's wb_yard_copy_gbps(n * 4). */
static const jd_checkpoint CPS[] = {
    { "w15.traffic", judge_traffic_gpu, judge_traffic, 1, 0 },
    { "w15.gelu", judge_gelu, NULL, 0, 0 },
    { "w15.gelu-speed", judge_gelu_speed, NULL, 0, 8 },
    { "w15.l2norm", judge_l2norm, NULL, 0, 0 },
    { "w15.l2norm-speed", judge_l2norm_speed, NULL, 0, 8 },
    { "w15.softmax", judge_softmax, NULL, 0, 0 },
    { "w15.softmax-speed", judge_softmax_speed, NULL, 0, 8 },
    { "w15.smooth", judge_smooth, NULL, 0, 0 },
    { "w15.smooth-speed", judge_smooth_speed, NULL, 0, 8 },
    { "w15.linear", judge_linear, NULL, 0, 0 },
    { "w15.normalize", judge_normalize, NULL, 0, 0 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w15", "phase3/week15", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
