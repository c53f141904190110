/* judge_w10.c — build/instructor/judge-w10: week 10's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's occupancy.o and volkov.o are linked into the runner
 * (judge_w10_runner.c, with the week's given support objects as the test
 * program has them), which this process starts (or is handed) and asks to
 * call them on what it sends (judge.h). It draws, poisons, fills, times and
 * checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record, the checked case
 * and the timed-call protocol are judge_week.c's:
 *
 *   judge-w10 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week10.c's (shared through phase2/week10/w10_checks.h):
 *   w10.calc         the student's occ_blocks_per_sm and occ_fraction called
 *                    by the runner on a device and a configuration the judge
 *                    puts in a host buffer both map, the answers (blocks,
 *                    limiter, fraction) coming back in the reply: the test's
 *                    14 hand-worked H100 cases and its two occ_fraction
 *                    values (w10_calc_hand); then 2000 configurations of
 *                    the judge's own, drawn from the seed (any block size
 *                    to 1024 and a few over it, 1 to 255 registers and a
 *                    few over, static and dynamic shared memory, opted in or
 *                    not) against the judge's own calculator of the
 *                    README's rules (blocks, the limiter where one block
 *                    fits, the fraction to 1e-12): "any configuration", not
 *                    only the test's (stricter). These run with or without
 *                    a GPU (without one a FAIL stands and a PASS is SKIP, as
 *                    the linked test's checkpoint is SKIP for its GPU part).
 *                    With a GPU, the test's comparison with the runtime
 *                    (w10_calc_runtime): 5 given kernels x 18 block sizes x
 *                    14 dynamic sizes on this device's limits, the runtime's
 *                    answer (cudaOccupancyMaxActiveBlocksPerMultiprocessor on
 *                    the week's given support/occ_kernels.cu, built from the
 *                    workbook's own copy and linked into this judge) asked
 *                    in the judge's process, the calculator's through the
 *                    runner;
 *   w10.volkov       the test's 44 cases (k = 1, 2, 4, 8, each on the 11
 *                    sizes from 0 to 2^22 + 3 and the test's grids), each
 *                    drawn as the test draws it for the seed (wb_rng_for_seed
 *                    with the test's tag: steps, a, b, the input and the
 *                    NaN, +-Inf and overflow it plants), every element of y
 *                    against the CPU replay (fmaf) exactly (NaN where NaN is
 *                    due, the poison left there counted as not written),
 *                    every other output one float into its buffer, nothing
 *                    written outside it (a poisoned guard band each side);
 *                    then 4 cases of the judge's own drawn from the seed
 *                    (any k of the four, n up to 2^21, any block size of
 *                    whole warps, 1 to 2048 blocks); then k = 0, -1, 3, 5, 16
 *                    refused with cudaErrorInvalidValue and y, poisoned,
 *                    untouched;
 *   w10.volkov-speed the timed-call protocol (judge_week.h): K calls a
 *                    request, each on its own x and y of SMs x 8192 floats
 *                    (the test's n), 4096 steps, x fresh from the hidden seed
 *                    and a and b new for every request (a in (1 - 2^-10,
 *                    1 - 2^-11], b in [1/32, 3/32): near the test's, the
 *                    chains stay finite; they travel in the request, so the
 *                    runner cannot have y ready as it watches the judge fill
 *                    x), a poisoned y, the judge's look after the reply and
 *                    every output checked in full, exactly, against the
 *                    replay by the judge's kernel (jd_fma_full_check; the
 *                    test samples 4096); the student's k = 8 on one block of
 *                    256 a SM; the median of 7 requests. The yardstick,
 *                    FULLOCC, is the week's given one-chain kernel
 *                    (yard_fullocc_chains, support/yard_fullocc.cu) on 8
 *                    blocks of 256 a SM, instructor code: the judge times it
 *                    itself through the same protocol (jd_yard_bench: a
 *                    runner of the instructor's, judge-w10-yard-runner
 *                    beside the judge, linked with the instructor's
 *                    yard_fullocc.o and no student object), on the same n,
 *                    steps and data (the same seed: each request's x, a and
 *                    b are the student's run's), every output checked in
 *                    full too; once before the student's runner starts and
 *                    once after the student's timed calls, the faster kept
 *                    (a runner can only slow the judge's GPU down), as week
 *                    11's given kernel is. The ratio is GFLOP/s over
 *                    FULLOCC's (2 x 4096 flops an element both ways), the
 *                    target week.txt's (0.88).
 * Not listed (judge-w10 --list), so the grader runs it in the week's linked
 * test program: w10.sweep (its CSV and PNG are files the test writes in the
 * student's build folder from figures measured in the student's process,
 * the PNG drawn by gnuplot there; it has no target. What it would add to a
 * verdict, that the calculator answers the sweep's configurations, w10.calc
 * establishes outside the student's process on the runtime's grid and on
 * the judge's drawn configurations).
 * Not yet run on a GPU. Without a GPU the plumbing and w10.calc's CPU part
 * are tested by instructor/tests/judge_w10.sh. */
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
#include "judge_w10.h"
#include "judge_week.h"
#include "w10_checks.h"
#include "wb_compare.h"
#include "wb_cuda.h"

#define TIMED 7
#define LO    (-1.0f) /* the race's inputs, as test_week10.c fills them */
#define HI    1.0f

/* ---------------------------------------------------------------- calculator */

#define CALC_DRAWN_TAG "w10_calc_drawn" /* the judge's own configurations (not the test's) */
#define N_CALC_DRAWN   2000

/* The runner's calls: the device and configuration put in the host buffer
 * both map, the answers read from the reply. The first failure of the
 * runner itself is kept in why (a check's own message is then not the
 * story); after it every call answers -1 and NaN. */
typedef struct {
    jd          *J;
    int          ib;
    w10_calc_io *io;
    char         why[300];
} calc_room;

static int calc_call(calc_room *v, const occ_device *d, const occ_config *c, w10_calc_reply *r)
{
    r->blocks = -1, r->limiter = -1, r->fraction = NAN;
    if (v->why[0]) return -1;
    v->io->d = *d, v->io->c = *c;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W10_FN_CALC, 1, 1);
    rq.arg_buf[0][0] = v->ib;
    if (jd_call(v->J, &rq, &rp, NULL) != 0) return snprintf(v->why, sizeof v->why, "occ_blocks_per_sm: %s", v->J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *r)
        return snprintf(v->why, sizeof v->why, "the runner could not call the calculator (%s)", rp.text), -1;
    memcpy(r, rp.out, sizeof *r);
    return 0;
}

static int rm_blocks(void *ctx, const occ_device *d, const occ_config *c, occ_limiter *limiter)
{
    w10_calc_reply r;
    calc_call(ctx, d, c, &r);
    if (limiter) *limiter = (occ_limiter)r.limiter;
    return r.blocks;
}

static double rm_fraction(void *ctx, const occ_device *d, const occ_config *c)
{
    w10_calc_reply r;
    calc_call(ctx, d, c, &r);
    return r.fraction;
}

/* The judge's own calculator of the README's rules (Background): the four
 * limits in the order warps, blocks, registers, shared memory, the first
 * to reach the minimum named; 0 (and no limiter) when one block does not
 * fit. Written apart from the reference solution. */
static long up_to(long x, long unit) { return unit > 0 ? (x + unit - 1) / unit * unit : x; }

static int ref_blocks(const occ_device *d, const occ_config *c, occ_limiter *why)
{
    *why = OCC_LIMIT_NONE;
    long t = c->threads_per_block, ws = d->warp_size, subs = d->sub_partitions;
    if (t < 1 || t > d->max_threads_per_block || c->regs_per_thread > d->max_regs_per_thread) return 0;
    long warps = (t + ws - 1) / ws;
    long warp_regs = up_to((long)c->regs_per_thread * ws, d->reg_alloc_unit);
    if (warp_regs * up_to(warps, subs) > d->regs_per_block) return 0; /* whole warps on every sub-partition */
    long bytes = up_to((long)(c->smem_static + c->smem_dynamic + d->smem_reserved_per_block), (long)d->smem_alloc_unit);
    long cap = (long)((c->opt_in ? d->smem_per_block_optin : d->smem_per_block) + d->smem_reserved_per_block);
    if (bytes > cap) return 0;
    long lim[4];
    lim[0] = d->max_threads_per_sm / ws / warps;
    lim[1] = d->max_blocks_per_sm;
    lim[2] = warp_regs ? d->regs_per_sm / subs / warp_regs * subs / warps : lim[1];
    lim[3] = bytes ? (long)d->smem_per_sm / bytes : lim[1];
    int best = 0;
    for (int j = 1; j < 4; j++)
        if (lim[j] < lim[best]) best = j;
    *why = (occ_limiter)(OCC_LIMIT_WARPS + best);
    return (int)lim[best];
}

/* A configuration: mostly what kernels have, sometimes over a limit. */
static void draw_config(wb_rng *r, occ_config *c)
{
    int64_t u = wb_rng_int(r, 0, 99);
    c->threads_per_block = u < 3 ? (int)wb_rng_int(r, 1025, 1100)
                         : u < 50 ? 32 * (int)wb_rng_int(r, 1, 32)
                                  : (int)wb_rng_int(r, 1, 1024);
    u = wb_rng_int(r, 0, 99);
    c->regs_per_thread = u < 3 ? (int)wb_rng_int(r, 256, 300) : u < 50 ? (int)wb_rng_int(r, 8, 64) : (int)wb_rng_int(r, 1, 255);
    c->smem_static = wb_rng_int(r, 0, 1) ? 0 : (size_t)wb_rng_int(r, 0, 49152);
    c->smem_dynamic = wb_rng_int(r, 0, 4) < 2 ? 0 : (size_t)wb_rng_int(r, 0, 232448);
    c->opt_in = (int)wb_rng_int(r, 0, 1);
}

/* The judge's drawn configurations on the H100's limits: 0, or 1 with the
 * first difference in why (-1: the runner failed, v->why). */
static int calc_drawn(calc_room *v, char *why, size_t why_n)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, CALC_DRAWN_TAG, 0);
    const occ_device *d = &W10_H100;
    for (int i = 0; i < N_CALC_DRAWN; i++) {
        occ_config c;
        draw_config(&rng, &c);
        occ_limiter wl;
        int want = ref_blocks(d, &c, &wl);
        double wf = (double)want * ((c.threads_per_block + d->warp_size - 1) / d->warp_size) /
                    (d->max_threads_per_sm / d->warp_size);
        w10_calc_reply r;
        if (calc_call(v, d, &c, &r) != 0) return -1;
        char what[160];
        snprintf(what, sizeof what, "%d threads, %d regs, %zu+%zu B shared%s (H100)", c.threads_per_block,
                 c.regs_per_thread, c.smem_static, c.smem_dynamic, c.opt_in ? " (opted in)" : "");
        if (r.blocks != want) return snprintf(why, why_n, "%s: %d blocks per SM, expected %d", what, r.blocks, want), 1;
        if (want > 0 && r.limiter != (int)wl)
            return snprintf(why, why_n, "%s: limited by %s, expected %s", what, w10_limit_name(r.limiter),
                            w10_limit_name(wl)), 1;
        if (!wb_close(r.fraction, wf, 0, 1e-12))
            return snprintf(why, why_n, "%s: occ_fraction %g, expected %g", what, r.fraction, wf), 1;
    }
    return 0;
}

/* The checks, each a test of the tally: the test's hand-worked cases, the
 * judge's drawn ones and, where dev is given (a GPU), the runtime's grid
 * on dev's limits. */
static void calc_checks(jd *J, jd_tally *t, const occ_device *dev)
{
    calc_room v;
    memset(&v, 0, sizeof v);
    v.J = J;
    v.ib = jd_alloc_kind(J, JD_MEM_HOST, sizeof *v.io, (void **)&v.io);
    if (v.ib < 0) return jd_failf(t, "buffers: %s", J->why);
    const w10_calc_ops ops = { rm_blocks, rm_fraction, &v };
    char why[400];
    for (int c = 0; c < (dev ? 3 : 2) && !J->lost; c++) {
        int bad = 0, compared = 0;
        t->tests++;
        if (c == 0) bad = w10_calc_hand(&ops, why, sizeof why);
        else if (c == 1) bad = calc_drawn(&v, why, sizeof why);
        else {
            char first[400];
            int wrong = w10_calc_runtime(&ops, dev, &compared, first, sizeof first);
            if (wrong < 0) snprintf(why, sizeof why, "the judge's runtime query: %s", first), bad = 1;
            else if (wrong) snprintf(why, sizeof why, "%d of %d configurations differ; first: %s", wrong, compared, first), bad = 1;
        }
        if (v.why[0]) { /* the runner failed: that is the story, and nothing after it runs */
            jd_failf(t, "%s", v.why);
            break;
        }
        if (bad) jd_failf(t, "%s", why);
    }
    jd_free(J, v.ib);
}

static void judge_calc_cpu(jd *J, jd_tally *t) { calc_checks(J, t, NULL); }

static void judge_calc(jd_ck *k)
{
    occ_device dev;
    cudaError_t e = w10_device(jd_dev, &dev);
    if (e != cudaSuccess) return jd_failf(k->t, "the judge's device query: %s", cudaGetErrorName(e));
    calc_checks(k->J, k->t, &dev);
}

/* ---------------------------------------------------------------- volkov */

#define VK_DRAWN_TAG  "w10_volkov_drawn" /* the judge's own cases (not the test's) */
#define N_VK_DRAWN    4
#define VK_DRAWN_MAXN ((size_t)1 << 21)
#define VK_TEST_CASES (W10_N_KS * (int)W10_N_VK_SIZES)

typedef struct {
    float *ref;
    wb_rng rng; /* the test's generator for one k, drawn case after case */
} vk_room;

/* The judge's case c: any k, n, block size of whole warps and grid. */
static void vk_drawn(int c, float *hx, float *ref, w10_vk_case *v)
{
    wb_rng r = wb_rng_for_seed(jd_seed, VK_DRAWN_TAG, c);
    v->k = W10_KS[wb_rng_int(&r, 0, W10_N_KS - 1)];
    v->n = (size_t)wb_rng_int(&r, 0, (int64_t)VK_DRAWN_MAXN);
    v->lead = (size_t)(c & 1);
    v->threads = 32 * (int)wb_rng_int(&r, 1, 32), v->blocks = (int)wb_rng_int(&r, 1, 2048);
    v->steps = (int)wb_rng_int(&r, 0, 40);
    v->a = (float)(wb_rng_unit(&r) * 2.2 - 1.1), v->b = (float)(wb_rng_unit(&r) * 2 - 1);
    wb_fill_uniform_f32(&r, hx, v->n, -4, 4);
    if (v->n >= 8) hx[wb_rng_int(&r, 0, (int64_t)v->n - 1)] = NAN, hx[wb_rng_int(&r, 0, (int64_t)v->n - 1)] = INFINITY;
    for (size_t i = 0; i < v->n; i++) ref[i] = w10_chain_ref(hx[i], v->steps, v->a, v->b);
}

/* Case i: the test's (k W10_KS[i / 11], size i % 11, in the test's order),
 * then the judge's own. */
static int vk_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    vk_room *v = ctx;
    w10_vk_case c;
    if (i < VK_TEST_CASES) {
        int ki = i / (int)W10_N_VK_SIZES;
        size_t j = (size_t)i % W10_N_VK_SIZES;
        if (j == 0) v->rng = wb_rng_for_seed(jd_seed, W10_VOLKOV_SIZES_TAG, ki);
        w10_vk_draw(&v->rng, ki, j, B->h[0], v->ref, &c);
    } else {
        vk_drawn(i - VK_TEST_CASES, B->h[0], v->ref, &c);
    }
    char what[160];
    snprintf(what, sizeof what, "k=%d, n=%zu, %d steps, a=%.9g, b=%.9g, %d blocks of %d threads", c.k, c.n, c.steps,
             (double)c.a, (double)c.b, c.blocks, c.threads);
    jd_case cs = { .fn = W10_FN_VOLKOV, .in = { B->h[0] }, .in_n = { c.n }, .n = c.n, .out_off = c.lead,
                   .ref = v->ref, .atol = 0, .rtol = 0, .i64 = { 0, c.steps, c.threads, c.blocks, c.k },
                   .f64 = { c.a, c.b }, .what = what, .out_name = "y", .fn_name = "volkov_chains" };
    return jd_case_run(J, B, &cs, t);
}

/* Any k but 1, 2, 4, 8: cudaErrorInvalidValue, and y (poisoned, with its
 * guard bands) untouched, as the test's volkov_rejects_k. */
static void vk_rejects(jd *J, jd_tally *t)
{
    enum { N = 1000 };
    const size_t all = JD_GUARD + N + JD_GUARD;
    jd_case_bufs B;
    t->tests++;
    if (jd_case_bufs_alloc(J, &B, 1, N, N, t) != 0) return jd_case_bufs_free(J, &B);
    wb_rng rng = wb_rng_for_seed(jd_seed, "volkov_rejects_k_fn", 0);
    wb_fill_uniform_f32(&rng, B.h[0], N, -1, 1);
    cudaError_t e = cudaMemcpy(B.d[0], B.h[0], N * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemset(B.d[1], 0xff, all * 4);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        jd_failf(t, "the judge's own copies: %s", cudaGetErrorName(e));
        return jd_case_bufs_free(J, &B);
    }
    for (size_t j = 0; j < W10_N_BAD_KS; j++) {
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, W10_FN_VOLKOV, 1, 2);
        rq.arg_buf[0][0] = B.ib[0], rq.arg_buf[0][1] = B.ib[1], rq.arg_off[0][1] = JD_GUARD * 4;
        rq.i64[0] = N, rq.i64[1] = 5, rq.i64[2] = 256, rq.i64[3] = 4, rq.i64[4] = W10_BAD_KS[j];
        rq.f64[0] = 0.5, rq.f64[1] = 0.25;
        if (jd_call(J, &rq, &rp, NULL) != 0) {
            jd_failf(t, "k=%d: %s", W10_BAD_KS[j], J->why);
            return jd_case_bufs_free(J, &B);
        }
        if (rp.status != (int)cudaErrorInvalidValue) {
            jd_failf(t, "k=%d: returned %s, expected cudaErrorInvalidValue", W10_BAD_KS[j],
                     cudaGetErrorName((cudaError_t)rp.status));
            return jd_case_bufs_free(J, &B);
        }
    }
    unsigned *h = (unsigned *)B.h[1];
    if ((e = cudaMemcpy(h, B.d[1], all * 4, cudaMemcpyDeviceToHost)) != cudaSuccess)
        jd_failf(t, "reading y back: %s", cudaGetErrorName(e));
    else
        for (size_t i = 0; i < all; i++)
            if (h[i] != 0xffffffffu) {
                long long at = (long long)i - JD_GUARD;
                if (at >= 0 && at < N) jd_failf(t, "y[%lld] = %g: a refused call wrote the output", at, (double)B.h[1][i]);
                else jd_failf(t, "after the refused calls: written outside y (%lld from its start)", at);
                break;
            }
    jd_case_bufs_free(J, &B);
}

static void judge_volkov(jd_ck *k)
{
    size_t cap = W10_VK_MAX_N > VK_DRAWN_MAXN ? W10_VK_MAX_N : VK_DRAWN_MAXN;
    vk_room v;
    memset(&v, 0, sizeof v);
    v.ref = malloc((cap + 1) * sizeof *v.ref);
    if (!v.ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 1, cap + 1, cap + 1, VK_TEST_CASES + N_VK_DRAWN, vk_one, &v);
    free(v.ref);
    if (!k->J->lost) vk_rejects(k->J, k->t);
}

/* ---------------------------------------------------------------- the race */

/* y[i]: x[i] (from seed[0]) after the request's steps of fmaf(v, a, b). */
static float vk_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    return w10_chain_ref(wb_hash_uniform_f32(seed[0], i, b->lo, b->hi), (int)b->i64[1], (float)b->f64[0],
                         (float)b->f64[1]);
}

/* a and b new for every request, drawn from the hidden value r, near the
 * test's (1 - 2^-11, 1/16): a = 1 - 2^-11 (1 + u), b = 1/32 + v/16, u and v
 * in [0, 1); from |x| < 1 the chains drift towards b / (1 - a), under 192,
 * and stay finite and normal. The same sequence for the student's run and
 * FULLOCC's: both start from the same seed. */
static void fresh_ab(jd_bench *b, uint64_t r)
{
    double u = (double)(jd_mix(r) >> 11) / 9007199254740992.0, v = (double)(jd_mix(r ^ 0xab) >> 11) / 9007199254740992.0;
    b->f64[0] = (float)(1.0 - (1.0 + u) / 2048.0);
    b->f64[1] = (float)(1.0 / 32 + v / 16);
}

static jd_bench g_mine, g_full; /* large: their sample arrays */
static double   g_full_before_ms = NAN;
static char     g_full_before_why[600];

/* The race's set-up on this GPU (its SM count): the student's k = 8 on
 * one block of 256 a SM, or FULLOCC on eight. 0, or -1 with why. */
static int bench_setup(jd_bench *x, int fn, const char *fn_name, char *why, size_t why_n)
{
    int sms = 0;
    cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, jd_dev);
    if (e != cudaSuccess || sms < 1) return snprintf(why, why_n, "the judge's device query: %s", cudaGetErrorName(e)), -1;
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 1, x->max_k = JD_BENCH_MAX_K, x->n = w10_vk_race_n(sms);
    x->lo = LO, x->hi = HI, x->atol = 0, x->rtol = 0; /* exact, as the test */
    x->i64[1] = W10_VK_STEPS, x->i64[2] = W10_VK_THREADS;
    x->i64[3] = fn == W10_FN_FULLOCC ? sms * W10_VK_FULL_BPS : sms, x->i64[4] = W10_VK_SPEED_K;
    x->f64[0] = W10_VK_A, x->f64[1] = W10_VK_B;
    x->fn_name = fn_name, x->out_name = "y";
    x->fresh = fresh_ab, x->expect = vk_expect, x->full_check = jd_fma_full_check;
    return 0;
}

/* Before the student's runner starts (jd_checkpoint.yard_before): FULLOCC
 * through the yard runner, ms a call, or NAN with why. */
static void full_before(void)
{
    if (bench_setup(&g_full, W10_FN_FULLOCC, "yard_fullocc_chains", g_full_before_why, sizeof g_full_before_why) != 0 ||
        jd_yard_bench(W10_YARD_RUNNER, &g_full, TIMED, &g_full_before_ms, g_full_before_why, sizeof g_full_before_why) != 0)
        g_full_before_ms = NAN;
}

/* w10.volkov-speed: k = 8 on 1 block of 256 a SM against FULLOCC on 8, the
 * same data, both by the judge's clock through the same protocol. */
static void judge_speed(jd_ck *k)
{
    double ms = NAN, full = NAN, after = NAN, value = NAN, yard = NAN;
    char why[600] = "", fwhy[600] = "", detail[200] = "";
    if (bench_setup(&g_mine, W10_FN_VOLKOV, "volkov_chains", why, sizeof why) == 0 &&
        jd_bench_run(k->J, &g_mine, TIMED, &ms, why, sizeof why) == 0 &&
        bench_setup(&g_full, W10_FN_FULLOCC, "yard_fullocc_chains", why, sizeof why) == 0) {
        full = jd_yard_faster(W10_YARD_RUNNER, &g_full, TIMED, g_full_before_ms, g_full_before_why, &after, fwhy,
                              sizeof fwhy);
        if (!(full > 0)) {
            snprintf(why, sizeof why, "no figure for the given full-occupancy kernel: %s", fwhy);
        } else {
            double flops = 2.0 * W10_VK_STEPS * (double)g_mine.n;
            value = flops / (ms * 1e-3) / 1e9, yard = flops / (full * 1e-3) / 1e9;
            snprintf(detail, sizeof detail, "k=8 on 1 block of 256 a SM %.0f vs FULLOCC %.0f GFLOP/s (judge's clock, %d "
                     "calls a request, median of %d)", value, yard, g_mine.k, TIMED);
            printf("  volkov k=8: %.4f ms a call by the judge's clock (%.4f by the runner's own); FULLOCC %.4f (before "
                   "the runner %.4f, after %.4f): %.3f of FULLOCC\n", ms, g_mine.runner_ms, full, g_full_before_ms, after,
                   full / ms);
        }
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "GFLOP/s", "FULLOCC", yard, detail, why);
}

static const jd_checkpoint CPS[] = {
    { "w10.calc", judge_calc, judge_calc_cpu, 0, 0, NULL },
    { "w10.volkov", judge_volkov, NULL, 0, 0, NULL },
    { "w10.volkov-speed", judge_speed, NULL, 0, 0, full_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w10", "phase2/week10", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
