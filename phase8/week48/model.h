/* model.h — week 48, exercise 2: ring against tree in the alpha-beta model.
 *
 * A message of m bytes between two ranks costs alpha + m / B seconds:
 * alpha is the latency of one step (launch, synchronisation, the link's
 * own), B the link's bandwidth in bytes a second. An all-reduce of S bytes
 * over n ranks then costs, by algorithm (Thakur, Rabenseifner and Gropp
 * 2005, with the reduction's arithmetic left out):
 *
 *   ring:  2 (n - 1) steps of S / n bytes each (a reduce-scatter, then an
 *          all-gather):              T_ring = 2 (n - 1) (alpha + S / (n B))
 *   tree:  a reduce up a binary tree, then a broadcast down it, each
 *          ceil(log2 n) levels of the whole message, unpipelined:
 *                                    T_tree = 2 ceil(log2 n) (alpha + S / B)
 *
 * The ring's latency grows with n, its bandwidth term does not (2 S / B at
 * most); the tree's latency grows with log2 n, but every level moves all of
 * S. Small messages favour the tree, large ones the ring; the crossover is
 * the S where the two are equal. One rank needs no step: both are 0. */
#ifndef MODEL_H
#define MODEL_H

#ifdef __cplusplus
extern "C" {
#endif

/* ceil(log2 n): the levels of a binary tree over n ranks; 0 for n <= 1. */
int model_tree_levels(int n);
/* The times above, in seconds, for S bytes over n >= 1 ranks. */
double model_ring_allreduce_s(int n, double bytes, double alpha_s, double bytes_per_s);
double model_tree_allreduce_s(int n, double bytes, double alpha_s, double bytes_per_s);
/* The message size (bytes) at which T_ring == T_tree: below it the tree is
 * faster, above it the ring. 0 when the ring is never slower (n <= 3). */
double model_ring_tree_crossover(int n, double alpha_s, double bytes_per_s);

#ifdef __cplusplus
}
#endif
#endif
