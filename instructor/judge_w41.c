/* judge_w41.c — build/instructor/judge-w41: week 41's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (no JUDGED_WEEKS line, no
 * JUDGES row: the grader grades the week with its linked test until this
 * has run on a GPU; README.md's week 41 entry has the commands). It links
 * no student code: the student's ln_fwd.o is linked into the runner
 * (judge_w41_runner.c), which this process starts (or is handed) and asks
 * to call ln_fwd on buffers it allocated (judge.h). It poisons, fills and
 * checks, and writes the results record itself, outside the runner's reach.
 * The command line, the runner's start, the record and the guarded buffers
 * are judge_week.c's:
 *
 *   judge-w41 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The week's C checkpoint is judged here; its Python checkpoints
 * (test_week41.py: the autograd Function, w41.forward-speed among them) are
 * not the judge's business and stay with the week's Python test.
 *
 * The checks are test_week41.c's, shared through phase7/week41/
 * w41_checks.h (the shapes, the misaligned cases' draw, the row kinds and
 * specials, each case drawn as the test draws it for the seed:
 * wb_rng_for_seed with the test's tag; the double reference and its
 * tolerances); the argument cases are copied from the test. Every output
 * (y, mean, rstd) is a guarded buffer (jd_gbuf: a poisoned band each side,
 * 0xFF as the harness's wb_dout), read back whole, nothing written outside
 * it:
 *   w41.kernel  ln_fwd on the test's 22 shapes (0 x 7, 1 x 1, 9 x 1, cols 2,
 *               3, 5, 31, 33, 127, 128, 255, 1024, 1025, 4096, 4097, 8192,
 *               8193, 16384, 16385, 20000, 3000 x 64, 300 x 768), rows by
 *               r % 5 U(-5, 5), U(-1e4, 1e4), +-1e4 + U(-1, 1), a constant
 *               (variance 0), U(-1, 1), row 6 a NaN and row 8 an Inf: mean
 *               within 2e-6 max(|mean|, std), rstd within 2e-5 + 16 u
 *               |mean| rstd relative, y within 2e-5 (1 + |y|) plus what
 *               those carry (a NaN never passes where a number is due);
 *               a row holding a NaN or Inf NaN in all of y and in rstd, and
 *               (stricter than the test, as jd_case counts it) a y or rstd
 *               still the poison's bits there counted as not written; then
 *               the test's 6 misaligned cases (x, weight/bias or y one float
 *               past an aligned start, cols a multiple of 4 and not, 10 to
 *               40 rows); then the test's 7 argument cases (rows 0 with cols
 *               16 and 0 returning cudaSuccess, rows -1, cols 0 and -3, eps
 *               -1 and NaN returning cudaErrorInvalidValue), none writing
 *               a byte of y, mean or rstd.
 * The test also calls cudaDeviceSynchronize after each argument case; here
 * the runner synchronises after every call that returned success and a late
 * error becomes that call's status. Every checkpoint of the week's C test
 * is formed here: none is left to the linked test (the C test has no speed
 * checkpoint).
 *
 * The starter's ln_fwd returns cudaSuccess and writes nothing: w41.kernel
 * fails at its second shape (1 x 1: y[0][0] still the poison).
 *
 * Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS, the starter FAIL. Without one the checkpoint SKIPs (no CPU part):
 * instructor/tests/judge_w41.sh. */
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
#include "judge_w41.h"
#include "judge_week.h"
#include "w41_checks.h"
#include "wb_rand.h"

#define N_OF(a) W41_COUNT(a)
/* The caps over every case: W41_SHAPES and the misaligned ones (up to 40
 * rows of 6000 columns), plus the one float of an offset. */
#define CAP_N    (240000 + 4)
#define CAP_COLS (20000 + 4)
#define CAP_ROWS 3000

static const char *cuda_status(int st) { return st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st); }

/* ---------------------------------------------------------------- buffers and calls */

typedef struct {
    jd_gbuf x, w, b, y, m, r;
    float  *hx, *hw, *hb, *hy, *hm, *hr;
} w41_bufs;

static void bufs_init(w41_bufs *B)
{
    memset(B, 0, sizeof *B);
    B->x.id = B->w.id = B->b.id = B->y.id = B->m.id = B->r.id = -1;
}

static void bufs_free(jd *J, w41_bufs *B)
{
    jd_gbuf_free(J, &B->x), jd_gbuf_free(J, &B->w), jd_gbuf_free(J, &B->b);
    jd_gbuf_free(J, &B->y), jd_gbuf_free(J, &B->m), jd_gbuf_free(J, &B->r);
    free(B->hx), free(B->hw), free(B->hb), free(B->hy), free(B->hm), free(B->hr);
    bufs_init(B);
}

/* 0, or -1 with t failed; bufs_free after either. */
static int bufs_alloc(jd *J, w41_bufs *B, jd_tally *t)
{
    bufs_init(B);
    if (jd_gbuf_alloc(J, &B->x, CAP_N * 4, t) != 0 || jd_gbuf_alloc(J, &B->w, CAP_COLS * 4, t) != 0 ||
        jd_gbuf_alloc(J, &B->b, CAP_COLS * 4, t) != 0 || jd_gbuf_alloc(J, &B->y, CAP_N * 4, t) != 0 ||
        jd_gbuf_alloc(J, &B->m, CAP_ROWS * 4, t) != 0 || jd_gbuf_alloc(J, &B->r, CAP_ROWS * 4, t) != 0)
        return -1;
    if (!(B->hx = malloc(CAP_N * 4)) || !(B->hw = malloc(CAP_COLS * 4)) || !(B->hb = malloc(CAP_COLS * 4)) ||
        !(B->hy = malloc(CAP_N * 4)) || !(B->hm = malloc(CAP_ROWS * 4)) || !(B->hr = malloc(CAP_ROWS * 4)))
        return jd_failf(t, "buffers: out of memory"), -1;
    return 0;
}

/* ln_fwd on x (ox floats into its buffer; NULL where have_x is 0), weight
 * and bias (op floats in), y (oy floats in), mean, rstd: 0 with *st, or -1
 * with t failed (the runner is lost). */
static int fwd_call(jd *J, w41_bufs *B, int have_x, size_t ox, size_t op, size_t oy, int rows, int cols, float eps,
                    const char *what, int *st, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W41_FN_FWD, 1, 6);
    jd_gbuf_arg(&rq, 0, have_x ? &B->x : NULL, ox * 4);
    jd_gbuf_arg(&rq, 1, &B->w, op * 4), jd_gbuf_arg(&rq, 2, &B->b, op * 4);
    jd_gbuf_arg(&rq, 3, &B->y, oy * 4), jd_gbuf_arg(&rq, 4, &B->m, 0), jd_gbuf_arg(&rq, 5, &B->r, 0);
    rq.i64[1] = rows, rq.i64[2] = cols, rq.f64[0] = (double)eps;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    *st = rp.status;
    return 0;
}

/* test_week41.c's check_fwd (its draws and checks w41_checks.h's): one run on fresh inputs, x at ox floats past an
 * aligned address, weight and bias at op, y at oy (poisoned, guarded), mean
 * and rstd guarded. 0 ran (passed or t failed), -1 the runner or the
 * judge's copies failed. */
static int check_fwd(jd *J, w41_bufs *B, wb_rng *rng, int rows, int cols, size_t ox, size_t op, size_t oy, jd_tally *t)
{
    const size_t n = (size_t)rows * (size_t)cols;
    float *hx = B->hx + ox, *hw = B->hw + op, *hb = B->hb + op;
    wb_fill_uniform_f32(rng, B->hx, ox, -1, 1);
    wb_fill_uniform_f32(rng, B->hw, op, -1, 1);
    wb_fill_uniform_f32(rng, B->hb, op, -1, 1);
    w41_fill_rows(rng, hx, rows, cols, 1);
    wb_fill_uniform_f32(rng, hw, (size_t)cols, -1.5f, 1.5f);
    wb_fill_uniform_f32(rng, hb, (size_t)cols, -1, 1);
    char what[160], msg[600];
    snprintf(what, sizeof what, "ln_fwd, rows=%d cols=%d, x+%zu weight/bias+%zu y+%zu", rows, cols, ox, op, oy);
    t->tests++;
    if (jd_gbuf_put(&B->x, 0, B->hx, (n + ox) * 4) != 0 || jd_gbuf_put(&B->w, 0, B->hw, ((size_t)cols + op) * 4) != 0 ||
        jd_gbuf_put(&B->b, 0, B->hb, ((size_t)cols + op) * 4) != 0 || jd_gbuf_poison(&B->y, oy * 4, n * 4) != 0 ||
        jd_gbuf_poison(&B->m, 0, (size_t)rows * 4) != 0 || jd_gbuf_poison(&B->r, 0, (size_t)rows * 4) != 0)
        return jd_failf(t, "%s: the judge's own copies failed", what), -1;
    int st;
    if (fwd_call(J, B, n + ox > 0, ox, op, oy, rows, cols, W41_EPS, what, &st, t) != 0) return -1;
    if (st != 0) return jd_failf(t, "%s: ln_fwd returned %s", what, cuda_status(st)), 0;
    int f = jd_gbuf_fetch(&B->y, oy * 4, n * 4, B->hy, "y", what, t);
    if (!f) f = jd_gbuf_fetch(&B->m, 0, (size_t)rows * 4, B->hm, "mean", what, t);
    if (!f) f = jd_gbuf_fetch(&B->r, 0, (size_t)rows * 4, B->hr, "rstd", what, t);
    if (f) return f < 0 ? -1 : 0;
    size_t bad = w41_compare(hx, hw, hb, B->hy, B->hm, B->hr, rows, cols, 1, msg, sizeof msg);
    if (bad)
        jd_failf(t, "%s (rows by r %% 5: U(-5,5), U(-1e4,1e4), +-1e4 + U(-1,1), constant, U(-1,1)%s): %zu wrong%s", what,
                 rows >= 7 ? "; row 6 a NaN, row 8 an Inf" : "", bad, msg);
    return 0;
}

/* ---------------------------------------------------------------- w41.kernel */

/* test_week41.c's fwd_args: rows == 0 succeeds and writes nothing; rows < 0,
 * cols <= 0, eps < 0 or NaN are cudaErrorInvalidValue and write nothing. */
static void fwd_args(jd *J, w41_bufs *B, jd_tally *t)
{
    static const struct { int rows, cols; float eps; int want; } CASES[] = {
        { 0, 16, 1e-5f, (int)cudaSuccess },           { 0, 0, 1e-5f, (int)cudaSuccess },
        { -1, 16, 1e-5f, (int)cudaErrorInvalidValue }, { 4, 0, 1e-5f, (int)cudaErrorInvalidValue },
        { 4, -3, 1e-5f, (int)cudaErrorInvalidValue }, { 4, 16, -1.f, (int)cudaErrorInvalidValue },
        { 4, 16, NAN, (int)cudaErrorInvalidValue },
    };
    wb_rng rng = wb_rng_for_seed(jd_seed, W41_ARGS_TAG, 0);
    wb_fill_uniform_f32(&rng, B->hx, 64, -1, 1);
    wb_fill_uniform_f32(&rng, B->hw, 16, -1, 1);
    t->tests++;
    if (jd_gbuf_put(&B->x, 0, B->hx, 64 * 4) != 0 || jd_gbuf_put(&B->w, 0, B->hw, 16 * 4) != 0 ||
        jd_gbuf_put(&B->b, 0, B->hw, 16 * 4) != 0) {
        jd_failf(t, "ln_fwd's argument cases: the judge's own copies failed");
        return;
    }
    for (size_t c = 0; c < N_OF(CASES); c++) {
        char what[120];
        snprintf(what, sizeof what, "ln_fwd(rows=%d, cols=%d, eps=%g)", CASES[c].rows, CASES[c].cols,
                 (double)CASES[c].eps);
        if (jd_gbuf_poison(&B->y, 0, 64 * 4) != 0 || jd_gbuf_poison(&B->m, 0, 4 * 4) != 0 ||
            jd_gbuf_poison(&B->r, 0, 4 * 4) != 0) {
            jd_failf(t, "%s: the judge's own copies failed", what);
            return;
        }
        int st;
        if (fwd_call(J, B, 1, 0, 0, 0, CASES[c].rows, CASES[c].cols, CASES[c].eps, what, &st, t) != 0) return;
        if (st != CASES[c].want) {
            jd_failf(t, "%s returned %s, expected %s", what, cuda_status(st), cudaGetErrorName((cudaError_t)CASES[c].want));
            return;
        }
        int f = jd_gbuf_fetch(&B->y, 0, 64 * 4, B->hy, "y", what, t);
        if (!f) f = jd_gbuf_fetch(&B->m, 0, 4 * 4, B->hm, "mean", what, t);
        if (!f) f = jd_gbuf_fetch(&B->r, 0, 4 * 4, B->hr, "rstd", what, t);
        if (f) return;
        size_t touched = 0;
        const unsigned char *u[3] = { (const unsigned char *)B->hy, (const unsigned char *)B->hm,
                                      (const unsigned char *)B->hr };
        const size_t nb[3] = { 64 * 4, 4 * 4, 4 * 4 };
        for (int k = 0; k < 3; k++)
            for (size_t i = 0; i < nb[k]; i++) touched += u[k][i] != 0xff;
        if (touched) {
            jd_failf(t, "%s wrote %zu bytes; it must write nothing", what, touched);
            return;
        }
    }
}

static void judge_kernel(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    w41_bufs B;
    int rc = bufs_alloc(J, &B, t);
    /* fwd_shapes: each shape on fresh inputs, aligned */
    for (int i = 0; i < (int)N_OF(W41_SHAPES) && rc == 0 && !J->lost && !t->failed; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W41_SHAPES_TAG, i);
        rc = check_fwd(J, &B, &rng, W41_SHAPES[i][0], W41_SHAPES[i][1], 0, 0, 0, t);
    }
    /* fwd_offsets: x, weight/bias or y one float past an aligned start, cols % 4 == 0 (k < 3) and not */
    for (int i = 0; i < W41_OFFSET_CASES && rc == 0 && !J->lost && !t->failed; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W41_OFFSETS_TAG, i);
        int rows, cols;
        size_t ox, op, oy;
        w41_offset_case(&rng, i, &rows, &cols, &ox, &op, &oy);
        rc = check_fwd(J, &B, &rng, rows, cols, ox, op, oy, t);
    }
    if (rc == 0 && !J->lost && !t->failed) fwd_args(J, &B, t);
    bufs_free(J, &B);
}

static const jd_checkpoint CPS[] = {
    { "w41.kernel", judge_kernel, NULL, 0, 0, NULL },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w41", "phase7/week41", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
