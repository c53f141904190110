/* bucket.h — week 50, exercise 1: gradient bucketing.
 *
 * Data-parallel training all-reduces every gradient tensor after the
 * backward pass. A model has hundreds of them, most small (biases, norm
 * weights), and one collective a tensor pays NCCL's fixed cost (host work,
 * a launch, the ranks agreeing) hundreds of times. Bucketing packs
 * consecutive tensors into flat buffers of about `cap` bytes and
 * all-reduces each buffer once: a few collectives and two copy kernels a
 * bucket instead of one collective a tensor.
 *
 * The layout (bucket_assign, on the CPU, exactly as follows). Walk the
 * tensors in order 0..nt-1 filling bucket 0, then 1, ... Inside a bucket a
 * tensor starts at the first multiple of BUCKET_ALIGN floats at or after
 * the end of the one before it (the first at the bucket's start). If the
 * bucket already holds a tensor and this one would end more than cap_bytes
 * past the bucket's start, close the bucket and start the next with this
 * tensor. A tensor alone in its bucket may exceed the cap. A closed bucket
 * is rounded up to a multiple of BUCKET_ALIGN floats; bucket b+1 starts
 * where bucket b ends. Zero-length tensors follow the same rule (they have
 * an offset and take no room). All positions are in floats from the start
 * of one flat buffer that holds every bucket.
 *
 * Outputs: the number of buckets nb (0 when nt == 0); first[0..nb]:
 * bucket b holds tensors first[b] .. first[b+1]-1 (first[nb] = nt);
 * offset[0..nt-1]: where tensor t starts in the flat buffer; start[0..nb]:
 * bucket b is flat[start[b] .. start[b+1]) (start[0] = 0, start[nb] the
 * buffer's length). The caller gives arrays of nt + 1 entries for first and
 * start, nt for offset.
 *
 * Example: BUCKET_ALIGN 64, cap 1024 bytes (256 floats), lengths 100, 10,
 * 200, 0: tensor 0 at 0; tensor 1 at 128 (ends at 138 <= 256); tensor 2
 * would start at 192 and end at 392 > 256: bucket 0 closes at 192, tensor 2
 * at 192 alone in bucket 1; tensor 3 (0 floats) would start at 192 + 256 =
 * 448, that is 256 into bucket 1, ending there (256 <= 256): it joins.
 * nb = 2, first = {0, 2, 4}, offset = {0, 128, 192, 448}, start = {0, 192, 448}. */
#ifndef BUCKET_H
#define BUCKET_H

#include <stddef.h>
#include <cuda_runtime_api.h>
#include <nccl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every tensor starts at a multiple of 64 floats (256 bytes) of the flat
 * buffer, and every bucket too. */
#define BUCKET_ALIGN 64

/* Yours (CPU): the layout above; returns nb. cap_bytes >= 4. */
int bucket_assign(const size_t *len, int nt, size_t cap_bytes, int *first, size_t *offset, size_t *start);

/* A rank's plan: the layout, the flat send and receive buffers (start[nb]
 * floats each, on the device current at creation) and whatever tables the
 * pack and unpack kernels need, built once and used every step (the tensors
 * must stay where they are). grads[t] and outs[t] are device pointers to
 * len[t] floats (any alignment, NULL allowed where len[t] == 0); the plan
 * keeps its own copy of what it needs from these host arrays. */
typedef struct bucket_plan bucket_plan; /* yours: whatever it needs to hold */

/* Yours. *out is NULL on any error. */
cudaError_t bucket_plan_create(const float *const *grads, float *const *outs, const size_t *len, int nt,
                               size_t cap_bytes, bucket_plan **out);
int   bucket_plan_buckets(const bucket_plan *p); /* nb */
float *bucket_plan_send(const bucket_plan *p);   /* the flat buffer pack writes */
float *bucket_plan_recv(const bucket_plan *p);   /* the flat buffer unpack reads */
void  bucket_plan_destroy(bucket_plan *p);

/* Yours: one kernel launch for all tensors of bucket b on stream s (none
 * when the bucket has no element). pack: send[offset[t] + i] = grads[t][i];
 * unpack: outs[t][i] = recv[offset[t] + i]. Padding is neither read nor
 * written by anything that matters. */
cudaError_t bucket_pack(const bucket_plan *p, int b, cudaStream_t s);
cudaError_t bucket_unpack(const bucket_plan *p, int b, cudaStream_t s);

/* Yours: the bucketed all-reduce (sum) of nranks ranks driven from this one
 * process (ncclCommInitAll: rank r's plan, communicator and stream are
 * plans[r], comms[r], streams[r], on rank r's device). Afterwards, on every
 * rank, outs[t] = the sum over ranks of grads[t]. Asynchronous: returns once
 * everything is enqueued. Every bucket is all-reduced out of place, send to
 * recv, so on one rank it is a real copy. A failed kernel launch is
 * ncclUnhandledCudaError; the device current at the call is current again
 * on return. */
ncclResult_t bucket_allreduce(int nranks, bucket_plan *const *plans, const ncclComm_t *comms,
                              const cudaStream_t *streams);

#ifdef __cplusplus
}
#endif
#endif
