/* judge_w53.h — week 53's judge and runner agree on the exercise numbers
 * and on what each call's arguments are. */
#ifndef JUDGE_W53_H
#define JUDGE_W53_H

enum { W53_FN_BOX = 1, W53_FN_COPY };

/* W53_FN_BOX:  tma_box_plan on scalars: i64[0] base (the address's bits: never dereferenced), i64[1] rows,
 *              i64[2] cols, i64[3] ld, i64[4] elem_bytes, i64[5] box_rows, i64[6] box_cols, i64[7] swizzle;
 *              out: the int32 status it returned, then the tma_plan it left over a plan of W53_PLAN_FILL bytes
 *              (W53_BOX_REPLY bytes in all).
 * W53_FN_COPY: tma_copy_f32: p[0] src, p[1] dst; i64[1] ld_src, i64[2] ld_dst, i64[3] rows, i64[4] cols; where
 *              p[0] or p[1] is NULL, the address in i64[5] (src) or i64[6] (dst) instead (the contract's
 *              addresses, never dereferenced by a correct function; 0: NULL). The timed protocol's one input
 *              and one output are p[0] and p[1]. */
#define W53_PLAN_FILL 0x5A
#define W53_BOX_REPLY (4 + (unsigned)sizeof(tma_plan))

#endif
