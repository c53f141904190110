/* test_week16.c — week 16's checkpoints: a memory pool against the driver's
 * own stream-ordered pool, pinned and pageable transfers, zero-copy, a slab allocator (CPU and
 * device), the chunked copy-compute-copy pipeline over streams, managed memory against device
 * memory, registered host memory against cudaMallocHost, and a buffer that grows in place on
 * the driver's virtual memory API against realloc-and-copy. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "pool.h"
#include "hostmem.h"
#include "slab.h"
#include "pipeline.h"
#include "managed.h"
#include "hostregister.h"
#include "growbuf.h"
#include "support/yard_mempool.h"
#include "support/yard_realloc.h"
#include "support/vmm.h"

/* Host arrays checked like wb_dverify_f32 checks device ones: the first and
 * last 64 elements and `samples` random ones against expect(i, ctx). */
static size_t verify_host_f32(const char *name, const float *h, size_t n, wb_expect_fn expect, const void *ctx,
                              size_t samples, double rtol, wb_cmp *out)
{
    size_t k = samples + 128 < n ? samples + 128 : n;
    float *got = wb_hmalloc((k ? k : 1) * sizeof *got);
    double *ref = wb_hmalloc((k ? k : 1) * sizeof *ref);
    size_t *idx = wb_hmalloc((k ? k : 1) * sizeof *idx);
    wb_rng rng = wb_rng_for(name, (int)(n & 0x7fffffff));
    for (size_t j = 0; j < k; j++) {
        if (k == n || j < 64) idx[j] = j;
        else if (j < 128) idx[j] = n - 128 + j;
        else idx[j] = (size_t)wb_rng_int(&rng, 0, (int64_t)n - 1);
        got[j] = h[idx[j]];
        ref[j] = expect(idx[j], ctx);
    }
    wb_compare_f32_f64(name, got, ref, k, 0, rtol, out);
    if (out->bad)
        snprintf(out->msg, sizeof out->msg, "%zu of %zu sampled elements wrong; first %s[%zu] expected %.9g got %.9g",
                 out->bad, k, name, idx[out->first_bad], ref[out->first_bad], (double)got[out->first_bad]);
    free(got), free(ref), free(idx);
    return out->bad;
}

/* An assertion for loops over many elements: Check records every passing
 * ck_assert (a message to the parent process each), this only a failure. */
#define EXPECT(cond, ...)                        \
    do {                                         \
        if (!(cond)) ck_abort_msg(__VA_ARGS__);  \
    } while (0)

typedef struct { void *dst; const void *src; size_t bytes; enum cudaMemcpyKind kind; } copy_ctx;

static void copy_work(void *p)
{
    copy_ctx *c = p;
    WB_CUDA(cudaMemcpyAsync(c->dst, c->src, c->bytes, c->kind, 0));
}

/* ---------------------------------------------------------------- pool */

/* Do any two of the n ranges [p, p + bytes) share a byte? */
static int find_overlap(void *const *p, const size_t *bytes, int n, int *a, int *b)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            uintptr_t x = (uintptr_t)p[i], y = (uintptr_t)p[j];
            if (x < y + bytes[j] && y < x + bytes[i]) {
                *a = i, *b = j;
                return 1;
            }
        }
    return 0;
}

/* Random sizes from 1 byte to 4 MiB, allocated on a stream, filled there
 * with a byte of their own and read back whole; then all freed, and after a
 * device synchronisation the pool must still hold the memory. */
START_TEST(pool_allocations)
{
    enum { K = 12 };
    wb_rng rng = WB_RNG();
    int dev = 0, supported = 0;
    WB_CUDA(cudaGetDevice(&dev));
    WB_CUDA(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, dev));
    ck_assert_msg(supported, "this device does not support stream-ordered memory pools");
    cudaMemPool_t pool = NULL;
    WB_CUDA(pool_create(dev, &pool));
    ck_assert_msg(pool != NULL, "pool_create returned cudaSuccess but no pool");
    cudaStream_t s;
    WB_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    void *p[K];
    size_t bytes[K], total = 0, largest = 0;
    for (int k = 0; k < K; k++) {
        bytes[k] = k < 3 ? (size_t)(2 * k + 1) : (size_t)wb_rng_int(&rng, 1, (k & 1) ? 4096 : (4 << 20));
        total += bytes[k];
        if (bytes[k] > largest) largest = bytes[k];
        p[k] = NULL;
        WB_CUDA(pool_alloc(pool, &p[k], bytes[k], s));
        ck_assert_msg(p[k] != NULL, "pool_alloc of %zu bytes returned cudaSuccess but no memory", bytes[k]);
        ck_assert_msg(((uintptr_t)p[k] & 15) == 0, "pool_alloc of %zu bytes gave %p: not 16-byte aligned", bytes[k],
                      p[k]);
    }
    int a = 0, b = 0;
    if (find_overlap(p, bytes, K, &a, &b))
        ck_abort_msg("allocations %d (%p, %zu bytes) and %d (%p, %zu bytes) overlap", a, p[a], bytes[a], b, p[b],
                     bytes[b]);
    for (int k = 0; k < K; k++) WB_CUDA(cudaMemsetAsync(p[k], 0x11 + k, bytes[k], s));
    unsigned char *h = wb_hmalloc(largest);
    for (int k = 0; k < K; k++) {
        WB_CUDA(cudaMemcpyAsync(h, p[k], bytes[k], cudaMemcpyDeviceToHost, s));
        WB_CUDA(cudaStreamSynchronize(s));
        size_t bad = wb_count_not_byte(h, bytes[k], (unsigned char)(0x11 + k));
        ck_assert_msg(bad == 0, "allocation %d (%zu bytes): %zu bytes did not hold what was written to them", k,
                      bytes[k], bad);
    }
    for (int k = 0; k < K; k++) WB_CUDA(pool_free(p[k], s));
    WB_CUDA(cudaStreamSynchronize(s));
    WB_CUDA(cudaDeviceSynchronize());
    uint64_t reserved = 0, used = 0, threshold = 0;
    WB_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
    WB_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    WB_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    ck_assert_msg(used == 0, "%llu bytes of the pool still in use after every allocation was freed (pool_free)",
                  (unsigned long long)used);
    ck_assert_msg(reserved >= total,
                  "after a synchronisation the pool holds %llu bytes, less than the %zu allocated: it gave its memory "
                  "back (release threshold %llu; set it to UINT64_MAX)",
                  (unsigned long long)reserved, total, (unsigned long long)threshold);
    WB_CUDA(cudaStreamDestroy(s));
    WB_CUDA(pool_destroy(pool));
    free(h);
}
END_TEST

/* The benchmark's allocation pattern: rounds of 8 allocations of mixed sizes
 * (64 KiB to 16 MiB, about 32 MiB live at most), then their 8 frees. */
static const size_t ALLOC_SIZES[] = { 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 10, 2 << 20, 8 << 20, 512 << 10 };
enum { AROUNDS = 32, ABATCH = (int)WB_COUNT(ALLOC_SIZES) };

/* Who allocates: cudaMalloc, your pool, the device's default pool with a
 * synchronisation after each round (threshold 0: it gives its memory back
 * every time), your pool likewise, and the MEMPOOL yardstick (the default
 * pool with its memory kept). */
enum { A_CUDAMALLOC, A_POOL, A_DEFAULT_SYNC, A_POOL_SYNC, A_MEMPOOL };

typedef struct {
    cudaMemPool_t pool;
    int           mode;
    void         *p[AROUNDS][ABATCH];
} alloc_ctx;

static void alloc_one(alloc_ctx *c, void **p, size_t bytes)
{
    *p = NULL;
    if (c->mode == A_CUDAMALLOC) WB_CUDA(cudaMalloc(p, bytes));
    else if (c->mode == A_DEFAULT_SYNC) WB_CUDA(cudaMallocAsync(p, bytes, 0));
    else if (c->mode == A_MEMPOOL) WB_CUDA(yard_mempool_alloc(p, bytes, 0));
    else WB_CUDA(pool_alloc(c->pool, p, bytes, 0));
}

static void free_one(alloc_ctx *c, void *p)
{
    if (c->mode == A_CUDAMALLOC) WB_CUDA(cudaFree(p));
    else if (c->mode == A_DEFAULT_SYNC) WB_CUDA(cudaFreeAsync(p, 0));
    else if (c->mode == A_MEMPOOL) WB_CUDA(yard_mempool_free(p, 0));
    else WB_CUDA(pool_free(p, 0));
}

static void alloc_work(void *v)
{
    alloc_ctx *c = v;
    for (int r = 0; r < AROUNDS; r++) {
        for (int b = 0; b < ABATCH; b++) alloc_one(c, &c->p[r][b], ALLOC_SIZES[b]);
        for (int b = 0; b < ABATCH; b++)
            if (c->p[r][b]) free_one(c, c->p[r][b]);
        if (c->mode == A_DEFAULT_SYNC || c->mode == A_POOL_SYNC) WB_CUDA(cudaStreamSynchronize(0));
    }
}

/* What the timed runs handed out: every pointer set, 16-byte aligned, the 8
 * of one round disjoint. Then one more round is written (a byte of its own
 * each, whole) and its first and last bytes read back. 0, or 1 and why. */
static int check_allocs(alloc_ctx *c, char *why, size_t whysz)
{
    size_t bytes[ABATCH];
    for (int b = 0; b < ABATCH; b++) bytes[b] = ALLOC_SIZES[b];
    for (int r = 0; r < AROUNDS; r++) {
        for (int b = 0; b < ABATCH; b++)
            if (!c->p[r][b] || ((uintptr_t)c->p[r][b] & 15)) {
                snprintf(why, whysz, "round %d, allocation %d of %zu bytes: %p (NULL or not 16-byte aligned)", r, b,
                         bytes[b], c->p[r][b]);
                return 1;
            }
        int x = 0, y = 0;
        if (find_overlap(c->p[r], bytes, ABATCH, &x, &y)) {
            snprintf(why, whysz, "round %d: allocations %d and %d overlap", r, x, y);
            return 1;
        }
    }
    void *q[ABATCH];
    for (int b = 0; b < ABATCH; b++) {
        alloc_one(c, &q[b], bytes[b]);
        if (!q[b]) {
            snprintf(why, whysz, "allocation of %zu bytes gave NULL", bytes[b]);
            return 1;
        }
        WB_CUDA(cudaMemsetAsync(q[b], 0x21 + b, bytes[b], 0));
    }
    int bad = 0;
    for (int b = 0; b < ABATCH && !bad; b++) {
        unsigned char ends[2] = { 0, 0 };
        WB_CUDA(cudaMemcpy(&ends[0], q[b], 1, cudaMemcpyDeviceToHost));
        WB_CUDA(cudaMemcpy(&ends[1], (unsigned char *)q[b] + bytes[b] - 1, 1, cudaMemcpyDeviceToHost));
        if (ends[0] != 0x21 + b || ends[1] != 0x21 + b) {
            snprintf(why, whysz, "allocation %d (%zu bytes) did not keep what was written to it: overlap?", b,
                     bytes[b]);
            bad = 1;
        }
    }
    for (int b = 0; b < ABATCH; b++) free_one(c, q[b]);
    WB_CUDA(cudaDeviceSynchronize());
    return bad;
}

static void alloc_row(alloc_ctx *c, wb_bench_row *r)
{
    wb_bench_opts o = { 2, 15, 0 };
    wb_time(alloc_work, c, &o, &r->t);
    r->value = AROUNDS * ABATCH / r->t.median; /* pairs a millisecond */
}

/* Allocate+free pairs a millisecond from your pool against the driver's own
 * stream-ordered allocator with its memory kept (MEMPOOL: cudaMallocAsync on
 * the default pool, release threshold UINT64_MAX, warmed by wb_time's
 * warm-up runs), same sizes, same order, same run. cudaMalloc+cudaFree is a
 * report row: what a program without a pool pays. Two more rows show what
 * the release threshold is for: with a synchronisation after every round,
 * the default pool at threshold 0 returns its memory each time and pays the
 * driver again; yours keeps it. */
static double bench_pool(wb_headline *h)
{
    int dev = 0;
    WB_CUDA(cudaGetDevice(&dev));
    alloc_ctx *c = calloc(1, sizeof *c);
    char why[200];
    wb_bench_row m = { .exercise = "alloc", .variant = "cudaMalloc+cudaFree", .n = AROUNDS * ABATCH,
                       .unit = "pairs/ms" };
    c->mode = A_CUDAMALLOC;
    alloc_row(c, &m);
    if (check_allocs(c, why, sizeof why)) wb_bench_invalid(&m, why);
    wb_bench_emit(&m);

    wb_bench_row r = { .exercise = "alloc", .variant = "yours: pool, threshold kept", .n = AROUNDS * ABATCH,
                       .unit = "pairs/ms", .yard_name = "MEMPOOL" };
    WB_CUDA(pool_create(dev, &c->pool));
    if (!c->pool) {
        wb_bench_invalid(&r, "pool_create gave no pool");
    } else {
        wb_bench_row d = { .exercise = "alloc", .variant = "default pool, sync each round", .n = AROUNDS * ABATCH,
                           .unit = "pairs/ms", .yard_name = "CUDAMALLOC", .yard = m.value };
        c->mode = A_DEFAULT_SYNC;
        alloc_row(c, &d);
        if (check_allocs(c, why, sizeof why)) wb_bench_invalid(&d, why);
        wb_bench_emit(&d);
        wb_bench_row k = { .exercise = "alloc", .variant = "your pool, sync each round", .n = AROUNDS * ABATCH,
                           .unit = "pairs/ms", .yard_name = "CUDAMALLOC", .yard = m.value };
        c->mode = A_POOL_SYNC;
        alloc_row(c, &k);
        if (check_allocs(c, why, sizeof why)) wb_bench_invalid(&k, why);
        wb_bench_emit(&k);

        /* The yardstick, then yours straight after it. */
        wb_bench_row y = { .exercise = "alloc", .variant = "MEMPOOL: cudaMallocAsync, threshold kept",
                           .n = AROUNDS * ABATCH, .unit = "pairs/ms", .yard_name = "CUDAMALLOC", .yard = m.value };
        yard_mempool ym;
        WB_CUDA(yard_mempool_open(dev, &ym));
        c->mode = A_MEMPOOL;
        alloc_row(c, &y);
        if (check_allocs(c, why, sizeof why)) wb_bench_invalid(&y, why);
        WB_CUDA(yard_mempool_close(&ym));
        wb_bench_emit(&y);
        r.yard = y.value;
        if (y.invalid) wb_bench_invalid(&r, "the MEMPOOL yardstick gave wrong allocations");

        c->mode = A_POOL;
        alloc_row(c, &r);
        if (!r.invalid && check_allocs(c, why, sizeof why)) wb_bench_invalid(&r, why);
        if (!r.invalid)
            printf("  cudaMalloc+cudaFree %.2f us a pair, MEMPOOL %.3f us, your pool %.3f us (%.1fx cudaMalloc)\n",
                   1e3 / m.value, 1e3 / y.value, 1e3 / r.value, r.value / m.value);
    }
    double ratio = wb_bench_headline(&r, h);
    if (c->pool) WB_CUDA(pool_destroy(c->pool));
    free(c);
    return ratio;
}

/* ---------------------------------------------------------------- pinned host memory */

static const size_t PIN_SIZES[] = { 1, 4096, 1000003, 64 << 20 };

START_TEST(pinned_alloc)
{
    size_t bytes = PIN_SIZES[_i % WB_COUNT(PIN_SIZES)];
    int mapped = (int)(_i / WB_COUNT(PIN_SIZES));
    wb_rng rng = WB_RNG();
    void *p = NULL;
    WB_CUDA(hm_alloc_pinned(&p, bytes, mapped));
    ck_assert_msg(p != NULL, "hm_alloc_pinned(%zu bytes, mapped %d) returned cudaSuccess but no memory", bytes, mapped);
    struct cudaPointerAttributes at;
    WB_CUDA(cudaPointerGetAttributes(&at, p));
    ck_assert_msg(at.type == cudaMemoryTypeHost,
                  "%zu bytes from hm_alloc_pinned are not page-locked host memory (cudaPointerGetAttributes type %d; "
                  "malloc'd memory is %d)", bytes, (int)at.type, (int)cudaMemoryTypeUnregistered);
    /* a round trip through the device */
    unsigned char *src = wb_hmalloc(bytes), *d = wb_dmalloc(bytes);
    for (size_t j = 0; j < bytes; j++) src[j] = (unsigned char)wb_rng_u64(&rng);
    memcpy(p, src, bytes);
    WB_CUDA(cudaMemcpyAsync(d, p, bytes, cudaMemcpyHostToDevice, 0));
    WB_CUDA(cudaStreamSynchronize(0));
    memset(p, 0, bytes);
    WB_CUDA(cudaMemcpyAsync(p, d, bytes, cudaMemcpyDeviceToHost, 0));
    WB_CUDA(cudaStreamSynchronize(0));
    ck_assert_msg(memcmp(p, src, bytes) == 0, "%zu bytes: a copy to the device and back changed them", bytes);
    if (mapped) {
        void *dp = NULL;
        WB_CUDA(hm_device_ptr(&dp, p));
        ck_assert_msg(dp != NULL, "hm_device_ptr gave no device address for mapped memory");
        /* the device address reads the same host bytes */
        WB_CUDA(cudaMemset(d, 0, bytes));
        WB_CUDA(cudaMemcpy(d, dp, bytes, cudaMemcpyDefault));
        memset(src, 0xEE, bytes);
        WB_CUDA(cudaMemcpy(src, d, bytes, cudaMemcpyDeviceToHost));
        ck_assert_msg(memcmp(p, src, bytes) == 0, "%zu bytes read through the device address differ from the host's",
                      bytes);
    }
    void *z = (void *)1;
    WB_CUDA(hm_alloc_pinned(&z, 0, mapped));
    ck_assert_msg(z == NULL, "hm_alloc_pinned of 0 bytes must give NULL");
    WB_CUDA(hm_free_pinned(p));
    wb_dfree(d);
    free(src);
}
END_TEST

enum { SEED_T = 161, SEED_Z = 162, SEED_P = 163 };

static double hash_expect(size_t i, const void *ctx)
{
    return (double)wb_hash_uniform_f32(*(const unsigned long long *)ctx, i, -1, 1);
}

/* One timed copy of a whole buffer; the destination is then checked. */
static void transfer_row(wb_bench_row *r, void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    static const unsigned long long seed = SEED_T;
    copy_ctx c = { dst, src, bytes, kind };
    wb_bench_opts o = { 2, 10, 0 };
    size_t n = bytes / 4;
    if (kind == cudaMemcpyHostToDevice) wb_dpoison(dst, bytes);
    else memset(dst, 0xFF, bytes);
    wb_time(copy_work, &c, &o, &r->t);
    r->value = bytes / (r->t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    size_t bad = kind == cudaMemcpyHostToDevice ? wb_dverify_f32("dst", dst, n, hash_expect, &seed, 4096, 0, 0, &cmp)
                                                : verify_host_f32("dst", dst, n, hash_expect, &seed, 4096, 0, &cmp);
    if (bad) wb_bench_invalid(r, cmp.msg);
}

/* H2D and D2H of 256 MiB, from and to pinned memory (yours) and pageable
 * memory (malloc), each copy's destination verified. The pinned rows carry
 * the pageable figure as their yardstick, so their ratio is the gain. */
static void measure_transfers(char *fig, size_t figsz)
{
    size_t bytes = (size_t)256 << 20, n = bytes / 4;
    float *pin = NULL;
    WB_CUDA(hm_alloc_pinned((void **)&pin, bytes, 0));
    ck_assert_msg(pin != NULL, "hm_alloc_pinned returned cudaSuccess but no memory");
    struct cudaPointerAttributes at;
    WB_CUDA(cudaPointerGetAttributes(&at, pin));
    ck_assert_msg(at.type == cudaMemoryTypeHost, "hm_alloc_pinned's memory is not page-locked");
    float *page = wb_hmalloc(bytes), *d = wb_dmalloc(bytes), *d2 = wb_dmalloc(bytes);
    memset(page, 0, bytes); /* touch every page first */
    wb_dfill_uniform_f32(d, n, SEED_T, -1, 1);
    wb_sync();
    wb_bench_row dp = { .exercise = "transfer", .variant = "D2H pageable", .n = n, .bytes = (double)bytes, .unit = "GB/s" };
    wb_bench_row dq = { .exercise = "transfer", .variant = "D2H pinned", .n = n, .bytes = (double)bytes, .unit = "GB/s",
                        .yard_name = "PAGEABLE" };
    wb_bench_row hp = { .exercise = "transfer", .variant = "H2D pageable", .n = n, .bytes = (double)bytes, .unit = "GB/s" };
    wb_bench_row hq = { .exercise = "transfer", .variant = "H2D pinned", .n = n, .bytes = (double)bytes, .unit = "GB/s",
                        .yard_name = "PAGEABLE" };
    transfer_row(&dp, page, d, bytes, cudaMemcpyDeviceToHost);
    transfer_row(&dq, pin, d, bytes, cudaMemcpyDeviceToHost);
    transfer_row(&hp, d2, page, bytes, cudaMemcpyHostToDevice);
    transfer_row(&hq, d2, pin, bytes, cudaMemcpyHostToDevice);
    dq.yard = dp.value, hq.yard = hp.value;
    wb_bench_emit(&hp), wb_bench_emit(&hq), wb_bench_emit(&dp), wb_bench_emit(&dq);
    int bad = hp.invalid || hq.invalid || dp.invalid || dq.invalid;
    snprintf(fig, figsz, "H2D %.1f GB/s pinned, %.1f pageable (%.2fx); D2H %.1f pinned, %.1f pageable (%.2fx); 256 MiB",
             hq.value, hp.value, hq.value / hp.value, dq.value, dp.value, dq.value / dp.value);
    WB_CUDA(hm_free_pinned(pin));
    free(page), wb_dfree(d), wb_dfree(d2);
    ck_assert_msg(!bad, "a timed copy delivered wrong data (rows above)");
}

START_TEST(transfer_report)
{
    char fig[200];
    measure_transfers(fig, sizeof fig);
    printf("  %s\n", fig);
    wb_report(fig);
}
END_TEST

static double bench_transfers(void)
{
    char fig[200];
    measure_transfers(fig, sizeof fig);
    return NAN;
}

/* ---------------------------------------------------------------- zero-copy */

static const size_t SIZES[] = { 0, 1, 3, 4, 31, 255, 257, 1023, 4099, 65537, 1000003, (size_t)1 << 22 };

/* Mapped host memory made by the test itself (cudaHostAlloc, mapped), so
 * that hm_zc_scale is checked even before hm_alloc_pinned works. */
START_TEST(zerocopy_sizes)
{
    wb_rng rng = WB_RNG();
    /* offsets vary with _i; the largest size runs aligned (the float4 path) */
    size_t n = SIZES[_i], ox = _i == (int)WB_COUNT(SIZES) - 1 ? 0 : (size_t)(_i % 4), oy = (size_t)((_i >> 2) & 1);
    float a = (float)(wb_rng_unit(&rng) * 4 - 2);
    float *hx = NULL, *dx = NULL, *ref = wb_hmalloc(n * 4);
    WB_CUDA(cudaHostAlloc((void **)&hx, (n + ox) * 4 + 4, cudaHostAllocMapped));
    WB_CUDA(cudaHostGetDevicePointer((void **)&dx, hx, 0));
    wb_fill_uniform_f32(&rng, hx, n + ox, -100, 100);
    if (n >= 3) hx[ox] = NAN, hx[ox + 1] = INFINITY, hx[ox + n - 1] = -INFINITY;
    for (size_t i = 0; i < n; i++) ref[i] = a * hx[ox + i];
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    WB_CUDA(hm_zc_scale(dx + ox, dy, n, a, 0));
    char what[96];
    snprintf(what, sizeof what, "n=%zu, x+%zu y+%zu (x mapped host memory)", n, ox, oy);
    wb_expect_dout_f32(&y, ref, n, 0, 1e-7, what);
    wb_dout_free(&y);
    WB_CUDA(cudaFreeHost(hx));
    free(ref);
}
END_TEST

typedef struct { const float *x; float *y; size_t n; } zc_ctx;
static const float ZA = 1.5f;

static void zc_work(void *p)
{
    zc_ctx *c = p;
    WB_CUDA(hm_zc_scale(c->x, c->y, c->n, ZA, 0));
}

static double zc_expect(size_t i, const void *ctx)
{
    (void)ctx;
    return (double)(ZA * wb_hash_uniform_f32(SEED_Z, i, -1, 1));
}

/* Your zero-copy kernel reading 256 MiB of mapped host memory, as GB/s
 * read over the link, against a pinned cudaMemcpy H2D of the same buffer. */
static void measure_zerocopy(char *fig, size_t figsz)
{
    size_t bytes = (size_t)256 << 20, n = bytes / 4;
    float *hx = NULL, *dx = NULL, *tmp = wb_dmalloc(bytes), *dy = wb_dmalloc(bytes);
    WB_CUDA(cudaHostAlloc((void **)&hx, bytes, cudaHostAllocMapped));
    WB_CUDA(cudaHostGetDevicePointer((void **)&dx, hx, 0));
    wb_dfill_uniform_f32(tmp, n, SEED_Z, -1, 1);
    WB_CUDA(cudaMemcpy(hx, tmp, bytes, cudaMemcpyDeviceToHost));
    copy_ctx c = { tmp, hx, bytes, cudaMemcpyHostToDevice };
    wb_bench_opts o = { 2, 10, 0 };
    wb_bench_row y = { .exercise = "zerocopy", .variant = "pinned cudaMemcpy H2D", .n = n, .bytes = (double)bytes,
                       .unit = "GB/s" };
    wb_time(copy_work, &c, &o, &y.t);
    y.value = bytes / (y.t.median * 1e-3) / 1e9;
    wb_bench_emit(&y);
    zc_ctx z = { dx, dy, n };
    wb_bench_row r = { .exercise = "zerocopy", .variant = "yours: kernel reads host", .n = n, .bytes = (double)bytes,
                       .flops = (double)n, .unit = "GB/s", .yard_name = "PINNED_H2D", .yard = y.value };
    wb_dpoison(dy, bytes);
    wb_time(zc_work, &z, &o, &r.t);
    r.value = bytes / (r.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("y", dy, n, zc_expect, NULL, 1 << 14, 0, 1e-7, &cmp)) wb_bench_invalid(&r, cmp.msg);
    wb_bench_emit(&r);
    snprintf(fig, figsz, "zero-copy kernel reads host memory at %.1f GB/s, %.2f of a pinned cudaMemcpy H2D (%.1f GB/s)",
             r.value, r.value / y.value, y.value);
    WB_CUDA(cudaFreeHost(hx));
    wb_dfree(tmp), wb_dfree(dy);
    ck_assert_msg(!r.invalid, "zero-copy: %s", r.why);
}

START_TEST(zerocopy_report)
{
    char fig[200];
    measure_zerocopy(fig, sizeof fig);
    printf("  %s\n", fig);
    wb_report(fig);
}
END_TEST

static double bench_zerocopy(void)
{
    char fig[200];
    measure_zerocopy(fig, sizeof fig);
    return NAN;
}

/* ---------------------------------------------------------------- slab (CPU) */

/* The layout slab_init must produce, computed here independently. */
static size_t slab_expect(uintptr_t base, size_t bytes, size_t block, size_t align, uintptr_t *first, size_t *stride)
{
    *stride = (block + align - 1) / align * align;
    *first = (base + align - 1) / align * align;
    size_t lost = (size_t)(*first - base);
    return lost >= bytes ? 0 : (bytes - lost) / *stride;
}

/* A host buffer stands in for the device range (4096-aligned, so `mis`
 * bytes in gives a known misalignment). It is filled with 0xA5 and must
 * stay so: the slab never touches its blocks. */
typedef struct { unsigned char *buf; size_t len; } fake_range;

static unsigned char *fake_alloc(fake_range *f, size_t bytes, size_t mis)
{
    f->len = bytes + mis + 64;
    f->buf = aligned_alloc(4096, (f->len + 4095) / 4096 * 4096);
    EXPECT(f->buf != NULL, "out of host memory");
    memset(f->buf, 0xA5, f->len);
    return f->buf + mis;
}

static void fake_check(fake_range *f, const char *what)
{
    size_t touched = wb_count_not_byte(f->buf, f->len, 0xA5);
    free(f->buf);
    EXPECT(touched == 0, "%s: %zu bytes of the range changed: the slab wrote into its blocks (device memory: "
                                "keep the bookkeeping in host arrays)", what, touched);
}

typedef struct { size_t block, align, bytes, mis, blocks; } slab_case;

/* Known layouts: blocks counted by hand. */
static const slab_case SLAB_KNOWN[] = {
    { 1, 1, 100, 0, 100 },          { 3, 4, 100, 1, 24 },    /* base +1 -> +4, stride 4: 96 / 4 */
    { 100, 64, 1000, 0, 7 },        /* stride 128 */         { 256, 256, 255, 0, 0 },
    { 64, 256, 4096, 17, 15 },      /* 239 bytes lost, 3857 / 256 */
    { 4096, 4096, 1 << 20, 5, 255 }, { 8, 8, 0, 0, 0 },      { 5, 1, 23, 3, 4 },
    { 24, 8, 200, 7, 8 },           /* +7 -> +8: 192 / 24 */ { 1000, 512, 3000, 0, 2 },
};

static void slab_fill_and_drain(wb_rng *rng, const slab_case *c, int check_count)
{
    fake_range f;
    unsigned char *base = fake_alloc(&f, c->bytes, c->mis);
    uintptr_t first;
    size_t stride, want = slab_expect((uintptr_t)base, c->bytes, c->block, c->align, &first, &stride);
    char what[160];
    snprintf(what, sizeof what, "block %zu, align %zu, %zu bytes at base+%zu", c->block, c->align, c->bytes, c->mis);
    if (check_count)
        EXPECT(want == c->blocks, "%s: test table says %zu blocks, formula %zu (test bug)", what, c->blocks, want);
    slab s;
    EXPECT(slab_init(&s, base, c->bytes, c->block, c->align) == cudaSuccess, "%s: slab_init failed", what);
    EXPECT(slab_capacity(&s) == want, "%s: capacity %zu, expected %zu", what, slab_capacity(&s), want);
    unsigned char *live = calloc(want ? want : 1, 1);
    void **got = calloc(want ? want : 1, sizeof *got);
    for (size_t k = 0; k < want; k++) {
        void *p = slab_alloc(&s);
        EXPECT(p != NULL, "%s: allocation %zu of %zu gave NULL", what, k + 1, want);
        uintptr_t a = (uintptr_t)p;
        EXPECT(a % c->align == 0, "%s: block %p not aligned to %zu", what, p, c->align);
        EXPECT(a >= first && (a - first) % stride == 0, "%s: %p is not first + i * stride (first %p, stride %zu)",
                      what, p, (void *)first, stride);
        size_t i = (a - first) / stride;
        EXPECT(i < want && a + c->block <= (uintptr_t)base + c->bytes, "%s: block %p ends past the range", what, p);
        EXPECT(!live[i], "%s: block %zu handed out twice", what, i);
        live[i] = 1, got[k] = p;
        EXPECT(slab_in_use(&s) == k + 1, "%s: in use %zu after %zu allocations", what, slab_in_use(&s), k + 1);
    }
    EXPECT(slab_alloc(&s) == NULL, "%s: an allocation past the capacity (%zu) must give NULL", what, want);
    for (size_t k = want; k > 1; k--) { /* free in a random order */
        size_t j = (size_t)wb_rng_int(rng, 0, (int64_t)k - 1);
        void *t = got[j];
        got[j] = got[k - 1], got[k - 1] = t;
    }
    for (size_t k = 0; k < want; k++) {
        EXPECT(slab_free(&s, got[k]) == 0, "%s: freeing block %p that is in use was refused", what, got[k]);
        EXPECT(slab_free(&s, got[k]) == -1, "%s: freeing block %p twice was accepted", what, got[k]);
    }
    EXPECT(slab_in_use(&s) == 0, "%s: in use %zu after every block was freed", what, slab_in_use(&s));
    if (want) {
        void *p = slab_alloc(&s);
        EXPECT(p != NULL, "%s: no block after every block was freed", what);
        EXPECT(slab_free(&s, p) == 0, "%s: freeing %p was refused", what, p);
    }
    slab_destroy(&s);
    EXPECT(s.free_list == NULL && s.used == NULL && s.nblocks == 0, "%s: slab_destroy must leave *s all zero", what);
    free(live), free(got);
    fake_check(&f, what);
}

START_TEST(slab_known)
{
    wb_rng rng = WB_RNG();
    slab_fill_and_drain(&rng, &SLAB_KNOWN[_i], 1);
}
END_TEST

/* Random layouts and 4000 random operations against a model: allocations,
 * frees of live blocks, and frees that must be refused (NULL, inside a
 * block, a free block, before the first block, past the last). */
START_TEST(slab_random)
{
    wb_rng rng = WB_RNG();
    slab_case c = { (size_t)wb_rng_int(&rng, 1, 3000), (size_t)1 << wb_rng_int(&rng, 0, 12),
                    (size_t)wb_rng_int(&rng, 0, 200000), (size_t)wb_rng_int(&rng, 0, 4095), 0 };
    slab_fill_and_drain(&rng, &c, 0);
    fake_range f;
    unsigned char *base = fake_alloc(&f, c.bytes, c.mis);
    uintptr_t first;
    size_t stride, cap = slab_expect((uintptr_t)base, c.bytes, c.block, c.align, &first, &stride);
    char what[160];
    snprintf(what, sizeof what, "block %zu, align %zu, %zu bytes at base+%zu (%zu blocks)", c.block, c.align, c.bytes,
             c.mis, cap);
    slab s;
    EXPECT(slab_init(&s, base, c.bytes, c.block, c.align) == cudaSuccess, "%s: slab_init failed", what);
    unsigned char *live = calloc(cap ? cap : 1, 1);
    size_t *ids = calloc(cap ? cap : 1, sizeof *ids), nlive = 0; /* the live indices, unordered */
    for (int op = 0; op < 4000; op++) {
        int r = (int)wb_rng_int(&rng, 0, 99);
        if (r < 50) {
            void *p = slab_alloc(&s);
            if (nlive == cap) {
                EXPECT(p == NULL, "%s, op %d: all %zu blocks in use, yet slab_alloc gave %p", what, op, cap, p);
                continue;
            }
            EXPECT(p != NULL, "%s, op %d: slab_alloc gave NULL with %zu of %zu blocks in use", what, op, nlive, cap);
            uintptr_t a = (uintptr_t)p;
            EXPECT(a >= first && (a - first) % stride == 0 && (a - first) / stride < cap,
                          "%s, op %d: %p is not a block of the slab", what, op, p);
            size_t i = (a - first) / stride;
            EXPECT(!live[i], "%s, op %d: block %zu handed out while in use", what, op, i);
            live[i] = 1, ids[nlive++] = i;
        } else if (r < 85) {
            if (!nlive) continue;
            size_t j = (size_t)wb_rng_int(&rng, 0, (int64_t)nlive - 1), i = ids[j];
            EXPECT(slab_free(&s, (void *)(first + i * stride)) == 0, "%s, op %d: freeing block %zu refused", what,
                          op, i);
            live[i] = 0, ids[j] = ids[--nlive];
        } else {
            uintptr_t bad;
            const char *kind_s;
            int kind = (int)wb_rng_int(&rng, 0, 4);
            if (kind == 0) bad = 0, kind_s = "NULL";
            else if (kind == 1 && nlive && stride > 1)
                bad = first + ids[0] * stride + (size_t)wb_rng_int(&rng, 1, (int64_t)stride - 1), kind_s = "inside a block or its padding";
            else if (kind == 2 && nlive < cap) {
                size_t i = (size_t)wb_rng_int(&rng, 0, (int64_t)cap - 1);
                while (live[i]) i = (i + 1) % cap;
                bad = first + i * stride, kind_s = "a free block";
            } else if (kind == 3) bad = first - (size_t)wb_rng_int(&rng, 1, 64), kind_s = "before the first block";
            else bad = first + cap * stride + (size_t)wb_rng_int(&rng, 0, 1) * stride, kind_s = "past the last block";
            EXPECT(slab_free(&s, (void *)bad) == -1, "%s, op %d: slab_free(%p) must be refused (%s)", what, op,
                          (void *)bad, kind_s);
        }
        EXPECT(slab_in_use(&s) == nlive, "%s, op %d: in use %zu, expected %zu", what, op, slab_in_use(&s), nlive);
    }
    slab_destroy(&s);
    free(live), free(ids);
    fake_check(&f, what);
}
END_TEST

START_TEST(slab_bad_args)
{
    fake_range f;
    unsigned char *base = fake_alloc(&f, 4096, 0);
    slab s;
    struct { void *base; size_t block, align; const char *what; } bad[] = {
        { NULL, 16, 16, "base NULL" },      { base, 0, 16, "block_bytes 0" }, { base, 16, 0, "align 0" },
        { base, 16, 3, "align 3" },         { base, 16, 24, "align 24" },     { base, 16, 4097, "align 4097" },
    };
    for (size_t k = 0; k < WB_COUNT(bad); k++) {
        memset(&s, 0x5A, sizeof s);
        cudaError_t e = slab_init(&s, bad[k].base, 4096, bad[k].block, bad[k].align);
        EXPECT(e == cudaErrorInvalidValue, "slab_init with %s must return cudaErrorInvalidValue (%d), got %d",
                      bad[k].what, (int)cudaErrorInvalidValue, (int)e);
        EXPECT(s.free_list == NULL && s.used == NULL && s.nblocks == 0 && s.owned == NULL,
                      "slab_init with %s: *s must be left all zero", bad[k].what);
        slab_destroy(&s);
    }
    fake_check(&f, "bad arguments");
}
END_TEST

/* ---------------------------------------------------------------- slab (device) */

static unsigned char pattern(size_t i, size_t j)
{
    uint32_t x = (uint32_t)i * 0x9E3779B1u ^ (uint32_t)j * 0x85EBCA77u ^ (uint32_t)(i >> 32);
    x ^= x >> 15, x *= 0x2C1B3C6Du, x ^= x >> 12;
    return (unsigned char)x;
}

static const slab_case SLAB_DEV[] = {
    { 1000, 256, 0, 0, 300 }, { 4096, 4096, 0, 0, 64 }, { 3, 1, 0, 0, 1000 }, { 77, 64, 0, 0, 500 },
};

START_TEST(slab_device)
{
    const slab_case *c = &SLAB_DEV[_i];
    wb_rng rng = WB_RNG();
    char what[96];
    snprintf(what, sizeof what, "slab_create(block %zu, %zu blocks, align %zu)", c->block, c->blocks, c->align);
    slab s;
    WB_CUDA(slab_create(&s, c->block, c->blocks, c->align));
    EXPECT(slab_capacity(&s) == c->blocks, "%s: capacity %zu", what, slab_capacity(&s));
    void **p = calloc(c->blocks, sizeof *p);
    unsigned char *h = wb_hmalloc(c->block), *g = wb_hmalloc(c->block);
    for (size_t i = 0; i < c->blocks; i++) {
        p[i] = slab_alloc(&s);
        EXPECT(p[i] != NULL, "%s: allocation %zu gave NULL", what, i);
        EXPECT((uintptr_t)p[i] % c->align == 0, "%s: block %p not aligned to %zu", what, p[i], c->align);
    }
    EXPECT(slab_alloc(&s) == NULL, "%s: one allocation past the capacity must give NULL", what);
    struct cudaPointerAttributes at;
    WB_CUDA(cudaPointerGetAttributes(&at, p[0]));
    EXPECT(at.type == cudaMemoryTypeDevice, "%s: block 0 is not device memory (type %d)", what, (int)at.type);
    /* each block written whole with a pattern of its own, then all read
     * back: a block overlapping another, or outside the allocation, shows */
    for (size_t i = 0; i < c->blocks; i++) {
        for (size_t j = 0; j < c->block; j++) h[j] = pattern(i, j);
        WB_CUDA(cudaMemcpy(p[i], h, c->block, cudaMemcpyHostToDevice));
    }
    for (size_t i = 0; i < c->blocks; i++) {
        WB_CUDA(cudaMemcpy(g, p[i], c->block, cudaMemcpyDeviceToHost));
        size_t bad = 0;
        for (size_t j = 0; j < c->block; j++) bad += g[j] != pattern(i, j);
        EXPECT(bad == 0, "%s: block %zu (%p) lost %zu of its %zu bytes to another block", what, i, p[i], bad,
                      c->block);
    }
    for (size_t k = c->blocks; k > 1; k--) {
        size_t j = (size_t)wb_rng_int(&rng, 0, (int64_t)k - 1);
        void *t = p[j];
        p[j] = p[k - 1], p[k - 1] = t;
    }
    for (size_t i = 0; i < c->blocks; i++) EXPECT(slab_free(&s, p[i]) == 0, "%s: freeing %p refused", what, p[i]);
    EXPECT(slab_in_use(&s) == 0, "%s: %zu in use after all were freed", what, slab_in_use(&s));
    slab_destroy(&s);
    slab t;
    EXPECT(slab_create(&t, 16, 0, 16) == cudaErrorInvalidValue, "slab_create of 0 blocks must be refused");
    EXPECT(slab_create(&t, 0, 16, 16) == cudaErrorInvalidValue, "slab_create of 0-byte blocks must be refused");
    EXPECT(slab_create(&t, 16, 16, 12) == cudaErrorInvalidValue, "slab_create with align 12 must be refused");
    EXPECT(slab_create(&t, (size_t)1 << 40, (size_t)1 << 40, 1) == cudaErrorInvalidValue,
                  "slab_create of 2^80 bytes (the size overflows) must be refused");
    free(p), free(h), free(g);
}
END_TEST

/* ---------------------------------------------------------------- pipeline */

static float work_ref(float v, int iters)
{
    for (int k = 0; k < iters; k++) v = fmaf(v, W16_A, W16_B);
    return v;
}

typedef struct { size_t n, chunk; int nstreams; } pipe_case;

static const pipe_case PIPES[] = {
    { 0, 1000, 2 },        { 1, 1000, 1 },         { 999, 1000, 3 },        { 1000, 1000, 2 },
    { 1001, 1000, 2 },     { 5000, 1000, 4 },      { 4097, 1024, 3 },       { 100003, 4096, 2 },
    { 65537, 100000, 4 },  { 1 << 20, 65536, 4 },  { 3000017, 1 << 18, 3 }, { (1 << 22) + 5, 1 << 20, 1 },
};

/* Pinned hx and hy (hy with 64 floats of guard, all poisoned), guarded
 * staging buffers, nstreams blocking streams; NaN and both infinities in
 * the input; every output element compared. */
START_TEST(pipeline_cases)
{
    const pipe_case *pc = &PIPES[_i];
    wb_rng rng = WB_RNG();
    size_t n = pc->n, guard = 64, stage = (size_t)pc->nstreams * pc->chunk * 4;
    int iters = (int)wb_rng_int(&rng, 1, 24);
    float *hx = NULL, *hy = NULL, *ref = wb_hmalloc(n * 4);
    WB_CUDA(cudaMallocHost((void **)&hx, (n + 1) * 4));
    WB_CUDA(cudaMallocHost((void **)&hy, (n + guard) * 4));
    wb_fill_uniform_f32(&rng, hx, n, -2, 2);
    if (n >= 8) hx[1] = NAN, hx[n / 2] = INFINITY, hx[n - 1] = -INFINITY;
    for (size_t i = 0; i < n; i++) ref[i] = work_ref(hx[i], iters);
    memset(hy, 0xFF, (n + guard) * 4);
    wb_dout xo, yo;
    float *dx = wb_dout_alloc(&xo, "dx (staging)", stage, 0), *dy = wb_dout_alloc(&yo, "dy (staging)", stage, 0);
    cudaStream_t st[4];
    for (int k = 0; k < pc->nstreams; k++) WB_CUDA(cudaStreamCreate(&st[k]));
    char what[128];
    snprintf(what, sizeof what, "n=%zu, chunk %zu, %d stream%s, %d FMAs an element", n, pc->chunk, pc->nstreams,
             pc->nstreams > 1 ? "s" : "", iters);
    WB_CUDA(pipeline_run(hx, hy, n, dx, dy, pc->chunk, iters, st, pc->nstreams));
    wb_sync();
    wb_cmp cmp;
    wb_compare_f32("hy", hy, ref, n, 0, 1e-6, &cmp);
    WB_EXPECT_CMP(cmp, what);
    size_t unwritten = 0;
    for (size_t i = 0; i < n; i++)
        if (isnan(ref[i])) {
            uint32_t bits;
            memcpy(&bits, &hy[i], 4);
            unwritten += bits == 0xFFFFFFFFu;
        }
    ck_assert_msg(unwritten == 0, "%s: %zu elements of hy where NaN is expected were never written", what, unwritten);
    size_t past = wb_count_not_byte(hy + n, guard * 4, 0xFF);
    ck_assert_msg(past == 0, "%s: %zu bytes written past hy[n-1]", what, past);
    void *tmp = wb_hmalloc(stage);
    wb_expect_dout_guards(&xo, tmp, what);
    wb_expect_dout_guards(&yo, tmp, what);
    for (int k = 0; k < pc->nstreams; k++) WB_CUDA(cudaStreamDestroy(st[k]));
    wb_dout_free(&xo), wb_dout_free(&yo);
    WB_CUDA(cudaFreeHost(hx)), WB_CUDA(cudaFreeHost(hy));
    free(ref), free(tmp);
}
END_TEST

/* The benchmark: 64 Mi floats (256 MiB in, 256 MiB out) in chunks of 2 Mi
 * (8 MiB), pinned host buffers. */
enum { PIPE_N = 1 << 26, PIPE_CHUNK = 1 << 21, PIPE_MAXS = 4 };

typedef struct {
    float *hx, *hy, *dx, *dy;
    float *dtmp;                 /* device scratch the inputs are drawn in */
    size_t n, chunk;
    int iters, nstreams;
    unsigned long long salt;     /* the inputs are SEED_P + salt */
    cudaStream_t st[PIPE_MAXS];
} pipe_ctx;

static void serial_work(void *p)
{
    pipe_ctx *c = p;
    WB_CUDA(yard_serial(c->hx, c->hy, c->n, c->dx, c->dy, c->chunk, c->iters));
}

/* Enqueued on blocking streams: the timing events on the legacy default
 * stream wait for them, and they for the start event. */
static void pipe_work(void *p)
{
    pipe_ctx *c = p;
    WB_CUDA(pipeline_run(c->hx, c->hy, c->n, c->dx, c->dy, c->chunk, c->iters, c->st, c->nstreams));
}

typedef struct { float *x, *y; size_t n; int iters; } kern_ctx;

static void kern_work(void *p)
{
    kern_ctx *k = p;
    WB_CUDA(w16_work(k->x, k->y, k->n, k->iters, 0));
}

static double pipe_expect(size_t i, const void *ctx)
{
    const pipe_ctx *c = ctx;
    return (double)work_ref(wb_hash_uniform_f32(SEED_P + c->salt, i, -1, 1), c->iters);
}

/* hx drawn with SEED_P + salt (on the device, then copied into the pinned
 * buffer), hy poisoned. */
static void pipe_inputs(pipe_ctx *c, unsigned long long salt)
{
    c->salt = salt;
    wb_dfill_uniform_f32(c->dtmp, c->n, SEED_P + salt, -1, 1);
    WB_CUDA(cudaMemcpy(c->hx, c->dtmp, c->n * 4, cudaMemcpyDeviceToHost));
    memset(c->hy, 0xFF, c->n * 4);
}

/* The timing's spot check (wb_bench_opts): new inputs and a poisoned hy for
 * one timed run, then that hy verified; salt 0 puts the first inputs back
 * (wb_time then runs the work once more). */
static void pipe_fresh(void *p, unsigned long long salt)
{
    pipe_inputs(p, salt);
}

static int pipe_check(void *p, char *why, size_t size)
{
    pipe_ctx *c = p;
    wb_cmp cmp;
    if (!verify_host_f32("hy", c->hy, c->n, pipe_expect, c, 1 << 12, 1e-6, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

static double median_ms(wb_work_fn fn, void *ctx)
{
    wb_bench_opts o = { 2, 10, 0 };
    wb_summary t;
    wb_time(fn, ctx, &o, &t);
    return t.median;
}

/* Pick iters so that the kernel on one chunk takes `target_ms`: kernel time
 * grows linearly with iters; two steps to absorb the fixed part. */
static int calibrate_iters(pipe_ctx *c, double target_ms)
{
    kern_ctx k = { c->dx, c->dy, c->chunk, 1024 };
    for (int step = 0; step < 2; step++) {
        double t = median_ms(kern_work, &k);
        double it = k.iters * target_ms / t;
        k.iters = it < 16 ? 16 : it > (1 << 16) ? (1 << 16) : (int)lround(it);
    }
    return k.iters;
}

static void pipe_row(pipe_ctx *c, wb_bench_row *r, int serial)
{
    wb_bench_opts o = { 2, 10, 0 };
    if (!serial) o.fresh = pipe_fresh, o.check = pipe_check; /* yours gets the spot check */
    memset(c->hy, 0xFF, c->n * 4);
    wb_time(serial ? serial_work : pipe_work, c, &o, &r->t);
    r->value = c->n / (r->t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (verify_host_f32("hy", c->hy, c->n, pipe_expect, c, 4096, 1e-6, &cmp)) wb_bench_invalid(r, cmp.msg);
}

/* balanced 0: the kernel lasts as long as one chunk's copy in plus its copy
 * out (the checkpoint: overlap hides both copies even if the link cannot
 * carry both directions at once; about 2x at best); 3 streams, the headline.
 * balanced 1: the kernel lasts as long as the copy in (three equal stages,
 * 3x at best with full-duplex copies); the ladder 1-4 streams, no target.
 * h: the headline's, for balanced 0. */
static double run_pipeline(int balanced, wb_headline *h)
{
    pipe_ctx *c = calloc(1, sizeof *c);
    c->n = PIPE_N, c->chunk = PIPE_CHUNK;
    WB_CUDA(cudaMallocHost((void **)&c->hx, c->n * 4));
    WB_CUDA(cudaMallocHost((void **)&c->hy, c->n * 4));
    c->dx = wb_dmalloc(PIPE_MAXS * c->chunk * 4), c->dy = wb_dmalloc(PIPE_MAXS * c->chunk * 4);
    for (int k = 0; k < PIPE_MAXS; k++) WB_CUDA(cudaStreamCreate(&c->st[k]));
    c->dtmp = wb_dmalloc(c->n * 4);
    pipe_inputs(c, 0);

    copy_ctx in = { c->dx, c->hx, c->chunk * 4, cudaMemcpyHostToDevice };
    copy_ctx out = { c->hy, c->dy, c->chunk * 4, cudaMemcpyDeviceToHost };
    double t_in = median_ms(copy_work, &in), t_out = median_ms(copy_work, &out);
    double target = balanced ? (t_in > t_out ? t_in : t_out) : t_in + t_out;
    c->iters = calibrate_iters(c, target);
    kern_ctx k = { c->dx, c->dy, c->chunk, c->iters };
    double t_k = median_ms(kern_work, &k);
    printf("  one chunk of %zu floats: copy in %.3f ms, copy out %.3f ms, work %.3f ms (%d FMAs an element)\n",
           c->chunk, t_in, t_out, t_k, c->iters);

    wb_bench_row s = { .exercise = "pipeline", .variant = "given: serial, 1 stream", .n = c->n,
                       .bytes = 8.0 * c->n, .flops = 2.0 * c->n * c->iters, .unit = "Gelem/s" };
    pipe_row(c, &s, 1);
    wb_bench_emit(&s);
    double ratio = NAN;
    for (int ns = balanced ? 1 : 3; ns <= (balanced ? PIPE_MAXS : 3); ns++) {
        char variant[64];
        snprintf(variant, sizeof variant, "yours: %d stream%s%s", ns, ns > 1 ? "s" : "",
                 balanced ? ", balanced" : ", work = in + out");
        wb_bench_row r = { .exercise = "pipeline", .variant = variant, .n = c->n, .bytes = 8.0 * c->n,
                           .flops = 2.0 * c->n * c->iters, .unit = "Gelem/s", .yard_name = "SERIAL", .yard = s.value };
        c->nstreams = ns;
        pipe_row(c, &r, 0);
        if (s.invalid && !r.invalid) wb_bench_invalid(&r, "the serial yardstick gave wrong output");
        if (balanced) {
            wb_bench_emit(&r);
            ratio = wb_bench_ratio(&r);
        } else {
            ratio = wb_bench_headline(&r, h);
        }
    }
    for (int j = 0; j < PIPE_MAXS; j++) WB_CUDA(cudaStreamDestroy(c->st[j]));
    WB_CUDA(cudaFreeHost(c->hx)), WB_CUDA(cudaFreeHost(c->hy));
    wb_dfree(c->dx), wb_dfree(c->dy), wb_dfree(c->dtmp);
    free(c);
    return ratio;
}

static double bench_pipeline(wb_headline *h) { return run_pipeline(0, h); }
static double bench_pipeline_ladder(void) { return run_pipeline(1, NULL); }

enum { SEED_M = 164, SEED_R = 165, SEED_G = 166 };

/* ---------------------------------------------------------------- managed memory */

/* Prefetching and advice need a device that works on managed memory while
 * the host does (cudaDevAttrConcurrentManagedAccess: Linux, Pascal and
 * later); elsewhere every page migrates at a launch and there is nothing to
 * prefetch. */
static int concurrent_managed(int *dev)
{
    int yes = 0;
    WB_CUDA(cudaGetDevice(dev));
    WB_CUDA(cudaDeviceGetAttribute(&yes, cudaDevAttrConcurrentManagedAccess, *dev));
    return yes;
}

#define NO_CONCURRENT_MANAGED                                                                                   \
    "this GPU or system has no concurrent managed access (cudaDevAttrConcurrentManagedAccess is 0: Windows, "  \
    "WSL, or a GPU before Pascal): managed memory migrates whole at every launch there, and prefetching and "  \
    "advice cannot be checked"

static const size_t MAN_SIZES[] = { 1, 4096, 1000003, (size_t)64 << 20 };

/* managed_alloc: managed memory the host and the device both use. */
START_TEST(managed_alloc_sizes)
{
    size_t bytes = MAN_SIZES[_i];
    wb_rng rng = WB_RNG();
    void *p = NULL;
    WB_CUDA(managed_alloc(&p, bytes));
    ck_assert_msg(p != NULL, "managed_alloc(%zu bytes) returned cudaSuccess but no memory", bytes);
    struct cudaPointerAttributes at;
    WB_CUDA(cudaPointerGetAttributes(&at, p));
    ck_assert_msg(at.type == cudaMemoryTypeManaged,
                  "%zu bytes from managed_alloc are not managed memory (cudaPointerGetAttributes type %d, managed is "
                  "%d)", bytes, (int)at.type, (int)cudaMemoryTypeManaged);
    unsigned char *src = wb_hmalloc(bytes), *back = wb_hmalloc(bytes), *d = wb_dmalloc(bytes);
    for (size_t j = 0; j < bytes; j++) src[j] = (unsigned char)wb_rng_u64(&rng);
    memcpy(p, src, bytes); /* the host writes it directly */
    WB_CUDA(cudaMemcpy(d, p, bytes, cudaMemcpyDefault));
    WB_CUDA(cudaMemcpy(back, d, bytes, cudaMemcpyDeviceToHost));
    ck_assert_msg(memcmp(back, src, bytes) == 0, "%zu bytes written by the host read differently on the device", bytes);
    WB_CUDA(managed_free(p));
    void *z = (void *)1;
    WB_CUDA(managed_alloc(&z, 0));
    ck_assert_msg(z == NULL, "managed_alloc of 0 bytes must give NULL");
    wb_dfree(d);
    free(src), free(back);
}
END_TEST

/* managed_scale on managed memory (made here, so the kernel is checked on
 * its own) with a guard of 64 floats each side, and on guarded device
 * memory: any n, any float offset, NaN and both infinities. */
START_TEST(managed_scale_sizes)
{
    wb_rng rng = WB_RNG();
    size_t n = SIZES[_i], ox = _i == (int)WB_COUNT(SIZES) - 1 ? 0 : (size_t)(_i % 4), guard = 64;
    float a = (float)(wb_rng_unit(&rng) * 4 - 2), b = (float)(wb_rng_unit(&rng) * 2 - 1);
    float *in = wb_hmalloc((n + 1) * 4);
    double *ref = wb_hmalloc((n + 1) * sizeof *ref);
    wb_fill_uniform_f32(&rng, in, n, -100, 100);
    if (n >= 3) in[0] = NAN, in[1] = INFINITY, in[n - 1] = -INFINITY;
    for (size_t i = 0; i < n; i++) ref[i] = (double)a * in[i] + b;
    char what[128];
    snprintf(what, sizeof what, "n=%zu, x+%zu, a=%g, b=%g (managed memory)", n, ox, a, b);

    float *m = NULL;
    size_t total = guard + ox + n + guard;
    WB_CUDA(cudaMallocManaged((void **)&m, total * 4, cudaMemAttachGlobal));
    memset(m, 0xFF, total * 4);
    memcpy(m + guard + ox, in, n * 4);
    WB_CUDA(managed_scale(m + guard + ox, n, a, b, 0));
    wb_sync();
    wb_cmp cmp;
    wb_compare_f32_f64("x", m + guard + ox, ref, n, 1e-4, 1e-6, &cmp);
    WB_EXPECT_CMP(cmp, what);
    size_t before = wb_count_not_byte(m, (guard + ox) * 4, 0xFF);
    size_t after = wb_count_not_byte(m + guard + ox + n, guard * 4, 0xFF);
    ck_assert_msg(before == 0 && after == 0, "%s: %zu bytes changed before x[0], %zu after x[n-1]", what, before,
                  after);
    WB_CUDA(cudaFree(m));

    snprintf(what, sizeof what, "n=%zu, x+%zu, a=%g, b=%g (device memory)", n, ox, a, b);
    wb_dout x;
    float *dx = wb_dout_alloc(&x, "x", n * 4, ox * 4);
    if (n) wb_h2d(dx, in, n * 4);
    WB_CUDA(managed_scale(dx, n, a, b, 0));
    wb_expect_dout_f32_f64(&x, ref, n, 1e-4, 1e-6, what);
    wb_dout_free(&x);
    free(in), free(ref);
}
END_TEST

/* The last prefetch destination the driver records for [p, p + bytes). */
static void last_prefetch(const void *p, size_t bytes, enum cudaMemLocationType *type, int *id)
{
    WB_CUDA(cudaMemRangeGetAttribute(type, sizeof *type, cudaMemRangeAttributeLastPrefetchLocationType, p, bytes));
    WB_CUDA(cudaMemRangeGetAttribute(id, sizeof *id, cudaMemRangeAttributeLastPrefetchLocationId, p, bytes));
}

/* managed_prefetch to the device and back to the host, on a stream of its
 * own: the driver records each destination, and the bytes survive. */
START_TEST(managed_prefetch_moves)
{
    int dev = 0;
    if (!concurrent_managed(&dev)) wb_skip_test(NO_CONCURRENT_MANAGED);
    wb_rng rng = WB_RNG();
    size_t bytes = ((size_t)16 << 20) + (size_t)wb_rng_int(&rng, 1, 100000);
    unsigned char *p = NULL, *src = wb_hmalloc(bytes);
    WB_CUDA(cudaMallocManaged((void **)&p, bytes, cudaMemAttachGlobal));
    for (size_t j = 0; j < bytes; j++) src[j] = (unsigned char)wb_rng_u64(&rng);
    memcpy(p, src, bytes);
    cudaStream_t s;
    WB_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    enum cudaMemLocationType type = cudaMemLocationTypeInvalid;
    int id = -7;

    WB_CUDA(managed_prefetch(p, bytes, dev, s));
    WB_CUDA(cudaStreamSynchronize(s));
    last_prefetch(p, bytes, &type, &id);
    ck_assert_msg(type == cudaMemLocationTypeDevice && id == dev,
                  "after managed_prefetch(%zu bytes, device %d) the driver records the last prefetch as type %d id %d "
                  "(device is type %d): was cudaMemPrefetchAsync called, with a device location?", bytes, dev,
                  (int)type, id, (int)cudaMemLocationTypeDevice);
    /* a kernel on the stream sees the data where it now is */
    unsigned char *d = wb_dmalloc(bytes), *back = wb_hmalloc(bytes);
    WB_CUDA(cudaMemcpyAsync(d, p, bytes, cudaMemcpyDefault, s));
    WB_CUDA(cudaStreamSynchronize(s));
    WB_CUDA(cudaMemcpy(back, d, bytes, cudaMemcpyDeviceToHost));
    ck_assert_msg(memcmp(back, src, bytes) == 0, "after the prefetch to the device the bytes changed");

    WB_CUDA(managed_prefetch(p, bytes, MANAGED_HOST, s));
    WB_CUDA(cudaStreamSynchronize(s));
    last_prefetch(p, bytes, &type, &id);
    ck_assert_msg(type == cudaMemLocationTypeHost,
                  "after managed_prefetch(..., MANAGED_HOST) the driver records the last prefetch as type %d (host is "
                  "%d)", (int)type, (int)cudaMemLocationTypeHost);
    ck_assert_msg(memcmp(p, src, bytes) == 0, "after the prefetch back to the host the bytes changed");
    WB_CUDA(managed_prefetch(p, 0, dev, s));
    WB_CUDA(cudaStreamDestroy(s));
    WB_CUDA(cudaFree(p));
    wb_dfree(d);
    free(src), free(back);
}
END_TEST

/* Each advice, given then taken back, as the driver reports it; the range
 * stays usable under it (written by the host, scaled by the device). */
START_TEST(managed_advice_set)
{
    int dev = 0;
    if (!concurrent_managed(&dev)) wb_skip_test(NO_CONCURRENT_MANAGED);
    static const char *NAMES[] = { "preferred location", "read mostly", "accessed by" };
    managed_advice adv = (managed_advice)_i;
    wb_rng rng = WB_RNG();
    size_t n = ((size_t)4 << 20) + (size_t)wb_rng_int(&rng, 1, 1000), bytes = n * 4;
    float *x = NULL, *in = wb_hmalloc(bytes);
    double *ref = wb_hmalloc(n * sizeof *ref);
    WB_CUDA(cudaMallocManaged((void **)&x, bytes, cudaMemAttachGlobal));
    WB_CUDA(managed_advise(x, bytes, adv, dev, 1));
    int v = -7, by[4] = { -7, -7, -7, -7 };
    enum cudaMemLocationType type = cudaMemLocationTypeInvalid;
    if (adv == MANAGED_PREFERRED_LOCATION) {
        WB_CUDA(cudaMemRangeGetAttribute(&type, sizeof type, cudaMemRangeAttributePreferredLocationType, x, bytes));
        WB_CUDA(cudaMemRangeGetAttribute(&v, sizeof v, cudaMemRangeAttributePreferredLocationId, x, bytes));
        ck_assert_msg(type == cudaMemLocationTypeDevice && v == dev,
                      "preferred location: the driver reports type %d id %d, expected device (%d) %d", (int)type, v,
                      (int)cudaMemLocationTypeDevice, dev);
    } else if (adv == MANAGED_READ_MOSTLY) {
        WB_CUDA(cudaMemRangeGetAttribute(&v, sizeof v, cudaMemRangeAttributeReadMostly, x, bytes));
        ck_assert_msg(v == 1, "read mostly: the driver reports %d for the range, expected 1", v);
    } else {
        WB_CUDA(cudaMemRangeGetAttribute(by, sizeof by, cudaMemRangeAttributeAccessedBy, x, bytes));
        ck_assert_msg(by[0] == dev || by[1] == dev || by[2] == dev || by[3] == dev,
                      "accessed by: device %d is not among the devices the driver reports (%d %d %d %d)", dev, by[0],
                      by[1], by[2], by[3]);
    }
    float a = 1.5f, b = -0.25f;
    wb_fill_uniform_f32(&rng, in, n, -1, 1);
    for (size_t i = 0; i < n; i++) ref[i] = (double)a * in[i] + b;
    memcpy(x, in, bytes);
    WB_CUDA(managed_scale(x, n, a, b, 0));
    wb_sync();
    wb_cmp cmp;
    wb_compare_f32_f64("x", x, ref, n, 1e-6, 1e-6, &cmp);
    WB_EXPECT_CMP(cmp, NAMES[_i]);

    WB_CUDA(managed_advise(x, bytes, adv, dev, 0));
    if (adv == MANAGED_PREFERRED_LOCATION) {
        WB_CUDA(cudaMemRangeGetAttribute(&type, sizeof type, cudaMemRangeAttributePreferredLocationType, x, bytes));
        ck_assert_msg(type == cudaMemLocationTypeInvalid,
                      "preferred location taken back (set 0): the driver still reports type %d", (int)type);
    } else if (adv == MANAGED_READ_MOSTLY) {
        WB_CUDA(cudaMemRangeGetAttribute(&v, sizeof v, cudaMemRangeAttributeReadMostly, x, bytes));
        ck_assert_msg(v == 0, "read mostly taken back (set 0): the driver still reports %d", v);
    } else {
        WB_CUDA(cudaMemRangeGetAttribute(by, sizeof by, cudaMemRangeAttributeAccessedBy, x, bytes));
        ck_assert_msg(by[0] != dev && by[1] != dev && by[2] != dev && by[3] != dev,
                      "accessed by taken back (set 0): device %d is still reported", dev);
    }
    ck_assert_msg(managed_advise(x, bytes, (managed_advice)7, dev, 1) == cudaErrorInvalidValue,
                  "managed_advise with an advice that is none of the three must give cudaErrorInvalidValue");
    WB_CUDA(managed_advise(x, 0, adv, dev, 1));
    WB_CUDA(cudaFree(x));
    free(in), free(ref);
}
END_TEST

/* The speed rows: an array of wb_bench_bytes() that the CPU writes before
 * every sample, so that each one starts with every page in host memory,
 * then one of these before or inside the timed part. */
enum { UM_DEMAND, UM_PREFETCH, UM_PREFETCH_E2E, UM_PREFERRED, UM_ACCESSED_BY, UM_READ_MOSTLY, UM_MODES };
static const char *const UM_NAMES[UM_MODES] = {
    "demand paging", "yours: prefetched, kernel", "prefetch + kernel", "advice: preferred GPU",
    "advice: accessed by GPU", "advice: read mostly, prefetched",
};
static const float MA = 0.75f, MB = 0.5f;

typedef struct {
    float   *x;
    size_t   n;
    int      dev;
    unsigned salt;      /* what the CPU wrote last */
    void    *flush;     /* overwritten before each sample: L2 holds none of x */
    size_t   flush_bytes;
} um_ctx;

/* What the CPU writes: cheap to make (the host writes 100 million of them a
 * sample), different for every salt, in [-0.5, 0.5). */
static float um_in(unsigned salt, size_t i)
{
    uint32_t h = (uint32_t)i * 2654435761u + salt * 0x9E3779B9u;
    return (float)(int32_t)(h >> 8) * 0x1p-24f - 0.5f; /* 24 bits: exact, and a signed conversion vectorises */
}

static double um_expect(size_t i, const void *ctx)
{
    const um_ctx *c = ctx;
    return (double)MA * um_in(c->salt, i) + MB;
}

/* Every page to the host (a prefetch, so the CPU's writes then need no fault
 * each), then the CPU writes the whole array. */
static void um_stage(um_ctx *c, unsigned salt)
{
    struct cudaMemLocation host = { cudaMemLocationTypeHost, 0 };
    WB_CUDA(cudaMemPrefetchAsync(c->x, c->n * 4, host, 0, 0));
    WB_CUDA(cudaDeviceSynchronize());
    float *x = c->x;
    for (size_t i = 0; i < c->n; i++) x[i] = um_in(salt, i);
    c->salt = salt;
}

/* One row: 1 + samples staged runs (the first untimed), each timed between
 * two events on the default stream around the kernel (and the prefetch, for
 * prefetch + kernel). Work still running after the stop event (on a stream
 * the events do not wait for) in most samples gives no figure, as in
 * wb_time. The last sample's output is checked. */
static void um_row(um_ctx *c, int mode, wb_bench_row *r)
{
    enum { SAMPLES = 7 };
    double ms[SAMPLES];
    int escaped = 0;
    cudaEvent_t e0, e1;
    WB_CUDA(cudaEventCreate(&e0));
    WB_CUDA(cudaEventCreate(&e1));
    for (int k = -1; k < SAMPLES; k++) {
        um_stage(c, 0x1600u + (unsigned)(k + 1) * 7919u);
        if (mode == UM_PREFETCH || mode == UM_READ_MOSTLY) {
            WB_CUDA(managed_prefetch(c->x, c->n * 4, c->dev, 0));
            WB_CUDA(cudaDeviceSynchronize());
        }
        WB_CUDA(cudaMemsetAsync(c->flush, k & 0xFF, c->flush_bytes, 0));
        WB_CUDA(cudaEventRecord(e0, 0));
        if (mode == UM_PREFETCH_E2E) WB_CUDA(managed_prefetch(c->x, c->n * 4, c->dev, 0));
        WB_CUDA(managed_scale(c->x, c->n, MA, MB, 0));
        WB_CUDA(cudaEventRecord(e1, 0));
        WB_CUDA(cudaEventSynchronize(e1));
        float f = 0;
        WB_CUDA(cudaEventElapsedTime(&f, e0, e1));
        double t0 = wb_seconds();
        WB_CUDA(cudaDeviceSynchronize());
        if (k >= 0) {
            ms[k] = f;
            escaped += (wb_seconds() - t0) * 1e3 > 0.05 + 0.25 * f;
        }
    }
    WB_CUDA(cudaEventDestroy(e0));
    WB_CUDA(cudaEventDestroy(e1));
    wb_summarize(ms, SAMPLES, &r->t);
    r->value = r->bytes / (r->t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (2 * escaped > SAMPLES) {
        char why[160];
        snprintf(why, sizeof why, "device work went on after the timed region in %d of %d samples (a stream the "
                 "timing does not wait for?)", escaped, SAMPLES);
        wb_bench_invalid(r, why);
    } else if (verify_host_f32("x", c->x, c->n, um_expect, c, 1 << 12, 1e-6, &cmp)) {
        wb_bench_invalid(r, cmp.msg);
    }
}

/* The DEVICE yardstick: your kernel on cudaMalloc memory, wb_time's way,
 * with its spot check (the kernel works in place, so the check's fresh
 * inputs are the one run it verifies). */
typedef struct { float *x; size_t n; unsigned long long seed; } dev_ctx;

static void dev_work(void *p)
{
    dev_ctx *c = p;
    WB_CUDA(managed_scale(c->x, c->n, MA, MB, 0));
}

static void dev_fresh(void *p, unsigned long long salt)
{
    dev_ctx *c = p;
    c->seed = SEED_M + salt;
    wb_dfill_uniform_f32(c->x, c->n, c->seed, -1, 1);
}

static double dev_expect(size_t i, const void *ctx)
{
    return (double)MA * wb_hash_uniform_f32(((const dev_ctx *)ctx)->seed, i, -1, 1) + MB;
}

static int dev_check(void *p, char *why, size_t size)
{
    dev_ctx *c = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("x", c->x, c->n, dev_expect, c, 1 << 12, 0, 1e-6, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

static void device_row(size_t n, wb_bench_row *r)
{
    dev_ctx d = { wb_dmalloc(n * 4), n, SEED_M };
    dev_fresh(&d, 0);
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = dev_fresh, o.check = dev_check;
    wb_time(dev_work, &d, &o, &r->t);
    r->value = r->bytes / (r->t.median * 1e-3) / 1e9;
    /* one more run on fresh inputs, checked whole-array-wide */
    dev_fresh(&d, 0);
    dev_work(&d);
    wb_sync();
    char why[200];
    if (!r->invalid && dev_check(&d, why, sizeof why)) wb_bench_invalid(r, why);
    wb_dfree(d.x);
}

/* The rows of w16.managed-speed; the headline (prefetched, kernel alone)
 * in *head. */
static void managed_rows(wb_bench_row *head)
{
    int dev = 0;
    WB_CUDA(cudaGetDevice(&dev));
    size_t bytes = wb_bench_bytes(), n = bytes / 4;
    wb_bench_row dv = { .exercise = "managed", .variant = "DEVICE: your kernel, cudaMalloc", .n = n,
                        .bytes = 2.0 * bytes, .flops = 2.0 * n, .unit = "GB/s" };
    device_row(n, &dv);
    wb_bench_emit(&dv);
    um_ctx c = { NULL, n, dev, 0, NULL, 2 * (size_t)wb_this_device()->l2_bytes };
    c.flush = wb_dmalloc(c.flush_bytes);
    for (int mode = 0; mode < UM_MODES; mode++) {
        wb_bench_row r = { .exercise = "managed", .variant = UM_NAMES[mode], .n = n, .bytes = 2.0 * bytes,
                           .flops = 2.0 * n, .unit = "GB/s", .yard_name = "DEVICE", .yard = dv.value };
        c.x = NULL;
        WB_CUDA(managed_alloc((void **)&c.x, bytes));
        struct cudaPointerAttributes at = { 0 };
        if (c.x) WB_CUDA(cudaPointerGetAttributes(&at, c.x));
        if (!c.x || at.type != cudaMemoryTypeManaged) {
            wb_bench_invalid(&r, "managed_alloc gave no managed memory");
        } else {
            if (mode == UM_PREFERRED) WB_CUDA(managed_advise(c.x, bytes, MANAGED_PREFERRED_LOCATION, dev, 1));
            if (mode == UM_ACCESSED_BY) WB_CUDA(managed_advise(c.x, bytes, MANAGED_ACCESSED_BY, dev, 1));
            if (mode == UM_READ_MOSTLY) WB_CUDA(managed_advise(c.x, bytes, MANAGED_READ_MOSTLY, dev, 1));
            um_row(&c, mode, &r);
        }
        if (dv.invalid && !r.invalid) wb_bench_invalid(&r, "the DEVICE yardstick gave wrong output");
        if (mode == UM_PREFETCH) *head = r;
        else wb_bench_emit(&r);
        WB_CUDA(managed_free(c.x));
    }
    wb_dfree(c.flush);
}

/* A test, not a WB_SPEED line: where managed memory cannot be prefetched
 * the checkpoint is SKIP, and only a test can skip. */
START_TEST(managed_speed)
{
    int dev = 0;
    if (!concurrent_managed(&dev)) wb_skip_test(NO_CONCURRENT_MANAGED);
    wb_bench_row head;
    managed_rows(&head);
    wb_expect_target_row("w16.managed-speed", &head);
}
END_TEST

static double bench_managed(void)
{
    int dev = 0;
    if (!concurrent_managed(&dev)) {
        printf("managed: skipped, %s\n", NO_CONCURRENT_MANAGED);
        return NAN;
    }
    wb_bench_row head;
    managed_rows(&head);
    wb_bench_emit(&head);
    return wb_bench_ratio(&head);
}

/* Filling the card without oversubscribing it: one managed allocation of
 * 0.9 of the free device memory (never more), touched a fraction at a time
 * by the device: the first touch of each new part (cudaMemset: pages made
 * on the device as it faults, none migrated, the CPU never wrote them), then
 * your kernel over all that is touched so far, resident. Past 1.0 of the
 * free memory the driver would evict pages to the host to make room, and a
 * kernel sweeping more than fits would fault them back at every pass: the
 * README says why the workbook does not go there. */
static double bench_managed_fill(void)
{
    int dev = 0;
    const char *shared = getenv("WB_GPU_SHARED");
    if (shared && strcmp(shared, "1") == 0) {
        printf("managed_fill: skipped, the GPU is shared with other runs (WB_GPU_SHARED=1): this bench fills 0.9 "
               "of its free memory\n");
        return NAN;
    }
    if (!concurrent_managed(&dev)) {
        printf("managed_fill: skipped, %s\n", NO_CONCURRENT_MANAGED);
        return NAN;
    }
    size_t dbytes = wb_bench_bytes();
    wb_bench_row dv = { .exercise = "managed_fill", .variant = "DEVICE: your kernel, cudaMalloc", .n = dbytes / 4,
                        .bytes = 2.0 * dbytes, .flops = dbytes / 2.0, .unit = "GB/s" };
    device_row(dbytes / 4, &dv);
    wb_bench_emit(&dv);

    size_t free_b = 0;
    wb_device_room(0, &free_b); /* the free device memory now: 0 bytes always fit */
    const size_t two_mib = (size_t)2 << 20;
    size_t bytes = (size_t)(0.9 * (double)free_b) / two_mib * two_mib;
    printf("  %.2f GB free of the device's %.2f GB; one managed allocation of %.2f GB (0.9 of free)\n", free_b / 1e9,
           wb_this_device()->global_mem_bytes / 1e9, bytes / 1e9);
    float *x = NULL;
    WB_CUDA(managed_alloc((void **)&x, bytes));
    ck_assert_msg(x != NULL, "managed_alloc gave no memory");
    static const double FRACTION[] = { 0.125, 0.25, 0.5, 0.75, 1.0 };
    cudaEvent_t e0, e1;
    WB_CUDA(cudaEventCreate(&e0));
    WB_CUDA(cudaEventCreate(&e1));
    size_t done = 0;
    char variant[WB_COUNT(FRACTION)][2][64];
    for (size_t f = 0; f < WB_COUNT(FRACTION); f++) {
        size_t upto = (size_t)(FRACTION[f] * (double)bytes) / two_mib * two_mib;
        size_t room = 0;
        wb_device_room(0, &room);
        if (room < (upto - done) + free_b / 20) { /* never closer to full than 5 % of what was free */
            printf("  stopped before touching %.2f GB more: only %.2f GB free now (another program took memory)\n",
                   (upto - done) / 1e9, room / 1e9);
            break;
        }
        float ms = 0;
        WB_CUDA(cudaEventRecord(e0, 0));
        WB_CUDA(cudaMemsetAsync((char *)x + done, 0, upto - done, 0));
        WB_CUDA(cudaEventRecord(e1, 0));
        WB_CUDA(cudaEventSynchronize(e1));
        WB_CUDA(cudaEventElapsedTime(&ms, e0, e1));
        snprintf(variant[f][0], sizeof variant[f][0], "first touch, %.0f%% of 0.9 free", 100 * FRACTION[f]);
        wb_bench_row t = { .exercise = "managed_fill", .variant = variant[f][0], .n = (upto - done) / 4,
                           .bytes = (double)(upto - done), .unit = "GB/s" };
        wb_summarize((double[]){ ms }, 1, &t.t);
        t.value = t.bytes / (ms * 1e-3) / 1e9;
        wb_bench_emit(&t);
        done = upto;
        /* every touched byte is 0: twice x = x + 1 gives 2 */
        double pass[2];
        for (int k = 0; k < 2; k++) {
            WB_CUDA(cudaEventRecord(e0, 0));
            WB_CUDA(managed_scale(x, done / 4, 1.0f, 1.0f, 0));
            WB_CUDA(cudaEventRecord(e1, 0));
            WB_CUDA(cudaEventSynchronize(e1));
            WB_CUDA(cudaEventElapsedTime(&ms, e0, e1));
            pass[k] = ms;
        }
        snprintf(variant[f][1], sizeof variant[f][1], "resident pass, %.0f%% of 0.9 free", 100 * FRACTION[f]);
        wb_bench_row r = { .exercise = "managed_fill", .variant = variant[f][1], .n = done / 4,
                           .bytes = 2.0 * done, .flops = done / 2.0, .unit = "GB/s", .yard_name = "DEVICE",
                           .yard = dv.value };
        wb_summarize(pass + 1, 1, &r.t);
        r.value = r.bytes / (pass[1] * 1e-3) / 1e9;
        float got[3];
        WB_CUDA(cudaMemcpy(&got[0], x, 4, cudaMemcpyDefault));
        WB_CUDA(cudaMemcpy(&got[1], x + done / 8, 4, cudaMemcpyDefault));
        WB_CUDA(cudaMemcpy(&got[2], x + done / 4 - 1, 4, cudaMemcpyDefault));
        if (got[0] != 2.0f || got[1] != 2.0f || got[2] != 2.0f) {
            char why[120];
            snprintf(why, sizeof why, "x after two passes of x + 1 over zeros: %g %g %g, expected 2", got[0], got[1],
                     got[2]);
            wb_bench_invalid(&r, why);
        }
        wb_bench_emit(&r);
        /* back to 0 for the next step's passes */
        WB_CUDA(cudaMemsetAsync(x, 0, done, 0));
        WB_CUDA(cudaDeviceSynchronize());
    }
    WB_CUDA(cudaEventDestroy(e0));
    WB_CUDA(cudaEventDestroy(e1));
    WB_CUDA(managed_free(x));
    return NAN;
}

/* ---------------------------------------------------------------- host registration */

/* A program's own page-aligned buffer, from the C library. */
static unsigned char *page_buffer(size_t bytes)
{
    size_t page = hostregister_page_size(), whole = (bytes + page - 1) / page * page;
    unsigned char *p = aligned_alloc(page, whole ? whole : page);
    ck_assert_msg(p != NULL, "out of host memory");
    return p;
}

static enum cudaMemoryType mem_type(const void *p)
{
    struct cudaPointerAttributes at;
    WB_CUDA(cudaPointerGetAttributes(&at, p));
    return at.type;
}

static const size_t REG_SIZES[] = { 1, 4096, 3 * 4096 + 5, 1000003, (size_t)64 << 20 };

/* hostregister_pin and hostregister_unpin on the test's own buffers: registered means
 * page-locked (the first and last byte), the data arrives on the device and
 * comes back into it; registering twice, an unaligned start, NULL and 0
 * bytes refused, and no refusal left behind for cudaGetLastError. */
START_TEST(hostregister_cases)
{
    size_t bytes = REG_SIZES[_i];
    wb_rng rng = WB_RNG();
    unsigned char *p = page_buffer(bytes), *q = page_buffer(bytes + 1), *src = wb_hmalloc(bytes);
    unsigned char *d = wb_dmalloc(bytes), *back = wb_hmalloc(bytes);
    for (size_t j = 0; j < bytes; j++) src[j] = (unsigned char)wb_rng_u64(&rng);
    memcpy(p, src, bytes);
    ck_assert_msg(mem_type(p) == cudaMemoryTypeUnregistered, "a fresh buffer is already known to the driver");

    WB_CUDA(hostregister_pin(p, bytes));
    ck_assert_msg(mem_type(p) == cudaMemoryTypeHost && mem_type(p + bytes - 1) == cudaMemoryTypeHost,
                  "%zu bytes after hostregister_pin: not page-locked host memory (types %d and %d at the first and "
                  "last "
                  "byte; registered is %d)", bytes, (int)mem_type(p), (int)mem_type(p + bytes - 1),
                  (int)cudaMemoryTypeHost);
    WB_CUDA(cudaMemcpyAsync(d, p, bytes, cudaMemcpyHostToDevice, 0));
    WB_CUDA(cudaStreamSynchronize(0));
    WB_CUDA(cudaMemcpy(back, d, bytes, cudaMemcpyDeviceToHost));
    ck_assert_msg(memcmp(back, src, bytes) == 0, "%zu bytes copied from the registered buffer arrived changed", bytes);
    memset(p, 0, bytes);
    WB_CUDA(cudaMemcpyAsync(p, d, bytes, cudaMemcpyDeviceToHost, 0));
    WB_CUDA(cudaStreamSynchronize(0));
    ck_assert_msg(memcmp(p, src, bytes) == 0, "%zu bytes copied into the registered buffer arrived changed", bytes);

    cudaError_t e = hostregister_pin(p, bytes);
    ck_assert_msg(e != cudaSuccess, "registering the same %zu bytes twice must be refused (the driver says "
                  "cudaErrorHostMemoryAlreadyRegistered, %d)", bytes, (int)cudaErrorHostMemoryAlreadyRegistered);
    e = cudaGetLastError();
    ck_assert_msg(e == cudaSuccess, "after the refused second registration cudaGetLastError still reports %d (%s): "
                  "clear it in hostregister_pin", (int)e, cudaGetErrorString(e));
    e = hostregister_pin(q + 1, bytes);
    ck_assert_msg(e == cudaErrorInvalidValue, "hostregister_pin of a range that does not start a page must give "
                  "cudaErrorInvalidValue (%d), got %d", (int)cudaErrorInvalidValue, (int)e);
    ck_assert_msg(mem_type(q) == cudaMemoryTypeUnregistered, "the refused unaligned registration pinned memory");
    ck_assert_msg(hostregister_pin(NULL, bytes) == cudaErrorInvalidValue,
                  "hostregister_pin(NULL) must give cudaErrorInvalidValue");
    ck_assert_msg(hostregister_pin(q, 0) == cudaErrorInvalidValue,
                  "hostregister_pin of 0 bytes must give cudaErrorInvalidValue");

    WB_CUDA(hostregister_unpin(p));
    ck_assert_msg(mem_type(p) == cudaMemoryTypeUnregistered,
                  "after hostregister_unpin the driver still holds the pages");
    e = hostregister_unpin(p);
    ck_assert_msg(e != cudaSuccess, "unregistering memory that is not registered must be refused (the driver says "
                  "cudaErrorHostMemoryNotRegistered, %d)", (int)cudaErrorHostMemoryNotRegistered);
    e = cudaGetLastError();
    ck_assert_msg(e == cudaSuccess, "after the refused unregistration cudaGetLastError still reports %d (%s): clear "
                  "it in hostregister_unpin", (int)e, cudaGetErrorString(e));
    ck_assert_msg(hostregister_unpin(NULL) == cudaErrorInvalidValue,
                  "hostregister_unpin(NULL) must give cudaErrorInvalidValue");
    wb_dfree(d);
    free(p), free(q), free(src), free(back);
}
END_TEST

/* The refusals need no GPU: they come before any call to the driver. */
START_TEST(hostregister_refusals)
{
    const size_t page = hostregister_page_size();
    ck_assert_msg(page >= 4096 && (page & (page - 1)) == 0, "the page size %zu is not a power of two from 4096", page);
    unsigned char *q = aligned_alloc(page, 2 * page);
    ck_assert_msg(q != NULL, "out of host memory");
    static const size_t OFF[] = { 1, 8, 64, 4095 };
    for (size_t k = 0; k < WB_COUNT(OFF); k++) {
        cudaError_t e = hostregister_pin(q + OFF[k] % page, page);
        ck_assert_msg(e == cudaErrorInvalidValue, "hostregister_pin of a range starting %zu bytes into a page must "
                      "give cudaErrorInvalidValue (%d) before asking the driver, got %d", OFF[k] % page,
                      (int)cudaErrorInvalidValue, (int)e);
    }
    ck_assert_msg(hostregister_pin(NULL, page) == cudaErrorInvalidValue,
                  "hostregister_pin(NULL) must give cudaErrorInvalidValue");
    ck_assert_msg(hostregister_pin(q, 0) == cudaErrorInvalidValue,
                  "hostregister_pin of 0 bytes must give cudaErrorInvalidValue");
    ck_assert_msg(hostregister_unpin(NULL) == cudaErrorInvalidValue,
                  "hostregister_unpin(NULL) must give cudaErrorInvalidValue");
    void *z = (void *)1;
    ck_assert_msg(hostregister_alloc(&z, 0) == cudaSuccess && z == NULL,
                  "hostregister_alloc of 0 bytes must give NULL and cudaSuccess");
    ck_assert_msg(hostregister_free(NULL) == cudaSuccess, "hostregister_free(NULL) must do nothing");
    free(q);
}
END_TEST

static const size_t HRA_SIZES[] = { 1, 4095, 4096, 1000003, (size_t)64 << 20 };

/* hostregister_alloc and hostregister_free: page-aligned, every page registered, a round trip
 * through the device, and after hostregister_free the driver no longer holds the
 * pages (unregistered before the free). */
START_TEST(hostregister_alloc)
{
    size_t bytes = HRA_SIZES[_i], page = hostregister_page_size(), whole = (bytes + page - 1) / page * page;
    wb_rng rng = WB_RNG();
    unsigned char *p = NULL, *src = wb_hmalloc(bytes), *d = wb_dmalloc(bytes);
    WB_CUDA(hostregister_alloc((void **)&p, bytes));
    ck_assert_msg(p != NULL, "hostregister_alloc(%zu bytes) returned cudaSuccess but no memory", bytes);
    ck_assert_msg((uintptr_t)p % page == 0, "hostregister_alloc(%zu bytes) gave %p: not page-aligned (%zu)", bytes,
                  (void *)p, page);
    ck_assert_msg(mem_type(p) == cudaMemoryTypeHost && mem_type(p + whole - 1) == cudaMemoryTypeHost,
                  "hostregister_alloc(%zu bytes): the buffer's %zu bytes of whole pages are not all registered", bytes,
                  whole);
    for (size_t j = 0; j < bytes; j++) src[j] = (unsigned char)wb_rng_u64(&rng);
    memcpy(p, src, bytes);
    WB_CUDA(cudaMemcpyAsync(d, p, bytes, cudaMemcpyHostToDevice, 0));
    WB_CUDA(cudaStreamSynchronize(0)); /* from pinned memory the copy reads p later: not before it is done */
    memset(p, 0, bytes);
    WB_CUDA(cudaMemcpyAsync(p, d, bytes, cudaMemcpyDeviceToHost, 0));
    WB_CUDA(cudaStreamSynchronize(0));
    ck_assert_msg(memcmp(p, src, bytes) == 0, "%zu bytes: a copy to the device and back changed them", bytes);
    WB_CUDA(hostregister_free(p));
    /* only the driver's table is asked: the freed memory is not read */
    ck_assert_msg(mem_type(p) == cudaMemoryTypeUnregistered,
                  "after hostregister_free the driver still holds the pages pinned: unregister before freeing");
    void *z = (void *)1;
    WB_CUDA(hostregister_alloc(&z, 0));
    ck_assert_msg(z == NULL, "hostregister_alloc of 0 bytes must give NULL");
    WB_CUDA(hostregister_free(NULL));
    wb_dfree(d);
    free(src);
}
END_TEST

typedef struct { copy_ctx c; float *dtmp; size_t n; unsigned long long seed; } reg_ctx;

static void reg_work(void *p) { copy_work(&((reg_ctx *)p)->c); }

/* New source data (drawn on the device, copied into the host buffer), the
 * destination poisoned. */
static void reg_fresh(void *p, unsigned long long salt)
{
    reg_ctx *r = p;
    r->seed = SEED_R + salt;
    wb_dfill_uniform_f32(r->dtmp, r->n, r->seed, -1, 1);
    WB_CUDA(cudaMemcpy((void *)r->c.src, r->dtmp, r->n * 4, cudaMemcpyDeviceToHost));
    wb_dpoison(r->c.dst, r->n * 4);
}

static double reg_expect(size_t i, const void *ctx)
{
    return (double)wb_hash_uniform_f32(((const reg_ctx *)ctx)->seed, i, -1, 1);
}

static int reg_check(void *p, char *why, size_t size)
{
    reg_ctx *r = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("dst", r->c.dst, r->n, reg_expect, r, 1 << 12, 0, 0, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* One H2D row of 256 MiB from `src`, with the spot check; the destination
 * verified after the timing. */
static void reg_row(wb_bench_row *r, void *src, float *dst, float *dtmp, size_t n)
{
    reg_ctx c = { { dst, src, n * 4, cudaMemcpyHostToDevice }, dtmp, n, SEED_R };
    reg_fresh(&c, 0);
    wb_bench_opts o = { 2, 10, 0, reg_fresh, reg_check };
    wb_time(reg_work, &c, &o, &r->t);
    r->value = n * 4 / (r->t.median * 1e-3) / 1e9;
    char why[200];
    if (reg_check(&c, why, sizeof why)) wb_bench_invalid(r, why);
}

/* H2D of 256 MiB from your registered buffer (hostregister_alloc) against the same
 * copy from cudaMallocHost memory (PINNED), and from pageable memory
 * (reported); what registering the buffer cost is printed. */
static double bench_hostregister(wb_headline *h)
{
    size_t bytes = (size_t)256 << 20, n = bytes / 4;
    float *pin = NULL, *reg = NULL, *page = wb_hmalloc(bytes), *d = wb_dmalloc(bytes), *dtmp = wb_dmalloc(bytes);
    memset(page, 0, bytes); /* every page touched first */
    WB_CUDA(cudaMallocHost((void **)&pin, bytes));
    double t0 = wb_seconds();
    WB_CUDA(hostregister_alloc((void **)&reg, bytes));
    double t_reg = (wb_seconds() - t0) * 1e3;

    wb_bench_row pg = { .exercise = "hostregister", .variant = "H2D pageable (malloc)", .n = n, .bytes = (double)bytes,
                        .unit = "GB/s", .yard_name = "PINNED" };
    wb_bench_row pn = { .exercise = "hostregister", .variant = "PINNED: H2D cudaMallocHost", .n = n,
                        .bytes = (double)bytes, .unit = "GB/s" };
    wb_bench_row r = { .exercise = "hostregister", .variant = "yours: H2D registered (hostregister_alloc)", .n = n,
                       .bytes = (double)bytes, .unit = "GB/s", .yard_name = "PINNED" };
    reg_row(&pg, page, d, dtmp, n);
    reg_row(&pn, pin, d, dtmp, n);
    pg.yard = pn.value;
    wb_bench_emit(&pn);
    wb_bench_emit(&pg);
    r.yard = pn.value;
    if (!reg || mem_type(reg) != cudaMemoryTypeHost) {
        wb_bench_invalid(&r, "hostregister_alloc gave no registered memory");
    } else {
        reg_row(&r, reg, d, dtmp, n);
        if (pn.invalid && !r.invalid) wb_bench_invalid(&r, "the PINNED yardstick delivered wrong data");
        printf("  hostregister_alloc of 256 MiB (posix_memalign + cudaHostRegister, every page faulted in and "
               "locked): %.1f ms, the time of %.0f copies of it at the registered speed\n", t_reg,
               r.value > 0 ? t_reg / (bytes / (r.value * 1e9) * 1e3) : NAN);
    }
    double ratio = wb_bench_headline(&r, h);
    t0 = wb_seconds();
    WB_CUDA(hostregister_free(reg));
    printf("  hostregister_free (cudaHostUnregister + free): %.1f ms\n", (wb_seconds() - t0) * 1e3);
    WB_CUDA(cudaFreeHost(pin));
    free(page), wb_dfree(d), wb_dfree(dtmp);
    return ratio;
}

/* ---------------------------------------------------------------- growable buffer */

static size_t round_to(size_t x, size_t g) { return (x + g - 1) / g * g; }

/* The driver's minimum granularity for device memory, asked here directly. */
static size_t driver_granularity(int dev)
{
    cudaError_t e = cudaSuccess;
    const w16_vmm *api = w16_vmm_api(&e);
    WB_CUDA(e);
    CUmemAllocationProp want = { .type = CU_MEM_ALLOCATION_TYPE_PINNED,
                                 .location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev } };
    size_t g = 0;
    WB_CUDA(w16_cu_error(api->granularity(&g, &want, CU_MEM_ALLOC_GRANULARITY_MINIMUM)));
    ck_assert_msg(g > 0, "the driver gives no allocation granularity");
    return g;
}

/* Every field of a growbuf zero, as growbuf_destroy and a refused
 * growbuf_create leave it. */
static int growbuf_is_zero(const growbuf *g)
{
    return !g->base && !g->reserved && !g->gran && !g->mapped && !g->size && !g->device && !g->nchunks && !g->cap &&
           !g->handle && !g->len;
}

/* The buffer's first `size` bytes against the shadow kept on the host. */
static void grow_expect_contents(const growbuf *g, const unsigned char *shadow, unsigned char *back, size_t size,
                                 const char *what)
{
    if (size == 0) return;
    memset(back, 0, size);
    WB_CUDA(cudaMemcpy(back, growbuf_ptr(g), size, cudaMemcpyDeviceToHost));
    size_t bad = 0, first = 0;
    for (size_t j = 0; j < size; j++)
        if (back[j] != shadow[j] && !bad++) first = j;
    EXPECT(bad == 0, "%s: %zu of the buffer's %zu bytes changed, first at byte %zu (growth must keep the contents)",
           what, bad, size, first);
}

/* A growbuf of five reservations, from one byte to 40 MiB and more, made to
 * grow and shrink through random sizes (never a multiple of the granularity
 * but by chance), 0 and the whole reservation among them; each new part
 * written (copies, and cudaMemset's kernel), the whole buffer compared with
 * a shadow after every step, the address never moving, the mapping exactly
 * the largest size asked so far rounded to the granularity. Then growth past
 * the reservation is refused and changes nothing, and growbuf_destroy
 * leaves the struct zero. */
START_TEST(growbuf_grows)
{
    int dev = 0;
    WB_CUDA(cudaGetDevice(&dev));
    size_t gran = driver_granularity(dev);
    wb_rng rng = WB_RNG();
    size_t maxes[] = { 1, gran - 1, gran, 3 * gran + 17, ((size_t)40 << 20) + (size_t)wb_rng_int(&rng, 1, 4095) };
    size_t max = maxes[_i];
    char what[160];
    growbuf g;
    memset(&g, 0x5A, sizeof g);
    WB_CUDA(growbuf_create(&g, dev, max));
    void *p0 = growbuf_ptr(&g);
    ck_assert_msg(p0 != NULL, "growbuf_create(max %zu bytes) returned cudaSuccess but reserved nothing", max);
    ck_assert_msg(g.gran == gran, "growbuf_create: granularity %zu, the driver's minimum is %zu", g.gran, gran);
    ck_assert_msg(g.reserved == round_to(max, gran), "growbuf_create(max %zu bytes): reserved %zu, expected %zu "
                  "(max rounded up to the granularity %zu)", max, g.reserved, round_to(max, gran), gran);
    ck_assert_msg(g.mapped == 0 && g.size == 0 && g.nchunks == 0 && g.device == dev,
                  "a new growbuf maps nothing (mapped %zu, size %zu, %d chunks, device %d)", g.mapped, g.size,
                  g.nchunks, g.device);
    unsigned char *shadow = wb_hmalloc(g.reserved), *back = wb_hmalloc(g.reserved);
    enum { RESIZES = 12 };
    size_t size = 0, high = 0;
    for (int k = 0; k < RESIZES; k++) {
        size_t t = k == 0 ? 0 : k == 1 ? 1 : k == RESIZES - 1 ? g.reserved : (size_t)wb_rng_int(&rng, 0, (int64_t)max);
        snprintf(what, sizeof what, "max %zu, step %d: growbuf_resize from %zu to %zu bytes (granularity %zu)", max, k,
                 size, t, gran);
        WB_CUDA(growbuf_resize(&g, t));
        if (t > high) high = t;
        EXPECT(growbuf_ptr(&g) == p0, "%s: the address moved from %p to %p", what, p0, growbuf_ptr(&g));
        EXPECT(g.size == t, "%s: size %zu", what, g.size);
        EXPECT(g.mapped == round_to(high, gran), "%s: %zu bytes mapped, expected %zu (the largest size so far, %zu, "
               "rounded up to the granularity; a shrink keeps its memory)", what, g.mapped, round_to(high, gran), high);
        if (t > size) {
            unsigned char *dst = (unsigned char *)p0 + size;
            if (k % 2) {
                unsigned char v = (unsigned char)wb_rng_u64(&rng);
                memset(shadow + size, v, t - size);
                WB_CUDA(cudaMemset(dst, v, t - size));
            } else {
                for (size_t j = size; j < t; j++) shadow[j] = (unsigned char)wb_rng_u64(&rng);
                WB_CUDA(cudaMemcpy(dst, shadow + size, t - size, cudaMemcpyHostToDevice));
            }
        }
        size = t;
        grow_expect_contents(&g, shadow, back, size, what);
    }
    snprintf(what, sizeof what, "max %zu: after growth past the reservation was refused", max);
    cudaError_t e = growbuf_resize(&g, g.reserved + 1);
    EXPECT(e == cudaErrorInvalidValue, "growbuf_resize to %zu bytes, past the %zu reserved, must give "
           "cudaErrorInvalidValue (%d), got %d", g.reserved + 1, g.reserved, (int)cudaErrorInvalidValue, (int)e);
    e = growbuf_resize(&g, SIZE_MAX);
    EXPECT(e == cudaErrorInvalidValue, "growbuf_resize to SIZE_MAX must give cudaErrorInvalidValue, got %d", (int)e);
    EXPECT(growbuf_ptr(&g) == p0 && g.size == size && g.mapped == round_to(high, gran),
           "%s: the buffer changed (address %p, size %zu, mapped %zu)", what, growbuf_ptr(&g), g.size, g.mapped);
    grow_expect_contents(&g, shadow, back, size, what);
    WB_CUDA(growbuf_destroy(&g));
    ck_assert_msg(growbuf_is_zero(&g), "after growbuf_destroy the growbuf is not all zero");
    WB_CUDA(growbuf_destroy(&g));
    free(shadow), free(back);
}
END_TEST

/* Zero and the edges: a reservation of 0 or of a size that cannot be
 * rounded refused (the struct zero), a zeroed growbuf refused by resize and
 * fine to destroy; size 0 maps nothing, a shrink to 0 keeps the memory,
 * two growths make two chunks; two buffers reserve disjoint ranges. */
START_TEST(growbuf_edges)
{
    int dev = 0;
    WB_CUDA(cudaGetDevice(&dev));
    size_t gran = driver_granularity(dev);
    growbuf g, h;
    memset(&g, 0x5A, sizeof g);
    ck_assert_msg(growbuf_create(&g, dev, 0) == cudaErrorInvalidValue, "growbuf_create of 0 bytes must be refused");
    ck_assert_msg(growbuf_is_zero(&g), "a refused growbuf_create must leave the growbuf zero");
    memset(&g, 0x5A, sizeof g);
    ck_assert_msg(growbuf_create(&g, dev, SIZE_MAX) == cudaErrorInvalidValue,
                  "growbuf_create of SIZE_MAX bytes (it cannot be rounded up to the granularity) must be refused");
    ck_assert_msg(growbuf_is_zero(&g), "a refused growbuf_create must leave the growbuf zero");
    ck_assert_msg(growbuf_resize(&g, 1) == cudaErrorInvalidValue, "growbuf_resize of a zeroed growbuf must be refused");
    WB_CUDA(growbuf_destroy(&g));

    WB_CUDA(growbuf_create(&g, dev, 5 * gran));
    WB_CUDA(growbuf_resize(&g, 0));
    ck_assert_msg(g.mapped == 0 && g.nchunks == 0 && growbuf_ptr(&g) != NULL, "resize to 0 must map nothing");
    WB_CUDA(growbuf_resize(&g, gran));
    ck_assert_msg(g.mapped == gran && g.nchunks == 1, "resize to one granule: mapped %zu, %d chunks", g.mapped,
                  g.nchunks);
    WB_CUDA(growbuf_resize(&g, 0));
    ck_assert_msg(g.size == 0 && g.mapped == gran && g.nchunks == 1, "a shrink to 0 keeps its memory mapped");
    WB_CUDA(growbuf_resize(&g, 5 * gran));
    ck_assert_msg(g.mapped == 5 * gran && g.nchunks == 2, "growth from 1 to 5 granules in one step: mapped %zu, %d "
                  "chunks (one cuMemCreate for the 4 missing granules)", g.mapped, g.nchunks);
    WB_CUDA(cudaMemset(growbuf_ptr(&g), 0x3C, 5 * gran));
    WB_CUDA(cudaDeviceSynchronize());
    WB_CUDA(growbuf_create(&h, dev, 2 * gran + 1));
    uintptr_t a0 = (uintptr_t)growbuf_ptr(&g), a1 = a0 + g.reserved, b0 = (uintptr_t)growbuf_ptr(&h),
              b1 = b0 + h.reserved;
    ck_assert_msg(h.reserved == 3 * gran && (a1 <= b0 || b1 <= a0),
                  "two growbufs: [%#lx, %#lx) and [%#lx, %#lx) (reserved %zu, expected %zu)", (unsigned long)a0,
                  (unsigned long)a1, (unsigned long)b0, (unsigned long)b1, h.reserved, 3 * gran);
    WB_CUDA(growbuf_destroy(&h));
    WB_CUDA(growbuf_destroy(&g));
    ck_assert_msg(growbuf_is_zero(&g) && growbuf_is_zero(&h), "after growbuf_destroy a growbuf is not all zero");
}
END_TEST

/* The benchmark: a buffer grown from 32 MiB to 1 GiB in 32 MiB steps, each
 * new part written (as the buffer's user would fill it), from creation to
 * the teardown of the previous sample's buffer. */
enum { GROW_STEPS = 32 };
static const size_t GROW_STEP = (size_t)32 << 20;

typedef struct {
    int                vmm;    /* 1: your growbuf; 0: REALLOC */
    int                dev;
    growbuf            g;
    yard_realloc       y;
    unsigned long long seed;   /* step k's part is drawn with seed + k */
    int                moved;  /* the growbuf's address changed during a growth */
} grow_ctx;

static float *grow_ptr(grow_ctx *c) { return c->vmm ? growbuf_ptr(&c->g) : c->y.p; }

static void grow_work(void *p)
{
    grow_ctx *c = p;
    if (c->vmm) {
        WB_CUDA(growbuf_destroy(&c->g)); /* the previous sample's buffer */
        WB_CUDA(growbuf_create(&c->g, c->dev, GROW_STEPS * GROW_STEP));
    } else {
        WB_CUDA(yard_realloc_free(&c->y));
    }
    void *first = grow_ptr(c);
    for (int k = 0; k < GROW_STEPS; k++) {
        size_t bytes = (size_t)(k + 1) * GROW_STEP;
        if (c->vmm) WB_CUDA(growbuf_resize(&c->g, bytes));
        else WB_CUDA(yard_realloc_grow(&c->y, bytes));
        float *base = grow_ptr(c);
        if (c->vmm && base != first) c->moved = 1;
        wb_dfill_uniform_f32(base + (size_t)k * (GROW_STEP / 4), GROW_STEP / 4, c->seed + (unsigned)k, -1, 1);
    }
}

static double grow_expect(size_t i, const void *ctx)
{
    const grow_ctx *c = ctx;
    size_t per = GROW_STEP / 4;
    return (double)wb_hash_uniform_f32(c->seed + i / per, i % per, -1, 1);
}

static void grow_fresh(void *p, unsigned long long salt) { ((grow_ctx *)p)->seed = SEED_G + 1000 * salt; }

static int grow_check(void *p, char *why, size_t size)
{
    grow_ctx *c = p;
    if (c->moved) {
        snprintf(why, size, "the buffer's address changed during a growth");
        return 1;
    }
    wb_cmp cmp;
    if (!wb_dverify_f32("buffer", grow_ptr(c), GROW_STEPS * GROW_STEP / 4, grow_expect, c, 1 << 12, 0, 0, &cmp))
        return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

static void grow_row(grow_ctx *c, wb_bench_row *r)
{
    wb_bench_opts o = { 2, 10, 0, grow_fresh, grow_check };
    c->seed = SEED_G;
    wb_time(grow_work, c, &o, &r->t);
    r->value = r->bytes / (r->t.median * 1e-3) / 1e9;
    char why[200];
    if (grow_check(c, why, sizeof why)) wb_bench_invalid(r, why);
    if (c->vmm) WB_CUDA(growbuf_destroy(&c->g));
    else WB_CUDA(yard_realloc_free(&c->y));
}

/* Growth from 32 MiB to 1 GiB in 32 MiB steps with your growbuf against
 * realloc-and-copy (REALLOC: cudaMalloc of the new size, a copy, cudaFree of
 * the old), the whole life of a buffer in each sample, GB of final buffer a
 * second; the final contents of the timed runs checked, one of them on
 * fresh data. */
static double bench_growbuf(wb_headline *h)
{
    grow_ctx *c = calloc(1, sizeof *c);
    WB_CUDA(cudaGetDevice(&c->dev));
    double total = (double)GROW_STEPS * GROW_STEP;
    wb_bench_row y = { .exercise = "growbuf", .variant = "REALLOC: cudaMalloc+copy+cudaFree", .n = GROW_STEPS,
                       .bytes = total, .unit = "GB/s" };
    c->vmm = 0;
    grow_row(c, &y);
    wb_bench_emit(&y);
    wb_bench_row r = { .exercise = "growbuf", .variant = "yours: reserve once, map as it grows", .n = GROW_STEPS,
                       .bytes = total, .unit = "GB/s", .yard_name = "REALLOC", .yard = y.value };
    c->vmm = 1;
    grow_row(c, &r);
    if (y.invalid && !r.invalid) wb_bench_invalid(&r, "the REALLOC yardstick gave wrong contents");
    if (!r.invalid && !y.invalid)
        printf("  32 growths to 1 GiB: REALLOC %.2f ms (copies %.1f GiB in all), yours %.2f ms\n", y.t.median,
               (GROW_STEPS - 1) * GROW_STEPS / 2 * (GROW_STEP / 1073741824.0), r.t.median);
    double ratio = wb_bench_headline(&r, h);
    free(c);
    return ratio;
}

static const wb_test TESTS[] = {
    { "w16.pool", WB_T(pool_allocations), WB_GPU, 4 },
    WB_SPEED("w16.pool-speed", bench_pool),
    { "w16.pinned", WB_T(pinned_alloc), WB_GPU, 2 * WB_COUNT(PIN_SIZES) },
    { "w16.pinned", WB_T(transfer_report), WB_GPU, 0 },
    { "w16.zerocopy", WB_T(zerocopy_sizes), WB_GPU, WB_COUNT(SIZES) },
    { "w16.zerocopy", WB_T(zerocopy_report), WB_GPU, 0 },
    { "w16.slab", WB_T(slab_known), WB_CPU, WB_COUNT(SLAB_KNOWN) },
    { "w16.slab", WB_T(slab_random), WB_CPU, 16 },
    { "w16.slab", WB_T(slab_bad_args), WB_CPU, 0 },
    { "w16.slab-device", WB_T(slab_device), WB_GPU, WB_COUNT(SLAB_DEV) },
    { "w16.pipeline", WB_T(pipeline_cases), WB_GPU, WB_COUNT(PIPES) },
    WB_SPEED("w16.pipeline-speed", bench_pipeline),
    { "w16.managed", WB_T(managed_alloc_sizes), WB_GPU, WB_COUNT(MAN_SIZES) },
    { "w16.managed", WB_T(managed_scale_sizes), WB_GPU, WB_COUNT(SIZES) },
    { "w16.managed", WB_T(managed_prefetch_moves), WB_GPU, 0 },
    { "w16.managed", WB_T(managed_advice_set), WB_GPU, 3 },
    { "w16.managed-speed", WB_T(managed_speed), WB_GPU, 0 },
    { "w16.hostregister", WB_T(hostregister_refusals), WB_CPU, 0 },
    { "w16.hostregister", WB_T(hostregister_cases), WB_GPU, WB_COUNT(REG_SIZES) },
    { "w16.hostregister", WB_T(hostregister_alloc), WB_GPU, WB_COUNT(HRA_SIZES) },
    WB_SPEED("w16.hostregister-speed", bench_hostregister),
    { "w16.growbuf", WB_T(growbuf_grows), WB_GPU, 5 },
    { "w16.growbuf", WB_T(growbuf_edges), WB_GPU, 0 },
    WB_SPEED("w16.growbuf-speed", bench_growbuf),
};

/* No checkpoint: `--bench` runs these and every WB_SPEED one. */
static const wb_benchmark BENCHES[] = {
    { "transfers", bench_transfers },
    { "zerocopy", bench_zerocopy },
    { "pipeline_ladder", bench_pipeline_ladder },
    { "managed", bench_managed },
    { "managed_fill", bench_managed_fill },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
