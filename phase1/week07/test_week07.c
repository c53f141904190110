/* test_week07.c — week 07's checkpoints: six reductions, three scans, three
 * histograms, warp-aggregated global atomics (compaction, key counts), two
 * matmuls; CUB, cuBLAS and the given naive atomics as yardsticks. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cublas_v2.h>

#include "wb_harness.h"
#include "atomics.h"
#include "support/yard_cub.h"
#include "hist.h"
#include "matmul.h"
#include "reduce.h"
#include "scan.h"
#include "w07_checks.h" /* the cases' drawing and checks, shared with the instructor's judge */

/* ---------------------------------------------------------------- reduce */

/* Version v's sum of the n floats starting at hx[off] (a fresh device copy
 * of hx[0..off+n), so the input starts off floats into its buffer), written
 * into a guarded, poisoned float: a write beside it fails the test. */
static float run_reduce(int v, const float *hx, size_t n, size_t off)
{
    float *dx = wb_dcopy(hx, (n + off) * 4);
    void *tmp = wb_dmalloc(reduce_tmp_bytes(n));
    wb_dout out;
    float *dout = wb_dout_alloc(&out, "sum", 4, 0);
    WB_CUDA(reduce_sum(v, dx ? dx + off : NULL, n, dout, tmp));
    char what[64];
    snprintf(what, sizeof what, "v%d, n=%zu, x+%zu", v, n, off);
    float got;
    wb_expect_dout_guards(&out, &got, what);
    wb_dfree(dx), wb_dout_free(&out), wb_dfree(tmp);
    return got;
}

START_TEST(reduce_exact)
{
    ck_assert_str_eq(__func__, W07_REDUCE_EXACT_TAG); /* the judge draws these cases by this tag (w07_checks.h) */
    wb_rng rng = WB_RNG();
    size_t n = W07_SIZES[_i], off = w07_reduce_exact_off(_i);
    float *hx = wb_hmalloc((n + off) * 4);
    double ref = w07_reduce_exact_fill(&rng, hx, n, off);
    for (int v = 1; v <= REDUCE_VERSIONS; v++) {
        float got = run_reduce(v, hx, n, off);
        ck_assert_msg(got == (float)ref, "v%d, n=%zu, integer data (seed %llu): sum %.1f, expected %.1f", v, n,
                      (unsigned long long)wb_base_seed(), got, ref);
    }
    free(hx);
}
END_TEST

START_TEST(reduce_float)
{
    ck_assert_str_eq(__func__, W07_REDUCE_FLOAT_TAG);
    wb_rng rng = WB_RNG();
    size_t n = w07_reduce_float_n(&rng, _i);
    float *hx = wb_hmalloc(n * 4);
    double atol, ref = w07_reduce_float_fill(&rng, hx, n, &atol);
    for (int v = 1; v <= REDUCE_VERSIONS; v++) {
        float got = run_reduce(v, hx, n, 0);
        ck_assert_msg(wb_close(got, ref, atol, 0), "v%d, n=%zu (seed %llu): sum %.9g, expected %.9g", v, n,
                      (unsigned long long)wb_base_seed(), got, ref);
    }
    free(hx);
}
END_TEST

START_TEST(reduce_nan_inf)
{
    ck_assert_str_eq(__func__, W07_REDUCE_NANINF_TAG);
    wb_rng rng = WB_RNG();
    size_t n = w07_reduce_naninf_n(&rng);
    float *hx = wb_hmalloc(n * 4);
    const char *what;
    float want = w07_reduce_naninf_fill(&rng, hx, n, _i, &what);
    for (int v = 1; v <= REDUCE_VERSIONS; v++) {
        float got = run_reduce(v, hx, n, 0);
        ck_assert_msg(wb_close(got, want, 0, 0), "v%d, n=%zu with %s: sum %g, expected %g", v, n, what, got, want);
    }
    free(hx);
}
END_TEST

START_TEST(reduce_bad_version)
{
    ck_assert_msg(reduce_sum(0, NULL, 10, NULL, NULL) == cudaErrorInvalidValue &&
                      reduce_sum(7, NULL, 10, NULL, NULL) == cudaErrorInvalidValue,
                  "versions outside 1..6 must return cudaErrorInvalidValue");
}
END_TEST

/* ---------------------------------------------------------------- scan */

typedef cudaError_t (*scan_fn)(const float *, float *, size_t, void *);
static const scan_fn SCANS[3] = { scan_hs, scan_blelloch, scan_fast };
static const char *const SCAN_NAMES[3] = { "scan_hs", "scan_blelloch", "scan_fast" };

/* Scan s of the n floats starting at hx[off] (a fresh device copy of
 * hx[0..off+n)) into the guarded output *y, allocated here with the same
 * offset; the caller checks and frees *y. */
static void run_scan(int s, const float *hx, size_t n, size_t off, wb_dout *y)
{
    float *dx = wb_dcopy(hx, (n + off) * 4);
    void *tmp = wb_dmalloc(scan_tmp_bytes(n));
    float *dy = wb_dout_alloc(y, "y", n * 4, off * 4);
    WB_CUDA(SCANS[s](dx ? dx + off : NULL, dy, n, tmp));
    wb_sync();
    wb_dfree(dx), wb_dfree(tmp);
}

START_TEST(scan_exact)
{
    ck_assert_str_eq(__func__, W07_SCAN_EXACT_TAG);
    wb_rng rng = WB_RNG();
    size_t n = w07_scan_exact_n(_i), off = w07_scan_exact_off(_i);
    float *hx = wb_hmalloc((n + off) * 4), *ref = wb_hmalloc(n * 4);
    w07_scan_exact_fill(&rng, hx, n, off, ref);
    for (int s = 0; s < 3; s++) {
        wb_dout y;
        run_scan(s, hx, n, off, &y);
        char what[80];
        snprintf(what, sizeof what, "%s, n=%zu, offset %zu, integer data", SCAN_NAMES[s], n, off);
        wb_expect_dout_f32(&y, ref, n, 0, 0, what);
        wb_dout_free(&y);
    }
    free(hx), free(ref);
}
END_TEST

START_TEST(scan_float_nan_inf)
{
    ck_assert_str_eq(__func__, W07_SCAN_FLOAT_TAG);
    wb_rng rng = WB_RNG();
    size_t n = w07_scan_float_n(&rng);
    float *hx = wb_hmalloc(n * 4);
    double *ref = wb_hmalloc(n * 8);
    w07_scan_float_fill(&rng, _i, hx, n, ref);
    for (int s = 0; s < 3; s++) {
        wb_dout y;
        run_scan(s, hx, n, 0, &y);
        char what[80];
        snprintf(what, sizeof what, "%s, n=%zu%s", SCAN_NAMES[s], n, _i == 1 ? ", a NaN" : _i == 2 ? ", an Inf" : "");
        wb_expect_dout_f32_f64(&y, ref, n, W07_SCAN_ATOL, W07_SCAN_RTOL, what);
        wb_dout_free(&y);
    }
    free(hx), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- histogram */

typedef cudaError_t (*hist_fn)(const unsigned char *, size_t, unsigned int *);
static const hist_fn HISTS[3] = { hist_global, hist_shared, hist_warp };
static const char *const HIST_NAMES[3] = { "hist_global", "hist_shared", "hist_warp" };

START_TEST(hist_exact)
{
    ck_assert_str_eq(__func__, W07_HIST_TAG);
    wb_rng rng = WB_RNG();
    size_t n = w07_hist_n(_i);
    unsigned char *hx = wb_hmalloc(n + 16);
    uint32_t ref[HIST_BINS];
    size_t off = w07_hist_fill(&rng, _i, hx, ref);
    unsigned char *dx = wb_dcopy(hx, n + 16);
    wb_dout bins;
    unsigned int *db = wb_dout_alloc(&bins, "bins", HIST_BINS * 4, 0);
    for (int h = 0; h < 3; h++) {
        if (h) wb_dout_poison(&bins); /* each version starts from poisoned bins: it must zero them */
        WB_CUDA(HISTS[h](dx + off, n, db));
        char what[96];
        snprintf(what, sizeof what, "%s, n=%zu at byte offset %zu, %s", HIST_NAMES[h], n, off, W07_HIST_KIND[_i / 10]);
        wb_expect_dout_u32(&bins, ref, HIST_BINS, what);
    }
    wb_dfree(dx), wb_dout_free(&bins);
    free(hx);
}
END_TEST

/* ---------------------------------------------------------------- atomics */

/* Compaction of n fresh words (w07_compact_fill), x starting `off` words
 * into its buffer. The count must be exact, the kept words equal as a
 * multiset (both sides sorted: the order is free), out past the count still
 * poisoned, nothing outside out or the count written. */
static void check_compact(wb_rng *rng, size_t n, size_t off, int kind)
{
    uint32_t *hx = wb_hmalloc((n + off + 1) * 4), *ref = wb_hmalloc((n + 1) * 4), *got = wb_hmalloc((n + 1) * 4);
    uint32_t thresh = w07_compact_thresh(kind);
    size_t nref = w07_compact_fill(rng, kind, hx, n, off, ref);
    uint32_t *dx = wb_dcopy(hx, (n + off) * 4);
    wb_dout out, cnt;
    unsigned int *dout = wb_dout_alloc(&out, "out", n * 4, 0), *dcnt = wb_dout_alloc(&cnt, "count", 4, 0);
    WB_CUDA(atomics_compact_warp(dx ? dx + off : NULL, n, thresh, dout, dcnt));
    char what[96];
    snprintf(what, sizeof what, "atomics_compact_warp, n=%zu, x+%zu, %s", n, off, W07_COMPACT_KIND[kind]);
    uint32_t count;
    wb_expect_dout_guards(&cnt, &count, what);
    wb_expect_dout_guards(&out, got, what);
    ck_assert_msg(count == nref, "%s (seed %llu): count %u, expected %zu", what, (unsigned long long)wb_base_seed(),
                  count, nref);
    size_t past = 0;
    for (size_t i = nref; i < n; i++) past += got[i] != 0xFFFFFFFFu;
    ck_assert_msg(past == 0, "%s (seed %llu): %zu elements of out past the count (%zu) were written", what,
                  (unsigned long long)wb_base_seed(), past, nref);
    qsort(got, nref, 4, w07_cmp_u32);
    qsort(ref, nref, 4, w07_cmp_u32);
    wb_cmp cmp;
    wb_compare_u32("out, sorted", got, ref, nref, &cmp);
    WB_EXPECT_CMP(cmp, what);
    wb_dfree(dx), wb_dout_free(&out), wb_dout_free(&cnt);
    free(hx), free(ref), free(got);
}

START_TEST(compact_sizes)
{
    ck_assert_str_eq(__func__, W07_COMPACT_SIZES_TAG);
    wb_rng rng = WB_RNG();
    check_compact(&rng, W07_SIZES[_i], (size_t)(_i % 4), _i % 5);
}
END_TEST

START_TEST(compact_kinds)
{
    ck_assert_str_eq(__func__, W07_COMPACT_KINDS_TAG);
    wb_rng rng = WB_RNG();
    size_t n, off;
    w07_compact_kinds_case(&rng, &n, &off);
    check_compact(&rng, n, off, _i);
}
END_TEST

/* atomics_keycount_warp on fresh keys (w07_keycount_fill: uniform, a hot
 * key, runs of one key; one key in 32 out of range, which must not be
 * counted). The counts must be exact, from poisoned counters (the function
 * zeroes them). */
START_TEST(keycount_exact)
{
    ck_assert_str_eq(__func__, W07_KEYCOUNT_TAG);
    wb_rng rng = WB_RNG();
    size_t n = W07_KC[_i].n, off = (size_t)(_i % 4);
    unsigned nkeys = W07_KC[_i].nkeys;
    uint32_t *hk = wb_hmalloc((n + off + 1) * 4), *ref = wb_hmalloc(((size_t)nkeys + 1) * 4);
    w07_keycount_fill(&rng, _i, hk, ref);
    uint32_t *dk = wb_dcopy(hk, (n + off) * 4);
    wb_dout counts;
    unsigned int *dc = wb_dout_alloc(&counts, "counts", (size_t)nkeys * 4, 0);
    WB_CUDA(atomics_keycount_warp(dk ? dk + off : NULL, n, nkeys, dc));
    char what[96];
    snprintf(what, sizeof what, "atomics_keycount_warp, n=%zu, keys+%zu, nkeys=%u, %s", n, off, nkeys,
             W07_KC_MODE[_i % 3]);
    wb_expect_dout_u32(&counts, ref, nkeys, what);
    wb_dfree(dk), wb_dout_free(&counts);
    free(hk), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- matmul */

static void check_matmul(wb_rng *rng, int M, int N, int K)
{
    size_t na = (size_t)M * K + 1, nb = (size_t)K * N + 1, nc = (size_t)M * N;
    float *hA = wb_hmalloc(na * 4), *hB = wb_hmalloc(nb * 4);
    double *ref = wb_hmalloc(nc * 8);
    w07_matmul_fill(rng, M, N, K, hA, hB, ref);
    float *dA = wb_dcopy(hA, na * 4), *dB = wb_dcopy(hB, nb * 4);
    wb_dout C;
    float *dC = wb_dout_alloc(&C, "C", nc * 4, 0);
    for (int v = 0; v < 2; v++) {
        if (v) wb_dout_poison(&C); /* each version writes into a fresh poison */
        WB_CUDA(v ? matmul_tiled(dA, dB, dC, M, N, K) : matmul_naive(dA, dB, dC, M, N, K));
        char what[80];
        snprintf(what, sizeof what, "%s, M=%d N=%d K=%d", v ? "matmul_tiled" : "matmul_naive", M, N, K);
        wb_expect_dout_f32_f64(&C, ref, nc, w07_mm_atol(K), W07_MM_RTOL, what);
    }
    wb_dfree(dA), wb_dfree(dB), wb_dout_free(&C);
    free(hA), free(hB), free(ref);
}

START_TEST(matmul_shapes)
{
    ck_assert_str_eq(__func__, W07_MATMUL_TAG);
    wb_rng rng = WB_RNG();
    check_matmul(&rng, W07_MM_SHAPES[_i][0], W07_MM_SHAPES[_i][1], W07_MM_SHAPES[_i][2]);
}
END_TEST

/* ---------------------------------------------------------------- benchmarks */

enum { SEED_X = 71, SEED_A = 73, SEED_B = 74, SEED_H = 75, SEED_K = 76, SEED_C = 77 };

typedef struct { const float *x; float *out; size_t n; int v; void *tmp; size_t tmp_bytes; } rd_ctx;

static void rd_work(void *p)
{
    rd_ctx *c = p;
    if (c->v == 0) WB_CUDA(yard_cub_sum(c->tmp, c->tmp_bytes, c->x, c->out, c->n));
    else WB_CUDA(reduce_sum(c->v, c->x, c->n, c->out, c->tmp));
}

static double rd_expect(size_t i, const void *ctx)
{
    (void)i;
    return *(const double *)ctx;
}

/* Host copy of a device array, summed in double. */
static double host_sum(const float *d, size_t n, double *abs_sum)
{
    float *h = wb_hmalloc(n * 4);
    wb_d2h(h, d, n * 4);
    double s = 0, a = 0;
    for (size_t i = 0; i < n; i++) s += h[i], a += fabs(h[i]);
    free(h);
    if (abs_sum) *abs_sum = a;
    return s;
}

/* The ladder v1..v6 and CUB on the same 100M+ floats; v6 / CUB is the
 * headline. */
static double bench_reduce(wb_headline *h)
{
    size_t bytes = wb_bench_bytes(), n = bytes / 4;
    float *x = wb_dmalloc(bytes), *out = wb_dmalloc(4);
    wb_dfill_uniform_f32(x, n, SEED_X, 0, 1);
    size_t cub_bytes = yard_cub_sum_bytes(n), my_bytes = reduce_tmp_bytes(n);
    void *tmp = wb_dmalloc(cub_bytes > my_bytes ? cub_bytes : my_bytes);
    double abs_sum, sum = host_sum(x, n, &abs_sum);
    rd_ctx c = { x, out, n, 0, tmp, cub_bytes };
    wb_bench_row yr = { .exercise = "reduce", .variant = "CUB DeviceReduce::Sum", .n = n, .bytes = 4.0 * n, .unit = "GB/s" };
    wb_time(rd_work, &c, NULL, &yr.t);
    yr.value = yr.bytes / (yr.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("sum", out, 1, rd_expect, &sum, 1, 1e-5 * abs_sum, 0, &cmp)) wb_bench_invalid(&yr, cmp.msg);
    wb_bench_emit(&yr);
    static const char *const VAR[7] = { "", "v1 interleaved", "v2 sequential", "v3 add on load", "v4 unrolled warp",
                                        "v5 shuffles, 2 passes", "v6 shuffles + atomics" };
    double ratio = NAN;
    for (int v = 1; v <= REDUCE_VERSIONS; v++) {
        c.v = v;
        wb_bench_row r = { .exercise = "reduce", .variant = VAR[v], .n = n, .bytes = 4.0 * n, .unit = "GB/s",
                           .yard_name = "CUB", .yard = yr.value };
        wb_dpoison(out, 4);
        wb_time(rd_work, &c, NULL, &r.t);
        r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
        if (wb_dverify_f32("sum", out, 1, rd_expect, &sum, 1, 1e-5 * abs_sum, 0, &cmp)) wb_bench_invalid(&r, cmp.msg);
        if (v == 6) ratio = wb_bench_headline(&r, h);
        else wb_bench_emit(&r);
    }
    wb_dfree(x), wb_dfree(out), wb_dfree(tmp);
    return ratio;
}

typedef struct { const float *x; float *y; size_t n; int s; void *tmp; size_t tmp_bytes; } sc_ctx;

static void sc_work(void *p)
{
    sc_ctx *c = p;
    if (c->s < 0) WB_CUDA(yard_cub_scan(c->tmp, c->tmp_bytes, c->x, c->y, c->n));
    else WB_CUDA(SCANS[c->s](c->x, c->y, c->n, c->tmp));
}

static double sc_expect(size_t i, const void *ctx) { return ((const double *)ctx)[i]; }

/* Hillis-Steele, Blelloch, fast, and CUB on the same data; fast / CUB is the
 * headline. */
static double bench_scan(wb_headline *head)
{
    size_t bytes = wb_bench_bytes(), n = bytes / 4;
    float *x = wb_dmalloc(bytes), *y = wb_dmalloc(bytes);
    wb_dfill_uniform_f32(x, n, SEED_X, 0, 1);
    size_t cub_bytes = yard_cub_scan_bytes(n), my_bytes = scan_tmp_bytes(n);
    void *tmp = wb_dmalloc(cub_bytes > my_bytes ? cub_bytes : my_bytes);
    double *prefix = wb_hmalloc(n * 8);
    float *h = wb_hmalloc(bytes);
    wb_d2h(h, x, bytes);
    double acc = 0;
    for (size_t i = 0; i < n; i++) acc += h[i], prefix[i] = acc;
    free(h);
    sc_ctx c = { x, y, n, -1, tmp, cub_bytes };
    wb_bench_row yr = { .exercise = "scan", .variant = "CUB DeviceScan::InclusiveSum", .n = n, .bytes = 8.0 * n,
                        .unit = "GB/s" };
    wb_dpoison(y, bytes);
    wb_time(sc_work, &c, NULL, &yr.t);
    yr.value = yr.bytes / (yr.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("y", y, n, sc_expect, prefix, 1 << 12, W07_SCAN_BENCH_ATOL, W07_SCAN_BENCH_RTOL, &cmp)) wb_bench_invalid(&yr, cmp.msg);
    wb_bench_emit(&yr);
    static const char *const VAR[3] = { "Hillis-Steele tiles", "Blelloch tiles", "reduce-then-scan" };
    double ratio = NAN;
    for (int s = 0; s < 3; s++) {
        c.s = s;
        wb_bench_row r = { .exercise = "scan", .variant = VAR[s], .n = n, .bytes = 8.0 * n, .unit = "GB/s",
                           .yard_name = "CUB", .yard = yr.value };
        wb_dpoison(y, bytes);
        wb_time(sc_work, &c, NULL, &r.t);
        r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
        if (wb_dverify_f32("y", y, n, sc_expect, prefix, 1 << 12, W07_SCAN_BENCH_ATOL, W07_SCAN_BENCH_RTOL, &cmp)) wb_bench_invalid(&r, cmp.msg);
        if (s == 2) ratio = wb_bench_headline(&r, head);
        else wb_bench_emit(&r);
    }
    free(prefix);
    wb_dfree(x), wb_dfree(y), wb_dfree(tmp);
    return ratio;
}

typedef struct { const unsigned char *x; unsigned int *bins; size_t n; int h; void *tmp; size_t tmp_bytes; } hi_ctx;

static void hi_work(void *p)
{
    hi_ctx *c = p;
    if (c->h < 0) {
        WB_CUDA(cudaMemsetAsync(c->bins, 0, HIST_BINS * 4, 0)); /* as the exercises do: a fair comparison */
        WB_CUDA(yard_cub_hist(c->tmp, c->tmp_bytes, c->x, c->bins, c->n));
    } else WB_CUDA(HISTS[c->h](c->x, c->n, c->bins));
}

/* Global, shared, warp-aggregated and CUB on the same bytes (uniform, then
 * four values); each output must equal CUB's, exactly. The headline is
 * shared / CUB on uniform bytes (the rows after it do not change it). */
static double bench_hist(wb_headline *head)
{
    size_t n = wb_bench_bytes();
    unsigned char *x = wb_dmalloc(n);
    unsigned int *bins = wb_dmalloc(HIST_BINS * 4);
    size_t cub_bytes = yard_cub_hist_bytes(n);
    void *tmp = wb_dmalloc(cub_bytes);
    double ratio = NAN;
    for (int skew = 0; skew < 2; skew++) {
        WB_CUDA(w07_fill_bytes(x, n, SEED_H, skew));
        hi_ctx c = { x, bins, n, -1, tmp, cub_bytes };
        wb_bench_row yr = { .exercise = "hist", .variant = skew ? "CUB, 4 values" : "CUB HistogramEven", .n = n,
                            .bytes = (double)n, .unit = "GB/s" };
        wb_time(hi_work, &c, NULL, &yr.t);
        yr.value = yr.bytes / (yr.t.median * 1e-3) / 1e9;
        uint32_t ref[HIST_BINS], got[HIST_BINS];
        wb_d2h(ref, bins, sizeof ref);
        uint64_t total = 0;
        for (int b = 0; b < HIST_BINS; b++) total += ref[b];
        if (total != n) wb_bench_invalid(&yr, "CUB's bins do not add up to n");
        wb_bench_emit(&yr);
        static const char *const VAR[2][3] = { { "global atomics", "shared, privatised", "warp-aggregated" },
                                               { "global atomics, 4 values", "shared, 4 values", "warp-aggr., 4 values" } };
        for (int h = 0; h < 3; h++) {
            if (skew && h == 0) continue; /* a few hundred ms per call: skipped */
            c.h = h;
            wb_bench_row r = { .exercise = "hist", .variant = VAR[skew][h], .n = n, .bytes = (double)n, .unit = "GB/s",
                               .yard_name = "CUB", .yard = yr.value };
            wb_dpoison(bins, HIST_BINS * 4);
            wb_bench_opts o = { 1, h == 0 || skew ? 5 : 20, 1 };
            wb_time(hi_work, &c, &o, &r.t);
            r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
            wb_d2h(got, bins, sizeof got);
            wb_cmp cmp;
            if (wb_compare_u32("bins", got, ref, HIST_BINS, &cmp)) wb_bench_invalid(&r, cmp.msg);
            if (!skew && h == 1) ratio = wb_bench_headline(&r, head);
            else wb_bench_emit(&r);
        }
    }
    wb_dfree(x), wb_dfree(bins), wb_dfree(tmp);
    return ratio;
}

/* ---- atomics: the contention sweeps ---- */

/* keys on the device (hash of seed, i, modulo nkeys), counted on the host */
typedef struct {
    unsigned int *keys, *counts;
    size_t n;
    unsigned nkeys;
    int warp;             /* 0: yard_keycount_naive (given), 1: atomics_keycount_warp (yours) */
    uint32_t *hk, *fresh_ref; /* host buffers: n keys, nkeys counts */
} kc_ctx;

static void kc_work(void *p)
{
    kc_ctx *c = p;
    WB_CUDA(c->warp ? atomics_keycount_warp(c->keys, c->n, c->nkeys, c->counts)
                    : yard_keycount_naive(c->keys, c->n, c->nkeys, c->counts));
}

/* The counts of the keys now on the device, counted on the host. */
static void kc_host_counts(kc_ctx *c, uint32_t *ref)
{
    wb_d2h(c->hk, c->keys, c->n * 4);
    memset(ref, 0, (size_t)c->nkeys * 4);
    for (size_t i = 0; i < c->n; i++) ref[c->hk[i]]++;
}

/* 1 (with the first wrong counter in why) unless counts equal ref. */
static int kc_verify(const kc_ctx *c, const uint32_t *ref, char *why, size_t size)
{
    uint32_t *got = wb_hmalloc((size_t)c->nkeys * 4);
    wb_d2h(got, c->counts, (size_t)c->nkeys * 4);
    wb_cmp cmp;
    int bad = wb_compare_u32("counts", got, ref, c->nkeys, &cmp) != 0;
    if (bad) snprintf(why, size, "%s", cmp.msg);
    free(got);
    return bad;
}

static void kc_fresh(void *p, unsigned long long salt)
{
    kc_ctx *c = p;
    WB_CUDA(w07_fill_u32(c->keys, c->n, SEED_K + salt, c->nkeys));
    wb_dpoison(c->counts, (size_t)c->nkeys * 4);
    if (salt) kc_host_counts(c, c->fresh_ref);
}

static int kc_check(void *p, char *why, size_t size)
{
    kc_ctx *c = p;
    return kc_verify(c, c->fresh_ref, why, size);
}

/* The contention sweep: the given naive key count (one atomic per key) and
 * yours (one per distinct key in a warp) on the same keys, for 1 to 2^20
 * distinct keys; every output checked exactly against the host's counts.
 * The headline is yours against the naive one at 1 key, where every atomic
 * of the naive version lands on one address. */
static double bench_keycount(wb_headline *h)
{
    static const unsigned K[] = { 1, 2, 4, 8, 32, 256, 4096, 65536, 1u << 20 };
    size_t n = wb_bench_bytes() / 4;
    unsigned kmax = K[WB_COUNT(K) - 1];
    kc_ctx c = { wb_dmalloc(n * 4), wb_dmalloc((size_t)kmax * 4), n, 1, 0, wb_hmalloc(n * 4), wb_hmalloc((size_t)kmax * 4) };
    uint32_t *ref = wb_hmalloc((size_t)kmax * 4);
    double ratio = NAN;
    for (size_t j = 0; j < WB_COUNT(K); j++) {
        c.nkeys = K[j];
        kc_fresh(&c, 0);
        kc_host_counts(&c, ref);
        double naive = NAN;
        for (int w = 0; w < 2; w++) {
            c.warp = w;
            char var[64];
            snprintf(var, sizeof var, "%s, %u key%s", w ? "warp-aggregated" : "naive", K[j], K[j] > 1 ? "s" : "");
            wb_bench_row r = { .exercise = "keycount", .variant = var, .n = n, .bytes = 4.0 * n + 4.0 * K[j],
                               .unit = "Gkeys/s", .yard_name = w ? "NAIVE" : NULL, .yard = naive };
            wb_bench_opts o = WB_BENCH_DEFAULTS;
            o.samples = w ? 20 : 10; /* the naive version at few keys is slow */
            o.fresh = kc_fresh, o.check = kc_check;
            wb_dpoison(c.counts, (size_t)K[j] * 4);
            wb_time(kc_work, &c, &o, &r.t);
            r.value = n / (r.t.median * 1e-3) / 1e9;
            char why[200];
            if (kc_verify(&c, ref, why, sizeof why)) wb_bench_invalid(&r, why);
            if (!w) naive = r.invalid ? NAN : r.value;
            if (w && j == 0) ratio = wb_bench_headline(&r, h);
            else wb_bench_emit(&r);
        }
    }
    wb_dfree(c.keys), wb_dfree(c.counts);
    free(c.hk), free(c.fresh_ref), free(ref);
    return ratio;
}

/* 64-bit mix of a word: the sum of mix(v) over a multiset of words is an
 * order-free fingerprint of it. */
static uint64_t word_mix(uint32_t v)
{
    uint64_t z = v * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

typedef struct {
    unsigned int *x, *out, *count;
    size_t n;
    uint32_t thresh;
    int warp;
    uint32_t *h;                   /* host buffer of n words */
    size_t want, fresh_want;       /* kept words of the first inputs, of the fresh ones */
    uint64_t print, fresh_print;   /* their fingerprints */
} cp_ctx;

static void cp_work(void *p)
{
    cp_ctx *c = p;
    WB_CUDA(c->warp ? atomics_compact_warp(c->x, c->n, c->thresh, c->out, c->count)
                    : yard_compact_naive(c->x, c->n, c->thresh, c->out, c->count));
}

/* How many words on the device are kept, and their fingerprint. */
static size_t cp_host_ref(cp_ctx *c, uint64_t *print)
{
    wb_d2h(c->h, c->x, c->n * 4);
    size_t k = 0;
    uint64_t f = 0;
    for (size_t i = 0; i < c->n; i++)
        if (c->h[i] < c->thresh) k++, f += word_mix(c->h[i]);
    *print = f;
    return k;
}

/* 1 (and why) unless the count is `want` and out[0..want) are words below
 * the threshold with the fingerprint `print`. */
static int cp_verify(cp_ctx *c, size_t want, uint64_t print, char *why, size_t size)
{
    uint32_t count;
    wb_d2h(&count, c->count, 4);
    if (count != want) return snprintf(why, size, "count %u, expected %zu", count, want), 1;
    wb_d2h(c->h, c->out, want * 4);
    uint64_t f = 0;
    size_t above = 0;
    for (size_t i = 0; i < want; i++) f += word_mix(c->h[i]), above += c->h[i] >= c->thresh;
    if (above) return snprintf(why, size, "%zu words of out are not below the threshold", above), 1;
    if (f != print) return snprintf(why, size, "out does not hold the kept words (a multiset fingerprint differs)"), 1;
    return 0;
}

static void cp_fresh(void *p, unsigned long long salt)
{
    cp_ctx *c = p;
    WB_CUDA(w07_fill_u32(c->x, c->n, SEED_C + salt, 0));
    wb_dpoison(c->out, c->n * 4);
    wb_dpoison(c->count, 4);
    if (salt) c->fresh_want = cp_host_ref(c, &c->fresh_print);
}

static int cp_check(void *p, char *why, size_t size)
{
    cp_ctx *c = p;
    return cp_verify(c, c->fresh_want, c->fresh_print, why, size);
}

/* Stream compaction, kept fraction 0 to 1: the given naive filter (whose
 * atomics ptxas already aggregates) and yours, on the same words; each
 * output checked (count exact, a multiset fingerprint of the kept words).
 * GB/s counts the words read and the words written. No checkpoint. */
static double bench_compact(void)
{
    static const struct { uint32_t thresh; const char *name; } F[] = {
        { 0, "none kept" }, { 1u << 27, "1/32 kept" }, { 1u << 31, "1/2 kept" }, { 0xFFFFFFFFu, "all kept" } };
    size_t n = wb_bench_bytes() / 4;
    cp_ctx c = { wb_dmalloc(n * 4), wb_dmalloc(n * 4), wb_dmalloc(4), n, 0, 0, wb_hmalloc(n * 4), 0, 0, 0, 0 };
    for (size_t j = 0; j < WB_COUNT(F); j++) {
        c.thresh = F[j].thresh;
        cp_fresh(&c, 0);
        c.want = cp_host_ref(&c, &c.print);
        double naive = NAN;
        for (int w = 0; w < 2; w++) {
            c.warp = w;
            char var[64];
            snprintf(var, sizeof var, "%s, %s", w ? "warp-aggregated" : "naive", F[j].name);
            wb_bench_row r = { .exercise = "compact", .variant = var, .n = n, .bytes = 4.0 * n + 4.0 * c.want,
                               .unit = "GB/s", .yard_name = w ? "NAIVE" : NULL, .yard = naive };
            wb_bench_opts o = WB_BENCH_DEFAULTS;
            o.fresh = cp_fresh, o.check = cp_check;
            wb_time(cp_work, &c, &o, &r.t);
            r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
            char why[200];
            if (cp_verify(&c, c.want, c.print, why, sizeof why)) wb_bench_invalid(&r, why);
            if (!w) naive = r.invalid ? NAN : r.value;
            wb_bench_emit(&r);
        }
    }
    wb_dfree(c.x), wb_dfree(c.out), wb_dfree(c.count);
    free(c.h);
    return NAN;
}

typedef struct { const float *A, *B; float *C; int n, v; cublasHandle_t h; } mm_ctx;

static void mm_work(void *p)
{
    mm_ctx *c = p;
    if (c->v == 0) {
        const float one = 1, zero = 0; /* row-major C = A B is column-major C^T = B^T A^T */
        cublasStatus_t s = cublasSgemm(c->h, CUBLAS_OP_N, CUBLAS_OP_N, c->n, c->n, c->n, &one, c->B, c->n, c->A, c->n,
                                       &zero, c->C, c->n);
        if (s != CUBLAS_STATUS_SUCCESS) fprintf(stderr, "cublasSgemm failed: %d\n", (int)s); /* C stays poisoned: the row shows WRONG */
    } else WB_CUDA(c->v == 1 ? matmul_naive(c->A, c->B, c->C, c->n, c->n, c->n) : matmul_tiled(c->A, c->B, c->C, c->n, c->n, c->n));
}

static double mm_expect(size_t i, const void *ctx)
{
    const mm_ctx *c = ctx;
    size_t n = (size_t)c->n, r = i / n, col = i % n;
    double acc = 0;
    for (size_t k = 0; k < n; k++)
        acc += (double)wb_hash_uniform_f32(SEED_A, r * n + k, -1, 1) * wb_hash_uniform_f32(SEED_B, k * n + col, -1, 1);
    return acc;
}

static char mm_figure[200];
static char mm_detail[600]; /* the last row's detail (wb_bench_detail), for the test's message */

/* Naive and tiled against cuBLAS SGEMM (FP32, no TF32) at 4096; returns
 * tiled / cuBLAS. */
static double bench_matmul(void)
{
    int n = 4096;
    size_t e = (size_t)n * n;
    mm_ctx c = { wb_dmalloc(e * 4), wb_dmalloc(e * 4), wb_dmalloc(e * 4), n, 0, NULL };
    wb_dfill_uniform_f32((float *)c.A, e, SEED_A, -1, 1);
    wb_dfill_uniform_f32((float *)c.B, e, SEED_B, -1, 1);
    if (cublasCreate(&c.h) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublasCreate failed\n");
        wb_dfree((void *)c.A), wb_dfree((void *)c.B), wb_dfree(c.C);
        return NAN;
    }
    cublasSetMathMode(c.h, CUBLAS_PEDANTIC_MATH);
    double flops = 2.0 * n * n * (double)n, fig[3] = { NAN, NAN, NAN };
    static const char *const VAR[3] = { "cuBLAS SGEMM (FP32)", "naive", "shared tiles 32x32" };
    double yard = NAN;
    for (int v = 0; v < 3; v++) {
        c.v = v;
        wb_bench_row r = { .exercise = "matmul", .variant = VAR[v], .n = (size_t)n, .bytes = 12.0 * e, .flops = flops,
                           .unit = "TFLOP/s", .yard_name = v ? "cuBLAS" : NULL, .yard = yard };
        wb_dpoison(c.C, e * 4);
        wb_bench_opts o = { 1, v == 1 ? 5 : 10, 0 };
        wb_time(mm_work, &c, &o, &r.t);
        r.value = flops / (r.t.median * 1e-3) / 1e12;
        wb_cmp cmp;
        if (wb_dverify_f32("C", c.C, e, mm_expect, &c, 128, 1e-3, 1e-4, &cmp)) wb_bench_invalid(&r, cmp.msg);
        wb_bench_emit(&r);
        wb_bench_detail(&r, mm_detail, sizeof mm_detail);
        if (v == 0) yard = r.value;
        fig[v] = r.invalid ? NAN : r.value;
    }
    cublasDestroy(c.h);
    wb_dfree((void *)c.A), wb_dfree((void *)c.B), wb_dfree(c.C);
    snprintf(mm_figure, sizeof mm_figure, "4096^3: naive %.2f, tiled %.2f, cuBLAS %.2f TFLOP/s (tiled %.3f of cuBLAS)",
             fig[1], fig[2], fig[0], fig[2] / fig[0]);
    return isnan(fig[1]) ? NAN : fig[2] / fig[0];
}

START_TEST(matmul_vs_cublas)
{
    double r = bench_matmul();
    ck_assert_msg(!isnan(r), "a timed matmul gave a wrong output: %s", mm_detail);
    wb_report(mm_figure);
}
END_TEST

static const wb_test TESTS[] = {
    { "w07.reduce", WB_T(reduce_exact), WB_GPU, W07_N_SIZES },
    { "w07.reduce", WB_T(reduce_float), WB_GPU, W07_N_REDUCE_FLOAT },
    { "w07.reduce", WB_T(reduce_nan_inf), WB_GPU, W07_N_REDUCE_NANINF },
    { "w07.reduce", WB_T(reduce_bad_version), WB_GPU, 0 },
    WB_SPEED("w07.reduce-bw", bench_reduce),
    { "w07.scan", WB_T(scan_exact), WB_GPU, W07_N_SCAN_EXACT },
    { "w07.scan", WB_T(scan_float_nan_inf), WB_GPU, W07_N_SCAN_FLOAT },
    WB_SPEED("w07.scan-bw", bench_scan),
    { "w07.hist", WB_T(hist_exact), WB_GPU, W07_N_HIST },
    WB_SPEED("w07.hist-bw", bench_hist),
    { "w07.compact", WB_T(compact_sizes), WB_GPU, W07_N_SIZES },
    { "w07.compact", WB_T(compact_kinds), WB_GPU, W07_N_COMPACT_KINDS },
    { "w07.keycount", WB_T(keycount_exact), WB_GPU, W07_N_KC },
    WB_SPEED("w07.keycount-speed", bench_keycount),
    { "w07.matmul", WB_T(matmul_shapes), WB_GPU, W07_N_MM },
    { "w07.matmul", WB_T(matmul_vs_cublas), WB_GPU, 0 },
};

/* Benchmarks that serve no speed checkpoint (compact's sweep is a report;
 * matmul's figure is reported by matmul_vs_cublas, with no target); `--bench`
 * also runs every WB_SPEED one. */
static const wb_benchmark BENCHES[] = {
    { "compact", bench_compact },
    { "matmul", bench_matmul },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
