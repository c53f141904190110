/* judge_w08.c — build/instructor/judge-w08: week 08's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's lastblock.o, gridsync.o, vote.o, lfstack.o, litmus.o and tally.o
 * are linked into the runner (judge_w08_runner.c), which this process
 * starts (or is handed) and asks to call them on buffers it allocated
 * (judge.h). It poisons, fills and checks, and writes the results record
 * itself, outside the runner's reach. The command line, the runner's start
 * and the record are judge_week.c's:
 *
 *   judge-w08 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week08.c's (shared through phase1/week08/w08_checks.h),
 * each case drawn as the test draws it for the seed (wb_rng_for_seed with
 * the test's tag), every output in a poisoned guard band of the harness's
 * size (WB_GUARD_BYTES on each side) that must come back untouched:
 *   w08.lastblock  every size of the test's table: the integer data exact,
 *                  3 calls on one workspace (the counter must come back to
 *                  0; the workspace, of the size the runner's
 *                  lastblock_tmp_bytes names, poisoned before each size),
 *                  then the float data within 1e-6 of the sum of |x| of the
 *                  double sum on 5 calls whose results the judge compares
 *                  bit for bit (deterministic: the same bits every call);
 *   w08.gridsync   the test's sizes and its 4 drawn ones, y = x - mean(x)
 *                  at 1e-5 + 1e-6 |ref| against the double reference;
 *   w08.vote       the same sizes with NaN, +-Inf, +-0 and 1e-30 planted:
 *                  the count exact, the kept elements (sorted by the judge)
 *                  exactly the positive ones, out[count..n) still poison;
 *   w08.lockfree   n of the test's table: n pushes, then the judge walks the
 *                  stack from the head it reads (every node once, none past
 *                  n, no cycle), then n + 100 pops: the judge checks what
 *                  comes back (no node lost, none twice, exactly 100 pops
 *                  found it empty, the head empty after);
 *   w08.mp-device  the litmus rounds of the test (1 to 2^20 pairs, 16 or 4
 *   w08.mp-block   rounds, fresh round values): the judge sets data and
 *                  flag to the value before the round, poisons seen[],
 *                  asks for a round and checks what came back as the test
 *                  does (w08_mp_round_check: every reader wrote a record of
 *                  values some writer stored, every message delivered, and
 *                  no stale read: a raised flag with old data fails). The
 *                  verdict is formed here from the memory the runner's
 *                  kernels wrote: the runner reports nothing but its status.
 *                  w08.mp-device also runs the demonstration (2^18 pairs,
 *                  32 rounds): release/acquire must be clean; the stale reads
 *                  of the unordered versions go to the record's figure,
 *                  never judged, as the test reports them;
 *   w08.tally      each of the test's cases: n keys uniform over the table's
 *                  bins, then over a drawn number (half on one bin in odd
 *                  cases), tally_device and tally_block exact against the
 *                  judge's counts; tally_block must refuse more than
 *                  TALLY_SHARED_MAX bins with cudaErrorInvalidValue and leave
 *                  the counts as the poison.
 * Not listed (judge-w08 --list), so the grader runs it in the week's linked
 * test program: w08.racecheck. Its verdict is compute-sanitizer's report on
 * the student's own process (the test starts itself under racecheck): the
 * tool instruments that process and prints in it, beside the student's
 * code. In grading the judge is handed only a socket to a runner the grader
 * started in the sandbox; to form the verdict here it would have to start a
 * second runner under compute-sanitizer itself, and a sanitizer outside the
 * sandbox would run the student's code outside it, while one inside writes
 * its report where the student's code writes too. The linked test does the
 * same in the sandbox (its exactness part and its racecheck part, SKIP
 * without compute-sanitizer): the guarantee is the linked test's, no less
 * than before. No checkpoint of the week is timed, and none is a CPU
 * checkpoint: without a GPU every listed one is SKIP. Run on an H200 (2026-11-29) through the
 * grader: the reference full marks on all seven, the starter 0;
 * without one the plumbing is tested by instructor/tests/judge_w08.sh. */
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
#include "judge_w08.h"
#include "judge_week.h"
#include "lfstack.h"
#include "litmus.h"
#include "tally.h"
#include "w08_checks.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_rand.h"

#define W08_TMP_CAP ((size_t)256 << 20)  /* the most workspace the judge gives a runner that asks */

/* Every buffer is a guarded byte buffer (jd_gbuf: JD_GBAND bytes of band on
 * each side of the array, the harness's WB_GUARD_BYTES), its lead always 0. */

/* Send the request; 0 with the reply's status in *st, or -1 (the runner is lost, t says so). */
static int call(jd *J, const jd_req *rq, const char *what, jd_tally *t, int *st)
{
    jd_rep rp;
    if (jd_call(J, rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    *st = rp.status;
    return 0;
}

static const char *err_name(int st) { return st < 0 ? "the runner could not call it" : cudaGetErrorName((cudaError_t)st); }

/* The workspaces' sizes, from the runner (the student's given functions),
 * each at most W08_TMP_CAP. */
static int tmp_sizes(jd *J, w08_tmp *w, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W08_FN_TMP, 1, 0);
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s", J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *w) return jd_failf(t, "the runner could not tell the workspaces' sizes"), -1;
    memcpy(w, rp.out, sizeof *w);
    if (w->lastblock > W08_TMP_CAP || w->center > W08_TMP_CAP)
        return jd_failf(t, "a workspace of %llu bytes asked for (the judge gives at most %zu)",
                        w->lastblock > w->center ? w->lastblock : w->center, W08_TMP_CAP), -1;
    return 0;
}

/* ---------------------------------------------------------------- lastblock */

static void judge_lastblock(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t maxn = W08_SIZES[W08_N_SIZES - 1];
    w08_tmp w;
    jd_gbuf x = { -1, NULL, 0 }, out = { -1, NULL, 0 }, tmp = { -1, NULL, 0 };
    float *hx = malloc((maxn + 1) * 4);
    if (!hx) {
        jd_failf(t, "buffers: out of memory");
        return;
    }
    if (tmp_sizes(J, &w, t) != 0 || jd_gbuf_alloc(J, &x, maxn * 4, t) || jd_gbuf_alloc(J, &out, 4, t) ||
        jd_gbuf_alloc(J, &tmp, w.lastblock ? w.lastblock : 1, t))
        goto done;
    for (size_t c = 0; c < W08_N_SIZES && !J->lost; c++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W08_LASTBLOCK_TAG, (int)c);
        size_t n = W08_SIZES[c];
        double ref = w08_lastblock_ints(&rng, hx, n), tol = 0;
        t->tests++;
        int failed = t->failed;
        if (jd_gbuf_put(&x, 0, hx, n * 4) || jd_gbuf_poison(&tmp, 0, w.lastblock)) {
            jd_failf(t, "n=%zu: the judge's own copies failed", n);
            break;
        }
        jd_req rq;
        jd_call_setup(&rq, W08_FN_LASTBLOCK, 1, 3);
        jd_gbuf_arg(&rq, 0, n ? &x : NULL, 0), jd_gbuf_arg(&rq, 1, &out, 0);
        jd_gbuf_arg(&rq, 2, w.lastblock ? &tmp : NULL, 0);
        rq.i64[0] = (long long)n;
        uint32_t bits0 = 0;
        for (int run = 0; run < W08_LASTBLOCK_INT_RUNS + W08_LASTBLOCK_FLOAT_RUNS && t->failed == failed; run++) {
            int fl = run >= W08_LASTBLOCK_INT_RUNS, r = fl ? run - W08_LASTBLOCK_INT_RUNS : run, st;
            char what[96];
            snprintf(what, sizeof what, "n=%zu, run %d, %s data", n, r + 1, fl ? "float" : "integer");
            if (run == W08_LASTBLOCK_INT_RUNS) { /* the float data, drawn after the integers */
                ref = w08_lastblock_floats(&rng, hx, n, &tol);
                if (jd_gbuf_put(&x, 0, hx, n * 4)) {
                    jd_failf(t, "%s: the judge's own copies failed", what);
                    break;
                }
            }
            float got;
            if (jd_gbuf_poison(&out, 0, 4)) {
                jd_failf(t, "%s: the judge's own copies failed", what);
                break;
            }
            if (call(J, &rq, what, t, &st) != 0) break;
            if (st != 0) {
                jd_failf(t, "%s: lastblock_reduce returned %s", what, err_name(st));
                break;
            }
            if (jd_gbuf_fetch(&out, 0, 4, &got, "the sum", what, t)) break;
            uint32_t bits;
            memcpy(&bits, &got, 4);
            if (!fl && !(got == (float)ref))
                jd_failf(t, "n=%zu, run %d: sum %.1f, expected %.1f", n, r + 1, got, ref);
            else if (fl && !wb_close(got, ref, tol, 0))
                jd_failf(t, "n=%zu float data: sum %.9g, expected %.9g", n, got, ref);
            else if (fl && r > 0 && bits != bits0)
                jd_failf(t, "n=%zu: run %d gave different bits (0x%08x vs 0x%08x): the sum is not deterministic", n, r + 1,
                         bits, bits0);
            if (fl && r == 0) bits0 = bits;
        }
    }
done:
    jd_gbuf_free(J, &tmp), jd_gbuf_free(J, &out), jd_gbuf_free(J, &x);
    free(hx);
}

/* ---------------------------------------------------------------- gridsync */

static void judge_gridsync(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t maxn = W08_CENTER_MAX_N > W08_SIZES[W08_N_SIZES - 1] ? W08_CENTER_MAX_N : W08_SIZES[W08_N_SIZES - 1];
    w08_tmp w;
    jd_gbuf x = { -1, NULL, 0 }, y = { -1, NULL, 0 }, tmp = { -1, NULL, 0 };
    float *hx = malloc(maxn * 4), *hy = malloc(maxn * 4);
    double *ref = malloc(maxn * 8);
    if (!hx || !hy || !ref) {
        jd_failf(t, "buffers: out of memory");
        goto done;
    }
    if (tmp_sizes(J, &w, t) != 0 || jd_gbuf_alloc(J, &x, maxn * 4, t) || jd_gbuf_alloc(J, &y, maxn * 4, t) ||
        jd_gbuf_alloc(J, &tmp, w.center ? w.center : 1, t))
        goto done;
    for (int c = 0; c < (int)W08_CENTER_CASES && !J->lost; c++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W08_CENTER_TAG, c);
        size_t n = w08_center_n(&rng, c);
        w08_center_draw(&rng, hx, ref, n);
        char what[48];
        snprintf(what, sizeof what, "n=%zu", n);
        t->tests++;
        if (jd_gbuf_put(&x, 0, hx, n * 4) || jd_gbuf_poison(&y, 0, n * 4) || jd_gbuf_poison(&tmp, 0, w.center)) {
            jd_failf(t, "%s: the judge's own copies failed", what);
            break;
        }
        jd_req rq;
        int st;
        jd_call_setup(&rq, W08_FN_CENTER, 1, 3);
        jd_gbuf_arg(&rq, 0, n ? &x : NULL, 0), jd_gbuf_arg(&rq, 1, &y, 0), jd_gbuf_arg(&rq, 2, w.center ? &tmp : NULL, 0);
        rq.i64[0] = (long long)n;
        if (call(J, &rq, what, t, &st) != 0) break;
        if (st != 0) {
            jd_failf(t, "%s: gridsync_center_mean returned %s", what, err_name(st));
            continue;
        }
        int f = jd_gbuf_fetch(&y, 0, n * 4, hy, "y", what, t);
        if (f < 0) break;
        if (f) continue;
        wb_cmp cmp;
        if (wb_compare_f32_f64("y", hy, ref, n, W08_CENTER_ATOL, W08_CENTER_RTOL, &cmp)) jd_failf(t, "%s: %s", what, cmp.msg);
    }
done:
    jd_gbuf_free(J, &tmp), jd_gbuf_free(J, &y), jd_gbuf_free(J, &x);
    free(hx), free(hy), free(ref);
}

/* ---------------------------------------------------------------- vote */

static void judge_vote(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t maxn = W08_COMPACT_MAX_N > W08_SIZES[W08_N_SIZES - 1] ? W08_COMPACT_MAX_N : W08_SIZES[W08_N_SIZES - 1];
    jd_gbuf x = { -1, NULL, 0 }, out = { -1, NULL, 0 }, cnt = { -1, NULL, 0 };
    float *hx = malloc(maxn * 4), *hout = malloc(maxn * 4), *ref = malloc(maxn * 4);
    if (!hx || !hout || !ref) {
        jd_failf(t, "buffers: out of memory");
        goto done;
    }
    if (jd_gbuf_alloc(J, &x, maxn * 4, t) || jd_gbuf_alloc(J, &out, maxn * 4, t) || jd_gbuf_alloc(J, &cnt, 4, t)) goto done;
    for (int c = 0; c < (int)W08_COMPACT_CASES && !J->lost; c++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W08_COMPACT_TAG, c);
        size_t n = w08_compact_n(&rng, c), kept = w08_compact_draw(&rng, hx, ref, n);
        char what[64];
        snprintf(what, sizeof what, "n=%zu", n);
        t->tests++;
        if (jd_gbuf_put(&x, 0, hx, n * 4) || jd_gbuf_poison(&out, 0, n * 4) || jd_gbuf_poison(&cnt, 0, 4)) {
            jd_failf(t, "%s: the judge's own copies failed", what);
            break;
        }
        jd_req rq;
        int st;
        jd_call_setup(&rq, W08_FN_COMPACT, 1, 3);
        jd_gbuf_arg(&rq, 0, n ? &x : NULL, 0), jd_gbuf_arg(&rq, 1, &out, 0), jd_gbuf_arg(&rq, 2, &cnt, 0);
        rq.i64[0] = (long long)n;
        if (call(J, &rq, what, t, &st) != 0) break;
        if (st != 0) {
            jd_failf(t, "%s: vote_compact_positive returned %s", what, err_name(st));
            continue;
        }
        unsigned int count = 0;
        int f = jd_gbuf_fetch(&cnt, 0, 4, &count, "count", what, t);
        if (!f) f = jd_gbuf_fetch(&out, 0, n * 4, hout, "out", what, t);
        if (f < 0) break;
        if (f) continue;
        if (count != kept) {
            jd_failf(t, "n=%zu: count %u, expected %zu", n, count, kept);
            continue;
        }
        qsort(hout, kept, 4, w08_cmp_float);
        qsort(ref, kept, 4, w08_cmp_float);
        wb_cmp cmp;
        if (wb_compare_f32("out", hout, ref, kept, 0, 0, &cmp)) jd_failf(t, "n=%zu, kept elements sorted: %s", n, cmp.msg);
        else if (wb_count_not_byte(hout + kept, (n - kept) * 4, 0xFF) != 0) jd_failf(t, "n=%zu: written past out[count-1]", n);
    }
done:
    jd_gbuf_free(J, &cnt), jd_gbuf_free(J, &out), jd_gbuf_free(J, &x);
    free(hx), free(hout), free(ref);
}

/* ---------------------------------------------------------------- lfstack */

/* One size: n pushes, the stack walked here, n + 100 pops checked here.
 * 0, or -1 when the runner or the judge's copies failed (stop). */
static int stack_case(jd *J, jd_tally *t, jd_gbuf *head_b, jd_gbuf *next_b, jd_gbuf *pop_b, size_t n, unsigned int *next,
                      unsigned int *pop, unsigned char *seen)
{
    size_t m = n + W08_STACK_EXTRA;
    unsigned int empty = STACK_EMPTY, head;
    char what[48];
    int st, f;
    t->tests++;
    if (jd_gbuf_poison(head_b, 0, 4) || jd_gbuf_poison(next_b, 0, n * 4) || jd_gbuf_poison(pop_b, 0, m * 4) ||
        jd_gbuf_put(head_b, 0, &empty, 4))
        return jd_failf(t, "n=%zu: the judge's own copies failed", n), -1;
    jd_req rq;
    jd_call_setup(&rq, W08_FN_PUSH, 1, 2);
    jd_gbuf_arg(&rq, 0, head_b, 0), jd_gbuf_arg(&rq, 1, next_b, 0);
    rq.i64[0] = (long long)n;
    snprintf(what, sizeof what, "n=%zu, the pushes", n);
    if (call(J, &rq, what, t, &st) != 0) return -1;
    if (st != 0) return jd_failf(t, "%s: lfstack_push_all returned %s", what, err_name(st)), 0;
    snprintf(what, sizeof what, "n=%zu, after the pushes", n);
    if ((f = jd_gbuf_fetch(head_b, 0, 4, &head, "head", what, t)) ||
        (f = jd_gbuf_fetch(next_b, 0, n * 4, next, "next", what, t)))
        return f < 0 ? -1 : 0;
    char err[200];
    if (w08_stack_walk(head, next, n, seen, err, sizeof err)) return jd_failf(t, "%s", err), 0;
    jd_call_setup(&rq, W08_FN_POP, 1, 3);
    jd_gbuf_arg(&rq, 0, head_b, 0), jd_gbuf_arg(&rq, 1, next_b, 0), jd_gbuf_arg(&rq, 2, pop_b, 0);
    rq.i64[0] = (long long)m;
    snprintf(what, sizeof what, "n=%zu, the pops", n);
    if (call(J, &rq, what, t, &st) != 0) return -1;
    if (st != 0) return jd_failf(t, "%s: lfstack_pop_all returned %s", what, err_name(st)), 0;
    snprintf(what, sizeof what, "n=%zu, after the pops", n);
    if ((f = jd_gbuf_fetch(pop_b, 0, m * 4, pop, "popped", what, t)) ||
        (f = jd_gbuf_fetch(head_b, 0, 4, &head, "head", what, t)))
        return f < 0 ? -1 : 0;
    if (w08_stack_pops(pop, m, n, head, seen, err, sizeof err)) jd_failf(t, "%s", err);
    return 0;
}

static void judge_lockfree(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t maxn = W08_STACK_SIZES[W08_N_STACK_SIZES - 1], maxm = maxn + W08_STACK_EXTRA;
    jd_gbuf head = { -1, NULL, 0 }, next = { -1, NULL, 0 }, pop = { -1, NULL, 0 };
    unsigned int *hnext = malloc(maxn * 4), *hpop = malloc(maxm * 4);
    unsigned char *seen = malloc(maxn);
    if (!hnext || !hpop || !seen) jd_failf(t, "buffers: out of memory");
    else if (!jd_gbuf_alloc(J, &head, 4, t) && !jd_gbuf_alloc(J, &next, maxn * 4, t) && !jd_gbuf_alloc(J, &pop, maxm * 4, t))
        for (size_t c = 0; c < W08_N_STACK_SIZES && !J->lost; c++)
            if (stack_case(J, t, &head, &next, &pop, W08_STACK_SIZES[c], hnext, hpop, seen) < 0) break;
    jd_gbuf_free(J, &pop), jd_gbuf_free(J, &next), jd_gbuf_free(J, &head);
    free(hnext), free(hpop), free(seen);
}

/* ---------------------------------------------------------------- litmus */

typedef struct {
    jd_gbuf       data, flag, seen;
    unsigned int *hd, *hf, *hs;
} mp_bufs;

static int mp_alloc(jd *J, mp_bufs *B, size_t maxp, jd_tally *t)
{
    memset(B, 0, sizeof *B);
    B->data.id = B->flag.id = B->seen.id = -1;
    B->hd = malloc(maxp * 4 + 4), B->hf = malloc(maxp * 4 + 4), B->hs = malloc(2 * maxp * 4 + 4);
    if (!B->hd || !B->hf || !B->hs) return jd_failf(t, "buffers: out of memory"), -1;
    return jd_gbuf_alloc(J, &B->data, maxp * 4, t) || jd_gbuf_alloc(J, &B->flag, maxp * 4, t) ||
                   jd_gbuf_alloc(J, &B->seen, 2 * maxp * 4, t)
               ? -1
               : 0;
}

static void mp_free(jd *J, mp_bufs *B)
{
    jd_gbuf_free(J, &B->seen), jd_gbuf_free(J, &B->flag), jd_gbuf_free(J, &B->data);
    free(B->hd), free(B->hf), free(B->hs);
}

/* The test's mp_run: `rounds` rounds of `kind` on npairs pairs, fresh round
 * values from rng. 0; 1 with err (what is wrong: a record not written, a
 * value no writer stored, a message not delivered); 2 with err (the call
 * failed or wrote outside its arrays: where the test's WB_CUDA or guard
 * check fails the test, even in a demonstration); or -1 when the runner or
 * the judge's copies failed (err says so). Stale reads are counted in c,
 * not judged. */
static int mp_run(jd *J, mp_bufs *B, wb_rng *rng, size_t npairs, int kind, int rounds, w08_mp_count *c, char *err,
                  size_t errsz)
{
    memset(c, 0, sizeof *c);
    err[0] = 0;
    unsigned int base = w08_mp_base(rng);
    for (size_t p = 0; p < npairs; p++) B->hd[p] = B->hf[p] = base - 1;
    if (jd_gbuf_poison(&B->data, 0, npairs * 4) || jd_gbuf_poison(&B->flag, 0, npairs * 4) ||
        jd_gbuf_put(&B->data, 0, B->hd, npairs * 4) || jd_gbuf_put(&B->flag, 0, B->hf, npairs * 4))
        return snprintf(err, errsz, "npairs=%zu: the judge's own copies failed", npairs), -1;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W08_FN_MP_ROUND, 1, 3);
    jd_gbuf_arg(&rq, 0, &B->data, 0), jd_gbuf_arg(&rq, 1, &B->flag, 0), jd_gbuf_arg(&rq, 2, &B->seen, 0);
    rq.i64[0] = (long long)npairs, rq.i64[2] = kind;
    char what[96];
    for (int k = 0; k < rounds; k++) {
        unsigned int r = base + (unsigned int)k;
        snprintf(what, sizeof what, "npairs=%zu, round %d", npairs, k + 1);
        if (jd_gbuf_poison(&B->seen, 0, 2 * npairs * 4))
            return snprintf(err, errsz, "%s: the judge's own copies failed", what), -1;
        rq.i64[1] = r;
        if (jd_call(J, &rq, &rp, NULL) != 0) return snprintf(err, errsz, "%s: %s", what, J->why), -1;
        if (rp.status != 0) return snprintf(err, errsz, "%s: litmus_mp_round returned %s", what, err_name(rp.status)), 2;
        jd_tally ft; /* a band changed, or the judge's copy failed: its message into err */
        memset(&ft, 0, sizeof ft);
        int f = jd_gbuf_fetch(&B->seen, 0, 2 * npairs * 4, B->hs, "seen", what, &ft);
        if (!f) f = jd_gbuf_fetch(&B->data, 0, npairs * 4, B->hd, "data", what, &ft);
        if (!f) f = jd_gbuf_fetch(&B->flag, 0, npairs * 4, B->hf, "flag", what, &ft);
        if (f) return snprintf(err, errsz, "%s", ft.msg), f < 0 ? -1 : 2;
        if (w08_mp_round_check(B->hs, B->hd, B->hf, npairs, r, what, c, err, errsz)) return 1;
    }
    return 0;
}

/* The test's mp_device_sizes or mp_block_sizes: every size, no stale read. */
static void mp_sizes(jd_ck *k, int kind, const char *tag)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    mp_bufs B;
    if (mp_alloc(J, &B, W08_MP_SIZES[W08_N_MP_SIZES - 1], t) == 0)
        for (int i = 0; i < (int)W08_N_MP_SIZES && !J->lost; i++) {
            wb_rng rng = wb_rng_for_seed(jd_seed, tag, i);
            size_t np = W08_MP_SIZES[i];
            w08_mp_count c;
            char err[300];
            t->tests++;
            int rc = mp_run(J, &B, &rng, np, kind, w08_mp_rounds(np), &c, err, sizeof err);
            if (rc) {
                jd_failf(t, "%s", err);
                if (rc < 0) break;
            } else if (c.stale) {
                jd_failf(t, "npairs=%zu: %zu of %zu reads saw the flag raised and OLD data: the release/acquire pair does "
                         "not order data before flag (or its scope does not hold both threads)", np, c.stale, c.raised);
            } else {
                printf("  %s npairs=%zu, %d rounds: flag seen raised in %zu of %zu reads, 0 stale\n",
                       kind == MP_DEVICE ? "device" : "block", np, w08_mp_rounds(np), c.raised, c.reads);
            }
        }
    mp_free(J, &B);
}

/* The test's mp_demo: release/acquire at device scope clean on the
 * demonstration's rounds, then the unordered versions' stale reads into the
 * record's figure (reported, never judged). */
static void mp_demo(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    mp_bufs B;
    if (mp_alloc(J, &B, W08_MP_DEMO_NP, t) != 0) {
        mp_free(J, &B);
        return;
    }
    wb_rng rng = wb_rng_for_seed(jd_seed, W08_MP_DEMO_TAG, 0);
    w08_mp_count c;
    char err[300], fig[400];
    t->tests++;
    if (mp_run(J, &B, &rng, W08_MP_DEMO_NP, MP_DEVICE, W08_MP_DEMO_ROUNDS, &c, err, sizeof err)) {
        jd_failf(t, "%s", err);
    } else if (c.stale) {
        jd_failf(t, "release/acquire at device scope: %zu stale reads of %zu raised flags", c.stale, c.raised);
    } else {
        int len = snprintf(fig, sizeof fig, "stale reads / flags seen raised over %d x %d pairs: release/acquire %zu/%zu",
                           W08_MP_DEMO_ROUNDS, W08_MP_DEMO_NP, c.stale, c.raised);
        static const struct { int kind; const char *name; } DEMOS[] = {
            { MP_DEMO_PLAIN, "plain+volatile" }, { MP_DEMO_RELAXED, "relaxed" }, { MP_DEMO_NARROW, "block scope across blocks" } };
        for (size_t d = 0; d < sizeof DEMOS / sizeof DEMOS[0] && !J->lost; d++) {
            int rc = mp_run(J, &B, &rng, W08_MP_DEMO_NP, DEMOS[d].kind, W08_MP_DEMO_ROUNDS, &c, err, sizeof err);
            if (rc == 2 || rc < 0) {
                jd_failf(t, "%s: %s", DEMOS[d].name, err);
                break;
            }
            if (rc)
                len += snprintf(fig + len, sizeof fig - len, ", %s: no figure", DEMOS[d].name), printf("  %s: %s\n", DEMOS[d].name, err);
            else
                len += snprintf(fig + len, sizeof fig - len, ", %s %zu/%zu", DEMOS[d].name, c.stale, c.raised);
            if (len >= (int)sizeof fig) len = (int)sizeof fig - 1;
        }
        printf("  %s\n", fig);
        snprintf(k->R->detail, sizeof k->R->detail, "%s", fig);
    }
    mp_free(J, &B);
}

static void judge_mp_device(jd_ck *k)
{
    mp_sizes(k, MP_DEVICE, W08_MP_DEVICE_TAG);
    if (!k->J->lost) mp_demo(k);
}

static void judge_mp_block(jd_ck *k) { mp_sizes(k, MP_BLOCK, W08_MP_BLOCK_TAG); }

/* ---------------------------------------------------------------- tally */

/* One of tally_device (fn W08_FN_TALLY_DEVICE) or tally_block on the keys
 * in `keys` (NULL: none), counts poisoned first: exact against ref, or the
 * refusal where nbins is past TALLY_SHARED_MAX. 0, or -1 (stop). */
static int tally_one(jd *J, jd_tally *t, int fn, jd_gbuf *keys, jd_gbuf *counts, size_t n, unsigned int nbins, int skew,
                     const unsigned int *ref, unsigned int *got)
{
    int block = fn == W08_FN_TALLY_BLOCK, st, f;
    char what[96];
    snprintf(what, sizeof what, "%s, n=%zu, %u bins%s", block ? "tally_block" : "tally_device", n, nbins,
             skew ? ", half the keys on one bin" : "");
    if (jd_gbuf_poison(counts, 0, (size_t)nbins * 4)) return jd_failf(t, "%s: the judge's own copies failed", what), -1;
    jd_req rq;
    jd_call_setup(&rq, fn, 1, 2);
    jd_gbuf_arg(&rq, 0, keys, 0), jd_gbuf_arg(&rq, 1, counts, 0);
    rq.i64[0] = (long long)n, rq.i64[1] = nbins;
    if (call(J, &rq, what, t, &st) != 0) return -1;
    int refuse = block && nbins > TALLY_SHARED_MAX;
    if (refuse && st != cudaErrorInvalidValue)
        return jd_failf(t, "%s: returned %s, expected cudaErrorInvalidValue (too many bins for shared memory)", what,
                        err_name(st)), 0;
    if (!refuse && st != 0) return jd_failf(t, "%s: returned %s", what, err_name(st)), 0;
    if ((f = jd_gbuf_fetch(counts, 0, (size_t)nbins * 4, got, "counts", what, t))) return f < 0 ? -1 : 0;
    if (refuse) {
        if (wb_count_not_byte(got, (size_t)nbins * 4, 0xFF) != 0) jd_failf(t, "%s: wrote counts though it refused the bins", what);
        return 0;
    }
    wb_cmp cmp;
    if (wb_compare_u32("counts", got, ref, nbins, &cmp)) jd_failf(t, "%s: %s", what, cmp.msg);
    return 0;
}

static void judge_tally(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t maxn = W08_SIZES[W08_N_SIZES - 1];
    jd_gbuf keys = { -1, NULL, 0 }, counts = { -1, NULL, 0 };
    unsigned int *hk = malloc(maxn * 4 + 4), *ref = malloc((size_t)W08_TALLY_MAX_BINS * 4),
                 *got = malloc((size_t)W08_TALLY_MAX_BINS * 4);
    if (!hk || !ref || !got) jd_failf(t, "buffers: out of memory");
    else if (!jd_gbuf_alloc(J, &keys, maxn * 4, t) && !jd_gbuf_alloc(J, &counts, (size_t)W08_TALLY_MAX_BINS * 4, t))
        for (int c = 0; c < (int)W08_TALLY_CASES && !J->lost; c++) {
            wb_rng rng = wb_rng_for_seed(jd_seed, W08_TALLY_TAG, c);
            size_t n = w08_tally_n(c);
            int stop = 0;
            t->tests++;
            for (int part = 0; part < 2 && !stop; part++) {
                unsigned int nbins = w08_tally_bins(&rng, c, part);
                int skew = w08_tally_skew(c, part);
                w08_tally_draw(&rng, hk, ref, n, nbins, skew);
                if (jd_gbuf_put(&keys, 0, hk, n * 4)) {
                    jd_failf(t, "n=%zu: the judge's own copies failed", n);
                    stop = 1;
                    break;
                }
                jd_gbuf *kb = n ? &keys : NULL;
                stop = tally_one(J, t, W08_FN_TALLY_DEVICE, kb, &counts, n, nbins, skew, ref, got) < 0 ||
                       tally_one(J, t, W08_FN_TALLY_BLOCK, kb, &counts, n, nbins, skew, ref, got) < 0;
            }
            if (stop) break;
        }
    jd_gbuf_free(J, &counts), jd_gbuf_free(J, &keys);
    free(hk), free(ref), free(got);
}

static const jd_checkpoint CPS[] = {
    { "w08.lastblock", judge_lastblock, NULL, 0, 0 },
    { "w08.gridsync", judge_gridsync, NULL, 0, 0 },
    { "w08.vote", judge_vote, NULL, 0, 0 },
    { "w08.lockfree", judge_lockfree, NULL, 0, 0 },
    { "w08.mp-device", judge_mp_device, NULL, 0, 0 },
    { "w08.mp-block", judge_mp_block, NULL, 0, 0 },
    { "w08.tally", judge_tally, NULL, 0, 0 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w08", "phase1/week08", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
