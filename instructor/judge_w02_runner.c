/* judge_w02_runner.c — week 02's runner (instructor/judge.h): this main,
 * judge_runner.c, the student's bugs.o and the week's support/launcher.o
 * (the given launches the test makes too), nothing that writes a record.
 * Each entry calls one function of the week's API on what the judge sent;
 * judge_w02.c holds every check.
 *
 * Every entry first clears a launch error an earlier call may have left
 * (each of the test's cases runs in a process of its own: none is left
 * there), so a function's cudaGetLastError() sees its own launches only. */
#include <string.h>

#include "bugs.h"
#include "judge.h"
#include "judge_w02.h"
#include "support/launcher.h"

static void fresh(void) { (void)cudaGetLastError(); }

static int scale(const jr_args *a)
{
    fresh();
    return (int)bug_scale((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0], (float)a->f64[0]);
}

static int histogram(const jr_args *a)
{
    fresh();
    return (int)bug_histogram((const unsigned *)a->p[0], (size_t)a->i64[0], (unsigned *)a->p[1]);
}

static int reverse(const jr_args *a)
{
    fresh();
    return (int)bug_reverse((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0]);
}

/* buffers: x, the workspace, y (the judge's checked case: inputs first, the output last) */
static int normalise(const jr_args *a)
{
    fresh();
    return (int)bug_normalise((const float *)a->p[0], (float *)a->p[2], (size_t)a->i64[0], (double *)a->p[1]);
}

/* i64[1] threads per block, i64[2] bytes of dynamic shared memory; f64 a and b */
static int affine(const jr_args *a)
{
    fresh();
    cudaError_t e = bug_affine((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0], (float)a->f64[0],
                               (float)a->f64[1], (int)a->i64[1], (size_t)a->i64[2]);
    fresh(); /* a launch error it did not return is not the runner's status either */
    return (int)e;
}

static int report(const jr_args *a)
{
    w02_report r;
    char label[W02_LABEL_MAX + 1];
    memset(&r, 0, sizeof r);
    memset(r.msg, 'X', sizeof r.msg);
    memcpy(label, &a->i64[6], W02_LABEL_MAX);
    label[W02_LABEL_MAX] = 0;
    long long msgsz = a->i64[5] > W02_MSG_CAP ? W02_MSG_CAP : a->i64[5];
    fresh();
    if (a->i64[1] == W02_LAUNCH_FILL) {
        w02_launch_fill((float *)a->p[0], (size_t)a->i64[0], (float)a->f64[0], (int)a->i64[2], (size_t)a->i64[3]);
    } else if (a->i64[1] == W02_LAUNCH_FAULT) {
        float *d = NULL; /* as the test's: a small allocation of the runner's own, written far past */
        if (cudaMalloc((void **)&d, 64) != cudaSuccess) return -1;
        w02_launch_fault(d);
    }
    r.rc = (int)bug_check_launch(label, (int)a->i64[4], msgsz < 0 ? NULL : r.msg, msgsz < 0 ? 0 : (size_t)msgsz);
    r.after = (int)cudaGetLastError();
    memcpy(a->out, &r, sizeof r), *a->out_len = sizeof r;
    return 0;
}

JR_MAIN({ W02_FN_SCALE, "bug_scale", scale }, { W02_FN_HISTOGRAM, "bug_histogram", histogram },
        { W02_FN_REVERSE, "bug_reverse", reverse }, { W02_FN_NORMALISE, "bug_normalise", normalise },
        { W02_FN_AFFINE, "bug_affine", affine }, { W02_FN_REPORT, "bug_check_launch", report })
