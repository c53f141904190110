/* optgraph.cu — week 51, exercise 2: capture the step once, replay it.
 *
 * Stream capture records what the launches would do instead of doing it.
 * Work on other streams joins the capture through events: the capturing
 * stream records a "fork" event, each branch stream waits on it (and is now
 * being captured too), and at the end the capturing stream waits on a
 * "join" event of each branch. The branches become independent paths of the
 * graph, which the GPU may run side by side.
 *
 * A learning-rate schedule changes lr every step, and lr is baked into the
 * kernel nodes. Instantiating a new graph each step would cost more than the
 * launches it saves. cudaGraphExecUpdate copies the parameters of a graph of
 * the same shape into the instantiated one in place: capture the step again
 * with the new lr (cheap: nothing runs) and update. */
#include <stdlib.h>
#include "optgraph.h"

struct opt_graph {
    //@solution
    opt_set         set;     /* a copy of the caller's set (its arrays must outlive the graph) */
    float           mu;
    int             branches;
    cudaGraph_t     graph;
    cudaGraphExec_t exec;
    //@starter
    //| /* TODO: what your functions below need: the set and mu (to capture
    //|  * again), the branch count, the captured graph and its instantiation. */
    //| int unused;
    //@end
};

//@solution
/* One step captured on `branches` streams into *out. */
static cudaError_t capture(const opt_set *set, float lr, float mu, int branches, cudaGraph_t *out)
{
    enum { MAXB = 16 };
    cudaStream_t s[MAXB] = { 0 };
    cudaEvent_t fork = NULL, join[MAXB] = { 0 };
    *out = NULL;
    if (branches < 1 || branches > MAXB) return cudaErrorInvalidValue;
    cudaError_t e = cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
    for (int b = 0; e == cudaSuccess && b < branches; b++) {
        e = cudaStreamCreateWithFlags(&s[b], cudaStreamNonBlocking);
        if (e == cudaSuccess) e = cudaEventCreateWithFlags(&join[b], cudaEventDisableTiming);
    }
    if (e == cudaSuccess) {
        e = cudaStreamBeginCapture(s[0], cudaStreamCaptureModeThreadLocal);
        if (e == cudaSuccess) {
            e = cudaEventRecord(fork, s[0]);
            for (int b = 1; e == cudaSuccess && b < branches; b++) e = cudaStreamWaitEvent(s[b], fork, 0);
            for (int t = 0; e == cudaSuccess && t < set->nt; t++)
                e = momentum_tensor(set->p[t], set->g[t], set->v[t], set->len[t], lr, mu, s[t % branches]);
            for (int b = 1; e == cudaSuccess && b < branches; b++) {
                e = cudaEventRecord(join[b], s[b]);
                if (e == cudaSuccess) e = cudaStreamWaitEvent(s[0], join[b], 0);
            }
            /* end the capture whatever happened, so the stream is usable again */
            cudaError_t e2 = cudaStreamEndCapture(s[0], out);
            if (e == cudaSuccess) e = e2;
            if (e != cudaSuccess && *out) cudaGraphDestroy(*out), *out = NULL;
        }
    }
    for (int b = 0; b < branches; b++) {
        if (s[b]) cudaStreamDestroy(s[b]);
        if (join[b]) cudaEventDestroy(join[b]);
    }
    if (fork) cudaEventDestroy(fork);
    return e;
}
//@end

cudaError_t optgraph_create(const opt_set *set, float lr, float mu, int branches, opt_graph **out)
{
    //@solution
    *out = NULL;
    opt_graph *g = (opt_graph *)calloc(1, sizeof *g);
    if (!g) return cudaErrorMemoryAllocation;
    g->set = *set, g->mu = mu, g->branches = branches;
    cudaError_t e = capture(set, lr, mu, branches, &g->graph);
    if (e == cudaSuccess) e = cudaGraphInstantiate(&g->exec, g->graph, 0);
    if (e != cudaSuccess) {
        optgraph_destroy(g);
        return e;
    }
    *out = g;
    return cudaSuccess;
    //@starter
    //| /* TODO: allocate your struct; create `branches` non-blocking streams and
    //|  * events; cudaStreamBeginCapture on the first stream; record a fork
    //|  * event there and make every other stream wait on it; momentum_tensor for
    //|  * tensor t on stream t % branches; each other stream records a join
    //|  * event the first one waits on; cudaStreamEndCapture; instantiate;
    //|  * destroy the streams and events (the graph keeps what it needs). */
    //| (void)set, (void)lr, (void)mu, (void)branches;
    //| *out = NULL;
    //| return cudaSuccess;
    //@end
}

cudaError_t optgraph_launch(opt_graph *g, cudaStream_t s)
{
    //@solution
    return g ? cudaGraphLaunch(g->exec, s) : cudaErrorInvalidValue;
    //@starter
    //| /* TODO: replay the instantiated graph on stream s. */
    //| (void)g, (void)s;
    //| return cudaSuccess;
    //@end
}

cudaError_t optgraph_set_lr(opt_graph *g, float lr)
{
    //@solution
    if (!g) return cudaErrorInvalidValue;
    cudaGraph_t fresh = NULL;
    cudaError_t e = capture(&g->set, lr, g->mu, g->branches, &fresh);
    if (e != cudaSuccess) return e;
    cudaGraphExecUpdateResultInfo info;
    e = cudaGraphExecUpdate(g->exec, fresh, &info);
    if (e == cudaSuccess) {
        cudaGraphDestroy(g->graph); /* the graph now matches the instantiation */
        g->graph = fresh;
    } else {
        cudaGraphDestroy(fresh);
    }
    return e;
    //@starter
    //| /* TODO: capture the step again with the new lr (same set, mu and
    //|  * branches: the same shape), then cudaGraphExecUpdate the instantiated
    //|  * graph from it. Do not instantiate again. */
    //| (void)g, (void)lr;
    //| return cudaSuccess;
    //@end
}

cudaGraph_t optgraph_graph(const opt_graph *g)
{
    //@solution
    return g ? g->graph : NULL;
    //@starter
    //| (void)g;
    //| return NULL; /* TODO: the captured graph */
    //@end
}

cudaGraphExec_t optgraph_exec(const opt_graph *g)
{
    //@solution
    return g ? g->exec : NULL;
    //@starter
    //| (void)g;
    //| return NULL; /* TODO: its instantiation */
    //@end
}

void optgraph_destroy(opt_graph *g)
{
    if (!g) return;
    //@solution
    if (g->exec) cudaGraphExecDestroy(g->exec);
    if (g->graph) cudaGraphDestroy(g->graph);
    //@starter
    //| /* TODO: destroy the instantiation and the graph. */
    //@end
    free(g);
}
