/* alltoall.cu — week 48, exercise 4: all-to-all from ncclSend and ncclRecv
 * (alltoall.h).
 *
 * Every rank sends block q of its buffer to rank q and receives rank q's
 * block for it into block q of its own: n sends and n receives a rank, the
 * one to itself included (NCCL turns a matched send and receive to self
 * into a copy). All of them go in one group: NCCL matches each send with
 * the receive of the same pair and moves every pair at once, and the host
 * thread, which drives every rank, never waits inside a call for a rank it
 * has not called yet. */
#include "alltoall.h"

//@solution
/* Bytes of one element; 0 for a type not listed. */
static size_t type_size(ncclDataType_t t)
{
    switch (t) {
    case ncclInt8:
    case ncclUint8: return 1;
    case ncclFloat16:
    case ncclBfloat16: return 2;
    case ncclInt32:
    case ncclUint32:
    case ncclFloat32: return 4;
    case ncclInt64:
    case ncclUint64:
    case ncclFloat64: return 8;
    default: return 0;
    }
}
//@end

ncclResult_t alltoall_run(int n, const ncclComm_t *comm, const cudaStream_t *stream, const void *const *send,
                          void *const *recv, size_t count, ncclDataType_t type)
{
    //@solution
    size_t es = type_size(type);
    if (n < 1 || !comm || !stream || !send || !recv || es == 0) return ncclInvalidArgument;
    if (count == 0) return ncclSuccess; /* nothing to move, on every rank alike */
    size_t block = count * es;          /* bytes of one block */
    ncclResult_t r = ncclGroupStart();
    if (r != ncclSuccess) return r;
    for (int me = 0; me < n && r == ncclSuccess; me++)
        for (int q = 0; q < n && r == ncclSuccess; q++) {
            r = ncclSend((const char *)send[me] + (size_t)q * block, count, type, q, comm[me], stream[me]);
            if (r == ncclSuccess) r = ncclRecv((char *)recv[me] + (size_t)q * block, count, type, q, comm[me], stream[me]);
        }
    /* end the group whatever happened inside it: an open group would
     * swallow every later call */
    ncclResult_t e = ncclGroupEnd();
    return r != ncclSuccess ? r : e;
    //@starter
    //| /* TODO: refuse n < 1 or a null array (ncclInvalidArgument); a count of
    //|  * 0 does nothing. Block q of a buffer starts q * count elements in:
    //|  * work out an element's bytes from type (ncclFloat32 4, ncclInt8 1, ...;
    //|  * ncclInvalidArgument for one you do not handle). Then one group
    //|  * (ncclGroupStart ... ncclGroupEnd) holding, for every rank me and
    //|  * every peer q (me itself included): ncclSend(block q of send[me],
    //|  * count, type, q, comm[me], stream[me]) and ncclRecv(block q of
    //|  * recv[me], count, type, q, comm[me], stream[me]). End the group even
    //|  * when a call inside it failed, and return the first error. */
    //| (void)n, (void)comm, (void)stream, (void)send, (void)recv, (void)count, (void)type;
    //| return ncclSuccess;
    //@end
}
