/* w57_checks.h — what week 57's correctness checks expect, shared by the
 * week's test program (test_week57.c) and the instructor's judge
 * (instructor/judge_w57.c, which runs the student's code in a separate
 * runner): the tolerances, the merge's cases and their draws with the
 * double merge, the paged cache on the host (shuffled tables, NaN in every
 * unused block and slot, keys planted at block and partition edges), the
 * decode cases and the double reference. Change a check here and both
 * follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below).
 * The judge draws case i from wb_rng_for_seed(seed, TAG, i) through the
 * same functions, so for a seed it gets the test's cases and inputs alike. */
#ifndef W57_CHECKS_H
#define W57_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "paged_attn.h"
#include "wb_cuda.h" /* wb_hmalloc, wb_hpoison */
#include "wb_f16.h"  /* wb_f32_to_bf16, wb_bf16_to_f32 */
#include "wb_rand.h"

#define W57_MERGE_TAG  "merge_cases_fn"  /* test_week57.c's merge_cases */
#define W57_DECODE_TAG "decode_cases_fn" /* and its decode_cases */

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

/* Case c's partials drawn from rng into *ml_out and *po_out (the layout of
 * paged_attn.h; nml and npo floats, partitions past a sequence's NaN) and
 * their merge in double into *ref_out (batch x heads x D); returns P, the
 * partitions of the longest sequence (the layout's depth). */
static int w57_merge_draw(wb_rng *rng, const mg_case *c, float **ml_out, float **po_out, double **ref_out,
                          size_t *nml_out, size_t *npo_out)
{
    int P = 0;
    for (int b = 0; b < c->batch; b++) {
        int np = paged_partitions(c->lens[b], c->partition);
        if (np > P) P = np;
    }
    const size_t rows = (size_t)c->batch * c->heads, nml = rows * P * 2, npo = rows * P * c->D;
    float *ml = wb_hmalloc(nml * 4 + 4), *po = wb_hmalloc(npo * 4 + 4);
    wb_hpoison(ml, nml * 4), wb_hpoison(po, npo * 4);
    double *ref = wb_hmalloc(rows * c->D * 8);
    *ml_out = ml, *po_out = po, *ref_out = ref;
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
                m[0] = c->kind == 0   ? (float)(80 * wb_rng_unit(rng) - 40)
                       : c->kind == 1 ? (float)(1e4 + 30 * wb_rng_unit(rng))
                                      : (float)(600 * (int)wb_rng_int(rng, -1, 1));
                m[1] = (float)(1 + (c->partition - 1) * wb_rng_unit(rng));
                for (int d = 0; d < c->D; d++) o[d] = m[1] * (float)(2 * wb_rng_unit(rng) - 1);
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
    *nml_out = nml, *npo_out = npo;
    return P;
}

/* What case c is, for a message. */
static void w57_merge_what(const mg_case *c, int P, char *what, size_t size)
{
    snprintf(what, size, "merge: batch %d, %d heads, D %d, partition %d, %d partitions deep, %s", c->batch,
             c->heads, c->D, c->partition, P,
             c->kind == 0 ? "m in [-40, 40]" : c->kind == 1 ? "m near 1e4" : "m of -600, 0, 600 and empty partitions");
}

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
        for (size_t e = 0; e < sizeof edges / sizeof *edges; e++) pc_plant(c, b, edges[e]);
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

/* Case pc drawn from rng into c: its lengths, its tables, its cache and q. */
static void pc_draw(wb_rng *rng, const pa_case *pc, pcache *c)
{
    const pcache z = { pc->batch, pc->kvh, pc->G, pc->D, pc->bs, pc->partition, NULL, 0, 0, 0, NULL, NULL, NULL, NULL, 0 };
    *c = z;
    c->lens = wb_hmalloc((size_t)c->batch * sizeof(int));
    for (int b = 0; b < c->batch; b++) {
        c->lens[b] = pc->nl ? pc->lens[b] : b < 2 ? b : (int)wb_rng_int(rng, 0, pc->rand_max);
        if (c->lens[b] > c->max_len) c->max_len = c->lens[b];
    }
    pc_tables(rng, c);
    pc_fill(rng, c);
}

#endif
