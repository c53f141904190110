/* judge_w19.h — week 19's judge and runner agree on the exercise numbers
 * and on what each call's arguments are. */
#ifndef JUDGE_W19_H
#define JUDGE_W19_H

enum { W19_FN_ACC_NAIVE = 1, W19_FN_ACC_TILED, W19_FN_STEP, W19_FN_CG_WS, W19_FN_CG_BUILD, W19_FN_CG_COUNT,
       W19_FN_ST_NAIVE, W19_FN_ST_TILED, W19_FN_ST_STREAM };

/* Counts in i64[1] onwards (i64[0] is the protocol's n):
 * W19_FN_ACC_*:    p[0] pos, p[1] acc, i64[1] bodies, f64[0] eps2.
 * W19_FN_STEP:     p[0] pos, p[1] vel, p[2] acc, i64[1] bodies, f64[0] dt, f64[1] eps2.
 * W19_FN_CG_WS:    i64[1] n, i64[2] ncells; out: the size_t cg_workspace_bytes returned.
 * W19_FN_CG_BUILD: p[0] pos, p[1] cell_of, p[2] sorted, p[3] cell_start, p[4] cell_end, p[5] work;
 *                  i64[1] n, i64[2..4] gx, gy, gz, i64[5] work bytes, f64[0] cell.
 * W19_FN_CG_COUNT: p[0] pos, p[1] sorted, p[2] cell_start, p[3] cell_end, p[4] count;
 *                  i64[1] n, i64[2..4] gx, gy, gz, f64[0] cell, f64[1] radius.
 * W19_FN_ST_*:     p[0] in, p[1] out, i64[1..3] nx, ny, nz, f64[0] c0, f64[1] c1. */

#endif
