/* w33_checks.h — what week 33's checks expect, shared by the week's test
 * program (test_week33.c) and the instructor's judge (instructor/judge_w33.c,
 * which runs the student's code in a separate runner): the shapes, how each
 * case's inputs are drawn from its generator, the double reference of the
 * scores, the masks' rule, the scores' tolerance and the bad sizes. Change
 * a check here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below).
 * The judge draws case i from wb_rng_for_seed(seed, TAG, i) through the same
 * functions, so for a seed it gets the test's cases and inputs alike. */
#ifndef W33_CHECKS_H
#define W33_CHECKS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "wb_rand.h"

#define W33_COUNT(a)      (sizeof(a) / sizeof((a)[0]))
#define W33_NEG_INF_BITS  0xff800000u

#define W33_QKT_TAG       "qkt_shapes_fn"
#define W33_QKT_ERR_TAG   "qkt_errors_fn"
#define W33_MASK_TAG      "mask_exact_fn"
#define W33_MASK_2G_TAG   "mask_past_2g_fn"
#define W33_SCORES_TAG    "scores_masked_fn"

static inline uint32_t w33_f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

typedef struct { int B, H, L, D; } w33_shape4;
typedef struct { int B, H, L; } w33_shape3;

/* QK^T's shapes: L = 1, L odd and past a warp, L = 1000, D = 1, D = 128, empty shapes. */
static const w33_shape4 W33_SHAPES[] = {
    { 1, 1, 1, 1 },   { 1, 1, 1, 64 }, { 2, 3, 31, 16 },  { 1, 2, 33, 64 }, { 2, 2, 100, 128 },
    { 3, 1, 257, 32 }, { 2, 4, 64, 1 }, { 1, 1, 1000, 40 }, { 1, 1, 0, 8 },   { 0, 4, 16, 16 },
};
/* The masks' shapes. */
static const w33_shape3 W33_MSHAPES[] = {
    { 1, 1, 1 }, { 2, 3, 31 }, { 1, 2, 33 }, { 3, 2, 100 }, { 4, 2, 37 }, { 2, 1, 257 }, { 1, 1, 1025 },
    { 2, 3, 1500 }, { 5, 3, 0 }, { 0, 2, 9 },
};

/* The bad sizes: qkt_scores' (on L = 8, D = 4 buffers), refused with
 * CUBLAS_STATUS_INVALID_VALUE, and mask_scores' (on 16 floats), refused with
 * cudaErrorInvalidValue; neither writes anything. */
enum { W33_ERR_L = 8, W33_ERR_D = 4 };
typedef struct { int B, H, L, D; const char *what; } w33_bad4;
typedef struct { int B, H, L; } w33_bad3;
static const w33_bad4 W33_QKT_BAD[] = {
    { 1, 1, W33_ERR_L, 0, "D = 0" },   { 1, 1, W33_ERR_L, -4, "D = -4" }, { 1, 1, -1, W33_ERR_D, "L = -1" },
    { -1, 1, W33_ERR_L, W33_ERR_D, "B = -1" }, { 1, -2, W33_ERR_L, W33_ERR_D, "H = -2" },
    { 65536, 65536, W33_ERR_L, W33_ERR_D, "B * H = 2^32 (past INT_MAX)" },
};
static const w33_bad3 W33_MASK_BAD[] = { { -1, 1, 4 }, { 1, -1, 4 }, { 1, 1, -4 } };

/* ref[bh, i, j] = (1/sqrt(D)) sum_d Q[bh, i, d] K[bh, j, d] in double, and
 * mag[...] = (1/sqrt(D)) sum_d |Q| |K|, the scale of its rounding error. */
static inline void w33_ref_scores(const float *Q, const float *K, w33_shape4 s, double *ref, double *mag)
{
    double scale = 1.0 / sqrt((double)s.D);
    size_t heads = (size_t)s.B * s.H, L = (size_t)s.L, D = (size_t)s.D;
    for (size_t bh = 0; bh < heads; bh++)
        for (size_t i = 0; i < L; i++) {
            const float *q = Q + (bh * L + i) * D;
            for (size_t j = 0; j < L; j++) {
                const float *k = K + (bh * L + j) * D;
                double acc = 0, a = 0;
                for (size_t d = 0; d < D; d++) acc += (double)q[d] * k[d], a += fabs((double)q[d] * k[d]);
                ref[(bh * L + i) * L + j] = acc * scale;
                mag[(bh * L + i) * L + j] = a * scale;
            }
        }
}

/* Is entry (b, *, i, j) masked? (mask.h's rule) */
static inline int w33_masked(int i, int j, int causal, const int *kv_len, int b)
{
    return (causal && j > i) || (kv_len && j >= kv_len[b]);
}

/* Scores wrong of n: where ref is -inf the entry must be exactly -inf (its
 * bits); elsewhere |got - ref| <= 1e-7 + 2 D 2^-24 mag, the worst-case error
 * of an FP32 dot product of D terms (gamma_D = D u, doubled for the scale's
 * rounding), whatever order cuBLAS sums in. A NaN never passes. *first: the
 * first wrong (set when the count is not 0). */
static inline size_t w33_scores_bad(const float *got, const double *ref, const double *mag, size_t n, int D,
                                    size_t *first)
{
    size_t bad = 0;
    for (size_t k = 0; k < n; k++) {
        int ok;
        if (isinf(ref[k]) && ref[k] < 0) ok = w33_f2u(got[k]) == W33_NEG_INF_BITS;
        else ok = isfinite(got[k]) && fabs(got[k] - ref[k]) <= 1e-7 + 2.0 * D * ldexp(1, -24) * mag[k];
        if (!ok && bad++ == 0) *first = k;
    }
    return bad;
}

/* Valid key lengths for a padding mask: batch 0 none valid, the last batch
 * all, the others anywhere in [0, L]; one batch alone takes 0, L or a random
 * length by `pick`. */
static inline void w33_draw_kv_len(wb_rng *rng, int *kv, int B, int L, int pick)
{
    for (int b = 0; b < B; b++) kv[b] = (int)wb_rng_int(rng, 0, L);
    if (B == 1) kv[0] = pick % 3 == 0 ? 0 : pick % 3 == 1 ? L : kv[0];
    else if (B > 1) kv[0] = 0, kv[B - 1] = L;
}

/* Inputs uniform in [-r, r]: r = 1 gives scores of a few tenths, r = 100
 * scores of some thousands (logits of +-1e4 at the extremes). */
static inline void w33_fill_qk(wb_rng *rng, float *Q, float *K, size_t n, float r)
{
    wb_fill_uniform_f32(rng, Q, n, -r, r);
    wb_fill_uniform_f32(rng, K, n, -r, r);
}

/* Scores no GEMM gives, to prove the mask neither reads nor rounds what it
 * keeps: +-1e4, NaN, +-Inf, -0, -inf already there. */
static inline void w33_fill_adversarial(wb_rng *rng, float *S, size_t n)
{
    const float special[] = { NAN, INFINITY, -INFINITY, -0.0f, 1e4f, -1e4f };
    wb_fill_uniform_f32(rng, S, n, -1e4f, 1e4f);
    for (size_t k = 0; k < n; k++)
        if (wb_rng_int(rng, 0, 15) == 0) S[k] = special[wb_rng_int(rng, 0, (int64_t)W33_COUNT(special) - 1)];
}

#endif
