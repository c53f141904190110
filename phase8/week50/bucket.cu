/* bucket.cu — week 50, exercise 1: pack many small gradients into a few
 * flat buckets, all-reduce each bucket once, unpack.
 *
 * The plan is built once (a model's gradients stay where they are from
 * step to step): the layout, two flat buffers and a table of chunks. A
 * chunk is up to CHUNK floats of one tensor; one block copies one chunk,
 * so one launch covers every tensor of a bucket, large or small, with no
 * idle blocks (the "multi-tensor apply" of PyTorch's fused optimizers). */
#include <stdlib.h>
#include <string.h>
#include "bucket.h"


struct bucket_plan {
    /* TODO: what pack, unpack and the all-reduce need: the layout of
     * bucket_assign, the flat send and receive buffers, a device table
     * saying which floats of which tensor go where, the device. */
    int unused;
};

static size_t align_up(size_t x) { return (x + BUCKET_ALIGN - 1) / BUCKET_ALIGN * BUCKET_ALIGN; }

int bucket_assign(const size_t *len, int nt, size_t cap_bytes, int *first, size_t *offset, size_t *start)
{
    /* TODO: walk the tensors in order keeping the current bucket's start
     * and how much of it is used; each tensor at the next multiple of
     * BUCKET_ALIGN (align_up); close the bucket when it holds a tensor and
     * the next would end past cap_bytes / 4 floats; fill first, offset,
     * start as bucket.h says (first[nb] = nt, start[nb] = total). */
    (void)len, (void)nt, (void)cap_bytes, (void)first, (void)offset, (void)start, (void)align_up;
    return 0;
}


cudaError_t bucket_plan_create(const float *const *grads, float *const *outs, const size_t *len, int nt,
                               size_t cap_bytes, bucket_plan **out)
{
    /* TODO: allocate your struct; bucket_assign the layout; build on the
     * host the table your pack/unpack kernels read (for instance one entry
     * per chunk of at most a few thousand floats of one tensor: source,
     * destination, position in the flat buffer, count), bucket after
     * bucket, and copy it to the device once; cudaMalloc the send and
     * receive buffers (start[nb] floats each). Remember the device. */
    (void)grads, (void)outs, (void)len, (void)nt, (void)cap_bytes;
    *out = NULL;
    return cudaSuccess;
}

int bucket_plan_buckets(const bucket_plan *p)
{
    (void)p;
    return 0; /* TODO: nb */
}

float *bucket_plan_send(const bucket_plan *p)
{
    (void)p;
    return NULL; /* TODO */
}

float *bucket_plan_recv(const bucket_plan *p)
{
    (void)p;
    return NULL; /* TODO */
}

void bucket_plan_destroy(bucket_plan *p)
{
    if (!p) return;
    /* TODO: free what your struct holds, on the host and the device. */
    free(p);
}

cudaError_t bucket_pack(const bucket_plan *p, int b, cudaStream_t s)
{
    /* TODO: one launch: every tensor of bucket b copied into the send
     * buffer at its offset (nothing to launch for an empty bucket). */
    (void)p, (void)b, (void)s;
    return cudaSuccess;
}

cudaError_t bucket_unpack(const bucket_plan *p, int b, cudaStream_t s)
{
    /* TODO: one launch: every tensor of bucket b copied out of the
     * receive buffer into outs[t]. */
    (void)p, (void)b, (void)s;
    return cudaSuccess;
}

ncclResult_t bucket_allreduce(int nranks, bucket_plan *const *plans, const ncclComm_t *comms,
                              const cudaStream_t *streams)
{
    /* TODO, in three passes over the ranks (cudaSetDevice to the plan's
     * device before launching on its stream):
     * 1. bucket_pack every bucket;
     * 2. ncclGroupStart(); ncclAllReduce(send + start[b], recv + start[b],
     *    start[b+1] - start[b], ncclFloat, ncclSum, comms[r], streams[r])
     *    for every bucket of every rank; ncclGroupEnd() (NCCL's calls
     *    inside a group are enqueued at ncclGroupEnd: a kernel launched
     *    between would run before them, hence the separate passes);
     * 3. bucket_unpack every bucket.
     * Check every result; restore the caller's device. */
    (void)nranks, (void)plans, (void)comms, (void)streams;
    return ncclSuccess;
}
