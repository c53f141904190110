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
    /* TODO: ncclCommInitAll(w->comm, ndev, devices) with devices 0..ndev-1
     * (refuse ndev outside 1..COLL_MAX_DEV with ncclInvalidArgument), then
     * for each device d: cudaSetDevice(d) and a stream in w->stream[d].
     * Set w->ndev. On any failure undo what was made (coll_destroy). */
    (void)ndev;
    return ncclInvalidUsage;
}

void coll_destroy(coll_world *w)
{
    /* TODO: destroy each stream (on its device) and each communicator
     * (ncclCommDestroy). */
    memset(w, 0, sizeof *w);
}


ncclResult_t coll_allreduce(coll_world *w, const void *const *send, void *const *recv, size_t count,
                            ncclDataType_t type, ncclRedOp_t op)
{
    /* TODO: inside ncclGroupStart() ... ncclGroupEnd(), one
     * ncclAllReduce(send[d], recv[d], count, type, op, w->comm[d],
     * w->stream[d]) per rank d. Check every result; end the group even
     * when a call failed. count == 0: return ncclSuccess. */
    (void)w, (void)send, (void)recv, (void)count, (void)type, (void)op;
    return ncclSuccess;
}

ncclResult_t coll_reducescatter(coll_world *w, const void *const *send, void *const *recv, size_t recvcount,
                                ncclDataType_t type, ncclRedOp_t op)
{
    /* TODO: as coll_allreduce, with ncclReduceScatter: its count is what
     * each rank receives (recvcount), not what it sends. */
    (void)w, (void)send, (void)recv, (void)recvcount, (void)type, (void)op;
    return ncclSuccess;
}

ncclResult_t coll_allgather(coll_world *w, const void *const *send, void *const *recv, size_t sendcount,
                            ncclDataType_t type)
{
    /* TODO: as coll_allreduce, with ncclAllGather (no reduction op; its
     * count is what each rank sends). */
    (void)w, (void)send, (void)recv, (void)sendcount, (void)type;
    return ncclSuccess;
}

ncclResult_t coll_wait(coll_world *w)
{
    /* TODO: for each device d: cudaSetDevice(d), cudaStreamSynchronize
     * (w->stream[d]) (a CUDA failure: ncclUnhandledCudaError), then
     * ncclCommGetAsyncError(w->comm[d], &err): return err if it is not
     * ncclSuccess. */
    (void)w;
    return ncclSuccess;
}

size_t coll_chunk(size_t count, int k)
{
    /* TODO: ceil(count / k), written so that it cannot overflow near SIZE_MAX. */
    (void)count, (void)k;
    return 0;
}

void coll_shard(size_t count, int k, int r, size_t *off, size_t *len)
{
    /* TODO: chunk = coll_chunk(count, k); rank r's shard starts at
     * r * chunk (at most count) and holds the elements of its chunk that
     * lie below count (the last ranks may get fewer, or none). */
    (void)count, (void)k, (void)r;
    *off = 0, *len = 0;
}
