/* judge_w02.c — build/instructor/judge-w02: week 02's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's bugs.o is linked into the runner (judge_w02_runner.c, with the
 * week's given support/launcher.o), which this process starts (or is
 * handed) and asks to call the week's functions on buffers it allocated
 * (judge.h). It poisons, fills and checks, and writes the results record
 * itself, outside the runner's reach. The command line, the runner's start,
 * the record and the checked case are judge_week.c's:
 *
 *   judge-w02 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week02.c's (shared through phase0/week02/w02_checks.h:
 * each case drawn as the test draws it for the seed, wb_rng_for_seed with
 * the test's tag), every one of the six checkpoints formed here:
 *   w02.oob          bug_scale on every size of W02_SIZES and the test's
 *                    n = 1000, the test's tolerance, nothing written outside
 *                    y (a poisoned guard band of 64 floats each side, as the
 *                    test's). The test's exact-allocation case (x and y
 *                    exactly n floats, for memcheck) is run with the guard
 *                    band too: an access past an allocation could fault the
 *                    runner, and every later call of the run would fail;
 *   w02.race         bug_histogram on every size and the test's all-keys-
 *                    in-one-bin case, every count exact, the guard band
 *                    untouched (hist poisoned: it must be overwritten);
 *   w02.barrier      bug_reverse on every size, exact, the guard band;
 *   w02.uninit       bug_normalise on every size with the workspace NaN on
 *                    entry (the test's poison), and the test's n = 5000 with
 *                    the workspace holding a finite leftover drawn from the
 *                    hidden seed (the test leaves that one as cudaMalloc gave
 *                    it, often zeros: stricter here), the test's tolerance;
 *   w02.launch-error bug_affine on the test's seven configurations: the
 *                    valid ones must return cudaSuccess with y right (the
 *                    test's tolerance, the guard band), the invalid ones an
 *                    error, any, as the test accepts;
 *   w02.error-report bug_check_launch after the given launches
 *                    (support/launcher.cu) the runner makes as the test
 *                    makes them: after each bad launch it must return
 *                    exactly the error that launch gives in the judge's own
 *                    process (the same launch, the same configuration, the
 *                    same GPU: the test only asks for some error), write
 *                    "LABEL: NAME: STRING" as the test checks it (the
 *                    label, cudaGetErrorName and cudaGetErrorString of that
 *                    error, computed here) and leave no launch error
 *                    behind; with 8 bytes of room it must still return the
 *                    error and truncate and terminate within them (nothing
 *                    written past: stricter than the test); after a good
 *                    launch, cudaSuccess, "" and the fill intact, and
 *                    cudaSuccess with msg NULL; last, after a kernel that
 *                    faults, with sync set, an error named in the message
 *                    (the runner's context is lost after it: nothing of the
 *                    run follows it). The labels are drawn from the seed.
 *
 * What the judge can and cannot see. The CUDA error state of week 02 lives
 * in the runner's process: whether a launch failed and what
 * cudaGetLastError() holds there is the runner's to say, and the runner is
 * the student's process. The judge sees the outputs (its own memory) and
 * what the reply claims: a status (bug_affine's return), or for
 * bug_check_launch its return, its message and whether an error was left.
 * So a runner that lies can claim a launch error bug_affine did not return,
 * or a report bug_check_launch did not write; but it can only claim what a
 * correct function returns: for bug_check_launch the very error the judge's
 * own launch gave and a message naming it as the runtime names it, and for
 * bug_affine an error where every device refuses the launch (and cudaSuccess
 * with outputs the judge reads itself where the launch is valid). Forging
 * that takes code that answers the judge's requests in the runner's place:
 * more work than the fix, and it earns nothing a fixed function would not.
 * The fault's error cannot be made in the judge's own process (its context
 * would be lost): there any error passes, as in the test.
 *
 * Run on an H200 (2026-11-29): by itself, plain and sandboxed, the
 * reference's runner passed all six and the starter's failed all six; a
 * class of two through the grader got the same cells judged and linked.
 * Without a GPU every checkpoint is SKIP (all six need one), through the
 * grader and by itself, plain and sandboxed (instructor/tests/judge02.sh). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "judge.h"
#include "judge_w02.h"
#include "judge_week.h"
#include "support/launcher.h"
#include "w02_checks.h"

/* Floats past the largest case in every input and output buffer: a kernel
 * that runs up to a block (1024 threads) past n stays inside the mapping,
 * its first write past y in the guard band the case checks. */
#define SLACK 1024
#define MAXN  (W02_SIZES[W02_N_SIZES - 1] + SLACK)

/* ---------------------------------------------------------------- oob */

/* Case i: the test's sizes, then its exact-allocation case (n = 1000). */
static int scale_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ref)
{
    int exact = i == (int)W02_N_SIZES;
    wb_rng rng = wb_rng_for_seed(jd_seed, exact ? W02_SCALE_EXACT_TAG : W02_SCALE_SIZES_TAG, exact ? 0 : i);
    size_t n = exact ? W02_SCALE_EXACT_N : W02_SIZES[i];
    float s = w02_scale_case(&rng, B->h[0], ref, n);
    char what[96];
    snprintf(what, sizeof what, "n=%zu%s", n, exact ? " (the test's exact-allocation case)" : "");
    jd_case c = { .fn = W02_FN_SCALE, .in = { B->h[0] }, .in_n = { n }, .n = n, .ref = ref, .atol = 0,
                  .rtol = W02_SCALE_RTOL, .f64 = { s }, .what = what, .out_name = "y", .fn_name = "bug_scale" };
    return jd_case_run(J, B, &c, t);
}

/* ---------------------------------------------------------------- race */

/* One histogram: n keys (host B->h[0]) copied in, HIST_BINS counters between
 * two guard bands of JD_GUARD words, all poisoned; every count exact and
 * nothing written outside them. jd_case_run's rule, for unsigned counts.
 * 0 when the case ran (passed or failed), -1 when the runner or the judge's
 * own copies failed. */
static int hist_run(jd *J, jd_case_bufs *B, size_t n, const unsigned *ref, const char *what, jd_tally *t)
{
    t->tests++;
    size_t cn = JD_GUARD + HIST_BINS + JD_GUARD;
    unsigned *h = (unsigned *)B->h[1];
    cudaError_t e = n ? cudaMemcpy(B->d[0], B->h[0], n * 4, cudaMemcpyHostToDevice) : cudaSuccess;
    if (e == cudaSuccess) e = cudaMemset(B->d[1], 0xff, cn * 4);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return jd_failf(t, "the judge's own copies: %s", cudaGetErrorName(e)), -1;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W02_FN_HISTOGRAM, 1, 2);
    if (n) rq.arg_buf[0][0] = B->ib[0]; /* no keys: NULL, as the test's wb_dcopy of 0 bytes gives */
    rq.arg_buf[0][1] = B->ib[1], rq.arg_off[0][1] = JD_GUARD * 4;
    rq.i64[0] = (long long)n;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0)
        return jd_failf(t, "%s: bug_histogram returned %s", what, cudaGetErrorName((cudaError_t)rp.status)), 0;
    e = cudaMemcpy(h, B->d[1], cn * 4, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return jd_failf(t, "%s: reading the output: %s", what, cudaGetErrorName(e)), -1;
    for (size_t i = 0; i < cn; i++) {
        int inside = i >= JD_GUARD && i < JD_GUARD + HIST_BINS;
        if (inside && h[i] != ref[i - JD_GUARD])
            return jd_failf(t, "%s: hist[%zu] expected %u got %u", what, i - JD_GUARD, ref[i - JD_GUARD], h[i]), 0;
        if (!inside && h[i] != 0xffffffffu)
            return jd_failf(t, "%s: written outside the output (%zd from its start)", what,
                            (ssize_t)i - (ssize_t)JD_GUARD), 0;
    }
    return 0;
}

/* Case i: the test's sizes, then its all-keys-in-one-bin case. */
static int hist_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    (void)ctx;
    int one = i == (int)W02_N_SIZES;
    wb_rng rng = wb_rng_for_seed(jd_seed, one ? W02_HIST_ONE_BIN_TAG : W02_HIST_SIZES_TAG, one ? 0 : i);
    unsigned *hk = (unsigned *)B->h[0], ref[HIST_BINS];
    size_t n = one ? W02_HIST_ONE_BIN_N : W02_SIZES[i];
    if (one) w02_hist_one_bin_case(&rng, hk, ref);
    else w02_hist_case(&rng, hk, n, ref);
    char what[64];
    snprintf(what, sizeof what, "n=%zu%s", n, one ? ", all keys in one bin" : "");
    return hist_run(J, B, n, ref, what, t);
}

/* ---------------------------------------------------------------- barrier */

static int reverse_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ref)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, W02_REVERSE_TAG, i);
    size_t n = W02_SIZES[i];
    w02_reverse_case(&rng, B->h[0], ref, n);
    char what[64];
    snprintf(what, sizeof what, "n=%zu", n);
    jd_case c = { .fn = W02_FN_REVERSE, .in = { B->h[0] }, .in_n = { n }, .n = n, .ref = ref, .atol = 0, .rtol = 0,
                  .what = what, .out_name = "y", .fn_name = "bug_reverse" }; /* a permutation: exact */
    return jd_case_run(J, B, &c, t);
}

/* ---------------------------------------------------------------- uninit */

/* Case i: the test's sizes with the workspace NaN on entry, then its n =
 * 5000 with a finite leftover in it (positive, 1 to 10^6: a sum that starts
 * there is off by far more than the tolerance). The workspace travels as
 * the case's second input (two floats: one double). */
static int normalise_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ref)
{
    int left = i == (int)W02_N_SIZES;
    wb_rng rng = wb_rng_for_seed(jd_seed, left ? W02_NORMALISE_FRESH_TAG : W02_NORMALISE_SIZES_TAG, left ? 0 : i);
    size_t n = left ? W02_NORMALISE_FRESH_N : W02_SIZES[i];
    w02_normalise_case(&rng, B->h[0], ref, n);
    double w;
    if (left) w = 1.0 + (double)(jd_mix(jd_seed ^ 0x3e7) % 1000000u);
    else memset(&w, 0xff, sizeof w); /* the test's poison: NaN */
    memcpy(B->h[1], &w, sizeof w);
    char what[96];
    snprintf(what, sizeof what, "n=%zu, workspace %s on entry", n, left ? "holding a leftover value" : "NaN");
    jd_case c = { .fn = W02_FN_NORMALISE, .in = { B->h[0], B->h[1] }, .in_n = { n, 2 }, .n = n, .ref = ref, .atol = 0,
                  .rtol = W02_NORMALISE_RTOL, .what = what, .out_name = "y", .fn_name = "bug_normalise" };
    return jd_case_run(J, B, &c, t);
}

/* ---------------------------------------------------------------- launch errors */

/* The error w02_launch_fill with this configuration gives in the judge's
 * own process, on the judge's GPU (the launch is the week's given code,
 * linked into the judge as into the runner); 0 with *e, or -1 when the
 * judge has no buffer for it. */
static int own_launch_error(int block, size_t smem, cudaError_t *e)
{
    static float *d;
    if (!d && cudaMalloc((void **)&d, W02_BAD_N * 4) != cudaSuccess) return d = NULL, -1;
    (void)cudaGetLastError();
    w02_launch_fill(d, W02_BAD_N, 1.0f, block, smem);
    *e = cudaGetLastError();
    cudaDeviceSynchronize();
    return 0;
}

/* Case i: the test's configuration i, drawn as the test draws it. */
static int affine_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ref)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, W02_AFFINE_TAG, i);
    float a, b;
    size_t n = w02_affine_case(&rng, B->h[0], ref, &a, &b);
    int block = W02_CONFIGS[i].block;
    size_t smem = W02_CONFIGS[i].smem;
    char what[128];
    snprintf(what, sizeof what, "n=%zu, %d threads per block, %zu bytes of dynamic shared memory", n, block, smem);
    if (W02_CONFIGS[i].ok) {
        jd_case c = { .fn = W02_FN_AFFINE, .in = { B->h[0] }, .in_n = { n }, .n = n, .ref = ref,
                      .atol = W02_AFFINE_TOL, .rtol = W02_AFFINE_TOL, .i64 = { 0, block, (long long)smem },
                      .f64 = { a, b }, .what = what, .out_name = "y", .fn_name = "bug_affine" };
        return jd_case_run(J, B, &c, t);
    }
    /* a configuration no device launches: an error must come back (any: the test's rule) */
    t->tests++;
    cudaError_t e = cudaMemcpy(B->d[0], B->h[0], n * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemset(B->d[1], 0xff, (JD_GUARD + n + JD_GUARD) * 4);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return jd_failf(t, "the judge's own copies: %s", cudaGetErrorName(e)), -1;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W02_FN_AFFINE, 1, 2);
    rq.arg_buf[0][0] = B->ib[0];
    rq.arg_buf[0][1] = B->ib[1], rq.arg_off[0][1] = JD_GUARD * 4;
    rq.i64[0] = (long long)n, rq.i64[1] = block, rq.i64[2] = (long long)smem;
    rq.f64[0] = a, rq.f64[1] = b;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status < 0) return jd_failf(t, "%s: the runner failed: %.150s", what, rp.text), 0;
    if (rp.status == 0) {
        cudaError_t own = cudaSuccess;
        if (own_launch_error(block, smem, &own) != 0 || own == cudaSuccess)
            return jd_failf(t, "%s: returned cudaSuccess for a launch that fails", what), 0;
        return jd_failf(t, "%s: returned cudaSuccess, but the launch failed with %s", what, cudaGetErrorName(own)), 0;
    }
    return 0;
}

static void judge_launch_error(jd_ck *k)
{
    float *ref = malloc(W02_AFFINE_MAX_N * 4);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 1, W02_AFFINE_MAX_N + SLACK, W02_AFFINE_MAX_N + SLACK, (int)W02_N_CONFIGS, affine_one, ref);
    free(ref);
}

/* ---------------------------------------------------------------- error report */

/* One W02_FN_REPORT request (judge_w02.h): the launch, on buffer buf (its
 * output JD_GUARD floats in) for a fill, then bug_check_launch(label, sync,
 * msg, msgsz). 0 with *r; else -1 with the failure told (the runner gone, or
 * an answer without a report). */
static int report_call(jd *J, jd_tally *t, int launch, int buf, size_t n, float v, int block, size_t smem, int sync,
                       long long msgsz, const char *label, w02_report *r)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W02_FN_REPORT, 1, 1);
    rq.arg_buf[0][0] = buf, rq.arg_off[0][0] = JD_GUARD * 4;
    rq.i64[0] = (long long)n, rq.i64[1] = launch, rq.i64[2] = block, rq.i64[3] = (long long)smem;
    rq.i64[4] = sync, rq.i64[5] = msgsz;
    memcpy(&rq.i64[6], label, strnlen(label, W02_LABEL_MAX));
    rq.f64[0] = v;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s", J->why), -1;
    if (rp.out_len != sizeof *r)
        return jd_failf(t, "the runner answered without a report (status %d: %.150s)", rp.status, rp.text), -1;
    memcpy(r, rp.out, sizeof *r);
    return 0;
}

/* After each of the test's bad launches: exactly the judge's own error, the
 * message as the test checks it, no error left; then with 8 bytes of room. */
static void report_bad(jd *J, jd_tally *t, int buf, const char *label)
{
    w02_report r;
    char why[300];
    for (size_t k = 0; k < W02_N_BAD_LAUNCHES + 1 && !J->lost; k++) {
        int tiny = k == W02_N_BAD_LAUNCHES; /* the first bad launch again, 8 bytes of room */
        int block = W02_BAD_LAUNCHES[tiny ? 0 : k].block;
        size_t smem = W02_BAD_LAUNCHES[tiny ? 0 : k].smem;
        long long room = tiny ? 8 : W02_MSG_CAP;
        cudaError_t want = cudaSuccess;
        t->tests++;
        if (own_launch_error(block, smem, &want) != 0) return jd_failf(t, "the judge's own buffer: cudaMalloc failed");
        if (want == cudaSuccess)
            return jd_failf(t, "block %d, smem %zu: this GPU launches it (the judge's own launch did not fail): "
                                  "the case cannot be made here", block, smem);
        if (report_call(J, t, W02_LAUNCH_FILL, buf, W02_BAD_N, 1.0f, block, smem, 0, room, label, &r) != 0) return;
        if (r.rc == cudaSuccess)
            return jd_failf(t, "block %d, smem %zu: bug_check_launch returned cudaSuccess for a launch that failed",
                                  block, smem);
        if (r.rc != (int)want)
            return jd_failf(t, "block %d, smem %zu: bug_check_launch returned %s, but the launch failed with %s",
                                  block, smem, cudaGetErrorName((cudaError_t)r.rc), cudaGetErrorName(want));
        if (tiny) {
            if (memchr(r.msg, 0, (size_t)room) == NULL)
                return jd_failf(t, "a message longer than msgsz must be truncated and terminated");
            for (size_t i = (size_t)room; i < W02_MSG_CAP; i++)
                if (r.msg[i] != 'X')
                    return jd_failf(t, "a message longer than msgsz (%lld) must be truncated to fit: byte %zu "
                                          "was written", room, i);
        } else if (w02_report_check(label, want, r.msg, W02_MSG_CAP, 1, why, sizeof why) != 0) {
            return jd_failf(t, "%s", why);
        }
        if (r.after != cudaSuccess) return jd_failf(t, "bug_check_launch must clear the launch error");
    }
}

/* The test's good launch (n and v drawn as it draws them) into a guarded y:
 * cudaSuccess and "" with sync, cudaSuccess with msg NULL, the fill intact. */
static void report_good(jd *J, jd_tally *t, int buf, float *y, const char *label)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, W02_GOOD_TAG, 0);
    float v;
    size_t n = w02_good_case(&rng, &v), cn = JD_GUARD + n + JD_GUARD;
    w02_report r;
    t->tests++;
    float *h = malloc(cn * 4);
    if (!h) return jd_failf(t, "buffers: out of memory");
    if (cudaMemset(y, 0xff, cn * 4) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess)
        jd_failf(t, "the judge's own copies failed");
    else if (report_call(J, t, W02_LAUNCH_FILL, buf, n, v, 256, 0, 1, W02_MSG_CAP, label, &r) != 0)
        ;
    else if (r.rc != cudaSuccess)
        jd_failf(t, "a good launch: bug_check_launch returned %s", cudaGetErrorName((cudaError_t)r.rc));
    else if (r.msg[0] != 0)
        jd_failf(t, "a good launch: the message must be empty, got \"%.40s\"", r.msg);
    else if (report_call(J, t, W02_LAUNCH_NONE, -1, 0, 0, 0, 0, 0, -1, "again", &r) != 0)
        ;
    else if (r.rc != cudaSuccess)
        jd_failf(t, "msg may be NULL when msgsz is 0 (bug_check_launch returned %s)", cudaGetErrorName((cudaError_t)r.rc));
    else if (cudaMemcpy(h, y, cn * 4, cudaMemcpyDeviceToHost) != cudaSuccess)
        jd_failf(t, "reading the output failed");
    else
        for (size_t i = 0; i < cn; i++) {
            int inside = i >= JD_GUARD && i < JD_GUARD + n;
            uint32_t got;
            memcpy(&got, &h[i], 4);
            if (inside && h[i] != v) {
                jd_failf(t, "fill after bug_check_launch(sync=1): y[%zu] expected %.9g got %.9g", i - JD_GUARD,
                         (double)v, (double)h[i]);
                break;
            }
            if (!inside && got != 0xffffffffu) {
                jd_failf(t, "fill after bug_check_launch(sync=1): written outside the output (%zd from its start)",
                         (ssize_t)i - (ssize_t)JD_GUARD);
                break;
            }
        }
    free(h);
}

/* A kernel that faults, then bug_check_launch with sync: an error, named in
 * a message that starts with the label (the test's check). The runner's
 * context is lost after it: the last request of the checkpoint. */
static void report_fault(jd *J, jd_tally *t, const char *label)
{
    w02_report r;
    char why[300];
    t->tests++;
    if (report_call(J, t, W02_LAUNCH_FAULT, -1, 0, 0, 0, 0, 1, W02_MSG_CAP, label, &r) != 0) return;
    if (r.rc == cudaSuccess)
        return jd_failf(t, "a kernel that faults: bug_check_launch(sync=1) returned cudaSuccess");
    if (w02_report_check(label, (cudaError_t)r.rc, r.msg, W02_MSG_CAP, 0, why, sizeof why) != 0)
        jd_failf(t, "a kernel that faults: %s", why);
}

static void judge_error_report(jd_ck *k)
{
    jd *J = k->J;
    char fill[W02_LABEL_MAX + 1], fault[W02_LABEL_MAX + 1];
    snprintf(fill, sizeof fill, "fill-%04x", (unsigned)(jd_mix(jd_seed ^ 0xf111) & 0xffff));
    snprintf(fault, sizeof fault, "fault-%04x", (unsigned)(jd_mix(jd_seed ^ 0xfa17) & 0xffff));
    float *y = NULL;
    int buf = jd_alloc(J, (JD_GUARD + W02_GOOD_MAX_N + JD_GUARD) * 4, (void **)&y);
    if (buf < 0) return jd_failf(k->t, "buffers: %s", J->why);
    report_bad(J, k->t, buf, fill);
    if (!J->lost) report_good(J, k->t, buf, y, fill);
    if (!J->lost) report_fault(J, k->t, fault);
    jd_free(J, buf);
}

/* ---------------------------------------------------------------- the table */

static void judge_oob(jd_ck *k)
{
    float *ref = malloc(MAXN * 4);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 1, MAXN, MAXN, (int)W02_N_SIZES + 1, scale_one, ref);
    free(ref);
}

static void judge_race(jd_ck *k) { jd_cases(k->J, k->t, 1, MAXN, HIST_BINS, (int)W02_N_SIZES + 1, hist_one, NULL); }

static void judge_barrier(jd_ck *k)
{
    float *ref = malloc(MAXN * 4);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 1, MAXN, MAXN, (int)W02_N_SIZES, reverse_one, ref);
    free(ref);
}

static void judge_uninit(jd_ck *k)
{
    float *ref = malloc(MAXN * 4);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 2, MAXN, MAXN, (int)W02_N_SIZES + 1, normalise_one, ref);
    free(ref);
}

/* error-report last: its faulting kernel ends the runner's context */
static const jd_checkpoint CPS[] = {
    { "w02.oob", judge_oob, NULL, 0, 0 },
    { "w02.race", judge_race, NULL, 0, 0 },
    { "w02.barrier", judge_barrier, NULL, 0, 0 },
    { "w02.uninit", judge_uninit, NULL, 0, 0 },
    { "w02.launch-error", judge_launch_error, NULL, 0, 0 },
    { "w02.error-report", judge_error_report, NULL, 0, 0 },
};

int main(int argc, char **argv) { return jd_week_main(argc, argv, "judge-w02", "phase0/week02", CPS, 6); }
