/* test_week58.c — week 58's checkpoints: the W4A16 product y = x dequant(W)
 * in its two regimes, decode (M <= 16, memory-bound: against a copy) and
 * prefill (M = 4096, tensor cores: against cuBLAS on the dequantised
 * weights), both against a double-precision reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "wb_cublas.h"
#include "wb_f16.h"
#include "support/w4_quant.h"
#include "w4a16_decode.h"
#include "w4a16_prefill.h"

typedef cudaError_t (*w4_fn)(const uint16_t *x, const uint32_t *wq, const uint16_t *scales, const uint16_t *zeros,
                             uint16_t *y, int M, int N, int K);

/* ---------------------------------------------------------------- tolerance */

/* An output passes when |got - ref| <= W4_ATOL * sqrt(sum_k (x_k w_k)^2) +
 * W4_RTOL * |ref| + 2^-24. The first term is the weights' rounding: each
 * product may carry the weight rounded to FP16 once more or once less than
 * the layout's value (2^-11 of it, at random signs: a sum of K of them is
 * about 2^-11 / sqrt(3) of the norm; 2^-8 is 14 times that), and FP32
 * accumulation, far below it. The second is y's own rounding to FP16
 * (2^-11), twice; the last the least FP16 subnormal. A dropped k, a wrong
 * group's scale or zero, a nibble out of order or a column off by one is
 * a whole product or more (about the norm / sqrt(K)) and fails. */
#define W4_ATOL 0x1p-8
#define W4_RTOL 0x1p-10

static int w4_close(double got, double ref, double nrm)
{
    return isfinite(got) && fabs(got - ref) <= W4_ATOL * nrm + W4_RTOL * fabs(ref) + 0x1p-24;
}

/* ---------------------------------------------------------------- a quantised layer on the host */

typedef struct {
    int M, N, K;
    uint16_t *x;   /* M x K halves */
    float *W;      /* K x N, the float weights (NULL once quantised, unless kept) */
    uint32_t *wq;  /* K/8 x N */
    uint16_t *s, *z;
    float *wd;     /* dequant(W), K x N */
} w4_layer;

/* Weights as a model's are: every column its own amplitude (0.01 .. 1), some
 * columns all positive or all negative (their zeros 0 or 15), the rest
 * centred; x uniform in [-1, 1]. */
static void fill_weights(wb_rng *rng, float *W, int K, int N)
{
    for (int n = 0; n < N; n++) {
        double amp = pow(10.0, -2.0 + 2.0 * wb_rng_unit(rng));
        int kind = (int)wb_rng_int(rng, 0, 5);
        double off = kind == 0 ? 1.2 : kind == 1 ? -1.2 : 0.0;
        for (int k = 0; k < K; k++) W[(size_t)k * N + n] = (float)(amp * (2.0 * wb_rng_unit(rng) - 1.0 + off));
    }
}

static void fill_x(wb_rng *rng, uint16_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++) x[i] = wb_f32_to_f16((float)(2.0 * wb_rng_unit(rng) - 1.0));
}

static w4_layer layer_make(wb_rng *rng, int M, int N, int K, int keep_w)
{
    w4_layer L = { M, N, K, NULL, NULL, NULL, NULL, NULL, NULL };
    size_t kn = (size_t)K * N;
    L.x = wb_hmalloc((size_t)M * K * 2 + 16);
    fill_x(rng, L.x, (size_t)M * K);
    L.W = wb_hmalloc(kn * 4 + 16);
    fill_weights(rng, L.W, K, N);
    L.wq = wb_hmalloc(kn / 2 + 16);
    L.s = wb_hmalloc(kn / 64 + 16);
    L.z = wb_hmalloc(kn / 64 + 16);
    w4_quantise(L.W, K, N, L.wq, L.s, L.z);
    L.wd = wb_hmalloc(kn * 4 + 16);
    w4_dequantise(L.wq, L.s, L.z, K, N, L.wd);
    if (!keep_w) free(L.W), L.W = NULL;
    return L;
}

static void layer_free(w4_layer *L)
{
    free(L->x), free(L->W), free(L->wq), free(L->s), free(L->z), free(L->wd);
}

/* y[m][.] in double for one row, and each output's norm sqrt(sum (x w)^2). */
static void ref_row(const w4_layer *L, const float *W, int m, double *y, double *nrm)
{
    for (int n = 0; n < L->N; n++) y[n] = 0, nrm[n] = 0;
    for (int k = 0; k < L->K; k++) {
        double xv = wb_f16_to_f32(L->x[(size_t)m * L->K + k]);
        if (xv == 0) continue;
        const float *w = W + (size_t)k * L->N;
        for (int n = 0; n < L->N; n++) {
            double p = xv * w[n];
            y[n] += p, nrm[n] += p * p;
        }
    }
    for (int n = 0; n < L->N; n++) nrm[n] = sqrt(nrm[n]);
}

/* ---------------------------------------------------------------- one correctness case */

typedef struct { int M, N, K; } w4_shape;

/* Run fn on a fresh layer; compare `nrows` rows (all when nrows == 0 or
 * >= M: the first, the last, tile edges and random ones otherwise), check
 * that every other output was written (finite), and that nothing outside y
 * was. */
static void check_case(w4_fn fn, const char *name, wb_rng *rng, w4_shape sh, int nrows)
{
    const int M = sh.M, N = sh.N, K = sh.K;
    w4_layer L = layer_make(rng, M, N, K, 0);
    size_t kn = (size_t)K * N;
    uint16_t *dx = wb_dcopy(L.x, (size_t)M * K * 2);
    uint32_t *dw = wb_dcopy(L.wq, kn / 2);
    uint16_t *ds = wb_dcopy(L.s, kn / 64), *dz = wb_dcopy(L.z, kn / 64);
    wb_dout o;
    uint16_t *dy = wb_dout_alloc(&o, "y", (size_t)M * N * 2, 0);
    char what[160];
    snprintf(what, sizeof what, "%s M=%d N=%d K=%d", name, M, N, K);
    WB_CUDA(fn(dx, dw, ds, dz, dy, M, N, K));
    uint16_t *got = wb_hmalloc((size_t)M * N * 2 + 16);
    wb_expect_dout_guards(&o, got, what);

    for (size_t i = 0; i < (size_t)M * N; i++)
        if ((got[i] & 0x7c00u) == 0x7c00u)
            ck_abort_msg("%s (seed %llu): y[%zu][%zu] = 0x%04x is not finite (never written?)", what,
                         (unsigned long long)wb_base_seed(), i / N, i % N, got[i]);

    int *rows = wb_hmalloc((size_t)(M > 0 ? M : 1) * sizeof(int));
    int nr = 0;
    if (nrows <= 0 || nrows >= M) {
        for (int m = 0; m < M; m++) rows[nr++] = m;
    } else {
        const int fixed[] = { 0, 1, 127, 128, M - 1 };
        for (size_t f = 0; f < WB_COUNT(fixed); f++)
            if (fixed[f] < M) rows[nr++] = fixed[f];
        while (nr < nrows) rows[nr++] = (int)wb_rng_int(rng, 0, M - 1);
    }
    double *ref = wb_hmalloc((size_t)N * 8 + 8), *nrm = wb_hmalloc((size_t)N * 8 + 8);
    size_t bad = 0;
    char first[200] = "";
    for (int r = 0; r < nr; r++) {
        int m = rows[r];
        ref_row(&L, L.wd, m, ref, nrm);
        for (int n = 0; n < N; n++) {
            double g = wb_f16_to_f32(got[(size_t)m * N + n]);
            if (w4_close(g, ref[n], nrm[n])) continue;
            if (!bad++)
                snprintf(first, sizeof first, "y[%d][%d] expected %.6g got %.6g (tolerance %.3g)", m, n, ref[n], g,
                         W4_ATOL * nrm[n] + W4_RTOL * fabs(ref[n]));
        }
    }
    if (bad)
        ck_abort_msg("%s (seed %llu): %zu of %zu outputs wrong; first %s", what, (unsigned long long)wb_base_seed(), bad,
                     (size_t)nr * N, first);
    free(rows), free(ref), free(nrm), free(got);
    wb_dfree(dx), wb_dfree(dw), wb_dfree(ds), wb_dfree(dz), wb_dout_free(&o);
    layer_free(&L);
}

/* M or N == 0 writes nothing; K == 0 is an empty sum: y = 0. */
static void check_edges(w4_fn fn, const char *name)
{
    uint16_t *d = wb_dmalloc(4096);
    wb_dpoison(d, 4096);
    wb_dout o;
    uint16_t *dy = wb_dout_alloc(&o, "y", 3 * 120 * 2, 0);
    uint16_t *host = wb_hmalloc(3 * 120 * 2);
    char what[96];
    snprintf(what, sizeof what, "%s: M == 0 (N 120, K 128) writes nothing", name);
    WB_CUDA(fn(d, (const uint32_t *)d, d, d, dy, 0, 120, 128));
    wb_expect_dout_guards(&o, host, what);
    for (int i = 0; i < 3 * 120; i++) ck_assert_msg(host[i] == 0xFFFFu, "%s: y[%d] was written", what, i);
    snprintf(what, sizeof what, "%s: N == 0 (M 3, K 128) writes nothing", name);
    WB_CUDA(fn(d, (const uint32_t *)d, d, d, dy, 3, 0, 128));
    wb_expect_dout_guards(&o, host, what);
    for (int i = 0; i < 3 * 120; i++) ck_assert_msg(host[i] == 0xFFFFu, "%s: y[%d] was written", what, i);
    snprintf(what, sizeof what, "%s: K == 0 (M 3, N 120) gives y = 0", name);
    WB_CUDA(fn(d, (const uint32_t *)d, d, d, dy, 3, 120, 0));
    wb_expect_dout_guards(&o, host, what);
    for (int i = 0; i < 3 * 120; i++)
        ck_assert_msg((host[i] & 0x7fffu) == 0, "%s: y[%d][%d] = 0x%04x", what, i / 120, i % 120, host[i]);
    wb_dfree(d), wb_dout_free(&o), free(host);
}

/* Bad arguments are refused before anything is launched, so this runs
 * without a GPU: the pointers are never dereferenced. */
static void check_refusals(w4_fn fn, const char *name, int max_m)
{
    const uintptr_t base = (uintptr_t)1 << 20;
    const uint16_t *x = (const uint16_t *)base, *s = (const uint16_t *)(base + 4096), *z = (const uint16_t *)(base + 8192);
    const uint32_t *w = (const uint32_t *)(base + 12288);
    uint16_t *y = (uint16_t *)(base + 16384);
    struct { int M, N, K; const char *why; } bad[] = {
        { -1, 8, 128, "M < 0" },        { 3, -8, 128, "N < 0" },    { 3, 8, -128, "K < 0" },
        { 3, 8, 100, "K not a multiple of 128" }, { 3, 8, 192, "K not a multiple of 128" },
        { 3, 12, 128, "N not a multiple of 8" },  { 3, 4, 128, "N not a multiple of 8" },
        { max_m + 1, 8, 128, "M past the kernel's limit" },
    };
    for (size_t i = 0; i < WB_COUNT(bad); i++) {
        if (bad[i].M > 1 << 20) continue; /* prefill has no limit on M */
        cudaError_t e = fn(x, w, s, z, y, bad[i].M, bad[i].N, bad[i].K);
        ck_assert_msg(e == cudaErrorInvalidValue, "%s(M=%d, N=%d, K=%d): %s must return cudaErrorInvalidValue, got %d",
                      name, bad[i].M, bad[i].N, bad[i].K, bad[i].why, (int)e);
    }
    const char *which[] = { "x", "wq", "scales", "zeros", "y" };
    for (int p = 0; p < 5; p++) {
        cudaError_t e = fn(p == 0 ? x + 4 : x, p == 1 ? (const uint32_t *)((uintptr_t)w + 8) : w, p == 2 ? s + 2 : s,
                           p == 3 ? z + 4 : z, p == 4 ? y + 1 : y, 3, 8, 128);
        ck_assert_msg(e == cudaErrorInvalidValue, "%s: a %s that is not 16-byte aligned must be refused, got %d", name,
                      which[p], (int)e);
    }
}

/* ---------------------------------------------------------------- the given quantiser (CPU) */

/* The bit order of the layout on a column of known nibbles, the round trip
 * on random layers, and the quantisation error of y as a figure. */
START_TEST(quant_layout)
{
    /* column 0: W[k][0] = (k % 16) * 0.1 quantises to q = k % 16, z = 0 */
    enum { K0 = 128, N0 = 8 };
    float *W = wb_hmalloc(K0 * N0 * 4);
    uint32_t wq[K0 / 8 * N0];
    uint16_t s[N0], z[N0];
    for (int k = 0; k < K0; k++)
        for (int n = 0; n < N0; n++) W[k * N0 + n] = n == 0 ? 0.1f * (float)(k % 16) : (float)((k * 7 + n * 3) % 11) - 5.f;
    w4_quantise(W, K0, N0, wq, s, z);
    ck_assert_msg(wq[0] == 0x76543210u && wq[N0] == 0xfedcba98u,
                  "word (0, 0) must hold k = 0..7 from the lowest nibble up (0x76543210, got 0x%08x), word (1, 0) "
                  "k = 8..15 (0xfedcba98, got 0x%08x)", wq[0], wq[N0]);
    ck_assert_msg(wb_f16_to_f32(z[0]) == 0.f && fabsf(wb_f16_to_f32(s[0]) - 0.1f) < 1e-4f, "column 0: z 0, s 0.1");
    free(W);

    wb_rng rng = WB_RNG();
    const int K = 1024, N = 264;
    w4_layer L = layer_make(&rng, 1, N, K, 1);
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) {
            size_t sz = (size_t)(k / 128) * N + n;
            float sf = wb_f16_to_f32(L.s[sz]), zf = wb_f16_to_f32(L.z[sz]);
            ck_assert_msg(sf >= 0x1p-14f && zf >= 0.f && zf <= 15.f && zf == rintf(zf),
                          "group %d column %d: s %g, z %g (z an integer 0..15, s >= 2^-14)", k / 128, n, sf, zf);
            float err = fabsf(L.W[(size_t)k * N + n] - L.wd[(size_t)k * N + n]);
            if (err > 0.52f * sf)
                ck_abort_msg("W[%d][%d] = %g dequantises to %g: more than half a step (s = %g) away (seed %llu)", k, n,
                             L.W[(size_t)k * N + n], L.wd[(size_t)k * N + n], sf, (unsigned long long)wb_base_seed());
        }
    layer_free(&L);
}
END_TEST

/* How much 4 bits cost: y = x W against y = x dequant(W), relative RMS over
 * a 16 x 4096 x 1024 product. A figure, not a gate. */
START_TEST(quant_error)
{
    wb_rng rng = WB_RNG();
    const int M = 16, K = 4096, N = 1024;
    w4_layer L = layer_make(&rng, M, N, K, 1);
    double *y = wb_hmalloc((size_t)N * 8), *yq = wb_hmalloc((size_t)N * 8), *nrm = wb_hmalloc((size_t)N * 8);
    double e2 = 0, y2 = 0, w2 = 0, d2 = 0;
    for (int m = 0; m < M; m++) {
        ref_row(&L, L.W, m, y, nrm);
        ref_row(&L, L.wd, m, yq, nrm);
        for (int n = 0; n < N; n++) e2 += (y[n] - yq[n]) * (y[n] - yq[n]), y2 += y[n] * y[n];
    }
    for (size_t i = 0; i < (size_t)K * N; i++) {
        double d = (double)L.W[i] - L.wd[i];
        d2 += d * d, w2 += (double)L.W[i] * L.W[i];
    }
    ck_assert_msg(y2 > 0 && w2 > 0, "empty product");
    printf("  quantisation error (a figure, not a gate), 4 bits, groups of 128: weights %.2f %% RMS, "
           "y = x W (M %d, K %d, N %d) %.2f %% RMS\n", 100 * sqrt(d2 / w2), M, K, N, 100 * sqrt(e2 / y2));
    free(y), free(yq), free(nrm);
    layer_free(&L);
}
END_TEST

/* ---------------------------------------------------------------- decode */

static const w4_shape DECODE_SHAPES[] = {
    { 1, 8, 128 },     { 3, 120, 256 },   { 16, 8, 256 },     { 1, 4104, 4096 },  { 3, 4104, 11008 },
    { 16, 120, 11008 }, { 16, 4104, 4096 }, { 7, 4104, 128 },  { 9, 120, 4096 },   { 1, 120, 11008 },
    { 16, 4104, 11008 }, { 5, 8, 11008 },
};

START_TEST(decode_shapes)
{
    wb_rng rng = WB_RNG();
    check_case(w4a16_decode, "w4a16_decode", &rng, DECODE_SHAPES[_i], 0);
}
END_TEST

START_TEST(decode_edges) { check_edges(w4a16_decode, "w4a16_decode"); }
END_TEST

START_TEST(decode_refusals) { check_refusals(w4a16_decode, "w4a16_decode", 16); }
END_TEST

/* ---------------------------------------------------------------- prefill */

static const struct { w4_shape sh; int rows; } PREFILL_SHAPES[] = {
    { { 1, 8, 128 }, 0 },         { { 3, 120, 256 }, 0 },      { { 16, 4104, 4096 }, 0 },
    { { 33, 120, 11008 }, 0 },    { { 33, 4104, 256 }, 0 },    { { 257, 4104, 11008 }, 24 },
    { { 4096, 8, 128 }, 0 },      { { 4096, 120, 11008 }, 48 }, { { 4096, 4104, 4096 }, 32 },
};

START_TEST(prefill_shapes)
{
    wb_rng rng = WB_RNG();
    check_case(w4a16_prefill, "w4a16_prefill", &rng, PREFILL_SHAPES[_i].sh, PREFILL_SHAPES[_i].rows);
}
END_TEST

START_TEST(prefill_edges) { check_edges(w4a16_prefill, "w4a16_prefill"); }
END_TEST

START_TEST(prefill_refusals) { check_refusals(w4a16_prefill, "w4a16_prefill", 1 << 30); }
END_TEST

/* ---------------------------------------------------------------- speed: shared parts */

/* A layer for timing: random words, scales in [2^-9, 2^-6], integer zeros,
 * x uniform in [-1, 1]; host copies for the sampled check. */
typedef struct {
    int M, N, K;
    uint16_t *hx, *hx0;      /* x now (a spot check's salted one) and the first */
    uint32_t *hw;
    uint16_t *hs, *hz;
    uint16_t *dx, *ds, *dz, *dy;
    uint32_t *dw;
    uint16_t *hy;
    w4_fn fn;
} w4_bench;

static void bench_open(w4_bench *b, int M, int N, int K, unsigned long long seed)
{
    wb_rng rng;
    wb_rng_seed(&rng, seed);
    size_t kn = (size_t)K * N;
    memset(b, 0, sizeof *b);
    b->M = M, b->N = N, b->K = K;
    b->hx = wb_hmalloc((size_t)M * K * 2), b->hx0 = wb_hmalloc((size_t)M * K * 2);
    fill_x(&rng, b->hx0, (size_t)M * K);
    memcpy(b->hx, b->hx0, (size_t)M * K * 2);
    b->hw = wb_hmalloc(kn / 2);
    for (size_t i = 0; i < kn / 8; i += 2) {
        uint64_t r = wb_rng_u64(&rng);
        b->hw[i] = (uint32_t)r, b->hw[i + 1] = (uint32_t)(r >> 32);
    }
    b->hs = wb_hmalloc(kn / 64), b->hz = wb_hmalloc(kn / 64);
    for (size_t i = 0; i < kn / 128; i++) {
        b->hs[i] = wb_f32_to_f16((float)ldexp(1.0, -9) * (float)(1.0 + 7.0 * wb_rng_unit(&rng)));
        b->hz[i] = wb_f32_to_f16((float)wb_rng_int(&rng, 0, 15));
    }
    b->dx = wb_dcopy(b->hx0, (size_t)M * K * 2);
    b->dw = wb_dcopy(b->hw, kn / 2);
    b->ds = wb_dcopy(b->hs, kn / 64), b->dz = wb_dcopy(b->hz, kn / 64);
    b->dy = wb_dmalloc((size_t)M * N * 2);
    wb_dpoison(b->dy, (size_t)M * N * 2);
    b->hy = wb_hmalloc((size_t)M * N * 2);
}

static void bench_close(w4_bench *b)
{
    free(b->hx), free(b->hx0), free(b->hw), free(b->hs), free(b->hz), free(b->hy);
    wb_dfree(b->dx), wb_dfree(b->dw), wb_dfree(b->ds), wb_dfree(b->dz), wb_dfree(b->dy);
}

/* The dequantised weight (k, n) of a bench layer, as FP16 bits. */
static uint16_t bench_wd(const w4_bench *b, int k, int n)
{
    size_t sz = (size_t)(k / W4_GROUP) * b->N + n;
    return wb_f32_to_f16(w4_dequant_one(w4_q(b->hw, b->N, k, n), b->hs[sz], b->hz[sz]));
}

/* Check `samples` outputs of y (device, M rows of b's N) against the double
 * reference of x (host): the first and last 32 and random ones. 0 when
 * right, else the count, with the first in why. */
static size_t bench_verify(const w4_bench *b, const uint16_t *x, const uint16_t *dy, int M, int samples, char *why,
                           size_t wsize)
{
    const size_t n = (size_t)M * b->N;
    wb_d2h(b->hy, dy, n * 2);
    wb_rng rng;
    wb_rng_seed(&rng, 0x5eed58);
    size_t bad = 0;
    for (int i = 0; i < samples + 64; i++) {
        size_t e = i < 32 ? (size_t)i : i < 64 ? n - 64 + (size_t)i : (size_t)wb_rng_int(&rng, 0, (int64_t)n - 1);
        if (e >= n) continue;
        int m = (int)(e / b->N), c = (int)(e % b->N);
        double acc = 0, s2 = 0;
        for (int k = 0; k < b->K; k++) {
            double p = (double)wb_f16_to_f32(x[(size_t)m * b->K + k]) * wb_f16_to_f32(bench_wd(b, k, c));
            acc += p, s2 += p * p;
        }
        double got = wb_f16_to_f32(b->hy[e]);
        if (w4_close(got, acc, sqrt(s2))) continue;
        if (!bad++) snprintf(why, wsize, "y[%d][%d] expected %.6g got %.6g", m, c, acc, got);
    }
    return bad;
}

/* ---------------------------------------------------------------- speed: decode */

typedef struct { w4_bench *b; int M; } dec_run;

static void dec_work(void *p)
{
    dec_run *r = p;
    WB_CUDA(w4a16_decode(r->b->dx, r->b->dw, r->b->ds, r->b->dz, r->b->dy, r->M, r->b->N, r->b->K));
}

/* Spot check: new x (salted) and a poisoned y for one timed run; salt 0 puts the first x back. */
static void dec_fresh(void *p, unsigned long long salt)
{
    dec_run *r = p;
    w4_bench *b = r->b;
    size_t n = (size_t)b->M * b->K;
    if (salt) {
        wb_rng rng;
        wb_rng_seed(&rng, salt);
        fill_x(&rng, b->hx, n);
    } else {
        memcpy(b->hx, b->hx0, n * 2);
    }
    wb_h2d(b->dx, b->hx, n * 2);
    wb_dpoison(b->dy, (size_t)b->M * b->N * 2);
}

static int dec_check(void *p, char *why, size_t size)
{
    dec_run *r = p;
    return bench_verify(r->b, r->b->hx, r->b->dy, r->M, 256, why, size) ? 1 : 0;
}

/* Bytes the decode product must move: words, scales and zeros, x, y. */
static double dec_bytes(const w4_bench *b, int M)
{
    double kn = (double)b->K * b->N;
    return kn / 2 + kn / 32 + 2.0 * M * b->K + 2.0 * M * b->N;
}

enum { DEC_K = 16384, DEC_N = 16384, SEED_DEC = 5801, SEED_PRE = 5802 };

static wb_bench_row dec_row(w4_bench *b, int M, double copy)
{
    wb_bench_row row = { .exercise = "w4a16_decode", .n = (size_t)M, .bytes = dec_bytes(b, M),
                         .flops = 2.0 * M * b->K * b->N, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    row.variant = M == 1 ? "yours, M=1" : M == 2 ? "yours, M=2" : M == 4 ? "yours, M=4" : M == 8 ? "yours, M=8"
                                                                                                 : "yours, M=16";
    dec_run r = { b, M };
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = dec_fresh, o.check = dec_check;
    wb_dpoison(b->dy, (size_t)b->M * b->N * 2);
    wb_time(dec_work, &r, &o, &row.t);
    row.value = row.bytes / (row.t.median * 1e-3) / 1e9;
    char why[200];
    if (bench_verify(b, b->hx0, b->dy, M, 1024, why, sizeof why)) wb_bench_invalid(&row, why);
    return row;
}

/* Decode at K = N = 16384 (136 MiB read: 2.7 times the H100's 50 MB L2, which
 * wb_time also overwrites before every sample), M = 1 and M = 16, against a
 * device-to-device copy of the same bytes in the same run; w58.decode-speed
 * judges the slower of the two. */
static double bench_decode(wb_headline *h)
{
    w4_bench b;
    bench_open(&b, 16, DEC_N, DEC_K, SEED_DEC);
    double copy = wb_yard_copy_gbps((size_t)dec_bytes(&b, 16));
    wb_bench_row r1 = dec_row(&b, 1, copy), r16 = dec_row(&b, 16, copy);
    double q1 = r1.invalid ? -1 : wb_bench_ratio(&r1), q16 = r16.invalid ? -1 : wb_bench_ratio(&r16);
    wb_bench_row *head = q1 <= q16 ? &r1 : &r16, *other = q1 <= q16 ? &r16 : &r1;
    wb_bench_emit(other);
    double ratio = wb_bench_headline(head, h); /* the slower (or a wrong one) is the figure */
    bench_close(&b);
    return ratio;
}

/* ---------------------------------------------------------------- speed: prefill */

typedef struct { w4_bench *b; uint16_t *dwd, *dyc; cublasHandle_t h; } pre_run;

static void pre_work(void *p)
{
    pre_run *r = p;
    WB_CUDA(w4a16_prefill(r->b->dx, r->b->dw, r->b->ds, r->b->dz, r->b->dy, r->b->M, r->b->N, r->b->K));
}

/* cuBLAS on the dequantised weights: row-major y = x Wd is column-major
 * y^T = Wd^T x^T, so Wd goes first and nothing is transposed. */
static void pre_cublas(void *p)
{
    pre_run *r = p;
    const float one = 1.f, zero = 0.f;
    w4_bench *b = r->b;
    WB_CUBLAS(cublasGemmEx(r->h, CUBLAS_OP_N, CUBLAS_OP_N, b->N, b->M, b->K, &one, r->dwd, CUDA_R_16F, b->N, b->dx,
                           CUDA_R_16F, b->K, &zero, r->dyc, CUDA_R_16F, b->N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
              "prefill yardstick");
}

static void pre_fresh(void *p, unsigned long long salt)
{
    pre_run *r = p;
    dec_run d = { r->b, r->b->M };
    dec_fresh(&d, salt);
}

static int pre_check(void *p, char *why, size_t size)
{
    pre_run *r = p;
    return bench_verify(r->b, r->b->hx, r->b->dy, r->b->M, 256, why, size) ? 1 : 0;
}

/* The dense FP16 weights cuBLAS multiplies: dequant(W) on the host. */
static uint16_t *dequant_dense(const w4_bench *b)
{
    uint16_t *wd = wb_hmalloc((size_t)b->K * b->N * 2);
    for (int k = 0; k < b->K; k++)
        for (int n = 0; n < b->N; n++) wd[(size_t)k * b->N + n] = bench_wd(b, k, n);
    uint16_t *d = wb_dcopy(wd, (size_t)b->K * b->N * 2);
    free(wd);
    return d;
}

/* Prefill at M = 4096, K = N = 8192 against cublasGemmEx (FP16 in and out,
 * FP32 compute) on the dequantised weights, same data, same run; both
 * outputs checked. */
static double bench_prefill(wb_headline *h)
{
    const int M = 4096, N = 8192, K = 8192;
    w4_bench b;
    bench_open(&b, M, N, K, SEED_PRE);
    pre_run r = { &b, dequant_dense(&b), wb_dmalloc((size_t)M * N * 2), wb_cublas_handle(0) };
    const double flops = 2.0 * M * N * K;
    char why[200];

    wb_bench_row lib = { .exercise = "w4a16_prefill", .variant = "cuBLAS GemmEx, FP16 weights", .n = (size_t)M,
                         .flops = flops, .bytes = 2.0 * M * K + 2.0 * K * N + 2.0 * M * N, .unit = "TFLOP/s" };
    wb_dpoison(r.dyc, (size_t)M * N * 2);
    wb_time(pre_cublas, &r, NULL, &lib.t);
    lib.value = flops / (lib.t.median * 1e-3) / 1e12;
    if (bench_verify(&b, b.hx0, r.dyc, M, 512, why, sizeof why)) wb_bench_invalid(&lib, why);
    wb_bench_emit(&lib);

    wb_bench_row row = { .exercise = "w4a16_prefill", .variant = "yours, 4-bit weights", .n = (size_t)M,
                         .flops = flops, .bytes = 2.0 * M * K + K * (double)N / 2 + K * (double)N / 32 + 2.0 * M * N,
                         .unit = "TFLOP/s", .yard_name = "cuBLAS", .yard = lib.invalid ? NAN : lib.value };
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = pre_fresh, o.check = pre_check;
    wb_dpoison(b.dy, (size_t)M * N * 2);
    wb_time(pre_work, &r, &o, &row.t);
    row.value = flops / (row.t.median * 1e-3) / 1e12;
    if (bench_verify(&b, b.hx0, b.dy, M, 512, why, sizeof why)) wb_bench_invalid(&row, why);
    double ratio = wb_bench_headline(&row, h);
    cublasDestroy(r.h);
    wb_dfree(r.dwd), wb_dfree(r.dyc);
    bench_close(&b);
    return ratio;
}

/* ---------------------------------------------------------------- the batch ladder (no checkpoint) */

typedef struct { w4_bench *b; uint16_t *dwd; cublasHandle_t h; int M; } dense_run;

static void dense_work(void *p)
{
    dense_run *r = p;
    const float one = 1.f, zero = 0.f;
    WB_CUBLAS(cublasGemmEx(r->h, CUBLAS_OP_N, CUBLAS_OP_N, r->b->N, r->M, r->b->K, &one, r->dwd, CUDA_R_16F, r->b->N,
                           r->b->dx, CUDA_R_16F, r->b->K, &zero, r->b->dy, CUDA_R_16F, r->b->N, CUBLAS_COMPUTE_32F,
                           CUBLAS_GEMM_DEFAULT),
              "dense decode");
}

static void pre16_work(void *p)
{
    dec_run *r = p;
    WB_CUDA(w4a16_prefill(r->b->dx, r->b->dw, r->b->ds, r->b->dz, r->b->dy, r->M, r->b->N, r->b->K));
}

/* Decode at M = 1, 2, 4, 8, 16 against COPY; cuBLAS on the same weights in
 * FP16 (four times the bytes) at M = 1 and 16; and the prefill kernel at
 * M = 16, where the decode kernel should win. `--bench batch`. */
static double bench_batch(void)
{
    w4_bench b;
    bench_open(&b, 16, DEC_N, DEC_K, SEED_DEC);
    double copy = wb_yard_copy_gbps((size_t)dec_bytes(&b, 16));
    const int MS[] = { 1, 2, 4, 8, 16 };
    double t_dec[5] = { 0 };
    for (int i = 0; i < 5; i++) {
        wb_bench_row r = dec_row(&b, MS[i], copy);
        wb_bench_emit(&r);
        t_dec[i] = r.invalid ? NAN : r.t.median;
    }
    dense_run d = { &b, dequant_dense(&b), wb_cublas_handle(0), 1 };
    for (int i = 0; i < 2; i++) {
        d.M = i ? 16 : 1;
        wb_bench_row r = { .exercise = "w4a16_decode", .variant = i ? "cuBLAS FP16 weights, M=16" : "cuBLAS FP16 weights, M=1",
                           .n = (size_t)d.M, .bytes = 2.0 * b.K * b.N + 2.0 * d.M * (b.K + b.N), .unit = "GB/s",
                           .yard_name = "COPY", .yard = copy };
        wb_dpoison(b.dy, (size_t)b.M * b.N * 2);
        wb_time(dense_work, &d, NULL, &r.t);
        r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
        char why[200];
        if (bench_verify(&b, b.hx0, b.dy, d.M, 256, why, sizeof why)) wb_bench_invalid(&r, why);
        wb_bench_emit(&r);
        printf("  M = %d: 4-bit weights %.1f us, FP16 weights (cuBLAS) %.1f us: %.2f times faster\n", d.M,
               1e3 * t_dec[i ? 4 : 0], 1e3 * r.t.median, r.t.median / t_dec[i ? 4 : 0]);
    }
    dec_run p16 = { &b, 16 };
    wb_bench_row r = { .exercise = "w4a16_prefill", .variant = "yours, M=16", .n = 16, .bytes = dec_bytes(&b, 16),
                       .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    wb_dpoison(b.dy, (size_t)b.M * b.N * 2);
    wb_time(pre16_work, &p16, NULL, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    char why[200];
    if (bench_verify(&b, b.hx0, b.dy, 16, 256, why, sizeof why)) wb_bench_invalid(&r, why);
    wb_bench_emit(&r);
    printf("  M = 16: the prefill kernel takes %.2f times the decode kernel's time\n", r.t.median / t_dec[4]);
    cublasDestroy(d.h);
    wb_dfree(d.dwd);
    bench_close(&b);
    return NAN;
}

static const wb_test TESTS[] = {
    { "w58.decode", WB_T(quant_layout), WB_CPU, 0 },
    { "w58.decode", WB_T(quant_error), WB_CPU, 0 },
    { "w58.decode", WB_T(decode_refusals), WB_CPU, 0 },
    { "w58.decode", WB_T(decode_shapes), WB_GPU, WB_COUNT(DECODE_SHAPES) },
    { "w58.decode", WB_T(decode_edges), WB_GPU, 0 },
    { "w58.prefill", WB_T(prefill_refusals), WB_CPU, 0 },
    { "w58.prefill", WB_T(prefill_shapes), WB_GPU, WB_COUNT(PREFILL_SHAPES) },
    { "w58.prefill", WB_T(prefill_edges), WB_GPU, 0 },
    WB_SPEED("w58.decode-speed", bench_decode),
    WB_SPEED("w58.prefill-speed", bench_prefill),
};

/* Benchmarks that serve no checkpoint; `--bench` also runs the WB_SPEED ones
 * (decode, prefill). */
static const wb_benchmark BENCHES[] = {
    { "batch", bench_batch },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
