/* ranks.cu — week 47, exercise 2: one rank of a communicator in its own
 * process (see ranks.h).
 *
 * Everything here is about not waiting for ever. A blocking
 * ncclCommInitRank whose peer died waits with no end; the nonblocking form
 * gives control back at once, so the rank can watch a clock while NCCL
 * connects, and give up (abort) when a peer never comes. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "ranks.h"


int rank_join(wb_rank *r, double timeout_s, rank_comm *c, char *msg, size_t n)
{
    memset(c, 0, sizeof *c);
    c->rank = r->rank, c->nranks = r->nranks, c->device = r->rank;
    msg[0] = 0;
    /* TODO, in this order (ranks.h says what each message must say):
     * 1. cudaGetDeviceCount; a rank >= the count is an error naming both
     *    counts; else cudaSetDevice(c->device) and a stream in c->stream.
     * 2. rank 0: ncclGetUniqueId(&id); every rank: wb_rank_bcast(r, &id,
     *    sizeof id, timeout_s, msg, n).
     * 3. ncclConfig_t config = NCCL_CONFIG_INITIALIZER; config.blocking = 0;
     *    ncclCommInitRankConfig(&c->comm, r->nranks, id, r->rank, &config),
     *    then poll ncclCommGetAsyncError(c->comm, &res) while it says
     *    ncclInProgress, until timeout_s has passed ("timed out").
     *    It may also end in ncclRemoteError ("a peer exited or its
     *    connection broke"). Set c->joined when it finished with ncclSuccess. */
    (void)timeout_s;
    snprintf(msg, n, "rank %d of %d: rank_join is not written yet", r->rank, r->nranks);
    return 1;
}

ncclResult_t rank_settle(rank_comm *c, ncclResult_t res, double timeout_s)
{
    /* TODO: while res is ncclInProgress and timeout_s has not passed:
     * wait a millisecond, then ncclCommGetAsyncError(c->comm, &res). */
    (void)c, (void)timeout_s;
    return res;
}

void rank_leave(rank_comm *c)
{
    /* TODO: a joined communicator: ncclCommFinalize (settled with
     * rank_settle), then ncclCommDestroy; one that never joined, or whose
     * finalize failed: ncclCommAbort. Then destroy c->stream. */
    memset(c, 0, sizeof *c);
}
