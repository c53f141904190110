/* momentum.cu — week 51, exercise 1: momentum SGD, one kernel per op.
 *
 * Each kernel is a handful of blocks and runs for a microsecond or two;
 * launching it costs about as much CPU time. That is the point of the
 * exercise: write the step the plain way, measure it, then make it a graph. */
#include "momentum.h"

/* TODO: two kernels, one thread per element, guarded by i < n:
 *   k_momentum: v[i] = mu * v[i] + g[i]
 *   k_apply:    p[i] = p[i] - lr * v[i]                         */

cudaError_t momentum_tensor(float *p, const float *g, float *v, int n, float lr, float mu, cudaStream_t s)
{
    /* TODO: launch k_momentum, then k_apply, on stream s (nothing when
     * n == 0); return the launch error (cudaGetLastError). */
    (void)p, (void)g, (void)v, (void)n, (void)lr, (void)mu, (void)s;
    return cudaSuccess;
}

cudaError_t momentum_step(const opt_set *set, float lr, float mu, cudaStream_t s)
{
    /* TODO: momentum_tensor for every tensor of the set, in order, on s. */
    (void)set, (void)lr, (void)mu, (void)s;
    return cudaSuccess;
}
