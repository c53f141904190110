/* alltoall.h — week 48, exercise 4: an all-to-all made of point-to-point
 * operations.
 *
 * n ranks in one process, rank r on communicator comm[r] (rank r of n) and
 * stream stream[r] of its device. Rank r's send buffer holds n blocks of
 * `count` elements, one for each rank; block q goes to rank q, where it
 * lands as block r of q's receive buffer:
 *
 *   recv[q][r * count + i] = send[r][q * count + i],   i < count
 *
 * so block r of rank r stays home (a copy). This is the exchange of expert
 * parallelism (each GPU sends the tokens routed to each expert to that
 * expert's GPU) and of a distributed transpose. NCCL has no all-to-all
 * call: it is n sends and n receives a rank, ncclSend(block q, peer q) and
 * ncclRecv(block q, peer q) for every q, all 2 n^2 of them between one
 * ncclGroupStart and one ncclGroupEnd, so that NCCL sees them together and
 * every pair can move at once (and so that one thread, driving every
 * rank, never waits for a rank it has not asked yet).
 *
 * Out of place only: send[r] and recv[r] must not overlap. A count of 0
 * does nothing and succeeds. Asynchronous: everything is enqueued on
 * stream[r], nothing waited for. Bus bandwidth (busbw.h): S = n * count *
 * the element size (a rank's whole send buffer), busbw = S / t * (n - 1) / n:
 * a rank keeps one block of n and sends the rest. */
#ifndef ALLTOALL_H
#define ALLTOALL_H

#include <stddef.h>
#include <cuda_runtime_api.h>
#include <nccl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The all-to-all above over n >= 1 ranks; ncclInvalidArgument for n < 1, a
 * null array or a type whose size it does not know; otherwise the first
 * error NCCL gives, with the group always ended. */
ncclResult_t alltoall_run(int n, const ncclComm_t *comm, const cudaStream_t *stream, const void *const *send,
                          void *const *recv, size_t count, ncclDataType_t type);

#ifdef __cplusplus
}
#endif
#endif
