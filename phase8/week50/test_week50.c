/* test_week50.c — week 50's checkpoints: gradient bucketing (the layout on
 * the CPU, pack and unpack, the bucketed all-reduce through NCCL on one rank
 * and on every GPU, its speed against one all-reduce a tensor), and pipeline
 * schedules (GPipe and 1F1B lists, their simulation and bubble, their run on
 * streams of one GPU, and across every GPU with the links through NCCL's
 * ncclSend and ncclRecv).
 *
 * On one GPU, NCCL runs with one rank: an out-of-place all-reduce is then a
 * device-to-device copy, real work with NCCL's whole host path in front of
 * it. The checkpoints that need several GPUs use every GPU of the host, 2 to
 * 8 (wb_gpus.h), say how many, and are SKIP on one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nccl.h>

#include "wb_harness.h"
#include "wb_gpus.h"
#include "bucket.h"
#include "pipe.h"

_Static_assert((int)WB_MAX_GPUS <= (int)PIPE_MAX_STAGES, "w50.pipe-ngpu puts a stage on every GPU used");

/* ---------------------------------------------------------------- NCCL */

static ncclResult_t nccl_check_(ncclResult_t r, const char *expr, const char *file, int line)
{
    if (r != ncclSuccess)
        ck_abort_msg("%s:%d: %s failed: %s (ncclResult_t %d)", file, line, expr, ncclGetErrorString(r), (int)r);
    return r;
}
#define WB_NCCL(expr) nccl_check_((expr), #expr, __FILE__, __LINE__)

/* One communicator a GPU for devices 0..n-1, in this process. */
static void comms_init(ncclComm_t *comms, int n)
{
    int devs[8];
    for (int d = 0; d < n; d++) devs[d] = d;
    WB_NCCL(ncclCommInitAll(comms, n, devs));
}

/* ---------------------------------------------------------------- the layout, on the CPU */

static size_t up_align(size_t x) { return (x + BUCKET_ALIGN - 1) / BUCKET_ALIGN * BUCKET_ALIGN; }

/* The reference layout (bucket.h's rules). */
static int ref_assign(const size_t *len, int nt, size_t cap_bytes, int *first, size_t *offset, size_t *start)
{
    size_t capf = cap_bytes / 4, b0 = 0, used = 0;
    int nb = 0, members = 0;
    first[0] = 0, start[0] = 0;
    for (int t = 0; t < nt; t++) {
        size_t at = up_align(used);
        if (members > 0 && at + len[t] > capf) {
            b0 += up_align(used);
            nb++;
            first[nb] = t, start[nb] = b0;
            at = 0, members = 0;
        }
        offset[t] = b0 + at;
        used = at + len[t];
        members++;
    }
    if (nt > 0) {
        nb++;
        first[nb] = nt, start[nb] = b0 + up_align(used);
    }
    return nb;
}

/* A gradient's length: some empty, some of one float, odd small ones, the
 * rest log-uniform up to maxlen. */
static size_t rand_len(wb_rng *rng, size_t maxlen)
{
    switch (wb_rng_int(rng, 0, 9)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return (size_t)wb_rng_int(rng, 1, 40) * 2 + 1;
    default: return (size_t)exp(wb_rng_unit(rng) * log((double)maxlen));
    }
}

typedef struct {
    int     nt, nb;
    size_t *len, *offset, *start, total; /* total: the flat buffer, start[nb] */
    int    *first;
} layout;

static void layout_make(layout *L, const size_t *len, int nt, size_t cap)
{
    L->nt = nt;
    L->len = wb_hmalloc((size_t)(nt + 1) * sizeof *L->len);
    L->offset = wb_hmalloc((size_t)(nt + 1) * sizeof *L->offset);
    L->start = wb_hmalloc((size_t)(nt + 1) * sizeof *L->start);
    L->first = wb_hmalloc((size_t)(nt + 1) * sizeof *L->first);
    if (nt) memcpy(L->len, len, (size_t)nt * sizeof *len);
    L->nb = ref_assign(len, nt, cap, L->first, L->offset, L->start);
    L->total = L->start[L->nb];
}

static void layout_free(layout *L) { free(L->len), free(L->offset), free(L->start), free(L->first); }

/* The learner's layout against L: the first difference, or NULL. */
static const char *assign_diff(const layout *L, size_t cap, char *msg, size_t n)
{
    int nt = L->nt, *first = wb_hmalloc((size_t)(nt + 1) * sizeof(int));
    size_t *offset = wb_hmalloc((size_t)(nt + 1) * sizeof(size_t)), *start = wb_hmalloc((size_t)(nt + 1) * sizeof(size_t));
    wb_hpoison(first, (size_t)(nt + 1) * sizeof(int));
    wb_hpoison(offset, (size_t)(nt + 1) * sizeof(size_t)), wb_hpoison(start, (size_t)(nt + 1) * sizeof(size_t));
    int nb = bucket_assign(L->len, nt, cap, first, offset, start);
    const char *bad = NULL;
    if (nb != L->nb) {
        snprintf(msg, n, "%d buckets, expected %d", nb, L->nb), bad = msg;
    } else {
        for (int b = 0; !bad && b <= nb; b++)
            if (first[b] != L->first[b] || start[b] != L->start[b])
                snprintf(msg, n, "bucket %d: first %d start %zu, expected first %d start %zu", b, first[b], start[b],
                         L->first[b], L->start[b]), bad = msg;
        for (int t = 0; !bad && t < nt; t++)
            if (offset[t] != L->offset[t])
                snprintf(msg, n, "tensor %d (%zu floats): offset %zu, expected %zu", t, L->len[t], offset[t],
                         L->offset[t]), bad = msg;
    }
    free(first), free(offset), free(start);
    return bad;
}

static const size_t CAPS[] = { 4, 1000, 4096, 65540, 1 << 20, 25u << 20 };

/* Loop 0 is bucket.h's worked example; 1 no tensor; 2 one tensor over the
 * cap; 3 every tensor over it; 4 only empty tensors; then random sets. */
START_TEST(assign_layout)
{
    wb_rng rng = WB_RNG();
    enum { MAXNT = 800 };
    size_t len[MAXNT], cap = CAPS[wb_rng_int(&rng, 0, WB_COUNT(CAPS) - 1)];
    int nt = (int)wb_rng_int(&rng, 1, MAXNT);
    for (int t = 0; t < nt; t++) len[t] = rand_len(&rng, 50000);
    if (_i == 0) nt = 4, len[0] = 100, len[1] = 10, len[2] = 200, len[3] = 0, cap = 1024;
    if (_i == 1) nt = 0;
    if (_i == 2) nt = 1, len[0] = 5000, cap = 4096;
    if (_i == 3) {
        cap = 1000;
        for (int t = 0; t < nt; t++) len[t] = 251 + (size_t)wb_rng_int(&rng, 0, 5000);
    }
    if (_i == 4)
        for (int t = 0; t < nt; t++) len[t] = 0;
    layout L;
    layout_make(&L, len, nt, cap);
    if (_i == 0) { /* the header's example: the reference must say the same */
        ck_assert(L.nb == 2 && L.first[1] == 2 && L.first[2] == 4 && L.start[1] == 192 && L.start[2] == 448);
        ck_assert(L.offset[0] == 0 && L.offset[1] == 128 && L.offset[2] == 192 && L.offset[3] == 448);
    }
    if (_i == 3) ck_assert_int_eq(L.nb, nt);
    char msg[300];
    const char *bad = assign_diff(&L, cap, msg, sizeof msg);
    if (bad) ck_abort_msg("bucket_assign, %d tensors, cap %zu bytes (seed %llu): %s", nt, cap,
                          (unsigned long long)wb_base_seed(), bad);
    layout_free(&L);
}
END_TEST

/* ---------------------------------------------------------------- tensors on a device */

/* nt gradients in one slab (back to back, so most start misaligned), and
 * their outputs in another with a 3-float gap after each one: the gaps stay
 * poisoned, so a write past a tensor's end shows. */
typedef struct {
    layout  L;
    size_t *gpos, *opos, gfloats, ofloats;
    float  *hg;          /* host copy of the gradients, gfloats */
    float  *dg;          /* device */
    wb_dout O;
    float  *dout;
    const float **g;     /* host arrays of device pointers */
    float **o;
} tensors;

enum { GAP = 3 };

static void tensors_make(tensors *T, wb_rng *rng, const size_t *len, int nt, size_t cap)
{
    memset(T, 0, sizeof *T);
    layout_make(&T->L, len, nt, cap);
    T->gpos = wb_hmalloc((size_t)(nt + 1) * sizeof(size_t)), T->opos = wb_hmalloc((size_t)(nt + 1) * sizeof(size_t));
    for (int t = 0; t < nt; t++) {
        T->gpos[t] = T->gfloats, T->gfloats += len[t];
        T->opos[t] = T->ofloats, T->ofloats += len[t] + GAP;
    }
    T->hg = wb_hmalloc((T->gfloats + 1) * 4);
    wb_fill_uniform_f32(rng, T->hg, T->gfloats, -1, 1);
    T->dg = wb_dcopy(T->hg, T->gfloats * 4 + 4);
    T->dout = wb_dout_alloc(&T->O, "outs", T->ofloats * 4, 4); /* one float in: misaligned */
    T->g = wb_hmalloc((size_t)(nt + 1) * sizeof *T->g), T->o = wb_hmalloc((size_t)(nt + 1) * sizeof *T->o);
    for (int t = 0; t < nt; t++) T->g[t] = T->dg + T->gpos[t], T->o[t] = T->dout + T->opos[t];
}

static void tensors_free(tensors *T)
{
    wb_dfree(T->dg), wb_dout_free(&T->O);
    free(T->hg), free(T->gpos), free(T->opos), free((void *)T->g), free(T->o);
    layout_free(&T->L);
}

/* The outputs against want(t, i) bit for bit, and the gaps still poisoned. */
typedef float (*want_fn)(const tensors *T, const void *ctx, int t, size_t i);

static void tensors_expect(const tensors *T, want_fn want, const void *ctx, const char *what)
{
    uint32_t *got = wb_hmalloc(T->ofloats * 4 + 4);
    wb_expect_dout_guards(&T->O, got, what);
    for (int t = 0; t < T->L.nt; t++) {
        const uint32_t *o = got + T->opos[t];
        for (size_t i = 0; i < T->L.len[t]; i++) {
            float w = want(T, ctx, t, i);
            uint32_t wb;
            memcpy(&wb, &w, 4);
            if (o[i] != wb) {
                float g;
                memcpy(&g, &o[i], 4);
                free(got);
                ck_abort_msg("%s (seed %llu): tensor %d of %d (%zu floats, offset %zu), element %zu: expected %.9g got %.9g",
                             what, (unsigned long long)wb_base_seed(), t, T->L.nt, T->L.len[t], T->L.offset[t], i,
                             (double)w, (double)g);
            }
        }
        for (int k = 0; k < GAP; k++)
            if (o[T->L.len[t] + k] != 0xFFFFFFFFu) {
                free(got);
                ck_abort_msg("%s: something wrote %d float(s) past the end of tensor %d (%zu floats)", what, k + 1, t,
                             T->L.len[t]);
            }
    }
    free(got);
}

static float want_grad(const tensors *T, const void *ctx, int t, size_t i)
{
    (void)ctx;
    return T->hg[T->gpos[t] + i];
}
static float want_flat(const tensors *T, const void *ctx, int t, size_t i)
{
    return ((const float *)ctx)[T->L.offset[t] + i];
}

static bucket_plan *plan_of(const tensors *T, size_t cap, const char *what)
{
    bucket_plan *p = NULL;
    WB_CUDA(bucket_plan_create(T->g, T->o, T->L.len, T->L.nt, cap, &p));
    ck_assert_msg(p != NULL, "%s: bucket_plan_create gave no plan", what);
    ck_assert_msg(bucket_plan_buckets(p) == T->L.nb, "%s: the plan has %d buckets, the layout %d (w50.assign first)",
                  what, bucket_plan_buckets(p), T->L.nb);
    ck_assert_msg(T->L.total == 0 || (bucket_plan_send(p) && bucket_plan_recv(p)),
                  "%s: the plan has no send or receive buffer", what);
    return p;
}

/* A random set for the GPU tests: nt tensors, one of a million floats in
 * loop 5, empty ones, tensors longer than a chunk. */
static int gpu_set(wb_rng *rng, int loop, size_t *len, int maxnt, size_t *cap)
{
    int nt = loop == 0 ? 1 : (int)wb_rng_int(rng, 2, maxnt);
    for (int t = 0; t < nt; t++) len[t] = rand_len(rng, 20000);
    if (loop == 0) len[0] = 1;
    if (loop == 5) len[nt / 2] = 1000003;
    *cap = (size_t)wb_rng_int(rng, 1, 256) * 4096 + (loop & 1) * 12;
    return nt;
}

/* A random set on the device (gpu_set) and your plan for it; `what` gets
 * the case's description, ending with `tail`. */
static bucket_plan *gpu_case(tensors *T, wb_rng *rng, int loop, int maxnt, char *what, size_t wn, const char *tail)
{
    size_t len[400], cap;
    int nt = gpu_set(rng, loop, len, maxnt < 400 ? maxnt : 400, &cap);
    tensors_make(T, rng, len, nt, cap);
    snprintf(what, wn, "%d tensors, cap %zu bytes, %d buckets%s", nt, cap, T->L.nb, tail);
    return plan_of(T, cap, what);
}

START_TEST(pack_unpack)
{
    wb_rng rng = WB_RNG();
    tensors T;
    char what[160];
    bucket_plan *p = gpu_case(&T, &rng, _i, 300, what, sizeof what, "");
    const size_t *len = T.L.len;
    int nt = T.L.nt;

    /* pack, from the last bucket to the first (each is on its own) */
    for (int b = T.L.nb - 1; b >= 0; b--) WB_CUDA(bucket_pack(p, b, 0));
    wb_sync();
    float *flat = wb_hmalloc(T.L.total * 4 + 4);
    if (T.L.total) wb_d2h(flat, bucket_plan_send(p), T.L.total * 4);
    for (int t = 0; t < nt; t++)
        if (len[t] && memcmp(flat + T.L.offset[t], T.hg + T.gpos[t], len[t] * 4)) {
            size_t i = 0;
            while (i + 1 < len[t] && flat[T.L.offset[t] + i] == T.hg[T.gpos[t] + i]) i++;
            ck_abort_msg("bucket_pack, %s: tensor %d (%zu floats) at send[%zu]: element %zu is %.9g, expected %.9g", what,
                         t, len[t], T.L.offset[t], i, (double)flat[T.L.offset[t] + i], (double)T.hg[T.gpos[t] + i]);
        }

    /* unpack new numbers from the receive buffer */
    wb_fill_uniform_f32(&rng, flat, T.L.total, -1, 1);
    if (T.L.total) wb_h2d(bucket_plan_recv(p), flat, T.L.total * 4);
    for (int b = 0; b < T.L.nb; b++) WB_CUDA(bucket_unpack(p, b, 0));
    strncat(what, ", bucket_unpack", sizeof what - strlen(what) - 1);
    tensors_expect(&T, want_flat, flat, what);
    free(flat);
    bucket_plan_destroy(p);
    tensors_free(&T);
}
END_TEST

/* The bucketed all-reduce on one rank: outs = grads; then new gradients
 * and poisoned outputs, and again (the plan is reused, as every step does). */
START_TEST(bucket_one_rank)
{
    ncclComm_t comm;
    cudaStream_t s = 0;
    char what[200];
    tensors T;
    wb_rng rng = WB_RNG();
    bucket_plan *p = gpu_case(&T, &rng, _i, 400, what, sizeof what, ", 1 rank");
    comms_init(&comm, 1);
    if (_i & 1) WB_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (int step = 1; step <= 2; step++) {
        if (step == 2) {
            wb_fill_uniform_f32(&rng, T.hg, T.gfloats, -1, 1);
            wb_h2d(T.dg, T.hg, T.gfloats * 4);
            wb_dout_poison(&T.O);
        }
        wb_sync(); /* the copies and the poison went to the legacy stream, which a non-blocking s does not wait for */
        WB_NCCL(bucket_allreduce(1, &p, &comm, &s));
        WB_CUDA(cudaStreamSynchronize(s));
        char w[260];
        snprintf(w, sizeof w, "%s, %s stream, step %d", what, s ? "a created" : "the default", step);
        tensors_expect(&T, want_grad, NULL, w);
    }
    if (s) WB_CUDA(cudaStreamDestroy(s));
    WB_NCCL(ncclCommDestroy(comm));
    bucket_plan_destroy(p);
    tensors_free(&T);
}
END_TEST

/* ---------------------------------------------------------------- bucketed against per-tensor, one GPU */

/* 512 gradients (a few empty, most of a few hundred to a few thousand
 * floats: about 4 MB), bucket cap 1 MiB. Both rows all-reduce the same
 * gradients through the same 1-rank communicator on the default stream;
 * the figure is all-reduces of the whole set per millisecond. Launch-bound
 * (a few MB, well inside the L2): no L2 flush. */
enum { BENCH_NT = 512 };
static const size_t BENCH_CAP = 1 << 20;
enum { BENCH_SEED = 5001 };

typedef struct {
    tensors     T;
    ncclComm_t  comm;
    bucket_plan *plan;
    unsigned long long salt;
} bench_ctx;

static void per_tensor_work(void *p)
{
    bench_ctx *c = p;
    for (int t = 0; t < c->T.L.nt; t++)
        WB_NCCL(ncclAllReduce(c->T.g[t], c->T.o[t], c->T.L.len[t], ncclFloat, ncclSum, c->comm, 0));
}

static void bucketed_work(void *p)
{
    bench_ctx *c = p;
    cudaStream_t s = 0;
    WB_NCCL(bucket_allreduce(1, &c->plan, &c->comm, &s));
}

/* The spot check's new gradients: the whole slab from a hash of salt. */
static void bench_fresh(void *p, unsigned long long salt)
{
    bench_ctx *c = p;
    c->salt = salt;
    wb_dfill_uniform_f32(c->T.dg, c->T.gfloats, BENCH_SEED + salt, -1, 1);
    wb_dout_poison(&c->T.O);
}

static float want_hash(const tensors *T, const void *ctx, int t, size_t i)
{
    return wb_hash_uniform_f32(BENCH_SEED + *(const unsigned long long *)ctx, T->gpos[t] + i, -1, 1);
}

/* Every output float against the hash, and the gaps. */
static int bench_outs_wrong(bench_ctx *c, char *why, size_t n)
{
    uint32_t *got = wb_hmalloc(c->T.ofloats * 4 + 4);
    size_t guards = wb_dout_fetch(&c->T.O, got);
    int bad = guards != 0;
    if (bad) snprintf(why, n, "%zu guard bytes around the outputs changed", guards);
    for (int t = 0; !bad && t < c->T.L.nt; t++) {
        for (size_t i = 0; !bad && i < c->T.L.len[t]; i++) {
            float w = want_hash(&c->T, &c->salt, t, i), g;
            memcpy(&g, got + c->T.opos[t] + i, 4);
            if (memcmp(&g, &w, 4)) snprintf(why, n, "tensor %d element %zu: expected %.9g got %.9g", t, i, (double)w,
                                            (double)g), bad = 1;
        }
        for (int k = 0; !bad && k < GAP; k++)
            if (got[c->T.opos[t] + c->T.L.len[t] + k] != 0xFFFFFFFFu)
                snprintf(why, n, "a write past the end of tensor %d", t), bad = 1;
    }
    free(got);
    return bad;
}

static int bench_check(void *p, char *why, size_t n) { return bench_outs_wrong(p, why, n); }

static void bench_make(bench_ctx *c)
{
    wb_rng rng = wb_rng_for("bench_bucket", 0);
    size_t len[BENCH_NT];
    for (int t = 0; t < BENCH_NT; t++) len[t] = t % 64 == 7 ? 0 : 64 + (size_t)exp(wb_rng_unit(&rng) * log(16000.0));
    memset(c, 0, sizeof *c);
    tensors_make(&c->T, &rng, len, BENCH_NT, BENCH_CAP);
    bench_fresh(c, 0);
    comms_init(&c->comm, 1);
}

/* One row: `work` timed with the spot check, then all outputs checked. */
static wb_bench_row bench_row(bench_ctx *c, wb_work_fn work, const char *variant)
{
    char why[300];
    wb_bench_opts o = { 3, 20, 0, bench_fresh, bench_check };
    wb_bench_row r = { .exercise = "bucket", .variant = variant, .n = c->T.gfloats, .bytes = 8.0 * c->T.gfloats,
                       .unit = "sets/ms" };
    bench_fresh(c, 0);
    wb_time(work, c, &o, &r.t);
    r.value = 1 / r.t.median;
    if (bench_outs_wrong(c, why, sizeof why)) wb_bench_invalid(&r, why);
    return r;
}

static double bench_bucket(wb_headline *h)
{
    bench_ctx c;
    bench_make(&c);
    wb_bench_row y = bench_row(&c, per_tensor_work, "PER_TENSOR: 512 x ncclAllReduce");
    wb_bench_emit(&y);
    WB_CUDA(bucket_plan_create(c.T.g, c.T.o, c.T.L.len, c.T.L.nt, BENCH_CAP, &c.plan));
    wb_bench_row r = { .exercise = "bucket", .variant = "yours: bucketed", .unit = "sets/ms" };
    if (c.plan) {
        r = bench_row(&c, bucketed_work, "yours: bucketed, cap 1 MiB");
        printf("  %d tensors, %zu floats, %d buckets: per-tensor %.1f us a set (%.2f us a tensor), bucketed %.1f us\n",
               BENCH_NT, c.T.gfloats, bucket_plan_buckets(c.plan), 1e3 * y.t.median, 1e3 * y.t.median / BENCH_NT,
               1e3 * r.t.median);
    } else {
        wb_bench_invalid(&r, "bucket_plan_create gave no plan");
    }
    r.yard_name = "PER_TENSOR", r.yard = y.value;
    if (y.invalid && !r.invalid) wb_bench_invalid(&r, "the per-tensor yardstick gave wrong output");
    double ratio = wb_bench_headline(&r, h);
    bucket_plan_destroy(c.plan);
    WB_NCCL(ncclCommDestroy(c.comm));
    tensors_free(&c.T);
    return ratio;
}

/* ---------------------------------------------------------------- every GPU, one process */

/* R ranks' gradients (R = every GPU up to 8). With two, a + b is the same
 * bits whatever NCCL does; with more, NCCL's order of the sums is its own,
 * so the outputs are held against the sum in double, to within R float
 * roundings of it. */
typedef struct { int R; const tensors *T[WB_MAX_GPUS]; } ranks_set;
static double want_sum(const ranks_set *P, int t, size_t i)
{
    double v = 0;
    for (int r = 0; r < P->R; r++) v += P->T[r]->hg[P->T[r]->gpos[t] + i];
    return v;
}

/* Every output of T against the sum: exactly for two ranks, else within
 * 1e-6 R + 1e-6 R |sum|; the gaps still poisoned. */
static void expect_sums(const tensors *T, const ranks_set *P, const char *what)
{
    uint32_t *got = wb_hmalloc(T->ofloats * 4 + 4);
    wb_expect_dout_guards(&T->O, got, what);
    double tol = P->R <= 2 ? 0 : 1e-6 * P->R;
    for (int t = 0; t < T->L.nt; t++) {
        const uint32_t *o = got + T->opos[t];
        for (size_t i = 0; i < T->L.len[t]; i++) {
            double w = want_sum(P, t, i);
            float g, wf = (float)w;
            memcpy(&g, &o[i], 4);
            int ok = P->R <= 2 ? memcmp(&g, &wf, 4) == 0 : fabs((double)g - w) <= tol + tol * fabs(w);
            if (!ok) {
                free(got);
                ck_abort_msg("%s (seed %llu): tensor %d of %d (%zu floats), element %zu: expected %.9g got %.9g (the sum "
                             "over %d ranks)", what, (unsigned long long)wb_base_seed(), t, T->L.nt, T->L.len[t], i, w,
                             (double)g, P->R);
            }
        }
        for (int k = 0; k < GAP; k++)
            if (o[T->L.len[t] + k] != 0xFFFFFFFFu) {
                free(got);
                ck_abort_msg("%s: something wrote %d float(s) past the end of tensor %d (%zu floats)", what, k + 1, t,
                             T->L.len[t]);
            }
    }
    free(got);
}

START_TEST(bucket_all_gpus)
{
    int R;
    wb_use_gpus(R);
    wb_rng rng = WB_RNG();
    size_t len[BENCH_NT];
    for (int t = 0; t < BENCH_NT; t++) len[t] = rand_len(&rng, 20000);
    tensors T[WB_MAX_GPUS];
    bucket_plan *p[WB_MAX_GPUS];
    cudaStream_t s[WB_MAX_GPUS];
    ncclComm_t comms[WB_MAX_GPUS];
    char ranks[32];
    snprintf(ranks, sizeof ranks, "%d ranks", R);
    comms_init(comms, R);
    for (int r = 0; r < R; r++) {
        WB_CUDA(cudaSetDevice(r));
        tensors_make(&T[r], &rng, len, BENCH_NT, BENCH_CAP);
        p[r] = plan_of(&T[r], BENCH_CAP, ranks);
        wb_sync(); /* the poison of the outputs, before the non-blocking streams write them */
        WB_CUDA(cudaStreamCreateWithFlags(&s[r], cudaStreamNonBlocking));
    }
    WB_CUDA(cudaSetDevice(0));
    WB_NCCL(bucket_allreduce(R, p, comms, s));
    for (int r = 0; r < R; r++) WB_CUDA(cudaStreamSynchronize(s[r]));
    ranks_set P = { R, { 0 } };
    for (int r = 0; r < R; r++) P.T[r] = &T[r];
    for (int r = 0; r < R; r++) {
        char w[120];
        snprintf(w, sizeof w, "%d tensors, %d ranks, rank %d: the sum of every rank's gradients", BENCH_NT, R, r);
        WB_CUDA(cudaSetDevice(r));
        expect_sums(&T[r], &P, w);
    }
    WB_CUDA(cudaSetDevice(0));
    /* time both ways, host clock around 20 rounds each (every GPU idle after) */
    double ms[2];
    for (int way = 0; way < 2; way++) {
        for (int it = -2; it < 20; it++) {
            if (it == 0) ms[way] = wb_seconds();
            if (way == 1) {
                WB_NCCL(bucket_allreduce(R, p, comms, s));
            } else {
                for (int t = 0; t < BENCH_NT; t++) {
                    WB_NCCL(ncclGroupStart());
                    for (int r = 0; r < R; r++)
                        WB_NCCL(ncclAllReduce(T[r].g[t], T[r].o[t], len[t], ncclFloat, ncclSum, comms[r], s[r]));
                    WB_NCCL(ncclGroupEnd());
                }
            }
        }
        for (int r = 0; r < R; r++) WB_CUDA(cudaStreamSynchronize(s[r]));
        ms[way] = (wb_seconds() - ms[way]) * 1e3 / 20;
    }
    char fig[160];
    snprintf(fig, sizeof fig, "bucketed %.1f us, per-tensor %.1f us a set of %d tensors: %.2fx", 1e3 * ms[1], 1e3 * ms[0],
             BENCH_NT, ms[0] / ms[1]);
    printf("  %d GPUs: %s\n", R, fig);
    wb_report_gpus(R, "%s", fig);
    for (int r = 0; r < R; r++) {
        WB_CUDA(cudaSetDevice(r));
        bucket_plan_destroy(p[r]);
        WB_CUDA(cudaStreamDestroy(s[r]));
        WB_NCCL(ncclCommDestroy(comms[r]));
        tensors_free(&T[r]);
    }
    WB_CUDA(cudaSetDevice(0));
}
END_TEST

/* ---------------------------------------------------------------- schedules, on the CPU */

/* The reference lists. */
static void ref_order(int kind, int p, int m, int s, pipe_op *ops)
{
    int k = 0, warm = kind == PIPE_GPIPE ? m : (p - 1 - s < m ? p - 1 - s : m);
    for (int i = 0; i < warm; i++) ops[k++] = (pipe_op){ i, 0 };
    for (int i = 0; i + warm < m; i++) {
        ops[k++] = (pipe_op){ i + warm, 0 };
        ops[k++] = (pipe_op){ i, 1 };
    }
    for (int i = m - warm; i < m; i++) ops[k++] = (pipe_op){ i, 1 };
}

static pipe_op *ref_schedule(int kind, int p, int m)
{
    pipe_op *o = wb_hmalloc((size_t)(2 * p * m + 1) * sizeof *o);
    for (int s = 0; s < p; s++) ref_order(kind, p, m, s, o + (size_t)s * 2 * m);
    return o;
}

/* The reference simulation: an op's time is fixed by the latest end among
 * its stage's previous op and its dependencies; computed by relaxing until
 * nothing changes (a longest-path in the dependency graph). -1: cannot finish. */
static double ref_simulate(int p, int m, const pipe_op *order, const double *fwd, const double *bwd, double *st,
                           double *en)
{
    int n = 2 * m, total = p * n;
    int *pos = wb_hmalloc((size_t)(2 * p * m + 1) * sizeof *pos); /* (stage, F/B, mb) -> index in order */
    for (int k = 0; k < total; k++) pos[k] = -1;
    for (int s = 0; s < p; s++)
        for (int k = 0; k < n; k++) {
            pipe_op op = order[s * n + k];
            if (op.mb < 0 || op.mb >= m || (op.bwd != 0 && op.bwd != 1)) return free(pos), -1;
            pos[(op.bwd * p + s) * m + op.mb] = s * n + k;
        }
    for (int k = 0; k < total; k++) st[k] = 0, en[k] = (order[k].bwd ? bwd : fwd)[k / n];
    /* a longest path settles within `total` rounds; more means a cycle */
    for (int round = 0; round <= total; round++) {
        int changed = 0;
        for (int k = 0; k < total; k++) {
            int s = k / n;
            pipe_op op = order[k];
            double t = k % n ? en[k - 1] : 0;
            int deps[2] = { op.bwd ? pos[(0 * p + s) * m + op.mb] : (s ? pos[(0 * p + s - 1) * m + op.mb] : -2),
                            op.bwd && s + 1 < p ? pos[(1 * p + s + 1) * m + op.mb] : -2 };
            for (int d = 0; d < 2; d++) {
                if (deps[d] == -1) return free(pos), -1; /* a dependency that is in no list */
                if (deps[d] >= 0 && en[deps[d]] > t) t = en[deps[d]];
            }
            if (t != st[k]) st[k] = t, en[k] = t + (op.bwd ? bwd : fwd)[s], changed = 1;
        }
        if (!changed) {
            double mk = 0;
            for (int k = 0; k < total; k++) mk = en[k] > mk ? en[k] : mk;
            free(pos);
            return mk;
        }
    }
    free(pos);
    return -1;
}

static const char *KIND[] = { "GPipe", "1F1B" };

static void rand_pm(wb_rng *rng, int loop, int *p, int *m)
{
    *p = (int)wb_rng_int(rng, 2, 16), *m = (int)wb_rng_int(rng, 1, 48);
    if (loop == 0) *p = 4, *m = 8;
    if (loop == 1) *p = 8, *m = 3; /* fewer micro-batches than stages */
    if (loop == 2) *p = 2, *m = 1;
}

START_TEST(orders_and_peaks)
{
    wb_rng rng = WB_RNG();
    int p, m;
    rand_pm(&rng, _i, &p, &m);
    if (_i == 3) p = 1; /* one stage: both orders are F B F B ... or all F then all B */
    pipe_op *got = wb_hmalloc((size_t)(2 * m + 1) * sizeof *got), *want = wb_hmalloc((size_t)(2 * m + 1) * sizeof *want);
    for (int kind = 0; kind < 2; kind++) {
        int peak = 0;
        for (int s = 0; s < p; s++) {
            for (int k = 0; k < 2 * m; k++) got[k] = (pipe_op){ -7, -7 };
            pipe_order(kind, p, m, s, got);
            ref_order(kind, p, m, s, want);
            for (int k = 0; k < 2 * m; k++)
                if (got[k].mb != want[k].mb || got[k].bwd != want[k].bwd)
                    ck_abort_msg("%s, p %d, m %d, stage %d: op %d is %c%d, expected %c%d", KIND[kind], p, m, s, k,
                                 got[k].bwd == 1 ? 'B' : got[k].bwd == 0 ? 'F' : '?', got[k].mb, want[k].bwd ? 'B' : 'F',
                                 want[k].mb);
            int pk = pipe_peak(want, m);
            peak = pk > peak ? pk : peak;
        }
        int expect = kind == PIPE_GPIPE ? m : (p < m ? p : m);
        ck_assert_msg(peak == expect, "%s, p %d, m %d: pipe_peak's largest over the stages is %d, expected %d", KIND[kind],
                      p, m, peak, expect);
    }
    /* each forward followed by its backward keeps one alive at a time */
    for (int k = 0; k < m; k++) want[2 * k] = (pipe_op){ k, 0 }, want[2 * k + 1] = (pipe_op){ k, 1 };
    ck_assert_msg(pipe_peak(want, m) == 1, "pipe_peak of F0 B0 F1 B1 ...: %d, expected 1 (the largest over prefixes "
                  "of forwards minus backwards)", pipe_peak(want, m));
    free(got), free(want);
}
END_TEST

static void expect_same_times(const double *st, const double *en, const double *rst, const double *ren, int p, int m,
                              const pipe_op *o, const char *what)
{
    for (int k = 0; k < 2 * p * m; k++)
        if (st[k] != rst[k] || en[k] != ren[k])
            ck_abort_msg("%s: stage %d op %d (%c%d) runs %.6g to %.6g, expected %.6g to %.6g", what, k / (2 * m),
                         k % (2 * m), o[k].bwd ? 'B' : 'F', o[k].mb, st[k], en[k], rst[k], ren[k]);
}

START_TEST(simulate_bubble)
{
    wb_rng rng = WB_RNG();
    int p, m;
    rand_pm(&rng, _i, &p, &m);
    size_t n = (size_t)2 * p * m;
    double *fwd = wb_hmalloc((size_t)p * 8), *bwd = wb_hmalloc((size_t)p * 8);
    double *st = wb_hmalloc(n * 8), *en = wb_hmalloc(n * 8), *rst = wb_hmalloc(n * 8), *ren = wb_hmalloc(n * 8);
    char what[160];
    for (int kind = 0; kind < 2; kind++) {
        pipe_op *o = ref_schedule(kind, p, m);
        /* equal stages: integer times, so every sum is exact */
        double f = (double)wb_rng_int(&rng, 1, 4), b = (double)wb_rng_int(&rng, 1, 4);
        for (int s = 0; s < p; s++) fwd[s] = f, bwd[s] = b;
        double want = (m + p - 1) * (f + b), rmk = ref_simulate(p, m, o, fwd, bwd, rst, ren);
        ck_assert_msg(rmk == want, "the reference simulation disagrees with the formula (%g, %g)", rmk, want);
        wb_hpoison(st, n * 8), wb_hpoison(en, n * 8);
        double mk = pipe_simulate(p, m, o, fwd, bwd, st, en);
        snprintf(what, sizeof what, "%s, p %d, m %d, every stage F %g B %g", KIND[kind], p, m, f, b);
        ck_assert_msg(mk == want, "%s: makespan %g, expected (m+p-1)(F+B) = %g", what, mk, want);
        expect_same_times(st, en, rst, ren, p, m, o, what);
        double bub = pipe_bubble(p, m, fwd, bwd, mk), formula = (double)(p - 1) / (m + p - 1);
        ck_assert_msg(fabs(bub - formula) <= 1e-12, "%s: bubble %.15g, expected (p-1)/(m+p-1) = %.15g", what, bub, formula);

        /* stages of different speeds: the same times as the reference */
        for (int s = 0; s < p; s++) fwd[s] = 0.5 + 2 * wb_rng_unit(&rng), bwd[s] = 1 + 3 * wb_rng_unit(&rng);
        rmk = ref_simulate(p, m, o, fwd, bwd, rst, ren);
        wb_hpoison(st, n * 8), wb_hpoison(en, n * 8);
        mk = pipe_simulate(p, m, o, fwd, bwd, st, en);
        snprintf(what, sizeof what, "%s, p %d, m %d, stages of different speeds", KIND[kind], p, m);
        ck_assert_msg(mk == rmk, "%s: makespan %.9g, expected %.9g", what, mk, rmk);
        expect_same_times(st, en, rst, ren, p, m, o, what);
        double busy = 0;
        for (int s = 0; s < p; s++) busy += (fwd[s] + bwd[s]) * m;
        bub = pipe_bubble(p, m, fwd, bwd, mk);
        ck_assert_msg(fabs(bub - (1 - busy / (p * rmk))) <= 1e-12, "%s: bubble %.15g, expected %.15g", what, bub,
                      1 - busy / (p * rmk));

        /* lists that cannot finish: the last stage runs B0 before F0; a micro-batch out of range */
        pipe_op *last = o + (size_t)(p - 1) * 2 * m, keep = last[0];
        int at = 0;
        while (!(last[at].bwd && last[at].mb == 0)) at++;
        last[0] = last[at], last[at] = keep;
        mk = pipe_simulate(p, m, o, fwd, bwd, st, en);
        ck_assert_msg(mk == -1, "%s with the last stage's B0 swapped before its F0: %g, expected -1 (it can never run)",
                      KIND[kind], mk);
        last[at] = last[0], last[0] = keep;
        o[0].mb = m;
        mk = pipe_simulate(p, m, o, fwd, bwd, st, en);
        ck_assert_msg(mk == -1, "%s with micro-batch %d (of %d) in a list: %g, expected -1", KIND[kind], m, m, mk);
        free(o);
    }
    free(fwd), free(bwd), free(st), free(en), free(rst), free(ren);
}
END_TEST

/* ---------------------------------------------------------------- schedules on the GPU */

/* A schedule run: p stage streams (on devices dev[s]), stamps guarded.
 * Checks what every GPU can see of its own ops: each ran, for at least its
 * time, in its stage's order, after `after[s]` (ns, 0: no bound). */
typedef struct {
    int kind, p, m;
    double fwd[8], bwd[8];
    pipe_op *o;
    cudaStream_t s[8];
    wb_dout D[8];
    unsigned long long *d[8], *h[8];
} run;

static void run_make(run *R, int kind, int p, int m, const int *dev)
{
    R->kind = kind, R->p = p, R->m = m;
    R->o = ref_schedule(kind, p, m);
    for (int s = 0; s < p; s++) {
        WB_CUDA(cudaSetDevice(dev[s]));
        WB_CUDA(cudaStreamCreateWithFlags(&R->s[s], cudaStreamNonBlocking));
        R->d[s] = wb_dout_alloc(&R->D[s], "stamps", (size_t)4 * m * 8, 0);
        R->h[s] = wb_hmalloc((size_t)4 * m * 8 + 8);
        wb_sync(); /* the poison (legacy stream) before the stage streams (non-blocking) write */
    }
    WB_CUDA(cudaSetDevice(0));
}

static void run_free(run *R)
{
    for (int s = 0; s < R->p; s++) {
        WB_CUDA(cudaStreamDestroy(R->s[s]));
        wb_dout_free(&R->D[s]);
        free(R->h[s]);
    }
    free(R->o);
}

static const unsigned long long SLACK_NS = 2000; /* %globaltimer's granularity, with room */

/* Fetch the stamps and check each stage on its own. */
static void run_check_stages(run *R, const unsigned long long *after, const char *what)
{
    int n = 2 * R->m;
    for (int s = 0; s < R->p; s++) {
        wb_expect_dout_guards(&R->D[s], R->h[s], what);
        unsigned long long prev = after ? after[s] : 0;
        for (int k = 0; k < n; k++) {
            unsigned long long a = R->h[s][2 * k], b = R->h[s][2 * k + 1];
            pipe_op op = R->o[s * n + k];
            double us = op.bwd ? R->bwd[s] : R->fwd[s];
            if (a == ~0ull || b == ~0ull)
                ck_abort_msg("%s: stage %d op %d (%c%d) never ran (its stamps are still poisoned)", what, s, k,
                             op.bwd ? 'B' : 'F', op.mb);
            if (b < a || (double)(b - a) < us * 1e3 - 1)
                ck_abort_msg("%s: stage %d op %d ran %.1f us, less than its %.0f us", what, s, k, (b - a) / 1e3, us);
            if (a + SLACK_NS < prev)
                ck_abort_msg("%s: stage %d op %d (%c%d) started %.1f us before the op before it on its stage ended "
                             "(one stream a stage, in the list's order)", what, s, k, op.bwd ? 'B' : 'F', op.mb,
                             (prev - a) / 1e3);
            prev = b;
        }
    }
}

static const struct { int kind, p, m, uneven; } RUNS[] = {
    { PIPE_GPIPE, 4, 8, 0 }, { PIPE_1F1B, 4, 8, 0 }, { PIPE_1F1B, 3, 5, 1 }, { PIPE_GPIPE, 2, 6, 1 }, { PIPE_1F1B, 6, 4, 1 },
};

/* One GPU: op times of 150 to 400 us; a 2 ms op on every stream first, so
 * everything is enqueued before the first op starts. */
START_TEST(pipe_run_one_gpu)
{
    wb_rng rng = WB_RNG();
    int dev[8] = { 0 }, p = RUNS[_i].p, m = RUNS[_i].m, n = 2 * m;
    run R = { 0 };
    run_make(&R, RUNS[_i].kind, p, m, dev);
    for (int s = 0; s < p; s++) {
        R.fwd[s] = RUNS[_i].uneven ? 150 + 100 * wb_rng_unit(&rng) : 150;
        R.bwd[s] = RUNS[_i].uneven ? 250 + 150 * wb_rng_unit(&rng) : 300;
    }
    wb_dout G;
    unsigned long long *gate = wb_dout_alloc(&G, "gate", (size_t)16 * p, 0), hg[16], after[8] = { 0 };
    wb_sync(); /* its poison first */
    for (int s = 0; s < p; s++) WB_CUDA(pipe_work(2000, gate + 2 * s, R.s[s]));
    WB_CUDA(pipe_run(p, m, R.o, R.fwd, R.bwd, R.s, R.d));
    wb_sync();
    wb_expect_dout_guards(&G, hg, "the 2 ms gate before the schedule");
    for (int s = 0; s < p; s++) after[s] = hg[2 * s + 1];
    char what[160];
    snprintf(what, sizeof what, "%s, p %d, m %d%s, one GPU", KIND[R.kind], p, m, RUNS[_i].uneven ? ", uneven stages" : "");
    run_check_stages(&R, after, what);

    /* dependencies across stages (one GPU: one clock) */
    unsigned long long lo = ~0ull, hi = 0;
    for (int s = 0; s < p; s++)
        for (int k = 0; k < n; k++) {
            pipe_op op = R.o[s * n + k];
            unsigned long long a = R.h[s][2 * k];
            int ds = op.bwd ? s + 1 : s - 1;
            if (ds >= 0 && ds < p) {
                int j = 0;
                while (!(R.o[ds * n + j].mb == op.mb && R.o[ds * n + j].bwd == op.bwd)) j++;
                unsigned long long dep_end = R.h[ds][2 * j + 1];
                if (a + SLACK_NS < dep_end)
                    ck_abort_msg("%s: stage %d's %c%d started %.1f us before stage %d's %c%d ended (wait on its event)",
                                 what, s, op.bwd ? 'B' : 'F', op.mb, (dep_end - a) / 1e3, ds, op.bwd ? 'B' : 'F', op.mb);
            }
            lo = a < lo ? a : lo;
            hi = R.h[s][2 * k + 1] > hi ? R.h[s][2 * k + 1] : hi;
        }
    double *st = wb_hmalloc((size_t)2 * p * m * 8), *en = wb_hmalloc((size_t)2 * p * m * 8);
    double sim = ref_simulate(p, m, R.o, R.fwd, R.bwd, st, en), got = (hi - lo) / 1e3, ratio = got / sim;
    printf("  %s: makespan %.1f us, simulated %.1f us (%.3fx)\n", what, got, sim, ratio);
    ck_assert_msg(ratio >= 0.99 && ratio <= 1.10, "%s: makespan %.1f us against %.1f us simulated: %.3fx, outside "
                  "0.99-1.10 (more: ops waiting for the host or for each other more than the schedule says)",
                  what, got, sim, ratio);
    free(st), free(en);
    wb_dout_free(&G);
    run_free(&R);
}
END_TEST

/* Every GPU of the host (2 to 8) a stage, p = that count, m = 8: the
 * schedule through your pipe_run_p2p, the activations and gradients sent
 * between the GPUs by your NCCL calls. The clocks of two GPUs differ, so
 * each GPU's ops are checked on its own clock (order, durations, nothing
 * before the gate), the transfers by the data (every buffer of every stage
 * and micro-batch against the CPU: an op that read its input before it
 * arrived, a send of the wrong micro-batch or to the wrong place shows),
 * and the makespan on stage 0's clock: its first op starts the schedule
 * and its last op (B m-1) ends it, in both orders. Two runs: the first
 * sets NCCL's connections up (checked, not timed), the second, on new
 * inputs, is timed. */
enum { P2P_M = 8, P2P_FLOATS = 1 << 16, P2P_KINDS = 4 };
static const double P2P_F_US = 1000, P2P_B_US = 2000, P2P_GATE_US = 30000;
static const char *const P2P_BUF[P2P_KINDS] = { "act_in", "act_out", "grad_in", "grad_out" };

typedef struct {
    int p, m;
    wb_dout D[P2P_KINDS][PIPE_MAX_STAGES * P2P_M];
    float *ptr[P2P_KINDS][PIPE_MAX_STAGES * P2P_M];
    wb_dout gate[PIPE_MAX_STAGES];
    unsigned long long *gd[PIPE_MAX_STAGES];
    float *host, *want;
} p2p_bufs;

/* What buffer kind holds for stage s, micro-batch i, element j after a
 * correct run on inputs of seed `seed`: the input plus each stage's mark,
 * added in float in the order the stages add them. */
static float p2p_expect(int p, int kind, int s, float x)
{
    float v = x;
    int fwd_done = kind == 0 ? s : p; /* act_in of stage s: stages 0..s-1 have added */
    if (kind == 1) fwd_done = s + 1;
    for (int q = 0; q < fwd_done; q++) v = v + pipe_add(q, 0);
    if (kind >= 2) {
        int last = kind == 2 ? s + 1 : s; /* grad_in of s: backwards of p-1..s+1; grad_out: down to s */
        for (int q = p - 1; q >= last; q--) v = v + pipe_add(q, 1);
    }
    return v;
}

static void p2p_fill(p2p_bufs *B, const int *dev, unsigned long long seed)
{
    for (int s = 0; s < B->p; s++) {
        WB_CUDA(cudaSetDevice(dev[s]));
        for (int k = 0; k < P2P_KINDS; k++)
            for (int i = 0; i < B->m; i++) wb_dout_poison(&B->D[k][s * B->m + i]);
        wb_dout_poison(&B->gate[s]);
        if (s == 0)
            for (int i = 0; i < B->m; i++) wb_dfill_uniform_f32(B->ptr[0][i], P2P_FLOATS, seed + (unsigned long long)i, -1, 1);
        wb_sync(); /* the poison and the inputs (legacy stream) before the non-blocking streams read them */
    }
    WB_CUDA(cudaSetDevice(dev[0]));
}

/* Every buffer against p2p_expect, guards included. */
static void p2p_check_data(p2p_bufs *B, const int *dev, unsigned long long seed, const char *what)
{
    int p = B->p, m = B->m;
    for (int i = 0; i < m; i++) {
        for (size_t j = 0; j < P2P_FLOATS; j++) B->want[j] = wb_hash_uniform_f32(seed + (unsigned long long)i, j, -1, 1);
        for (int s = 0; s < p; s++)
            for (int k = 0; k < P2P_KINDS; k++) {
                if (k == 2 && s == p - 1) continue; /* the last stage receives no gradient */
                char w2[300];
                snprintf(w2, sizeof w2, "%s: stage %d (GPU %d), micro-batch %d, %s", what, s, dev[s], i, P2P_BUF[k]);
                WB_CUDA(cudaSetDevice(dev[s]));
                wb_expect_dout_guards(&B->D[k][s * m + i], B->host, w2);
                for (size_t j = 0; j < P2P_FLOATS; j++) {
                    float w = p2p_expect(p, k, s, B->want[j]), g = B->host[j];
                    if (memcmp(&w, &g, 4) == 0) continue;
                    uint32_t bits;
                    memcpy(&bits, &g, 4);
                    const char *why = bits != 0xFFFFFFFFu ? ""
                                    : k == 0 ? ": still the poison, nothing arrived from the stage before"
                                    : k == 2 ? ": still the poison, nothing arrived from the stage after"
                                             : ": still the poison, the op never wrote it";
                    ck_abort_msg("%s (seed %llu): element %zu is %.9g, expected %.9g%s%s", w2,
                                 (unsigned long long)wb_base_seed(), j, (double)g, (double)w, why,
                                 bits != 0xFFFFFFFFu && (k == 1 || k == 3)
                                     ? " (an op that read its input before that input arrived, or the wrong buffer?)"
                                     : "");
                }
            }
    }
    WB_CUDA(cudaSetDevice(dev[0]));
}

START_TEST(pipe_run_all_gpus)
{
    int p;
    wb_use_gpus(p);
    int dev[PIPE_MAX_STAGES], m = P2P_M;
    for (int s = 0; s < p; s++) dev[s] = s;
    run R = { 0 };
    run_make(&R, _i ? PIPE_1F1B : PIPE_GPIPE, p, m, dev);
    for (int s = 0; s < p; s++) R.fwd[s] = P2P_F_US, R.bwd[s] = P2P_B_US;
    p2p_bufs *B = calloc(1, sizeof *B);
    ck_assert(B != NULL);
    B->p = p, B->m = m;
    B->host = wb_hmalloc(P2P_FLOATS * 4 + 4), B->want = wb_hmalloc(P2P_FLOATS * 4 + 4);
    for (int s = 0; s < p; s++) {
        WB_CUDA(cudaSetDevice(dev[s]));
        for (int k = 0; k < P2P_KINDS; k++)
            for (int i = 0; i < m; i++) B->ptr[k][s * m + i] = wb_dout_alloc(&B->D[k][s * m + i], P2P_BUF[k], P2P_FLOATS * 4, 0);
        B->gd[s] = wb_dout_alloc(&B->gate[s], "gate", 16, 0);
    }
    WB_CUDA(cudaSetDevice(dev[0]));
    pipe_links L;
    WB_NCCL(pipe_links_create(p, dev, &L));
    pipe_data d = { P2P_FLOATS, B->ptr[0], B->ptr[1], B->ptr[2], B->ptr[3] };
    char what[160];
    double got = 0, sim = 0;
    for (int round = 0; round < 2; round++) {
        unsigned long long seed = 0x50D00ULL + 1000ULL * (unsigned long long)round + (unsigned long long)_i;
        p2p_fill(B, dev, seed);
        for (int s = 0; s < p; s++) {
            WB_CUDA(cudaSetDevice(dev[s]));
            wb_dout_poison(&R.D[s]);
            wb_sync();
        }
        /* a gate on every stage: everything is enqueued before the first op starts */
        for (int s = 0; s < p; s++) {
            WB_CUDA(cudaSetDevice(dev[s]));
            WB_CUDA(pipe_work(P2P_GATE_US, B->gd[s], R.s[s]));
        }
        WB_CUDA(cudaSetDevice(dev[0]));
        ncclResult_t r = pipe_run_p2p(p, m, R.o, R.fwd, R.bwd, R.s, R.d, &L, &d);
        snprintf(what, sizeof what, "%s, p %d on %d GPUs, m %d, run %d of 2%s", KIND[R.kind], p, p, m, round + 1,
                 round ? "" : " (NCCL connects)");
        ck_assert_msg(r == ncclSuccess, "%s: pipe_run_p2p: %s", what, ncclGetErrorString(r));
        int cur = -1;
        WB_CUDA(cudaGetDevice(&cur));
        ck_assert_msg(cur == dev[0], "%s: pipe_run_p2p left device %d current, not the caller's %d", what, cur, dev[0]);
        for (int s = 0; s < p; s++) {
            WB_CUDA(cudaSetDevice(dev[s]));
            wb_sync(); /* every stream of the GPU: the stage's and its links' */
        }
        WB_CUDA(cudaSetDevice(dev[0]));
        p2p_check_data(B, dev, seed, what);
        unsigned long long hg[2], after[PIPE_MAX_STAGES];
        for (int s = 0; s < p; s++) {
            WB_CUDA(cudaSetDevice(dev[s]));
            wb_expect_dout_guards(&B->gate[s], hg, "the gate before the schedule");
            after[s] = hg[1];
        }
        WB_CUDA(cudaSetDevice(dev[0]));
        run_check_stages(&R, after, what);
        /* stage 0's clock: its first op's start to its last op's end */
        double *st = wb_hmalloc((size_t)2 * p * m * 8), *en = wb_hmalloc((size_t)2 * p * m * 8);
        double mk = ref_simulate(p, m, R.o, R.fwd, R.bwd, st, en);
        sim = en[2 * m - 1] - st[0];
        got = (R.h[0][2 * (2 * m - 1) + 1] - R.h[0][0]) / 1e3;
        ck_assert_msg(sim == mk, "%s: the simulation's makespan %g is not stage 0's span %g (test bug)", what, mk, sim);
        free(st), free(en);
        printf("  %s: makespan %.1f us (GPU %d's clock), simulated %.1f us (%.3fx)\n", what, got, dev[0], sim, got / sim);
    }
    double ratio = got / sim;
    ck_assert_msg(ratio >= 0.99 && ratio <= 1.15, "%s: makespan %.1f us against %.1f us simulated: %.3fx, outside "
                  "0.99-1.15 (more: ops waiting on transfers, or transfers waiting on each other, more than the "
                  "schedule says)", what, got, sim, ratio);
    wb_report_gpus(p, "%s, p %d, m %d: every transfer right; makespan %.0f us, simulated %.0f (%.3fx)", KIND[R.kind],
                   p, m, got, sim, ratio);
    for (int s = 0; s < p; s++) {
        WB_CUDA(cudaSetDevice(dev[s]));
        WB_CUDA(cudaDeviceSynchronize());
    }
    pipe_links_destroy(&L);
    for (int s = 0; s < p; s++) {
        WB_CUDA(cudaSetDevice(dev[s]));
        for (int k = 0; k < P2P_KINDS; k++)
            for (int i = 0; i < m; i++) wb_dout_free(&B->D[k][s * m + i]);
        wb_dout_free(&B->gate[s]);
    }
    WB_CUDA(cudaSetDevice(dev[0]));
    free(B->host), free(B->want), free(B);
    run_free(&R);
}
END_TEST

static const wb_test TESTS[] = {
    { "w50.assign", WB_T(assign_layout), WB_CPU, 12 },
    { "w50.pack", WB_T(pack_unpack), WB_GPU, 6 },
    { "w50.bucket", WB_T(bucket_one_rank), WB_GPU, 4 },
    WB_SPEED("w50.bucket-speed", bench_bucket),
    { "w50.bucket-ngpu", WB_T(bucket_all_gpus), WB_GPU, 0 },
    { "w50.order", WB_T(orders_and_peaks), WB_CPU, 10 },
    { "w50.bubble", WB_T(simulate_bubble), WB_CPU, 10 },
    { "w50.pipe-run", WB_T(pipe_run_one_gpu), WB_GPU, WB_COUNT(RUNS) },
    { "w50.pipe-ngpu", WB_T(pipe_run_all_gpus), WB_GPU, 2 },
};

/* A stage's GPU in w50.pipe-ngpu carries its compute stream, four link
 * streams and the internal streams of four NCCL communicator ends: more
 * than the driver's default of 8 hardware queues a device. Streams beyond
 * that share a queue, and work in one queue runs in the order it was
 * queued: a receive kernel waiting for its data would hold back every op
 * queued behind it on that queue, whatever stream it came from, and the
 * pipeline would run in lockstep. 32 is the most the driver gives; it is
 * read when CUDA starts, so it is set here, before any process of this
 * program touches CUDA (the parent never does; the tests run in children). */
int main(int argc, char **argv)
{
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "32", 1);
    return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS);
}
