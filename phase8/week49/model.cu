/* model.cu — week 49, exercise 1: the arithmetic of overlap (host code).
 *
 * Serial, a chunk goes through every stage before the next chunk starts:
 * the time is the sum of everything. Pipelined, each stage is a resource of
 * its own and works on the next chunk as soon as it is free, so after the
 * pipeline has filled, a chunk leaves it every max-stage time. Chunk j
 * leaves stage s at
 *     F(j, s) = max(F(j - 1, s), F(j, s - 1)) + t(j, s)
 * (the stage must be free, and the chunk must have left the stage before),
 * with F(-1, s) = F(j, -1) = 0. With equal chunks this is
 *     sum(stage) + (k - 1) * max(stage)
 * fill (the first chunk through every stage) and drain are in the sum, and
 * every other chunk costs the slowest stage: the bottleneck sets the pace,
 * and the best speedup over serial is sum / max (3x for three equal stages,
 * approached only when k is large against 3). */
#include <stdlib.h>
#include "model.h"

extern "C" double model_serial(const double *t, int k, int m)
{
    /* TODO: nothing overlaps, so the time is the sum of all k * m stage
     * times (0 for k or m == 0). */
    (void)t, (void)k, (void)m;
    return 0.0;
}

extern "C" double model_pipelined(const double *t, int k, int m)
{
    /* TODO: walk the chunks in order, and for each the stages in order.
     * Chunk j starts stage s when stage s has finished chunk j - 1 AND
     * chunk j has finished stage s - 1: keep, for every stage, when it
     * last finished a chunk (model.h says what to return). */
    (void)t, (void)k, (void)m;
    return 0.0;
}

extern "C" double model_uniform(const double *stage, int m, int k)
{
    /* TODO: the closed form: the first chunk passes every stage (fill and
     * drain), then each of the other k - 1 chunks costs the slowest stage. */
    (void)stage, (void)m, (void)k;
    return 0.0;
}
