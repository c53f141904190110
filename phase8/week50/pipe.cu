/* pipe.cu — week 50, exercise 2: GPipe and 1F1B, simulated on the CPU and
 * run on streams (one a stage) with events for the dependencies, or across
 * GPUs with the activations and gradients sent through NCCL.
 *
 * The simulator and the runs share one idea: an op can go once the op
 * before it on its stage and the ops it depends on have gone. The simulator
 * turns that into times; the runs turn it into an issue order, so that
 * every event an op waits for has been recorded before the wait is
 * enqueued (a wait on an event never recorded does not wait at all). */
#include <stdlib.h>
#include "pipe.h"

void pipe_order(int kind, int p, int m, int s, pipe_op *ops)
{
    /* TODO: fill ops[0 .. 2m): GPipe, the m forwards then the m backwards;
     * 1F1B, w = min(p-1-s, m) forwards, then (forward, backward) pairs
     * while forwards remain, then the remaining backwards (pipe.h). */
    (void)kind, (void)p, (void)m, (void)s, (void)ops;
}

int pipe_peak(const pipe_op *ops, int m)
{
    /* TODO: walk the 2m ops: +1 a forward, -1 a backward; the largest count. */
    (void)ops, (void)m;
    return 0;
}


double pipe_simulate(int p, int m, const pipe_op *order, const double *fwd, const double *bwd, double *start,
                     double *end)
{
    /* TODO: keep, for each stage, the index of its next op and when it is
     * free, and for each (stage, F/B, micro-batch) when it ended (or "not
     * yet"). Sweep the stages again and again, running each stage's next
     * op as long as what it depends on has ended: it starts at the latest
     * of those ends and of its stage's free time. Stop when all ran (the
     * makespan) or a sweep ran nothing (-1). */
    (void)p, (void)m, (void)order, (void)fwd, (void)bwd, (void)start, (void)end;
    return 0;
}

double pipe_bubble(int p, int m, const double *fwd, const double *bwd, double makespan)
{
    /* TODO: 1 - busy time of all stages / (p * makespan). */
    (void)p, (void)m, (void)fwd, (void)bwd, (void)makespan;
    return 0;
}

cudaError_t pipe_run(int p, int m, const pipe_op *order, const double *fwd_us, const double *bwd_us,
                     const cudaStream_t *streams, unsigned long long *const *stamps)
{
    /* TODO: as pipe_simulate, but instead of computing times, issue: sweep
     * the stages, and for each stage issue its next op as long as the
     * events of the ops it depends on exist (they were issued): on the
     * stage's device (cudaStreamGetDevice, cudaSetDevice), wait on those
     * events (cudaStreamWaitEvent), pipe_work(...) with stamps[s] + 2k,
     * then record a new event (cudaEventCreateWithFlags, DisableTiming)
     * for this op. A sweep that issues nothing: cudaErrorInvalidValue.
     * Destroy the events at the end; restore the caller's device. */
    (void)p, (void)m, (void)order, (void)fwd_us, (void)bwd_us, (void)streams, (void)stamps;
    return cudaSuccess;
}

ncclResult_t pipe_run_p2p(int p, int m, const pipe_op *order, const double *fwd_us, const double *bwd_us,
                          const cudaStream_t *streams, unsigned long long *const *stamps, const pipe_links *L,
                          const pipe_data *d)
{
    /* TODO: pipe_run's sweep (a stage issues its next op once the ops it
     * depends on were issued), with data, and NCCL for the links:
     *  - op k of stage s: on GPU L->dev[s], pipe_work_data(...) on
     *    streams[s] with stamps[s] + 2k and the buffers pipe_data names
     *    (F i: act_in -> act_out; B i: grad_in, or act_out on the last
     *    stage, -> grad_out), after a cudaStreamWaitEvent on the arrival
     *    of its input from the other stage (F i of s-1, B i of s+1);
     *  - then, when another stage reads the output (F on s < p-1, B on
     *    s > 0): an event recorded on streams[s] that the sending end's
     *    stream waits for; ncclGroupStart(), ncclSend on the sending end's
     *    communicator and stream, ncclRecv on the receiving end's (the
     *    peer is the other end's rank: 0 or 1), ncclGroupEnd(); an event
     *    created on the receiving GPU and recorded on the receiving end's
     *    stream: the arrival the reading op waits for.
     * pipe.h says which communicator and end is which. Refuse bad
     * arguments and lists (ncclInvalidArgument); a failed CUDA call is
     * ncclUnhandledCudaError. Destroy your events at the end and put the
     * caller's device back. */
    (void)p, (void)m, (void)order, (void)fwd_us, (void)bwd_us, (void)streams, (void)stamps, (void)L, (void)d;
    return ncclSuccess;
}
