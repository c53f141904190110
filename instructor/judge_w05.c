/* judge_w05.c — build/instructor/judge-w05: week 05's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's ew.o, views.o and streams.o (with the week's support/spin.o) are
 * linked into the runner (judge_w05_runner.c), which this process starts (or
 * is handed) and asks to call them on buffers it allocated (judge.h). It
 * poisons, fills, times and checks, and writes the results record itself,
 * outside the runner's reach. The command line, the runner's start, the
 * record, the checked case, the timed-call protocol and the COPY yardstick
 * are judge_week.c's:
 *
 *   judge-w05 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week05.c's (shared through phase1/week05/w05_checks.h),
 * each case drawn as the test draws it for the seed (wb_rng_for_seed with
 * the test's tag):
 *   w05.gridstride   ew_scale_relu on every size of W05_SIZES, 16 offset
 *                    mixes (x and y at any float alignment) and 4 cases with
 *                    NaN and both infinities, every element against
 *                    relu(alpha x) at 1e-7 |ref| (NaN where NaN is due, the
 *                    poison left there counted as not written), a poisoned
 *                    guard band and lead around y, nothing written outside;
 *   w05.index        ew_add2d on the test's 8 shapes with drawn leading
 *                    dimensions (c's row padding poisoned and found
 *                    untouched, a guard band around c) and ew_tensor3_relu on
 *                    its 10 permuted and sliced views, every element checked;
 *   w05.views        the test's four checks of views_contiguous_strides,
 *                    views_permute and views_strides (the known answers, 8
 *                    random permutations, 8 x 400 random views against brute
 *                    force), each function called by the runner on arrays the
 *                    judge sends in a host buffer both map, its outputs and
 *                    return value read back by the judge (a CPU checkpoint:
 *                    PASS or FAIL with or without a GPU);
 *   w05.overlap      streams_overlap_pipeline on the test's 12 cases (1 to 8
 *                    streams, 1 to 64 chunks, n from 0 to 2^22 + 1), hx and
 *                    hy host buffers both map (the runner pins them in place
 *                    with cudaHostRegister where the driver allows it), hy
 *                    poisoned with a guard band each side, dy a poisoned
 *                    device buffer with a guard band: every hy element exact
 *                    against the judge's own mix, nothing written outside hy
 *                    or dy; on the odd cases the timeline (a host buffer,
 *                    NaN before the call) in stream order. What the judge
 *                    cannot see: whether the copies and kernels of different
 *                    chunks overlapped, whether they were asynchronous, and
 *                    whether the timeline's times were measured by events on
 *                    the streams that ran the work: the streams and events
 *                    live in the runner's process, so the timeline is the
 *                    runner's word, checked for consistency as the test
 *                    checks it (the test does not check overlap either: CUDA
 *                    does not promise it, and the overlap benchmark reports it);
 *   w05.gridstride-bw the timed-call protocol (judge_week.h): K calls a
 *                    request, each on its own x and y of wb_bench_bytes(), x
 *                    fresh from the hidden seed before every request and a new
 *                    alpha for every request (the runner cannot have the output
 *                    ready as it watches the judge fill x), y poisoned, the
 *                    judge's look after the reply and every output checked in
 *                    full by the judge's kernel (jd_relu_check_f32) at
 *                    1e-7 |ref|; the median of 7 requests, 8 bytes an element,
 *                    against COPY timed through the same protocol
 *                    (jd_copy_yard), the target for this GPU from week.txt.
 * Not listed (judge-w05 --list), so the grader runs them in the week's
 * linked test program: w05.streams (its verdict is that the host did not
 * wait inside streams_two_chain and that stream b was still busy behind
 * stream a's kernel right after the call: a host clock and cudaStreamQuery
 * on the runner's own streams, inside the student's process; the outputs the
 * judge could read are right for a version that synchronises too),
 * w05.event-timing (what streams_time_on measures is an event pair in the
 * student's process around work on the student's stream: the figure is the
 * runner's word, and a judge cannot record events on another process's
 * stream) and w05.default-stream (which stream waits for which is observed
 * by a gate kernel and an event query inside the process that made the
 * stream; a stream handle does not cross processes). Their guarantee is the
 * linked test's (instructor/README.md, the threat model). Run on an H200
 * (2026-11-29): by itself the reference passed all five and the starter
 * failed all five; through the grader the reference full marks, the
 * starter 0. Without a GPU the plumbing and w05.views are tested by
 * instructor/tests/judge_w05.sh. */
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
#include "judge_w05.h"
#include "judge_week.h"
#include "w05_checks.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cuda.h"

#define TIMED 7
#define LO    (-1.0f) /* the timed runs' inputs */
#define HI    1.0f

static size_t max_z(size_t a, size_t b) { return a > b ? a : b; }

/* ---------------------------------------------------------------- gridstride */

/* Case i: the test's sizes, then its offset mixes, then its NaN/Inf cases,
 * each drawn for this seed (w05_checks.h). */
static int sr_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    float *ref = ctx;
    const int first_off = (int)W05_N_SIZES, first_nf = first_off + W05_N_SR_OFFSETS;
    int nonfinite = i >= first_nf, off = !nonfinite && i >= first_off;
    int c = nonfinite ? i - first_nf : off ? i - first_off : i;
    wb_rng rng = wb_rng_for_seed(jd_seed, nonfinite ? W05_SR_NANINF_TAG : off ? W05_SR_OFFSETS_TAG : W05_SR_SIZES_TAG, c);
    size_t ox, oy, n = nonfinite ? w05_sr_naninf_n(&rng, c, &ox, &oy)
                       : off     ? w05_sr_offsets_n(&rng, c, &ox, &oy)
                                 : w05_sr_sizes_n(c, &ox, &oy);
    float alpha = w05_sr_draw(&rng, n, ox, nonfinite, B->h[0], ref);
    char what[96];
    snprintf(what, sizeof what, "n=%zu, x+%zu y+%zu, alpha %g", n, ox, oy, alpha);
    jd_case cs = { .fn = W05_FN_SCALE_RELU, .in = { B->h[0] }, .in_n = { n + ox }, .in_off = { ox }, .n = n,
                   .out_off = oy, .ref = ref, .atol = 0, .rtol = W05_SR_RTOL, .f64 = { alpha }, .what = what,
                   .out_name = "y", .fn_name = "ew_scale_relu" };
    return jd_case_run(J, B, &cs, t);
}

static void judge_gridstride(jd_ck *k)
{
    size_t maxn = max_z(max_z(W05_SIZES[W05_N_SIZES - 1], W05_SR_OFFSET_MAX_N), 5000);
    float *ref = malloc(maxn * sizeof *ref);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 1, maxn + 4, maxn, (int)W05_N_SIZES + W05_N_SR_OFFSETS + W05_N_SR_NANINF, sr_one, ref);
    free(ref);
}

/* ---------------------------------------------------------------- index */

/* ew_add2d case i: a and b copied in, c (rows x ldc floats, padding
 * included) poisoned inside a guard band; every element of c against the
 * reference, its row padding and the guard band still the poison. */
static int add2d_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    float *ref = ctx;
    wb_rng rng = wb_rng_for_seed(jd_seed, W05_ADD2D_TAG, i);
    int rows, cols;
    size_t lda, ldb, ldc;
    w05_add2d_shape(&rng, i, &rows, &cols, &lda, &ldb, &ldc);
    w05_add2d_fill(&rng, rows, cols, B->h[0], lda, B->h[1], ldb, ref);
    size_t na = lda * rows, nb = ldb * rows, nc = ldc * rows, cn = JD_GUARD + nc + JD_GUARD;
    char what[96];
    snprintf(what, sizeof what, "%d x %d, ld %zu %zu %zu", rows, cols, lda, ldb, ldc);
    t->tests++;
    cudaError_t e = cudaMemcpy(B->d[0], B->h[0], na * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(B->d[1], B->h[1], nb * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemset(B->d[2], 0xff, cn * 4);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return jd_failf(t, "the judge's own copies: %s", cudaGetErrorName(e)), -1;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W05_FN_ADD2D, 1, 3);
    rq.arg_buf[0][0] = B->ib[0], rq.arg_buf[0][1] = B->ib[1], rq.arg_buf[0][2] = B->ib[2];
    rq.arg_off[0][2] = JD_GUARD * 4;
    rq.i64[0] = rows, rq.i64[1] = cols, rq.i64[2] = (long long)lda, rq.i64[3] = (long long)ldb, rq.i64[4] = (long long)ldc;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0)
        return jd_failf(t, "%s: ew_add2d returned %s", what, cudaGetErrorName((cudaError_t)rp.status)), 0;
    float *h = B->h[2];
    if ((e = cudaMemcpy(h, B->d[2], cn * 4, cudaMemcpyDeviceToHost)) != cudaSuccess)
        return jd_failf(t, "%s: reading the output: %s", what, cudaGetErrorName(e)), -1;
    const float *c = h + JD_GUARD;
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            float got = c[(size_t)y * ldc + x], want = ref[(size_t)y * cols + x];
            if (!wb_close(got, want, 0, W05_ADD2D_RTOL))
                return jd_failf(t, "%s: c[%zu] (row %d, column %d) expected %.9g got %.9g", what,
                                (size_t)y * cols + x, y, x, (double)want, (double)got), 0;
        }
    size_t pad = 0, out = 0;
    for (int y = 0; y < rows; y++) pad += wb_count_not_byte(c + (size_t)y * ldc + cols, (ldc - cols) * 4, 0xFF);
    out = wb_count_not_byte(h, JD_GUARD * 4, 0xFF) + wb_count_not_byte(h + JD_GUARD + nc, JD_GUARD * 4, 0xFF);
    if (out) return jd_failf(t, "%s: %zu bytes written outside c", what, out), 0;
    if (pad) return jd_failf(t, "%s: %zu bytes of row padding written", what, pad), 0;
    return 0;
}

/* ew_tensor3_relu case i: the base copied in, the contiguous output in a
 * poisoned guard band. */
static int tensor3_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    float *ref = ctx;
    wb_rng rng = wb_rng_for_seed(jd_seed, W05_TENSOR3_TAG, i);
    int shape[3];
    long long st[3];
    size_t nbase = w05_tensor3_view(&rng, i, shape, st), nout = (size_t)shape[0] * shape[1] * shape[2];
    w05_tensor3_fill(&rng, B->h[0], nbase, shape, st, ref);
    char what[128];
    snprintf(what, sizeof what, "shape %d x %d x %d, strides %lld %lld %lld", shape[0], shape[1], shape[2], st[0], st[1],
             st[2]);
    jd_case cs = { .fn = W05_FN_TENSOR3, .in = { B->h[0] }, .in_n = { nbase }, .n = nout, .ref = ref, .atol = 0,
                   .rtol = W05_TENSOR3_RTOL, .i64 = { 0, st[0], st[1], st[2], shape[0], shape[1], shape[2] },
                   .f64 = { W05_TENSOR3_ALPHA }, .what = what, .out_name = "y", .fn_name = "ew_tensor3_relu" };
    return jd_case_run(J, B, &cs, t);
}

static void judge_index(jd_ck *k)
{
    size_t a_max = 0, t_out = 0;
    for (int i = 0; i < W05_N_ADD2D; i++)
        a_max = max_z(a_max, (size_t)W05_ADD2D_R[i] * (W05_ADD2D_C[i] + W05_ADD2D_MAX_PAD));
    for (int i = 0; i < W05_N_TENSOR3; i++)
        t_out = max_z(t_out, (size_t)W05_TENSOR3_SH[i][0] * W05_TENSOR3_SH[i][1] * W05_TENSOR3_SH[i][2]);
    float *ref = malloc(max_z(a_max, t_out) * sizeof *ref);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 2, a_max, a_max, W05_N_ADD2D, add2d_one, ref);
    if (!k->J->lost) jd_cases(k->J, k->t, 1, w05_tensor3_max_base(), t_out, W05_N_TENSOR3, tensor3_one, ref);
    free(ref);
}

/* ---------------------------------------------------------------- views (CPU) */

/* w05_checks.h's functions under test, called by the runner on a
 * w05_view_io in a host buffer both map. The first failure of the runner
 * itself is kept in why (the check's own message is then not the story). */
typedef struct {
    jd          *J;
    int          ib;
    w05_view_io *io;
    char         why[300];
} views_room;

static int views_call(views_room *v, int which)
{
    if (v->why[0]) return -1;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W05_FN_VIEWS, 1, 1);
    rq.arg_buf[0][0] = v->ib;
    rq.i64[0] = which;
    if (jd_call(v->J, &rq, &rp, NULL) != 0) return snprintf(v->why, sizeof v->why, "views: %s", v->J->why), -1;
    if (rp.status != 0)
        return snprintf(v->why, sizeof v->why, "the runner could not call the views functions (%s)", rp.text), -1;
    return 0;
}

static void put(long long *dst, const long long *src, int n)
{
    for (int d = 0; d < n && d < 8; d++) dst[d] = src[d];
}

static void rm_contiguous(void *ctx, int ndim, const long long *shape, long long *strides)
{
    views_room *v = ctx;
    memset(v->io, 0, sizeof *v->io);
    v->io->ndim = ndim;
    put(v->io->shape, shape, ndim);
    put(v->io->strides, strides, ndim); /* what the caller's array held: the function sees the same */
    if (views_call(v, W05_VIEWS_CONTIGUOUS) == 0) put(strides, v->io->strides, ndim);
}

static int rm_permute(void *ctx, int ndim, const long long *shape, const long long *strides, const int *perm,
                      long long *new_shape, long long *new_strides)
{
    views_room *v = ctx;
    memset(v->io, 0, sizeof *v->io);
    v->io->ndim = ndim;
    put(v->io->shape, shape, ndim);
    put(v->io->strides, strides, ndim);
    for (int d = 0; d < ndim && d < 8; d++) v->io->perm[d] = perm[d];
    put(v->io->new_shape, new_shape, ndim);
    put(v->io->new_strides, new_strides, ndim);
    v->io->rc = -12345;
    if (views_call(v, W05_VIEWS_PERMUTE) != 0) return -12345;
    put(new_shape, v->io->new_shape, ndim);
    put(new_strides, v->io->new_strides, ndim);
    return v->io->rc;
}

static int rm_view(void *ctx, int ndim, const long long *shape, const long long *strides, int new_ndim,
                   const long long *new_shape, long long *new_strides)
{
    views_room *v = ctx;
    memset(v->io, 0, sizeof *v->io);
    v->io->ndim = ndim, v->io->new_ndim = new_ndim;
    put(v->io->shape, shape, ndim);
    put(v->io->strides, strides, ndim);
    put(v->io->new_shape, new_shape, new_ndim);
    put(v->io->new_strides, new_strides, new_ndim);
    v->io->rc = -12345;
    if (views_call(v, W05_VIEWS_STRIDES) != 0) return -12345;
    put(new_strides, v->io->new_strides, new_ndim);
    return v->io->rc;
}

/* The test's four views tests, each of its cases a test of the tally. */
static void judge_views(jd *J, jd_tally *t)
{
    views_room v;
    memset(&v, 0, sizeof v);
    v.J = J;
    v.ib = jd_alloc_kind(J, JD_MEM_HOST, sizeof *v.io, (void **)&v.io);
    if (v.ib < 0) return jd_failf(t, "buffers: %s", J->why);
    const w05_views_ops ops = { rm_contiguous, rm_permute, rm_view, &v };
    char why[400];
    for (int c = 0; c < 2 + W05_N_PERMUTE + W05_N_BRUTE && !J->lost; c++) {
        int bad;
        t->tests++;
        if (c == 0) bad = w05_contiguous_known(&ops, why, sizeof why);
        else if (c == 1) bad = w05_view_known(&ops, why, sizeof why);
        else if (c < 2 + W05_N_PERMUTE) {
            wb_rng rng = wb_rng_for_seed(jd_seed, W05_PERMUTE_TAG, c - 2);
            bad = w05_permute_random(&ops, &rng, why, sizeof why);
        } else {
            wb_rng rng = wb_rng_for_seed(jd_seed, W05_BRUTE_TAG, c - 2 - W05_N_PERMUTE);
            bad = w05_view_brute_force(&ops, &rng, why, sizeof why);
        }
        if (v.why[0]) { /* the runner failed: that is the story, and nothing after it runs */
            jd_failf(t, "%s", v.why);
            break;
        }
        if (bad) jd_failf(t, "%s", why);
    }
    jd_free(J, v.ib);
}

static void judge_views_gpu(jd_ck *k) { judge_views(k->J, k->t); }

/* ---------------------------------------------------------------- overlap */

typedef struct {
    int              ib[5];
    unsigned        *hx, *hy, *dx, *dy;
    w05_chunk_times *tl;
    unsigned        *ref, *dyh; /* the judge's own: the reference, dy's guard bands read back */
} ov_bufs;

static int overlap_one(jd *J, ov_bufs *b, int i, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, W05_OVERLAP_TAG, i);
    size_t n;
    int chunks, nstreams;
    unsigned rounds;
    int timeline = w05_overlap_case(&rng, i, &n, &chunks, &nstreams, &rounds);
    w05_overlap_fill(&rng, n, rounds, b->hx, b->ref);
    memset(b->hy, 0xFF, (n + 2 * W05_HGUARD) * 4);
    memset(b->tl, 0xFF, (size_t)chunks * sizeof *b->tl); /* NaN */
    char what[128], why[400];
    snprintf(what, sizeof what, "n=%zu, %d chunks on %d streams, %u rounds%s", n, chunks, nstreams, rounds,
             timeline ? ", with timeline" : "");
    t->tests++;
    cudaError_t e = cudaMemset(b->dy, 0xff, (JD_GUARD + n + JD_GUARD) * 4);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return jd_failf(t, "the judge's own copies: %s", cudaGetErrorName(e)), -1;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W05_FN_OVERLAP, 1, 5);
    rq.arg_buf[0][0] = b->ib[0];
    rq.arg_buf[0][1] = b->ib[1], rq.arg_off[0][1] = W05_HGUARD * 4;
    if (n) rq.arg_buf[0][2] = b->ib[2]; /* as the test's wb_dmalloc(0): NULL */
    rq.arg_buf[0][3] = b->ib[3], rq.arg_off[0][3] = JD_GUARD * 4;
    if (timeline) rq.arg_buf[0][4] = b->ib[4];
    rq.i64[0] = (long long)n, rq.i64[1] = rounds, rq.i64[2] = chunks, rq.i64[3] = nstreams;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0)
        return jd_failf(t, "%s: streams_overlap_pipeline returned %s", what, cudaGetErrorName((cudaError_t)rp.status)),
               0;
    const unsigned *y = b->hy + W05_HGUARD;
    for (size_t k = 0; k < n; k++)
        if (y[k] != b->ref[k]) return jd_failf(t, "%s: y[%zu] expected %u got %u", what, k, b->ref[k], y[k]), 0;
    size_t guard = wb_count_not_byte(b->hy, W05_HGUARD * 4, 0xFF) + wb_count_not_byte(y + n, W05_HGUARD * 4, 0xFF);
    if (guard) return jd_failf(t, "%s: %zu bytes written outside hy[0..n)", what, guard), 0;
    if ((e = cudaMemcpy(b->dyh, b->dy, JD_GUARD * 4, cudaMemcpyDeviceToHost)) == cudaSuccess)
        e = cudaMemcpy(b->dyh + JD_GUARD, b->dy + JD_GUARD + n, JD_GUARD * 4, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return jd_failf(t, "%s: reading dy's guard bands: %s", what, cudaGetErrorName(e)), -1;
    if ((guard = wb_count_not_byte(b->dyh, 2 * JD_GUARD * 4, 0xFF)))
        return jd_failf(t, "%s: %zu bytes written outside dy[0..n)", what, guard), 0;
    if (timeline && w05_check_timeline(b->tl, chunks, nstreams, what, why, sizeof why)) return jd_failf(t, "%s", why), 0;
    return 0;
}

static void judge_overlap(jd_ck *k)
{
    jd *J = k->J;
    const size_t cap = W05_OVERLAP_MAX_N;
    ov_bufs b;
    memset(&b, 0, sizeof b);
    for (int i = 0; i < 5; i++) b.ib[i] = -1;
    b.ref = malloc(cap * 4), b.dyh = malloc(2 * JD_GUARD * 4);
    if (b.ref && b.dyh && (b.ib[0] = jd_alloc_kind(J, JD_MEM_HOST, cap * 4 + 4, (void **)&b.hx)) >= 0 &&
        (b.ib[1] = jd_alloc_kind(J, JD_MEM_HOST, (cap + 2 * W05_HGUARD) * 4, (void **)&b.hy)) >= 0 &&
        (b.ib[2] = jd_alloc(J, cap * 4, (void **)&b.dx)) >= 0 &&
        (b.ib[3] = jd_alloc(J, (JD_GUARD + cap + JD_GUARD) * 4, (void **)&b.dy)) >= 0 &&
        (b.ib[4] = jd_alloc_kind(J, JD_MEM_HOST, W05_OVERLAP_MAX_CHUNKS * sizeof *b.tl, (void **)&b.tl)) >= 0) {
        for (int i = 0; i < W05_N_OVERLAP && !J->lost; i++)
            if (overlap_one(J, &b, i, k->t) < 0) break;
    } else {
        jd_failf(k->t, "buffers: %s", b.ref && b.dyh ? J->why : "out of memory");
    }
    for (int i = 0; i < 5; i++) jd_free(J, b.ib[i]);
    free(b.ref), free(b.dyh);
}

/* ---------------------------------------------------------------- gridstride-bw */

/* relu(alpha x), x from seed[0]: the look's expected value, and the judge's
 * kernel over a whole output. */
static float sr_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    return w05_relu_ref(wb_hash_uniform_f32(seed[0], i, b->lo, b->hi), (float)b->f64[0]);
}

static int sr_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                    unsigned long long h[2])
{
    return jd_full_check_done(
        jd_relu_check_f32(out, b->n, seed[0], b->lo, b->hi, (float)b->f64[0], b->atol, b->rtol, bad, jd_stream), bad, h);
}

/* alpha new for every request (jd_fresh_factor: never 1, so a runner that
 * copies x is wrong wherever x > 0; with a negative alpha, where x < 0). The
 * runner sees x as the judge fills it, but not alpha until the request
 * arrives. */
static void fresh_alpha(jd_bench *b, uint64_t r) { b->f64[0] = jd_fresh_factor(r); }

static void judge_gridstride_bw(jd_ck *k)
{
    static jd_bench x; /* large: its sample arrays */
    memset(&x, 0, sizeof x);
    x.fn = W05_FN_SCALE_RELU, x.n_in = 1, x.max_k = JD_BENCH_MAX_K, x.n = wb_bench_bytes() / 4;
    x.lo = LO, x.hi = HI, x.atol = 0, x.rtol = W05_SR_RTOL;
    x.fn_name = "ew_scale_relu", x.out_name = "y";
    x.fresh = fresh_alpha, x.expect = sr_expect, x.full_check = sr_check;
    jd_bw_checkpoint(k, &x, TIMED, 8.0, "scale_relu");
}

static const jd_checkpoint CPS[] = {
    { "w05.gridstride", judge_gridstride, NULL, 0, 0 },
    { "w05.index", judge_index, NULL, 0, 0 },
    { "w05.views", judge_views_gpu, judge_views, 1, 0 },
    { "w05.overlap", judge_overlap, NULL, 0, 0 },
    { "w05.gridstride-bw", judge_gridstride_bw, NULL, 0, 8 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w05", "phase1/week05", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
