/* w34_checks.h — what week 34's checks expect, shared by the week's test
 * program (test_week34.c) and the instructor's judge (instructor/judge_w34.c,
 * which runs the student's code in a separate runner): the traffic model's
 * own count and its shapes, the softmax's row kinds, shapes, double
 * reference and tolerance, the PV and attention shapes, how their inputs
 * are drawn, their double references and tolerances, and the bad sizes.
 * Change a check here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below).
 * The judge draws case i from wb_rng_for_seed(seed, TAG, i) through the same
 * functions, so for a seed it gets the test's cases and inputs alike. */
#ifndef W34_CHECKS_H
#define W34_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "wb_rand.h"

#define W34_COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define W34_U        5.9604644775390625e-8 /* 2^-24, FP32's unit roundoff */

#define W34_SOFTMAX_TAG   "softmax_rows_fn"
#define W34_PV_TAG        "pv_shapes_fn"
#define W34_ATTENTION_TAG "attention_e2e_fn"

/* Elements wrong of n, got against ref at tol[k] (NaN never passes where
 * ref is a number; ref NaN wants NaN); *first: the first (set when the count
 * is not 0). */
static inline size_t w34_tol_bad(const float *got, const double *ref, const double *tol, size_t n, size_t *first)
{
    size_t bad = 0;
    for (size_t k = 0; k < n; k++) {
        int ok = isnan(ref[k]) ? isnan(got[k]) : isfinite(got[k]) && fabs(got[k] - ref[k]) <= tol[k];
        if (!ok && bad++ == 0) *first = k;
    }
    return bad;
}

/* ---------------------------------------------------------------- traffic model (CPU) */

/* The test's own count, in floats, gathered the other way round: the O(L D)
 * part (Q and K read by qkt, V read and O written by pv) and the O(L^2) part
 * (S written by qkt, read and written by softmax, read by pv; the causal
 * mask's writes). */
static inline double w34_model_floats(double B, double H, double L, double D, int causal)
{
    double per_head = 4 * L * D                      /* Q, K, V in, O out */
                      + L * L * (1 + 2 + 1)          /* S written, softmax reads and writes, pv reads */
                      + (causal ? L * (L - 1) / 2 : 0); /* the causal mask writes its half */
    return B * H * per_head;
}

typedef struct { int B, H, L, D; } w34_shape4;
/* The traffic model's shapes. */
static const w34_shape4 W34_TRAFFIC[] = {
    { 1, 1, 1, 1 }, { 2, 3, 31, 16 }, { 4, 16, 4096, 128 }, { 8, 16, 2048, 64 }, { 4, 16, 16384, 128 }, { 1, 1, 0, 64 },
};

/* ---------------------------------------------------------------- softmax */

/* Row kinds, by row index: 0 scores in [-5, 5]; 1 logits of +-1e4; 2 about
 * half the entries masked (-inf), the rest in [-30, 30]; 3 every entry
 * masked (the output must be zeros); 4 a causal row: the first (r % L) + 1
 * entries in [-8, 8], the rest masked; 5 one NaN among [-5, 5] (a NaN row). */
static inline void w34_fill_softmax_rows(wb_rng *rng, float *S, size_t rows, int L)
{
    if (L == 0) return;
    for (size_t r = 0; r < rows; r++) {
        float *x = S + r * (size_t)L;
        int kind = (int)(r % 6);
        switch (kind) {
        case 0: wb_fill_uniform_f32(rng, x, (size_t)L, -5, 5); break;
        case 1: wb_fill_uniform_f32(rng, x, (size_t)L, -1e4f, 1e4f); break;
        case 2:
            wb_fill_uniform_f32(rng, x, (size_t)L, -30, 30);
            for (int j = 0; j < L; j++)
                if (wb_rng_int(rng, 0, 1)) x[j] = -INFINITY;
            break;
        case 3:
            for (int j = 0; j < L; j++) x[j] = -INFINITY;
            break;
        case 4:
            wb_fill_uniform_f32(rng, x, (size_t)L, -8, 8);
            for (int j = (int)(r % (size_t)L) + 1; j < L; j++) x[j] = -INFINITY;
            break;
        default:
            wb_fill_uniform_f32(rng, x, (size_t)L, -5, 5);
            x[wb_rng_int(rng, 0, L - 1)] = NAN;
        }
    }
}

/* The reference in double, and a tolerance for each output: expf's error
 * grows with |x - max| (x - max is rounded to 2^-24 of itself in float, and
 * exp turns an error in its argument into the same relative error), and the
 * sum of L positive terms in float errs by at most L u relative in any
 * order; 16 u covers expf's own error (a few ulp), 1/sum and the
 * product. Fully masked rows and masked entries want exact zeros (tolerance
 * 0), NaN rows NaN. */
static inline void w34_softmax_ref(const float *S, double *ref, double *tol, size_t rows, int L)
{
    for (size_t r = 0; r < rows; r++) {
        const float *x = &S[(size_t)L * r];
        double m = -INFINITY;
        int nan = 0;
        for (int j = 0; j < L; j++) {
            if (isnan(x[j])) nan = 1;
            else if (x[j] > m) m = x[j];
        }
        double s = 0;
        for (int j = 0; j < L; j++)
            if (!nan && x[j] != -INFINITY) s += exp((double)x[j] - m);
        for (int j = 0; j < L; j++) {
            size_t k = r * (size_t)L + j;
            if (nan) ref[k] = NAN, tol[k] = 0;
            else if (m == -INFINITY || x[j] == -INFINITY) ref[k] = 0, tol[k] = 0;
            else {
                ref[k] = exp((double)x[j] - m) / s;
                tol[k] = 1e-12 + ref[k] * W34_U * (16 + 2 * fabs((double)x[j] - m) + L);
            }
        }
    }
}

typedef struct { size_t rows; int L; } w34_sm_shape;
static const w34_sm_shape W34_SM_SHAPES[] = {
    { 1, 1 },   { 7, 1 },    { 3, 31 },   { 6, 32 },   { 5, 255 },  { 9, 256 },     { 6, 257 },  { 17, 1000 },
    { 6, 2048 }, { 7, 4096 }, { 6, 4097 }, { 6, 10000 }, { 6, 65536 }, { 0, 16 },    { 5, 0 },    { 6000, 64 },
};

/* The timed softmax: rows of 2048 scores in [-8, 8), out of place. */
enum { W34_SM_BENCH_L = 2048 };
#define W34_SM_BENCH_LO (-8.0f)
#define W34_SM_BENCH_HI 8.0f

/* ---------------------------------------------------------------- PV and attention */

/* PV's and attention's shapes (week 33's QK^T shapes). */
static const w34_shape4 W34_SHAPES[] = {
    { 1, 1, 1, 1 },   { 1, 1, 1, 64 }, { 2, 3, 31, 16 },  { 1, 2, 33, 64 }, { 2, 2, 100, 128 },
    { 3, 1, 257, 32 }, { 2, 4, 64, 1 }, { 1, 1, 1000, 40 }, { 1, 1, 0, 8 },   { 0, 4, 16, 16 },
};

/* PV's case s: P of weights (non-negative, summing to about 1, some exactly
 * 0) and V in [-1, 1] drawn from rng, O's reference in double and its
 * tolerance, the worst case of L FP32 steps, doubled. */
static inline void w34_pv_case(wb_rng *rng, w34_shape4 s, float *hP, float *hV, double *ref, double *tol)
{
    size_t heads = (size_t)s.B * s.H, L = (size_t)s.L, D = (size_t)s.D;
    size_t np = heads * L * L, nv = heads * L * D;
    wb_fill_uniform_f32(rng, hP, np, 0, 2.0f / (float)(L ? L : 1));
    for (size_t k = 0; k < np; k++)
        if (wb_rng_int(rng, 0, 7) == 0) hP[k] = 0;
    wb_fill_uniform_f32(rng, hV, nv, -1, 1);
    for (size_t bh = 0; bh < heads; bh++)
        for (size_t i = 0; i < L; i++)
            for (size_t d = 0; d < D; d++) {
                double acc = 0, mag = 0;
                for (size_t j = 0; j < L; j++) {
                    double t = (double)hP[(bh * L + i) * L + j] * hV[(bh * L + j) * D + d];
                    acc += t, mag += fabs(t);
                }
                ref[(bh * L + i) * D + d] = acc;
                tol[(bh * L + i) * D + d] = 1e-7 + 2.0 * L * W34_U * mag;
            }
}

/* pv_output's bad sizes (on L = 8, D = 4 buffers): CUBLAS_STATUS_INVALID_VALUE, nothing written. */
enum { W34_ERR_L = 8, W34_ERR_D = 4 };
typedef struct { int B, H, L, D; const char *what; } w34_bad4;
static const w34_bad4 W34_PV_BAD[] = {
    { 1, 1, W34_ERR_L, 0, "D = 0" }, { 1, 1, -1, W34_ERR_D, "L = -1" }, { -1, 1, W34_ERR_L, W34_ERR_D, "B = -1" },
    { 65536, 65536, W34_ERR_L, W34_ERR_D, "B * H = 2^32" },
};

/* Attention's case i (shape sh): Q and K in +-r (r = 4 on odd cases: scores
 * of several units, sharp rows, else 1), V in [-1, 1], and the padding
 * lengths (batch 0 none where B > 1, the last batch all; one batch alone
 * none on every third case). Returns r. */
static inline float w34_attention_inputs(wb_rng *rng, int i, w34_shape4 sh, float *hQ, float *hK, float *hV, int *kv)
{
    size_t n = (size_t)sh.B * sh.H * sh.L * sh.D;
    float r = i & 1 ? 4.0f : 1.0f;
    wb_fill_uniform_f32(rng, hQ, n, -r, r);
    wb_fill_uniform_f32(rng, hK, n, -r, r);
    wb_fill_uniform_f32(rng, hV, n, -1, 1);
    for (int b = 0; b < sh.B; b++) kv[b] = (int)wb_rng_int(rng, 0, sh.L);
    if (sh.B > 1) kv[0] = 0, kv[sh.B - 1] = sh.L;          /* no key at all; every key */
    else if (sh.B == 1) kv[0] = i % 3 == 0 ? 0 : kv[0];
    return r;
}

/* One output row of attention in double: query q (D floats), keys and values
 * of its head (L x D), the first `keep` keys visible. Writes o (D doubles) and
 * a tolerance per element; returns 0 when no key is visible (o = 0).
 *
 * The tolerance, from the FP32 steps (u = 2^-24):
 *   a score's error is at most 2 D u mag_j (mag_j = scale sum_d |q_d k_jd|:
 *   a dot product of D terms, as week 33);
 *   a weight's relative error is then at most twice the largest score error,
 *   plus 4 u (1 + max |s|) for exp of a rounded x - max, plus (L + 16) u
 *   for a float sum of L terms and the division;
 *   the PV sum of L terms adds 2 L u;
 * all of it relative to sum_j p_j |v_jd|, plus 1e-6. */
static inline int w34_attention_row(const float *q, const float *K, const float *V, int L, int D, int keep, double *o,
                                    double *tol, double *s, double *p)
{
    const double U = W34_U;
    double scale = 1.0 / sqrt((double)D), m = -INFINITY, magmax = 0, smax = 0;
    for (int d = 0; d < D; d++) o[d] = 0, tol[d] = 0;
    if (keep <= 0) return 0;
    for (int j = 0; j < keep; j++) {
        double acc = 0, mag = 0;
        for (int d = 0; d < D; d++) {
            double t = (double)q[d] * K[(size_t)j * D + d];
            acc += t, mag += fabs(t);
        }
        s[j] = acc * scale;
        if (s[j] > m) m = s[j];
        if (mag * scale > magmax) magmax = mag * scale;
        if (fabs(s[j]) > smax) smax = fabs(s[j]);
    }
    double sum = 0;
    for (int j = 0; j < keep; j++) sum += p[j] = exp(s[j] - m);
    double rel = 4.0 * D * U * magmax + 4.0 * U * (1 + smax) + (L + 16) * U + 2.0 * L * U;
    for (int j = 0; j < keep; j++) {
        p[j] /= sum;
        for (int d = 0; d < D; d++) {
            double v = V[(size_t)j * D + d];
            o[d] += p[j] * v;
            tol[d] += p[j] * fabs(v);
        }
    }
    for (int d = 0; d < D; d++) tol[d] = 1e-6 + rel * tol[d];
    return 1;
}

/* The reference of every output row of attention case sh with the mask
 * choice (causal, padded: kv), into ref and tol (B H L x D), and dead[row]:
 * 1 where the query sees no key (its row must be zeros). s, p: L doubles. */
static inline void w34_attention_ref(const float *hQ, const float *hK, const float *hV, w34_shape4 sh, int causal,
                                     const int *kv, double *ref, double *tol, char *dead, double *s, double *p)
{
    size_t heads = (size_t)sh.B * sh.H, L = (size_t)sh.L, D = (size_t)sh.D;
    for (size_t bh = 0; bh < heads; bh++)
        for (size_t i = 0; i < L; i++) {
            int keep = (int)L;
            if (causal && (int)i + 1 < keep) keep = (int)i + 1;
            if (kv && kv[bh / sh.H] < keep) keep = kv[bh / sh.H];
            dead[bh * L + i] = !w34_attention_row(hQ + (bh * L + i) * D, hK + bh * L * D, hV + bh * L * D, sh.L, sh.D,
                                                  keep, ref + (bh * L + i) * D, tol + (bh * L + i) * D, s, p);
        }
}

#endif
