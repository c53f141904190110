/* streams.cu — week 05, exercise 3: when does a kernel run?
 *
 * A launch only enqueues work; the host goes on at once. Work on one stream
 * runs in order; work on two streams may overlap in any order, so a kernel
 * that reads what another stream writes needs an explicit edge: record an
 * event after the producer, make the consumer's stream wait on it. The wait
 * is a device-side dependency: no cudaDeviceSynchronize, no stalled host.
 *
 * The same events measure time (two of them on one stream bracket the work
 * between them), and the same queues let copies run while kernels do
 * (streams_overlap_pipeline). Which stream you launch on matters: the legacy
 * default stream waits for, and is waited on by, every blocking stream. */
#include <stdlib.h>

#include "streams.h"

static __global__ void square_kernel(const float *__restrict__ x, float *__restrict__ y, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] = x[i] * x[i];
}

static __global__ void plus_one_kernel(const float *__restrict__ y, float *__restrict__ z, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        z[i] = y[i] + 1.0f;
}

cudaError_t streams_two_chain(const float *x, float *y, float *z, size_t n, cudaStream_t a, cudaStream_t b,
                              cudaEvent_t ev)
{
    if (n == 0) return cudaSuccess;
    unsigned blocks = (unsigned)((n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096);
    square_kernel<<<blocks, 256, 0, a>>>(x, y, n);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    /* TODO: stream b must not start plus_one_kernel before square_kernel
     * has finished on stream a, and the host must not wait. */
    (void)ev;
    plus_one_kernel<<<blocks, 256, 0, b>>>(y, z, n);
    return cudaGetLastError();
}

cudaError_t streams_time_on(cudaStream_t s, w05_work_fn work, void *ctx, float *ms)
{
    /* TODO: create two events, record one on s, enqueue work(s, ctx),
     * record the other on s, wait for it (cudaEventSynchronize) and read
     * cudaEventElapsedTime into *ms; destroy both events. */
    (void)s, (void)work, (void)ctx;
    *ms = 0.0f;
    return cudaSuccess;
}

cudaError_t streams_make_independent(cudaStream_t *s)
{
    /* TODO: cudaStreamCreate makes a blocking stream, one the legacy
     * default stream waits for (and that waits for it). Make one that
     * neither waits nor is waited on. */
    return cudaStreamCreate(s);
}

cudaError_t streams_overlap_pipeline(const unsigned *hx, unsigned *hy, unsigned *dx, unsigned *dy, size_t n,
                                     unsigned rounds, int chunks, const cudaStream_t *streams, int nstreams,
                                     w05_chunk_times *tl)
{
    if (chunks < 1 || nstreams < 1 || nstreams > 8) return cudaErrorInvalidValue;
    /* TODO: for chunk k = [n*k/chunks, n*(k+1)/chunks) on stream
     * streams[k % nstreams]: cudaMemcpyAsync it in, w05_mix it, copy it
     * out, without waiting. With tl, record an origin event first (every
     * stream waits on it), an event before and after each of the three
     * steps, then synchronise them and fill tl[k] with
     * cudaEventElapsedTime(origin, ...). */
    (void)hx, (void)hy, (void)dx, (void)dy, (void)n, (void)rounds, (void)streams, (void)tl;
    return cudaSuccess;
}
