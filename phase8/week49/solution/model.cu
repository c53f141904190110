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
    //@solution
    if (k < 1 || m < 1) return 0.0;
    double sum = 0.0;
    for (size_t i = 0; i < (size_t)k * (size_t)m; i++) sum += t[i];
    return sum;
    //@starter
    //| /* TODO: nothing overlaps, so the time is the sum of all k * m stage
    //|  * times (0 for k or m == 0). */
    //| (void)t, (void)k, (void)m;
    //| return 0.0;
    //@end
}

extern "C" double model_pipelined(const double *t, int k, int m)
{
    //@solution
    if (k < 1 || m < 1) return 0.0;
    double *left = (double *)calloc((size_t)m, sizeof *left); /* left[s]: when the last chunk so far left stage s */
    if (!left) return -1.0;
    for (int j = 0; j < k; j++) {
        double ready = 0.0; /* when chunk j left the stage before */
        for (int s = 0; s < m; s++) {
            double start = left[s] > ready ? left[s] : ready;
            left[s] = start + t[(size_t)j * m + s];
            ready = left[s];
        }
    }
    double end = left[m - 1];
    free(left);
    return end;
    //@starter
    //| /* TODO: walk the chunks in order, and for each the stages in order.
    //|  * Chunk j starts stage s when stage s has finished chunk j - 1 AND
    //|  * chunk j has finished stage s - 1: keep, for every stage, when it
    //|  * last finished a chunk (model.h says what to return). */
    //| (void)t, (void)k, (void)m;
    //| return 0.0;
    //@end
}

extern "C" double model_uniform(const double *stage, int m, int k)
{
    //@solution
    if (k < 1 || m < 1) return 0.0;
    double sum = 0.0, slowest = 0.0;
    for (int s = 0; s < m; s++) {
        sum += stage[s];
        if (stage[s] > slowest) slowest = stage[s];
    }
    return sum + (double)(k - 1) * slowest;
    //@starter
    //| /* TODO: the closed form: the first chunk passes every stage (fill and
    //|  * drain), then each of the other k - 1 chunks costs the slowest stage. */
    //| (void)stage, (void)m, (void)k;
    //| return 0.0;
    //@end
}
