/* collectives.h — week 47, exercise 1: NCCL's three collectives from one
 * process that drives every GPU.
 *
 * A coll_world holds one communicator per device (ncclCommInitAll: rank d
 * is device d) and one stream per device. Each collective takes an array
 * of buffers, one per rank, buffer d on device d, and enqueues the
 * operation on every rank's stream inside one group (ncclGroupStart/End):
 * one thread driving several ranks must issue them as a group, or the
 * first rank would wait for the others before they are even asked.
 * Nothing waits for the GPUs until coll_wait.
 *
 *   all-reduce      recv[d][i] = op over ranks q of send[q][i], i < count
 *   reduce-scatter  recv[d][i] = op over q of send[q][d * recvcount + i],
 *                   i < recvcount (send holds ndev * recvcount elements)
 *   all-gather      recv[d][q * sendcount + i] = send[q][i], i < sendcount
 *                   (recv holds ndev * sendcount elements)
 *
 * In place, as NCCL defines it: all-reduce with recv[d] == send[d];
 * reduce-scatter with recv[d] == send[d] + d * recvcount; all-gather with
 * send[d] == recv[d] + d * sendcount. A count of 0 does nothing and
 * succeeds.
 *
 * The shard arithmetic (CPU): to split `count` elements over k ranks for a
 * reduce-scatter, whose chunks must be equal, pad count up to k chunks of
 * coll_chunk(count, k) = ceil(count / k) elements; rank r owns
 * [r * chunk, r * chunk + len) of the real data, len = the part of its
 * chunk below count (0 for the last ranks when count is small). */
#ifndef COLLECTIVES_H
#define COLLECTIVES_H

#include <stddef.h>
#include <cuda_runtime_api.h>
#include <nccl.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { COLL_MAX_DEV = 16 };

typedef struct {
    int          ndev;                  /* ranks: devices 0 .. ndev-1 */
    ncclComm_t   comm[COLL_MAX_DEV];    /* comm[d]: rank d of ndev, on device d */
    cudaStream_t stream[COLL_MAX_DEV];  /* stream[d]: made on device d */
} coll_world;

/* Communicators over devices 0..ndev-1 (1 <= ndev <= COLL_MAX_DEV) and a
 * stream on each. On failure *w is left with ndev = 0 and nothing to free. */
ncclResult_t coll_init(coll_world *w, int ndev);
/* Destroys the communicators and streams; *w becomes empty. */
void coll_destroy(coll_world *w);

ncclResult_t coll_allreduce(coll_world *w, const void *const *send, void *const *recv, size_t count,
                            ncclDataType_t type, ncclRedOp_t op);
ncclResult_t coll_reducescatter(coll_world *w, const void *const *send, void *const *recv, size_t recvcount,
                                ncclDataType_t type, ncclRedOp_t op);
ncclResult_t coll_allgather(coll_world *w, const void *const *send, void *const *recv, size_t sendcount,
                            ncclDataType_t type);
/* Waits for every rank's stream; ncclUnhandledCudaError if one failed, or
 * the first asynchronous error a communicator reports. */
ncclResult_t coll_wait(coll_world *w);

/* CPU: the chunk each of k ranks gets when count is padded to k equal
 * chunks (ceil(count / k); 0 for count 0), and rank r's shard of the real
 * data: *off = r * chunk (at most count), *len = elements of
 * [off, off + chunk) below count. k >= 1, 0 <= r < k. */
size_t coll_chunk(size_t count, int k);
void coll_shard(size_t count, int k, int r, size_t *off, size_t *len);

#ifdef __cplusplus
}
#endif
#endif
