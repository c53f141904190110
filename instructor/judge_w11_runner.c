/* judge_w11_runner.c — week 11's runner (instructor/judge.h): this main,
 * judge_runner.c, the student's polyt.o and the week's given
 * support/yard_slow.o (linked as the test program links them), nothing that
 * writes a record; judge_w11.c holds every check. Built a second time with
 * -DW11_YARD as the judge's yard runner (judge-w11-yard-runner, beside the
 * judge): this main, judge_runner.c and yard_slow.o, no student object:
 * w11.polyt-speed's yardstick, the given kernel, timed by the judge through
 * the same protocol as the student's polyt. */
#include "judge.h"
#include "judge_w11.h"
#include "polyt.h"

#ifdef W11_YARD
#define W11_FN   W11_FN_GIVEN
#define W11_NAME "yard_polyt_given"
#define W11_CALL yard_polyt_given
#else
#define W11_FN   W11_FN_POLYT
#define W11_NAME "polyt"
#define W11_CALL polyt
#endif

static int call(const jr_args *a)
{
    float coef[POLYT_TERMS];
    w11_coef_unpack(a->i64, a->f64, coef);
    return (int)W11_CALL((const float *)a->p[0], (float *)a->p[1], (int)a->i64[1], (int)a->i64[2], coef);
}

JR_MAIN({ W11_FN, W11_NAME, call })
