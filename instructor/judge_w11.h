/* judge_w11.h — week 11's judge, its runner and its yard runner agree on
 * the exercise numbers and on how a call's coefficients travel. */
#ifndef JUDGE_W11_H
#define JUDGE_W11_H

#include <string.h>

#include "polyt.h"

/* W11_FN_POLYT (the runner: the student's polyt) and W11_FN_GIVEN (the yard
 * runner, judge-w11-yard-runner: yard_polyt_given of the week's given
 * support/yard_slow.cu, instructor code only): p[0] in (rows x cols floats,
 * row-major), p[1] out (cols x rows); i64[0] rows x cols (the engines' n),
 * i64[1] rows, i64[2] cols; the POLYT_TERMS coefficients travel in the
 * request, their bits two floats a word: the first 10 in i64[3..7], the
 * last 6 in f64[0..2] (w11_coef_pack), so a timed request's coefficients,
 * new for every request, are not seen before it arrives. */
enum { W11_FN_POLYT = 1, W11_FN_GIVEN };
#define W11_YARD_RUNNER "judge-w11-yard-runner"

_Static_assert(POLYT_TERMS == 16, "w11_coef_pack: 10 coefficients in i64[3..7], 6 in f64[0..2]");

static inline void w11_coef_pack(long long i64[8], double f64[4], const float *coef)
{
    memcpy(&i64[3], coef, 10 * sizeof(float));
    memcpy(f64, coef + 10, 6 * sizeof(float));
}

static inline void w11_coef_unpack(const long long i64[8], const double f64[4], float *coef)
{
    memcpy(coef, &i64[3], 10 * sizeof(float));
    memcpy(coef + 10, f64, 6 * sizeof(float));
}

#endif
