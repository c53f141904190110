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
    /* TODO: what your functions below need: the set and mu (to capture
     * again), the branch count, the captured graph and its instantiation. */
    int unused;
};


cudaError_t optgraph_create(const opt_set *set, float lr, float mu, int branches, opt_graph **out)
{
    /* TODO: allocate your struct; create `branches` non-blocking streams and
     * events; cudaStreamBeginCapture on the first stream; record a fork
     * event there and make every other stream wait on it; momentum_tensor for
     * tensor t on stream t % branches; each other stream records a join
     * event the first one waits on; cudaStreamEndCapture; instantiate;
     * destroy the streams and events (the graph keeps what it needs). */
    (void)set, (void)lr, (void)mu, (void)branches;
    *out = NULL;
    return cudaSuccess;
}

cudaError_t optgraph_launch(opt_graph *g, cudaStream_t s)
{
    /* TODO: replay the instantiated graph on stream s. */
    (void)g, (void)s;
    return cudaSuccess;
}

cudaError_t optgraph_set_lr(opt_graph *g, float lr)
{
    /* TODO: capture the step again with the new lr (same set, mu and
     * branches: the same shape), then cudaGraphExecUpdate the instantiated
     * graph from it. Do not instantiate again. */
    (void)g, (void)lr;
    return cudaSuccess;
}

cudaGraph_t optgraph_graph(const opt_graph *g)
{
    (void)g;
    return NULL; /* TODO: the captured graph */
}

cudaGraphExec_t optgraph_exec(const opt_graph *g)
{
    (void)g;
    return NULL; /* TODO: its instantiation */
}

void optgraph_destroy(opt_graph *g)
{
    if (!g) return;
    /* TODO: destroy the instantiation and the graph. */
    free(g);
}
