/* pipe.cu — week 50, exercise 2: GPipe and 1F1B, simulated on the CPU and
 * run on streams (one a stage) with events for the dependencies.
 *
 * The simulator and the run share one idea: an op can go once the op before
 * it on its stage and the ops it depends on have gone. The simulator turns
 * that into times; the run turns it into an issue order, so that every
 * event an op waits for has been recorded before the wait is enqueued (a
 * wait on an event never recorded does not wait at all). */
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
