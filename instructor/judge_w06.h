/* judge_w06.h — week 06's judge and runner agree on the exercise numbers
 * and on what each call's arguments are. */
#ifndef JUDGE_W06_H
#define JUDGE_W06_H

enum { W06_FN_NAIVE = 1, W06_FN_TILED, W06_FN_PADDED, W06_FN_STRIDED, W06_FN_MEDIAN_LOCAL, W06_FN_MEDIAN_REGS,
       W06_FN_MEDIAN_ATTRS, W06_FN_POLY_SET, W06_FN_POLY_EVAL };

/* W06_FN_NAIVE, _TILED, _PADDED: p[0] in, p[1] out, i64[1] rows, i64[2] cols (i64[0] rows x cols).
 * W06_FN_STRIDED:      p[0] in, p[1] out, i64[0] n, i64[1] s.
 * W06_FN_MEDIAN_*:     p[0] in, p[1] out, i64[0] n.
 * W06_FN_MEDIAN_ATTRS: i64[0] which (0 local, 1 regs); out: two ints, local bytes and registers.
 * W06_FN_POLY_SET:     p[0] a host buffer of POLY_MAX floats (both map), i64[0] ncoef.
 * W06_FN_POLY_EVAL:    p[0] x, p[1] y, i64[0] n. */

#endif
