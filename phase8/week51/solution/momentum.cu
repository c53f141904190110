/* momentum.cu — week 51, exercise 1: momentum SGD, one kernel per op.
 *
 * Each kernel is a handful of blocks and runs for a microsecond or two;
 * launching it costs about as much CPU time. That is the point of the
 * exercise: write the step the plain way, measure it, then make it a graph. */
#include "momentum.h"

//@solution
static __global__ void k_momentum(float *__restrict__ v, const float *__restrict__ g, int n, float mu)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = mu * v[i] + g[i];
}

static __global__ void k_apply(float *__restrict__ p, const float *__restrict__ v, int n, float lr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] - lr * v[i];
}
//@starter
//| /* TODO: two kernels, one thread per element, guarded by i < n:
//|  *   k_momentum: v[i] = mu * v[i] + g[i]
//|  *   k_apply:    p[i] = p[i] - lr * v[i]                         */
//@end

cudaError_t momentum_tensor(float *p, const float *g, float *v, int n, float lr, float mu, cudaStream_t s)
{
    //@solution
    if (n <= 0) return cudaSuccess;
    const int threads = 256;
    int blocks = (n + threads - 1) / threads;
    k_momentum<<<blocks, threads, 0, s>>>(v, g, n, mu);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    k_apply<<<blocks, threads, 0, s>>>(p, v, n, lr);
    return cudaGetLastError();
    //@starter
    //| /* TODO: launch k_momentum, then k_apply, on stream s (nothing when
    //|  * n == 0); return the launch error (cudaGetLastError). */
    //| (void)p, (void)g, (void)v, (void)n, (void)lr, (void)mu, (void)s;
    //| return cudaSuccess;
    //@end
}

cudaError_t momentum_step(const opt_set *set, float lr, float mu, cudaStream_t s)
{
    //@solution
    for (int t = 0; t < set->nt; t++) {
        cudaError_t e = momentum_tensor(set->p[t], set->g[t], set->v[t], set->len[t], lr, mu, s);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
    //@starter
    //| /* TODO: momentum_tensor for every tensor of the set, in order, on s. */
    //| (void)set, (void)lr, (void)mu, (void)s;
    //| return cudaSuccess;
    //@end
}
