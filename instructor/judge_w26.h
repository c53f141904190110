/* judge_w26.h — week 26's judge, its runner and its yard runner agree on
 * the exercise numbers and the call's arguments: judge_hgemm.h's, shared
 * with week 25 (HG_FN_STUDENT is hgemm_mma here). */
#ifndef JUDGE_W26_H
#define JUDGE_W26_H

#include "judge_hgemm.h"

#define W26_YARD_RUNNER "judge-w26-yard-runner"

#endif
