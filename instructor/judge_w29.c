/* judge_w29.c — build/instructor/judge-w29: week 29's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's naive.o and stable.o are linked into the runner
 * (judge_w29_runner.c), which this process starts (or is handed) and asks to
 * call them on buffers it allocated (judge.h). It poisons, fills and checks,
 * and writes the results record itself, outside the runner's reach. The
 * command line, the runner's start, the record and the guarded buffers are
 * judge_week.c's:
 *
 *   judge-w29 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week29.c's (shared through phase6/week29/w29_checks.h,
 * the double reference phase6/common/softmax_check.h's softmax_ref), each
 * case drawn as the test draws it for the seed (wb_rng_for_seed with the
 * test's tag), every output in a guarded buffer (jd_gbuf: a poisoned band
 * each side, the misaligned lead included), every element against the
 * double reference at the test's 1e-7 + 5e-5 |ref| (NaN where NaN is due,
 * the poison left there counted as not written), nothing written outside it:
 *   w29.limit     naive_limit for the test's 9 column counts (1 to 2^20)
 *                 within 1e-6 of the listed ln(FLT_MAX / cols), and for 8
 *                 more drawn from the seed (1 to 2^24) against
 *                 ln(FLT_MAX) - ln(cols) in double, the same formula, so a
 *                 table of the test's answers does not pass. A CPU function:
 *                 judged with or without a GPU (the runner then opens none);
 *   w29.naive     naive_softmax on the test's 19 shapes (0 x 5 and 5 x 0,
 *                 70000 x 3, 3 x 100003) and its 4 offset mixes (x, y
 *                 misaligned by a float), logits in [-10, 10]; the row sums'
 *                 workspace a guarded buffer of rows floats too (its
 *                 contents are the student's, but nothing may be written
 *                 outside it; the test gives it unguarded);
 *   w29.overflow  naive_softmax on the test's 8-row cases of 1, 37, 1000 and
 *                 4096 columns: every element written (none the poison);
 *                 the rows near +1e4, near -1e4 and just past the listed
 *                 ln(FLT_MAX / cols) with no element right (the formula
 *                 without the max must break there); the small rows and
 *                 the row just below the limit right;
 *   w29.stable    stable_softmax on the 19 shapes and 4 offset mixes, logits
 *                 in [-20, 20] with the test's special rows (near +-1e4,
 *                 over +-1e4, masked with -Inf, all -Inf, a NaN, a +Inf).
 * Every checkpoint of week 29 is judged: none is left to the linked test
 * (the week has no speed checkpoint; its benchmark is a report).
 *
 * Without a GPU the judge gives the runner host buffers (judge.h, the
 * plumbing mode) and runs w29.limit in full; the three GPU checkpoints SKIP
 * there, as the linked test's do, so the grader's cells without a GPU are
 * the same judged and linked. Only with JUDGE_W29_HOST_CHECKS=1 in the
 * judge's environment (its test, instructor/tests/judge_w29.sh; the grader
 * never sets it) does it run their cases as well (jd_checkpoint.cpu, whose
 * FAIL alone stands): a call that returns an error (a kernel cannot launch
 * without a GPU, as the reference's cannot) leaves the checkpoint SKIP, but
 * a call that returns cudaSuccess has claimed its output (the runner waited
 * for any GPU it sees: judge_w29_runner.c), which is then checked as above
 * (so a function that returns cudaSuccess after a launch that failed,
 * against naive.h's and stable.h's "returns the first launch error", FAILs
 * there too). That is how the judge's checks are tested without a GPU, over
 * the starter's runner and over judge_w29_host.c's.
 *
 * The starter has no kernel: naive.cu and stable.cu hold TODO comments,
 * naive_softmax and stable_softmax cast their arguments to void and return
 * cudaSuccess, naive_limit returns 0.0. So it FAILs every checkpoint with a
 * GPU (without one w29.limit, and with JUDGE_W29_HOST_CHECKS=1 all four),
 * each for the reason a GPU run gives:
 *   w29.limit     naive_limit(1), the first listed, is 0.0 where 88.72 is
 *                 due (and any other column count after it);
 *   w29.naive     y is never written: the first case with an element
 *                 (1 x 1, after 0 x 5 and 5 x 0, which have none) finds
 *                 y[0] still the poison (all bits set, a NaN), which no
 *                 tolerance takes for the 1 that is due;
 *   w29.overflow  y is never written: row 0 of the 1-column case (small
 *                 logits) is the poison, "never written", the check that
 *                 also catches a kernel that skips the rows it cannot
 *                 compute (NaN rows must be written, as NaN);
 *   w29.stable    as w29.naive: 1 x 1 finds y[0] the poison where 1 is due.
 * The row sums of the naive version, never written by the starter, are not
 * what fails it: their contents are the student's.
 *
 * On an H200 (2026-11-29), alone over the reference's and the starter's
 * runners, plain and sandboxed: the reference PASSed all four, the starter
 * FAILed all four; not yet through the grader on a GPU. Without one,
 * instructor/tests/judge_w29.sh: graded with --judge 1 and without, the
 * same cells (w29.limit judged, the other three SKIP); the judge alone over
 * the reference's runner w29.limit PASS and the other three SKIP, over the
 * starter's w29.limit FAIL and three SKIP, and with
 * JUDGE_W29_HOST_CHECKS=1 all four FAIL, plain and sandboxed; and over the
 * week's functions on the CPU (judge_w29_host.c, host buffers, the variable
 * set) no case fails, while each of six bugs fails the checkpoint a GPU run
 * would, at the case the test would. */
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
#include "judge_w29.h"
#include "judge_week.h"
#include "w29_checks.h"
#include "wb_compare.h"

#define W29_LIMIT_DRAWN_TAG "w29_limit_drawn" /* the judge's own column counts (not the test's) */
#define W29_N_LIMIT_DRAWN   8

static const char *status_name(int st) { return st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st); }

/* Host buffers (no GPU for the judge: judge.h's plumbing mode, where the
 * runner maps the same memory): the guarded buffers are filled, poisoned and
 * read here; with a GPU, by judge_week.c's jd_gbuf functions. */
static int host_mode(const jd *J) { return J->kind == JD_MEM_HOST; }

static int gb_put(jd *J, jd_gbuf *b, const void *host, size_t bytes)
{
    if (!host_mode(J)) return jd_gbuf_put(b, 0, host, bytes);
    if (bytes > b->cap) return -1;
    if (bytes) memcpy(b->d + JD_GBAND, host, bytes);
    return 0;
}

static int gb_poison(jd *J, jd_gbuf *b, size_t lead, size_t bytes)
{
    if (!host_mode(J)) return jd_gbuf_poison(b, lead, bytes);
    if (lead + bytes > b->cap) return -1;
    memset(b->d, 0xff, 2 * JD_GBAND + lead + bytes);
    return 0;
}

/* jd_gbuf_fetch's contract: 0, 1 (a byte outside the array changed: t
 * says so), -1 (the judge's copy failed). */
static int gb_fetch(jd *J, jd_gbuf *b, size_t lead, size_t bytes, void *host, const char *name, const char *what,
                    jd_tally *t)
{
    if (!host_mode(J)) return jd_gbuf_fetch(b, lead, bytes, host, name, what, t);
    if (lead + bytes > b->cap) return jd_failf(t, "%s: reading %s back: the judge's copy failed", what, name), -1;
    const size_t front = JD_GBAND + lead;
    size_t changed = wb_count_not_byte(b->d, front, 0xff) + wb_count_not_byte(b->d + front + bytes, JD_GBAND, 0xff);
    if (changed)
        return jd_failf(t, "%s: written outside %s: %zu bytes of its guard band changed", what, name, changed), 1;
    if (bytes) memcpy(host, b->d + front, bytes);
    return 0;
}

/* ---------------------------------------------------------------- limit (CPU) */

/* naive_limit(cols) through the runner: 0 and *l, or -1 with t failed. */
static int limit_call(jd *J, int cols, double *l, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W29_FN_LIMIT, 1, 0);
    rq.i64[0] = cols;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "naive_limit(%d): %s", cols, J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *l) return jd_failf(t, "naive_limit(%d): no answer from the runner", cols), -1;
    memcpy(l, rp.out, sizeof *l);
    return 0;
}

static void judge_limit(jd *J, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, W29_LIMIT_DRAWN_TAG, 0);
    for (int k = 0; k < (int)W29_N_LIMITS + W29_N_LIMIT_DRAWN && !J->lost; k++) {
        const int listed = k < (int)W29_N_LIMITS;
        const int cols = listed ? W29_LIMITS[k].cols : (int)wb_rng_int(&rng, 1, 1 << 24);
        const double want = listed ? W29_LIMITS[k].limit : log((double)FLT_MAX) - log((double)cols);
        double got;
        t->tests++;
        if (limit_call(J, cols, &got, t) != 0) return;
        if (!wb_close(got, want, W29_LIMIT_ATOL, 0)) {
            jd_failf(t, "naive_limit(%d) = %.6f, expected ln(FLT_MAX / %d) = %.6f", cols, got, cols, want);
            return;
        }
    }
}

static void judge_limit_gpu(jd_ck *k) { judge_limit(k->J, k->t); }

/* ---------------------------------------------------------------- the softmax calls */

/* x, y and the naive version's row sums, each a guarded buffer, and host
 * room for x, y, the sums and the reference. */
typedef struct {
    jd_gbuf x, y, s;
    float  *hx, *hy, *hs;
    double *ref;
} w29_bufs;

static void bufs_free(jd *J, w29_bufs *B)
{
    jd_gbuf_free(J, &B->x), jd_gbuf_free(J, &B->y), jd_gbuf_free(J, &B->s);
    free(B->hx), free(B->hy), free(B->hs), free(B->ref);
}

/* The most elements and rows of a case: the shapes, the offset mixes and
 * the overflow cases. */
static size_t max_elems(void)
{
    size_t m = (size_t)W29_OFF_MAX_ROWS * W29_OFF_MAX_COLS;
    for (size_t i = 0; i < W29_N_SHAPES; i++)
        if (softmax_elems(W29_SHAPES[i][0], W29_SHAPES[i][1]) > m) m = softmax_elems(W29_SHAPES[i][0], W29_SHAPES[i][1]);
    for (size_t i = 0; i < W29_N_OV_COLS; i++)
        if ((size_t)W29_OV_ROWS * W29_OV_COLS[i] > m) m = (size_t)W29_OV_ROWS * W29_OV_COLS[i];
    return m;
}

static size_t max_rows(void)
{
    size_t m = W29_OFF_MAX_ROWS > W29_OV_ROWS ? W29_OFF_MAX_ROWS : W29_OV_ROWS;
    for (size_t i = 0; i < W29_N_SHAPES; i++)
        if ((size_t)W29_SHAPES[i][0] > m) m = (size_t)W29_SHAPES[i][0];
    return m;
}

/* Room for every case (x and y a float of lead besides). 0, or -1 with t
 * failed; bufs_free after either. */
static int bufs_alloc(jd *J, w29_bufs *B, jd_tally *t)
{
    const size_t maxn = max_elems(), rows = max_rows();
    memset(B, 0, sizeof *B);
    B->x.id = B->y.id = B->s.id = -1;
    if (jd_gbuf_alloc(J, &B->x, (maxn + 1) * 4, t) != 0 || jd_gbuf_alloc(J, &B->y, (maxn + 1) * 4, t) != 0 ||
        jd_gbuf_alloc(J, &B->s, rows * 4, t) != 0)
        return -1;
    if (!(B->hx = malloc((maxn + 1) * 4)) || !(B->hy = malloc((maxn + 1) * 4)) || !(B->hs = malloc(rows * 4)) ||
        !(B->ref = malloc((maxn + 1) * 8)))
        return jd_failf(t, "buffers: out of memory"), -1;
    return 0;
}

enum { CALL_RAN = 0, CALL_FAILED = 1, CALL_NO_GPU = 2, CALL_LOST = -1 };

/* One call of fn (W29_FN_NAIVE, W29_FN_STABLE) on B->hx (n + ox floats,
 * the call's x at hx + ox; none: NULL, as the test's wb_dcopy of 0 bytes
 * gives), y (n floats, oy floats into its buffer) poisoned, the naive
 * version's sums (rows floats, at least one) poisoned, then y read into
 * B->hy with its bands checked, and the sums' bands. CALL_RAN: y is in hy
 * for the caller's comparison; CALL_FAILED: t says why (an error status
 * with a GPU, a write outside y or the sums); CALL_NO_GPU: host buffers and
 * the call returned an error (no GPU code runs here: no verdict);
 * CALL_LOST: the runner or the judge's own copies failed (t says). */
static int softmax_call(jd *J, w29_bufs *B, int fn, int rows, int cols, size_t ox, size_t oy, const char *what,
                        jd_tally *t)
{
    const int naive = fn == W29_FN_NAIVE;
    const char *fn_name = naive ? "naive_softmax" : "stable_softmax";
    const size_t n = softmax_elems(rows, cols), srows = rows > 0 ? (size_t)rows : 1;
    t->tests++;
    if (gb_put(J, &B->x, B->hx, (n + ox) * 4) != 0 || gb_poison(J, &B->y, oy * 4, n * 4) != 0 ||
        (naive && gb_poison(J, &B->s, 0, srows * 4) != 0))
        return jd_failf(t, "%s: the judge's own copies failed", what), CALL_LOST;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, naive ? 3 : 2);
    jd_gbuf_arg(&rq, 0, n + ox ? &B->x : NULL, ox * 4);
    jd_gbuf_arg(&rq, 1, &B->y, oy * 4);
    if (naive) jd_gbuf_arg(&rq, 2, &B->s, 0);
    rq.i64[0] = (long long)n, rq.i64[1] = rows, rq.i64[2] = cols;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), CALL_LOST;
    if (rp.status != 0 && host_mode(J)) return t->tests--, CALL_NO_GPU;
    if (rp.status != 0) return jd_failf(t, "%s: %s returned %s", what, fn_name, status_name(rp.status)), CALL_FAILED;
    int f = gb_fetch(J, &B->y, oy * 4, n * 4, B->hy, "y", what, t);
    if (f == 0 && naive) f = gb_fetch(J, &B->s, 0, srows * 4, B->hs, "sums (rows floats)", what, t);
    return f < 0 ? CALL_LOST : f ? CALL_FAILED : CALL_RAN;
}

/* Every element of B->hy (n) against B->ref: the first wrong one, or one
 * still the poison where NaN is due, fails t. */
static void compare_all(const w29_bufs *B, size_t n, const char *what, jd_tally *t)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t got;
        memcpy(&got, &B->hy[i], 4);
        if (!wb_close(B->hy[i], B->ref[i], W29_ATOL, W29_RTOL)) {
            jd_failf(t, "%s: y[%zu] expected %.9g got %.9g", what, i, B->ref[i], (double)B->hy[i]);
            return;
        }
        if (isnan(B->ref[i]) && got == 0xffffffffu) {
            jd_failf(t, "%s: y[%zu], where NaN is expected, was never written (it still holds the poison)", what, i);
            return;
        }
    }
}

/* Without a GPU a FAIL stands only for a call that returned cudaSuccess:
 * say so after the message. */
static void judged_without_gpu(jd *J, jd_tally *t)
{
    size_t used = strlen(t->msg);
    if (t->failed && host_mode(J) && used < sizeof t->msg)
        snprintf(t->msg + used, sizeof t->msg - used,
                 " (judged without a GPU: the call returned cudaSuccess, so its output had to be there)");
}

/* ---------------------------------------------------------------- naive and stable */

/* The test's shapes then its offset mixes for fn, each drawn by the test's
 * tags. */
static void judge_rows(jd *J, jd_tally *t, int fn)
{
    const int stable = fn == W29_FN_STABLE;
    w29_bufs B;
    if (bufs_alloc(J, &B, t) == 0)
        for (int i = 0; i < (int)(W29_N_SHAPES + W29_N_OFFSETS) && !J->lost; i++) {
            const int shapes = i < (int)W29_N_SHAPES, c = shapes ? i : i - (int)W29_N_SHAPES;
            const char *tag = stable ? (shapes ? W29_STABLE_SHAPES_TAG : W29_STABLE_OFFSETS_TAG)
                                     : (shapes ? W29_NAIVE_SHAPES_TAG : W29_NAIVE_OFFSETS_TAG);
            wb_rng rng = wb_rng_for_seed(jd_seed, tag, c);
            int rows, cols;
            size_t ox = 0, oy = 0;
            if (shapes) rows = W29_SHAPES[c][0], cols = W29_SHAPES[c][1];
            else w29_offsets_shape(&rng, stable, &rows, &cols), ox = (size_t)(c & 1), oy = (size_t)(c >> 1);
            if (stable) w29_stable_case(&rng, rows, cols, ox, B.hx, B.ref);
            else w29_naive_case(&rng, rows, cols, ox, B.hx, B.ref);
            char what[200];
            if (stable)
                snprintf(what, sizeof what, "stable, rows=%d cols=%d, x+%zu y+%zu%s", rows, cols, ox, oy,
                         rows >= 8 && cols > 0 ? " " W29_STABLE_SPECIALS : "");
            else snprintf(what, sizeof what, "naive, rows=%d cols=%d, x+%zu y+%zu, logits in [-10, 10]", rows, cols, ox, oy);
            const int r = softmax_call(J, &B, fn, rows, cols, ox, oy, what, t);
            if (r == CALL_RAN) compare_all(&B, softmax_elems(rows, cols), what, t);
            if (r == CALL_LOST || r == CALL_NO_GPU) break;
        }
    bufs_free(J, &B);
    judged_without_gpu(J, t);
}

static void judge_naive_cpu(jd *J, jd_tally *t) { judge_rows(J, t, W29_FN_NAIVE); }
static void judge_naive(jd_ck *k) { judge_naive_cpu(k->J, k->t); }
static void judge_stable_cpu(jd *J, jd_tally *t) { judge_rows(J, t, W29_FN_STABLE); }
static void judge_stable(jd_ck *k) { judge_stable_cpu(k->J, k->t); }

/* ---------------------------------------------------------------- overflow */

/* Row by row as the test: every element written; the rows past the limit
 * with none right; the others right. */
static void overflow_rows(const w29_bufs *B, int cols, const char *what, jd_tally *t)
{
    for (int r = 0; r < W29_OV_ROWS; r++) {
        const float *g = B->hy + (size_t)r * cols;
        const double *w = B->ref + (size_t)r * cols;
        size_t unwritten, right;
        w29_ov_count(g, w, cols, &unwritten, &right);
        if (unwritten) {
            jd_failf(t, "%s: row %d (%s): %zu of %d elements never written (still the poison)", what, r,
                     W29_OV_WHAT[r], unwritten, cols);
            return;
        }
        if (w29_ov_must_fail(r) && right) {
            jd_failf(t,
                     "%s: row %d (%s): %zu of %d elements right, expected none: does your naive softmax "
                     "subtract the max? This exercise is the formula without it (that one is stable_softmax)",
                     what, r, W29_OV_WHAT[r], right, cols);
            return;
        }
        for (int j = 0; j < cols && !w29_ov_must_fail(r); j++)
            if (!wb_close(g[j], w[j], W29_ATOL, W29_RTOL)) {
                jd_failf(t, "%s: row %d (%s logits, first %g): y[%d] expected %.9g got %.9g", what, r,
                         W29_OV_WHAT[r], (double)B->hx[(size_t)r * cols], j, w[j], (double)g[j]);
                return;
            }
    }
}

static void judge_overflow_cpu(jd *J, jd_tally *t)
{
    w29_bufs B;
    if (bufs_alloc(J, &B, t) == 0)
        for (int i = 0; i < (int)W29_N_OV_COLS && !J->lost; i++) {
            const int cols = W29_OV_COLS[i];
            wb_rng rng = wb_rng_for_seed(jd_seed, W29_OVERFLOW_TAG, i);
            w29_overflow_case(&rng, cols, w29_limit_of(cols), B.hx, B.ref);
            char what[96];
            snprintf(what, sizeof what, "naive, %d rows x %d cols", W29_OV_ROWS, cols);
            const int r = softmax_call(J, &B, W29_FN_NAIVE, W29_OV_ROWS, cols, 0, 0, what, t);
            if (r == CALL_RAN) overflow_rows(&B, cols, what, t);
            if (r == CALL_LOST || r == CALL_NO_GPU) break;
        }
    bufs_free(J, &B);
    judged_without_gpu(J, t);
}

static void judge_overflow(jd_ck *k) { judge_overflow_cpu(k->J, k->t); }

/* No speed checkpoint: nothing is timed against COPY. The three GPU
 * checkpoints' cpu callbacks run only with JUDGE_W29_HOST_CHECKS=1 (main). */
static const jd_checkpoint CPS[] = {
    { "w29.limit", judge_limit_gpu, judge_limit, 1, 0, NULL },
    { "w29.naive", judge_naive, judge_naive_cpu, 0, 0, NULL },
    { "w29.overflow", judge_overflow, judge_overflow_cpu, 0, 0, NULL },
    { "w29.stable", judge_stable, judge_stable_cpu, 0, 0, NULL },
};
#define N_CPS ((int)(sizeof CPS / sizeof CPS[0]))

int main(int argc, char **argv)
{
    /* Without a GPU the GPU checkpoints' cases on host buffers only when asked
     * for (the judge's own test); else they SKIP, as the linked test's do and
     * every other judge's GPU checkpoints, so judged and linked agree */
    jd_checkpoint cps[N_CPS];
    memcpy(cps, CPS, sizeof CPS);
    const char *h = getenv("JUDGE_W29_HOST_CHECKS");
    if (!h || strcmp(h, "1") != 0)
        for (int k = 0; k < N_CPS; k++)
            if (cps[k].cpu != judge_limit) cps[k].cpu = NULL;
    return jd_week_main(argc, argv, "judge-w29", "phase6/week29", cps, N_CPS);
}
