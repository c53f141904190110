/* w07_checks.h — how week 07's correctness cases are drawn and what they
 * expect, shared by the week's test program (test_week07.c) and the
 * instructor's judge (instructor/judge_w07.c, which runs the student's code
 * in a separate runner): the sizes, each case's input from its generator,
 * the reference and the tolerances. Change a case here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below; the
 * test asserts it). The judge draws case i from wb_rng_for_seed(seed, TAG, i)
 * through the same functions, so for a seed it gets the test's cases. */
#ifndef W07_CHECKS_H
#define W07_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wb_rand.h"

static const size_t W07_SIZES[] = { 0, 1, 2, 31, 255, 256, 257, 511, 512, 513, 1023, 1025, 4095, 4097, 65537, 1000003, 2000000 };
#define W07_N_SIZES (sizeof W07_SIZES / sizeof W07_SIZES[0])

/* Integer values in [lo, hi] as floats: every partial sum is an integer
 * below 2^24, so any summation order gives the exact answer. */
static inline void w07_fill_int(wb_rng *rng, float *v, size_t n, int lo, int hi)
{
    for (size_t i = 0; i < n; i++) v[i] = (float)wb_rng_int(rng, lo, hi);
}

/* ---------------------------------------------------------------- reduce */

#define W07_REDUCE_EXACT_TAG   "reduce_exact_fn"
#define W07_REDUCE_FLOAT_TAG   "reduce_float_fn"
#define W07_REDUCE_NANINF_TAG  "reduce_nan_inf_fn"
#define W07_N_REDUCE_FLOAT     4
#define W07_N_REDUCE_NANINF    3
#define W07_REDUCE_FLOAT_MAX_N ((size_t)3000000)
#define W07_REDUCE_NANINF_MAX_N ((size_t)100000)

/* reduce_exact case i: n = W07_SIZES[i], the input starts (i & 1) floats
 * into its buffer of n + off integers in [-3, 5]; the exact sum. */
static inline size_t w07_reduce_exact_off(int i) { return (size_t)(i & 1); }
static inline double w07_reduce_exact_fill(wb_rng *r, float *hx, size_t n, size_t off)
{
    w07_fill_int(r, hx, n + off, -3, 5);
    double ref = 0;
    for (size_t i = 0; i < n; i++) ref += hx[off + i];
    return ref;
}

/* reduce_float case i: n (2^24 + 3 for case 0, else drawn), then n floats
 * in [-1, 2); the double sum, and the tolerance 1e-6 sum |x| + 1e-6. */
static inline size_t w07_reduce_float_n(wb_rng *r, int i)
{
    return i == 0 ? ((size_t)1 << 24) + 3 : (size_t)wb_rng_int(r, 1, (int64_t)W07_REDUCE_FLOAT_MAX_N);
}
static inline double w07_reduce_float_fill(wb_rng *r, float *hx, size_t n, double *atol)
{
    wb_fill_uniform_f32(r, hx, n, -1, 2);
    double ref = 0, abs_sum = 0;
    for (size_t i = 0; i < n; i++) ref += hx[i], abs_sum += hx[i] < 0 ? -(double)hx[i] : hx[i];
    *atol = 1e-6 * abs_sum + 1e-6;
    return ref;
}

/* reduce_nan_inf case i: n drawn, n floats in [-1, 1), then case i's
 * non-finite values planted (wb_plant_nonfinite); the sum due (NaN or Inf). */
static inline size_t w07_reduce_naninf_n(wb_rng *r) { return (size_t)wb_rng_int(r, 2, (int64_t)W07_REDUCE_NANINF_MAX_N); }
static inline float w07_reduce_naninf_fill(wb_rng *r, float *hx, size_t n, int i, const char **what)
{
    wb_fill_uniform_f32(r, hx, n, -1, 1);
    return wb_plant_nonfinite(r, hx, n, i, what);
}

/* ---------------------------------------------------------------- scan */

#define W07_SCAN_EXACT_TAG  "scan_exact_fn"
#define W07_SCAN_FLOAT_TAG  "scan_float_nan_inf_fn"
#define W07_N_SCAN_FLOAT    3
#define W07_SCAN_FLOAT_MAX_N ((size_t)3000000)
#define W07_SCAN_ATOL       1e-3 /* scan_float_nan_inf, against the double prefix */
#define W07_SCAN_RTOL       2e-5

/* Scan sizes past W07_SIZES: several 4096-element tiles, and a tile's tail. */
static const size_t W07_SCAN_MORE[] = { 1 << 18, (1 << 20) + 1 };
#define W07_N_SCAN_EXACT (W07_N_SIZES + sizeof W07_SCAN_MORE / sizeof W07_SCAN_MORE[0])

/* scan_exact case i: its n and the offset (i % 3) of x and y in their buffers. */
static inline size_t w07_scan_exact_n(int i)
{
    return (size_t)i < W07_N_SIZES ? W07_SIZES[i] : W07_SCAN_MORE[(size_t)i - W07_N_SIZES];
}
static inline size_t w07_scan_exact_off(int i) { return (size_t)(i % 3); }
/* n + off integers in [-4, 6]; ref[0..n): the exact inclusive prefix of x + off. */
static inline void w07_scan_exact_fill(wb_rng *r, float *hx, size_t n, size_t off, float *ref)
{
    w07_fill_int(r, hx, n + off, -4, 6);
    double acc = 0;
    for (size_t i = 0; i < n; i++) acc += hx[off + i], ref[i] = (float)acc;
}

/* scan_float_nan_inf case i: n drawn, n floats in [0, 1), a NaN at n/3
 * (case 1) or an Inf at n/2 (case 2); ref: the double prefix. */
static inline size_t w07_scan_float_n(wb_rng *r) { return (size_t)wb_rng_int(r, 100, (int64_t)W07_SCAN_FLOAT_MAX_N); }
static inline void w07_scan_float_fill(wb_rng *r, int i, float *hx, size_t n, double *ref)
{
    wb_fill_uniform_f32(r, hx, n, 0, 1);
    if (i == 1) hx[n / 3] = (float)NAN;
    if (i == 2) hx[n / 2] = (float)INFINITY;
    double acc = 0;
    for (size_t k = 0; k < n; k++) acc += hx[k], ref[k] = acc;
}

/* The timed scans' check (bench_scan): against the double prefix, within
 * 1e-2 + 1e-4 |ref| (the test samples 4096 positions, the judge every one). */
#define W07_SCAN_BENCH_ATOL 1e-2
#define W07_SCAN_BENCH_RTOL 1e-4

/* ---------------------------------------------------------------- histogram */

#define W07_HIST_TAG   "hist_exact_fn"
#define W07_N_HIST     30
#define W07_HIST_BINS  256
static const size_t W07_HIST_N[] = { 0, 1, 15, 16, 17, 33, 1000, 65537, 1000003, ((size_t)1 << 24) + 3 };
#define W07_HIST_MAX_N (((size_t)1 << 24) + 3)
static const char *const W07_HIST_KIND[3] = { "uniform bytes", "all one value", "four values" };

/* hist_exact case i: n = W07_HIST_N[i % 10], kind i / 10 (0 uniform, 1 one
 * value, 2 four values); the byte offset drawn, then n + 16 bytes; ref the
 * 256 counts of hx[off .. off + n). */
static inline size_t w07_hist_n(int i) { return W07_HIST_N[i % 10]; }
static inline size_t w07_hist_fill(wb_rng *r, int i, unsigned char *hx, uint32_t *ref)
{
    size_t n = w07_hist_n(i), off = (size_t)wb_rng_int(r, 0, 15);
    int kind = i / 10;
    for (size_t k = 0; k < n + 16; k++) {
        uint64_t v = wb_rng_u64(r);
        hx[k] = (unsigned char)(kind == 0 ? v & 255 : kind == 1 ? 200 : 60 + (v & 3) * 50);
    }
    memset(ref, 0, W07_HIST_BINS * sizeof *ref);
    for (size_t k = 0; k < n; k++) ref[hx[off + k]]++;
    return off;
}

/* ---------------------------------------------------------------- compaction */

#define W07_COMPACT_SIZES_TAG "compact_sizes_fn"
#define W07_COMPACT_KINDS_TAG "compact_kinds_fn"
#define W07_N_COMPACT_KINDS   5
#define W07_COMPACT_MAX_N     ((size_t)5000000)
static const char *const W07_COMPACT_KIND[5] = { "half kept", "all kept", "none kept", "1 in 64 kept", "runs" };

/* compact_sizes case i: n = W07_SIZES[i], offset i % 4, kind i % 5;
 * compact_kinds case i: n drawn, then the offset (0..3), kind i. */
static inline void w07_compact_kinds_case(wb_rng *r, size_t *n, size_t *off)
{
    *n = (size_t)wb_rng_int(r, 100000, (int64_t)W07_COMPACT_MAX_N);
    *off = (size_t)wb_rng_int(r, 0, 3);
}

/* The threshold of kind k: x[i] < thresh is kept. */
static inline uint32_t w07_compact_thresh(int kind)
{
    return kind == 1 ? 0xFFFFFFFFu : kind == 2 ? 0 : kind == 3 ? 1u << 26 : 1u << 31;
}

/* n + off fresh words (never 0xFFFFFFFF, the poison, so an element of out
 * that was written shows); kind 4: runs of kept and dropped words (whole
 * warps of each, and warps that mix). ref: the kept words of hx + off, in
 * order; returns how many. */
static inline size_t w07_compact_fill(wb_rng *r, int kind, uint32_t *hx, size_t n, size_t off, uint32_t *ref)
{
    uint32_t thresh = w07_compact_thresh(kind);
    int keep = 1;
    for (size_t i = 0; i < n + off; i++) {
        hx[i] = (uint32_t)(wb_rng_u64(r) % 0xFFFFFFFFu);
        if (kind == 4) {
            if (wb_rng_int(r, 0, 39) == 0) keep = !keep;
            hx[i] = keep ? hx[i] >> 1 : (hx[i] >> 1) | (1u << 31);
            if (hx[i] == 0xFFFFFFFFu) hx[i]--;
        }
    }
    size_t nref = 0;
    for (size_t i = 0; i < n; i++)
        if (hx[off + i] < thresh) ref[nref++] = hx[off + i];
    return nref;
}

static int w07_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* ---------------------------------------------------------------- key counts */

#define W07_KEYCOUNT_TAG "keycount_exact_fn"
/* n keys (starting i % 4 words into their buffer), nkeys counters. */
static const struct { size_t n; unsigned nkeys; } W07_KC[] = {
    { 0, 1 },        { 1, 1 },          { 31, 1 },         { 32, 2 },           { 33, 3 },
    { 1000, 1 },     { 1000, 32 },      { 4097, 33 },      { 65537, 256 },      { 65537, 1 },
    { 1000003, 4 },  { 1000003, 4097 }, { 1000003, 65536 }, { (1 << 22) + 5, 1 }, { (1 << 22) + 5, 1000003 },
    { 1000, 0 },
};
#define W07_N_KC     (sizeof W07_KC / sizeof W07_KC[0])
#define W07_KC_MAX_N (((size_t)1 << 22) + 5)
#define W07_KC_MAX_K 1000003u
static const char *const W07_KC_MODE[3] = { "uniform keys", "a hot key", "runs of one key" };

/* keycount case i (mode i % 3: 0 uniform over 0..nkeys-1; 1 a hot key three
 * times in four; 2 runs of one key; one key in 32 out of range, nkeys and
 * more up to 0xFFFFFFFF): n + off keys into hk, ref[0..nkeys) the counts of
 * hk + off (ref holds nkeys + 1). */
static inline void w07_keycount_fill(wb_rng *r, int i, uint32_t *hk, uint32_t *ref)
{
    size_t n = W07_KC[i].n, off = (size_t)(i % 4);
    unsigned nkeys = W07_KC[i].nkeys;
    int mode = i % 3;
    uint32_t hot = nkeys ? (uint32_t)wb_rng_int(r, 0, nkeys - 1) : 0, run = hot;
    for (size_t k = 0; k < n + off; k++) {
        uint32_t key = nkeys ? (uint32_t)wb_rng_int(r, 0, nkeys - 1) : 0;
        if (mode == 1 && wb_rng_int(r, 0, 3)) key = hot;
        if (mode == 2) {
            if (wb_rng_int(r, 0, 49) == 0) run = key;
            key = run;
        }
        if (wb_rng_int(r, 0, 31) == 0) key = wb_rng_int(r, 0, 1) ? 0xFFFFFFFFu : nkeys + (uint32_t)wb_rng_int(r, 0, 40);
        hk[k] = key;
    }
    memset(ref, 0, ((size_t)nkeys + 1) * 4);
    for (size_t k = 0; k < n; k++)
        if (hk[off + k] < nkeys) ref[hk[off + k]]++;
}

/* ---------------------------------------------------------------- matmul */

#define W07_MATMUL_TAG "matmul_shapes_fn"
static const int W07_MM_SHAPES[][3] = { { 1, 1, 1 },       { 1, 17, 33 },    { 33, 1, 65 },  { 31, 33, 35 },   { 64, 64, 64 },
                                        { 100, 257, 129 }, { 5, 7, 0 },      { 257, 31, 1000 }, { 512, 384, 256 } };
#define W07_N_MM (sizeof W07_MM_SHAPES / sizeof W07_MM_SHAPES[0])
#define W07_MM_RTOL 1e-5
static inline double w07_mm_atol(int K) { return 1e-6 * K + 1e-6; }

/* A (M x K, one float more) then B (K x N, one more), uniform in [-1, 1);
 * ref = A B in double. */
static inline void w07_matmul_fill(wb_rng *r, int M, int N, int K, float *hA, float *hB, double *ref)
{
    size_t na = (size_t)M * K + 1, nb = (size_t)K * N + 1;
    wb_fill_uniform_f32(r, hA, na, -1, 1);
    wb_fill_uniform_f32(r, hB, nb, -1, 1);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0;
            for (int k = 0; k < K; k++) acc += (double)hA[(size_t)i * K + k] * hB[(size_t)k * N + j];
            ref[(size_t)i * N + j] = acc;
        }
}

/* The timed matmuls' check (matmul_vs_cublas): 4096^3, samples of C within
 * 1e-3 + 1e-4 |ref|. */
#define W07_MM_BIG          4096
#define W07_MM_BIG_SAMPLES  128
#define W07_MM_BIG_ATOL     1e-3
#define W07_MM_BIG_RTOL     1e-4

#endif
