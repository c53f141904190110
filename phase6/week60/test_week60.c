/* test_week60.c — week 60 (Phase 6's optional inference track): E4M3 and
 * E5M2 conversions checked exhaustively on the CPU, and an FP8 GEMM on the
 * tensor cores (E4M3 in, FP32 accumulate, per-tensor scales, BF16 out)
 * checked against a double-precision reference of the decoded inputs and
 * timed against cuBLASLt's FP8 GEMM on the same data. The GEMM is sm_90a
 * code: on a GPU that is not compute capability 9.0 its checkpoints are
 * SKIP, saying why. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>

#include "wb_harness.h"
#include "wb_cublas.h"
#include "wb_f16.h"
#include "fp8_convert.h"
#include "fp8_gemm.h"
#include "support/fp8_fill.h"
#include "support/yard_fp8_lt.h"
#include "w60_checks.h"

/* ---------------------------------------------------------------- the formats, independently */

/* The model (fmt8, model_value, model_code) is w60_checks.h's; these two
 * carry the learner's conversions beside it. */
static fmt8 E4M3 = { "E4M3", 4, 3, 0, FP8_E4M3_MAX_CODE, fp8_convert_from_e4m3, fp8_convert_to_e4m3, { 0 } };
static fmt8 E5M2 = { "E5M2", 5, 2, 1, FP8_E5M2_MAX_CODE, fp8_convert_from_e5m2, fp8_convert_to_e5m2, { 0 } };

/* ---------------------------------------------------------------- w60.convert (CPU) */

static fmt8 *const FMTS[] = { &E4M3, &E5M2 };

/* Every one of the 256 codes of each format decodes to the model's value:
 * the same float bit for bit (-0 included), NaN for NaN. */
START_TEST(convert_decode_all)
{
    for (size_t fi = 0; fi < WB_COUNT(FMTS); fi++) {
        fmt8 *f = FMTS[fi];
        model_init(f);
        for (unsigned c = 0; c < 256; c++) {
            const double want = model_value(f, c);
            const float got = f->from((uint8_t)c);
            if (isnan(want)) {
                if (!isnan(got)) ck_abort_msg("%s code 0x%02x is NaN; fp8_convert_from gave %.9g", f->name, c, got);
            } else if (f32_bits(got) != f32_bits((float)want)) {
                ck_abort_msg("%s code 0x%02x is %.9g; fp8_convert_from gave %.9g (bits 0x%08x, expected 0x%08x)",
                             f->name, c, want, got, f32_bits(got), f32_bits((float)want));
            }
        }
    }
}
END_TEST

/* x through the learner's conversion against the model; returns 0 or fails. */
static void expect_code(const fmt8 *f, float x, const char *why)
{
    const int want = model_code(f, x);
    const unsigned got = f->to(x);
    if (want < 0 ? !is_nan_code(f, got) : got != (unsigned)want)
        ck_abort_msg("%s of %.9g (bits 0x%08x, %s): expected %s0x%02x (%.9g), got 0x%02x (%.9g)", f->name, x,
                     f32_bits(x), why, want < 0 ? "a NaN code such as " : "", want < 0 ? 0x7f : want,
                     want < 0 ? NAN : model_value(f, (unsigned)want), got, model_value(f, got));
}

/* Every finite code comes back from its own value; every midpoint between
 * two neighbours goes to the even one, and the floats just either side of
 * it to the nearer one; both signs. */
START_TEST(convert_codes_and_ties)
{
    for (size_t fi = 0; fi < WB_COUNT(FMTS); fi++) {
        fmt8 *f = FMTS[fi];
        model_init(f);
        for (int c = 0; c <= f->top; c++) {
            const float v = (float)f->table[c];
            expect_code(f, v, "a code's own value");
            expect_code(f, -v, "a code's own value, negative");
        }
        for (int c = 0; c < f->top; c++) {
            const float mid = (float)((f->table[c] + f->table[c + 1]) / 2);
            ck_assert_msg((double)mid == (f->table[c] + f->table[c + 1]) / 2, "midpoint not exact in float");
            const float up = nextafterf(mid, INFINITY), down = nextafterf(mid, 0.f);
            expect_code(f, mid, "exactly between two codes: ties to even");
            expect_code(f, -mid, "exactly between two codes, negative: ties to even");
            expect_code(f, up, "just above a midpoint");
            expect_code(f, -up, "just above a midpoint, negative");
            expect_code(f, down, "just below a midpoint");
            expect_code(f, -down, "just below a midpoint, negative");
        }
    }
}
END_TEST

/* Saturation, infinities, NaN, signed zeros and the bottom of the range. */
START_TEST(convert_edges)
{
    for (size_t fi = 0; fi < WB_COUNT(FMTS); fi++) {
        fmt8 *f = FMTS[fi];
        model_init(f);
        const float max = (float)f->table[f->top], least = (float)f->table[1];
        const float big[] = { max, nextafterf(max, INFINITY), max * 1.0625f, max * 1.5f, max * 2.f, 1e30f, FLT_MAX,
                              INFINITY };
        for (size_t i = 0; i < WB_COUNT(big); i++) {
            const unsigned p = f->to(big[i]), n = f->to(-big[i]);
            if (p != (unsigned)f->top || n != (0x80u | (unsigned)f->top))
                ck_abort_msg("%s of +-%.9g: expected 0x%02x and 0x%02x (+-%.9g, saturated: .satfinite), got 0x%02x "
                             "and 0x%02x",
                             f->name, big[i], f->top, 0x80 | f->top, max, p, n);
        }
        const float nans[] = { NAN, -NAN, bits_f32(0x7f800001u), bits_f32(0xffc12345u) };
        for (size_t i = 0; i < WB_COUNT(nans); i++) expect_code(f, nans[i], "NaN");
        if (f->to(0.f) != 0x00 || f->to(-0.f) != 0x80)
            ck_abort_msg("%s of +0 and -0: expected 0x00 and 0x80, got 0x%02x and 0x%02x", f->name, f->to(0.f),
                         f->to(-0.f));
        const float tiny[] = { least / 2, nextafterf(least / 2, INFINITY), nextafterf(least / 2, 0.f), least / 4,
                               least * 1.5f, least * 2.5f, least * 3.5f, bits_f32(1), bits_f32(0x007fffffu),
                               FLT_MIN, 1e-30f };
        for (size_t i = 0; i < WB_COUNT(tiny); i++) {
            expect_code(f, tiny[i], "near the least subnormal");
            expect_code(f, -tiny[i], "near the least subnormal, negative");
        }
    }
}
END_TEST

/* Random floats: every bit pattern (mostly far outside FP8's range), and
 * values spread over FP8's exponents and a little past both ends. */
START_TEST(convert_random)
{
    wb_rng rng = WB_RNG();
    for (size_t fi = 0; fi < WB_COUNT(FMTS); fi++) {
        fmt8 *f = FMTS[fi];
        model_init(f);
        for (int i = 0; i < 500000; i++) {
            expect_code(f, bits_f32((uint32_t)wb_rng_u64(&rng)), "a random bit pattern");
            const double e = (double)wb_rng_int(&rng, f->has_inf ? -19 : -12, f->has_inf ? 17 : 10);
            const float x = (float)((wb_rng_unit(&rng) < 0.5 ? -1 : 1) * (1.0 + wb_rng_unit(&rng)) * pow(2.0, e));
            expect_code(f, x, "a random value in FP8's range");
        }
    }
}
END_TEST

/* ---------------------------------------------------------------- the GEMM's reference */

/* The tolerance (BF16_RTOL, the accumulation allowance: "The tolerance" in
 * the README), ref_dot, out_ok, cmp_one, the case tables and random_scale
 * are w60_checks.h's, shared with the instructor's judge. */

static void cmp_expect(const out_cmp *c, const char *what)
{
    ck_assert_msg(c->bad == 0, "%s (seed %llu): %zu of %zu outputs wrong: %s", what,
                  (unsigned long long)wb_base_seed(), c->bad, c->n, c->msg);
}

/* ---------------------------------------------------------------- one case on the host */

/* The GEMM under test with its grid (fp8_gemm_grid), and fp8_gemm where the grid is 0. */
static cudaError_t run_gemm(const uint8_t *A, const uint8_t *B, const float *sa, const float *sb, uint16_t *D, int M,
                            int N, int K, size_t ldd, int grid)
{
    return grid ? fp8_gemm_grid(A, B, sa, sb, D, M, N, K, ldd, grid) : fp8_gemm(A, B, sa, sb, D, M, N, K, ldd);
}

/* Run the GEMM on g into a poisoned D of M rows of ldd with guard bands
 * (D `off` elements past a 256-byte boundary); every output checked, every
 * padding element still the poison, the guards untouched. */
static void check_data(const g_data *g, g_shape s, const char *note)
{
    const size_t M = (size_t)s.M, N = (size_t)s.N, K = (size_t)s.K, ldd = N + (size_t)s.pad, nd = M * ldd;
    double *ref = wb_hmalloc(M * N * 8 + 8), *allow = wb_hmalloc(M * N * 8 + 8);
    data_reference(g, ref, allow);
    const float scales[2] = { g->sa, g->sb };
    uint8_t *dA = wb_dcopy(g->a, M * K), *dB = wb_dcopy(g->b, N * K);
    float *dS = wb_dcopy(scales, sizeof scales);
    wb_dout o;
    uint16_t *dD = wb_dout_alloc(&o, "D", nd * 2, (size_t)s.off * 2);
    char what[300];
    snprintf(what, sizeof what, "M=%d N=%d K=%d ldd=%zu, grid %d%s, D %d bytes past 256, %s, scales %.6g and %.6g%s%s",
             s.M, s.N, s.K, ldd, s.grid, s.grid ? "" : " (one CTA per SM)", 2 * s.off, g->kind, g->sa, g->sb,
             note ? ", " : "", note ? note : "");
    const cudaError_t e = run_gemm(dA, dB, dS, dS + 1, dD, s.M, s.N, s.K, ldd, s.grid);
    ck_assert_msg(e == cudaSuccess, "%s: %s returned %s", what, s.grid ? "fp8_gemm_grid" : "fp8_gemm",
                  cudaGetErrorName(e));
    uint16_t *h = wb_hmalloc(nd * 2 + 2);
    wb_expect_dout_guards(&o, h, what);
    out_cmp c = { 0, 0, "" };
    for (size_t i = 0; i < M; i++) {
        for (size_t j = 0; j < N; j++) cmp_one(&c, i, j, h[i * ldd + j], ref[i * N + j], allow[i * N + j]);
        for (size_t j = N; j < ldd; j++)
            if (h[i * ldd + j] != 0xFFFFu)
                ck_abort_msg("%s: D[%zu * ldd + %zu] is row padding (column %zu >= N) and was written (0x%04x)", what,
                             i, j, j, h[i * ldd + j]);
    }
    cmp_expect(&c, what);
    wb_dout_free(&o);
    wb_dfree(dA), wb_dfree(dB), wb_dfree(dS);
    free(ref), free(allow), free(h);
}

/* ---------------------------------------------------------------- w60.gemm */

#define NEED_SM90A() wb_need_sm90a("fp8_gemm (FP8 wgmma, TMA, setmaxnreg)")

/* The epilogue a shape takes (fp8_gemm.h): TMA stores where D is 16-byte
 * aligned and N and ldd are multiples of 8, registers elsewhere. */
static int tma_epilogue(g_shape s) { return s.K > 0 && s.off % 8 == 0 && s.N % 8 == 0 && s.pad % 8 == 0; }

/* Every output of each shape against the CPU; A and B small integers times
 * powers of two (exact sums, README), random scales. */
START_TEST(gemm_shapes)
{
    NEED_SM90A();
    wb_rng rng = WB_RNG();
    const g_shape s = SHAPES[_i];
    g_data g;
    data_alloc(&g, s.M, s.N, s.K);
    data_exact(&g, &rng, 3, (int)wb_rng_int(&rng, -4, 3), (int)wb_rng_int(&rng, -4, 3));
    check_data(&g, s, NULL);
    data_free(&g);
}
END_TEST

/* Fresh random shapes and grids; half of them with D as the TMA epilogue wants it. */
START_TEST(gemm_random)
{
    NEED_SM90A();
    wb_rng rng = WB_RNG();
    g_shape s = { (int)wb_rng_int(&rng, 1, 900), (int)wb_rng_int(&rng, 1, 900), 16 * (int)wb_rng_int(&rng, 1, 40),
                  (int)wb_rng_int(&rng, 0, 9), (int)wb_rng_int(&rng, 0, 3), (int)wb_rng_int(&rng, 0, 5) };
    if (_i % 2) s.N = (s.N + 7) / 8 * 8, s.pad = 8 * (int)wb_rng_int(&rng, 0, 1), s.off = 8 * (int)wb_rng_int(&rng, 0, 1);
    g_data g;
    data_alloc(&g, s.M, s.N, s.K);
    data_exact(&g, &rng, 3, (int)wb_rng_int(&rng, -4, 3), (int)wb_rng_int(&rng, -4, 3));
    check_data(&g, s, NULL);
    data_free(&g);
}
END_TEST

START_TEST(gemm_full_range)
{
    NEED_SM90A();
    wb_rng rng = WB_RNG();
    const g_shape s = FULL[_i];
    g_data g;
    data_alloc(&g, s.M, s.N, s.K);
    data_full_range(&g, &rng);
    check_data(&g, s, NULL);
    data_free(&g);
}
END_TEST

START_TEST(gemm_special)
{
    NEED_SM90A();
    wb_rng rng = WB_RNG();
    const g_shape s = SPECIAL[_i].s;
    g_data g;
    data_alloc(&g, s.M, s.N, s.K);
    const size_t na = (size_t)s.M * s.K, nb = (size_t)s.N * s.K;
    const char *note = NULL;
    if (SPECIAL[_i].what == 0) {
        data_exact(&g, &rng, 3, 0, 0);
        /* NaN codes: rows of A and B with one each (both NaN codes of E4M3) */
        g.a[wb_rng_int(&rng, 0, (int64_t)na - 1)] = 0x7f;
        g.b[wb_rng_int(&rng, 0, (int64_t)nb - 1)] = 0xff;
        g.b[wb_rng_int(&rng, 0, (int64_t)nb - 1)] = 0x7f;
        data_decode(&g);
        note = "NaN codes 0x7f and 0xff in A and B";
    } else if (SPECIAL[_i].what == 1) {
        /* integer sums times 2^120: |sum| >= 256 is past BF16's (and FP32's) range, 255 is its largest value */
        data_exact(&g, &rng, 3, 0, 0);
        g.sa = 0x1p60f, g.sb = 0x1p60f;
        note = "scales 2^60 and 2^60: outputs past BF16's range are +-Inf";
    } else {
        /* 2^-9, 2^-8, 3 2^-9 and 2^-8, 2^-7, 3 2^-8: E4M3 subnormals only; -0 codes among the zeros */
        data_exact(&g, &rng, 3, -9, -8);
        for (size_t i = 0; i < na; i++)
            if (g.a[i] == 0 && wb_rng_int(&rng, 0, 1)) g.a[i] = 0x80;
        for (size_t i = 0; i < nb; i++)
            if (g.b[i] == 0 && wb_rng_int(&rng, 0, 1)) g.b[i] = 0x80;
        data_decode(&g);
        g.sa = 0x1p9f, g.sb = 0x1p8f;
        note = "subnormal E4M3 inputs and -0 codes";
    }
    check_data(&g, s, note);
    data_free(&g);
}
END_TEST

/* The table holds both epilogues: K > 0 shapes of each, ragged and offset
 * ones among them. No GPU needed. */
START_TEST(gemm_paths)
{
    int n[2] = { 0, 0 }, ragged[2] = { 0, 0 }, offset[2] = { 0, 0 };
    for (size_t i = 0; i < WB_COUNT(SHAPES); i++) {
        const g_shape s = SHAPES[i];
        if (s.M == 0 || s.N == 0 || s.K == 0) continue;
        const int p = tma_epilogue(s);
        n[p]++, ragged[p] += s.M % FP8_BM || s.N % FP8_BN, offset[p] += s.off != 0;
    }
    for (int p = 0; p < 2; p++)
        ck_assert_msg(n[p] >= 5 && ragged[p] >= 3 && offset[p] >= 1,
                      "SHAPES: the %s epilogue is run on %d shapes, %d ragged, %d with D offset; want at least 5, 3, 1",
                      p ? "TMA-store" : "register", n[p], ragged[p], offset[p]);
}
END_TEST

/* The given fill (support/fp8_fill.h) gives the codes of exactly v 2^e. */
START_TEST(fill_exact)
{
    model_init(&E4M3);
    for (int e = -9; e <= 7; e++)
        for (int v = -3; v <= 3; v++) {
            const uint8_t c = fp8_fill_code(v, e);
            const double got = model_value(&E4M3, c), want = ldexp((double)v, e);
            ck_assert_msg(got == want && (v != 0 || c == 0), "fp8_fill_code(%d, %d) = 0x%02x (%g), expected %g", v, e,
                          c, got, want);
        }
    int seen[7] = { 0 };
    for (size_t i = 0; i < 7000; i++) seen[fp8_fill_int(60, i, 3) + 3]++;
    for (int v = 0; v < 7; v++) ck_assert_msg(seen[v] > 800, "fp8_fill_int: %d drawn %d times of 7000", v - 3, seen[v]);
}
END_TEST

/* ---- large shapes, sampled: inputs filled on the device */

/* A product whose inputs the host can replay from seeds (support/fp8_fill.h). */
typedef struct {
    int M, N, K, range, ea, eb;
    unsigned long long seed_a, seed_b;
    float sa, sb;
    uint8_t *A, *B;
    float *S; /* device: scale_a at S, scale_b at S + 4 (FILLED_SB): each in its own 16 bytes, as a
               * library that loads a scale with a vector load may want */
} g_filled;
#define FILLED_SB 4

static void filled_set(g_filled *f, unsigned long long seed_a, unsigned long long seed_b, float sa, float sb)
{
    f->seed_a = seed_a, f->seed_b = seed_b, f->sa = sa, f->sb = sb;
    WB_CUDA(fp8_fill_small(f->A, (size_t)f->M * f->K, seed_a, f->range, f->ea));
    WB_CUDA(fp8_fill_small(f->B, (size_t)f->N * f->K, seed_b, f->range, f->eb));
    const float s[5] = { sa, 0.f, 0.f, 0.f, sb };
    wb_h2d(f->S, s, sizeof s);
}

static g_filled filled_open(int M, int N, int K, int range, int ea, int eb)
{
    g_filled f = { M, N, K, range, ea, eb, 0, 0, 1.f, 1.f, wb_dmalloc((size_t)M * K + 16),
                   wb_dmalloc((size_t)N * K + 16), wb_dmalloc(32) };
    return f;
}

static void filled_close(g_filled *f) { wb_dfree(f->A), wb_dfree(f->B), wb_dfree(f->S); }

/* Output (i, j) of the filled product against D's bits. */
static void filled_cmp(const g_filled *f, out_cmp *c, size_t i, size_t j, uint16_t bits, float *ra, float *rb)
{
    for (int k = 0; k < f->K; k++) {
        ra[k] = (float)ldexp(fp8_fill_int(f->seed_a, i * (size_t)f->K + (size_t)k, f->range), f->ea);
        rb[k] = (float)ldexp(fp8_fill_int(f->seed_b, j * (size_t)f->K + (size_t)k, f->range), f->eb);
    }
    double ref, allow;
    ref_dot(ra, rb, f->K, (double)f->sa * (double)f->sb, ldexp(1.0, f->ea + f->eb), &ref, &allow);
    cmp_one(c, i, j, bits, ref, allow);
}

/* D (M x N, ldd = N) on the host against `samples` random outputs and the
 * first and last 64; the number wrong, the message in c. */
static size_t filled_verify(const g_filled *f, const uint16_t *h, size_t samples, uint64_t seed, out_cmp *c)
{
    memset(c, 0, sizeof *c);
    const size_t n = (size_t)f->M * f->N;
    float *ra = wb_hmalloc((size_t)f->K * 4 + 4), *rb = wb_hmalloc((size_t)f->K * 4 + 4);
    wb_rng rng;
    wb_rng_seed(&rng, seed);
    for (size_t t = 0; t < samples + 128; t++) {
        const size_t idx = t < 64 ? t : t < 128 ? n - 1 - (t - 64) : (size_t)wb_rng_int(&rng, 0, (int64_t)n - 1);
        if (idx >= n) continue;
        filled_cmp(f, c, idx / f->N, idx % f->N, h[idx], ra, rb);
    }
    free(ra), free(rb);
    return c->bad;
}

START_TEST(gemm_large)
{
    NEED_SM90A();
    wb_rng rng = WB_RNG();
    const g_shape s = LARGE[_i];
    g_filled f = filled_open(s.M, s.N, s.K, 3, (int)wb_rng_int(&rng, -2, 2), (int)wb_rng_int(&rng, -2, 2));
    filled_set(&f, wb_rng_u64(&rng), wb_rng_u64(&rng), random_scale(&rng), random_scale(&rng));
    const size_t n = (size_t)s.M * s.N;
    wb_dout o;
    uint16_t *dD = wb_dout_alloc(&o, "D", n * 2, 0);
    char what[200];
    snprintf(what, sizeof what, "M=%d N=%d K=%d, grid %d, values -3..3 times 2^%d and 2^%d (4096 sampled outputs)",
             s.M, s.N, s.K, s.grid, f.ea, f.eb);
    WB_CUDA(run_gemm(f.A, f.B, f.S, f.S + FILLED_SB, dD, s.M, s.N, s.K, (size_t)s.N, s.grid));
    uint16_t *h = wb_hmalloc(n * 2 + 2);
    wb_expect_dout_guards(&o, h, what);
    out_cmp c;
    filled_verify(&f, h, 4096, wb_rng_u64(&rng), &c);
    cmp_expect(&c, what);
    free(h);
    wb_dout_free(&o);
    filled_close(&f);
}
END_TEST

/* ---- the contract's refusals */

static void expect_refused(const g_refused *r, const uint8_t *A, const uint8_t *B, const float *S, uint16_t *D)
{
    const float *sa = r->null_scale == 1 ? NULL : S, *sb = r->null_scale == 2 ? NULL : S + 1;
    cudaError_t e = fp8_gemm_grid(A + r->a_off, B + r->b_off, sa, sb, D, r->M, r->N, r->K, r->ldd, r->grid);
    ck_assert_msg(e == cudaErrorInvalidValue, "%s: fp8_gemm_grid must refuse it with cudaErrorInvalidValue, got %s",
                  r->why, cudaGetErrorName(e));
    if (r->grid) return;
    e = fp8_gemm(A + r->a_off, B + r->b_off, sa, sb, D, r->M, r->N, r->K, r->ldd);
    ck_assert_msg(e == cudaErrorInvalidValue, "%s: fp8_gemm must refuse it with cudaErrorInvalidValue, got %s", r->why,
                  cudaGetErrorName(e));
}

/* On real buffers: refused, and D (poisoned) untouched. */
START_TEST(gemm_refused)
{
    NEED_SM90A();
    uint8_t *A = wb_dmalloc(4096), *B = wb_dmalloc(4096);
    float *S = wb_dmalloc(8);
    wb_dout o;
    const size_t nd = 128;
    uint32_t *poison = wb_hmalloc(nd * 2);
    memset(poison, 0xFF, nd * 2);
    expect_refused(&REFUSED[_i], A, B, S, wb_dout_alloc(&o, "D", nd * 2, 0));
    wb_expect_dout_u32(&o, poison, nd / 2, REFUSED[_i].why);
    free(poison);
    wb_dout_free(&o), wb_dfree(A), wb_dfree(B), wb_dfree(S);
}
END_TEST

/* No GPU needed: every refusal before any CUDA call (made-up pointers,
 * never dereferenced), empty shapes accepted without one (NULL pointers). */
START_TEST(gemm_contract)
{
    const uintptr_t P = 0x7f0000000000ull;
    for (size_t i = 0; i < WB_COUNT(REFUSED); i++)
        expect_refused(&REFUSED[i], (const uint8_t *)P, (const uint8_t *)(P + 65536), (const float *)(P + 131072),
                       (uint16_t *)(P + 196608));
    const int E[][4] = { { 0, 8, 16, 0 }, { 8, 0, 16, 0 }, { 0, 0, 0, 0 }, { 0, 5, 32, 3 } };
    for (size_t i = 0; i < WB_COUNT(E); i++) {
        cudaError_t e = fp8_gemm_grid(NULL, NULL, NULL, NULL, NULL, E[i][0], E[i][1], E[i][2], 8, E[i][3]);
        ck_assert_msg(e == cudaSuccess, "M=%d N=%d K=%d grid %d with NULL pointers: an empty D is cudaSuccess, got %s",
                      E[i][0], E[i][1], E[i][2], E[i][3], cudaGetErrorName(e));
        if (E[i][3] == 0) {
            e = fp8_gemm(NULL, NULL, NULL, NULL, NULL, E[i][0], E[i][1], E[i][2], 8);
            ck_assert_msg(e == cudaSuccess, "fp8_gemm M=%d N=%d K=%d with NULL pointers: cudaSuccess, got %s", E[i][0],
                          E[i][1], E[i][2], cudaGetErrorName(e));
        }
    }
}
END_TEST

/* ---------------------------------------------------------------- w60.fp8-speed */

/* The speed checkpoint's size: 8192^3. Each operand is 64 MiB of E4M3 and
 * D 128 MiB of BF16, every one past the H100's 50 MB L2 (and wb_time
 * overwrites L2 before each sample), 1.1 PFLOP a run: about a millisecond,
 * so launch and ramp are a small part of each sample; 2048 tiles of 128 x
 * 256 are 15.5 waves on 132 SMs (at best 97 % of the SMs busy, as at
 * 4096^3's 3.88 waves). README, "Why 8192^3". */
enum { SPEED_N = 8192, SEED_A = 601, SEED_B = 602 };

typedef struct {
    g_filled f;
    uint16_t *D, *host;
    const yard_fp8 *lt; /* the work: this plan, or fp8_gemm when NULL */
    unsigned long long base_a, base_b;
} speed_run;

static void speed_fresh(void *p, unsigned long long salt)
{
    speed_run *r = p;
    /* new inputs and scales for the spot check, the first ones back after it */
    filled_set(&r->f, r->base_a + 1000 * salt, r->base_b + 1000 * salt, salt ? 0.75f : 0.5f, salt ? 1.5f : 0.25f);
    wb_dpoison(r->D, (size_t)r->f.M * r->f.N * 2);
}

static void speed_work(void *p)
{
    speed_run *r = p;
    if (r->lt) {
        const int s = yard_fp8_run(r->lt);
        ck_assert_msg(s == 0, "cublasLtMatmul (FP8) failed: %s", yard_fp8_status(s));
    } else {
        WB_CUDA(fp8_gemm(r->f.A, r->f.B, r->f.S, r->f.S + FILLED_SB, r->D, r->f.M, r->f.N, r->f.K, (size_t)r->f.N));
    }
}

static size_t speed_verify(speed_run *r, size_t samples, out_cmp *c)
{
    wb_d2h(r->host, r->D, (size_t)r->f.M * r->f.N * 2);
    return filled_verify(&r->f, r->host, samples, r->f.seed_a ^ 0x5eed, c);
}

static int speed_check(void *p, char *why, size_t size)
{
    out_cmp c;
    if (!speed_verify(p, 256, &c)) return 0;
    snprintf(why, size, "%zu of %zu sampled outputs wrong: %s", c.bad, c.n, c.msg);
    return 1;
}

/* One row at n^3: the plan lt (cuBLASLt) or fp8_gemm, timed with the spot
 * check, its output verified after timing. Not printed. */
static wb_bench_row speed_row(speed_run *r, const yard_fp8 *lt, const char *variant, const char *yard_name,
                              double yard)
{
    const double n = r->f.M;
    wb_bench_row row = { .exercise = "fp8_gemm", .variant = variant, .n = (size_t)r->f.M,
                         .bytes = 2.0 * n * n + 2.0 * n * n, .flops = 2.0 * n * n * n, .unit = "TFLOP/s",
                         .yard_name = yard_name, .yard = yard };
    r->lt = lt;
    speed_fresh(r, 0);
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = speed_fresh, o.check = speed_check;
    wb_time(speed_work, r, &o, &row.t);
    row.value = row.flops / (row.t.median * 1e-3) / 1e12;
    out_cmp c;
    if (speed_verify(r, 1024, &c)) wb_bench_invalid(&row, c.msg);
    return row;
}

/* cuBLASLt (fast accumulation: the yardstick; its default, promoting:
 * printed) and fp8_gemm on the same n^3 data in the same run; the rows
 * before ours printed, ours returned against the yardstick's figure (NaN
 * where cuBLASLt's output was wrong or it has no plan). */
static wb_bench_row speed_rows(int n)
{
    speed_run r = { filled_open(n, n, n, 2, 0, 0), NULL, NULL, NULL, SEED_A, SEED_B };
    r.D = wb_dmalloc((size_t)n * n * 2);
    r.host = wb_hmalloc((size_t)n * n * 2);
    double yard = NAN;
    char why[700];
    yard_fp8 *fast = yard_fp8_open(r.f.A, r.f.B, r.f.S, r.f.S + FILLED_SB, r.D, n, n, n, 1, why, sizeof why);
    ck_assert_msg(fast != NULL, "the yardstick: %s", why);
    wb_bench_row lt = speed_row(&r, fast, "cuBLASLt FP8 E4M3 TN, fast accumulation (the yardstick)", NULL, 0);
    wb_bench_emit(&lt);
    yard = lt.invalid ? NAN : lt.value;
    yard_fp8_close(fast);
    yard_fp8 *slow = yard_fp8_open(r.f.A, r.f.B, r.f.S, r.f.S + FILLED_SB, r.D, n, n, n, 0, why, sizeof why);
    if (slow) {
        wb_bench_row lt0 = speed_row(&r, slow, "cuBLASLt FP8, default (promoted) accumulation", "cuBLASLt", yard);
        wb_bench_emit(&lt0);
        yard_fp8_close(slow);
    } else {
        printf("  cuBLASLt FP8 with its default accumulation: no plan (%s)\n", why);
    }
    wb_bench_row row =
        speed_row(&r, NULL, "persistent, warp-specialised 128x256x128, 4 stages (yours)", "cuBLASLt", yard);
    free(r.host);
    wb_dfree(r.D);
    filled_close(&r.f);
    return row;
}

/* The yardstick itself, on a small shape against the CPU: cuBLASLt's FP8
 * call must compute this D, or its figure measures some other product.
 * M != N, so a swapped operand or scale fails. */
START_TEST(yard_check)
{
    NEED_SM90A();
    wb_rng rng = WB_RNG();
    const int M = 256, N = 384, K = 256;
    g_filled f = filled_open(M, N, K, 3, (int)wb_rng_int(&rng, -3, 3), (int)wb_rng_int(&rng, -3, 3));
    filled_set(&f, wb_rng_u64(&rng), wb_rng_u64(&rng), random_scale(&rng), 0.375f);
    uint16_t *D = wb_dmalloc((size_t)M * N * 2), *h = wb_hmalloc((size_t)M * N * 2);
    for (int fast = 0; fast < 2; fast++) {
        char why[700];
        yard_fp8 *p = yard_fp8_open(f.A, f.B, f.S, f.S + FILLED_SB, D, M, N, K, fast, why, sizeof why);
        ck_assert_msg(p != NULL, "the yardstick (fast accumulation %d): %s", fast, why);
        wb_dpoison(D, (size_t)M * N * 2);
        const int s = yard_fp8_run(p);
        ck_assert_msg(s == 0, "cublasLtMatmul (FP8, fast accumulation %d) failed: %s", fast, yard_fp8_status(s));
        wb_d2h(h, D, (size_t)M * N * 2);
        out_cmp c;
        filled_verify(&f, h, (size_t)M * N, wb_rng_u64(&rng), &c);
        char what[120];
        snprintf(what, sizeof what, "the yardstick (cublasLtMatmul, FP8 TN, fast accumulation %d), %d x %d x %d", fast,
                 M, N, K);
        cmp_expect(&c, what);
        yard_fp8_close(p);
    }
    wb_dfree(D), free(h);
    filled_close(&f);
}
END_TEST

/* A test, not a WB_SPEED line: off compute capability 9.0 it must be SKIP. */
START_TEST(fp8_speed)
{
    NEED_SM90A();
    wb_bench_row row = speed_rows(SPEED_N);
    wb_expect_target_row("w60.fp8-speed", &row);
}
END_TEST

static const wb_test TESTS[] = {
    { "w60.convert", WB_T(convert_decode_all), WB_CPU, 0 },
    { "w60.convert", WB_T(convert_codes_and_ties), WB_CPU, 0 },
    { "w60.convert", WB_T(convert_edges), WB_CPU, 0 },
    { "w60.convert", WB_T(convert_random), WB_CPU, 4 },
    { "w60.gemm", WB_T(gemm_contract), WB_CPU, 0 },
    { "w60.gemm", WB_T(gemm_paths), WB_CPU, 0 },
    { "w60.gemm", WB_T(fill_exact), WB_CPU, 0 },
    { "w60.gemm", WB_T(gemm_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w60.gemm", WB_T(gemm_random), WB_GPU, 8 },
    { "w60.gemm", WB_T(gemm_full_range), WB_GPU, WB_COUNT(FULL) },
    { "w60.gemm", WB_T(gemm_special), WB_GPU, WB_COUNT(SPECIAL) },
    { "w60.gemm", WB_T(gemm_large), WB_GPU, WB_COUNT(LARGE) },
    { "w60.gemm", WB_T(gemm_refused), WB_GPU, WB_COUNT(REFUSED) },
    { "w60.fp8-speed", WB_T(yard_check), WB_GPU, 0 },
    { "w60.fp8-speed", WB_T(fp8_speed), WB_GPU, 0 },
};

/* ---------------------------------------------------------------- benchmarks (no checkpoint) */

/* cuBLASLt and yours at 4096^3 and 8192^3 (the 8192 row is w60.fp8-speed's
 * figure, judged by its test): `--bench gemm`. */
static double bench_gemm(void)
{
    if (!wb_device_is_cc(9, 0)) {
        printf("fp8_gemm: skipped, sm_90a code needs a compute capability 9.0 GPU (this one is %d.%d)\n",
               wb_this_device()->cc_major, wb_this_device()->cc_minor);
        return NAN;
    }
    static const int SIZES[] = { 4096, SPEED_N };
    double ratio = NAN;
    for (size_t i = 0; i < WB_COUNT(SIZES); i++) {
        wb_bench_row row = speed_rows(SIZES[i]);
        wb_bench_emit(&row);
        ratio = wb_bench_ratio(&row);
    }
    return ratio;
}

/* ---- the quantisation report: FP8 against BF16 on the same real data */

/* x (n floats) to E4M3 with a per-tensor scale amax / 448 (your
 * fp8_convert_to_e4m3): the codes, and the scale (the dequantisation factor). */
static float quantise(const float *x, size_t n, uint8_t *codes)
{
    float amax = 0;
    for (size_t i = 0; i < n; i++) amax = fmaxf(amax, fabsf(x[i]));
    const float scale = amax > 0 ? amax / FP8_E4M3_MAX : 1.f;
    for (size_t i = 0; i < n; i++) codes[i] = fp8_convert_to_e4m3(x[i] / scale);
    return scale;
}

/* Relative RMS of the error of the inputs' FP8 and BF16 roundings. */
static void input_errors(const float *x, const uint8_t *q, float scale, size_t n, double *e8, double *e16)
{
    double s2 = 0, d8 = 0, d16 = 0;
    for (size_t i = 0; i < n; i++) {
        const double v = x[i], v8 = (double)fp8_convert_from_e4m3(q[i]) * scale,
                     v16 = wb_bf16_to_f32(wb_f32_to_bf16(x[i]));
        s2 += v * v, d8 += (v8 - v) * (v8 - v), d16 += (v16 - v) * (v16 - v);
    }
    *e8 = sqrt(d8 / s2), *e16 = sqrt(d16 / s2);
}

/* One data set of n x n x n: A and B (real values) quantised to E4M3 with
 * per-tensor scales and rounded to BF16; fp8_gemm and cublasGemmEx (BF16
 * in, FP32 compute and out) on them; both against a double reference of the
 * real data on sampled outputs, and against each other everywhere. */
static void quant_report(const char *name, int n, float *a, float *b)
{
    const size_t nn = (size_t)n * n;
    uint8_t *qa = wb_hmalloc(nn), *qb = wb_hmalloc(nn);
    uint16_t *ha = wb_hmalloc(nn * 2), *hb = wb_hmalloc(nn * 2);
    const float scales[2] = { quantise(a, nn, qa), quantise(b, nn, qb) };
    for (size_t i = 0; i < nn; i++) ha[i] = wb_f32_to_bf16(a[i]), hb[i] = wb_f32_to_bf16(b[i]);
    double ea8, ea16, eb8, eb16;
    input_errors(a, qa, scales[0], nn, &ea8, &ea16);
    input_errors(b, qb, scales[1], nn, &eb8, &eb16);
    uint8_t *dqa = wb_dcopy(qa, nn), *dqb = wb_dcopy(qb, nn);
    uint16_t *dha = wb_dcopy(ha, nn * 2), *dhb = wb_dcopy(hb, nn * 2), *d8 = wb_dmalloc(nn * 2);
    float *ds = wb_dcopy(scales, sizeof scales), *d16 = wb_dmalloc(nn * 4);
    WB_CUDA(fp8_gemm(dqa, dqb, ds, ds + 1, d8, n, n, n, (size_t)n));
    cublasHandle_t h = wb_cublas_handle(0);
    const float one = 1.f, zero = 0.f;
    /* row-major D = A B^T is column-major D^T = B A^T: cuBLAS's "TN" */
    WB_CUBLAS(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, dhb, CUDA_R_16BF, n, dha, CUDA_R_16BF, n, &zero,
                           d16, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
              "the BF16 GEMM of the quantisation report");
    uint16_t *h8 = wb_hmalloc(nn * 2);
    float *h16 = wb_hmalloc(nn * 4);
    wb_d2h(h8, d8, nn * 2);
    wb_d2h(h16, d16, nn * 4);
    cublasDestroy(h);
    double s2 = 0, dd = 0, dmax = 0;
    for (size_t i = 0; i < nn; i++) {
        const double v16 = h16[i], diff = (double)wb_bf16_to_f32(h8[i]) - v16;
        s2 += v16 * v16, dd += diff * diff, dmax = fmax(dmax, fabs(diff));
    }
    const double rms = sqrt(s2 / (double)nn);
    wb_rng rng;
    wb_rng_seed(&rng, 6060);
    double r2 = 0, e8 = 0, e16 = 0;
    for (int t = 0; t < 1024; t++) {
        const size_t i = (size_t)wb_rng_int(&rng, 0, n - 1), j = (size_t)wb_rng_int(&rng, 0, n - 1);
        double ref = 0;
        for (int k = 0; k < n; k++) ref += (double)a[i * n + (size_t)k] * (double)b[j * n + (size_t)k];
        const double g8 = wb_bf16_to_f32(h8[i * n + j]), g16 = h16[i * n + j];
        r2 += ref * ref, e8 += (g8 - ref) * (g8 - ref), e16 += (g16 - ref) * (g16 - ref);
    }
    printf("  %s, %d^3: inputs' relative RMS error: E4M3 %.3e (A), %.3e (B); BF16 %.3e, %.3e\n", name, n, ea8, eb8,
           ea16, eb16);
    printf("    outputs against a double reference of the real data (1024 sampled): FP8 GEMM %.3e, BF16 GEMM %.3e "
           "(relative RMS)\n",
           sqrt(e8 / r2), sqrt(e16 / r2));
    printf("    FP8 GEMM against the BF16 GEMM, every output: relative RMS %.3e, largest difference %.3e of the "
           "outputs' RMS\n",
           sqrt(dd / s2), dmax / rms);
    wb_dfree(dqa), wb_dfree(dqb), wb_dfree(dha), wb_dfree(dhb), wb_dfree(d8), wb_dfree(ds), wb_dfree(d16);
    free(qa), free(qb), free(ha), free(hb), free(h8), free(h16);
}

/* `--bench quant`: the error FP8 costs, a report (no target): uniform
 * data, and data with outliers (one value in 1000 a hundred times larger:
 * the per-tensor scale follows them, and the rest of the tensor falls
 * towards E4M3's subnormals). */
static double bench_quant(void)
{
    if (!wb_device_is_cc(9, 0)) {
        printf("quantisation report: skipped, sm_90a code needs a compute capability 9.0 GPU (this one is %d.%d)\n",
               wb_this_device()->cc_major, wb_this_device()->cc_minor);
        return NAN;
    }
    const int n = 4096;
    const size_t nn = (size_t)n * n;
    float *a = wb_hmalloc(nn * 4), *b = wb_hmalloc(nn * 4);
    wb_rng rng;
    wb_rng_seed(&rng, 6061);
    wb_fill_uniform_f32(&rng, a, nn, -1, 1);
    wb_fill_uniform_f32(&rng, b, nn, -1, 1);
    printf("quantisation report (E4M3 with per-tensor scales amax / 448, your fp8_convert_to_e4m3):\n");
    quant_report("uniform in [-1, 1]", n, a, b);
    for (size_t i = 0; i < nn; i++) {
        if (wb_rng_int(&rng, 0, 999) == 0) a[i] *= 100.f;
        if (wb_rng_int(&rng, 0, 999) == 0) b[i] *= 100.f;
    }
    quant_report("the same with 1 in 1000 values x100 (outliers)", n, a, b);
    free(a), free(b);
    return NAN;
}

static const wb_benchmark BENCHES[] = {
    { "gemm", bench_gemm },
    { "quant", bench_quant },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
