/* w38_checks.h — what week 38's correctness checks expect, shared by the
 * week's test program (test_week38.c) and the instructor's judge
 * (instructor/judge_w38.c, which runs the student's code in a separate
 * runner): the double reference, the tolerances, the cases and the bf16
 * draw. Change a check here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below).
 * The judge draws case i from wb_rng_for_seed(seed, TAG, i) through the
 * same functions, so for a seed it gets the test's cases and inputs alike. */
#ifndef W38_CHECKS_H
#define W38_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "wb_f16.h" /* wb_f32_to_bf16, wb_bf16_to_f32 */
#include "wb_rand.h"

#define W38_CASES_TAG "fwd_cases_fn" /* test_week38.c's fwd_cases */
#define W38_LONG_TAG  "fwd_long_fn"  /* and its fwd_long */

/* One output row in double: o = softmax(scale q K^T) V over the keys the
 * query sees (all S, or 0..row when causal). q is D floats; kh and vh are one
 * head's S x D keys and values as floats (the bf16 values, exactly); sc is
 * scratch of S doubles. Returns the row's log-sum-exp, m + log(l). */
static double ref_row(const float *q, const float *kh, const float *vh, int S, int D, int row, int causal,
                    double scale, double *sc, double *out)
{
    int n = causal ? row + 1 : S;
    double m = -INFINITY;
    for (int j = 0; j < n; j++) {
        const float *k = kh + (size_t)j * D;
        double s = 0;
        for (int d = 0; d < D; d++) s += (double)q[d] * k[d];
        sc[j] = s * scale;
        if (sc[j] > m) m = sc[j];
    }
    double l = 0;
    for (int j = 0; j < n; j++) l += (sc[j] = exp(sc[j] - m));
    for (int d = 0; d < D; d++) out[d] = 0;
    for (int j = 0; j < n; j++) {
        const float *v = vh + (size_t)j * D;
        for (int d = 0; d < D; d++) out[d] += sc[j] * v[d];
    }
    for (int d = 0; d < D; d++) out[d] /= l;
    return m + log(l);
}

/* Tolerances (README, "Checking a BF16 kernel"). bf16 keeps 8 significant
 * bits: rounding is off by at most 2^-8 of the value. With |v| <= 1: P
 * rounded to bf16 moves O by at most 2^-8 (each weight off by <= 2^-8 of
 * itself), O rounded to bf16 by 2^-8 |O|; the FP32 sums and ex2.approx add
 * ~1e-6. Bound 0.0039 + 0.0039 |O|, under 5e-3 + 8e-3 |O|. A
 * wrong mask or a lost rescale moves O by 0.05 to 1 on these inputs. With
 * logits near 1e4 the FP32 score itself is off by ~1e-2 (its last bits), which
 * can move O by ~1e-2 where two keys nearly tie: atol 2e-2 there. */
#define ATOL 5e-3
#define RTOL 8e-3
#define ATOL_BIG_LOGITS 2e-2

/* lse, FP32 ln 2 (m sl2 + log2 l) against the double m + log(l) on the same
 * bf16 inputs. No bf16 rounding reaches it (l sums the FP32 weights, not the
 * bf16 P), so its tolerance is FP32's:
 *   - m: the largest score, rounded a few times on its way (times sl2, the
 *     add of log2 l, the product by ln 2), 5 roundings of |lse| at most
 *     (|m| <= |lse| + log S): rtol 1e-6;
 *   - l: a sum of positive terms (ex2.approx within 2^-22 each), carried
 *     from key tile to key tile by one multiply-add: its relative error,
 *     log l's absolute one, stays under (T + 32) 2^-23 for T tiles of 32 keys
 *     (the smallest tile of the reference's variants);
 *   - the FP32 scores (the mma's sums of D products): about 1e-6 here
 *     (|q|, |k| <= 3), 2e-5 allowed; near 1e4 the 5e-2 of a few last bits
 *     of each of the D / 16 partial sums.
 * A slip (a log in the wrong base, sl2 or m left out, the quad's partial l,
 * a row shifted) is off by far more on almost every row. */
#define LSE_RTOL 1e-6
static double lse_atol(int S, int big) { return (big ? 5e-2 : 2e-5) + ((S + 31) / 32 + 32) * 0x1p-23; }

typedef struct {
    int B, H, S, D, causal, big; /* big: scale 1 and |q|, |k| <= 50, logits ~ 1e4 */
} fa_case;

static const fa_case CASES[] = {
    { 1, 1, 1, 64, 0, 0 },    { 1, 1, 1, 128, 1, 0 },   { 1, 2, 17, 64, 1, 0 },   { 2, 1, 17, 128, 0, 0 },
    { 1, 1, 64, 128, 1, 0 },  { 1, 1, 127, 64, 0, 0 },  { 1, 1, 128, 128, 1, 0 }, { 1, 2, 129, 128, 0, 0 },
    { 2, 2, 129, 64, 1, 0 },  { 1, 1, 200, 128, 1, 0 }, { 1, 3, 333, 64, 0, 0 },  { 2, 1, 333, 128, 1, 0 },
    { 1, 1, 1031, 128, 0, 0 }, { 1, 1, 1031, 64, 1, 0 }, { 1, 2, 300, 128, 0, 1 }, { 1, 2, 300, 128, 1, 1 },
    { 1, 1, 513, 64, 0, 1 },  { 1, 1, 513, 64, 1, 1 },
};

/* Host inputs: n bf16 values uniform in [lo, hi], and the same as floats. */
static void draw_bf16(wb_rng *rng, uint16_t *h, float *f, size_t n, float lo, float hi)
{
    wb_fill_uniform_f32(rng, f, n, lo, hi);
    for (size_t i = 0; i < n; i++) h[i] = wb_f32_to_bf16(f[i]), f[i] = wb_bf16_to_f32(h[i]);
}

/* The rows a check compares, one after another: rows[0 .. per_head) of
 * every head (every row when rows is NULL). got and got_lse are the whole
 * O (bf16) and lse read back; into g and gl the compared rows' O as floats
 * and lse, into ref and ref_lse their double reference (sc: S doubles of
 * scratch). */
static void w38_rows(const fa_case *c, const int *rows, int per_head, const float *fq, const float *fk,
                     const float *fv, const uint16_t *got, const float *got_lse, double scale, double *sc, float *g,
                     float *gl, double *ref, double *ref_lse)
{
    size_t hs = (size_t)c->S * c->D, at = 0, atl = 0;
    for (int bh = 0; bh < c->B * c->H; bh++)
        for (int r = 0; r < per_head; r++) {
            int row = rows ? rows[r] : r;
            size_t base = bh * hs + (size_t)row * c->D;
            ref_lse[atl] = ref_row(fq + base, fk + bh * hs, fv + bh * hs, c->S, c->D, row, c->causal, scale, sc,
                                   ref + at);
            gl[atl++] = got_lse[(size_t)bh * c->S + row];
            for (int d = 0; d < c->D; d++) g[at + d] = wb_bf16_to_f32(got[base + d]);
            at += c->D;
        }
}

#endif
