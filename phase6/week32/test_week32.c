/* test_week32.c — week 32's checkpoints: LayerNorm backward. Your CPU
 * backward against finite differences of the forward (in double), then dx,
 * dgamma and dbeta on the device against the test's CPU reference, and the
 * two kernels' bandwidth against a device-to-device copy in the same run.
 *
 * The chain of trust: the forward (ln_stats, ln_loss) is written straight
 * from ln_host.h's definition; the test's analytic reference (ref_backward)
 * is checked against central differences of that forward before your code
 * is (a failure there is the test's bug, and says so); the device kernels
 * are compared with ref_backward on float inputs widened to double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "ln_host.h"
#include "ln_dx.h"
#include "ln_dgb.h"
#include "w32_checks.h"

/* The forward, the reference, the cases and the tolerances:
 * w32_checks.h (shared with the instructor's judge). */

/* Fail the test unless every got[k] is within tol * scale[k / per] + tol * |ref[k]|
 * of ref[k] (NaN never passes where a number is expected; a NaN reference
 * wants a NaN). One check for the whole array, with the first bad element. */
static void expect_scaled(const char *name, const float *got, const double *ref, const double *scale, size_t n,
                          size_t per, double tol, const char *what)
{
    size_t bad = 0, first = 0;
    for (size_t k = 0; k < n; k++)
        if (!wb_close(got[k], ref[k], tol * scale[k / per], tol)) {
            if (!bad) first = k;
            bad++;
        }
    if (bad)
        ck_abort_msg("%s (seed %llu): %zu of %zu of %s wrong (tolerance %g of the scale %g); %s[%zu] expected %.9g got %.9g",
                     what, (unsigned long long)wb_base_seed(), bad, n, name, tol, scale[first / per], name, first,
                     ref[first], (double)got[first]);
}

/* ---------------------------------------------------------------- gradcheck (CPU) */

START_TEST(gradcheck_fd)
{
    ck_assert_str_eq(__func__, W32_GRADCHECK_TAG); /* the judge draws these cases by this tag (w32_checks.h) */
    wb_rng rng = WB_RNG();
    const int rows = GC[_i][0], cols = GC[_i][1];
    const size_t n = (size_t)rows * cols;
    host_case h;
    gc_make(&h, &rng, rows, cols);
    char what[96];
    snprintf(what, sizeof what, "rows=%d cols=%d, against central differences (h = 1e-5)", rows, cols);
    const double atol = W32_FD_TOL, rtol = W32_FD_TOL;
    wb_cmp c;

    if (wb_compare_f64("dx", h.rx, h.fx, n, atol, rtol, &c) || wb_compare_f64("dgamma", h.rg, h.fg, cols, atol, rtol, &c) ||
        wb_compare_f64("dbeta", h.rb, h.fb, cols, atol, rtol, &c))
        ck_abort_msg("%s: the TEST's own reference disagrees with finite differences (a bug in the test, not "
                     "yours): %s", what, c.msg);

    ln_host_backward(h.x, h.gamma, h.mean, h.rstd, h.dy, h.yx, h.yg, h.yb, rows, cols);
    wb_compare_f64("dx", h.yx, h.fx, n, atol, rtol, &c);
    WB_EXPECT_CMP(c, what);
    wb_compare_f64("dgamma", h.yg, h.fg, cols, atol, rtol, &c);
    WB_EXPECT_CMP(c, what);
    wb_compare_f64("dbeta", h.yb, h.fb, cols, atol, rtol, &c);
    WB_EXPECT_CMP(c, what);
    host_case_free(&h);
}
END_TEST

START_TEST(host_vs_ref)
{
    ck_assert_str_eq(__func__, W32_HOST_REF_TAG);
    wb_rng rng = WB_RNG();
    const int rows = HS[_i][0], cols = HS[_i][1];
    host_case h;
    hr_make(&h, &rng, rows, cols);
    ln_host_backward(h.x, h.gamma, h.mean, h.rstd, h.dy, h.yx, h.yg, h.yb, rows, cols);
    char what[96];
    snprintf(what, sizeof what, "rows=%d cols=%d, against the test's reference", rows, cols);
    /* double against double: 1e-12 of each result's scale */
    size_t first = 0;
    const char *arr = host_mismatch(h.yx, h.yg, h.yb, h.rx, h.rg, h.rb, h.sx, h.sg, h.sb, rows, cols, &first);
    if (arr) {
        const double *want = arr[1] == 'x' ? h.rx : arr[1] == 'g' ? h.rg : h.rb,
                     *got = arr[1] == 'x' ? h.yx : arr[1] == 'g' ? h.yg : h.yb;
        ck_abort_msg("%s (seed %llu): %s[%zu] expected %.15g got %.15g", what, (unsigned long long)wb_base_seed(), arr,
                     first, want[first], got[first]);
    }
    host_case_free(&h);
}
END_TEST

/* ---------------------------------------------------------------- the device problems */

/* One problem on the host and the device: inputs starting at offsets (in
 * floats) into their buffers, so float4 paths meet misaligned pointers, and
 * the reference with its scales. */
typedef struct {
    int rows, cols;
    size_t n, ox, ody, og, om;
    float *hx, *hdy, *hg, *hm, *hr;       /* host buffers, offsets included */
    double *rdx, *rdg, *rdb, *sdx, *sdg, *sdb;
    float *dev_x, *dev_dy, *dev_g, *dev_m, *dev_r; /* device copies, offsets included */
} problem;

static void problem_make(problem *p, wb_rng *rng, int rows, int cols, size_t ox, size_t ody, size_t og, size_t om,
                         int nan)
{
    memset(p, 0, sizeof *p);
    p->rows = rows, p->cols = cols, p->n = (size_t)rows * cols, p->ox = ox, p->ody = ody, p->og = og, p->om = om;
    const size_t n = p->n, nr = (size_t)rows, nc = (size_t)cols;
    p->hx = wb_hmalloc((n + ox) * 4), p->hdy = wb_hmalloc((n + ody) * 4), p->hg = wb_hmalloc((nc + og) * 4);
    p->hm = wb_hmalloc((nr + om) * 4), p->hr = wb_hmalloc((nr + om) * 4);
    memset(p->hx, 0, ox * 4), memset(p->hdy, 0, ody * 4), memset(p->hg, 0, og * 4);
    memset(p->hm, 0, om * 4), memset(p->hr, 0, om * 4);
    problem_draw(rng, rows, cols, nan, p->hx + ox, p->hg + og, p->hdy + ody, p->hm + om, p->hr + om);
    p->rdx = wb_hmalloc(n * 8), p->rdg = wb_hmalloc(nc * 8), p->rdb = wb_hmalloc(nc * 8);
    p->sdx = wb_hmalloc(nr * 8), p->sdg = wb_hmalloc(nc * 8), p->sdb = wb_hmalloc(nc * 8);
    float_ref(p->hx + ox, p->hg + og, p->hdy + ody, p->hm + om, p->hr + om, rows, cols, p->rdx, p->rdg, p->rdb, p->sdx,
              p->sdg, p->sdb);
    p->dev_x = wb_dcopy(p->hx, (n + ox) * 4), p->dev_dy = wb_dcopy(p->hdy, (n + ody) * 4);
    p->dev_g = wb_dcopy(p->hg, (nc + og) * 4);
    p->dev_m = wb_dcopy(p->hm, (nr + om) * 4), p->dev_r = wb_dcopy(p->hr, (nr + om) * 4);
}

/* Device pointers at their offsets (NULL stays NULL: an empty buffer). */
static float *at(float *d, size_t off) { return d ? d + off : NULL; }

static void problem_free(problem *p)
{
    free(p->hx), free(p->hdy), free(p->hg), free(p->hm), free(p->hr);
    free(p->rdx), free(p->rdg), free(p->rdb), free(p->sdx), free(p->sdg), free(p->sdb);
    wb_dfree(p->dev_x), wb_dfree(p->dev_dy), wb_dfree(p->dev_g), wb_dfree(p->dev_m), wb_dfree(p->dev_r);
}

/* ---------------------------------------------------------------- dx */

static void check_dx(wb_rng *rng, int rows, int cols, size_t ox, size_t ody, size_t og, size_t om, size_t oout,
                     int nan)
{
    problem p;
    problem_make(&p, rng, rows, cols, ox, ody, og, om, nan);
    wb_dout o;
    float *ddx = wb_dout_alloc(&o, "dx", p.n * 4, oout * 4);
    WB_CUDA(ln_dx_backward(at(p.dev_x, ox), at(p.dev_dy, ody), at(p.dev_g, og), at(p.dev_m, om), at(p.dev_r, om), ddx,
                           rows, cols));
    char what[160];
    snprintf(what, sizeof what, "rows=%d cols=%d, offsets x+%zu dy+%zu gamma+%zu mean/rstd+%zu dx+%zu%s", rows, cols,
             ox, ody, og, om, oout, nan ? ", a NaN in dy[2][5]" : "");
    float *got = wb_hmalloc(p.n * 4);
    wb_expect_dout_guards(&o, got, what);
    expect_scaled("dx", got, p.rdx, p.sdx, p.n, cols > 0 ? (size_t)cols : 1, W32_DEV_TOL, what);
    free(got);
    wb_dout_free(&o);
    problem_free(&p);
}

START_TEST(dx_shapes)
{
    ck_assert_str_eq(__func__, W32_DX_SHAPES_TAG);
    wb_rng rng = WB_RNG();
    check_dx(&rng, DXS[_i][0], DXS[_i][1], 0, 0, 0, 0, 0, 0);
}
END_TEST

/* Misaligned pointers: each of x, dy, gamma, mean/rstd and dx shifted by a float. */
START_TEST(dx_offsets)
{
    ck_assert_str_eq(__func__, W32_DX_OFFSETS_TAG);
    wb_rng rng = WB_RNG();
    int rows, cols;
    size_t o[5];
    dx_offsets_case(&rng, _i, &rows, &cols, o);
    check_dx(&rng, rows, cols, o[OFF_X], o[OFF_DY], o[OFF_G], o[OFF_M], o[OFF_OUT], 0);
}
END_TEST

START_TEST(dx_nan)
{
    ck_assert_str_eq(__func__, W32_DX_NAN_TAG);
    wb_rng rng = WB_RNG();
    int rows, cols;
    dx_nan_shape(_i, &rows, &cols);
    check_dx(&rng, rows, cols, 0, 0, 0, 0, 0, 1);
}
END_TEST

/* ---------------------------------------------------------------- dgamma, dbeta */

static void check_dgb(wb_rng *rng, int rows, int cols, size_t ox, size_t ody, size_t om, size_t oout, int nan)
{
    problem p;
    problem_make(&p, rng, rows, cols, ox, ody, 0, om, nan);
    const size_t nc = (size_t)cols, wsb = ln_dgb_workspace_bytes(rows, cols);
    void *ws = wb_dmalloc(wsb);
    if (ws) wb_dpoison(ws, wsb); /* a workspace is not zeroed for you */
    wb_dout og, ob;
    float *dg = wb_dout_alloc(&og, "dgamma", nc * 4, oout * 4), *db = wb_dout_alloc(&ob, "dbeta", nc * 4, oout * 4);
    WB_CUDA(ln_dgb_backward(at(p.dev_x, ox), at(p.dev_dy, ody), at(p.dev_m, om), at(p.dev_r, om), dg, db, ws, rows,
                            cols));
    char what[160];
    snprintf(what, sizeof what, "rows=%d cols=%d, offsets x+%zu dy+%zu mean/rstd+%zu dgamma/dbeta+%zu%s", rows, cols,
             ox, ody, om, oout, nan ? ", a NaN in dy[2][5]" : "");
    float *g1 = wb_hmalloc(nc * 4), *b1 = wb_hmalloc(nc * 4), *g2 = wb_hmalloc(nc * 4), *b2 = wb_hmalloc(nc * 4);
    wb_expect_dout_guards(&og, g1, what);
    wb_expect_dout_guards(&ob, b1, what);
    expect_scaled("dgamma", g1, p.rdg, p.sdg, nc, 1, W32_DEV_TOL, what);
    expect_scaled("dbeta", b1, p.rdb, p.sdb, nc, 1, W32_DEV_TOL, what);
    /* again, into poisoned outputs: the same bits */
    wb_dout_poison(&og), wb_dout_poison(&ob);
    WB_CUDA(ln_dgb_backward(at(p.dev_x, ox), at(p.dev_dy, ody), at(p.dev_m, om), at(p.dev_r, om), dg, db, ws, rows,
                            cols));
    wb_expect_dout_guards(&og, g2, what);
    wb_expect_dout_guards(&ob, b2, what);
    for (size_t j = 0; j < nc; j++)
        if (memcmp(&g1[j], &g2[j], 4) || memcmp(&b1[j], &b2[j], 4))
            ck_abort_msg("%s (seed %llu): not deterministic: the second run gave dgamma[%zu] %.9g (first %.9g), "
                         "dbeta[%zu] %.9g (first %.9g); add the partials in a fixed order",
                         what, (unsigned long long)wb_base_seed(), j, (double)g2[j], (double)g1[j], j, (double)b2[j],
                         (double)b1[j]);
    free(g1), free(b1), free(g2), free(b2);
    wb_dfree(ws), wb_dout_free(&og), wb_dout_free(&ob);
    problem_free(&p);
}

START_TEST(dgb_shapes)
{
    ck_assert_str_eq(__func__, W32_DGB_SHAPES_TAG);
    wb_rng rng = WB_RNG();
    check_dgb(&rng, DGS[_i][0], DGS[_i][1], 0, 0, 0, 0, 0);
}
END_TEST

START_TEST(dgb_offsets)
{
    ck_assert_str_eq(__func__, W32_DGB_OFFSETS_TAG);
    wb_rng rng = WB_RNG();
    int rows, cols;
    size_t o[5];
    dgb_offsets_case(&rng, _i, &rows, &cols, o);
    check_dgb(&rng, rows, cols, o[OFF_X], o[OFF_DY], o[OFF_M], o[OFF_OUT], 0);
}
END_TEST

START_TEST(dgb_nan)
{
    ck_assert_str_eq(__func__, W32_DGB_NAN_TAG);
    wb_rng rng = WB_RNG();
    int rows, cols;
    dgb_nan_shape(_i, &rows, &cols);
    check_dgb(&rng, rows, cols, 0, 0, 0, 0, 1);
}
END_TEST

/* ---------------------------------------------------------------- bandwidth */

/* The benchmarks' inputs are made on the device (wb_dfill_uniform_f32) and
 * checked on the host from the same hash: x and dy uniform in [-1, 1],
 * gamma in [0.5, 1.5], and statistics of the size a forward would give for
 * such rows (mean near 0, rstd near sqrt(3)). The backward's cost does not
 * depend on the values, and its answer is checked for the values it got. */
enum { SEED_X = 3201, SEED_DY, SEED_G, SEED_M, SEED_R };
static const char *const BENCH_DX[] = { "dx, hidden 1024", "dx, hidden 4096", "dx, hidden 8192" };
static const char *const BENCH_DGB[] = { "dgamma+dbeta, hidden 1024", "dgamma+dbeta, hidden 4096",
                                         "dgamma+dbeta, hidden 8192" };

typedef struct {
    float *x, *dy, *gamma, *mean, *rstd, *dx, *dgamma, *dbeta; /* device */
    void *ws;
    size_t cap, max_rows;
    int rows, cols;
    unsigned long long salt;
    float *hg, *hm, *hr;          /* host copies of gamma, mean, rstd for this salt */
    long long row;                /* dx's expectation: the row whose sums are kept */
    double c1, c2;
    double *colg, *colb;          /* dgamma's and dbeta's expectations, column by column */
    unsigned char *colok;
} bn_ctx;

static void bn_alloc(bn_ctx *c, int with_dx, int with_dgb)
{
    memset(c, 0, sizeof *c);
    c->cap = wb_bench_bytes();
    c->max_rows = c->cap / 4 / BENCH_COLS[0];
    c->x = wb_dmalloc(c->cap), c->dy = wb_dmalloc(c->cap);
    c->gamma = wb_dmalloc(BENCH_MAX_COLS * 4);
    c->mean = wb_dmalloc(c->max_rows * 4), c->rstd = wb_dmalloc(c->max_rows * 4);
    if (with_dx) c->dx = wb_dmalloc(c->cap);
    if (with_dgb) {
        size_t ws = 0;
        for (size_t k = 0; k < WB_COUNT(BENCH_COLS); k++) {
            size_t b = ln_dgb_workspace_bytes((int)(c->cap / 4 / BENCH_COLS[k]), BENCH_COLS[k]);
            if (b > ws) ws = b;
        }
        c->ws = wb_dmalloc(ws);
        c->dgamma = wb_dmalloc(BENCH_MAX_COLS * 4), c->dbeta = wb_dmalloc(BENCH_MAX_COLS * 4);
    }
    c->hg = wb_hmalloc(BENCH_MAX_COLS * 4), c->hm = wb_hmalloc(c->max_rows * 4), c->hr = wb_hmalloc(c->max_rows * 4);
    c->colg = wb_hmalloc(BENCH_MAX_COLS * 8), c->colb = wb_hmalloc(BENCH_MAX_COLS * 8);
    c->colok = wb_hmalloc(BENCH_MAX_COLS);
}

static void bn_free(bn_ctx *c)
{
    wb_dfree(c->x), wb_dfree(c->dy), wb_dfree(c->gamma), wb_dfree(c->mean), wb_dfree(c->rstd);
    wb_dfree(c->dx), wb_dfree(c->ws), wb_dfree(c->dgamma), wb_dfree(c->dbeta);
    free(c->hg), free(c->hm), free(c->hr), free(c->colg), free(c->colb), free(c->colok);
}

/* Inputs drawn with `salt` on the device, their host copies, and the
 * expectations forgotten. */
static void bn_fill(bn_ctx *c, unsigned long long salt)
{
    const size_t n = (size_t)c->rows * c->cols;
    c->salt = salt;
    wb_dfill_uniform_f32(c->x, n, SEED_X + salt, -1, 1);
    wb_dfill_uniform_f32(c->dy, n, SEED_DY + salt, -1, 1);
    wb_dfill_uniform_f32(c->gamma, (size_t)c->cols, SEED_G + salt, 0.5f, 1.5f);
    wb_dfill_uniform_f32(c->mean, (size_t)c->rows, SEED_M + salt, -0.01f, 0.01f);
    wb_dfill_uniform_f32(c->rstd, (size_t)c->rows, SEED_R + salt, 1.70f, 1.76f);
    for (int j = 0; j < c->cols; j++) c->hg[j] = wb_hash_uniform_f32(SEED_G + salt, (size_t)j, 0.5f, 1.5f);
    for (int i = 0; i < c->rows; i++) {
        c->hm[i] = wb_hash_uniform_f32(SEED_M + salt, (size_t)i, -0.01f, 0.01f);
        c->hr[i] = wb_hash_uniform_f32(SEED_R + salt, (size_t)i, 1.70f, 1.76f);
    }
    c->row = -1;
    memset(c->colok, 0, BENCH_MAX_COLS);
}

static void bn_shape(bn_ctx *c, int cols)
{
    c->cols = cols;
    c->rows = (int)(c->cap / 4 / (size_t)cols);
    bn_fill(c, 0);
}

static float hx(const bn_ctx *c, size_t i) { return wb_hash_uniform_f32(SEED_X + c->salt, i, -1, 1); }
static float hdy(const bn_ctx *c, size_t i) { return wb_hash_uniform_f32(SEED_DY + c->salt, i, -1, 1); }

/* -- dx */
static double dx_expect(size_t i, const void *p)
{
    bn_ctx *c = (bn_ctx *)p; /* the row's sums are kept between calls */
    const size_t cols = (size_t)c->cols, r = i / cols, base = r * cols;
    const double mu = c->hm[r], rs = c->hr[r];
    if ((long long)r != c->row) {
        double s1 = 0, s2 = 0;
        for (size_t j = 0; j < cols; j++) {
            const double g = (double)hdy(c, base + j) * c->hg[j], xh = (hx(c, base + j) - mu) * rs;
            s1 += g, s2 += g * xh;
        }
        c->row = (long long)r, c->c1 = s1 / (double)cols, c->c2 = s2 / (double)cols;
    }
    const size_t j = i - base;
    const double g = (double)hdy(c, i) * c->hg[j], xh = (hx(c, i) - mu) * rs;
    return rs * (g - c->c1 - xh * c->c2);
}

static void dx_work(void *p)
{
    bn_ctx *c = p;
    WB_CUDA(ln_dx_backward(c->x, c->dy, c->gamma, c->mean, c->rstd, c->dx, c->rows, c->cols));
}

/* The timing's spot check: new inputs and a poisoned dx for one timed run. */
static void dx_fresh(void *p, unsigned long long salt)
{
    bn_ctx *c = p;
    bn_fill(c, salt);
    wb_dpoison(c->dx, (size_t)c->rows * c->cols * 4);
}

static int dx_check(void *p, char *why, size_t size)
{
    bn_ctx *c = p;
    wb_cmp cmp;
    if (!wb_dverify_f32("dx", c->dx, (size_t)c->rows * c->cols, dx_expect, c, 1 << 8, 1e-4, 1e-4, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* The row a speed checkpoint judges among several: the first invalid one,
 * else the lowest ratio. */
static int worse(const wb_bench_row *a, const wb_bench_row *b)
{
    double ra = a->invalid ? -1 : wb_bench_ratio(a), rb = b->invalid ? -1 : wb_bench_ratio(b);
    if (isnan(ra)) ra = -1;
    if (isnan(rb)) rb = -1;
    return ra < rb;
}

/* dx at three widths on 400 MB arrays (rows past L2), each against a copy of
 * the same bytes timed in the same run; the worst is the headline. Bytes:
 * x and dy read, dx written (12 per element), gamma once, mean and rstd. */
static double bench_dx(wb_headline *h)
{
    bn_ctx c;
    bn_alloc(&c, 1, 0);
    wb_bench_row rows[WB_COUNT(BENCH_COLS)];
    size_t worst = 0;
    for (size_t k = 0; k < WB_COUNT(BENCH_COLS); k++) {
        bn_shape(&c, BENCH_COLS[k]);
        const size_t n = (size_t)c.rows * c.cols;
        wb_dpoison(c.dx, n * 4);
        const double copy = wb_yard_copy_gbps(n * 4);
        wb_bench_row r = { .exercise = "ln_dx", .variant = BENCH_DX[k], .n = n,
                           .bytes = 12.0 * n + 4.0 * c.cols + 8.0 * c.rows, .flops = 10.0 * n, .unit = "GB/s",
                           .yard_name = "COPY", .yard = copy };
        wb_bench_opts o = WB_BENCH_DEFAULTS;
        o.fresh = dx_fresh, o.check = dx_check;
        wb_time(dx_work, &c, &o, &r.t);
        r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
        wb_cmp cmp;
        if (wb_dverify_f32("dx", c.dx, n, dx_expect, &c, 1 << 10, 1e-4, 1e-4, &cmp)) wb_bench_invalid(&r, cmp.msg);
        rows[k] = r;
        if (worse(&rows[k], &rows[worst])) worst = k;
    }
    for (size_t k = 0; k < WB_COUNT(BENCH_COLS); k++)
        if (k != worst) wb_bench_emit(&rows[k]);
    const double ratio = wb_bench_headline(&rows[worst], h);
    bn_free(&c);
    return ratio;
}

/* -- dgamma, dbeta */
static void col_sums(bn_ctx *c, size_t j)
{
    double g = 0, b = 0;
    const size_t cols = (size_t)c->cols;
    for (size_t r = 0; r < (size_t)c->rows; r++) {
        const double d = hdy(c, r * cols + j), x = hx(c, r * cols + j);
        g += d * ((x - c->hm[r]) * c->hr[r]);
        b += d;
    }
    c->colg[j] = g, c->colb[j] = b, c->colok[j] = 1;
}

static double dg_expect(size_t j, const void *p)
{
    bn_ctx *c = (bn_ctx *)p;
    if (!c->colok[j]) col_sums(c, j);
    return c->colg[j];
}

static double db_expect(size_t j, const void *p)
{
    bn_ctx *c = (bn_ctx *)p;
    if (!c->colok[j]) col_sums(c, j);
    return c->colb[j];
}

static void dgb_work(void *p)
{
    bn_ctx *c = p;
    WB_CUDA(ln_dgb_backward(c->x, c->dy, c->mean, c->rstd, c->dgamma, c->dbeta, c->ws, c->rows, c->cols));
}

static void dgb_fresh(void *p, unsigned long long salt)
{
    bn_ctx *c = p;
    bn_fill(c, salt);
    wb_dpoison(c->dgamma, (size_t)c->cols * 4), wb_dpoison(c->dbeta, (size_t)c->cols * 4);
}

/* Both outputs, sampled: a sum over r rows of terms below 1.05 in size is
 * judged at 1e-5 r (the float rounding of a long sum) plus 1e-5 of itself. */
static size_t dgb_verify(bn_ctx *c, size_t samples, wb_cmp *cmp)
{
    const double atol = 1e-5 * c->rows;
    size_t bad = wb_dverify_f32("dgamma", c->dgamma, (size_t)c->cols, dg_expect, c, samples, atol, 1e-5, cmp);
    if (!bad) bad = wb_dverify_f32("dbeta", c->dbeta, (size_t)c->cols, db_expect, c, samples, atol, 1e-5, cmp);
    return bad;
}

static int dgb_check(void *p, char *why, size_t size)
{
    wb_cmp cmp;
    if (!dgb_verify(p, 16, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* dgamma and dbeta at the same three widths. Bytes: x and dy read (8 per
 * element), mean and rstd, dgamma and dbeta written; the workspace's partials
 * are the kernel's own overhead and not counted. */
static double bench_dgb(wb_headline *h)
{
    bn_ctx c;
    bn_alloc(&c, 0, 1);
    wb_bench_row rows[WB_COUNT(BENCH_COLS)];
    size_t worst = 0;
    for (size_t k = 0; k < WB_COUNT(BENCH_COLS); k++) {
        bn_shape(&c, BENCH_COLS[k]);
        const size_t n = (size_t)c.rows * c.cols;
        wb_dpoison(c.dgamma, (size_t)c.cols * 4), wb_dpoison(c.dbeta, (size_t)c.cols * 4);
        const double copy = wb_yard_copy_gbps(n * 4);
        wb_bench_row r = { .exercise = "ln_dgb", .variant = BENCH_DGB[k], .n = n,
                           .bytes = 8.0 * n + 8.0 * c.rows + 8.0 * c.cols, .flops = 5.0 * n, .unit = "GB/s",
                           .yard_name = "COPY", .yard = copy };
        wb_bench_opts o = WB_BENCH_DEFAULTS;
        o.fresh = dgb_fresh, o.check = dgb_check;
        wb_time(dgb_work, &c, &o, &r.t);
        r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
        wb_cmp cmp;
        if (dgb_verify(&c, 64, &cmp)) wb_bench_invalid(&r, cmp.msg);
        rows[k] = r;
        if (worse(&rows[k], &rows[worst])) worst = k;
    }
    for (size_t k = 0; k < WB_COUNT(BENCH_COLS); k++)
        if (k != worst) wb_bench_emit(&rows[k]);
    const double ratio = wb_bench_headline(&rows[worst], h);
    bn_free(&c);
    return ratio;
}

static const wb_test TESTS[] = {
    { "w32.gradcheck", WB_T(gradcheck_fd), WB_CPU, WB_COUNT(GC) },
    { "w32.gradcheck", WB_T(host_vs_ref), WB_CPU, WB_COUNT(HS) },
    { "w32.dx", WB_T(dx_shapes), WB_GPU, WB_COUNT(DXS) },
    { "w32.dx", WB_T(dx_offsets), WB_GPU, W32_N_DX_OFFSETS },
    { "w32.dx", WB_T(dx_nan), WB_GPU, W32_N_NAN },
    { "w32.dgb", WB_T(dgb_shapes), WB_GPU, WB_COUNT(DGS) },
    { "w32.dgb", WB_T(dgb_offsets), WB_GPU, W32_N_DGB_OFFSETS },
    { "w32.dgb", WB_T(dgb_nan), WB_GPU, W32_N_NAN },
    WB_SPEED("w32.dx-bw", bench_dx),
    WB_SPEED("w32.dgb-bw", bench_dgb),
};

int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
