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

//@solution
/* Seconds on a clock that never jumps (not the wall clock). */
static double mono_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec * 1e-9;
}

static void nap_1ms(void)
{
    struct timespec t = { 0, 1000000 };
    nanosleep(&t, NULL);
}
//@end

int rank_join(wb_rank *r, double timeout_s, rank_comm *c, char *msg, size_t n)
{
    memset(c, 0, sizeof *c);
    c->rank = r->rank, c->nranks = r->nranks, c->device = r->rank;
    msg[0] = 0;
    //@solution
    /* 1. this rank's GPU, or an error naming the counts (before any wait) */
    int ndev = 0;
    cudaError_t ce = cudaGetDeviceCount(&ndev);
    if (ce != cudaSuccess) {
        snprintf(msg, n, "rank %d of %d: cudaGetDeviceCount: %s", r->rank, r->nranks, cudaGetErrorString(ce));
        return 1;
    }
    if (r->rank >= ndev) {
        snprintf(msg, n, "rank %d of %d needs GPU %d, but this host has %d GPU%s: %d ranks need %d GPUs (one each)",
                 r->rank, r->nranks, r->rank, ndev, ndev == 1 ? "" : "s", r->nranks, r->nranks);
        return 1;
    }
    ce = cudaSetDevice(c->device);
    if (ce == cudaSuccess) ce = cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking);
    if (ce != cudaSuccess) {
        snprintf(msg, n, "rank %d of %d: device %d: %s", r->rank, r->nranks, c->device, cudaGetErrorString(ce));
        return 1;
    }

    /* 2. the unique id: made by rank 0, the same bytes everywhere */
    ncclUniqueId id;
    memset(&id, 0, sizeof id);
    if (r->rank == 0) {
        ncclResult_t res = ncclGetUniqueId(&id);
        if (res != ncclSuccess) {
            snprintf(msg, n, "rank 0 of %d: ncclGetUniqueId: %s", r->nranks, ncclGetErrorString(res));
            return 1;
        }
    }
    if (wb_rank_bcast(r, &id, sizeof id, timeout_s, msg, n) != 0) return 1;

    /* 3. init without blocking, watched against the clock */
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    const double deadline = mono_seconds() + timeout_s;
    ncclResult_t res = ncclCommInitRankConfig(&c->comm, r->nranks, id, r->rank, &config);
    while (res == ncclInProgress) {
        if (mono_seconds() > deadline) {
            snprintf(msg, n, "rank %d of %d: communicator init timed out after %g s: a peer never joined (it died, "
                     "or was never started)", r->rank, r->nranks, timeout_s);
            return 1; /* c->comm is aborted by rank_leave */
        }
        nap_1ms();
        ncclResult_t q = ncclCommGetAsyncError(c->comm, &res);
        if (q != ncclSuccess) res = q;
    }
    if (res == ncclRemoteError) { /* a peer's socket closed first: one that gave up (or died) before this rank did */
        snprintf(msg, n, "rank %d of %d: communicator init failed: a peer exited or its connection broke during init "
                 "(ncclCommInitRankConfig: %s; %s)", r->rank, r->nranks, ncclGetErrorString(res), ncclGetLastError(NULL));
        return 1;
    }
    if (res != ncclSuccess) {
        snprintf(msg, n, "rank %d of %d: ncclCommInitRankConfig: %s (%s)", r->rank, r->nranks,
                 ncclGetErrorString(res), ncclGetLastError(NULL));
        return 1;
    }
    c->joined = 1;
    return 0;
    //@starter
    //| /* TODO, in this order (ranks.h says what each message must say):
    //|  * 1. cudaGetDeviceCount; a rank >= the count is an error naming both
    //|  *    counts; else cudaSetDevice(c->device) and a stream in c->stream.
    //|  * 2. rank 0: ncclGetUniqueId(&id); every rank: wb_rank_bcast(r, &id,
    //|  *    sizeof id, timeout_s, msg, n).
    //|  * 3. ncclConfig_t config = NCCL_CONFIG_INITIALIZER; config.blocking = 0;
    //|  *    ncclCommInitRankConfig(&c->comm, r->nranks, id, r->rank, &config),
    //|  *    then poll ncclCommGetAsyncError(c->comm, &res) while it says
    //|  *    ncclInProgress, until timeout_s has passed ("timed out").
    //|  *    It may also end in ncclRemoteError ("a peer exited or its
    //|  *    connection broke"). Set c->joined when it finished with ncclSuccess. */
    //| (void)timeout_s;
    //| snprintf(msg, n, "rank %d of %d: rank_join is not written yet", r->rank, r->nranks);
    //| return 1;
    //@end
}

ncclResult_t rank_settle(rank_comm *c, ncclResult_t res, double timeout_s)
{
    //@solution
    const double deadline = mono_seconds() + timeout_s;
    while (res == ncclInProgress && mono_seconds() <= deadline) {
        nap_1ms();
        ncclResult_t q = ncclCommGetAsyncError(c->comm, &res);
        if (q != ncclSuccess) return q;
    }
    return res;
    //@starter
    //| /* TODO: while res is ncclInProgress and timeout_s has not passed:
    //|  * wait a millisecond, then ncclCommGetAsyncError(c->comm, &res). */
    //| (void)c, (void)timeout_s;
    //| return res;
    //@end
}

void rank_leave(rank_comm *c)
{
    //@solution
    if (c->comm) {
        if (c->joined && rank_settle(c, ncclCommFinalize(c->comm), 30) == ncclSuccess) ncclCommDestroy(c->comm);
        else ncclCommAbort(c->comm);
    }
    if (c->stream) cudaStreamDestroy(c->stream);
    //@starter
    //| /* TODO: a joined communicator: ncclCommFinalize (settled with
    //|  * rank_settle), then ncclCommDestroy; one that never joined, or whose
    //|  * finalize failed: ncclCommAbort. Then destroy c->stream. */
    //@end
    memset(c, 0, sizeof *c);
}
