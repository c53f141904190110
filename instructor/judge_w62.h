/* judge_w62.h — week 62's judge and its runner agree on the exercise
 * numbers and on each call's arguments. The attention calls are week 38's
 * (judge_w38.h: the same arguments, judge_attn.c builds them); the yard
 * runner is week 38's too (judge-w38-yard-runner, cuDNN SDPA). */
#ifndef JUDGE_W62_H
#define JUDGE_W62_H

#include <stdint.h>

/* W62_FN_FWD:       fa3_fwd, W38_FN_FWD's arguments.
 * W62_FN_FWD_TIMED: fa3_fwd, W38_FN_FWD_TIMED's arguments.
 * W62_FN_DESC:      fa3_fwd_desc(i64[0] operand, i64[1] tile_addr, i64[2]
 *                   kk, desc): desc a uint64_t holding i64[3] before the
 *                   call, NULL instead when i64[4] is 1; the reply's out[]
 *                   a w62_desc_out (status 0: the function's own return
 *                   value is in it). */
enum { W62_FN_FWD = 1, W62_FN_FWD_TIMED, W62_FN_DESC };

typedef struct {
    int32_t  ret;  /* fa3_fwd_desc's return value */
    int32_t  pad;
    uint64_t desc; /* the output after the call */
} w62_desc_out;

#endif
