/* judge_w05_runner.c — week 05's runner (instructor/judge.h): this main,
 * judge_runner.c, the student's ew.o, views.o and streams.o and the week's
 * support/spin.o (w05_mix, which the pipeline calls), nothing that writes a
 * record. Each entry calls one function of the week's API on what the judge
 * sent; judge_w05.c holds every check. */
#include <string.h>
#include <cuda_runtime_api.h>

#include "ew.h"
#include "judge.h"
#include "judge_w05.h"
#include "streams.h"
#include "views.h"

static int scale_relu(const jr_args *a)
{
    return (int)ew_scale_relu((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0], (float)a->f64[0]);
}

static int add2d(const jr_args *a)
{
    return (int)ew_add2d((const float *)a->p[0], (size_t)a->i64[2], (const float *)a->p[1], (size_t)a->i64[3],
                         (float *)a->p[2], (size_t)a->i64[4], (int)a->i64[0], (int)a->i64[1]);
}

static int tensor3(const jr_args *a)
{
    long long st[3] = { a->i64[1], a->i64[2], a->i64[3] };
    int shape[3] = { (int)a->i64[4], (int)a->i64[5], (int)a->i64[6] };
    return (int)ew_tensor3_relu((const float *)a->p[0], st, (float *)a->p[1], shape, (float)a->f64[0]);
}

static int views(const jr_args *a)
{
    w05_view_io *v = a->p[0];
    if (!v || v->ndim < 0 || v->ndim > 8 || v->new_ndim < 0 || v->new_ndim > 8) return -1;
    switch (a->i64[0]) {
    case W05_VIEWS_CONTIGUOUS: views_contiguous_strides(v->ndim, v->shape, v->strides); return 0;
    case W05_VIEWS_PERMUTE:
        v->rc = views_permute(v->ndim, v->shape, v->strides, v->perm, v->new_shape, v->new_strides);
        return 0;
    case W05_VIEWS_STRIDES:
        v->rc = views_strides(v->ndim, v->shape, v->strides, v->new_ndim, v->new_shape, v->new_strides);
        return 0;
    default: return -1;
    }
}

/* The test's pinned arrays (cudaHostAlloc) are the judge's host buffers
 * here: pinned in place where the driver allows it (else the copies are
 * pageable: slower, as exact). */
static int overlap(const jr_args *a)
{
    size_t n = (size_t)a->i64[0];
    int chunks = (int)a->i64[2], ns = (int)a->i64[3];
    if (ns < 1 || ns > 8) return -1;
    unsigned *hx = a->p[0], *hy = a->p[1];
    cudaStream_t st[8];
    cudaError_t e = cudaSuccess;
    int made = 0;
    for (; made < ns && e == cudaSuccess; made++) e = cudaStreamCreateWithFlags(&st[made], cudaStreamNonBlocking);
    if (e != cudaSuccess) made--;
    int px = n && cudaHostRegister(hx, n * sizeof *hx, cudaHostRegisterDefault) == cudaSuccess;
    int py = n && cudaHostRegister(hy, n * sizeof *hy, cudaHostRegisterDefault) == cudaSuccess;
    (void)cudaGetLastError(); /* a refused registration is no error of the student's */
    if (e == cudaSuccess)
        e = streams_overlap_pipeline(hx, hy, a->p[2], a->p[3], n, (unsigned)a->i64[1], chunks, st, ns, a->p[4]);
    cudaError_t y = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = y;
    for (int j = 0; j < made; j++) cudaStreamDestroy(st[j]);
    if (px) cudaHostUnregister(hx);
    if (py) cudaHostUnregister(hy);
    return (int)e;
}

JR_MAIN({ W05_FN_SCALE_RELU, "ew_scale_relu", scale_relu }, { W05_FN_ADD2D, "ew_add2d", add2d },
        { W05_FN_TENSOR3, "ew_tensor3_relu", tensor3 }, { W05_FN_VIEWS, "views_*", views },
        { W05_FN_OVERLAP, "streams_overlap_pipeline", overlap })
