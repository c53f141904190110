/* judge_w36.c — build/instructor/judge-w36: week 36's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's traffic.o, smx.o and split.o are linked into the runner
 * (judge_w36_runner.c), which this process starts (or is handed) and asks
 * to call them on buffers it allocated (judge.h). It poisons, fills, times
 * and checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record, the guarded
 * buffers, the timed-call protocol and the COPY yardstick are judge_week.c's:
 *
 *   judge-w36 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week36.c's, shared through phase6/week36/w36_checks.h
 * (the traffic model, the mask, the double reference, the shapes, specials,
 * offsets, tolerances, how each case is drawn, the benchmarks' shapes), each
 * case drawn as the test draws it for the seed (wb_rng_for_seed with the
 * test's tag):
 *   w36.traffic    traffic_variant_bytes, a CPU function (judged with or
 *                  without a GPU; without one the runner opens none): the
 *                  test's 10 shapes x 3 variants against the week's model
 *                  (24 / 16, 8 / 12, 12 bytes a score), exactly; its 5 empty
 *                  shapes (0 bytes) and the two variants that do not exist (-1);
 *   w36.smx        smx_fused on the test's 26 shapes (empty ones, rows >
 *                  cols, every on-chip size and its edges, 2^20 + 3 keys,
 *                  70000 rows) and its 8 offset cases (S and P each at float
 *                  offsets 0-3, cols on-chip and past it), with the test's
 *                  specials in rows 0-7 (logits near 1e4, +-1e4, -Inf keys,
 *                  an all -Inf row, a NaN, a +Inf, a masked NaN, one key
 *                  left), against the test's double reference at 1e-4 / cols
 *                  + 2e-4 |ref|, a NaN reference wanting a NaN (the poison
 *                  left there counted as not written), P guarded (nothing
 *                  written outside it, its lead included);
 *   w36.split      split_smx_tmp_bytes on the test's 5 shapes (at least a
 *                  (max, sum) pair a chunk of every row) and 0 for an empty
 *                  shape (a CPU function: without a GPU this part alone,
 *                  whose FAIL stands and whose PASS does not); with a GPU
 *                  then split_smx on the same 26 shapes, 8 offset cases and
 *                  the test's 9 x (2^22 + 7) causal case, the scratch the
 *                  size split_smx_tmp_bytes reports (asked through the
 *                  runner for each case, at most 1 GiB; NULL where it says
 *                  0), poisoned before each call and its guard band checked;
 *   w36.smx-speed  smx_fused on the test's prefill shape (wb_bench_bytes() /
 *                  4 / (256 x 4096) heads of 256 causal queries x 4096 keys,
 *                  scale 0.125), w36.split-speed split_smx on its decode
 *                  shape (32 heads x 1 query x wb_bench_bytes() / 4 / 32
 *                  keys, rounded down to 4096): the timed-call protocol
 *                  (judge_week.h): up to 64 calls a request, each on its own
 *                  scores (fresh from the hidden seed before every request,
 *                  uniform in [-16, 16) as the test's) and a poisoned P (and
 *                  the scratch split_smx_tmp_bytes asks for, after S in its
 *                  buffer, poisoned), the judge's look after the reply, and
 *                  every P checked in full by the judge's kernels
 *                  (judge_w36_kernels.cu: each row's max and sum in double,
 *                  every element at the test's 1e-4 / cols + 2e-4 |ref|; the
 *                  test samples 2^10 positions). The figure is GB/s at the
 *                  week's 8 (fused) and 12 (split) bytes a score against COPY
 *                  of an array of wb_bench_bytes() (copy_yard 8: the test
 *                  copies the scores, the same bytes to within a row),
 *                  timed through the same protocol (jd_copy_yard); the
 *                  median of 7 requests. The given chain the test prints
 *                  beside w36.smx-speed is not timed there (a print only);
 *   w36.model      the test's four timings: the given chain (yard_smx_unfused,
 *                  the week's support/yard_unfused.o, timed through the
 *                  judge's own yard runner judge-w36-yard-runner, no student
 *                  object), smx_fused and split_smx at the prefill shape and
 *                  split_smx at the decode shape, each through the protocol
 *                  as above, with the bytes the student's
 *                  traffic_variant_bytes reports for that shape (asked
 *                  through the runner) over the judge's time against COPY
 *                  (one figure for both shapes: the test copies each
 *                  shape's scores, both wb_bench_bytes() to within a row):
 *                  a failed run, bytes <= 0 or a fit above 1.15 is the
 *                  verdict (as the test's invalid headline), else the figure
 *                  is the lowest fit of the four; the target week.txt's;
 *   w36.hurts      smx_fused and split_smx at both shapes through the
 *                  protocol, every output checked: PASS when all four ran
 *                  right, the four times and the two speed-ups in the
 *                  record's detail (reported, no target, as the test's).
 * A timed run's P is the test's sx_expect: z = scale x S rounded once to
 * float, each row's max and sum in double. Every checkpoint of week 36 is
 * judged: none is left to the linked test.
 * Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS (7 of 7; w36.smx-speed 0.789 against 0.71, w36.split-speed 0.904 against 0.75, w36.model 0.781 against 0.70), the starter FAIL (7). Without a
 * GPU the plumbing is tested by instructor/tests/judge_w36.sh (w36.traffic
 * PASS for the reference and FAIL for the starter, w36.split FAIL for the
 * starter and SKIP for the reference, every other checkpoint SKIP, never
 * PASS). */
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
#include "judge_w36.h"
#include "judge_w36_kernels.h"
#include "judge_week.h"
#include "w36_checks.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_rand.h"

#define TIMED    7
#define TMP_CAP  ((size_t)1 << 30) /* the most scratch the judge gives split_smx */
#define COUNT(a) W36_COUNT(a)

/* ---------------------------------------------------------------- the CPU functions */

/* traffic_variant_bytes through the runner: 0 and *b, or -1 (t says why). */
static int ask_traffic(jd *J, int v, int batch, int rows, int cols, int causal, double *b, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W36_FN_TRAFFIC, 1, 0);
    rq.i64[1] = batch, rq.i64[2] = rows, rq.i64[3] = cols, rq.i64[4] = causal, rq.i64[5] = v;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "traffic_variant_bytes: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *b) return jd_failf(t, "traffic_variant_bytes: no answer from the runner"), -1;
    memcpy(b, rp.out, sizeof *b);
    return 0;
}

/* split_smx_tmp_bytes through the runner: 0 and *b, or -1 (t says why). */
static int ask_tmp(jd *J, int batch, int rows, int cols, unsigned long long *b, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W36_FN_TMP_BYTES, 1, 0);
    rq.i64[1] = batch, rq.i64[2] = rows, rq.i64[3] = cols;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "split_smx_tmp_bytes: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *b) return jd_failf(t, "split_smx_tmp_bytes: no answer from the runner"), -1;
    memcpy(b, rp.out, sizeof *b);
    return 0;
}

/* The test's traffic_model. */
static void judge_traffic(jd *J, jd_tally *t)
{
    const int(*SH)[4] = TRAFFIC_SH, (*EMPTY)[3] = TRAFFIC_EMPTY;
    double got = 0, g2 = 0;
    t->tests++;
    for (size_t k = 0; k < COUNT(TRAFFIC_SH); k++)
        for (int v = 0; v < FUS_VARIANTS; v++) {
            double want = model_bytes_per_score(v, SH[k][2], SH[k][3]) * SH[k][0] * SH[k][1] * (double)SH[k][2];
            if (ask_traffic(J, v, SH[k][0], SH[k][1], SH[k][2], SH[k][3], &got, t)) return;
            if (got != want) {
                jd_failf(t, "%s, batch %d rows %d cols %d %s: traffic_variant_bytes says %.17g bytes, the model gives "
                         "%.17g (%g bytes a score); list its kernels and what each reads and writes", VARIANT_NAMES[v],
                         SH[k][0], SH[k][1], SH[k][2], SH[k][3] ? "causal" : "no mask", got, want,
                         model_bytes_per_score(v, SH[k][2], SH[k][3]));
                return;
            }
        }
    for (size_t k = 0; k < COUNT(TRAFFIC_EMPTY); k++)
        for (int v = 0; v < FUS_VARIANTS; v++) {
            if (ask_traffic(J, v, EMPTY[k][0], EMPTY[k][1], EMPTY[k][2], 1, &got, t)) return;
            if (got != 0) {
                jd_failf(t, "%s, batch %d rows %d cols %d: nothing to do, so 0 bytes; traffic_variant_bytes says %g",
                         VARIANT_NAMES[v], EMPTY[k][0], EMPTY[k][1], EMPTY[k][2], got);
                return;
            }
        }
    if (ask_traffic(J, -1, 1, 1, 1, 0, &got, t) || ask_traffic(J, FUS_VARIANTS, 1, 1, 1, 0, &g2, t)) return;
    if (got != -1 || g2 != -1) jd_failf(t, "a variant that does not exist must give -1");
}

static void judge_traffic_gpu(jd_ck *k) { judge_traffic(k->J, k->t); }

/* The test's split_tmp_size. */
static void judge_tmp_size(jd *J, jd_tally *t)
{
    const int(*SH)[3] = TMP_SH;
    unsigned long long got = 0, a = 0, b = 0, c = 0;
    t->tests++;
    for (size_t k = 0; k < COUNT(TMP_SH); k++) {
        size_t chunks = ((size_t)SH[k][2] + SPLIT_CHUNK - 1) / SPLIT_CHUNK;
        size_t need = (size_t)SH[k][0] * SH[k][1] * chunks * 2 * sizeof(float);
        if (ask_tmp(J, SH[k][0], SH[k][1], SH[k][2], &got, t)) return;
        if (got < need) {
            jd_failf(t, "split_smx_tmp_bytes(%d, %d, %d) = %llu: one (max, sum) pair of floats for each of the %zu "
                     "chunks of %zu rows needs %zu", SH[k][0], SH[k][1], SH[k][2], got, chunks,
                     (size_t)SH[k][0] * SH[k][1], need);
            return;
        }
    }
    if (ask_tmp(J, 0, 4, 4, &a, t) || ask_tmp(J, 4, 0, 4, &b, t) || ask_tmp(J, 4, 4, 0, &c, t)) return;
    if (a || b || c) jd_failf(t, "an empty shape needs no scratch: split_smx_tmp_bytes must say 0");
}

/* ---------------------------------------------------------------- the device cases */

enum { RUN_FUSED = 0, RUN_SPLIT = 1 };

/* The test's check_case: fresh scores, the specials, S and P at float
 * offsets oS and oP, P guarded and poisoned, the scratch (split) poisoned
 * and guarded. 0 when the case ran (passed or failed), -1 when the runner
 * or the judge's own copies failed. */
static int check_case(jd *J, jd_tally *t, wb_rng *rng, int which, int batch, int rows, int cols, int causal, size_t oS,
                      size_t oP)
{
    size_t nrows = batch > 0 && rows > 0 ? (size_t)batch * rows : 0, n = cols > 0 ? nrows * (size_t)cols : 0;
    if (n == 0) nrows = 0;
    float *hS = wb_hmalloc((n + oS) * 4 + 4), *hP = wb_hmalloc(n * 4 + 4);
    double *ref = wb_hmalloc(n * 8 + 8);
    float scale = case_draw(rng, hS, n, oS, nrows, rows, cols, causal);
    smx_ref(hS + oS, ref, nrows, rows, cols, scale, causal);
    char what[256];
    snprintf(what, sizeof what, "%s, batch %d rows %d cols %d %s, scale %g, S+%zu P+%zu%s",
             which == RUN_FUSED ? "smx_fused" : "split_smx", batch, rows, cols, causal ? "causal" : "no mask",
             (double)scale, oS, oP, n && cols >= 2 ? "; " : "");
    if (n && cols >= 2) strncat(what, SPECIALS, sizeof what - strlen(what) - 1);
    jd_gbuf gS = { -1, NULL, 0 }, gP = { -1, NULL, 0 }, gT = { -1, NULL, 0 };
    unsigned long long tb = 0;
    unsigned char *hT = NULL;
    int rc = 0;
    t->tests++;
    if (which == RUN_SPLIT) {
        if (ask_tmp(J, batch, rows, cols, &tb, t)) goto out_gone;
        if (tb > TMP_CAP) {
            jd_failf(t, "%s: split_smx_tmp_bytes says %llu bytes: the judge gives at most %zu", what, tb, TMP_CAP);
            goto out;
        }
    }
    if (jd_gbuf_alloc(J, &gS, (n + oS) * 4 + 4, t) || jd_gbuf_alloc(J, &gP, (n + oP) * 4 + 4, t) ||
        (tb && jd_gbuf_alloc(J, &gT, (size_t)tb, t)))
        goto out_gone;
    if (jd_gbuf_put(&gS, 0, hS, (n + oS) * 4) || jd_gbuf_poison(&gP, oP * 4, n * 4) ||
        (tb && jd_gbuf_poison(&gT, 0, (size_t)tb))) {
        jd_failf(t, "%s: the judge's own copies failed", what);
        goto out_gone;
    }
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, which == RUN_FUSED ? W36_FN_SMX : W36_FN_SPLIT, 1, which == RUN_FUSED ? 2 : 3);
    jd_gbuf_arg(&rq, 0, n + oS ? &gS : NULL, oS * 4); /* the test's wb_dcopy of no bytes: NULL */
    jd_gbuf_arg(&rq, 1, &gP, oP * 4);
    if (which == RUN_SPLIT) jd_gbuf_arg(&rq, 2, tb ? &gT : NULL, 0);
    rq.i64[1] = batch, rq.i64[2] = rows, rq.i64[3] = cols, rq.i64[4] = causal, rq.f64[0] = scale;
    if (jd_call(J, &rq, &rp, NULL) != 0) {
        jd_failf(t, "%s: %s", what, J->why);
        goto out_gone;
    }
    if (rp.status != 0) {
        jd_failf(t, "%s: %s returned %s", what, which == RUN_FUSED ? "smx_fused" : "split_smx",
                 rp.status < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)rp.status));
        goto out;
    }
    int f = jd_gbuf_fetch(&gP, oP * 4, n * 4, hP, "P", what, t);
    if (f < 0) goto out_gone;
    if (f > 0) goto out;
    for (size_t k = 0; k < n; k++) {
        uint32_t u;
        memcpy(&u, &hP[k], 4);
        if (!wb_close(hP[k], ref[k], smx_atol(cols), SMX_RTOL)) {
            jd_failf(t, "%s: P[%zu] expected %.9g got %.9g", what, k, ref[k], (double)hP[k]);
            goto out;
        }
        if (isnan(ref[k]) && u == 0xffffffffu) {
            jd_failf(t, "%s: P[%zu], where NaN is expected, was never written (it still holds the poison)", what, k);
            goto out;
        }
    }
    if (tb) { /* the scratch: nothing written past it */
        if (!(hT = malloc((size_t)tb))) {
            jd_failf(t, "%s: out of memory", what);
            goto out_gone;
        }
        f = jd_gbuf_fetch(&gT, 0, (size_t)tb, hT, "tmp", what, t);
        if (f < 0) goto out_gone;
    }
    goto out;
out_gone:
    rc = -1;
out:
    jd_gbuf_free(J, &gS), jd_gbuf_free(J, &gP), jd_gbuf_free(J, &gT);
    free(hS), free(hP), free(ref), free(hT);
    return rc;
}

/* The test's check_offsets: S and P at offsets 0-3, cols on chip (k < 4) or past it. */
static int check_offsets(jd *J, jd_tally *t, wb_rng *rng, int which, int k)
{
    int batch, rows, cols, causal;
    size_t oS, oP;
    offsets_shape(rng, k, &batch, &rows, &cols, &causal, &oS, &oP);
    return check_case(J, t, rng, which, batch, rows, cols, causal, oS, oP);
}

/* The shapes, the offsets (and, for split, the long case), each drawn from
 * the seed with the test function's name. */
static void run_cases(jd *J, jd_tally *t, int which)
{
    const char *tag_sh = which == RUN_FUSED ? W36_SMX_SHAPES_TAG : W36_SPLIT_SHAPES_TAG;
    const char *tag_off = which == RUN_FUSED ? W36_SMX_OFFSETS_TAG : W36_SPLIT_OFFSETS_TAG;
    for (int i = 0; i < (int)COUNT(SHAPES) && !J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, tag_sh, i);
        if (check_case(J, t, &rng, which, SHAPES[i][0], SHAPES[i][1], SHAPES[i][2], SHAPES[i][3], 0, 0) < 0) return;
    }
    for (int i = 0; i < W36_N_OFFSETS && !J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, tag_off, i);
        if (check_offsets(J, t, &rng, which, i) < 0) return;
    }
    if (which == RUN_SPLIT && !J->lost) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W36_SPLIT_LONG_TAG, 0);
        check_case(J, t, &rng, RUN_SPLIT, W36_LONG_BATCH, W36_LONG_ROWS, W36_LONG_COLS, 1, 0, 0);
    }
}

static void judge_smx(jd_ck *k) { run_cases(k->J, k->t, RUN_FUSED); }

static void judge_split(jd_ck *k)
{
    judge_tmp_size(k->J, k->t);
    if (!k->J->lost) run_cases(k->J, k->t, RUN_SPLIT);
}

/* ---------------------------------------------------------------- timed checkpoints */

/* The test's two shapes (w36_checks.h): prefill and decode. */
enum { SH_PREFILL = 0, SH_DECODE = 1 };
static void shape_of(int sh, int *batch, int *rows, int *cols)
{
    if (sh == SH_PREFILL) {
        *batch = (int)(wb_bench_bytes() / 4 / ((size_t)PF_ROWS * PF_COLS)), *rows = PF_ROWS, *cols = PF_COLS;
    } else {
        *batch = DC_BATCH, *rows = 1, *cols = (int)(wb_bench_bytes() / 4 / DC_BATCH / 4096 * 4096);
    }
}
static const char *const SHAPE_NAMES[2] = { "prefill", "decode" };

static jd_bench g_bench;          /* large: its sample arrays */
static double  *g_scratch, *g_dstats; /* the judge's device scratch: a rep's row statistics */
static size_t   g_scratch_n, g_stats_n;

/* Each rep's row statistics (M, S a row) on the host, computed on the
 * device for its seed when the look's expectations are first asked. */
static struct {
    unsigned long long seed;
    int                valid;
    double            *v;
} g_st[JD_BENCH_MAX_K];

static jd36_scores scores_of(const jd_bench *b, unsigned long long seed)
{
    jd36_scores in = { seed, b->lo, b->hi, (float)b->f64[0], (int)b->i64[1], (int)b->i64[2], (int)b->i64[3], (int)b->i64[4] };
    return in;
}

/* The scores from seed, and whatever follows them in the buffer (T of the
 * given chain, split_smx's scratch) poisoned. */
static void bench_fill(const jd_bench *b, void *in, unsigned long long seed)
{
    wb_dfill_uniform_f32(in, b->n, seed, b->lo, b->hi);
    if (b->in_bytes > b->n * 4) cudaMemsetAsync((char *)in + b->n * 4, 0xff, b->in_bytes - b->n * 4, 0);
}

static const double *stats_of(const jd_bench *b, const unsigned long long *seed)
{
    int r = 0;
    while (r < b->k && seed != b->seed[r]) r++;
    if (r == b->k) return NULL;
    if (g_st[r].valid && g_st[r].seed == seed[0]) return g_st[r].v;
    const jd36_scores in = scores_of(b, seed[0]);
    if (!g_st[r].v && !(g_st[r].v = malloc(g_stats_n * sizeof(double)))) return NULL;
    if (jd36_row_stats(&in, g_scratch, g_dstats, jd_stream) != cudaSuccess ||
        cudaMemcpyAsync(g_st[r].v, g_dstats, g_stats_n * sizeof(double), cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
        cudaStreamSynchronize(jd_stream) != cudaSuccess)
        return NULL;
    g_st[r].seed = seed[0], g_st[r].valid = 1;
    return g_st[r].v;
}

static void stats_reset(void)
{
    for (int r = 0; r < JD_BENCH_MAX_K; r++) free(g_st[r].v), g_st[r].v = NULL, g_st[r].valid = 0;
}

/* The test's sx_expect: exp(z - M) / S, 0 past the mask. */
static float bench_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    const double *st = stats_of(b, seed);
    if (!st) return NAN;
    const int rows = (int)b->i64[2], cols = (int)b->i64[3], causal = (int)b->i64[4];
    const size_t r = i / (size_t)cols;
    const long long j = (long long)(i % (size_t)cols);
    if (st[2 * r] == -INFINITY || j >= kept_of(r, rows, cols, causal)) return 0;
    const double z = zscale((float)b->f64[0], wb_hash_uniform_f32(seed[0], i, b->lo, b->hi));
    return (float)(exp(z - st[2 * r]) / st[2 * r + 1]);
}

static int bench_full(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    const jd36_scores in = scores_of(b, seed[0]);
    cudaError_t e = jd36_row_stats(&in, g_scratch, g_dstats, jd_stream);
    if (e == cudaSuccess) e = jd36_check(out, &in, g_dstats, b->atol, b->rtol, bad, jd_stream);
    return jd_full_check_done(e, bad, h);
}

/* Variant v (FUS_*) on shape sh through the protocol: the given chain
 * through the judge's yard runner, the student's through theirs. 0 and *ms
 * (a call), *n (scores), or -1 with why. */
static int time_variant(jd *J, int v, int sh, double *ms, size_t *n_out, char *why, size_t why_n)
{
    int batch, rows, cols;
    shape_of(sh, &batch, &rows, &cols);
    const size_t n = (size_t)batch * rows * (size_t)cols;
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.n_in = 1, g_bench.max_k = JD_BENCH_MAX_K, g_bench.n = n, g_bench.lo = W36_S_LO, g_bench.hi = W36_S_HI;
    g_bench.i64[1] = batch, g_bench.i64[2] = rows, g_bench.i64[3] = cols, g_bench.i64[4] = 1, g_bench.f64[0] = BSCALE;
    g_bench.atol = smx_atol(cols), g_bench.rtol = SMX_RTOL;
    g_bench.fill = bench_fill, g_bench.expect = bench_expect, g_bench.full_check = bench_full, g_bench.out_name = "P";
    if (v == FUS_SPLIT) {
        jd_tally t;
        unsigned long long tb = 0;
        memset(&t, 0, sizeof t);
        if (ask_tmp(J, batch, rows, cols, &tb, &t) != 0) return snprintf(why, why_n, "%s", t.msg), -1;
        if (tb > TMP_CAP)
            return snprintf(why, why_n, "split_smx_tmp_bytes(%d, %d, %d) says %llu bytes: the judge gives at most %zu",
                            batch, rows, cols, tb, TMP_CAP),
                   -1;
        const size_t off = (n * 4 + 255) / 256 * 256;
        g_bench.fn = W36_FN_SPLIT_TIMED, g_bench.in_bytes = off + (size_t)tb, g_bench.fn_name = "split_smx";
        g_bench.i64[5] = (long long)off, g_bench.i64[6] = (long long)tb;
    } else if (v == FUS_FUSED) {
        g_bench.fn = W36_FN_SMX, g_bench.fn_name = "smx_fused";
    } else {
        g_bench.fn = W36_YARD_UNFUSED, g_bench.in_bytes = 2 * n * 4, g_bench.fn_name = "yard_smx_unfused";
    }
    jd36_scores in = scores_of(&g_bench, 0);
    g_scratch_n = jd36_scratch_doubles(&in), g_stats_n = 2 * (size_t)batch * rows;
    if (cudaMalloc((void **)&g_scratch, g_scratch_n * sizeof(double)) != cudaSuccess) g_scratch = NULL;
    if (cudaMalloc((void **)&g_dstats, g_stats_n * sizeof(double)) != cudaSuccess) g_dstats = NULL;
    int rc = -1;
    stats_reset();
    if (!g_scratch || !g_dstats) snprintf(why, why_n, "the judge's own buffers: cudaMalloc failed");
    else if (v == FUS_UNFUSED) rc = jd_yard_bench(W36_YARD_RUNNER, &g_bench, TIMED, ms, why, why_n);
    else rc = jd_bench_run(J, &g_bench, TIMED, ms, why, why_n);
    stats_reset();
    if (g_scratch) cudaFree(g_scratch), g_scratch = NULL;
    if (g_dstats) cudaFree(g_dstats), g_dstats = NULL;
    if (rc != 0) return -1;
    *n_out = n;
    printf("  %s, %s %d x %d x %d: %.4f ms a call by the judge's clock (%.4f by the runner's own), %d calls a request\n",
           VARIANT_NAMES[v], SHAPE_NAMES[sh], batch, rows, cols, *ms, g_bench.runner_ms, g_bench.k);
    return 0;
}

/* One variant on one shape at the model's bytes a score against COPY. */
static void judge_speed(jd_ck *k, int v, int sh)
{
    double ms = NAN, value = NAN, copy = NAN;
    size_t n = 0;
    char why[700] = "", detail[200] = "";
    int batch, rows, cols;
    shape_of(sh, &batch, &rows, &cols);
    const double bps = model_bytes_per_score(v, cols, 1);
    if (time_variant(k->J, v, sh, &ms, &n, why, sizeof why) == 0) {
        copy = jd_copy_yard(); /* through the same protocol: the larger of before any student code ran and now */
        if (!(copy > 0)) snprintf(why, sizeof why, "no COPY figure: %s", jd_copy_yard_why());
        value = bps * (double)n / (ms * 1e-3) / 1e9;
        snprintf(detail, sizeof detail,
                 "%s %d x %d x %d, %g B/score: %.0f GB/s vs COPY %.0f GB/s (judge's clock, %d calls a request, median of %d)",
                 SHAPE_NAMES[sh], batch, rows, cols, bps, value, copy, g_bench.k, TIMED);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "GB/s", "COPY", copy, detail, why);
}

static void judge_smx_speed(jd_ck *k) { judge_speed(k, FUS_FUSED, SH_PREFILL); }
static void judge_split_speed(jd_ck *k) { judge_speed(k, FUS_SPLIT, SH_DECODE); }

/* The test's bench_model: the student's bytes over the judge's times. */
static void judge_model(jd_ck *k)
{
    static const struct { int v, sh; const char *name; } RUN[4] = {
        { FUS_UNFUSED, SH_PREFILL, "unfused, prefill" }, { FUS_FUSED, SH_PREFILL, "fused, prefill" },
        { FUS_SPLIT, SH_PREFILL, "split, prefill" },     { FUS_SPLIT, SH_DECODE, "split, decode" },
    };
    double lowest = INFINITY, low_v = NAN, copy = NAN;
    const char *low_name = "";
    char bad[700] = "", detail[200] = "";
    for (int r = 0; r < 4 && !bad[0]; r++) {
        int batch, rows, cols;
        shape_of(RUN[r].sh, &batch, &rows, &cols);
        double ms = NAN, yours = NAN;
        size_t n = 0;
        char why[600] = "";
        jd_tally t;
        memset(&t, 0, sizeof t);
        if (ask_traffic(k->J, RUN[r].v, batch, rows, cols, 1, &yours, &t) != 0) {
            snprintf(bad, sizeof bad, "%s: %s", RUN[r].name, t.msg);
            break;
        }
        if (time_variant(k->J, RUN[r].v, RUN[r].sh, &ms, &n, why, sizeof why) != 0) {
            snprintf(bad, sizeof bad, "%s: %s", RUN[r].name, why);
            break;
        }
        if (!(copy > 0)) copy = jd_copy_yard();
        if (!(copy > 0)) {
            snprintf(bad, sizeof bad, "no COPY figure: %s", jd_copy_yard_why());
            break;
        }
        const double gbps = yours / (ms * 1e-3) / 1e9, fit = gbps / copy;
        printf("  %-18s your %.4g B/score (the model's %g): %.0f GB/s, %.3f of COPY\n", RUN[r].name, yours / (double)n,
               model_bytes_per_score(RUN[r].v, cols, 1), gbps, fit);
        if (!(yours > 0)) snprintf(bad, sizeof bad, "%s: traffic_variant_bytes says %g bytes", RUN[r].name, yours);
        else if (isnan(fit)) snprintf(bad, sizeof bad, "%s: no valid time", RUN[r].name);
        else if (fit > FIT_HIGH)
            snprintf(bad, sizeof bad, "%s: your model gives %.0f GB/s, %.2f x COPY: more bytes than the kernel can have moved",
                     RUN[r].name, gbps, fit);
        else if (fit < lowest) lowest = fit, low_v = gbps, low_name = RUN[r].name;
    }
    if (!bad[0])
        snprintf(detail, sizeof detail, "lowest of the four: %s, %.0f GB/s of your bytes vs COPY %.0f GB/s (judge's clock, "
                 "median of %d)", low_name, low_v, copy, TIMED);
    jd_speed_result(k->R, k->t, k->c, k->gpu, low_v, "GB/s", "COPY", copy, detail, bad);
}

/* The test's bench_hurts: fused and split at both shapes, every output
 * checked; the times reported, no target. */
static void judge_hurts(jd_ck *k)
{
    double ms[2][2] = { { NAN, NAN }, { NAN, NAN } }; /* [prefill, decode][fused, split] */
    int pb, pr, pc, db, dr, dc;
    shape_of(SH_PREFILL, &pb, &pr, &pc), shape_of(SH_DECODE, &db, &dr, &dc);
    k->t->tests++;
    for (int sh = 0; sh < 2; sh++)
        for (int v = 0; v < 2; v++) {
            char why[600] = "";
            size_t n = 0;
            if (time_variant(k->J, v ? FUS_SPLIT : FUS_FUSED, sh, &ms[sh][v], &n, why, sizeof why) != 0) {
                jd_failf(k->t, "%s, %s: %s", v ? "split" : "fused", SHAPE_NAMES[sh], why);
                return;
            }
        }
    snprintf(k->R->detail, sizeof k->R->detail,
             "decode %dx%dx%d: fused %.3f ms, split %.3f ms (split %.2fx); prefill %dx%dx%d: fused %.3f ms, split %.3f "
             "ms (fused %.2fx; the model says 1.50x)", db, dr, dc, ms[1][0], ms[1][1], ms[1][0] / ms[1][1], pb, pr, pc,
             ms[0][0], ms[0][1], ms[0][1] / ms[0][0]);
    printf("  %s\n", k->R->detail);
}

/* COPY of an array of wb_bench_bytes() (read and written: 8 bytes a float
 * of wb_bench_bytes() / 4) for the three checkpoints against it, as the
 * test's wb_yard_copy_gbps(n x 4) of the scores. */
static const jd_checkpoint CPS[] = {
    { "w36.traffic", judge_traffic_gpu, judge_traffic, 1, 0 },
    { "w36.smx", judge_smx, NULL, 0, 0 },
    { "w36.smx-speed", judge_smx_speed, NULL, 0, 8 },
    { "w36.split", judge_split, judge_tmp_size, 0, 0 },
    { "w36.split-speed", judge_split_speed, NULL, 0, 8 },
    { "w36.model", judge_model, NULL, 0, 8 },
    { "w36.hurts", judge_hurts, NULL, 0, 0 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w36", "phase6/week36", CPS, (int)COUNT(CPS));
}
