/* ranks.h — week 47, exercise 2: one process per GPU.
 *
 * The workbook's launcher (phase8/common/wb_launch.h) forks one process
 * per rank on this host; MPI's mpirun does the same across hosts. Either
 * way each process is one rank and must
 *   1. take its own GPU: device = rank (a host with fewer GPUs than ranks
 *      is an error that names both counts, found before anything waits);
 *   2. get the communicator's unique id: rank 0 makes it (ncclGetUniqueId)
 *      and every rank receives it (wb_rank_bcast here; MPI_Bcast under MPI);
 *   3. join the communicator (ncclCommInitRankConfig) within a deadline: a
 *      peer that died or was never started must not hang the others.
 *
 * rank_join does the three. It uses a nonblocking communicator (config
 * .blocking = 0): init returns at once with ncclInProgress and goes on in
 * the background, and ncclCommGetAsyncError says when it is done. After a
 * failure *c is still ready for rank_leave, which aborts a communicator
 * that never finished. On failure msg (n bytes) says what went wrong:
 *   - too few GPUs: "... this host has M GPU(s): N ranks need N GPUs ..."
 *     with the real M and N;
 *   - the deadline passed during init: it contains "timed out", the rank,
 *     the rank count and the seconds waited;
 *   - init ended in ncclRemoteError (NCCL saw a peer's connection close: a
 *     peer that died, or that gave up on its own deadline first): it
 *     contains "a peer exited or its connection broke", the rank and the
 *     rank count, and NCCL's error string;
 *   - any other NCCL or CUDA error: the call and its error string.
 *
 * A nonblocking communicator may answer ncclInProgress to any later call
 * too (a collective, ncclCommFinalize): rank_settle(c, call(...), t) waits
 * until the answer is final. */
#ifndef RANKS_H
#define RANKS_H

#include <stddef.h>
#include <cuda_runtime_api.h>
#include <nccl.h>
#include "wb_launch.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int          rank, nranks, device;
    ncclComm_t   comm;    /* NULL until ncclCommInitRankConfig made one */
    cudaStream_t stream;  /* on `device`, for this rank's collectives */
    int          joined;  /* init finished: comm is usable */
} rank_comm;

/* Steps 1-3 above for the rank r, waiting at most timeout_s for rank 0's
 * id and at most timeout_s for init. 0 when joined; non-zero with msg. */
int rank_join(wb_rank *r, double timeout_s, rank_comm *c, char *msg, size_t n);

/* res is the result of a call on c->comm. While it is ncclInProgress, poll
 * ncclCommGetAsyncError(c->comm) (at most timeout_s); return the final
 * result (ncclInProgress if the time ran out). */
ncclResult_t rank_settle(rank_comm *c, ncclResult_t res, double timeout_s);

/* Leaves in order whatever rank_join left: a joined communicator is
 * finalized (ncclCommFinalize, settled) and destroyed; one that never
 * joined, or does not finalize, is aborted (ncclCommAbort). Then the
 * stream. *c becomes empty. */
void rank_leave(rank_comm *c);

#ifdef __cplusplus
}
#endif
#endif
