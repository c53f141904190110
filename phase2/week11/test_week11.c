/* test_week11.c — week 11's checkpoints: polyt correct, and ten times faster
 * than the given slow kernel in the same run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "polyt.h"
#include "w11_checks.h"

START_TEST(polyt_shapes)
{
    ck_assert_str_eq(__func__, W11_SHAPES_TAG); /* the judge draws these cases by this tag (w11_checks.h) */
    wb_rng rng = WB_RNG();
    int rows = W11_SHAPES[_i][0], cols = W11_SHAPES[_i][1];
    size_t n = (size_t)rows * cols;
    float coef[POLYT_TERMS];
    float *hin = wb_hmalloc(n * 4);
    double *ref = wb_hmalloc(n * 8);
    w11_draw(&rng, rows, cols, coef, hin);
    w11_polyt_ref(hin, rows, cols, coef, ref);
    float *din = wb_dcopy(hin, n * 4);
    wb_dout out;
    float *dout = wb_dout_alloc(&out, "out", n * 4, 0);
    WB_CUDA(polyt(din, dout, rows, cols, coef));
    char what[64];
    snprintf(what, sizeof what, "rows=%d cols=%d", rows, cols);
    wb_expect_dout_f32_f64(&out, ref, n, W11_ATOL, W11_RTOL, what);
    wb_dfree(din), wb_dout_free(&out);
    free(hin), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- speed */

enum { SEED_IN = 111, ROWS = W11_BENCH_ROWS, COLS = W11_BENCH_COLS };
static float g_coef[POLYT_TERMS];
typedef struct { const float *in; float *out; int given; } pt_ctx;

static void pt_work(void *p)
{
    pt_ctx *c = p;
    if (c->given) WB_CUDA(yard_polyt_given(c->in, c->out, ROWS, COLS, g_coef));
    else WB_CUDA(polyt(c->in, c->out, ROWS, COLS, g_coef));
}

static double pt_expect(size_t i, const void *ctx)
{
    (void)ctx;
    size_t c = i / ROWS, r = i % ROWS;
    return w11_poly_ref(wb_hash_uniform_f32(SEED_IN, r * COLS + c, -1, 1), g_coef);
}

static double time_one(pt_ctx *c, const char *variant, wb_bench_row *r)
{
    size_t n = (size_t)ROWS * COLS;
    wb_dpoison(c->out, n * 4);
    r->exercise = "polyt", r->variant = variant, r->n = n, r->bytes = 8.0 * n, r->flops = 30.0 * n, r->unit = "GB/s";
    wb_time(pt_work, c, NULL, &r->t);
    r->value = r->bytes / (r->t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("out", c->out, n, pt_expect, NULL, 1 << 12, W11_ATOL, W11_RTOL, &cmp)) wb_bench_invalid(r, cmp.msg);
    return r->value;
}

/* Yours against the given kernel, same matrix, same run: the ratio is how
 * many times faster yours is (bandwidth ratio = time ratio). */
static double bench_speed(wb_headline *h)
{
    size_t n = (size_t)ROWS * COLS;
    for (int j = 0; j < POLYT_TERMS; j++) g_coef[j] = (float)((j % 3) - 1) / (j + 1);
    pt_ctx c = { wb_dmalloc(n * 4), wb_dmalloc(n * 4), 1 };
    wb_dfill_uniform_f32((float *)c.in, n, SEED_IN, -1, 1);
    double copy = wb_yard_copy_gbps(n * 4);
    wb_bench_row given = { 0 };
    time_one(&c, "given (support/yard_slow.cu)", &given);
    given.yard_name = "COPY", given.yard = copy;
    wb_bench_emit(&given);
    wb_bench_row mine = { 0 };
    c.given = 0;
    time_one(&c, "yours", &mine);
    mine.yard_name = "GIVEN", mine.yard = given.value;
    double ratio = wb_bench_headline(&mine, h);
    if (!mine.invalid) printf("  yours: %.3f of COPY (%.0f GB/s)\n", mine.value / copy, copy);
    wb_dfree((void *)c.in), wb_dfree(c.out);
    return ratio;
}

static const wb_test TESTS[] = {
    { "w11.polyt", WB_T(polyt_shapes), WB_GPU, WB_COUNT(W11_SHAPES) },
    WB_SPEED("w11.polyt-speed", bench_speed), /* `--bench speed` */
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
