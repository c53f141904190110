/* judge_w32.c — build/instructor/judge-w32: week 32's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's ln_host.o, ln_dx.o and ln_dgb.o are linked into the runner
 * (judge_w32_runner.c), which this process starts (or is handed) and asks
 * to call them on buffers it allocated (judge.h). It poisons, fills, times
 * and checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record, the guarded
 * buffers, the timed-call protocol and the COPY yardstick are judge_week.c's:
 *
 *   judge-w32 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week32.c's (shared through phase6/week32/w32_checks.h:
 * the forward, the reference, the cases, how each is drawn, the
 * tolerances), each case drawn as the test draws it for the seed
 * (wb_rng_for_seed with the test's tag):
 *   w32.gradcheck  ln_host_backward, a CPU function, on host memory both
 *                  processes map (judged with or without a GPU; without
 *                  one the runner opens none): the test's 7 small shapes
 *                  against central differences of the forward (h = 1e-5,
 *                  the judge's own reference checked against them first),
 *                  at 1e-6 + 1e-6 |ref|, then its 5 wider shapes (rows 0
 *                  and cols 0 included) against the reference at 1e-12 of
 *                  each result's scale; the outputs poisoned (NaN) and a
 *                  poisoned guard band each side checked untouched;
 *   w32.dx         ln_dx_backward on the test's 20 shapes (cols 1 to
 *                  20000, rows 1 to 40000, empty ones), its 8 offset mixes
 *                  (x, dy, gamma, mean/rstd and dx each misaligned) and its
 *                  2 cases with a NaN in dy[2][5], the rows of 1e4, the
 *                  constant rows and the dy of 1e4 of make_inputs; every
 *                  element within 3e-5 of its row's scale + 3e-5 |ref|, a
 *                  NaN reference wanting a NaN (the poison left there
 *                  counted as not written), dx guarded (nothing written
 *                  outside it). mean and rstd travel in one buffer (rstd a
 *                  fixed stride after mean, both at the case's offset);
 *   w32.dgb        ln_dgb_backward on the test's 14 shapes, 4 offset mixes
 *                  and 2 NaN cases, a workspace of the size the student's
 *                  ln_dgb_workspace_bytes reports (asked through the runner
 *                  for each case, at most 1 GiB; none where it says 0),
 *                  poisoned before each call, its guard band checked;
 *                  dgamma and dbeta each guarded, within 3e-5 of each
 *                  column's scale + 3e-5 |ref|; then the call again on
 *                  poisoned outputs and a poisoned workspace, and the two
 *                  runs' dgamma and dbeta, both fetched by the judge, the
 *                  same bits (deterministic);
 *   w32.dx-bw, w32.dgb-bw
 *                  the timed-call protocol (judge_week.h) at each of the
 *                  test's three widths (1024, 4096 and 8192 columns,
 *                  wb_bench_bytes() / 4 / cols rows): up to 64 calls a
 *                  request, each on its own inputs and output, fresh inputs
 *                  from the hidden seed before every request (x and dy in
 *                  [-1, 1), gamma in [0.5, 1.5), mean and rstd of a
 *                  forward's size, as the test's), a poisoned output (and
 *                  workspace), the judge's look after the reply and every
 *                  output checked in full by the judge's kernels
 *                  (judge_w32_kernels.cu: every element of dx at the test's
 *                  1e-4 + 1e-4 |ref|, its row's sums in double; both arrays
 *                  of dgamma and dbeta at 1e-5 rows + 1e-5 |ref|; the test
 *                  samples them); the median of 7 requests a width. The
 *                  figure is GB/s of the bytes the test counts (dx: 12 an
 *                  element + gamma + mean/rstd; dgamma/dbeta: 8 an element
 *                  + mean/rstd + the two outputs, the workspace not
 *                  counted), against COPY of an array of wb_bench_bytes()
 *                  (read and written: copy_yard 8), timed through the same
 *                  protocol (jd_copy_yard; the test copies rows x cols
 *                  floats, the same bytes to within a row), and the
 *                  checkpoint's figure is the lowest ratio of the three
 *                  widths, as the test's; a width whose timed run fails is
 *                  the verdict (the test's invalid row is its headline).
 *                  gamma, mean and rstd travel after x in x's buffer, the
 *                  workspace 256-byte aligned after them, dbeta after
 *                  dgamma in the output (the protocol gives a call two
 *                  inputs and one output).
 * Every checkpoint of week 32 is judged: none is left to the linked test.
 * On an H200 (2026-11-29), alone over the reference's and the starter's
 * runners, plain and sandboxed: the reference PASSed all five, the
 * starter FAILed all five; not yet through the grader there (instructor/
 * README.md's week 32 entry says how to run it). Without a GPU the
 * plumbing is tested by instructor/tests/judge_w32.sh
 * (w32.gradcheck PASS for the reference and FAIL for the starter; every
 * other checkpoint SKIP, never PASS). */
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
#include "judge_w32.h"
#include "judge_w32_kernels.h"
#include "judge_week.h"
#include "w32_checks.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cuda.h"

#define TIMED 7
#define W32_WS_CAP ((size_t)1 << 30) /* the most workspace the judge gives ln_dgb_backward */
#define BAND 64                      /* doubles of poison each side of the host outputs */

static const char *status_name(int st) { return st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st); }

static size_t nn(int v) { return v > 0 ? (size_t)v : 0; }

/* ---------------------------------------------------------------- gradcheck (CPU) */

/* Host memory both processes map: the inputs one after another, the
 * outputs between two poisoned bands (judge_w32.h, W32_FN_HOST). */
typedef struct {
    int     iin, iout;
    double *in, *out;
    size_t  in_cap, out_cap; /* doubles */
} host_bufs;

/* ln_host_backward through the runner on h's inputs: the inputs copied in,
 * the outputs poisoned (0xFF bytes: NaN, as wb_hpoison) with their bands,
 * then read back into h's yx, yg, yb. 0, 1 (failed: t says), -1 (the
 * runner is gone). */
static int host_call(jd *J, host_bufs *H, host_case *h, const char *what, jd_tally *t)
{
    const size_t n = h->n, nr = nn(h->rows), nc = nn(h->cols), outs = n + 2 * nc;
    double *p = H->in;
    memcpy(p, h->x, n * 8), p += n;
    memcpy(p, h->gamma, nc * 8), p += nc;
    memcpy(p, h->mean, nr * 8), p += nr;
    memcpy(p, h->rstd, nr * 8), p += nr;
    memcpy(p, h->dy, n * 8);
    memset(H->out, 0xff, (outs + 2 * BAND) * 8);
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W32_FN_HOST, 1, 2);
    rq.arg_buf[0][0] = H->iin, rq.arg_buf[0][1] = H->iout, rq.arg_off[0][1] = BAND * 8;
    rq.i64[1] = h->rows, rq.i64[2] = h->cols;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0) return jd_failf(t, "%s: ln_host_backward: %s", what, status_name(rp.status)), 1;
    const unsigned char *o = (const unsigned char *)H->out;
    for (size_t b = 0; b < (outs + 2 * BAND) * 8; b++) {
        if (b == BAND * 8) b += outs * 8;
        if (b < (outs + 2 * BAND) * 8 && o[b] != 0xff)
            return jd_failf(t, "%s: written outside dx, dgamma and dbeta (%lld bytes from dx's start)", what,
                            (long long)b - BAND * 8),
                   1;
    }
    memcpy(h->yx, H->out + BAND, n * 8), memcpy(h->yg, H->out + BAND + n, nc * 8);
    memcpy(h->yb, H->out + BAND + n + nc, nc * 8);
    return 0;
}

/* Room for the largest case of both lists. */
static int host_bufs_alloc(jd *J, host_bufs *H, jd_tally *t)
{
    size_t in = 0, out = 0;
    for (size_t i = 0; i < W32_COUNT(GC) + W32_COUNT(HS); i++) {
        const int *s = i < W32_COUNT(GC) ? GC[i] : HS[i - W32_COUNT(GC)];
        const size_t n = nn(s[0]) * nn(s[1]);
        if (2 * n + nn(s[1]) + 2 * nn(s[0]) > in) in = 2 * n + nn(s[1]) + 2 * nn(s[0]);
        if (n + 2 * nn(s[1]) > out) out = n + 2 * nn(s[1]);
    }
    H->in_cap = in, H->out_cap = out;
    H->iin = jd_alloc_kind(J, JD_MEM_HOST, (in + 1) * 8, (void **)&H->in);
    H->iout = H->iin < 0 ? -1 : jd_alloc_kind(J, JD_MEM_HOST, (out + 2 * BAND) * 8, (void **)&H->out);
    if (H->iout < 0) return jd_failf(t, "buffers: %s", J->why), -1;
    return 0;
}

/* Case i of GC (gc: against central differences) or of HS (against the
 * reference on float inputs widened). 0, or -1 when the runner is gone. */
static int host_case_run(jd *J, host_bufs *H, int gc, int i, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, gc ? W32_GRADCHECK_TAG : W32_HOST_REF_TAG, i);
    const int rows = gc ? GC[i][0] : HS[i][0], cols = gc ? GC[i][1] : HS[i][1];
    const size_t nc = nn(cols);
    host_case h;
    char what[96];
    if (gc) gc_make(&h, &rng, rows, cols);
    else hr_make(&h, &rng, rows, cols);
    if (gc) snprintf(what, sizeof what, "rows=%d cols=%d, against central differences (h = %g)", rows, cols, W32_FD_H);
    else snprintf(what, sizeof what, "rows=%d cols=%d, against the reference", rows, cols);
    const double tol = W32_FD_TOL;
    wb_cmp c;
    int rc = 0;
    t->tests++;
    if (gc && (wb_compare_f64("dx", h.rx, h.fx, h.n, tol, tol, &c) || wb_compare_f64("dgamma", h.rg, h.fg, nc, tol, tol, &c) ||
               wb_compare_f64("dbeta", h.rb, h.fb, nc, tol, tol, &c)))
        jd_failf(t, "%s: the judge's own reference disagrees with finite differences (a bug in the judge): %s", what, c.msg);
    else if ((rc = host_call(J, H, &h, what, t)) != 0)
        ;
    else if (gc && (wb_compare_f64("dx", h.yx, h.fx, h.n, tol, tol, &c) ||
                    wb_compare_f64("dgamma", h.yg, h.fg, nc, tol, tol, &c) || wb_compare_f64("dbeta", h.yb, h.fb, nc, tol, tol, &c)))
        jd_failf(t, "%s: %s", what, c.msg);
    else if (!gc) {
        size_t first = 0;
        const char *arr = host_mismatch(h.yx, h.yg, h.yb, h.rx, h.rg, h.rb, h.sx, h.sg, h.sb, rows, cols, &first);
        if (arr) {
            const double *want = arr[1] == 'x' ? h.rx : arr[1] == 'g' ? h.rg : h.rb,
                         *got = arr[1] == 'x' ? h.yx : arr[1] == 'g' ? h.yg : h.yb;
            jd_failf(t, "%s: %s[%zu] expected %.15g got %.15g", what, arr, first, want[first], got[first]);
        }
    }
    host_case_free(&h);
    return rc < 0 ? -1 : 0;
}

static void judge_gradcheck(jd *J, jd_tally *t)
{
    host_bufs H;
    memset(&H, 0, sizeof H);
    if (host_bufs_alloc(J, &H, t) == 0) {
        for (int i = 0; i < (int)(W32_COUNT(GC) + W32_COUNT(HS)) && !J->lost; i++) {
            const int gc = i < (int)W32_COUNT(GC);
            if (host_case_run(J, &H, gc, gc ? i : i - (int)W32_COUNT(GC), t) < 0) break;
        }
    }
    if (H.iin >= 0) jd_free(J, H.iin);
    if (H.iout >= 0) jd_free(J, H.iout);
}

static void judge_gradcheck_gpu(jd_ck *k) { judge_gradcheck(k->J, k->t); }

/* ---------------------------------------------------------------- the device cases */

/* A case's inputs on the host and the reference with its scales. */
typedef struct {
    int     rows, cols;
    size_t  n, off[5], stride; /* stride: rstd's distance from mean in their shared buffer, in floats */
    float  *hx, *hg, *hdy, *hm, *hr;
    double *rdx, *rdg, *rdb, *sdx, *sdg, *sdb;
} prob;

static void prob_make(prob *p, wb_rng *rng, int rows, int cols, const size_t off[5], int nan)
{
    memset(p, 0, sizeof *p);
    p->rows = rows, p->cols = cols, p->n = nn(rows) * nn(cols);
    memcpy(p->off, off, sizeof p->off);
    p->stride = (nn(rows) + off[OFF_M] + 63) / 64 * 64;
    const size_t n = p->n, nr = nn(rows), nc = nn(cols);
    p->hx = wb_hmalloc(n * 4), p->hdy = wb_hmalloc(n * 4), p->hg = wb_hmalloc(nc * 4);
    p->hm = wb_hmalloc(nr * 4), p->hr = wb_hmalloc(nr * 4);
    problem_draw(rng, rows, cols, nan, p->hx, p->hg, p->hdy, p->hm, p->hr);
    p->rdx = wb_hmalloc(n * 8), p->rdg = wb_hmalloc(nc * 8), p->rdb = wb_hmalloc(nc * 8);
    p->sdx = wb_hmalloc(nr * 8), p->sdg = wb_hmalloc(nc * 8), p->sdb = wb_hmalloc(nc * 8);
    float_ref(p->hx, p->hg, p->hdy, p->hm, p->hr, rows, cols, p->rdx, p->rdg, p->rdb, p->sdx, p->sdg, p->sdb);
}

static void prob_free(prob *p)
{
    free(p->hx), free(p->hdy), free(p->hg), free(p->hm), free(p->hr);
    free(p->rdx), free(p->rdg), free(p->rdb), free(p->sdx), free(p->sdg), free(p->sdb);
}

/* Guarded device buffers: x, dy, gamma, mean with rstd (ms), two outputs, the workspace. */
typedef struct {
    jd_gbuf x, dy, g, ms, o1, o2, ws;
    float  *h1, *h2, *h3, *h4; /* host room for the outputs: a run, and the second run's */
    unsigned char *hws;
} dev_bufs;

static void dev_bufs_free(jd *J, dev_bufs *B)
{
    jd_gbuf_free(J, &B->x), jd_gbuf_free(J, &B->dy), jd_gbuf_free(J, &B->g), jd_gbuf_free(J, &B->ms);
    jd_gbuf_free(J, &B->o1), jd_gbuf_free(J, &B->o2), jd_gbuf_free(J, &B->ws);
    free(B->h1), free(B->h2), free(B->h3), free(B->h4), free(B->hws);
}

/* n_cap floats of x, dy and (o1_cap) the first output, c_cap of gamma and
 * (o2_cap) the second output, r_cap of mean and of rstd, each with a lead
 * of up to 3 floats. 0, or -1 with t failed; dev_bufs_free after either. */
static int dev_bufs_alloc(jd *J, dev_bufs *B, size_t n_cap, size_t c_cap, size_t r_cap, size_t o1_cap, size_t o2_cap,
                          jd_tally *t)
{
    memset(B, 0, sizeof *B);
    B->x.id = B->dy.id = B->g.id = B->ms.id = B->o1.id = B->o2.id = B->ws.id = -1;
    const size_t rs = (r_cap + 3 + 63) / 64 * 64; /* prob's stride at most */
    if (jd_gbuf_alloc(J, &B->x, (n_cap + 4) * 4, t) || jd_gbuf_alloc(J, &B->dy, (n_cap + 4) * 4, t) ||
        (c_cap && jd_gbuf_alloc(J, &B->g, (c_cap + 4) * 4, t)) || jd_gbuf_alloc(J, &B->ms, (2 * rs + 4) * 4, t) ||
        jd_gbuf_alloc(J, &B->o1, (o1_cap + 4) * 4, t) || (o2_cap && jd_gbuf_alloc(J, &B->o2, (o2_cap + 4) * 4, t)))
        return -1;
    if (!(B->h1 = malloc((o1_cap + 1) * 4)) || !(B->h2 = malloc((o2_cap + 1) * 4)) ||
        !(B->h3 = malloc((o1_cap + 1) * 4)) || !(B->h4 = malloc((o2_cap + 1) * 4)))
        return jd_failf(t, "buffers: out of memory"), -1;
    return 0;
}

/* The inputs at their offsets (gamma where with_gamma), mean and rstd in one buffer. 0 or -1. */
static int put_inputs(dev_bufs *B, const prob *p, int with_gamma)
{
    const size_t nr = nn(p->rows), om = p->off[OFF_M];
    return jd_gbuf_put(&B->x, p->off[OFF_X] * 4, p->hx, p->n * 4) || jd_gbuf_put(&B->dy, p->off[OFF_DY] * 4, p->hdy, p->n * 4) ||
                   (with_gamma && jd_gbuf_put(&B->g, p->off[OFF_G] * 4, p->hg, nn(p->cols) * 4)) ||
                   jd_gbuf_put(&B->ms, om * 4, p->hm, nr * 4) || jd_gbuf_put(&B->ms, (p->stride + om) * 4, p->hr, nr * 4)
               ? -1
               : 0;
}

/* An input argument: NULL when it has no floats at all (the test's
 * wb_dcopy of 0 bytes), else its array at the offset. */
static void in_arg(jd_req *rq, int k, const jd_gbuf *b, size_t count, size_t off)
{
    jd_gbuf_arg(rq, k, count + off ? b : NULL, off * 4);
}

/* got[0..n) against ref within tol * scale[k / per] + tol |ref|, a NaN
 * reference wanting a NaN that is not the poison: 0, or 1 with t failed. */
static int expect_scaled(const char *name, const float *got, const double *ref, const double *scale, size_t n,
                         size_t per, const char *what, jd_tally *t)
{
    size_t bad = 0, first = 0, unwritten = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t u;
        memcpy(&u, &got[k], 4);
        int wrong = !wb_close(got[k], ref[k], W32_DEV_TOL * scale[k / per], W32_DEV_TOL);
        if (!wrong && isnan(ref[k]) && u == 0xffffffffu) wrong = 1, unwritten += !bad;
        if (wrong && !bad++) first = k;
    }
    if (!bad) return 0;
    if (unwritten)
        jd_failf(t, "%s: %s[%zu], where NaN is expected, was never written (it still holds the poison)", what, name, first);
    else
        jd_failf(t, "%s: %zu of %zu of %s wrong (tolerance %g of the scale %g); %s[%zu] expected %.9g got %.9g", what, bad,
                 n, name, W32_DEV_TOL, scale[first / per], name, first, ref[first], (double)got[first]);
    return 1;
}

/* ---- dx */

static int dx_case(jd *J, dev_bufs *B, wb_rng *rng, int rows, int cols, const size_t off[5], int nan, jd_tally *t)
{
    prob p;
    prob_make(&p, rng, rows, cols, off, nan);
    char what[160];
    snprintf(what, sizeof what, "rows=%d cols=%d, offsets x+%zu dy+%zu gamma+%zu mean/rstd+%zu dx+%zu%s", rows, cols,
             off[OFF_X], off[OFF_DY], off[OFF_G], off[OFF_M], off[OFF_OUT], nan ? ", a NaN in dy[2][5]" : "");
    int rc = 0;
    t->tests++;
    if (put_inputs(B, &p, 1) || jd_gbuf_poison(&B->o1, off[OFF_OUT] * 4, p.n * 4)) {
        jd_failf(t, "%s: the judge's own copies failed", what), rc = -1;
        goto out;
    }
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W32_FN_DX, 1, 5);
    in_arg(&rq, 0, &B->x, p.n, off[OFF_X]), in_arg(&rq, 1, &B->dy, p.n, off[OFF_DY]);
    in_arg(&rq, 2, &B->g, nn(cols), off[OFF_G]), in_arg(&rq, 3, &B->ms, nn(rows), off[OFF_M]);
    jd_gbuf_arg(&rq, 4, &B->o1, off[OFF_OUT] * 4);
    rq.i64[0] = (long long)p.n, rq.i64[1] = rows, rq.i64[2] = cols, rq.i64[3] = (long long)p.stride;
    if (jd_call(J, &rq, &rp, NULL) != 0) {
        jd_failf(t, "%s: %s", what, J->why), rc = -1;
        goto out;
    }
    if (rp.status != 0) {
        jd_failf(t, "%s: ln_dx_backward returned %s", what, status_name(rp.status));
        goto out;
    }
    int f = jd_gbuf_fetch(&B->o1, off[OFF_OUT] * 4, p.n * 4, B->h1, "dx", what, t);
    if (f) rc = f < 0 ? -1 : 0;
    else expect_scaled("dx", B->h1, p.rdx, p.sdx, p.n, cols > 0 ? (size_t)cols : 1, what, t);
out:
    prob_free(&p);
    return rc;
}

/* ---- dgamma, dbeta */

/* ln_dgb_workspace_bytes(rows, cols) through the runner: 0 and *b, or -1 with t failed. */
static int ws_bytes(jd *J, int rows, int cols, size_t *b, jd_tally *t)
{
    unsigned long long v = 0;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W32_FN_WS_BYTES, 1, 0);
    rq.i64[1] = rows, rq.i64[2] = cols;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "ln_dgb_workspace_bytes: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof v) return jd_failf(t, "ln_dgb_workspace_bytes: no answer from the runner"), -1;
    memcpy(&v, rp.out, sizeof v);
    if (v > W32_WS_CAP)
        return jd_failf(t, "ln_dgb_workspace_bytes(%d, %d) says %llu bytes: the judge gives at most %zu", rows, cols, v,
                        W32_WS_CAP),
               -1;
    *b = (size_t)v;
    return 0;
}

/* One call of ln_dgb_backward on poisoned outputs and workspace; g and b
 * get dgamma and dbeta. 0 (g, b read), 1 (failed: t says), -1 (gone). */
static int dgb_run(jd *J, dev_bufs *B, const prob *p, size_t wsb, float *g, float *b, const char *what, jd_tally *t)
{
    const size_t *off = p->off, nc = nn(p->cols);
    if (jd_gbuf_poison(&B->o1, off[OFF_OUT] * 4, nc * 4) || jd_gbuf_poison(&B->o2, off[OFF_OUT] * 4, nc * 4) ||
        (wsb && jd_gbuf_poison(&B->ws, 0, wsb)))
        return jd_failf(t, "%s: the judge's own copies failed", what), -1;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W32_FN_DGB, 1, 6);
    in_arg(&rq, 0, &B->x, p->n, off[OFF_X]), in_arg(&rq, 1, &B->dy, p->n, off[OFF_DY]);
    in_arg(&rq, 2, &B->ms, nn(p->rows), off[OFF_M]);
    jd_gbuf_arg(&rq, 3, &B->o1, off[OFF_OUT] * 4), jd_gbuf_arg(&rq, 4, &B->o2, off[OFF_OUT] * 4);
    jd_gbuf_arg(&rq, 5, wsb ? &B->ws : NULL, 0);
    rq.i64[0] = (long long)p->n, rq.i64[1] = p->rows, rq.i64[2] = p->cols, rq.i64[3] = (long long)p->stride;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0) return jd_failf(t, "%s: ln_dgb_backward returned %s", what, status_name(rp.status)), 1;
    int f = jd_gbuf_fetch(&B->o1, off[OFF_OUT] * 4, nc * 4, g, "dgamma", what, t);
    if (!f) f = jd_gbuf_fetch(&B->o2, off[OFF_OUT] * 4, nc * 4, b, "dbeta", what, t);
    if (!f && wsb) f = jd_gbuf_fetch(&B->ws, 0, wsb, B->hws, "the workspace", what, t);
    return f;
}

static int dgb_case(jd *J, dev_bufs *B, wb_rng *rng, int rows, int cols, const size_t off[5], int nan, jd_tally *t)
{
    prob p;
    size_t wsb = 0;
    t->tests++;
    if (ws_bytes(J, rows, cols, &wsb, t) != 0) return -1;
    if (wsb > B->ws.cap) { /* a workspace as large as this case's */
        jd_gbuf_free(J, &B->ws), free(B->hws), B->hws = NULL;
        if (jd_gbuf_alloc(J, &B->ws, wsb, t) != 0) return -1;
        if (!(B->hws = malloc(wsb))) return jd_failf(t, "buffers: out of memory"), -1;
    }
    prob_make(&p, rng, rows, cols, off, nan);
    char what[160];
    snprintf(what, sizeof what, "rows=%d cols=%d, offsets x+%zu dy+%zu mean/rstd+%zu dgamma/dbeta+%zu%s", rows, cols,
             off[OFF_X], off[OFF_DY], off[OFF_M], off[OFF_OUT], nan ? ", a NaN in dy[2][5]" : "");
    const size_t nc = nn(cols);
    int rc = put_inputs(B, &p, 0) ? (jd_failf(t, "%s: the judge's own copies failed", what), -1) : 0;
    if (!rc) rc = dgb_run(J, B, &p, wsb, B->h1, B->h2, what, t);
    if (!rc && !expect_scaled("dgamma", B->h1, p.rdg, p.sdg, nc, 1, what, t) &&
        !expect_scaled("dbeta", B->h2, p.rdb, p.sdb, nc, 1, what, t)) {
        /* again, on fresh poison: the same bits, both runs read back here */
        rc = dgb_run(J, B, &p, wsb, B->h3, B->h4, what, t);
        for (size_t j = 0; j < nc && !rc; j++)
            if (memcmp(&B->h1[j], &B->h3[j], 4) || memcmp(&B->h2[j], &B->h4[j], 4)) {
                jd_failf(t, "%s: not deterministic: the second run gave dgamma[%zu] %.9g (first %.9g), dbeta[%zu] %.9g "
                            "(first %.9g); add the partials in a fixed order",
                         what, j, (double)B->h3[j], (double)B->h1[j], j, (double)B->h4[j], (double)B->h2[j]);
                break;
            }
    }
    prob_free(&p);
    return rc < 0 ? -1 : 0;
}

/* ---- the two case lists */

/* A function's cases, as the test lists them: its shapes, its offset mixes
 * and its NaN cases, each with the test's tag, drawn from that. */
typedef struct {
    const int (*shapes)[2];
    int         n_shapes, n_offsets, off_max_rows, dgb;
    const char *tags[3];
    void (*offsets_case)(wb_rng *rng, int i, int *rows, int *cols, size_t off[5]);
    void (*nan_shape)(int i, int *rows, int *cols);
    int (*run)(jd *J, dev_bufs *B, wb_rng *rng, int rows, int cols, const size_t off[5], int nan, jd_tally *t);
} case_list;

static const case_list DX_CASES = { DXS, (int)W32_COUNT(DXS), W32_N_DX_OFFSETS, W32_DX_OFF_MAX_ROWS, 0,
                                    { W32_DX_SHAPES_TAG, W32_DX_OFFSETS_TAG, W32_DX_NAN_TAG },
                                    dx_offsets_case, dx_nan_shape, dx_case };
static const case_list DGB_CASES = { DGS, (int)W32_COUNT(DGS), W32_N_DGB_OFFSETS, W32_DGB_OFF_MAX_ROWS, 1,
                                     { W32_DGB_SHAPES_TAG, W32_DGB_OFFSETS_TAG, W32_DGB_NAN_TAG },
                                     dgb_offsets_case, dgb_nan_shape, dgb_case };

static void judge_cases(jd_ck *k, const case_list *L)
{
    size_t ncap = (size_t)L->off_max_rows * W32_OFF_MAX_COLS, ccap = W32_OFF_MAX_COLS, rcap = (size_t)L->off_max_rows;
    for (int i = 0; i < L->n_shapes; i++) {
        const size_t n = nn(L->shapes[i][0]) * nn(L->shapes[i][1]);
        if (n > ncap) ncap = n;
        if (nn(L->shapes[i][1]) > ccap) ccap = nn(L->shapes[i][1]);
        if (nn(L->shapes[i][0]) > rcap) rcap = nn(L->shapes[i][0]);
    }
    dev_bufs B; /* dx: gamma and dx; dgamma/dbeta: no gamma, two outputs of a row's width */
    const int n_all = L->n_shapes + L->n_offsets + W32_N_NAN;
    if (dev_bufs_alloc(k->J, &B, ncap, L->dgb ? 0 : ccap, rcap, L->dgb ? ccap : ncap, L->dgb ? ccap : 0, k->t) == 0)
        for (int i = 0; i < n_all && !k->J->lost; i++) {
            size_t off[5] = { 0, 0, 0, 0, 0 };
            int rows, cols, nan = 0, list = i < L->n_shapes ? 0 : i < L->n_shapes + L->n_offsets ? 1 : 2;
            const int c = list == 0 ? i : list == 1 ? i - L->n_shapes : i - L->n_shapes - L->n_offsets;
            wb_rng rng = wb_rng_for_seed(jd_seed, L->tags[list], c);
            if (list == 0) rows = L->shapes[c][0], cols = L->shapes[c][1];
            else if (list == 1) L->offsets_case(&rng, c, &rows, &cols, off);
            else L->nan_shape(c, &rows, &cols), nan = 1;
            if (L->run(k->J, &B, &rng, rows, cols, off, nan, k->t) < 0) break;
        }
    dev_bufs_free(k->J, &B);
}

static void judge_dx(jd_ck *k) { judge_cases(k, &DX_CASES); }
static void judge_dgb(jd_ck *k) { judge_cases(k, &DGB_CASES); }

/* ---------------------------------------------------------------- timed checkpoints */

static jd_bench g_bench; /* large: its sample arrays */
static int      g_dgb;   /* the timed call is ln_dgb_backward's (else ln_dx_backward's) */
static size_t   g_ws_off, g_ws_bytes;
static double  *g_dsums; /* the judge's device scratch: a rep's row or column sums */

/* Each rep's sums (dx: two a row; dgamma/dbeta: two a column), computed on
 * the device for its seeds when the look's expectations are first asked. */
static struct {
    unsigned long long s0, s1;
    int                valid;
    double            *v;
} g_sums[JD_BENCH_MAX_K];

static unsigned long long sub_seed(unsigned long long s, unsigned k) { return jd_mix(s ^ (0x3200ull + k)); }

/* A rep's inputs, from its two seeds: x and (after it) gamma, mean and rstd
 * from seed[0], dy from seed[1]. */
static jd32_inputs inputs_of(const jd_bench *b, const unsigned long long *seed)
{
    jd32_inputs in = { seed[0], seed[1], sub_seed(seed[0], 1), sub_seed(seed[0], 2), sub_seed(seed[0], 3),
                       (int)b->i64[1], (int)b->i64[2] };
    return in;
}

static void bench_fill(const jd_bench *b, void *in, unsigned long long seed)
{
    int first = 0;
    const size_t n = b->n, rows = (size_t)b->i64[1], cols = (size_t)b->i64[2];
    for (int r = 0; r < b->k; r++) first |= in == b->in[r][0];
    float *p = in;
    if (!first) {
        wb_dfill_uniform_f32(p, n, seed, W32_X_LO, W32_X_HI); /* dy */
        return;
    }
    wb_dfill_uniform_f32(p, n, seed, W32_X_LO, W32_X_HI), p += n;
    if (!g_dgb) wb_dfill_uniform_f32(p, cols, sub_seed(seed, 1), W32_G_LO, W32_G_HI), p += cols;
    wb_dfill_uniform_f32(p, rows, sub_seed(seed, 2), W32_M_LO, W32_M_HI), p += rows;
    wb_dfill_uniform_f32(p, rows, sub_seed(seed, 3), W32_R_LO, W32_R_HI);
    if (g_dgb && g_ws_bytes) cudaMemsetAsync((char *)in + g_ws_off, 0xff, g_ws_bytes, 0);
}

/* The rep's sums on the host (NULL when the judge's kernel failed: the look then fails, no figure). */
static const double *sums_of(const jd_bench *b, const unsigned long long *seed)
{
    int r = 0;
    while (r < b->k && seed != b->seed[r]) r++;
    if (r == b->k) return NULL;
    if (g_sums[r].valid && g_sums[r].s0 == seed[0] && g_sums[r].s1 == seed[1]) return g_sums[r].v;
    const jd32_inputs in = inputs_of(b, seed);
    const size_t m = 2 * (size_t)(g_dgb ? in.cols : in.rows);
    if (!g_sums[r].v && !(g_sums[r].v = malloc(m * sizeof(double)))) return NULL;
    cudaError_t e = g_dgb ? jd32_dgb_colsums(&in, g_dsums, jd_stream) : jd32_dx_rowsums(&in, g_dsums, jd_stream);
    if (e != cudaSuccess || cudaMemcpyAsync(g_sums[r].v, g_dsums, m * sizeof(double), cudaMemcpyDeviceToHost, jd_stream) ||
        cudaStreamSynchronize(jd_stream) != cudaSuccess)
        return NULL;
    g_sums[r].s0 = seed[0], g_sums[r].s1 = seed[1], g_sums[r].valid = 1;
    return g_sums[r].v;
}

static float dx_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    const double *c = sums_of(b, seed);
    if (!c) return NAN;
    const jd32_inputs in = inputs_of(b, seed);
    const size_t cols = (size_t)in.cols, r = i / cols, j = i % cols;
    const double mu = wb_hash_uniform_f32(in.sm, r, W32_M_LO, W32_M_HI), rs = wb_hash_uniform_f32(in.sr, r, W32_R_LO, W32_R_HI);
    const double g = (double)wb_hash_uniform_f32(in.sdy, i, W32_X_LO, W32_X_HI) * wb_hash_uniform_f32(in.sg, j, W32_G_LO, W32_G_HI);
    const double xh = (wb_hash_uniform_f32(in.sx, i, W32_X_LO, W32_X_HI) - mu) * rs;
    return (float)(rs * (g - c[2 * r] - xh * c[2 * r + 1]));
}

static int dx_full(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                   unsigned long long h[2])
{
    const jd32_inputs in = inputs_of(b, seed);
    return jd_full_check_done(jd32_dx_check(out, &in, b->atol, b->rtol, bad, jd_stream), bad, h);
}

static float dgb_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    const double *c = sums_of(b, seed);
    return c ? (float)c[i] : NAN;
}

static int dgb_full(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                    unsigned long long h[2])
{
    const jd32_inputs in = inputs_of(b, seed);
    cudaError_t e = jd32_dgb_colsums(&in, g_dsums, jd_stream);
    if (e == cudaSuccess) e = jd32_dgb_check(out, g_dsums, in.cols, b->atol, b->rtol, bad, jd_stream);
    return jd_full_check_done(e, bad, h);
}

static void sums_reset(void)
{
    for (int r = 0; r < JD_BENCH_MAX_K; r++) free(g_sums[r].v), g_sums[r].v = NULL, g_sums[r].valid = 0;
}

/* One width through the protocol: 0 and its GB/s, or -1 with why. */
static int bench_width(jd_ck *k, int cols, double *gbps, char *why, size_t why_n)
{
    const size_t rows = wb_bench_bytes() / 4 / (size_t)cols, n = rows * (size_t)cols;
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.n_in = 2, g_bench.max_k = JD_BENCH_MAX_K, g_bench.n = n, g_bench.lo = W32_X_LO, g_bench.hi = W32_X_HI;
    g_bench.i64[1] = (long long)rows, g_bench.i64[2] = cols;
    g_bench.fill = bench_fill;
    if (g_dgb) {
        jd_tally t;
        memset(&t, 0, sizeof t);
        if (ws_bytes(k->J, (int)rows, cols, &g_ws_bytes, &t) != 0) return snprintf(why, why_n, "%s", t.msg), -1;
        g_ws_off = ((n + 2 * rows) * 4 + 255) / 256 * 256;
        g_bench.fn = W32_FN_DGB_TIMED, g_bench.out_n = 2 * (size_t)cols, g_bench.in_bytes = g_ws_off + g_ws_bytes;
        g_bench.i64[3] = (long long)g_ws_off, g_bench.i64[4] = (long long)g_ws_bytes;
        g_bench.atol = W32_DGB_BW_ATOL_ROW * (double)rows, g_bench.rtol = W32_DGB_BW_RTOL;
        g_bench.fn_name = "ln_dgb_backward", g_bench.out_name = "dgamma|dbeta";
        g_bench.expect = dgb_expect, g_bench.full_check = dgb_full;
    } else {
        g_bench.fn = W32_FN_DX_TIMED, g_bench.in_bytes = (n + (size_t)cols + 2 * rows) * 4;
        g_bench.atol = W32_DX_BW_TOL, g_bench.rtol = W32_DX_BW_TOL;
        g_bench.fn_name = "ln_dx_backward", g_bench.out_name = "dx";
        g_bench.expect = dx_expect, g_bench.full_check = dx_full;
    }
    sums_reset();
    double ms = NAN;
    int rc = jd_bench_run(k->J, &g_bench, TIMED, &ms, why, why_n);
    sums_reset();
    if (rc != 0) return -1;
    *gbps = (g_dgb ? w32_dgb_bytes(rows, (size_t)cols) : w32_dx_bytes(rows, (size_t)cols)) / (ms * 1e-3) / 1e9;
    printf("  %s, hidden %d: %.4f ms a call by the judge's clock (%.4f by the runner's own), %.0f GB/s\n", g_bench.fn_name,
           cols, ms, g_bench.runner_ms, *gbps);
    return 0;
}

/* The three widths, each against COPY; the lowest ratio is the figure, and
 * a width that fails is the verdict (no figure from a wrong run). */
static void judge_bw(jd_ck *k, int dgb)
{
    double worst_v = NAN, worst_c = NAN, worst_ratio = INFINITY;
    int worst_cols = 0;
    char why[700] = "", detail[200] = "";
    g_dgb = dgb;
    const size_t rows_max = wb_bench_bytes() / 4 / BENCH_COLS[0];
    if (cudaMalloc((void **)&g_dsums, 2 * (rows_max > BENCH_MAX_COLS ? rows_max : BENCH_MAX_COLS) * sizeof(double)) !=
        cudaSuccess) {
        g_dsums = NULL;
        snprintf(why, sizeof why, "the judge's own buffers: cudaMalloc failed");
    }
    for (size_t s = 0; s < W32_COUNT(BENCH_COLS) && !why[0]; s++) {
        double v = NAN;
        char w[600] = "";
        if (bench_width(k, BENCH_COLS[s], &v, w, sizeof w) != 0) {
            snprintf(why, sizeof why, "%s (hidden %d)", w, BENCH_COLS[s]);
            break;
        }
        const double copy = jd_copy_yard(); /* through the same protocol: the larger of before and now */
        if (!(copy > 0)) {
            snprintf(why, sizeof why, "no COPY figure: %s", jd_copy_yard_why());
            break;
        }
        if (v / copy < worst_ratio) worst_ratio = v / copy, worst_v = v, worst_c = copy, worst_cols = BENCH_COLS[s];
    }
    if (g_dsums) cudaFree(g_dsums), g_dsums = NULL;
    if (!why[0])
        snprintf(detail, sizeof detail, "hidden %d, the worst of 1024, 4096 and 8192: %.0f GB/s vs COPY %.0f GB/s "
                 "(judge's clock, %d calls a request, median of %d)", worst_cols, worst_v, worst_c, g_bench.k, TIMED);
    jd_speed_result(k->R, k->t, k->c, k->gpu, worst_v, "GB/s", "COPY", worst_c, detail, why);
}

static void judge_dx_bw(jd_ck *k) { judge_bw(k, 0); }
static void judge_dgb_bw(jd_ck *k) { judge_bw(k, 1); }

/* COPY of an array of wb_bench_bytes() (read and written: 8 bytes a float
 * of wb_bench_bytes() / 4) for both speed checkpoints, as the test's
 * wb_yard_copy_gbps(rows x cols x 4). */
static const jd_checkpoint CPS[] = {
    { "w32.gradcheck", judge_gradcheck_gpu, judge_gradcheck, 1, 0 },
    { "w32.dx", judge_dx, NULL, 0, 0 },
    { "w32.dgb", judge_dgb, NULL, 0, 0 },
    { "w32.dx-bw", judge_dx_bw, NULL, 0, 8 },
    { "w32.dgb-bw", judge_dgb_bw, NULL, 0, 8 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w32", "phase6/week32", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
