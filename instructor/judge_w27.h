/* judge_w27.h — week 27's judge, its runner and its yard runner agree on
 * the exercise numbers and the call's arguments: judge_hgemm.h's
 * (HG_FN_STUDENT hgemm_tiled, HG_FN_CUTLASS cutlass_hgemm, HG_FN_CUTLASS3
 * cutlass3_hgemm; the yardsticks HG_YARD_CUBLAS and HG_YARD_W26). */
#ifndef JUDGE_W27_H
#define JUDGE_W27_H

#include "judge_hgemm.h"

#define W27_YARD_RUNNER "judge-w27-yard-runner"

#endif
