/* emu_test.cc — week 57's w57.decode cases (test_week57.c's PA_CASES, its
 * table shuffling, NaN poison and planted keys, its double reference and
 * tolerance) run on the CPU emulation of the solution as compiled with the
 * knobs given on the command line. Also: the argument refusals, every
 * output and workspace guard, and no load outside a buffer (emu_rt). */
#include "emu_tu.inc" /* gen.py's host C++ of the reference, in the build folder */
extern "C" {
#include "wb_rand.h"
#include "wb_f16.h"
}
void *emu_alloc(size_t n);
void emu_free(void *p);
extern long emu_reads, emu_cp_copies;

#define ATOL 1e-3
#define RTOL (1.0 / 256)
#define POISON16 0xFFFFu
#define WB_COUNT(a) (sizeof(a) / sizeof((a)[0]))
static void *hm(size_t n) { void *p = malloc(n ? n : 1); if (!p) abort(); return p; }

typedef struct {
    int batch, kvh, G, D, bs, partition;
    int *lens;
    int max_len, maxb, nblk;
    int32_t *table;
    uint16_t *q, *k, *v;
    size_t cache_elems;
} pcache;

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
    int *perm = (int *)hm((size_t)c->nblk * sizeof(int));
    for (int i = 0; i < c->nblk; i++) perm[i] = i;
    for (int i = c->nblk - 1; i > 0; i--) {
        int j = (int)wb_rng_int(rng, 0, i), t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
    c->table = (int32_t *)hm((size_t)c->batch * c->maxb * 4);
    int at = 0;
    for (int b = 0; b < c->batch; b++) {
        int nb = (c->lens[b] + c->bs - 1) / c->bs;
        for (int i = 0; i < c->maxb; i++)
            c->table[(size_t)b * c->maxb + i] = i < nb ? perm[at++] : perm[need + (int)wb_rng_int(rng, 0, c->nblk - need - 1)];
    }
    free(perm);
}

static uint16_t draw16(wb_rng *rng, float lo, float hi) { return wb_f32_to_bf16((float)(lo + (hi - lo) * wb_rng_unit(rng))); }

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
    c->k = (uint16_t *)hm(c->cache_elems * 2), c->v = (uint16_t *)hm(c->cache_elems * 2);
    for (size_t i = 0; i < c->cache_elems; i++) c->k[i] = c->v[i] = POISON16;
    c->q = (uint16_t *)hm((size_t)c->batch * Hq * c->D * 2);
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

static void pc_reference(const pcache *c, double *ref)
{
    const int Hq = c->kvh * c->G, D = c->D;
    const double scale = 1.0 / sqrt((double)D);
    double *sc = (double *)hm((size_t)(c->max_len + 1) * 8);
    float *kf = (float *)hm((size_t)(c->max_len + 1) * D * 4), *vf = (float *)hm((size_t)(c->max_len + 1) * D * 4);
    for (int b = 0; b < c->batch; b++)
        for (int h = 0; h < c->kvh; h++) {
            const int n = c->lens[b];
            for (int t = 0; t < n; t++) {
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
    /* beyond the test: the other group sizes at D 64, block size 256 split at 16, GQA 8 unsplit */
    { "extra: D 64, GQA 2 and 1, bs 32", 6, 2, 2, 64, 32, 256, { 1, 31, 33, 255, 257, 700 }, 6, 0, 1 },
    { "extra: D 64, GQA 1, partition 1024", 5, 3, 1, 64, 16, 1024, { 0 }, 0, 2500, 0 },
    { "extra: D 128, GQA 8, no split, bs 256", 3, 1, 8, 128, 256, 0, { 1, 255, 1000 }, 3, 0, 0 },
    { "extra: D 128, GQA 1, partition 16, bs 256", 3, 2, 1, 128, 256, 16, { 15, 17, 300 }, 3, 0, 1 },
    { "extra: D 64, GQA 8, partition 1024, bs 16", 3, 1, 8, 64, 16, 1024, { 1023, 1025, 3000 }, 3, 0, 0 },
};

static int G_fail;
#define GUARD 4096

static void run_case(const pa_case *pc, uint64_t seed)
{
    wb_rng rng;
    wb_rng_seed(&rng, seed);
    pcache c = { pc->batch, pc->kvh, pc->G, pc->D, pc->bs, pc->partition, NULL, 0, 0, 0, NULL, NULL, NULL, NULL, 0 };
    c.lens = (int *)hm((size_t)c.batch * sizeof(int));
    for (int b = 0; b < c.batch; b++) {
        c.lens[b] = pc->nl ? pc->lens[b] : b < 2 ? b : (int)wb_rng_int(&rng, 0, pc->rand_max);
        if (c.lens[b] > c.max_len) c.max_len = c.lens[b];
    }
    pc_tables(&rng, &c);
    pc_fill(&rng, &c);
    const int Hq = c.kvh * c.G;
    const size_t nout = (size_t)c.batch * Hq * c.D;
    auto dcopy = [](const void *h, size_t n) { void *d = emu_alloc(n); memcpy(d, h, n); return d; };
    uint16_t *dq = (uint16_t *)dcopy(c.q, nout * 2), *dk = (uint16_t *)dcopy(c.k, c.cache_elems * 2),
             *dv = (uint16_t *)dcopy(c.v, c.cache_elems * 2);
    int32_t *dtab = (int32_t *)dcopy(c.table, (size_t)c.batch * c.maxb * 4), *dlens = (int32_t *)dcopy(c.lens, (size_t)c.batch * 4);
    /* out with guards either side, poisoned */
    uint16_t *obuf = (uint16_t *)emu_alloc(nout * 2 + 2 * GUARD);
    memset(obuf, 0xA5, nout * 2 + 2 * GUARD);
    uint16_t *dout = obuf + GUARD / 2;
    for (size_t i = 0; i < nout; i++) dout[i] = POISON16;
    paged_attn_args a = { dq, dk, dv, dtab, dlens, dout, c.batch, Hq, c.kvh, c.D, c.nblk, c.bs, c.maxb,
                          pc->deep ? c.maxb * c.bs : c.max_len, c.partition, (float)(1.0 / sqrt((double)c.D)) };
    size_t wsf = paged_attn_ws_floats(&a);
    float *wsb = (float *)emu_alloc(wsf * 4 + 2 * GUARD), *ws = wsf ? wsb + GUARD / 4 : NULL;
    memset(wsb, 0xA5, wsf * 4 + 2 * GUARD);
    for (size_t i = 0; i < wsf; i++) ws[i] = NAN;
    cudaError_t e = paged_attn(&a, ws);
    int bad = 0;
    if (e != cudaSuccess) { printf("  FAIL %s: paged_attn returned %d\n", pc->name, (int)e); bad = 1; }
    for (size_t i = 0; i < GUARD; i++)
        if (((unsigned char *)obuf)[i] != 0xA5 || ((unsigned char *)(dout + nout))[i] != 0xA5) { bad = 1; printf("  FAIL %s: out guard written\n", pc->name); break; }
    for (size_t i = 0; i < GUARD; i++)
        if (((unsigned char *)wsb)[i] != 0xA5 || ((unsigned char *)wsb)[GUARD + wsf * 4 + i] != 0xA5) { bad = 1; printf("  FAIL %s: workspace guard written\n", pc->name); break; }
    double *ref = (double *)hm(nout * 8);
    pc_reference(&c, ref);
    double worst = 0;
    size_t nbad = 0, first = 0;
    for (size_t i = 0; i < nout; i++) {
        double g = wb_bf16_to_f32(dout[i]), err = fabs(g - ref[i]), tol = ATOL + RTOL * fabs(ref[i]);
        if (!(err <= tol)) { if (!nbad++) first = i; }
        if (err / tol > worst) worst = err / tol;
    }
    if (nbad) {
        size_t row = first / c.D; int b = (int)(row / Hq);
        printf("  FAIL %s (seed %llu): %zu of %zu elements out of tolerance; first: sequence %d (length %d), head %d, d %d: got %g, want %g\n",
               pc->name, (unsigned long long)seed, nbad, nout, b, c.lens[b], (int)(row % Hq), (int)(first % c.D),
               wb_bf16_to_f32(dout[first]), ref[first]);
        bad = 1;
    }
    if (bad) G_fail++;
    else printf("  ok   %-44s worst err/tol %.3f\n", pc->name, worst);
    emu_free(dq), emu_free(dk), emu_free(dv), emu_free(dtab), emu_free(dlens), emu_free(obuf), emu_free(wsb);
    free(c.lens), free(c.table), free(c.q), free(c.k), free(c.v), free(ref);
}

static void run_args(void)
{
    uint16_t *out = (uint16_t *)emu_alloc(4096), *buf = (uint16_t *)emu_alloc(1 << 16);
    int32_t *ints = (int32_t *)emu_alloc(4096);
    float *ws = (float *)emu_alloc(1 << 16);
    for (int i = 0; i < 2048; i++) out[i] = POISON16;
    const paged_attn_args good = { buf, buf, buf, ints, ints, out, 1, 4, 2, 128, 8, 16, 4, 64, 16, 0.088f };
    int bad = paged_attn_ws_floats(&good) != (size_t)1 * 4 * 4 * 130;
    struct { const char *why; paged_attn_args a; float *ws; } b[20];
    for (int i = 0; i < 20; i++) b[i].a = good, b[i].ws = ws, b[i].why = "";
    b[0].a.head_dim = 96, b[1].a.head_dim = 0, b[2].a.num_q_heads = 6, b[3].a.num_q_heads = 5;
    b[4].a.block_size = 8, b[5].a.block_size = 48, b[6].a.block_size = 512;
    b[7].a.partition = 100, b[8].a.partition = -16, b[9].a.max_seq_len = 65;
    b[10].a.scale = 0, b[11].a.scale = NAN, b[12].a.scale = INFINITY;
    b[13].a.q = buf + 1, b[14].a.k_cache = NULL, b[15].a.block_tables = NULL, b[16].ws = NULL, b[17].a.batch = -1;
    b[18].a.num_kv_heads = 0, b[19].a.num_blocks = 0;
    for (int i = 0; i < 20; i++)
        if (paged_attn(&b[i].a, b[i].ws) != cudaErrorInvalidValue) { printf("  FAIL bad argument set %d accepted\n", i); bad = 1; }
    if (paged_attn(NULL, ws) != cudaErrorInvalidValue) bad = 1;
    paged_attn_args none = good;
    none.batch = 0;
    if (paged_attn(&none, ws) != cudaSuccess) bad = 1;
    for (int i = 0; i < 2048; i++) if (out[i] != POISON16) { bad = 1; printf("  FAIL refused call wrote out\n"); break; }
    if (bad) G_fail++; else printf("  ok   %-44s\n", "20 bad argument sets refused, nothing written");
    emu_free(out), emu_free(buf), emu_free(ints), emu_free(ws);
}

int main(int argc, char **argv)
{
    int seeds = argc > 1 ? atoi(argv[1]) : 1;
    int only = argc > 2 ? atoi(argv[2]) : -1;
    printf("knobs: PAGED_WARPS %d, PAGED_TOKENS %d, PAGED_TOKENS_G8 %d, PAGED_MIN_BLOCKS %d, "
           "PAGED_STAGES %d, PAGED_SPAN %d\n",
           PAGED_WARPS, PAGED_TOKENS, PAGED_TOKENS_G8, PAGED_MIN_BLOCKS, PAGED_STAGES, PAGED_SPAN);
    if (only < 0) run_args();
    for (int s = 0; s < seeds; s++)
        for (size_t i = 0; i < WB_COUNT(PA_CASES); i++)
            if (only < 0 || only == (int)i) run_case(&PA_CASES[i], 5700 + 131 * s + i);
    printf("%s: %d failed (%ld checked loads, %ld of them cp.async copies done)\n", G_fail ? "FAILED" : "PASSED", G_fail,
           emu_reads, emu_cp_copies);
    return G_fail != 0;
}
