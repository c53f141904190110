/* bwd_ref.h — week 59's double reference of the attention backward and its
 * per-element tolerance (given code, not an exercise), shared by
 * test_week59.c and the instructor's CPU model of the reference kernel's
 * roundings (instructor/tune/w59/tol_model.c), so that the two cannot drift
 * apart. Static functions: include it once per program. */
#ifndef WEEK59_BWD_REF_H
#define WEEK59_BWD_REF_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the reference
 *
 * The backward's inputs are Q, K, V, O, dO and lse; the reference computes in
 * double from exactly those (the bf16 values, the forward's O and FP32 lse):
 *   P_ij = exp(scale q_i.k_j - lse_i), dP_ij = dO_i.v_j, Drow_i = dO_i.o_i,
 *   dS_ij = P_ij (dP_ij - Drow_i), dV_j = sum_i P_ij dO_i,
 *   dQ_i = scale sum_j dS_ij k_j, dK_j = scale sum_i dS_ij q_i.
 *
 * Tolerance (README, "Checking the gradients"), per element: where the
 * kernel rounds, the error of a sum is at most the rounding's relative error
 * times the sum of the absolute values of its terms, so the reference sums
 * those too:
 *   - P (for dV) and dS (for dQ, dK) rounded to bf16: 2^-9 of each term;
 *     bound 2^-8 (twice, for the margin);
 *   - P itself in FP32: the score q.k summed in FP32 by the tensor cores
 *     (at most 2 (D + 2) 2^-24 of sum_d |q_d k_d|, times scale), ex2.approx
 *     and the FFMA with lse: ep_i, relative;
 *   - the FP32 sums over S terms (mma chains, dQ's atomics): 2 S 2^-24,
 *     relative to the same absolute sum;
 *   - dP and Drow summed in FP32: an absolute dl_i on dP - Drow;
 *   - the output rounded to bf16: 2^-9 |ref|, RTOL 2^-8.
 * tol = ATOL + RTOL |ref| + sum over terms of (2^-8 + ep_i + 2 S 2^-24) |term|
 * (+ P dl_i |k| or |q| for dQ, dK). Nothing here is statistical: a right
 * kernel cannot exceed it, and a wrong mask, a missing Drow, scale or
 * transposition moves the result by a good part of the terms' sum. */
#define U24 (1.0 / 16777216.0)
#define ATOL 1e-5
#define RTOL (1.0 / 256)
#define EPS_BF16 (1.0 / 256)
/* The given forward's O against the exact one: week 38's bound. */
#define O_ATOL 5e-3
#define O_RTOL 8e-3

/* One head, on the host: S x D floats (bf16 values) and the forward's lse. */
typedef struct {
    int S, D, causal;
    double scale;
    const float *q, *k, *v, *o, *g, *lse; /* g is dO */
    double *drow, *ep, *dl;               /* S each */
} ref_head;

static void ref_prepare(ref_head *h)
{
    const int S = h->S, D = h->D;
    double kmax[128] = { 0 }, vmax[128] = { 0 };
    for (int j = 0; j < S; j++)
        for (int d = 0; d < D; d++) {
            kmax[d] = fmax(kmax[d], fabs(h->k[(size_t)j * D + d]));
            vmax[d] = fmax(vmax[d], fabs(h->v[(size_t)j * D + d]));
        }
    const double gam = 2.0 * (D + 2) * U24;
    for (int i = 0; i < S; i++) {
        const float *q = h->q + (size_t)i * D, *o = h->o + (size_t)i * D, *g = h->g + (size_t)i * D;
        double dr = 0, sq = 0, sg = 0;
        for (int d = 0; d < D; d++) {
            dr += (double)g[d] * o[d];
            sq += fabs(q[d]) * kmax[d];
            sg += fabs(g[d]) * (vmax[d] + fabs(o[d]));
        }
        h->drow[i] = dr;
        h->ep[i] = gam * h->scale * sq + 0x1p-18 * (1.0 + fabs(h->lse[i]));
        h->dl[i] = gam * sg;
    }
}

static int sees(const ref_head *h, int i, int j) { return !h->causal || j <= i; }

/* P_ij from the given lse, and dP_ij. */
static double ref_p(const ref_head *h, int i, int j, double *dp)
{
    const float *q = h->q + (size_t)i * h->D, *k = h->k + (size_t)j * h->D, *g = h->g + (size_t)i * h->D,
                *v = h->v + (size_t)j * h->D;
    double s = 0, t = 0;
    for (int d = 0; d < h->D; d++) s += (double)q[d] * k[d], t += (double)g[d] * v[d];
    *dp = t;
    return exp(s * h->scale - h->lse[i]);
}

/* dQ row i and its bound. */
static void ref_dq_row(const ref_head *h, int i, double *ref, double *bnd)
{
    const int D = h->D;
    const double eps = EPS_BF16 + h->ep[i] + 2.0 * h->S * U24;
    for (int d = 0; d < D; d++) ref[d] = bnd[d] = 0;
    for (int j = 0; j < h->S; j++) {
        if (!sees(h, i, j)) continue;
        double dp, p = ref_p(h, i, j, &dp), x = dp - h->drow[i];
        double ds = h->scale * p * x, c = h->scale * p * (eps * fabs(x) + h->dl[i]);
        const float *k = h->k + (size_t)j * D;
        for (int d = 0; d < D; d++) ref[d] += ds * k[d], bnd[d] += c * fabs(k[d]);
    }
}

/* dK and dV rows of key j and their bounds. */
static void ref_dkv_row(const ref_head *h, int j, double *rk, double *bk, double *rv, double *bv)
{
    const int D = h->D;
    for (int d = 0; d < D; d++) rk[d] = bk[d] = rv[d] = bv[d] = 0;
    for (int i = 0; i < h->S; i++) {
        if (!sees(h, i, j)) continue;
        const double eps = EPS_BF16 + h->ep[i] + 2.0 * h->S * U24;
        double dp, p = ref_p(h, i, j, &dp), x = dp - h->drow[i];
        double ds = h->scale * p * x, c = h->scale * p * (eps * fabs(x) + h->dl[i]);
        const float *q = h->q + (size_t)i * D, *g = h->g + (size_t)i * D;
        for (int d = 0; d < D; d++) {
            rk[d] += ds * q[d], bk[d] += c * fabs(q[d]);
            rv[d] += p * g[d], bv[d] += eps * p * fabs(g[d]);
        }
    }
}

/* The exact forward of row i (for the given forward's check): lse and O. */
static double ref_fwd_row(const ref_head *h, int i, double *o)
{
    const int D = h->D;
    double m = -INFINITY, l = 0;
    for (int j = 0; j < h->S; j++) {
        if (!sees(h, i, j)) continue;
        double s = 0;
        for (int d = 0; d < D; d++) s += (double)h->q[(size_t)i * D + d] * h->k[(size_t)j * D + d];
        m = fmax(m, s * h->scale);
    }
    for (int d = 0; d < D; d++) o[d] = 0;
    for (int j = 0; j < h->S; j++) {
        if (!sees(h, i, j)) continue;
        double s = 0;
        for (int d = 0; d < D; d++) s += (double)h->q[(size_t)i * D + d] * h->k[(size_t)j * D + d];
        double p = exp(s * h->scale - m);
        l += p;
        for (int d = 0; d < D; d++) o[d] += p * h->v[(size_t)j * D + d];
    }
    for (int d = 0; d < D; d++) o[d] /= l;
    return m + log(l);
}

/* ---------------------------------------------------------------- comparing */

enum { E_DQ, E_DK, E_DV, E_LSE, E_O, E_N };
static const char *const E_NAME[E_N] = { "dQ", "dK", "dV", "lse of the given forward", "O of the given forward" };

typedef struct {
    double worst, maxabs; /* largest error / tolerance, largest |error| */
    size_t bad, n;
    char first[240];
} err_acc;
typedef struct {
    err_acc e[E_N];
} bwd_errs;

static void acc_elem(err_acc *a, long long bh, int row, int d, double got, double ref, double tol)
{
    double err = fabs(got - ref);
    a->n++;
    if (!(err <= tol) && !a->bad++)
        snprintf(a->first, sizeof a->first, "head %lld, row %d, d %d: %.6g where the reference is %.6g (tolerance %.3g)",
                 bh, row, d, got, ref, tol);
    if (isnan(err)) err = INFINITY;
    if (err / tol > a->worst) a->worst = err / tol;
    if (err > a->maxabs) a->maxabs = err;
}

#endif
