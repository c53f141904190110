/* judge_w06_runner.c — week 06's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's transpose.o, strided.o, localmem.o and
 * constmem.o, nothing that writes a record. Each entry calls one function
 * of the week's API on what the judge sent; judge_w06.c holds every check. */
#include <string.h>
#include <cuda_runtime_api.h>

#include "constmem.h"
#include "judge.h"
#include "judge_w06.h"
#include "localmem.h"
#include "strided.h"
#include "transpose.h"

static int tr(const jr_args *a, cudaError_t (*fn)(const float *, float *, int, int))
{
    return (int)fn((const float *)a->p[0], (float *)a->p[1], (int)a->i64[1], (int)a->i64[2]);
}
static int naive(const jr_args *a) { return tr(a, transpose_naive); }
static int tiled(const jr_args *a) { return tr(a, transpose_tiled); }
static int padded(const jr_args *a) { return tr(a, transpose_padded); }

static int strided(const jr_args *a)
{
    return (int)strided_copy((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0], (int)a->i64[1]);
}

static int med_local(const jr_args *a)
{
    return (int)localmem_median9_local((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0]);
}
static int med_regs(const jr_args *a)
{
    return (int)localmem_median9_regs((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0]);
}

static int med_attrs(const jr_args *a)
{
    int r[2] = { -1, -1 };
    int e = (int)localmem_median9_attrs((int)a->i64[0], &r[0], &r[1]);
    memcpy(a->out, r, sizeof r), *a->out_len = sizeof r;
    return e;
}

static int poly_set(const jr_args *a) { return (int)constmem_poly_set((const float *)a->p[0], (int)a->i64[0]); }

static int poly_eval(const jr_args *a)
{
    return (int)constmem_poly_eval((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0]);
}

JR_MAIN({ W06_FN_NAIVE, "transpose_naive", naive }, { W06_FN_TILED, "transpose_tiled", tiled },
        { W06_FN_PADDED, "transpose_padded", padded }, { W06_FN_STRIDED, "strided_copy", strided },
        { W06_FN_MEDIAN_LOCAL, "localmem_median9_local", med_local },
        { W06_FN_MEDIAN_REGS, "localmem_median9_regs", med_regs },
        { W06_FN_MEDIAN_ATTRS, "localmem_median9_attrs", med_attrs }, { W06_FN_POLY_SET, "constmem_poly_set", poly_set },
        { W06_FN_POLY_EVAL, "constmem_poly_eval", poly_eval })
