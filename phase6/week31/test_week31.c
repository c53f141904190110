/* test_week31.c — week 31's checkpoints: mean and variance three ways on the
 * CPU, the instability of the single pass shown, LayerNorm (two-pass,
 * Welford, single-pass) and RMSNorm forward against double references, and
 * their bandwidth against a copy. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "moments.h"
#include "layernorm.h"
#include "rmsnorm.h"
#include "w31_checks.h" /* the sizes, case drawing, references and tolerances, shared with the judge */

static const float EPS = W31_EPS;

/* ---------------------------------------------------------------- moments (CPU) */

typedef void (*moments_fn)(const float *, size_t, float *, float *);
static const struct {
    const char *name;
    moments_fn  fn;
} MOMENTS[] = { { "moments_sumsq", moments_sumsq }, { "moments_twopass", moments_twopass },
                { "moments_welford", moments_welford } };

/* Benign data, U(-5, 5): all three are right here, within float's error for
 * a sequential sum (and the single pass within its cancellation, which the
 * mean^2 term of the tolerance allows for). */
START_TEST(moments_sizes)
{
    wb_rng rng = wb_rng_for(W31_MOMENTS_TAG, _i);
    size_t n = W31_MSIZES[_i];
    float *x = wb_hmalloc((n ? n : 1) * 4);
    wb_fill_uniform_f32(&rng, x, n, -5, 5);
    double m, v;
    w31_ref_moments(x, n, &m, &v);
    for (size_t f = 0; f < WB_COUNT(MOMENTS); f++) {
        float gm = NAN, gv = NAN; /* poisoned: a function that writes nothing fails */
        MOMENTS[f].fn(x, n, &gm, &gv);
        double mtol, vtol;
        w31_moments_tol(m, v, &mtol, &vtol);
        if (!wb_close(gm, m, mtol, 0) || !wb_close(gv, v, vtol, 0))
            ck_abort_msg("%s, n=%zu (seed %llu): mean %.9g var %.9g, expected %.9g and %.9g (tolerance %.3g, %.3g)",
                         MOMENTS[f].name, n, (unsigned long long)wb_base_seed(), gm, gv, m, v, mtol, vtol);
    }
    free(x);
}
END_TEST

/* ---------------------------------------------------------------- the instability, shown (CPU) */

/* x = offset + U(-1, 1) (W31_SHOW): the variance is about 1/3, the mean
 * about 1e4; w31_stable_verdict says what each function must do. The test
 * prints what it got. */
START_TEST(stable_cpu)
{
    wb_rng rng = wb_rng_for(W31_STABLE_CPU_TAG, _i);
    const float off = W31_SHOW[_i].offset;
    const size_t n = W31_SHOW[_i].n;
    float *x = wb_hmalloc(n * 4);
    w31_show_fill(&rng, x, off, n);
    double m, v;
    w31_ref_moments(x, n, &m, &v);
    float mean[3], var[3];
    double err[3];
    for (int f = 0; f < 3; f++) {
        mean[f] = var[f] = NAN;
        MOMENTS[f].fn(x, n, &mean[f], &var[f]);
        err[f] = w31_var_err(var[f], v);
    }
    printf("  x = %g + U(-1,1), n = %zu: variance %.6f; single pass %.6g (error %.3g), two-pass %.6g (%.3g), "
           "Welford %.6g (%.3g)\n", (double)off, n, v, var[0], err[0], var[1], err[1], var[2], err[2]);
    char what[96], why[400];
    snprintf(what, sizeof what, "x = %g + U(-1,1), n = %zu (seed %llu)", (double)off, n,
             (unsigned long long)wb_base_seed());
    if (w31_stable_verdict(mean, var, m, v, n, what, why, sizeof why)) ck_abort_msg("%s", why);
    free(x);
}
END_TEST

/* ---------------------------------------------------------------- LayerNorm */

typedef cudaError_t (*ln_fn)(const float *, const float *, const float *, float *, float *, float *, int, int, float);
enum { M_TWOPASS, M_WELFORD, M_SUMSQ, M_COUNT };
static const struct {
    const char *name;
    ln_fn       fn;
} LN[M_COUNT] = { { "layernorm_twopass", layernorm_twopass },
                  { "layernorm_welford", layernorm_welford },
                  { "layernorm_sumsq", layernorm_sumsq } };

/* The device side of one LayerNorm run: inputs at element offsets ox (x) and
 * op (gamma, beta), outputs at oy (y) in guarded, poisoned buffers. */
typedef struct {
    float  *x, *g, *b, *hy, *hm, *hr;
    wb_dout y, m, r;
} ln_run;

static void ln_run_one(int method, const float *hx, const float *hg, const float *hb, int rows, int cols,
                       size_t ox, size_t op, size_t oy, ln_run *run)
{
    size_t n = (size_t)rows * (size_t)cols; /* elements of x and y */
    run->x = wb_dcopy(hx - ox, (n + ox) * 4);
    run->g = wb_dcopy(hg - op, ((size_t)cols + op) * 4);
    run->b = wb_dcopy(hb - op, ((size_t)cols + op) * 4);
    float *dy = wb_dout_alloc(&run->y, "y", n * 4, oy * 4);
    float *dm = wb_dout_alloc(&run->m, "mean", (size_t)rows * 4, 0);
    float *dr = wb_dout_alloc(&run->r, "rstd", (size_t)rows * 4, 0);
    WB_CUDA(LN[method].fn(run->x ? run->x + ox : NULL, run->g + op, run->b + op, dy, dm, dr, rows, cols, EPS));
    run->hy = wb_hmalloc(n * 4 + 4), run->hm = wb_hmalloc((size_t)rows * 4 + 4), run->hr = wb_hmalloc((size_t)rows * 4 + 4);
    char what[96];
    snprintf(what, sizeof what, "%s, rows=%d cols=%d", LN[method].name, rows, cols);
    wb_expect_dout_guards(&run->y, run->hy, what);
    wb_expect_dout_guards(&run->m, run->hm, what);
    wb_expect_dout_guards(&run->r, run->hr, what);
}

static void ln_run_free(ln_run *run)
{
    wb_dfree(run->x), wb_dfree(run->g), wb_dfree(run->b);
    wb_dout_free(&run->y), wb_dout_free(&run->m), wb_dout_free(&run->r);
    free(run->hy), free(run->hm), free(run->hr);
}

/* Fresh data of every kind, the method's output checked everywhere. hx etc.
 * carry `ox`/`op` floats of lead so the device copies can start misaligned. */
static void check_layernorm(wb_rng *rng, int method, int rows, int cols, size_t ox, size_t op, size_t oy)
{
    size_t n = (size_t)rows * (size_t)cols; /* elements of x and y */
    float *bx = wb_hmalloc((n + ox + 1) * 4), *bg = wb_hmalloc(((size_t)cols + op) * 4),
          *bb = wb_hmalloc(((size_t)cols + op) * 4);
    float *hx = bx + ox, *hg = bg + op, *hb = bb + op;
    w31_ln_inputs(rng, method == M_SUMSQ, rows, cols, ox, op, bx, bg, bb);
    ln_run run;
    ln_run_one(method, hx, hg, hb, rows, cols, ox, op, oy, &run);
    char msg[600];
    size_t bad = w31_ln_compare(hx, hg, hb, run.hy, run.hm, run.hr, rows, cols, method == M_SUMSQ, msg, sizeof msg);
    if (bad)
        ck_abort_msg("%s, rows=%d cols=%d, x+%zu gamma/beta+%zu y+%zu (seed %llu; rows by r %% 3: U(-5,5), "
                     "U(-1e4,1e4), %s%s): %zu wrong%s",
                     LN[method].name, rows, cols, ox, op, oy, (unsigned long long)wb_base_seed(),
                     method == M_SUMSQ ? "2 + U(-5,5)" : "+-1e4 + U(-1,1)",
                     rows >= 8 ? "; row 3 a NaN, row 4 a +Inf, row 7 a -Inf" : "", bad, msg);
    ln_run_free(&run);
    free(bx), free(bg), free(bb);
}

/* Each method is its own checkpoint: a learner with two of the three right
 * sees which one is not. Every shape, then misaligned starts (x, gamma/beta
 * and y each 0 or 1 floats in, cols % 4 == 0, the fast path's case, and
 * not). */
static void layernorm_shape(int method, int i)
{
    wb_rng rng = wb_rng_for(W31_LN_NAMES[method], i);
    check_layernorm(&rng, method, W31_SHAPES[i][0], W31_SHAPES[i][1], 0, 0, 0);
}

static void layernorm_offset(int method, int k)
{
    wb_rng rng = wb_rng_for(W31_LN_NAMES[method], W31_OFFSET_INDEX + k);
    int rows, cols;
    size_t ox, op, oy;
    w31_offset_case(&rng, k, &rows, &cols, &ox, &op, &oy);
    check_layernorm(&rng, method, rows, cols, ox, op, oy);
}

START_TEST(twopass_shapes) { layernorm_shape(M_TWOPASS, _i); }
END_TEST
START_TEST(twopass_offsets) { layernorm_offset(M_TWOPASS, _i); }
END_TEST
START_TEST(welford_shapes) { layernorm_shape(M_WELFORD, _i); }
END_TEST
START_TEST(welford_offsets) { layernorm_offset(M_WELFORD, _i); }
END_TEST
START_TEST(sumsq_shapes) { layernorm_shape(M_SUMSQ, _i); }
END_TEST
START_TEST(sumsq_offsets) { layernorm_offset(M_SUMSQ, _i); }
END_TEST

/* Arguments: rows == 0 writes nothing and succeeds; rows < 0, cols <= 0 and
 * eps < 0 are cudaErrorInvalidValue and write nothing. */
static cudaError_t call_norm(int which, const float *x, const float *g, float *y, float *m, float *r, int rows,
                             int cols, float eps)
{
    if (which < M_COUNT) return LN[which].fn(x, g, g, y, m, r, rows, cols, eps);
    return rmsnorm(x, g, y, r, rows, cols, eps);
}

static void check_args(int which, const char *name)
{
    float *x = wb_dmalloc(64 * 4), *g = wb_dmalloc(16 * 4);
    wb_dfill_uniform_f32(x, 64, 1, -1, 1);
    wb_dfill_uniform_f32(g, 16, 2, -1, 1);
    for (size_t c = 0; c < W31_N_ARGS; c++) {
        const cudaError_t want = W31_ARGS[c].invalid ? cudaErrorInvalidValue : cudaSuccess;
        wb_dout y, m, r;
        float *dy = wb_dout_alloc(&y, "y", 64 * 4, 0), *dm = wb_dout_alloc(&m, "mean", 4 * 4, 0),
              *dr = wb_dout_alloc(&r, "rstd", 4 * 4, 0);
        cudaError_t e = call_norm(which, x, g, dy, dm, dr, W31_ARGS[c].rows, W31_ARGS[c].cols, W31_ARGS[c].eps);
        cudaError_t late = cudaDeviceSynchronize();
        cudaGetLastError();
        float hy[64], hm[4], hr[4];
        char what[120];
        snprintf(what, sizeof what, "%s(rows=%d, cols=%d, eps=%g)", name, W31_ARGS[c].rows, W31_ARGS[c].cols,
                 (double)W31_ARGS[c].eps);
        ck_assert_msg(e == want, "%s returned %s, expected %s", what, cudaGetErrorName(e), cudaGetErrorName(want));
        ck_assert_msg(late == cudaSuccess, "%s: the device reported %s afterwards", what, cudaGetErrorName(late));
        wb_expect_dout_guards(&y, hy, what);
        wb_expect_dout_guards(&m, hm, what);
        wb_expect_dout_guards(&r, hr, what);
        size_t touched = wb_count_not_byte(hy, sizeof hy, 0xFF) + wb_count_not_byte(hm, sizeof hm, 0xFF) +
                         wb_count_not_byte(hr, sizeof hr, 0xFF);
        ck_assert_msg(touched == 0, "%s wrote %zu bytes; it must write nothing", what, touched);
        wb_dout_free(&y), wb_dout_free(&m), wb_dout_free(&r);
    }
    wb_dfree(x), wb_dfree(g);
}

START_TEST(twopass_args) { check_args(M_TWOPASS, LN[M_TWOPASS].name); }
END_TEST
START_TEST(welford_args) { check_args(M_WELFORD, LN[M_WELFORD].name); }
END_TEST
START_TEST(sumsq_args) { check_args(M_SUMSQ, LN[M_SUMSQ].name); }
END_TEST

/* ---------------------------------------------------------------- the instability, on the GPU */

/* Every row +-1e4 + U(-1, 1): two-pass and Welford within the tolerance of
 * its method's checkpoint; the single pass's rstd off by more than 10 % in most rows
 * (in practice all: its variance comes out 0, clamped, or a multiple of 8). */
START_TEST(stable_gpu)
{
    wb_rng rng = wb_rng_for(W31_STABLE_GPU_TAG, _i);
    const int rows = W31_STABLE_ROWS, cols = W31_STABLE_COLS[_i];
    size_t n = (size_t)rows * cols;
    float *hx = wb_hmalloc(n * 4), *hg = wb_hmalloc((size_t)cols * 4), *hb = wb_hmalloc((size_t)cols * 4);
    w31_stable_inputs(&rng, rows, cols, hx, hg, hb);
    double worst[M_COUNT];
    int off10 = 0;
    char msg[M_COUNT][600];
    size_t bad[M_COUNT];
    for (int f = 0; f < M_COUNT; f++) {
        ln_run run;
        ln_run_one(f, hx, hg, hb, rows, cols, 0, 0, 0, &run);
        bad[f] = w31_ln_compare(hx, hg, hb, run.hy, run.hm, run.hr, rows, cols, 0, msg[f], sizeof msg[f]);
        worst[f] = 0;
        for (int r = 0; r < rows; r++) {
            double e = w31_rstd_err(run.hr[r], hx + (size_t)r * cols, cols);
            worst[f] = fmax(worst[f], e);
            if (f == M_SUMSQ && e > 0.1) off10++;
        }
        ln_run_free(&run);
    }
    printf("  rows of +-1e4 + U(-1,1), cols %d: largest rstd error: two-pass %.3g, Welford %.3g, single pass %.3g "
           "(%d of %d rows off by more than 10 %%)\n", cols, worst[0], worst[1], worst[2], off10, rows);
    for (int f = 0; f < M_SUMSQ; f++)
        if (bad[f])
            ck_abort_msg("%s on rows of +-1e4 + U(-1,1), cols=%d (seed %llu): %zu wrong%s", LN[f].name, cols,
                         (unsigned long long)wb_base_seed(), bad[f], msg[f]);
    ck_assert_msg(off10 >= rows / 2,
                  "layernorm_sumsq on rows of +-1e4 + U(-1,1), cols=%d: only %d of %d rows have rstd off by more "
                  "than 10 %%; the float single pass (q / cols - mean * mean) cannot keep this variance: does it "
                  "sum in float?", cols, off10, rows);
    free(hx), free(hg), free(hb);
}
END_TEST

/* ---------------------------------------------------------------- RMSNorm */

static void check_rmsnorm(wb_rng *rng, int rows, int cols, size_t ox, size_t op, size_t oy)
{
    size_t n = (size_t)rows * (size_t)cols; /* elements of x and y */
    float *bx = wb_hmalloc((n + ox + 1) * 4), *bg = wb_hmalloc(((size_t)cols + op) * 4);
    float *hx = bx + ox, *hg = bg + op;
    double *ref = wb_hmalloc(n * 8 + 8), *rref = wb_hmalloc((size_t)rows * 8 + 8);
    w31_rms_inputs(rng, rows, cols, ox, op, bx, bg);
    w31_rms_ref(hx, hg, ref, rref, rows, cols);
    float *dx = wb_dcopy(bx, (n + ox) * 4), *dg = wb_dcopy(bg, ((size_t)cols + op) * 4);
    wb_dout y, r;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4), *dr = wb_dout_alloc(&r, "rstd", (size_t)rows * 4, 0);
    WB_CUDA(rmsnorm(dx ? dx + ox : NULL, dg + op, dy, dr, rows, cols, EPS));
    char what[200];
    snprintf(what, sizeof what, "rmsnorm, rows=%d cols=%d, x+%zu gamma+%zu y+%zu (rows by r %% 3: U(-5,5), "
             "U(-1e4,1e4), +-1e4 + U(-1,1)%s)", rows, cols, ox, op, oy,
             rows >= 8 ? "; row 3 a NaN, row 4 a +Inf, row 7 a -Inf" : "");
    wb_expect_dout_f32_f64(&r, rref, (size_t)rows, 0, W31_RMS_R_RTOL, what);
    wb_expect_dout_f32_f64(&y, ref, n, W31_RMS_Y_ATOL, W31_RMS_Y_RTOL, what);
    wb_dfree(dx), wb_dfree(dg), wb_dout_free(&y), wb_dout_free(&r);
    free(bx), free(bg), free(ref), free(rref);
}

START_TEST(rmsnorm_shapes)
{
    wb_rng rng = wb_rng_for(W31_RMS_SHAPES_TAG, _i);
    check_rmsnorm(&rng, W31_SHAPES[_i][0], W31_SHAPES[_i][1], 0, 0, 0);
}
END_TEST

START_TEST(rmsnorm_offsets)
{
    wb_rng rng = wb_rng_for(W31_RMS_OFFSETS_TAG, _i);
    int rows, cols;
    size_t ox, op, oy;
    w31_offset_case(&rng, _i, &rows, &cols, &ox, &op, &oy);
    check_rmsnorm(&rng, rows, cols, ox, op, oy);
}
END_TEST

START_TEST(rmsnorm_args) { check_args(M_COUNT, "rmsnorm"); }
END_TEST

/* ---------------------------------------------------------------- bandwidth */

enum { SEED_X = 31, SEED_G = 32, SEED_B = 33 };
enum { K_TWOPASS = M_TWOPASS, K_WELFORD = M_WELFORD, K_SUMSQ = M_SUMSQ, K_RMS };
static const char *const KIND_NAME[] = { "two-pass", "Welford", "single pass", "RMSNorm" };
#define HIDDEN W31_HIDDEN

/* x = U(-4, 4), gamma = U(0.5, 1.5), beta = U(-1, 1), made on the device
 * (wb_dfill_uniform_f32) and known on the host element by element. */
typedef struct {
    int kind, rows, cols;
    float *x, *g, *b, *y, *m, *r;
    unsigned long long salt;
    int cached_row;                 /* the row whose statistics are below */
    unsigned long long cached_salt;
    double mean, rstd;
} nb_ctx;

static void nb_work(void *p)
{
    nb_ctx *c = p;
    if (c->kind == K_RMS) WB_CUDA(rmsnorm(c->x, c->g, c->y, c->r, c->rows, c->cols, EPS));
    else WB_CUDA(LN[c->kind].fn(c->x, c->g, c->b, c->y, c->m, c->r, c->rows, c->cols, EPS));
}

static double nb_xval(const nb_ctx *c, size_t i) { return wb_hash_uniform_f32(SEED_X + c->salt, i, -4, 4); }

static void nb_stats(nb_ctx *c, int row)
{
    if (c->cached_row == row && c->cached_salt == c->salt) return;
    size_t base = (size_t)row * c->cols;
    double s = 0, q = 0;
    for (int j = 0; j < c->cols; j++) s += nb_xval(c, base + j);
    double mean = c->kind == K_RMS ? 0 : s / c->cols;
    for (int j = 0; j < c->cols; j++) q += (nb_xval(c, base + j) - mean) * (nb_xval(c, base + j) - mean);
    c->mean = mean, c->rstd = 1.0 / sqrt(q / c->cols + (double)EPS);
    c->cached_row = row, c->cached_salt = c->salt;
}

static double nb_expect_y(size_t i, const void *p)
{
    nb_ctx *c = (nb_ctx *)p; /* the statistics cache: the context is ours and not const */
    nb_stats(c, (int)(i / (size_t)c->cols));
    int j = (int)(i % (size_t)c->cols);
    double gj = wb_hash_uniform_f32(SEED_G, (size_t)j, 0.5f, 1.5f);
    if (c->kind == K_RMS) return nb_xval(c, i) * c->rstd * gj;
    return (nb_xval(c, i) - c->mean) * c->rstd * gj + wb_hash_uniform_f32(SEED_B, (size_t)j, -1, 1);
}

static double nb_expect_rstd(size_t i, const void *p)
{
    nb_ctx *c = (nb_ctx *)p;
    nb_stats(c, (int)i);
    return c->rstd;
}

static void nb_fresh(void *p, unsigned long long salt)
{
    nb_ctx *c = p;
    c->salt = salt;
    wb_dfill_uniform_f32(c->x, (size_t)c->rows * c->cols, SEED_X + salt, -4, 4);
    wb_dpoison(c->y, (size_t)c->rows * c->cols * 4);
}

static int nb_check(void *p, char *why, size_t size)
{
    nb_ctx *c = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("y", c->y, (size_t)c->rows * c->cols, nb_expect_y, c, 1 << 9, 2e-5, 2e-5, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

typedef struct {
    float *x, *g, *b, *y, *m, *r;
} nb_bufs;

static nb_bufs nb_alloc(void)
{
    size_t bytes = wb_bench_bytes(), rows = bytes / 4 / HIDDEN[0];
    nb_bufs B = { wb_dmalloc(bytes), wb_dmalloc(8192 * 4), wb_dmalloc(8192 * 4), wb_dmalloc(bytes),
                  wb_dmalloc(rows * 4), wb_dmalloc(rows * 4) };
    wb_dfill_uniform_f32(B.g, 8192, SEED_G, 0.5f, 1.5f);
    wb_dfill_uniform_f32(B.b, 8192, SEED_B, -1, 1);
    return B;
}

static void nb_free(nb_bufs *B)
{
    wb_dfree(B->x), wb_dfree(B->g), wb_dfree(B->b), wb_dfree(B->y), wb_dfree(B->m), wb_dfree(B->r);
}

/* One kernel at one hidden size on wb_bench_bytes() of x, against a copy of
 * x's size in the same run. Bytes counted: x read and y written (the copy
 * counts its read and write the same way), gamma (and beta) read, rstd (and
 * mean) written. The timed output is checked afterwards, y and rstd. */
static void nb_one(int kind, int cols, const nb_bufs *B, wb_bench_row *row, char *variant, size_t vsize)
{
    size_t rows = wb_bench_bytes() / 4 / (size_t)cols, n = rows * (size_t)cols;
    nb_ctx c = { kind, (int)rows, cols, B->x, B->g, B->b, B->y, B->m, B->r, 0, -1, 0, 0, 0 };
    wb_dfill_uniform_f32(c.x, n, SEED_X, -4, 4);
    wb_dpoison(c.y, n * 4);
    snprintf(variant, vsize, "%s, %zu x %d", KIND_NAME[kind], rows, cols);
    wb_bench_row r = { .exercise = kind == K_RMS ? "rmsnorm" : "layernorm", .variant = variant, .n = n,
                       .bytes = w31_bw_bytes(kind == K_RMS, rows, cols), .flops = (kind == K_RMS ? 5.0 : 8.0) * n, .unit = "GB/s",
                       .yard_name = "COPY", .yard = wb_yard_copy_gbps(n * 4) };
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = nb_fresh, o.check = nb_check;
    wb_time(nb_work, &c, &o, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("y", c.y, n, nb_expect_y, &c, 1 << 10, 2e-5, 2e-5, &cmp) ||
        wb_dverify_f32("rstd", c.r, rows, nb_expect_rstd, &c, 1 << 8, 0, 2e-5, &cmp))
        wb_bench_invalid(&r, cmp.msg);
    *row = r;
}

/* A row's ratio for picking the worst: a wrong output or no figure (NaN) is
 * the worst of all. */
static double nb_score(const wb_bench_row *r)
{
    double q = wb_bench_ratio(r);
    return r->invalid || isnan(q) ? -1 : q;
}

/* The four hidden sizes; every row printed, the slowest against the copy
 * judged (a wrong one first), into head. */
static double bench_sweep(int kind, wb_headline *head)
{
    nb_bufs B = nb_alloc();
    static char variant[WB_COUNT(HIDDEN)][64];
    wb_bench_row rows[WB_COUNT(HIDDEN)];
    size_t worst = 0;
    for (size_t h = 0; h < WB_COUNT(HIDDEN); h++) {
        nb_one(kind, HIDDEN[h], &B, &rows[h], variant[h], sizeof variant[h]);
        if (nb_score(&rows[h]) < nb_score(&rows[worst])) worst = h;
    }
    for (size_t h = 0; h < WB_COUNT(HIDDEN); h++)
        if (h != worst) wb_bench_emit(&rows[h]);
    nb_free(&B);
    return wb_bench_headline(&rows[worst], head);
}

static double bench_layernorm(wb_headline *h) { return bench_sweep(K_WELFORD, h); }
static double bench_rmsnorm(wb_headline *h) { return bench_sweep(K_RMS, h); }

/* The ladder (no checkpoint): all four kernels at each hidden size. */
static double bench_ladder(void)
{
    nb_bufs B = nb_alloc();
    static char variant[64];
    for (size_t h = 0; h < WB_COUNT(HIDDEN); h++)
        for (int k = 0; k <= K_RMS; k++) {
            wb_bench_row r;
            nb_one(k, HIDDEN[h], &B, &r, variant, sizeof variant);
            wb_bench_emit(&r);
        }
    nb_free(&B);
    return NAN;
}

static const wb_test TESTS[] = {
    { "w31.moments", WB_T(moments_sizes), WB_CPU, W31_N_MSIZES },
    { "w31.welford-stable", WB_T(stable_cpu), WB_CPU, W31_N_SHOW },
    { "w31.welford-stable", WB_T(stable_gpu), WB_GPU, W31_COUNT(W31_STABLE_COLS) },
    { "w31.layernorm-twopass", WB_T(twopass_shapes), WB_GPU, W31_N_SHAPES },
    { "w31.layernorm-twopass", WB_T(twopass_offsets), WB_GPU, W31_N_OFFSETS },
    { "w31.layernorm-twopass", WB_T(twopass_args), WB_GPU, 0 },
    { "w31.layernorm-welford", WB_T(welford_shapes), WB_GPU, W31_N_SHAPES },
    { "w31.layernorm-welford", WB_T(welford_offsets), WB_GPU, W31_N_OFFSETS },
    { "w31.layernorm-welford", WB_T(welford_args), WB_GPU, 0 },
    { "w31.layernorm-sumsq", WB_T(sumsq_shapes), WB_GPU, W31_N_SHAPES },
    { "w31.layernorm-sumsq", WB_T(sumsq_offsets), WB_GPU, W31_N_OFFSETS },
    { "w31.layernorm-sumsq", WB_T(sumsq_args), WB_GPU, 0 },
    { "w31.rmsnorm", WB_T(rmsnorm_shapes), WB_GPU, W31_N_SHAPES },
    { "w31.rmsnorm", WB_T(rmsnorm_offsets), WB_GPU, W31_N_OFFSETS },
    { "w31.rmsnorm", WB_T(rmsnorm_args), WB_GPU, 0 },
    WB_SPEED("w31.layernorm-bw", bench_layernorm),
    WB_SPEED("w31.rmsnorm-bw", bench_rmsnorm),
};

/* Benchmarks that serve no checkpoint; `--bench` also runs every WB_SPEED one. */
static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
