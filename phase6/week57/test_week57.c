/* test_week57.c — week 57's checkpoints: the log-sum-exp merge alone,
 * paged decode attention against a double reference (shuffled block
 * tables, unused blocks and unused slots poisoned with NaN, GQA 1 to 8,
 * lengths 0 to 32k, split and not), its speed against a device-to-device
 * copy of the bytes of cache it reads, and what split-K buys. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "paged_attn.h"
#include "wb_f16.h" /* wb_f32_to_bf16, wb_bf16_to_f32 */

/* Tolerances (README, "Checking it"). out is rounded to bf16, 8 significant
 * bits: at most 2^-8 of |out| (RTOL). Before that the FP32 arithmetic: the
 * scores (128 products, |q| <= 2, |k| <= 1) carry at most 128 * 2^-24 of
 * sum |q_d k_d| scale log2(e) <= 33, about 2.5e-4 in the exponent, so each
 * weight is off by <= 1.7e-4 of itself; the running sums l and acc, at most
 * 4096 additions deep in one lane (32k tokens, one block), by <= 4096 *
 * 2^-24 = 2.4e-4 of sum p |v| / l <= max |v| = 1. Together under 1e-3
 * (ATOL). A lost rescale, a wrong block (NaN), a token dropped at a block or
 * partition edge (the keys there are planted to carry ~15 % of a head's
 * weight: README) move out by 1e-2 to 1. */
#define ATOL 1e-3
#define RTOL (1.0 / 256)
#define MERGE_ATOL 1e-5 /* the merge alone: a few dozen FP32 terms, |out| <= 1 */
#define POISON16 0xFFFFu /* a bf16 NaN */

/* ---------------------------------------------------------------- the merge */

/* Partials for (b, h, p < np): m in base-2 units, l >= 1 (the max term is 1),
 * po = l times a mean of values in [-1, 1]. kind 0: m in [-40, 40]; 1: m near
 * 1e4 (2^m overflows FP32: only differences may be exponentiated); 2: m of
 * -600, 0 or +600 (most weights underflow to 0) and every third partition
 * empty (m = -inf, l = 0, po = 0). Partitions p >= np stay NaN: never read. */
typedef struct {
    int batch, heads, D, partition, kind;
    int lens[8];
} mg_case;

static const mg_case MG_CASES[] = {
    { 6, 2, 128, 512, 0, { 0, 1, 512, 513, 5000, 32768 } },
    { 4, 3, 64, 512, 0, { 1000, 1, 0, 2049 } },
    { 3, 2, 128, 16, 0, { 17, 333, 4096 } }, /* 2, 21 and 256 partitions */
    { 5, 1, 128, 512, 1, { 513, 1024, 1025, 9000, 32768 } },
    { 4, 2, 64, 256, 2, { 2560, 257, 256, 7777 } },
};

START_TEST(merge_cases)
{
    wb_rng rng = WB_RNG();
    const mg_case *c = &MG_CASES[_i];
    int P = 0;
    for (int b = 0; b < c->batch; b++) {
        int np = paged_partitions(c->lens[b], c->partition);
        if (np > P) P = np;
    }
    const size_t rows = (size_t)c->batch * c->heads, nml = rows * P * 2, npo = rows * P * c->D;
    float *ml = wb_hmalloc(nml * 4 + 4), *po = wb_hmalloc(npo * 4 + 4);
    wb_hpoison(ml, nml * 4), wb_hpoison(po, npo * 4);
    double *ref = wb_hmalloc(rows * c->D * 8);
    for (int b = 0; b < c->batch; b++) {
        const int np = paged_partitions(c->lens[b], c->partition);
        for (int h = 0; h < c->heads; h++) {
            const size_t r0 = ((size_t)b * c->heads + h) * P;
            double M = -INFINITY;
            for (int p = 0; p != np; p++) { /* the partials of (b, h) */
                float *m = ml + 2 * (r0 + p), *o = po + (r0 + p) * c->D;
                if (c->kind == 2 && p % 3 == 1) { /* empty */
                    m[0] = -INFINITY, m[1] = 0;
                    for (int d = 0; d < c->D; d++) o[d] = 0;
                    continue;
                }
                m[0] = c->kind == 0   ? (float)(80 * wb_rng_unit(&rng) - 40)
                       : c->kind == 1 ? (float)(1e4 + 30 * wb_rng_unit(&rng))
                                      : (float)(600 * (int)wb_rng_int(&rng, -1, 1));
                m[1] = (float)(1 + (c->partition - 1) * wb_rng_unit(&rng));
                for (int d = 0; d < c->D; d++) o[d] = m[1] * (float)(2 * wb_rng_unit(&rng) - 1);
                if (m[0] > M) M = m[0];
            }
            double L = 0, *O = ref + ((size_t)b * c->heads + h) * c->D;
            for (int d = 0; d < c->D; d++) O[d] = 0;
            for (int p = 0; p < np && M != -INFINITY; p++) {
                const float *m = ml + 2 * (r0 + p), *o = po + (r0 + p) * c->D;
                double w = exp2((double)m[0] - M);
                L += w * m[1];
                for (int d = 0; d < c->D; d++) O[d] += w * o[d];
            }
            for (int d = 0; d < c->D; d++) O[d] = L > 0 ? O[d] / L : 0;
        }
    }
    float *dml = wb_dcopy(ml, nml * 4), *dpo = wb_dcopy(po, npo * 4);
    int32_t *dlens = wb_dcopy(c->lens, (size_t)c->batch * 4);
    wb_dout o;
    uint16_t *dout = wb_dout_alloc(&o, "out", rows * c->D * 2, 0);
    WB_CUDA(paged_attn_merge(dml, dpo, dlens, dout, c->batch, c->heads, c->D, P, c->partition));
    char what[200];
    snprintf(what, sizeof what, "merge: batch %d, %d heads, D %d, partition %d, %d partitions deep, %s", c->batch,
             c->heads, c->D, c->partition, P,
             c->kind == 0 ? "m in [-40, 40]" : c->kind == 1 ? "m near 1e4" : "m of -600, 0, 600 and empty partitions");
    uint16_t *got = wb_hmalloc(rows * c->D * 2 + 2);
    wb_expect_dout_guards(&o, got, what);
    float *g = wb_hmalloc(rows * c->D * 4 + 4);
    for (size_t i = 0; i < rows * c->D; i++) g[i] = wb_bf16_to_f32(got[i]);
    wb_cmp cmp;
    wb_compare_f32_f64("out", g, ref, rows * c->D, MERGE_ATOL, RTOL, &cmp);
    WB_EXPECT_CMP(cmp, what);
    wb_dfree(dml), wb_dfree(dpo), wb_dfree(dlens), wb_dout_free(&o);
    free(ml), free(po), free(ref), free(got), free(g);
}
END_TEST

/* ---------------------------------------------------------------- a paged cache on the host */

typedef struct {
    int batch, kvh, G, D, bs, partition;
    int *lens;
    int max_len, maxb, nblk;
    int32_t *table;       /* batch x maxb */
    uint16_t *q, *k, *v;  /* bf16 bits; unused blocks and slots NaN */
    size_t cache_elems;
} pcache;

/* Physical blocks in a random order: sequence b's blocks are the next
 * ceil(len / bs) entries of a shuffled list of all nblk blocks, so they are
 * neither contiguous nor in order; a quarter more blocks than needed exist
 * and stay unused, NaN. Table entries past a sequence's blocks name unused
 * blocks too, so reading one past the end shows. */
static void pc_tables(wb_rng *rng, pcache *c)
{
    int need = 0, maxneed = 1;
    for (int b = 0; b < c->batch; b++) {
        int nb = (c->lens[b] + c->bs - 1) / c->bs;
        need += nb;
        if (nb > maxneed) maxneed = nb;
    }
    c->maxb = maxneed + 1;
    c->nblk = need + need / 4 + 3;
    int *perm = wb_hmalloc((size_t)c->nblk * sizeof(int));
    for (int i = 0; i < c->nblk; i++) perm[i] = i;
    for (int i = c->nblk - 1; i > 0; i--) {
        int j = (int)wb_rng_int(rng, 0, i), t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
    c->table = wb_hmalloc((size_t)c->batch * c->maxb * 4);
    int at = 0;
    for (int b = 0; b < c->batch; b++) {
        int nb = (c->lens[b] + c->bs - 1) / c->bs;
        for (int i = 0; i < c->maxb; i++)
            c->table[(size_t)b * c->maxb + i] = i < nb ? perm[at++] : perm[need + (int)wb_rng_int(rng, 0, c->nblk - need - 1)];
    }
    free(perm);
}

static uint16_t draw16(wb_rng *rng, float lo, float hi)
{
    return wb_f32_to_bf16((float)(lo + (hi - lo) * wb_rng_unit(rng)));
}

/* The keys planted at block and partition edges (README, "Checking it"): key
 * row t of KV head kvh is 0.5 sign(q) of one query head of the group, so
 * that head's score there is about 5.7 above the rest and the token carries
 * a visible share of its weight. */
static void pc_plant(pcache *c, int b, int t)
{
    if (t < 0 || t >= c->lens[b]) return;
    const int Hq = c->kvh * c->G;
    for (int h = 0; h < c->kvh; h++) {
        const uint16_t *q = c->q + ((size_t)b * Hq + h * c->G + t % c->G) * c->D;
        size_t at = paged_kv_offset(c->table[(size_t)b * c->maxb + t / c->bs], h, t % c->bs, c->kvh, c->bs, c->D);
        for (int d = 0; d < c->D; d++) c->k[at + d] = wb_f32_to_bf16(wb_bf16_to_f32(q[d]) >= 0 ? 0.5f : -0.5f);
    }
}

static void pc_fill(wb_rng *rng, pcache *c)
{
    const int Hq = c->kvh * c->G;
    c->cache_elems = (size_t)c->nblk * c->kvh * c->bs * c->D;
    c->k = wb_hmalloc(c->cache_elems * 2), c->v = wb_hmalloc(c->cache_elems * 2);
    for (size_t i = 0; i < c->cache_elems; i++) c->k[i] = c->v[i] = POISON16;
    c->q = wb_hmalloc((size_t)c->batch * Hq * c->D * 2);
    for (size_t i = 0; i < (size_t)c->batch * Hq * c->D; i++) c->q[i] = draw16(rng, -2, 2);
    for (int b = 0; b < c->batch; b++)
        for (int t = 0; t < c->lens[b]; t++)
            for (int h = 0; h < c->kvh; h++) {
                size_t at = paged_kv_offset(c->table[(size_t)b * c->maxb + t / c->bs], h, t % c->bs, c->kvh, c->bs, c->D);
                for (int d = 0; d < c->D; d++) c->k[at + d] = draw16(rng, -1, 1), c->v[at + d] = draw16(rng, -1, 1);
            }
    const int P = c->partition ? c->partition : PAGED_PARTITION;
    for (int b = 0; b < c->batch; b++) {
        const int n = c->lens[b], edges[] = { 0, c->bs - 1, c->bs, P - 1, P, 2 * P - 1, 2 * P, n - 1 };
        for (size_t e = 0; e < WB_COUNT(edges); e++) pc_plant(c, b, edges[e]);
    }
}

static void pc_free(pcache *c) { free(c->lens), free(c->table), free(c->q), free(c->k), free(c->v); }

/* out[b][h] in double over the gathered K and V rows of sequence b. */
static void pc_reference(const pcache *c, double *ref)
{
    const int Hq = c->kvh * c->G, D = c->D;
    const double scale = 1.0 / sqrt((double)D);
    double *sc = wb_hmalloc((size_t)(c->max_len + 1) * 8);
    float *kf = wb_hmalloc((size_t)(c->max_len + 1) * D * 4), *vf = wb_hmalloc((size_t)(c->max_len + 1) * D * 4);
    for (int b = 0; b < c->batch; b++)
        for (int h = 0; h < c->kvh; h++) {
            const int n = c->lens[b];
            for (int t = 0; t < n; t++) { /* gather */
                size_t at = paged_kv_offset(c->table[(size_t)b * c->maxb + t / c->bs], h, t % c->bs, c->kvh, c->bs, D);
                for (int d = 0; d < D; d++)
                    kf[(size_t)t * D + d] = wb_bf16_to_f32(c->k[at + d]), vf[(size_t)t * D + d] = wb_bf16_to_f32(c->v[at + d]);
            }
            for (int g = 0; g < c->G; g++) {
                const size_t row = (size_t)b * Hq + (size_t)h * c->G + g;
                const uint16_t *q = c->q + row * D;
                double *o = ref + row * D, m = -INFINITY, l = 0;
                for (int d = 0; d < D; d++) o[d] = 0;
                for (int t = 0; t < n; t++) {
                    double s = 0;
                    for (int d = 0; d < D; d++) s += (double)wb_bf16_to_f32(q[d]) * kf[(size_t)t * D + d];
                    sc[t] = s * scale;
                    if (sc[t] > m) m = sc[t];
                }
                for (int t = 0; t < n; t++) {
                    double p = exp(sc[t] - m);
                    l += p;
                    for (int d = 0; d < D; d++) o[d] += p * vf[(size_t)t * D + d];
                }
                for (int d = 0; d < D; d++) o[d] = n ? o[d] / l : 0;
            }
        }
    free(sc), free(kf), free(vf);
}

/* ---------------------------------------------------------------- decode, correctness */

/* lens: the batch's lengths (nl of them); or, with nl == 0, `batch` lengths
 * drawn in [0, rand_max] (the first two 0 and 1). deep: max_seq_len is the
 * block table's capacity, past every sequence (the grid deeper than any
 * needs), instead of the longest length. */
typedef struct {
    const char *name;
    int batch, kvh, G, D, bs, partition;
    int lens[10], nl, rand_max, deep;
} pa_case;

static const pa_case PA_CASES[] = {
    { "one token", 1, 2, 4, 128, 16, 512, { 1 }, 1, 0, 0 },
    { "block edges", 7, 2, 4, 128, 16, 512, { 15, 16, 17, 31, 32, 33, 2 }, 7, 0, 0 },
    { "partition edges", 6, 2, 4, 128, 16, 512, { 511, 512, 513, 1023, 1024, 1025 }, 6, 0, 0 },
    { "32k tokens, GQA 8", 2, 1, 8, 128, 16, 512, { 32768, 32767 }, 2, 0, 0 },
    { "mixed batch", 24, 2, 4, 128, 16, 512, { 0 }, 0, 3000, 1 },
    { "GQA 1 (multi-head)", 8, 4, 1, 128, 16, 512, { 0 }, 0, 1500, 0 },
    { "GQA 2", 2, 3, 2, 128, 16, 512, { 100, 700 }, 2, 0, 0 },
    { "GQA 8", 4, 1, 8, 128, 16, 512, { 1, 17, 513, 2000 }, 4, 0, 0 },
    { "D 64", 8, 2, 4, 64, 16, 512, { 1, 15, 16, 17, 511, 512, 513, 1500 }, 8, 0, 0 },
    { "D 64, GQA 8", 10, 1, 8, 64, 16, 512, { 0 }, 0, 2500, 0 },
    { "block size 32", 5, 2, 4, 128, 32, 512, { 31, 32, 33, 513, 1000 }, 5, 0, 1 },
    { "block size 256", 4, 2, 2, 128, 256, 512, { 255, 256, 257, 1300 }, 4, 0, 0 },
    { "partition 256", 4, 2, 4, 128, 16, 256, { 255, 256, 257, 1000 }, 4, 0, 0 },
    { "partition 16", 5, 2, 4, 64, 16, 16, { 15, 16, 17, 100, 333 }, 5, 0, 0 },
    { "no split, mixed batch", 12, 2, 4, 128, 16, 0, { 0 }, 0, 3000, 0 },
    { "no split, 32k tokens", 1, 2, 4, 128, 16, 0, { 32768 }, 1, 0, 0 },
    { "no split, D 64, GQA 1", 3, 2, 1, 64, 16, 0, { 1, 17, 600 }, 3, 0, 0 },
};

START_TEST(decode_cases)
{
    wb_rng rng = WB_RNG();
    const pa_case *pc = &PA_CASES[_i];
    pcache c = { pc->batch, pc->kvh, pc->G, pc->D, pc->bs, pc->partition, NULL, 0, 0, 0, NULL, NULL, NULL, NULL, 0 };
    c.lens = wb_hmalloc((size_t)c.batch * sizeof(int));
    for (int b = 0; b < c.batch; b++) {
        c.lens[b] = pc->nl ? pc->lens[b] : b < 2 ? b : (int)wb_rng_int(&rng, 0, pc->rand_max);
        if (c.lens[b] > c.max_len) c.max_len = c.lens[b];
    }
    pc_tables(&rng, &c);
    pc_fill(&rng, &c);
    const int Hq = c.kvh * c.G;
    const size_t nout = (size_t)c.batch * Hq * c.D;

    uint16_t *dq = wb_dcopy(c.q, nout * 2), *dk = wb_dcopy(c.k, c.cache_elems * 2), *dv = wb_dcopy(c.v, c.cache_elems * 2);
    int32_t *dtab = wb_dcopy(c.table, (size_t)c.batch * c.maxb * 4), *dlens = wb_dcopy(c.lens, (size_t)c.batch * 4);
    wb_dout o;
    uint16_t *dout = wb_dout_alloc(&o, "out", nout * 2, 0);
    paged_attn_args a = { dq, dk, dv, dtab, dlens, dout, c.batch, Hq, c.kvh, c.D, c.nblk, c.bs, c.maxb,
                          pc->deep ? c.maxb * c.bs : c.max_len, c.partition, (float)(1.0 / sqrt((double)c.D)) };
    size_t wsf = paged_attn_ws_floats(&a);
    float *ws = wsf ? wb_dmalloc(wsf * 4) : NULL;
    if (ws) wb_dpoison(ws, wsf * 4); /* a partial read before it is written is NaN */
    WB_CUDA(paged_attn(&a, ws));

    char what[300];
    snprintf(what, sizeof what, "%s: batch %d, %d query heads on %d KV heads, D %d, block size %d, %s%d%s, max_seq_len %d",
             pc->name, c.batch, Hq, c.kvh, c.D, c.bs, c.partition ? "partition " : "", c.partition,
             c.partition ? "" : " (no split)", a.max_seq_len);
    uint16_t *got = wb_hmalloc(nout * 2 + 2);
    wb_expect_dout_guards(&o, got, what);
    double *ref = wb_hmalloc(nout * 8 + 8);
    pc_reference(&c, ref);
    float *g = wb_hmalloc(nout * 4 + 4);
    for (size_t i = 0; i < nout; i++) g[i] = wb_bf16_to_f32(got[i]);
    wb_cmp cmp;
    wb_compare_f32_f64("out", g, ref, nout, ATOL, RTOL, &cmp);
    if (cmp.bad) { /* which sequence, head and element */
        size_t i = cmp.first_bad, row = i / c.D;
        int b = (int)(row / Hq);
        snprintf(what + strlen(what), sizeof what - strlen(what), "; first bad: sequence %d (length %d), head %d, d %d",
                 b, c.lens[b], (int)(row % Hq), (int)(i % c.D));
    }
    WB_EXPECT_CMP(cmp, what);
    wb_dfree(dq), wb_dfree(dk), wb_dfree(dv), wb_dfree(dtab), wb_dfree(dlens), wb_dout_free(&o);
    if (ws) wb_dfree(ws);
    pc_free(&c);
    free(got), free(ref), free(g);
}
END_TEST

/* Refusals: nothing launched, nothing written. batch == 0 is nothing to do. */
START_TEST(decode_args)
{
    wb_dout o;
    uint16_t *out = wb_dout_alloc(&o, "out", 4096, 0);
    uint16_t *buf = wb_dmalloc(1 << 16);
    int32_t *ints = wb_dmalloc(4096);
    float *ws = wb_dmalloc(1 << 16);
    const paged_attn_args good = { buf, buf, buf, ints, ints, out, 1, 4, 2, 128, 8, 16, 4, 64, 16, 0.088f };
    ck_assert_int_eq(paged_attn_ws_floats(&good), (size_t)1 * 4 * 4 * 130); /* 4 partitions of 16 */
    struct { const char *why; paged_attn_args a; float *ws; } bad[] = {
        { "head_dim 96", good, ws },      { "head_dim 0", good, ws },           { "group of 3", good, ws },
        { "q heads not a multiple", good, ws }, { "block size 8", good, ws }, { "block size 48", good, ws },
        { "block size 512", good, ws },   { "partition 100", good, ws },        { "partition -16", good, ws },
        { "max_seq_len past the table", good, ws }, { "scale 0", good, ws },   { "scale NaN", good, ws },
        { "scale +inf", good, ws },        { "q misaligned", good, ws },        { "k_cache NULL", good, ws },
        { "block_tables NULL", good, ws }, { "no workspace for a split", good, NULL }, { "batch -1", good, ws },
        { "num_kv_heads 0", good, ws },    { "num_blocks 0", good, ws },
    };
    bad[0].a.head_dim = 96, bad[1].a.head_dim = 0, bad[2].a.num_q_heads = 6, bad[3].a.num_q_heads = 5;
    bad[4].a.block_size = 8, bad[5].a.block_size = 48, bad[6].a.block_size = 512;
    bad[7].a.partition = 100, bad[8].a.partition = -16, bad[9].a.max_seq_len = 65;
    bad[10].a.scale = 0, bad[11].a.scale = NAN, bad[12].a.scale = INFINITY;
    bad[13].a.q = buf + 1, bad[14].a.k_cache = NULL, bad[15].a.block_tables = NULL, bad[17].a.batch = -1;
    bad[18].a.num_kv_heads = 0, bad[19].a.num_blocks = 0;
    for (size_t i = 0; i < WB_COUNT(bad); i++)
        ck_assert_msg(paged_attn(&bad[i].a, bad[i].ws) == cudaErrorInvalidValue, "%s must be refused", bad[i].why);
    ck_assert_msg(paged_attn(NULL, ws) == cudaErrorInvalidValue, "NULL arguments must be refused");
    paged_attn_args none = good;
    none.batch = 0;
    ck_assert_int_eq(paged_attn(&none, ws), cudaSuccess);
    ck_assert_msg(paged_attn_merge(ws, ws, ints, out, 1, 4, 96, 1, 512) == cudaErrorInvalidValue,
                  "merge: head_dim 96 must be refused");
    ck_assert_msg(paged_attn_merge(ws, ws, ints, out, 1, 4, 128, 1, 0) == cudaErrorInvalidValue,
                  "merge: partition 0 must be refused");
    ck_assert_int_eq(paged_attn_merge(ws, ws, ints, out, 0, 4, 128, 1, 512), cudaSuccess);
    cudaGetLastError();
    uint16_t *host = wb_hmalloc(4096);
    wb_sync();
    wb_expect_dout_guards(&o, host, "refused calls and batch 0 write nothing");
    for (size_t i = 0; i < 2048; i++)
        if (host[i] != POISON16) ck_abort_msg("a refused call or batch 0: out[%zu] was written (0x%04x)", i, host[i]);
    wb_dfree(buf), wb_dfree(ints), wb_dfree(ws), wb_dout_free(&o);
    free(host);
}
END_TEST

/* ---------------------------------------------------------------- timing */

enum { BQ = 5701, BK = 5702, BV = 5703 };

/* A decode batch on the device for timing: 8 KV heads, 32 query heads
 * (GQA 4), D 128, blocks of 16 in a shuffled order, K, V and q drawn on the
 * device (wb_dfill_uniform_bf16: the host recomputes any element). */
typedef struct {
    paged_attn_args a;
    float *ws;
    int32_t *table, *lens; /* host copies */
    unsigned long long salt;
    double kv_bytes, bytes; /* K and V of the tokens the batch reads; plus q and out */
    long long tokens;
} pb_run;

enum { PB_KVH = 8, PB_G = 4, PB_D = 128, PB_BS = 16 };

static void pb_fill(pb_run *r, unsigned long long salt)
{
    const size_t cache = (size_t)r->a.num_blocks * PB_KVH * PB_BS * PB_D, nq = (size_t)r->a.batch * PB_KVH * PB_G * PB_D;
    r->salt = salt;
    wb_dfill_uniform_bf16((uint16_t *)r->a.k_cache, cache, BK + 3 * salt, -1, 1);
    wb_dfill_uniform_bf16((uint16_t *)r->a.v_cache, cache, BV + 3 * salt, -1, 1);
    wb_dfill_uniform_bf16((uint16_t *)r->a.q, nq, BQ + 3 * salt, -2, 2);
}

/* lens_lo .. lens_hi: lengths drawn from a fixed generator (the same shape every run). */
static pb_run pb_setup(int batch, int lens_lo, int lens_hi)
{
    pb_run r;
    memset(&r, 0, sizeof r);
    wb_rng rng;
    wb_rng_seed(&rng, 57);
    r.lens = wb_hmalloc((size_t)batch * 4);
    int max_len = 0, need = 0;
    for (int b = 0; b < batch; b++) {
        r.lens[b] = (int)wb_rng_int(&rng, lens_lo, lens_hi);
        if (r.lens[b] > max_len) max_len = r.lens[b];
        need += (r.lens[b] + PB_BS - 1) / PB_BS;
        r.tokens += r.lens[b];
    }
    const int maxb = (max_len + PB_BS - 1) / PB_BS, nblk = need + need / 16;
    int *perm = wb_hmalloc((size_t)nblk * sizeof(int));
    for (int i = 0; i < nblk; i++) perm[i] = i;
    for (int i = nblk - 1; i > 0; i--) {
        int j = (int)wb_rng_int(&rng, 0, i), t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
    r.table = wb_hmalloc((size_t)batch * maxb * 4);
    for (int b = 0, at = 0; b < batch; b++) {
        int nb = (r.lens[b] + PB_BS - 1) / PB_BS;
        for (int i = 0; i < maxb; i++) r.table[(size_t)b * maxb + i] = i < nb ? perm[at++] : perm[0];
    }
    free(perm);
    const size_t cache = (size_t)nblk * PB_KVH * PB_BS * PB_D * 2, nq = (size_t)batch * PB_KVH * PB_G * PB_D;
    paged_attn_args a = { wb_dmalloc(nq * 2), wb_dmalloc(cache), wb_dmalloc(cache),
                          wb_dcopy(r.table, (size_t)batch * maxb * 4), wb_dcopy(r.lens, (size_t)batch * 4),
                          wb_dmalloc(nq * 2), batch, PB_KVH * PB_G, PB_KVH, PB_D, nblk, PB_BS, maxb, max_len,
                          PAGED_PARTITION, (float)(1.0 / sqrt((double)PB_D)) };
    r.a = a;
    r.ws = wb_dmalloc(paged_attn_ws_floats(&a) * 4);
    r.kv_bytes = (double)r.tokens * PB_KVH * PB_D * 2 * 2;
    r.bytes = r.kv_bytes + 2.0 * nq * 2 + (double)batch * (maxb + 1) * 4;
    pb_fill(&r, 0);
    return r;
}

static void pb_free(pb_run *r)
{
    wb_dfree((void *)r->a.q), wb_dfree((void *)r->a.k_cache), wb_dfree((void *)r->a.v_cache);
    wb_dfree((void *)r->a.block_tables), wb_dfree((void *)r->a.seq_lens), wb_dfree(r->a.out), wb_dfree(r->ws);
    free(r->table), free(r->lens);
}

static void pb_work(void *p)
{
    pb_run *r = p;
    WB_CUDA(paged_attn(&r->a, r->ws));
}

static float hash16(unsigned long long seed, size_t i, float lo, float hi)
{
    return wb_bf16_to_f32(wb_f32_to_bf16(wb_hash_uniform_f32(seed, i, lo, hi)));
}

/* Checks the G rows of `pairs` (sequence, KV head) pairs against the double
 * reference: the first and last sequence, the others random; KV head 0, 7
 * and random ones. 0 when right. */
static size_t pb_verify(const pb_run *r, int pairs, wb_cmp *cmp)
{
    wb_sync();
    const int B = r->a.batch, Hq = PB_KVH * PB_G, D = PB_D, maxb = r->a.max_blocks_per_seq;
    const unsigned long long sk = BK + 3 * r->salt, sv = BV + 3 * r->salt, sq = BQ + 3 * r->salt;
    int maxn = 0;
    for (int b = 0; b < B; b++) maxn = r->lens[b] > maxn ? r->lens[b] : maxn;
    float *kf = wb_hmalloc((size_t)maxn * D * 4), *vf = wb_hmalloc((size_t)maxn * D * 4), *g = wb_hmalloc((size_t)pairs * PB_G * D * 4);
    double *ref = wb_hmalloc((size_t)pairs * PB_G * D * 8), *sc = wb_hmalloc((size_t)maxn * 8);
    uint16_t *row = wb_hmalloc((size_t)PB_G * D * 2);
    float qf[PB_D];
    wb_rng rng = wb_rng_for("pb_verify", (int)(r->salt & 0x7fffffff));
    size_t at = 0;
    for (int k = 0; k < pairs; k++) {
        const int b = k == 0 ? 0 : k == 1 ? B - 1 : (int)wb_rng_int(&rng, 0, B - 1);
        const int h = k == 0 ? 0 : k == 1 ? PB_KVH - 1 : (int)wb_rng_int(&rng, 0, PB_KVH - 1), n = r->lens[b];
        for (int t = 0; t < n; t++) {
            size_t off = paged_kv_offset(r->table[(size_t)b * maxb + t / PB_BS], h, t % PB_BS, PB_KVH, PB_BS, D);
            for (int d = 0; d < D; d++)
                kf[(size_t)t * D + d] = hash16(sk, off + d, -1, 1), vf[(size_t)t * D + d] = hash16(sv, off + d, -1, 1);
        }
        wb_d2h(row, r->a.out + ((size_t)b * Hq + (size_t)h * PB_G) * D, (size_t)PB_G * D * 2);
        for (int gg = 0; gg < PB_G; gg++) {
            const size_t qrow = ((size_t)b * Hq + (size_t)h * PB_G + gg) * D;
            double m = -INFINITY, l = 0, *o = ref + at;
            for (int d = 0; d < D; d++) qf[d] = hash16(sq, qrow + d, -2, 2);
            for (int t = 0; t < n; t++) {
                double s = 0;
                for (int d = 0; d < D; d++) s += (double)qf[d] * kf[(size_t)t * D + d];
                sc[t] = s / sqrt((double)D);
                m = sc[t] > m ? sc[t] : m;
            }
            for (int d = 0; d < D; d++) o[d] = 0;
            for (int t = 0; t < n; t++) {
                double p = exp(sc[t] - m);
                l += p;
                for (int d = 0; d < D; d++) o[d] += p * vf[(size_t)t * D + d];
            }
            for (int d = 0; d < D; d++) o[d] = n ? o[d] / l : 0, g[at + d] = wb_bf16_to_f32(row[(size_t)gg * D + d]);
            at += D;
        }
    }
    size_t bad = wb_compare_f32_f64("out (sampled sequences)", g, ref, at, ATOL, RTOL, cmp);
    free(kf), free(vf), free(g), free(ref), free(sc), free(row);
    return bad;
}

/* The timing's spot check: new q, K and V, out poisoned. */
static void pb_fresh(void *p, unsigned long long salt)
{
    pb_run *r = p;
    pb_fill(r, salt);
    wb_dpoison(r->a.out, (size_t)r->a.batch * PB_KVH * PB_G * PB_D * 2);
}

static int pb_check(void *p, char *why, size_t size)
{
    wb_cmp cmp;
    if (!pb_verify(p, 3, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* Time r with partition `partition` (0: one block a sequence and KV head)
 * into *row: GB/s of the bytes it must read, against COPY. Spot-checked,
 * and the timed output verified after. */
static void pb_time(pb_run *r, int partition, double copy, const char *variant, wb_bench_row *row)
{
    r->a.partition = partition;
    pb_fill(r, 0);
    wb_dpoison(r->a.out, (size_t)r->a.batch * PB_KVH * PB_G * PB_D * 2);
    memset(row, 0, sizeof *row);
    row->exercise = "paged_attn", row->variant = variant, row->unit = "GB/s", row->yard_name = "COPY";
    row->yard = copy, row->n = (size_t)r->tokens, row->bytes = r->bytes;
    row->flops = 4.0 * r->tokens * PB_KVH * PB_G * PB_D;
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = pb_fresh, o.check = pb_check;
    wb_time(pb_work, r, &o, &row->t);
    row->value = r->bytes / (row->t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (pb_verify(r, 4, &cmp)) wb_bench_invalid(row, cmp.msg);
}

/* The headline shape: 64 sequences of 2048 to 6144 tokens (about 4k), 8 KV
 * heads of 128: about 1.07 GB of K and V, past any L2. */
static pb_run headline_batch(void) { return pb_setup(64, 2048, 6144); }

/* w57.decode-speed: split-K (partitions of 512) against a copy of as many
 * bytes as the batch's K and V. */
static double bench_decode(wb_headline *h)
{
    pb_run r = headline_batch();
    double copy = wb_yard_copy_gbps((size_t)r.kv_bytes);
    char variant[96];
    snprintf(variant, sizeof variant, "split 512, batch 64 x ~4k, 32q/8kv heads, D 128");
    wb_bench_row row;
    pb_time(&r, PAGED_PARTITION, copy, variant, &row);
    double ratio = wb_bench_headline(&row, h);
    pb_free(&r);
    return ratio;
}

/* w57.split (a report): split-K and one block a (sequence, KV head), at the
 * headline shape and at 4 sequences of 32k tokens, each against COPY. */
static void split_rows(char *fig, size_t size, int strict)
{
    static const struct { const char *name; int batch, lo, hi; } SH[] = {
        { "batch 64 x ~4k", 64, 2048, 6144 },
        { "batch 4 x 32k", 4, 32768, 32768 },
    };
    fig[0] = 0;
    for (size_t s = 0; s < WB_COUNT(SH); s++) {
        pb_run r = pb_setup(SH[s].batch, SH[s].lo, SH[s].hi);
        double copy = wb_yard_copy_gbps((size_t)r.kv_bytes);
        char v1[96], v2[96];
        snprintf(v1, sizeof v1, "split 512, %s", SH[s].name);
        snprintf(v2, sizeof v2, "no split, %s (%d blocks)", SH[s].name, SH[s].batch * PB_KVH);
        wb_bench_row sp, ns;
        pb_time(&r, PAGED_PARTITION, copy, v1, &sp);
        pb_time(&r, 0, copy, v2, &ns);
        wb_bench_emit(&sp);
        wb_bench_emit(&ns);
        pb_free(&r);
        if (strict && (sp.invalid || ns.invalid)) ck_abort_msg("%s: %s", sp.invalid ? v1 : v2, sp.invalid ? sp.why : ns.why);
        snprintf(fig + strlen(fig), size - strlen(fig), "%s%s: split %.2f, no split %.2f of COPY (%.2fx)", s ? "; " : "",
                 SH[s].name, wb_bench_ratio(&sp), wb_bench_ratio(&ns), ns.t.median / sp.t.median);
    }
}

START_TEST(split_report)
{
    char fig[400];
    split_rows(fig, sizeof fig, 1);
    wb_report(fig);
}
END_TEST

/* `make phase6/week57 bench NAME=split`: the same rows. */
static double bench_split(void)
{
    char fig[400];
    split_rows(fig, sizeof fig, 0);
    printf("    %s\n", fig);
    return NAN;
}

static const wb_test TESTS[] = {
    { "w57.merge", WB_T(merge_cases), WB_GPU, WB_COUNT(MG_CASES) },
    { "w57.decode", WB_T(decode_cases), WB_GPU, WB_COUNT(PA_CASES) },
    { "w57.decode", WB_T(decode_args), WB_GPU, 0 },
    WB_SPEED("w57.decode-speed", bench_decode),
    { "w57.split", WB_T(split_report), WB_GPU, 0 },
};

static const wb_benchmark BENCHES[] = {
    { "split", bench_split },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
