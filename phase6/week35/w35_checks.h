/* w35_checks.h — what week 35's checks expect, shared by the week's test
 * program (test_week35.c) and the instructor's judge (instructor/judge_w35.c,
 * which runs the student's code in a separate runner): the known answers of
 * Philox4x32-10 and curand's words, the case lists (shapes, alignment
 * mixes, probabilities) and the check of one element of y against the mask
 * the kernel wrote. Change a check here and both follow. Each draws its
 * cases' seeds and inputs from its own generator. */
#ifndef W35_CHECKS_H
#define W35_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* Random123's known answers for Philox4x32-10 (kat_vectors), which curand's
 * curand_Philox4x32_10 reproduces. */
static const struct { uint32_t ctr[4], key[2], out[4]; } W35_KAT[] = {
    { { 0, 0, 0, 0 }, { 0, 0 }, { 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u } },
    { { 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu }, { 0xffffffffu, 0xffffffffu },
      { 0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu } },
    { { 0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u }, { 0xa4093822u, 0x299f31d0u },
      { 0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u } },
};

/* (seed, offset, i) -> the 32-bit word curand_uniform4 turns into element i's
 * uniform, taken from curand itself (curand_init(seed, i / 4, 4 * offset),
 * curand4, word i % 4): i past 2^32 groups, offsets past 2^32, every word. */
static const struct { unsigned long long seed, offset, i; uint32_t word; } W35_WORDS[] = {
    { 0x0000000000000000ull, 0x0ull, 0ull, 0x6627e8d5u },
    { 0x0000000000000000ull, 0x0ull, 1ull, 0xe169c58du },
    { 0x0000000000000000ull, 0x0ull, 2ull, 0xbc57ac4cu },
    { 0x0000000000000000ull, 0x0ull, 3ull, 0x9b00dbd8u },
    { 0x0000000000000000ull, 0x0ull, 4ull, 0x844515e1u },
    { 0x0000000001352903ull, 0x0ull, 12345ull, 0x442efd41u },
    { 0x0000000001352903ull, 0x1ull, 12345ull, 0x9072b8d9u },
    { 0x0000000001352904ull, 0x0ull, 12345ull, 0x1567075eu },
    { 0x9e3779b97f4a7c15ull, 0x3ull, 17179869190ull, 0xa0bd0582u },
    { 0x000000000000002aull, 0x100000005ull, 2147483650ull, 0xa0401ea6u },
    { 0xffffffffffffffffull, 0x3fffffffffffffffull, 17179869183ull, 0xa9402a01u },
    { 0x0000000000000007ull, 0x2ull, 1023ull, 0x0f5a8b70u },
};

/* The words philox_uniform is checked on, bit for bit. */
static const uint32_t W35_UNIFORM_XS[] = { 0u,          1u,          255u,        256u,       0x7fffffffu,
                                           0x80000000u, 0xffffff7fu, 0xffffff80u, 0xffffffffu };

/* w35.dropout's shapes, their p (shape i at W35_PS[i % 6]) and alignment
 * mixes (x, bias, residual, y offsets in floats; the mask's in bytes, where
 * 4 keeps a 4-byte store possible): each pointer alone, then several. */
static const float W35_PS[] = { 0.1f, 0.5f, 0.9f, 0.0f, 1.0f, 0.25f };

static const int W35_SHAPES[][2] = { { 0, 7 },     { 7, 0 },     { -3, 8 },     { 1, 1 },     { 1, 3 },
                                     { 3, 5 },     { 2, 4 },     { 1, 5 },      { 5, 1023 },  { 33, 1024 },
                                     { 17, 4097 }, { 1000, 257 }, { 300, 4096 }, { 70000, 8 }, { 4, 8192 },
                                     { 1000, 1 },   { 2, 300001 }, { 1, 1048576 } };

static const size_t W35_OFFS[][5] = { { 0, 0, 0, 0, 0 }, { 1, 0, 0, 0, 0 }, { 0, 1, 0, 0, 0 }, { 0, 0, 1, 0, 0 },
                                      { 0, 0, 0, 1, 0 }, { 0, 0, 0, 0, 1 }, { 0, 0, 0, 0, 2 }, { 0, 0, 0, 0, 4 },
                                      { 1, 1, 1, 3, 3 }, { 2, 3, 1, 0, 1 } };

/* w35.mask-model's cases: both paths, a group split across rows (cols % 4
 * != 0), a mask 1 byte in; case 5 runs at an offset past 2^32. */
static const struct { int rows, cols; float p; size_t om; } W35_MODEL[] = {
    { 1, 1, 0.5f, 0 }, { 3, 7, 0.5f, 0 }, { 129, 1000, 0.1f, 0 }, { 64, 4096, 0.5f, 0 },
    { 33, 2048, 0.9f, 1 }, { 257, 1023, 0.3f, 0 }, { 2, 8192, 0.7f, 0 }, { 500, 4, 0.5f, 0 },
};

/* w35.mask-stats' p: 2051 x 4096 (the float4 path) for the first five, 2051
 * x 4095 misaligned (the scalar path) for the last. */
static const float W35_STAT_P[] = { 0.0f, 0.1f, 0.5f, 0.9f, 1.0f, 0.3f };

/* w35.deterministic's cases: the scalar path, the float4 one, a tiny one. */
static const struct { int rows, cols; float p; } W35_DET[] = { { 96, 1000, 0.5f }, { 64, 4096, 0.1f }, { 3, 7, 0.3f } };

/* scale = 1 / (1 - p) in float, as dropout.h has it (p = 1: unused). */
static inline float w35_scale(float p) { return p < 1.0f ? 1.0f / (1.0f - p) : 0.0f; }

/* One element of y against the mask byte m the kernel wrote. A kept
 * element must be within one ulp of y plus one ulp of the scaled term
 * (x + b) * scale of the exact r + (x + b) * scale (x + b rounded to float
 * first, as the kernel adds them): fmaf rounds once, a multiply and an add
 * twice, both pass. Where that fmaf is not finite (NaN or Inf inputs), y
 * must be the same NaN or infinity. A dropped element gives r exactly; a
 * mask byte above 1 is wrong. 1 when right; *want the expected value. */
static inline int w35_y_ok(float x, float b, float r, float scale, float got, uint8_t m, double *want)
{
    const float v = x + b;
    if (m > 1) return *want = NAN, 0;
    if (m == 0) return *want = r, got == r;
    const float f = fmaf(v, scale, r);
    if (!isfinite(f)) return *want = f, isnan(f) ? isnan(got) : got == f;
    const double term = (double)v * scale, exact = (double)r + term;
    const double tol = (fabs(exact) + fabs(term)) * 0x1p-23 + 0x1p-126;
    *want = exact;
    return isfinite(got) && fabs((double)got - exact) <= tol;
}

/* w35.mask-stats' counts over a rows x cols mask: kept overall and for each
 * lane of a group of four (i % 4), pairs of neighbours (2j, 2j+1) both kept,
 * and elements equal to the one below (rows 2j and 2j+1), with how many of
 * each were looked at. */
typedef struct {
    size_t n, kept, lane[4], lane_n[4], both, pairs, agree, vpairs;
} w35_mask_counts;

static inline w35_mask_counts w35_count_mask(const uint8_t *m, int rows, int cols)
{
    w35_mask_counts k = { 0 };
    const size_t n = rows > 0 && cols > 0 ? (size_t)rows * (size_t)cols : 0, c = cols > 0 ? (size_t)cols : 0;
    k.n = n;
    for (size_t i = 0; i < n; i++) {
        k.kept += m[i], k.lane[i % 4] += m[i], k.lane_n[i % 4]++;
        if (i % 2 == 0 && i + 1 < n) k.both += m[i] & m[i + 1], k.pairs++;
    }
    for (size_t row = 0; row + 1 < (size_t)(rows > 0 ? rows : 0); row += 2)
        for (size_t j = 0; j < c; j++) k.agree += m[row * c + j] == m[(row + 1) * c + j], k.vpairs++;
    return k;
}

/* How many of a[0..n) and b[0..n) differ (w35.deterministic's masks). */
static inline size_t w35_count_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t d = 0;
    for (size_t i = 0; i < n; i++) d += a[i] != b[i];
    return d;
}

#endif
