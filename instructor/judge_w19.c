/* judge_w19.c — build/instructor/judge-w19: week 19's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's nbody.o, leapfrog.o, cellgrid.o and stencil.o are linked into
 * the runner (judge_w19_runner.c), which this process starts (or is
 * handed) and asks to call them on buffers it allocated (judge.h). It
 * poisons, fills, times and checks, and writes the results record itself,
 * outside the runner's reach. The command line, the runner's start, the
 * record, the guarded buffers, the timed-call protocol and the COPY
 * yardstick are judge_week.c's:
 *
 *   judge-w19 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The case lists, the CPU references and the tolerances are test_week19.c's,
 * copied here (the test has no header of checks to share, and is left as it
 * is: keep the two in step). Each case is drawn for the run's seed
 * (wb_rng_for_seed with a tag of this judge's), on guarded buffers (jd_gbuf:
 * a poisoned band on each side of every array, checked after each call):
 *   w19.forces       the test's n = 0, 1, 2, 3, 257, 1000, 4099 (random
 *                    bodies in [-1, 1]^3, eps2 drawn in [1e-3, 1e-2]) and
 *                    its three close cases (coincident pairs every 7th
 *                    body; a dense cluster at eps2 = 1e-4, unit and wide
 *                    spreads at 4e-3), each through nbody_accel_naive and
 *                    _tiled on a fresh poison: every component within
 *                    acc_tol(n) S_i of the double reference, nothing
 *                    written outside acc;
 *   w19.nbody-peak   the timed-call protocol (judge_week.h): nbody_accel_tiled
 *                    at n = 1024 per SM (the test's n), eps2 = 0.01, up to
 *                    4 calls a request, each on its own bodies filled from
 *                    the hidden seed before every request (x, y, z and m
 *                    uniform in [0.5, 1.5): the check is relative to S_i,
 *                    so the scale of the masses does not matter), a
 *                    poisoned output, the judge's look (against the double
 *                    reference, loosely: the poison is NaN and never
 *                    passes) and every body of every output checked by the
 *                    judge's kernel (jd_nbody_check_f32: the test's
 *                    acc_tol(n) S_i, for every body where the test samples
 *                    128); 20 n^2 flops a call by the judge's clock, the
 *                    median of 7 requests, against PEAK_FP32 as the linked
 *                    test takes it (wb_this_device()'s datasheet figure: a
 *                    constant of the GPU, not a timed yardstick, as week
 *                    03's w03.fma-peak);
 *   w19.step         the test's n = 0, 1, 3, 257, 1000 (dt = 0.05, eps2 =
 *                    4e-3, velocities in [-0.5, 0.5]^3, the starting
 *                    accelerations the double reference's rounded to
 *                    float): one leapfrog_step, positions (masses
 *                    included) within 1e-5 + 1e-6 |ref| and velocities
 *                    within 2e-5 + 1e-6 |ref| of the double step, and the
 *                    returned accelerations within acc_tol(n) S_i of the
 *                    double reference at the returned positions; nothing
 *                    written outside pos, vel or acc;
 *   w19.energy       the test's two runs (n = 1000, 100 steps of 4e-3, eps
 *                    0.05; n = 257, 400 steps of 1e-3, eps 0.1; bodies in
 *                    a ball, velocities in [-0.5, 0.5]^3): the judge calls
 *                    nbody_accel_tiled once, then leapfrog_step step by
 *                    step (one call a request, the same guarded buffers),
 *                    and reads the final state back: some body moved more
 *                    than 0.1, the energy (double, on the CPU) within 1e-5
 *                    of its start, positions and velocities within 5e-5
 *                    of its own double-precision leapfrog run; nothing
 *                    written outside pos, vel or acc;
 *   w19.grid         the test's ten grids (coordinates on a lattice of
 *                    1/64, so every distance is exact): cg_workspace_bytes
 *                    asked through the runner, cg_build and cg_count_pairs
 *                    on poisoned outputs; cell_of exact, sorted a
 *                    permutation in cell order, every cell's start and end
 *                    (an empty cell's equal), every count exact against
 *                    the O(n^2) CPU count; nothing written outside them;
 *   w19.stencil      the test's 17 sizes (random coefficients of either
 *                    sign, in and out one float off 16-byte alignment in
 *                    every other case), its three grids with NaN and
 *                    infinities (on the tile's and the stream's edges),
 *                    its three ping-pong runs (50, 64 and 41 sweeps, heat
 *                    coefficients), through stencil_naive, _tiled and
 *                    _stream on fresh poison: every cell within the test's
 *                    sweep_atol of the double sweep (NaN where NaN, never
 *                    the poison), in unchanged, nothing written outside
 *                    either buffer; and cudaErrorInvalidValue for a
 *                    negative size and for ny > STENCIL_MAX_NY;
 *   w19.stencil-speed the protocol: stencil_stream on the test's 512 x 512
 *                    x nz grid (nz from wb_bench_bytes(), at least 64), c0
 *                    = 0.25, c1 = 0.125 as the test, up to 64 calls a
 *                    request on fresh inputs in [-1, 1), the look within
 *                    1e-6 and every cell of every output checked by the
 *                    judge's kernel (jd_stencil_check_f32, 1e-6 as the
 *                    test's spot check); 8 bytes a cell, the median of 7
 *                    requests, against COPY through the same protocol
 *                    (jd_copy_yard), the target for this GPU from week.txt.
 * Not listed (judge-w19 --list), so the grader runs them in the week's
 * linked test program: w19.realtime (whole steps timed with the state
 * carried from step to step and the accelerations on entry those at the
 * positions: the timed-call protocol refills its inputs before every
 * request and has no untimed force evaluation between the fill and the
 * call, so the judge would need a step protocol of its own; the forces,
 * the single step and the long run it stands on, and the tiled kernel's
 * speed, are formed here), and w19.steps-plot (the sweep written to
 * build/WEEK/steps.csv and drawn by gnuplot from the student's process:
 * the files are the checkpoint, in the student's tree).
 * On an H200 (2026-11-29), alone over the reference's and the starter's
 * runners, plain and sandboxed: the starter FAILed all seven, the reference
 * PASSed six (w19.stencil-speed 0.605 of COPY, the linked test 0.597, under
 * the target then in week.txt: the kernel's figure, not the judge's); not
 * yet through the grader there. Without a GPU, instructor/tests/judge_w19.sh
 * (every checkpoint SKIP, judged and linked alike; instructor/README.md's
 * week 19 entry says what to run on a GPU). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "judge_kernels.h"
#include "judge_w19.h"
#include "judge_week.h"
#include "nbody.h"
#include "stencil.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_rand.h"

#define TIMED 7

static const char *status_name(int st) { return st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st); }

/* One call of the request rq: 0 and its status in *st, or -1 (the runner lost: t says so). */
static int call(jd *J, jd_req *rq, int *st, const char *what, jd_tally *t)
{
    jd_rep rp;
    if (jd_call(J, rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    *st = rp.status;
    return 0;
}

/* ---------------------------------------------------------------- N-body: test_week19.c's references */

static void ref_accel_one(const float *pos, int n, double eps2, int i, double a[3], double *S)
{
    double xi = pos[4 * i], yi = pos[4 * i + 1], zi = pos[4 * i + 2], ax = 0, ay = 0, az = 0, s = 0;
    for (int j = 0; j < n; j++) {
        double dx = pos[4 * j] - xi, dy = pos[4 * j + 1] - yi, dz = pos[4 * j + 2] - zi;
        double r2 = dx * dx + dy * dy + dz * dz, s2 = r2 + eps2;
        double w = pos[4 * j + 3] / (s2 * sqrt(s2));
        ax += dx * w, ay += dy * w, az += dz * w;
        s += fabs(w) * sqrt(r2);
    }
    a[0] = ax, a[1] = ay, a[2] = az;
    *S = s;
}

static double acc_tol(int n) { return 4e-6 + 1.2e-7 * n; }

/* Every body's acceleration against the double reference: 0, or 1 with the first in msg. */
static int check_acc(const float *pos, int n, float eps2, const float *got, char *msg, size_t msz)
{
    int bad = 0;
    for (int i = 0; i < n; i++) {
        double a[3], S;
        ref_accel_one(pos, n, eps2, i, a, &S);
        double tol = acc_tol(n) * S;
        for (int k = 0; k < 3; k++) {
            double g = got[3 * (size_t)i + k];
            if (!(fabs(g - a[k]) <= tol)) {
                if (!bad)
                    snprintf(msg, msz, "acc[%d].%c = %.9g, expected %.9g (tolerance %.3g = %.3g x S, S = %.4g)", i,
                             "xyz"[k], g, a[k], tol, acc_tol(n), S);
                bad++;
            }
        }
    }
    if (bad) {
        size_t l = strlen(msg);
        snprintf(msg + l, msz - l, "; %d component(s) wrong", bad);
    }
    return bad != 0;
}

static float *make_bodies(wb_rng *rng, int n)
{
    float *p = malloc((size_t)(n > 0 ? n : 1) * 16);
    if (!p) return NULL;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) p[4 * i + k] = (float)(2 * wb_rng_unit(rng) - 1);
        p[4 * i + 3] = (float)((0.5 + wb_rng_unit(rng)) / n);
    }
    return p;
}

static const int NSIZES[] = { 0, 1, 2, 3, 257, 1000, 4099 };
#define N_NSIZES ((int)(sizeof NSIZES / sizeof NSIZES[0]))
#define N_CLOSE  3
static const char *const ANAME[2] = { "nbody_accel_naive", "nbody_accel_tiled" };

/* nbody_accel_{naive,tiled}(pos, acc, n, eps2) on P (already holding the bodies) into a fresh poison of A,
 * the accelerations read back into got: 0 (t says whether it passed), -1 (lost or the judge's copy failed). */
static int accel_call(jd *J, int v, jd_gbuf *P, jd_gbuf *A, int n, float eps2, float *got, const char *what, jd_tally *t)
{
    if (jd_gbuf_poison(A, 0, (size_t)n * 12) != 0) return jd_failf(t, "the judge's own copies failed"), -1;
    jd_req rq;
    jd_call_setup(&rq, W19_FN_ACC_NAIVE + v, 1, 2);
    jd_gbuf_arg(&rq, 0, n ? P : NULL, 0);
    jd_gbuf_arg(&rq, 1, A, 0);
    rq.i64[1] = n, rq.f64[0] = eps2;
    int st = 0;
    if (call(J, &rq, &st, what, t) != 0) return -1;
    if (st != 0) return jd_failf(t, "%s: %s returned %s", what, ANAME[v], status_name(st)), 0;
    int f = jd_gbuf_fetch(A, 0, (size_t)n * 12, got, "acc", what, t);
    return f < 0 ? -1 : 0;
}

static int forces_case(jd *J, jd_gbuf *P, jd_gbuf *A, float *hp, int n, float eps2, const char *kind, jd_tally *t)
{
    float *got = malloc((size_t)(n > 0 ? n : 1) * 12);
    if (!got) return jd_failf(t, "out of memory"), -1;
    int rc = 0;
    if (jd_gbuf_poison(P, 0, (size_t)n * 16) != 0 || jd_gbuf_put(P, 0, hp, (size_t)n * 16) != 0)
        rc = -1, jd_failf(t, "the judge's own copies failed");
    for (int v = 0; v < 2 && rc == 0; v++) {
        char what[160], msg[400] = "";
        snprintf(what, sizeof what, "%s, n=%d, eps2=%g, %s", ANAME[v], n, eps2, kind);
        t->tests++;
        int failed = t->failed;
        rc = accel_call(J, v, P, A, n, eps2, got, what, t);
        if (rc != 0 || t->failed != failed) break;
        if (check_acc(hp, n, eps2, got, msg, sizeof msg)) {
            jd_failf(t, "%s: %s", what, msg);
            break;
        }
    }
    free(got);
    return rc;
}

static void judge_forces(jd_ck *k)
{
    jd_gbuf P = { -1, NULL, 0 }, A = { -1, NULL, 0 };
    int maxn = 300 + 2 * 211 > 4099 ? 300 + 2 * 211 : 4099;
    if (jd_gbuf_alloc(k->J, &P, (size_t)maxn * 16, k->t) == 0 && jd_gbuf_alloc(k->J, &A, (size_t)maxn * 12, k->t) == 0)
        for (int c = 0; c < N_NSIZES + N_CLOSE && !k->J->lost && !k->t->failed; c++) {
            wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w19-forces", c);
            int n, rc;
            float *hp;
            if (c < N_NSIZES) {
                n = NSIZES[c];
                if (!(hp = make_bodies(&rng, n))) break;
                float eps2 = (float)(1e-3 + 9e-3 * wb_rng_unit(&rng));
                rc = forces_case(k->J, &P, &A, hp, n, eps2, "random bodies in [-1,1]^3", k->t);
            } else {
                int i = c - N_NSIZES;
                n = 300 + i * 211;
                if (!(hp = make_bodies(&rng, n))) break;
                for (int b = 1; b < n; b += 7) memcpy(hp + 4 * b, hp + 4 * (b - 1), 12);
                float scale = i == 0 ? 1e-2f : i == 1 ? 1.0f : 50.0f;
                for (int b = 0; b < n; b++)
                    for (int q = 0; q < 3; q++) hp[4 * b + q] *= scale;
                rc = forces_case(k->J, &P, &A, hp, n, i == 0 ? 1e-4f : 4e-3f,
                                 i == 0 ? "dense cluster, coincident pairs" : "coincident pairs", k->t);
            }
            free(hp);
            if (rc < 0) break;
        }
    jd_gbuf_free(k->J, &P), jd_gbuf_free(k->J, &A);
}

/* ---------------------------------------------------------------- w19.nbody-peak */

#define PEAK_EPS2 0.01f
#define PEAK_LO   0.5f
#define PEAK_HI   1.5f

static jd_bench g_bench; /* large: its sample arrays */

/* The look's reference: the rep's bodies (cached by seed) summed in double. */
static struct {
    unsigned long long seed;
    int                n;
    float             *pos;
} g_bodies;

static const float *bodies_for(unsigned long long seed, int n)
{
    if (g_bodies.pos && g_bodies.seed == seed && g_bodies.n == n) return g_bodies.pos;
    free(g_bodies.pos);
    g_bodies.pos = malloc((size_t)n * 16), g_bodies.seed = seed, g_bodies.n = n;
    if (g_bodies.pos)
        for (size_t i = 0; i < 4 * (size_t)n; i++) g_bodies.pos[i] = wb_hash_uniform_f32(seed, i, PEAK_LO, PEAK_HI);
    return g_bodies.pos;
}

static float peak_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    int n = (int)b->i64[1];
    const float *p = bodies_for(seed[0], n);
    if (!p) return NAN;
    double a[3], S;
    ref_accel_one(p, n, PEAK_EPS2, (int)(i / 3), a, &S);
    return (float)a[i % 3];
}

static float *g_check_pos; /* the judge's own copy of a rep's bodies, for its check kernel */

static int peak_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    int n = (int)b->i64[1];
    if (!g_check_pos && cudaMalloc((void **)&g_check_pos, (size_t)n * 16) != cudaSuccess) return g_check_pos = NULL, -1;
    wb_dfill_uniform_f32(g_check_pos, 4 * (size_t)n, seed[0], PEAK_LO, PEAK_HI);
    if (cudaDeviceSynchronize() != cudaSuccess) return -1; /* the fill is not on jd_stream */
    return jd_full_check_done(jd_nbody_check_f32(out, g_check_pos, n, PEAK_EPS2, acc_tol(n), bad, jd_stream), bad, h);
}

static void judge_nbody_peak(jd_ck *k)
{
    const wb_device *d = wb_this_device();
    int n = d->sm_count * 1024;
    /* the look's tolerance: acc_tol(n) x S at the cube's centre (about the largest S there), doubled; every
     * body is then checked against its own S by the judge's kernel */
    const float *hp = bodies_for(0x5eedULL, n);
    double S = 0;
    if (hp) {
        float *q = malloc((size_t)(n + 1) * 16);
        if (q) {
            memcpy(q, hp, (size_t)n * 16);
            q[4 * n] = q[4 * n + 1] = q[4 * n + 2] = 1.0f, q[4 * n + 3] = 0;
            double a[3];
            ref_accel_one(q, n + 1, PEAK_EPS2, n, a, &S);
            free(q);
        }
    }
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.fn = W19_FN_ACC_TILED, g_bench.n_in = 1, g_bench.max_k = 4, g_bench.n = 4 * (size_t)n;
    g_bench.out_n = 3 * (size_t)n, g_bench.lo = PEAK_LO, g_bench.hi = PEAK_HI;
    g_bench.atol = 2 * acc_tol(n) * S, g_bench.rtol = 0;
    g_bench.i64[1] = n, g_bench.f64[0] = PEAK_EPS2;
    g_bench.fn_name = "nbody_accel_tiled", g_bench.out_name = "acc";
    g_bench.expect = peak_expect, g_bench.full_check = peak_check;
    double ms = NAN, value = NAN, peak = d->peak_fp32_gflops;
    char why[600] = "", detail[300] = "";
    if (!hp || !(S > 0)) snprintf(why, sizeof why, "the judge's bodies: out of memory");
    else if (jd_bench_run(k->J, &g_bench, TIMED, &ms, why, sizeof why) == 0) {
        value = (double)NBODY_FLOPS_PER_INTERACTION * n * (double)n / (ms * 1e-3) / 1e9;
        snprintf(detail, sizeof detail, "n=%d: %.0f GFLOP/s vs PEAK_FP32 %.0f GFLOP/s (judge's clock, %d calls a request, "
                 "median of %d)", n, value, peak, g_bench.k, TIMED);
        printf("  nbody_accel_tiled: %s\n", detail);
    }
    if (g_check_pos) cudaFree(g_check_pos), g_check_pos = NULL;
    free(g_bodies.pos), g_bodies.pos = NULL;
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "GFLOP/s", "PEAK_FP32", peak, detail, why);
}

/* ---------------------------------------------------------------- w19.step */

static const int STEP_N[] = { 0, 1, 3, 257, 1000 };

static void ref_accel_all_d(const double *x, const double *m, int n, double eps2, double *a)
{
    for (int i = 0; i < n; i++) {
        double ax = 0, ay = 0, az = 0;
        for (int j = 0; j < n; j++) {
            double dx = x[3 * j] - x[3 * i], dy = x[3 * j + 1] - x[3 * i + 1], dz = x[3 * j + 2] - x[3 * i + 2];
            double s2 = dx * dx + dy * dy + dz * dz + eps2, w = m[j] / (s2 * sqrt(s2));
            ax += dx * w, ay += dy * w, az += dz * w;
        }
        a[3 * i] = ax, a[3 * i + 1] = ay, a[3 * i + 2] = az;
    }
}

/* got (n floats) against ref within atol + rtol |ref| (wb_close: NaN never passes), an element still the
 * poison named: 0, or 1 with t told. */
static int expect_f32(const float *got, const float *ref, size_t n, double atol, double rtol, const char *name,
                      const char *what, jd_tally *t)
{
    for (size_t i = 0; i < n; i++)
        if (!wb_close(got[i], ref[i], atol, rtol))
            return jd_failf(t, "%s: %s[%zu] expected %.9g got %.9g", what, name, i, (double)ref[i], (double)got[i]), 1;
    return 0;
}

/* The bodies and velocities (floats) as double positions, velocities and masses. */
static void split(const float *hp, const float *hv, int n, double *x, double *v, double *m)
{
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) x[3 * i + k] = hp[4 * i + k], v[3 * i + k] = hv[3 * i + k];
        m[i] = hp[4 * i + 3];
    }
}

/* leapfrog_step(pos, vel, acc, n, dt, eps2) on G: 0 and its status, or -1 (lost). */
static int step_call(jd *J, jd_gbuf G[3], int n, float dt, float eps2, int *st, const char *what, jd_tally *t)
{
    jd_req rq;
    jd_call_setup(&rq, W19_FN_STEP, 1, 3);
    for (int b = 0; b < 3; b++) jd_gbuf_arg(&rq, b, &G[b], 0);
    rq.i64[1] = n, rq.f64[0] = dt, rq.f64[1] = eps2;
    return call(J, &rq, st, what, t);
}

/* pos, vel and acc read back from G (bytes[b] each) into dst, their bands checked: jd_gbuf_fetch's 0, 1 or -1. */
static int fetch3(jd_gbuf G[3], const size_t bytes[3], float *const dst[3], const char *what, jd_tally *t)
{
    static const char *const NAME[3] = { "pos", "vel", "acc" };
    for (int b = 0; b < 3; b++) {
        int f = jd_gbuf_fetch(&G[b], 0, bytes[b], dst[b], NAME[b], what, t);
        if (f) return f;
    }
    return 0;
}

/* The cases of a leapfrog checkpoint on three guarded buffers of up to 1000 bodies. */
static void lf_cases(jd_ck *k, int n_cases, int (*one)(jd *J, jd_gbuf G[3], int c, jd_tally *t))
{
    jd_gbuf G[3] = { { -1, NULL, 0 }, { -1, NULL, 0 }, { -1, NULL, 0 } };
    if (jd_gbuf_alloc(k->J, &G[0], 1000 * 16, k->t) == 0 && jd_gbuf_alloc(k->J, &G[1], 1000 * 12, k->t) == 0 &&
        jd_gbuf_alloc(k->J, &G[2], 1000 * 12, k->t) == 0)
        for (int c = 0; c < n_cases && !k->J->lost && !k->t->failed; c++)
            if (one(k->J, G, c, k->t) < 0) break;
    for (int b = 0; b < 3; b++) jd_gbuf_free(k->J, &G[b]);
}

static int step_case(jd *J, jd_gbuf G[3], int c, jd_tally *t)
{
    int n = STEP_N[c];
    float dt = 0.05f, eps2 = 4e-3f;
    size_t n1 = n > 0 ? (size_t)n : 1;
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w19-step", c);
    float *hp = make_bodies(&rng, n), *hv = malloc(n1 * 12), *ha = malloc(n1 * 12), *rp = malloc(n1 * 16),
          *rv = malloc(n1 * 12), *gp = malloc(n1 * 16), *gv = malloc(n1 * 12), *ga = malloc(n1 * 12);
    double *x = calloc(n1, 24), *v = calloc(n1, 24), *m = calloc(n1, 8), *a = calloc(n1, 24);
    int rc = 0;
    if (!hp || !hv || !ha || !rp || !rv || !gp || !gv || !ga || !x || !v || !m || !a) {
        rc = -1, jd_failf(t, "out of memory");
        goto out;
    }
    wb_fill_uniform_f32(&rng, hv, (size_t)3 * n, -0.5f, 0.5f);
    split(hp, hv, n, x, v, m);
    ref_accel_all_d(x, m, n, eps2, a);
    for (size_t k = 0; k < 3 * (size_t)n; k++) ha[k] = (float)a[k];
    const void *src[3] = { hp, hv, ha };
    const size_t bytes[3] = { (size_t)n * 16, (size_t)n * 12, (size_t)n * 12 };
    for (int b = 0; b < 3; b++)
        if (jd_gbuf_poison(&G[b], 0, bytes[b]) != 0 || jd_gbuf_put(&G[b], 0, src[b], bytes[b]) != 0) {
            rc = -1, jd_failf(t, "the judge's own copies failed");
            goto out;
        }
    char what[96];
    snprintf(what, sizeof what, "leapfrog_step, n=%d, dt=%g, eps2=%g", n, dt, eps2);
    int st = 0;
    t->tests++;
    if ((rc = step_call(J, G, n, dt, eps2, &st, what, t)) != 0) goto out;
    if (st != 0) {
        jd_failf(t, "%s: leapfrog_step returned %s", what, status_name(st));
        goto out;
    }
    for (size_t k = 0; k < 3 * (size_t)n; k++) v[k] += a[k] * dt / 2, x[k] += v[k] * dt;
    ref_accel_all_d(x, m, n, eps2, a);
    for (size_t k = 0; k < 3 * (size_t)n; k++) v[k] += a[k] * dt / 2;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) rp[4 * i + k] = (float)x[3 * i + k], rv[3 * i + k] = (float)v[3 * i + k];
        rp[4 * i + 3] = hp[4 * i + 3];
    }
    float *const dst[3] = { gp, gv, ga };
    int f = fetch3(G, bytes, dst, what, t);
    if (f) {
        rc = f < 0 ? -1 : 0;
        goto out;
    }
    char msg[400] = "";
    if (expect_f32(gp, rp, (size_t)4 * n, 1e-5, 1e-6, "pos", what, t) ||
        expect_f32(gv, rv, (size_t)3 * n, 2e-5, 1e-6, "vel", what, t))
        goto out;
    if (check_acc(gp, n, eps2, ga, msg, sizeof msg))
        jd_failf(t, "%s: acc on return must be the accelerations at the new positions: %s", what, msg);
out:
    free(hp), free(hv), free(ha), free(rp), free(rv), free(gp), free(gv), free(ga), free(x), free(v), free(m), free(a);
    return rc;
}

static void judge_step(jd_ck *k) { lf_cases(k, (int)(sizeof STEP_N / sizeof STEP_N[0]), step_case); }

/* ---------------------------------------------------------------- w19.energy */

/* test_week19.c's energy: kinetic plus softened potential, in double. */
static double energy(const double *x, const double *v, const double *m, int n, double eps2)
{
    double K = 0, W = 0;
    for (int i = 0; i < n; i++) {
        K += 0.5 * m[i] * (v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]);
        for (int j = i + 1; j < n; j++) {
            double dx = x[3 * j] - x[3 * i], dy = x[3 * j + 1] - x[3 * i + 1], dz = x[3 * j + 2] - x[3 * i + 2];
            W -= m[i] * m[j] / sqrt(dx * dx + dy * dy + dz * dz + eps2);
        }
    }
    return K + W;
}

typedef struct { int n, steps; float dt, eps; } drift_case;
static const drift_case DRIFT[] = { { 1000, 100, 4e-3f, 0.05f }, { 257, 400, 1e-3f, 0.1f } };

/* One of the test's runs: nbody_accel_tiled once, then `steps` calls of leapfrog_step, each a call of the
 * judge's on the same three buffers; the final state against the energy at the start and a double run. */
static int energy_case(jd *J, jd_gbuf G[3], int c, jd_tally *t)
{
    int n = DRIFT[c].n, steps = DRIFT[c].steps, rc = 0;
    float dt = DRIFT[c].dt, eps2 = DRIFT[c].eps * DRIFT[c].eps;
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w19-energy", c);
    float *hp = make_bodies(&rng, n), *hv = malloc((size_t)n * 12), *gp = malloc((size_t)n * 16),
          *gv = malloc((size_t)n * 12), *ga = malloc((size_t)n * 12);
    double *x = calloc((size_t)n, 24), *v = calloc((size_t)n, 24), *m = calloc((size_t)n, 8),
           *a = calloc((size_t)n, 24), *gx = calloc((size_t)n, 24), *gvd = calloc((size_t)n, 24);
    if (!hp || !hv || !gp || !gv || !ga || !x || !v || !m || !a || !gx || !gvd) {
        rc = -1, jd_failf(t, "out of memory");
        goto out;
    }
    wb_fill_uniform_f32(&rng, hv, (size_t)3 * n, -0.5f, 0.5f);
    for (int i = 0; i < n; i++) { /* a ball, not a cube: pull the corners in */
        float *p = hp + 4 * i;
        float r2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
        if (r2 > 1) p[0] /= 2, p[1] /= 2, p[2] /= 2;
    }
    split(hp, hv, n, x, v, m);
    double e0 = energy(x, v, m, n, eps2);
    const size_t bytes[3] = { (size_t)n * 16, (size_t)n * 12, (size_t)n * 12 };
    if (jd_gbuf_poison(&G[0], 0, bytes[0]) != 0 || jd_gbuf_put(&G[0], 0, hp, bytes[0]) != 0 ||
        jd_gbuf_poison(&G[1], 0, bytes[1]) != 0 || jd_gbuf_put(&G[1], 0, hv, bytes[1]) != 0 ||
        jd_gbuf_poison(&G[2], 0, bytes[2]) != 0) {
        rc = -1, jd_failf(t, "the judge's own copies failed");
        goto out;
    }
    char what[96];
    snprintf(what, sizeof what, "n=%d, %d steps of dt=%g", n, steps, dt);
    t->tests++;
    jd_req rq;
    int st = 0;
    jd_call_setup(&rq, W19_FN_ACC_TILED, 1, 2);
    jd_gbuf_arg(&rq, 0, &G[0], 0);
    jd_gbuf_arg(&rq, 1, &G[2], 0);
    rq.i64[1] = n, rq.f64[0] = eps2;
    if ((rc = call(J, &rq, &st, what, t)) != 0) goto out;
    if (st != 0) {
        jd_failf(t, "%s: nbody_accel_tiled returned %s", what, status_name(st));
        goto out;
    }
    for (int s = 0; s < steps; s++) {
        if ((rc = step_call(J, G, n, dt, eps2, &st, what, t)) != 0) goto out;
        if (st != 0) {
            jd_failf(t, "%s: step %d: leapfrog_step returned %s", what, s + 1, status_name(st));
            goto out;
        }
    }
    float *const dst[3] = { gp, gv, ga };
    int f = fetch3(G, bytes, dst, what, t);
    if (f) {
        rc = f < 0 ? -1 : 0;
        goto out;
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) gx[3 * i + k] = gp[4 * i + k], gvd[3 * i + k] = gv[3 * i + k];
    double e1 = energy(gx, gvd, m, n, eps2), drift = fabs(e1 - e0) / fabs(e0);
    ref_accel_all_d(x, m, n, eps2, a);
    for (int s = 0; s < steps; s++) {
        for (int k = 0; k < 3 * n; k++) v[k] += a[k] * dt / 2, x[k] += v[k] * dt;
        ref_accel_all_d(x, m, n, eps2, a);
        for (int k = 0; k < 3 * n; k++) v[k] += a[k] * dt / 2;
    }
    double dx = 0, dvv = 0, moved = 0;
    for (int k = 0; k < 3 * n; k++) {
        dx = fmax(dx, fabs(gx[k] - x[k]));
        dvv = fmax(dvv, fabs(gvd[k] - v[k]));
        moved = fmax(moved, fabs(gx[k] - hp[4 * (k / 3) + k % 3]));
    }
    if (isnan(dx) || isnan(dvv)) dx = dvv = INFINITY;
    printf("  leapfrog: %s: |dE/E| = %.2e (E0 = %.6f); max |x - x_ref| %.2e, max |v - v_ref| %.2e\n", what, drift, e0,
           dx, dvv);
    if (!(moved > 0.1))
        jd_failf(t, "n=%d: after %d steps no body moved more than %g: is leapfrog_step doing anything?", n, steps, moved);
    else if (!(drift <= 1e-5))
        jd_failf(t, "n=%d, %d steps: relative energy change %.3e > 1e-5 (E0 %.9g, E %.9g): kick-drift-kick conserves "
                 "energy to O(dt^2); check the order of the half kicks and the drift", n, steps, drift, e0, e1);
    else if (!(dx <= 5e-5 && dvv <= 5e-5))
        jd_failf(t, "n=%d, %d steps: the run left a double-precision leapfrog run of the same system: max |x - x_ref| "
                 "%.3e, max |v - v_ref| %.3e (tolerance 5e-5)", n, steps, dx, dvv);
out:
    free(hp), free(hv), free(gp), free(gv), free(ga), free(x), free(v), free(m), free(a), free(gx), free(gvd);
    return rc;
}

static void judge_energy(jd_ck *k) { lf_cases(k, (int)(sizeof DRIFT / sizeof DRIFT[0]), energy_case); }

/* ---------------------------------------------------------------- w19.grid */

typedef struct { int n, gx, gy, gz; float cell, radius; } grid_case;
static const grid_case GRIDS[] = {
    { 0, 4, 4, 4, 1.0f, 1.0f },       { 1, 3, 3, 3, 1.0f, 0.75f },    { 2, 1, 1, 1, 1.0f, 1.0f },
    { 257, 8, 8, 8, 1.0f, 1.0f },     { 1000, 10, 6, 3, 0.5f, 0.5f }, { 4099, 16, 16, 16, 1.0f, 0.75f },
    { 3000, 2, 2, 2, 1.0f, 1.0f },    { 20000, 32, 32, 32, 1.0f, 1.0f }, { 20000, 64, 1, 64, 1.0f, 0.5f },
};
#define N_GRIDS ((int)(sizeof GRIDS / sizeof GRIDS[0]))
#define GRID_MAX_N     20000
#define GRID_MAX_CELLS 32768
#define GRID_MAX_WORK  ((size_t)1 << 30)

static int cell_axis(float x, float cell, int g)
{
    int i = (int)(x / cell);
    if (i > g - 1) i = g - 1;
    if (i < 0) i = 0;
    return i;
}

/* G: pos, cell_of, sorted, cell_start, cell_end, count. */
static int grid_case_run(jd *J, jd_gbuf G[6], int ci, jd_tally *t)
{
    const grid_case *c = &GRIDS[ci];
    int n = c->n, ncells = c->gx * c->gy * c->gz, rc = 0;
    size_t n1 = n > 0 ? (size_t)n : 1;
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w19-grid", ci);
    float *hp = malloc(n1 * 16);
    uint32_t *cell = malloc(n1 * 4), *cnt = calloc((size_t)ncells, 4), *pre = malloc((size_t)ncells * 4),
             *pairs = calloc(n1, 4), *co = malloc(n1 * 4), *so = malloc(n1 * 4), *st = malloc((size_t)ncells * 4),
             *en = malloc((size_t)ncells * 4), *pc = malloc(n1 * 4);
    unsigned char *seen = calloc(n1, 1);
    jd_gbuf W = { -1, NULL, 0 };
    if (!hp || !cell || !cnt || !pre || !pairs || !co || !so || !st || !en || !pc || !seen) {
        rc = -1, jd_failf(t, "out of memory");
        goto out;
    }
    int lim[3] = { (int)(c->gx * c->cell * 64), (int)(c->gy * c->cell * 64), (int)(c->gz * c->cell * 64) };
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) hp[4 * i + k] = (float)wb_rng_int(&rng, 0, lim[k] - 1) / 64.0f;
        hp[4 * i + 3] = NAN; /* not read */
    }
    for (int i = 0; i < n; i++) {
        const float *p = hp + 4 * i;
        cell[i] = (uint32_t)((cell_axis(p[2], c->cell, c->gz) * c->gy + cell_axis(p[1], c->cell, c->gy)) * c->gx +
                             cell_axis(p[0], c->cell, c->gx));
        cnt[cell[i]]++;
    }
    for (uint32_t s = 0, k = 0; k < (uint32_t)ncells; k++) pre[k] = s, s += cnt[k];
    double r2 = (double)c->radius * c->radius;
    unsigned long long total = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double dx = hp[4 * j] - hp[4 * i], dy = hp[4 * j + 1] - hp[4 * i + 1], dz = hp[4 * j + 2] - hp[4 * i + 2];
            if (dx * dx + dy * dy + dz * dz < r2) pairs[i]++, pairs[j]++, total++;
        }
    char what[160];
    snprintf(what, sizeof what, "n=%d, grid %dx%dx%d, cell %g, radius %g (%llu pairs)", n, c->gx, c->gy, c->gz, c->cell,
             c->radius, total);
    t->tests++;
    /* the workspace's size, asked of the student's host function */
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W19_FN_CG_WS, 1, 0);
    rq.i64[1] = n, rq.i64[2] = ncells;
    if (jd_call(J, &rq, &rp, NULL) != 0) {
        rc = -1, jd_failf(t, "%s: %s", what, J->why);
        goto out;
    }
    size_t wbytes = 0;
    if (rp.status != 0 || rp.out_len != sizeof wbytes) {
        jd_failf(t, "%s: cg_workspace_bytes did not answer", what);
        goto out;
    }
    memcpy(&wbytes, rp.out, sizeof wbytes);
    if (wbytes > GRID_MAX_WORK) {
        jd_failf(t, "%s: cg_workspace_bytes(%d, %d) = %zu bytes: over 1 GiB", what, n, ncells, wbytes);
        goto out;
    }
    if (wbytes && jd_gbuf_alloc(J, &W, wbytes, t) != 0) {
        rc = -1;
        goto out;
    }
    const size_t bytes[6] = { (size_t)n * 16, (size_t)n * 4, (size_t)n * 4, (size_t)ncells * 4, (size_t)ncells * 4,
                              (size_t)n * 4 };
    for (int b = 0; b < 6; b++)
        if (jd_gbuf_poison(&G[b], 0, bytes[b]) != 0 || (b == 0 && jd_gbuf_put(&G[0], 0, hp, bytes[0]) != 0)) {
            rc = -1, jd_failf(t, "the judge's own copies failed");
            goto out;
        }
    int status = 0;
    jd_call_setup(&rq, W19_FN_CG_BUILD, 1, 6);
    jd_gbuf_arg(&rq, 0, n ? &G[0] : NULL, 0);
    for (int b = 1; b < 5; b++) jd_gbuf_arg(&rq, b, &G[b], 0);
    jd_gbuf_arg(&rq, 5, wbytes ? &W : NULL, 0);
    rq.i64[1] = n, rq.i64[2] = c->gx, rq.i64[3] = c->gy, rq.i64[4] = c->gz, rq.i64[5] = (long long)wbytes;
    rq.f64[0] = c->cell;
    if ((rc = call(J, &rq, &status, what, t)) != 0) goto out;
    if (status != 0) {
        jd_failf(t, "%s: cg_build returned %s", what, status_name(status));
        goto out;
    }
    jd_call_setup(&rq, W19_FN_CG_COUNT, 1, 5);
    jd_gbuf_arg(&rq, 0, n ? &G[0] : NULL, 0);
    for (int b = 1; b < 5; b++) jd_gbuf_arg(&rq, b, &G[b + 1], 0); /* sorted, cell_start, cell_end, count */
    rq.i64[1] = n, rq.i64[2] = c->gx, rq.i64[3] = c->gy, rq.i64[4] = c->gz;
    rq.f64[0] = c->cell, rq.f64[1] = c->radius;
    if ((rc = call(J, &rq, &status, what, t)) != 0) goto out;
    if (status != 0) {
        jd_failf(t, "%s: cg_count_pairs returned %s", what, status_name(status));
        goto out;
    }
    static const char *const NAME[6] = { "pos", "cell_of", "sorted", "cell_start", "cell_end", "count" };
    uint32_t *dst[6] = { NULL, co, so, st, en, pc };
    for (int b = 1; b < 6; b++) {
        int f = jd_gbuf_fetch(&G[b], 0, bytes[b], dst[b], NAME[b], what, t);
        if (f) {
            rc = f < 0 ? -1 : 0;
            goto out;
        }
    }
    for (int i = 0; i < n; i++)
        if (co[i] != cell[i]) {
            jd_failf(t, "%s: cell_of[%d] expected %u got %u", what, i, cell[i], co[i]);
            goto out;
        }
    for (int k = 0; k < n; k++) {
        if (so[k] >= (uint32_t)n || seen[so[k]]) {
            jd_failf(t, "%s: sorted[%d] = %u is not a particle id or appears twice", what, k, so[k]);
            goto out;
        }
        seen[so[k]] = 1;
        if (k && cell[so[k]] < cell[so[k - 1]]) {
            jd_failf(t, "%s: sorted[%d] is in cell %u, after a particle of cell %u: not in cell order", what, k,
                     cell[so[k]], cell[so[k - 1]]);
            goto out;
        }
    }
    for (int k = 0; k < ncells; k++) {
        int ok = cnt[k] ? st[k] == pre[k] && en[k] == pre[k] + cnt[k] : st[k] == en[k];
        if (!ok) {
            jd_failf(t, "%s: cell %d holds %u particle(s) from slot %u: cell_start %u, cell_end %u%s", what, k, cnt[k],
                     pre[k], st[k], en[k], cnt[k] ? "" : " (an empty cell needs cell_start == cell_end)");
            goto out;
        }
    }
    for (int i = 0; i < n; i++)
        if (pc[i] != pairs[i]) {
            jd_failf(t, "%s: count[%d] expected %u got %u", what, i, pairs[i], pc[i]);
            goto out;
        }
out:
    jd_gbuf_free(J, &W);
    free(hp), free(cell), free(cnt), free(pre), free(pairs), free(co), free(so), free(st), free(en), free(pc), free(seen);
    return rc;
}

static void judge_grid(jd_ck *k)
{
    jd_gbuf G[6];
    const size_t cap[6] = { GRID_MAX_N * 16, GRID_MAX_N * 4, GRID_MAX_N * 4, GRID_MAX_CELLS * 4, GRID_MAX_CELLS * 4,
                            GRID_MAX_N * 4 };
    int ok = 1;
    for (int b = 0; b < 6; b++) G[b].id = -1;
    for (int b = 0; b < 6 && ok; b++) ok = jd_gbuf_alloc(k->J, &G[b], cap[b], k->t) == 0;
    for (int c = 0; ok && c < N_GRIDS && !k->J->lost && !k->t->failed; c++)
        if (grid_case_run(k->J, G, c, k->t) < 0) break;
    for (int b = 0; b < 6; b++) jd_gbuf_free(k->J, &G[b]);
}

/* ---------------------------------------------------------------- w19.stencil */

static const char *const SNAME[3] = { "stencil_naive", "stencil_tiled", "stencil_stream" };

static void ref_sweep(const double *in, double *out, int nx, int ny, int nz, double c0, double c1)
{
    size_t sy = (size_t)nx, sz = (size_t)nx * ny;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                size_t c = z * sz + y * sy + x;
                if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1)
                    out[c] = in[c];
                else
                    out[c] = c0 * in[c] +
                             c1 * (((in[c - 1] + in[c + 1]) + (in[c - sy] + in[c + sy])) + (in[c - sz] + in[c + sz]));
            }
}

static double sweep_atol(float c0, float c1, int sweeps)
{
    return 12.0 * 0x1p-24 * (fabs(c0) + 6.0 * fabs(c1)) * sweeps;
}

typedef struct { int nx, ny, nz; } st_size;
static const st_size ST_SIZES[] = {
    { 0, 3, 3 },      { 4, 4, 0 },      { 1, 1, 1 },     { 2, 2, 2 },     { 3, 3, 3 },      { 1000, 1, 1 },
    { 1, 1000, 1 },   { 1, 1, 1000 },   { 1000, 3, 3 },  { 3, 1000, 3 },  { 3, 3, 1000 },   { 33, 9, 5 },
    { 31, 7, 66 },    { 130, 67, 33 },  { 64, 16, 129 }, { 257, 130, 70 }, { 512, 64, 200 },
};
static const st_size ST_SPECIAL[] = { { 40, 30, 20 }, { 70, 19, 65 }, { 3, 3, 3 } };
typedef struct { int nx, ny, nz, sweeps; } st_sweeps;
static const st_sweeps ST_SWEEPS[] = { { 130, 67, 33, 50 }, { 37, 21, 70, 64 }, { 9, 9, 9, 41 } };
#define N_ST_SIZES   ((int)(sizeof ST_SIZES / sizeof ST_SIZES[0]))
#define N_ST_SPECIAL ((int)(sizeof ST_SPECIAL / sizeof ST_SPECIAL[0]))
#define N_ST_SWEEPS  ((int)(sizeof ST_SWEEPS / sizeof ST_SWEEPS[0]))
#define ST_CAP       ((size_t)512 * 64 * 200 + 1)

/* stencil v from I (at lead) into O (at lead): the status, or -1 (lost). */
static int stencil_call(jd *J, int v, jd_gbuf *I, jd_gbuf *O, size_t lead, int nx, int ny, int nz, float c0, float c1,
                        int *st, const char *what, jd_tally *t)
{
    jd_req rq;
    jd_call_setup(&rq, W19_FN_ST_NAIVE + v, 1, 2);
    jd_gbuf_arg(&rq, 0, I, lead);
    jd_gbuf_arg(&rq, 1, O, lead);
    rq.i64[1] = nx, rq.i64[2] = ny, rq.i64[3] = nz, rq.f64[0] = c0, rq.f64[1] = c1;
    return call(J, &rq, st, what, t);
}

/* got (n floats) against the double ref within atol (NaN only for NaN, the poison where NaN is expected named): 0, or 1. */
static int expect_f64(const float *got, const double *ref, size_t n, double atol, const char *name, const char *what,
                      jd_tally *t)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t bits;
        memcpy(&bits, &got[i], 4);
        if (!wb_close(got[i], ref[i], atol, 0))
            return jd_failf(t, "%s: %s[%zu] expected %.9g got %.9g", what, name, i, ref[i], (double)got[i]), 1;
        if (isnan(ref[i]) && bits == 0xffffffffu)
            return jd_failf(t, "%s: %s[%zu], where NaN is expected, was never written (it still holds the poison)", what,
                            name, i), 1;
    }
    return 0;
}

typedef struct {
    jd_gbuf A, B;
    float  *h, *back;
    double *a, *b;
} st_room;

/* One grid through the three kernels (test_week19.c's check_stencil_grid): 0 or -1. */
static int stencil_grid(jd *J, st_room *R, int nx, int ny, int nz, float c0, float c1, int off, const char *kind,
                        jd_tally *t)
{
    size_t n = (size_t)nx * ny * nz, lead = (size_t)off * 4;
    for (size_t i = 0; i < n; i++) R->a[i] = R->h[i];
    ref_sweep(R->a, R->b, nx, ny, nz, c0, c1);
    double atol = sweep_atol(c0, c1, 1);
    for (int v = 0; v < 3; v++) {
        char what[200];
        snprintf(what, sizeof what, "%s, %dx%dx%d, c0=%.9g, c1=%.9g%s, %s", SNAME[v], nx, ny, nz, c0, c1,
                 off ? ", in and out at +1 float" : "", kind);
        t->tests++;
        if (jd_gbuf_poison(&R->A, lead, n * 4) != 0 || jd_gbuf_put(&R->A, lead, R->h, n * 4) != 0 ||
            jd_gbuf_poison(&R->B, lead, n * 4) != 0)
            return jd_failf(t, "the judge's own copies failed"), -1;
        int st = 0;
        if (stencil_call(J, v, &R->A, &R->B, lead, nx, ny, nz, c0, c1, &st, what, t) != 0) return -1;
        if (st != 0) return jd_failf(t, "%s: %s returned %s", what, SNAME[v], status_name(st)), 0;
        int f = jd_gbuf_fetch(&R->B, lead, n * 4, R->back, "out", what, t);
        if (f) return f < 0 ? -1 : 0;
        if (expect_f64(R->back, R->b, n, atol, "out", what, t)) return 0;
        f = jd_gbuf_fetch(&R->A, lead, n * 4, R->back, "in", what, t);
        if (f) return f < 0 ? -1 : 0;
        if (memcmp(R->back, R->h, n * 4) != 0)
            return jd_failf(t, "%s: the input grid changed (in and out are different buffers; in is read only)", what), 0;
    }
    return 0;
}

/* A negative size and ny > STENCIL_MAX_NY refused by all three (the test's first case). */
static int stencil_refusals(jd *J, st_room *R, jd_tally *t)
{
    static const int bad[3][3] = { { -1, 2, 2 }, { 2, 2, -3 }, { 2, STENCIL_MAX_NY + 1, 2 } };
    for (int v = 0; v < 3; v++) {
        t->tests++;
        for (int b = 0; b < 3; b++) {
            int st = 0;
            if (jd_gbuf_poison(&R->B, 0, 32) != 0) return jd_failf(t, "the judge's own copies failed"), -1;
            if (stencil_call(J, v, &R->A, &R->B, 0, bad[b][0], bad[b][1], bad[b][2], 0.5f, 0.1f, &st, SNAME[v], t) != 0)
                return -1;
            if (st != (int)cudaErrorInvalidValue)
                return jd_failf(t, "%s: a negative size, or ny > STENCIL_MAX_NY, must return cudaErrorInvalidValue "
                                "(%s(in, out, %d, %d, %d, ...) returned %s)", SNAME[v], SNAME[v], bad[b][0], bad[b][1],
                                bad[b][2], status_name(st)), 0;
        }
    }
    return 0;
}

/* Ping-pong sweeps (the test's stencil_many_sweeps): 0 or -1. */
static int stencil_sweeps(jd *J, st_room *R, int ci, jd_tally *t)
{
    const st_sweeps *s = &ST_SWEEPS[ci];
    int nx = s->nx, ny = s->ny, nz = s->nz, K = s->sweeps;
    size_t n = (size_t)nx * ny * nz;
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w19-stencil-sweeps", ci);
    wb_fill_uniform_f32(&rng, R->h, n, -1, 1);
    float c1 = (float)(0.05 + (1.0 / 6 - 0.05) * wb_rng_unit(&rng)), c0 = 1.0f - 6.0f * c1;
    double *a = R->a, *b = R->b;
    for (size_t i = 0; i < n; i++) a[i] = R->h[i];
    for (int k = 0; k < K; k++) {
        ref_sweep(a, b, nx, ny, nz, c0, c1);
        double *x = a;
        a = b, b = x;
    }
    for (int v = 0; v < 3; v++) {
        char what[200];
        snprintf(what, sizeof what, "%s, %dx%dx%d, %d sweeps from A to B and back, c0=%.9g, c1=%.9g", SNAME[v], nx, ny,
                 nz, K, c0, c1);
        t->tests++;
        if (jd_gbuf_poison(&R->A, 0, n * 4) != 0 || jd_gbuf_poison(&R->B, 0, n * 4) != 0 ||
            jd_gbuf_put(&R->A, 0, R->h, n * 4) != 0)
            return jd_failf(t, "the judge's own copies failed"), -1;
        for (int k = 0; k < K; k++) {
            int st = 0;
            if (stencil_call(J, v, k & 1 ? &R->B : &R->A, k & 1 ? &R->A : &R->B, 0, nx, ny, nz, c0, c1, &st, what, t) != 0)
                return -1;
            if (st != 0) return jd_failf(t, "%s: sweep %d: %s returned %s", what, k + 1, SNAME[v], status_name(st)), 0;
        }
        jd_gbuf *res = K & 1 ? &R->B : &R->A, *other = K & 1 ? &R->A : &R->B;
        int f = jd_gbuf_fetch(other, 0, n * 4, R->back, K & 1 ? "grid A" : "grid B", what, t);
        if (f) return f < 0 ? -1 : 0;
        f = jd_gbuf_fetch(res, 0, n * 4, R->back, K & 1 ? "grid B" : "grid A", what, t);
        if (f) return f < 0 ? -1 : 0;
        if (expect_f64(R->back, a, n, sweep_atol(c0, c1, K), K & 1 ? "grid B" : "grid A", what, t)) return 0;
    }
    return 0;
}

static void judge_stencil(jd_ck *k)
{
    st_room R = { { -1, NULL, 0 }, { -1, NULL, 0 }, malloc(ST_CAP * 4), malloc(ST_CAP * 4), malloc(ST_CAP * 8),
                  malloc(ST_CAP * 8) };
    jd_tally *t = k->t;
    if (!R.h || !R.back || !R.a || !R.b) jd_failf(t, "out of memory");
    else if (jd_gbuf_alloc(k->J, &R.A, (ST_CAP + 1) * 4, t) == 0 && jd_gbuf_alloc(k->J, &R.B, (ST_CAP + 1) * 4, t) == 0) {
        int rc = 0;
        for (int c = 0; c < N_ST_SIZES && rc == 0 && !t->failed && !k->J->lost; c++) {
            const st_size *s = &ST_SIZES[c];
            size_t n = (size_t)s->nx * s->ny * s->nz;
            wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w19-stencil", c);
            wb_fill_uniform_f32(&rng, R.h, n, -1, 1);
            float c0 = (float)(2 * wb_rng_unit(&rng) - 1), c1 = (float)(wb_rng_unit(&rng) - 0.5);
            rc = stencil_grid(k->J, &R, s->nx, s->ny, s->nz, c0, c1, c & 1, "random values in [-1, 1]", t);
            if (c == 0 && rc == 0 && !t->failed) rc = stencil_refusals(k->J, &R, t);
        }
        for (int c = 0; c < N_ST_SPECIAL && rc == 0 && !t->failed && !k->J->lost; c++) {
            const st_size *s = &ST_SPECIAL[c];
            int nx = s->nx, ny = s->ny, nz = s->nz;
            size_t n = (size_t)nx * ny * nz;
            wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w19-stencil-nonfinite", c);
            wb_fill_uniform_f32(&rng, R.h, n, -1, 1);
            const float sp[3] = { NAN, INFINITY, -INFINITY };
            for (size_t q = 0; q < n / 150 + 1; q++) R.h[wb_rng_int(&rng, 0, (int64_t)n - 1)] = sp[q % 3];
            const int xs[] = { 31, 32 }, ys[] = { 7, 8 }, zs[] = { 32, 33 };
            for (int q = 0; q < 8; q++) {
                int x = xs[q & 1] % nx, y = ys[(q >> 1) & 1] % ny, z = zs[q >> 2] % nz;
                R.h[((size_t)z * ny + y) * nx + x] = sp[q % 3];
            }
            if (nx == 3) R.h[13] = NAN;
            float c0 = (float)(0.2 + 0.6 * wb_rng_unit(&rng)), c1 = (float)(0.02 + 0.1 * wb_rng_unit(&rng));
            if (c == 1) c0 = 0.0f;
            rc = stencil_grid(k->J, &R, nx, ny, nz, c0, c1, 0, "NaN, +Inf, -Inf in the input", t);
        }
        for (int c = 0; c < N_ST_SWEEPS && rc == 0 && !t->failed && !k->J->lost; c++) rc = stencil_sweeps(k->J, &R, c, t);
    }
    jd_gbuf_free(k->J, &R.A), jd_gbuf_free(k->J, &R.B);
    free(R.h), free(R.back), free(R.a), free(R.b);
}

/* ---------------------------------------------------------------- w19.stencil-speed */

#define ST_C0 0.25f
#define ST_C1 0.125f

static float st_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    size_t nx = (size_t)b->i64[1], ny = (size_t)b->i64[2], nz = (size_t)b->i64[3], sz = nx * ny;
    size_t x = i % nx, y = i / nx % ny, z = i / sz;
#define IN(j) ((double)wb_hash_uniform_f32(seed[0], (j), b->lo, b->hi))
    if (x == 0 || y == 0 || z == 0 || x + 1 == nx || y + 1 == ny || z + 1 == nz) return (float)IN(i);
    return (float)((double)ST_C0 * IN(i) +
                   (double)ST_C1 * (IN(i - 1) + IN(i + 1) + IN(i - nx) + IN(i + nx) + IN(i - sz) + IN(i + sz)));
#undef IN
}

static int st_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                    unsigned long long h[2])
{
    return jd_full_check_done(jd_stencil_check_f32(out, (size_t)b->i64[1], (size_t)b->i64[2], (size_t)b->i64[3],
                                                   seed[0], b->lo, b->hi, ST_C0, ST_C1, b->atol, 0, bad, jd_stream),
                              bad, h);
}

static void judge_stencil_speed(jd_ck *k)
{
    int nx = 512, ny = 512, nz = (int)(wb_bench_bytes() / (4 * (size_t)nx * ny));
    if (nz < 64) nz = 64;
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.fn = W19_FN_ST_STREAM, g_bench.n_in = 1, g_bench.max_k = JD_BENCH_MAX_K;
    g_bench.n = (size_t)nx * ny * nz, g_bench.lo = -1.0f, g_bench.hi = 1.0f, g_bench.atol = 1e-6, g_bench.rtol = 0;
    g_bench.i64[1] = nx, g_bench.i64[2] = ny, g_bench.i64[3] = nz, g_bench.f64[0] = ST_C0, g_bench.f64[1] = ST_C1;
    g_bench.fn_name = "stencil_stream", g_bench.out_name = "out";
    g_bench.expect = st_expect, g_bench.full_check = st_check;
    jd_bw_checkpoint(k, &g_bench, TIMED, (double)STENCIL_BYTES_PER_CELL, "stencil_stream");
}

static const jd_checkpoint CPS[] = {
    { "w19.forces", judge_forces, NULL, 0, 0 },
    { "w19.nbody-peak", judge_nbody_peak, NULL, 0, 0 },
    { "w19.step", judge_step, NULL, 0, 0 },
    { "w19.energy", judge_energy, NULL, 0, 0 },
    { "w19.grid", judge_grid, NULL, 0, 0 },
    { "w19.stencil", judge_stencil, NULL, 0, 0 },
    { "w19.stencil-speed", judge_stencil_speed, NULL, 0, 8 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w19", "phase4/week19", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
