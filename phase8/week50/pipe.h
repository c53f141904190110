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
 * stage and the ops it depends on have ended; nothing else costs time.
 *
 * Two runs on the GPU. pipe_run: the stages are streams, of one GPU or
 * several, and a dependency between stages is an event and nothing more
 * (no data moves). pipe_run_p2p: stage s on GPU s of a pipe_links, and a
 * dependency between stages is data, carried by NCCL: after F i, stage s
 * sends its activation to stage s+1 (ncclSend on s, ncclRecv on s+1, the
 * two in one group); after B i, stage s sends its gradient to stage s-1. */
#ifndef PIPE_H
#define PIPE_H

#include <stddef.h>
#include <cuda_runtime_api.h>
#include <nccl.h>

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

/* ---- across GPUs, the links through NCCL ---- */

enum { PIPE_MAX_STAGES = 8 }; /* stages of a pipe_links: one a GPU, up to 8 */

/* Given (support/pipe_links.cu): the links of a pipeline whose stage s runs
 * on GPU dev[s] (p different GPUs). Link s joins stage s and stage s+1
 * (s = 0 .. p-2) with two communicators of two ranks each, one a direction,
 * rank 0 on stage s's GPU and rank 1 on stage s+1's:
 *
 *   fwd[s][0], fwd[s][1]   activations, stage s (rank 0) sends, s+1 (rank 1) receives
 *   bwd[s][0], bwd[s][1]   gradients, stage s+1 (rank 1) sends, s (rank 0) receives
 *
 * and a stream for each of those four ends, on that end's GPU
 * (fwd_st[s][e] for fwd[s][e], bwd_st[s][e] for bwd[s][e]).
 *
 * Why so many: NCCL runs the operations of one communicator rank one after
 * the other, in the order they were issued, whatever streams they were
 * given. With one communicator for the whole pipeline, stage 1's send of F0
 * would wait behind its receive of F7 whenever stage 0's forwards were
 * issued first. With one a link and direction, each carries one stage's
 * sends in the order that stage runs them (F0, F1, ... or B0, B1, ...),
 * which is also the order in which their data is ready. And with the
 * transfers on streams of their own, a receive posted early waits on its
 * link's stream, never on the stage's compute stream. */
typedef struct {
    int          p;
    int          dev[PIPE_MAX_STAGES];
    ncclComm_t   fwd[PIPE_MAX_STAGES][2], bwd[PIPE_MAX_STAGES][2];
    cudaStream_t fwd_st[PIPE_MAX_STAGES][2], bwd_st[PIPE_MAX_STAGES][2];
} pipe_links;

/* Given: makes the 2(p-1) communicators (ncclCommInitAll over the two GPUs
 * of each link) and their streams. 1 <= p <= PIPE_MAX_STAGES. On failure
 * nothing is left to free. The current device is kept. */
ncclResult_t pipe_links_create(int p, const int *dev, pipe_links *L);
void pipe_links_destroy(pipe_links *L);

/* A run's data, made by the caller: for stage s and micro-batch i, index
 * [s * m + i], a buffer of n floats on stage s's GPU:
 *
 *   act_in    F i's input: on stage 0 the micro-batch (filled by the
 *             caller), on stage s > 0 what stage s-1 sent
 *   act_out   F i's output: sent to stage s+1; on the last stage, B i's input
 *   grad_in   B i's input on stages s < p-1: what stage s+1 sent
 *   grad_out  B i's output: sent to stage s-1; on stage 0, the result
 *
 * One buffer a micro-batch, so that nothing is overwritten while a send
 * still reads it. */
typedef struct {
    size_t n;
    float *const *act_in, *const *act_out, *const *grad_in, *const *grad_out;
} pipe_data;

/* What an op of stage s adds to every element it passes on: the forward
 * s + 1, the backward 1000 (s + 1), so each stage's mark is in the result. */
static inline float pipe_add(int s, int bwd) { return bwd ? 1000.0f * (float)(s + 1) : (float)(s + 1); }

/* Given (support/pipe_work.cu): an op that carries data. Spins `us`
 * microseconds like pipe_work (stamps the same), then writes
 * out[j] = in[j] + pipe_add(s, op.bwd) for j < n; the end stamp is taken
 * after the writes. One block, on stream st (the current device's). */
cudaError_t pipe_work_data(double us, unsigned long long *stamp, int s, pipe_op op, const float *in, float *out,
                           size_t n, cudaStream_t st);

/* Yours: the schedule of p stages on the p GPUs of L (p == L->p), stage s
 * on streams[s] (a stream of GPU L->dev[s], the stage's compute stream),
 * op k of stage s one pipe_work_data of fwd_us[s] or bwd_us[s]
 * microseconds with its stamps at stamps[s] + 2k, reading and writing d's
 * buffers as pipe_data says. The links are NCCL's point-to-point calls:
 *
 *   after F i on stage s < p-1: act_out[s][i] to act_in[s+1][i] over fwd[s]
 *   after B i on stage s > 0:   grad_out[s][i] to grad_in[s-1][i] over bwd[s-1]
 *
 * each an ncclSend on the sending end and the matching ncclRecv on the
 * receiving end, between one ncclGroupStart and ncclGroupEnd (one thread
 * drives both ranks), on the ends' streams: the send's stream waits for an
 * event recorded after the op that wrote the data, and the op that reads
 * it waits (its compute stream) for an event recorded after the receive.
 * Issue in the order pipe_run does (an op once what it depends on was
 * issued), so that every event exists before anything waits for it.
 * Asynchronous; the caller's device is current again on return.
 * ncclInvalidArgument for an invalid list (as pipe_simulate's -1; nothing
 * more is enqueued), a p that is not L's, or a missing buffer array;
 * ncclUnhandledCudaError when a CUDA call fails. */
ncclResult_t pipe_run_p2p(int p, int m, const pipe_op *order, const double *fwd_us, const double *bwd_us,
                          const cudaStream_t *streams, unsigned long long *const *stamps, const pipe_links *L,
                          const pipe_data *d);

#ifdef __cplusplus
}
#endif
#endif
