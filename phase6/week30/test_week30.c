/* test_week30.c — week 30's checkpoints: the online normaliser on the CPU,
 * the warp and block online softmax and their dispatcher, their speed
 * against a copy and against cuDNN, and the ladder over row lengths. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "softmax_check.h"
#include "online.h"
#include "rowsoftmax.h"
#include "support/yard_cudnn_softmax.h"
#include "w30_checks.h" /* the cases, shared with the instructor's judge */

#define ATOL W30_ATOL
#define RTOL W30_RTOL

/* ---------------------------------------------------------------- online (CPU) */

/* Case k of the CPU check (w30_checks.h): x as W30_OC_WHAT[k] says. */
START_TEST(online_cpu)
{
    ck_assert_str_eq(__func__, W30_ONLINE_CPU_TAG); /* the judge draws these cases by this tag (w30_checks.h) */
    wb_rng rng = WB_RNG();
    const int k = _i;
    size_t n = w30_oc_n(&rng, k);
    float *x = wb_hmalloc((n ? n : 1) * 4);
    w30_oc_fill(&rng, k, x, n);
    double m = 12345, s = 12345, wm, ws;
    online_stats(x, n, &m, &s);
    w30_stats_ref(x, n, &wm, &ws);
    ck_assert_msg(m == wm || (isnan(m) && isnan(wm)), "online_stats, n=%zu, %s: m = %.17g, expected %.17g", n,
                  W30_OC_WHAT[k], m, wm);
    ck_assert_msg(wb_close(s, ws, 0, 1e-9), "online_stats, n=%zu, %s: s = %.17g, expected %.17g (1e-9 relative)", n,
                  W30_OC_WHAT[k], s, ws);
    free(x);
}
END_TEST

/* ---------------------------------------------------------------- GPU shapes */

typedef cudaError_t (*softmax_fn)(const float *, float *, int, int);

/* The shapes (W30_SHAPES), the special rows 0-7 (w30_specials) and the
 * offset cases (w30_offsets_case) are in w30_checks.h, shared with the
 * instructor's judge. */

static void check_softmax(softmax_fn fn, const char *name, wb_rng *rng, int rows, int cols, size_t ox, size_t oy)
{
    size_t n = softmax_elems(rows, cols);
    float *hx = wb_hmalloc((n + ox) * 4);
    double *ref = wb_hmalloc(n * 8);
    wb_fill_uniform_f32(rng, hx, n + ox, -20, 20);
    w30_specials(rng, hx + ox, rows, cols);
    softmax_ref(hx + ox, ref, rows, cols);
    float *dx = wb_dcopy(hx, (n + ox) * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, oy * 4);
    WB_CUDA(fn(dx ? dx + ox : NULL, dy, rows, cols));
    char what[200];
    snprintf(what, sizeof what, "%s, rows=%d cols=%d, x+%zu y+%zu%s", name, rows, cols, ox, oy,
             rows >= 8 && cols > 0 ? " (rows 0-7: near +1e4, near -1e4, over +-1e4, masked, all -Inf, a NaN, a +Inf, "
                                     "near -1e4 masked)"
                                   : "");
    wb_expect_dout_f32_f64(&y, ref, n, ATOL, RTOL, what);
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref);
}

/* Misaligned x or y (by one float: i & 1, i & 2), and cols that are not a
 * multiple of 4 (w30_offsets_case). */
static void check_offsets(softmax_fn fn, const char *name, int i)
{
    wb_rng rng = wb_rng_for(name, i);
    int rows, cols;
    size_t ox, oy;
    w30_offsets_case(&rng, i, &rows, &cols, &ox, &oy);
    check_softmax(fn, name, &rng, rows, cols, ox, oy);
}

START_TEST(warp_shapes)
{
    ck_assert_str_eq(__func__, W30_WARP_SHAPES_TAG);
    wb_rng rng = WB_RNG();
    check_softmax(rowsoftmax_warp, "rowsoftmax_warp", &rng, W30_SHAPES[_i][0], W30_SHAPES[_i][1], 0, 0);
}
END_TEST
START_TEST(warp_offsets) { check_offsets(rowsoftmax_warp, "rowsoftmax_warp", _i); }
END_TEST
START_TEST(block_shapes)
{
    ck_assert_str_eq(__func__, W30_BLOCK_SHAPES_TAG);
    wb_rng rng = WB_RNG();
    check_softmax(rowsoftmax_block, "rowsoftmax_block", &rng, W30_SHAPES[_i][0], W30_SHAPES[_i][1], 0, 0);
}
END_TEST
START_TEST(block_offsets) { check_offsets(rowsoftmax_block, "rowsoftmax_block", _i); }
END_TEST
START_TEST(online_shapes)
{
    ck_assert_str_eq(__func__, W30_ONLINE_SHAPES_TAG);
    wb_rng rng = WB_RNG();
    check_softmax(rowsoftmax_online, "rowsoftmax_online", &rng, W30_SHAPES[_i][0], W30_SHAPES[_i][1], 0, 0);
}
END_TEST
START_TEST(online_offsets) { check_offsets(rowsoftmax_online, "rowsoftmax_online", _i); }
END_TEST

/* Past 2^31 elements: 65540 rows of 32768 floats (2 x 8.6 GB), made on the
 * device. Whole rows are checked where an int index breaks: the first, the
 * ones that straddle and follow element 2^31, the last, and random ones. */
START_TEST(online_past_2g)
{
    int rows = 65540, cols = 32768;
    size_t free_b = 0;
    int room = wb_device_room(2 * softmax_elems(rows, cols) * 4 + (1u << 30), &free_b);
    if (room < 0) return; /* a shared GPU (grading): SKIP, run again alone */
    if (!room) {
        printf("  online_past_2g: needs %.1f GB of device memory, %.1f GB free; checked at 8192 rows instead\n",
               2.0 * softmax_elems(rows, cols) * 4 / 1e9, free_b / 1e9);
        rows = 8192;
    }
    const size_t n = softmax_elems(rows, cols);
    ck_assert_str_eq(__func__, W30_PAST_2G_TAG);
    wb_rng rng = WB_RNG();
    const unsigned long long seed = wb_rng_u64(&rng);
    float *dx = wb_dmalloc(n * 4), *dy = wb_dmalloc(n * 4);
    wb_dfill_uniform_f32(dx, n, seed, -20, 20);
    wb_dpoison(dy, n * 4);
    WB_CUDA(rowsoftmax_online(dx, dy, rows, cols));
    wb_sync();
    float *hx = wb_hmalloc((size_t)cols * 4), *got = wb_hmalloc((size_t)cols * 4);
    double *ref = wb_hmalloc((size_t)cols * 8);
    int check[40], nc = 0;
    const int fixed[] = { 0, 1, 65535, 65536, 65537, rows - 2, rows - 1 };
    for (size_t k = 0; k < WB_COUNT(fixed); k++)
        if (fixed[k] < rows) check[nc++] = fixed[k];
    while (nc < 32) check[nc++] = (int)wb_rng_int(&rng, 0, rows - 1);
    for (int k = 0; k < nc; k++) {
        const size_t base = (size_t)check[k] * cols;
        for (int j = 0; j < cols; j++) hx[j] = wb_hash_uniform_f32(seed, base + j, -20, 20);
        softmax_ref(hx, ref, 1, cols);
        wb_d2h(got, dy + base, (size_t)cols * 4);
        wb_cmp cmp;
        wb_compare_f32_f64("y", got, ref, (size_t)cols, ATOL, RTOL, &cmp);
        char what[160];
        snprintf(what, sizeof what, "rowsoftmax_online, %d x %d, row %d (elements from %zu%s)", rows, cols, check[k],
                 base, base + cols > ((size_t)1 << 31) ? ", past 2^31: is an index an int?" : "");
        WB_EXPECT_CMP(cmp, what);
    }
    wb_dfree(dx), wb_dfree(dy);
    free(hx), free(got), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- benchmarks */

enum { SEED_X = 30 };
#define BLO -8.0f
#define BHI 8.0f

typedef softmax_bench bx_ctx; /* softmax_check.h: hashed inputs, checked element by element */

static void bx_yours(void *p)
{
    bx_ctx *c = p;
    WB_CUDA(rowsoftmax_online(c->x, c->y, c->rows, c->cols));
}
static char g_cudnn_err[256];
static int g_cudnn_failed;
static void bx_cudnn(void *p)
{
    bx_ctx *c = p;
    if (!g_cudnn_failed && yard_cudnn_softmax(c->x, c->y, c->rows, c->cols, g_cudnn_err, sizeof g_cudnn_err) != 0)
        g_cudnn_failed = 1;
}

/* One row: the work timed (your dispatcher with the spot check, or cuDNN),
 * then its output verified (samples elements, whole rows re-derived on the
 * host). bytes = 8 an element: x read once, y written once. */
static void bx_time(wb_bench_row *r, wb_work_fn fn, bx_ctx *c, int spot, size_t samples)
{
    const size_t n = (size_t)c->rows * c->cols;
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    if (spot) o.fresh = softmax_bench_fresh, o.check = softmax_bench_check;
    wb_dpoison(c->y, n * 4);
    g_cudnn_failed = 0;
    wb_time(fn, c, &o, &r->t);
    r->n = n, r->bytes = 8.0 * n, r->flops = 4.0 * n, r->unit = "GB/s";
    r->value = r->bytes / (r->t.median * 1e-3) / 1e9;
    if (g_cudnn_failed) {
        wb_bench_invalid(r, g_cudnn_err);
        return;
    }
    char why[600];
    if (softmax_bench_verify(c, samples, why, sizeof why)) wb_bench_invalid(r, why);
}

static void bx_alloc(bx_ctx *c, size_t n)
{
    memset(c, 0, sizeof *c);
    c->x = wb_dmalloc(n * 4), c->y = wb_dmalloc(n * 4), c->cached_row = -1;
    c->seed = SEED_X, c->lo = BLO, c->hi = BHI, c->atol = ATOL, c->rtol = RTOL;
    wb_dfill_uniform_f32((float *)c->x, n, SEED_X, BLO, BHI);
}

enum { HEAD_COLS = 4096 };

/* w30.speed: the dispatcher on rows of 4096 floats, wb_bench_bytes() of x,
 * against a device-to-device copy of x (2 x its bytes: the same 8 bytes an
 * element, read plus write). */
static double bench_speed(wb_headline *h)
{
    const int rows = (int)(wb_bench_bytes() / 4 / HEAD_COLS);
    const size_t n = (size_t)rows * HEAD_COLS;
    bx_ctx c;
    bx_alloc(&c, n);
    c.rows = rows, c.cols = HEAD_COLS;
    const double copy = wb_yard_copy_gbps(n * 4);
    wb_bench_row r = { .exercise = "rowsoftmax", .variant = "softmax_online, 4096 cols", .yard_name = "COPY",
                       .yard = copy };
    bx_time(&r, bx_yours, &c, 1, 1 << 11);
    wb_dfree((void *)c.x), wb_dfree(c.y);
    return wb_bench_headline(&r, h);
}

/* The ladder's row lengths, all on the same bytes: wb_bench_bytes() of x,
 * a multiple of the longest row. */
static const int LADDER[] = { 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768 };
static size_t ladder_elems(void) { return wb_bench_bytes() / 4 / 32768 * 32768; }

enum { LONG_ROW = 1024 }; /* w30.cudnn's row lengths: the ladder's from here up */

/* w30.cudnn: yours and cuDNN on the same x at each of the ladder's row
 * lengths of 1024 floats and more (1024 ... 32768, the same bytes at each),
 * every timed output of both verified. Each length is judged on its own:
 * the headline is the length where yours / cuDNN is lowest, with your GB/s
 * there as the figure and cuDNN's as the yardstick, so a length where cuDNN
 * is slow cannot make up for one where yours is. Your output is checked at
 * every length first (a wrong kernel fails here even without cuDNN); then
 * the checkpoint is SKIP where cuDNN cannot be loaded. */
static void cudnn_compare(wb_bench_row *head, int *skipped, char *why, size_t why_n)
{
    const size_t n = ladder_elems();
    static char variant[WB_COUNT(LADDER)][48];
    static char head_variant[64];
    bx_ctx c;
    bx_alloc(&c, n);
    why[0] = 0;
    const int have = yard_cudnn_open(why, why_n);
    *skipped = 0;
    *head = (wb_bench_row){ .exercise = "rowsoftmax", .variant = "worst of 1024..32768 cols", .n = n,
                            .bytes = 8.0 * n, .flops = 4.0 * n, .unit = "GB/s", .yard_name = "cuDNN" };
    char ratios[200] = "";
    size_t used = 0;
    double worst = INFINITY;
    int worst_cols = 0, yard_bad = 0;
    for (size_t k = 0; k < WB_COUNT(LADDER); k++) {
        if (LADDER[k] < LONG_ROW) continue;
        c.cols = LADDER[k], c.rows = (int)(n / (size_t)LADDER[k]), c.salt = 0;
        const size_t samples = ((size_t)1 << 22) / (size_t)c.cols; /* 4 M elements re-derived on the host */
        snprintf(variant[k], sizeof variant[k], "rowsoftmax_online, %d cols", c.cols);
        wb_bench_row r = { .exercise = "rowsoftmax", .variant = variant[k], .yard_name = "cuDNN" };
        bx_time(&r, bx_yours, &c, 1, samples);
        if (r.invalid) {
            wb_bench_emit(&r);
            wb_bench_invalid(head, r.why);
            snprintf(why, why_n, "your rowsoftmax_online is wrong at %d columns: %s", c.cols, r.why);
            break;
        }
        if (!have) {
            wb_bench_emit(&r);
            continue;
        }
        wb_bench_row d = { .exercise = "cudnn", .variant = "cudnnSoftmaxForward, accurate" };
        c.salt = 0;
        bx_time(&d, bx_cudnn, &c, 0, samples);
        r.yard = d.invalid ? NAN : d.value;
        wb_bench_emit(&d);
        wb_bench_emit(&r);
        if (d.invalid) {
            if (!yard_bad++) snprintf(why, why_n, "cuDNN's output at %d columns, the yardstick, is wrong or failed: %s",
                                      c.cols, d.why);
            continue;
        }
        const double ratio = r.value / d.value;
        if (used < sizeof ratios)
            used += (size_t)snprintf(ratios + used, sizeof ratios - used, "%s%d: %.3f", used ? ", " : "", c.cols,
                                     ratio);
        if (ratio < worst) {
            worst = ratio, worst_cols = c.cols;
            snprintf(head_variant, sizeof head_variant, "worst of 1024..32768 cols: %d cols", c.cols);
            head->variant = head_variant, head->n = r.n, head->bytes = r.bytes, head->flops = r.flops;
            head->t = r.t, head->value = r.value, head->yard = d.value;
        }
    }
    wb_dfree((void *)c.x), wb_dfree(c.y);
    if (head->invalid) return;
    if (!have) {
        *skipped = 1;
        return;
    }
    if (yard_bad) {
        wb_bench_invalid(head, why); /* no yardstick at some length: no figure */
        return;
    }
    snprintf(why, why_n, "yours / cuDNN at each row length, %zu floats each: %s; the lowest, at %d columns, is "
             "the figure", n, ratios, worst_cols);
}

START_TEST(cudnn_speed)
{
    int skipped = 0;
    char why[400];
    wb_bench_row head;
    cudnn_compare(&head, &skipped, why, sizeof why);
    if (skipped) wb_skip_test("cuDNN could not be loaded, so there is no yardstick: %s", why);
    printf("  %s\n", why);
    wb_expect_target_row("w30.cudnn", &head);
}
END_TEST

static double bench_cudnn(void)
{
    int skipped = 0;
    char why[400];
    wb_bench_row head;
    cudnn_compare(&head, &skipped, why, sizeof why);
    printf("  %s%s\n", skipped ? "cuDNN could not be loaded: " : "", why);
    if (skipped) return NAN;
    wb_bench_emit(&head);
    return wb_bench_ratio(&head);
}

/* ---------------------------------------------------------------- the ladder */

static int g_no_gnuplot, g_no_cudnn;
static char g_ladder_note[400];

/* Every row length on the same bytes (wb_bench_bytes() of x, a multiple of
 * 32768 floats): yours and cuDNN timed and verified, COPY once. Written to
 * ladder.csv and drawn when gnuplot is here. 1 when done (or when only
 * gnuplot or cuDNN is missing), 0 when gnuplot failed, NAN when a point of
 * yours was wrong. */
static double bench_ladder(void)
{
    const char *wk = getenv("WB_WEEK_DIR");
    char dir[256], csv[300], png[300], gp[300], cmd[700];
    snprintf(dir, sizeof dir, "build/%s", wk && *wk ? wk : "phase6/week30");
    snprintf(csv, sizeof csv, "%s/ladder.csv", dir);
    snprintf(png, sizeof png, "%s/ladder.png", dir);
    snprintf(gp, sizeof gp, "%s/ladder.gp", wk && *wk ? wk : "phase6/week30");
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    if (system(cmd) != 0) return NAN;
    const size_t n = ladder_elems();
    bx_ctx c;
    bx_alloc(&c, n);
    const double copy = wb_yard_copy_gbps(n * 4);
    char why[256] = "";
    g_no_cudnn = !yard_cudnn_open(why, sizeof why);
    FILE *f = fopen(csv, "w");
    if (!f) {
        printf("  cannot write %s\n", csv);
        wb_dfree((void *)c.x), wb_dfree(c.y);
        return NAN;
    }
    fprintf(f, "cols,rows,yours_gbps,cudnn_gbps,copy_gbps,yours_over_copy,yours_over_cudnn\n");
    int bad = 0;
    double first = NAN, last = NAN;
    for (size_t k = 0; k < WB_COUNT(LADDER); k++) {
        c.cols = LADDER[k], c.rows = (int)(n / (size_t)LADDER[k]), c.salt = 0;
        wb_bench_row r = { .exercise = "rowsoftmax", .variant = "softmax_online", .yard_name = "COPY", .yard = copy };
        bx_time(&r, bx_yours, &c, 1, 1 << 8);
        wb_bench_emit(&r);
        bad += r.invalid;
        double dn = NAN;
        if (!g_no_cudnn) {
            wb_bench_row d = { .exercise = "cudnn", .variant = "cudnnSoftmaxForward", .yard_name = "COPY", .yard = copy };
            bx_time(&d, bx_cudnn, &c, 0, 1 << 8);
            wb_bench_emit(&d);
            if (!d.invalid) dn = d.value;
        }
        const double yv = r.invalid ? NAN : r.value;
        if (k == 0) first = yv / copy;
        last = yv / copy;
        fprintf(f, "%d,%d,%.6g,%.6g,%.6g,%.4f,%.4f\n", c.cols, c.rows, yv, dn, copy, yv / copy, yv / dn);
    }
    fclose(f);
    wb_dfree((void *)c.x), wb_dfree(c.y);
    snprintf(g_ladder_note, sizeof g_ladder_note,
             "%s and ladder.png: %zu row lengths on %.0f MB, yours %.2f of COPY at 32 floats, %.2f at 32768%s%s", csv,
             WB_COUNT(LADDER), n * 4 / 1e6, first, last, g_no_cudnn ? "; no cuDNN: " : "", g_no_cudnn ? why : "");
    printf("  ladder: %s (%d points of yours without a valid figure)\n", csv, bad);
    if (bad) return NAN;
    int drawn = wb_gnuplot(gp, csv, png);
    g_no_gnuplot = drawn == 0;
    return drawn < 0 ? 0 : 1;
}

START_TEST(ladder_plot)
{
    double ok = bench_ladder();
    ck_assert_msg(!isnan(ok), "some row lengths gave wrong output from your rowsoftmax_online (see the rows above)");
    if (g_no_gnuplot) wb_skip_test_no_gnuplot("build/phase6/week30/ladder.csv");
    ck_assert_msg(ok > 0, "the ladder was measured but the PNG was not drawn");
    if (g_no_cudnn) wb_skip_test("cuDNN could not be loaded: the ladder has no cuDNN line (%s)", g_ladder_note);
    wb_report(g_ladder_note);
}
END_TEST

static const wb_test TESTS[] = {
    { "w30.online-cpu", WB_T(online_cpu), WB_CPU, W30_N_OC },
    { "w30.warp", WB_T(warp_shapes), WB_GPU, W30_N_SHAPES },
    { "w30.warp", WB_T(warp_offsets), WB_GPU, 4 },
    { "w30.block", WB_T(block_shapes), WB_GPU, W30_N_SHAPES },
    { "w30.block", WB_T(block_offsets), WB_GPU, 4 },
    { "w30.online", WB_T(online_shapes), WB_GPU, W30_N_SHAPES },
    { "w30.online", WB_T(online_offsets), WB_GPU, 8 },
    { "w30.online", WB_T(online_past_2g), WB_GPU, 0 },
    WB_SPEED("w30.speed", bench_speed),
    { "w30.cudnn", WB_T(cudnn_speed), WB_GPU, 0 },
    { "w30.ladder", WB_T(ladder_plot), WB_GPU, 0 },
};

/* `--bench` runs these and bench_speed. */
static const wb_benchmark BENCHES[] = {
    { "cudnn", bench_cudnn },
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
