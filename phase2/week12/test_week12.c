/* test_week12.c — week 12's checkpoints: ILP, CUDA graph replay, fusion. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "ilp.h"
#include "graph.h"
#include "fuse.h"
#include "w12_checks.h"

/* ---------------------------------------------------------------- ILP */

/* Every size on a full grid (_i < 13) and at one block per SM, each with
 * one ILP; NaN and +-Inf in front must come out as a * x does. */
START_TEST(ilp_sizes)
{
    ck_assert_str_eq(__func__, W12_ILP_TAG); /* the judge draws these cases by this tag (w12_checks.h) */
    wb_rng rng = WB_RNG();
    size_t n = W12_SIZES[_i % W12_N_SIZES];
    int ilp, bps;
    float *hx = wb_hmalloc(n * 4), *ref = wb_hmalloc(n * 4);
    float a = w12_ilp_case(&rng, _i, &n, &ilp, &bps, hx, ref);
    float *dx = wb_dcopy(hx, n * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    WB_CUDA(ilp_scale(dx, dy, n, a, ilp, bps));
    char what[96];
    snprintf(what, sizeof what, "n=%zu ilp=%d blocks_per_sm=%d", n, ilp, bps);
    wb_expect_dout_f32(&y, ref, n, 0, W12_ILP_RTOL, what);
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref);
}
END_TEST

enum { SEED_X = 121 };
static const float A = 1.5f;
typedef struct { const float *x; float *y; size_t n; int ilp, bps; } ilp_ctx;
static void ilp_work(void *p)
{
    ilp_ctx *c = p;
    WB_CUDA(ilp_scale(c->x, c->y, c->n, A, c->ilp, c->bps));
}
static double ilp_expect(size_t i, const void *ctx)
{
    (void)ctx;
    return (double)(A * wb_hash_uniform_f32(SEED_X, i, -1, 1));
}

/* One row per (ILP, grid), its timed output verified. `headline`: the row
 * is the checkpoint's (ILP 4, full grid), judged by the harness; NULL for a
 * row of the ladder. */
static double ilp_row(ilp_ctx *c, double copy, wb_headline *headline)
{
    char variant[48];
    snprintf(variant, sizeof variant, "ILP %d, %s", c->ilp, c->bps ? "1 block/SM" : "full grid");
    wb_bench_row r = { .exercise = "ilp", .variant = variant, .n = c->n, .bytes = 8.0 * c->n, .flops = (double)c->n,
                       .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    wb_dpoison(c->y, c->n * 4);
    wb_time(ilp_work, c, NULL, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("y", c->y, c->n, ilp_expect, NULL, 1 << 14, 0, W12_ILP_RTOL, &cmp)) wb_bench_invalid(&r, cmp.msg);
    if (headline) return wb_bench_headline(&r, headline);
    wb_bench_emit(&r);
    return wb_bench_ratio(&r);
}

/* With no headline, the ladder: ILP 1, 2, 4, 8 at one block per SM,
 * memory-level parallelism at low occupancy (no checkpoint); otherwise ILP 4
 * on a full grid, the checkpoint's figure. */
static double run_ilp(wb_headline *h)
{
    size_t bytes = wb_bench_bytes() & ~(size_t)15, n = bytes / 4;
    ilp_ctx c = { wb_dmalloc(bytes), wb_dmalloc(bytes), n, 1, 1 };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_X, -1, 1);
    double copy = wb_yard_copy_gbps(bytes), ratio = NAN;
    if (!h)
        for (size_t j = 0; j < WB_COUNT(W12_ILPS); j++) c.ilp = W12_ILPS[j], c.bps = 1, ratio = ilp_row(&c, copy, NULL);
    else
        c.ilp = 4, c.bps = 0, ratio = ilp_row(&c, copy, h);
    wb_dfree((void *)c.x), wb_dfree(c.y);
    return ratio;
}
static double bench_ilp(void) { return run_ilp(NULL); }
static double bench_ilp_bw(wb_headline *h) { return run_ilp(h); }

/* ---------------------------------------------------------------- graph */

/* The graph works in place on d: the device copy of h, inside guards. */
START_TEST(graph_matches_eager)
{
    ck_assert_str_eq(__func__, W12_GRAPH_TAG);
    wb_rng rng = WB_RNG();
    int k, n, replays;
    float *h = wb_hmalloc(W12_GRAPH_MAX_N * 4), *ref = wb_hmalloc(W12_GRAPH_MAX_N * 4);
    w12_graph_case(&rng, _i, &k, &n, &replays, h, ref);
    wb_dout d;
    float *dd = wb_dout_alloc(&d, "d", (size_t)n * 4, 0);
    wb_h2d(dd, h, (size_t)n * 4);
    cudaGraphExec_t g = NULL;
    WB_CUDA(graph_create(dd, n, k, &g));
    wb_sync();
    ck_assert_msg(g != NULL, "graph_create gave no graph");
    wb_expect_dout_f32(&d, h, (size_t)n, 0, 0, "after capture, before any replay"); /* capturing must not run anything */
    for (int r = 0; r < replays; r++) WB_CUDA(graph_launch(g));
    char what[80];
    snprintf(what, sizeof what, "n=%d k=%d, %d replays", n, k, replays);
    wb_expect_dout_f32(&d, ref, (size_t)n, 0, 0, what);
    WB_CUDA(graph_destroy(g));
    wb_dout_free(&d);
    free(h), free(ref);
}
END_TEST

enum { TINY_N = W12_TINY_N, TINY_K = W12_TINY_K, SEED_T = 122 };
typedef struct { float *d; cudaGraphExec_t g; int calls; } tiny_ctx;
static void eager_work(void *p)
{
    tiny_ctx *c = p;
    WB_CUDA(yard_tiny_eager(c->d, TINY_N, TINY_K));
    c->calls++;
}
static void graph_work(void *p)
{
    tiny_ctx *c = p;
    WB_CUDA(graph_launch(c->g));
    c->calls++;
}
static double tiny_expect(size_t i, const void *ctx)
{
    const tiny_ctx *c = ctx;
    return w12_tiny_after(wb_hash_uniform_f32(SEED_T, i, W12_TINY_LO, W12_TINY_HI), (long)c->calls * TINY_K);
}

/* k = 1000 launches of a 256-thread kernel, eager against one graph replay,
 * in the same run. The rows are launch rates (kernels a microsecond, the
 * inverse of the time per kernel), so the graph row's ratio to EAGER is
 * eager time over graph time: the speed-up. Both timed outputs are checked
 * (every call adds k). */
static double bench_graph(wb_headline *h)
{
    wb_bench_opts o = { 3, 20, 0 };
    tiny_ctx c = { wb_dmalloc(TINY_N * 4), NULL, 0 };
    wb_dfill_uniform_f32(c.d, TINY_N, SEED_T, W12_TINY_LO, W12_TINY_HI);
    wb_bench_row e = { .exercise = "launch", .variant = "eager, 1000 tiny kernels", .n = TINY_K,
                       .unit = "kernels/us" };
    wb_time(eager_work, &c, &o, &e.t);
    e.value = TINY_K / (e.t.median * 1e3);
    wb_cmp cmp;
    if (wb_dverify_f32("d", c.d, TINY_N, tiny_expect, &c, TINY_N, 0, 0, &cmp)) wb_bench_invalid(&e, cmp.msg);
    wb_bench_emit(&e);

    wb_dfill_uniform_f32(c.d, TINY_N, SEED_T, W12_TINY_LO, W12_TINY_HI);
    c.calls = 0;
    WB_CUDA(graph_create(c.d, TINY_N, TINY_K, &c.g));
    wb_bench_row r = { .exercise = "launch", .variant = "graph replay, 1000 tiny kernels", .n = TINY_K,
                       .unit = "kernels/us", .yard_name = "EAGER", .yard = e.value };
    if (!c.g) {
        wb_bench_invalid(&r, "graph_create gave no graph");
    } else {
        wb_time(graph_work, &c, &o, &r.t);
        r.value = TINY_K / (r.t.median * 1e3);
        if (wb_dverify_f32("d", c.d, TINY_N, tiny_expect, &c, TINY_N, 0, 0, &cmp)) wb_bench_invalid(&r, cmp.msg);
    }
    if (e.invalid && !r.invalid) wb_bench_invalid(&r, "the eager launches it is compared with gave wrong output");
    double ratio = wb_bench_headline(&r, h);
    if (!r.invalid) printf("  eager %.3f us a kernel, graph replay %.3f us a kernel\n", 1 / e.value, 1 / r.value);
    if (c.g) WB_CUDA(graph_destroy(c.g));
    wb_dfree(c.d);
    return ratio;
}

/* ---------------------------------------------------------------- fusion */

START_TEST(fuse_sizes)
{
    ck_assert_str_eq(__func__, W12_FUSE_TAG);
    wb_rng rng = WB_RNG();
    size_t n = W12_SIZES[_i];
    float abs_[3], *hx = wb_hmalloc(n * 4), *ref = wb_hmalloc(n * 4);
    w12_fuse_case(&rng, _i, abs_, hx, ref);
    float a = abs_[0], b = abs_[1], s = abs_[2];
    float *dx = wb_dcopy(hx, n * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    WB_CUDA(fused_chain(dx, dy, n, a, b, s));
    char what[64];
    snprintf(what, sizeof what, "n=%zu", n);
    wb_expect_dout_f32(&y, ref, n, 0, W12_FUSE_RTOL, what);
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref);
}
END_TEST

enum { SEED_F = 123 };
static const float FA = 1.25f, FB = -0.25f, FS = 0.75f;
typedef struct { const float *x; float *t1, *t2, *y; size_t n; } fuse_ctx;
static void unfused_work(void *p)
{
    fuse_ctx *c = p;
    WB_CUDA(yard_unfused_chain(c->x, c->t1, c->t2, c->y, c->n, FA, FB, FS));
}
static void fused_work(void *p)
{
    fuse_ctx *c = p;
    WB_CUDA(fused_chain(c->x, c->y, c->n, FA, FB, FS));
}
static double fuse_expect(size_t i, const void *ctx)
{
    (void)ctx;
    return w12_chain_ref(wb_hash_uniform_f32(SEED_F, i, -1, 1), FA, FB, FS);
}

/* Elements per second, fused against the given three-kernel chain. */
static double bench_fuse(wb_headline *h)
{
    size_t bytes = wb_bench_bytes() & ~(size_t)15, n = bytes / 4;
    fuse_ctx c = { wb_dmalloc(bytes), wb_dmalloc(bytes), wb_dmalloc(bytes), wb_dmalloc(bytes), n };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_F, -1, 1);
    wb_bench_row u = { .exercise = "fuse", .variant = "given: 3 kernels", .n = n, .bytes = 24.0 * n, .flops = 4.0 * n,
                       .unit = "Gelem/s" };
    wb_dpoison(c.y, bytes);
    wb_time(unfused_work, &c, NULL, &u.t);
    u.value = n / (u.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("y", c.y, n, fuse_expect, NULL, 1 << 14, 0, W12_FUSE_RTOL, &cmp)) wb_bench_invalid(&u, cmp.msg);
    wb_bench_emit(&u);
    wb_bench_row r = { .exercise = "fuse", .variant = "yours: fused", .n = n, .bytes = 8.0 * n, .flops = 4.0 * n,
                       .unit = "Gelem/s", .yard_name = "UNFUSED", .yard = u.value };
    wb_dpoison(c.y, bytes);
    wb_time(fused_work, &c, NULL, &r.t);
    r.value = n / (r.t.median * 1e-3) / 1e9;
    if (wb_dverify_f32("y", c.y, n, fuse_expect, NULL, 1 << 14, 0, W12_FUSE_RTOL, &cmp)) wb_bench_invalid(&r, cmp.msg);
    wb_dfree((void *)c.x), wb_dfree(c.t1), wb_dfree(c.t2), wb_dfree(c.y);
    return wb_bench_headline(&r, h);
}

static const wb_test TESTS[] = {
    { "w12.ilp", WB_T(ilp_sizes), WB_GPU, W12_N_ILP_CASES },
    WB_SPEED("w12.ilp-bw", bench_ilp_bw),
    { "w12.graph", WB_T(graph_matches_eager), WB_GPU, W12_N_GRAPH_CASES },
    WB_SPEED("w12.graph-speed", bench_graph),
    { "w12.fuse", WB_T(fuse_sizes), WB_GPU, W12_N_SIZES },
    WB_SPEED("w12.fuse-speed", bench_fuse),
};

/* The ILP ladder serves no target; `--bench` also runs ilp_bw, graph and fuse. */
static const wb_benchmark BENCHES[] = {
    { "ilp", bench_ilp },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
