/* test_week15.c — week 15's checkpoints: the traffic model, a fused GELU
 * chain, the L2 norm in one pass, a first softmax, producer and consumer in
 * registers, GEMM + bias + ReLU, and a fusion that does not pay. Every fused
 * kernel's speed is its GB/s (the bytes it must move) against a
 * device-to-device copy timed in the same run; the given unfused chain
 * (support/yard_unfused.cu) runs on the same data beside it, a report row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "traffic.h"
#include "gelu_chain.h"
#include "norm.h"
#include "softmax.h"
#include "smooth.h"
#include "linear.h"

/* Bytes per element of each chain, unfused and fused (the model of
 * traffic.h): the rows' byte counts, and what traffic_bytes must say. */
static const double BYTES[TR_CHAINS][2] = {
    [TR_GELU] = { 36, 12 }, [TR_L2NORM] = { 12, 4 }, [TR_SOFTMAX] = { 16, 8 },
    [TR_SMOOTH] = { 16, 8 }, [TR_NORMALIZE] = { 12, 12 },
};
static const char *const CHAIN_NAMES[TR_CHAINS] = { "gelu chain", "l2norm", "softmax", "smooth", "normalize" };

/* ---------------------------------------------------------------- traffic (CPU) */

START_TEST(traffic_model)
{
    for (int c = 0; c < TR_CHAINS; c++)
        for (int f = 0; f < 2; f++) {
            double got = traffic_bytes(c, f);
            ck_assert_msg(got == BYTES[c][f], "%s, %s: traffic_bytes says %g bytes an element; count again (%s)",
                          CHAIN_NAMES[c], f ? "fused" : "unfused", got,
                          f ? "your one kernel: what must it read, what must it write?"
                            : "support/yard_unfused.cu: each kernel's reads and writes, added up");
        }
    ck_assert_msg(traffic_bytes(TR_CHAINS, 0) == -1 && traffic_bytes(-1, 1) == -1 && traffic_bytes(TR_GELU, 2) == -1,
                  "a chain or version that does not exist must give -1");
}
END_TEST

/* ---------------------------------------------------------------- GELU chain */

static double gelu_ref(double v) { return v / (1.0 + exp(-1.5957691216057308 * (v + 0.044715 * v * v * v))); }

static const int GSHAPES[][2] = { { 0, 7 },      { 7, 0 },     { 1, 1 },     { 1, 3 },      { 3, 5 },     { 2, 4 },
                                  { 5, 1023 },   { 33, 1024 }, { 17, 4097 }, { 1000, 257 }, { 300, 4096 }, { 70000, 8 } };

/* rows x cols from the generator's fresh numbers, x, bias and r starting ox,
 * ob and orr floats into their buffers, y oy floats into a guarded one. */
static void check_gelu(wb_rng *rng, int rows, int cols, size_t ox, size_t ob, size_t orr, size_t oy)
{
    size_t n = (size_t)(rows > 0 ? rows : 0) * (size_t)(cols > 0 ? cols : 0), nb = cols > 0 ? (size_t)cols : 0;
    float *hx = wb_hmalloc((n + ox) * 4), *hb = wb_hmalloc((nb + ob) * 4), *hr = wb_hmalloc((n + orr) * 4);
    double *ref = wb_hmalloc(n * 8);
    wb_fill_uniform_f32(rng, hx, n + ox, -6, 6);
    wb_fill_uniform_f32(rng, hb, nb + ob, -1, 1);
    wb_fill_uniform_f32(rng, hr, n + orr, -1, 1);
    float s = (float)(0.5 + wb_rng_unit(rng));
    if (n >= 4) hx[ox] = NAN, hx[ox + 1] = INFINITY, hx[ox + 2] = 1e20f, hx[ox + 3] = -1e20f;
    for (size_t i = 0; i < n; i++)
        ref[i] = hr[orr + i] + s * gelu_ref((double)hx[ox + i] + hb[ob + i % (size_t)cols]);
    float *dx = wb_dcopy(hx, (n + ox) * 4), *db = wb_dcopy(hb, (nb + ob) * 4), *dr = wb_dcopy(hr, (n + orr) * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    WB_CUDA(gelu_chain_fused(dx ? dx + ox : NULL, db ? db + ob : NULL, dr ? dr + orr : NULL, dy, rows, cols, s));
    char what[128];
    snprintf(what, sizeof what, "rows=%d cols=%d, offsets x+%zu bias+%zu r+%zu y+%zu", rows, cols, ox, ob, orr, oy);
    wb_expect_dout_f32_f64(&y, ref, n, 5e-5, 1e-5, what);
    wb_dfree(dx), wb_dfree(db), wb_dfree(dr), wb_dout_free(&y);
    free(hx), free(hb), free(hr), free(ref);
}

START_TEST(gelu_shapes)
{
    wb_rng rng = WB_RNG();
    check_gelu(&rng, GSHAPES[_i][0], GSHAPES[_i][1], 0, 0, 0, 0);
}
END_TEST

/* Pointers that are not 16-byte aligned: the float4 path must not be taken.
 * Each of the four pointers is misaligned alone once (a kernel that checks
 * three of them faults there), then several together. */
static const size_t GOFFS[][4] = { { 0, 0, 0, 0 }, { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 },
                                   { 0, 0, 0, 1 }, { 0, 0, 0, 2 }, { 1, 1, 1, 3 }, { 2, 3, 1, 0 } };

START_TEST(gelu_offsets)
{
    wb_rng rng = WB_RNG();
    int rows = (int)wb_rng_int(&rng, 1, 300), cols = 4 * (int)wb_rng_int(&rng, 1, 300);
    check_gelu(&rng, rows, cols, GOFFS[_i][0], GOFFS[_i][1], GOFFS[_i][2], GOFFS[_i][3]);
}
END_TEST

/* ---------------------------------------------------------------- L2 norm */

static const size_t NSIZES[] = { 0, 1, 3, 4, 5, 255, 1024, 1025, 4099, 65537, 1000003, ((size_t)1 << 24) + 3 };

/* norm_l2 of hx[off .. off+n) into a guarded float, against want. */
static void check_l2norm(const float *hx, size_t n, size_t off, double want, const char *what)
{
    float *dx = wb_dcopy(hx, (n + off) * 4);
    void *tmp = wb_dmalloc(norm_tmp_bytes());
    wb_dpoison(tmp, norm_tmp_bytes());
    wb_dout out;
    float *dout = wb_dout_alloc(&out, "norm", 4, 0);
    WB_CUDA(norm_l2(dx ? dx + off : NULL, n, dout, tmp));
    wb_expect_dout_f32_f64(&out, &want, 1, 0, 2e-5, what);
    wb_dfree(dx), wb_dfree(tmp), wb_dout_free(&out);
}

START_TEST(l2norm_sizes)
{
    wb_rng rng = WB_RNG();
    size_t n = NSIZES[_i], off = (size_t)(_i % 3);
    float *hx = wb_hmalloc((n + off) * 4);
    wb_fill_uniform_f32(&rng, hx, n + off, -2, 2);
    double sq = 0;
    for (size_t i = 0; i < n; i++) sq += (double)hx[off + i] * hx[off + i];
    char what[64];
    snprintf(what, sizeof what, "n=%zu, x+%zu", n, off);
    check_l2norm(hx, n, off, sqrt(sq), what);
    free(hx);
}
END_TEST

START_TEST(l2norm_specials)
{
    wb_rng rng = WB_RNG();
    size_t n = (size_t)wb_rng_int(&rng, 2, 300000), at = (size_t)wb_rng_int(&rng, 0, (int64_t)n - 1);
    float *hx = wb_hmalloc(n * 4);
    wb_fill_uniform_f32(&rng, hx, n, -1, 1);
    const char *what = _i == 0 ? "a NaN" : _i == 1 ? "an Inf" : "-Inf and a NaN";
    if (_i == 0) hx[at] = NAN;
    else if (_i == 1) hx[at] = INFINITY;
    else hx[0] = -INFINITY, hx[n - 1] = NAN;
    char msg[64];
    snprintf(msg, sizeof msg, "n=%zu with %s", n, what);
    check_l2norm(hx, n, 0, _i == 1 ? INFINITY : NAN, msg);
    free(hx);
}
END_TEST

/* ---------------------------------------------------------------- softmax */

static const int SSHAPES[][2] = { { 0, 5 },    { 5, 0 },     { 1, 1 },   { 1, 4 },     { 3, 3 },      { 7, 31 },
                                  { 9, 32 },   { 6, 33 },    { 16, 128 }, { 10, 1000 }, { 33, 1024 },  { 6, 1025 },
                                  { 8, 4096 }, { 6, 5000 },  { 2000, 64 }, { 1000, 512 }, { 7, 1028 } };

/* The rows' specials: row 0 near 3e4 (exp overflows without the max), row 1
 * of +-1e30, row 2 with -Inf entries, row 3 all -Inf, row 4 a NaN, row 5 a
 * +Inf; the last three give NaN rows. */
static void softmax_specials(wb_rng *rng, float *x, int rows, int cols)
{
    if (rows < 6 || cols < 2) return;
    for (int j = 0; j < cols; j++) {
        x[j] = 3e4f + (float)(wb_rng_unit(rng) * 16 - 8);
        x[(size_t)cols + j] = (float)((wb_rng_unit(rng) * 2 - 1) * 1e30);
        if (j % 3 == 1) x[2 * (size_t)cols + j] = -INFINITY;
        x[3 * (size_t)cols + j] = -INFINITY;
    }
    x[4 * (size_t)cols + (size_t)wb_rng_int(rng, 0, cols - 1)] = NAN;
    x[5 * (size_t)cols + (size_t)wb_rng_int(rng, 0, cols - 1)] = INFINITY;
}

static void softmax_ref(const float *x, double *y, int rows, int cols)
{
    for (int i = 0; i < rows; i++) {
        const float *xr = x + (size_t)i * cols;
        double *yr = y + (size_t)i * cols, m = -INFINITY, s = 0;
        for (int j = 0; j < cols; j++)
            if (xr[j] > m) m = xr[j]; /* NaN is skipped, as fmaxf does: its exp makes the row NaN anyway */
        for (int j = 0; j < cols; j++) s += yr[j] = exp((double)xr[j] - m);
        for (int j = 0; j < cols; j++) yr[j] /= s;
    }
}

static void check_softmax(wb_rng *rng, int rows, int cols, size_t ox, size_t oy)
{
    size_t n = (size_t)(rows > 0 ? rows : 0) * (size_t)(cols > 0 ? cols : 0);
    float *hx = wb_hmalloc((n + ox) * 4);
    double *ref = wb_hmalloc(n * 8);
    wb_fill_uniform_f32(rng, hx, n + ox, -5, 5);
    softmax_specials(rng, hx + ox, rows, cols);
    softmax_ref(hx + ox, ref, rows, cols);
    float *dx = wb_dcopy(hx, (n + ox) * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    WB_CUDA(softmax_fused(dx ? dx + ox : NULL, dy, rows, cols));
    char what[128];
    snprintf(what, sizeof what, "rows=%d cols=%d, x+%zu y+%zu%s", rows, cols, ox, oy,
             rows >= 6 && cols >= 2 ? " (rows 0-5: near 3e4, +-1e30, some -Inf, all -Inf, a NaN, a +Inf)" : "");
    wb_expect_dout_f32_f64(&y, ref, n, 1e-7, 2e-5, what);
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref);
}

START_TEST(softmax_shapes)
{
    wb_rng rng = WB_RNG();
    check_softmax(&rng, SSHAPES[_i][0], SSHAPES[_i][1], 0, 0);
}
END_TEST

START_TEST(softmax_offsets)
{
    wb_rng rng = WB_RNG();
    int rows = (int)wb_rng_int(&rng, 6, 200), cols = 4 * (int)wb_rng_int(&rng, 1, 300);
    check_softmax(&rng, rows, cols, (size_t)(_i & 1), (size_t)(_i >> 1));
}
END_TEST

/* ---------------------------------------------------------------- smooth */

static const size_t MSIZES[] = { 0, 1, 2, 3, 4, 5, 7, 8, 127, 128, 129, 255, 256, 257, 1023, 4096, 4097, 65537,
                                 1000003, ((size_t)1 << 22) + 1 };

static double bell(double v) { return exp(-v * v); }

static void check_smooth(wb_rng *rng, size_t n, size_t ox, size_t oy)
{
    float *hx = wb_hmalloc((n + ox) * 4);
    double *ref = wb_hmalloc(n * 8);
    wb_fill_uniform_f32(rng, hx, n + ox, -3, 3);
    float *x = hx + ox;
    if (n >= 8) x[1] = NAN, x[n / 2] = INFINITY, x[n - 2] = -INFINITY, x[n - 4] = 1e20f;
    for (size_t i = 0; i < n; i++)
        ref[i] = 0.25 * ((i > 0 ? bell(x[i - 1]) : 0) + (i + 1 < n ? bell(x[i + 1]) : 0)) + 0.5 * bell(x[i]);
    float *dx = wb_dcopy(hx, (n + ox) * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    WB_CUDA(smooth_fused(dx ? dx + ox : NULL, dy, n));
    char what[128];
    snprintf(what, sizeof what, "n=%zu, x+%zu y+%zu%s", n, ox, oy, n >= 8 ? " (NaN at 1, +Inf at n/2, -Inf at n-2)" : "");
    wb_expect_dout_f32_f64(&y, ref, n, 1e-6, 1e-5, what);
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref);
}

START_TEST(smooth_sizes)
{
    wb_rng rng = WB_RNG();
    check_smooth(&rng, MSIZES[_i], 0, 0);
}
END_TEST

START_TEST(smooth_offsets)
{
    wb_rng rng = WB_RNG();
    check_smooth(&rng, (size_t)wb_rng_int(&rng, 100, 300000), (size_t)(_i & 3), (size_t)(_i >> 2));
}
END_TEST

/* ---------------------------------------------------------------- linear */

static void check_linear(wb_rng *rng, int M, int N, int K, int nan)
{
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    float *hA = wb_hmalloc(na * 4 + 4), *hB = wb_hmalloc(nb * 4 + 4), *hbias = wb_hmalloc((size_t)N * 4);
    double *ref = wb_hmalloc(nc * 8), *ref2 = wb_hmalloc(nc * 8);
    wb_fill_uniform_f32(rng, hA, na + 1, -1, 1); /* one more: never NULL on the device, even for K = 0 */
    wb_fill_uniform_f32(rng, hB, nb + 1, -1, 1);
    wb_fill_uniform_f32(rng, hbias, (size_t)N, -1, 1);
    if (nan && na) hA[0] = NAN; /* row 0 of C is NaN, ReLU included */
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0;
            for (int k = 0; k < K; k++) acc += (double)hA[(size_t)i * K + k] * hB[(size_t)k * N + j];
            double v = acc + hbias[j];
            ref[(size_t)i * N + j] = acc;
            ref2[(size_t)i * N + j] = v < 0 ? 0 : v;
        }
    float *dA = wb_dcopy(hA, na * 4 + 4), *dB = wb_dcopy(hB, nb * 4 + 4), *dbias = wb_dcopy(hbias, (size_t)N * 4);
    wb_dout C;
    float *dC = wb_dout_alloc(&C, "C", nc * 4, 0);
    char what[96];
    snprintf(what, sizeof what, "linear_sgemm, M=%d N=%d K=%d%s", M, N, K, nan && na ? ", A[0][0] NaN" : "");
    WB_CUDA(linear_sgemm(dA, dB, dC, M, N, K));
    wb_expect_dout_f32_f64(&C, ref, nc, 1e-6 * K + 1e-6, 1e-5, what);
    wb_dout_poison(&C);
    snprintf(what, sizeof what, "linear_sgemm_bias_relu, M=%d N=%d K=%d%s", M, N, K, nan && na ? ", A[0][0] NaN" : "");
    WB_CUDA(linear_sgemm_bias_relu(dA, dB, dbias, dC, M, N, K));
    wb_expect_dout_f32_f64(&C, ref2, nc, 1e-6 * K + 1e-6, 1e-5, what);
    wb_dfree(dA), wb_dfree(dB), wb_dfree(dbias), wb_dout_free(&C);
    free(hA), free(hB), free(hbias), free(ref), free(ref2);
}

START_TEST(linear_shapes)
{
    static const int S[][3] = { { 1, 1, 1 },    { 1, 17, 33 },   { 33, 1, 65 },  { 31, 33, 35 },   { 64, 64, 64 },
                                { 65, 129, 17 }, { 100, 257, 129 }, { 5, 7, 0 },  { 257, 31, 300 }, { 128, 192, 256 } };
    wb_rng rng = WB_RNG();
    check_linear(&rng, S[_i][0], S[_i][1], S[_i][2], _i % 2);
}
END_TEST

/* ---------------------------------------------------------------- normalize */

static void check_normalize(wb_rng *rng, size_t n, size_t ox, size_t oy, int zero)
{
    float *hx = wb_hmalloc((n + ox) * 4);
    double *ref = wb_hmalloc(n * 8);
    wb_fill_uniform_f32(rng, hx, n + ox, -2, 2);
    if (zero) memset(hx, 0, (n + ox) * 4);
    double sq = 0;
    for (size_t i = 0; i < n; i++) sq += (double)hx[ox + i] * hx[ox + i];
    for (size_t i = 0; i < n; i++) ref[i] = hx[ox + i] / sqrt(sq); /* 0 / 0 is NaN */
    float *dx = wb_dcopy(hx, (n + ox) * 4);
    void *tmp = wb_dmalloc(norm_tmp_bytes());
    wb_dpoison(tmp, norm_tmp_bytes());
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    WB_CUDA(normalize_fused(dx ? dx + ox : NULL, dy, n, tmp));
    char what[96];
    snprintf(what, sizeof what, "n=%zu, x+%zu y+%zu%s", n, ox, oy, zero ? ", all zeros: 0/0 is NaN" : "");
    wb_expect_dout_f32_f64(&y, ref, n, 1e-7, 2e-5, what);
    wb_dfree(dx), wb_dfree(tmp), wb_dout_free(&y);
    free(hx), free(ref);
}

START_TEST(normalize_sizes)
{
    static const size_t S[] = { 0, 1, 3, 4, 5, 1000, 4099, 65537, 1000003, ((size_t)1 << 24) + 1 };
    wb_rng rng = WB_RNG();
    check_normalize(&rng, S[_i], (size_t)(_i % 2), (size_t)(_i % 3), 0);
}
END_TEST

START_TEST(normalize_zero)
{
    wb_rng rng = WB_RNG();
    check_normalize(&rng, 1000, 0, 0, 1);
}
END_TEST

/* ---------------------------------------------------------------- benchmarks */

enum { SEED_X = 151, SEED_R = 152, SEED_B = 153, SEED_A = 154, SEED_W = 155 };
static const float GS = 0.75f;

/* Prints what the bytes predict beside what the rows measured. */
static void print_traffic(int chain, const wb_bench_row *u, const wb_bench_row *f, size_t n, double copy)
{
    double bu = BYTES[chain][0], bf = BYTES[chain][1];
    printf("    traffic, %s: unfused %g B/elem, fused %g B/elem: the bytes allow %.2fx.", CHAIN_NAMES[chain], bu, bf, bu / bf);
    if (!u->invalid && !f->invalid)
        printf(" Measured %.2fx; unfused %.0f GB/s, fused %.0f GB/s, COPY %.0f GB/s", u->t.median / f->t.median,
               bu * n / (u->t.median * 1e6), bf * n / (f->t.median * 1e6), copy);
    printf("\n");
}

/* Times one version into *r (GB/s of the bytes the row counts), then checks the
 * timed output; the array is poisoned first so a missing write shows. Your
 * version is timed with a spot check (spot: its fresh and check, as week 01's
 * vecadd): one timed run on new inputs into a poisoned output, verified; the
 * given chain with none (spot NULL). */
static void time_version(wb_bench_row *r, wb_work_fn fn, void *ctx, float *out, size_t out_n,
                         wb_expect_fn expect, const void *ectx, size_t samples, double atol, double rtol,
                         const wb_bench_opts *spot)
{
    wb_dpoison(out, out_n * 4);
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    if (spot) o.fresh = spot->fresh, o.check = spot->check;
    wb_time(fn, ctx, &o, &r->t);
    r->value = r->bytes / (r->t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32(r->variant, out, out_n, expect, ectx, samples, atol, rtol, &cmp)) wb_bench_invalid(r, cmp.msg);
}

/* -- GELU chain: 4096 columns, rows filling wb_bench_bytes() */
typedef struct { const float *x, *b, *r; float *t, *y; int rows, cols; unsigned long long salt; } gc_ctx;
static void gc_unfused(void *p)
{
    gc_ctx *c = p;
    WB_CUDA(yard_gelu_chain_unfused(c->x, c->b, c->r, c->t, c->y, c->rows, c->cols, GS));
}
static void gc_fused(void *p)
{
    gc_ctx *c = p;
    WB_CUDA(gelu_chain_fused(c->x, c->b, c->r, c->y, c->rows, c->cols, GS));
}
static double gc_expect(size_t i, const void *p)
{
    const gc_ctx *c = p;
    double v = (double)wb_hash_uniform_f32(SEED_X + c->salt, i, -6, 6) +
               wb_hash_uniform_f32(SEED_B, i % (size_t)c->cols, -1, 1);
    return wb_hash_uniform_f32(SEED_R + c->salt, i, -1, 1) + GS * gelu_ref(v);
}
/* The spot check of your timing: new x and r (salt 0: the first ones back), y poisoned. */
static void gc_fresh(void *p, unsigned long long salt)
{
    gc_ctx *c = p;
    size_t n = (size_t)c->rows * (size_t)c->cols;
    c->salt = salt;
    wb_dfill_uniform_f32((float *)c->x, n, SEED_X + salt, -6, 6);
    wb_dfill_uniform_f32((float *)c->r, n, SEED_R + salt, -1, 1);
    wb_dpoison(c->y, n * 4);
}
static int gc_check(void *p, char *why, size_t size)
{
    const gc_ctx *c = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("y", c->y, (size_t)c->rows * (size_t)c->cols, gc_expect, c, 1 << 12, 5e-5, 1e-5, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

static double bench_gelu(wb_headline *h)
{
    const int cols = 4096;
    size_t bytes = wb_bench_bytes(), rows = bytes / 4 / cols, n = rows * cols;
    gc_ctx c = { wb_dmalloc(n * 4), wb_dmalloc(cols * 4), wb_dmalloc(n * 4), wb_dmalloc(n * 4), wb_dmalloc(n * 4),
                 (int)rows, cols, 0 };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_X, -6, 6);
    wb_dfill_uniform_f32((float *)c.b, cols, SEED_B, -1, 1);
    wb_dfill_uniform_f32((float *)c.r, n, SEED_R, -1, 1);
    double copy = wb_yard_copy_gbps(n * 4);
    wb_bench_row u = { .exercise = "gelu chain", .variant = "given: 4 kernels", .n = n, .bytes = 36.0 * n,
                       .flops = 14.0 * n, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    time_version(&u, gc_unfused, &c, c.y, n, gc_expect, &c, 1 << 14, 5e-5, 1e-5, NULL);
    wb_bench_emit(&u);
    wb_bench_row f = { .exercise = "gelu chain", .variant = "yours: fused", .n = n, .bytes = 12.0 * n,
                       .flops = 14.0 * n, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    const wb_bench_opts spot = { .fresh = gc_fresh, .check = gc_check };
    time_version(&f, gc_fused, &c, c.y, n, gc_expect, &c, 1 << 14, 5e-5, 1e-5, &spot);
    double ratio = wb_bench_headline(&f, h);
    print_traffic(TR_GELU, &u, &f, n, copy);
    wb_dfree((void *)c.x), wb_dfree((void *)c.b), wb_dfree((void *)c.r), wb_dfree(c.t), wb_dfree(c.y);
    return ratio;
}

/* -- L2 norm and normalize: n = wb_bench_bytes() / 4 */
/* x is uniform in [-amp, amp] drawn with SEED_X + salt; norm is its norm
 * (norm0: the first x's, amp 1 and salt 0). */
typedef struct {
    const float *x;
    float *t, *y, *out;
    void *tmp;
    size_t n;
    double norm, norm0;
    float amp;
    unsigned long long salt;
} nm_ctx;
static void nm_unfused(void *p)
{
    nm_ctx *c = p;
    WB_CUDA(yard_l2norm_unfused(c->x, c->t, c->n, c->out, c->tmp));
}
static void nm_fused(void *p)
{
    nm_ctx *c = p;
    WB_CUDA(norm_l2(c->x, c->n, c->out, c->tmp));
}
static void nz_unfused(void *p)
{
    nm_ctx *c = p;
    WB_CUDA(yard_normalize_unfused(c->x, c->y, c->n, c->out, c->tmp));
}
static void nz_fused(void *p)
{
    nm_ctx *c = p;
    WB_CUDA(normalize_fused(c->x, c->y, c->n, c->tmp));
}
static double nm_expect(size_t i, const void *p)
{
    (void)i;
    return ((const nm_ctx *)p)->norm;
}
static double nz_expect(size_t i, const void *p)
{
    const nm_ctx *c = p;
    return wb_hash_uniform_f32(SEED_X + c->salt, i, -c->amp, c->amp) / c->norm;
}

/* The norm of the device vector x, summed in double on the host. */
static double nm_host_norm(const float *x, size_t n)
{
    float *h = wb_hmalloc(n * 4);
    wb_d2h(h, x, n * 4);
    double sq = 0;
    for (size_t i = 0; i < n; i++) sq += (double)h[i] * h[i];
    free(h);
    return sqrt(sq);
}

/* The spot check of your norm_l2's timing: a new x, twice as wide, so its
 * norm is about twice the first (a remembered answer cannot pass; a new draw
 * of the same width moves the norm of 10^8 elements by about 6e-5, close
 * enough to the 2e-5 tolerance to pass by luck), and the output poisoned.
 * Salt 0 puts the first x back. */
static void nm_fresh(void *p, unsigned long long salt)
{
    nm_ctx *c = p;
    c->salt = salt, c->amp = salt ? 2.0f : 1.0f;
    wb_dfill_uniform_f32((float *)c->x, c->n, SEED_X + salt, -c->amp, c->amp);
    c->norm = salt ? nm_host_norm(c->x, c->n) : c->norm0;
    wb_dpoison(c->out, 4);
}
static int nm_check(void *p, char *why, size_t size)
{
    const nm_ctx *c = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("norm", c->out, 1, nm_expect, c, 1, 0, 2e-5, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* The vector, its norm from a host copy summed in double. */
static nm_ctx nm_setup(int with_y)
{
    size_t n = wb_bench_bytes() / 4;
    nm_ctx c = { wb_dmalloc(n * 4), NULL, with_y ? wb_dmalloc(n * 4) : NULL, wb_dmalloc(4), wb_dmalloc(norm_tmp_bytes()), n,
                 0, 0, 1.0f, 0 };
    if (!with_y) c.t = wb_dmalloc(n * 4);
    wb_dfill_uniform_f32((float *)c.x, n, SEED_X, -1, 1);
    c.norm = c.norm0 = nm_host_norm(c.x, n);
    return c;
}
static void nm_free(nm_ctx *c)
{
    wb_dfree((void *)c->x), wb_dfree(c->t), wb_dfree(c->y), wb_dfree(c->out), wb_dfree(c->tmp);
}

static double bench_l2norm(wb_headline *h)
{
    nm_ctx c = nm_setup(0);
    size_t n = c.n;
    double copy = wb_yard_copy_gbps(n * 4);
    wb_bench_row u = { .exercise = "l2norm", .variant = "given: square, then sum", .n = n, .bytes = 12.0 * n,
                       .flops = 2.0 * n, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    time_version(&u, nm_unfused, &c, c.out, 1, nm_expect, &c, 1, 0, 2e-5, NULL);
    wb_bench_emit(&u);
    wb_bench_row f = { .exercise = "l2norm", .variant = "yours: square in the load", .n = n, .bytes = 4.0 * n,
                       .flops = 2.0 * n, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    const wb_bench_opts spot = { .fresh = nm_fresh, .check = nm_check };
    time_version(&f, nm_fused, &c, c.out, 1, nm_expect, &c, 1, 0, 2e-5, &spot);
    double ratio = wb_bench_headline(&f, h);
    print_traffic(TR_L2NORM, &u, &f, n, copy);
    nm_free(&c);
    return ratio;
}

static char nz_figure[200];
static char nz_detail[600]; /* the last row's detail (wb_bench_detail), for the test's message */

/* The fusion that does not pay: no target, the ratio is reported. */
static double bench_normalize(void)
{
    nm_ctx c = nm_setup(1);
    size_t n = c.n;
    double copy = wb_yard_copy_gbps(n * 4);
    wb_bench_row u = { .exercise = "normalize", .variant = "l2norm, then divide", .n = n, .bytes = 12.0 * n,
                       .flops = 3.0 * n, .unit = "GB/s" };
    time_version(&u, nz_unfused, &c, c.y, n, nz_expect, &c, 1 << 14, 1e-9, 2e-5, NULL);
    wb_bench_emit(&u);
    wb_bench_row f = { .exercise = "normalize", .variant = "yours: one kernel, grid sync", .n = n, .bytes = 12.0 * n,
                       .flops = 3.0 * n, .unit = "GB/s", .yard_name = "UNFUSED", .yard = u.invalid ? NAN : u.value };
    time_version(&f, nz_fused, &c, c.y, n, nz_expect, &c, 1 << 14, 1e-9, 2e-5, NULL);
    wb_bench_emit(&f);
    wb_bench_detail(&f, nz_detail, sizeof nz_detail);
    print_traffic(TR_NORMALIZE, &u, &f, n, copy);
    double ratio = f.invalid || u.invalid ? NAN : wb_bench_ratio(&f);
    snprintf(nz_figure, sizeof nz_figure, "n=%zu: two kernels %.4f ms, one cooperative kernel %.4f ms: %.3fx (12 B/elem each)",
             n, u.t.median, f.t.median, ratio);
    nm_free(&c);
    return ratio;
}

/* -- softmax: 1024 columns */
typedef struct { const float *x; float *m, *s, *y; int rows, cols; unsigned long long salt; } sm_ctx;
static void sm_unfused(void *p)
{
    sm_ctx *c = p;
    WB_CUDA(yard_softmax_unfused(c->x, c->m, c->s, c->y, c->rows, c->cols));
}
static void sm_fused(void *p)
{
    sm_ctx *c = p;
    WB_CUDA(softmax_fused(c->x, c->y, c->rows, c->cols));
}
static double sm_expect(size_t i, const void *p)
{
    const sm_ctx *c = p;
    size_t row = i / (size_t)c->cols, base = row * (size_t)c->cols;
    double m = -INFINITY, s = 0;
    const unsigned long long seed = SEED_X + c->salt;
    for (int j = 0; j < c->cols; j++) m = fmax(m, wb_hash_uniform_f32(seed, base + j, -4, 4));
    for (int j = 0; j < c->cols; j++) s += exp(wb_hash_uniform_f32(seed, base + j, -4, 4) - m);
    return exp(wb_hash_uniform_f32(seed, i, -4, 4) - m) / s;
}
/* The spot check of your timing: a new x (salt 0: the first back), y poisoned. */
static void sm_fresh(void *p, unsigned long long salt)
{
    sm_ctx *c = p;
    size_t n = (size_t)c->rows * (size_t)c->cols;
    c->salt = salt;
    wb_dfill_uniform_f32((float *)c->x, n, SEED_X + salt, -4, 4);
    wb_dpoison(c->y, n * 4);
}
static int sm_check(void *p, char *why, size_t size)
{
    const sm_ctx *c = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("y", c->y, (size_t)c->rows * (size_t)c->cols, sm_expect, c, 1 << 10, 1e-7, 2e-5, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

static double bench_softmax(wb_headline *h)
{
    const int cols = 1024;
    size_t rows = wb_bench_bytes() / 4 / cols, n = rows * cols;
    sm_ctx c = { wb_dmalloc(n * 4), wb_dmalloc(rows * 4), wb_dmalloc(rows * 4), wb_dmalloc(n * 4), (int)rows, cols, 0 };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_X, -4, 4);
    double copy = wb_yard_copy_gbps(n * 4);
    wb_bench_row u = { .exercise = "softmax", .variant = "given: max, sum, normalise", .n = n, .bytes = 16.0 * n,
                       .flops = 5.0 * n, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    time_version(&u, sm_unfused, &c, c.y, n, sm_expect, &c, 1 << 11, 1e-7, 2e-5, NULL);
    wb_bench_emit(&u);
    wb_bench_row f = { .exercise = "softmax", .variant = "yours: one kernel", .n = n, .bytes = 8.0 * n,
                       .flops = 5.0 * n, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    const wb_bench_opts spot = { .fresh = sm_fresh, .check = sm_check };
    time_version(&f, sm_fused, &c, c.y, n, sm_expect, &c, 1 << 11, 1e-7, 2e-5, &spot);
    double ratio = wb_bench_headline(&f, h);
    print_traffic(TR_SOFTMAX, &u, &f, n, copy);
    wb_dfree((void *)c.x), wb_dfree(c.m), wb_dfree(c.s), wb_dfree(c.y);
    return ratio;
}

/* -- smooth */
typedef struct { const float *x; float *t, *y; size_t n; unsigned long long salt; } sw_ctx;
static void sw_unfused(void *p)
{
    sw_ctx *c = p;
    WB_CUDA(yard_smooth_unfused(c->x, c->t, c->y, c->n));
}
static void sw_fused(void *p)
{
    sw_ctx *c = p;
    WB_CUDA(smooth_fused(c->x, c->y, c->n));
}
static double sw_expect(size_t i, const void *p)
{
    const sw_ctx *c = p;
    const unsigned long long seed = SEED_X + c->salt;
    double l = i > 0 ? bell(wb_hash_uniform_f32(seed, i - 1, -3, 3)) : 0;
    double r = i + 1 < c->n ? bell(wb_hash_uniform_f32(seed, i + 1, -3, 3)) : 0;
    return 0.25 * (l + r) + 0.5 * bell(wb_hash_uniform_f32(seed, i, -3, 3));
}
/* The spot check of your timing: a new x (salt 0: the first back), y poisoned. */
static void sw_fresh(void *p, unsigned long long salt)
{
    sw_ctx *c = p;
    c->salt = salt;
    wb_dfill_uniform_f32((float *)c->x, c->n, SEED_X + salt, -3, 3);
    wb_dpoison(c->y, c->n * 4);
}
static int sw_check(void *p, char *why, size_t size)
{
    const sw_ctx *c = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("y", c->y, c->n, sw_expect, c, 1 << 12, 1e-6, 1e-5, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

static double bench_smooth(wb_headline *h)
{
    size_t n = wb_bench_bytes() / 4;
    sw_ctx c = { wb_dmalloc(n * 4), wb_dmalloc(n * 4), wb_dmalloc(n * 4), n, 0 };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_X, -3, 3);
    double copy = wb_yard_copy_gbps(n * 4);
    wb_bench_row u = { .exercise = "smooth", .variant = "given: produce, consume", .n = n, .bytes = 16.0 * n,
                       .flops = 8.0 * n, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    time_version(&u, sw_unfused, &c, c.y, n, sw_expect, &c, 1 << 14, 1e-6, 1e-5, NULL);
    wb_bench_emit(&u);
    wb_bench_row f = { .exercise = "smooth", .variant = "yours: t in registers", .n = n, .bytes = 8.0 * n,
                       .flops = 8.0 * n, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    const wb_bench_opts spot = { .fresh = sw_fresh, .check = sw_check };
    time_version(&f, sw_fused, &c, c.y, n, sw_expect, &c, 1 << 14, 1e-6, 1e-5, &spot);
    double ratio = wb_bench_headline(&f, h);
    print_traffic(TR_SMOOTH, &u, &f, n, copy);
    wb_dfree((void *)c.x), wb_dfree(c.t), wb_dfree(c.y);
    return ratio;
}

/* -- linear: M = 8192, N = 4096, K = 128 (a short K: the epilogue's share is large) */
enum { LM = 8192, LN = 4096, LK = 128 };
typedef struct { const float *A, *B, *bias; float *C; int v; } ln_ctx;
static void ln_work(void *p)
{
    ln_ctx *c = p;
    if (c->v == 0) WB_CUDA(linear_sgemm(c->A, c->B, c->C, LM, LN, LK));
    else if (c->v == 1) {
        WB_CUDA(linear_sgemm(c->A, c->B, c->C, LM, LN, LK));
        WB_CUDA(yard_bias_relu_inplace(c->C, c->bias, LM, LN));
    } else WB_CUDA(linear_sgemm_bias_relu(c->A, c->B, c->bias, c->C, LM, LN, LK));
}
static double ln_expect(size_t i, const void *p)
{
    const ln_ctx *c = p;
    size_t r = i / LN, col = i % LN;
    double acc = 0;
    for (size_t k = 0; k < LK; k++)
        acc += (double)wb_hash_uniform_f32(SEED_A, r * LK + k, -1, 1) * wb_hash_uniform_f32(SEED_W, k * LN + col, -1, 1);
    if (c->v == 0) return acc;
    acc += wb_hash_uniform_f32(SEED_B, col, -1, 1);
    return acc < 0 ? 0 : acc;
}

static char ln_figure[200];
static char ln_detail[600]; /* the last row's detail (wb_bench_detail), for the test's message */

static double bench_linear(void)
{
    size_t ne = (size_t)LM * LN;
    ln_ctx c = { wb_dmalloc((size_t)LM * LK * 4), wb_dmalloc((size_t)LK * LN * 4), wb_dmalloc(LN * 4), wb_dmalloc(ne * 4), 0 };
    wb_dfill_uniform_f32((float *)c.A, (size_t)LM * LK, SEED_A, -1, 1);
    wb_dfill_uniform_f32((float *)c.B, (size_t)LK * LN, SEED_W, -1, 1);
    wb_dfill_uniform_f32((float *)c.bias, LN, SEED_B, -1, 1);
    static const char *const VAR[3] = { "yours: sgemm_tiled alone", "sgemm_tiled + bias_relu", "yours: fused epilogue" };
    double flops = 2.0 * LM * LN * (double)LK, ms[3] = { NAN, NAN, NAN }, yard = NAN;
    for (int v = 0; v < 3; v++) {
        c.v = v;
        wb_bench_row r = { .exercise = "linear", .variant = VAR[v], .n = ne, .bytes = 4.0 * (ne + (v == 1 ? 2 * ne : 0)),
                           .flops = flops, .unit = "TFLOP/s", .yard_name = v == 2 ? "UNFUSED" : NULL, .yard = yard };
        wb_dpoison(c.C, ne * 4);
        wb_bench_opts o = { 2, 10, 1 };
        wb_time(ln_work, &c, &o, &r.t);
        r.value = flops / (r.t.median * 1e-3) / 1e12;
        wb_cmp cmp;
        if (wb_dverify_f32("C", c.C, ne, ln_expect, &c, 256, 1e-4, 1e-5, &cmp)) wb_bench_invalid(&r, cmp.msg);
        wb_bench_emit(&r);
        wb_bench_detail(&r, ln_detail, sizeof ln_detail);
        if (v == 1) yard = r.invalid ? NAN : r.value;
        ms[v] = r.invalid ? NAN : r.t.median;
    }
    double ratio = ms[1] / ms[2];
    printf("    linear: the separate pass costs %.4f ms (GEMM + pass %.4f ms, GEMM alone %.4f ms); fused %.4f ms\n",
           ms[1] - ms[0], ms[1], ms[0], ms[2]);
    snprintf(ln_figure, sizeof ln_figure, "M=%d N=%d K=%d: GEMM %.4f ms, GEMM + bias_relu %.4f ms, fused %.4f ms: %.3fx",
             LM, LN, LK, ms[0], ms[1], ms[2], ratio);
    wb_dfree((void *)c.A), wb_dfree((void *)c.B), wb_dfree((void *)c.bias), wb_dfree(c.C);
    return ratio;
}

/* The two reports: correct timed outputs, and the figure kept in the record. */
START_TEST(linear_vs_unfused)
{
    double r = bench_linear();
    ck_assert_msg(!isnan(r), "a timed GEMM gave a wrong output: %s", ln_detail);
    wb_report(ln_figure);
}
END_TEST

START_TEST(normalize_vs_unfused)
{
    double r = bench_normalize();
    ck_assert_msg(!isnan(r), "a timed normalize gave a wrong output: %s", nz_detail);
    wb_report(nz_figure);
}
END_TEST

static const wb_test TESTS[] = {
    { "w15.traffic", WB_T(traffic_model), WB_CPU, 0 },
    { "w15.gelu", WB_T(gelu_shapes), WB_GPU, WB_COUNT(GSHAPES) },
    { "w15.gelu", WB_T(gelu_offsets), WB_GPU, WB_COUNT(GOFFS) },
    WB_SPEED("w15.gelu-speed", bench_gelu),
    { "w15.l2norm", WB_T(l2norm_sizes), WB_GPU, WB_COUNT(NSIZES) },
    { "w15.l2norm", WB_T(l2norm_specials), WB_GPU, 3 },
    WB_SPEED("w15.l2norm-speed", bench_l2norm),
    { "w15.softmax", WB_T(softmax_shapes), WB_GPU, WB_COUNT(SSHAPES) },
    { "w15.softmax", WB_T(softmax_offsets), WB_GPU, 4 },
    WB_SPEED("w15.softmax-speed", bench_softmax),
    { "w15.smooth", WB_T(smooth_sizes), WB_GPU, WB_COUNT(MSIZES) },
    { "w15.smooth", WB_T(smooth_offsets), WB_GPU, 8 },
    WB_SPEED("w15.smooth-speed", bench_smooth),
    { "w15.linear", WB_T(linear_shapes), WB_GPU, 10 },
    { "w15.linear", WB_T(linear_vs_unfused), WB_GPU, 0 },
    { "w15.normalize", WB_T(normalize_sizes), WB_GPU, 10 },
    { "w15.normalize", WB_T(normalize_zero), WB_GPU, 0 },
    { "w15.normalize", WB_T(normalize_vs_unfused), WB_GPU, 0 },
};

/* The two reports' benchmarks; `--bench` also runs every WB_SPEED one. */
static const wb_benchmark BENCHES[] = {
    { "linear", bench_linear },
    { "normalize", bench_normalize },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
