/* judge_w16.c — build/instructor/judge-w16: week 16's judge (instructor/
 * README.md, "The judge and the runner"), used by the grader (JUDGED_WEEKS,
 * grade_run.c's JUDGES) since it ran on an H200. It links no student code:
 * the student's slab.o, hostmem.o and pipeline.o are linked into the runner
 * (judge_w16_runner.c, with the week's given support/work.o as the test
 * program has it), which this process starts (or is handed) and asks to call
 * them on buffers it allocated (judge.h). It poisons, fills, times and
 * checks, and writes the results record itself. The command line, the
 * runner's start, the record and the guarded device buffers are
 * judge_week.c's:
 *
 *   judge-w16 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases are test_week16.c's, COPIED here (the test has no shared
 * header, and a staged judge leaves the week's test as it is): the same
 * layouts, sizes, offsets, edge values and tolerances, drawn from the class
 * seed with the judge's own tags (wb_rng_for_seed). It forms:
 *   w16.slab          a CPU checkpoint (judged with or without a GPU;
 *                     without one the runner opens none): the test's 10
 *                     known layouts and 16 random ones (block 1-3000, align
 *                     1-4096, 0-200000 bytes at 0-4095 bytes past a page),
 *                     each filled, one allocation past the capacity, freed
 *                     in a random order with every block freed twice, one
 *                     more allocation and free, slab_destroy leaving *s all
 *                     zero; then per random layout 4000 random operations
 *                     against the judge's model (allocations, frees of live
 *                     blocks, frees that must be refused: NULL, inside a
 *                     block or its padding, a free block, before the first
 *                     block, past the last) with slab_in_use after every
 *                     one; and the six bad arguments of slab_init, each
 *                     cudaErrorInvalidValue leaving *s (filled with 0x5A
 *                     before) all zero. The range is a host buffer of the
 *                     judge's (a memfd both map, page-aligned, filled with
 *                     0xA5 and found unchanged after: the slab never writes
 *                     its blocks). The runner replays an operation script
 *                     the judge draws (judge_w16.h), the slab kept in the
 *                     runner between calls, and hands back every return:
 *                     offsets from the range's start, NULLs, return codes,
 *                     slab_in_use and slab_capacity; the judge checks the
 *                     capacity, every block's place (first + i * stride,
 *                     aligned, inside the range), no block handed out twice,
 *                     exhaustion, the refusals. A script is drawn assuming a
 *                     correct slab (an allocation is due NULL exactly when
 *                     every block is out), and where the next draw needs the
 *                     blocks' places (a free block to free again) the script
 *                     so far is run first. slab_in_use, slab_capacity and
 *                     the *s-all-zero flags are the runner's report of the
 *                     student's state, as they are the test's;
 *   w16.zerocopy      hm_zc_scale on the test's 12 sizes (0 to 2^22) with x
 *                     at 0-3 floats and y at 0-1 floats in, NaN and both
 *                     infinities in x, at rtol 1e-7: x is the judge's host
 *                     buffer (a memfd both map), registered mapped by the
 *                     runner (cudaHostRegister, cudaHostRegisterMapped, as
 *                     the test's cudaHostAlloc memory is mapped) and handed
 *                     to hm_zc_scale by its device address
 *                     (cudaHostGetDevicePointer), y a guarded device buffer
 *                     of the judge's; then the test's report: 256 MiB of x
 *                     from a hidden seed, y (device) poisoned, every element
 *                     checked by the judge (the test samples 16384). The
 *                     read bandwidth by the judge's clock is printed, not
 *                     judged (the checkpoint has no target). What remains
 *                     the runner's word: that x was read over the mapping
 *                     (the values are the judge's, so a kernel that got them
 *                     another way still computed the right y);
 *   w16.pipeline      pipeline_run on the test's 12 cases (n 0 to 2^22 + 5,
 *                     chunk 1000 to 2^20, 1-4 streams), 1-24 FMAs an element,
 *                     NaN and both infinities in hx, every element of hy at
 *                     rtol 1e-6 against fmaf on the host, NaN where due
 *                     written, nothing past hy[n-1] (64 floats of guard),
 *                     the staging buffers dx and dy (nstreams * chunk
 *                     floats, the judge's device memory) not overrun (their
 *                     guard bands). hx and hy are the judge's host buffers,
 *                     registered by the runner (cudaHostRegister, as the
 *                     test's cudaMallocHost memory is pinned); the streams
 *                     the runner's own (cudaStreamCreate, blocking, as the
 *                     test's);
 *   w16.pipeline-speed
 *                     the test's benchmark: 2^26 floats in chunks of 2^21,
 *                     3 streams, the work calibrated as the test does (the
 *                     given w16_work on one chunk as long as one chunk's
 *                     copy in plus its copy out, timed in this process on
 *                     its own pinned and device buffers before the student's
 *                     runner starts), against SERIAL as the test defines it
 *                     (the given yard_serial, the same chunks on the legacy
 *                     default stream) timed through the same requests by the
 *                     yard runner (judge_w16_yard_runner.c, no student
 *                     object) before the student's runner starts and again
 *                     after, the faster kept. One call a request, the median
 *                     of W16_TIMED requests by the judge's clock; before
 *                     each, fresh hx from a hidden seed (jd_mix of the class
 *                     seed and 64 random bits of this process), hy poisoned
 *                     and found still poisoned; the look (256 hidden
 *                     positions, expected values computed before the
 *                     request) in the clock; then every element of hy
 *                     checked against the given w16_work run by this judge
 *                     on the same hx (the test samples 4096). The host
 *                     buffers are the judge's, registered by each runner. A
 *                     buffer the driver will not register is the judge's
 *                     failure to set up: SKIP, never a figure from pageable
 *                     copies.
 * Not listed (judge-w16 --list), so the grader runs them in the week's
 * linked test program, because their verdict rests on memory that lives in
 * the student's process (a pointer of the runner's means nothing here):
 * w16.pool and w16.pool-speed (the pool's reservation read back with
 * cudaMemPoolGetAttribute, the allocations the student's pool hands out in
 * the runner), w16.pinned (cudaPointerGetAttributes of the student's
 * cudaHostAlloc memory), w16.slab-device (slab_create's own cudaMalloc: its
 * blocks are the runner's device memory), w16.managed and
 * w16.managed-speed (managed_alloc's memory type, the prefetch locations
 * and advice the driver records for the student's range; managed_scale's
 * correctness is part of w16.managed, which the judge cannot form whole),
 * w16.hostregister and w16.hostregister-speed (the page-locked attribute
 * and refusals of the student's own registrations, the student's
 * allocations), w16.growbuf and w16.growbuf-speed (an address reservation
 * and mappings in the runner's address space). Their guarantee is the
 * linked test's (instructor/README.md, the threat model). Not yet run on a
 * GPU. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <libgen.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "judge_w16.h"
#include "judge_week.h"
#include "pipeline.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_hd.h"
#include "wb_rand.h"
#include "wb_stats.h"

#define N_OF(a) (sizeof(a) / sizeof *(a))

/* ---------------------------------------------------------------- host buffers and calls */

/* A host buffer both processes map (a memfd), with a GPU too: the runner's
 * address of it means nothing here, its id and byte offsets do. */
typedef struct {
    void  *p;
    size_t bytes;
    int    id;
} hbuf;

/* 0, or -1 with t's message. */
static int hb_alloc(jd *J, hbuf *b, size_t bytes, jd_tally *t)
{
    void     *p = NULL;
    const int id = jd_alloc_kind(J, JD_MEM_HOST, bytes, &p);
    *b = (hbuf){ p, bytes, id };
    return id >= 0 ? 0 : (jd_failf(t, "host buffers: %s", J->why), -1);
}

static void hb_free(jd *J, hbuf *b)
{
    if (b->id < 0) return;
    jd_free(J, b->id);
    b->id = -1;
}

static const char *status_name(const jd_rep *rp)
{
    return rp->status > 0 ? cudaGetErrorName((cudaError_t)rp->status) : rp->text;
}

static void rq_arg(jd_req *rq, int k, int id, size_t off)
{
    rq->arg_buf[0][k] = id;
    rq->arg_off[0][k] = off;
}

/* The runner registers (on 1) or unregisters (on 0) a host buffer of the
 * judge's: 0; 1 when the driver refused (why says so: the judge's set-up);
 * -1 when the runner is lost. */
static int pin(jd *J, const hbuf *b, int mapped, int on, char *why, size_t why_n)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W16_FN_PIN, 1, 1);
    rq_arg(&rq, 0, b->id, 0);
    rq.i64[1] = (long long)b->bytes, rq.i64[2] = mapped, rq.i64[3] = !on;
    if (jd_call(J, &rq, &rp, NULL) != 0) return snprintf(why, why_n, "%s", J->why), -1;
    if (rp.status != 0 || rp.out_len < sizeof(int)) /* the runner's own failure, or an error its process holds */
        return snprintf(why, why_n, "registering a host buffer: %s", status_name(&rp)), -1;
    int rc;
    memcpy(&rc, rp.out, sizeof rc);
    if (rc != 0)
        return snprintf(why, why_n, "the runner could not %sregister the judge's host buffer of %zu bytes (%s)",
                        on ? "" : "un", b->bytes, cudaGetErrorName((cudaError_t)rc)), 1;
    return 0;
}

/* 64 random bits of this process, drawn once: mixed into the timed inputs'
 * and the looks' seeds, so they follow from more than the class seed. */
static uint64_t own_bits(void)
{
    static uint64_t bits;
    static int      drawn;
    if (!drawn) {
        if (getrandom(&bits, sizeof bits, 0) != (ssize_t)sizeof bits)
            bits = (uint64_t)jd_now_us() * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid();
        bits = jd_mix(bits), drawn = 1;
    }
    return bits;
}

/* ---------------------------------------------------------------- w16.slab (CPU) */

typedef struct { size_t block, align, bytes, mis, blocks; } slab_case;

/* test_week16.c's SLAB_KNOWN: blocks counted by hand */
static const slab_case SLAB_KNOWN[] = {
    { 1, 1, 100, 0, 100 },   { 3, 4, 100, 1, 24 },         { 100, 64, 1000, 0, 7 }, { 256, 256, 255, 0, 0 },
    { 64, 256, 4096, 17, 15 }, { 4096, 4096, 1 << 20, 5, 255 }, { 8, 8, 0, 0, 0 },    { 5, 1, 23, 3, 4 },
    { 24, 8, 200, 7, 8 },    { 1000, 512, 3000, 0, 2 },
};
enum { SLAB_RANDOM = 16, SLAB_OPS = 4000 };
#define RANGE_CAP ((size_t)(1 << 20) + 8192) /* bytes + mis + 64 of every case (the test's fake range) */
#define OPS_BATCH ((size_t)1 << 15)         /* operations a call */
#define NO_CHECK  LLONG_MIN

/* What the judge expects of one operation. */
enum { X_INIT_OK = 1, X_INIT_BAD, X_ALLOC, X_ALLOC_NULL, X_FREE_OK, X_FREE_BAD, X_DESTROY };
typedef struct {
    int         kind;
    long long   in_use; /* slab_in_use after it, or NO_CHECK */
    const char *bad;    /* X_FREE_BAD: what the pointer is */
} slab_x;

typedef struct {
    jd            *J;
    jd_tally      *t;
    hbuf           R, O, S; /* the range, a call's operations, its results */
    w16_op        *ops;
    w16_res       *res;
    slab_x        *x;
    size_t         n, cap, done, checked;
    size_t         block, align, bytes, mis, stride, first, nblocks; /* first: block 0's offset in the range */
    unsigned char *live;                                             /* the blocks out, as the results say */
    char           what[200];
} script;

static long long sc_push(script *s, int code, long long ref, long long a0, long long a1, int kind, long long in_use,
                         const char *bad)
{
    if (s->n == s->cap) {
        size_t c = s->cap ? 2 * s->cap : 4096;
        w16_op *o = realloc(s->ops, c * sizeof *o);
        if (o) s->ops = o;
        w16_res *r = realloc(s->res, c * sizeof *r);
        if (r) s->res = r;
        slab_x *x = realloc(s->x, c * sizeof *x);
        if (x) s->x = x;
        if (!o || !r || !x) {
            fprintf(stderr, "judge-w16: out of host memory\n");
            exit(2);
        }
        s->cap = c;
    }
    w16_op *o = &s->ops[s->n];
    memset(o, 0, sizeof *o);
    o->code = code, o->ref = ref, o->a[0] = a0, o->a[1] = a1;
    s->x[s->n] = (slab_x){ kind, in_use, bad };
    return (long long)s->n++;
}

/* A block's index from its offset, or -1 when the offset is no block of the layout. */
static long long block_of(const script *s, long long off)
{
    if (off < (long long)s->first || s->stride == 0) return -1;
    size_t d = (size_t)(off - (long long)s->first);
    return d % s->stride == 0 && d / s->stride < s->nblocks ? (long long)(d / s->stride) : -1;
}

/* Operation k's result against what was expected: 0, or 1 (t says why). */
static int sc_check(script *s, size_t k)
{
    const w16_res *r = &s->res[k];
    const slab_x  *x = &s->x[k];
    jd_tally      *t = s->t;
    const long long op = (long long)k;
    switch (x->kind) {
    case X_INIT_OK:
        if (r->v != cudaSuccess)
            return jd_failf(t, "%s: slab_init failed (%s)", s->what, cudaGetErrorName((cudaError_t)r->v)), 1;
        if (r->cap != (long long)s->nblocks)
            return jd_failf(t, "%s: capacity %lld, expected %zu", s->what, r->cap, s->nblocks), 1;
        memset(s->live, 0, s->nblocks ? s->nblocks : 1);
        break;
    case X_INIT_BAD:
        if (r->v != cudaErrorInvalidValue)
            return jd_failf(t, "slab_init with %s must return cudaErrorInvalidValue (%d), got %lld", x->bad,
                            (int)cudaErrorInvalidValue, r->v), 1;
        if (!r->zero) return jd_failf(t, "slab_init with %s: *s must be left all zero", x->bad), 1;
        break;
    case X_ALLOC: {
        if (r->null)
            return jd_failf(t, "%s, op %lld: slab_alloc gave NULL with %lld of %zu blocks in use", s->what, op,
                            x->in_use - 1, s->nblocks), 1;
        if (r->v % (long long)s->align != 0)
            return jd_failf(t, "%s, op %lld: a block at range+%lld is not aligned to %zu", s->what, op, r->v, s->align), 1;
        long long i = block_of(s, r->v);
        if (i < 0)
            return jd_failf(t, "%s, op %lld: range+%lld is not first + i * stride (first range+%zu, stride %zu, %zu blocks)",
                            s->what, op, r->v, s->first, s->stride, s->nblocks), 1;
        if (r->v + (long long)s->block > (long long)(s->mis + s->bytes))
            return jd_failf(t, "%s, op %lld: block range+%lld ends past the range", s->what, op, r->v), 1;
        if (s->live[i]) return jd_failf(t, "%s, op %lld: block %lld handed out while in use", s->what, op, i), 1;
        s->live[i] = 1;
        break;
    }
    case X_ALLOC_NULL:
        if (!r->null)
            return jd_failf(t, "%s, op %lld: all %zu blocks in use, yet slab_alloc gave range+%lld (an allocation past "
                            "the capacity must give NULL)", s->what, op, s->nblocks, r->v), 1;
        break;
    case X_FREE_OK: {
        long long i = block_of(s, s->res[s->ops[k].ref].v);
        if (r->v != 0) return jd_failf(t, "%s, op %lld: freeing block %lld that is in use was refused", s->what, op, i), 1;
        if (i >= 0) s->live[i] = 0;
        break;
    }
    case X_FREE_BAD:
        if (r->v != -1)
            return jd_failf(t, "%s, op %lld: slab_free(%s) must be refused (-1), it returned %lld", s->what, op, x->bad,
                            r->v), 1;
        break;
    case X_DESTROY:
        if (!r->zero) return jd_failf(t, "%s: slab_destroy must leave *s all zero", s->what), 1;
        break;
    }
    if (x->in_use != NO_CHECK && r->in_use != x->in_use)
        return jd_failf(t, "%s, op %lld: in use %lld, expected %lld", s->what, op, r->in_use, x->in_use), 1;
    return 0;
}

/* Run what the script holds that has not run yet, OPS_BATCH operations a
 * call (a reference to a block an earlier call handed out becomes its
 * offset), and check every result: 0, 1 (a check failed: t says why), -1
 * (the runner is lost, or failed itself). */
static int sc_run(script *s)
{
    while (s->done < s->n) {
        const size_t from = s->done, m = s->n - from < OPS_BATCH ? s->n - from : OPS_BATCH;
        w16_op *o = (w16_op *)s->O.p;
        for (size_t k = 0; k < m; k++) {
            o[k] = s->ops[from + k];
            if (o[k].ref >= 0 && (size_t)o[k].ref < from) o[k].a[0] += s->res[o[k].ref].v, o[k].ref = -1;
            else if (o[k].ref >= 0) o[k].ref -= (long long)from;
        }
        memset(s->S.p, 0xEE, m * sizeof(w16_res));
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, W16_FN_SLAB, 1, 3);
        rq_arg(&rq, 0, s->R.id, 0), rq_arg(&rq, 1, s->O.id, 0), rq_arg(&rq, 2, s->S.id, 0);
        rq.i64[0] = (long long)m;
        if (jd_call(s->J, &rq, &rp, NULL) != 0) return jd_failf(s->t, "%s: %s", s->what, s->J->why), -1;
        if (rp.status != 0) return jd_failf(s->t, "%s: the runner failed: %s", s->what, rp.text), -1;
        memcpy(s->res + from, s->S.p, m * sizeof(w16_res));
        s->done += m;
        for (; s->checked < s->done; s->checked++)
            if (sc_check(s, s->checked)) return 1;
    }
    return 0;
}

/* A new case on layout c: the range poisoned, the script emptied, the
 * layout the judge expects (the range's start is page-aligned, so offsets
 * keep every alignment up to a page). */
static void sc_case(script *s, const slab_case *c)
{
    s->n = s->done = s->checked = 0;
    s->block = c->block, s->align = c->align, s->bytes = c->bytes, s->mis = c->mis;
    s->stride = (c->block + c->align - 1) / c->align * c->align;
    s->first = (c->mis + c->align - 1) / c->align * c->align;
    const size_t lost = s->first - c->mis;
    s->nblocks = lost >= c->bytes ? 0 : (c->bytes - lost) / s->stride;
    free(s->live);
    s->live = calloc(s->nblocks ? s->nblocks : 1, 1);
    memset(s->R.p, 0xA5, RANGE_CAP);
    snprintf(s->what, sizeof s->what, "block %zu, align %zu, %zu bytes at base+%zu", c->block, c->align, c->bytes,
             c->mis);
}

/* The range as the judge filled it: 0, or 1 (t says why). */
static int sc_range_kept(script *s)
{
    size_t touched = wb_count_not_byte(s->R.p, RANGE_CAP, 0xA5);
    if (touched)
        return jd_failf(s->t, "%s: %zu bytes of the range changed: the slab wrote into its blocks (device memory: keep "
                        "the bookkeeping in host arrays)", s->what, touched), 1;
    return 0;
}

static void shuffle(wb_rng *rng, long long *v, size_t n)
{
    for (size_t k = n; k > 1; k--) {
        size_t j = (size_t)wb_rng_int(rng, 0, (int64_t)k - 1);
        long long u = v[j];
        v[j] = v[k - 1], v[k - 1] = u;
    }
}

/* test_week16.c's slab_fill_and_drain: 0, 1 (failed), -1 (the runner). */
static int fill_and_drain(script *s, wb_rng *rng, const slab_case *c)
{
    sc_case(s, c);
    const size_t want = s->nblocks;
    long long *got = calloc(want ? want : 1, sizeof *got);
    sc_push(s, W16_OP_INIT, -1, (long long)c->mis, 0, X_INIT_OK, 0, NULL);
    s->ops[s->n - 1].a[1] = (long long)c->bytes, s->ops[s->n - 1].a[2] = (long long)c->block;
    s->ops[s->n - 1].a[3] = (long long)c->align;
    for (size_t k = 0; k < want; k++) got[k] = sc_push(s, W16_OP_ALLOC, -1, 0, 0, X_ALLOC, (long long)k + 1, NULL);
    sc_push(s, W16_OP_ALLOC, -1, 0, 0, X_ALLOC_NULL, (long long)want, NULL);
    shuffle(rng, got, want);
    for (size_t k = 0; k < want; k++) {
        sc_push(s, W16_OP_FREE, got[k], 0, 0, X_FREE_OK, (long long)(want - k - 1), NULL);
        sc_push(s, W16_OP_FREE, got[k], 0, 0, X_FREE_BAD, (long long)(want - k - 1), "a block freed already");
    }
    if (want) {
        long long p = sc_push(s, W16_OP_ALLOC, -1, 0, 0, X_ALLOC, 1, NULL);
        sc_push(s, W16_OP_FREE, p, 0, 0, X_FREE_OK, 0, NULL);
    }
    sc_push(s, W16_OP_DESTROY, -1, 0, 0, X_DESTROY, NO_CHECK, NULL);
    free(got);
    int rc = sc_run(s);
    return rc ? rc : sc_range_kept(s);
}

/* test_week16.c's slab_random after its fill_and_drain: SLAB_OPS random
 * operations against the judge's model. */
static int random_ops(script *s, wb_rng *rng, const slab_case *c)
{
    sc_case(s, c);
    snprintf(s->what + strlen(s->what), sizeof s->what - strlen(s->what), " (%zu blocks)", s->nblocks);
    const size_t cap = s->nblocks;
    long long *ids = calloc(cap ? cap : 1, sizeof *ids); /* the live allocations: their operations */
    size_t nlive = 0;
    int rc = 0;
    long long in = sc_push(s, W16_OP_INIT, -1, (long long)c->mis, 0, X_INIT_OK, 0, NULL);
    s->ops[in].a[1] = (long long)c->bytes, s->ops[in].a[2] = (long long)c->block, s->ops[in].a[3] = (long long)c->align;
    for (int op = 0; op < SLAB_OPS && !rc; op++) {
        int r = (int)wb_rng_int(rng, 0, 99);
        if (r < 50) {
            if (nlive == cap) sc_push(s, W16_OP_ALLOC, -1, 0, 0, X_ALLOC_NULL, (long long)nlive, NULL);
            else ids[nlive] = sc_push(s, W16_OP_ALLOC, -1, 0, 0, X_ALLOC, (long long)nlive + 1, NULL), nlive++;
        } else if (r < 85) {
            if (!nlive) continue;
            size_t j = (size_t)wb_rng_int(rng, 0, (int64_t)nlive - 1);
            sc_push(s, W16_OP_FREE, ids[j], 0, 0, X_FREE_OK, (long long)nlive - 1, NULL);
            ids[j] = ids[--nlive];
        } else {
            int kind = (int)wb_rng_int(rng, 0, 4);
            const long long L = (long long)nlive;
            if (kind == 0) {
                sc_push(s, W16_OP_FREE, -1, 0, 1, X_FREE_BAD, L, "NULL");
            } else if (kind == 1 && nlive && s->stride > 1) {
                sc_push(s, W16_OP_FREE, ids[0], wb_rng_int(rng, 1, (int64_t)s->stride - 1), 0, X_FREE_BAD, L,
                        "inside a block or its padding");
            } else if (kind == 2 && nlive < cap) {
                if ((rc = sc_run(s)) != 0) break; /* the blocks' places, from the results so far */
                size_t i = (size_t)wb_rng_int(rng, 0, (int64_t)cap - 1);
                while (s->live[i]) i = (i + 1) % cap;
                sc_push(s, W16_OP_FREE, -1, (long long)(s->first + i * s->stride), 0, X_FREE_BAD, L, "a free block");
            } else if (kind == 3) {
                sc_push(s, W16_OP_FREE, -1, (long long)s->first - wb_rng_int(rng, 1, 64), 0, X_FREE_BAD, L,
                        "before the first block");
            } else {
                sc_push(s, W16_OP_FREE, -1, (long long)(s->first + (cap + (size_t)wb_rng_int(rng, 0, 1)) * s->stride), 0,
                        X_FREE_BAD, L, "past the last block");
            }
        }
    }
    if (!rc) {
        sc_push(s, W16_OP_DESTROY, -1, 0, 0, X_DESTROY, NO_CHECK, NULL);
        rc = sc_run(s);
    }
    free(ids);
    return rc ? rc : sc_range_kept(s);
}

/* test_week16.c's slab_bad_args: six bad calls of slab_init on a 4096-byte range. */
static int bad_args(script *s)
{
    static const struct { int null_base; size_t block, align; const char *what; } bad[] = {
        { 1, 16, 16, "base NULL" }, { 0, 0, 16, "block_bytes 0" }, { 0, 16, 0, "align 0" },
        { 0, 16, 3, "align 3" },    { 0, 16, 24, "align 24" },     { 0, 16, 4097, "align 4097" },
    };
    sc_case(s, &(slab_case){ 16, 16, 4096, 0, 0 });
    snprintf(s->what, sizeof s->what, "bad arguments");
    for (size_t k = 0; k < N_OF(bad); k++) {
        long long i = sc_push(s, W16_OP_INIT, -1, bad[k].null_base ? -1 : 0, 0, X_INIT_BAD, NO_CHECK, bad[k].what);
        s->ops[i].a[1] = 4096, s->ops[i].a[2] = (long long)bad[k].block, s->ops[i].a[3] = (long long)bad[k].align;
        sc_push(s, W16_OP_DESTROY, -1, 0, 0, X_DESTROY, NO_CHECK, NULL);
    }
    int rc = sc_run(s);
    return rc ? rc : sc_range_kept(s);
}

static void judge_slab(jd *J, jd_tally *t)
{
    script s;
    memset(&s, 0, sizeof s);
    s.J = J, s.t = t, s.R.id = s.O.id = s.S.id = -1;
    if (hb_alloc(J, &s.R, RANGE_CAP, t) || hb_alloc(J, &s.O, OPS_BATCH * sizeof(w16_op), t) ||
        hb_alloc(J, &s.S, OPS_BATCH * sizeof(w16_res), t))
        goto done;
    for (size_t i = 0; i < N_OF(SLAB_KNOWN); i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w16 slab_known", (int)i);
        t->tests++;
        if (fill_and_drain(&s, &rng, &SLAB_KNOWN[i]) < 0) goto done;
    }
    for (int i = 0; i < SLAB_RANDOM; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w16 slab_random", i);
        slab_case c = { (size_t)wb_rng_int(&rng, 1, 3000), (size_t)1 << wb_rng_int(&rng, 0, 12),
                        (size_t)wb_rng_int(&rng, 0, 200000), (size_t)wb_rng_int(&rng, 0, 4095), 0 };
        t->tests++;
        int rc = fill_and_drain(&s, &rng, &c);
        if (rc < 0) goto done;
        if (rc == 0 && random_ops(&s, &rng, &c) < 0) goto done;
    }
    t->tests++;
    bad_args(&s);
done:
    if (!J->lost && s.R.id >= 0) { /* no slab left behind in the runner */
        sc_case(&s, &(slab_case){ 1, 1, 0, 0, 0 });
        sc_push(&s, W16_OP_DESTROY, -1, 0, 0, 0, NO_CHECK, NULL);
        jd_tally quiet;
        memset(&quiet, 0, sizeof quiet);
        s.t = &quiet;
        sc_run(&s);
    }
    hb_free(J, &s.R), hb_free(J, &s.O), hb_free(J, &s.S);
    free(s.ops), free(s.res), free(s.x), free(s.live);
}

static void judge_slab_gpu(jd_ck *k) { judge_slab(k->J, k->t); }

/* ---------------------------------------------------------------- w16.zerocopy */

/* test_week16.c's SIZES */
static const size_t ZC_SIZES[] = { 0, 1, 3, 4, 31, 255, 257, 1023, 4099, 65537, 1000003, (size_t)1 << 22 };
static const float  ZA = 1.5f;                     /* the report's factor, the test's */
#define ZC_REPORT_BYTES ((size_t)256 << 20)

/* NaN where the reference has NaN and the poison still there: never written. */
static size_t unwritten(const float *got, const float *ref, size_t n, size_t *first)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t bits;
        memcpy(&bits, &got[i], 4);
        if (isnan(ref[i]) && bits == 0xFFFFFFFFu && !bad++) *first = i;
    }
    return bad;
}

/* One call of hm_zc_scale on x (X, registered mapped) at xoff bytes into the
 * guarded y at lead yoff: 0, 1 (it failed: t says why), -1 (the runner). */
static int zc_call(jd *J, const hbuf *X, size_t xoff, jd_gbuf *Y, size_t yoff, size_t n, float a, const char *what,
                   double *wall_us, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W16_FN_ZC, 1, 2);
    rq_arg(&rq, 0, X->id, 0), jd_gbuf_arg(&rq, 1, Y, yoff);
    rq.i64[0] = (long long)n, rq.i64[1] = (long long)xoff, rq.f64[0] = a;
    if (jd_call(J, &rq, &rp, wall_us) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0) return jd_failf(t, "%s: hm_zc_scale returned %s", what, status_name(&rp)), 1;
    return 0;
}

/* The test's report: 256 MiB of mapped x from a hidden seed, every element of y checked. */
static void zc_report(jd *J, hbuf *X, jd_gbuf *Y, float *got, jd_tally *t)
{
    const size_t n = ZC_REPORT_BYTES / 4;
    const unsigned long long seed = jd_mix(jd_seed ^ 0x2c0 ^ own_bits());
    float *x = (float *)X->p;
    for (size_t i = 0; i < n; i++) x[i] = wb_hash_uniform(seed, i, -1.0f, 1.0f);
    const char *what = "the report's 256 MiB (x mapped host memory)";
    t->tests++;
    if (jd_gbuf_poison(Y, 0, n * 4) != 0) return (void)jd_failf(t, "%s: the judge's poison failed", what);
    double us = 0;
    if (zc_call(J, X, 0, Y, 0, n, ZA, what, &us, t) != 0) return;
    if (jd_gbuf_fetch(Y, 0, n * 4, got, "y", what, t) != 0) return;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (!wb_close(got[i], (double)(ZA * x[i]), 0, 1e-7) && !bad++) first = i;
    if (bad)
        return (void)jd_failf(t, "zero-copy: %s: %zu of %zu elements wrong; first y[%zu] expected %.9g got %.9g", what,
                              bad, n, first, (double)(ZA * x[first]), (double)got[first]);
    printf("  zero-copy: hm_zc_scale read 256 MiB of mapped host memory in %.3f ms by the judge's clock (%.1f GB/s, "
           "one call through the runner; reported, not judged)\n", us / 1e3, ZC_REPORT_BYTES / (us * 1e-6) / 1e9);
}

static void judge_zerocopy(jd_ck *k)
{
    jd       *J = k->J;
    jd_tally *t = k->t;
    const size_t nmax = ZC_SIZES[N_OF(ZC_SIZES) - 1];
    hbuf      X = { NULL, 0, -1 };
    jd_gbuf   Y = { -1, NULL, 0 };
    int       pinned = 0;
    char      why[300];
    float    *ref = malloc(nmax * 4), *got = malloc(ZC_REPORT_BYTES);
    if (!ref || !got) {
        jd_failf(t, "the judge is out of host memory");
        goto done;
    }
    if (hb_alloc(J, &X, ZC_REPORT_BYTES, t) || jd_gbuf_alloc(J, &Y, ZC_REPORT_BYTES, t)) goto done;
    int rc = pin(J, &X, 1, 1, why, sizeof why);
    if (rc) {
        if (rc > 0) t->tests = 1, t->skipped = 1, snprintf(t->msg, sizeof t->msg, "not run: %s", why);
        else jd_failf(t, "%s", why);
        goto done;
    }
    pinned = 1;
    float *hx = (float *)X.p;
    for (size_t i = 0; i < N_OF(ZC_SIZES); i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w16 zerocopy_sizes", (int)i);
        const size_t n = ZC_SIZES[i], ox = i == N_OF(ZC_SIZES) - 1 ? 0 : i % 4, oy = (i >> 2) & 1;
        const float a = (float)(wb_rng_unit(&rng) * 4 - 2);
        wb_fill_uniform_f32(&rng, hx, n + ox, -100, 100);
        if (n >= 3) hx[ox] = NAN, hx[ox + 1] = INFINITY, hx[ox + n - 1] = -INFINITY;
        for (size_t j = 0; j < n; j++) ref[j] = a * hx[ox + j];
        char what[96];
        snprintf(what, sizeof what, "n=%zu, x+%zu y+%zu (x mapped host memory)", n, ox, oy);
        t->tests++;
        if (jd_gbuf_poison(&Y, oy * 4, n * 4) != 0) {
            jd_failf(t, "%s: the judge's poison failed", what);
            goto done;
        }
        int c = zc_call(J, &X, ox * 4, &Y, oy * 4, n, a, what, NULL, t);
        if (c < 0) goto done;
        if (c > 0) continue;
        c = jd_gbuf_fetch(&Y, oy * 4, n * 4, got, "y", what, t);
        if (c < 0) goto done;
        if (c > 0) continue;
        size_t first = 0, nw = unwritten(got, ref, n, &first);
        if (nw) {
            jd_failf(t, "%s: y[%zu], where NaN is expected, was never written (it still holds the poison); %zu such", what,
                     first, nw);
            continue;
        }
        wb_cmp cmp;
        if (wb_compare_f32("y", got, ref, n, 0, 1e-7, &cmp)) jd_failf(t, "%s: %s", what, cmp.msg);
    }
    if (!t->failed) zc_report(J, &X, &Y, got, t);
done:
    if (pinned && !J->lost) pin(J, &X, 1, 0, why, sizeof why);
    hb_free(J, &X), jd_gbuf_free(J, &Y);
    free(ref), free(got);
}

/* ---------------------------------------------------------------- w16.pipeline */

/* The given work on the host (fmaf rounds once, as the device's does). */
static float work_ref(float v, int iters)
{
    while (iters-- > 0) v = fmaf(v, W16_A, W16_B);
    return v;
}

typedef struct { size_t n, chunk; int nstreams; } pipe_case;

/* test_week16.c's PIPES */
static const pipe_case PIPES[] = {
    { 0, 1000, 2 }, { 1, 1000, 1 }, { 999, 1000, 3 }, { 1000, 1000, 2 }, { 1001, 1000, 2 }, { 5000, 1000, 4 },
    { 4097, 1024, 3 }, { 100003, 4096, 2 }, { 65537, 100000, 4 }, { 1 << 20, 65536, 4 }, { 3000017, 1 << 18, 3 },
    { (1 << 22) + 5, 1 << 20, 1 },
};
enum { HY_GUARD = 64 };

/* A request for pipeline_run (or the yard's yard_serial) on hx, hy, dx, dy (ids; dx and dy at byte lead). */
static void pipe_request(jd_req *rq, int fn, int hx, int hy, int dx, int dy, size_t lead, size_t n, size_t chunk,
                         int iters, int ns)
{
    jd_call_setup(rq, fn, 1, 4);
    rq_arg(rq, 0, hx, 0), rq_arg(rq, 1, hy, 0), rq_arg(rq, 2, dx, lead), rq_arg(rq, 3, dy, lead);
    rq->i64[0] = (long long)n, rq->i64[1] = (long long)chunk, rq->i64[2] = iters, rq->i64[3] = ns;
}

/* One case: 0 (ran: passed or failed), -1 (the runner or the judge's copies). */
static int pipe_case_run(jd *J, int i, hbuf *HX, hbuf *HY, jd_gbuf *DX, jd_gbuf *DY, float *ref, void *tmp, jd_tally *t)
{
    const pipe_case *pc = &PIPES[i];
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w16 pipeline_cases", i);
    const size_t n = pc->n, stage = (size_t)pc->nstreams * pc->chunk * 4;
    const int iters = (int)wb_rng_int(&rng, 1, 24);
    float *hx = (float *)HX->p, *hy = (float *)HY->p;
    wb_fill_uniform_f32(&rng, hx, n, -2, 2);
    if (n >= 8) hx[1] = NAN, hx[n / 2] = INFINITY, hx[n - 1] = -INFINITY;
    for (size_t j = 0; j < n; j++) ref[j] = work_ref(hx[j], iters);
    memset(hy, 0xFF, (n + HY_GUARD) * 4);
    char what[128];
    snprintf(what, sizeof what, "n=%zu, chunk %zu, %d stream%s, %d FMAs an element", n, pc->chunk, pc->nstreams,
             pc->nstreams > 1 ? "s" : "", iters);
    t->tests++;
    if (jd_gbuf_poison(DX, 0, stage) || jd_gbuf_poison(DY, 0, stage))
        return jd_failf(t, "%s: the judge's poison failed", what), -1;
    jd_req rq;
    jd_rep rp;
    pipe_request(&rq, W16_FN_PIPE, HX->id, HY->id, DX->id, DY->id, JD_GBAND, n, pc->chunk, iters, pc->nstreams);
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0) return jd_failf(t, "%s: pipeline_run returned %s", what, status_name(&rp)), 0;
    wb_cmp cmp;
    if (wb_compare_f32("hy", hy, ref, n, 0, 1e-6, &cmp)) return jd_failf(t, "%s: %s", what, cmp.msg), 0;
    size_t first = 0, nw = unwritten(hy, ref, n, &first);
    if (nw) return jd_failf(t, "%s: %zu elements of hy where NaN is expected were never written", what, nw), 0;
    size_t past = wb_count_not_byte(hy + n, HY_GUARD * 4, 0xFF);
    if (past) return jd_failf(t, "%s: %zu bytes written past hy[n-1]", what, past), 0;
    int c = jd_gbuf_fetch(DX, 0, stage, tmp, "dx (staging)", what, t);
    if (c == 0) c = jd_gbuf_fetch(DY, 0, stage, tmp, "dy (staging)", what, t);
    return c < 0 ? -1 : 0;
}

static void judge_pipeline(jd_ck *k)
{
    jd       *J = k->J;
    jd_tally *t = k->t;
    size_t    nmax = 0, smax = 0;
    for (size_t i = 0; i < N_OF(PIPES); i++) {
        if (PIPES[i].n > nmax) nmax = PIPES[i].n;
        if ((size_t)PIPES[i].nstreams * PIPES[i].chunk * 4 > smax) smax = (size_t)PIPES[i].nstreams * PIPES[i].chunk * 4;
    }
    hbuf    HX = { NULL, 0, -1 }, HY = { NULL, 0, -1 };
    jd_gbuf DX = { -1, NULL, 0 }, DY = { -1, NULL, 0 };
    int     pinned[2] = { 0, 0 };
    char    why[300];
    float  *ref = malloc(nmax * 4);
    void   *tmp = malloc(smax);
    if (!ref || !tmp) {
        jd_failf(t, "the judge is out of host memory");
        goto done;
    }
    if (hb_alloc(J, &HX, (nmax + 1) * 4, t) || hb_alloc(J, &HY, (nmax + HY_GUARD) * 4, t) ||
        jd_gbuf_alloc(J, &DX, smax, t) || jd_gbuf_alloc(J, &DY, smax, t))
        goto done;
    for (int w = 0; w < 2; w++) {
        int rc = pin(J, w ? &HY : &HX, 0, 1, why, sizeof why);
        if (rc) {
            if (rc > 0) t->tests = 1, t->skipped = 1, snprintf(t->msg, sizeof t->msg, "not run: %s", why);
            else jd_failf(t, "%s", why);
            goto done;
        }
        pinned[w] = 1;
    }
    for (int i = 0; i < (int)N_OF(PIPES); i++)
        if (pipe_case_run(J, i, &HX, &HY, &DX, &DY, ref, tmp, t) < 0) break;
done:
    for (int w = 0; w < 2; w++)
        if (pinned[w] && !J->lost) pin(J, w ? &HY : &HX, 0, 0, why, sizeof why);
    hb_free(J, &HX), hb_free(J, &HY), jd_gbuf_free(J, &DX), jd_gbuf_free(J, &DY);
    free(ref), free(tmp);
}

/* ---------------------------------------------------------------- w16.pipeline-speed */

/* test_week16.c's benchmark: 64 Mi floats in chunks of 2 Mi, 3 streams */
#define PIPE_N     ((size_t)1 << 26)
#define PIPE_CHUNK ((size_t)1 << 21)
enum { PIPE_NS = 3, W16_TIMED = 7 }; /* streams; requests timed (one call each, some 10-40 ms on an H200) */

static int g_iters; /* the work's FMAs an element, calibrated before any student code runs */

/* Median of 10 runs (after 2 warm-ups) of one copy or one w16_work on the
 * legacy default stream, by events, as the test's median_ms times them. */
static double median_ms(int what, void *dst, const void *src, size_t bytes, int iters, char *why, size_t why_n)
{
    cudaEvent_t a, b;
    double      t[10];
    if (cudaEventCreate(&a) != cudaSuccess || cudaEventCreate(&b) != cudaSuccess)
        return snprintf(why, why_n, "calibration: cudaEventCreate failed"), NAN;
    cudaError_t e = cudaSuccess;
    for (int r = -2; r < 10 && e == cudaSuccess; r++) {
        e = cudaEventRecord(a, 0);
        if (e == cudaSuccess)
            e = what == 2 ? w16_work((const float *)src, (float *)dst, bytes / 4, iters, 0)
                          : cudaMemcpyAsync(dst, src, bytes, what ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice, 0);
        if (e == cudaSuccess) e = cudaEventRecord(b, 0);
        if (e == cudaSuccess) e = cudaEventSynchronize(b);
        float ms = 0;
        if (e == cudaSuccess) e = cudaEventElapsedTime(&ms, a, b);
        if (r >= 0) t[r] = ms;
    }
    cudaEventDestroy(a), cudaEventDestroy(b);
    if (e != cudaSuccess) return snprintf(why, why_n, "calibration: %s", cudaGetErrorName(e)), NAN;
    return wb_median(t, 10);
}

/* The test's calibrate_iters on the test's balance (work = in + out), in
 * this process on its own buffers: 0, or -1 with why. */
static int calibrate(char *why, size_t why_n)
{
    const size_t bytes = PIPE_CHUNK * 4;
    float *h = NULL, *dx = NULL, *dy = NULL;
    int rc = -1;
    if (cudaMallocHost((void **)&h, bytes) != cudaSuccess || cudaMalloc((void **)&dx, bytes) != cudaSuccess ||
        cudaMalloc((void **)&dy, bytes) != cudaSuccess) {
        snprintf(why, why_n, "calibration: the judge's buffers: %s", cudaGetErrorName(cudaGetLastError()));
        goto out;
    }
    for (size_t i = 0; i < PIPE_CHUNK; i++) h[i] = wb_hash_uniform(jd_seed, i, -1.0f, 1.0f);
    double t_in = median_ms(0, dx, h, bytes, 0, why, why_n), t_out = median_ms(1, h, dy, bytes, 0, why, why_n);
    if (!(t_in > 0) || !(t_out > 0)) goto out;
    int iters = 1024;
    for (int step = 0; step < 2; step++) {
        double t = median_ms(2, dy, dx, bytes, iters, why, why_n);
        if (!(t > 0)) goto out;
        double it = iters * (t_in + t_out) / t;
        iters = it < 16 ? 16 : it > (1 << 16) ? (1 << 16) : (int)lround(it);
    }
    g_iters = iters, rc = 0;
    printf("  one chunk of %zu floats: copy in %.3f ms, copy out %.3f ms; the work calibrated to %d FMAs an element\n",
           PIPE_CHUNK, t_in, t_out, iters);
out:
    cudaFreeHost(h), cudaFree(dx), cudaFree(dy);
    return rc;
}

typedef struct {
    jd      *J;
    int      yard;               /* 1: the yard runner's yard_serial; 0: the student's pipeline_run */
    hbuf     hx, hy;             /* hy: HY_GUARD floats after n */
    int      pinned[2];
    int      dx, dy;             /* staging, PIPE_NS * PIPE_CHUNK floats each (the runner's device buffers) */
    float   *ref_in, *ref_out;   /* the judge's own device copy of hx and the given work's output on it */
    float   *ref_h;              /* that output on the host */
    size_t   idx[JD_SAMPLES];
    float    want[JD_SAMPLES];
    uint64_t salt;
} pspeed;

static void ps_free(pspeed *s)
{
    char why[300];
    for (int w = 0; w < 2; w++)
        if (s->pinned[w] && !s->J->lost) pin(s->J, w ? &s->hy : &s->hx, 0, 0, why, sizeof why);
    hb_free(s->J, &s->hx), hb_free(s->J, &s->hy);
    if (s->dx >= 0) jd_free(s->J, s->dx);
    if (s->dy >= 0) jd_free(s->J, s->dy);
    cudaFree(s->ref_in), cudaFree(s->ref_out);
    free(s->ref_h);
    s->dx = s->dy = -1, s->ref_in = s->ref_out = s->ref_h = NULL;
}

/* 0; 1 when a host buffer could not be registered (the judge's set-up:
 * SKIP); -1 with why. */
static int ps_alloc(pspeed *s, jd *J, int yard, char *why, size_t why_n)
{
    memset(s, 0, sizeof *s);
    s->J = J, s->yard = yard, s->hx.id = s->hy.id = s->dx = s->dy = -1;
    jd_tally t;
    memset(&t, 0, sizeof t);
    void *p;
    const size_t stage = PIPE_NS * PIPE_CHUNK * 4;
    if (hb_alloc(J, &s->hx, PIPE_N * 4, &t) || hb_alloc(J, &s->hy, (PIPE_N + HY_GUARD) * 4, &t) ||
        (s->dx = jd_alloc(J, stage, &p)) < 0 || (s->dy = jd_alloc(J, stage, &p)) < 0)
        return snprintf(why, why_n, "%s", t.msg[0] ? t.msg : J->why), -1;
    if (cudaMalloc((void **)&s->ref_in, PIPE_N * 4) != cudaSuccess ||
        cudaMalloc((void **)&s->ref_out, PIPE_N * 4) != cudaSuccess || !(s->ref_h = malloc(PIPE_N * 4)))
        return snprintf(why, why_n, "the judge's reference buffers could not be allocated"), -1;
    for (int w = 0; w < 2; w++) {
        int rc = pin(J, w ? &s->hy : &s->hx, 0, 1, why, why_n);
        if (rc) return rc;
        s->pinned[w] = 1;
    }
    return 0;
}

/* Fresh hx (drawn on the judge's device from a hidden seed, copied into the
 * host buffer), hy poisoned, the look's positions and values: 0 or -1. */
static int ps_refill(pspeed *s)
{
    const unsigned long long seed = s->salt = jd_mix(s->salt);
    wb_dfill_uniform_f32(s->ref_in, PIPE_N, seed, -1, 1);
    if (cudaDeviceSynchronize() != cudaSuccess ||
        cudaMemcpy(s->hx.p, s->ref_in, PIPE_N * 4, cudaMemcpyDeviceToHost) != cudaSuccess)
        return -1;
    memset(s->hy.p, 0xFF, s->hy.bytes);
    uint64_t k = s->salt = jd_mix(s->salt);
    const float *hx = (const float *)s->hx.p;
    for (int j = 0; j < JD_SAMPLES; j++) {
        s->idx[j] = (k = jd_mix(k)) % PIPE_N;
        s->want[j] = work_ref(hx[s->idx[j]], g_iters);
    }
    return 0;
}

/* The look right after a reply: JD_SAMPLES hidden positions of hy. */
static int ps_look(void *p, char *why, size_t n)
{
    pspeed *s = p;
    const float *hy = (const float *)s->hy.p;
    for (int j = 0; j < JD_SAMPLES; j++)
        if (!wb_close(hy[s->idx[j]], s->want[j], 0, 1e-6)) {
            uint32_t u;
            memcpy(&u, &hy[s->idx[j]], 4);
            return snprintf(why, n, JD_TIMED_WRONG ": hy[%zu] %s right after the reply", s->idx[j],
                            u == 0xFFFFFFFFu ? "not yet written (still the poison)" : "wrong"), 1;
        }
    return 0;
}

/* Every element of hy against the given work run by the judge on the same
 * hx, and nothing past hy[n-1]: 0, or 1 with why. */
static int ps_full_check(pspeed *s, char *why, size_t why_n)
{
    if (w16_work(s->ref_in, s->ref_out, PIPE_N, g_iters, jd_stream) != cudaSuccess ||
        cudaStreamSynchronize(jd_stream) != cudaSuccess ||
        cudaMemcpy(s->ref_h, s->ref_out, PIPE_N * 4, cudaMemcpyDeviceToHost) != cudaSuccess)
        return snprintf(why, why_n, "the judge's reference run failed"), 1;
    const float *hy = (const float *)s->hy.p;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < PIPE_N; i++)
        if (!wb_close(hy[i], s->ref_h[i], 0, 1e-6) && !bad++) first = i;
    if (bad)
        return snprintf(why, why_n, JD_TIMED_WRONG ": %zu of %zu elements of hy wrong, the first hy[%zu] expected %.9g "
                        "got %.9g (checked in full after the timing)", bad, PIPE_N, first, (double)s->ref_h[first],
                        (double)hy[first]), 1;
    if (wb_count_not_byte(hy + PIPE_N, HY_GUARD * 4, 0xFF))
        return snprintf(why, why_n, JD_TIMED_WRONG ": a timed run wrote past hy[n-1]"), 1;
    return 0;
}

/* Before a request: fresh inputs, and the look's positions found still
 * poisoned (nothing computed ahead of the request). 0, or -1 with why. */
static int ps_ready(pspeed *s, char *why, size_t why_n)
{
    if (ps_refill(s) != 0) return snprintf(why, why_n, "the judge's fill of hx failed"), -1;
    const uint32_t *bits = (const uint32_t *)s->hy.p;
    for (int j = 0; j < JD_SAMPLES; j++)
        if (bits[s->idx[j]] != 0xFFFFFFFFu) return snprintf(why, why_n, "hy was written before the request was sent"), -1;
    return 0;
}

/* What a look costs the judge by itself, timed on a finished output. */
static double ps_look_cost(pspeed *s)
{
    char   w[8];
    double t0 = jd_now_us();
    ps_look(s, w, sizeof w);
    return jd_now_us() - t0;
}

/* The protocol on s's buffers: one checked warm-up request, then W16_TIMED
 * timed ones, each checked in full. 0 and *ms (the median, a call), or -1 with why. */
static int ps_run(pspeed *s, double *ms, char *why, size_t why_n)
{
    jd_req rq;
    jd_rep rp;
    double t_us[W16_TIMED + 1], look_us = 0;
    const char *fn = s->yard ? "the given yard_serial" : "pipeline_run";
    pipe_request(&rq, s->yard ? W16_YARD_FN_SERIAL : W16_FN_PIPE, s->hx.id, s->hy.id, s->dx, s->dy, 0, PIPE_N,
                 PIPE_CHUNK, g_iters, PIPE_NS);
    s->salt = jd_mix(jd_seed ^ 0x16a5 ^ own_bits());
    for (int q = 0; q <= W16_TIMED; q++) {
        if (ps_ready(s, why, why_n) != 0) return -1;
        int rc = jd_timed_call(s->J, &rq, &rp, ps_look, s, look_us, &t_us[q]);
        if (rc == 1) return snprintf(why, why_n, "%s returned %s", fn, status_name(&rp)), -1;
        if (rc != 0) return snprintf(why, why_n, "%s", s->J->why), -1; /* lost, or the look's words */
        if (ps_full_check(s, why, why_n)) return -1;
        if (q == 0) look_us = ps_look_cost(s); /* the warm-up's time is not kept */
    }
    *ms = wb_median(t_us + 1, W16_TIMED) / 1e3; /* t_us[0], the warm-up, not kept */
    return 0;
}

/* The yard runner, judge-w16-yard-runner in this program's folder, started
 * as a plain child on this judge's GPU: 0, or -1 with why. */
static int start_yard(jd *Y, char *why, size_t why_n)
{
    char exe[PATH_MAX], path[PATH_MAX + 64];
    if (!realpath("/proc/self/exe", exe)) snprintf(exe, sizeof exe, "./judge-w16");
    snprintf(path, sizeof path, "%s/" W16_YARD_RUNNER, dirname(exe));
    char *argv[] = { path, NULL };
    if (jd_start_plain(Y, argv, NULL) == 0 && jd_hello(Y, JD_MEM_DEVICE, jd_dev) == 0) return 0;
    snprintf(why, why_n, "the yard runner (%s) did not start: %s", path, Y->why);
    jd_stop(Y);
    return -1;
}

/* SERIAL through the yard runner: ms a call, or NAN with why. */
static double serial_ms(char *why, size_t why_n)
{
    jd     Y;
    double ms = NAN;
    if (start_yard(&Y, why, why_n) != 0) return NAN;
    static pspeed s; /* large: its sample arrays */
    if (ps_alloc(&s, &Y, 1, why, why_n) != 0 || ps_run(&s, &ms, why, why_n) != 0) ms = NAN;
    ps_free(&s);
    jd_stop(&Y);
    return ms;
}

static double g_serial_before = NAN;
static char   g_serial_why[300];

/* Before the student's runner starts: the work's calibration, then SERIAL. */
static void serial_before(void)
{
    if (calibrate(g_serial_why, sizeof g_serial_why) == 0) g_serial_before = serial_ms(g_serial_why, sizeof g_serial_why);
}

static void judge_pipeline_speed(jd_ck *k)
{
    static pspeed s;
    double ms = NAN, value = NAN, yard = NAN;
    char why[600] = "", detail[200] = "";
    if (!g_iters) {
        snprintf(why, sizeof why, "no SERIAL figure: %s", g_serial_why);
        jd_speed_result(k->R, k->t, k->c, k->gpu, value, "Gelem/s", "SERIAL", yard, detail, why);
        return;
    }
    int rc = ps_alloc(&s, k->J, 0, why, sizeof why);
    if (rc == 1) { /* the driver would not register the judge's buffers: no fair figure here */
        ps_free(&s);
        k->t->tests = 1, k->t->skipped = 1;
        snprintf(k->t->msg, sizeof k->t->msg, "not timed: %s", why);
        return;
    }
    if (rc == 0 && ps_run(&s, &ms, why, sizeof why) == 0) {
        ps_free(&s);
        char ywhy[300] = "";
        double after = serial_ms(ywhy, sizeof ywhy);
        double yms = !(after > 0) ? g_serial_before : !(g_serial_before > 0) ? after : fmin(after, g_serial_before);
        value = PIPE_N / (ms * 1e-3) / 1e9;
        if (yms > 0) yard = PIPE_N / (yms * 1e-3) / 1e9;
        else snprintf(why, sizeof why, "no SERIAL figure: %s", ywhy[0] ? ywhy : g_serial_why);
        snprintf(detail, sizeof detail, "%.2f Gelem/s vs SERIAL %.2f Gelem/s (judge's clock, %d FMAs an element, "
                 "median of %d)", value, yard, g_iters, W16_TIMED);
        printf("  pipeline over %d streams: %.3f ms a call by the judge's clock, %s\n", PIPE_NS, ms, detail);
    } else {
        ps_free(&s);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "Gelem/s", "SERIAL", yard, detail, why);
}

/* ---------------------------------------------------------------- the week */

static const jd_checkpoint CPS[] = {
    { "w16.zerocopy", judge_zerocopy, NULL, 0, 0, NULL, 0, 0 },
    { "w16.slab", judge_slab_gpu, judge_slab, 1, 0, NULL, 0, 0 },
    { "w16.pipeline", judge_pipeline, NULL, 0, 0, NULL, 0, 0 },
    { "w16.pipeline-speed", judge_pipeline_speed, NULL, 0, 0, serial_before, 0, 0 },
};

int main(int argc, char **argv) { return jd_week_main(argc, argv, "judge-w16", "phase3/week16", CPS, N_OF(CPS)); }
