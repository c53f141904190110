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
    //@solution
    e = cudaEventRecord(ev, a);
    if (e != cudaSuccess) return e;
    e = cudaStreamWaitEvent(b, ev, 0);
    if (e != cudaSuccess) return e;
    //@starter
    //| /* TODO: stream b must not start plus_one_kernel before square_kernel
    //|  * has finished on stream a, and the host must not wait. */
    //| (void)ev;
    //@end
    plus_one_kernel<<<blocks, 256, 0, b>>>(y, z, n);
    return cudaGetLastError();
}

cudaError_t streams_time_on(cudaStream_t s, w05_work_fn work, void *ctx, float *ms)
{
    //@solution
    cudaEvent_t start = NULL, stop = NULL;
    cudaError_t e = cudaEventCreate(&start);
    if (e == cudaSuccess) e = cudaEventCreate(&stop);
    if (e == cudaSuccess) e = cudaEventRecord(start, s);
    if (e == cudaSuccess) e = work(s, ctx);
    if (e == cudaSuccess) e = cudaEventRecord(stop, s);
    if (e == cudaSuccess) e = cudaEventSynchronize(stop);
    if (e == cudaSuccess) e = cudaEventElapsedTime(ms, start, stop);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    return e;
    //@starter
    //| /* TODO: create two events, record one on s, enqueue work(s, ctx),
    //|  * record the other on s, wait for it (cudaEventSynchronize) and read
    //|  * cudaEventElapsedTime into *ms; destroy both events. */
    //| (void)s, (void)work, (void)ctx;
    //| *ms = 0.0f;
    //| return cudaSuccess;
    //@end
}

cudaError_t streams_make_independent(cudaStream_t *s)
{
    //@solution
    return cudaStreamCreateWithFlags(s, cudaStreamNonBlocking);
    //@starter
    //| /* TODO: cudaStreamCreate makes a blocking stream, one the legacy
    //|  * default stream waits for (and that waits for it). Make one that
    //|  * neither waits nor is waited on. */
    //| return cudaStreamCreate(s);
    //@end
}

cudaError_t streams_overlap_pipeline(const unsigned *hx, unsigned *hy, unsigned *dx, unsigned *dy, size_t n,
                                     unsigned rounds, int chunks, const cudaStream_t *streams, int nstreams,
                                     w05_chunk_times *tl)
{
    if (chunks < 1 || nstreams < 1 || nstreams > 8) return cudaErrorInvalidValue;
    //@solution
    /* Events, only for the timeline: an origin every stream waits for, then
     * six per chunk around its three operations. */
    cudaEvent_t origin = NULL, *ev = NULL;
    cudaError_t e = cudaSuccess;
    if (tl) {
        ev = (cudaEvent_t *)calloc((size_t)chunks * 6, sizeof *ev);
        if (!ev) return cudaErrorMemoryAllocation;
        e = cudaEventCreate(&origin);
        for (int i = 0; i < chunks * 6 && e == cudaSuccess; i++) e = cudaEventCreate(&ev[i]);
        if (e == cudaSuccess) e = cudaEventRecord(origin, streams[0]);
        for (int j = 1; j < nstreams && e == cudaSuccess; j++) e = cudaStreamWaitEvent(streams[j], origin, 0);
    }
    /* Depth first (a chunk's three steps, then the next chunk's) is fine
     * since Kepler's Hyper-Q: each stream has its own hardware queue, so the
     * order of issue across streams no longer serialises them. */
    for (int k = 0; k < chunks && e == cudaSuccess; k++) {
        cudaStream_t s = streams[k % nstreams];
        size_t lo = n * (size_t)k / (size_t)chunks, hi = n * (size_t)(k + 1) / (size_t)chunks, b = (hi - lo) * sizeof *hx;
        cudaEvent_t *c = tl ? ev + 6 * k : NULL;
        if (c) e = cudaEventRecord(c[0], s);
        if (e == cudaSuccess && b) e = cudaMemcpyAsync(dx + lo, hx + lo, b, cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess && c) e = cudaEventRecord(c[1], s);
        if (e == cudaSuccess && c) e = cudaEventRecord(c[2], s);
        if (e == cudaSuccess) e = w05_mix(dx + lo, dy + lo, hi - lo, rounds, s);
        if (e == cudaSuccess && c) e = cudaEventRecord(c[3], s);
        if (e == cudaSuccess && c) e = cudaEventRecord(c[4], s);
        if (e == cudaSuccess && b) e = cudaMemcpyAsync(hy + lo, dy + lo, b, cudaMemcpyDeviceToHost, s);
        if (e == cudaSuccess && c) e = cudaEventRecord(c[5], s);
    }
    if (tl) {
        for (int k = 0; k < chunks && e == cudaSuccess; k++) {
            float t[6];
            for (int i = 0; i < 6 && e == cudaSuccess; i++) {
                e = cudaEventSynchronize(ev[6 * k + i]);
                if (e == cudaSuccess) e = cudaEventElapsedTime(&t[i], origin, ev[6 * k + i]);
            }
            if (e == cudaSuccess) {
                w05_chunk_times r = { t[0], t[1], t[2], t[3], t[4], t[5] };
                tl[k] = r;
            }
        }
        if (origin) cudaEventDestroy(origin);
        for (int i = 0; i < chunks * 6; i++)
            if (ev[i]) cudaEventDestroy(ev[i]);
        free(ev);
    }
    return e;
    //@starter
    //| /* TODO: for chunk k = [n*k/chunks, n*(k+1)/chunks) on stream
    //|  * streams[k % nstreams]: cudaMemcpyAsync it in, w05_mix it, copy it
    //|  * out, without waiting. With tl, record an origin event first (every
    //|  * stream waits on it), an event before and after each of the three
    //|  * steps, then synchronise them and fill tl[k] with
    //|  * cudaEventElapsedTime(origin, ...). */
    //| (void)hx, (void)hy, (void)dx, (void)dy, (void)n, (void)rounds, (void)streams, (void)tl;
    //| return cudaSuccess;
    //@end
}
