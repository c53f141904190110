/* test_week51.c — week 51's checkpoints: an optimizer step of many small
 * tensors, op by op (exercise 1); the same step captured into a CUDA graph
 * over several streams, its learning rate updated in place, replayed
 * against the eager launches (exercise 2). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "momentum.h"
#include "optgraph.h"

/* ---------------------------------------------------------------- a set of tensors */

enum { MAXT = 80 };
static const int LENS[] = { 0, 1, 31, 256, 257, 1000, 4097, 65537 };

typedef struct {
    int     nt, len[MAXT];
    float  *hp[MAXT], *hg[MAXT], *hv[MAXT]; /* the host state: p and v follow the CPU reference */
    wb_dout P[MAXT], V[MAXT];                /* device p and v, inside guard bands */
    float  *dp[MAXT], *dg[MAXT], *dv[MAXT];
    opt_set set;
} tset;

/* nt tensors of the given lengths, random p, g, v in [-1, 1] on host and device. */
static void tset_make(tset *s, wb_rng *rng, int nt, const int *len)
{
    memset(s, 0, sizeof *s);
    s->nt = nt;
    for (int t = 0; t < nt; t++) {
        size_t n = (size_t)len[t], b = n * 4;
        s->len[t] = len[t];
        s->hp[t] = wb_hmalloc(b + 4), s->hg[t] = wb_hmalloc(b + 4), s->hv[t] = wb_hmalloc(b + 4);
        wb_fill_uniform_f32(rng, s->hp[t], n, -1, 1);
        wb_fill_uniform_f32(rng, s->hg[t], n, -1, 1);
        wb_fill_uniform_f32(rng, s->hv[t], n, -1, 1);
        s->dp[t] = wb_dout_alloc(&s->P[t], "p", b, 0);
        s->dv[t] = wb_dout_alloc(&s->V[t], "v", b, 0);
        s->dg[t] = wb_dcopy(s->hg[t], b);
        if (n) wb_h2d(s->dp[t], s->hp[t], b), wb_h2d(s->dv[t], s->hv[t], b);
    }
    s->set = (opt_set){ nt, s->dp, s->dg, s->dv, s->len };
}

/* One step on the CPU, as the kernels compute it (one rounding for each
 * multiply-add, which nvcc contracts to FMA; the tolerance allows either). */
static void tset_step_cpu(tset *s, float lr, float mu)
{
    for (int t = 0; t < s->nt; t++)
        for (int i = 0; i < s->len[t]; i++) {
            s->hv[t][i] = fmaf(mu, s->hv[t][i], s->hg[t][i]);
            s->hp[t][i] = fmaf(-lr, s->hv[t][i], s->hp[t][i]);
        }
}

/* The device p and v against the CPU's, tensor by tensor. */
static void tset_expect(const tset *s, const char *what)
{
    char w[200];
    for (int t = 0; t < s->nt; t++) {
        snprintf(w, sizeof w, "%s, tensor %d of %d (%d floats)", what, t, s->nt, s->len[t]);
        wb_expect_dout_f32(&s->V[t], s->hv[t], (size_t)s->len[t], 1e-6, 1e-5, w);
        wb_expect_dout_f32(&s->P[t], s->hp[t], (size_t)s->len[t], 1e-6, 1e-5, w);
    }
}

static void tset_free(tset *s)
{
    for (int t = 0; t < s->nt; t++) {
        wb_dout_free(&s->P[t]), wb_dout_free(&s->V[t]), wb_dfree(s->dg[t]);
        free(s->hp[t]), free(s->hg[t]), free(s->hv[t]);
    }
}

static int random_set(wb_rng *rng, int *len, int nt)
{
    for (int t = 0; t < nt; t++) len[t] = LENS[wb_rng_int(rng, 0, WB_COUNT(LENS) - 1)];
    return nt;
}

static float rand_lr(wb_rng *rng) { return (float)(0.001 + 0.099 * wb_rng_unit(rng)); }
static float rand_mu(wb_rng *rng) { return (float)(0.5 + 0.49 * wb_rng_unit(rng)); }

/* ---------------------------------------------------------------- exercise 1 */

/* 1 to 9 tensors of 0 to 65537 floats (a zero-length one among them from
 * _i = 4 on), 1 to 3 steps on the default stream. */
START_TEST(step_eager)
{
    wb_rng rng = WB_RNG();
    int len[MAXT], nt = random_set(&rng, len, 1 + (int)wb_rng_int(&rng, 0, 8)), steps = 1 + _i % 3;
    if (_i >= 4) len[_i % nt] = 0;
    if (_i == 0) nt = 1, len[0] = 1;
    tset s;
    tset_make(&s, &rng, nt, len);
    float lr = rand_lr(&rng), mu = rand_mu(&rng);
    for (int k = 0; k < steps; k++) {
        WB_CUDA(momentum_step(&s.set, lr, mu, 0));
        tset_step_cpu(&s, lr, mu);
    }
    char what[120];
    snprintf(what, sizeof what, "momentum_step, %d tensors, %d steps, lr %g mu %g", nt, steps, (double)lr, (double)mu);
    tset_expect(&s, what);
    tset_free(&s);
}
END_TEST

/* ---------------------------------------------------------------- exercise 2 */

static const int BRANCHES[] = { 1, 2, 3, 4 };

/* Capture runs nothing; k replays equal k steps; 1 to 4 branches. */
START_TEST(graph_replays)
{
    wb_rng rng = WB_RNG();
    int len[MAXT], nt = random_set(&rng, len, 1 + (int)wb_rng_int(&rng, 0, 8)), b = BRANCHES[_i % 4];
    int replays = 1 + _i % 3;
    tset s;
    tset_make(&s, &rng, nt, len);
    float lr = rand_lr(&rng), mu = rand_mu(&rng);
    opt_graph *g = NULL;
    WB_CUDA(optgraph_create(&s.set, lr, mu, b, &g));
    ck_assert_msg(g != NULL, "optgraph_create gave no graph");
    char what[160];
    snprintf(what, sizeof what, "%d tensors, %d branches, after capture and before any replay (capture runs nothing)", nt, b);
    tset_expect(&s, what);
    for (int r = 0; r < replays; r++) {
        WB_CUDA(optgraph_launch(g, 0));
        tset_step_cpu(&s, lr, mu);
    }
    snprintf(what, sizeof what, "%d tensors, %d branches, %d replays, lr %g mu %g", nt, b, replays, (double)lr, (double)mu);
    tset_expect(&s, what);
    optgraph_destroy(g);
    tset_free(&s);
}
END_TEST

/* The captured graph's shape: each tensor's kernels are nodes, and the
 * tensors dealt over b streams start as b independent paths (b root nodes). */
START_TEST(graph_branches)
{
    wb_rng rng = WB_RNG();
    int b = BRANCHES[_i % 4], nt = 6, len[MAXT];
    for (int t = 0; t < nt; t++) len[t] = 256 + 100 * t;
    tset s;
    tset_make(&s, &rng, nt, len);
    opt_graph *g = NULL;
    WB_CUDA(optgraph_create(&s.set, 0.01f, 0.9f, b, &g));
    ck_assert_msg(g != NULL, "optgraph_create gave no graph");
    cudaGraph_t graph = optgraph_graph(g);
    ck_assert_msg(graph != NULL, "optgraph_graph gave no graph");
    size_t n = 0, roots = 0, kernels = 0;
    WB_CUDA(cudaGraphGetNodes(graph, NULL, &n));
    cudaGraphNode_t *nodes = wb_hmalloc((n + 1) * sizeof *nodes);
    WB_CUDA(cudaGraphGetNodes(graph, nodes, &n));
    for (size_t i = 0; i < n; i++) {
        enum cudaGraphNodeType type;
        WB_CUDA(cudaGraphNodeGetType(nodes[i], &type));
        kernels += type == cudaGraphNodeTypeKernel;
    }
    WB_CUDA(cudaGraphGetRootNodes(graph, NULL, &roots));
    ck_assert_msg(kernels >= (size_t)nt, "%d tensors, %d branches: the graph has %zu kernel nodes, expected at least one a tensor",
                  nt, b, kernels);
    ck_assert_msg(roots >= (size_t)b, "%d tensors on %d branches: the graph has %zu root nodes, so fewer than %d "
                  "independent paths (fork every stream from one event recorded on the capturing stream, before any kernel)",
                  nt, b, roots, b);
    tset_step_cpu(&s, 0.01f, 0.9f);
    WB_CUDA(optgraph_launch(g, 0));
    char what[80];
    snprintf(what, sizeof what, "%d tensors on %d branches, one replay", nt, b);
    tset_expect(&s, what);
    free(nodes);
    optgraph_destroy(g);
    tset_free(&s);
}
END_TEST

/* A schedule: lr changes between replays; the instantiated graph stays the
 * same object and each replay uses the latest lr. */
START_TEST(graph_set_lr)
{
    wb_rng rng = WB_RNG();
    int len[MAXT], nt = random_set(&rng, len, 2 + (int)wb_rng_int(&rng, 0, 6)), b = 1 + _i % 3;
    len[0] = 1000;
    tset s;
    tset_make(&s, &rng, nt, len);
    float mu = rand_mu(&rng), lr[4];
    for (int k = 0; k < 4; k++) lr[k] = rand_lr(&rng);
    opt_graph *g = NULL;
    WB_CUDA(optgraph_create(&s.set, lr[0], mu, b, &g));
    ck_assert_msg(g != NULL, "optgraph_create gave no graph");
    cudaGraphExec_t exec = optgraph_exec(g);
    ck_assert_msg(exec != NULL, "optgraph_exec gave no instantiated graph");
    char what[160];
    for (int k = 0; k < 4; k++) {
        if (k) WB_CUDA(optgraph_set_lr(g, lr[k]));
        ck_assert_msg(optgraph_exec(g) == exec, "after optgraph_set_lr the instantiated graph is another object: "
                      "update it in place (cudaGraphExecUpdate), do not instantiate again");
        WB_CUDA(optgraph_launch(g, 0));
        tset_step_cpu(&s, lr[k], mu);
        snprintf(what, sizeof what, "%d tensors, %d branches, replay %d with lr %g (after %d updates)", nt, b, k + 1,
                 (double)lr[k], k);
        tset_expect(&s, what);
    }
    optgraph_destroy(g);
    tset_free(&s);
}
END_TEST

/* ---------------------------------------------------------------- replay against eager */

/* 64 tensors of 512 to 4096 floats (a small model's parameters: 128 kernels
 * a step). Each row is steps a millisecond; the graph row's ratio to EAGER
 * is eager time over replay time. Both outputs are checked after timing
 * against the CPU run for as many steps as the work ran. */
enum { BENCH_T = 64 };
static const int BENCH_LENS[] = { 1024, 4096, 768, 2048, 512, 3000 };
typedef struct { tset s; opt_graph *g; int calls; float lr, mu; } step_ctx;

static void eager_work(void *p)
{
    step_ctx *c = p;
    WB_CUDA(momentum_step(&c->s.set, c->lr, c->mu, 0));
    c->calls++;
}
static void graph_work(void *p)
{
    step_ctx *c = p;
    WB_CUDA(optgraph_launch(c->g, 0));
    c->calls++;
}

/* Back to the first state on host and device; calls = 0. */
static void bench_reset(step_ctx *c, float *const *p0, float *const *v0)
{
    for (int t = 0; t < BENCH_T; t++) {
        size_t b = (size_t)c->s.len[t] * 4;
        memcpy(c->s.hp[t], p0[t], b), memcpy(c->s.hv[t], v0[t], b);
        wb_h2d(c->s.dp[t], p0[t], b), wb_h2d(c->s.dv[t], v0[t], b);
    }
    c->calls = 0;
}

/* The CPU runs c->calls steps; the device state must match. */
static int bench_verify(step_ctx *c, char *why, size_t n)
{
    for (int k = 0; k < c->calls; k++) tset_step_cpu(&c->s, c->lr, c->mu);
    wb_sync();
    for (int t = 0; t < BENCH_T; t++) {
        size_t m = (size_t)c->s.len[t];
        float *got = wb_hmalloc(m * 4);
        wb_cmp cmp;
        wb_d2h(got, c->s.dp[t], m * 4);
        size_t bad = wb_compare_f32("p", got, c->s.hp[t], m, 1e-5, 1e-4, &cmp);
        free(got);
        if (bad) {
            snprintf(why, n, "after %d steps, tensor %d: %s", c->calls, t, cmp.msg);
            return 1;
        }
    }
    return 0;
}

/* The set of the benchmarks, its first state kept in p0/v0. */
typedef struct { step_ctx c; float *p0[MAXT], *v0[MAXT]; size_t floats; } bench_set;

static void bench_set_make(bench_set *B)
{
    wb_rng rng = wb_rng_for("bench_replay", 0);
    int len[MAXT];
    for (int t = 0; t < BENCH_T; t++) len[t] = BENCH_LENS[t % WB_COUNT(BENCH_LENS)];
    memset(B, 0, sizeof *B);
    B->c.lr = 0.01f, B->c.mu = 0.9f;
    tset_make(&B->c.s, &rng, BENCH_T, len);
    for (int t = 0; t < BENCH_T; t++) {
        size_t b = (size_t)len[t] * 4;
        B->p0[t] = wb_hmalloc(b), B->v0[t] = wb_hmalloc(b);
        memcpy(B->p0[t], B->c.s.hp[t], b), memcpy(B->v0[t], B->c.s.hv[t], b);
        B->floats += (size_t)len[t];
    }
}

static void bench_set_free(bench_set *B)
{
    for (int t = 0; t < BENCH_T; t++) free(B->p0[t]), free(B->v0[t]);
    tset_free(&B->c.s);
}

static const wb_bench_opts STEP_OPTS = { 3, 20, 0, NULL, NULL }; /* launch-bound: no L2 flush */

/* The eager step, timed and checked. */
static wb_bench_row time_eager(bench_set *B)
{
    char why[600];
    bench_reset(&B->c, B->p0, B->v0);
    wb_bench_row e = { .exercise = "step", .variant = "eager: 64 tensors, 128 kernels", .n = B->floats,
                       .unit = "steps/ms" };
    wb_time(eager_work, &B->c, &STEP_OPTS, &e.t);
    e.value = 1 / e.t.median;
    if (bench_verify(&B->c, why, sizeof why)) wb_bench_invalid(&e, why);
    return e;
}

/* A graph of the step on `branches` streams, replayed, timed and checked
 * against the eager row e. */
static wb_bench_row time_graph(bench_set *B, int branches, const wb_bench_row *e, const char *variant)
{
    char why[600];
    bench_reset(&B->c, B->p0, B->v0);
    B->c.g = NULL;
    WB_CUDA(optgraph_create(&B->c.s.set, B->c.lr, B->c.mu, branches, &B->c.g));
    wb_bench_row r = { .exercise = "step", .variant = variant, .n = B->floats, .unit = "steps/ms",
                       .yard_name = "EAGER", .yard = e->value };
    if (!B->c.g) {
        wb_bench_invalid(&r, "optgraph_create gave no graph");
        return r;
    }
    wb_time(graph_work, &B->c, &STEP_OPTS, &r.t);
    r.value = 1 / r.t.median;
    if (bench_verify(&B->c, why, sizeof why)) wb_bench_invalid(&r, why);
    if (e->invalid && !r.invalid) wb_bench_invalid(&r, "the eager step it is compared with gave wrong output");
    optgraph_destroy(B->c.g);
    B->c.g = NULL;
    return r;
}

static void per_kernel(const char *what, const wb_bench_row *r)
{
    if (!r->invalid) printf("  %s: %.1f us a step, %.2f us a kernel\n", what, 1e3 / r->value, 1e3 / r->value / (2 * BENCH_T));
}

/* The checkpoint: a replay on 2 branches against the eager step. */
static double bench_replay(wb_headline *h)
{
    bench_set B;
    bench_set_make(&B);
    wb_bench_row e = time_eager(&B);
    wb_bench_emit(&e);
    wb_bench_row r = time_graph(&B, 2, &e, "yours: graph replay, 2 branches");
    double ratio = wb_bench_headline(&r, h);
    per_kernel("eager", &e), per_kernel("graph replay, 2 branches", &r);
    bench_set_free(&B);
    return ratio;
}

/* No checkpoint: replays on 1, 2, 4 and 8 branches against the same eager step. */
static double bench_branches(void)
{
    bench_set B;
    bench_set_make(&B);
    wb_bench_row e = time_eager(&B);
    wb_bench_emit(&e);
    per_kernel("eager", &e);
    static const int NB[] = { 1, 2, 4, 8 };
    for (size_t k = 0; k < WB_COUNT(NB); k++) {
        char v[64];
        snprintf(v, sizeof v, "graph replay, %d branch%s", NB[k], NB[k] > 1 ? "es" : "");
        wb_bench_row r = time_graph(&B, NB[k], &e, v);
        wb_bench_emit(&r);
        per_kernel(v, &r);
    }
    bench_set_free(&B);
    return NAN;
}

static const wb_test TESTS[] = {
    { "w51.step", WB_T(step_eager), WB_GPU, 8 },
    { "w51.capture", WB_T(graph_replays), WB_GPU, 8 },
    { "w51.branches", WB_T(graph_branches), WB_GPU, 4 },
    { "w51.update", WB_T(graph_set_lr), WB_GPU, 3 },
    WB_SPEED("w51.replay-speed", bench_replay),
};

/* `--bench` also runs replay (the checkpoint's). */
static const wb_benchmark BENCHES[] = {
    { "branches", bench_branches },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
