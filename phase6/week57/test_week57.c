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
#include "w57_checks.h" /* the tolerances, the cases and the references, shared with the instructor's judge */

/* ---------------------------------------------------------------- the merge */

START_TEST(merge_cases)
{
    wb_rng rng = WB_RNG();
    const mg_case *c = &MG_CASES[_i];
    float *ml, *po;
    double *ref;
    size_t nml, npo;
    const int P = w57_merge_draw(&rng, c, &ml, &po, &ref, &nml, &npo);
    const size_t rows = (size_t)c->batch * c->heads;
    float *dml = wb_dcopy(ml, nml * 4), *dpo = wb_dcopy(po, npo * 4);
    int32_t *dlens = wb_dcopy(c->lens, (size_t)c->batch * 4);
    wb_dout o;
    uint16_t *dout = wb_dout_alloc(&o, "out", rows * c->D * 2, 0);
    WB_CUDA(paged_attn_merge(dml, dpo, dlens, dout, c->batch, c->heads, c->D, P, c->partition));
    char what[200];
    w57_merge_what(c, P, what, sizeof what);
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


/* ---------------------------------------------------------------- decode, correctness */

START_TEST(decode_cases)
{
    wb_rng rng = WB_RNG();
    const pa_case *pc = &PA_CASES[_i];
    pcache c;
    pc_draw(&rng, pc, &c);
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
