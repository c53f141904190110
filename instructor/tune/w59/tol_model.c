/* tol_model.c — week 59's tolerance, checked on the CPU (instructor-only).
 *
 * A model of what the reference kernel rounds (phase6/week59/solution/
 * flash_bwd.cu): FP32 scores,
 * P = 2^(s sl2 - lse2) in FP32, P and dS rounded to bf16 before the
 * products, FP32 sums, bf16 outputs; a forward's O from bf16 P (week 38's; the
 * given one sums in FP32, closer still) and its FP32 lse. Each case is
 * compared with test_week59.c's reference and bound (the
 * code between the two rules below is a copy of it: keep them in step), and
 * prints the largest error / tolerance of dQ, dK, dV, lse and O. A right
 * model must stay under 1; the three mistakes (bug 1: Drow left out, 2: the
 * causal mask off by one, 3: dK without scale) must land far above it.
 *
 *   make tune-w59-tol        (no GPU needed; a second or two) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- copied from phase6/week59/test_week59.c ---------------------------- */
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
/* ---- end of the copy ----------------------------------------------------- */

/* Round to bf16 (nearest, ties to even), as __float2bfloat16_rn. */
static float bf(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    u = (u + 0x7fffu + ((u >> 16) & 1)) & 0xffff0000u;
    memcpy(&x, &u, 4);
    return x;
}

static double urand(unsigned long long *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

/* One head. bug: 0 none, 1 Drow left out, 2 causal mask off by one (key j
 * seen only when j < i), 3 dK without scale. */
static void run(int S, int D, int causal, float qk, float scale, int bug, unsigned long long seed)
{
    unsigned long long st = seed;
    const size_t n = (size_t)S * D;
    float *q = malloc(n * 4), *k = malloc(n * 4), *v = malloc(n * 4), *g = malloc(n * 4), *o = malloc(n * 4),
          *lse = malloc(S * 4), *s = malloc((size_t)S * S * 4);
    for (size_t i = 0; i < n; i++) {
        q[i] = bf((float)(-qk + 2 * qk * urand(&st)));
        k[i] = bf((float)(-qk + 2 * qk * urand(&st)));
        v[i] = bf((float)(-1 + 2 * urand(&st)));
        g[i] = bf((float)(-1 + 2 * urand(&st)));
    }
    const float sl2 = scale * 1.4426950408889634f;
    /* The forward: FP32 scores, lse in FP32, O from bf16 P, rounded to bf16. */
    for (int i = 0; i < S; i++) {
        float m = -INFINITY, l = 0, acc[128] = { 0 };
        for (int j = 0; j < S; j++) {
            float a = 0;
            for (int d = 0; d < D; d++) a += q[i * D + d] * k[j * D + d];
            s[(size_t)i * S + j] = a;
            if (!causal || j <= i) m = fmaxf(m, a);
        }
        for (int j = 0; j < S; j++) {
            if (causal && j > i) continue;
            float p = exp2f(fmaf(s[(size_t)i * S + j], sl2, -m * sl2)), pb = bf(p);
            l += p;
            for (int d = 0; d < D; d++) acc[d] += pb * v[j * D + d];
        }
        for (int d = 0; d < D; d++) o[i * D + d] = bf(acc[d] / l);
        lse[i] = (m * sl2 + log2f(l)) * 0.69314718f;
    }
    /* The backward. */
    float *dq = calloc(n, 4), *dk = calloc(n, 4), *dv = calloc(n, 4), *dr = malloc(S * 4);
    for (int i = 0; i < S; i++) {
        float a = 0;
        for (int d = 0; d < D; d++) a = fmaf(o[i * D + d], g[i * D + d], a);
        dr[i] = a;
    }
    for (int j = 0; j < S; j++)
        for (int i = 0; i < S; i++) {
            int vis = !causal || j <= i;
            if (bug == 2) vis = !causal || j < i || (i == 0 && j == 0);
            if (!vis) continue;
            float p = exp2f(fmaf(s[(size_t)i * S + j], sl2, -lse[i] * 1.4426950408889634f)), dp = 0;
            for (int d = 0; d < D; d++) dp += g[i * D + d] * v[j * D + d];
            float pb = bf(p), dsb = bf(p * (dp - (bug == 1 ? 0.f : dr[i])));
            for (int d = 0; d < D; d++) {
                dv[j * D + d] += pb * g[i * D + d];
                dk[j * D + d] += dsb * q[i * D + d];
                dq[i * D + d] += dsb * k[j * D + d];
            }
        }
    for (size_t x = 0; x < n; x++) {
        dq[x] = bf(dq[x] * scale);
        dk[x] = bf(dk[x] * (bug == 3 ? 1.f : scale));
        dv[x] = bf(dv[x]);
    }
    double *drow = malloc(S * 8), *ep = malloc(S * 8), *dl = malloc(S * 8), r1[128], b1[128], r2[128], b2[128];
    ref_head h = { S, D, causal, scale, q, k, v, o, g, lse, drow, ep, dl };
    ref_prepare(&h);
    bwd_errs e;
    memset(&e, 0, sizeof e);
    for (int i = 0; i < S; i++) {
        ref_dq_row(&h, i, r1, b1);
        for (int d = 0; d < D; d++)
            acc_elem(&e.e[E_DQ], 0, i, d, dq[i * D + d], r1[d], ATOL + RTOL * fabs(r1[d]) + b1[d]);
        ref_dkv_row(&h, i, r1, b1, r2, b2);
        for (int d = 0; d < D; d++) {
            acc_elem(&e.e[E_DK], 0, i, d, dk[i * D + d], r1[d], ATOL + RTOL * fabs(r1[d]) + b1[d]);
            acc_elem(&e.e[E_DV], 0, i, d, dv[i * D + d], r2[d], ATOL + RTOL * fabs(r2[d]) + b2[d]);
        }
        double l = ref_fwd_row(&h, i, r1);
        acc_elem(&e.e[E_LSE], 0, i, 0, lse[i], l, 1e-5 + ep[i] + 0x1p-18 * fabs(l));
        for (int d = 0; d < D; d++) acc_elem(&e.e[E_O], 0, i, d, o[i * D + d], r1[d], O_ATOL + O_RTOL * fabs(r1[d]));
    }
    printf("S=%4d D=%3d %-10s |q|,|k|<=%-4g scale %.3f bug %d: of tol (max |err|):", S, D,
           causal ? "causal" : "non-causal", qk, scale, bug);
    for (int t = 0; t < E_N; t++) printf(" %s %.3f (%.2g)", t < 3 ? E_NAME[t] : t == 3 ? "lse" : "O", e.e[t].worst, e.e[t].maxabs);
    printf("\n");
    free(q), free(k), free(v), free(g), free(o), free(lse), free(s), free(dq), free(dk), free(dv), free(dr);
    free(drow), free(ep), free(dl);
}

int main(void)
{
    run(200, 64, 0, 3, 0.125f, 0, 1);
    run(200, 128, 1, 3, 0.0884f, 0, 2);
    run(333, 128, 0, 3, 0.0884f, 0, 3);
    run(300, 64, 1, 12, 0.125f, 0, 4);
    run(257, 128, 0, 1, 0.3f, 0, 5);
    run(300, 64, 1, 1, 1.0f, 0, 6);
    run(1000, 64, 0, 3, 0.125f, 0, 7);
    for (int bug = 1; bug <= 3; bug++) run(200, 64, 1, 3, 0.125f, bug, 1);
    return 0;
}
