/* judge_w31.c — build/instructor/judge-w31: week 31's judge (instructor/
 * README.md, "The judge and the runner"; its week 31 entry has the
 * commands to run it on a GPU). It links no student code: the student's
 * moments.o, layernorm.o and rmsnorm.o are linked into the runner
 * (judge_w31_runner.c), which this process starts
 * (or is handed) and asks to call them on buffers it allocated (judge.h). It
 * poisons, fills, times and checks, and writes the results record itself,
 * outside the runner's reach. The command line, the runner's start, the
 * record, the guarded buffers, the timed-call protocol and the COPY
 * yardstick are judge_week.c's:
 *
 *   judge-w31 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week31.c's, shared through phase6/week31/w31_checks.h
 * (the sizes and shapes, each case drawn as the test draws it for the seed:
 * wb_rng_for_seed with the test's tag, the double references, the
 * tolerances, the CPU verdicts). Every GPU output is in a guarded buffer
 * (jd_gbuf: a poisoned band each side, the misaligned lead included),
 * checked in full, nothing written outside it; where NaN is due, an output
 * still the poison counts as not written (stricter than the test, whose
 * LayerNorm comparison takes the poison for a NaN):
 *   w31.moments          moments_sumsq, moments_twopass and moments_welford
 *                        on the test's 6 lengths (0, 1, 2, 3, 1000, 65537)
 *                        of U(-5, 5), at the test's tolerances. CPU
 *                        functions: the runner calls them on a host buffer
 *                        both processes map (the judge copies x in afresh
 *                        before every call) over a mean and a variance of
 *                        NaN, and sends back the two floats; judged with or
 *                        without a GPU (the runner then opens none);
 *   w31.welford-stable   the CPU part: the three moments on the test's 4
 *                        rows of +-1e4 + U(-1, 1), the test's verdict
 *                        (w31_stable_verdict: Welford within 1 %, the
 *                        two-pass up to 4096 elements, the single pass
 *                        wrong); without a GPU its FAIL stands, its PASS
 *                        does not (the GPU part is missing): SKIP. With a
 *                        GPU also the test's GPU part: 64 rows of +-1e4 +
 *                        U(-1, 1) at 1024 and 4096 columns through the three
 *                        LayerNorm functions, two-pass and Welford within
 *                        their checkpoint's tolerances, the single pass's
 *                        rstd off by more than 10 % in at least half of the
 *                        rows;
 *   w31.layernorm-twopass, w31.layernorm-welford, w31.layernorm-sumsq
 *                        the function on the test's 23 shapes (0 x 7 to
 *                        8 x 20000, 2000 x 64) and its 6 offset mixes (x,
 *                        gamma/beta and y 0 or 1 floats in, cols % 4 == 0
 *                        and not), rows of U(-5, 5), U(-1e4, 1e4) and large
 *                        offsets (2 + U(-5, 5) for the single pass), a NaN,
 *                        a +Inf and a -Inf row; y, mean and rstd against
 *                        the double reference within the test's
 *                        per-row bounds (w31_ln_compare); then the test's
 *                        6 argument cases (rows 0 succeeds; rows < 0, cols
 *                        <= 0, eps < 0 cudaErrorInvalidValue), nothing
 *                        written. The test also asks the device for a late
 *                        error after an argument case; here the runner
 *                        synchronises after every call and a late error
 *                        becomes the status of a call that returned
 *                        success (an error returned stands as returned: a
 *                        kernel it launched anyway is caught by the
 *                        nothing-written check);
 *   w31.rmsnorm          rmsnorm on the same shapes and offset mixes (rows of
 *                        U(-5, 5), U(-1e4, 1e4), +-1e4 + U(-1, 1), NaN and
 *                        Inf rows), y at 1e-6 + 4e-5 |ref| and rstd at
 *                        2e-5 |ref| by wb_close's rules; then the argument
 *                        cases;
 *   w31.layernorm-bw, w31.rmsnorm-bw
 *                        the worst of a ladder: layernorm_welford (rmsnorm)
 *                        at hidden 1024, 2048, 4096 and 8192, x of
 *                        wb_bench_bytes() (8x the L2; rows = that / 4 /
 *                        hidden), each size timed through the protocol
 *                        (judge_week.h): K calls a request (as many as half
 *                        the free memory holds, at most 64), each on its own
 *                        x, gamma and beta (one input: gamma and beta after
 *                        x) and its own output (y with mean and rstd after
 *                        it), fresh inputs from the hidden seed before every
 *                        request, x = U(-4, 4), gamma = U(0.5, 1.5), beta =
 *                        U(-1, 1) as the test's, and eps drawn afresh in
 *                        [0.25, 1.25) each request (the test's eps is 1e-5:
 *                        eps moves every output here, so an answer computed
 *                        between the fill and the request is wrong; the
 *                        kernels' speed does not depend on it); a poisoned
 *                        output, the judge's look after the reply and every
 *                        element of every output checked in full by the
 *                        judge's kernel (judge_w31_kernels.cu, from the
 *                        inputs' seeds: y at 2e-5 + 2e-5 |ref| and rstd at
 *                        2e-5 |ref| as the test's, and the mean, which the
 *                        test's timed check leaves out, at the correctness
 *                        checkpoints' bound); the median of 7 requests a
 *                        size. The figure is GB/s of the bytes the test
 *                        counts (x read and y written, gamma (and beta)
 *                        read, rstd (and mean) written); the slowest size's
 *                        ratio to COPY is the checkpoint's, every size's
 *                        printed. COPY is timed through the same protocol
 *                        (jd_copy_yard) over wb_bench_bytes() (the test
 *                        copies x's own size, rows x hidden floats: the
 *                        same to within hidden floats), the target for this
 *                        GPU from week.txt.
 * Every checkpoint of week 31 is formed here: none is left to the linked
 * test. On an H200 (2026-11-29), alone over the reference's and the
 * starter's runners, plain and sandboxed: the starter FAILed all eight,
 * the reference PASSed seven (w31.layernorm-bw 0.892 / 0.889 of COPY, the
 * linked test 0.893, under the target then in week.txt: the kernel's
 * figure, not the judge's); not yet through the grader there. Without a
 * GPU the plumbing is tested by
 * instructor/tests/judge_w31.sh (w31.moments PASS for the reference and
 * FAIL for the starter, w31.welford-stable SKIP and FAIL; every other
 * checkpoint SKIP, never PASS). */
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
#include "judge_w31.h"
#include "judge_w31_kernels.h"
#include "judge_week.h"
#include "w31_checks.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cuda.h"

#define TIMED 7

static const char *status_name(int st) { return st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st); }

/* ---------------------------------------------------------------- moments (CPU) */

static const char *const MOMENTS_NAMES[3] = { "moments_sumsq", "moments_twopass", "moments_welford" };
#define MOMENTS_CAP 65537 /* the longest row: W31_MSIZES's last, W31_SHOW's is 65536 */

/* A host buffer both processes map, for the moments' x. */
typedef struct {
    int    id;
    float *x;
} mom_buf;

/* The buffer and host room for a row of the judge's own: the room, or
 * NULL with t failed; mom_end after. */
static float *mom_begin(jd *J, mom_buf *m, jd_tally *t)
{
    float *x = malloc(MOMENTS_CAP * sizeof(float));
    if (!x) return jd_failf(t, "buffers: out of memory"), NULL;
    m->id = jd_alloc_kind(J, JD_MEM_HOST, MOMENTS_CAP * sizeof(float), (void **)&m->x);
    if (m->id < 0) return jd_failf(t, "buffers: %s", J->why), free(x), NULL;
    return x;
}

static void mom_end(jd *J, mom_buf *m, float *x)
{
    jd_free(J, m->id);
    free(x);
}

/* Function f (0 sumsq, 1 two-pass, 2 Welford) on x[0..n), copied in afresh:
 * 0 with *mean and *var (NaN where it wrote nothing), or -1 with t failed. */
static int mom_call(jd *J, mom_buf *m, const float *x, size_t n, int f, float *mean, float *var, jd_tally *t)
{
    memcpy(m->x, x, n * sizeof(float));
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W31_FN_MOMENTS, 1, 1);
    rq.arg_buf[0][0] = m->id, rq.arg_off[0][0] = 0;
    rq.i64[0] = (long long)n, rq.i64[1] = f;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s, n=%zu: %s", MOMENTS_NAMES[f], n, J->why), -1;
    if (rp.status != 0 || rp.out_len != 2 * sizeof(float))
        return jd_failf(t, "%s, n=%zu: the runner could not call it (%s)", MOMENTS_NAMES[f], n, rp.text), -1;
    memcpy(mean, rp.out, sizeof *mean), memcpy(var, rp.out + sizeof *mean, sizeof *var);
    return 0;
}

static void judge_moments(jd *J, jd_tally *t)
{
    mom_buf m;
    float *x = mom_begin(J, &m, t);
    if (!x) return;
    for (size_t i = 0; i < W31_N_MSIZES && !J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W31_MOMENTS_TAG, (int)i);
        size_t n = W31_MSIZES[i];
        wb_fill_uniform_f32(&rng, x, n, -5, 5);
        double mu, v, mtol, vtol;
        w31_ref_moments(x, n, &mu, &v);
        w31_moments_tol(mu, v, &mtol, &vtol);
        t->tests++;
        for (int f = 0; f < 3; f++) {
            float gm, gv;
            if (mom_call(J, &m, x, n, f, &gm, &gv, t) != 0) break;
            if (!wb_close(gm, mu, mtol, 0) || !wb_close(gv, v, vtol, 0)) {
                jd_failf(t, "%s, n=%zu (x = U(-5, 5)): mean %.9g var %.9g, expected %.9g and %.9g (tolerance %.3g, %.3g)",
                         MOMENTS_NAMES[f], n, gm, gv, mu, v, mtol, vtol);
                break;
            }
        }
    }
    mom_end(J, &m, x);
}

static void judge_moments_gpu(jd_ck *k) { judge_moments(k->J, k->t); }

/* w31.welford-stable's CPU part: the three on the test's rows of +-1e4 + U(-1, 1). */
static void judge_stable_cpu(jd *J, jd_tally *t)
{
    mom_buf m;
    float *x = mom_begin(J, &m, t);
    if (!x) return;
    for (size_t i = 0; i < W31_N_SHOW && !J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W31_STABLE_CPU_TAG, (int)i);
        const float off = W31_SHOW[i].offset;
        const size_t n = W31_SHOW[i].n;
        w31_show_fill(&rng, x, off, n);
        double mu, v;
        w31_ref_moments(x, n, &mu, &v);
        float mean[3], var[3];
        int ok = 1;
        t->tests++;
        for (int f = 0; f < 3 && ok; f++) ok = mom_call(J, &m, x, n, f, &mean[f], &var[f], t) == 0;
        if (!ok) break;
        char what[96], why[400];
        snprintf(what, sizeof what, "x = %g + U(-1,1), n = %zu", (double)off, n);
        if (w31_stable_verdict(mean, var, mu, v, n, what, why, sizeof why)) jd_failf(t, "%s", why);
    }
    mom_end(J, &m, x);
}

/* ---------------------------------------------------------------- guarded cases */

/* The inputs x, gamma, beta and the outputs y, mean, rstd, each a guarded
 * buffer, with host room for the outputs and RMSNorm's references. */
typedef struct {
    jd_gbuf x, g, b, y, m, r;
    float  *hy, *hm, *hr;
    double *ref, *rref;
} w31_bufs;

static void bufs_free(jd *J, w31_bufs *B)
{
    jd_gbuf_free(J, &B->x), jd_gbuf_free(J, &B->g), jd_gbuf_free(J, &B->b);
    jd_gbuf_free(J, &B->y), jd_gbuf_free(J, &B->m), jd_gbuf_free(J, &B->r);
    free(B->hy), free(B->hm), free(B->hr), free(B->ref), free(B->rref);
}

/* Room for every case of the week: x and y of max_n floats (and a float of
 * lead), gamma and beta of max_cols, mean and rstd of max_rows. 0, or -1
 * with t failed; bufs_free after either. */
static int bufs_alloc(jd *J, w31_bufs *B, size_t max_n, size_t max_cols, size_t max_rows, jd_tally *t)
{
    memset(B, 0, sizeof *B);
    B->x.id = B->g.id = B->b.id = B->y.id = B->m.id = B->r.id = -1;
    if (jd_gbuf_alloc(J, &B->x, (max_n + 1) * 4, t) != 0 || jd_gbuf_alloc(J, &B->g, (max_cols + 1) * 4, t) != 0 ||
        jd_gbuf_alloc(J, &B->b, (max_cols + 1) * 4, t) != 0 || jd_gbuf_alloc(J, &B->y, (max_n + 1) * 4, t) != 0 ||
        jd_gbuf_alloc(J, &B->m, max_rows * 4, t) != 0 || jd_gbuf_alloc(J, &B->r, max_rows * 4, t) != 0)
        return -1;
    if (!(B->hy = malloc((max_n + 1) * 4)) || !(B->hm = malloc(max_rows * 4)) || !(B->hr = malloc(max_rows * 4)) ||
        !(B->ref = malloc((max_n + 1) * 8)) || !(B->rref = malloc(max_rows * 8)))
        return jd_failf(t, "buffers: out of memory"), -1;
    return 0;
}

/* Every case's sizes: the shapes, the offset mixes (up to 60 x 5000) and
 * w31.welford-stable's rows. */
static void case_caps(size_t *max_n, size_t *max_cols, size_t *max_rows)
{
    size_t n = 60 * 5000, c = 5000, r = W31_STABLE_ROWS;
    for (size_t i = 0; i < W31_COUNT(W31_STABLE_COLS); i++)
        if ((size_t)W31_STABLE_ROWS * W31_STABLE_COLS[i] > n) n = (size_t)W31_STABLE_ROWS * W31_STABLE_COLS[i];
    for (size_t i = 0; i < W31_N_SHAPES; i++) {
        size_t sr = (size_t)W31_SHAPES[i][0], sc = (size_t)W31_SHAPES[i][1];
        if (sr * sc > n) n = sr * sc;
        if (sc > c) c = sc;
        if (sr > r) r = sr;
    }
    *max_n = n, *max_cols = c, *max_rows = r;
}

/* One call of method (W31_TWOPASS, W31_WELFORD, W31_SUMSQ; W31_METHODS:
 * rmsnorm, no beta and no mean) on bx (ox floats of lead, then x), bg and bb
 * (op floats of lead, then gamma and beta), the outputs poisoned (y oy
 * floats in), then read back into B->hy, hm, hr with their bands checked.
 * 0 when the case ran and wrote inside its outputs, 1 when it failed (t
 * says), -1 when the runner or the judge's own copies failed. */
static int norm_call(jd *J, w31_bufs *B, int method, int rows, int cols, size_t ox, size_t op, size_t oy,
                     const float *bx, const float *bg, const float *bb, float eps, const char *what, jd_tally *t)
{
    const int rms = method == W31_METHODS;
    const size_t n = (size_t)rows * (size_t)cols, nr = rows > 0 ? (size_t)rows : 0, nc = cols > 0 ? (size_t)cols : 0;
    const char *name = rms ? "rmsnorm" : W31_LN_NAMES[method];
    if (jd_gbuf_put(&B->x, 0, bx, (n + ox) * 4) != 0 || jd_gbuf_put(&B->g, 0, bg, (nc + op) * 4) != 0 ||
        (!rms && jd_gbuf_put(&B->b, 0, bb, (nc + op) * 4) != 0) || jd_gbuf_poison(&B->y, oy * 4, n * 4) != 0 ||
        jd_gbuf_poison(&B->m, 0, nr * 4) != 0 || jd_gbuf_poison(&B->r, 0, nr * 4) != 0)
        return jd_failf(t, "%s: the judge's own copies failed", what), -1;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, rms ? W31_FN_RMS : W31_FN_LN, 1, rms ? 4 : 6);
    int a = 0;
    jd_gbuf_arg(&rq, a++, n + ox ? &B->x : NULL, ox * 4); /* no floats: NULL, as the test's wb_dcopy of 0 bytes */
    jd_gbuf_arg(&rq, a++, &B->g, op * 4);
    if (!rms) jd_gbuf_arg(&rq, a++, &B->b, op * 4);
    jd_gbuf_arg(&rq, a++, &B->y, oy * 4);
    if (!rms) jd_gbuf_arg(&rq, a++, &B->m, 0);
    jd_gbuf_arg(&rq, a++, &B->r, 0);
    rq.i64[1] = rows, rq.i64[2] = cols, rq.i64[3] = rms ? 0 : method;
    rq.f64[0] = eps;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0) return jd_failf(t, "%s: %s returned %s", what, name, status_name(rp.status)), 1;
    int f = jd_gbuf_fetch(&B->y, oy * 4, n * 4, B->hy, "y", what, t);
    if (f == 0 && !rms) f = jd_gbuf_fetch(&B->m, 0, nr * 4, B->hm, "mean", what, t);
    if (f == 0) f = jd_gbuf_fetch(&B->r, 0, nr * 4, B->hr, "rstd", what, t);
    return f;
}

static int is_poison(float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    return u == 0xffffffffu;
}

/* LayerNorm rows holding a NaN or an Inf: y and rstd NaN, and written (the
 * poison is a NaN too): 0, or 1 with why. */
static int ln_unwritten(const float *x, const float *y, const float *rstd, int rows, int cols, char *why, size_t size)
{
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * cols;
        int finite = 1;
        for (int j = 0; j < cols && finite; j++) finite = isfinite(xr[j]);
        if (finite) continue;
        if (is_poison(rstd[r]))
            return snprintf(why, size, "row %d holds a NaN or Inf: rstd[%d], where NaN is expected, was never written "
                            "(it still holds the poison)", r, r), 1;
        for (int j = 0; j < cols; j++)
            if (is_poison(y[(size_t)r * cols + j]))
                return snprintf(why, size, "row %d holds a NaN or Inf: y[%d][%d], where NaN is expected, was never "
                                "written (it still holds the poison)", r, r, j), 1;
    }
    return 0;
}

/* got[0..n) against ref by wb_close's rules, an element still the poison
 * where NaN is expected counted as not written: 0, or 1 with why. */
static int close_all(const char *name, const float *got, const double *ref, size_t n, double atol, double rtol, char *why,
                     size_t size)
{
    for (size_t i = 0; i < n; i++) {
        if (!wb_close(got[i], ref[i], atol, rtol))
            return snprintf(why, size, "%s[%zu] expected %.9g got %.9g", name, i, ref[i], (double)got[i]), 1;
        if (isnan(ref[i]) && is_poison(got[i]))
            return snprintf(why, size, "%s[%zu], where NaN is expected, was never written (it still holds the poison)",
                            name, i), 1;
    }
    return 0;
}

/* One LayerNorm case of method, its inputs drawn from rng (w31_ln_inputs),
 * checked as the test checks it: 0 ran (passed or failed), -1 the runner
 * or the judge's copies failed. */
static int ln_case(jd *J, w31_bufs *B, float *bx, float *bg, float *bb, wb_rng *rng, int method, int rows, int cols,
                   size_t ox, size_t op, size_t oy, jd_tally *t)
{
    w31_ln_inputs(rng, method == W31_SUMSQ, rows, cols, ox, op, bx, bg, bb);
    char what[300], msg[600], why[300];
    snprintf(what, sizeof what, "%s, rows=%d cols=%d, x+%zu gamma/beta+%zu y+%zu (rows by r %% 3: U(-5,5), U(-1e4,1e4), "
             "%s%s)", W31_LN_NAMES[method], rows, cols, ox, op, oy, method == W31_SUMSQ ? "2 + U(-5,5)" : "+-1e4 + U(-1,1)",
             rows >= 8 ? "; row 3 a NaN, row 4 a +Inf, row 7 a -Inf" : "");
    t->tests++;
    int c = norm_call(J, B, method, rows, cols, ox, op, oy, bx, bg, bb, W31_EPS, what, t);
    if (c != 0) return c < 0 ? -1 : 0;
    const float *hx = bx + ox, *hg = bg + op, *hb = bb + op;
    size_t bad = w31_ln_compare(hx, hg, hb, B->hy, B->hm, B->hr, rows, cols, method == W31_SUMSQ, msg, sizeof msg);
    if (bad) jd_failf(t, "%s: %zu wrong%s", what, bad, msg);
    else if (ln_unwritten(hx, B->hy, B->hr, rows, cols, why, sizeof why)) jd_failf(t, "%s: %s", what, why);
    return 0;
}

/* One RMSNorm case, its inputs drawn from rng (w31_rms_inputs): as ln_case. */
static int rms_case(jd *J, w31_bufs *B, float *bx, float *bg, wb_rng *rng, int rows, int cols, size_t ox, size_t op,
                    size_t oy, jd_tally *t)
{
    w31_rms_inputs(rng, rows, cols, ox, op, bx, bg);
    const float *hx = bx + ox, *hg = bg + op;
    const size_t n = (size_t)rows * (size_t)cols;
    w31_rms_ref(hx, hg, B->ref, B->rref, rows, cols);
    char what[300], why[300];
    snprintf(what, sizeof what, "rmsnorm, rows=%d cols=%d, x+%zu gamma+%zu y+%zu (rows by r %% 3: U(-5,5), U(-1e4,1e4), "
             "+-1e4 + U(-1,1)%s)", rows, cols, ox, op, oy, rows >= 8 ? "; row 3 a NaN, row 4 a +Inf, row 7 a -Inf" : "");
    t->tests++;
    int c = norm_call(J, B, W31_METHODS, rows, cols, ox, op, oy, bx, bg, NULL, W31_EPS, what, t);
    if (c != 0) return c < 0 ? -1 : 0;
    if (close_all("rstd", B->hr, B->rref, (size_t)rows, 0, W31_RMS_R_RTOL, why, sizeof why) ||
        close_all("y", B->hy, B->ref, n, W31_RMS_Y_ATOL, W31_RMS_Y_RTOL, why, sizeof why))
        jd_failf(t, "%s: %s", what, why);
    return 0;
}

/* The argument cases of method (W31_METHODS: rmsnorm), on buffers of their
 * own: the status the contract gives, nothing written. */
static void args_cases(jd *J, int method, jd_tally *t)
{
    const int rms = method == W31_METHODS;
    const char *name = rms ? "rmsnorm" : W31_LN_NAMES[method];
    jd_gbuf x = { -1, NULL, 0 }, g = { -1, NULL, 0 }, y = { -1, NULL, 0 }, m = { -1, NULL, 0 }, r = { -1, NULL, 0 };
    if (jd_gbuf_alloc(J, &x, 64 * 4, t) != 0 || jd_gbuf_alloc(J, &g, 16 * 4, t) != 0 ||
        jd_gbuf_alloc(J, &y, 64 * 4, t) != 0 || jd_gbuf_alloc(J, &m, 4 * 4, t) != 0 || jd_gbuf_alloc(J, &r, 4 * 4, t) != 0)
        goto out;
    wb_dfill_uniform_f32((float *)(x.d + JD_GBAND), 64, 1, -1, 1); /* the test's fills */
    wb_dfill_uniform_f32((float *)(g.d + JD_GBAND), 16, 2, -1, 1);
    for (size_t c = 0; c < W31_N_ARGS && !J->lost; c++) {
        const cudaError_t want = W31_ARGS[c].invalid ? cudaErrorInvalidValue : cudaSuccess;
        char what[120];
        snprintf(what, sizeof what, "%s(rows=%d, cols=%d, eps=%g)", name, W31_ARGS[c].rows, W31_ARGS[c].cols,
                 (double)W31_ARGS[c].eps);
        t->tests++;
        if (cudaDeviceSynchronize() != cudaSuccess || jd_gbuf_poison(&y, 0, 64 * 4) != 0 ||
            jd_gbuf_poison(&m, 0, 4 * 4) != 0 || jd_gbuf_poison(&r, 0, 4 * 4) != 0) {
            jd_failf(t, "%s: the judge's own copies failed", what);
            break;
        }
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, rms ? W31_FN_RMS : W31_FN_LN, 1, rms ? 4 : 6);
        int a = 0;
        jd_gbuf_arg(&rq, a++, &x, 0), jd_gbuf_arg(&rq, a++, &g, 0); /* gamma serves as beta too, as in the test */
        if (!rms) jd_gbuf_arg(&rq, a++, &g, 0);
        jd_gbuf_arg(&rq, a++, &y, 0);
        if (!rms) jd_gbuf_arg(&rq, a++, &m, 0);
        jd_gbuf_arg(&rq, a++, &r, 0);
        rq.i64[1] = W31_ARGS[c].rows, rq.i64[2] = W31_ARGS[c].cols, rq.i64[3] = rms ? 0 : method;
        rq.f64[0] = W31_ARGS[c].eps;
        if (jd_call(J, &rq, &rp, NULL) != 0) {
            jd_failf(t, "%s: %s", what, J->why);
            break;
        }
        if (rp.status != (int)want) {
            jd_failf(t, "%s returned %s, expected %s", what, status_name(rp.status), cudaGetErrorName(want));
            continue;
        }
        unsigned char hy[64 * 4], hm[4 * 4], hr[4 * 4];
        int f = jd_gbuf_fetch(&y, 0, sizeof hy, hy, "y", what, t);
        if (f == 0) f = jd_gbuf_fetch(&m, 0, sizeof hm, hm, "mean", what, t);
        if (f == 0) f = jd_gbuf_fetch(&r, 0, sizeof hr, hr, "rstd", what, t);
        if (f < 0) break;
        if (f) continue;
        size_t touched = 0;
        for (size_t i = 0; i < sizeof hy; i++) touched += hy[i] != 0xff;
        for (size_t i = 0; i < sizeof hm; i++) touched += (hm[i] != 0xff) + (hr[i] != 0xff);
        if (touched) jd_failf(t, "%s wrote %zu bytes; it must write nothing", what, touched);
    }
out:
    jd_gbuf_free(J, &x), jd_gbuf_free(J, &g), jd_gbuf_free(J, &y), jd_gbuf_free(J, &m), jd_gbuf_free(J, &r);
}

/* Host room for a case's inputs (lead included). */
typedef struct {
    float *x, *g, *b;
} w31_host;

static int host_alloc(w31_host *h, size_t max_n, size_t max_cols, jd_tally *t)
{
    h->x = malloc((max_n + 2) * 4), h->g = malloc((max_cols + 2) * 4), h->b = malloc((max_cols + 2) * 4);
    if (!h->x || !h->g || !h->b) return jd_failf(t, "buffers: out of memory"), -1;
    return 0;
}

static void host_free(w31_host *h) { free(h->x), free(h->g), free(h->b); }

/* A LayerNorm checkpoint (method) or w31.rmsnorm (W31_METHODS): the shapes,
 * the offset mixes, the argument cases. */
static void judge_norm(jd_ck *k, int method)
{
    const int rms = method == W31_METHODS;
    size_t max_n, max_cols, max_rows;
    case_caps(&max_n, &max_cols, &max_rows);
    w31_bufs B;
    w31_host h = { NULL, NULL, NULL };
    int rc = 0;
    if (bufs_alloc(k->J, &B, max_n, max_cols, max_rows, k->t) == 0 && host_alloc(&h, max_n, max_cols, k->t) == 0)
        for (int i = 0; i < (int)(W31_N_SHAPES + W31_N_OFFSETS) && rc == 0 && !k->J->lost; i++) {
            int shape = i < (int)W31_N_SHAPES, c = shape ? i : i - (int)W31_N_SHAPES, rows, cols;
            size_t ox = 0, op = 0, oy = 0;
            wb_rng rng = rms ? wb_rng_for_seed(jd_seed, shape ? W31_RMS_SHAPES_TAG : W31_RMS_OFFSETS_TAG, c)
                             : wb_rng_for_seed(jd_seed, W31_LN_NAMES[method], shape ? c : W31_OFFSET_INDEX + c);
            if (shape) rows = W31_SHAPES[c][0], cols = W31_SHAPES[c][1];
            else w31_offset_case(&rng, c, &rows, &cols, &ox, &op, &oy);
            rc = rms ? rms_case(k->J, &B, h.x, h.g, &rng, rows, cols, ox, op, oy, k->t)
                     : ln_case(k->J, &B, h.x, h.g, h.b, &rng, method, rows, cols, ox, op, oy, k->t);
        }
    host_free(&h);
    bufs_free(k->J, &B);
    if (rc == 0 && !k->J->lost) args_cases(k->J, method, k->t);
}

static void judge_twopass(jd_ck *k) { judge_norm(k, W31_TWOPASS); }
static void judge_welford(jd_ck *k) { judge_norm(k, W31_WELFORD); }
static void judge_sumsq(jd_ck *k) { judge_norm(k, W31_SUMSQ); }
static void judge_rmsnorm(jd_ck *k) { judge_norm(k, W31_METHODS); }

/* w31.welford-stable: the CPU part, then the three LayerNorm functions on
 * the test's rows of +-1e4 + U(-1, 1). */
static void judge_stable(jd_ck *k)
{
    judge_stable_cpu(k->J, k->t);
    if (k->J->lost) return;
    const int rows = W31_STABLE_ROWS, maxc = W31_STABLE_COLS[W31_COUNT(W31_STABLE_COLS) - 1];
    w31_bufs B;
    w31_host h = { NULL, NULL, NULL };
    if (bufs_alloc(k->J, &B, (size_t)rows * maxc, (size_t)maxc, (size_t)rows, k->t) == 0 &&
        host_alloc(&h, (size_t)rows * maxc, (size_t)maxc, k->t) == 0)
        for (int i = 0; i < (int)W31_COUNT(W31_STABLE_COLS) && !k->J->lost; i++) {
            const int cols = W31_STABLE_COLS[i];
            wb_rng rng = wb_rng_for_seed(jd_seed, W31_STABLE_GPU_TAG, i);
            w31_stable_inputs(&rng, rows, cols, h.x, h.g, h.b);
            int off10 = 0, c = 0;
            for (int f = 0; f < W31_METHODS && c == 0; f++) {
                char what[160], msg[600];
                snprintf(what, sizeof what, "%s on rows of +-1e4 + U(-1,1), cols=%d", W31_LN_NAMES[f], cols);
                k->t->tests++;
                c = norm_call(k->J, &B, f, rows, cols, 0, 0, 0, h.x, h.g, h.b, W31_EPS, what, k->t);
                if (c != 0) break;
                if (f == W31_SUMSQ) {
                    for (int r = 0; r < rows; r++) off10 += w31_rstd_err(B.hr[r], h.x + (size_t)r * cols, cols) > 0.1;
                    if (off10 < rows / 2)
                        jd_failf(k->t, "%s: only %d of %d rows have rstd off by more than 10 %%; the float single pass "
                                 "(q / cols - mean * mean) cannot keep this variance: does it sum in float?", what, off10,
                                 rows);
                } else {
                    size_t bad = w31_ln_compare(h.x, h.g, h.b, B.hy, B.hm, B.hr, rows, cols, 0, msg, sizeof msg);
                    if (bad) jd_failf(k->t, "%s: %zu wrong%s", what, bad, msg);
                }
            }
            if (c < 0) break;
        }
    host_free(&h);
    bufs_free(k->J, &B);
}

/* ---------------------------------------------------------------- the timed ladders */

static jd_bench g_bench; /* large: its sample arrays */
static double  *g_xd, *g_gd, *g_bd; /* the inputs as doubles, for the full check */

static unsigned long long gamma_seed(unsigned long long sx) { return jd_mix(sx ^ 0x9a77a); }
static unsigned long long beta_seed(unsigned long long sx) { return jd_mix(sx ^ 0xbe7a); }

/* x, then gamma, then beta (LayerNorm) after it, from the rep's seed. */
static void norm_fill(const jd_bench *b, void *in, unsigned long long seed)
{
    const size_t cols = (size_t)b->i64[2];
    float *p = in;
    wb_dfill_uniform_f32(p, b->n, seed, b->lo, b->hi);
    wb_dfill_uniform_f32(p + b->n, cols, gamma_seed(seed), 0.5f, 1.5f);
    if (b->fn == W31_FN_LN_TIMED) wb_dfill_uniform_f32(p + b->n + cols, cols, beta_seed(seed), -1, 1);
}

/* A value in [0, 1) from the hidden value r. */
static double unit_of(uint64_t r) { return (double)(jd_mix(r) >> 11) / 9007199254740992.0; }

/* eps afresh each request, in [0.25, 1.25): it moves every rstd and y. */
static void norm_fresh(jd_bench *b, uint64_t r) { b->f64[0] = (double)(float)(0.25 + unit_of(r)); }

/* A row's statistics, remembered per (exercise, cols, seed, row, eps) for
 * the look's expected values (most samples fall in rows of their own; a few
 * share). */
#define STATS_SLOTS 4096
static struct {
    unsigned long long seed;
    size_t             row, cols;
    double             eps, mean, rstd;
    int                fn;
} g_stats[STATS_SLOTS]; /* fn 0: unused */

static void row_stats(const jd_bench *b, unsigned long long seed, size_t row, double *mean, double *rstd)
{
    const size_t cols = (size_t)b->i64[2], slot = (size_t)(jd_mix(seed ^ (row * 0x9e37ull)) % STATS_SLOTS);
    const int rms = b->fn == W31_FN_RMS_TIMED;
    if (g_stats[slot].fn == b->fn && g_stats[slot].cols == cols && g_stats[slot].seed == seed && g_stats[slot].row == row &&
        g_stats[slot].eps == b->f64[0]) {
        *mean = g_stats[slot].mean, *rstd = g_stats[slot].rstd;
        return;
    }
    double s = 0, q = 0;
    for (size_t j = 0; j < cols; j++) {
        double v = wb_hash_uniform_f32(seed, row * cols + j, b->lo, b->hi);
        s += v, q += v * v;
    }
    double m = rms ? 0 : s / (double)cols, var = q / (double)cols - m * m;
    *mean = m, *rstd = 1.0 / sqrt(var + b->f64[0]);
    g_stats[slot].fn = b->fn, g_stats[slot].cols = cols, g_stats[slot].seed = seed, g_stats[slot].row = row;
    g_stats[slot].eps = b->f64[0], g_stats[slot].mean = *mean, g_stats[slot].rstd = *rstd;
}

/* Output element i: y (i < rows x cols), then mean (LayerNorm), then rstd. */
static float norm_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    const size_t cols = (size_t)b->i64[2], rows = (size_t)b->i64[1], n = b->n;
    const int rms = b->fn == W31_FN_RMS_TIMED;
    double mean, rstd;
    if (i < n) {
        size_t j = i % cols;
        row_stats(b, seed[0], i / cols, &mean, &rstd);
        double x = wb_hash_uniform_f32(seed[0], i, b->lo, b->hi), g = wb_hash_uniform_f32(gamma_seed(seed[0]), j, 0.5f, 1.5f);
        return (float)((x - mean) * rstd * g + (rms ? 0.0 : wb_hash_uniform_f32(beta_seed(seed[0]), j, -1, 1)));
    }
    size_t row = rms ? i - n : (i - n) % rows;
    row_stats(b, seed[0], row, &mean, &rstd);
    return (float)(!rms && i < n + rows ? mean : rstd);
}

static int norm_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    const size_t cols = (size_t)b->i64[2];
    const int rms = b->fn == W31_FN_RMS_TIMED;
    cudaError_t e = jd_hash_fill_f64(g_xd, b->n, seed[0], b->lo, b->hi, jd_stream);
    if (e == cudaSuccess) e = jd_hash_fill_f64(g_gd, cols, gamma_seed(seed[0]), 0.5f, 1.5f, jd_stream);
    if (e == cudaSuccess && !rms) e = jd_hash_fill_f64(g_bd, cols, beta_seed(seed[0]), -1, 1, jd_stream);
    if (e == cudaSuccess)
        e = jd_w31_norm_check_f32(out, g_xd, g_gd, g_bd, (size_t)b->i64[1], (int)cols, rms, b->f64[0], W31_BW_TOL, 2e-6,
                                  bad, jd_stream);
    return jd_full_check_done(e, bad, h);
}

/* The ladder: every hidden size timed through the protocol, the slowest
 * against COPY into the record. */
static void judge_ladder(jd_ck *k, int rms)
{
    const size_t bytes = wb_bench_bytes(), max_n = bytes / 4;
    double value[W31_N_HIDDEN], ms[W31_N_HIDDEN], runner_ms[W31_N_HIDDEN], copy = NAN;
    size_t rows_of[W31_N_HIDDEN];
    int calls[W31_N_HIDDEN], worst = -1;
    char why[600] = "", detail[200] = "";
    g_xd = g_gd = g_bd = NULL;
    const size_t max_cols = (size_t)W31_HIDDEN[W31_N_HIDDEN - 1];
    if (cudaMalloc((void **)&g_xd, max_n * sizeof(double)) != cudaSuccess ||
        cudaMalloc((void **)&g_gd, max_cols * sizeof(double)) != cudaSuccess ||
        cudaMalloc((void **)&g_bd, max_cols * sizeof(double)) != cudaSuccess) {
        snprintf(why, sizeof why, "the judge's own buffers: cudaMalloc failed");
        goto out;
    }
    for (size_t h = 0; h < W31_N_HIDDEN && !why[0]; h++) {
        const int cols = W31_HIDDEN[h];
        const size_t rows = bytes / 4 / (size_t)cols, n = rows * (size_t)cols;
        memset(&g_bench, 0, sizeof g_bench);
        memset(g_stats, 0, sizeof g_stats);
        g_bench.fn = rms ? W31_FN_RMS_TIMED : W31_FN_LN_TIMED, g_bench.n_in = 1, g_bench.max_k = JD_BENCH_MAX_K;
        g_bench.n = n, g_bench.out_n = n + (rms ? 1 : 2) * rows, g_bench.in_bytes = (n + (rms ? 1 : 2) * (size_t)cols) * 4;
        g_bench.lo = -4, g_bench.hi = 4, g_bench.atol = W31_BW_TOL, g_bench.rtol = W31_BW_TOL;
        g_bench.i64[1] = (long long)rows, g_bench.i64[2] = cols, g_bench.i64[3] = W31_WELFORD;
        g_bench.fn_name = rms ? "rmsnorm" : "layernorm_welford", g_bench.out_name = "out (y, then mean and rstd)";
        if (rms) g_bench.out_name = "out (y, then rstd)";
        g_bench.fill = norm_fill, g_bench.fresh = norm_fresh;
        g_bench.expect = norm_expect, g_bench.full_check = norm_check;
        char w[600];
        if (jd_bench_run(k->J, &g_bench, TIMED, &ms[h], w, sizeof w) != 0) {
            snprintf(why, sizeof why, "hidden %d (%zu x %d; the timed calls' eps is drawn afresh in [0.25, 1.25) each "
                     "request): %s", cols, rows, cols, w);
            break;
        }
        value[h] = w31_bw_bytes(rms, rows, cols) / (ms[h] * 1e-3) / 1e9;
        rows_of[h] = rows, calls[h] = g_bench.k, runner_ms[h] = g_bench.runner_ms;
        if (worst < 0 || value[h] < value[worst]) worst = (int)h; /* one COPY figure: the lowest GB/s is the lowest ratio */
    }
    if (!why[0]) {
        copy = jd_copy_yard(); /* through the same protocol: the larger of before any student code ran and now */
        if (!(copy > 0)) snprintf(why, sizeof why, "no COPY figure: %s", jd_copy_yard_why());
        for (size_t h = 0; h < W31_N_HIDDEN; h++)
            printf("  %s, %zu x %d: %.4f ms a call by the judge's clock (%.4f by the runner's own), %.0f GB/s, %.3f of "
                   "COPY %.0f GB/s (%d calls a request, median of %d)%s\n", g_bench.fn_name, rows_of[h], W31_HIDDEN[h],
                   ms[h], runner_ms[h], value[h], value[h] / copy, copy, calls[h], TIMED,
                   (int)h == worst ? ": the slowest, judged" : "");
        snprintf(detail, sizeof detail, "hidden %d, the slowest of 4: %.0f GB/s vs COPY %.0f GB/s (judge's clock, %d calls "
                 "a request, median of %d)", W31_HIDDEN[worst], value[worst], copy, calls[worst], TIMED);
    }
out:
    if (g_xd) cudaFree(g_xd);
    if (g_gd) cudaFree(g_gd);
    if (g_bd) cudaFree(g_bd);
    g_xd = g_gd = g_bd = NULL;
    jd_speed_result(k->R, k->t, k->c, k->gpu, worst >= 0 ? value[worst] : NAN, "GB/s", "COPY", copy, detail, why);
}

static void judge_layernorm_bw(jd_ck *k) { judge_ladder(k, 0); }
static void judge_rmsnorm_bw(jd_ck *k) { judge_ladder(k, 1); }

/* COPY of an array of the test's size (wb_bench_bytes(), read and written:
 * 8 bytes a float of wb_bench_bytes() / 4) for both speed checkpoints. */
static const jd_checkpoint CPS[] = {
    { "w31.moments", judge_moments_gpu, judge_moments, 1, 0 },
    { "w31.welford-stable", judge_stable, judge_stable_cpu, 0, 0 },
    { "w31.layernorm-twopass", judge_twopass, NULL, 0, 0 },
    { "w31.layernorm-welford", judge_welford, NULL, 0, 0 },
    { "w31.layernorm-sumsq", judge_sumsq, NULL, 0, 0 },
    { "w31.rmsnorm", judge_rmsnorm, NULL, 0, 0 },
    { "w31.layernorm-bw", judge_layernorm_bw, NULL, 0, 8 },
    { "w31.rmsnorm-bw", judge_rmsnorm_bw, NULL, 0, 8 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w31", "phase6/week31", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
