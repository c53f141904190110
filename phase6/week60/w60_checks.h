/* w60_checks.h — what week 60's GEMM checks expect, shared by the week's
 * test program (test_week60.c) and the instructor's judge
 * (instructor/judge_w60.c, which runs the student's code in a separate
 * runner): the formats' model, the tolerance (the output's BF16 rounding
 * and the PTX ISA's FP8 accumulation allowance), the double reference, the
 * inputs' draws, the shapes, the full-range, special and large cases, the
 * refusals. Change a check here and both follow. */
#ifndef W60_CHECKS_H
#define W60_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fp8_convert.h" /* the formats' constants */
#include "support/fp8_fill.h"
#include "wb_cuda.h" /* wb_hmalloc */
#include "wb_f16.h" /* wb_bf16_to_f32 */
#include "wb_rand.h"

/* The test's own model of a format (the judge's too): a code's value from its fields (the
 * OCP FP8 definitions, fp8_convert.h), and a float's code as the nearest
 * entry of the sorted table of all non-negative finite values, ties to the
 * even code, saturated. A different road to the same numbers than bit
 * manipulation, which is what the exercise does. */
typedef struct {
    const char *name;
    int exp_bits, man_bits, has_inf; /* has_inf: exponent all ones is Inf/NaN (E5M2) */
    int top;                         /* the largest finite value's code */
    float (*from)(uint8_t);          /* the learner's */
    uint8_t (*to)(float);
    double table[128];               /* table[c]: the value of code c, c = 0 .. top */
} fmt8;

/* The value of `code` in format f: NaN, +-Inf, or sign * significand * 2^exponent. */
static double model_value(const fmt8 *f, unsigned code)
{
    const unsigned body = code & 0x7fu, field = body >> f->man_bits, frac = body & ((1u << f->man_bits) - 1);
    const unsigned ones = (1u << f->exp_bits) - 1;
    const double sgn = (code & 0x80u) ? -1.0 : 1.0;
    if (f->has_inf && field == ones) return frac == 0 ? sgn * INFINITY : NAN;
    if (!f->has_inf && body == 0x7fu) return NAN;
    const int bias = (1 << (f->exp_bits - 1)) - 1;
    const double scale = pow(2.0, (field == 0 ? 1 : (int)field) - bias);
    const double significand = (field == 0 ? 0.0 : 1.0) + (double)frac / (double)(1u << f->man_bits);
    return sgn * significand * scale;
}

static void model_init(fmt8 *f)
{
    for (int c = 0; c <= f->top; c++) f->table[c] = model_value(f, (unsigned)c);
}

/* The code the conversion must give for x (a NaN input: -1, any NaN code will do). */
static int model_code(const fmt8 *f, float x)
{
    if (isnan(x)) return -1;
    const unsigned sgn = signbit(x) ? 0x80u : 0u;
    const double a = fabs((double)x);
    if (a >= f->table[f->top]) return (int)(sgn | (unsigned)f->top);
    int lo = 0, hi = f->top; /* table[lo] <= a < table[hi] */
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (f->table[mid] <= a) lo = mid;
        else hi = mid;
    }
    const double below = a - f->table[lo], above = f->table[hi] - a;
    const int pick = below < above ? lo : above < below ? hi : (lo % 2 == 0 ? lo : hi);
    return (int)(sgn | (unsigned)pick);
}

static int is_nan_code(const fmt8 *f, unsigned code) { return isnan(model_value(f, code)); }

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* An output passes when, with s = scale_a * scale_b and P the exact sum of
 * the decoded products (both in double),
 *
 *     |got - s P| <= s E (1 + BF16_RTOL) + BF16_RTOL |s P| + 2^-133
 *
 * BF16_RTOL is the output's rounding to nearest BF16 (half a unit in the
 * last place, at most 2^-8 of the value) with room for the FP32 products
 * s = scale_a * scale_b and s * acc (2^-24 each); 2^-133 is half BF16's
 * least subnormal. E is the accumulation allowance, summed over the k32
 * slices g (one wgmma each) of the element:
 *
 *     T_g = |P before g| + sum over g of |a_k b_k|,
 *     E  += 0                     when T_g < 2^11 unit,
 *     E  += 2^-5 T_g              otherwise,
 *
 * where every product is a multiple of `unit` (2^-18 for any E4M3 data:
 * every E4M3 value is a multiple of 2^-9). The PTX ISA says FP8 wgmma with
 * FP32 accumulators accumulates "at higher than half precision but lower
 * than single precision" (9.2 and later, wgmma.mma_async): at least 12
 * significant bits, not 24. T_g bounds every partial sum of the slice in
 * any order and every addend: below 2^11 units they are integers of 11 bits
 * and add exactly in 12; above, each of the 32 products and the
 * accumulator may lose up to 2^-11 of T_g (a result rounded or truncated
 * to 12 bits), 33 2^-11 T_g, about 2^-5.95 T_g. So the tests use data whose
 * sums stay under 2^11 units (small integers times a power of two: E = 0,
 * and a dropped, repeated or misplaced product is a whole unit or more) for
 * the shapes, and E4M3 values from the whole range for the formats (E > 0:
 * a loose bound, but E5M2 read as E4M3, a wrong scale or a swapped operand
 * fails it by far). README, "The tolerance". */
#define BF16_RTOL (0x1p-8 + 0x1p-20)
#define BF16_ATOL 0x1p-133
/* |v| at or past this rounds to BF16 infinity: the largest finite BF16 is
 * (2 - 2^-7) 2^127, and halfway to 2^128 rounds up. */
#define BF16_INF_AT (0x1p128 * (1.0 - 0x1p-9))

/* One output's reference from its two rows of decoded values (K long). */
static void ref_dot(const float *a, const float *b, int K, double s, double unit, double *ref, double *allow)
{
    double P = 0, E = 0;
    const double lim = 2048.0 * unit;
    for (int k0 = 0; k0 < K; k0 += 32) {
        double part = 0, T = fabs(P);
        const int k1 = k0 + 32 < K ? k0 + 32 : K;
        for (int k = k0; k < k1; k++) {
            const double p = (double)a[k] * (double)b[k];
            part += p;
            T += fabs(p);
        }
        if (!(T < lim)) E += 0x1p-5 * T;
        P += part;
    }
    *ref = s * P;
    *allow = fabs(s) * E;
}

/* Is a BF16 result right for this reference and allowance? */
static int out_ok(uint16_t bits, double ref, double allow)
{
    const double got = (double)wb_bf16_to_f32(bits);
    if (isnan(ref)) return isnan(got);
    if (isnan(got)) return 0;
    const double tol = allow * (1 + BF16_RTOL) + BF16_RTOL * fabs(ref) + BF16_ATOL;
    if (isinf(got)) return (got > 0) == (ref > 0) && fabs(ref) + tol >= BF16_INF_AT;
    return fabs(got - ref) <= tol && fabs(ref) - tol < BF16_INF_AT;
}

/* Counting the wrong outputs of one check, with the first three described. */
typedef struct {
    size_t n, bad;
    char msg[600];
} out_cmp;

static void cmp_one(out_cmp *c, size_t i, size_t j, uint16_t bits, double ref, double allow)
{
    c->n++;
    if (out_ok(bits, ref, allow)) return;
    if (c->bad++ < 3) {
        const size_t used = strlen(c->msg);
        snprintf(c->msg + used, sizeof c->msg - used, "%sD[%zu][%zu] expected %.7g (tolerance %.3g) got %.7g (0x%04x)",
                 used ? "; " : "", i, j, ref,
                 allow * (1 + BF16_RTOL) + BF16_RTOL * fabs(ref) + BF16_ATOL, (double)wb_bf16_to_f32(bits), bits);
    }
}

typedef struct {
    int M, N, K;
    int pad;  /* ldd = N + pad */
    int off;  /* D starts `off` BF16 past a 256-byte boundary (1: 2-byte aligned, 2: 4-byte, 8: 16-byte) */
    int grid; /* CTAs (0: one per SM) */
} g_shape;

/* A scale: (1 + u) 2^j, j in -4 .. 4. */
static float random_scale(wb_rng *rng)
{
    return (float)ldexp(1.0 + wb_rng_unit(rng), (int)wb_rng_int(rng, -4, 4));
}

/* Inputs: codes on the host, their values (the model's decoding), scales. */
typedef struct {
    int M, N, K;
    uint8_t *a, *b;   /* M x K and N x K codes */
    float *av, *bv;   /* their values */
    float sa, sb;
    double unit;      /* every product is a multiple of it */
    const char *kind; /* for messages */
} g_data;

static void data_alloc(g_data *g, int M, int N, int K)
{
    g->M = M, g->N = N, g->K = K;
    const size_t na = (size_t)M * K, nb = (size_t)N * K;
    g->a = wb_hmalloc(na + 16), g->b = wb_hmalloc(nb + 16);
    g->av = wb_hmalloc(na * 4 + 16), g->bv = wb_hmalloc(nb * 4 + 16);
}

static void data_free(g_data *g) { free(g->a), free(g->b), free(g->av), free(g->bv); }

/* E4M3's model for the inputs' values (the learner's conversions not used). */
static fmt8 W60_E4M3_MODEL = { "E4M3", 4, 3, 0, FP8_E4M3_MAX_CODE, NULL, NULL, { 0 } };

static void data_decode(g_data *g)
{
    model_init(&W60_E4M3_MODEL);
    const size_t na = (size_t)g->M * g->K, nb = (size_t)g->N * g->K;
    for (size_t i = 0; i < na; i++) g->av[i] = (float)model_value(&W60_E4M3_MODEL, g->a[i]);
    for (size_t i = 0; i < nb; i++) g->bv[i] = (float)model_value(&W60_E4M3_MODEL, g->b[i]);
}

/* Small integers -range .. range times 2^ea (A) and 2^eb (B): sums exact in
 * any accumulator of 12 or more bits while they stay under 2^11 units. */
static void data_exact(g_data *g, wb_rng *rng, int range, int ea, int eb)
{
    const size_t na = (size_t)g->M * g->K, nb = (size_t)g->N * g->K;
    for (size_t i = 0; i < na; i++) g->a[i] = fp8_fill_code((int)wb_rng_int(rng, -range, range), ea);
    for (size_t i = 0; i < nb; i++) g->b[i] = fp8_fill_code((int)wb_rng_int(rng, -range, range), eb);
    g->sa = random_scale(rng), g->sb = random_scale(rng);
    g->unit = ldexp(1.0, ea + eb);
    g->kind = "small integers times powers of two";
    data_decode(g);
}

/* Codes drawn from all 254 non-NaN E4M3 codes: every exponent, subnormals,
 * +-448, both zeros. */
static void data_full_range(g_data *g, wb_rng *rng)
{
    const size_t na = (size_t)g->M * g->K, nb = (size_t)g->N * g->K;
    for (int side = 0; side < 2; side++) {
        uint8_t *c = side ? g->b : g->a;
        for (size_t i = 0, n = side ? nb : na; i < n; i++) {
            unsigned v = (unsigned)wb_rng_int(rng, 0, 253);
            c[i] = (uint8_t)(v < 127 ? v : v + 1); /* skip 0x7f */
        }
    }
    g->sa = random_scale(rng), g->sb = random_scale(rng);
    g->unit = 0x1p-18;
    g->kind = "E4M3 codes from the whole range";
    data_decode(g);
}

/* The reference of every output (M x N) and its allowance. */
static void data_reference(const g_data *g, double *ref, double *allow)
{
    const double s = (double)g->sa * (double)g->sb;
    for (int i = 0; i < g->M; i++)
        for (int j = 0; j < g->N; j++)
            ref_dot(g->av + (size_t)i * g->K, g->bv + (size_t)j * g->K, g->K, s, g->unit, &ref[(size_t)i * g->N + j],
                    &allow[(size_t)i * g->N + j]);
}

static const g_shape SHAPES[] = {
    { 1, 1, 16, 0, 0, 0 },         { 0, 5, 16, 0, 0, 0 },          { 5, 0, 16, 0, 0, 0 },
    { 5, 7, 0, 3, 1, 0 },          { 1, 1, 0, 0, 0, 0 },           { 3, 5, 16, 1, 1, 0 },
    { 64, 64, 64, 0, 0, 0 },       { 127, 129, 144, 0, 0, 0 },     { 128, 256, 128, 0, 0, 0 },
    { 129, 257, 272, 2, 0, 0 },    { 255, 256, 1008, 0, 1, 0 },    { 257, 511, 128, 0, 0, 0 },
    { 1000, 1000, 96, 0, 3, 0 },   { 64, 4096, 16, 0, 0, 0 },      { 4096, 64, 256, 0, 0, 0 },
    { 300, 300, 4096, 5, 0, 0 },   { 65, 33, 4112, 0, 2, 0 },
    /* more tiles than SMs (144 and 160 on an H100's 132): some CTAs walk two */
    { 2048, 2304, 128, 0, 0, 0 },  { 2048, 2560, 272, 1, 2, 0 },
    /* small grids: many tiles a CTA, k-tiles 2, 4, 6, 1, 5 (the ring's parity across tiles) */
    { 1000, 1000, 144, 0, 0, 1 },  { 1000, 1000, 400, 0, 0, 3 },   { 777, 1500, 656, 3, 1, 7 },
    { 513, 769, 16, 0, 0, 2 },     { 640, 1280, 528, 0, 0, 1 },
    /* the TMA-store epilogue on what it clips: N a multiple of 8 but not of
     * the 64-column box, padded ldd, D 16 bytes past a 256-byte boundary,
     * a tile's rows and columns past M and N, N below one box */
    { 127, 136, 144, 8, 0, 0 },    { 129, 264, 272, 0, 8, 3 },     { 3, 8, 16, 8, 8, 0 },
    { 1, 8, 16, 0, 0, 0 },         { 77, 304, 64, 8, 8, 0 },       { 200, 40, 128, 8, 0, 1 },
    /* N = 4096 with ldd a multiple of 8 (TMA), odd (registers), D only 4-byte aligned (register pairs) */
    { 64, 4096, 16, 8, 0, 0 },     { 64, 4096, 16, 1, 0, 0 },      { 64, 4096, 16, 0, 2, 0 },
    /* odd N with ldd padded to a multiple of 8: registers (a TMA store would write into the padding) */
    { 127, 129, 144, 7, 0, 0 },    { 129, 257, 272, 7, 8, 3 },
};

/* E4M3 values from the whole range (subnormals, 448, both zeros), where
 * the accumulation is not exact: the loose bound, short K. Both epilogues. */
static const g_shape FULL[] = {
    { 128, 256, 32, 0, 0, 0 }, { 77, 300, 64, 3, 1, 0 }, { 257, 136, 128, 0, 8, 0 }, { 64, 256, 256, 0, 0, 1 },
    { 200, 264, 144, 8, 0, 3 },
};

/* NaN codes, infinities made by the scales, subnormal inputs, negative zeros. */
static const struct {
    g_shape s;
    int what; /* 0: NaN in A and B; 1: outputs past BF16's range; 2: subnormal E4M3 inputs, -0 codes */
} SPECIAL[] = {
    { { 77, 300, 64, 3, 1, 0 }, 0 },   { { 128, 256, 128, 0, 0, 0 }, 0 }, { { 300, 520, 96, 0, 0, 1 }, 0 },
    { { 130, 136, 1024, 0, 0, 0 }, 1 }, { { 130, 133, 1024, 3, 1, 2 }, 1 }, { { 200, 264, 512, 0, 0, 0 }, 2 },
    { { 99, 101, 512, 1, 1, 3 }, 2 },
};

/* 512 tiles (3.88 waves on 132 SMs), 17 x 12 = 204 tiles with a partial
 * last k-tile, the same on 5 CTAs, and 2049 x 3008 on the TMA epilogue. */
static const g_shape LARGE[] = { { 4096, 4096, 4096, 0, 0, 0 },
                                 { 2049, 3001, 4112, 0, 0, 0 },
                                 { 2049, 3001, 4112, 0, 0, 5 },
                                 { 2049, 3008, 4112, 0, 0, 0 } };

typedef struct {
    int M, N, K;
    size_t ldd;
    int a_off, b_off; /* bytes past a 256-byte boundary */
    int null_scale;   /* 1: scale_a NULL, 2: scale_b NULL */
    int grid;
    const char *why;
} g_refused;

static const g_refused REFUSED[] = {
    { 8, 8, 24, 8, 0, 0, 0, 0, "K = 24 is not a multiple of 16 (24-byte rows)" },
    { 8, 8, 8, 8, 0, 0, 0, 0, "K = 8" },
    { 8, 8, 16, 7, 0, 0, 0, 0, "ldd < N" },
    { -1, 8, 16, 8, 0, 0, 0, 0, "M < 0" },
    { 8, -8, 16, 8, 0, 0, 0, 0, "N < 0" },
    { 8, 8, -16, 8, 0, 0, 0, 0, "K < 0" },
    { 8, 8, 16, 8, 8, 0, 0, 0, "A 8 bytes past a 16-byte boundary" },
    { 8, 8, 16, 8, 0, 1, 0, 0, "B 1 byte past a 16-byte boundary" },
    { 8, 8, 16, 8, 0, 0, 1, 0, "scale_a NULL" },
    { 8, 8, 16, 8, 0, 0, 2, 0, "scale_b NULL" },
    { 8, 8, 16, 8, 0, 0, 0, -1, "grid < 0" },
};

#endif
