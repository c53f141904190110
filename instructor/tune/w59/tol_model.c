/* tol_model.c — week 59's tolerance, checked on the CPU (instructor-only).
 *
 * A model of what the reference kernel rounds (phase6/week59/solution/
 * flash_bwd.cu): FP32 scores,
 * P = 2^(s sl2 - lse2) in FP32, P and dS rounded to bf16 before the
 * products, FP32 sums, bf16 outputs; a forward's O from bf16 P (week 38's; the
 * given one sums in FP32, closer still) and its FP32 lse. Each case is
 * compared with test_week59.c's reference and bound (the same code: both
 * include phase6/week59/support/bwd_ref.h), and
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

#include "support/bwd_ref.h" /* test_week59.c's reference and bound, the same code */

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
