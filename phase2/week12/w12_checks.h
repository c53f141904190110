/* w12_checks.h — what week 12's checks expect, shared by the week's test
 * program (test_week12.c) and the instructor's judge (instructor/
 * judge_w12.c, which runs the student's functions in a separate runner):
 * the sizes, the ILPs, the graph's k, how each case is drawn from its
 * generator, the CPU references and the tolerances, the launch benchmark's
 * shape. Change a check here and both follow.
 *
 * The generators: a Check test's WB_RNG() is wb_rng_for(__func__, _i), and
 * its __func__ is the test's name with "_fn" after it (the *_TAG below; the
 * test asserts it). The judge draws case i from wb_rng_for_seed(seed, TAG,
 * i) through the same functions, so for a seed it gets the test's cases. */
#ifndef W12_CHECKS_H
#define W12_CHECKS_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "wb_rand.h"

#define W12_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const size_t W12_SIZES[] = { 0, 1, 3, 4, 7, 255, 1023, 1024, 1025, 4099, 65537, 1000003, (size_t)1 << 22 };
#define W12_N_SIZES W12_COUNT(W12_SIZES)
#define W12_MAX_N   ((size_t)1 << 22)

/* ---------------------------------------------------------------- ILP */

#define W12_ILP_TAG "ilp_sizes_fn"
static const int W12_ILPS[] = { 1, 2, 4, 8 };
#define W12_N_ILP_CASES (2 * W12_N_SIZES) /* every size on a full grid, then at one block per SM */
#define W12_ILP_RTOL    1e-7

/* Case i: its n, ILP and blocks per SM (0: a full grid; 1 from case
 * W12_N_SIZES on); a drawn in [-2, 2), x (n floats in [-100, 100)) with NaN,
 * +Inf and -Inf in front where n >= 3; ref = a x in float. Returns a. */
static inline float w12_ilp_case(wb_rng *r, int i, size_t *n, int *ilp, int *bps, float *x, float *ref)
{
    *n = W12_SIZES[(size_t)i % W12_N_SIZES];
    *ilp = W12_ILPS[(size_t)i % W12_COUNT(W12_ILPS)], *bps = ((size_t)i / W12_N_SIZES) ? 1 : 0;
    float a = (float)(wb_rng_unit(r) * 4 - 2);
    wb_fill_uniform_f32(r, x, *n, -100, 100);
    if (*n >= 3) x[0] = NAN, x[1] = INFINITY, x[2] = -INFINITY;
    for (size_t k = 0; k < *n; k++) ref[k] = a * x[k];
    return a;
}

/* ---------------------------------------------------------------- graph */

#define W12_GRAPH_TAG "graph_matches_eager_fn"
static const int W12_GRAPH_K[] = { 1, 2, 17, 100 };
#define W12_N_GRAPH_CASES 8
#define W12_GRAPH_MAX_N   3000

/* Case i: k, n drawn in [1, 3000], 1-3 replays; h (n floats in [-1000,
 * 1000)), the buffer before the capture, and ref, after the replays: h
 * plus 1.0f replays x k times, one add at a time as the kernels add. */
static inline void w12_graph_case(wb_rng *r, int i, int *k, int *n, int *replays, float *h, float *ref)
{
    *k = W12_GRAPH_K[(size_t)i % W12_COUNT(W12_GRAPH_K)], *n = (int)wb_rng_int(r, 1, W12_GRAPH_MAX_N),
    *replays = 1 + i % 3;
    wb_fill_uniform_f32(r, h, (size_t)*n, -1000, 1000);
    memcpy(ref, h, (size_t)*n * 4);
    for (int j = 0; j < *replays * *k; j++)
        for (int e = 0; e < *n; e++) ref[e] += 1.0f;
}

/* The launch benchmark (w12.graph-speed): TINY_K launches of tiny_add on
 * TINY_N floats in [-1000, 1000), eager against one graph replay. */
#define W12_TINY_N 256
#define W12_TINY_K 1000
#define W12_TINY_LO (-1000.0f)
#define W12_TINY_HI 1000.0f

/* v after `adds` kernels of tiny_add: one add of 1.0f each. */
static inline float w12_tiny_after(float v, long adds)
{
    for (long j = 0; j < adds; j++) v += 1.0f;
    return v;
}

/* ---------------------------------------------------------------- fusion */

#define W12_FUSE_TAG  "fuse_sizes_fn"
#define W12_FUSE_RTOL 1e-6

/* The chain: relu(a x + b) s, the affine step one fused multiply-add. */
static inline float w12_chain_ref(float x, float a, float b, float s)
{
    float t = fmaf(a, x, b);
    return (t < 0 ? 0.0f : t) * s;
}

/* Case i: n = W12_SIZES[i]; a in [-2, 2), b in [-0.5, 0.5), s in [0.5,
 * 1.5) into abs[3]; x (n floats in [-10, 10)) with NaN, +Inf and -Inf in
 * front where n >= 3; ref the chain in float. Returns n. */
static inline size_t w12_fuse_case(wb_rng *r, int i, float abs_[3], float *x, float *ref)
{
    size_t n = W12_SIZES[i];
    abs_[0] = (float)(wb_rng_unit(r) * 4 - 2), abs_[1] = (float)(wb_rng_unit(r) - 0.5),
    abs_[2] = (float)(wb_rng_unit(r) + 0.5);
    wb_fill_uniform_f32(r, x, n, -10, 10);
    if (n >= 3) x[0] = NAN, x[1] = INFINITY, x[2] = -INFINITY;
    for (size_t k = 0; k < n; k++) ref[k] = w12_chain_ref(x[k], abs_[0], abs_[1], abs_[2]);
    return n;
}

#endif
