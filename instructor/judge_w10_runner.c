/* judge_w10_runner.c — week 10's runner (instructor/judge.h): this main,
 * judge_runner.c, the student's occupancy.o and volkov.o and the week's
 * given support objects (linked as the test program links them), nothing
 * that writes a record; judge_w10.c holds every check. Built a second time
 * with -DW10_YARD as the judge's yard runner (judge-w10-yard-runner, beside
 * the judge): this main, judge_runner.c and yard_fullocc.o, no student
 * object: w10.volkov-speed's yardstick, the given one-chain kernel at full
 * occupancy, timed by the judge through the same protocol as the
 * student's volkov_chains. */
#include <string.h>
#include <cuda_runtime_api.h>

#include "judge.h"
#include "judge_w10.h"
#include "volkov.h"

#ifdef W10_YARD
static int fullocc(const jr_args *a)
{
    return (int)yard_fullocc_chains((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0], (int)a->i64[1],
                                    (float)a->f64[0], (float)a->f64[1], (int)a->i64[2], (int)a->i64[3]);
}

JR_MAIN({ W10_FN_FULLOCC, "yard_fullocc_chains", fullocc })
#else
static int calc(const jr_args *a)
{
    const w10_calc_io *io = (const w10_calc_io *)a->p[0];
    w10_calc_reply r;
    occ_limiter lim = OCC_LIMIT_NONE;
    memset(&r, 0, sizeof r);
    r.blocks = occ_blocks_per_sm(&io->d, &io->c, &lim);
    r.limiter = (int)lim;
    r.fraction = occ_fraction(&io->d, &io->c);
    memcpy(a->out, &r, sizeof r), *a->out_len = sizeof r;
    return 0;
}

static int volkov(const jr_args *a)
{
    cudaError_t e = volkov_chains((int)a->i64[4], (const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0],
                                  (int)a->i64[1], (float)a->f64[0], (float)a->f64[1], (int)a->i64[2], (int)a->i64[3]);
    if (e != cudaSuccess) cudaGetLastError(); /* as the test clears a refused call's error */
    return (int)e;
}

JR_MAIN({ W10_FN_CALC, "occ_blocks_per_sm", calc }, { W10_FN_VOLKOV, "volkov_chains", volkov })
#endif
