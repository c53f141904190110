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

#include <stddef.h>
#include <stdint.h>

#include "scan1pass.h"
#include "wb_rand.h"

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
