/* test_week29.c — week 29's checkpoints: the naive softmax, where it
 * overflows, and the max-subtracted one. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "softmax_check.h"
#include "naive.h"
#include "stable.h"

#define ATOL 1e-7
#define RTOL 5e-5


/* ---------------------------------------------------------------- limit */

/* ln(FLT_MAX / cols) for the columns the tests use, to 1e-9. */
static const struct { int cols; double limit; } LIMITS[] = {
    { 1, 88.722839052 },    { 2, 88.029691872 },    { 3, 87.624226763 },    { 10, 86.420253959 },   { 37, 85.111921139 },
    { 1000, 81.815083773 }, { 4096, 80.405072885 }, { 32768, 78.325631344 }, { 1 << 20, 74.859895441 },
};

static double limit_of(int cols)
{
    for (size_t k = 0; k < WB_COUNT(LIMITS); k++)
        if (LIMITS[k].cols == cols) return LIMITS[k].limit;
    ck_abort_msg("no limit listed for %d columns (test bug)", cols);
    return NAN;
}

START_TEST(limit_values)
{
    for (size_t k = 0; k < WB_COUNT(LIMITS); k++) {
        const int cols = LIMITS[k].cols;
        const double got = naive_limit(cols);
        ck_assert_msg(wb_close(got, LIMITS[k].limit, 1e-6, 0), "naive_limit(%d) = %.6f, expected ln(FLT_MAX / %d) = %.6f",
                      cols, got, cols, LIMITS[k].limit);
        printf("  cols %8d: the naive softmax overflows past logits of %.3f\n", cols, got);
    }
}
END_TEST

/* ---------------------------------------------------------------- naive */

static const int SHAPES[][2] = { { 0, 5 },    { 5, 0 },     { 1, 1 },     { 9, 1 },       { 1, 7 },     { 8, 31 },
                                 { 9, 32 },   { 8, 33 },    { 16, 255 },  { 10, 256 },    { 11, 257 },  { 33, 1000 },
                                 { 8, 1025 }, { 8, 4096 },  { 9, 5000 },  { 2000, 64 },   { 70000, 3 }, { 3, 100003 },
                                 { 8, 32768 } };

/* Logits in [-10, 10]: every exp between 4.5e-5 and 2.2e4, sums far from
 * FLT_MAX even for 100003 columns. */
static void check_naive(wb_rng *rng, int rows, int cols, size_t ox, size_t oy)
{
    size_t n = softmax_elems(rows, cols);
    float *hx = wb_hmalloc((n + ox) * 4);
    double *ref = wb_hmalloc(n * 8);
    wb_fill_uniform_f32(rng, hx, n + ox, -10, 10);
    softmax_ref(hx + ox, ref, rows, cols);
    float *dx = wb_dcopy(hx, (n + ox) * 4);
    float *dsums = wb_dmalloc((size_t)(rows > 0 ? rows : 1) * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    WB_CUDA(naive_softmax(dx ? dx + ox : NULL, dy, dsums, rows, cols));
    char what[96];
    snprintf(what, sizeof what, "naive, rows=%d cols=%d, x+%zu y+%zu, logits in [-10, 10]", rows, cols, ox, oy);
    wb_expect_dout_f32_f64(&y, ref, n, ATOL, RTOL, what);
    wb_dfree(dx), wb_dfree(dsums), wb_dout_free(&y);
    free(hx), free(ref);
}

START_TEST(naive_shapes)
{
    wb_rng rng = WB_RNG();
    check_naive(&rng, SHAPES[_i][0], SHAPES[_i][1], 0, 0);
}
END_TEST

START_TEST(naive_offsets)
{
    wb_rng rng = WB_RNG();
    int rows = (int)wb_rng_int(&rng, 1, 200), cols = (int)wb_rng_int(&rng, 1, 1500);
    check_naive(&rng, rows, cols, (size_t)(_i & 1), (size_t)(_i >> 1));
}
END_TEST

/* ---------------------------------------------------------------- overflow */

/* Eight rows through the naive softmax: rows 0, 2, 6 and 7 small logits,
 * row 4 just below naive_limit(cols) (the sum reaches at most 0.61 FLT_MAX):
 * these must be right. Row 1 near +1e4 (exp = Inf: Inf / Inf), row 3 near
 * -1e4 (exp = 0: 0 / 0), row 5 just past the limit (each exp finite, the sum
 * past e * FLT_MAX: Inf): every element of these must be written and wrong.
 * The limit here is the test's own ln(FLT_MAX / cols), not yours. */
enum { OV_ROWS = 8 };
static const int OV_COLS[] = { 1, 37, 1000, 4096 };
static const char *const OV_WHAT[OV_ROWS] = { "small", "near +1e4", "small", "near -1e4", "just below the limit",
                                              "just past the limit", "small", "small" };

START_TEST(overflow_naive)
{
    wb_rng rng = WB_RNG();
    const int cols = OV_COLS[_i];
    const size_t n = (size_t)OV_ROWS * cols;
    const double lim = limit_of(cols);
    float *hx = wb_hmalloc(n * 4), *got = wb_hmalloc(n * 4);
    double *ref = wb_hmalloc(n * 8);
    wb_fill_uniform_f32(&rng, hx, n, -5, 5);
    for (int j = 0; j < cols; j++) {
        hx[1 * (size_t)cols + j] = 1e4f + (float)(wb_rng_unit(&rng) * 16 - 8);
        hx[3 * (size_t)cols + j] = -1e4f + (float)(wb_rng_unit(&rng) * 16 - 8);
        hx[4 * (size_t)cols + j] = (float)(lim - 1.5 + wb_rng_unit(&rng));
        hx[5 * (size_t)cols + j] = (float)(lim + 1.0 + wb_rng_unit(&rng));
    }
    softmax_ref(hx, ref, OV_ROWS, cols);
    float *dx = wb_dcopy(hx, n * 4), *dsums = wb_dmalloc(OV_ROWS * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    WB_CUDA(naive_softmax(dx, dy, dsums, OV_ROWS, cols));
    char what[96];
    snprintf(what, sizeof what, "naive, %d rows x %d cols", OV_ROWS, cols);
    wb_expect_dout_guards(&y, got, what);
    printf("  cols %4d, limit %.2f:", cols, lim);
    for (int r = 0; r < OV_ROWS; r++) {
        const float *g = got + (size_t)r * cols;
        const double *w = ref + (size_t)r * cols;
        const int must_fail = r == 1 || r == 3 || r == 5;
        size_t unwritten = 0, right = 0;
        for (int j = 0; j < cols; j++) {
            uint32_t bits;
            memcpy(&bits, &g[j], 4);
            unwritten += bits == 0xFFFFFFFFu;
            right += wb_close(g[j], w[j], ATOL, RTOL);
        }
        if (must_fail) printf(" %s y[0] = %g (should be %.3g);", OV_WHAT[r], g[0], w[0]);
        ck_assert_msg(unwritten == 0, "%s: row %d (%s): %zu of %d elements never written (still the poison)", what, r,
                      OV_WHAT[r], unwritten, cols);
        if (must_fail)
            ck_assert_msg(right == 0,
                          "%s: row %d (%s): %zu of %d elements right, expected none: does your naive softmax subtract "
                          "the max? This exercise is the formula without it (that one is stable_softmax)",
                          what, r, OV_WHAT[r], right, cols);
        else {
            wb_cmp cmp;
            wb_compare_f32_f64("y", g, w, (size_t)cols, ATOL, RTOL, &cmp);
            char rw[160];
            snprintf(rw, sizeof rw, "%s: row %d (%s logits, first %g)", what, r, OV_WHAT[r], hx[(size_t)r * cols]);
            WB_EXPECT_CMP(cmp, rw);
        }
    }
    printf("\n");
    wb_dfree(dx), wb_dfree(dsums), wb_dout_free(&y);
    free(hx), free(got), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- stable */

/* The special rows (when rows >= 8): 0 near +1e4, 1 near -1e4, 2 spread over
 * +-1e4, 3 small with every third entry -Inf (masked), 4 all -Inf, 5 a NaN,
 * 6 a +Inf, 7 near -1e4 with every second entry -Inf. Rows 4-6 give NaN. */
static void stable_specials(wb_rng *rng, float *x, int rows, int cols)
{
    if (rows < 8) return;
    for (int j = 0; j < cols; j++) {
        x[j] = 1e4f + (float)(wb_rng_unit(rng) * 16 - 8);
        x[(size_t)cols + j] = -1e4f + (float)(wb_rng_unit(rng) * 16 - 8);
        x[2 * (size_t)cols + j] = (float)(wb_rng_unit(rng) * 2e4 - 1e4);
        if (j % 3 == 1) x[3 * (size_t)cols + j] = -INFINITY;
        x[4 * (size_t)cols + j] = -INFINITY;
        x[7 * (size_t)cols + j] = j % 2 ? -INFINITY : -1e4f + (float)(wb_rng_unit(rng) * 16 - 8);
    }
    x[5 * (size_t)cols + (size_t)wb_rng_int(rng, 0, cols - 1)] = NAN;
    x[6 * (size_t)cols + (size_t)wb_rng_int(rng, 0, cols - 1)] = INFINITY;
}

static void check_stable(wb_rng *rng, int rows, int cols, size_t ox, size_t oy)
{
    size_t n = softmax_elems(rows, cols);
    float *hx = wb_hmalloc((n + ox) * 4);
    double *ref = wb_hmalloc(n * 8);
    wb_fill_uniform_f32(rng, hx, n + ox, -20, 20);
    if (cols > 0) stable_specials(rng, hx + ox, rows, cols);
    softmax_ref(hx + ox, ref, rows, cols);
    float *dx = wb_dcopy(hx, (n + ox) * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    WB_CUDA(stable_softmax(dx ? dx + ox : NULL, dy, rows, cols));
    char what[200];
    snprintf(what, sizeof what, "stable, rows=%d cols=%d, x+%zu y+%zu%s", rows, cols, ox, oy,
             rows >= 8 && cols > 0 ? " (rows 0-7: near +1e4, near -1e4, over +-1e4, masked, all -Inf, a NaN, a +Inf, "
                                     "near -1e4 masked)"
                                   : "");
    wb_expect_dout_f32_f64(&y, ref, n, ATOL, RTOL, what);
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref);
}

START_TEST(stable_shapes)
{
    wb_rng rng = WB_RNG();
    check_stable(&rng, SHAPES[_i][0], SHAPES[_i][1], 0, 0);
}
END_TEST

START_TEST(stable_offsets)
{
    wb_rng rng = WB_RNG();
    int rows = (int)wb_rng_int(&rng, 8, 200), cols = (int)wb_rng_int(&rng, 1, 1500);
    check_stable(&rng, rows, cols, (size_t)(_i & 1), (size_t)(_i >> 1));
}
END_TEST

/* ---------------------------------------------------------------- benchmark */

/* Both versions on rows x 4096 floats (wb_bench_bytes() an array), logits in
 * [-4, 4] so that the naive one is right, against a copy of the same size. */
enum { SEED_X = 29 };
/* The shared softmax benchmark context (softmax_check.h) and the naive
 * version's per-row sums. */
typedef struct {
    softmax_bench b; /* first: the spot check's functions take it as the context */
    float *sums;
} sx_ctx;

static void sx_naive(void *p)
{
    sx_ctx *c = p;
    WB_CUDA(naive_softmax(c->b.x, c->b.y, c->sums, c->b.rows, c->b.cols));
}
static void sx_stable(void *p)
{
    sx_ctx *c = p;
    WB_CUDA(stable_softmax(c->b.x, c->b.y, c->b.rows, c->b.cols));
}

static void sx_time(wb_bench_row *r, wb_work_fn fn, sx_ctx *c)
{
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = softmax_bench_fresh, o.check = softmax_bench_check;
    wb_dpoison(c->b.y, r->n * 4);
    wb_time(fn, c, &o, &r->t);
    r->value = r->bytes / (r->t.median * 1e-3) / 1e9;
    char why[600];
    if (softmax_bench_verify(&c->b, 1 << 11, why, sizeof why)) wb_bench_invalid(r, why);
    wb_bench_emit(r);
}

static double bench_naive_vs_stable(void)
{
    const int cols = 4096;
    const int rows = (int)(wb_bench_bytes() / 4 / cols);
    const size_t n = (size_t)rows * cols;
    sx_ctx c = { { .x = wb_dmalloc(n * 4), .y = wb_dmalloc(n * 4), .rows = rows, .cols = cols, .seed = SEED_X,
                   .lo = -4, .hi = 4, .atol = ATOL, .rtol = RTOL, .cached_row = -1 },
                 wb_dmalloc((size_t)rows * 4) };
    wb_dfill_uniform_f32((float *)c.b.x, n, SEED_X, -4, 4);
    double copy = wb_yard_copy_gbps(n * 4);
    wb_bench_row a = { .exercise = "naive", .variant = "3 kernels, 20 B/elem", .n = n, .bytes = 20.0 * n,
                       .flops = 2.0 * n, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    sx_time(&a, sx_naive, &c);
    wb_bench_row b = { .exercise = "stable", .variant = "1 kernel, 8 B/elem", .n = n, .bytes = 8.0 * n,
                       .flops = 4.0 * n, .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    sx_time(&b, sx_stable, &c);
    printf("  %d x %d floats: naive %.3f ms, stable %.3f ms (%.2fx); at the copy's rate 20 B/elem take %.3f ms, "
           "8 B/elem %.3f ms\n",
           rows, cols, a.t.median, b.t.median, a.t.median / b.t.median, 20.0 * n / copy / 1e6, 8.0 * n / copy / 1e6);
    wb_dfree((void *)c.b.x), wb_dfree(c.b.y), wb_dfree(c.sums);
    return a.invalid || b.invalid ? NAN : a.t.median / b.t.median;
}

static const wb_test TESTS[] = {
    { "w29.limit", WB_T(limit_values), WB_CPU, 0 },
    { "w29.naive", WB_T(naive_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w29.naive", WB_T(naive_offsets), WB_GPU, 4 },
    { "w29.overflow", WB_T(overflow_naive), WB_GPU, WB_COUNT(OV_COLS) },
    { "w29.stable", WB_T(stable_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w29.stable", WB_T(stable_offsets), WB_GPU, 4 },
};

/* No speed checkpoint this week: the benchmark shows what the naive chain
 * costs, for the README's story (`make phase6/week29 bench`). */
static const wb_benchmark BENCHES[] = {
    { "naive_vs_stable", bench_naive_vs_stable },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
