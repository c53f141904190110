/* judge_w42.c — build/instructor/judge-w42: week 42's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (no JUDGED_WEEKS line, no
 * JUDGES row: the grader grades the week with its linked test until this
 * has run on a GPU; README.md's week 42 entry has the commands). It links
 * no student code: the student's ln_bwd.o is linked into the runner
 * (judge_w42_runner.c), which this process starts (or is handed) and asks
 * to call the week's functions on buffers it allocated (judge.h). It
 * poisons, fills and checks, and writes the results record itself, outside
 * the runner's reach. The command line, the runner's start, the record and
 * the guarded buffers are judge_week.c's:
 *
 *   judge-w42 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The week's C checkpoint is judged here; its Python checkpoints
 * (test_week42.py: the Function's backward, w42.backward-speed among them)
 * are not the judge's business and stay with the week's Python test.
 *
 * The checks are test_week42.c's, shared through phase7/week42/
 * w42_checks.h (the shapes, the row kinds and the NaN, each case drawn as
 * the test draws it for the seed: wb_rng_for_seed with the test's tag; the
 * double reference and its tolerances); the argument cases are copied
 * from the test. ln_bwd_f32/_f64 take nine pointers, more than a call's
 * JD_MAX_ARGS: the five inputs go in one buffer, each at a 256-byte aligned
 * offset (as the test's separate cudaMallocs), NULL where the test's copy
 * of 0 bytes is NULL (judge_w42.h). The workspace is the size the student's
 * ln_bwd_workspace_bytes gives (asked of the runner, at most 4 GiB), a
 * guarded buffer poisoned (0xFF) before the first run (the test's is
 * cudaMalloc'd, not set: the contract promises no zeros) and left as the
 * first run left it for the second, NULL where the size is 0 (as the test);
 * nothing may be written outside it. dx, dweight and dbias are guarded
 * buffers, poisoned before each run, read back whole, nothing written
 * outside them:
 *   w42.kernel  ln_bwd_f32, then ln_bwd_f64, on the test's 15 shapes (0 x 5,
 *               1 x 1, 7 x 1, 3 x 7, 5 x 33, 9 x 127, 4 x 255, 33 x 1024,
 *               9 x 1025, 17 x 4096, 5 x 8193, 3 x 20000, 3000 x 64,
 *               1000 x 257, 40000 x 3), x by r % 4 U(-3, 3), 1e4 + U(-1, 1),
 *               constant, U(-1e3, 1e3), dy U(-1, 1), weight U(-1.5, 1.5), mean
 *               and rstd as the forward saves them rounded to the type: dx,
 *               dweight and dbias against the double reference within the
 *               test's 8 u and 2 u of what is summed (u 2e-5 in float, 1e-12
 *               in double; rows 0: dweight = dbias = 0); then a NaN in dy[1]
 *               (6 x 33 in double, 6 x 1000 in float): NaN in row 1 of dx and
 *               in that column of dweight and dbias (the poison's bits there
 *               counted as not written, as jd_case counts them: stricter than
 *               the test); each case run twice, the second's bits the
 *               first's; then the test's argument cases in double and float
 *               (rows -1, cols -1 returning cudaErrorInvalidValue, cols 0
 *               cudaSuccess), none writing a byte of the outputs.
 * The test also calls cudaDeviceSynchronize after each argument case; here
 * the runner synchronises after every call that returned success and a late
 * error becomes that call's status. Every checkpoint of the week's C test
 * is formed here: none is left to the linked test (the C test has no speed
 * checkpoint).
 *
 * The starter's functions return cudaSuccess (and a workspace of 0 bytes)
 * and write nothing: w42.kernel fails at its first shape (0 x 5:
 * dweight[0] still the poison where 0 is due).
 *
 * Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS, the starter FAIL. Without one the checkpoint SKIPs (no CPU part):
 * instructor/tests/judge_w42.sh. */
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
#include "judge_w42.h"
#include "judge_week.h"
#include "w42_checks.h"
#include "wb_rand.h"

#define N_OF(a) W42_COUNT(a)

/* The caps over every case (1000 x 257 is the most elements, 40000 the most
 * rows, 20000 the most columns), in elements. */
#define CAP_N    257000
#define CAP_ROWS 40000
#define CAP_COLS 20000
#define A256(v)  (((v) + 255) & ~(size_t)255)
#define CAP_IN   (2 * A256((size_t)CAP_N * 8) + A256((size_t)CAP_COLS * 8) + 2 * A256((size_t)CAP_ROWS * 8))
#define CAP_WS   ((size_t)4 << 30)

static const char *cuda_status(int st) { return st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st); }

/* ---------------------------------------------------------------- the test's case and reference */

static void free_case(w42_case *c) { free(c->x), free(c->dy), free(c->w), free(c->mean), free(c->rstd); }

/* One case's inputs drawn as the test draws them (w42_fill_case): 0, or -1
 * (out of memory; free_case after either). */
static int make_case(w42_case *c, wb_rng *rng, int rows, int cols, int f32, int nan)
{
    *c = (w42_case){ rows, cols, NULL, NULL, NULL, NULL, NULL };
    size_t n = (size_t)rows * cols;
    c->x = malloc(n * 8 + 8), c->dy = malloc(n * 8 + 8), c->w = malloc((size_t)cols * 8 + 8);
    c->mean = malloc((size_t)rows * 8 + 8), c->rstd = malloc((size_t)rows * 8 + 8);
    if (!c->x || !c->dy || !c->w || !c->mean || !c->rstd) return -1;
    w42_fill_case(rng, c, f32, nan);
    return 0;
}

/* ---------------------------------------------------------------- buffers and calls */

typedef struct {
    jd_gbuf        in, dx, dw, db;
    unsigned char *hin, *h[2][3], *hws;
} w42_bufs;

static void bufs_init(w42_bufs *B)
{
    memset(B, 0, sizeof *B);
    B->in.id = B->dx.id = B->dw.id = B->db.id = -1;
}

static void bufs_free(jd *J, w42_bufs *B)
{
    jd_gbuf_free(J, &B->in), jd_gbuf_free(J, &B->dx), jd_gbuf_free(J, &B->dw), jd_gbuf_free(J, &B->db);
    free(B->hin), free(B->hws);
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < 3; k++) free(B->h[r][k]);
    bufs_init(B);
}

/* 0, or -1 with t failed; bufs_free after either. */
static int bufs_alloc(jd *J, w42_bufs *B, jd_tally *t)
{
    bufs_init(B);
    if (jd_gbuf_alloc(J, &B->in, CAP_IN, t) != 0 || jd_gbuf_alloc(J, &B->dx, (size_t)CAP_N * 8, t) != 0 ||
        jd_gbuf_alloc(J, &B->dw, (size_t)CAP_COLS * 8, t) != 0 || jd_gbuf_alloc(J, &B->db, (size_t)CAP_COLS * 8, t) != 0)
        return -1;
    if (!(B->hin = malloc(CAP_IN))) return jd_failf(t, "buffers: out of memory"), -1;
    for (int r = 0; r < 2; r++)
        if (!(B->h[r][0] = malloc((size_t)CAP_N * 8)) || !(B->h[r][1] = malloc((size_t)CAP_COLS * 8)) ||
            !(B->h[r][2] = malloc((size_t)CAP_COLS * 8)))
            return jd_failf(t, "buffers: out of memory"), -1;
    return 0;
}

/* ln_bwd_workspace_bytes(rows, cols, es) from the runner: 0 with *bytes, or
 * -1 with t failed. */
static int ws_bytes(jd *J, int rows, int cols, size_t es, size_t *bytes, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W42_FN_WS, 1, 0);
    rq.i64[1] = rows, rq.i64[2] = cols, rq.i64[3] = (long long)es;
    if (jd_call(J, &rq, &rp, NULL) != 0)
        return jd_failf(t, "ln_bwd_workspace_bytes(%d, %d, %zu): %s", rows, cols, es, J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *bytes)
        return jd_failf(t, "ln_bwd_workspace_bytes(%d, %d, %zu): the runner did not answer with its size", rows, cols,
                        es),
               -1;
    memcpy(bytes, rp.out, sizeof *bytes);
    if (*bytes > CAP_WS)
        return jd_failf(t, "ln_bwd_workspace_bytes(%d, %d, %zu) returned %zu bytes (more than the judge's cap, %zu)",
                        rows, cols, es, *bytes, CAP_WS),
               -1;
    return 0;
}

/* One call of ln_bwd_f32 (f32) or ln_bwd_f64 on the blob `in` (byte offsets
 * off[5] of x, dy, weight, mean, rstd, < 0 for NULL), outputs dx, dw, db,
 * workspace ws (NULL for none): 0 with *st, or -1 with t failed (the runner is lost). */
static int bwd_call(jd *J, int f32, const jd_gbuf *in, const long long off[5], const jd_gbuf *dx, const jd_gbuf *dw,
                    const jd_gbuf *db, const jd_gbuf *ws, int rows, int cols, const char *what, int *st, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, f32 ? W42_FN_F32 : W42_FN_F64, 1, 5);
    jd_gbuf_arg(&rq, 0, in, 0), jd_gbuf_arg(&rq, 1, dx, 0), jd_gbuf_arg(&rq, 2, dw, 0), jd_gbuf_arg(&rq, 3, db, 0);
    jd_gbuf_arg(&rq, 4, ws, 0);
    rq.i64[1] = rows, rq.i64[2] = cols;
    for (int k = 0; k < 5; k++) rq.i64[W42_IN_X + k] = off[k];
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    *st = rp.status;
    return 0;
}

/* The type's copy of n doubles at hin + off. */
static void put_typed(unsigned char *hin, size_t off, const double *h, size_t n, int f32)
{
    for (size_t i = 0; i < n; i++) {
        if (f32) {
            float v = (float)h[i];
            memcpy(hin + off + 4 * i, &v, 4);
        } else
            memcpy(hin + off + 8 * i, &h[i], 8);
    }
}

/* test_week42.c's check_bwd (its draws and checks w42_checks.h's): the backward of type f32 (1) or f64 (0) on a
 * fresh case, against the double reference; then a second run, compared
 * bit for bit. 0 ran (passed or t failed), -1 the runner or the judge's
 * copies failed. */
static int check_bwd(jd *J, w42_bufs *B, wb_rng *rng, int rows, int cols, int f32, int nan, jd_tally *t)
{
    char what[160], msg[600];
    snprintf(what, sizeof what, "ln_bwd_%s, rows=%d cols=%d%s", f32 ? "f32" : "f64", rows, cols,
             nan ? ", a NaN in dy[1]" : "");
    t->tests++;
    w42_case c;
    int rc = 0;
    jd_gbuf ws = { -1, NULL, 0 };
    if (make_case(&c, rng, rows, cols, f32, nan) != 0) {
        free_case(&c);
        return jd_failf(t, "%s: out of memory", what), -1;
    }
    const size_t n = (size_t)rows * cols, es = f32 ? 4 : 8;
    /* the inputs' blob: each at a 256-byte aligned offset, NULL (< 0) where the test's copy of 0 bytes is NULL */
    const size_t o_dy = A256(n * es), o_w = o_dy + A256(n * es), o_m = o_w + A256((size_t)cols * es),
                 o_r = o_m + A256((size_t)rows * es), in_bytes = o_r + (size_t)rows * es;
    const long long off[5] = { n ? 0 : -1, n ? (long long)o_dy : -1, cols ? (long long)o_w : -1,
                               rows ? (long long)o_m : -1, rows ? (long long)o_r : -1 };
    put_typed(B->hin, 0, c.x, n, f32), put_typed(B->hin, o_dy, c.dy, n, f32);
    put_typed(B->hin, o_w, c.w, (size_t)cols, f32), put_typed(B->hin, o_m, c.mean, (size_t)rows, f32);
    put_typed(B->hin, o_r, c.rstd, (size_t)rows, f32);
    size_t wsb = 0;
    if (jd_gbuf_put(&B->in, 0, B->hin, in_bytes) != 0) {
        jd_failf(t, "%s: the judge's own copies failed", what);
        rc = -1;
        goto out;
    }
    if (ws_bytes(J, rows, cols, es, &wsb, t) != 0) goto out;
    if (wsb) {
        if (jd_gbuf_alloc(J, &ws, wsb, t) != 0) goto out;
        free(B->hws);
        if (!(B->hws = malloc(wsb))) {
            jd_failf(t, "%s: out of memory", what);
            goto out;
        }
        if (jd_gbuf_poison(&ws, 0, wsb) != 0) {
            jd_failf(t, "%s: the judge's own copies failed", what);
            rc = -1;
            goto out;
        }
    }
    for (int run = 0; run < 2; run++) {
        if (jd_gbuf_poison(&B->dx, 0, n * es) != 0 || jd_gbuf_poison(&B->dw, 0, (size_t)cols * es) != 0 ||
            jd_gbuf_poison(&B->db, 0, (size_t)cols * es) != 0) {
            jd_failf(t, "%s: the judge's own copies failed", what);
            rc = -1;
            goto out;
        }
        int st;
        if (bwd_call(J, f32, &B->in, off, &B->dx, &B->dw, &B->db, wsb ? &ws : NULL, rows, cols, what, &st, t) != 0) {
            rc = -1;
            goto out;
        }
        if (st != 0) {
            jd_failf(t, "%s%s: ln_bwd_%s returned %s", what, run ? " (the second run)" : "", f32 ? "f32" : "f64",
                     cuda_status(st));
            goto out;
        }
        int f = jd_gbuf_fetch(&B->dx, 0, n * es, B->h[run][0], "dx", what, t);
        if (!f) f = jd_gbuf_fetch(&B->dw, 0, (size_t)cols * es, B->h[run][1], "dweight", what, t);
        if (!f) f = jd_gbuf_fetch(&B->db, 0, (size_t)cols * es, B->h[run][2], "dbias", what, t);
        if (!f && wsb) f = jd_gbuf_fetch(&ws, 0, wsb, B->hws, "the workspace", what, t);
        if (f) {
            rc = f < 0 ? -1 : 0;
            goto out;
        }
    }
    size_t bad = w42_compare(&c, B->h[0][0], B->h[0][1], B->h[0][2], f32, 1, msg, sizeof msg);
    if (bad) {
        jd_failf(t, "%s (rows by r %% 4: U(-3,3), 1e4 + U(-1,1), constant, U(-1e3,1e3)): %zu wrong%s", what, bad, msg);
        goto out;
    }
    static const char *const NAMES[3] = { "dx", "dweight", "dbias" };
    const size_t nb[3] = { n * es, (size_t)cols * es, (size_t)cols * es };
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < nb[k]; i++)
            if (B->h[0][k][i] != B->h[1][k][i]) {
                jd_failf(t, "%s: a second run on the same inputs gave other bits (%s[%zu] first; atomics in the column "
                         "sums?)", what, NAMES[k], i / es);
                goto out;
            }
out:
    jd_gbuf_free(J, &ws);
    free_case(&c);
    return rc;
}

/* ---------------------------------------------------------------- w42.kernel */

/* test_week42.c's bwd_args: rows < 0 or cols < 0 cudaErrorInvalidValue,
 * cols == 0 cudaSuccess; none writes its outputs (one buffer of 64 doubles
 * passed as dx, dweight and dbias, as the test's). */
static void bwd_args(jd *J, w42_bufs *B, jd_tally *t)
{
    static const struct { int rows, cols, want; } CASES[] = {
        { -1, 4, (int)cudaErrorInvalidValue }, { 4, -1, (int)cudaErrorInvalidValue }, { 4, 0, (int)cudaSuccess } };
    wb_rng rng = wb_rng_for_seed(jd_seed, "bwd_args_fn", 0);
    double h[64];
    wb_fill_uniform_f64(&rng, h, 64, -1, 1);
    t->tests++;
    if (jd_gbuf_put(&B->in, 0, h, sizeof h) != 0) {
        jd_failf(t, "ln_bwd's argument cases: the judge's own copies failed");
        return;
    }
    const long long off[5] = { 0, 0, 0, 0, 0 };
    for (size_t k = 0; k < N_OF(CASES); k++)
        for (int f32 = 0; f32 < 2; f32++) {
            char what[80];
            snprintf(what, sizeof what, "ln_bwd_%s(rows=%d, cols=%d)", f32 ? "f32" : "f64", CASES[k].rows,
                     CASES[k].cols);
            if (jd_gbuf_poison(&B->dx, 0, 64 * 8) != 0) {
                jd_failf(t, "%s: the judge's own copies failed", what);
                return;
            }
            int st;
            if (bwd_call(J, f32, &B->in, off, &B->dx, &B->dx, &B->dx, NULL, CASES[k].rows, CASES[k].cols, what, &st,
                         t) != 0)
                return;
            if (st != CASES[k].want) {
                jd_failf(t, "%s returned %s, expected %s", what, cuda_status(st),
                         cudaGetErrorName((cudaError_t)CASES[k].want));
                return;
            }
            if (jd_gbuf_fetch(&B->dx, 0, 64 * 8, B->h[0][0], "dx/dweight/dbias", what, t)) return;
            for (size_t i = 0; i < 64 * 8; i++)
                if (B->h[0][0][i] != 0xff) {
                    jd_failf(t, "%s wrote to its outputs; it must write nothing", what);
                    return;
                }
        }
}

static void judge_kernel(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    w42_bufs B;
    int rc = bufs_alloc(J, &B, t);
#define GO (rc == 0 && !J->lost && !t->failed)
    for (int i = 0; i < (int)N_OF(W42_SHAPES) && GO; i++) { /* bwd_f32 */
        wb_rng rng = wb_rng_for_seed(jd_seed, W42_F32_TAG, i);
        rc = check_bwd(J, &B, &rng, W42_SHAPES[i][0], W42_SHAPES[i][1], 1, 0, t);
    }
    for (int i = 0; i < (int)N_OF(W42_SHAPES) && GO; i++) { /* bwd_f64 */
        wb_rng rng = wb_rng_for_seed(jd_seed, W42_F64_TAG, i);
        rc = check_bwd(J, &B, &rng, W42_SHAPES[i][0], W42_SHAPES[i][1], 0, 0, t);
    }
    for (int i = 0; i < W42_NAN_CASES && GO; i++) { /* bwd_nan: 6 x 33 in double, 6 x 1000 in float */
        wb_rng rng = wb_rng_for_seed(jd_seed, W42_NAN_TAG, i);
        rc = check_bwd(J, &B, &rng, 6, W42_NAN_COLS(i), i & 1, 1, t);
    }
    if (GO) bwd_args(J, &B, t);
#undef GO
    bufs_free(J, &B);
}

static const jd_checkpoint CPS[] = {
    { "w42.kernel", judge_kernel, NULL, 0, 0, NULL },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w42", "phase7/week42", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
