/* judge_w12.h — week 12's judge, its runner and its yard runner agree on
 * the exercise numbers and on what each call's arguments are. */
#ifndef JUDGE_W12_H
#define JUDGE_W12_H

/* The runner (the student's ilp.o, graph.o, fuse.o and the week's given support objects):
 * W12_FN_ILP:           p[0] x, p[1] y, i64[0] n, i64[1] ilp, i64[2] blocks_per_sm, f64[0] a.
 * W12_FN_GRAPH_CREATE:  p[0] d, i64[0] n, i64[1] k: graph_create(d, n, k, &exec); out: one int, 1 when
 *                       it gave a graph. A graph is an object of the runner's process and cannot cross
 *                       to the judge: the runner keeps it, by the buffer it was built on (p[0]).
 * W12_FN_GRAPH_LAUNCH:  p[0] d, i64[1] replays: graph_launch of the graph built on d, that many times
 *                       back to back (the runner then synchronises, as after every call).
 * W12_FN_GRAPH_DESTROY: p[0] d: graph_destroy of the graph built on d; the runner forgets it.
 * W12_FN_FUSE:          p[0] x, p[1] y, i64[0] n, f64[0..2] a, b, s.
 * The yard runner (judge-w12-yard-runner, beside the judge: the week's given support objects, no student
 * object):
 * W12_FN_EAGER:         p[0] d, i64[0] n, i64[1] k: yard_tiny_eager(d, n, k), EAGER.
 * W12_FN_UNFUSED:       p[0] x, p[1] y, i64[0] n, f64[0..2] a, b, s: yard_unfused_chain through two
 *                       temporaries of n floats the yard runner keeps, UNFUSED. */
enum { W12_FN_ILP = 1, W12_FN_GRAPH_CREATE, W12_FN_GRAPH_LAUNCH, W12_FN_GRAPH_DESTROY, W12_FN_FUSE, W12_FN_EAGER,
       W12_FN_UNFUSED };
#define W12_YARD_RUNNER "judge-w12-yard-runner"

#endif
