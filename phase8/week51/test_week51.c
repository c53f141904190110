/* test_week51.c — week 51's checkpoints: an optimizer step of many small
 * tensors, op by op (exercise 1); the same step captured into a CUDA graph
 * over several streams, its learning rate updated in place, replayed
 * against the same step in one multi-tensor launch (exercise 2). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "momentum.h"
#include "optgraph.h"
#include "support/yard_multitensor.h"

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

/* ---------------------------------------------------------------- replay against one launch */

/* 64 tensors of 512 to 4096 floats (a small model's parameters: 128 kernels
 * a step). Each row is steps a millisecond; the yardstick MULTITENSOR is
 * the same step in one kernel launch (support/yard_multitensor.cu), and a
 * row's ratio is its rate over that one's. Every row is checked after
 * timing against the CPU run for as many steps as the work ran, and one
 * timed run is a spot check on fresh inputs. */
enum { BENCH_T = 64 };
static const int BENCH_LENS[] = { 1024, 4096, 768, 2048, 512, 3000 };

typedef struct {
    tset       s;
    opt_graph *g;
    int        calls;               /* steps run since the state was last set */
    float      lr, mu;
    float     *p0[MAXT], *v0[MAXT], *g0[MAXT]; /* the first state, put back before each row */
    size_t     floats;
} step_ctx;

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
static void multitensor_work(void *p)
{
    step_ctx *c = p;
    WB_CUDA(yard_multitensor_step(&c->s.set, c->lr, c->mu, 0));
    c->calls++;
}

/* Every tensor's p, g and v from the given host arrays, on host and device; calls = 0. */
static void step_set_state(step_ctx *c, float *const *p, float *const *g, float *const *v)
{
    for (int t = 0; t < BENCH_T; t++) {
        size_t b = (size_t)c->s.len[t] * 4;
        if (c->s.hp[t] != p[t]) memcpy(c->s.hp[t], p[t], b);
        if (c->s.hg[t] != g[t]) memcpy(c->s.hg[t], g[t], b);
        if (c->s.hv[t] != v[t]) memcpy(c->s.hv[t], v[t], b);
        wb_h2d(c->s.dp[t], p[t], b), wb_h2d(c->s.dg[t], g[t], b), wb_h2d(c->s.dv[t], v[t], b);
    }
    c->calls = 0;
}

/* Back to the first state. */
static void bench_reset(step_ctx *c) { step_set_state(c, c->p0, c->g0, c->v0); }

/* The CPU runs c->calls steps; the device's p and v must match. */
static int bench_verify(step_ctx *c, char *why, size_t n)
{
    for (int k = 0; k < c->calls; k++) tset_step_cpu(&c->s, c->lr, c->mu);
    wb_sync();
    for (int t = 0; t < BENCH_T; t++) {
        size_t m = (size_t)c->s.len[t];
        float *got = wb_hmalloc(m * 4);
        wb_cmp cmp;
        const char *name = "p";
        wb_d2h(got, c->s.dp[t], m * 4);
        size_t bad = wb_compare_f32("p", got, c->s.hp[t], m, 1e-5, 1e-4, &cmp);
        if (!bad) {
            name = "v";
            wb_d2h(got, c->s.dv[t], m * 4);
            bad = wb_compare_f32("v", got, c->s.hv[t], m, 1e-5, 1e-4, &cmp);
        }
        free(got);
        if (bad) {
            snprintf(why, n, "after %d steps, tensor %d (%s): %s", c->calls, t, name, cmp.msg);
            return 1;
        }
    }
    return 0;
}

/* The spot check (wb_time): new p, g and v drawn with `salt` (the step
 * works in place, so these are its inputs and its output), or the first
 * state again for salt 0; then one step must give the CPU's. */
static void step_fresh(void *ctx, unsigned long long salt)
{
    step_ctx *c = ctx;
    if (!salt) {
        bench_reset(c);
        return;
    }
    wb_rng rng = wb_rng_for("w51 spot check", (int)(salt & 0x7fffffff));
    for (int t = 0; t < BENCH_T; t++) {
        size_t n = (size_t)c->s.len[t];
        wb_fill_uniform_f32(&rng, c->s.hp[t], n, -1, 1);
        wb_fill_uniform_f32(&rng, c->s.hg[t], n, -1, 1);
        wb_fill_uniform_f32(&rng, c->s.hv[t], n, -1, 1);
    }
    step_set_state(c, c->s.hp, c->s.hg, c->s.hv);
}
static int step_check(void *ctx, char *why, size_t n) { return bench_verify(ctx, why, n); }

/* launch-bound: no L2 flush (the same for every row); a spot check on fresh inputs */
static const wb_bench_opts STEP_OPTS = { 3, 20, 0, step_fresh, step_check };

/* The set of the benchmarks, its first state kept in p0, g0, v0. */
static void bench_set_make(step_ctx *c)
{
    wb_rng rng = wb_rng_for("bench_replay", 0);
    int len[MAXT];
    for (int t = 0; t < BENCH_T; t++) len[t] = BENCH_LENS[t % WB_COUNT(BENCH_LENS)];
    memset(c, 0, sizeof *c);
    c->lr = 0.01f, c->mu = 0.9f;
    tset_make(&c->s, &rng, BENCH_T, len);
    for (int t = 0; t < BENCH_T; t++) {
        size_t b = (size_t)len[t] * 4;
        c->p0[t] = wb_hmalloc(b), c->g0[t] = wb_hmalloc(b), c->v0[t] = wb_hmalloc(b);
        memcpy(c->p0[t], c->s.hp[t], b), memcpy(c->g0[t], c->s.hg[t], b), memcpy(c->v0[t], c->s.hv[t], b);
        c->floats += (size_t)len[t];
    }
}

static void bench_set_free(step_ctx *c)
{
    for (int t = 0; t < BENCH_T; t++) free(c->p0[t]), free(c->g0[t]), free(c->v0[t]);
    tset_free(&c->s);
}

/* `work` from the first state, timed and checked; measured against the
 * yardstick row y unless y is NULL (the yardstick itself). */
static wb_bench_row time_step(step_ctx *c, wb_work_fn work, const char *variant, const wb_bench_row *y)
{
    char why[600];
    bench_reset(c);
    wb_bench_row r = { .exercise = "step", .variant = variant, .n = c->floats, .unit = "steps/ms" };
    if (y) r.yard_name = "MULTITENSOR", r.yard = y->invalid ? NAN : y->value;
    wb_time(work, c, &STEP_OPTS, &r.t);
    r.value = 1 / r.t.median;
    if (bench_verify(c, why, sizeof why)) wb_bench_invalid(&r, why);
    return r;
}

/* The yardstick: one launch a step. */
static wb_bench_row time_multitensor(step_ctx *c)
{
    return time_step(c, multitensor_work, "MULTITENSOR: one launch", NULL);
}

/* A graph of the step on `branches` streams, replayed. */
static wb_bench_row time_graph(step_ctx *c, int branches, const wb_bench_row *y, const char *variant)
{
    c->g = NULL;
    WB_CUDA(optgraph_create(&c->s.set, c->lr, c->mu, branches, &c->g));
    if (!c->g) {
        wb_bench_row r = { .exercise = "step", .variant = variant, .n = c->floats, .unit = "steps/ms",
                           .yard_name = "MULTITENSOR", .yard = y->invalid ? NAN : y->value };
        wb_bench_invalid(&r, "optgraph_create gave no graph");
        return r;
    }
    wb_bench_row r = time_step(c, graph_work, variant, y);
    optgraph_destroy(c->g);
    c->g = NULL;
    return r;
}

static void per_kernel(const char *what, const wb_bench_row *r)
{
    if (!r->invalid && r->value > 0)
        printf("  %s: %.1f us a step, %.2f us for each of the eager step's %d kernels\n", what, 1e3 / r->value,
               1e3 / r->value / (2 * BENCH_T), 2 * BENCH_T);
}

/* The checkpoint: a replay on 2 branches against one multi-tensor launch;
 * the eager step is a report row against the same yardstick. */
static double bench_replay(wb_headline *h)
{
    step_ctx c;
    bench_set_make(&c);
    wb_bench_row m = time_multitensor(&c);
    wb_bench_emit(&m);
    wb_bench_row e = time_step(&c, eager_work, "eager: 128 kernels", &m);
    wb_bench_emit(&e);
    wb_bench_row r = time_graph(&c, 2, &m, "yours: graph replay, 2 branches");
    double ratio = wb_bench_headline(&r, h);
    per_kernel("multi-tensor, one launch", &m), per_kernel("eager", &e), per_kernel("graph replay, 2 branches", &r);
    if (!e.invalid && !r.invalid && r.value > 0) printf("  graph replay against eager: %.2fx\n", r.value / e.value);
    bench_set_free(&c);
    return ratio;
}

/* No checkpoint: the eager step and replays on 1, 2, 4 and 8 branches
 * against the same one-launch yardstick. */
static double bench_branches(void)
{
    step_ctx c;
    bench_set_make(&c);
    wb_bench_row m = time_multitensor(&c);
    wb_bench_emit(&m);
    per_kernel("multi-tensor, one launch", &m);
    wb_bench_row e = time_step(&c, eager_work, "eager: 128 kernels", &m);
    wb_bench_emit(&e);
    per_kernel("eager", &e);
    static const int NB[] = { 1, 2, 4, 8 };
    for (size_t k = 0; k < WB_COUNT(NB); k++) {
        char v[64];
        snprintf(v, sizeof v, "graph replay, %d branch%s", NB[k], NB[k] > 1 ? "es" : "");
        wb_bench_row r = time_graph(&c, NB[k], &m, v);
        wb_bench_emit(&r);
        per_kernel(v, &r);
    }
    bench_set_free(&c);
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
