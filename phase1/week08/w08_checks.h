/* w08_checks.h — what week 08's checks expect, shared by the week's test
 * program (test_week08.c) and the instructor's judge (instructor/
 * judge_w08.c, which runs the student's code in a separate runner): the
 * sizes, how each case is drawn from its generator, the references, the
 * tolerances and the litmus round's verdict. Change a check here and both
 * follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below; the
 * test asserts it). The judge draws case i from wb_rng_for_seed(seed, TAG, i)
 * through the same functions, so for a seed it gets the test's cases, sizes
 * and inputs alike. */
#ifndef W08_CHECKS_H
#define W08_CHECKS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lfstack.h"
#include "litmus.h"
#include "racefix.h"
#include "tally.h"
#include "wb_compare.h"
#include "wb_rand.h"

#define W08_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The sizes of lastblock, gridsync, vote and tally (gridsync and vote add 4
 * drawn sizes after them). */
static const size_t W08_SIZES[] = { 0, 1, 2, 31, 255, 256, 257, 2047, 2049, 65537, 1000003, 2000000 };
#define W08_N_SIZES W08_COUNT(W08_SIZES)

/* ---------------------------------------------------------------- lastblock */

#define W08_LASTBLOCK_TAG        "lastblock_exact_deterministic_fn"
#define W08_LASTBLOCK_INT_RUNS   3 /* the same workspace each run: the counter must come back to 0 */
#define W08_LASTBLOCK_FLOAT_RUNS 5 /* the same bits every run */

/* The integer data: n values in [-3, 5] (exact in any order); their sum. */
static inline double w08_lastblock_ints(wb_rng *r, float *x, size_t n)
{
    double ref = 0;
    for (size_t i = 0; i < n; i++) x[i] = (float)wb_rng_int(r, -3, 5), ref += x[i];
    return ref;
}

/* The float data, drawn after the integers from the same generator: n values
 * in [-1, 2); the double sum and the tolerance (1e-6 of the sum of |x|). */
static inline double w08_lastblock_floats(wb_rng *r, float *x, size_t n, double *tol)
{
    wb_fill_uniform_f32(r, x, n, -1, 2);
    double ref = 0, abs_sum = 0;
    for (size_t i = 0; i < n; i++) ref += x[i], abs_sum += fabs(x[i]);
    *tol = 1e-6 * abs_sum + 1e-7;
    return ref;
}

/* ---------------------------------------------------------------- gridsync */

#define W08_CENTER_TAG   "center_sizes_fn"
#define W08_CENTER_CASES (W08_N_SIZES + 4)
#define W08_CENTER_MAX_N 5000000
#define W08_CENTER_ATOL  1e-5
#define W08_CENTER_RTOL  1e-6

/* Case i's n: the sizes, then drawn in [1, 5000000]. */
static inline size_t w08_center_n(wb_rng *r, int i)
{
    return (size_t)i < W08_N_SIZES ? W08_SIZES[i] : (size_t)wb_rng_int(r, 1, W08_CENTER_MAX_N);
}

/* x in [-1, 3) and ref = x - mean(x) in double. */
static inline void w08_center_draw(wb_rng *r, float *x, double *ref, size_t n)
{
    wb_fill_uniform_f32(r, x, n, -1, 3);
    double mean = 0;
    for (size_t i = 0; i < n; i++) mean += x[i];
    mean = n ? mean / n : 0;
    for (size_t i = 0; i < n; i++) ref[i] = x[i] - mean;
}

/* ---------------------------------------------------------------- vote */

#define W08_COMPACT_TAG   "compact_sizes_fn"
#define W08_COMPACT_CASES (W08_N_SIZES + 4)
#define W08_COMPACT_MAX_N 3000000

static inline size_t w08_compact_n(wb_rng *r, int i)
{
    return (size_t)i < W08_N_SIZES ? W08_SIZES[i] : (size_t)wb_rng_int(r, 1, W08_COMPACT_MAX_N);
}

/* x in [-1, 1) with NaN, +-Inf, +-0 and a tiny positive planted (n > 8);
 * the kept elements (x > 0) into ref in order; their count. */
static inline size_t w08_compact_draw(wb_rng *r, float *x, float *ref, size_t n)
{
    wb_fill_uniform_f32(r, x, n, -1, 1);
    if (n > 8) x[1] = NAN, x[2] = INFINITY, x[3] = -INFINITY, x[4] = 0.f, x[5] = -0.f, x[6] = 1e-30f;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i] > 0) ref[k++] = x[i];
    return k;
}

static inline int w08_cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* ---------------------------------------------------------------- lfstack */

static const size_t W08_STACK_SIZES[] = { 1, 2, 31, 33, 1000, 100003, (size_t)1 << 20 };
#define W08_N_STACK_SIZES W08_COUNT(W08_STACK_SIZES)
#define W08_STACK_EXTRA   100 /* pops more than pushes: each of them finds the stack empty */

/* After n pushes: the stack from head through next[] holds every node
 * below n once (none past n, no cycle). seen: n bytes of room. 0, or 1 and
 * err says what is wrong. */
static inline int w08_stack_walk(unsigned int head, const unsigned int *next, size_t n, unsigned char *seen, char *err,
                                 size_t errsz)
{
    size_t walked = 0;
    memset(seen, 0, n);
    for (unsigned int v = head; v != STACK_EMPTY; v = next[v]) {
        if (v >= n) return snprintf(err, errsz, "n=%zu: the stack holds node %u, past n", n, v), 1;
        if (seen[v]) return snprintf(err, errsz, "n=%zu: node %u is in the stack twice (a cycle)", n, v), 1;
        seen[v] = 1, walked++;
    }
    if (walked != n) return snprintf(err, errsz, "n=%zu: the stack holds %zu nodes after %zu pushes", n, walked, n), 1;
    return 0;
}

/* After n + W08_STACK_EXTRA pops of n nodes: pop[] (m entries) holds every
 * node once, STACK_EMPTY in exactly W08_STACK_EXTRA entries, and the head is
 * empty. seen: n bytes of room. 0, or 1 and err says what is wrong. */
static inline int w08_stack_pops(const unsigned int *pop, size_t m, size_t n, unsigned int head, unsigned char *seen,
                                 char *err, size_t errsz)
{
    size_t empties = 0;
    memset(seen, 0, n);
    for (size_t t = 0; t < m; t++) {
        if (pop[t] == STACK_EMPTY) {
            empties++;
            continue;
        }
        if (pop[t] >= n) return snprintf(err, errsz, "n=%zu: thread %zu popped %u, not a node", n, t, pop[t]), 1;
        if (seen[pop[t]]) return snprintf(err, errsz, "n=%zu: node %u popped twice", n, pop[t]), 1;
        seen[pop[t]] = 1;
    }
    if (empties != m - n)
        return snprintf(err, errsz, "n=%zu: %zu of %zu pops found the stack empty, expected %zu", n, empties, m, m - n), 1;
    if (head != STACK_EMPTY)
        return snprintf(err, errsz, "n=%zu: the stack is not empty after popping everything (head %u)", n, head), 1;
    return 0;
}

/* ---------------------------------------------------------------- litmus */

#define W08_MP_DEVICE_TAG "mp_device_sizes_fn"
#define W08_MP_BLOCK_TAG  "mp_block_sizes_fn"
#define W08_MP_DEMO_TAG   "mp_demo_fn"
static const size_t W08_MP_SIZES[] = { 1, 2, 31, 127, 128, 129, 255, 256, 257, 4097, 65537, (size_t)1 << 20 };
#define W08_N_MP_SIZES W08_COUNT(W08_MP_SIZES)
static inline int w08_mp_rounds(size_t npairs) { return npairs > 100000 ? 4 : 16; }
enum { W08_MP_DEMO_NP = 1 << 18, W08_MP_DEMO_ROUNDS = 32 };

typedef struct {
    size_t reads, raised, stale; /* reader records, flags seen raised, raised flags with old data */
} w08_mp_count;

/* The first round's value: never near the poison 0xFFFFFFFF (data and flag
 * hold base - 1 before it; round k stores base + k). */
static inline unsigned int w08_mp_base(wb_rng *r) { return (unsigned int)wb_rng_int(r, 1, 1 << 30); }

/* One round's verdict: seen (2 npairs), data and flag (npairs each) as read
 * back after the round that stored r. 0 and the counts added to c, or 1 and
 * err says what is wrong (a record not written, a value no writer stored, a
 * message not delivered). Stale reads are counted, not judged. */
static inline int w08_mp_round_check(const unsigned int *seen, const unsigned int *data, const unsigned int *flag,
                                     size_t npairs, unsigned int r, const char *what, w08_mp_count *c, char *err,
                                     size_t errsz)
{
    for (size_t p = 0; p < npairs; p++) {
        unsigned int f = seen[2 * p], d = seen[2 * p + 1];
        if (f == 0xFFFFFFFFu && d == 0xFFFFFFFFu)
            return snprintf(err, errsz, "%s: pair %zu: the reader wrote nothing (seen[] still holds the poison)", what, p), 1;
        if ((f != r && f != r - 1) || (d != r && d != r - 1))
            return snprintf(err, errsz, "%s: pair %zu: the reader saw flag %u, data %u; only %u (before) or %u (this round) "
                            "were ever stored", what, p, f, d, r - 1, r), 1;
        if (data[p] != r || flag[p] != r)
            return snprintf(err, errsz, "%s: pair %zu: after the round data = %u, flag = %u, expected both %u (the writer "
                            "did not publish)", what, p, data[p], flag[p], r), 1;
        c->reads++;
        c->raised += f == r;
        c->stale += f == r && d != r;
    }
    return 0;
}

/* ---------------------------------------------------------------- tally */

#define W08_TALLY_TAG   "tally_sizes_fn"
#define W08_TALLY_CASES (W08_N_SIZES + 6)
static const unsigned int W08_TALLY_BINS[] = { 1, 2, 31, 256, 257, 4096, TALLY_SHARED_MAX, 65537, 1u << 20 };
#define W08_N_TALLY_BINS W08_COUNT(W08_TALLY_BINS)
#define W08_TALLY_MAX_BINS (1u << 20)

/* Case i is two tallies: n = W08_SIZES[i % count] keys over the bins of
 * the table (uniform), then over a drawn number of bins in [1, 2^20] (half
 * the keys on one bin when i is odd). */
static inline size_t w08_tally_n(int i) { return W08_SIZES[(size_t)i % W08_N_SIZES]; }
static inline unsigned int w08_tally_bins(wb_rng *r, int i, int part)
{
    return part == 0 ? W08_TALLY_BINS[(size_t)i % W08_N_TALLY_BINS] : (unsigned int)wb_rng_int(r, 1, 1 << 20);
}
static inline int w08_tally_skew(int i, int part) { return part == 1 && (i & 1); }

/* n keys below nbins (skew: every other one on one hot bin, the hot address
 * of a real histogram) and their counts in ref. */
static inline void w08_tally_draw(wb_rng *r, unsigned int *keys, unsigned int *ref, size_t n, unsigned int nbins, int skew)
{
    wb_fill_u32(r, keys, n, nbins);
    if (skew) {
        unsigned int hot = (unsigned int)wb_rng_int(r, 0, nbins - 1);
        for (size_t i = 0; i < n; i += 2) keys[i] = hot;
    }
    memset(ref, 0, (size_t)nbins * 4);
    for (size_t i = 0; i < n; i++) ref[keys[i]]++;
}

/* ---------------------------------------------------------------- racefix */

#define W08_RACEFIX_TAG "racefix_sizes_fn"
static const size_t W08_RF_SIZES[] = { 0, 1, 2, 3, 4, 7, 255, 256, 257, 262, 511, 4099, 65537, 1000003 };
#define W08_N_RF_SIZES W08_COUNT(W08_RF_SIZES)
static const unsigned int W08_RF_BLOCKS[] = { 0, 1, 2, 3, 5, 64, 1000 }; /* 0: the function chooses */
#define W08_RF_RUNS 3 /* a race may show on one run of several */

/* Case i: its n, grid and lead (an output 0, 4 or 8 bytes past an aligned start). */
static inline size_t w08_rf_n(int i) { return W08_RF_SIZES[i]; }
static inline unsigned int w08_rf_blocks(int i) { return W08_RF_BLOCKS[(size_t)i % W08_COUNT(W08_RF_BLOCKS)]; }
static inline size_t w08_rf_lead(int i) { return (size_t)(i % 3) * 4; }

/* Integer values and weights: every partial sum is an integer far below
 * 2^24, so the float result is exact in any order of the sums. */
static inline void w08_racefix_inputs(wb_rng *r, float *x, size_t n, racefix_taps *taps)
{
    for (size_t i = 0; i < n; i++) x[i] = (float)wb_rng_int(r, -64, 64);
    for (int k = 0; k < RACEFIX_TAPS; k++) taps->w[k] = (float)wb_rng_int(r, -4, 4);
    taps->w[RACEFIX_RADIUS] = (float)wb_rng_int(r, 1, 4); /* never an all-zero stencil */
}

static inline void w08_racefix_ref(const float *x, size_t n, const racefix_taps *taps, float *y)
{
    for (size_t i = 0; i < n; i++) {
        double acc = 0;
        for (int k = 0; k < RACEFIX_TAPS; k++) {
            size_t g = i + (size_t)k; /* the index into x, plus R */
            if (g >= RACEFIX_RADIUS && g - RACEFIX_RADIUS < n) acc += (double)taps->w[k] * x[g - RACEFIX_RADIUS];
        }
        y[i] = (float)acc;
    }
}

#endif
