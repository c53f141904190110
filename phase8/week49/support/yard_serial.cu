/* yard_serial.cu — week 49, given: the two serial yardsticks (everything on
 * one stream, nothing overlapping). */
#include <cuda_runtime.h>
#include "pipe.h"
#include "arstep.h"

extern "C" cudaError_t yard_pipe_serial(const ovl_pipe *p, const float *hx, float *hy, size_t n, int iters)
{
    if (n == 0) return cudaSuccess;
    if (p->chunk == 0) return cudaErrorInvalidValue;
    for (size_t at = 0; at < n; at += p->chunk) {
        size_t len = p->chunk < n - at ? p->chunk : n - at;
        cudaError_t e = cudaMemcpyAsync(p->dx, hx + at, len * sizeof(float), cudaMemcpyHostToDevice, p->work);
        if (e == cudaSuccess) e = w49_work(p->dx, p->dy, len, iters, p->work);
        if (e == cudaSuccess) e = cudaMemcpyAsync(hy + at, p->dy, len * sizeof(float), cudaMemcpyDeviceToHost, p->work);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

extern "C" int yard_ar_step_serial(const ar_world *w, ar_err *err)
{
    const size_t B = w->bucket;
    for (int b = 0; b < w->nbucket; b++) {
        size_t at = (size_t)b * B;
        for (int r = 0; r < w->nranks; r++) {
            if (ar_cuda(cudaSetDevice(w->dev[r]), "cudaSetDevice", err)) return 1;
            if (ar_cuda(w49_work(w->x[r] + at, w->g[r] + at, B, w->iters, w->compute[r]), "w49_work", err)) return 1;
        }
        /* every rank's all-reduce of the bucket in one group: one thread drives them all */
        int bad = ar_nccl(ncclGroupStart(), "ncclGroupStart", err);
        for (int r = 0; r < w->nranks && !bad; r++)
            bad = ar_nccl(ncclAllReduce(w->g[r] + at, w->gsum[r] + at, B, ncclFloat, ncclSum, w->comm[r], w->compute[r]),
                          "ncclAllReduce (serial)", err);
        ncclResult_t end = ncclGroupEnd();
        if (bad || ar_nccl(end, "ncclGroupEnd", err)) return 1;
    }
    for (int r = 0; r < w->nranks; r++) {
        if (ar_cuda(cudaSetDevice(w->dev[r]), "cudaSetDevice", err)) return 1;
        for (int b = 0; b < w->nbucket; b++) {
            size_t at = (size_t)b * B;
            if (ar_cuda(w49_apply(w->w[r] + at, w->gsum[r] + at, w->wnew[r] + at, B, w->lr, w->compute[r]), "w49_apply", err))
                return 1;
        }
    }
    return 0;
}
