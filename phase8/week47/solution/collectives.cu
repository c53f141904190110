/* collectives.cu — week 47, exercise 1: all-reduce, reduce-scatter and
 * all-gather over every GPU of this process (see collectives.h).
 *
 * NCCL does the moving; this file's job is the bookkeeping around it: one
 * communicator per device made in one call, the calls for all ranks
 * wrapped in one group, every ncclResult_t checked, and the one place
 * where the host must wait (coll_wait). */
#include <string.h>
#include "collectives.h"

ncclResult_t coll_init(coll_world *w, int ndev)
{
    memset(w, 0, sizeof *w);
    //@solution
    if (ndev < 1 || ndev > COLL_MAX_DEV) return ncclInvalidArgument;
    int devs[COLL_MAX_DEV];
    for (int d = 0; d < ndev; d++) devs[d] = d;
    /* one call makes all ndev communicators (it makes the unique id and
     * runs every rank's init for us) */
    ncclResult_t r = ncclCommInitAll(w->comm, ndev, devs);
    if (r != ncclSuccess) {
        memset(w, 0, sizeof *w);
        return r;
    }
    w->ndev = ndev;
    for (int d = 0; d < ndev; d++) {
        /* a stream belongs to the device that is current when it is made */
        if (cudaSetDevice(d) != cudaSuccess ||
            cudaStreamCreateWithFlags(&w->stream[d], cudaStreamNonBlocking) != cudaSuccess) {
            coll_destroy(w);
            return ncclUnhandledCudaError;
        }
    }
    return ncclSuccess;
    //@starter
    //| /* TODO: ncclCommInitAll(w->comm, ndev, devices) with devices 0..ndev-1
    //|  * (refuse ndev outside 1..COLL_MAX_DEV with ncclInvalidArgument), then
    //|  * for each device d: cudaSetDevice(d) and a stream in w->stream[d].
    //|  * Set w->ndev. On any failure undo what was made (coll_destroy). */
    //| (void)ndev;
    //| return ncclInvalidUsage;
    //@end
}

void coll_destroy(coll_world *w)
{
    //@solution
    for (int d = 0; d < w->ndev; d++) {
        if (w->stream[d]) {
            cudaSetDevice(d);
            cudaStreamDestroy(w->stream[d]);
        }
        if (w->comm[d]) ncclCommDestroy(w->comm[d]);
    }
    //@starter
    //| /* TODO: destroy each stream (on its device) and each communicator
    //|  * (ncclCommDestroy). */
    //@end
    memset(w, 0, sizeof *w);
}

//@solution
/* Ends a group whatever happened inside it (an open group would swallow
 * every later call), and returns the first error. */
static ncclResult_t group_end(ncclResult_t inside)
{
    ncclResult_t e = ncclGroupEnd();
    return inside != ncclSuccess ? inside : e;
}
//@end

ncclResult_t coll_allreduce(coll_world *w, const void *const *send, void *const *recv, size_t count,
                            ncclDataType_t type, ncclRedOp_t op)
{
    //@solution
    if (count == 0) return ncclSuccess; /* nothing to move, on every rank alike */
    ncclResult_t r = ncclGroupStart();
    if (r != ncclSuccess) return r;
    for (int d = 0; d < w->ndev && r == ncclSuccess; d++)
        r = ncclAllReduce(send[d], recv[d], count, type, op, w->comm[d], w->stream[d]);
    return group_end(r);
    //@starter
    //| /* TODO: inside ncclGroupStart() ... ncclGroupEnd(), one
    //|  * ncclAllReduce(send[d], recv[d], count, type, op, w->comm[d],
    //|  * w->stream[d]) per rank d. Check every result; end the group even
    //|  * when a call failed. count == 0: return ncclSuccess. */
    //| (void)w, (void)send, (void)recv, (void)count, (void)type, (void)op;
    //| return ncclSuccess;
    //@end
}

ncclResult_t coll_reducescatter(coll_world *w, const void *const *send, void *const *recv, size_t recvcount,
                                ncclDataType_t type, ncclRedOp_t op)
{
    //@solution
    if (recvcount == 0) return ncclSuccess;
    ncclResult_t r = ncclGroupStart();
    if (r != ncclSuccess) return r;
    for (int d = 0; d < w->ndev && r == ncclSuccess; d++)
        r = ncclReduceScatter(send[d], recv[d], recvcount, type, op, w->comm[d], w->stream[d]);
    return group_end(r);
    //@starter
    //| /* TODO: as coll_allreduce, with ncclReduceScatter: its count is what
    //|  * each rank receives (recvcount), not what it sends. */
    //| (void)w, (void)send, (void)recv, (void)recvcount, (void)type, (void)op;
    //| return ncclSuccess;
    //@end
}

ncclResult_t coll_allgather(coll_world *w, const void *const *send, void *const *recv, size_t sendcount,
                            ncclDataType_t type)
{
    //@solution
    if (sendcount == 0) return ncclSuccess;
    ncclResult_t r = ncclGroupStart();
    if (r != ncclSuccess) return r;
    for (int d = 0; d < w->ndev && r == ncclSuccess; d++)
        r = ncclAllGather(send[d], recv[d], sendcount, type, w->comm[d], w->stream[d]);
    return group_end(r);
    //@starter
    //| /* TODO: as coll_allreduce, with ncclAllGather (no reduction op; its
    //|  * count is what each rank sends). */
    //| (void)w, (void)send, (void)recv, (void)sendcount, (void)type;
    //| return ncclSuccess;
    //@end
}

ncclResult_t coll_wait(coll_world *w)
{
    //@solution
    for (int d = 0; d < w->ndev; d++) {
        if (cudaSetDevice(d) != cudaSuccess || cudaStreamSynchronize(w->stream[d]) != cudaSuccess)
            return ncclUnhandledCudaError;
        ncclResult_t async = ncclSuccess, r = ncclCommGetAsyncError(w->comm[d], &async);
        if (r != ncclSuccess) return r;
        if (async != ncclSuccess) return async;
    }
    return ncclSuccess;
    //@starter
    //| /* TODO: for each device d: cudaSetDevice(d), cudaStreamSynchronize
    //|  * (w->stream[d]) (a CUDA failure: ncclUnhandledCudaError), then
    //|  * ncclCommGetAsyncError(w->comm[d], &err): return err if it is not
    //|  * ncclSuccess. */
    //| (void)w;
    //| return ncclSuccess;
    //@end
}

size_t coll_chunk(size_t count, int k)
{
    //@solution
    return count / (size_t)k + (count % (size_t)k != 0); /* ceil without count + k - 1 overflowing */
    //@starter
    //| /* TODO: ceil(count / k), written so that it cannot overflow near SIZE_MAX. */
    //| (void)count, (void)k;
    //| return 0;
    //@end
}

void coll_shard(size_t count, int k, int r, size_t *off, size_t *len)
{
    //@solution
    size_t chunk = coll_chunk(count, k), start = chunk * (size_t)r;
    /* ranks past the data (count small against k) own an empty shard at
     * the end; chunk * r cannot overflow: it is below count + chunk */
    *off = start < count ? start : count;
    *len = start < count ? (count - start < chunk ? count - start : chunk) : 0;
    //@starter
    //| /* TODO: chunk = coll_chunk(count, k); rank r's shard starts at
    //|  * r * chunk (at most count) and holds the elements of its chunk that
    //|  * lie below count (the last ranks may get fewer, or none). */
    //| (void)count, (void)k, (void)r;
    //| *off = 0, *len = 0;
    //@end
}
