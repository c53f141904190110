/* judge_w25.h — week 25's judge, its runner and its yard runner agree on
 * the exercise numbers and the call's arguments: judge_hgemm.h's, shared
 * with week 26 (HG_FN_STUDENT is hgemm_wmma here). */
#ifndef JUDGE_W25_H
#define JUDGE_W25_H

#include "judge_hgemm.h"

#define W25_YARD_RUNNER "judge-w25-yard-runner"

#endif
