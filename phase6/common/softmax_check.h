/* softmax_check.h — what the softmax weeks' tests (29, 30) share: the
 * reference in double, and a benchmark context whose inputs are hashed from
 * (seed + salt, element) so a timed output is checked element by element,
 * with each row's max and sum derived again on the host (wb_dverify_f32),
 * and the timing's spot check (wb_bench_opts.fresh/check) can draw new ones.
 * Phase 6's headers are on the include path of every week of the phase. */
#ifndef SOFTMAX_CHECK_H
#define SOFTMAX_CHECK_H

#include <math.h>
#include <stdio.h>
#include "wb_harness.h"

/* y = exp(x - m) / sum exp(x - m) per row, in double: m = max (NaN skipped,
 * as fmaxf does: its exp makes the row NaN anyway). A row with a +Inf, or of
 * -Inf only, gives NaN, as the formula does. */
static inline void softmax_ref(const float *x, double *y, int rows, int cols)
{
    for (int i = 0; i < rows; i++) {
        const float *xr = x + (size_t)i * cols;
        double *yr = y + (size_t)i * cols, m = -INFINITY, s = 0;
        for (int j = 0; j < cols; j++)
            if (xr[j] > m) m = xr[j];
        for (int j = 0; j < cols; j++) s += yr[j] = exp((double)xr[j] - m);
        for (int j = 0; j < cols; j++) yr[j] /= s;
    }
}

/* rows x cols, 0 for negative sizes (the tests pass some on purpose). */
static inline size_t softmax_elems(int rows, int cols)
{
    return (size_t)(rows > 0 ? rows : 0) * (size_t)(cols > 0 ? cols : 0);
}

/* A benchmark's softmax: x (device) holds wb_dfill_uniform_f32(seed + salt,
 * lo, hi); y is the output. */
typedef struct {
    const float *x;
    float *y;
    int rows, cols;
    unsigned long long seed, salt;
    float lo, hi;
    double atol, rtol;
    long cached_row; /* the expectation's cache: one row's max and sum */
    double m, s;
} softmax_bench;

/* y[i] as the formula gives it for the hashed input (wb_expect_fn). */
static inline double softmax_bench_expect(size_t i, const void *p)
{
    softmax_bench *c = (softmax_bench *)p;
    const long row = (long)(i / (size_t)c->cols);
    const size_t base = (size_t)row * c->cols;
    const unsigned long long seed = c->seed + c->salt;
    if (row != c->cached_row) {
        double m = -INFINITY, s = 0;
        for (int j = 0; j < c->cols; j++) m = fmax(m, wb_hash_uniform_f32(seed, base + j, c->lo, c->hi));
        for (int j = 0; j < c->cols; j++) s += exp(wb_hash_uniform_f32(seed, base + j, c->lo, c->hi) - m);
        c->cached_row = row, c->m = m, c->s = s;
    }
    return exp(wb_hash_uniform_f32(seed, i, c->lo, c->hi) - c->m) / c->s;
}

/* The spot check's new inputs (salt), or the first ones back (salt 0). */
static inline void softmax_bench_fresh(void *p, unsigned long long salt)
{
    softmax_bench *c = (softmax_bench *)p;
    size_t n = (size_t)c->rows * c->cols;
    c->salt = salt, c->cached_row = -1;
    wb_dfill_uniform_f32((float *)c->x, n, c->seed + salt, c->lo, c->hi);
    wb_dpoison(c->y, n * 4);
}

/* `samples` elements of y (whole rows re-derived) against the formula:
 * 0 when right, else 1 with the comparison's message in why. */
static inline int softmax_bench_verify(softmax_bench *c, size_t samples, char *why, size_t size)
{
    wb_cmp cmp;
    c->cached_row = -1;
    if (!wb_dverify_f32("y", c->y, (size_t)c->rows * c->cols, softmax_bench_expect, c, samples, c->atol, c->rtol,
                        &cmp))
        return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* The spot check's verdict (wb_bench_opts.check). */
static inline int softmax_bench_check(void *p, char *why, size_t size)
{
    return softmax_bench_verify((softmax_bench *)p, 1 << 8, why, size);
}

#endif
