/* w13_checks.h — how week 13's correctness cases are drawn and what they
 * expect, shared by the week's test program (test_week13.c) and the
 * instructor's judge (instructor/judge_w13.c, which runs the student's code
 * in a separate runner): the sizes, each case's input from its generator,
 * the reference. Change a case here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it; a case function of a
 * loop test (scan1_sizes_case) draws from wb_rng_for(__func__, case). The
 * *_TAG below are those names (the test asserts it). The judge draws case i
 * from wb_rng_for_seed(seed, TAG, i) through the same functions, so for a
 * seed it gets the test's cases. */
#ifndef W13_CHECKS_H
#define W13_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan1pass.h"
#include "wb_rand.h"

/* ---------------------------------------------------------------- shared */

/* Sizes around the warp (31, 32, 33), the block (255-257), and large. */
static const size_t W13_SIZES[] = { 0, 1, 2, 31, 32, 33, 63, 64, 65, 255, 256, 257, 1000, 4097, 65537, 1000003 };
#define W13_N_SIZES (sizeof W13_SIZES / sizeof W13_SIZES[0])

/* Integer values in [lo, hi] as floats: every partial sum below 2^24 is
 * exact, so any summation order gives the same answer. */
static inline void w13_fill_int(wb_rng *rng, float *v, size_t n, int lo, int hi)
{
    for (size_t i = 0; i < n; i++) v[i] = (float)wb_rng_int(rng, lo, hi);
}

/* ---------------------------------------------------------------- warp reduce and scan */

#define W13_WREDUCE_TAG          "warp_reduce_sizes_case"
#define W13_WREDUCE_SPECIALS_TAG "warp_reduce_specials_fn"
#define W13_WSCAN_TAG            "warp_scan_exact_case"
#define W13_WSCAN_FLOAT_TAG      "warp_scan_float_specials_fn"
#define W13_N_WREDUCE_SPECIALS   3
#define W13_N_WSCAN_FLOAT        3
#define W13_WREDUCE_SPECIALS_MAX_N ((size_t)32 * 200 + 31)
#define W13_WSCAN_FLOAT_MAX_N      ((size_t)300000)

/* Max and min that return NaN when either side is NaN (the week's rule). */
static inline float w13_max_nan(float a, float b) { return isnan(a) || isnan(b) ? NAN : (a > b ? a : b); }
static inline float w13_min_nan(float a, float b) { return isnan(a) || isnan(b) ? NAN : (a < b ? a : b); }

/* ref[g] for each group of 32 of hx[0..n): op 0 the double sum, 1 the max,
 * 2 the min (NaN propagating); the tolerance: the sum 1e-4 + 1e-6 |ref|,
 * max and min exact. */
static inline void w13_warp_reduce_ref(const float *hx, size_t n, int op, double *ref)
{
    for (size_t g = 0; g < (n + 31) / 32; g++) {
        size_t lo = 32 * g, hi = lo + 32 < n ? lo + 32 : n;
        double s = 0;
        float m = hx[lo];
        for (size_t i = lo; i < hi; i++) {
            s += hx[i];
            if (i > lo) m = op == 1 ? w13_max_nan(m, hx[i]) : w13_min_nan(m, hx[i]);
        }
        ref[g] = op == 0 ? s : (double)m;
    }
}
static inline double w13_warp_reduce_atol(int op) { return op == 0 ? 1e-4 : 0; }
static inline double w13_warp_reduce_rtol(int op) { return op == 0 ? 1e-6 : 0; }

/* warp_reduce_specials loop i: n (4 .. 200 whole groups and a partial one)
 * drawn, then the data: 0 uniform [-1, 1) with NaN, +Inf and -Inf planted
 * (one group gets both infinities, the last, partial group a NaN in its
 * last element); 1 all in [-10, -1] (a max that starts from 0, or pads with
 * 0, fails); 2 all in [1, 10] (the same for min). Returns n. */
static inline size_t w13_warp_reduce_specials_fill(wb_rng *rng, int i, float *hx, const char **data)
{
    size_t n = 32 * (size_t)wb_rng_int(rng, 4, 200) + (size_t)wb_rng_int(rng, 1, 31);
    if (i == 0) {
        wb_fill_uniform_f32(rng, hx, n, -1, 1);
        hx[n - 1] = NAN;                                         /* the partial group's last valid lane */
        hx[5] = NAN, hx[32 + 31] = INFINITY, hx[64] = -INFINITY; /* groups 0, 1, 2 */
        hx[96 + 7] = INFINITY, hx[96 + 20] = -INFINITY;         /* group 3: both */
        *data = "NaN, +Inf, -Inf planted";
    } else if (i == 1) {
        wb_fill_uniform_f32(rng, hx, n, -10, -1);
        *data = "all in [-10, -1]";
    } else {
        wb_fill_uniform_f32(rng, hx, n, 1, 10);
        *data = "all in [1, 10]";
    }
    return n;
}

/* Both warp scans of the n floats at hx[off]: ref[i] the group's inclusive
 * or exclusive prefix, in double. */
static inline void w13_warp_scan_ref(const float *hx, size_t n, size_t off, int inclusive, double *ref)
{
    double acc = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 32 == 0) acc = 0;
        if (inclusive) acc += hx[off + i], ref[i] = acc;
        else ref[i] = acc, acc += hx[off + i];
    }
}

/* warp_scan_exact case cs: n = W13_SIZES[cs], x and y cs % 3 floats in,
 * n + off integers in [-4, 6]; exact. */
static inline size_t w13_warp_scan_exact_fill(wb_rng *rng, int cs, float *hx, size_t *off)
{
    size_t n = W13_SIZES[cs];
    *off = (size_t)(cs % 3);
    w13_fill_int(rng, hx, n + *off, -4, 6);
    return n;
}

/* warp_scan_float_specials loop i: n in [100, 300000], uniform [-1, 1); 1:
 * NaN planted, 2: +Inf and -Inf planted (NaN from there on in the group that
 * has both); within 1e-5 + 1e-5 |ref|. */
static inline size_t w13_warp_scan_float_fill(wb_rng *rng, int i, float *hx, const char **data)
{
    size_t n = (size_t)wb_rng_int(rng, 100, 300000);
    wb_fill_uniform_f32(rng, hx, n, -1, 1);
    if (i == 1) hx[3] = NAN, hx[n / 2] = NAN, hx[n - 1] = NAN;
    if (i == 2) hx[40] = INFINITY, hx[70] = -INFINITY, hx[75] = INFINITY, hx[n - 1] = -INFINITY;
    *data = i == 0 ? "uniform [-1, 1]" : i == 1 ? "NaN planted" : "Inf planted";
    return n;
}

/* ---------------------------------------------------------------- votes */

#define W13_VOTES_TAG            "votes_sizes_case"
#define W13_COMPACT_TAG          "compact_sizes_case"
#define W13_COMPACT_SPECIALS_TAG "compact_specials_fn"
#define W13_N_COMPACT_SPECIALS   3
#define W13_COMPACT_MAX_N        ((size_t)500000)

/* votes_sizes case cs: n = W13_SIZES[cs], thr in [-0.5, 0.5), uniform [-1,
 * 1) with the second group all above thr, and on odd cases the last; NaN at
 * n - 1 and n / 2 on every third case. The ballots (bits of the elements >
 * thr) and flags (VT_ANY_NAN, VT_ALL_ABOVE over the valid lanes) in rb, rf. */
static inline size_t w13_votes_fill(wb_rng *rng, int cs, float *hx, float *thr, uint32_t *rb, uint32_t *rf)
{
    size_t n = W13_SIZES[cs], groups = (n + 31) / 32;
    *thr = (float)(wb_rng_unit(rng) - 0.5);
    wb_fill_uniform_f32(rng, hx, n, -1, 1);
    for (size_t i = 32; i < 64 && i < n; i++) hx[i] = *thr + 1.0f;
    if ((cs & 1) && n > 0)
        for (size_t i = (groups - 1) * 32; i < n; i++) hx[i] = *thr + 0.5f;
    if (cs % 3 == 0 && n > 0) hx[n - 1] = NAN, hx[n / 2] = NAN;
    for (size_t g = 0; g < groups; g++) {
        uint32_t b = 0, any_nan = 0, all = 1;
        for (size_t i = 32 * g; i < n && i < 32 * g + 32; i++) {
            if (hx[i] > *thr) b |= 1u << (i - 32 * g);
            else all = 0;
            if (isnan(hx[i])) any_nan = 1;
        }
        rb[g] = b, rf[g] = (any_nan ? 1u : 0u) | (all ? 2u : 0u); /* VT_ANY_NAN, VT_ALL_ABOVE */
    }
    return n;
}

/* compact_sizes case cs: n = W13_SIZES[cs] values +-(i + 1) (so a value
 * names its index), thr 0, the order within a group checked. */
static inline size_t w13_compact_sizes_fill(wb_rng *rng, int cs, float *hx)
{
    size_t n = W13_SIZES[cs];
    for (size_t i = 0; i < n; i++) hx[i] = (float)(i + 1) * (wb_rng_u64(rng) & 1 ? 1.0f : -1.0f);
    return n;
}

/* compact_specials loop i: n in [1000, 500000], uniform [-1, 1) with 20
 * NaN (never kept), +Inf (kept) and -Inf; thr 0 on loop 0, else in [-0.8,
 * 0.8); the order not checked. */
static inline size_t w13_compact_specials_fill(wb_rng *rng, int i, float *hx, float *thr)
{
    size_t n = (size_t)wb_rng_int(rng, 1000, 500000);
    wb_fill_uniform_f32(rng, hx, n, -1, 1);
    for (int k = 0; k < 20; k++) {
        size_t j = (size_t)wb_rng_int(rng, 0, (int64_t)n - 1);
        hx[j] = k % 3 == 0 ? NAN : k % 3 == 1 ? INFINITY : -INFINITY;
    }
    *thr = i == 0 ? 0.0f : (float)(wb_rng_unit(rng) * 1.6 - 0.8);
    return n;
}

static inline int w13_cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The judge's check of a compaction of hx[0..n) by > thr, as the test's
 * check_compact: count the number kept; out past it unwritten (the poison's
 * bits 0xffffffff); when `ordered` (values +-(i + 1)) each group's values
 * next to each other and in index order; the kept values as a multiset.
 * got (n floats, out as read back) is sorted in place; scratch: n floats.
 * 0, or 1 with why. */
static inline int w13_compact_verify(const float *hx, size_t n, float thr, int ordered, float *got,
                                     unsigned long long count, float *scratch, long long *last, char *why, size_t whysz)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (hx[i] > thr) scratch[kept++] = hx[i];
    if (count != kept) return snprintf(why, whysz, "*count = %llu, expected %zu", count, kept), 1;
    for (size_t k = kept; k < n; k++) {
        uint32_t bits;
        memcpy(&bits, &got[k], 4);
        if (bits != 0xFFFFFFFFu) return snprintf(why, whysz, "out[%zu] was written, past the %zu kept elements", k, kept), 1;
    }
    if (ordered) {
        size_t groups = (n + 31) / 32;
        for (size_t g = 0; g < groups; g++) last[g] = -1;
        for (size_t k = 0; k < kept; k++) {
            long long idx = (long long)got[k] - 1;
            if (idx < 0 || (size_t)idx >= n) return snprintf(why, whysz, "out[%zu] = %g is not an input value", k, got[k]), 1;
            size_t g = (size_t)idx / 32;
            int starts = k == 0 || (long long)got[k - 1] - 1 < 0 || (size_t)((long long)got[k - 1] - 1) / 32 != g;
            if (starts && last[g] >= 0)
                return snprintf(why, whysz, "the kept elements of group %zu are not next to each other in out", g), 1;
            if (!starts && idx <= last[g])
                return snprintf(why, whysz, "out[%zu] (element %lld) comes after element %lld of the same group", k, idx,
                                last[g]),
                       1;
            last[g] = idx;
        }
    }
    qsort(got, kept, 4, w13_cmp_float);
    qsort(scratch, kept, 4, w13_cmp_float);
    for (size_t k = 0; k < kept; k++)
        if (memcmp(&got[k], &scratch[k], 4) != 0)
            return snprintf(why, whysz, "out (sorted)[%zu] expected %.9g got %.9g", k, scratch[k], got[k]), 1;
    return 0;
}

/* ---------------------------------------------------------------- block reduce */

#define W13_ROWSUM_TAG          "rowsum_shapes_case"
#define W13_ROWSUM_SPECIALS_TAG "rowsum_specials_fn"

/* Case k runs shape k / 2 with x k % 4 floats in: shapes at even positions
 * run aligned once (the float4 path where cols % 4 == 0), those at odd
 * positions never. */
static const size_t W13_ROWSUM_SHAPES[][2] = { { 0, 5 },    { 3, 0 },    { 1, 1 },    { 1, 1023 }, { 2, 1024 },
                                               { 3, 1025 }, { 5, 4097 }, { 100, 33 }, { 1000, 100 }, { 7, 100000 },
                                               { 65537, 3 }, { 300, 2048 }, { 4097, 1024 }, { 9, 36 }, { 6, 4100 } };
#define W13_ROWSUM_CASES  (2 * (sizeof W13_ROWSUM_SHAPES / sizeof W13_ROWSUM_SHAPES[0]))
#define W13_ROWSUM_MAX_M  ((size_t)4097 * 1024)  /* the most floats of a case's matrix */
#define W13_ROWSUM_MAX_ROWS ((size_t)65537)

/* Case cs: rows, cols, x's offset; integer data (exact) on even cases. */
static inline void w13_rowsum_shape(int cs, size_t *rows, size_t *cols, size_t *off, int *exact)
{
    *rows = W13_ROWSUM_SHAPES[cs / 2][0], *cols = W13_ROWSUM_SHAPES[cs / 2][1], *off = (size_t)(cs % 4);
    *exact = cs % 2 == 0;
}

/* Case cs's m + off inputs (even: integers in [-3, 5], odd: uniform [-1,
 * 1)) and the double row sums of the matrix at hx + off; the tolerance. */
static inline void w13_rowsum_fill(wb_rng *rng, int cs, float *hx, double *ref, double *atol, double *rtol)
{
    size_t rows, cols, off;
    int exact;
    w13_rowsum_shape(cs, &rows, &cols, &off, &exact);
    if (exact) w13_fill_int(rng, hx, rows * cols + off, -3, 5);
    else wb_fill_uniform_f32(rng, hx, rows * cols + off, -1, 1);
    for (size_t r = 0; r < rows; r++) {
        double s = 0;
        for (size_t c = 0; c < cols; c++) s += hx[off + r * cols + c];
        ref[r] = s;
    }
    *atol = exact ? 0 : 1e-6 * (double)cols + 1e-6, *rtol = exact ? 0 : 1e-5;
}

/* rowsum_specials: 6 rows of 1025 .. 5000 columns (returned), uniform [-1,
 * 1) with NaN and Inf planted (rows 0, 2, 5 NaN, 1 +Inf, 3 -Inf, 4 finite),
 * the double row sums; within 1e-6 cols, 1e-5 |ref|. hx: 6 x 5000 floats. */
#define W13_ROWSUM_SPECIALS_ROWS 6
#define W13_ROWSUM_SPECIALS_MAX_COLS 5000
static inline size_t w13_rowsum_specials_fill(wb_rng *rng, float *hx, double *ref)
{
    size_t rows = W13_ROWSUM_SPECIALS_ROWS, cols = (size_t)wb_rng_int(rng, 1025, 5000), m = rows * cols;
    wb_fill_uniform_f32(rng, hx, m, -1, 1);
    hx[0 * cols + 17] = NAN;                                     /* row 0: NaN */
    hx[1 * cols + cols - 1] = INFINITY;                          /* row 1: +Inf */
    hx[2 * cols + 3] = INFINITY, hx[2 * cols + 999] = -INFINITY; /* row 2: NaN */
    hx[3 * cols + 1024] = -INFINITY;                             /* row 3: -Inf */
    hx[5 * cols] = NAN;                                          /* row 5: NaN; row 4 finite */
    for (size_t r = 0; r < rows; r++) {
        double s = 0;
        for (size_t c = 0; c < cols; c++) s += hx[r * cols + c];
        ref[r] = s;
    }
    return cols;
}

/* The one-pass sums (br_sum, cgr_sum). Exact: the sizes and two more
 * (2^20, 2^22 + 5), x 0-3 floats off alignment, integers in [-3, 5]; the
 * sum must be the float of the exact sum. */
#define W13_SUM_EXACT_TAG    "sum_exact_case"
#define W13_CG_SUM_EXACT_TAG "cg_sum_exact_case"
#define W13_SUM_FLOAT_TAG    "sum_float_fn"
#define W13_SUM_NANINF_TAG   "sum_nan_inf_fn"
#define W13_SUM_CASES        (W13_N_SIZES + 2)
#define W13_N_SUM_FLOAT      4
#define W13_N_SUM_NANINF     3
#define W13_SUM_MAX_N        (((size_t)1 << 24) + 3) /* sum_float's loop 0, the largest of them */
static inline size_t w13_sum_exact_n(int cs)
{
    static const size_t MORE[] = { 1 << 20, (1 << 22) + 5 };
    return (size_t)cs < W13_N_SIZES ? W13_SIZES[cs] : MORE[(size_t)cs - W13_N_SIZES];
}
static inline double w13_sum_exact_fill(wb_rng *rng, int cs, float *hx)
{
    size_t n = w13_sum_exact_n(cs), off = (size_t)(cs & 3);
    w13_fill_int(rng, hx, n + off, -3, 5);
    double ref = 0;
    for (size_t i = 0; i < n; i++) ref += hx[off + i];
    return ref;
}

/* sum_float loop i: n (2^24 + 3 on loop 0, else 1 .. 3M) and x's offset
 * (i & 3), n + off uniform [-1, 2); the double sum; within 1e-5 sum |x| + 1e-6. */
static inline size_t w13_sum_float_fill(wb_rng *rng, int i, float *hx, double *ref, double *atol)
{
    size_t n = i == 0 ? ((size_t)1 << 24) + 3 : (size_t)wb_rng_int(rng, 1, 3000000), off = (size_t)(i & 3);
    wb_fill_uniform_f32(rng, hx, n + off, -1, 2);
    double s = 0, abs_sum = 0;
    for (size_t k = 0; k < n; k++) s += hx[off + k], abs_sum += fabs(hx[off + k]);
    *ref = s, *atol = 1e-5 * abs_sum + 1e-6;
    return n;
}

/* sum_nan_inf loop i: n in [2, 2M], uniform [-1, 1) with a NaN or Inf
 * planted (wb_plant_nonfinite: the sum that must come out, exactly). */
static inline size_t w13_sum_naninf_fill(wb_rng *rng, int i, float *hx, float *want, const char **what)
{
    size_t n = (size_t)wb_rng_int(rng, 2, 2000000);
    wb_fill_uniform_f32(rng, hx, n, -1, 1);
    *want = wb_plant_nonfinite(rng, hx, n, i, what);
    return n;
}

/* ---------------------------------------------------------------- gemv */

#define W13_GEMV_TAG "gemv_shapes_case"
static const size_t W13_GEMV_SHAPES[][2] = { { 0, 7 },    { 5, 0 },    { 1, 1 },     { 1, 31 },     { 3, 32 },
                                             { 7, 33 },   { 9, 4 },    { 33, 100 },  { 100, 1023 }, { 1000, 1024 },
                                             { 4097, 129 }, { 65537, 64 }, { 3, 4099 }, { 20000, 1000 } };
#define W13_GEMV_CASES    (3 * (sizeof W13_GEMV_SHAPES / sizeof W13_GEMV_SHAPES[0]))
#define W13_GEMV_MAX_M    ((size_t)20000 * 1000)
#define W13_GEMV_MAX_ROWS ((size_t)65537)
#define W13_GEMV_MAX_COLS ((size_t)4099)

/* Case cs: shape cs / 3; cs % 3: 0 both aligned, 1 A one float in (the
 * scalar path), 2 x two floats in; NaN and Inf planted in two rows on every
 * fourth case (returned: 1). */
static inline void w13_gemv_shape(int cs, size_t *rows, size_t *cols, size_t *oa, size_t *ox)
{
    *rows = W13_GEMV_SHAPES[cs / 3][0], *cols = W13_GEMV_SHAPES[cs / 3][1];
    *oa = cs % 3 == 1 ? 1 : 0, *ox = cs % 3 == 2 ? 2 : 0;
}
static inline int w13_gemv_fill(wb_rng *rng, int cs, float *hA, float *hx, double *ref)
{
    size_t rows, cols, oa, ox;
    w13_gemv_shape(cs, &rows, &cols, &oa, &ox);
    size_t m = rows * cols;
    wb_fill_uniform_f32(rng, hA, m + oa, -1, 1);
    wb_fill_uniform_f32(rng, hx, cols + ox, -1, 1);
    int specials = cs % 4 == 0 && rows >= 3 && cols >= 2;
    if (specials) hA[oa + 1 * cols + cols - 1] = NAN, hA[oa + 2 * cols] = INFINITY;
    for (size_t r = 0; r < rows; r++) {
        double s = 0;
        for (size_t k = 0; k < cols; k++) s += (double)hA[oa + r * cols + k] * hx[ox + k];
        ref[r] = s;
    }
    return specials;
}
/* The tolerance: 1e-6 cols + 1e-6, 1e-5 |ref|. */
static inline double w13_gemv_atol(size_t cols) { return 1e-6 * (double)cols + 1e-6; }
#define W13_GEMV_RTOL 1e-5

/* gemv_many_rows: more rows than the grid has warps (the launcher caps the
 * grid at 2^22 blocks of 8 warps); loop 0: cols 4 (16-byte path), 1: 3. */
#define W13_GEMV_MANY_ROWS (((size_t)1 << 25) + 77)

/* ---------------------------------------------------------------- cooperative groups */

#define W13_CG_TILE_TAG  "cg_tile_sizes_case"
#define W13_CG_FLOAT_TAG "cg_sum_float_fn"
#define W13_REDUX_TAG    "redux_sizes_case"
#define W13_CG_TILE_CASES (2 * W13_N_SIZES)
#define W13_N_CG_FLOAT    5

/* cg_tile_sizes case cs: n = W13_SIZES[cs / 2], tiles of 32 (even cs) or 8;
 * first the sum's data (uniform [-1, 1)), then, after the sum is checked,
 * the max's (all in [-10, -1]: a pad of 0 in the last tile shows; +Inf and
 * -Inf planted on every other size). */
static inline unsigned w13_cg_tile(int cs) { return cs % 2 ? 8 : 32; }
static inline void w13_cg_tile_sum_fill(wb_rng *rng, int cs, float *hx)
{
    wb_fill_uniform_f32(rng, hx, W13_SIZES[cs / 2], -1, 1);
}
static inline const char *w13_cg_tile_max_fill(wb_rng *rng, int cs, float *hx)
{
    size_t n = W13_SIZES[cs / 2];
    wb_fill_uniform_f32(rng, hx, n, -10, -1);
    int inf = (cs / 2) % 2 == 1 && n >= 40;
    if (inf) hx[3] = INFINITY, hx[17] = -INFINITY, hx[n - 1] = -INFINITY, hx[n / 2] = INFINITY;
    return inf ? "all in [-10, -1], +Inf and -Inf planted" : "all in [-10, -1]";
}
/* ref[g] over tiles of `tile`: op 0 the double sum (1e-5 + 1e-6 |ref|), 1
 * the max (exact). */
static inline void w13_cg_tile_ref(int op, unsigned tile, const float *hx, size_t n, double *ref)
{
    for (size_t g = 0; g < (n + tile - 1) / tile; g++) {
        size_t lo = tile * g, hi = lo + tile < n ? lo + tile : n;
        double s = 0;
        float m = hx[lo];
        for (size_t i = lo; i < hi; i++) s += hx[i], m = hx[i] > m ? hx[i] : m;
        ref[g] = op == 0 ? s : (double)m;
    }
}

/* cg_sum_float loop i: n (2^24 + 3 on loop 0, else 2 .. 3M), uniform [-1,
 * 2); loops 2-4 a NaN or Inf planted (wb_plant_nonfinite, loop - 2), whose
 * sum must come out; else the double sum within 1e-5 sum |x| + 1e-6. */
static inline size_t w13_cg_sum_float_fill(wb_rng *rng, int i, float *hx, double *ref, double *atol, const char **what)
{
    size_t n = i == 0 ? ((size_t)1 << 24) + 3 : (size_t)wb_rng_int(rng, 2, 3000000);
    wb_fill_uniform_f32(rng, hx, n, -1, 2);
    double s = 0, abs_sum = 0;
    *what = "uniform [-1, 2]";
    if (i >= 2) s = wb_plant_nonfinite(rng, hx, n, i - 2, what);
    else
        for (size_t k = 0; k < n; k++) s += hx[k], abs_sum += fabs(hx[k]);
    *ref = s, *atol = 1e-5 * abs_sum + 1e-6;
    return n;
}

/* redux_sizes case cs: n = W13_SIZES[cs]; even cases the whole 32-bit range
 * (the sums wrap; max and min near the ends); odd: values below 1000
 * (ties), with 0 and 2^32 - 1 in the last two lanes of the last warp. */
static inline const char *w13_redux_fill(wb_rng *rng, int cs, uint32_t *hx)
{
    size_t n = W13_SIZES[cs];
    wb_fill_u32(rng, hx, n, cs % 2 ? 1000 : 0);
    if (cs % 2 && n > 1) hx[n - 1] = 0xFFFFFFFFu, hx[n - 2] = 0;
    return cs % 2 ? "values below 1000, 0 and 2^32 - 1 last" : "the whole 32-bit range";
}
/* ref[g] of each warp's group: op 0 the sum modulo 2^32, 1 the max, 2 the min. */
static inline void w13_redux_ref(int op, const uint32_t *hx, size_t n, uint32_t *ref)
{
    for (size_t g = 0; g < (n + 31) / 32; g++) {
        size_t lo = 32 * g, hi = lo + 32 < n ? lo + 32 : n;
        uint32_t r = op == 0 ? 0 : hx[lo];
        for (size_t i = lo; i < hi; i++) r = op == 0 ? r + hx[i] : op == 1 ? (hx[i] > r ? hx[i] : r) : (hx[i] < r ? hx[i] : r);
        ref[g] = r;
    }
}

/* ---------------------------------------------------------------- single-pass scan */

#define W13_SCAN1_SIZES_TAG  "scan1_sizes_case"
#define W13_SCAN1_LARGE_TAG  "scan1_large_fn"
#define W13_SCAN1_SHAKEN_TAG "scan1_shaken_fn"

/* Around a warp, a tile, two tiles, the look-back's window of 32 tiles, and
 * many tiles; x or y off alignment (the element-by-element path) on some.
 * Each case runs twice on the same workspace (poisoned before the first). */
static const struct { size_t n, ox, oy; } W13_SCAN1_CASES[] = {
    { 0, 0, 0 },                       { 1, 0, 0 },                      { 31, 0, 1 },
    { 33, 1, 0 },                      { SCAN1_TILE - 1, 0, 0 },         { SCAN1_TILE, 0, 0 },
    { SCAN1_TILE, 0, 3 },              { SCAN1_TILE + 1, 0, 0 },         { 2 * SCAN1_TILE + 5, 1, 1 },
    { 32 * SCAN1_TILE, 0, 0 },         { 33 * SCAN1_TILE + 1, 0, 0 },    { 37 * SCAN1_TILE + 999, 2, 0 },
    { 1000003, 0, 0 },                 { 1000003, 0, 2 },                { 256 * SCAN1_TILE, 0, 0 },
    { 3 * 1024 * SCAN1_TILE + 77, 0, 0 },
};
#define W13_N_SCAN1_CASES (sizeof W13_SCAN1_CASES / sizeof W13_SCAN1_CASES[0])

/* Case cs's n + ox inputs: even cases the whole 32-bit range (the sums
 * wrap), odd ones [-1000, 1000]; what the data is, for a message. */
static inline const char *w13_scan1_sizes_fill(wb_rng *rng, int cs, int32_t *hx)
{
    size_t m = W13_SCAN1_CASES[cs].n + W13_SCAN1_CASES[cs].ox;
    if (cs % 2)
        for (size_t i = 0; i < m; i++) hx[i] = (int32_t)wb_rng_int(rng, -1000, 1000);
    else wb_fill_u32(rng, (uint32_t *)hx, m, 0);
    return cs % 2 ? "values in [-1000, 1000]" : "the whole int32 range";
}

/* scan1_large: 100M+ ints of the whole int32 range. */
#define W13_SCAN1_LARGE_N (((size_t)100 << 20) + 7)
static inline void w13_scan1_large_fill(wb_rng *rng, int32_t *hx, size_t n) { wb_fill_u32(rng, (uint32_t *)hx, n, 0); }

/* scan1_shaken loop i (0 .. 2): n (40 tiles and a tail; up to 3M; 2^24 +
 * 3), the shake (odd: never 0), and n values in [-1000, 1000], drawn in
 * that order. The largest n: W13_SCAN1_SHAKEN_MAX_N. */
#define W13_N_SCAN1_SHAKEN     3
#define W13_SCAN1_SHAKEN_MAX_N (((size_t)1 << 24) + 3)
static inline size_t w13_scan1_shaken_n(wb_rng *rng, int i)
{
    return i == 0 ? 40 * (size_t)SCAN1_TILE + 17 : i == 1 ? (size_t)wb_rng_int(rng, 300000, 3000000) : ((size_t)1 << 24) + 3;
}
static inline unsigned w13_scan1_shaken_fill(wb_rng *rng, int32_t *hx, size_t n)
{
    unsigned shake = (unsigned)wb_rng_u64(rng) | 1u;
    for (size_t i = 0; i < n; i++) hx[i] = (int32_t)wb_rng_int(rng, -1000, 1000);
    return shake;
}

/* ref[i] = hx[0] + ... + hx[i] modulo 2^32. */
static inline void w13_scan1_ref(const int32_t *hx, size_t n, uint32_t *ref)
{
    uint32_t acc = 0;
    for (size_t i = 0; i < n; i++) acc += (uint32_t)hx[i], ref[i] = acc;
}

#endif
