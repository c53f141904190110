/* judge_w54.h — week 54's judge, its runner and its yard runner agree on
 * the exercise numbers and the call's arguments: judge_bf16gemm.h's for the
 * GEMM (BG_FN_GEMM is wgmma_gemm_bf16 here), and the descriptor's:
 *
 * W54_FN_DESC: i64[0] which function (W54_DESC_MAKE wgmma_desc_make(i64[1]
 * addr, i64[2] lbo, i64[3] sbo, i64[4] base_offset, i64[5] swizzle);
 * W54_DESC_ADVANCE wgmma_desc_advance(i64[1] desc, i64[2] bytes);
 * W54_DESC_SW128 wgmma_desc_bf16_sw128(i64[1] tile_addr, i64[2] kk)), the
 * output a uint64_t that holds i64[6] before the call, NULL instead when
 * i64[7] is 1; the reply's out[] a w54_desc_out (status 0: the function's
 * own return value is in it). */
#ifndef JUDGE_W54_H
#define JUDGE_W54_H

#include <stdint.h>

#include "judge_bf16gemm.h"

#define W54_YARD_RUNNER "judge-w54-yard-runner"

enum { W54_FN_DESC = 3 };
enum { W54_DESC_MAKE = 0, W54_DESC_ADVANCE = 1, W54_DESC_SW128 = 2 };

typedef struct {
    int32_t  ret;  /* the function's return value */
    int32_t  pad;
    uint64_t desc; /* the output after the call */
} w54_desc_out;

#endif
