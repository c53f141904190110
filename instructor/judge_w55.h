/* judge_w55.h — week 55's judge and its runner agree on the exercise
 * numbers and the call's arguments: judge_bf16gemm.h's for the GEMM
 * (BG_FN_GEMM ws_gemm_bf16, BG_FN_GRID ws_gemm_bf16_grid with i64[5] the
 * grid), and the schedule's:
 *
 * W55_FN_SCHED: ws_schedule(M, N, K, bm, bn, bk, stages, group_m, grid,
 * cta, out, cap), two ints a scalar (w55_pack: the first in the low 32
 * bits): i64[0] M, N; i64[1] K, bm; i64[2] bn, bk; i64[3] stages, group_m;
 * i64[4] grid, cta; i64[5] cap; out p[0] (a host buffer of the judge's;
 * NULL when the argument is NULL); the reply's out[] the return value (an
 * int32_t; status 0). The week's tests' lone yardstick is cublasGemmEx,
 * timed through week 54's yard runner (judge-w54-yard-runner). */
#ifndef JUDGE_W55_H
#define JUDGE_W55_H

#include <stdint.h>

#include "judge_bf16gemm.h"

#define W55_YARD_RUNNER "judge-w54-yard-runner"

enum { W55_FN_SCHED = 3 };

static inline long long w55_pack(int lo, int hi) { return (long long)((uint64_t)(uint32_t)hi << 32 | (uint32_t)lo); }
static inline int       w55_lo(long long v) { return (int)(uint32_t)((uint64_t)v & 0xffffffffu); }
static inline int       w55_hi(long long v) { return (int)(uint32_t)((uint64_t)v >> 32); }

#endif
