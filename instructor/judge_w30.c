/* judge_w30.c — build/instructor/judge-w30: week 30's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's online.o and rowsoftmax.o are linked into the runner
 * (judge_w30_runner.c), which this process starts (or is handed) and asks
 * to call them on buffers it allocated (judge.h). It poisons, fills, times
 * and checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record, the guarded
 * buffers, the timed-call protocol and the COPY yardstick are
 * judge_week.c's:
 *
 *   judge-w30 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases are test_week30.c's (shared through phase6/week30/w30_checks.h:
 * the CPU cases and their two-pass reference, the shapes, the special rows,
 * the offset draws, the tolerance), each drawn as the test draws it for the
 * seed (wb_rng_for_seed with the test's tag); the softmax reference is the
 * test's own softmax_ref (phase6/common/softmax_check.h). Every
 * correctness output sits in a guarded, poisoned buffer (jd_case: the
 * misaligned lead and a band each side), every element against the double
 * reference at the test's 1e-7 + 5e-5 |ref|, NaN where NaN is due, the
 * poison left there counted as not written:
 *   w30.online-cpu   online_stats on the test's 11 cases (2 to 200000
 *                    floats: uniform, near +-1e4, increasing, -Inf first,
 *                    all -Inf, empty, a NaN, a +Inf, one element, masked
 *                    over +-1e4): the runner calls the student's function
 *                    on x in host memory both processes map (a copy of the
 *                    judge's; the reference is made from the judge's own)
 *                    and sends the pair back; m must equal the two-pass max
 *                    (or both NaN) and s be within 1e-9 relative. A CPU
 *                    function: judged with or without a GPU (the runner
 *                    then opens none);
 *   w30.warp,        rowsoftmax_warp, rowsoftmax_block: the test's 24
 *   w30.block        shapes (0 x 5 to 70000 x 4, every register size, the
 *                    streamed path past 32768 and for cols % 4 != 0, groups
 *                    of 8 and 16 lanes) with rows 0-7 special (near +1e4,
 *                    near -1e4, over +-1e4, masked, all -Inf, a NaN, a
 *                    +Inf, near -1e4 masked), and its 4 offset cases (x, y
 *                    one float off);
 *   w30.online       rowsoftmax_online on the same 24 shapes and the test's
 *                    8 offset cases; then 65540 x 32768 floats (past 2^31
 *                    elements; 8192 rows where the GPU has not the room,
 *                    SKIP where WB_GPU_SHARED=1 says it is shared, as the
 *                    test's wb_device_room), x filled on the device from
 *                    the test's seed, y poisoned with a band each side:
 *                    every element checked by the judge's kernel
 *                    (jd_softmax_check_f32; the test checks 32 rows) and
 *                    the bands untouched;
 *   w30.speed        rowsoftmax_online on rows of 4096 floats,
 *                    wb_bench_bytes() of x, through the timed-call protocol
 *                    (judge_week.h: up to 64 calls a request, each on its
 *                    own x in [-8, 8) from the hidden seed and a poisoned
 *                    y, the judge's look right after the reply, every
 *                    timed y checked in full by jd_softmax_check_f32 at the
 *                    test's tolerance; the median of 7 requests), 8 bytes
 *                    an element, against COPY of x's size through the same
 *                    protocol (jd_copy_yard), >= 0.90;
 *   w30.cudnn        rowsoftmax_online at each row length of the test's
 *                    ladder from 1024 up (1024 ... 32768 floats, the same
 *                    elements at each: wb_bench_bytes() / 4 rounded down to
 *                    a multiple of 32768), each length through the timed
 *                    protocol as w30.speed (64 calls a request, 7 timed
 *                    requests, every output checked in full), and
 *                    cudnnSoftmaxForward (accurate, instance mode: the
 *                    week's given support/yard_cudnn_softmax.cu, cuDNN
 *                    loaded at run time as the test loads it) at the same
 *                    length through the judge's own yard runner
 *                    (judge-w30-yard-runner, no student object) on the
 *                    same protocol and checks, timed before the student's
 *                    runner starts and after, the faster kept. Each length
 *                    is judged on its own: the figure is the student's
 *                    GB/s where yours / cuDNN is lowest, cuDNN's there the
 *                    yardstick, >= 0.90. A wrong output of the student's
 *                    at any length FAILs, with or without cuDNN; then,
 *                    where the judge cannot load cuDNN (wb_cudnn_open,
 *                    the test's loader), SKIP with the test's reason; a
 *                    cuDNN that fails or is wrong at a length leaves no
 *                    figure (FAIL, as the test's). The expected values of
 *                    the look are made on the GPU by the judge's own
 *                    kernel (judge_w30_kernels.cu): a row of 32768 floats
 *                    re-derived on the host for each look would take
 *                    seconds a request.
 * Left to the linked test (unlisted: the grader runs it in the test
 * program and says so): w30.ladder, rows of 32 to 32768 floats, yours, COPY
 * and cuDNN measured and verified, written to build/.../ladder.csv and
 * drawn to a PNG by gnuplot: a report with no target, whose verdict is that
 * the student's run wrote and drew its files; the correctness it rests on is
 * judged here (every ladder length from 1024 up in w30.cudnn, 32 to 32768
 * among the shapes of w30.warp, w30.block and w30.online).
 * On an H200 (2026-11-29), alone over the reference's and the starter's
 * runners, plain and sandboxed: the reference PASSed all six, the
 * starter FAILed all six; not yet through the grader there. Without a GPU
 * the plumbing is tested by
 * instructor/tests/judge_w30.sh (w30.online-cpu PASS for the reference and
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
#include "judge_w30.h"
#include "judge_w30_kernels.h"
#include "judge_week.h"
#include "softmax_check.h"
#include "w30_checks.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cudnn.h"
#include "wb_rand.h"

#define ATOL  W30_ATOL
#define RTOL  W30_RTOL
#define TIMED 7
#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))

/* ---------------------------------------------------------------- online-cpu */

/* Case k's x, drawn as the test's online_cpu draws it: its length. */
static size_t oc_case(int k, float *x)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, W30_ONLINE_CPU_TAG, k);
    size_t n = w30_oc_n(&rng, k);
    w30_oc_fill(&rng, k, x, n);
    return n;
}

static void judge_online_cpu(jd *J, jd_tally *t)
{
    float *x = malloc(W30_OC_MAX_N * sizeof *x), *shared = NULL;
    int ib = x ? jd_alloc_kind(J, JD_MEM_HOST, W30_OC_MAX_N * sizeof *x, (void **)&shared) : -1;
    if (ib < 0) {
        jd_failf(t, "buffers: %s", x ? J->why : "out of memory");
        free(x);
        return;
    }
    for (int k = 0; k < (int)W30_N_OC && !J->lost; k++) {
        size_t n = oc_case(k, x);
        double wm, ws, got[2];
        w30_stats_ref(x, n, &wm, &ws);
        memcpy(shared, x, n * sizeof *x);
        t->tests++;
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, W30_FN_STATS, 1, 1);
        rq.arg_buf[0][0] = ib;
        rq.i64[1] = (long long)n;
        if (jd_call(J, &rq, &rp, NULL) != 0) {
            jd_failf(t, "online_stats, n=%zu, %s: %s", n, W30_OC_WHAT[k], J->why);
            break;
        }
        if (rp.status != 0 || rp.out_len != sizeof got) {
            jd_failf(t, "online_stats, n=%zu, %s: no answer from the runner", n, W30_OC_WHAT[k]);
            continue;
        }
        memcpy(got, rp.out, sizeof got);
        if (!(got[0] == wm || (isnan(got[0]) && isnan(wm))))
            jd_failf(t, "online_stats, n=%zu, %s: m = %.17g, expected %.17g", n, W30_OC_WHAT[k], got[0], wm);
        else if (!wb_close(got[1], ws, 0, 1e-9))
            jd_failf(t, "online_stats, n=%zu, %s: s = %.17g, expected %.17g (1e-9 relative)", n, W30_OC_WHAT[k],
                     got[1], ws);
    }
    jd_free(J, ib);
    free(x);
}

static void judge_online_cpu_gpu(jd_ck *k) { judge_online_cpu(k->J, k->t); }

/* ---------------------------------------------------------------- the shapes */

/* One function's cases: its exercise, its name (the offset cases' tag in
 * the test), the shape cases' tag, how many offset cases; host room. */
typedef struct {
    int         fn;
    const char *name, *shapes_tag;
    int         n_offsets;
    float      *hx;
    double     *ref;
} sm_fn;

/* test_week30.c's check_softmax: x uniform in [-20, 20] (ox floats of lead
 * first), the special rows, the double reference; the call on x + ox and y
 * + oy, every element checked. */
static int sm_case(jd *J, jd_case_bufs *B, const sm_fn *f, wb_rng *rng, int rows, int cols, size_t ox, size_t oy,
                   jd_tally *t)
{
    size_t n = softmax_elems(rows, cols);
    wb_fill_uniform_f32(rng, f->hx, n + ox, -20, 20);
    w30_specials(rng, f->hx + ox, rows, cols);
    softmax_ref(f->hx + ox, f->ref, rows, cols);
    char what[200];
    snprintf(what, sizeof what, "%s, rows=%d cols=%d, x+%zu y+%zu%s", f->name, rows, cols, ox, oy,
             rows >= 8 && cols > 0 ? " (rows 0-7: near +1e4, near -1e4, over +-1e4, masked, all -Inf, a NaN, a +Inf, "
                                     "near -1e4 masked)"
                                   : "");
    jd_case c = { .fn = f->fn, .in = { f->hx }, .in_n = { n + ox }, .in_off = { ox }, .n = n, .out_off = oy,
                  .ref64 = f->ref, .atol = ATOL, .rtol = RTOL, .i64 = { (long long)n, rows, cols }, .what = what,
                  .out_name = "y", .fn_name = f->name };
    return jd_case_run(J, B, &c, t);
}

/* Case i: the shapes (the test's XXX_shapes, tag and index), then the
 * offset cases (its check_offsets: the function's name as the tag). */
static int sm_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    const sm_fn *f = ctx;
    if (i < (int)W30_N_SHAPES) {
        wb_rng rng = wb_rng_for_seed(jd_seed, f->shapes_tag, i);
        return sm_case(J, B, f, &rng, W30_SHAPES[i][0], W30_SHAPES[i][1], 0, 0, t);
    }
    i -= (int)W30_N_SHAPES;
    wb_rng rng = wb_rng_for_seed(jd_seed, f->name, i);
    int rows, cols;
    size_t ox, oy;
    w30_offsets_case(&rng, i, &rows, &cols, &ox, &oy);
    return sm_case(J, B, f, &rng, rows, cols, ox, oy, t);
}

static void sm_cases(jd_ck *k, sm_fn *f)
{
    size_t cap = W30_OFF_MAX_N;
    for (size_t i = 0; i < W30_N_SHAPES; i++) {
        size_t n = softmax_elems(W30_SHAPES[i][0], W30_SHAPES[i][1]);
        if (n > cap) cap = n;
    }
    f->hx = malloc((cap + 4) * sizeof *f->hx), f->ref = malloc((cap + 4) * sizeof *f->ref);
    if (!f->hx || !f->ref) jd_failf(k->t, "buffers: out of memory");
    else jd_cases(k->J, k->t, 1, cap + 4, cap + 4, (int)W30_N_SHAPES + f->n_offsets, sm_one, f);
    free(f->hx), free(f->ref);
}

static void judge_warp(jd_ck *k)
{
    sm_fn f = { W30_FN_WARP, "rowsoftmax_warp", W30_WARP_SHAPES_TAG, 4, NULL, NULL };
    sm_cases(k, &f);
}

static void judge_block(jd_ck *k)
{
    sm_fn f = { W30_FN_BLOCK, "rowsoftmax_block", W30_BLOCK_SHAPES_TAG, 4, NULL, NULL };
    sm_cases(k, &f);
}

/* test_week30.c's online_past_2g: 65540 rows of 32768 floats (2 x 8.6 GB),
 * x made on the device from the test's seed for that case, y poisoned with
 * a band each side; every element checked on the device (the test checks
 * whole rows where an int index breaks and random ones), the bands read
 * back. Where the GPU has not the room: 8192 rows, or SKIP when
 * WB_GPU_SHARED=1 (the test's wb_device_room). */
static void online_past_2g(jd *J, jd_tally *t)
{
    int rows = 65540, cols = 32768;
    size_t free_b = 0, total = 0, need = 2 * softmax_elems(rows, cols) * 4 + ((size_t)1 << 30);
    t->tests++;
    cudaMemGetInfo(&free_b, &total);
    if (free_b < need) {
        const char *sh = getenv("WB_GPU_SHARED");
        if (sh && !strcmp(sh, "1")) {
            t->tests--, t->skipped++;
            if (!t->msg[0])
                snprintf(t->msg, sizeof t->msg, "the GPU is shared with other runs: %.1f GB free, %.1f GB needed (run "
                         "alone, the test does not shrink)", free_b / 1e9, need / 1e9);
            return;
        }
        printf("  online_past_2g: needs %.1f GB of device memory, %.1f GB free; checked at 8192 rows instead\n",
               2.0 * softmax_elems(rows, cols) * 4 / 1e9, free_b / 1e9);
        rows = 8192;
    }
    const size_t n = softmax_elems(rows, cols), bytes = n * 4;
    wb_rng rng = wb_rng_for_seed(jd_seed, W30_PAST_2G_TAG, 0);
    const unsigned long long seed = wb_rng_u64(&rng);
    char what[96];
    snprintf(what, sizeof what, "rowsoftmax_online, %d x %d (%zu elements)", rows, cols, n);
    float *x = NULL;
    jd_gbuf y = { -1, NULL, 0 };
    unsigned long long *bad = NULL, hb[2] = { 0, 0 };
    unsigned char band[2][JD_GBAND];
    int ix = jd_alloc(J, bytes, (void **)&x);
    if (ix < 0 || jd_gbuf_alloc(J, &y, bytes, t) != 0) {
        if (ix < 0) jd_failf(t, "%s: buffers: %s", what, J->why);
        goto out;
    }
    wb_dfill_uniform_f32(x, n, seed, -20, 20);
    if (jd_gbuf_poison(&y, 0, bytes) != 0) { /* synchronises: x is filled too */
        jd_failf(t, "%s: the judge's own copies failed", what);
        goto out;
    }
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W30_FN_ONLINE, 1, 2);
    rq.arg_buf[0][0] = ix;
    jd_gbuf_arg(&rq, 1, &y, 0);
    rq.i64[0] = (long long)n, rq.i64[1] = rows, rq.i64[2] = cols;
    if (jd_call(J, &rq, &rp, NULL) != 0) {
        jd_failf(t, "%s: %s", what, J->why);
        goto out;
    }
    if (rp.status != 0) {
        jd_failf(t, "%s: rowsoftmax_online returned %s", what,
                 rp.status < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)rp.status));
        goto out;
    }
    if (cudaMalloc((void **)&bad, sizeof hb) != cudaSuccess ||
        jd_softmax_check_f32((const float *)(y.d + JD_GBAND), rows, cols, seed, -20, 20, ATOL, RTOL, bad, jd_stream) !=
            cudaSuccess ||
        cudaMemcpyAsync(hb, bad, sizeof hb, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
        cudaStreamSynchronize(jd_stream) != cudaSuccess ||
        cudaMemcpy(band[0], y.d, JD_GBAND, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(band[1], y.d + JD_GBAND + bytes, JD_GBAND, cudaMemcpyDeviceToHost) != cudaSuccess) {
        jd_failf(t, "%s: the judge's check did not run", what);
        goto out;
    }
    if (hb[0]) {
        jd_failf(t, "%s: %llu elements of y wrong (checked in full), the first y[%llu] (row %llu)%s", what, hb[0],
                 hb[1], hb[1] / (unsigned long long)cols,
                 (hb[1] / cols + 1) * cols > ((unsigned long long)1 << 31) ? ", past 2^31: is an index an int?" : "");
        goto out;
    }
    for (int s = 0; s < 2; s++)
        for (int b = 0; b < JD_GBAND; b++)
            if (band[s][b] != 0xff) {
                jd_failf(t, "%s: written outside y (%s its %s)", what, s ? "after" : "before", s ? "end" : "start");
                goto out;
            }
out:
    if (bad) cudaFree(bad);
    jd_gbuf_free(J, &y);
    if (ix >= 0) jd_free(J, ix);
}

static void judge_online(jd_ck *k)
{
    sm_fn f = { W30_FN_ONLINE, "rowsoftmax_online", W30_ONLINE_SHAPES_TAG, 8, NULL, NULL };
    sm_cases(k, &f);
    if (!k->J->lost) online_past_2g(k->J, k->t);
}

/* ---------------------------------------------------------------- timed checkpoints */

#define BLO -8.0f /* test_week30.c's benchmark inputs: x uniform in [BLO, BHI) */
#define BHI 8.0f

/* The look's expected values, made on the GPU (judge_w30_kernels.cu) for
 * one rep's seed at the request's JD_SAMPLES positions, kept until the
 * seed, the positions or the row length change. */
static struct {
    unsigned long long *idx_d, seed;
    double             *at_d, at_h[JD_SAMPLES];
    uint64_t            pick;
    long long           cols;
    float               lo, hi;
    int                 ok;
} g_at;

static float sm_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    if (!g_at.ok || g_at.seed != seed[0] || g_at.pick != b->pick || g_at.cols != b->i64[2] || g_at.lo != b->lo ||
        g_at.hi != b->hi) {
        g_at.ok = 0;
        if ((!g_at.idx_d && cudaMalloc((void **)&g_at.idx_d, sizeof b->idx_h) != cudaSuccess) ||
            (!g_at.at_d && cudaMalloc((void **)&g_at.at_d, sizeof g_at.at_h) != cudaSuccess) ||
            cudaMemcpyAsync(g_at.idx_d, b->idx_h, sizeof b->idx_h, cudaMemcpyHostToDevice, jd_stream) != cudaSuccess ||
            jd_w30_softmax_at(g_at.idx_d, JD_SAMPLES, (int)b->i64[2], seed[0], b->lo, b->hi, g_at.at_d, jd_stream) !=
                cudaSuccess ||
            cudaMemcpyAsync(g_at.at_h, g_at.at_d, sizeof g_at.at_h, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
            cudaStreamSynchronize(jd_stream) != cudaSuccess)
            return NAN; /* the look then fails: no figure from an unchecked run */
        g_at.seed = seed[0], g_at.pick = b->pick, g_at.cols = b->i64[2], g_at.lo = b->lo, g_at.hi = b->hi, g_at.ok = 1;
    }
    for (int j = 0; j < JD_SAMPLES; j++)
        if (b->idx_h[j] == i) return (float)g_at.at_h[j];
    return NAN;
}

static int sm_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                    unsigned long long h[2])
{
    return jd_full_check_done(jd_softmax_check_f32(out, (int)b->i64[1], (int)b->i64[2], seed[0], b->lo, b->hi, b->atol,
                                                   b->rtol, bad, jd_stream),
                              bad, h);
}

/* A timed softmax of n floats in rows of cols: exercise fn (the student's,
 * or the yard runner's cuDNN) on x in [BLO, BHI), y checked in full. */
static void sm_bench(jd_bench *x, int fn, const char *fn_name, int cols, size_t n)
{
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 1, x->max_k = JD_BENCH_MAX_K, x->n = n;
    x->lo = BLO, x->hi = BHI, x->atol = ATOL, x->rtol = RTOL;
    x->i64[1] = (long long)(n / (size_t)cols), x->i64[2] = cols;
    x->expect = sm_expect, x->full_check = sm_check;
    x->fn_name = fn_name, x->out_name = "y";
}

static jd_bench g_bench, g_yard_b; /* large: their sample arrays */

/* w30.speed: rows of 4096 floats, wb_bench_bytes() of x (the test's
 * bench_speed), 8 bytes an element, against COPY of x's size. */
enum { HEAD_COLS = 4096 };
static void judge_speed(jd_ck *k)
{
    const size_t rows = wb_bench_bytes() / 4 / HEAD_COLS;
    sm_bench(&g_bench, W30_FN_ONLINE, "rowsoftmax_online", HEAD_COLS, rows * HEAD_COLS);
    jd_bw_checkpoint(k, &g_bench, TIMED, 8.0, "rowsoftmax_online, 4096 cols");
}

/* w30.cudnn's row lengths: the test's ladder from 1024 up, every one on
 * the same elements (its ladder_elems: a multiple of the longest row). */
static const int LONG_ROWS[] = { 1024, 2048, 4096, 8192, 16384, 32768 };
enum { N_LONG = (int)(sizeof LONG_ROWS / sizeof *LONG_ROWS) };
static size_t ladder_elems(void) { return wb_bench_bytes() / 4 / 32768 * 32768; }

static int    g_have_cudnn = -1;                  /* -1: not looked for yet */
static char   g_no_cudnn[300];                    /* why it could not be loaded */
static double g_cudnn_before[N_LONG];             /* ms a call before the student's runner started, or NAN */
static char   g_cudnn_before_why[N_LONG][600];

/* cuDNN as the test finds it (wb_cudnn_open: $WB_CUDNN_LIB, the loader's
 * path, a Python environment's); the yard runner, a child of this process,
 * finds the same. */
static int have_cudnn(void)
{
    if (g_have_cudnn < 0) g_have_cudnn = wb_cudnn_open(g_no_cudnn, sizeof g_no_cudnn);
    return g_have_cudnn;
}

static double cudnn_ms(int k, char *why, size_t why_n)
{
    double ms = NAN;
    sm_bench(&g_yard_b, W30_YARD_CUDNN, "cudnnSoftmaxForward", LONG_ROWS[k], ladder_elems());
    if (jd_yard_bench(W30_YARD_RUNNER, &g_yard_b, TIMED, &ms, why, why_n) != 0) ms = NAN;
    return ms;
}

static void cudnn_before(void)
{
    for (int k = 0; k < N_LONG; k++) {
        g_cudnn_before[k] = NAN;
        snprintf(g_cudnn_before_why[k], sizeof g_cudnn_before_why[k], "cuDNN could not be loaded");
        if (have_cudnn()) g_cudnn_before[k] = cudnn_ms(k, g_cudnn_before_why[k], sizeof g_cudnn_before_why[k]);
    }
}

static void judge_cudnn(jd_ck *k)
{
    const size_t n = ladder_elems();
    double worst = INFINITY, value = NAN, yard = NAN;
    int worst_cols = 0, yard_bad = 0;
    char why[700] = "", list[120] = "", detail[200] = "";
    size_t used = 0;
    for (int l = 0; l < N_LONG; l++) {
        const int cols = LONG_ROWS[l];
        char w[600] = "";
        double ms = NAN, after = NAN;
        sm_bench(&g_bench, W30_FN_ONLINE, "rowsoftmax_online", cols, n);
        if (jd_bench_run(k->J, &g_bench, TIMED, &ms, w, sizeof w) != 0) {
            snprintf(why, sizeof why, "rowsoftmax_online at %d columns: %s", cols, w);
            break;
        }
        if (!have_cudnn()) continue;
        sm_bench(&g_yard_b, W30_YARD_CUDNN, "cudnnSoftmaxForward", cols, n);
        const double cms = jd_yard_faster(W30_YARD_RUNNER, &g_yard_b, TIMED, g_cudnn_before[l], g_cudnn_before_why[l],
                                          &after, w, sizeof w);
        printf("  %d cols: rowsoftmax_online %.4f ms a call, cuDNN %.4f (before the runner %.4f, after %.4f), by the "
               "judge's clock\n", cols, ms, cms, g_cudnn_before[l], after);
        if (!(cms > 0)) { /* no yardstick at this length: no figure (the test's yard_bad) */
            if (!yard_bad++)
                snprintf(why, sizeof why, "cuDNN's output at %d columns, the yardstick, is wrong or failed: %s", cols,
                         w);
            continue;
        }
        const double ratio = cms / ms; /* yours / cuDNN in GB/s: the same bytes */
        if (used < sizeof list)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%d: %.3f", used ? ", " : "", cols, ratio);
        if (ratio < worst) {
            worst = ratio, worst_cols = cols;
            value = 8.0 * (double)n / (ms * 1e-3) / 1e9, yard = 8.0 * (double)n / (cms * 1e-3) / 1e9;
        }
    }
    if (!why[0] && !have_cudnn()) { /* your output was right at every length; no yardstick: SKIP, as the test */
        k->t->skipped++;
        snprintf(k->t->msg, sizeof k->t->msg, "cuDNN could not be loaded, so there is no yardstick: %s", g_no_cudnn);
        return;
    }
    if (!why[0]) {
        printf("  yours / cuDNN at each row length, %zu floats each: %s; the lowest, at %d columns, is the figure\n", n,
               list, worst_cols);
        snprintf(detail, sizeof detail, "%.0f GB/s vs cuDNN %.0f at %d cols, the lowest of yours/cuDNN (%s)", value,
                 yard, worst_cols, list);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "GB/s", "cuDNN", yard, detail, why);
}

/* COPY of wb_bench_bytes() (read and written: 8 bytes a float of
 * wb_bench_bytes() / 4) for w30.speed, as the test's wb_yard_copy_gbps(n * 4). */
static const jd_checkpoint CPS[] = {
    { "w30.online-cpu", judge_online_cpu_gpu, judge_online_cpu, 1, 0, NULL },
    { "w30.warp", judge_warp, NULL, 0, 0, NULL },
    { "w30.block", judge_block, NULL, 0, 0, NULL },
    { "w30.online", judge_online, NULL, 0, 0, NULL },
    { "w30.speed", judge_speed, NULL, 0, 8, NULL },
    { "w30.cudnn", judge_cudnn, NULL, 0, 0, cudnn_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w30", "phase6/week30", CPS, N_OF(CPS));
}
