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

//@solution
enum { CHUNK = 2048, THREADS = 256 };

/* One chunk: n floats of one tensor, at g (pack reads) and o (unpack
 * writes), at flat[pos ...] in the bucket buffers. */
typedef struct {
    const float *g;
    float       *o;
    size_t       pos;
    int          n;
} chunk;
//@end

struct bucket_plan {
    //@solution
    int     nt, nb, device;
    int    *first;       /* host, nb + 1 */
    size_t *offset;      /* host, nt */
    size_t *start;       /* host, nb + 1 */
    size_t *cfirst;      /* host, nb + 1: bucket b's chunks are cfirst[b] .. cfirst[b+1]-1 */
    chunk  *chunks;      /* device, cfirst[nb] */
    float  *send, *recv; /* device, start[nb] floats each */
    //@starter
    //| /* TODO: what pack, unpack and the all-reduce need: the layout of
    //|  * bucket_assign, the flat send and receive buffers, a device table
    //|  * saying which floats of which tensor go where, the device. */
    //| int unused;
    //@end
};

static size_t align_up(size_t x) { return (x + BUCKET_ALIGN - 1) / BUCKET_ALIGN * BUCKET_ALIGN; }

int bucket_assign(const size_t *len, int nt, size_t cap_bytes, int *first, size_t *offset, size_t *start)
{
    //@solution
    size_t cap = cap_bytes / sizeof(float), base = 0, pos = 0; /* base: this bucket's start; pos: used in it */
    int nb = 0;
    start[0] = 0;
    first[0] = 0;
    for (int t = 0; t < nt; ++t) {
        size_t o = align_up(pos);
        if (t > first[nb] && o + len[t] > cap) { /* a tensor in the bucket already, and this one would pass the cap */
            base += align_up(pos);
            start[++nb] = base;
            first[nb] = t;
            pos = o = 0;
        }
        offset[t] = base + o;
        pos = o + len[t];
    }
    if (nt == 0) return 0;
    start[++nb] = base + align_up(pos);
    first[nb] = nt;
    return nb;
    //@starter
    //| /* TODO: walk the tensors in order keeping the current bucket's start
    //|  * and how much of it is used; each tensor at the next multiple of
    //|  * BUCKET_ALIGN (align_up); close the bucket when it holds a tensor and
    //|  * the next would end past cap_bytes / 4 floats; fill first, offset,
    //|  * start as bucket.h says (first[nb] = nt, start[nb] = total). */
    //| (void)len, (void)nt, (void)cap_bytes, (void)first, (void)offset, (void)start, (void)align_up;
    //| return 0;
    //@end
}

//@solution
static __global__ void k_pack(const chunk *__restrict__ c, float *__restrict__ flat)
{
    chunk k = c[blockIdx.x];
    for (int i = threadIdx.x; i < k.n; i += blockDim.x) flat[k.pos + i] = k.g[i];
}

static __global__ void k_unpack(const chunk *__restrict__ c, const float *__restrict__ flat)
{
    chunk k = c[blockIdx.x];
    for (int i = threadIdx.x; i < k.n; i += blockDim.x) k.o[i] = flat[k.pos + i];
}

/* Bucket b, one block a chunk: into the send buffer (pack) or out of the
 * receive buffer (unpack); nothing to launch for an empty bucket. */
static cudaError_t copy_bucket(const bucket_plan *p, int b, int unpack, cudaStream_t s)
{
    if (!p || b < 0 || b >= p->nb) return cudaErrorInvalidValue;
    const size_t *c = p->cfirst;
    if (c[b + 1] == c[b]) return cudaSuccess;
    if (unpack)
        k_unpack<<<(unsigned)(c[b + 1] - c[b]), THREADS, 0, s>>>(p->chunks + c[b], p->recv);
    else
        k_pack<<<(unsigned)(c[b + 1] - c[b]), THREADS, 0, s>>>(p->chunks + c[b], p->send);
    return cudaGetLastError();
}
//@end

cudaError_t bucket_plan_create(const float *const *grads, float *const *outs, const size_t *len, int nt,
                               size_t cap_bytes, bucket_plan **out)
{
    //@solution
    *out = NULL;
    if (nt < 0 || cap_bytes < sizeof(float)) return cudaErrorInvalidValue;
    bucket_plan *p = (bucket_plan *)calloc(1, sizeof *p);
    if (!p) return cudaErrorMemoryAllocation;
    p->nt = nt;
    p->first = (int *)malloc((size_t)(nt + 1) * sizeof *p->first);
    p->offset = (size_t *)malloc((size_t)(nt + 1) * sizeof *p->offset);
    p->start = (size_t *)malloc((size_t)(nt + 1) * sizeof *p->start);
    p->cfirst = (size_t *)malloc((size_t)(nt + 1) * sizeof *p->cfirst);
    cudaError_t e = cudaGetDevice(&p->device);
    if (!p->first || !p->offset || !p->start || !p->cfirst) e = cudaErrorMemoryAllocation;
    if (e != cudaSuccess) {
        bucket_plan_destroy(p);
        return e;
    }
    p->nb = bucket_assign(len, nt, cap_bytes, p->first, p->offset, p->start);

    /* The chunk table, bucket after bucket (a bucket's tensors are
     * consecutive, so its chunks are too). */
    size_t nc = 0;
    for (int t = 0; t < nt; t++) nc += (len[t] + CHUNK - 1) / CHUNK;
    chunk *h = (chunk *)malloc((nc + 1) * sizeof *h);
    if (!h) e = cudaErrorMemoryAllocation;
    size_t c = 0;
    for (int b = 0; e == cudaSuccess && b < p->nb; b++) {
        p->cfirst[b] = c;
        for (int t = p->first[b]; t < p->first[b + 1]; t++)
            for (size_t i = 0; i < len[t]; i += CHUNK) {
                size_t n = len[t] - i < CHUNK ? len[t] - i : CHUNK;
                h[c++] = (chunk){ grads[t] + i, outs[t] + i, p->offset[t] + i, (int)n };
            }
    }
    p->cfirst[p->nb] = c;
    size_t total = p->nb ? p->start[p->nb] : 0;
    if (e == cudaSuccess && nc) e = cudaMalloc((void **)&p->chunks, nc * sizeof(chunk));
    if (e == cudaSuccess && nc) e = cudaMemcpy(p->chunks, h, nc * sizeof(chunk), cudaMemcpyHostToDevice);
    if (e == cudaSuccess && total) e = cudaMalloc((void **)&p->send, total * sizeof(float));
    if (e == cudaSuccess && total) e = cudaMalloc((void **)&p->recv, total * sizeof(float));
    /* zero padding: the all-reduce sums it too (harmlessly), but not garbage */
    if (e == cudaSuccess && total) e = cudaMemset(p->send, 0, total * sizeof(float));
    /* cudaMemset and a pageable cudaMemcpy may still be running when they
     * return, and a stream created non-blocking would not wait for them:
     * finish them before any pack can run */
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    free(h);
    if (e != cudaSuccess) {
        bucket_plan_destroy(p);
        return e;
    }
    *out = p;
    return cudaSuccess;
    //@starter
    //| /* TODO: allocate your struct; bucket_assign the layout; build on the
    //|  * host the table your pack/unpack kernels read (for instance one entry
    //|  * per chunk of at most a few thousand floats of one tensor: source,
    //|  * destination, position in the flat buffer, count), bucket after
    //|  * bucket, and copy it to the device once; cudaMalloc the send and
    //|  * receive buffers (start[nb] floats each). Remember the device. */
    //| (void)grads, (void)outs, (void)len, (void)nt, (void)cap_bytes;
    //| *out = NULL;
    //| return cudaSuccess;
    //@end
}

int bucket_plan_buckets(const bucket_plan *p)
{
    //@solution
    return p ? p->nb : 0;
    //@starter
    //| (void)p;
    //| return 0; /* TODO: nb */
    //@end
}

float *bucket_plan_send(const bucket_plan *p)
{
    //@solution
    return p ? p->send : NULL;
    //@starter
    //| (void)p;
    //| return NULL; /* TODO */
    //@end
}

float *bucket_plan_recv(const bucket_plan *p)
{
    //@solution
    return p ? p->recv : NULL;
    //@starter
    //| (void)p;
    //| return NULL; /* TODO */
    //@end
}

void bucket_plan_destroy(bucket_plan *p)
{
    if (!p) return;
    //@solution
    if (p->chunks) cudaFree(p->chunks);
    if (p->send) cudaFree(p->send);
    if (p->recv) cudaFree(p->recv);
    free(p->first), free(p->offset), free(p->start), free(p->cfirst);
    //@starter
    //| /* TODO: free what your struct holds, on the host and the device. */
    //@end
    free(p);
}

cudaError_t bucket_pack(const bucket_plan *p, int b, cudaStream_t s)
{
    //@solution
    return copy_bucket(p, b, 0, s);
    //@starter
    //| /* TODO: one launch: every tensor of bucket b copied into the send
    //|  * buffer at its offset (nothing to launch for an empty bucket). */
    //| (void)p, (void)b, (void)s;
    //| return cudaSuccess;
    //@end
}

cudaError_t bucket_unpack(const bucket_plan *p, int b, cudaStream_t s)
{
    //@solution
    return copy_bucket(p, b, 1, s);
    //@starter
    //| /* TODO: one launch: every tensor of bucket b copied out of the
    //|  * receive buffer into outs[t]. */
    //| (void)p, (void)b, (void)s;
    //| return cudaSuccess;
    //@end
}

ncclResult_t bucket_allreduce(int nranks, bucket_plan *const *plans, const ncclComm_t *comms,
                              const cudaStream_t *streams)
{
    //@solution
    int dev0 = 0;
    if (nranks < 1 || cudaGetDevice(&dev0) != cudaSuccess) return ncclInvalidArgument;
    ncclResult_t r = ncclSuccess;
    /* 1. pack every bucket of every rank */
    for (int k = 0; r == ncclSuccess && k < nranks; k++) {
        const bucket_plan *p = plans[k];
        if (!p || cudaSetDevice(p->device) != cudaSuccess) r = ncclInvalidArgument;
        for (int b = 0; r == ncclSuccess && b < p->nb; b++)
            if (bucket_pack(p, b, streams[k]) != cudaSuccess) r = ncclUnhandledCudaError;
    }
    /* 2. one all-reduce a bucket, all of them in one group: one process
     * drives every rank, and NCCL may fuse what a group holds */
    if (r == ncclSuccess) {
        r = ncclGroupStart();
        for (int k = 0; r == ncclSuccess && k < nranks; k++) {
            const bucket_plan *p = plans[k];
            for (int b = 0; r == ncclSuccess && b < p->nb; b++)
                r = ncclAllReduce(p->send + p->start[b], p->recv + p->start[b], p->start[b + 1] - p->start[b],
                                  ncclFloat, ncclSum, comms[k], streams[k]);
        }
        ncclResult_t r2 = ncclGroupEnd(); /* end the group whatever happened */
        if (r == ncclSuccess) r = r2;
    }
    /* 3. unpack, after the all-reduce on each rank's stream */
    for (int k = 0; r == ncclSuccess && k < nranks; k++) {
        const bucket_plan *p = plans[k];
        if (cudaSetDevice(p->device) != cudaSuccess) r = ncclUnhandledCudaError;
        for (int b = 0; r == ncclSuccess && b < p->nb; b++)
            if (bucket_unpack(p, b, streams[k]) != cudaSuccess) r = ncclUnhandledCudaError;
    }
    cudaSetDevice(dev0);
    return r;
    //@starter
    //| /* TODO, in three passes over the ranks (cudaSetDevice to the plan's
    //|  * device before launching on its stream):
    //|  * 1. bucket_pack every bucket;
    //|  * 2. ncclGroupStart(); ncclAllReduce(send + start[b], recv + start[b],
    //|  *    start[b+1] - start[b], ncclFloat, ncclSum, comms[r], streams[r])
    //|  *    for every bucket of every rank; ncclGroupEnd() (NCCL's calls
    //|  *    inside a group are enqueued at ncclGroupEnd: a kernel launched
    //|  *    between would run before them, hence the separate passes);
    //|  * 3. bucket_unpack every bucket.
    //|  * Check every result; restore the caller's device. */
    //| (void)nranks, (void)plans, (void)comms, (void)streams;
    //| return ncclSuccess;
    //@end
}
