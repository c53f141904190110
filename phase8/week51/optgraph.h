/* optgraph.h — week 51, exercise 2: the step as a CUDA graph.
 *
 * optgraph_create captures one momentum_step of the set into a graph, with the
 * tensors dealt over `branches` streams (tensor t on stream t % branches,
 * forked from and joined back to the capturing stream with events), and
 * instantiates it. Pointers, sizes, lr and mu are baked into the graph: the
 * tensors must stay where they are while the graph lives.
 * optgraph_set_lr changes the learning rate of the instantiated graph in
 * place (a schedule changes it every step), without instantiating again. */
#ifndef OPTGRAPH_H
#define OPTGRAPH_H

#include <cuda_runtime_api.h>
#include "momentum.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opt_graph opt_graph; /* yours: whatever it needs to hold */

/* *out is NULL on any error. branches >= 1. */
cudaError_t optgraph_create(const opt_set *set, float lr, float mu, int branches, opt_graph **out);
/* One replay on stream s (asynchronous). */
cudaError_t optgraph_launch(opt_graph *g, cudaStream_t s);
/* The learning rate of every later replay becomes lr; the instantiated
 * graph (optgraph_exec) stays the same object. */
cudaError_t optgraph_set_lr(opt_graph *g, float lr);
/* For the test: the captured graph and its instantiation. */
cudaGraph_t optgraph_graph(const opt_graph *g);
cudaGraphExec_t optgraph_exec(const opt_graph *g);
void optgraph_destroy(opt_graph *g);

#ifdef __cplusplus
}
#endif
#endif
