/* arstep.cu — week 49, exercise 3: the all-reduce behind the compute.
 *
 * Two streams a rank. The compute stream makes the gradients bucket after
 * bucket without stopping; after each bucket it records `ready`, and the
 * communication stream waits on that event before its all-reduce, so the
 * sum of bucket b runs while bucket b + 1 is computed. The communication
 * stream records `reduced` after each all-reduce; the compute stream waits
 * on it only when it comes to bucket b's weight update, after the last
 * gradient: waiting any earlier would put the link back on the compute
 * stream's critical path, which is exactly the serial step.
 *
 * One thread drives every GPU, so each bucket's all-reduces, one a rank,
 * form one NCCL group: outside a group, the first rank's call could wait for
 * the other ranks, which this thread has not reached yet. Nothing here
 * blocks the host: records, waits, kernels and collectives are enqueued. */
#include "arstep.h"

extern "C" int arstep_overlap(const ar_world *w, ar_err *err)
{
    //@solution
    const size_t B = w->bucket;
    const int R = w->nranks, NB = w->nbucket;
    for (int b = 0; b < NB; b++) {
        const size_t at = (size_t)b * B;
        for (int r = 0; r < R; r++) {
            cudaEvent_t ready = w->ready[r * NB + b];
            if (ar_cuda(cudaSetDevice(w->dev[r]), "cudaSetDevice(dev[r])", err)) return 1;
            if (ar_cuda(w49_work(w->x[r] + at, w->g[r] + at, B, w->iters, w->compute[r]), "w49_work (gradient)", err))
                return 1;
            if (ar_cuda(cudaEventRecord(ready, w->compute[r]), "cudaEventRecord(ready)", err)) return 1;
            if (ar_cuda(cudaStreamWaitEvent(w->comms[r], ready, 0), "cudaStreamWaitEvent(comms, ready)", err)) return 1;
        }
        int failed = ar_nccl(ncclGroupStart(), "ncclGroupStart (a bucket)", err);
        for (int r = 0; r < R && !failed; r++)
            failed = ar_nccl(ncclAllReduce(w->g[r] + at, w->gsum[r] + at, B, ncclFloat, ncclSum, w->comm[r], w->comms[r]),
                             "ncclAllReduce", err);
        ncclResult_t closed = ncclGroupEnd(); /* always closes the group, even after an error */
        if (failed || ar_nccl(closed, "ncclGroupEnd (a bucket)", err)) return 1;
        for (int r = 0; r < R; r++) {
            if (ar_cuda(cudaSetDevice(w->dev[r]), "cudaSetDevice(dev[r])", err)) return 1;
            if (ar_cuda(cudaEventRecord(w->reduced[r * NB + b], w->comms[r]), "cudaEventRecord(reduced)", err)) return 1;
        }
    }
    for (int r = 0; r < R; r++) {
        if (ar_cuda(cudaSetDevice(w->dev[r]), "cudaSetDevice(dev[r])", err)) return 1;
        for (int b = 0; b < NB; b++) {
            const size_t at = (size_t)b * B;
            if (ar_cuda(cudaStreamWaitEvent(w->compute[r], w->reduced[r * NB + b], 0), "cudaStreamWaitEvent(compute, reduced)",
                        err))
                return 1;
            const float *wb = w->w[r] + at, *sb = w->gsum[r] + at;
            if (ar_cuda(w49_apply(wb, sb, w->wnew[r] + at, B, w->lr, w->compute[r]), "w49_apply (update)", err)) return 1;
        }
    }
    return 0;
    //@starter
    //| /* TODO: for each bucket b (floats [b * bucket, (b + 1) * bucket)):
    //|  *   for each rank r: cudaSetDevice(dev[r]); w49_work(x -> g) on
    //|  *     compute[r]; cudaEventRecord(ready[r * nbucket + b], compute[r]);
    //|  *     cudaStreamWaitEvent(comms[r], that event, 0);
    //|  *   ncclGroupStart(); one ncclAllReduce(g -> gsum, ncclFloat, ncclSum)
    //|  *     a rank, on comms[r]; ncclGroupEnd();
    //|  *   for each rank: record reduced[r * nbucket + b] on comms[r].
    //|  * Then, after every gradient, for each rank and bucket: compute[r]
    //|  * waits on reduced[...] and runs w49_apply(w, gsum -> wnew).
    //|  * Check every call with ar_cuda / ar_nccl; never synchronise. */
    //| (void)w, (void)err;
    //| return 0;
    //@end
}
