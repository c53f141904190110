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
#include "w29_checks.h" /* the cases, drawn as the judge draws them (instructor/judge_w29.c) */

#define ATOL W29_ATOL
#define RTOL W29_RTOL

/* ---------------------------------------------------------------- limit */

/* ln(FLT_MAX / cols) for the columns the tests use: W29_LIMITS. */
static double limit_of(int cols)
{
    const double lim = w29_limit_of(cols);
    if (isnan(lim)) ck_abort_msg("no limit listed for %d columns (test bug)", cols);
    return lim;
}

START_TEST(limit_values)
{
    for (size_t k = 0; k < W29_N_LIMITS; k++) {
        const int cols = W29_LIMITS[k].cols;
        const double got = naive_limit(cols);
        ck_assert_msg(wb_close(got, W29_LIMITS[k].limit, W29_LIMIT_ATOL, 0),
                      "naive_limit(%d) = %.6f, expected ln(FLT_MAX / %d) = %.6f", cols, got, cols, W29_LIMITS[k].limit);
        printf("  cols %8d: the naive softmax overflows past logits of %.3f\n", cols, got);
    }
}
END_TEST

/* ---------------------------------------------------------------- naive */

/* Logits in [-10, 10] (w29_naive_case). */
static void check_naive(wb_rng *rng, int rows, int cols, size_t ox, size_t oy)
{
    size_t n = softmax_elems(rows, cols);
    float *hx = wb_hmalloc((n + ox) * 4);
    double *ref = wb_hmalloc(n * 8);
    w29_naive_case(rng, rows, cols, ox, hx, ref);
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
    ck_assert_str_eq(__func__, W29_NAIVE_SHAPES_TAG); /* the judge draws these cases by this tag (w29_checks.h) */
    wb_rng rng = WB_RNG();
    check_naive(&rng, W29_SHAPES[_i][0], W29_SHAPES[_i][1], 0, 0);
}
END_TEST

START_TEST(naive_offsets)
{
    ck_assert_str_eq(__func__, W29_NAIVE_OFFSETS_TAG);
    wb_rng rng = WB_RNG();
    int rows, cols;
    w29_offsets_shape(&rng, 0, &rows, &cols);
    check_naive(&rng, rows, cols, (size_t)(_i & 1), (size_t)(_i >> 1));
}
END_TEST

/* ---------------------------------------------------------------- overflow */

/* Eight rows through the naive softmax, rows 1, 3 and 5 past what it
 * survives, the others right (w29_overflow_case). The limit here is the
 * test's own ln(FLT_MAX / cols), not yours. */
enum { OV_ROWS = W29_OV_ROWS };
#define OV_COLS W29_OV_COLS
#define OV_WHAT W29_OV_WHAT

START_TEST(overflow_naive)
{
    ck_assert_str_eq(__func__, W29_OVERFLOW_TAG);
    wb_rng rng = WB_RNG();
    const int cols = OV_COLS[_i];
    const size_t n = (size_t)OV_ROWS * cols;
    const double lim = limit_of(cols);
    float *hx = wb_hmalloc(n * 4), *got = wb_hmalloc(n * 4);
    double *ref = wb_hmalloc(n * 8);
    w29_overflow_case(&rng, cols, lim, hx, ref);
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
        const int must_fail = w29_ov_must_fail(r);
        size_t unwritten, right;
        w29_ov_count(g, w, cols, &unwritten, &right);
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

/* Logits in [-20, 20] and, when rows >= 8, the special rows
 * (w29_stable_case): rows 4-6 give NaN. */
static void check_stable(wb_rng *rng, int rows, int cols, size_t ox, size_t oy)
{
    size_t n = softmax_elems(rows, cols);
    float *hx = wb_hmalloc((n + ox) * 4);
    double *ref = wb_hmalloc(n * 8);
    w29_stable_case(rng, rows, cols, ox, hx, ref);
    float *dx = wb_dcopy(hx, (n + ox) * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    WB_CUDA(stable_softmax(dx ? dx + ox : NULL, dy, rows, cols));
    char what[200];
    snprintf(what, sizeof what, "stable, rows=%d cols=%d, x+%zu y+%zu%s", rows, cols, ox, oy,
             rows >= 8 && cols > 0 ? " " W29_STABLE_SPECIALS : "");
    wb_expect_dout_f32_f64(&y, ref, n, ATOL, RTOL, what);
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref);
}

START_TEST(stable_shapes)
{
    ck_assert_str_eq(__func__, W29_STABLE_SHAPES_TAG);
    wb_rng rng = WB_RNG();
    check_stable(&rng, W29_SHAPES[_i][0], W29_SHAPES[_i][1], 0, 0);
}
END_TEST

START_TEST(stable_offsets)
{
    ck_assert_str_eq(__func__, W29_STABLE_OFFSETS_TAG);
    wb_rng rng = WB_RNG();
    int rows, cols;
    w29_offsets_shape(&rng, 1, &rows, &cols);
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
    { "w29.naive", WB_T(naive_shapes), WB_GPU, W29_N_SHAPES },
    { "w29.naive", WB_T(naive_offsets), WB_GPU, W29_N_OFFSETS },
    { "w29.overflow", WB_T(overflow_naive), WB_GPU, W29_N_OV_COLS },
    { "w29.stable", WB_T(stable_shapes), WB_GPU, W29_N_SHAPES },
    { "w29.stable", WB_T(stable_offsets), WB_GPU, W29_N_OFFSETS },
};

/* No speed checkpoint this week: the benchmark shows what the naive chain
 * costs, for the README's story (`make phase6/week29 bench`). */
static const wb_benchmark BENCHES[] = {
    { "naive_vs_stable", bench_naive_vs_stable },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
