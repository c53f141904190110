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
    //@solution
    int k = 0;
    if (kind == PIPE_GPIPE) {
        for (int i = 0; i < m; i++) ops[k++] = (pipe_op){ i, 0 };
        for (int i = 0; i < m; i++) ops[k++] = (pipe_op){ i, 1 };
        return;
    }
    int w = p - 1 - s < m ? p - 1 - s : m, f = 0, b = 0;
    while (f < w) ops[k++] = (pipe_op){ f++, 0 };
    while (f < m) ops[k++] = (pipe_op){ f++, 0 }, ops[k++] = (pipe_op){ b++, 1 };
    while (b < m) ops[k++] = (pipe_op){ b++, 1 };
    //@starter
    //| /* TODO: fill ops[0 .. 2m): GPipe, the m forwards then the m backwards;
    //|  * 1F1B, w = min(p-1-s, m) forwards, then (forward, backward) pairs
    //|  * while forwards remain, then the remaining backwards (pipe.h). */
    //| (void)kind, (void)p, (void)m, (void)s, (void)ops;
    //@end
}

int pipe_peak(const pipe_op *ops, int m)
{
    //@solution
    int live = 0, peak = 0;
    for (int k = 0; k < 2 * m; k++) {
        live += ops[k].bwd ? -1 : 1;
        if (live > peak) peak = live;
    }
    return peak;
    //@starter
    //| /* TODO: walk the 2m ops: +1 a forward, -1 a backward; the largest count. */
    //| (void)ops, (void)m;
    //| return 0;
    //@end
}

//@solution
/* What op (s, op) waits for besides its stage's previous op: its "done"
 * slots in a table of p x m forwards then p x m backwards. */
static int dep_a(int p, int m, int s, pipe_op op)
{
    if (!op.bwd) return s > 0 ? (s - 1) * m + op.mb : -1;   /* F i of stage s-1 */
    return s * m + op.mb;                                   /* its own F i */
}
static int dep_b(int p, int m, int s, pipe_op op)
{
    return op.bwd && s < p - 1 ? p * m + (s + 1) * m + op.mb : -1; /* B i of stage s+1 */
}
static int slot(int p, int m, int s, pipe_op op) { return op.bwd * p * m + s * m + op.mb; }
//@end

double pipe_simulate(int p, int m, const pipe_op *order, const double *fwd, const double *bwd, double *start,
                     double *end)
{
    //@solution
    if (p <= 0 || m <= 0) return m == 0 && p > 0 ? 0 : -1;
    int n = 2 * m;
    for (int k = 0; k < p * n; k++)
        if (order[k].mb < 0 || order[k].mb >= m || (order[k].bwd != 0 && order[k].bwd != 1)) return -1;
    double *done = (double *)malloc((size_t)2 * p * m * sizeof *done); /* end time, -1 while not run */
    double *free_at = (double *)calloc((size_t)p, sizeof *free_at);
    int *next = (int *)calloc((size_t)p, sizeof *next);
    double makespan = -1;
    if (done && free_at && next) {
        for (int k = 0; k < 2 * p * m; k++) done[k] = -1;
        int left = p * n, progress = 1;
        while (left && progress) {
            progress = 0;
            for (int s = 0; s < p; s++)
                while (next[s] < n) {
                    pipe_op op = order[s * n + next[s]];
                    int a = dep_a(p, m, s, op), b = dep_b(p, m, s, op);
                    if ((a >= 0 && done[a] < 0) || (b >= 0 && done[b] < 0)) break;
                    double t = free_at[s];
                    if (a >= 0 && done[a] > t) t = done[a];
                    if (b >= 0 && done[b] > t) t = done[b];
                    int k = s * n + next[s];
                    start[k] = t;
                    end[k] = t + (op.bwd ? bwd[s] : fwd[s]);
                    free_at[s] = end[k];
                    done[slot(p, m, s, op)] = end[k];
                    next[s]++, left--, progress = 1;
                }
        }
        if (!left) {
            makespan = 0;
            for (int s = 0; s < p; s++)
                if (free_at[s] > makespan) makespan = free_at[s];
        }
    }
    free(done), free(free_at), free(next);
    return makespan;
    //@starter
    //| /* TODO: keep, for each stage, the index of its next op and when it is
    //|  * free, and for each (stage, F/B, micro-batch) when it ended (or "not
    //|  * yet"). Sweep the stages again and again, running each stage's next
    //|  * op as long as what it depends on has ended: it starts at the latest
    //|  * of those ends and of its stage's free time. Stop when all ran (the
    //|  * makespan) or a sweep ran nothing (-1). */
    //| (void)p, (void)m, (void)order, (void)fwd, (void)bwd, (void)start, (void)end;
    //| return 0;
    //@end
}

double pipe_bubble(int p, int m, const double *fwd, const double *bwd, double makespan)
{
    //@solution
    double busy = 0;
    for (int s = 0; s < p; s++) busy += m * (fwd[s] + bwd[s]);
    return 1 - busy / (p * makespan);
    //@starter
    //| /* TODO: 1 - busy time of all stages / (p * makespan). */
    //| (void)p, (void)m, (void)fwd, (void)bwd, (void)makespan;
    //| return 0;
    //@end
}

cudaError_t pipe_run(int p, int m, const pipe_op *order, const double *fwd_us, const double *bwd_us,
                     const cudaStream_t *streams, unsigned long long *const *stamps)
{
    //@solution
    if (p <= 0 || m < 0) return cudaErrorInvalidValue;
    int n = 2 * m, dev0 = 0;
    for (int k = 0; k < p * n; k++)
        if (order[k].mb < 0 || order[k].mb >= m || (order[k].bwd != 0 && order[k].bwd != 1))
            return cudaErrorInvalidValue;
    cudaError_t e = cudaGetDevice(&dev0);
    if (e != cudaSuccess) return e;
    cudaEvent_t *ev = (cudaEvent_t *)calloc((size_t)2 * p * m + 1, sizeof *ev); /* by slot; NULL: not issued */
    int *next = (int *)calloc((size_t)p, sizeof *next);
    if (!ev || !next) e = cudaErrorMemoryAllocation;
    int left = p * n, progress = 1;
    while (e == cudaSuccess && left && progress) {
        progress = 0;
        for (int s = 0; e == cudaSuccess && s < p; s++) {
            int dev = 0;
            e = cudaStreamGetDevice(streams[s], &dev);
            if (e == cudaSuccess) e = cudaSetDevice(dev);
            while (e == cudaSuccess && next[s] < n) {
                int k = next[s];
                const pipe_op op = order[(size_t)s * n + k];
                int a = dep_a(p, m, s, op), b = dep_b(p, m, s, op);
                if ((a >= 0 && !ev[a]) || (b >= 0 && !ev[b])) break;
                /* its own stage's forward is already earlier on this stream */
                if (a >= 0 && op.bwd == 0) e = cudaStreamWaitEvent(streams[s], ev[a], 0);
                if (e == cudaSuccess && b >= 0) e = cudaStreamWaitEvent(streams[s], ev[b], 0);
                if (e == cudaSuccess) e = pipe_work(op.bwd ? bwd_us[s] : fwd_us[s], stamps[s] + 2 * k, streams[s]);
                cudaEvent_t done = NULL;
                if (e == cudaSuccess) e = cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
                if (e == cudaSuccess) e = cudaEventRecord(done, streams[s]);
                if (done) {
                    int sl = slot(p, m, s, op);
                    if (ev[sl]) cudaEventDestroy(ev[sl]); /* cannot happen in a valid list */
                    ev[sl] = done;
                }
                if (e == cudaSuccess) next[s]++, left--, progress = 1;
            }
        }
    }
    if (e == cudaSuccess && left) e = cudaErrorInvalidValue; /* the lists can never finish */
    for (int k = 0; ev && k < 2 * p * m; k++)
        if (ev[k]) cudaEventDestroy(ev[k]);
    free(ev), free(next);
    cudaError_t e2 = cudaSetDevice(dev0);
    return e == cudaSuccess ? e2 : e;
    //@starter
    //| /* TODO: as pipe_simulate, but instead of computing times, issue: sweep
    //|  * the stages, and for each stage issue its next op as long as the
    //|  * events of the ops it depends on exist (they were issued): on the
    //|  * stage's device (cudaStreamGetDevice, cudaSetDevice), wait on those
    //|  * events (cudaStreamWaitEvent), pipe_work(...) with stamps[s] + 2k,
    //|  * then record a new event (cudaEventCreateWithFlags, DisableTiming)
    //|  * for this op. A sweep that issues nothing: cudaErrorInvalidValue.
    //|  * Destroy the events at the end; restore the caller's device. */
    //| (void)p, (void)m, (void)order, (void)fwd_us, (void)bwd_us, (void)streams, (void)stamps;
    //| return cudaSuccess;
    //@end
}

ncclResult_t pipe_run_p2p(int p, int m, const pipe_op *order, const double *fwd_us, const double *bwd_us,
                          const cudaStream_t *streams, unsigned long long *const *stamps, const pipe_links *L,
                          const pipe_data *d)
{
    //@solution
    if (p <= 0 || m < 0 || !L || L->p != p || !d || !d->act_in || !d->act_out || !d->grad_in || !d->grad_out)
        return ncclInvalidArgument;
    int n = 2 * m, dev0 = 0;
    for (int k = 0; k < p * n; k++)
        if (order[k].mb < 0 || order[k].mb >= m || (order[k].bwd != 0 && order[k].bwd != 1))
            return ncclInvalidArgument;
    if (cudaGetDevice(&dev0) != cudaSuccess) return ncclUnhandledCudaError;
    /* by slot: issued[] once the op is enqueued; arrived[] for an op whose
     * output another stage reads, the event after its receive there */
    char *issued = (char *)calloc((size_t)2 * p * m + 1, 1);
    cudaEvent_t *arrived = (cudaEvent_t *)calloc((size_t)2 * p * m + 1, sizeof *arrived);
    int *next = (int *)calloc((size_t)p, sizeof *next);
    cudaError_t e = issued && arrived && next ? cudaSuccess : cudaErrorMemoryAllocation;
    ncclResult_t r = ncclSuccess;
    int left = p * n, progress = 1;
    while (e == cudaSuccess && r == ncclSuccess && left && progress) {
        progress = 0;
        for (int s = 0; e == cudaSuccess && r == ncclSuccess && s < p; s++) {
            e = cudaSetDevice(L->dev[s]);
            while (e == cudaSuccess && r == ncclSuccess && next[s] < n) {
                int k = next[s];
                const pipe_op op = order[(size_t)s * n + k];
                int a = dep_a(p, m, s, op), b = dep_b(p, m, s, op);
                if ((a >= 0 && !issued[a]) || (b >= 0 && !issued[b])) break;
                /* its input from another stage (F i of s-1, B i of s+1) is
                 * there once that stage's send has been received here; its
                 * own F i (a backward's a) is earlier on this stream */
                int far = op.bwd ? b : a;
                if (far >= 0) e = cudaStreamWaitEvent(streams[s], arrived[far], 0);
                size_t at = (size_t)s * m + op.mb;
                const float *in = !op.bwd ? d->act_in[at] : s == p - 1 ? d->act_out[at] : d->grad_in[at];
                float *out = op.bwd ? d->grad_out[at] : d->act_out[at];
                if (e == cudaSuccess)
                    e = pipe_work_data(op.bwd ? bwd_us[s] : fwd_us[s], stamps[s] + 2 * k, s, op, in, out, d->n,
                                       streams[s]);
                int to = op.bwd ? s - 1 : s + 1; /* the stage that reads out, if there is one */
                if (e == cudaSuccess && to >= 0 && to < p) {
                    int lk = op.bwd ? s - 1 : s;     /* link lk joins stages lk and lk + 1 */
                    int se = op.bwd ? 1 : 0, re = 1 - se; /* the sending end (its rank), the receiving end */
                    const ncclComm_t *c = op.bwd ? L->bwd[lk] : L->fwd[lk];
                    const cudaStream_t *cs = op.bwd ? L->bwd_st[lk] : L->fwd_st[lk];
                    float *dst = op.bwd ? d->grad_in[(size_t)to * m + op.mb] : d->act_in[(size_t)to * m + op.mb];
                    cudaEvent_t wrote = NULL, got = NULL;
                    /* the send starts once the op has written out */
                    e = cudaEventCreateWithFlags(&wrote, cudaEventDisableTiming);
                    if (e == cudaSuccess) e = cudaEventRecord(wrote, streams[s]);
                    if (e == cudaSuccess) e = cudaStreamWaitEvent(cs[se], wrote, 0);
                    if (wrote) cudaEventDestroy(wrote); /* the wait holds what it needs */
                    /* one thread drives both ends: the pair in one group */
                    if (e == cudaSuccess) r = ncclGroupStart();
                    if (e == cudaSuccess && r == ncclSuccess) {
                        ncclResult_t in_group = ncclSend(out, d->n, ncclFloat, re, c[se], cs[se]);
                        if (in_group == ncclSuccess) in_group = ncclRecv(dst, d->n, ncclFloat, se, c[re], cs[re]);
                        r = ncclGroupEnd(); /* ended whatever happened inside */
                        if (in_group != ncclSuccess) r = in_group;
                    }
                    /* the arrival, on the receiving end's GPU and stream */
                    if (e == cudaSuccess && r == ncclSuccess) e = cudaSetDevice(L->dev[to]);
                    if (e == cudaSuccess && r == ncclSuccess) e = cudaEventCreateWithFlags(&got, cudaEventDisableTiming);
                    if (e == cudaSuccess && r == ncclSuccess) e = cudaEventRecord(got, cs[re]);
                    if (got) arrived[slot(p, m, s, op)] = got;
                    if (e == cudaSuccess) e = cudaSetDevice(L->dev[s]);
                }
                if (e == cudaSuccess && r == ncclSuccess) issued[slot(p, m, s, op)] = 1, next[s]++, left--, progress = 1;
            }
        }
    }
    for (int k = 0; arrived && k < 2 * p * m; k++)
        if (arrived[k]) cudaEventDestroy(arrived[k]);
    free(issued), free(arrived), free(next);
    cudaError_t e2 = cudaSetDevice(dev0);
    if (r != ncclSuccess) return r;
    if (e != cudaSuccess || e2 != cudaSuccess) return ncclUnhandledCudaError;
    return left ? ncclInvalidArgument : ncclSuccess; /* left: the lists can never finish */
    //@starter
    //| /* TODO: pipe_run's sweep (a stage issues its next op once the ops it
    //|  * depends on were issued), with data, and NCCL for the links:
    //|  *  - op k of stage s: on GPU L->dev[s], pipe_work_data(...) on
    //|  *    streams[s] with stamps[s] + 2k and the buffers pipe_data names
    //|  *    (F i: act_in -> act_out; B i: grad_in, or act_out on the last
    //|  *    stage, -> grad_out), after a cudaStreamWaitEvent on the arrival
    //|  *    of its input from the other stage (F i of s-1, B i of s+1);
    //|  *  - then, when another stage reads the output (F on s < p-1, B on
    //|  *    s > 0): an event recorded on streams[s] that the sending end's
    //|  *    stream waits for; ncclGroupStart(), ncclSend on the sending end's
    //|  *    communicator and stream, ncclRecv on the receiving end's (the
    //|  *    peer is the other end's rank: 0 or 1), ncclGroupEnd(); an event
    //|  *    created on the receiving GPU and recorded on the receiving end's
    //|  *    stream: the arrival the reading op waits for.
    //|  * pipe.h says which communicator and end is which. Refuse bad
    //|  * arguments and lists (ncclInvalidArgument); a failed CUDA call is
    //|  * ncclUnhandledCudaError. Destroy your events at the end and put the
    //|  * caller's device back. */
    //| (void)p, (void)m, (void)order, (void)fwd_us, (void)bwd_us, (void)streams, (void)stamps, (void)L, (void)d;
    //| return ncclSuccess;
    //@end
}
