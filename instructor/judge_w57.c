/* judge_w57.c — build/instructor/judge-w57: week 57's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (the week is graded with its
 * linked test until this judge has run on a GPU). It links no student code:
 * the student's paged_attn.o is linked into the runner (judge_w57_runner.c),
 * which this process starts (or is handed) and asks to call paged_attn,
 * paged_attn_merge and paged_attn_ws_floats on buffers it allocated
 * (judge.h). It poisons, fills, times and checks, and writes the results
 * record itself, outside the runner's reach. The command line, the runner's
 * start, the record, the guarded buffers, the timed-call protocol and the
 * COPY yardstick are judge_week.c's:
 *
 *   judge-w57 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases, their draws, the planted keys, the double reference and the
 * tolerances are test_week57.c's, shared through phase6/week57/
 * w57_checks.h: MG_CASES with w57_merge_draw (the partials and their
 * double merge), PA_CASES with pc_draw (pc_tables, pc_fill, pc_plant) and
 * pc_reference, ATOL 1e-3, RTOL 2^-8, MERGE_ATOL 1e-5; decode_args' calls
 * are copied here (they sit in the test's body). Each case is drawn as the
 * test draws it for the seed (wb_rng_for_seed with the test's tags,
 * W57_MERGE_TAG and W57_DECODE_TAG: the same inputs as the test's for the
 * same seed). Every input and output
 * sits in a guarded buffer (jd_gbuf: poisoned, JD_GBAND bytes of band each
 * side, read back with the bands checked):
 *   w57.merge         paged_attn_merge on the test's 5 cases (0 to 256
 *                     partitions a row, maxima in [-40, 40], near 1e4, and
 *                     of -600, 0, 600 with every third partition empty; the
 *                     partitions past a sequence's NaN, lengths 0), every
 *                     element of out against the double merge at MERGE_ATOL
 *                     + RTOL |ref|, nothing written outside out;
 *   w57.decode        paged_attn on the test's 17 cases (shuffled block
 *                     tables, unused blocks and slots NaN, table entries
 *                     past a sequence naming unused blocks, lengths 0 to
 *                     32768, block and partition edges with planted keys,
 *                     GQA 1, 2, 4, 8, D 64 and 128, block sizes 16, 32,
 *                     256, partitions 16, 256, 512 and none, max_seq_len
 *                     at the table's capacity), the workspace sized by the
 *                     student's paged_attn_ws_floats and poisoned, every
 *                     element of out against the double reference on the
 *                     host at ATOL + RTOL |ref|, nothing written outside out
 *                     or the workspace; then the test's decode_args:
 *                     paged_attn_ws_floats of its `good` call is 4 x 4 x
 *                     130, its 20 bad variants and paged_attn(NULL, ws)
 *                     return cudaErrorInvalidValue, batch 0 cudaSuccess,
 *                     the merge's head_dim 96 and partition 0 refused and
 *                     its batch 0 cudaSuccess, and out still the poison
 *                     after all of them. (The runner passes block_tables and
 *                     seq_lens from one buffer: a call carries at most six
 *                     pointers; the NULL block_tables case still passes a
 *                     seq_lens.)
 *   w57.decode-speed  the test's headline batch: 64 sequences of the
 *                     test's lengths (2048 to 6144, its fixed generator),
 *                     32 query heads on 8 KV heads, D 128, blocks of 16,
 *                     partition 512 (week.txt's; the test's PAGED_PARTITION
 *                     at its default), scale 1/sqrt(128), through the
 *                     timed-call protocol (judge_week.h): 16 calls a request
 *                     (a call reads about 1.07 GB, some 0.3 ms at the
 *                     target), each on its own input (one buffer: q bf16 in
 *                     [-2, 2), K and V bf16 in [-1, 1), filled on the device
 *                     from the hidden seed; the block table shuffled anew
 *                     from the same seed, where the test shuffles it once;
 *                     the lengths; the workspace) and its own poisoned out,
 *                     the judge's look right after the reply (256 words of
 *                     out a call: the word's upper bf16 against the double
 *                     reference at ATOL + 1e-4 and RTOL + 2^-7, the slack for
 *                     the lower bf16 in a float's low bits), then every
 *                     element of every timed out checked by the judge's
 *                     kernel (judge_w57_kernels.cu: the reference in double
 *                     from the judge's own copy of the rep's input, made
 *                     again from its seed) at ATOL and RTOL (the test checks
 *                     3 and 4 sampled sequence-head pairs); the median of 7
 *                     requests. The figure: the test's bytes (K and V of
 *                     every token, q and out, the tables and lengths) / the
 *                     median call's time, against COPY through the same
 *                     protocol (jd_copy_yard, copy_yard 16: an array of 2
 *                     wb_bench_bytes(), 960 MB on an H200, where the test
 *                     copies the 1.07 GB of K and V: both far past the L2,
 *                     at the same GB/s), BENCH_MAX_K calls a request as
 *                     the decode's (the protocol's fixed cost a request,
 *                     0.4-0.5 ms on an H200, then the same share of both:
 *                     at 36 copies a request against 16 decodes it was 8 %
 *                     of a decode call's time and 3 % of a copy's), the
 *                     larger of before the student's
 *                     runner started and after; the target is week.txt's.
 * Left to the linked test (unlisted: the grader runs it in the test program
 * and says so):
 *   w57.split         a report with no target (split-K and one block a
 *                     sequence and KV head, at the headline batch and at 4
 *                     x 32k tokens, each against COPY): it passes whenever
 *                     the student's timed outputs are right, and that
 *                     correctness is judged here (w57.decode's no-split
 *                     cases, 32k tokens among them; the headline's timed
 *                     outputs in w57.decode-speed).
 * Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS, the starter FAIL. Without a GPU the plumbing is tested by
 * instructor/tests/judge_w57.sh (every checkpoint SKIP, never PASS; the
 * week has no CPU checkpoint). */
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
#include "judge_w57.h"
#include "judge_w57_kernels.h"
#include "judge_week.h"
#include "paged_attn.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_f16.h"
#include "wb_rand.h"
#include "w57_checks.h"

#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))


static const char *status_name(int s) { return s < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)s); }

static void gb_none(jd_gbuf *b) { b->id = -1, b->d = NULL, b->cap = 0; }

/* The call rq, its status cudaSuccess, out (bytes of bo) read back into got
 * with its bands checked: 0; 1 when the call was wrong (t says why); -1 when
 * the runner or the judge's own copies failed. */
static int call_fetch(jd *J, jd_req *rq, const char *fn, jd_gbuf *bo, size_t bytes, void *got, const char *what,
                      jd_tally *t)
{
    jd_rep rp;
    if (jd_call(J, rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0) return jd_failf(t, "%s: %s returned %s", what, fn, status_name(rp.status)), 1;
    const int f = jd_gbuf_fetch(bo, 0, bytes, got, "out", what, t);
    return f < 0 ? -1 : f;
}

/* ---------------------------------------------------------------- w57.merge */


/* Case i drawn as the test draws it, run, every element checked: 0 when it
 * ran (passed or failed), -1 when the runner or the judge's copies failed. */
static int merge_case(jd *J, int i, jd_tally *t)
{
    const mg_case *c = &MG_CASES[i];
    wb_rng rng = wb_rng_for_seed(jd_seed, W57_MERGE_TAG, i);
    float *ml, *po;
    double *ref;
    size_t nml, npo;
    const int P = w57_merge_draw(&rng, c, &ml, &po, &ref, &nml, &npo);
    const size_t rows = (size_t)c->batch * c->heads, nout = rows * c->D;
    float *g = wb_hmalloc(nout * 4 + 4);
    uint16_t *got = wb_hmalloc(nout * 2 + 2);
    char what[220];
    w57_merge_what(c, P, what, sizeof what);
    jd_gbuf bm, bp, bl, bo;
    gb_none(&bm), gb_none(&bp), gb_none(&bl), gb_none(&bo);
    int rc = -1;
    t->tests++;
    if (jd_gbuf_alloc(J, &bm, nml * 4, t) || jd_gbuf_alloc(J, &bp, npo * 4, t) ||
        jd_gbuf_alloc(J, &bl, (size_t)c->batch * 4, t) || jd_gbuf_alloc(J, &bo, nout * 2, t))
        goto out;
    if (jd_gbuf_put(&bm, 0, ml, nml * 4) || jd_gbuf_put(&bp, 0, po, npo * 4) ||
        jd_gbuf_put(&bl, 0, c->lens, (size_t)c->batch * 4) || jd_gbuf_poison(&bo, 0, nout * 2)) {
        jd_failf(t, "%s: the judge's own copies failed", what);
        goto out;
    }
    jd_req rq;
    jd_call_setup(&rq, W57_FN_MERGE, 1, 4);
    jd_gbuf_arg(&rq, 0, &bm, 0), jd_gbuf_arg(&rq, 1, &bp, 0), jd_gbuf_arg(&rq, 2, &bl, 0), jd_gbuf_arg(&rq, 3, &bo, 0);
    rq.i64[0] = (long long)nout, rq.i64[1] = c->batch, rq.i64[2] = c->heads, rq.i64[3] = c->D, rq.i64[4] = P;
    rq.i64[5] = c->partition;
    const int f = call_fetch(J, &rq, "paged_attn_merge", &bo, nout * 2, got, what, t);
    rc = f < 0 ? -1 : 0;
    if (f) goto out;
    for (size_t e = 0; e < nout; e++) g[e] = wb_bf16_to_f32(got[e]);
    wb_cmp cmp;
    if (wb_compare_f32_f64("out", g, ref, nout, MERGE_ATOL, RTOL, &cmp))
        jd_failf(t, "%s; first bad: sequence %zu (length %d), head %zu, d %zu: %s", what, cmp.first_bad / c->D / c->heads,
                 c->lens[cmp.first_bad / c->D / c->heads], cmp.first_bad / c->D % c->heads, cmp.first_bad % c->D,
                 cmp.msg);
out:
    jd_gbuf_free(J, &bm), jd_gbuf_free(J, &bp), jd_gbuf_free(J, &bl), jd_gbuf_free(J, &bo);
    free(ml), free(po), free(g), free(ref), free(got);
    return rc;
}

static void judge_merge(jd_ck *k)
{
    for (int i = 0; i < N_OF(MG_CASES) && !k->J->lost; i++)
        if (merge_case(k->J, i, k->t) < 0) return;
}

/* ---------------------------------------------------------------- w57.decode */

/* The call's scalars (W57_FN_DECODE, W57_FN_WS). */
typedef struct {
    int batch, hq, kvh, D, nblk, bs, maxb, max_len, partition;
    float scale;
    int lens_off; /* seq_lens' offset in int32s from the block tables' start */
} pa_scalars;

static void pa_put(jd_req *rq, const pa_scalars *s)
{
    rq->i64[1] = s->batch, rq->i64[2] = s->hq, rq->i64[3] = s->kvh, rq->i64[4] = s->D, rq->i64[5] = s->nblk;
    rq->i64[6] = s->bs, rq->i64[7] = s->maxb;
    rq->f64[0] = (double)s->scale, rq->f64[1] = s->max_len, rq->f64[2] = s->partition, rq->f64[3] = s->lens_off;
}

/* paged_attn_ws_floats and paged_attn_ws_ml_floats of s through the runner: 0, or -1 (t says why). */
static int pa_ws(jd *J, const pa_scalars *s, uint64_t w[2], jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W57_FN_WS, 1, 0);
    pa_put(&rq, s);
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "paged_attn_ws_floats: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != 2 * sizeof(uint64_t))
        return jd_failf(t, "paged_attn_ws_floats: no answer from the runner"), -1;
    memcpy(w, rp.out, 2 * sizeof(uint64_t));
    return 0;
}

/* Case i, drawn as the test's decode_cases draws it: q, the caches, the
 * tables (seq_lens after them) in guarded buffers, out and the workspace
 * poisoned, every element of out against the double reference, nothing
 * written outside out or the workspace. 0 when it ran, -1 when the runner or
 * the judge's copies failed. */
static int decode_case(jd *J, int i, jd_tally *t)
{
    const pa_case *pc = &PA_CASES[i];
    wb_rng rng = wb_rng_for_seed(jd_seed, W57_DECODE_TAG, i);
    pcache c;
    pc_draw(&rng, pc, &c);
    const int Hq = c.kvh * c.G;
    const size_t nout = (size_t)c.batch * Hq * c.D, ntab = (size_t)c.batch * c.maxb;
    const pa_scalars s = { c.batch, Hq, c.kvh, c.D, c.nblk, c.bs, c.maxb, pc->deep ? c.maxb * c.bs : c.max_len,
                           c.partition, (float)(1.0 / sqrt((double)c.D)), (int)ntab };
    int32_t *tl = wb_hmalloc((ntab + c.batch) * 4);
    memcpy(tl, c.table, ntab * 4);
    for (int b = 0; b < c.batch; b++) tl[ntab + b] = c.lens[b];
    uint16_t *got = wb_hmalloc(nout * 2 + 2);
    double *ref = wb_hmalloc(nout * 8 + 8);
    float *g = wb_hmalloc(nout * 4 + 4);
    jd_gbuf bq, bk, bv, bt, bo, bw;
    gb_none(&bq), gb_none(&bk), gb_none(&bv), gb_none(&bt), gb_none(&bo), gb_none(&bw);
    int rc = -1;
    char what[300];
    snprintf(what, sizeof what, "%s: batch %d, %d query heads on %d KV heads, D %d, block size %d, %s%d%s, max_seq_len %d",
             pc->name, c.batch, Hq, c.kvh, c.D, c.bs, c.partition ? "partition " : "", c.partition,
             c.partition ? "" : " (no split)", s.max_len);
    uint64_t w[2];
    if (pa_ws(J, &s, w, t) != 0) goto out;
    t->tests++;
    if (jd_gbuf_alloc(J, &bq, nout * 2, t) || jd_gbuf_alloc(J, &bk, c.cache_elems * 2, t) ||
        jd_gbuf_alloc(J, &bv, c.cache_elems * 2, t) || jd_gbuf_alloc(J, &bt, (ntab + c.batch) * 4, t) ||
        jd_gbuf_alloc(J, &bo, nout * 2, t) || (w[0] && jd_gbuf_alloc(J, &bw, w[0] * 4, t)))
        goto out;
    if (jd_gbuf_put(&bq, 0, c.q, nout * 2) || jd_gbuf_put(&bk, 0, c.k, c.cache_elems * 2) ||
        jd_gbuf_put(&bv, 0, c.v, c.cache_elems * 2) || jd_gbuf_put(&bt, 0, tl, (ntab + c.batch) * 4) ||
        jd_gbuf_poison(&bo, 0, nout * 2) || (w[0] && jd_gbuf_poison(&bw, 0, w[0] * 4))) {
        jd_failf(t, "%s: the judge's own copies failed", what);
        goto out;
    }
    jd_req rq;
    jd_call_setup(&rq, W57_FN_DECODE, 1, 6);
    jd_gbuf_arg(&rq, 0, &bq, 0), jd_gbuf_arg(&rq, 1, &bk, 0), jd_gbuf_arg(&rq, 2, &bv, 0);
    jd_gbuf_arg(&rq, 3, &bt, 0), jd_gbuf_arg(&rq, 4, &bo, 0), jd_gbuf_arg(&rq, 5, w[0] ? &bw : NULL, 0);
    pa_put(&rq, &s);
    rq.i64[0] = 0;
    int f = call_fetch(J, &rq, "paged_attn", &bo, nout * 2, got, what, t);
    if (!f && w[0]) { /* the workspace's bands: nothing written past it */
        float *scratch = wb_hmalloc(w[0] * 4);
        f = jd_gbuf_fetch(&bw, 0, w[0] * 4, scratch, "the workspace", what, t);
        free(scratch);
    }
    rc = f < 0 ? -1 : 0;
    if (f) goto out;
    pc_reference(&c, ref);
    for (size_t e = 0; e < nout; e++) g[e] = wb_bf16_to_f32(got[e]);
    wb_cmp cmp;
    if (wb_compare_f32_f64("out", g, ref, nout, ATOL, RTOL, &cmp)) {
        const size_t e = cmp.first_bad, row = e / c.D;
        const int b = (int)(row / Hq);
        jd_failf(t, "%s; first bad: sequence %d (length %d), head %d, d %d: %s", what, b, c.lens[b], (int)(row % Hq),
                 (int)(e % c.D), cmp.msg);
    }
out:
    jd_gbuf_free(J, &bq), jd_gbuf_free(J, &bk), jd_gbuf_free(J, &bv), jd_gbuf_free(J, &bt), jd_gbuf_free(J, &bo);
    jd_gbuf_free(J, &bw);
    pc_free(&c);
    free(tl), free(got), free(ref), free(g);
    return rc;
}

/* The test's decode_args: its `good` call on a 64 KB bf16 buffer (q, k and
 * v), 4 KB of ints (tables and seq_lens), 64 KB of workspace and the
 * poisoned out (4 KB), each bad variant refused with cudaErrorInvalidValue,
 * paged_attn(NULL, ws) refused, batch 0 cudaSuccess, the merge's head_dim 96
 * and partition 0 refused and its batch 0 cudaSuccess, and none of them
 * writing a byte of out; paged_attn_ws_floats(good) = 4 partitions x 4 heads
 * x 130 floats. */
static void decode_args(jd *J, jd_tally *t)
{
    jd_gbuf bo, bb, bi, bw;
    gb_none(&bo), gb_none(&bb), gb_none(&bi), gb_none(&bw);
    const pa_scalars good = { 1, 4, 2, 128, 8, 16, 4, 64, 16, 0.088f, 0 };
    static const char *WHY[] = {
        "head_dim 96", "head_dim 0", "group of 3", "q heads not a multiple", "block size 8", "block size 48",
        "block size 512", "partition 100", "partition -16", "max_seq_len past the table", "scale 0", "scale NaN",
        "scale +inf", "q misaligned", "k_cache NULL", "block_tables NULL", "no workspace for a split", "batch -1",
        "num_kv_heads 0", "num_blocks 0", "NULL arguments", "batch 0 (nothing to do)",
    };
    uint64_t w[2];
    unsigned char host[4096];
    t->tests++;
    if (pa_ws(J, &good, w, t) != 0) return;
    if (w[0] != (uint64_t)1 * 4 * 4 * 130) {
        jd_failf(t, "paged_attn_ws_floats(batch 1, 4 query heads, D 128, max_seq_len 64, partition 16) = %llu, "
                 "expected %d (4 partitions of 16)", (unsigned long long)w[0], 1 * 4 * 4 * 130);
        return;
    }
    if (jd_gbuf_alloc(J, &bo, 4096, t) || jd_gbuf_alloc(J, &bb, 1 << 16, t) || jd_gbuf_alloc(J, &bi, 4096, t) ||
        jd_gbuf_alloc(J, &bw, 1 << 16, t))
        goto out;
    if (jd_gbuf_poison(&bo, 0, 4096) || jd_gbuf_poison(&bb, 0, 1 << 16) || jd_gbuf_poison(&bi, 0, 4096) ||
        jd_gbuf_poison(&bw, 0, 1 << 16)) {
        jd_failf(t, "bad arguments: the judge's own copies failed");
        goto out;
    }
    for (int i = 0; i < N_OF(WHY); i++) {
        pa_scalars s = good;
        int qoff = 0, no_k = 0, no_tab = 0, no_ws = 0, null_args = 0;
        switch (i) {
        case 0: s.D = 96; break;
        case 1: s.D = 0; break;
        case 2: s.hq = 6; break;
        case 3: s.hq = 5; break;
        case 4: s.bs = 8; break;
        case 5: s.bs = 48; break;
        case 6: s.bs = 512; break;
        case 7: s.partition = 100; break;
        case 8: s.partition = -16; break;
        case 9: s.max_len = 65; break;
        case 10: s.scale = 0; break;
        case 11: s.scale = NAN; break;
        case 12: s.scale = INFINITY; break;
        case 13: qoff = 2; break;
        case 14: no_k = 1; break;
        case 15: no_tab = 1; break;
        case 16: no_ws = 1; break;
        case 17: s.batch = -1; break;
        case 18: s.kvh = 0; break;
        case 19: s.nblk = 0; break;
        case 20: null_args = 1; break;
        default: s.batch = 0; break;
        }
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, W57_FN_DECODE, 1, 6);
        jd_gbuf_arg(&rq, 0, &bb, (size_t)qoff), jd_gbuf_arg(&rq, 1, no_k ? NULL : &bb, 0), jd_gbuf_arg(&rq, 2, &bb, 0);
        jd_gbuf_arg(&rq, 3, &bi, 0), jd_gbuf_arg(&rq, 4, &bo, 0);
        jd_gbuf_arg(&rq, 5, no_ws ? NULL : &bw, 0);
        pa_put(&rq, &s);
        rq.i64[0] = null_args ? 1 : no_tab ? 2 : 0;
        if (jd_call(J, &rq, &rp, NULL) != 0) {
            jd_failf(t, "bad arguments (%s): %s", WHY[i], J->why);
            goto out;
        }
        const int want = i == N_OF(WHY) - 1 ? (int)cudaSuccess : (int)cudaErrorInvalidValue;
        if (rp.status != want) {
            jd_failf(t, "paged_attn: %s %s; it returned %s", WHY[i],
                     want ? "must be refused (cudaErrorInvalidValue)" : "must return cudaSuccess", status_name(rp.status));
            goto out;
        }
    }
    static const struct {
        int D, partition, batch, want;
        const char *what;
    } MERGE[] = {
        { 96, 512, 1, cudaErrorInvalidValue, "merge: head_dim 96 must be refused" },
        { 128, 0, 1, cudaErrorInvalidValue, "merge: partition 0 must be refused" },
        { 128, 512, 0, cudaSuccess, "merge: batch 0 is nothing to do (cudaSuccess)" },
    };
    for (int i = 0; i < N_OF(MERGE); i++) {
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, W57_FN_MERGE, 1, 4);
        jd_gbuf_arg(&rq, 0, &bw, 0), jd_gbuf_arg(&rq, 1, &bw, 0), jd_gbuf_arg(&rq, 2, &bi, 0), jd_gbuf_arg(&rq, 3, &bo, 0);
        rq.i64[0] = 0, rq.i64[1] = MERGE[i].batch, rq.i64[2] = 4, rq.i64[3] = MERGE[i].D, rq.i64[4] = 1;
        rq.i64[5] = MERGE[i].partition;
        if (jd_call(J, &rq, &rp, NULL) != 0) {
            jd_failf(t, "%s: %s", MERGE[i].what, J->why);
            goto out;
        }
        if (rp.status != MERGE[i].want) {
            jd_failf(t, "paged_attn_merge: %s; it returned %s", MERGE[i].what, status_name(rp.status));
            goto out;
        }
    }
    const char *what = "refused calls and batch 0 write nothing";
    if (jd_gbuf_fetch(&bo, 0, 4096, host, "out", what, t)) goto out;
    for (size_t e = 0; e < 4096; e += 2)
        if (host[e] != 0xff || host[e + 1] != 0xff) {
            jd_failf(t, "a refused call or batch 0: out[%zu] was written (0x%02x%02x)", e / 2, host[e + 1], host[e]);
            goto out;
        }
out:
    jd_gbuf_free(J, &bo), jd_gbuf_free(J, &bb), jd_gbuf_free(J, &bi), jd_gbuf_free(J, &bw);
}

static void judge_decode(jd_ck *k)
{
    for (int i = 0; i < N_OF(PA_CASES) && !k->J->lost; i++)
        if (decode_case(k->J, i, k->t) < 0) return;
    if (!k->J->lost) decode_args(k->J, k->t);
}

/* ---------------------------------------------------------------- w57.decode-speed */

/* The timed shape (test_week57.c's pb_setup(64, 2048, 6144) at partition 512) */
enum { PB_B = 64, PB_KVH = 8, PB_G = 4, PB_HQ = PB_KVH * PB_G, PB_D = 128, PB_BS = 16, PB_PART = 512 };
#define TIMED       7
#define BENCH_MAX_K 16
#define COPY_YARD   16 /* COPY of 2 wb_bench_bytes() a call (960 MB on an H200; the test copies the ~1.07 GB of K and V) */

/* The batch's shape: the test's lengths (its fixed generator, seed 57, the
 * same every run) and its count of physical blocks; the block table of a
 * rep is shuffled from the rep's seed (the test shuffles it once). */
static struct {
    int32_t lens[PB_B];
    int     max_len, maxb, nblk;
    size_t  nq, cache, ntab, wsf, off[7];
    double  bytes; /* what the test counts a call reads and writes */
} g_pb;

static void pb_shape(void)
{
    wb_rng rng;
    wb_rng_seed(&rng, 57);
    long long tokens = 0;
    int need = 0;
    g_pb.max_len = 0;
    for (int b = 0; b < PB_B; b++) {
        g_pb.lens[b] = (int32_t)wb_rng_int(&rng, 2048, 6144);
        if (g_pb.lens[b] > g_pb.max_len) g_pb.max_len = g_pb.lens[b];
        need += (g_pb.lens[b] + PB_BS - 1) / PB_BS;
        tokens += g_pb.lens[b];
    }
    g_pb.maxb = (g_pb.max_len + PB_BS - 1) / PB_BS, g_pb.nblk = need + need / 16;
    g_pb.nq = (size_t)PB_B * PB_HQ * PB_D, g_pb.cache = (size_t)g_pb.nblk * PB_KVH * PB_BS * PB_D;
    g_pb.ntab = (size_t)PB_B * g_pb.maxb;
    g_pb.bytes = (double)tokens * PB_KVH * PB_D * 2 * 2 + 2.0 * g_pb.nq * 2 + (double)PB_B * (g_pb.maxb + 1) * 4;
}

/* The block tables of the rep filled from seed: the lengths' blocks in a
 * shuffled order, entries past a sequence's blocks its first (as the test's). */
static void pb_table(unsigned long long seed, int32_t *tab)
{
    wb_rng rng;
    wb_rng_seed(&rng, jd_mix(seed ^ 0x5707ull));
    int *perm = wb_hmalloc((size_t)g_pb.nblk * sizeof(int));
    for (int i = 0; i < g_pb.nblk; i++) perm[i] = i;
    for (int i = g_pb.nblk - 1; i > 0; i--) {
        int j = (int)wb_rng_int(&rng, 0, i), t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
    for (int b = 0, at = 0; b < PB_B; b++) {
        const int nb = (g_pb.lens[b] + PB_BS - 1) / PB_BS;
        for (int i = 0; i < g_pb.maxb; i++) tab[(size_t)b * g_pb.maxb + i] = i < nb ? perm[at++] : perm[0];
    }
    free(perm);
}

/* The seed of part p (0 q, 1 K, 2 V) of a rep's input. */
static unsigned long long part_seed(unsigned long long seed, int p) { return jd_mix(seed ^ (0x5700ull + (unsigned)p)); }

/* A rep's input from its seed (device, the default stream; waited for):
 * q bf16 in [-2, 2), K and V in [-1, 1) (the test's ranges), the tables
 * and lengths. 0, or -1. */
static int pb_fill_from(unsigned char *in, unsigned long long seed)
{
    static int32_t *tab;
    if (!tab) tab = wb_hmalloc(g_pb.ntab * 4);
    pb_table(seed, tab);
    wb_dfill_uniform_bf16((uint16_t *)(in + g_pb.off[0]), g_pb.nq, part_seed(seed, 0), -2, 2);
    wb_dfill_uniform_bf16((uint16_t *)(in + g_pb.off[1]), g_pb.cache, part_seed(seed, 1), -1, 1);
    wb_dfill_uniform_bf16((uint16_t *)(in + g_pb.off[2]), g_pb.cache, part_seed(seed, 2), -1, 1);
    if (cudaMemcpy(in + g_pb.off[3], tab, g_pb.ntab * 4, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(in + g_pb.off[4], g_pb.lens, sizeof g_pb.lens, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaStreamSynchronize(0) != cudaSuccess)
        return -1;
    return 0;
}

static void pb_fill(const jd_bench *b, void *in, unsigned long long seed)
{
    (void)b;
    pb_fill_from((unsigned char *)in, seed);
}

/* The judge's own copy of one rep's input (device memory the runner never
 * sees: the reference is not made from the buffers the runner was handed)
 * and the look's expected values for one rep, kept by the rep's seed and
 * the positions themselves. */
static struct {
    unsigned char      *in;
    unsigned long long  seed;
    int                 have;
    unsigned long long *idx_d;
    float              *at_d, at_h[JD_SAMPLES];
    unsigned long long  at_seed, at_idx[JD_SAMPLES]; /* the gathered values' rep and positions */
    int                 at_ok;
} g_ref;

static void ref_release(void)
{
    if (g_ref.in) cudaFree(g_ref.in);
    if (g_ref.idx_d) cudaFree(g_ref.idx_d);
    if (g_ref.at_d) cudaFree(g_ref.at_d);
    memset(&g_ref, 0, sizeof g_ref);
}

static int ref_inputs(unsigned long long seed)
{
    if (g_ref.have && g_ref.seed == seed) return 0;
    g_ref.have = 0;
    if (!g_ref.in && cudaMalloc((void **)&g_ref.in, g_pb.off[5]) != cudaSuccess) return g_ref.in = NULL, -1;
    if (pb_fill_from(g_ref.in, seed) != 0) return -1;
    g_ref.seed = seed, g_ref.have = 1;
    return 0;
}

static jd_w57_batch ref_batch(const jd_bench *b)
{
    jd_w57_batch B = { (const uint16_t *)(g_ref.in + g_pb.off[0]), (const uint16_t *)(g_ref.in + g_pb.off[1]),
                       (const uint16_t *)(g_ref.in + g_pb.off[2]), (const int32_t *)(g_ref.in + g_pb.off[3]),
                       (const int32_t *)(g_ref.in + g_pb.off[4]), PB_B, PB_HQ, PB_KVH, PB_D, PB_BS, g_pb.maxb,
                       1.0 / sqrt((double)PB_D) };
    (void)b;
    return B;
}

static float pb_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    if (!g_ref.at_ok || g_ref.at_seed != seed[0] || memcmp(g_ref.at_idx, b->idx_h, sizeof g_ref.at_idx) != 0) {
        g_ref.at_ok = 0;
        if ((!g_ref.idx_d && cudaMalloc((void **)&g_ref.idx_d, sizeof b->idx_h) != cudaSuccess) ||
            (!g_ref.at_d && cudaMalloc((void **)&g_ref.at_d, sizeof g_ref.at_h) != cudaSuccess) ||
            ref_inputs(seed[0]) != 0)
            return NAN; /* the look then fails: no figure from an unchecked run */
        const jd_w57_batch B = ref_batch(b);
        if (cudaMemcpyAsync(g_ref.idx_d, b->idx_h, sizeof b->idx_h, cudaMemcpyHostToDevice, jd_stream) != cudaSuccess ||
            jd_w57_at(&B, g_ref.idx_d, JD_SAMPLES, g_ref.at_d, jd_stream) != cudaSuccess ||
            cudaMemcpyAsync(g_ref.at_h, g_ref.at_d, sizeof g_ref.at_h, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
            cudaStreamSynchronize(jd_stream) != cudaSuccess)
            return NAN; /* the look then fails: no figure from an unchecked run */
        g_ref.at_seed = seed[0], g_ref.at_ok = 1;
        memcpy(g_ref.at_idx, b->idx_h, sizeof g_ref.at_idx);
    }
    for (int j = 0; j < JD_SAMPLES; j++)
        if (b->idx_h[j] == i) return g_ref.at_h[j];
    return NAN;
}

/* Every element of one rep's out against the double reference of that
 * rep's input, at the test's ATOL and RTOL; h[1] as an index of the
 * output's 4-byte words, as the look's. */
static int pb_full_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                         unsigned long long h[2])
{
    if (ref_inputs(seed[0]) != 0) return -1;
    const jd_w57_batch B = ref_batch(b);
    if (jd_full_check_done(jd_w57_check(&B, (const uint16_t *)out, ATOL, RTOL, bad, jd_stream), bad, h) != 0) return -1;
    if (h[0]) h[1] /= 2;
    return 0;
}

static jd_bench g_bench; /* large: its sample arrays */

static void judge_speed(jd_ck *k)
{
    pb_shape();
    const pa_scalars s = { PB_B, PB_HQ, PB_KVH, PB_D, g_pb.nblk, PB_BS, g_pb.maxb, g_pb.max_len, PB_PART,
                           (float)(1.0 / sqrt((double)PB_D)), 0 };
    uint64_t w[2];
    if (pa_ws(k->J, &s, w, k->t) != 0) { /* t says why */
        char why[sizeof k->t->msg];
        snprintf(why, sizeof why, "%s", k->t->msg);
        jd_speed_result(k->R, k->t, k->c, k->gpu, NAN, "GB/s", "COPY", NAN, "", why);
        return;
    }
    g_pb.wsf = (size_t)w[0];
    w57_timed_layout(g_pb.nq, g_pb.cache, g_pb.ntab, PB_B, g_pb.wsf, g_pb.off);
    jd_bench *x = &g_bench;
    memset(x, 0, sizeof *x);
    x->fn = W57_FN_DECODE_TIMED, x->n_in = 1, x->max_k = BENCH_MAX_K;
    x->n = g_pb.nq / 2;         /* the output's 4-byte words (bf16 pairs) */
    x->in_bytes = g_pb.off[6];  /* q | K | V | tables | lens | workspace */
    x->fill = pb_fill;
    x->lo = -1, x->hi = 1;      /* (the fill's own: q in [-2, 2), K and V in [-1, 1)) */
    x->atol = ATOL + 1e-4;      /* the look: a word's upper bf16 with the lower's bits below it */
    x->rtol = RTOL + 0x1p-7;
    x->i64[1] = PB_B, x->i64[2] = PB_HQ, x->i64[3] = PB_KVH, x->i64[4] = PB_D, x->i64[5] = g_pb.nblk;
    x->i64[6] = PB_BS, x->i64[7] = g_pb.maxb;
    x->f64[0] = (double)s.scale, x->f64[1] = g_pb.max_len, x->f64[2] = PB_PART, x->f64[3] = 0;
    x->expect = pb_expect, x->full_check = pb_full_check;
    x->fn_name = "paged_attn", x->out_name = "out (bf16 pairs)";
    jd_bw_checkpoint(k, x, TIMED, g_pb.bytes / (double)x->n, "paged_attn split 512, batch 64 x ~4k, 32q/8kv heads, D 128");
    ref_release();
}

static const jd_checkpoint CPS[] = {
    { "w57.merge", judge_merge, NULL, 0, 0, NULL },
    { "w57.decode", judge_decode, NULL, 0, 0, NULL },
    { "w57.decode-speed", judge_speed, NULL, 0, COPY_YARD, NULL, 0, BENCH_MAX_K },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w57", "phase6/week57", CPS, N_OF(CPS));
}
