/* judge_w28.h — week 28's judge, its runner and its yard runner agree on
 * the exercise numbers and the call's arguments: judge_hgemm.h's for the
 * fused call (HG_FN_STUDENT, HG_FN_PACKED: gemm_epilogue_bias_act; the
 * yardstick HG_YARD_LT: the given cuBLASLt fused epilogue), and the
 * separate pass below. */
#ifndef JUDGE_W28_H
#define JUDGE_W28_H

#include "judge_hgemm.h"

#define W28_YARD_RUNNER "judge-w28-yard-runner"

/* gemm_epilogue_act: p[0] C (in place), p[1] bias; i64[1] M, i64[2] N, i64[3] act. */
enum { W28_FN_ACT = 2 };

#endif
