/* test_week47.c — week 47's checkpoints: the shard arithmetic on the CPU;
 * all-reduce, reduce-scatter and all-gather from one process over the GPUs
 * (exercise 1); one process per GPU through the workbook's launcher, with
 * its error paths: more ranks than GPUs, a peer that dies (exercise 2).
 *
 * The launcher tests run their ranks in processes of their own
 * (phase8/common/wb_launch.h): the test's process touches no CUDA there,
 * not even to count the GPUs (a child counts them), since a process forked
 * from one that has initialised CUDA cannot use it. The checkpoints that
 * need several GPUs use every GPU of the host, 2 to 8 (wb_gpus.h), say how
 * many in their message, and are SKIP on one ("needs 2 GPUs, found 1").
 *
 * The same program is also one rank under mpirun: `test --mpi-rank` (make
 * phase8/week47 mpirun NP=2) runs a rank's body, the rank taken from the
 * environment (wb_rank_from_env), and exits 0 when its collectives were
 * right. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "wb_harness.h"
#include "wb_launch.h"
#include "wb_gpus.h"
#include "collectives.h"
#include "ranks.h"

_Static_assert((int)WB_MAX_GPUS <= (int)COLL_MAX_DEV && (int)WB_MAX_GPUS <= (int)WB_LAUNCH_MAX_RANKS,
               "a rank for every GPU used");

/* ---------------------------------------------------------------- inputs and references */

typedef enum { AR, RS, AG } kind_t;
static const char *const KIND_NAME[] = { "all-reduce", "reduce-scatter", "all-gather" };

/* Element i of rank q's send buffer: floats in [-1, 1], ints in [-1000, 1000]. */
static float in_f32(uint64_t seed, int q, size_t i) { return wb_hash_uniform_f32(seed + 7919u * (uint64_t)(q + 1), i, -1, 1); }
static int32_t in_i32(uint64_t seed, int q, size_t i)
{
    return (int32_t)lrintf(1000 * wb_hash_uniform_f32(seed + 104729u * (uint64_t)(q + 1) + 1, i, -1, 1));
}

static size_t send_n(kind_t kind, int k, size_t count) { return kind == RS ? (size_t)k * count : count; }
static size_t recv_n(kind_t kind, int k, size_t count) { return kind == AG ? (size_t)k * count : count; }

/* Rank q's send buffer (send_n elements). */
static void make_send(kind_t kind, int ints, uint64_t seed, int q, int k, size_t count, void *out)
{
    size_t n = send_n(kind, k, count);
    for (size_t i = 0; i < n; i++) {
        if (ints) ((int32_t *)out)[i] = in_i32(seed, q, i);
        else ((float *)out)[i] = in_f32(seed, q, i);
    }
}

/* What rank d must receive (recv_n elements): sums in double (float) or
 * exactly (int32), over the k ranks' inputs. */
static void make_ref(kind_t kind, int ints, uint64_t seed, int d, int k, size_t count, void *out)
{
    for (size_t i = 0; i < recv_n(kind, k, count); i++) {
        double s = 0;
        int64_t si = 0;
        if (kind == AG) {
            int q = (int)(i / count);
            s = in_f32(seed, q, i % count), si = in_i32(seed, q, i % count);
        } else {
            size_t at = kind == RS ? (size_t)d * count + i : i;
            for (int q = 0; q < k; q++) s += in_f32(seed, q, at), si += in_i32(seed, q, at);
        }
        if (ints) ((int32_t *)out)[i] = (int32_t)si;
        else ((float *)out)[i] = (float)s;
    }
}

/* ---------------------------------------------------------------- the shard arithmetic (CPU) */

static const int KS[] = { 1, 2, 3, 4, 7, 8, 16 };

START_TEST(shard_tiling)
{
    wb_rng rng = WB_RNG();
    int k = KS[_i];
    const size_t counts[] = { 0, 1, (size_t)k - 1, (size_t)k, (size_t)k + 1, 2 * (size_t)k - 1, 1000003,
                              (size_t)wb_rng_int(&rng, 1, 1 << 20), (size_t)5000000003ull, SIZE_MAX - 5 };
    for (size_t c = 0; c < WB_COUNT(counts); c++) {
        size_t count = counts[c], want_chunk = count ? (count - 1) / (size_t)k + 1 : 0;
        size_t chunk = coll_chunk(count, k), next = 0;
        if (chunk != want_chunk) ck_abort_msg("coll_chunk(%zu, %d) = %zu, expected %zu", count, k, chunk, want_chunk);
        for (int r = 0; r < k; r++) {
            size_t off = 1, len = 1;
            coll_shard(count, k, r, &off, &len);
            size_t want_off = (size_t)r * want_chunk < count ? (size_t)r * want_chunk : count;
            size_t want_len = want_off < count ? (count - want_off < want_chunk ? count - want_off : want_chunk) : 0;
            if (off != want_off || len != want_len)
                ck_abort_msg("coll_shard(count %zu, k %d, rank %d) gave [%zu, %zu + %zu), expected [%zu, %zu + %zu)",
                             count, k, r, off, off, len, want_off, want_off, want_len);
            next = off + len;
        }
        if (next != count) ck_abort_msg("count %zu over %d ranks: the shards end at %zu, not at count", count, k, next);
    }
}
END_TEST

/* k host "ranks": a reduce-scatter over the shards (each rank sums its
 * shard across ranks), then an all-gather of the shards, must give every
 * element of the all-reduce exactly once. */
START_TEST(shard_collectives_simulated)
{
    wb_rng rng = WB_RNG();
    int k = KS[_i % WB_COUNT(KS)];
    size_t count = (size_t)wb_rng_int(&rng, 0, 5000);
    if (_i == 0) count = (size_t)k + 1; /* never a multiple of k (k > 1) */
    uint64_t seed = wb_rng_u64(&rng);
    float *all = wb_hmalloc(count * 4 + 4), *ref = wb_hmalloc(count * 4 + 4), *shard = wb_hmalloc(count * 4 + 4);
    make_ref(AR, 0, seed, 0, k, count, ref);
    memset(all, 0xFF, count * 4); /* NaN: an element no shard covers shows */
    size_t chunk = coll_chunk(count, k);
    for (int r = 0; r < k; r++) {
        size_t off = 0, len = 0;
        coll_shard(count, k, r, &off, &len);
        if (len > chunk || off > count || len > count - off)
            ck_abort_msg("count %zu, %d ranks: rank %d's shard [%zu, %zu + %zu) is not inside [0, count) or is longer "
                         "than a chunk (%zu)", count, k, r, off, off, len, chunk);
        for (size_t j = 0; j < len; j++) { /* reduce-scatter: rank r's part of the sum */
            double s = 0;
            for (int q = 0; q < k; q++) s += in_f32(seed, q, off + j);
            shard[j] = (float)s;
        }
        memcpy(all + off, shard, len * 4); /* all-gather: every shard back in its place */
    }
    wb_cmp cmp;
    char what[120];
    snprintf(what, sizeof what, "reduce-scatter then all-gather over coll_shard, %d ranks, count %zu", k, count);
    wb_compare_f32("all", all, ref, count, 0, 0, &cmp);
    WB_EXPECT_CMP(cmp, what);
    free(all), free(ref), free(shard);
}
END_TEST

/* ---------------------------------------------------------------- exercise 1: one process, every GPU */

static const size_t COUNTS[] = { 0, 1, 3, 4097, 1000003, 4194305 };

/* One collective on w: out of place with float sums, in place with int32
 * sums; every rank's output compared, guards checked. */
static void check_case(coll_world *w, kind_t kind, int inplace, size_t count, uint64_t seed)
{
    int k = w->ndev, ints = inplace;
    size_t sn = send_n(kind, k, count), rn = recv_n(kind, k, count);
    size_t bn = inplace ? (kind == AR ? count : (size_t)k * count) : rn; /* the guarded buffer */
    wb_dout out[COLL_MAX_DEV];
    void *dsend[COLL_MAX_DEV] = { 0 }, *rp[COLL_MAX_DEV];
    const void *sp[COLL_MAX_DEV];
    void *host = wb_hmalloc(sn * 4 + 4), *ref = wb_hmalloc(rn * 4 + 4), *got = wb_hmalloc(bn * 4 + 4);
    char what[200];
    snprintf(what, sizeof what, "%s %s (%s), %d rank%s, count %zu", KIND_NAME[kind],
             inplace ? "in place" : "out of place", ints ? "int32" : "float", k, k == 1 ? "" : "s", count);
    for (int d = 0; d < k; d++) {
        WB_CUDA(cudaSetDevice(d));
        make_send(kind, ints, seed, d, k, count, host);
        char *buf = wb_dout_alloc(&out[d], "recv", bn * 4, 0);
        if (inplace) {
            size_t at = kind == AG ? (size_t)d * count : 0; /* all-gather: send = recv + rank * sendcount */
            if (sn) wb_h2d(buf + at * 4, host, sn * 4);
            sp[d] = buf + at * 4;
            rp[d] = buf + (kind == RS ? (size_t)d * count * 4 : 0); /* reduce-scatter: recv = send + rank * recvcount */
        } else {
            dsend[d] = wb_dcopy(host, sn * 4);
            sp[d] = dsend[d], rp[d] = buf;
        }
    }
    ncclDataType_t t = ints ? ncclInt32 : ncclFloat32;
    ncclResult_t r = kind == AR ? coll_allreduce(w, sp, rp, count, t, ncclSum)
                   : kind == RS ? coll_reducescatter(w, sp, rp, count, t, ncclSum)
                                : coll_allgather(w, sp, rp, count, t);
    ck_assert_msg(r == ncclSuccess, "%s: %s", what, ncclGetErrorString(r));
    r = coll_wait(w);
    ck_assert_msg(r == ncclSuccess, "%s: coll_wait: %s", what, ncclGetErrorString(r));
    for (int d = 0; d < k; d++) {
        char w2[240];
        snprintf(w2, sizeof w2, "%s, rank %d", what, d);
        WB_CUDA(cudaSetDevice(d));
        make_ref(kind, ints, seed, d, k, count, ref);
        if (inplace && kind == RS) { /* the output is the rank's chunk of the buffer */
            wb_cmp cmp;
            wb_expect_dout_guards(&out[d], got, w2);
            wb_compare_u32("recv", (const uint32_t *)got + (size_t)d * count, ref, rn, &cmp);
            WB_EXPECT_CMP(cmp, w2);
        } else if (ints) {
            wb_expect_dout_u32(&out[d], ref, rn, w2);
        } else {
            wb_expect_dout_f32(&out[d], ref, rn, 1e-6, 1e-5, w2);
        }
        wb_dout_free(&out[d]);
        wb_dfree(dsend[d]);
    }
    free(host), free(ref), free(got);
}

static void check_world(int ndev, const kind_t *kinds, int nk, size_t count, uint64_t seed)
{
    coll_world w;
    ncclResult_t r = coll_init(&w, ndev);
    ck_assert_msg(r == ncclSuccess, "coll_init(%d device%s): %s", ndev, ndev == 1 ? "" : "s", ncclGetErrorString(r));
    ck_assert_msg(w.ndev == ndev, "coll_init(%d) left w.ndev = %d", ndev, w.ndev);
    for (int i = 0; i < nk; i++)
        for (int inplace = 0; inplace < 2; inplace++) check_case(&w, kinds[i], inplace, count, seed + (uint64_t)(2 * i + inplace));
    coll_destroy(&w);
    ck_assert_msg(w.ndev == 0 && w.comm[0] == NULL, "coll_destroy left the world non-empty");
}

static uint64_t case_seed(wb_rng *rng) { return wb_rng_u64(rng) >> 8; }

/* One collective, one GPU, count COUNTS[i]. */
static void one_gpu(kind_t kind, int i)
{
    wb_rng rng = wb_rng_for(KIND_NAME[kind], i);
    check_world(1, &kind, 1, COUNTS[i], case_seed(&rng));
}
START_TEST(allreduce_one_gpu) { one_gpu(AR, _i); } END_TEST
START_TEST(reducescatter_one_gpu) { one_gpu(RS, _i); } END_TEST
START_TEST(allgather_one_gpu) { one_gpu(AG, _i); } END_TEST

/* Every GPU of the host (2 to 8), one rank each. */
START_TEST(collectives_all_gpus)
{
    int n;
    wb_use_gpus(n);
    wb_rng rng = WB_RNG();
    const kind_t k[] = { AR, RS, AG };
    check_world(n, k, 3, COUNTS[_i], case_seed(&rng));
    wb_report_gpus(n, "all-reduce, reduce-scatter and all-gather correct, in and out of place, count %zu",
                   COUNTS[_i]);
}
END_TEST

/* ---------------------------------------------------------------- exercise 2: one process per GPU */

enum { COLL_WAIT = 10 }; /* seconds a rank waits for one collective to finish */

/* The rank's stream, waited for at most timeout_s: a collective whose peer
 * died never finishes, and cudaStreamSynchronize would wait for ever (what
 * a framework's NCCL watchdog guards against). cudaErrorTimeout when the
 * time ran out. */
static cudaError_t stream_wait(cudaStream_t st, double timeout_s)
{
    double end = wb_seconds() + timeout_s;
    cudaError_t e;
    while ((e = cudaStreamQuery(st)) == cudaErrorNotReady) {
        if (wb_seconds() > end) return cudaErrorTimeout;
        usleep(1000);
    }
    return e;
}

/* In a rank (its own process: no ck_assert here): one collective on the
 * rank's communicator, checked; 0, or 1 with msg. */
static int rank_case(rank_comm *c, kind_t kind, int inplace, size_t count, uint64_t seed, char *msg, size_t n)
{
    enum { G = 64 }; /* guard elements each side */
    int k = c->nranks, d = c->rank, ints = inplace, bad = 1;
    size_t sn = send_n(kind, k, count), rn = recv_n(kind, k, count);
    size_t bn = inplace ? (kind == AR ? count : (size_t)k * count) : rn;
    size_t at_send = inplace && kind == AG ? (size_t)d * count : 0, at_recv = inplace && kind == RS ? (size_t)d * count : 0;
    char what[200], *gbuf = NULL, *dsend = NULL;
    snprintf(what, sizeof what, "rank %d of %d, %s %s (%s), count %zu", d, k, KIND_NAME[kind],
             inplace ? "in place" : "out of place", ints ? "int32" : "float", count);
    void *hs = malloc(sn * 4 + 4), *ref = malloc(rn * 4 + 4);
    unsigned char *got = malloc((bn + 2 * G) * 4);
    if (!hs || !ref || !got) {
        snprintf(msg, n, "%s: out of host memory", what);
        goto done;
    }
    make_send(kind, ints, seed, d, k, count, hs);
    make_ref(kind, ints, seed, d, k, count, ref);
    cudaError_t ce = cudaMalloc((void **)&gbuf, (bn + 2 * G) * 4);
    if (ce == cudaSuccess) ce = cudaMemset(gbuf, 0xFF, (bn + 2 * G) * 4);
    if (ce == cudaSuccess && !inplace) ce = cudaMalloc((void **)&dsend, sn * 4);
    char *buf = gbuf + G * 4, *sp = inplace ? buf + at_send * 4 : dsend, *rp = buf + at_recv * 4;
    if (ce == cudaSuccess) ce = cudaMemcpy(sp, hs, sn * 4, cudaMemcpyHostToDevice);
    if (ce != cudaSuccess) {
        snprintf(msg, n, "%s: %s", what, cudaGetErrorString(ce));
        goto done;
    }
    ncclDataType_t t = ints ? ncclInt32 : ncclFloat32;
    ncclResult_t r = kind == AR ? ncclAllReduce(sp, rp, count, t, ncclSum, c->comm, c->stream)
                   : kind == RS ? ncclReduceScatter(sp, rp, count, t, ncclSum, c->comm, c->stream)
                                : ncclAllGather(sp, rp, count, t, c->comm, c->stream);
    r = rank_settle(c, r, 60);
    if (r != ncclSuccess) {
        snprintf(msg, n, "%s: %s", what, ncclGetErrorString(r));
        goto done;
    }
    ce = stream_wait(c->stream, COLL_WAIT);
    if (ce == cudaErrorTimeout) {
        snprintf(msg, n, "%s: did not finish within %d s: a peer died or never called it", what, (int)COLL_WAIT);
        gbuf = dsend = NULL; /* the collective may still write them: leave them to the abort and the exit */
        goto done;
    }
    if (ce == cudaSuccess) ce = cudaMemcpy(got, gbuf, (bn + 2 * G) * 4, cudaMemcpyDeviceToHost);
    if (ce != cudaSuccess) {
        snprintf(msg, n, "%s: %s", what, cudaGetErrorString(ce));
        goto done;
    }
    ncclResult_t async = ncclSuccess;
    if (ncclCommGetAsyncError(c->comm, &async) != ncclSuccess || async != ncclSuccess) {
        snprintf(msg, n, "%s: the communicator reports %s", what, ncclGetErrorString(async));
        goto done;
    }
    size_t outside = wb_count_not_byte(got, G * 4, 0xFF) + wb_count_not_byte(got + (G + bn) * 4, G * 4, 0xFF);
    if (outside) {
        snprintf(msg, n, "%s: %zu bytes written outside the buffer", what, outside);
        goto done;
    }
    wb_cmp cmp;
    size_t wrong = ints ? wb_compare_u32("recv", (const uint32_t *)(got + (G + at_recv) * 4), ref, rn, &cmp)
                        : wb_compare_f32("recv", (const float *)(got + (G + at_recv) * 4), ref, rn, 1e-6, 1e-5, &cmp);
    if (wrong) snprintf(msg, n, "%s: %s", what, cmp.msg);
    else bad = 0;
done:
    cudaFree(gbuf), cudaFree(dsend);
    free(hs), free(ref), free(got);
    return bad;
}

typedef struct {
    uint64_t seed;
    double   timeout;     /* rank_join's deadline */
    int      die_rank;    /* this rank exits at once (status 7); -1 for none */
    int      collectives; /* run the collectives after joining */
    int      kill_rank;   /* this rank kills itself (SIGKILL) once joined, before any collective; -1 for none */
} body_arg;

static const size_t RANK_COUNTS[] = { 1, 3, 1000003 };

/* The body of every rank: join, run each collective in and out of place,
 * report, leave. The report goes out before rank_leave, which may abort. */
static int body_run(wb_rank *r, void *argp, char *msg, size_t n)
{
    const body_arg *a = argp;
    if (r->rank == a->die_rank) _exit(7);
    rank_comm c;
    if (rank_join(r, a->timeout, &c, msg, n) != 0) {
        if (!msg[0]) snprintf(msg, n, "rank %d of %d: rank_join failed without a message", r->rank, r->nranks);
        wb_rank_report(r, 1, msg);
        rank_leave(&c);
        return 1;
    }
    if (r->rank == a->kill_rank) kill(getpid(), SIGKILL);
    int bad = 0, done = 0;
    for (size_t i = 0; a->collectives && !bad && i < WB_COUNT(RANK_COUNTS); i++)
        for (int kind = AR; !bad && kind <= AG; kind++)
            for (int inplace = 0; !bad && inplace < 2; inplace++, done++)
                bad = rank_case(&c, (kind_t)kind, inplace, RANK_COUNTS[i], a->seed + (uint64_t)done, msg, n);
    if (!bad) snprintf(msg, n, "rank %d of %d joined; %d collectives correct", r->rank, r->nranks, done);
    wb_rank_report(r, bad, msg);
    rank_leave(&c);
    return bad;
}

/* The GPU count, asked in a child: this process must stay free of CUDA. */
static int gpu_rank(wb_rank *r, void *arg, char *msg, size_t n)
{
    (void)r, (void)arg;
    int k = 0;
    if (cudaGetDeviceCount(&k) != cudaSuccess) k = 0;
    snprintf(msg, n, "%d", k);
    return 0;
}

static int gpus_in_child(void)
{
    wb_launch_result res;
    if (wb_launch(1, 60, gpu_rank, NULL, &res) != 0) ck_abort_msg("counting the GPUs in a child: %s", res.summary);
    return atoi(res.msg[0]);
}

enum { INIT_WAIT = 5, LAUNCH_LIMIT = 90 }; /* seconds: rank_join's deadline in the error tests; a whole launch */

START_TEST(ranks_one)
{
    wb_rng rng = WB_RNG();
    body_arg a = { case_seed(&rng), 60, -1, 1, -1 };
    wb_launch_result res;
    int rc = wb_launch(1, LAUNCH_LIMIT, body_run, &a, &res);
    ck_assert_msg(rc == 0, "one rank through the launcher: %s", res.summary);
}
END_TEST

/* One rank a GPU, every GPU of the host (2 to 8). */
START_TEST(ranks_all_gpus)
{
    int n;
    wb_use_gpus_found(n, gpus_in_child());
    wb_rng rng = WB_RNG();
    body_arg a = { case_seed(&rng), 60, -1, 1, -1 };
    wb_launch_result res;
    int rc = wb_launch(n, LAUNCH_LIMIT, body_run, &a, &res);
    ck_assert_msg(rc == 0, "%d GPUs, one rank each: %s", n, res.summary);
    wb_report_gpus(n, "%d ranks, one process each, joined and ran every collective correctly (%.1f s)", n,
                   res.seconds);
}
END_TEST

START_TEST(ranks_wrong_count)
{
    int g = gpus_in_child();
    ck_assert_msg(g >= 1, "no GPU answered in a child process, though the test's probe found one");
    if (g >= WB_LAUNCH_MAX_RANKS) wb_skip_test("%d GPUs: one rank more than that is past the launcher's limit", g);
    int nr = g + 1;
    body_arg a = { 1, INIT_WAIT, -1, 0, -1 };
    wb_launch_result res;
    int rc = wb_launch(nr, LAUNCH_LIMIT, body_run, &a, &res);
    ck_assert_msg(rc != 0, "%d ranks on %d GPU%s: the launch reported success", nr, g, g == 1 ? "" : "s");
    char has[64], need[64];
    snprintf(has, sizeof has, "this host has %d GPU", g);
    snprintf(need, sizeof need, "%d ranks need %d GPUs", nr, nr);
    ck_assert_msg(res.reported[g] && res.status[g] != 0 && strstr(res.msg[g], has) && strstr(res.msg[g], need),
                  "rank %d has no GPU of its own: it should fail at once with a message containing \"%s\" and \"%s\". "
                  "The launch said: %s", g, has, need, res.summary);
    /* The others fail their init: by their own deadline ("timed out"), or
     * earlier when NCCL sees a peer's socket close, a peer that gave up
     * first ("a peer exited or its connection broke"). Which one a rank
     * sees is a race (on 4 H200s, rank 1 of 5 saw a connection close before
     * its own deadline); both name the failure. */
    for (int q = 0; q < g; q++)
        ck_assert_msg(res.reported[q] && res.status[q] != 0 &&
                          (strstr(res.msg[q], "timed out") || strstr(res.msg[q], "a peer exited or its connection broke")),
                      "rank %d should fail its init by its %d s deadline (rank %d never joins) and say why: \"timed out\" when "
                      "its deadline passed, or \"a peer exited or its connection broke\" when NCCL saw a peer's "
                      "connection close first. The launch said: %s", q, (int)INIT_WAIT, g, res.summary);
    if (!res.ok && res.seconds > INIT_WAIT + 20)
        printf("  note: the launch took %.1f s (some rank did not exit soon after its report: %s)\n", res.seconds, res.summary);
}
END_TEST

START_TEST(ranks_dead_peer)
{
    body_arg a = { 1, INIT_WAIT, 1, 0, -1 };
    wb_launch_result res;
    int rc = wb_launch(2, LAUNCH_LIMIT, body_run, &a, &res);
    ck_assert_msg(rc != 0, "rank 1 died, yet the launch reported success: %s", res.summary);
    ck_assert_msg(strstr(res.summary, "rank 1 exited with status 7 before reporting") != NULL,
                  "the launcher should name the dead rank: %s", res.summary);
    ck_assert_msg(res.reported[0] && res.status[0] != 0 && strstr(res.msg[0], "timed out"),
                  "rank 0 should give up on init after %d s (rank 1 is dead) and say \"timed out\". The launch said: %s",
                  (int)INIT_WAIT, res.summary);
    if (!res.exited[0]) printf("  note: rank 0 reported, then did not exit: was the half-made communicator aborted?\n");
}
END_TEST

/* Every GPU of the host (2 to 8) a rank; once all have joined, the last
 * one is killed: every other rank must report its failed all-reduce and
 * exit. */
START_TEST(ranks_killed_peer)
{
    int n;
    wb_use_gpus_found(n, gpus_in_child());
    int dead = n - 1;
    body_arg a = { 1, 60, -1, 1, dead };
    wb_launch_result res;
    int rc = wb_launch(n, LAUNCH_LIMIT, body_run, &a, &res);
    printf("  killed peer, %d GPUs: the launch ended after %.1f s: %s\n", n, res.seconds, res.summary);
    ck_assert_msg(rc != 0, "%d GPUs: rank %d was killed, yet the launch reported success: %s", n, dead, res.summary);
    char killed[64];
    snprintf(killed, sizeof killed, "rank %d was killed by signal 9", dead);
    ck_assert_msg(strstr(res.summary, killed) != NULL, "%d GPUs: the launcher should name the killed rank (\"%s\"): %s", n,
                  killed, res.summary);
    /* NCCL may notice the dead peer itself ("remote process exited ...");
     * if it does not, the test's wait gives up after COLL_WAIT seconds */
    for (int q = 0; q < dead; q++) {
        ck_assert_msg(res.reported[q] && res.status[q] != 0 && res.msg[q][0],
                      "%d GPUs: rank %d joined with rank %d, which was then killed: its all-reduce should fail (NCCL's "
                      "error, or \"did not finish within %d s\") and rank %d report it. The launch said: %s", n, q, dead,
                      (int)COLL_WAIT, q, res.summary);
        ck_assert_msg(res.exited[q], "%d GPUs: rank %d reported the failure, then did not exit before the launch's %d s "
                      "ran out: rank_leave must abort a communicator whose finalize does not finish (a peer is dead). "
                      "The launch said: %s", n, q, (int)LAUNCH_LIMIT, res.summary);
    }
    wb_report_gpus(n, "rank %d killed; the other %d reported it and exited, the launch ended in %.1f s", dead, dead,
                   res.seconds);
}
END_TEST

/* One rank under mpirun (`test --mpi-rank`): the body of every rank, its
 * inputs' seed from the job's name (the same in every rank, new each job). */
static int mpi_rank_main(void)
{
    wb_rank r;
    char msg[WB_LAUNCH_MSG] = "";
    if (wb_rank_from_env(&r, msg, sizeof msg) != 0) {
        fprintf(stderr, ">>> %s\n", msg);
        return 2;
    }
    uint64_t seed = 1469598103934665603ULL; /* FNV-1a of the broadcast file's name, which holds the job id */
    for (const char *c = r.file; *c; c++) seed = (seed ^ (unsigned char)*c) * 1099511628211ULL;
    body_arg a = { seed >> 8, 60, -1, 1, -1 };
    int bad = body_run(&r, &a, msg, sizeof msg);
    return bad ? 1 : 0;
}

static const wb_test TESTS[] = {
    { "w47.shards", WB_T(shard_tiling), WB_CPU, WB_COUNT(KS) },
    { "w47.shards", WB_T(shard_collectives_simulated), WB_CPU, 8 },
    { "w47.allreduce", WB_T(allreduce_one_gpu), WB_GPU, WB_COUNT(COUNTS) },
    { "w47.reducescatter", WB_T(reducescatter_one_gpu), WB_GPU, WB_COUNT(COUNTS) },
    { "w47.allgather", WB_T(allgather_one_gpu), WB_GPU, WB_COUNT(COUNTS) },
    { "w47.ranks", WB_T(ranks_one), WB_GPU, 0 },
    { "w47.wrong-count", WB_T(ranks_wrong_count), WB_GPU, 0 },
    { "w47.dead-peer", WB_T(ranks_dead_peer), WB_GPU, 0 },
    { "w47.collectives-ngpu", WB_T(collectives_all_gpus), WB_GPU, WB_COUNT(COUNTS) },
    { "w47.ranks-ngpu", WB_T(ranks_all_gpus), WB_GPU, 0 },
    { "w47.killed-peer", WB_T(ranks_killed_peer), WB_GPU, 0 },
};

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--mpi-rank") == 0) return mpi_rank_main();
    return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS);
}
