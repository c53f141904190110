/* pipeline.cu — week 16, exercise 4: hide the copies behind the work.
 *
 * Data that lives on the host must cross PCIe twice: in, and back out. Done
 * one after the other (yard_serial), the GPU computes only a third of the
 * time and the link idles the rest. Cut into chunks and spread over streams,
 * the stages of different chunks overlap: while chunk c is computed, chunk
 * c + 1 comes in (one copy engine) and chunk c - 1 goes out (another), and
 * the time per chunk falls from in + work + out to the longest of the three
 * (if the link carries both directions at full speed at once).
 *
 * Each stream owns one pair of staging buffers, and its chunks run in order
 * on it, so a buffer is reused only after the previous chunk of the same
 * stream has been copied out: no event and no wait needed. Two streams are
 * double buffering, three triple. Pinned host memory is required: from
 * pageable memory cudaMemcpyAsync is not asynchronous and nothing overlaps. */
#include "pipeline.h"

cudaError_t pipeline_run(const float *hx, float *hy, size_t n, float *dx, float *dy, size_t chunk, int iters,
                         const cudaStream_t *streams, int nstreams)
{
    if (n == 0) return cudaSuccess;
    if (chunk == 0 || nstreams < 1 || !streams) return cudaErrorInvalidValue;
    //@solution
    size_t c = 0;
    for (size_t off = 0; off < n; off += chunk, c++) {
        size_t len = n - off < chunk ? n - off : chunk;
        int k = (int)(c % (size_t)nstreams);
        cudaStream_t st = streams[k];
        float *bx = dx + (size_t)k * chunk, *by = dy + (size_t)k * chunk;
        cudaError_t e = cudaMemcpyAsync(bx, hx + off, len * sizeof(float), cudaMemcpyHostToDevice, st);
        if (e != cudaSuccess) return e;
        e = w16_work(bx, by, len, iters, st);
        if (e != cudaSuccess) return e;
        e = cudaMemcpyAsync(hy + off, by, len * sizeof(float), cudaMemcpyDeviceToHost, st);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
    //@starter
    //| /* TODO: for each chunk c (offset c * chunk, the last one shorter): pick
    //|  * stream k = c % nstreams and its staging buffers dx + k * chunk and
    //|  * dy + k * chunk; enqueue on that stream the copy in
    //|  * (cudaMemcpyAsync, cudaMemcpyHostToDevice), w16_work, and the copy
    //|  * out. Never synchronise: the streams must run side by side. */
    //| (void)hx, (void)hy, (void)dx, (void)dy, (void)iters, (void)streams;
    //| return cudaSuccess;
    //@end
}
