/* test_week49.c — week 49's checkpoints: the overlap model on the CPU
 * (exercise 1); copy in, compute and copy out on three streams ordered by
 * events, against the serial chunks (exercise 2); the all-reduce of gradient
 * buckets on its own stream behind the compute, with one NCCL rank on one
 * GPU and over every GPU of the host, 2 to 8 (exercise 3; wb_gpus.h: the
 * multi-GPU checkpoints say how many they used). */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wb_harness.h"
#include "wb_gpus.h"
#include "model.h"
#include "pipe.h"
#include "arstep.h"


/* The work on the CPU, as support/given.cu's kernel computes it. */
static float work_ref(float x, int iters)
{
    float v = 0.0f;
    for (int k = 0; k < iters; k++) v = fmaf(v, W49_A, x);
    return v;
}

/* ---------------------------------------------------------------- exercise 1: the model */

/* The finish time computed stage by stage (a column of chunks at a time),
 * the other way round from the row-by-row walk model.h describes: each
 * entry depends only on the one above and the one to its left, so both
 * orders give the same sums bit for bit. */
static double finish_by_stage(const double *t, int k, int m)
{
    if (k <= 0 || m <= 0) return 0.0;
    double *out = calloc((size_t)k, sizeof *out); /* out[j]: when chunk j left the stage done so far */
    ck_assert(out != NULL);
    for (int s = 0; s < m; s++) {
        double busy = 0.0; /* stage s is busy until */
        for (int j = 0; j < k; j++) {
            double go = out[j] < busy ? busy : out[j];
            out[j] = busy = go + t[(size_t)j * m + s];
        }
    }
    double end = out[k - 1];
    free(out);
    return end;
}

static int close_to(double got, double want) { return fabs(got - want) <= 1e-12 * (1.0 + fabs(want)); }

/* Random stage times for k chunks of m stages (some zero, some equal, the
 * last chunk shorter), and the same check on equal chunks; 0-sized cases
 * and a small case worked by hand alongside. */
START_TEST(model_random)
{
    wb_rng rng = WB_RNG();
    int k = 1 + (int)wb_rng_int(&rng, 0, _i < 4 ? 7 : 200), m = 1 + (int)wb_rng_int(&rng, 0, 5);
    double *t = wb_hmalloc((size_t)k * m * sizeof *t), *row = wb_hmalloc((size_t)m * sizeof *row);
    double *rep = wb_hmalloc((size_t)k * m * sizeof *rep), sum = 0.0;
    for (int j = 0; j < k; j++)
        for (int s = 0; s < m; s++) {
            double v = 0.05 + 3.0 * wb_rng_unit(&rng);
            if (wb_rng_int(&rng, 0, 9) == 0) v = 0.0;
            if (j == k - 1) v *= 0.25;
            t[(size_t)j * m + s] = v;
        }
    for (size_t i = 0; i < (size_t)k * m; i++) sum += t[i];
    for (int s = 0; s < m; s++) row[s] = 0.1 + 2.0 * wb_rng_unit(&rng);
    for (int j = 0; j < k; j++) memcpy(rep + (size_t)j * m, row, (size_t)m * sizeof *row);

    double got = model_serial(t, k, m);
    ck_assert_msg(close_to(got, sum),
                  "model_serial, %d chunks x %d stages: %.15g, expected %.15g (the sum of every time)", k, m, got, sum);
    got = model_pipelined(t, k, m);
    double want = finish_by_stage(t, k, m);
    ck_assert_msg(close_to(got, want), "model_pipelined, %d chunks x %d stages (random times): %.15g, expected %.15g",
                  k, m, got, want);
    want = finish_by_stage(rep, k, m);
    got = model_uniform(row, m, k);
    ck_assert_msg(close_to(got, want), "model_uniform, %d equal chunks x %d stages: %.15g, expected %.15g", k, m, got,
                  want);
    got = model_pipelined(rep, k, m);
    ck_assert_msg(close_to(got, want), "model_pipelined, %d equal chunks x %d stages: %.15g, expected %.15g", k, m, got,
                  want);

    /* by hand: 4 chunks of (1, 2, 1): 1 + 2 + 1 fill and drain, then 3 x 2 */
    const double hand[3] = { 1, 2, 1 };
    double hand4[12];
    for (int j = 0; j < 4; j++) memcpy(hand4 + 3 * j, hand, sizeof hand);
    ck_assert_msg(close_to(model_uniform(hand, 3, 4), 10.0), "model_uniform of 4 chunks of (1, 2, 1): %g, expected 10",
                  model_uniform(hand, 3, 4));
    ck_assert_msg(close_to(model_pipelined(hand4, 4, 3), 10.0),
                  "model_pipelined of 4 chunks of (1, 2, 1): %g, expected 10", model_pipelined(hand4, 4, 3));
    ck_assert_msg(close_to(model_serial(hand4, 4, 3), 16.0), "model_serial of 4 chunks of (1, 2, 1): %g, expected 16",
                  model_serial(hand4, 4, 3));
    ck_assert_msg(model_serial(t, 0, m) == 0.0 && model_pipelined(t, 0, m) == 0.0 && model_uniform(row, m, 0) == 0.0 &&
                      model_serial(t, k, 0) == 0.0 && model_pipelined(t, k, 0) == 0.0 && model_uniform(row, 0,
                                                                                                       k) == 0.0,
                  "no chunks or no stages must take 0");
    free(t), free(row), free(rep);
}
END_TEST

/* ---------------------------------------------------------------- exercise 2: three streams */

enum { HOLD_NONE, HOLD_IN, HOLD_WORK, HOLD_OUT };
static const char *const HOLD_NAME[] = { "no stream held back", "stream in held back", "stream work held back",
                                         "stream out held back" };
enum { HOLD_MS = 200, HOST_MS = 100, TAIL = 64 };

typedef struct { size_t n, chunk; int nbuf, hold; } pipe_case;
/* Chunk counts stay small (at most 33) wherever a stream is held back: the
 * driver's queue of a stalled stream is finite, and a correct call must not
 * block on it. */
static const pipe_case PIPES[] = {
    { 1, 1024, 1, HOLD_NONE },
    { 1000, 256, 2, HOLD_IN },
    { 65537, 4096, 3, HOLD_WORK },
    { 65537, 4096, 2, HOLD_OUT },
    { (1 << 20) + 3, 1 << 16, 3, HOLD_IN },
    { (1 << 22) + 1, 1 << 17, 4, HOLD_OUT },
    { (1 << 22) + 1, 1 << 17, 2, HOLD_WORK },
    { 3000000, 3000000, 1, HOLD_WORK },
    { 777777, 100000, 1, HOLD_OUT },
    { 1 << 22, 1 << 18, 4, HOLD_NONE },
};

/* The streams, events and staging buffers of a pipeline (blocking streams:
 * the legacy default stream, where the benchmarks' events go, waits for
 * them). */
static void pipe_make(ovl_pipe *p, size_t chunk, int nbuf)
{
    memset(p, 0, sizeof *p);
    p->chunk = chunk, p->nbuf = nbuf;
    WB_CUDA(cudaStreamCreate(&p->in));
    WB_CUDA(cudaStreamCreate(&p->work));
    WB_CUDA(cudaStreamCreate(&p->out));
    p->dx = wb_dmalloc((size_t)nbuf * chunk * 4), p->dy = wb_dmalloc((size_t)nbuf * chunk * 4);
    cudaEvent_t *ev = wb_hmalloc(3 * (size_t)nbuf * sizeof *ev);
    for (int i = 0; i < 3 * nbuf; i++) WB_CUDA(cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming));
    p->loaded = ev, p->computed = ev + nbuf, p->stored = ev + 2 * nbuf;
}

static void pipe_free(ovl_pipe *p)
{
    for (int i = 0; i < 3 * p->nbuf; i++) cudaEventDestroy(p->loaded[i]);
    free(p->loaded);
    cudaStreamDestroy(p->in), cudaStreamDestroy(p->work), cudaStreamDestroy(p->out);
    wb_dfree(p->dx), wb_dfree(p->dy);
}

static cudaStream_t held_stream(const ovl_pipe *p, int hold)
{
    return hold == HOLD_IN ? p->in : hold == HOLD_WORK ? p->work : p->out;
}

/* Pinned host memory, freed with cudaFreeHost. */
static float *pinned(size_t floats)
{
    float *h = NULL;
    WB_CUDA(cudaHostAlloc((void **)&h, floats * 4, cudaHostAllocDefault));
    return h;
}

START_TEST(pipeline_cases)
{
    const pipe_case *pc = &PIPES[_i];
    wb_rng rng = WB_RNG();
    size_t n = pc->n;
    int iters = 1 + (int)wb_rng_int(&rng, 0, 15);
    float *hx = pinned(n), *hy = pinned(n + TAIL), *ref = wb_hmalloc(n * 4), *got = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, hx, n, -2, 2);
    for (size_t i = 0; i < n; i++) ref[i] = work_ref(hx[i], iters);
    ovl_pipe p;
    pipe_make(&p, pc->chunk, pc->nbuf);
    char what[200];
    snprintf(what, sizeof what, "n=%zu, chunk=%zu, %d slot%s, iters=%d, %s", n, pc->chunk, pc->nbuf, pc->nbuf > 1 ? "s" : "",
             iters, HOLD_NAME[pc->hold]);
    if (_i == 0) {
        ck_assert_msg(pipe_overlap(&p, hx, hy, 0, iters) == cudaSuccess,
                      "pipe_overlap with n = 0 must do nothing and succeed");
        ovl_pipe bad = p;
        bad.chunk = 0;
        ck_assert_msg(pipe_overlap(&bad, hx, hy, n, iters) == cudaErrorInvalidValue,
                      "pipe_overlap with chunk 0: expected cudaErrorInvalidValue");
        bad = p, bad.nbuf = 0;
        ck_assert_msg(pipe_overlap(&bad, hx, hy, n, iters) == cudaErrorInvalidValue,
                      "pipe_overlap with 0 slots: expected cudaErrorInvalidValue");
    }
    /* A first run loads the kernel (lazy module loading would otherwise make
     * the first launch wait for the held stream) and must be right too. */
    wb_hpoison(hy, (n + TAIL) * 4);
    WB_CUDA(pipe_overlap(&p, hx, hy, n, iters));
    wb_sync();
    wb_cmp cmp;
    memcpy(got, hy, n * 4);
    wb_compare_f32("hy (first run)", got, ref, n, 0, 1e-6, &cmp);
    WB_EXPECT_CMP(cmp, what);

    /* The run that counts: everything poisoned, one stream held back. */
    wb_hpoison(hy, (n + TAIL) * 4);
    wb_dpoison(p.dx, (size_t)p.nbuf * p.chunk * 4), wb_dpoison(p.dy, (size_t)p.nbuf * p.chunk * 4);
    wb_sync();
    if (pc->hold != HOLD_NONE) WB_CUDA(w49_spin(held_stream(&p, pc->hold), HOLD_MS));
    double t0 = wb_seconds();
    WB_CUDA(pipe_overlap(&p, hx, hy, n, iters));
    double host_ms = (wb_seconds() - t0) * 1e3;
    wb_sync();
    memcpy(got, hy, n * 4);
    wb_compare_f32("hy", got, ref, n, 0, 1e-6, &cmp);
    WB_EXPECT_CMP(cmp, what);
    size_t spoiled = 0;
    for (size_t i = 0; i < TAIL * 4; i++) spoiled += ((unsigned char *)(hy + n))[i] != 0xFF;
    ck_assert_msg(spoiled == 0, "%s: %zu bytes written past the end of hy", what, spoiled);
    if (pc->hold != HOLD_NONE)
        ck_assert_msg(host_ms < HOST_MS,
                      "%s: pipe_overlap kept the host waiting %.0f ms behind a stream held for %d ms (it must only "
                      "enqueue)", what, host_ms, HOLD_MS);
    pipe_free(&p);
    cudaFreeHost(hx), cudaFreeHost(hy), free(ref), free(got);
}
END_TEST

/* ---------------------------------------------------------------- exercise 3: the world */

enum { MAXR = 8, INIT_S = 60 };
_Static_assert((int)WB_MAX_GPUS <= (int)MAXR, "a rank for every GPU used");

/* A deadline for a wait on peers: if `what` has not finished after secs
 * seconds, say so and end the process (a hang would say nothing). */
typedef struct {
    pthread_t       th;
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    int             done, secs;
    const char     *what;
} deadline;

static void *deadline_main(void *arg)
{
    deadline *d = arg;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += d->secs;
    pthread_mutex_lock(&d->mu);
    int rc = 0;
    while (!d->done && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&d->cv, &d->mu, &until);
    int late = !d->done;
    pthread_mutex_unlock(&d->mu);
    if (late) {
        fprintf(stderr, "\n%s did not finish within %d s: a GPU of the communicator is not answering (check nvidia-smi; "
                        "NCCL_DEBUG=INFO says which rank stalls)\n", d->what, d->secs);
        fflush(stderr);
        _exit(124);
    }
    return NULL;
}

static void deadline_start(deadline *d, const char *what, int secs)
{
    pthread_mutex_init(&d->mu, NULL);
    pthread_cond_init(&d->cv, NULL);
    d->done = 0, d->secs = secs, d->what = what;
    ck_assert_msg(pthread_create(&d->th, NULL, deadline_main, d) == 0, "could not start the deadline thread");
}

static void deadline_stop(deadline *d)
{
    pthread_mutex_lock(&d->mu);
    d->done = 1;
    pthread_cond_signal(&d->cv);
    pthread_mutex_unlock(&d->mu);
    pthread_join(d->th, NULL);
    pthread_mutex_destroy(&d->mu), pthread_cond_destroy(&d->cv);
}

#define NCCL_OK(call)                                                                                                  \
    do {                                                                                                               \
        ncclResult_t r_ = (call);                                                                                      \
        ck_assert_msg(r_ == ncclSuccess, "%s failed: %s (%s:%d)", #call, ncclGetErrorString(r_), __FILE__, __LINE__); \
    } while (0)

/* R ranks on devices 0 .. R-1, one process; the buffers of each in guard
 * bands (g, gsum, wnew poisoned). */
typedef struct {
    ar_world     w;
    int          dev[MAXR];
    ncclComm_t   comm[MAXR];
    cudaStream_t compute[MAXR], comms[MAXR];
    float       *x[MAXR], *g[MAXR], *gsum[MAXR], *wt[MAXR], *wnew[MAXR];
    wb_dout      G[MAXR], S[MAXR], N[MAXR];
    cudaEvent_t *ev;
} world;

static void world_make(world *W, int R, int nbucket, size_t bucket, int iters, float lr)
{
    memset(W, 0, sizeof *W);
    ck_assert(R >= 1 && R <= MAXR);
    size_t n = (size_t)nbucket * bucket;
    for (int r = 0; r < R; r++) W->dev[r] = r;
    char what[80];
    snprintf(what, sizeof what, "ncclCommInitAll over %d GPU%s", R, R > 1 ? "s" : "");
    deadline d;
    deadline_start(&d, what, INIT_S);
    ncclResult_t init = ncclCommInitAll(W->comm, R, W->dev);
    deadline_stop(&d);
    ck_assert_msg(init == ncclSuccess, "%s: %s", what, ncclGetErrorString(init));
    W->ev = wb_hmalloc(2 * (size_t)R * nbucket * sizeof *W->ev);
    for (int r = 0; r < R; r++) {
        int lo = 0, hi = 0;
        WB_CUDA(cudaSetDevice(r));
        WB_CUDA(cudaDeviceGetStreamPriorityRange(&lo, &hi));
        WB_CUDA(cudaStreamCreate(&W->compute[r]));
        /* the all-reduce's blocks go first when an SM frees up */
        WB_CUDA(cudaStreamCreateWithPriority(&W->comms[r], cudaStreamDefault, hi));
        W->x[r] = wb_dmalloc(n * 4), W->wt[r] = wb_dmalloc(n * 4);
        W->g[r] = wb_dout_alloc(&W->G[r], "g", n * 4, 0);
        W->gsum[r] = wb_dout_alloc(&W->S[r], "gsum", n * 4, 0);
        W->wnew[r] = wb_dout_alloc(&W->N[r], "wnew", n * 4, 0);
        for (int b = 0; b < 2 * nbucket; b++)
            WB_CUDA(cudaEventCreateWithFlags(&W->ev[(size_t)r * 2 * nbucket + b], cudaEventDisableTiming));
    }
    /* ready[r * nbucket + b] and reduced[r * nbucket + b]: each on rank r's device */
    cudaEvent_t *ready = wb_hmalloc((size_t)R * nbucket * sizeof *ready * 2), *reduced = ready + (size_t)R * nbucket;
    for (int r = 0; r < R; r++)
        for (int b = 0; b < nbucket; b++) {
            ready[r * nbucket + b] = W->ev[(size_t)r * 2 * nbucket + b];
            reduced[r * nbucket + b] = W->ev[(size_t)r * 2 * nbucket + nbucket + b];
        }
    W->w = (ar_world){ .nranks = R, .nbucket = nbucket, .bucket = bucket, .iters = iters, .lr = lr, .dev = W->dev,
                       .comm = W->comm, .compute = W->compute, .comms = W->comms, .x = W->x, .g = W->g,
                       .gsum = W->gsum, .w = W->wt, .wnew = W->wnew, .ready = ready, .reduced = reduced };
    WB_CUDA(cudaSetDevice(0));
}

static void world_free(world *W)
{
    for (int r = 0; r < W->w.nranks; r++) {
        cudaSetDevice(r);
        for (int b = 0; b < 2 * W->w.nbucket; b++) cudaEventDestroy(W->ev[(size_t)r * 2 * W->w.nbucket + b]);
        cudaStreamDestroy(W->compute[r]), cudaStreamDestroy(W->comms[r]);
        wb_dfree(W->x[r]), wb_dfree(W->wt[r]);
        wb_dout_free(&W->G[r]), wb_dout_free(&W->S[r]), wb_dout_free(&W->N[r]);
        ncclCommDestroy(W->comm[r]);
    }
    free(W->ev), free(W->w.ready);
    cudaSetDevice(0);
}

static void world_poison(world *W)
{
    for (int r = 0; r < W->w.nranks; r++) {
        WB_CUDA(cudaSetDevice(r));
        wb_dout_poison(&W->G[r]), wb_dout_poison(&W->S[r]), wb_dout_poison(&W->N[r]);
        wb_sync();
    }
    WB_CUDA(cudaSetDevice(0));
}

static void world_sync(void)
{
    int n = wb_gpu_count();
    for (int r = 0; r < n && r < MAXR; r++) WB_CUDA(cudaSetDevice(r)), wb_sync();
    WB_CUDA(cudaSetDevice(0));
}

enum { HOLD_COMPUTE = 1, HOLD_COMMS = 2 };
static const char *const AR_HOLD[] = { "no stream held back", "compute stream held back", "communication stream held back" };

/* Random inputs, one step overlapped with `hold` (a stream of rank hr held
 * back first), every rank's g, gsum and wnew against the CPU. */
static void check_step(wb_rng *rng, int R, int hold)
{
    static const size_t BUCKETS[] = { 1, 257, 4099, 65537 };
    int nbucket = 1 + (int)wb_rng_int(rng, 0, 5), iters = 1 + (int)wb_rng_int(rng, 0, 15), hr = R - 1;
    size_t bucket = BUCKETS[wb_rng_int(rng, 0, WB_COUNT(BUCKETS) - 1)], n = (size_t)nbucket * bucket;
    float lr = (float)(0.01 + 0.2 * wb_rng_unit(rng));
    world W;
    world_make(&W, R, nbucket, bucket, iters, lr);
    float *hx[MAXR], *hw[MAXR], *rg[MAXR], *rs = wb_hmalloc(n * 4), *rn = wb_hmalloc(n * 4);
    for (int r = 0; r < R; r++) {
        hx[r] = wb_hmalloc(n * 4), hw[r] = wb_hmalloc(n * 4), rg[r] = wb_hmalloc(n * 4);
        wb_fill_uniform_f32(rng, hx[r], n, -1, 1);
        wb_fill_uniform_f32(rng, hw[r], n, -1, 1);
        for (size_t i = 0; i < n; i++) rg[r][i] = work_ref(hx[r][i], iters);
        WB_CUDA(cudaSetDevice(r));
        wb_h2d(W.x[r], hx[r], n * 4), wb_h2d(W.wt[r], hw[r], n * 4);
    }
    for (size_t i = 0; i < n; i++) {
        float s = 0.0f;
        for (int r = 0; r < R; r++) s += rg[r][i];
        rs[i] = s;
    }
    char what[200];
    snprintf(what, sizeof what, "%d rank%s, %d buckets of %zu floats, iters=%d, lr=%g, %s", R, R > 1 ? "s" : "", nbucket,
             bucket, iters, (double)lr, AR_HOLD[hold]);
    ar_err err = { "" };
    /* a first step loads the kernels and sets NCCL up */
    ck_assert_msg(arstep_overlap(&W.w, &err) == 0, "%s: arstep_overlap: %s", what, err.msg);
    world_sync();
    world_poison(&W);
    WB_CUDA(cudaSetDevice(hr));
    if (hold == HOLD_COMPUTE) WB_CUDA(w49_spin(W.compute[hr], HOLD_MS));
    if (hold == HOLD_COMMS) WB_CUDA(w49_spin(W.comms[hr], HOLD_MS));
    double t0 = wb_seconds();
    int bad = arstep_overlap(&W.w, &err);
    double host_ms = (wb_seconds() - t0) * 1e3;
    ck_assert_msg(bad == 0, "%s: arstep_overlap: %s", what, err.msg);
    world_sync();
    for (int r = 0; r < R; r++) {
        char w2[240];
        for (size_t i = 0; i < n; i++) rn[i] = fmaf(-lr, rs[i], hw[r][i]);
        WB_CUDA(cudaSetDevice(r));
        snprintf(w2, sizeof w2, "%s, rank %d", what, r);
        wb_expect_dout_f32(&W.G[r], rg[r], n, 0, 1e-6, w2);
        wb_expect_dout_f32(&W.S[r], rs, n, 1e-6, 1e-5, w2);
        wb_expect_dout_f32(&W.N[r], rn, n, 1e-6, 1e-5, w2);
    }
    if (hold)
        ck_assert_msg(host_ms < HOST_MS,
                      "%s: arstep_overlap kept the host waiting %.0f ms behind a stream held for %d ms (it must only "
                      "enqueue)", what, host_ms, HOLD_MS);
    for (int r = 0; r < R; r++) free(hx[r]), free(hw[r]), free(rg[r]);
    free(rs), free(rn);
    world_free(&W);
}

/* One GPU, one rank: the all-reduce is a copy, and it still has to come
 * after the gradient and before the update. */
START_TEST(order_one_rank)
{
    wb_rng rng = WB_RNG();
    check_step(&rng, 1, _i % 3);
}
END_TEST

/* Every GPU of the host (2 to 8), one process. */
START_TEST(allreduce_all)
{
    int R;
    wb_use_gpus(R);
    wb_rng rng = WB_RNG();
    check_step(&rng, R, _i == 0 ? 0 : HOLD_COMMS);
    wb_report_gpus(R, "one rank each, g, gsum and wnew exact on every rank, %s", AR_HOLD[_i == 0 ? 0 : HOLD_COMMS]);
}
END_TEST

/* ---------------------------------------------------------------- the pipeline's speed */

enum { PB_N = 1 << 26, PB_CHUNK = 1 << 21, PB_NBUF = 3 };

typedef struct {
    ovl_pipe p;
    float   *hx, *hy;
    size_t   n;
    int      iters;
    unsigned long long seed;
} pb_ctx;

static void pb_serial(void *v)
{
    pb_ctx *c = v;
    WB_CUDA(yard_pipe_serial(&c->p, c->hx, c->hy, c->n, c->iters));
}
static void pb_pipe(void *v)
{
    pb_ctx *c = v;
    WB_CUDA(pipe_overlap(&c->p, c->hx, c->hy, c->n, c->iters));
}

static void pb_inputs(pb_ctx *c, unsigned long long salt)
{
    c->seed = 0x49C0FFEEull + salt * 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < c->n; i++) c->hx[i] = wb_hash_uniform_f32(c->seed, i, -2, 2);
}

/* hy against the work on `samples` random elements plus the first and last 64. */
static int pb_verify(const pb_ctx *c, size_t samples, char *why, size_t size)
{
    wb_rng rng = wb_rng_for("pb_verify", 0);
    for (size_t k = 0; k < samples + 128; k++) {
        size_t i = k < 64 ? k : k < 128 ? c->n - 128 + k : (size_t)wb_rng_int(&rng, 0, (long long)c->n - 1);
        float want = work_ref(c->hx[i], c->iters), got = c->hy[i];
        if (!(fabsf(got - want) <= 1e-6f * fabsf(want))) {
            snprintf(why, size, "hy[%zu] = %g, expected %g (work of %g, %d iterations)", i, (double)got, (double)want,
                     (double)c->hx[i], c->iters);
            return 1;
        }
    }
    return 0;
}

static void pb_fresh(void *v, unsigned long long salt)
{
    pb_ctx *c = v;
    pb_inputs(c, salt);
    wb_hpoison(c->hy, c->n * 4);
}
static int pb_check(void *v, char *why, size_t size) { return pb_verify(v, 4096, why, size); }

/* Milliseconds of one call of fn on its stream, median of 7 after a warm-up. */
typedef cudaError_t (*stage_fn)(void *ctx, cudaStream_t s);
static double stage_ms(stage_fn fn, void *ctx, cudaStream_t s)
{
    cudaEvent_t a, b;
    double t[7];
    WB_CUDA(cudaEventCreate(&a));
    WB_CUDA(cudaEventCreate(&b));
    WB_CUDA(fn(ctx, s));
    for (int k = 0; k < 7; k++) {
        float ms = 0;
        WB_CUDA(cudaEventRecord(a, s));
        WB_CUDA(fn(ctx, s));
        WB_CUDA(cudaEventRecord(b, s));
        WB_CUDA(cudaEventSynchronize(b));
        WB_CUDA(cudaEventElapsedTime(&ms, a, b));
        t[k] = ms;
    }
    cudaEventDestroy(a), cudaEventDestroy(b);
    for (int i = 1; i < 7; i++)
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double x = t[j];
            t[j] = t[j - 1], t[j - 1] = x;
        }
    return t[3];
}

static cudaError_t pb_h2d(void *v, cudaStream_t s)
{
    pb_ctx *c = v;
    return cudaMemcpyAsync(c->p.dx, c->hx, c->p.chunk * 4, cudaMemcpyHostToDevice, s);
}
static cudaError_t pb_d2h(void *v, cudaStream_t s)
{
    pb_ctx *c = v;
    return cudaMemcpyAsync(c->hy, c->p.dy, c->p.chunk * 4, cudaMemcpyDeviceToHost, s);
}
static cudaError_t pb_kernel(void *v, cudaStream_t s)
{
    pb_ctx *c = v;
    return w49_work(c->p.dx, c->p.dy, c->p.chunk, c->iters, s);
}

/* *iters so that the kernel takes about as long as the stage it should hide
 * (`ms`): scaled twice from 64, since at few iterations the kernel is
 * memory-bound and its time is not yet proportional. Returns its time. */
static double size_kernel(int *iters, stage_fn kernel, void *ctx, cudaStream_t s, double ms)
{
    *iters = 64;
    double k_ms = stage_ms(kernel, ctx, s);
    for (int round = 0; round < 2; round++) {
        double scaled = *iters * ms / (k_ms > 1e-6 ? k_ms : 1e-6);
        *iters = scaled < 1 ? 1 : scaled > 65536 ? 65536 : (int)(scaled + 0.5);
        k_ms = stage_ms(kernel, ctx, s);
    }
    return k_ms;
}

static void print_model(const char *what, const double *stage, int m, int k)
{
    double *t = wb_hmalloc((size_t)k * m * sizeof *t);
    for (int j = 0; j < k; j++) memcpy(t + (size_t)j * m, stage, (size_t)m * sizeof *stage);
    double serial = model_serial(t, k, m);
    free(t);
    double piped = model_uniform(stage, m, k);
    printf("  %s model (your model.cu): serial %.3f ms, pipelined %.3f ms, so at best %.2fx\n", what, serial, piped,
           piped > 0 ? serial / piped : NAN);
}

static double bench_pipeline(wb_headline *h)
{
    pb_ctx *c = calloc(1, sizeof *c);
    ck_assert(c != NULL);
    c->n = PB_N;
    c->hx = pinned(c->n), c->hy = pinned(c->n);
    pipe_make(&c->p, PB_CHUNK, PB_NBUF);
    pb_inputs(c, 0);
    double in_ms = stage_ms(pb_h2d, c, c->p.in), out_ms = stage_ms(pb_d2h, c, c->p.out);
    double work_ms = size_kernel(&c->iters, pb_kernel, c, c->p.work, in_ms > out_ms ? in_ms : out_ms);
    int chunks = (int)((c->n + PB_CHUNK - 1) / PB_CHUNK);
    printf("  a chunk of %d MB: copy in %.3f ms (%.1f GB/s), kernel %.3f ms (%d iterations), copy out %.3f ms (%.1f GB/s)\n",
           PB_CHUNK * 4 >> 20, in_ms, PB_CHUNK * 4.0 / in_ms / 1e6, work_ms, c->iters, out_ms,
           PB_CHUNK * 4.0 / out_ms / 1e6);
    double ratio = work_ms / (in_ms > out_ms ? in_ms : out_ms);
    if (ratio < 0.5 || ratio > 2.0) printf("  warning: the kernel is %.2fx the longer copy (meant: within 2x)\n", ratio);
    const double stage[3] = { in_ms, work_ms, out_ms };
    print_model("3-stage", stage, 3, chunks);

    char why[300];
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    wb_bench_row s = { .exercise = "pipeline", .variant = "given: serial, 1 stream", .n = c->n, .bytes = 8.0 * c->n,
                       .unit = "GB/s" };
    wb_hpoison(c->hy, c->n * 4);
    wb_time(pb_serial, c, &o, &s.t);
    s.value = s.bytes / s.t.median / 1e6;
    if (pb_verify(c, 4096, why, sizeof why)) wb_bench_invalid(&s, why);
    wb_bench_emit(&s);

    wb_bench_row r = { .exercise = "pipeline", .variant = "yours: 3 streams, 3 slots, events", .n = c->n,
                       .bytes = 8.0 * c->n, .unit = "GB/s", .yard_name = "SERIAL", .yard = s.value };
    o.fresh = pb_fresh, o.check = pb_check;
    wb_hpoison(c->hy, c->n * 4);
    wb_time(pb_pipe, c, &o, &r.t);
    r.value = r.bytes / r.t.median / 1e6;
    if (pb_verify(c, 4096, why, sizeof why)) wb_bench_invalid(&r, why);
    if (s.invalid && !r.invalid) wb_bench_invalid(&r, "the serial run it is compared with gave wrong output");
    double out = wb_bench_headline(&r, h);
    pipe_free(&c->p);
    cudaFreeHost(c->hx), cudaFreeHost(c->hy);
    free(c);
    return out;
}

/* ---------------------------------------------------------------- the all-reduce's speed */

enum { AB_NBUCKET = 16, AB_BUCKET = 1 << 23 };

typedef struct {
    world W;
    cudaEvent_t go, done[2 * MAXR];
    unsigned long long sx[MAXR], sw[MAXR];
    int which; /* for ab_expect: 0 g, 1 gsum, 2 wnew */
    int rank;
} ab_ctx;

/* The timed region starts and ends on device 0's legacy stream (wb_time's
 * events): every rank's streams wait for `go`, and device 0 waits for every
 * rank's streams at the end. */
static void ab_open(ab_ctx *c)
{
    WB_CUDA(cudaSetDevice(0));
    WB_CUDA(cudaEventRecord(c->go, 0));
    for (int r = 0; r < c->W.w.nranks; r++) {
        WB_CUDA(cudaStreamWaitEvent(c->W.compute[r], c->go, 0));
        WB_CUDA(cudaStreamWaitEvent(c->W.comms[r], c->go, 0));
    }
}
static void ab_close(ab_ctx *c)
{
    for (int r = 0; r < c->W.w.nranks; r++) {
        WB_CUDA(cudaSetDevice(r));
        WB_CUDA(cudaEventRecord(c->done[2 * r], c->W.compute[r]));
        WB_CUDA(cudaEventRecord(c->done[2 * r + 1], c->W.comms[r]));
    }
    WB_CUDA(cudaSetDevice(0));
    for (int r = 0; r < 2 * c->W.w.nranks; r++) WB_CUDA(cudaStreamWaitEvent(0, c->done[r], 0));
}

static void ab_serial(void *v)
{
    ab_ctx *c = v;
    ar_err err = { "" };
    ab_open(c);
    ck_assert_msg(yard_ar_step_serial(&c->W.w, &err) == 0, "yard_ar_step_serial: %s", err.msg);
    ab_close(c);
}
static void ab_overlap(void *v)
{
    ab_ctx *c = v;
    ar_err err = { "" };
    ab_open(c);
    ck_assert_msg(arstep_overlap(&c->W.w, &err) == 0, "arstep_overlap: %s", err.msg);
    ab_close(c);
}

static void ab_inputs(ab_ctx *c, unsigned long long salt)
{
    size_t n = (size_t)c->W.w.nbucket * c->W.w.bucket;
    for (int r = 0; r < c->W.w.nranks; r++) {
        c->sx[r] = 0x5EED0000ull + 2 * r + salt * 1000003ull, c->sw[r] = c->sx[r] + 1;
        WB_CUDA(cudaSetDevice(r));
        wb_dfill_uniform_f32(c->W.x[r], n, c->sx[r], -1, 1);
        wb_dfill_uniform_f32(c->W.wt[r], n, c->sw[r], -1, 1);
        wb_sync();
    }
    WB_CUDA(cudaSetDevice(0));
}

static double ab_expect(size_t i, const void *v)
{
    const ab_ctx *c = v;
    int iters = c->W.w.iters;
    float s = 0.0f;
    if (c->which == 0) return work_ref(wb_hash_uniform_f32(c->sx[c->rank], i, -1, 1), iters);
    for (int r = 0; r < c->W.w.nranks; r++) s += work_ref(wb_hash_uniform_f32(c->sx[r], i, -1, 1), iters);
    if (c->which == 1) return s;
    return fmaf(-c->W.w.lr, s, wb_hash_uniform_f32(c->sw[c->rank], i, -1, 1));
}

static int ab_verify(ab_ctx *c, char *why, size_t size)
{
    static const char *const NAME[] = { "g", "gsum", "wnew" };
    size_t n = (size_t)c->W.w.nbucket * c->W.w.bucket;
    world_sync();
    for (int r = 0; r < c->W.w.nranks; r++)
        for (int k = 0; k < 3; k++) {
            const float *d = k == 0 ? c->W.g[r] : k == 1 ? c->W.gsum[r] : c->W.wnew[r];
            wb_cmp cmp;
            c->rank = r, c->which = k;
            WB_CUDA(cudaSetDevice(r));
            size_t bad = wb_dverify_f32(NAME[k], d, n, ab_expect, c, 2048, 1e-5, 1e-5, &cmp);
            WB_CUDA(cudaSetDevice(0));
            if (bad) {
                snprintf(why, size, "rank %d: %s", r, cmp.msg);
                return 1;
            }
        }
    return 0;
}

static void ab_fresh(void *v, unsigned long long salt)
{
    ab_inputs(v, salt);
    world_poison(&((ab_ctx *)v)->W);
}
static int ab_check(void *v, char *why, size_t size) { return ab_verify(v, why, size); }

static cudaError_t ab_one_reduce(void *v, cudaStream_t s)
{
    ab_ctx *c = v;
    (void)s; /* rank 0's communication stream, where stage_ms records */
    ncclResult_t e = ncclGroupStart();
    for (int r = 0; r < c->W.w.nranks && e == ncclSuccess; r++)
        e = ncclAllReduce(c->W.g[r], c->W.gsum[r], c->W.w.bucket, ncclFloat, ncclSum, c->W.comm[r], c->W.comms[r]);
    ncclResult_t end = ncclGroupEnd();
    ck_assert_msg(e == ncclSuccess && end == ncclSuccess, "ncclAllReduce (sizing): %s",
                  ncclGetErrorString(e != ncclSuccess ? e : end));
    return cudaSetDevice(0);
}
static cudaError_t ab_one_grad(void *v, cudaStream_t s)
{
    ab_ctx *c = v;
    return w49_work(c->W.x[0], c->W.g[0], c->W.w.bucket, c->W.w.iters, s);
}

/* The step on GPUs 0..R-1 (one rank each), overlapped against serial.
 * Returns the ratio (NaN without a valid figure); *detail says what was
 * measured. */
static double run_allreduce(int R, char *detail, size_t size)
{
    ab_ctx *c = calloc(1, sizeof *c);
    ck_assert(c != NULL);
    world_make(&c->W, R, AB_NBUCKET, AB_BUCKET, 64, 0.01f);
    WB_CUDA(cudaEventCreateWithFlags(&c->go, cudaEventDisableTiming));
    for (int r = 0; r < R; r++) {
        WB_CUDA(cudaSetDevice(r));
        WB_CUDA(cudaEventCreateWithFlags(&c->done[2 * r], cudaEventDisableTiming));
        WB_CUDA(cudaEventCreateWithFlags(&c->done[2 * r + 1], cudaEventDisableTiming));
    }
    WB_CUDA(cudaSetDevice(0));
    ab_inputs(c, 0);
    double ar_ms = stage_ms(ab_one_reduce, c, c->W.comms[0]);
    world_sync();
    double g_ms = size_kernel(&c->W.w.iters, ab_one_grad, c, c->W.compute[0], ar_ms);
    double bytes = AB_BUCKET * 4.0, busbw = bytes * 2.0 * (R - 1) / R / ar_ms / 1e6;
    printf("  %d rank%s, a bucket of %d MB: all-reduce %.3f ms (bus bandwidth %.1f GB/s), gradient kernel %.3f ms "
           "(%d iterations)\n", R, R > 1 ? "s" : "", AB_BUCKET * 4 >> 20, ar_ms, busbw, g_ms, c->W.w.iters);
    const double stage[2] = { g_ms, ar_ms };
    print_model("2-stage (gradient, all-reduce; the updates come on top)", stage, 2, AB_NBUCKET);

    char why[300];
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    double n = (double)AB_NBUCKET * AB_BUCKET;
    wb_bench_row s = { .exercise = "allreduce", .variant = "given: serial, 1 stream a rank", .n = (size_t)n,
                       .unit = "steps/s" };
    world_poison(&c->W);
    wb_time(ab_serial, c, &o, &s.t);
    s.value = 1e3 / s.t.median;
    if (ab_verify(c, why, sizeof why)) wb_bench_invalid(&s, why);
    wb_bench_emit(&s);

    char variant[80];
    snprintf(variant, sizeof variant, "yours: all-reduce on its own stream, %d GPU%s", R, R > 1 ? "s" : "");
    wb_bench_row r = { .exercise = "allreduce", .variant = variant, .n = (size_t)n, .unit = "steps/s",
                       .yard_name = "SERIAL", .yard = s.value };
    o.fresh = ab_fresh, o.check = ab_check;
    world_poison(&c->W);
    wb_time(ab_overlap, c, &o, &r.t);
    r.value = 1e3 / r.t.median;
    if (ab_verify(c, why, sizeof why)) wb_bench_invalid(&r, why);
    if (s.invalid && !r.invalid) wb_bench_invalid(&r, "the serial step it is compared with gave wrong output");
    wb_bench_emit(&r);
    double ratio = wb_bench_ratio(&r);
    wb_bench_detail(&r, detail, size);
    cudaEventDestroy(c->go);
    for (int k = 0; k < 2 * R; k++) cudaEventDestroy(c->done[k]);
    world_free(&c->W);
    free(c);
    return ratio;
}

/* The checkpoint: needs 2 GPUs (one rank's all-reduce is a copy, with no
 * link to hide), uses every GPU up to 8; the detail names how many. */
START_TEST(allreduce_speed)
{
    int R;
    wb_use_gpus(R);
    char detail[300];
    double ratio = run_allreduce(R, detail, sizeof detail);
    wb_expect_target("w49.allreduce-speed", ratio, detail);
}
END_TEST

/* No checkpoint: the same on whatever GPUs there are (up to 8), one
 * included. */
static double bench_allreduce_any(void)
{
    char detail[300];
    int R = wb_gpus_cap(wb_gpu_count());
    return run_allreduce(R < 1 ? 1 : R, detail, sizeof detail);
}

static const wb_test TESTS[] = {
    { "w49.model", WB_T(model_random), WB_CPU, 8 },
    { "w49.pipeline", WB_T(pipeline_cases), WB_GPU, WB_COUNT(PIPES) },
    WB_SPEED("w49.pipeline-speed", bench_pipeline),
    { "w49.order", WB_T(order_one_rank), WB_GPU, 3 },
    { "w49.allreduce", WB_T(allreduce_all), WB_GPU, 2 },
    { "w49.allreduce-speed", WB_T(allreduce_speed), WB_GPU, 0 },
};

static const wb_benchmark BENCHES[] = {
    { "allreduce_any", bench_allreduce_any },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
