/* judge_w19_runner.c — week 19's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's nbody.o, leapfrog.o, cellgrid.o and
 * stencil.o, nothing that writes a record. Each entry calls one function
 * of the week's API on what the judge sent; judge_w19.c holds every check. */
#include <string.h>
#include <cuda_runtime_api.h>

#include "cellgrid.h"
#include "judge.h"
#include "judge_w19.h"
#include "leapfrog.h"
#include "nbody.h"
#include "stencil.h"

static int acc_naive(const jr_args *a)
{
    return (int)nbody_accel_naive((const float *)a->p[0], (float *)a->p[1], (int)a->i64[1], (float)a->f64[0]);
}
static int acc_tiled(const jr_args *a)
{
    return (int)nbody_accel_tiled((const float *)a->p[0], (float *)a->p[1], (int)a->i64[1], (float)a->f64[0]);
}

static int step(const jr_args *a)
{
    return (int)leapfrog_step((float *)a->p[0], (float *)a->p[1], (float *)a->p[2], (int)a->i64[1], (float)a->f64[0],
                              (float)a->f64[1]);
}

static cg_grid grid(const jr_args *a)
{
    cg_grid g = { (float)a->f64[0], (int)a->i64[2], (int)a->i64[3], (int)a->i64[4] };
    return g;
}

static int cg_ws(const jr_args *a)
{
    size_t b = cg_workspace_bytes((int)a->i64[1], (int)a->i64[2]);
    memcpy(a->out, &b, sizeof b), *a->out_len = sizeof b;
    return 0;
}

static int cg_bld(const jr_args *a)
{
    return (int)cg_build((const float *)a->p[0], (int)a->i64[1], grid(a), (unsigned *)a->p[1], (unsigned *)a->p[2],
                         (unsigned *)a->p[3], (unsigned *)a->p[4], a->p[5], (size_t)a->i64[5]);
}

static int cg_cnt(const jr_args *a)
{
    return (int)cg_count_pairs((const float *)a->p[0], (int)a->i64[1], grid(a), (float)a->f64[1],
                               (const unsigned *)a->p[1], (const unsigned *)a->p[2], (const unsigned *)a->p[3],
                               (unsigned *)a->p[4]);
}

static int st(const jr_args *a, cudaError_t (*fn)(const float *, float *, int, int, int, float, float))
{
    return (int)fn((const float *)a->p[0], (float *)a->p[1], (int)a->i64[1], (int)a->i64[2], (int)a->i64[3],
                   (float)a->f64[0], (float)a->f64[1]);
}
static int st_naive(const jr_args *a) { return st(a, stencil_naive); }
static int st_tiled(const jr_args *a) { return st(a, stencil_tiled); }
static int st_stream(const jr_args *a) { return st(a, stencil_stream); }

JR_MAIN({ W19_FN_ACC_NAIVE, "nbody_accel_naive", acc_naive }, { W19_FN_ACC_TILED, "nbody_accel_tiled", acc_tiled },
        { W19_FN_STEP, "leapfrog_step", step }, { W19_FN_CG_WS, "cg_workspace_bytes", cg_ws },
        { W19_FN_CG_BUILD, "cg_build", cg_bld }, { W19_FN_CG_COUNT, "cg_count_pairs", cg_cnt },
        { W19_FN_ST_NAIVE, "stencil_naive", st_naive }, { W19_FN_ST_TILED, "stencil_tiled", st_tiled },
        { W19_FN_ST_STREAM, "stencil_stream", st_stream })
