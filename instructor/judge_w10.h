/* judge_w10.h — week 10's judge, its runner and its yard runner agree on
 * the exercise numbers and on how a calculator call travels. */
#ifndef JUDGE_W10_H
#define JUDGE_W10_H

#include "occupancy.h"

/* W10_FN_CALC: p[0] a w10_calc_io (a host buffer both map); the runner calls
 *   occ_blocks_per_sm and occ_fraction on it, out: a w10_calc_reply.
 * W10_FN_VOLKOV: volkov_chains; p[0] x, p[1] y, i64[0] n, i64[1] steps,
 *   i64[2] threads, i64[3] blocks, i64[4] k, f64[0] a, f64[1] b (steps, a
 *   and b where jd_fma_full_check reads them).
 * W10_FN_FULLOCC (the yard runner, judge-w10-yard-runner: the week's given
 *   support/yard_fullocc.cu, instructor code only): yard_fullocc_chains on
 *   the same arguments but k. */
enum { W10_FN_CALC = 1, W10_FN_VOLKOV, W10_FN_FULLOCC };
#define W10_YARD_RUNNER "judge-w10-yard-runner"

typedef struct {
    occ_device d;
    occ_config c;
} w10_calc_io;

typedef struct {
    int    blocks, limiter; /* occ_blocks_per_sm's return and limiter */
    double fraction;        /* occ_fraction's */
} w10_calc_reply;

#endif
