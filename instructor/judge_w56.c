/* judge_w56.c — build/instructor/judge-w56: week 56's judge (instructor/
 * README.md, "The judge and the runner"). It links
 * no student code: the student's cluster_hist.o and tma_multicast.o (sm_90a
 * code, as the week's rules build them) are linked into the runner
 * (judge_w56_runner.c, with the week's given support/yard_hist.o, as the
 * grader links a week's support), which this process starts (or is handed)
 * and asks to call them on what it sends (judge.h). It poisons, fills,
 * times and checks, and writes the results record itself, outside the
 * runner's reach. The command line, the runner's start, the record, the
 * guarded buffers, the timed-call protocol and the COPY yardstick are
 * judge_week.c's:
 *
 *   judge-w56 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week56.c's. Its case tables, its reference plan and
 * its key kinds (make_keys) are static there (the test has no header of its
 * own to share), so they are copied below; the copy's values, the special
 * bit patterns and the empty shapes come from phase5/common/tma_copy_check.h,
 * which the test includes too, and the copy's checks on guarded buffers
 * from judge_tma_copy.c, shared with week 53's judge. Cases are drawn from
 * the hidden seed with this judge's own tags, not as the test draws them.
 *   w56.plan          cluster_hist_plan, a CPU function: the runner calls
 *                     it on the scalars sent, over a plan of 0x5A bytes, and
 *                     returns the status and the plan as it left it. The
 *                     test's 24 worked cases (the judge's own reference held
 *                     to the answers written out) and p NULL, then its
 *                     random draw (4 x 5000: nbins up to 600000 or, one in
 *                     20, up to 2^32 - 1; clusters 0, 1, 2, 4, 8 and 3, 5,
 *                     16; the test's limits or any up to 1 MiB), every status
 *                     and field against the reference, a refused plan left
 *                     untouched. Judged with or without a GPU (the runner
 *                     then opens none): its PASS stands without one, as the
 *                     test's;
 *   w56.dsmem         cluster_hist's contract first (the test's
 *                     hist_contract: cluster 3 refused on NULL pointers,
 *                     nbins 0 cudaSuccess; and the judge's own: clusters
 *                     -1, 5 and 16 refused the same way), through the
 *                     runner, also without a GPU, where its failure stands.
 *                     On a compute capability 9.0 GPU then the test's 19
 *                     cases (n 0, 1, odd, up to 2^24 + 3; bins 1 to 8 x
 *                     58112, not multiples of the cluster; uniform, one bin,
 *                     all distinct, a third out of range, skewed and CTA
 *                     share edges; keys 0 to 3 words past a 256-byte
 *                     boundary; clusters 0, 1, 2, 4, 8) and its 8 random
 *                     ones, every bin against the host's counts, nothing
 *                     written past the bins (a poisoned band each side);
 *                     keys before and after the n sent are valid bins of the
 *                     judge's own, so a kernel that reads past n counts them
 *                     (stricter than the test); then the test's 4 refused
 *                     sizes for this device's shared-memory limit on real
 *                     buffers (cudaErrorInvalidValue, bins still the
 *                     poison). On another GPU those are SKIP with the test's
 *                     reason (sm_90a code loads nowhere else);
 *   w56.multicast     tma_multicast_f32's contract first, on addresses that
 *                     are never dereferenced (the test's mc_contract: its 8
 *                     refused shapes, with multicast and, the judge's own,
 *                     without; 2^31 rows, and the judge's 2^31 cols; the
 *                     empty shapes on NULL pointers): cudaErrorInvalidValue,
 *                     or cudaSuccess for the empty ones; through the runner,
 *                     also without a GPU, where its failure stands. On a
 *                     compute capability 9.0 GPU then the test's 15 shapes
 *                     each with 2 and 4 copies, multicast and not; its 2 of
 *                     NaN payloads, Inf, -0 and denormals with 4 and 2
 *                     copies, multicast; 8 random ones (rows and cols
 *                     1..900, padded row strides, 2 or 4 copies, multicast
 *                     3 in 4, every other one with the specials): every
 *                     element of dst, padding included, the source's bits or
 *                     still the poison, nothing written outside dst (a
 *                     poisoned band each side); the 3 empty shapes on real
 *                     buffers (4 copies, multicast: cudaSuccess, nothing
 *                     written); the 8 refused shapes on real buffers, with
 *                     and without multicast (cudaErrorInvalidValue, dst
 *                     untouched). On another GPU those are SKIP;
 *   w56.multicast-bw  tma_multicast_f32 with 4 copies, a cluster of 4,
 *                     multicast, on the test's matrix (wb_bench_bytes() /
 *                     4 / 8192 / 4 rows x 8192 floats, dense rows) through
 *                     the timed-call protocol (up to 64 calls a request, each
 *                     on its own source and a poisoned destination of the 4
 *                     copies, fresh inputs from the hidden seed every
 *                     request, the judge's look bit for bit, then every
 *                     element of every timed output checked bit for bit by
 *                     the judge's kernel (jd_perm_check_f32 as the identity
 *                     on each copy); the median of 7 requests), 20 bytes an
 *                     element of the source (read once, written 4 times, as
 *                     the test counts) against COPY through the same
 *                     protocol by the yard runner (copy_yard 8: a copy of
 *                     wb_bench_bytes(), the test's cudaMemcpy of the 4
 *                     copies' bytes to within a row's rounding; before the
 *                     student's runner starts and after, the larger); the
 *                     target from week.txt (0.76 COPY). SKIP on a GPU other
 *                     than 9.0, as the test's.
 * The week's benchmarks (multicast's four rows and cluster_hist against
 * the given global-atomics histogram) are reports, no checkpoint. Every
 * checkpoint of week 56 is judged: none is left to the linked test. Run on
 * an H200 (2026-11-29), alone, plain and sandboxed: the reference PASSed
 * all four (w56.multicast-bw 0.794 and 0.799 of COPY against the H200
 * target 0.71), the starter FAILed all four. Without a GPU every checkpoint is SKIP but w56.plan (PASS
 * or FAIL) and the contracts of w56.dsmem and w56.multicast, whose failure
 * stands (instructor/tests/judge_w56.sh). */
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
#include "judge_gemm_refs.h" /* jd_on_sm90 */
#include "judge_kernels.h"
#include "judge_week.h"
#include "cluster_hist.h"
#include "judge_tma_copy.h" /* the copy checks shared with week 53's judge (phase5/common/tma_copy_check.h's values) */
#include "judge_w56.h"
#include "wb_bench.h"
#include "wb_cuda.h"
#include "wb_rand.h"

#define TIMED 7
#define LO    (-1.0f) /* the benchmark's inputs, as test_week56.c fills them */
#define HI    1.0f
#define COUNT(a) (sizeof(a) / sizeof *(a))

/* An H100's (and H200's) cudaDevAttrMaxSharedMemoryPerBlockOptin: 227 KiB (test_week56.c's). */
enum { H100_SMEM = 232448, H100_BINS = H100_SMEM / 4 };

#define HIST_WHAT "cluster_hist (thread-block clusters, distributed shared memory)"
#define MC_WHAT   "tma_multicast (clusters, TMA multicast, remote mbarrier arrivals)"

/* ---------------------------------------------------------------- w56.plan (CPU) */

/* test_week56.c's reference, copied: cluster_hist.h's rules in its order. */
static chist_status ref_plan(uint32_t nbins, int cluster, size_t limit, chist_plan *p)
{
    if (!p || !nbins || !(cluster == 0 || cluster == 1 || cluster == 2 || cluster == 4 || cluster == 8))
        return CHIST_ERR_ARG;
    int c = cluster; /* asked for, or the smallest of 1, 2, 4, 8 whose share fits (8 if none) */
    for (int k = 1; !c; k *= 2)
        if (k == 8 || ((uint64_t)nbins + (uint64_t)k - 1) / (uint64_t)k * 4 <= limit) c = k;
    uint64_t share = ((uint64_t)nbins + (uint64_t)c - 1) / (uint64_t)c;
    if (share * 4 > limit) return CHIST_ERR_TOO_BIG;
    p->cluster = c, p->bins_per_cta = (uint32_t)share, p->smem_bytes = (size_t)share * 4;
    return CHIST_OK;
}

static const char *chist_name(int s)
{
    static const char *names[] = { "CHIST_OK", "CHIST_ERR_ARG", "CHIST_ERR_TOO_BIG" };
    return s >= 0 && s < (int)COUNT(names) ? names[s] : "(not a chist_status)";
}

/* test_week56.c's plan_table, copied: the answer written out. */
static const struct {
    uint32_t     nbins;
    int          cluster;
    size_t       limit;
    chist_status st;
    int          c;
    uint32_t     per;
} PLAN_TABLE[] = {
    { 1, 0, H100_SMEM, CHIST_OK, 1, 1 },
    { 4096, 0, H100_SMEM, CHIST_OK, 1, 4096 },
    { H100_BINS, 0, H100_SMEM, CHIST_OK, 1, H100_BINS },
    { H100_BINS + 1, 0, H100_SMEM, CHIST_OK, 2, 29057 },
    { 2 * H100_BINS, 0, H100_SMEM, CHIST_OK, 2, H100_BINS },
    { 2 * H100_BINS + 1, 0, H100_SMEM, CHIST_OK, 4, 29057 },
    { 4 * H100_BINS, 0, H100_SMEM, CHIST_OK, 4, H100_BINS },
    { 4 * H100_BINS + 1, 0, H100_SMEM, CHIST_OK, 8, 29057 },
    { 8 * H100_BINS, 0, H100_SMEM, CHIST_OK, 8, H100_BINS },
    { 8 * H100_BINS + 1, 0, H100_SMEM, CHIST_ERR_TOO_BIG, 0, 0 },
    { 5, 8, H100_SMEM, CHIST_OK, 8, 1 },
    { 4096, 2, H100_SMEM, CHIST_OK, 2, 2048 },
    { 100000, 1, H100_SMEM, CHIST_ERR_TOO_BIG, 0, 0 },
    { 100000, 2, H100_SMEM, CHIST_OK, 2, 50000 },
    { 300000, 4, H100_SMEM, CHIST_ERR_TOO_BIG, 0, 0 },
    { 4096, 0, 101376, CHIST_OK, 1, 4096 },
    { 100000, 0, 101376, CHIST_OK, 4, 25000 },
    { 1000, 0, 0, CHIST_ERR_TOO_BIG, 0, 0 },
    { 0xFFFFFFFFu, 0, (size_t)1 << 31, CHIST_OK, 8, 536870912 },
    { 0xFFFFFFFFu, 0, H100_SMEM, CHIST_ERR_TOO_BIG, 0, 0 },
    { 0, 0, H100_SMEM, CHIST_ERR_ARG, 0, 0 },
    { 100, 3, H100_SMEM, CHIST_ERR_ARG, 0, 0 },
    { 100, 16, H100_SMEM, CHIST_ERR_ARG, 0, 0 },
    { 100, -1, H100_SMEM, CHIST_ERR_ARG, 0, 0 },
};

/* The runner's cluster_hist_plan: its status and the plan as it left it
 * over W56_PLAN_FILL bytes (p NULL where null). 0, or -1 (t failed: the
 * runner is lost or could not call it). */
static int plan_call(jd *J, uint32_t nbins, int cluster, size_t limit, int null, int *status, chist_plan *got,
                     jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W56_FN_PLAN, 1, 0);
    rq.i64[1] = (long long)nbins, rq.i64[2] = cluster, rq.i64[3] = (long long)limit, rq.i64[4] = null;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "cluster_hist_plan: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != W56_PLAN_REPLY)
        return jd_failf(t, "cluster_hist_plan: the runner could not call it (%s)", rp.text), -1;
    int32_t s;
    memcpy(&s, rp.out, 4);
    memcpy(got, rp.out + 4, sizeof *got);
    *status = s;
    return 0;
}

/* test_week56.c's check_plan: status, every field, *p untouched on
 * refusal. 0 (checked: 1 in *wrong when it failed), or -1 (lost). */
static int check_plan(jd *J, uint32_t nbins, int cluster, size_t limit, const char *what, int *wrong, jd_tally *t)
{
    chist_plan want, got, before;
    chist_status ws = ref_plan(nbins, cluster, limit, &want);
    memset(&before, W56_PLAN_FILL, sizeof before);
    int gs;
    t->tests++;
    if (plan_call(J, nbins, cluster, limit, 0, &gs, &got, t) != 0) return -1;
    char desc[200];
    snprintf(desc, sizeof desc, "%s: %u bins, cluster %d, limit %zu bytes", what, nbins, cluster, limit);
    if (gs != (int)ws)
        return jd_failf(t, "%s: %s, expected %s", desc, chist_name(gs), chist_name(ws)), *wrong = 1, 0;
    if (ws != CHIST_OK) {
        if (memcmp(&got, &before, sizeof got) != 0)
            jd_failf(t, "%s: refused (%s), but *p was written", desc, chist_name(gs)), *wrong = 1;
        return 0;
    }
    if (!(got.cluster == want.cluster && got.bins_per_cta == want.bins_per_cta && got.smem_bytes == want.smem_bytes))
        jd_failf(t, "%s: cluster %d, %u bins a CTA, %zu bytes; expected %d, %u, %zu", desc, got.cluster,
                 got.bins_per_cta, got.smem_bytes, want.cluster, want.bins_per_cta, want.smem_bytes),
            *wrong = 1;
    return 0;
}

/* test_week56.c's plan_random, draw i: 5000 plans; stops at the first
 * wrong answer, as the test's assertion does. */
static int plan_random(jd *J, int i, int *wrong, jd_tally *t)
{
    static const int C[] = { 0, 0, 0, 1, 2, 4, 8, 3, 5, 16 };
    static const size_t LIM[] = { H100_SMEM, 101376, 166912, 49152, 65536 };
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w56_plan_random", i);
    for (int k = 0; k < 5000 && !*wrong; k++) {
        int big = wb_rng_int(&rng, 0, 19) == 0;
        uint32_t nbins = (uint32_t)wb_rng_int(&rng, 0, big ? (int64_t)0xFFFFFFFF : 600000);
        size_t limit = wb_rng_int(&rng, 0, 4) ? LIM[wb_rng_int(&rng, 0, (int64_t)COUNT(LIM) - 1)]
                                              : (size_t)wb_rng_int(&rng, 0, 1 << 20);
        if (check_plan(J, nbins, C[wb_rng_int(&rng, 0, (int64_t)COUNT(C) - 1)], limit, "random", wrong, t) != 0)
            return -1;
    }
    return 0;
}

static void judge_plan(jd *J, jd_tally *t)
{
    int wrong = 0;
    for (size_t i = 0; i < COUNT(PLAN_TABLE); i++) {
        chist_plan p;
        chist_status r = ref_plan(PLAN_TABLE[i].nbins, PLAN_TABLE[i].cluster, PLAN_TABLE[i].limit, &p);
        if (r != PLAN_TABLE[i].st ||
            (r == CHIST_OK && (p.cluster != PLAN_TABLE[i].c || p.bins_per_cta != PLAN_TABLE[i].per))) {
            jd_failf(t, "the judge's own reference disagrees with its table at line %zu: the judge is broken", i);
            return;
        }
    }
    for (size_t i = 0; i < COUNT(PLAN_TABLE) && !wrong; i++) {
        char what[32];
        snprintf(what, sizeof what, "case %zu", i);
        if (check_plan(J, PLAN_TABLE[i].nbins, PLAN_TABLE[i].cluster, PLAN_TABLE[i].limit, what, &wrong, t) != 0)
            return;
    }
    if (!wrong) { /* p NULL */
        int gs;
        chist_plan got;
        t->tests++;
        if (plan_call(J, 100, 0, H100_SMEM, 1, &gs, &got, t) != 0) return;
        if (gs != CHIST_ERR_ARG) jd_failf(t, "p NULL: %s, expected CHIST_ERR_ARG", chist_name(gs)), wrong = 1;
    }
    for (int i = 0; i < 4 && !wrong; i++)
        if (plan_random(J, i, &wrong, t) != 0) return;
}

static void judge_plan_gpu(jd_ck *k) { judge_plan(k->J, k->t); }

/* ---------------------------------------------------------------- w56.dsmem */

enum { K_UNIFORM, K_ONE_BIN, K_DISTINCT, K_OUT_OF_RANGE, K_SKEWED, K_EDGES };
static const char *const KIND[] = { "uniform", "all in one bin", "all distinct", "a third out of range",
                                    "skewed (90 % in 4 bins)", "the first and last bin of every CTA share" };

typedef struct {
    size_t   n;
    uint32_t nbins;
    int      cluster, kind;
    size_t   off; /* keys start this many uint32 past a 256-byte boundary */
} hist_case;

/* test_week56.c's HCASES, copied. */
static const hist_case HCASES[] = {
    { 0, 1000, 0, K_UNIFORM, 0 },
    { 1, 1, 0, K_UNIFORM, 0 },
    { 1, 1000, 8, K_UNIFORM, 1 },
    { 7, 3, 2, K_UNIFORM, 3 },
    { 1000, 5, 8, K_UNIFORM, 0 },
    { 100003, 4099, 0, K_UNIFORM, 3 },
    { 100003, 4099, 2, K_UNIFORM, 1 },
    { 100003, 4099, 4, K_ONE_BIN, 2 },
    { 100003, 4099, 8, K_SKEWED, 0 },
    { 100003, 4099, 8, K_EDGES, 1 },
    { H100_BINS, H100_BINS, 0, K_DISTINCT, 0 },
    { 1 << 20, H100_BINS + 1, 0, K_UNIFORM, 2 },
    { 1 << 20, 2 * H100_BINS + 1, 0, K_OUT_OF_RANGE, 0 },
    { 1 << 20, 2 * H100_BINS + 1, 0, K_EDGES, 3 },
    { 1 << 22, 4 * H100_BINS + 1, 0, K_UNIFORM, 1 },
    { 8 * H100_BINS, 8 * H100_BINS, 0, K_DISTINCT, 0 },
    { 1 << 22, 8 * H100_BINS, 0, K_ONE_BIN, 0 },
    { 3000017, 300007, 8, K_EDGES, 2 },
    { (1 << 24) + 3, 65536, 0, K_SKEWED, 1 },
};
#define N_HIST_RANDOM 8
#define HIST_RANDOM_N 3000000
#define HIST_KEYS_CAP (((size_t)1 << 24) + 8) /* the largest case's keys, its offset and the words around */

/* test_week56.c's make_keys, copied. */
static void make_keys(wb_rng *rng, uint32_t *k, size_t n, uint32_t nbins, int kind, int cluster)
{
    uint32_t one = (uint32_t)wb_rng_int(rng, 0, (int64_t)nbins - 1);
    int c = cluster ? cluster : 8;
    uint32_t per = (uint32_t)(((uint64_t)nbins + (uint64_t)c - 1) / (uint64_t)c);
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case K_ONE_BIN: k[i] = one; break;
        case K_DISTINCT: k[i] = (uint32_t)i; break; /* shuffled below */
        case K_OUT_OF_RANGE: {
            int64_t r = wb_rng_int(rng, 0, 2);
            k[i] = r == 0 ? (uint32_t)wb_rng_int(rng, nbins, 0xFFFFFFFFll) : (uint32_t)wb_rng_int(rng, 0, nbins - 1);
            if (r == 0 && wb_rng_int(rng, 0, 3) == 0) k[i] = 0xFFFFFFFFu;
            break;
        }
        case K_SKEWED:
            k[i] = wb_rng_int(rng, 0, 9) ? (uint32_t)wb_rng_int(rng, 0, nbins < 4 ? nbins - 1 : 3)
                                         : (uint32_t)wb_rng_int(rng, 0, nbins - 1);
            break;
        case K_EDGES: {
            uint32_t b = (uint32_t)wb_rng_int(rng, 0, c) * per;
            int64_t d = wb_rng_int(rng, -1, 0);
            int64_t v = (int64_t)b + d;
            k[i] = v < 0 ? 0 : v >= (int64_t)nbins ? nbins - 1 : (uint32_t)v;
            break;
        }
        default: k[i] = (uint32_t)wb_rng_int(rng, 0, nbins - 1); break;
        }
    }
    if (kind == K_DISTINCT)
        for (size_t i = n; i > 1; i--) {
            size_t j = (size_t)wb_rng_int(rng, 0, (int64_t)i - 1);
            uint32_t t = k[i - 1];
            k[i - 1] = k[j], k[j] = t;
        }
}

/* cluster_hist on NULL-or-address arguments: 0 and *status, or -1 (t failed: lost). */
static int hist_raw(jd *J, uint64_t keys, size_t n, uint64_t bins, uint32_t nbins, int cluster, int *status,
                    jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W56_FN_HIST, 1, 2);
    rq.i64[1] = (long long)n, rq.i64[2] = (long long)nbins, rq.i64[3] = cluster;
    rq.i64[5] = (long long)keys, rq.i64[6] = (long long)bins;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "cluster_hist: %s", J->why), -1;
    *status = rp.status;
    return 0;
}

/* test_week56.c's hist_contract (and the judge's own clusters): a cluster
 * size that is not 0, 1, 2, 4, 8 refused before any CUDA call; nbins 0 done
 * without one. Runs on either kind of runner (no buffer is sent). */
static void hist_contract(jd *J, jd_tally *t)
{
    static const int BAD[] = { 3, -1, 5, 16 };
    int s;
    for (size_t i = 0; i < COUNT(BAD) && !J->lost; i++) {
        t->tests++;
        if (hist_raw(J, 0, 100, 0, 100, BAD[i], &s, t) != 0) return;
        if (s != (int)cudaErrorInvalidValue)
            jd_failf(t, "cluster %d: must be refused with cudaErrorInvalidValue before any CUDA call, got %s", BAD[i],
                     jt_status(s));
    }
    t->tests++;
    if (J->lost || hist_raw(J, 0, 100, 0, 0, 0, &s, t) != 0) return;
    if (s != 0) jd_failf(t, "0 bins: cudaSuccess and nothing done, got %s", jt_status(s));
}

typedef struct {
    jd_gbuf   keys, bins;
    uint32_t *hk, *ref, *got;
    size_t    bins_cap; /* bins */
} hist_room;

/* One case: keys drawn (test_week56.c's check_hist), the words before and
 * after them valid bins of the judge's own, bins poisoned, every bin
 * against the host's counts, nothing written outside them. 0 (checked),
 * -1 (lost or the judge's copy failed). */
static int hist_case_run(jd *J, hist_room *R, wb_rng *rng, const hist_case *c, jd_tally *t)
{
    char what[200];
    snprintf(what, sizeof what, "%zu keys (%s, %zu bytes past alignment), %u bins, cluster %d%s", c->n,
             KIND[c->kind], c->off * 4, c->nbins, c->cluster, c->cluster ? "" : " (planned)");
    t->tests++;
    const size_t words = c->n + c->off + 1;
    if (words > HIST_KEYS_CAP || c->nbins > R->bins_cap)
        return jd_failf(t, "%s: the judge's buffers are too small", what), -1;
    for (size_t i = 0; i < c->off; i++) R->hk[i] = (uint32_t)wb_rng_int(rng, 0, (int64_t)c->nbins - 1);
    make_keys(rng, R->hk + c->off, c->n, c->nbins, c->kind, c->cluster);
    R->hk[c->off + c->n] = (uint32_t)wb_rng_int(rng, 0, (int64_t)c->nbins - 1);
    memset(R->ref, 0, (size_t)c->nbins * 4);
    for (size_t i = 0; i < c->n; i++)
        if (R->hk[c->off + i] < c->nbins) R->ref[R->hk[c->off + i]]++;
    if (jd_gbuf_put(&R->keys, 0, R->hk, words * 4) != 0 || jd_gbuf_poison(&R->bins, 0, (size_t)c->nbins * 4) != 0)
        return jd_failf(t, "%s: the judge's own copies failed", what), -1;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W56_FN_HIST, 1, 2);
    jd_gbuf_arg(&rq, 0, &R->keys, c->off * 4);
    jd_gbuf_arg(&rq, 1, &R->bins, 0);
    rq.i64[1] = (long long)c->n, rq.i64[2] = (long long)c->nbins, rq.i64[3] = c->cluster;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0)
        return jd_failf(t, "%s: cluster_hist returned %s", what, rp.status < 0 ? rp.text : jt_status(rp.status)), 0;
    int f = jd_gbuf_fetch(&R->bins, 0, (size_t)c->nbins * 4, R->got, "bins", what, t);
    if (f) return f < 0 ? -1 : 0;
    size_t bad = 0, first = 0;
    for (size_t b = 0; b < c->nbins; b++)
        if (R->got[b] != R->ref[b] && bad++ == 0) first = b;
    if (bad)
        jd_failf(t, "%s: %zu of %u bins wrong; the first bins[%zu] expected %u got %u%s", what, bad, c->nbins, first,
                 R->ref[first], R->got[first], R->got[first] == 0xFFFFFFFFu ? " (still the poison: not written)" : "");
    return 0;
}

/* test_week56.c's hist_refused: sizes the plan refuses on this device, on
 * real buffers: the error, bins still the poison. 0, or -1 (lost). */
static int hist_refused(jd *J, hist_room *R, uint32_t per, int lim, jd_tally *t)
{
    const struct {
        uint32_t    nbins;
        int         cluster;
        const char *why;
    } B[] = {
        { 8 * per + 1, 0, "one bin more than a cluster of 8 holds" },
        { per + 1, 1, "cluster 1 asked for, one bin more than a CTA holds" },
        { 4 * per + 1, 4, "cluster 4 asked for, one bin more than it holds" },
        { 1000, 3, "cluster 3" },
    };
    for (size_t i = 0; i < COUNT(B); i++) {
        t->tests++;
        if (B[i].nbins > R->bins_cap) return jd_failf(t, "%s: the judge's buffers are too small", B[i].why), -1;
        if (jd_gbuf_poison(&R->keys, 0, 1024 * 4) != 0 || jd_gbuf_poison(&R->bins, 0, (size_t)B[i].nbins * 4) != 0)
            return jd_failf(t, "%s: the judge's own copies failed", B[i].why), -1;
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, W56_FN_HIST, 1, 2);
        jd_gbuf_arg(&rq, 0, &R->keys, 0);
        jd_gbuf_arg(&rq, 1, &R->bins, 0);
        rq.i64[1] = 1024, rq.i64[2] = (long long)B[i].nbins, rq.i64[3] = B[i].cluster;
        if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", B[i].why, J->why), -1;
        if (rp.status != (int)cudaErrorInvalidValue) {
            jd_failf(t, "%s (%u bins, limit %d bytes a CTA): must be refused with cudaErrorInvalidValue, got %s",
                     B[i].why, B[i].nbins, lim, rp.status < 0 ? rp.text : jt_status(rp.status));
            continue;
        }
        int f = jd_gbuf_fetch(&R->bins, 0, (size_t)B[i].nbins * 4, R->got, "bins", B[i].why, t);
        if (f < 0) return -1;
        if (f) continue;
        for (size_t b = 0; b < B[i].nbins; b++)
            if (R->got[b] != 0xFFFFFFFFu) {
                jd_failf(t, "%s: bins were written (bins[%zu] is %u): a refusal writes nothing", B[i].why, b,
                         R->got[b]);
                break;
            }
    }
    return 0;
}

static void judge_hist(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    hist_contract(J, t);
    if (J->lost || !jd_on_sm90(t, HIST_WHAT)) return;
    int lim = 0;
    if (cudaDeviceGetAttribute(&lim, cudaDevAttrMaxSharedMemoryPerBlockOptin, jd_dev) != cudaSuccess || lim <= 0) {
        jd_failf(t, "the judge could not read this device's shared-memory limit");
        return;
    }
    const uint32_t per = (uint32_t)lim / 4;
    hist_room R = { .keys = { .id = -1 }, .bins = { .id = -1 } };
    R.bins_cap = (size_t)8 * (per > H100_BINS ? per : H100_BINS) + 1;
    R.hk = malloc(HIST_KEYS_CAP * 4), R.ref = malloc(R.bins_cap * 4), R.got = malloc(R.bins_cap * 4);
    if (!R.hk || !R.ref || !R.got) {
        jd_failf(t, "buffers: the judge is out of memory");
        goto out;
    }
    if (jd_gbuf_alloc(J, &R.keys, HIST_KEYS_CAP * 4, t) != 0 || jd_gbuf_alloc(J, &R.bins, R.bins_cap * 4, t) != 0)
        goto out;
    for (size_t i = 0; i < COUNT(HCASES); i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w56_hist_cases", (int)i);
        if (hist_case_run(J, &R, &rng, &HCASES[i], t) != 0) goto out;
    }
    for (int i = 0; i < N_HIST_RANDOM; i++) { /* test_week56.c's hist_random */
        static const int C[] = { 0, 1, 2, 4, 8 };
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w56_hist_random", i);
        hist_case c;
        c.cluster = C[wb_rng_int(&rng, 0, 4)];
        uint32_t most = (uint32_t)(c.cluster ? c.cluster : 8) * H100_BINS;
        c.nbins = (uint32_t)wb_rng_int(&rng, 1, c.cluster == 1 ? H100_BINS : most);
        c.n = (size_t)wb_rng_int(&rng, 0, HIST_RANDOM_N);
        c.kind = (int)wb_rng_int(&rng, 0, 5);
        if (c.kind == K_DISTINCT && c.n > c.nbins) c.n = c.nbins;
        c.off = (size_t)wb_rng_int(&rng, 0, 3);
        if (hist_case_run(J, &R, &rng, &c, t) != 0) goto out;
    }
    hist_refused(J, &R, per, lim, t);
out:
    jd_gbuf_free(J, &R.keys), jd_gbuf_free(J, &R.bins);
    free(R.hk), free(R.ref), free(R.got);
}

/* ---------------------------------------------------------------- w56.multicast */

/* test_week56.c's SHAPES, its specials' shapes, its REFUSED, copied. */
static const tma_copy_shape SHAPES[] = {
    { 1, 1, 0, 0 },    { 1, 4, 0, 0 },     { 3, 5, 0, 4 },    { 2, 7, 8, 0 },      { 31, 33, 0, 0 },
    { 128, 32, 0, 0 }, { 129, 33, 4, 12 }, { 33, 200, 0, 4 }, { 257, 1000, 0, 4 }, { 1000, 257, 4, 0 },
    { 2, 1025, 0, 0 }, { 1025, 3, 4, 4 },  { 513, 4099, 0, 0 }, { 4097, 2049, 4, 8 }, { 3001, 5003, 0, 0 },
};
static const int CFG[][2] = { { 2, 1 }, { 4, 1 }, { 4, 0 }, { 2, 0 } }; /* copies, multicast */
static const tma_copy_shape SPECIAL_SHAPES[] = { { 77, 45, 0, 4 }, { 300, 129, 4, 0 } };
#define N_MC_RANDOM 8
#define MC_RANDOM_MAX 900 /* rows and cols of a random shape, pads 0..12 */

typedef struct {
    size_t      rows, cols, ld_src, ld_dst, off_src, off_dst; /* offsets in floats */
    int         copies;
    const char *why;
} mc_refused_case;

static const mc_refused_case REFUSED[] = {
    { 8, 8, 8, 8, 1, 0, 4, "src one float past a 16-byte boundary" },
    { 8, 8, 8, 8, 0, 2, 2, "dst two floats past a 16-byte boundary" },
    { 8, 5, 5, 8, 0, 0, 4, "ld_src 5 floats: a 20-byte row stride" },
    { 8, 6, 8, 6, 0, 0, 2, "ld_dst 6 floats: a 24-byte row stride" },
    { 8, 9, 12, 8, 0, 0, 4, "ld_dst below cols" },
    { 8, 8, 8, 8, 0, 0, 3, "3 copies" },
    { 8, 8, 8, 8, 0, 0, 1, "1 copy" },
    { 8, 8, 8, 8, 0, 0, 8, "8 copies (this week's clusters are 2 or 4)" },
};

/* The contract's further refusals: the test's 2^31 rows, the judge's 2^31 cols. */
static const mc_refused_case REFUSED_BIG[] = {
    { (size_t)1 << 31, 4, (size_t)1 << 31, (size_t)1 << 31, 0, 0, 4, "2^31 rows: TMA's coordinates are 32-bit signed" },
    { 4, (size_t)1 << 31, (size_t)1 << 31, (size_t)1 << 31, 0, 0, 2, "2^31 cols: TMA's coordinates are 32-bit signed" },
};

#define A0 0x7f0000000000ull /* the contract's addresses: 16-byte aligned, never dereferenced */

/* tma_multicast_f32 as its runner calls it (judge_tma_copy.h), for each
 * of the test's configurations: copies, multicast, and its words. */
static jt_call mc_call(int copies, int mc)
{
    static char label[2][5][32];
    char *l = label[mc != 0][copies];
    snprintf(l, sizeof label[0][0], "%d copies, %s", copies, mc ? "multicast" : "no multicast");
    jt_call c = { W56_FN_MC, copies, copies, mc, "tma_multicast_f32", l };
    return c;
}

/* test_week56.c's mc_contract (with and without multicast, and the judge's
 * 2^31 cols): refusals before any CUDA call, empty shapes without one (NULL
 * pointers). Runs on either kind of runner (no buffer is sent). */
static void mc_contract(jd *J, jd_tally *t)
{
    int s;
    for (size_t i = 0; i < COUNT(REFUSED) + COUNT(REFUSED_BIG); i++) {
        const mc_refused_case *c = i < COUNT(REFUSED) ? &REFUSED[i] : &REFUSED_BIG[i - COUNT(REFUSED)];
        for (int mc = 1; mc >= 0 && !J->lost; mc--) {
            const jt_call call = mc_call(c->copies == 2 || c->copies == 4 ? c->copies : 4, mc);
            jt_call bad = call;
            bad.copies = c->copies, bad.i64_7 = c->copies; /* the copies refused, as sent */
            t->tests++;
            if (jt_raw(J, &bad, A0 + 4 * c->off_src, c->ld_src, A0 + 65536 + 4 * c->off_dst, c->ld_dst, c->rows,
                       c->cols, &s, t) != 0)
                return;
            if (s != (int)cudaErrorInvalidValue)
                jd_failf(t, "%s (%s): must be refused with cudaErrorInvalidValue, got %s", c->why,
                         mc ? "multicast" : "no multicast", jt_status(s));
        }
    }
    const jt_call two = mc_call(2, 1);
    jt_empty_host(J, &two, t);
}

/* test_week56.c's mc_refused on real buffers, with and without multicast:
 * the error, dst untouched. 0, or -1 (lost). */
static int mc_refused(jd *J, jt_room *R, jd_tally *t)
{
    for (size_t i = 0; i < COUNT(REFUSED); i++) {
        const mc_refused_case *c = &REFUSED[i];
        t->tests++;
        if (jt_poison(R, 4096, c->why, t) != 0) return -1;
        int r = 0;
        for (int mc = 0; mc < 2 && r == 0; mc++) {
            jt_call call = mc_call(4, mc);
            call.copies = c->copies, call.i64_7 = c->copies;
            char why[160];
            snprintf(why, sizeof why, "%s (%s)", c->why, mc ? "multicast" : "no multicast");
            r = jt_refused(J, R, &call, c->rows, c->cols, c->ld_src, c->ld_dst, c->off_src, c->off_dst, why, t);
        }
        if (r < 0) return -1;
        if (r == 0 && jt_untouched(R, 4096, c->why, t) != 0) return -1;
    }
    return 0;
}

static void judge_mc(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    mc_contract(J, t);
    if (J->lost || !jd_on_sm90(t, MC_WHAT)) return;
    jt_room R = { .src_cap = 4096, .dst_cap = 4096 };
    tma_copy_shape biggest = { MC_RANDOM_MAX, MC_RANDOM_MAX, 12, 12 };
    jt_fit(biggest, 4, &R.src_cap, &R.dst_cap);
    for (size_t i = 0; i < COUNT(SHAPES); i++) jt_fit(SHAPES[i], 4, &R.src_cap, &R.dst_cap);
    for (size_t i = 0; i < COUNT(SPECIAL_SHAPES); i++) jt_fit(SPECIAL_SHAPES[i], 4, &R.src_cap, &R.dst_cap);
    if (jt_room_open(J, &R, t) != 0) goto out;
    for (size_t i = 0; i < COUNT(SHAPES); i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w56_mc_shapes", (int)i);
        for (size_t j = 0; j < COUNT(CFG); j++) {
            const jt_call c = mc_call(CFG[j][0], CFG[j][1]);
            if (jt_case(J, &R, &c, &rng, SHAPES[i], 0, t) != 0) goto out;
        }
    }
    const jt_call mc4 = mc_call(4, 1), mc2 = mc_call(2, 1);
    for (size_t i = 0; i < COUNT(SPECIAL_SHAPES); i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w56_mc_specials", (int)i);
        if (jt_case(J, &R, &mc4, &rng, SPECIAL_SHAPES[i], 1, t) != 0 ||
            jt_case(J, &R, &mc2, &rng, SPECIAL_SHAPES[i], 1, t) != 0)
            goto out;
    }
    for (int i = 0; i < N_MC_RANDOM; i++) { /* test_week56.c's mc_random */
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w56_mc_random", i);
        tma_copy_shape s = { (size_t)wb_rng_int(&rng, 1, MC_RANDOM_MAX), (size_t)wb_rng_int(&rng, 1, MC_RANDOM_MAX),
                             4 * (size_t)wb_rng_int(&rng, 0, 3), 4 * (size_t)wb_rng_int(&rng, 0, 3) };
        int copies = wb_rng_int(&rng, 0, 1) ? 4 : 2, mc = (int)wb_rng_int(&rng, 0, 3) != 0;
        const jt_call c = mc_call(copies, mc);
        if (jt_case(J, &R, &c, &rng, s, i & 1, t) != 0) goto out;
    }
    if (jt_empty(J, &R, &mc4, t) != 0) goto out;
    mc_refused(J, &R, t);
out:
    jt_room_close(J, &R);
}

/* ---------------------------------------------------------------- w56.multicast-bw */

#define BW_COPIES 4

/* Element i of the copies is element i % n of the source, bit for bit. */
static float mc_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    return wb_hash_uniform_f32(seed[0], i % b->n, b->lo, b->hi);
}

/* Every element of a timed output, bit for bit: each copy checked as the
 * identity permutation of jd_perm_check_f32 (R = n, S = 1: i % n + i / n = i
 * for i < n); the wrong elements summed over the copies, the first named
 * by its place in the whole output. */
static int mc_full_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                         unsigned long long h[2])
{
    h[0] = 0, h[1] = ~0ull;
    for (int k = 0; k < BW_COPIES; k++) {
        unsigned long long hk[2];
        cudaError_t e = jd_perm_check_f32(out + (size_t)k * b->n, b->n, seed[0], b->lo, b->hi, b->n, 1, bad, jd_stream);
        if (jd_full_check_done(e, bad, hk) != 0) return -1;
        if (hk[0] && h[0] == 0) h[1] = (unsigned long long)k * b->n + hk[1];
        h[0] += hk[0];
    }
    return 0;
}

static jd_bench g_bench; /* large: its sample arrays */

/* w56.multicast-bw: the test's mc_row(4, 1): 4 copies of a rows x 8192
 * matrix by a cluster of 4 with multicast, 20 bytes an element of the
 * source against COPY, both by the judge's clock. */
static void judge_mc_bw(jd_ck *k)
{
    if (!jd_on_sm90(k->t, MC_WHAT)) return;
    const size_t cols = 8192, rows = wb_bench_bytes() / 4 / cols / BW_COPIES;
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.fn = W56_FN_MC, g_bench.n_in = 1, g_bench.max_k = JD_BENCH_MAX_K, g_bench.n = rows * cols;
    g_bench.out_n = BW_COPIES * rows * cols;
    g_bench.lo = LO, g_bench.hi = HI, g_bench.atol = JD_BITWISE, g_bench.rtol = 0;
    g_bench.i64[1] = (long long)cols, g_bench.i64[2] = (long long)cols, g_bench.i64[3] = (long long)rows;
    g_bench.i64[4] = (long long)cols, g_bench.i64[7] = BW_COPIES, g_bench.f64[0] = 1;
    g_bench.fn_name = "tma_multicast_f32", g_bench.out_name = "dst";
    g_bench.expect = mc_expect, g_bench.full_check = mc_full_check;
    jd_bw_checkpoint(k, &g_bench, TIMED, 4.0 * (1 + BW_COPIES), "tma_multicast");
}

static const jd_checkpoint CPS[] = {
    { "w56.plan", judge_plan_gpu, judge_plan, 1, 0 },
    { "w56.dsmem", judge_hist, hist_contract, 0, 0 },
    { "w56.multicast", judge_mc, mc_contract, 0, 0 },
    { "w56.multicast-bw", judge_mc_bw, NULL, 0, 8 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w56", "phase5/week56", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
