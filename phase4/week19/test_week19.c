/* test_week19.c — week 19's checkpoints: N-body forces against a double
 * CPU reference, the tiled kernel against the FP32 peak, leapfrog's energy,
 * the real-time step rate, steps per second against n (CSV and plot), the
 * uniform grid's exact collision counts, and the 7-point stencil against a
 * double CPU reference and against a copy of its grid. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "cellgrid.h"
#include "leapfrog.h"
#include "nbody.h"
#include "stencil.h"

/* ---------------------------------------------------------------- CPU references */

/* a_i in double from float inputs, and S_i = sum_j m_j |d| / (|d|^2 + eps2)^1.5,
 * the sum of the magnitudes of the terms: the float sum's error is bounded
 * by a multiple of S_i, not of |a_i| (the terms cancel). */
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

/* The tolerance on each component of a_i, as a multiple of S_i. One term:
 * rsqrt.approx has a relative error below 2^-22.9 (PTX ISA), cubed about
 * 4e-7, and the ten float roundings of the term add about 6e-7: under 2e-6.
 * The sum of n terms in float, in any order, errs by at most (n-1) 2^-24 S_i
 * (the classic bound for recursive summation). Both doubled for margin. A
 * missing, doubled or misplaced body costs about S_i / n on average and far
 * more at the bodies near it: caught at n = 257 and 1000 everywhere, at 4099
 * near the body (a CPU model of the kernel errs by under 2e-6 S_i). */
static double acc_tol(int n) { return 4e-6 + 1.2e-7 * n; }

/* Compare got (3n floats) with the double reference for every body of
 * `which` (all when which == NULL, else nw of them). 0 when all agree, else
 * the message in msg. */
static int check_acc(const float *pos, int n, float eps2, const float *got, const int *which, int nw, char *msg,
                     size_t msz)
{
    int cnt = which ? nw : n, bad = 0;
    for (int w = 0; w < cnt; w++) {
        int i = which ? which[w] : w;
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
    return bad;
}

/* Bodies in the cube [-1, 1]^3, masses (0.5 .. 1.5) / n. */
static float *make_bodies(wb_rng *rng, int n)
{
    float *p = wb_hmalloc((size_t)(n > 0 ? n : 1) * 16);
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) p[4 * i + k] = (float)(2 * wb_rng_unit(rng) - 1);
        p[4 * i + 3] = (float)((0.5 + wb_rng_unit(rng)) / n);
    }
    return p;
}

/* ---------------------------------------------------------------- forces */

typedef cudaError_t (*accel_fn)(const float *, float *, int, float);
static const accel_fn AFN[2] = { nbody_accel_naive, nbody_accel_tiled };
static const char *const ANAME[2] = { "nbody_accel_naive", "nbody_accel_tiled" };

/* 0, 1 (its own term only: exactly 0), 2, 3, a tile and one, a non-multiple,
 * several tiles and a partial one. */
static const int NSIZES[] = { 0, 1, 2, 3, 257, 1000, 4099 };

static void check_forces(int n, float *hp, float eps2, const char *what)
{
    float *dp = wb_dcopy(hp, (size_t)n * 16);
    float *got = wb_hmalloc((size_t)(n > 0 ? n : 1) * 12);
    wb_dout acc;
    float *da = wb_dout_alloc(&acc, "acc", (size_t)n * 12, 0);
    for (int v = 0; v < 2; v++) {
        if (v) wb_dout_poison(&acc);
        WB_CUDA(AFN[v](dp, da, n, eps2));
        char w[160], msg[400] = "";
        snprintf(w, sizeof w, "%s, n=%d, eps2=%g, %s", ANAME[v], n, eps2, what);
        wb_expect_dout_guards(&acc, got, w);
        if (check_acc(hp, n, eps2, got, NULL, 0, msg, sizeof msg))
            ck_abort_msg("%s (seed %llu): %s", w, (unsigned long long)wb_base_seed(), msg);
    }
    wb_dfree(dp), wb_dout_free(&acc);
    free(got);
}

START_TEST(forces_sizes)
{
    wb_rng rng = WB_RNG();
    int n = NSIZES[_i];
    float *hp = make_bodies(&rng, n);
    float eps2 = (float)(1e-3 + 9e-3 * wb_rng_unit(&rng));
    check_forces(n, hp, eps2, "random bodies in [-1,1]^3");
    free(hp);
}
END_TEST

/* Bodies on top of each other (the pair's term is 0 with eps2 > 0, not
 * NaN), a tight cluster where the softening dominates, and a wide spread. */
START_TEST(forces_close)
{
    wb_rng rng = WB_RNG();
    int n = 300 + _i * 211;
    float *hp = make_bodies(&rng, n);
    for (int i = 1; i < n; i += 7) memcpy(hp + 4 * i, hp + 4 * (i - 1), 12); /* same place, own mass */
    float scale = _i == 0 ? 1e-2f : _i == 1 ? 1.0f : 50.0f;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) hp[4 * i + k] *= scale;
    check_forces(n, hp, _i == 0 ? 1e-4f : 4e-3f, _i == 0 ? "dense cluster, coincident pairs" : "coincident pairs");
    free(hp);
}
END_TEST

/* ---------------------------------------------------------------- leapfrog */

/* Velocities uniform in [-vmax, vmax]^3. */
static float *make_vel(wb_rng *rng, int n, float vmax)
{
    float *v = wb_hmalloc((size_t)(n > 0 ? n : 1) * 12);
    wb_fill_uniform_f32(rng, v, (size_t)3 * n, -vmax, vmax);
    return v;
}

/* All accelerations in double (positions as float4 with masses). */
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

/* Kinetic plus softened potential energy, in double:
 * E = sum m v^2 / 2 - sum_{i<j} m_i m_j / sqrt(r^2 + eps2). */
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

static void split(const float *pos, const float *vel, int n, double *x, double *v, double *m)
{
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            x[3 * i + k] = pos[4 * i + k];
            if (v) v[3 * i + k] = vel[3 * i + k];
        }
        if (m) m[i] = pos[4 * i + 3];
    }
}

/* One step, large dt: the order of kick and drift shows (a dt^2 / 2 in x,
 * about 1e-3 here, against a tolerance of 1e-5). The device gets the same
 * starting accelerations as the CPU (the reference's, rounded to float). */
static const int STEP_N[] = { 0, 1, 3, 257, 1000 };

START_TEST(leapfrog_one_step)
{
    wb_rng rng = WB_RNG();
    int n = STEP_N[_i];
    float dt = 0.05f, eps2 = 4e-3f;
    size_t n1 = n > 0 ? (size_t)n : 1;
    float *hp = make_bodies(&rng, n), *hv = make_vel(&rng, n, 0.5f), *ha = wb_hmalloc(n1 * 12);
    double *x = wb_hmalloc(n1 * 24), *v = wb_hmalloc(n1 * 24), *m = wb_hmalloc(n1 * 8), *a = wb_hmalloc(n1 * 24);
    split(hp, hv, n, x, v, m);
    ref_accel_all_d(x, m, n, eps2, a);
    for (size_t k = 0; k < 3 * (size_t)n; k++) ha[k] = (float)a[k];
    wb_dout P, V, A;
    float *dp = wb_dout_alloc(&P, "pos", (size_t)n * 16, 0), *dv = wb_dout_alloc(&V, "vel", (size_t)n * 12, 0),
          *da = wb_dout_alloc(&A, "acc", (size_t)n * 12, 0);
    if (n) wb_h2d(dp, hp, (size_t)n * 16), wb_h2d(dv, hv, (size_t)n * 12), wb_h2d(da, ha, (size_t)n * 12);
    WB_CUDA(leapfrog_step(dp, dv, da, n, dt, eps2));
    /* the reference step, in double from the same floats */
    float *rp = wb_hmalloc(n1 * 16), *rv = wb_hmalloc(n1 * 12);
    for (size_t k = 0; k < 3 * (size_t)n; k++) v[k] += a[k] * dt / 2, x[k] += v[k] * dt;
    ref_accel_all_d(x, m, n, eps2, a);
    for (size_t k = 0; k < 3 * (size_t)n; k++) v[k] += a[k] * dt / 2;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) rp[4 * i + k] = (float)x[3 * i + k], rv[3 * i + k] = (float)v[3 * i + k];
        rp[4 * i + 3] = hp[4 * i + 3];
    }
    char what[96];
    snprintf(what, sizeof what, "leapfrog_step, n=%d, dt=%g, eps2=%g", n, dt, eps2);
    /* x moves by v dt ~ 0.025: float rounding ~1e-8; the accelerations'
     * error enters v as acc_tol * S * dt / 2, a few 1e-6 at n = 1000 */
    wb_expect_dout_f32(&P, rp, (size_t)4 * n, 1e-5, 1e-6, what);
    wb_expect_dout_f32(&V, rv, (size_t)3 * n, 2e-5, 1e-6, what);
    float *gp = wb_hmalloc(n1 * 16), *ga = wb_hmalloc(n1 * 12);
    wb_expect_dout_guards(&P, gp, what);
    wb_expect_dout_guards(&A, ga, what);
    char msg[400] = "";
    if (check_acc(gp, n, eps2, ga, NULL, 0, msg, sizeof msg))
        ck_abort_msg("%s (seed %llu): acc on return must be the accelerations at the new positions: %s", what,
                     (unsigned long long)wb_base_seed(), msg);
    wb_dout_free(&P), wb_dout_free(&V), wb_dout_free(&A);
    free(hp), free(hv), free(ha), free(x), free(v), free(m), free(a), free(rp), free(rv), free(gp), free(ga);
}
END_TEST

/* Many steps: the energy (CPU, double) must not drift, and the bodies must
 * follow a double-precision leapfrog run of the same system. Measured with a
 * CPU model of the kernels on these bodies (float, fmaf as the kernels, 1/sqrt
 * rounded to float for the MUFU; four seeds): n = 1000, 100 steps of 4e-3,
 * eps = 0.05: drift 0.8-1.1e-6 for leapfrog (the double run's own O(dt^2)
 * wobble), 2.4e-3 for explicit Euler; float against double 7e-7 in x, 9e-7
 * in v after 100 steps; n = 257, 400 steps of 1e-3, eps = 0.1: drift under
 * 1.3e-7 against 5e-4 for Euler, 1.1e-6 in x and 1.7e-6 in v. Tolerances:
 * drift 1e-5, positions and velocities 5e-5. */
typedef struct { int n, steps; float dt, eps; } drift_case;
static const drift_case DRIFT[] = { { 1000, 100, 4e-3f, 0.05f }, { 257, 400, 1e-3f, 0.1f } };

START_TEST(leapfrog_energy)
{
    wb_rng rng = WB_RNG();
    int n = DRIFT[_i].n, steps = DRIFT[_i].steps;
    float dt = DRIFT[_i].dt, eps2 = DRIFT[_i].eps * DRIFT[_i].eps;
    float *hp = make_bodies(&rng, n), *hv = make_vel(&rng, n, 0.5f);
    /* a ball, not a cube: pull the corners in */
    for (int i = 0; i < n; i++) {
        float *p = hp + 4 * i;
        float r2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
        if (r2 > 1) p[0] /= 2, p[1] /= 2, p[2] /= 2;
    }
    double *x = wb_hmalloc((size_t)n * 24), *v = wb_hmalloc((size_t)n * 24), *m = wb_hmalloc((size_t)n * 8),
           *a = wb_hmalloc((size_t)n * 24);
    split(hp, hv, n, x, v, m);
    double e0 = energy(x, v, m, n, eps2);
    float *dp = wb_dcopy(hp, (size_t)n * 16), *dv = wb_dcopy(hv, (size_t)n * 12), *da = wb_dmalloc((size_t)n * 12);
    wb_dpoison(da, (size_t)n * 12);
    WB_CUDA(nbody_accel_tiled(dp, da, n, eps2));
    for (int s = 0; s < steps; s++) WB_CUDA(leapfrog_step(dp, dv, da, n, dt, eps2));
    wb_sync();
    float *gp = wb_hmalloc((size_t)n * 16), *gv = wb_hmalloc((size_t)n * 12);
    wb_d2h(gp, dp, (size_t)n * 16), wb_d2h(gv, dv, (size_t)n * 12);
    double *gx = wb_hmalloc((size_t)n * 24), *gvd = wb_hmalloc((size_t)n * 24);
    split(gp, gv, n, gx, gvd, NULL);
    double e1 = energy(gx, gvd, m, n, eps2), drift = fabs(e1 - e0) / fabs(e0);
    /* the reference run */
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
    char fig[160];
    snprintf(fig, sizeof fig, "n=%d, %d steps of dt=%g: |dE/E| = %.2e (E0 = %.6f)", n, steps, dt, drift, e0);
    printf("  leapfrog: %s; max |x - x_ref| %.2e, max |v - v_ref| %.2e\n", fig, dx, dvv);
    ck_assert_msg(moved > 0.1, "n=%d: after %d steps no body moved more than %g: is leapfrog_step doing anything?", n,
                  steps, moved);
    ck_assert_msg(drift <= 1e-5, "n=%d, %d steps (seed %llu): relative energy change %.3e > 1e-5 (E0 %.9g, E %.9g): "
                  "kick-drift-kick conserves energy to O(dt^2); check the order of the half kicks and the drift",
                  n, steps, (unsigned long long)wb_base_seed(), drift, e0, e1);
    ck_assert_msg(dx <= 5e-5 && dvv <= 5e-5,
                  "n=%d, %d steps (seed %llu): the run left a double-precision leapfrog run of the same system: "
                  "max |x - x_ref| %.3e, max |v - v_ref| %.3e (tolerance 5e-5)",
                  n, steps, (unsigned long long)wb_base_seed(), dx, dvv);
    if (_i == 0) wb_report(fig);
    wb_dfree(dp), wb_dfree(dv), wb_dfree(da);
    free(hp), free(hv), free(x), free(v), free(m), free(a), free(gp), free(gv), free(gx), free(gvd);
}
END_TEST

/* ---------------------------------------------------------------- the uniform grid */

/* Coordinates on a lattice of 1/64 inside the box, the radius a multiple of
 * 1/64 too: every difference, square and sum of squares is then exact in
 * float, so the CPU and the GPU agree on every pair, ties (distance exactly
 * radius: not a collision) included. */
typedef struct { int n, gx, gy, gz; float cell, radius; } grid_case;
static const grid_case GRIDS[] = {
    { 0, 4, 4, 4, 1.0f, 1.0f },       { 1, 3, 3, 3, 1.0f, 0.75f },    { 2, 1, 1, 1, 1.0f, 1.0f },
    { 257, 8, 8, 8, 1.0f, 1.0f },     { 1000, 10, 6, 3, 0.5f, 0.5f }, { 4099, 16, 16, 16, 1.0f, 0.75f },
    { 3000, 2, 2, 2, 1.0f, 1.0f },    /* dense: hundreds a cell */
    { 20000, 32, 32, 32, 1.0f, 1.0f }, { 20000, 64, 1, 64, 1.0f, 0.5f }, /* a flat box */
};

static float *make_lattice(wb_rng *rng, const grid_case *c)
{
    float *p = wb_hmalloc((size_t)(c->n > 0 ? c->n : 1) * 16);
    int lim[3] = { (int)(c->gx * c->cell * 64), (int)(c->gy * c->cell * 64), (int)(c->gz * c->cell * 64) };
    for (int i = 0; i < c->n; i++) {
        for (int k = 0; k < 3; k++) p[4 * i + k] = (float)wb_rng_int(rng, 0, lim[k] - 1) / 64.0f;
        p[4 * i + 3] = NAN; /* not read */
    }
    return p;
}

static int cell_axis(float x, float cell, int g)
{
    int i = (int)(x / cell);
    if (i > g - 1) i = g - 1;
    if (i < 0) i = 0;
    return i;
}

START_TEST(grid_pairs)
{
    wb_rng rng = WB_RNG();
    const grid_case *c = &GRIDS[_i];
    int n = c->n, ncells = c->gx * c->gy * c->gz;
    size_t n1 = n > 0 ? (size_t)n : 1;
    cg_grid g = { c->cell, c->gx, c->gy, c->gz };
    float *hp = make_lattice(&rng, c);
    /* CPU: cells, their sizes and starts, and every pair, O(n^2) */
    uint32_t *cell = wb_hmalloc(n1 * 4), *cnt = calloc((size_t)ncells, 4), *pre = wb_hmalloc((size_t)ncells * 4),
             *pairs = calloc(n1, 4);
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
    float *dp = wb_dcopy(hp, (size_t)n * 16);
    size_t wbytes = cg_workspace_bytes(n, ncells);
    void *work = wbytes ? wb_dmalloc(wbytes) : NULL;
    wb_dout CO, SO, ST, EN, PC;
    unsigned *dco = wb_dout_alloc(&CO, "cell_of", (size_t)n * 4, 0), *dso = wb_dout_alloc(&SO, "sorted", (size_t)n * 4, 0),
             *dst = wb_dout_alloc(&ST, "cell_start", (size_t)ncells * 4, 0),
             *den = wb_dout_alloc(&EN, "cell_end", (size_t)ncells * 4, 0), *dpc = wb_dout_alloc(&PC, "count", (size_t)n * 4, 0);
    WB_CUDA(cg_build(dp, n, g, dco, dso, dst, den, work, wbytes));
    WB_CUDA(cg_count_pairs(dp, n, g, c->radius, dso, dst, den, dpc));
    char what[160];
    snprintf(what, sizeof what, "n=%d, grid %dx%dx%d, cell %g, radius %g (%llu pairs)", n, c->gx, c->gy, c->gz, c->cell,
             c->radius, total);
    wb_expect_dout_u32(&CO, cell, (size_t)n, what);
    uint32_t *so = wb_hmalloc(n1 * 4), *st = wb_hmalloc((size_t)ncells * 4), *en = wb_hmalloc((size_t)ncells * 4);
    wb_expect_dout_guards(&SO, so, what);
    wb_expect_dout_guards(&ST, st, what);
    wb_expect_dout_guards(&EN, en, what);
    /* sorted: a permutation in cell order; each cell's range where its cell sits */
    unsigned char *seen = calloc(n1, 1);
    for (int k = 0; k < n; k++) {
        if (so[k] >= (uint32_t)n || seen[so[k]])
            ck_abort_msg("%s (seed %llu): sorted[%d] = %u is not a particle id or appears twice", what,
                         (unsigned long long)wb_base_seed(), k, so[k]);
        seen[so[k]] = 1;
        if (k && cell[so[k]] < cell[so[k - 1]])
            ck_abort_msg("%s (seed %llu): sorted[%d] is in cell %u, after a particle of cell %u: not in cell order",
                         what, (unsigned long long)wb_base_seed(), k, cell[so[k]], cell[so[k - 1]]);
    }
    for (int k = 0; k < ncells; k++) {
        int ok = cnt[k] ? st[k] == pre[k] && en[k] == pre[k] + cnt[k] : st[k] == en[k];
        if (!ok)
            ck_abort_msg("%s (seed %llu): cell %d holds %u particle(s) from slot %u: cell_start %u, cell_end %u%s", what,
                         (unsigned long long)wb_base_seed(), k, cnt[k], pre[k], st[k], en[k],
                         cnt[k] ? "" : " (an empty cell needs cell_start == cell_end)");
    }
    wb_expect_dout_u32(&PC, pairs, (size_t)n, what);
    wb_dfree(dp), wb_dfree(work);
    wb_dout_free(&CO), wb_dout_free(&SO), wb_dout_free(&ST), wb_dout_free(&EN), wb_dout_free(&PC);
    free(hp), free(cell), free(cnt), free(pre), free(pairs), free(so), free(st), free(en), free(seen);
}
END_TEST

/* ---------------------------------------------------------------- the stencil */

typedef cudaError_t (*stencil_fn)(const float *, float *, int, int, int, float, float);
static const stencil_fn SFN[3] = { stencil_naive, stencil_tiled, stencil_stream };
static const char *const SNAME[3] = { "stencil_naive", "stencil_tiled", "stencil_stream" };

/* One sweep in double: interior cells updated, boundary cells copied. */
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

/* The tolerance after `sweeps` sweeps of inputs bounded by 1 in magnitude.
 * One float update, fmaf(c1, ((a + b) + (c + d)) + (e + f), c0 * x), makes
 * 7 roundings, no term passing through more than 4 of them: it errs by at
 * most about 5 * 2^-24 (|c0| + 6 |c1|). The heat coefficients (c0, c1 >= 0,
 * c0 + 6 c1 = 1) make a sweep an average, which does not amplify an error
 * already made, so sweeps add their bounds. Doubled, and a little more, for
 * margin. A neighbour left out or read from the wrong cell costs |c1| times
 * a value of order 1: over 0.05 at almost every cell. */
static double sweep_atol(float c0, float c1, int sweeps)
{
    return 12.0 * 0x1p-24 * (fabs(c0) + 6.0 * fabs(c1)) * sweeps;
}

typedef struct { int nx, ny, nz; } st_size;

/* Empty grids, all-boundary grids (an edge of 1 or 2), one interior cell,
 * thin slabs along each axis, sizes that are not multiples of the 32 x 8
 * tile, runs of planes that split (nz > 64), and a larger grid. */
static const st_size ST_SIZES[] = {
    { 0, 3, 3 },      { 4, 4, 0 },      { 1, 1, 1 },     { 2, 2, 2 },     { 3, 3, 3 },      { 1000, 1, 1 },
    { 1, 1000, 1 },   { 1, 1, 1000 },   { 1000, 3, 3 },  { 3, 1000, 3 },  { 3, 3, 1000 },   { 33, 9, 5 },
    { 31, 7, 66 },    { 130, 67, 33 },  { 64, 16, 129 }, { 257, 130, 70 }, { 512, 64, 200 },
};

/* Run the three kernels on one grid: out poisoned before each, every cell
 * compared with the double reference, nothing written outside out, and in
 * left as it was. `in` starts `off` floats into its allocation and out
 * `off` floats into its own (off = 1: not 16-byte aligned). */
static void check_stencil_grid(const float *h, int nx, int ny, int nz, float c0, float c1, int off, const char *what)
{
    size_t n = (size_t)nx * ny * nz, n1 = n ? n : 1;
    double *din = wb_hmalloc(n1 * 8), *ref = wb_hmalloc(n1 * 8);
    float *back = wb_hmalloc(n1 * 4), *hbuf = wb_hmalloc((n + off) * 4);
    for (size_t i = 0; i < n; i++) din[i] = h[i];
    ref_sweep(din, ref, nx, ny, nz, c0, c1);
    memset(hbuf, 0, (size_t)off * 4);
    memcpy(hbuf + off, h, n * 4);
    float *dbuf = wb_dcopy(hbuf, (n + off) * 4), *dinp = dbuf ? dbuf + off : NULL;
    wb_dout o;
    float *dout = wb_dout_alloc(&o, "out", n * 4, (size_t)off * 4);
    double atol = sweep_atol(c0, c1, 1);
    for (int v = 0; v < 3; v++) {
        if (v) wb_dout_poison(&o);
        WB_CUDA(SFN[v](dinp, dout, nx, ny, nz, c0, c1));
        char w[200];
        snprintf(w, sizeof w, "%s, %dx%dx%d, c0=%.9g, c1=%.9g%s, %s", SNAME[v], nx, ny, nz, c0, c1,
                 off ? ", in and out at +1 float" : "", what);
        wb_expect_dout_f32_f64(&o, ref, n, atol, 0, w);
        if (n) {
            wb_d2h(back, dinp, n * 4);
            ck_assert_msg(memcmp(back, h, n * 4) == 0, "%s: the input grid changed (in and out are different buffers; "
                          "in is read only)", w);
        }
    }
    wb_dfree(dbuf), wb_dout_free(&o);
    free(din), free(ref), free(back), free(hbuf);
}

START_TEST(stencil_sizes)
{
    wb_rng rng = WB_RNG();
    const st_size *s = &ST_SIZES[_i];
    size_t n = (size_t)s->nx * s->ny * s->nz;
    float *h = wb_hmalloc((n ? n : 1) * 4);
    wb_fill_uniform_f32(&rng, h, n, -1, 1);
    /* any coefficients, signs included: a swapped c0 and c1 shows */
    float c0 = (float)(2 * wb_rng_unit(&rng) - 1), c1 = (float)(wb_rng_unit(&rng) - 0.5);
    check_stencil_grid(h, s->nx, s->ny, s->nz, c0, c1, (int)(_i & 1), "random values in [-1, 1]");
    free(h);
    if (_i == 0)
        for (int v = 0; v < 3; v++) {
            float *p = wb_dmalloc(64);
            ck_assert_msg(SFN[v](p, p + 8, -1, 2, 2, 0.5f, 0.1f) == cudaErrorInvalidValue &&
                              SFN[v](p, p + 8, 2, 2, -3, 0.5f, 0.1f) == cudaErrorInvalidValue &&
                              SFN[v](p, p + 8, 2, STENCIL_MAX_NY + 1, 2, 0.5f, 0.1f) == cudaErrorInvalidValue,
                          "%s: a negative size, or ny > STENCIL_MAX_NY, must return cudaErrorInvalidValue", SNAME[v]);
            wb_dfree(p);
        }
}
END_TEST

/* NaN and infinities in the input: a NaN spreads to its six neighbours, an
 * infinity makes them infinite (NaN where +Inf and -Inf meet, or where a
 * zero coefficient meets one), boundary cells copy them. The specials sit
 * at random cells and on purpose where each kernel's special paths read
 * them: the tile's edge columns and rows (x = 31, 32; y = 7, 8), whose
 * neighbours come from the halo, and the planes around the stream
 * kernel's run boundary (z = 32, 33 when nz = 65 splits into 33 + 32). */
static const st_size ST_SPECIAL[] = { { 40, 30, 20 }, { 70, 19, 65 }, { 3, 3, 3 } };

START_TEST(stencil_nonfinite)
{
    wb_rng rng = WB_RNG();
    const st_size *s = &ST_SPECIAL[_i];
    int nx = s->nx, ny = s->ny, nz = s->nz;
    size_t n = (size_t)nx * ny * nz;
    float *h = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, h, n, -1, 1);
    const float sp[3] = { NAN, INFINITY, -INFINITY };
    for (size_t k = 0; k < n / 150 + 1; k++) h[wb_rng_int(&rng, 0, (int64_t)n - 1)] = sp[k % 3];
    const int xs[] = { 31, 32 }, ys[] = { 7, 8 }, zs[] = { 32, 33 };
    for (int k = 0; k < 8; k++) {
        int x = xs[k & 1] % nx, y = ys[(k >> 1) & 1] % ny, z = zs[k >> 2] % nz;
        h[((size_t)z * ny + y) * nx + x] = sp[k % 3];
    }
    if (nx == 3) h[13] = NAN; /* the one interior cell */
    float c0 = (float)(0.2 + 0.6 * wb_rng_unit(&rng)), c1 = (float)(0.02 + 0.1 * wb_rng_unit(&rng));
    if (_i == 1) c0 = 0.0f; /* 0 * Inf is NaN, on the GPU as in the reference */
    check_stencil_grid(h, nx, ny, nz, c0, c1, 0, "NaN, +Inf, -Inf in the input");
    free(h);
}
END_TEST

/* Many sweeps, ping-pong between two buffers, against the same number of
 * sweeps in double: heat coefficients c1 = a, c0 = 1 - 6a. After the last
 * sweep the buffer holding the result is compared whole, and neither buffer
 * was written outside its bounds. */
typedef struct { int nx, ny, nz, sweeps; } st_sweeps;
static const st_sweeps ST_SWEEPS[] = { { 130, 67, 33, 50 }, { 37, 21, 70, 64 }, { 9, 9, 9, 41 } };

START_TEST(stencil_many_sweeps)
{
    wb_rng rng = WB_RNG();
    const st_sweeps *s = &ST_SWEEPS[_i];
    int nx = s->nx, ny = s->ny, nz = s->nz, K = s->sweeps;
    size_t n = (size_t)nx * ny * nz;
    float *h = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, h, n, -1, 1);
    float c1 = (float)(0.05 + (1.0 / 6 - 0.05) * wb_rng_unit(&rng)), c0 = 1.0f - 6.0f * c1;
    double *a = wb_hmalloc(n * 8), *b = wb_hmalloc(n * 8);
    for (size_t i = 0; i < n; i++) a[i] = h[i];
    for (int k = 0; k < K; k++) {
        ref_sweep(a, b, nx, ny, nz, c0, c1);
        double *t = a;
        a = b, b = t;
    }
    wb_dout A, B;
    float *da = wb_dout_alloc(&A, "grid A", n * 4, 0), *db = wb_dout_alloc(&B, "grid B", n * 4, 0);
    float *other = wb_hmalloc(n * 4);
    for (int v = 0; v < 3; v++) {
        wb_dout_poison(&A), wb_dout_poison(&B);
        wb_h2d(da, h, n * 4);
        for (int k = 0; k < K; k++) WB_CUDA(SFN[v](k & 1 ? db : da, k & 1 ? da : db, nx, ny, nz, c0, c1));
        char w[200];
        snprintf(w, sizeof w, "%s, %dx%dx%d, %d sweeps from A to B and back, c0=%.9g, c1=%.9g", SNAME[v], nx, ny, nz,
                 K, c0, c1);
        wb_expect_dout_f32_f64(K & 1 ? &B : &A, a, n, sweep_atol(c0, c1, K), 0, w);
        wb_expect_dout_guards(K & 1 ? &A : &B, other, w);
    }
    wb_dout_free(&A), wb_dout_free(&B);
    free(h), free(a), free(b), free(other);
}
END_TEST

/* ---------------------------------------------------------------- benchmarks */

typedef struct {
    const float *pos;
    float *acc;
    int n;
    accel_fn fn;
    const float *hp;  /* the benchmark's bodies (host), put back by acc_fresh(ctx, 0) */
    float *spot;      /* the spot check's bodies (host) */
} acc_ctx;

static void acc_work(void *p)
{
    acc_ctx *c = p;
    WB_CUDA(c->fn(c->pos, c->acc, c->n, 0.01f));
}

/* Bodies for a benchmark, made on the host from a fixed seed. */
static float *bench_bodies(int n, int tag)
{
    wb_rng rng = wb_rng_for("week19-bench", tag);
    return make_bodies(&rng, n);
}

/* Check `samples` bodies of a timed output against the double reference;
 * 0 if all agree, else the message in msg. */
static int verify_sample(const float *hp, const float *dacc, int n, float eps2, int samples, char *msg, size_t msz)
{
    float *got = wb_hmalloc((size_t)n * 12);
    wb_d2h(got, dacc, (size_t)n * 12);
    int *which = wb_hmalloc((size_t)samples * sizeof(int));
    wb_rng rng = wb_rng_for("week19-verify", n);
    for (int s = 0; s < samples; s++) which[s] = s < 2 ? (s ? n - 1 : 0) : (int)wb_rng_int(&rng, 0, n - 1);
    int bad = check_acc(hp, n, eps2, got, which, samples, msg, msz);
    free(got), free(which);
    return bad;
}

/* The timing's spot check (wb_bench_opts): one timed run on new bodies with
 * a poisoned output, its accelerations then checked; fresh(ctx, 0) puts the
 * benchmark's bodies back (wb_time then runs the work once more). */
static void acc_fresh(void *p, unsigned long long salt)
{
    acc_ctx *c = p;
    const float *h = c->hp;
    if (salt) {
        wb_rng rng = wb_rng_for("week19-nbody-fresh", (int)(salt & 0x7fffffff));
        float *t = make_bodies(&rng, c->n);
        memcpy(c->spot, t, (size_t)c->n * 16);
        free(t);
        h = c->spot;
    }
    wb_h2d((void *)c->pos, h, (size_t)c->n * 16);
    wb_dpoison(c->acc, (size_t)c->n * 12);
}

static int acc_check(void *p, char *why, size_t size)
{
    acc_ctx *c = p;
    return verify_sample(c->spot, c->acc, c->n, 0.01f, 32, why, size) != 0;
}

/* The large n: 1024 bodies per SM (135 168 on a 132-SM H100), so every SM
 * gets the same number of 256-thread blocks, all resident at once. */
static int large_n(void) { return wb_this_device()->sm_count * 1024; }

/* naive then tiled; the tiled row is the headline, against the datasheet
 * FP32 peak (2 x FP32 lanes x SMs x clock), as week 03 measures it. */
static double bench_nbody(wb_headline *h)
{
    const wb_device *d = wb_this_device();
    int n = large_n();
    float *hp = bench_bodies(n, 1), *spot = wb_hmalloc((size_t)n * 16);
    acc_ctx c = { wb_dcopy(hp, (size_t)n * 16), wb_dmalloc((size_t)n * 12), n, NULL, hp, spot };
    double ratio = NAN;
    wb_bench_opts o = { 3, 20, 0, acc_fresh, acc_check }; /* 2 MB of bodies: nothing to flush */
    for (int v = 0; v < 2; v++) {
        c.fn = AFN[v];
        wb_dpoison(c.acc, (size_t)n * 12);
        wb_bench_row r = { .exercise = "nbody", .variant = v ? "tiled (shared memory)" : "naive (global)", .n = (size_t)n,
                           .bytes = 16.0 * n + 12.0 * n, .flops = (double)NBODY_FLOPS_PER_INTERACTION * n * (double)n,
                           .unit = "GFLOP/s", .yard_name = "PEAK_FP32", .yard = d->peak_fp32_gflops };
        wb_time(acc_work, &c, &o, &r.t);
        r.value = r.flops / (r.t.median * 1e-3) / 1e9;
        char msg[400] = "";
        if (verify_sample(hp, c.acc, n, 0.01f, 128, msg, sizeof msg)) wb_bench_invalid(&r, msg);
        if (v) {
            ratio = wb_bench_headline(&r, h);
            if (!r.invalid)
                printf("  nbody: %.3g interactions/s; at %d flops each, %.2f of the FP32 peak\n",
                       (double)n * n / (r.t.median * 1e-3), NBODY_FLOPS_PER_INTERACTION, ratio);
        } else {
            wb_bench_emit(&r);
        }
    }
    wb_dfree((void *)c.pos), wb_dfree(c.acc);
    free(hp), free(spot);
    return ratio;
}

typedef struct {
    float *pos, *vel, *acc;
    int n;
    float dt;
    const float *hp, *hv; /* the first state (host), put back by step_fresh(ctx, 0) */
    float *sp, *sv, *sa;  /* the spot check's state before its step (host) */
} step_ctx;

static void step_work(void *p)
{
    step_ctx *s = p;
    WB_CUDA(leapfrog_step(s->pos, s->vel, s->acc, s->n, s->dt, 0.01f));
}

/* A state to step from: positions and velocities, and (as leapfrog_step asks)
 * the accelerations at those positions. */
static void step_load(step_ctx *s, const float *hp, const float *hv)
{
    wb_h2d(s->pos, hp, (size_t)s->n * 16);
    wb_h2d(s->vel, hv, (size_t)s->n * 12);
    wb_dpoison(s->acc, (size_t)s->n * 12);
    WB_CUDA(nbody_accel_tiled(s->pos, s->acc, s->n, 0.01f));
}

/* The spot check: one timed step from a new state. Its positions, masses and
 * velocities are checked for every body against the kick-drift-kick
 * formulas applied to the floats it started from and to the accelerations
 * it returned, those accelerations against the double reference at the new
 * positions (32 bodies), and they must not be the old ones: a step that does
 * nothing, skips a kick or the drift, or does not evaluate the forces again
 * gives no figure. fresh(ctx, 0) puts the first state back. */
static void step_fresh(void *p, unsigned long long salt)
{
    step_ctx *s = p;
    if (!salt) {
        step_load(s, s->hp, s->hv);
        return;
    }
    wb_rng rng = wb_rng_for("week19-step-fresh", (int)(salt & 0x7fffffff));
    float *hp = make_bodies(&rng, s->n), *hv = make_vel(&rng, s->n, 0.1f);
    memcpy(s->sp, hp, (size_t)s->n * 16), memcpy(s->sv, hv, (size_t)s->n * 12);
    step_load(s, hp, hv);
    wb_d2h(s->sa, s->acc, (size_t)s->n * 12);
    free(hp), free(hv);
}

static int step_check(void *p, char *why, size_t size)
{
    step_ctx *s = p;
    int n = s->n, bad = 0, stale = 0;
    float *gp = wb_hmalloc((size_t)n * 16), *gv = wb_hmalloc((size_t)n * 12), *ga = wb_hmalloc((size_t)n * 12);
    wb_d2h(gp, s->pos, (size_t)n * 16), wb_d2h(gv, s->vel, (size_t)n * 12), wb_d2h(ga, s->acc, (size_t)n * 12);
    double h = 0.5 * s->dt;
    /* Float rounding: a few ulps of |x| <= 1.1 and |v| <= 0.11. One step moves
     * a body by |v| dt (up to 1e-5) and kicks it by |a| dt (about 1e-5 x |a|). */
    for (int i = 0; i < n && !bad; i++) {
        if (memcmp(gp + 4 * i + 3, s->sp + 4 * i + 3, 4) != 0) {
            snprintf(why, size, "leapfrog_step changed the mass of body %d: %.9g, was %.9g", i, gp[4 * i + 3],
                     s->sp[4 * i + 3]);
            bad = 1;
        }
        stale += memcmp(ga + 3 * i, s->sa + 3 * i, 12) == 0;
        for (int k = 0; k < 3 && !bad; k++) {
            double a0 = s->sa[3 * i + k], vh = s->sv[3 * i + k] + a0 * h;
            double x = s->sp[4 * i + k] + vh * s->dt, v = vh + ga[3 * i + k] * h;
            if (!(fabs(gp[4 * i + k] - x) <= 2.5e-7))
                snprintf(why, size, "after one step, pos[%d].%c = %.9g, expected %.9g (x + (v + a dt/2) dt)", i,
                         "xyz"[k], gp[4 * i + k], x), bad = 1;
            else if (!(fabs(gv[3 * i + k] - v) <= 1e-7))
                snprintf(why, size, "after one step, vel[%d].%c = %.9g, expected %.9g (v + (a_old + a_new) dt/2)", i,
                         "xyz"[k], gv[3 * i + k], v), bad = 1;
        }
    }
    if (!bad && 2 * stale > n)
        snprintf(why, size, "after one step, the accelerations of %d of %d bodies are the old ones bit for bit: "
                 "are the forces evaluated at the new positions?", stale, n), bad = 1;
    if (!bad) bad = verify_sample(gp, s->acc, n, 0.01f, 32, why, size) != 0;
    free(gp), free(gv), free(ga);
    return bad;
}

/* Time `samples` steps of n bodies (state carried from step to step, one
 * spot check on a new state), then check the last step's accelerations at
 * its positions. Returns ms per step (median) in *t; 0 or a message. */
static int time_steps(int n, int samples, wb_summary *t, char *msg, size_t msz)
{
    float *hp = bench_bodies(n, 2);
    wb_rng rng = wb_rng_for("week19-vel", n);
    float *hv = make_vel(&rng, n, 0.1f);
    step_ctx s = { wb_dmalloc((size_t)n * 16), wb_dmalloc((size_t)n * 12), wb_dmalloc((size_t)n * 12), n, 1e-4f, hp, hv,
                   wb_hmalloc((size_t)n * 16), wb_hmalloc((size_t)n * 12), wb_hmalloc((size_t)n * 12) };
    step_load(&s, hp, hv);
    wb_bench_opts o = { 2, samples, 0, step_fresh, step_check };
    wb_time(step_work, &s, &o, t);
    wb_sync();
    float *gp = wb_hmalloc((size_t)n * 16);
    wb_d2h(gp, s.pos, (size_t)n * 16);
    int bad = verify_sample(gp, s.acc, n, 0.01f, 32, msg, msz);
    wb_dfree(s.pos), wb_dfree(s.vel), wb_dfree(s.acc);
    free(hp), free(hv), free(gp), free(s.sp), free(s.sv), free(s.sa);
    return bad;
}

/* Real time: 60 steps a second (a display's refresh) at n = 163 840. That
 * is 163840^2 / (1/60 s) = 1.61e12 interactions/s, 32.2 TFLOP/s at 20 flops
 * each: 0.48 of the H100's 66.9 TFLOP/s datasheet peak. A step is one force
 * evaluation and two element-wise passes, so a tiled kernel that passes
 * w19.nbody-peak (0.5 of the peak) is close to real time here. */
#define REALTIME_N 163840
#define REALTIME_HZ 60.0
/* Bytes a step moves per body, at least: kick + drift reads a, v and x
 * (40) and writes v and x (28), the closing kick reads a and v and writes v
 * (36), the force kernel reads x once and writes a (28). */
#define STEP_BYTES 132.0

static double bench_realtime(wb_headline *h)
{
    wb_bench_row r = { .exercise = "nbody_step", .variant = "leapfrog, tiled forces", .n = REALTIME_N,
                       .flops = (double)NBODY_FLOPS_PER_INTERACTION * REALTIME_N * (double)REALTIME_N,
                       .bytes = STEP_BYTES * REALTIME_N, .unit = "steps/s", .yard_name = "REALTIME", .yard = REALTIME_HZ };
    char msg[400] = "";
    int bad = time_steps(REALTIME_N, 20, &r.t, msg, sizeof msg);
    r.value = 1e3 / r.t.median;
    if (bad) wb_bench_invalid(&r, msg);
    return wb_bench_headline(&r, h);
}

/* ---------------------------------------------------------------- steps per second against n */

static const int SWEEP_N[] = { 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144 };

/* 1 when the CSV and the PNG were written, 2 when the CSV was but gnuplot
 * is missing, NaN when a point had wrong output, 0 when drawing failed. */
static double bench_steps(void)
{
    const wb_device *d = wb_this_device();
    const char *wk = getenv("WB_WEEK_DIR");
    if (!wk || !*wk) wk = "phase4/week19";
    char dir[256], csv[300], png[300], cmd[1200];
    snprintf(dir, sizeof dir, "build/%s", wk);
    snprintf(csv, sizeof csv, "%s/steps.csv", dir);
    snprintf(png, sizeof png, "%s/steps.png", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    if (system(cmd) != 0) return NAN;
    FILE *f = fopen(csv, "w");
    if (!f) {
        printf("  cannot write %s\n", csv);
        return NAN;
    }
    fprintf(f, "n,ms_per_step,steps_per_s,gflops,peak_gflops\n");
    int bad = 0;
    for (size_t k = 0; k < WB_COUNT(SWEEP_N); k++) {
        int n = SWEEP_N[k];
        char variant[48], msg[400] = "";
        snprintf(variant, sizeof variant, "n=%d", n);
        wb_bench_row r = { .exercise = "steps", .variant = variant, .n = (size_t)n,
                           .flops = (double)NBODY_FLOPS_PER_INTERACTION * n * (double)n, .bytes = STEP_BYTES * n,
                           .unit = "steps/s" };
        if (time_steps(n, 10, &r.t, msg, sizeof msg)) wb_bench_invalid(&r, msg), bad++;
        r.value = 1e3 / r.t.median;
        wb_bench_emit(&r);
        fprintf(f, "%d,%.6g,%.6g,%.6g,%.6g\n", n, r.t.median, r.value, r.flops / (r.t.median * 1e-3) / 1e9,
                d->peak_fp32_gflops);
    }
    fclose(f);
    printf("  steps: %s (%d points, %d with wrong output)\n", csv, (int)WB_COUNT(SWEEP_N), bad);
    if (bad) return NAN;
    char gp[300];
    snprintf(gp, sizeof gp, "%s/steps.gp", wk);
    int drawn = wb_gnuplot(gp, csv, png);
    return drawn == 0 ? 2 : drawn < 0 ? 0 : 1;
}

START_TEST(steps_plot)
{
    double ok = bench_steps();
    ck_assert_msg(!isnan(ok), "some points of the sweep gave wrong accelerations (see the rows above)");
    ck_assert_msg(ok > 0, "the sweep was measured but gnuplot failed to draw the PNG");
    if (ok == 2) wb_skip_test_no_gnuplot("build/phase4/week19/steps.csv");
    wb_report("steps.csv and steps.png in build/phase4/week19");
}
END_TEST

/* ---------------------------------------------------------------- the grid, timed (a report) */

typedef struct {
    const float *pos;
    int n;
    cg_grid g;
    float radius;
    unsigned *cell_of, *sorted, *start, *end, *count;
    void *work;
    size_t wbytes;
} grid_ctx;

static void grid_work(void *p)
{
    grid_ctx *c = p;
    WB_CUDA(cg_build(c->pos, c->n, c->g, c->cell_of, c->sorted, c->start, c->end, c->work, c->wbytes));
    WB_CUDA(cg_count_pairs(c->pos, c->n, c->g, c->radius, c->sorted, c->start, c->end, c->count));
}

/* 4M particles, 2 a cell on average in a 128^3 grid: build and count, with
 * the per-particle counts of 64 particles checked by brute force. */
static double bench_grid(void)
{
    grid_case gc = { 1 << 22, 128, 128, 128, 1.0f, 1.0f };
    wb_rng rng = wb_rng_for("week19-grid", 0);
    float *hp = make_lattice(&rng, &gc);
    int n = gc.n, ncells = gc.gx * gc.gy * gc.gz;
    grid_ctx c = { wb_dcopy(hp, (size_t)n * 16), n, { gc.cell, gc.gx, gc.gy, gc.gz }, gc.radius,
                   wb_dmalloc((size_t)n * 4), wb_dmalloc((size_t)n * 4), wb_dmalloc((size_t)ncells * 4),
                   wb_dmalloc((size_t)ncells * 4), wb_dmalloc((size_t)n * 4), NULL, 0 };
    c.wbytes = cg_workspace_bytes(n, ncells);
    c.work = c.wbytes ? wb_dmalloc(c.wbytes) : NULL;
    wb_dpoison(c.count, (size_t)n * 4);
    wb_bench_row r = { .exercise = "grid", .variant = "counting sort + 27-cell count", .n = (size_t)n,
                       .bytes = 16.0 * n, .unit = "Mparticles/s" };
    wb_time(grid_work, &c, NULL, &r.t);
    r.value = n / (r.t.median * 1e-3) / 1e6;
    uint32_t *got = wb_hmalloc((size_t)n * 4);
    wb_d2h(got, c.count, (size_t)n * 4);
    double r2 = (double)gc.radius * gc.radius;
    for (int s = 0; s < 64 && !r.invalid; s++) {
        int i = (int)wb_rng_int(&rng, 0, n - 1);
        uint32_t want = 0;
        for (int j = 0; j < n; j++) {
            double dx = hp[4 * j] - hp[4 * i], dy = hp[4 * j + 1] - hp[4 * i + 1], dz = hp[4 * j + 2] - hp[4 * i + 2];
            want += j != i && dx * dx + dy * dy + dz * dz < r2;
        }
        if (got[i] != want) {
            char msg[120];
            snprintf(msg, sizeof msg, "count[%d] = %u, expected %u", i, got[i], want);
            wb_bench_invalid(&r, msg);
        }
    }
    wb_bench_emit(&r);
    wb_dfree((void *)c.pos), wb_dfree(c.cell_of), wb_dfree(c.sorted), wb_dfree(c.start), wb_dfree(c.end);
    wb_dfree(c.count), wb_dfree(c.work);
    free(hp), free(got);
    return NAN;
}

/* ---------------------------------------------------------------- the stencil, timed */

typedef struct {
    const float *in;
    float *out;
    int nx, ny, nz;
    stencil_fn fn;
    unsigned long long seed; /* in[i] = wb_hash_uniform_f32(seed, i, -1, 1) */
} st_ctx;

#define ST_SEED 1901ull
#define ST_C0 0.25f
#define ST_C1 0.125f

static void st_work(void *p)
{
    st_ctx *c = p;
    WB_CUDA(c->fn(c->in, c->out, c->nx, c->ny, c->nz, ST_C0, ST_C1));
}

static double st_in(const st_ctx *c, size_t i) { return wb_hash_uniform_f32(c->seed, i, -1, 1); }

/* Cell i of one sweep over the hashed input, in double. */
static double st_expect(size_t i, const void *p)
{
    const st_ctx *c = p;
    size_t sy = (size_t)c->nx, sz = sy * c->ny;
    size_t x = i % sy, y = i / sy % c->ny, z = i / sz;
    if (x == 0 || y == 0 || z == 0 || x + 1 == sy || y + 1 == (size_t)c->ny || z + 1 == (size_t)c->nz) return st_in(c, i);
    return (double)ST_C0 * st_in(c, i) + (double)ST_C1 * (st_in(c, i - 1) + st_in(c, i + 1) + st_in(c, i - sy) +
                                                          st_in(c, i + sy) + st_in(c, i - sz) + st_in(c, i + sz));
}

/* The timing's spot check: one timed sweep of a new grid into a poisoned
 * output, checked at 4096 cells (and the first and last 64). */
static void st_fresh(void *p, unsigned long long salt)
{
    st_ctx *c = p;
    size_t n = (size_t)c->nx * c->ny * c->nz;
    c->seed = ST_SEED + salt;
    wb_dfill_uniform_f32((float *)c->in, n, c->seed, -1, 1);
    wb_dpoison(c->out, n * 4);
}

static int st_check(void *p, char *why, size_t size)
{
    st_ctx *c = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("out", c->out, (size_t)c->nx * c->ny * c->nz, st_expect, c, 1 << 12, 1e-6, 0, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* One sweep of a 512 x 512 x nz grid, nz so that the grid is
 * wb_bench_bytes() (400 MiB, 8x the L2, on the H100): 8 bytes a cell (the
 * grid read once and written once) over the time, against a device-to-device
 * copy of the same bytes in the same run. The naive and tiled kernels are
 * reported beside it; the streaming kernel's row is the checkpoint's. */
static double bench_stencil(wb_headline *h)
{
    int nx = 512, ny = 512, nz = (int)(wb_bench_bytes() / (4 * (size_t)nx * ny));
    if (nz < 64) nz = 64;
    size_t n = (size_t)nx * ny * nz, bytes = n * 4;
    st_ctx c = { wb_dmalloc(bytes), wb_dmalloc(bytes), nx, ny, nz, NULL, ST_SEED };
    wb_dfill_uniform_f32((float *)c.in, n, ST_SEED, -1, 1);
    double copy = wb_yard_copy_gbps(bytes), ratio = NAN;
    static const char *const VARIANT[3] = { "naive (7 global loads)", "tiled (x-y tile + halo in shared)",
                                            "stream (z in registers, plane in shared)" };
    char label[32];
    snprintf(label, sizeof label, "%dx%dx%d", nx, ny, nz);
    for (int v = 0; v < 3; v++) {
        c.fn = SFN[v];
        wb_dpoison(c.out, bytes);
        wb_bench_row r = { .exercise = "stencil", .variant = VARIANT[v], .n = n,
                           .bytes = (double)STENCIL_BYTES_PER_CELL * n, .flops = (double)STENCIL_FLOPS_PER_CELL * n,
                           .unit = "GB/s", .yard_name = "COPY", .yard = copy };
        wb_bench_opts o = WB_BENCH_DEFAULTS;
        o.fresh = st_fresh, o.check = st_check;
        wb_time(st_work, &c, &o, &r.t);
        r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
        wb_cmp cmp;
        if (wb_dverify_f32("out", c.out, n, st_expect, &c, 1 << 16, 1e-6, 0, &cmp)) wb_bench_invalid(&r, cmp.msg);
        if (v < 2) {
            wb_bench_emit(&r);
        } else {
            ratio = wb_bench_headline(&r, h);
            if (!r.invalid)
                printf("  stencil: %s grid, %.3f ms a sweep, %.1f Gcells/s, %.2f of COPY\n", label, r.t.median,
                       n / (r.t.median * 1e-3) / 1e9, ratio);
        }
    }
    wb_dfree((void *)c.in), wb_dfree(c.out);
    return ratio;
}

static const wb_test TESTS[] = {
    { "w19.forces", WB_T(forces_sizes), WB_GPU, WB_COUNT(NSIZES) },
    { "w19.forces", WB_T(forces_close), WB_GPU, 3 },
    WB_SPEED("w19.nbody-peak", bench_nbody),
    { "w19.step", WB_T(leapfrog_one_step), WB_GPU, WB_COUNT(STEP_N) },
    { "w19.energy", WB_T(leapfrog_energy), WB_GPU, WB_COUNT(DRIFT) },
    WB_SPEED("w19.realtime", bench_realtime),
    { "w19.steps-plot", WB_T(steps_plot), WB_GPU, 0 },
    { "w19.grid", WB_T(grid_pairs), WB_GPU, WB_COUNT(GRIDS) },
    { "w19.stencil", WB_T(stencil_sizes), WB_GPU, WB_COUNT(ST_SIZES) },
    { "w19.stencil", WB_T(stencil_nonfinite), WB_GPU, WB_COUNT(ST_SPECIAL) },
    { "w19.stencil", WB_T(stencil_many_sweeps), WB_GPU, WB_COUNT(ST_SWEEPS) },
    WB_SPEED("w19.stencil-speed", bench_stencil),
};

/* Benchmarks that serve no target; `--bench` also runs nbody, realtime and
 * stencil. */
static const wb_benchmark BENCHES[] = {
    { "steps", bench_steps },
    { "grid", bench_grid },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
