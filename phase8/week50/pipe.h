/* pipe.h — week 50, exercise 2: pipeline-parallel schedules.
 *
 * A model cut into p stages, one a GPU; a batch cut into m micro-batches.
 * Stage s runs the forward of micro-batch i (F i) after stage s-1 has, and
 * the backward (B i) after stage s+1 has run B i and after its own F i.
 * Each stage works through its own list of 2m ops, one at a time, in order.
 * Two orders:
 *
 *   GPipe: every forward, then every backward:
 *          F0 F1 ... F(m-1) B0 B1 ... B(m-1).
 *   1F1B:  stage s first runs w = min(p-1-s, m) forwards (warm-up), then
 *          alternates one forward and one backward, F(w) B0 F(w+1) B1 ...,
 *          until the forwards are done, then the remaining backwards in
 *          order (cool-down). Stage p-1 has no warm-up: F0 B0 F1 B1 ...
 *
 * Both finish at the same time when the stages are equally fast; 1F1B keeps
 * at most min(p, m) micro-batches' activations alive on a stage (a forward
 * keeps them until its backward), GPipe m.
 *
 * Durations: stage s's forward takes fwd[s], its backward bwd[s] (any
 * unit). In the simulation an op starts as soon as the op before it on its
 * stage and the ops it depends on have ended; nothing else costs time. */
#ifndef PIPE_H
#define PIPE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { PIPE_GPIPE = 0, PIPE_1F1B = 1 };

/* One op: the forward (bwd = 0) or backward (bwd = 1) of micro-batch mb. */
typedef struct {
    int mb;
    int bwd;
} pipe_op;

/* A schedule of p stages and m micro-batches is p rows of 2m ops: row s,
 * order[s * 2m .. s * 2m + 2m), is stage s's list. start, end and stamps
 * use the same layout. */

/* Yours (CPU): stage s's list, 2m ops, for kind PIPE_GPIPE or PIPE_1F1B. */
void pipe_order(int kind, int p, int m, int s, pipe_op *ops);

/* Yours (CPU): the most activations one stage's list keeps alive at once:
 * the largest count, over its prefixes, of forwards run minus backwards run. */
int pipe_peak(const pipe_op *ops, int m);

/* Yours (CPU): simulate the schedule; start and end (p * 2m each) get each
 * op's times. Returns the makespan (the last end; 0 when m == 0), or -1
 * when an op's micro-batch is out of range or the lists can never finish
 * (an op waits for one that waits for it). */
double pipe_simulate(int p, int m, const pipe_op *order, const double *fwd, const double *bwd, double *start,
                     double *end);

/* Yours (CPU): the bubble fraction, the share of the stages' time spent
 * idle: 1 - (sum over s of m (fwd[s] + bwd[s])) / (p * makespan). With equal
 * stages it is (p - 1) / (m + p - 1) for both orders. */
double pipe_bubble(int p, int m, const double *fwd, const double *bwd, double makespan);

/* Given (support/pipe_work.cu): one op on the GPU, a single thread that
 * spins on the GPU's nanosecond clock (%globaltimer) for `us`
 * microseconds, launched on stream s (on the current device, which must be
 * s's), writing its start and end times in ns to stamp[0] and stamp[1]. */
cudaError_t pipe_work(double us, unsigned long long *stamp, cudaStream_t s);

/* Yours: run the schedule on the GPU(s). Stage s is stream streams[s] (on
 * whatever device that stream belongs to); op k of stage s is one pipe_work
 * of fwd_us[s] or bwd_us[s] microseconds on that stream, with its stamps at
 * stamps[s] + 2k (stamps[s] on stage s's device). Dependencies between
 * stages are events: an op waits (cudaStreamWaitEvent) for the events of
 * the ops it depends on, recorded after them on their streams. Issue the
 * ops so that every event is recorded before anything waits for it.
 * Asynchronous: returns once everything is enqueued (events may be
 * destroyed then: the waits already hold what they need). Invalid lists
 * (as pipe_simulate's -1) give cudaErrorInvalidValue and enqueue nothing
 * more. The device current at the call is current again on return. */
cudaError_t pipe_run(int p, int m, const pipe_op *order, const double *fwd_us, const double *bwd_us,
                     const cudaStream_t *streams, unsigned long long *const *stamps);

#ifdef __cplusplus
}
#endif
#endif
