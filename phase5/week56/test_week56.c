/* test_week56.c — week 56 (Phase 5's optional Hopper track): a histogram in
 * a cluster's distributed shared memory, its plan checked on the CPU, and a
 * TMA multicast copy checked bit for bit and timed against cudaMemcpy. Both
 * are sm_90a code: on a GPU that is not compute capability 9.0 their GPU
 * checkpoints are SKIP, saying why. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "cluster_hist.h"
#include "support/yard_hist.h"
#include "tma_multicast.h"
#include "tma_copy_check.h" /* phase5/common: the copy checks week 53 shares */

/* An H100's (and H200's) cudaDevAttrMaxSharedMemoryPerBlockOptin: 227 KiB. */
enum { H100_SMEM = 232448, H100_BINS = H100_SMEM / 4 };

/* ---------------------------------------------------------------- w56.plan (CPU) */

/* The reference: cluster_hist.h's rules in its order. */
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
    return s >= 0 && s < (int)WB_COUNT(names) ? names[s] : "(not a chist_status)";
}

/* The learner's plan against the reference: status, every field, *p
 * untouched on refusal. */
static void check_plan(uint32_t nbins, int cluster, size_t limit, const char *what)
{
    chist_plan want, got, before;
    chist_status ws = ref_plan(nbins, cluster, limit, &want);
    memset(&got, 0x5A, sizeof got);
    before = got;
    chist_status gs = cluster_hist_plan(nbins, cluster, limit, &got);
    char desc[200];
    snprintf(desc, sizeof desc, "%s: %u bins, cluster %d, limit %zu bytes", what, nbins, cluster, limit);
    ck_assert_msg(gs == ws, "%s: %s, expected %s", desc, chist_name(gs), chist_name(ws));
    if (ws != CHIST_OK) {
        ck_assert_msg(memcmp(&got, &before, sizeof got) == 0, "%s: refused (%s), but *p was written", desc,
                      chist_name(gs));
        return;
    }
    ck_assert_msg(got.cluster == want.cluster && got.bins_per_cta == want.bins_per_cta &&
                      got.smem_bytes == want.smem_bytes,
                  "%s: cluster %d, %u bins a CTA, %zu bytes; expected %d, %u, %zu", desc, got.cluster,
                  got.bins_per_cta, got.smem_bytes, want.cluster, want.bins_per_cta, want.smem_bytes);
}

/* Worked cases with the answer written out (the reference must agree). */
START_TEST(plan_table)
{
    const size_t L = H100_SMEM;
    const struct { uint32_t nbins; int cluster; size_t limit; chist_status st; int c; uint32_t per; } T[] = {
        { 1, 0, L, CHIST_OK, 1, 1 },
        { 4096, 0, L, CHIST_OK, 1, 4096 },
        { H100_BINS, 0, L, CHIST_OK, 1, H100_BINS },           /* exactly one CTA's 227 KiB */
        { H100_BINS + 1, 0, L, CHIST_OK, 2, 29057 },           /* one more: a cluster of 2 */
        { 2 * H100_BINS, 0, L, CHIST_OK, 2, H100_BINS },
        { 2 * H100_BINS + 1, 0, L, CHIST_OK, 4, 29057 },       /* 116225 / 4 = 29056.25: the last CTA owns fewer */
        { 4 * H100_BINS, 0, L, CHIST_OK, 4, H100_BINS },
        { 4 * H100_BINS + 1, 0, L, CHIST_OK, 8, 29057 },
        { 8 * H100_BINS, 0, L, CHIST_OK, 8, H100_BINS },       /* all a cluster of 8 holds */
        { 8 * H100_BINS + 1, 0, L, CHIST_ERR_TOO_BIG, 0, 0 },
        { 5, 8, L, CHIST_OK, 8, 1 },                           /* asked for: CTAs 5 to 7 own nothing */
        { 4096, 2, L, CHIST_OK, 2, 2048 },
        { 100000, 1, L, CHIST_ERR_TOO_BIG, 0, 0 },             /* asked for 1: does not fit */
        { 100000, 2, L, CHIST_OK, 2, 50000 },
        { 300000, 4, L, CHIST_ERR_TOO_BIG, 0, 0 },
        { 4096, 0, 101376, CHIST_OK, 1, 4096 },                /* a 99 KiB GPU */
        { 100000, 0, 101376, CHIST_OK, 4, 25000 },
        { 1000, 0, 0, CHIST_ERR_TOO_BIG, 0, 0 },
        { 0xFFFFFFFFu, 0, (size_t)1 << 31, CHIST_OK, 8, 536870912 }, /* nbins + 7 wraps in 32 bits */
        { 0xFFFFFFFFu, 0, L, CHIST_ERR_TOO_BIG, 0, 0 },
        { 0, 0, L, CHIST_ERR_ARG, 0, 0 },
        { 100, 3, L, CHIST_ERR_ARG, 0, 0 },
        { 100, 16, L, CHIST_ERR_ARG, 0, 0 },                   /* non-portable: not this week */
        { 100, -1, L, CHIST_ERR_ARG, 0, 0 },
    };
    for (size_t i = 0; i < WB_COUNT(T); i++) {
        chist_plan p;
        chist_status r = ref_plan(T[i].nbins, T[i].cluster, T[i].limit, &p);
        ck_assert_msg(r == T[i].st && (r != CHIST_OK || (p.cluster == T[i].c && p.bins_per_cta == T[i].per)),
                      "the test's own reference disagrees with its table at line %zu", i);
        char what[32];
        snprintf(what, sizeof what, "case %zu", i);
        check_plan(T[i].nbins, T[i].cluster, T[i].limit, what);
    }
    chist_status s = cluster_hist_plan(100, 0, H100_SMEM, NULL);
    ck_assert_msg(s == CHIST_ERR_ARG, "p NULL: %s, expected CHIST_ERR_ARG", chist_name(s));
}
END_TEST

START_TEST(plan_random)
{
    wb_rng rng = WB_RNG();
    static const int C[] = { 0, 0, 0, 1, 2, 4, 8, 3, 5, 16 };
    static const size_t LIM[] = { H100_SMEM, 101376, 166912, 49152, 65536 };
    for (int k = 0; k < 5000; k++) {
        int big = wb_rng_int(&rng, 0, 19) == 0;
        uint32_t nbins = (uint32_t)wb_rng_int(&rng, 0, big ? (int64_t)0xFFFFFFFF : 600000);
        size_t limit = wb_rng_int(&rng, 0, 4) ? LIM[wb_rng_int(&rng, 0, (int64_t)WB_COUNT(LIM) - 1)]
                                              : (size_t)wb_rng_int(&rng, 0, 1 << 20);
        check_plan(nbins, C[wb_rng_int(&rng, 0, (int64_t)WB_COUNT(C) - 1)], limit, "random");
    }
}
END_TEST

/* ---------------------------------------------------------------- w56.dsmem (GPU) */

#define NEED_SM90A_HIST() wb_need_sm90a("cluster_hist (thread-block clusters, distributed shared memory)")

enum { K_UNIFORM, K_ONE_BIN, K_DISTINCT, K_OUT_OF_RANGE, K_SKEWED, K_EDGES };
static const char *const KIND[] = { "uniform", "all in one bin", "all distinct", "a third out of range",
                                    "skewed (90 % in 4 bins)", "the first and last bin of every CTA share" };

typedef struct {
    size_t n;
    uint32_t nbins;
    int cluster, kind;
    size_t off; /* keys start this many uint32 past a 256-byte boundary */
} hist_case;

static const hist_case HCASES[] = {
    { 0, 1000, 0, K_UNIFORM, 0 },
    { 1, 1, 0, K_UNIFORM, 0 },
    { 1, 1000, 8, K_UNIFORM, 1 },
    { 7, 3, 2, K_UNIFORM, 3 },
    { 1000, 5, 8, K_UNIFORM, 0 },                   /* fewer bins than CTAs */
    { 100003, 4099, 0, K_UNIFORM, 3 },              /* one CTA's worth: cluster 1 */
    { 100003, 4099, 2, K_UNIFORM, 1 },
    { 100003, 4099, 4, K_ONE_BIN, 2 },
    { 100003, 4099, 8, K_SKEWED, 0 },
    { 100003, 4099, 8, K_EDGES, 1 },
    { H100_BINS, H100_BINS, 0, K_DISTINCT, 0 },     /* a full CTA */
    { 1 << 20, H100_BINS + 1, 0, K_UNIFORM, 2 },    /* cluster of 2 */
    { 1 << 20, 2 * H100_BINS + 1, 0, K_OUT_OF_RANGE, 0 },
    { 1 << 20, 2 * H100_BINS + 1, 0, K_EDGES, 3 },  /* cluster of 4 */
    { 1 << 22, 4 * H100_BINS + 1, 0, K_UNIFORM, 1 },
    { 8 * H100_BINS, 8 * H100_BINS, 0, K_DISTINCT, 0 }, /* a full cluster of 8 */
    { 1 << 22, 8 * H100_BINS, 0, K_ONE_BIN, 0 },
    { 3000017, 300007, 8, K_EDGES, 2 },
    { (1 << 24) + 3, 65536, 0, K_SKEWED, 1 },
};

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
        case K_EDGES: { /* both ends of some CTA's share, for the share sizes of clusters 2 to 8 */
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

static void check_hist(wb_rng *rng, const hist_case *c)
{
    uint32_t *hk = wb_hmalloc((c->n + c->off + 1) * 4), *ref = wb_hmalloc((size_t)c->nbins * 4);
    make_keys(rng, hk + c->off, c->n, c->nbins, c->kind, c->cluster);
    memset(ref, 0, (size_t)c->nbins * 4);
    for (size_t i = 0; i < c->n; i++)
        if (hk[c->off + i] < c->nbins) ref[hk[c->off + i]]++;
    uint32_t *dk = wb_dcopy(hk, (c->n + c->off + 1) * 4);
    wb_dout o;
    uint32_t *db = wb_dout_alloc(&o, "bins", (size_t)c->nbins * 4, 0);
    char what[200];
    snprintf(what, sizeof what, "%zu keys (%s, %zu bytes past alignment), %u bins, cluster %d%s", c->n,
             KIND[c->kind], c->off * 4, c->nbins, c->cluster, c->cluster ? "" : " (planned)");
    cudaError_t e = cluster_hist(dk + c->off, c->n, db, c->nbins, c->cluster);
    ck_assert_msg(e == cudaSuccess, "%s: cluster_hist returned %s", what, cudaGetErrorName(e));
    wb_expect_dout_u32(&o, ref, c->nbins, what);
    wb_dfree(dk), wb_dout_free(&o);
    free(hk), free(ref);
}

START_TEST(hist_cases)
{
    NEED_SM90A_HIST();
    wb_rng rng = WB_RNG();
    check_hist(&rng, &HCASES[_i]);
}
END_TEST

START_TEST(hist_random)
{
    NEED_SM90A_HIST();
    wb_rng rng = WB_RNG();
    static const int C[] = { 0, 1, 2, 4, 8 };
    hist_case c;
    c.cluster = C[wb_rng_int(&rng, 0, 4)];
    uint32_t most = (uint32_t)(c.cluster ? c.cluster : 8) * H100_BINS;
    c.nbins = (uint32_t)wb_rng_int(&rng, 1, c.cluster == 1 ? H100_BINS : most);
    c.n = (size_t)wb_rng_int(&rng, 0, 3000000);
    c.kind = (int)wb_rng_int(&rng, 0, 5);
    if (c.kind == K_DISTINCT && c.n > c.nbins) c.n = c.nbins;
    c.off = (size_t)wb_rng_int(&rng, 0, 3);
    check_hist(&rng, &c);
}
END_TEST

/* Sizes the plan refuses on this device, on real buffers: the error, and
 * nothing written. */
START_TEST(hist_refused)
{
    NEED_SM90A_HIST();
    int dev = 0, lim = 0;
    WB_CUDA(cudaGetDevice(&dev));
    WB_CUDA(cudaDeviceGetAttribute(&lim, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    const uint32_t per = (uint32_t)lim / 4;
    const struct { uint32_t nbins; int cluster; const char *why; } R[] = {
        { 8 * per + 1, 0, "one bin more than a cluster of 8 holds" },
        { per + 1, 1, "cluster 1 asked for, one bin more than a CTA holds" },
        { 4 * per + 1, 4, "cluster 4 asked for, one bin more than it holds" },
        { 1000, 3, "cluster 3" },
    };
    uint32_t *dk = wb_dmalloc(1024 * 4);
    wb_dpoison(dk, 1024 * 4);
    for (size_t i = 0; i < WB_COUNT(R); i++) {
        wb_dout o;
        uint32_t *db = wb_dout_alloc(&o, "bins", (size_t)R[i].nbins * 4, 0);
        cudaError_t e = cluster_hist(dk, 1024, db, R[i].nbins, R[i].cluster);
        ck_assert_msg(e == cudaErrorInvalidValue, "%s (%u bins, limit %d bytes a CTA): must be refused with "
                      "cudaErrorInvalidValue, got %s", R[i].why, R[i].nbins, lim, cudaGetErrorName(e));
        uint32_t *want = wb_hmalloc((size_t)R[i].nbins * 4);
        memset(want, 0xFF, (size_t)R[i].nbins * 4);
        wb_expect_dout_u32(&o, want, R[i].nbins, R[i].why);
        free(want);
        wb_dout_free(&o);
    }
    wb_dfree(dk);
}
END_TEST

/* The host side, no GPU: a cluster size that is not 0, 1, 2, 4, 8 refused
 * before any CUDA call; nbins 0 done without one. */
START_TEST(hist_contract)
{
    cudaError_t e = cluster_hist(NULL, 100, NULL, 100, 3);
    ck_assert_msg(e == cudaErrorInvalidValue, "cluster 3: must be refused with cudaErrorInvalidValue before any "
                  "CUDA call, got %s", cudaGetErrorName(e));
    e = cluster_hist(NULL, 100, NULL, 0, 0);
    ck_assert_msg(e == cudaSuccess, "0 bins: cudaSuccess and nothing done, got %s", cudaGetErrorName(e));
}
END_TEST

/* ---------------------------------------------------------------- w56.multicast (GPU) */

#define NEED_SM90A_MC() wb_need_sm90a("tma_multicast (clusters, TMA multicast, remote mbarrier arrivals)")

/* The copy under test, for tma_copy_check.h (phase5/common, shared with
 * week 53's tests): tma_multicast_f32 with its copies and multicast flag. */
typedef struct {
    int copies, mc;
} mc_args;

static cudaError_t mc_call(const void *ctx, const float *src, size_t ld_src, float *dst, size_t ld_dst, size_t rows,
                           size_t cols)
{
    const mc_args *m = (const mc_args *)ctx;
    return tma_multicast_f32(src, ld_src, dst, ld_dst, rows, cols, m->copies, m->mc);
}

/* `copies` copies of shape s, every element of dst checked (padding
 * included: still the poison). */
static void check_mc(wb_rng *rng, tma_copy_shape s, int copies, int mc, int specials)
{
    const mc_args m = { copies, mc };
    char what[80];
    snprintf(what, sizeof what, "%d copies, %s", copies, mc ? "multicast" : "no multicast");
    tma_check_copies(rng, s, copies, specials, mc_call, &m, what);
}

static const tma_copy_shape SHAPES[] = {
    { 1, 1, 0, 0 },      { 1, 4, 0, 0 },      { 3, 5, 0, 4 },        { 2, 7, 8, 0 },        { 31, 33, 0, 0 },
    { 128, 32, 0, 0 },   { 129, 33, 4, 12 },  { 33, 200, 0, 4 },     { 257, 1000, 0, 4 },   { 1000, 257, 4, 0 },
    { 2, 1025, 0, 0 },   { 1025, 3, 4, 4 },   { 513, 4099, 0, 0 },   { 4097, 2049, 4, 8 },  { 3001, 5003, 0, 0 },
};

/* Every shape with 2 and 4 copies, multicast and not. */
START_TEST(mc_shapes)
{
    NEED_SM90A_MC();
    wb_rng rng = WB_RNG();
    static const int CFG[][2] = { { 2, 1 }, { 4, 1 }, { 4, 0 }, { 2, 0 } };
    for (size_t i = 0; i < WB_COUNT(CFG); i++) check_mc(&rng, SHAPES[_i], CFG[i][0], CFG[i][1], 0);
}
END_TEST

START_TEST(mc_specials)
{
    NEED_SM90A_MC();
    wb_rng rng = WB_RNG();
    const tma_copy_shape s[] = { { 77, 45, 0, 4 }, { 300, 129, 4, 0 } };
    check_mc(&rng, s[_i], 4, 1, 1);
    check_mc(&rng, s[_i], 2, 1, 1);
}
END_TEST

START_TEST(mc_random)
{
    NEED_SM90A_MC();
    wb_rng rng = WB_RNG();
    tma_copy_shape s = { (size_t)wb_rng_int(&rng, 1, 900), (size_t)wb_rng_int(&rng, 1, 900),
                         4 * (size_t)wb_rng_int(&rng, 0, 3), 4 * (size_t)wb_rng_int(&rng, 0, 3) };
    check_mc(&rng, s, wb_rng_int(&rng, 0, 1) ? 4 : 2, (int)wb_rng_int(&rng, 0, 3) != 0, (int)(_i & 1));
}
END_TEST

/* Empty shapes on real buffers: cudaSuccess, nothing written. */
START_TEST(mc_empty)
{
    NEED_SM90A_MC();
    const mc_args m = { 4, 1 };
    tma_check_empty(mc_call, &m);
}
END_TEST

typedef struct {
    size_t rows, cols, ld_src, ld_dst, off_src, off_dst; /* offsets in floats */
    int copies;
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

START_TEST(mc_refused)
{
    NEED_SM90A_MC();
    const mc_refused_case *c = &REFUSED[_i];
    float *ds = wb_dmalloc(4096);
    wb_dpoison(ds, 4096);
    wb_dout o;
    size_t nd = 1024;
    float *dd = wb_dout_alloc(&o, "dst", nd * 4, 0);
    for (int mc = 0; mc < 2; mc++)
        tma_expect_refused(
            tma_multicast_f32(ds + c->off_src, c->ld_src, dd + c->off_dst, c->ld_dst, c->rows, c->cols, c->copies, mc),
            c->why);
    tma_expect_untouched(&o, nd, c->why);
    wb_dout_free(&o), wb_dfree(ds);
}
END_TEST

/* The host side, no GPU: refusals before any CUDA call, empty shapes
 * without one (NULL pointers). */
START_TEST(mc_contract)
{
    const uintptr_t A = 0x7f0000000000ull;
    for (size_t i = 0; i < WB_COUNT(REFUSED); i++) {
        const mc_refused_case *c = &REFUSED[i];
        tma_expect_refused(tma_multicast_f32((const float *)A + c->off_src, c->ld_src,
                                             (float *)(A + 65536) + c->off_dst, c->ld_dst, c->rows, c->cols,
                                             c->copies, 1),
                           c->why);
    }
    tma_expect_refused(tma_multicast_f32((const float *)A, 1u << 31, (float *)A, 1u << 31, (size_t)1 << 31, 4, 4, 1),
                       "2^31 rows: TMA's coordinates are 32-bit signed");
    const mc_args m = { 2, 1 };
    tma_check_empty_host(mc_call, &m);
}
END_TEST

/* ---------------------------------------------------------------- w56.multicast-bw */

enum { SEED_MC = 56, SEED_HIST = 5600 };

typedef struct {
    const float *src;
    float *dst;
    size_t rows, cols;
    int copies, mc;
    unsigned long long salt;
} mc_ctx;

static void mc_work(void *p)
{
    mc_ctx *c = p;
    WB_CUDA(tma_multicast_f32(c->src, c->cols, c->dst, c->cols, c->rows, c->cols, c->copies, c->mc));
}

/* Element i of the copies is element i % (rows * cols) of the source. */
static double mc_expect(size_t i, const void *p)
{
    const mc_ctx *c = p;
    return wb_hash_uniform_f32(SEED_MC + c->salt, i % (c->rows * c->cols), -1, 1);
}

static void mc_fresh(void *p, unsigned long long salt)
{
    mc_ctx *c = p;
    c->salt = salt;
    wb_dfill_uniform_f32((float *)c->src, c->rows * c->cols, SEED_MC + salt, -1, 1);
    wb_dpoison(c->dst, (size_t)c->copies * c->rows * c->cols * 4);
}

static int mc_check(void *p, char *why, size_t size)
{
    mc_ctx *c = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("dst", c->dst, (size_t)c->copies * c->rows * c->cols, mc_expect, c, 1 << 12, 0, 0, &cmp))
        return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* `copies` copies of a rows x 8192 float matrix, wb_bench_bytes() of output
 * (well past L2); the figure counts the bytes read (the source once) and
 * written (every copy); COPY is cudaMemcpy of the output's bytes in the
 * same run. The timed output checked after timing, and a spot check on
 * fresh inputs (wb_time). */
static wb_bench_row mc_row(int copies, int mc, double copy)
{
    const size_t cols = 8192, out = wb_bench_bytes(), rows = out / 4 / cols / (size_t)copies, n = rows * cols;
    mc_ctx c = { wb_dmalloc(n * 4), wb_dmalloc((size_t)copies * n * 4), rows, cols, copies, mc, 0 };
    wb_dfill_uniform_f32((float *)c.src, n, SEED_MC, -1, 1);
    wb_dpoison(c.dst, (size_t)copies * n * 4);
    if (copy <= 0) copy = wb_yard_copy_gbps((size_t)copies * n * 4);
    static char var[4][64];
    char *v = var[(copies == 4) * 2 + (mc != 0)];
    snprintf(v, sizeof var[0], "%d copies, cluster of %d, %s", copies, copies, mc ? "multicast" : "each CTA loads");
    wb_bench_row r = { .exercise = "tma_multicast", .variant = v, .n = n, .bytes = 4.0 * n * (1 + copies),
                       .flops = 0, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = mc_fresh, o.check = mc_check;
    wb_time(mc_work, &c, &o, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("dst", c.dst, (size_t)copies * n, mc_expect, &c, 1 << 16, 0, 0, &cmp))
        wb_bench_invalid(&r, cmp.msg);
    wb_dfree((void *)c.src), wb_dfree(c.dst);
    return r;
}

/* A test, not a WB_SPEED line: off compute capability 9.0 it must be SKIP. */
START_TEST(mc_bw)
{
    NEED_SM90A_MC();
    wb_bench_row r = mc_row(4, 1, 0);
    wb_expect_target_row("w56.multicast-bw", &r);
}
END_TEST

static const wb_test TESTS[] = {
    { "w56.plan", WB_T(plan_table), WB_CPU, 0 },
    { "w56.plan", WB_T(plan_random), WB_CPU, 4 },
    { "w56.dsmem", WB_T(hist_contract), WB_CPU, 0 },
    { "w56.dsmem", WB_T(hist_cases), WB_GPU, WB_COUNT(HCASES) },
    { "w56.dsmem", WB_T(hist_random), WB_GPU, 8 },
    { "w56.dsmem", WB_T(hist_refused), WB_GPU, 0 },
    { "w56.multicast", WB_T(mc_contract), WB_CPU, 0 },
    { "w56.multicast", WB_T(mc_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w56.multicast", WB_T(mc_specials), WB_GPU, 2 },
    { "w56.multicast", WB_T(mc_random), WB_GPU, 8 },
    { "w56.multicast", WB_T(mc_empty), WB_GPU, 0 },
    { "w56.multicast", WB_T(mc_refused), WB_GPU, WB_COUNT(REFUSED) },
    { "w56.multicast-bw", WB_T(mc_bw), WB_GPU, 0 },
};

/* ---------------------------------------------------------------- benchmarks (printed only) */

#define NEED_CC90_BENCH(name)                                                                                   \
    do {                                                                                                        \
        if (!wb_device_is_cc(9, 0)) {                                                                           \
            printf("%s: skipped, sm_90a code needs a compute capability 9.0 GPU (this one is %d.%d)\n", (name), \
                   wb_this_device()->cc_major, wb_this_device()->cc_minor);                                     \
            return NAN;                                                                                         \
        }                                                                                                       \
    } while (0)

/* 2 and 4 copies, with and without multicast, against one COPY of the
 * largest output (the same bytes for all four rows). The headline of
 * w56.multicast-bw is the 4-copy multicast row. */
static double bench_multicast(void)
{
    NEED_CC90_BENCH("multicast");
    const size_t cols = 8192, out4 = wb_bench_bytes() / 4 / cols / 4 * cols * 4 * 4;
    double copy = wb_yard_copy_gbps(out4), ratio = NAN;
    for (int copies = 2; copies <= 4; copies += 2)
        for (int mc = 0; mc < 2; mc++) {
            wb_bench_row r = mc_row(copies, mc, copy);
            wb_bench_emit(&r);
            if (copies == 4 && mc) ratio = wb_bench_ratio(&r);
        }
    return ratio;
}

typedef struct {
    const uint32_t *keys;
    uint32_t *bins;
    size_t n;
    uint32_t nbins;
    int cluster; /* -1: yard_hist_global */
} hi_ctx;

static void hi_work(void *p)
{
    hi_ctx *c = p;
    WB_CUDA(c->cluster < 0 ? yard_hist_global(c->keys, c->n, c->bins, c->nbins)
                           : cluster_hist(c->keys, c->n, c->bins, c->nbins, c->cluster));
}

/* Global atomics against the cluster histogram on the same uniform keys,
 * for bins that fit one CTA (16 KiB; also forced into clusters of 2 and 8,
 * to see what going through distributed shared memory costs) and bins that
 * need a cluster of 2, 4 and 8. Every output checked against the host's
 * counts. Printed only: no checkpoint judges these rows. */
static double bench_cluster_hist(void)
{
    NEED_CC90_BENCH("cluster_hist");
    static const struct { uint32_t nbins; int cluster; } B[] = {
        { 4096, 0 }, { 4096, 2 }, { 4096, 8 }, { 2 * H100_BINS, 0 }, { 4 * H100_BINS, 0 }, { 8 * H100_BINS, 0 },
    };
    const size_t n = wb_bench_bytes() / 4;
    uint32_t *hk = wb_hmalloc(n * 4), *ref = wb_hmalloc((size_t)8 * H100_BINS * 4),
             *got = wb_hmalloc((size_t)8 * H100_BINS * 4);
    uint32_t *dk = wb_dmalloc(n * 4), *db = wb_dmalloc((size_t)8 * H100_BINS * 4);
    int dev = 0, lim = 0;
    WB_CUDA(cudaGetDevice(&dev));
    WB_CUDA(cudaDeviceGetAttribute(&lim, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    wb_rng rng;
    wb_rng_seed(&rng, SEED_HIST);
    uint32_t last = 0;
    double global = NAN;
    for (size_t j = 0; j < WB_COUNT(B); j++) {
        const uint32_t nb = B[j].nbins;
        if (nb != last) { /* new keys, their counts, and the global-atomics row */
            wb_fill_u32(&rng, hk, n, nb);
            wb_h2d(dk, hk, n * 4);
            memset(ref, 0, (size_t)nb * 4);
            for (size_t i = 0; i < n; i++) ref[hk[i]]++;
            last = nb;
        }
        chist_plan plan = { 0, 0, 0 };
        chist_status ps = cluster_hist_plan(nb, B[j].cluster, (size_t)lim, &plan);
        const int same_keys = j > 0 && B[j - 1].nbins == nb; /* the global row is already out */
        for (int g = same_keys; g < 2; g++) {
            hi_ctx c = { dk, db, n, nb, g ? B[j].cluster : -1 };
            char var[80];
            if (g)
                snprintf(var, sizeof var, "%u bins, DSMEM, cluster %d (%s)", nb, ps == CHIST_OK ? plan.cluster : 0,
                         B[j].cluster ? "forced" : "planned");
            else
                snprintf(var, sizeof var, "%u bins, global atomics", nb);
            wb_bench_row r = { .exercise = "cluster_hist", .variant = var, .n = n, .bytes = 4.0 * n, .unit = "Gkeys/s",
                               .yard_name = g ? "GLOBAL" : NULL, .yard = g ? global : 0 };
            wb_dpoison(db, (size_t)nb * 4);
            wb_time(hi_work, &c, NULL, &r.t);
            r.value = n / (r.t.median * 1e-3) / 1e9;
            wb_d2h(got, db, (size_t)nb * 4);
            wb_cmp cmp;
            if (wb_compare_u32("bins", got, ref, nb, &cmp)) wb_bench_invalid(&r, cmp.msg);
            if (!g) global = r.invalid ? NAN : r.value;
            wb_bench_emit(&r);
        }
    }
    wb_dfree(dk), wb_dfree(db);
    free(hk), free(ref), free(got);
    return NAN;
}

/* w56.multicast-bw's row with the others, printed only (the test judges it). */
static const wb_benchmark BENCHES[] = {
    { "multicast", bench_multicast },
    { "cluster_hist", bench_cluster_hist },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
