/* arstep.h — week 49, exercise 3: the all-reduce of gradient buckets hidden
 * behind the compute that makes the next bucket.
 *
 * A data-parallel step over R GPUs (ranks), one process driving them all:
 * the gradient comes out of the backward pass bucket by bucket; each bucket
 * is summed over the ranks (ncclAllReduce) and the weights are updated from
 * the sum. Done on one stream, the GPU computes, then waits for the link,
 * then computes. With the all-reduces on a second stream, bucket b is summed
 * while bucket b + 1 is computed, and events carry the order between the
 * two streams. */
#ifndef ARSTEP_H
#define ARSTEP_H

#include <stdio.h>
#include <stddef.h>
#include <cuda_runtime_api.h>
#include <nccl.h>
#include "pipe.h" /* w49_work: the gradient kernel */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int           nranks;  /* R >= 1 */
    int           nbucket; /* buckets a step, >= 1 */
    size_t        bucket;  /* floats a bucket, >= 1 */
    int           iters;   /* the gradient kernel's cost (w49_work) */
    float         lr;      /* learning rate */
    /* one entry a rank, r = 0 .. R-1: */
    const int    *dev;     /* the CUDA device of rank r */
    ncclComm_t   *comm;    /* rank r's communicator */
    cudaStream_t *compute; /* rank r's compute stream */
    cudaStream_t *comms;   /* rank r's communication stream */
    /* rank r's buffers on its device, nbucket * bucket floats each; bucket b
     * is [b * bucket, (b + 1) * bucket): */
    float       **x;       /* the activations (input) */
    float       **g;       /* the local gradient: w49_work(x) */
    float       **gsum;    /* the gradient summed over the ranks (ncclAllReduce of g, out of place) */
    float       **w;       /* the weights (input) */
    float       **wnew;    /* the updated weights: w49_apply(w, gsum) */
    /* events (cudaEventDisableTiming), event [r * nbucket + b] on rank r's
     * device, one of each per bucket, yours to record and wait on: */
    cudaEvent_t  *ready;   /* bucket b's gradient is written */
    cudaEvent_t  *reduced; /* bucket b's sum is written */
} ar_world;

/* The first error of a step, in words (the failing call and its message). */
typedef struct { char msg[300]; } ar_err;

/* Given (support/given.cu): wnew[i] = fmaf(-lr, gsum[i], w[i]) for i < n, on s. */
cudaError_t w49_apply(const float *w, const float *gsum, float *wnew, size_t n, float lr, cudaStream_t s);

/* Given (support/yard_serial.cu), the yardstick SERIAL: the same step on
 * each rank's compute stream alone: gradient, all-reduce, gradient,
 * all-reduce, ..., then every apply. 0, or 1 with *err filled. The current
 * device on return is unspecified. */
int yard_ar_step_serial(const ar_world *w, ar_err *err);

/* Yours: the step, overlapped. For every bucket b and every rank r:
 *   compute[r]: w49_work(x_b -> g_b); then, after all buckets' gradients,
 *               w49_apply(w_b, gsum_b -> wnew_b) for each b;
 *   comms[r]:   ncclAllReduce(g_b -> gsum_b, sum), once bucket b's gradient
 *               is written, and before bucket b's apply reads gsum_b.
 * One thread drives every rank: the R all-reduces of a bucket go between
 * ncclGroupStart and ncclGroupEnd. cudaSetDevice(dev[r]) before rank r's
 * work. Everything is enqueued and the host never waits. 0, or 1 with *err
 * filled; the current device on return is unspecified. */
int arstep_overlap(const ar_world *w, ar_err *err);

/* Helpers for both: 0 if the call succeeded, else 1 with *err saying which. */
static inline int ar_cuda(cudaError_t e, const char *what, ar_err *err)
{
    if (e == cudaSuccess) return 0;
    snprintf(err->msg, sizeof err->msg, "%s: %s", what, cudaGetErrorString(e));
    return 1;
}
static inline int ar_nccl(ncclResult_t r, const char *what, ar_err *err)
{
    if (r == ncclSuccess) return 0;
    snprintf(err->msg, sizeof err->msg, "%s: %s", what, ncclGetErrorString(r));
    return 1;
}

#ifdef __cplusplus
}
#endif
#endif
