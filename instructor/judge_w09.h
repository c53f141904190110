/* judge_w09.h — week 09's judge and runner agree on the exercise numbers
 * and on how the intensity functions' arguments and answers travel. */
#ifndef JUDGE_W09_H
#define JUDGE_W09_H

enum { W09_FN_SWEEP = 1, W09_FN_INTENSITY };
/* W09_FN_SWEEP: p[0] x, p[1] y, i64[0] n, i64[1] k, f64[0] a, f64[1] b.
 * W09_FN_INTENSITY: i64[0] which function (below), its arguments in
 * f64[0..3]; out: a w09_in_reply. */
enum { W09_IN_OF = 0, W09_IN_VECADD, W09_IN_SAXPY, W09_IN_DOT, W09_IN_STENCIL5, W09_IN_GEMM, W09_IN_ROOF,
       W09_IN_RIDGE, W09_IN_MEMORY_BOUND };

typedef struct {
    double value; /* the function's return (W09_IN_MEMORY_BOUND: 0) */
    int    bound; /* intensity_memory_bound's return (the others: 0) */
} w09_in_reply;

#endif
