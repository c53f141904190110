/* judge_w09_runner.c — week 09's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's intensity.o and sweep.o, nothing that
 * writes a record. Each entry calls one function of the week's API on what
 * the judge sent; judge_w09.c holds every check. */
#include <string.h>

#include "intensity.h"
#include "judge.h"
#include "judge_w09.h"
#include "sweep.h"

static int sweep(const jr_args *a)
{
    return (int)sweep_fma((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0], (int)a->i64[1],
                          (float)a->f64[0], (float)a->f64[1]);
}

static int intensity(const jr_args *a)
{
    const double *f = a->f64;
    w09_in_reply r;
    memset(&r, 0, sizeof r);
    switch (a->i64[0]) {
    case W09_IN_OF: r.value = intensity_of(f[0], f[1]); break;
    case W09_IN_VECADD: r.value = intensity_vecadd(); break;
    case W09_IN_SAXPY: r.value = intensity_saxpy(); break;
    case W09_IN_DOT: r.value = intensity_dot(); break;
    case W09_IN_STENCIL5: r.value = intensity_stencil5(); break;
    case W09_IN_GEMM: r.value = intensity_gemm(f[0], f[1], f[2], f[3]); break;
    case W09_IN_ROOF: r.value = intensity_roof_gflops(f[0], f[1], f[2]); break;
    case W09_IN_RIDGE: r.value = intensity_ridge(f[0], f[1]); break;
    case W09_IN_MEMORY_BOUND: r.bound = intensity_memory_bound(f[0], f[1], f[2]); break;
    default: return -1;
    }
    memcpy(a->out, &r, sizeof r), *a->out_len = sizeof r;
    return 0;
}

JR_MAIN({ W09_FN_SWEEP, "sweep_fma", sweep }, { W09_FN_INTENSITY, "intensity_*", intensity })
