/* judge_w08_runner.c — week 08's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's lastblock.o, gridsync.o, vote.o,
 * lfstack.o, litmus.o, tally.o and racefix.o (linked as the grader links
 * every exercise; no entry calls it: w08.racecheck is the linked test's,
 * judge_w08.c says why), nothing that writes a record.
 * Each entry calls one function of the week's API on what the judge sent;
 * judge_w08.c holds every check. */
#include <string.h>

#include "gridsync.h"
#include "judge.h"
#include "judge_w08.h"
#include "lastblock.h"
#include "lfstack.h"
#include "litmus.h"
#include "tally.h"
#include "vote.h"

static int tmp(const jr_args *a)
{
    w08_tmp t = { lastblock_tmp_bytes(), gridsync_center_tmp_bytes() };
    memcpy(a->out, &t, sizeof t), *a->out_len = sizeof t;
    return 0;
}

static int lastblock(const jr_args *a)
{
    return (int)lastblock_reduce((const float *)a->p[0], (size_t)a->i64[0], (float *)a->p[1], a->p[2]);
}

static int center(const jr_args *a)
{
    return (int)gridsync_center_mean((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0], a->p[2]);
}

static int compact(const jr_args *a)
{
    return (int)vote_compact_positive((const float *)a->p[0], (size_t)a->i64[0], (float *)a->p[1], (unsigned int *)a->p[2]);
}

static int push(const jr_args *a)
{
    return (int)lfstack_push_all((unsigned int *)a->p[0], (unsigned int *)a->p[1], (size_t)a->i64[0]);
}

static int pop(const jr_args *a)
{
    return (int)lfstack_pop_all((unsigned int *)a->p[0], (const unsigned int *)a->p[1], (unsigned int *)a->p[2],
                                (size_t)a->i64[0]);
}

static int mp_round(const jr_args *a)
{
    return (int)litmus_mp_round((unsigned int *)a->p[0], (unsigned int *)a->p[1], (unsigned int *)a->p[2],
                                (size_t)a->i64[0], (unsigned int)a->i64[1], (int)a->i64[2]);
}

static int tally_dev(const jr_args *a)
{
    return (int)tally_device((const unsigned int *)a->p[0], (size_t)a->i64[0], (unsigned int *)a->p[1],
                             (unsigned int)a->i64[1]);
}

static int tally_blk(const jr_args *a)
{
    return (int)tally_block((const unsigned int *)a->p[0], (size_t)a->i64[0], (unsigned int *)a->p[1],
                            (unsigned int)a->i64[1]);
}

JR_MAIN({ W08_FN_TMP, "lastblock_tmp_bytes, gridsync_center_tmp_bytes", tmp },
        { W08_FN_LASTBLOCK, "lastblock_reduce", lastblock }, { W08_FN_CENTER, "gridsync_center_mean", center },
        { W08_FN_COMPACT, "vote_compact_positive", compact }, { W08_FN_PUSH, "lfstack_push_all", push },
        { W08_FN_POP, "lfstack_pop_all", pop }, { W08_FN_MP_ROUND, "litmus_mp_round", mp_round },
        { W08_FN_TALLY_DEVICE, "tally_device", tally_dev }, { W08_FN_TALLY_BLOCK, "tally_block", tally_blk })
