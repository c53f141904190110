/* judge_w12_runner.c — week 12's runner (instructor/judge.h): this main,
 * judge_runner.c, the student's ilp.o, graph.o and fuse.o and the week's
 * given support/tiny.o, yard_eager.o and yard_unfused.o (linked as the test
 * program links them: graph_create captures the given tiny_add), nothing
 * that writes a record; judge_w12.c holds every check. Each entry calls one
 * function of the week's API on what the judge sent. The one state kept:
 * the graphs graph_create made, each by the buffer it was built on, since
 * a cudaGraphExec_t lives in this process and cannot travel to the judge.
 *
 * Built a second time with -DW12_YARD as the judge's yard runner
 * (judge-w12-yard-runner, beside the judge): this main, judge_runner.c and
 * the instructor's support objects, no student object: w12.graph-speed's
 * EAGER (yard_tiny_eager) and w12.fuse-speed's UNFUSED (yard_unfused_chain),
 * timed by the judge through the same protocol as the student's calls. */
#include <stddef.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "fuse.h"
#include "graph.h"
#include "ilp.h"
#include "judge.h"
#include "judge_w12.h"

#ifdef W12_YARD

static int eager(const jr_args *a) { return (int)yard_tiny_eager((float *)a->p[0], (int)a->i64[0], (int)a->i64[1]); }

/* The chain's two temporaries, n floats each, made on the first call of a
 * size (the judge's untimed warm-up) and kept for the calls after it. */
static int unfused(const jr_args *a)
{
    static float *t1, *t2;
    static size_t cap;
    size_t n = (size_t)a->i64[0];
    if (n > cap) {
        cudaFree(t1), cudaFree(t2);
        t1 = t2 = NULL, cap = 0;
        cudaError_t e = cudaMalloc((void **)&t1, n * sizeof(float));
        if (e == cudaSuccess) e = cudaMalloc((void **)&t2, n * sizeof(float));
        if (e != cudaSuccess) return (int)e;
        cap = n;
    }
    return (int)yard_unfused_chain((const float *)a->p[0], t1, t2, (float *)a->p[1], n, (float)a->f64[0],
                                   (float)a->f64[1], (float)a->f64[2]);
}

JR_MAIN({ W12_FN_EAGER, "yard_tiny_eager", eager }, { W12_FN_UNFUSED, "yard_unfused_chain", unfused })

#else

static int ilp(const jr_args *a)
{
    return (int)ilp_scale((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0], (float)a->f64[0],
                          (int)a->i64[1], (int)a->i64[2]);
}

static int fuse(const jr_args *a)
{
    return (int)fused_chain((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0], (float)a->f64[0],
                            (float)a->f64[1], (float)a->f64[2]);
}

/* The graphs made, by the buffer each was built on. */
static struct {
    void           *d;
    cudaGraphExec_t g;
} graphs[JD_MAX_BUFS];

static int slot_of(const void *d)
{
    for (int i = 0; i < JD_MAX_BUFS; i++)
        if (graphs[i].g && graphs[i].d == d) return i;
    return -1;
}

static int gcreate(const jr_args *a)
{
    int made = 0, free_slot = -1;
    for (int i = 0; i < JD_MAX_BUFS && free_slot < 0; i++)
        if (!graphs[i].g) free_slot = i;
    if (free_slot < 0 || slot_of(a->p[0]) >= 0) return -1; /* the judge's bookkeeping, never the student's */
    cudaGraphExec_t g = NULL;
    int st = (int)graph_create((float *)a->p[0], (int)a->i64[0], (int)a->i64[1], &g);
    if (g) graphs[free_slot].d = a->p[0], graphs[free_slot].g = g, made = 1;
    memcpy(a->out, &made, sizeof made), *a->out_len = sizeof made;
    return st;
}

static int glaunch(const jr_args *a)
{
    int s = slot_of(a->p[0]), st = 0;
    if (s < 0) return -1;
    for (long long r = 0; r < a->i64[1] && st == 0; r++) st = (int)graph_launch(graphs[s].g);
    return st;
}

static int gdestroy(const jr_args *a)
{
    int s = slot_of(a->p[0]);
    if (s < 0) return -1;
    int st = (int)graph_destroy(graphs[s].g);
    graphs[s].d = NULL, graphs[s].g = NULL;
    return st;
}

JR_MAIN({ W12_FN_ILP, "ilp_scale", ilp }, { W12_FN_GRAPH_CREATE, "graph_create", gcreate },
        { W12_FN_GRAPH_LAUNCH, "graph_launch", glaunch }, { W12_FN_GRAPH_DESTROY, "graph_destroy", gdestroy },
        { W12_FN_FUSE, "fused_chain", fuse })

#endif
