/* judge_w29_runner.c — week 29's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's naive.o and stable.o, nothing that
 * writes a record. Each entry calls one function of the week's API on what
 * the judge sent (judge_w29.h); judge_w29.c holds every check. */
#include <string.h>
#include <cuda_runtime_api.h>

#include "judge.h"
#include "judge_w29.h"
#include "naive.h"
#include "stable.h"

/* A call's status, its kernels finished where it claims success: the
 * runner waits for the device itself only when the judge opened it
 * (jr_serve); with host buffers (the judge has no GPU) a GPU this process
 * still sees is waited for here, and none is there without one. */
static int settled(cudaError_t st)
{
    int n = 0;
    if (st == cudaSuccess && cudaGetDeviceCount(&n) == cudaSuccess && n > 0) st = cudaDeviceSynchronize();
    return (int)st;
}

static int limit(const jr_args *a)
{
    double l = naive_limit((int)a->i64[0]);
    memcpy(a->out, &l, sizeof l), *a->out_len = sizeof l;
    return 0;
}

static int naive(const jr_args *a)
{
    return settled(naive_softmax((const float *)a->p[0], (float *)a->p[1], (float *)a->p[2], (int)a->i64[1],
                                 (int)a->i64[2]));
}

static int stable(const jr_args *a)
{
    return settled(stable_softmax((const float *)a->p[0], (float *)a->p[1], (int)a->i64[1], (int)a->i64[2]));
}

JR_MAIN({ W29_FN_LIMIT, "naive_limit", limit }, { W29_FN_NAIVE, "naive_softmax", naive },
        { W29_FN_STABLE, "stable_softmax", stable })
