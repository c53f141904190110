/* judge_w16_runner.c — week 16's runner (instructor/judge.h): this main,
 * judge_runner.c, the student's slab.o, hostmem.o and pipeline.o and the
 * week's given support/work.o (w16_work, which pipeline_run calls), as the
 * week's test program links them; nothing that writes a record. Each entry
 * calls one function of the week's API on what the judge sent
 * (judge_w16.h) and hands back what it returned, holding no check. The
 * slab lives here between calls (its bookkeeping is host memory of this
 * process); the streams pipeline_run is given are this process's own. */
#include <stdint.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "hostmem.h"
#include "judge.h"
#define W16_PIN_ENTRY /* both runners register the judge's host buffers the same way */
#include "judge_w16.h"
#include "pipeline.h"
#include "slab.h"

static slab g_slab;
static int  g_live; /* g_slab was initialised and not destroyed */

static int slab_zero(const slab *s) { return !s->free_list && !s->used && !s->owned && !s->nblocks; }

static int slab_script(const jr_args *a)
{
    unsigned char *range = (unsigned char *)a->p[0];
    const w16_op  *op = (const w16_op *)a->p[1];
    w16_res       *res = (w16_res *)a->p[2];
    const long long n = a->i64[0];
    if (!range || !op || !res || n < 0) return -1;
    for (long long i = 0; i < n; i++) {
        const w16_op *o = &op[i];
        w16_res *r = &res[i];
        memset(r, 0, sizeof *r);
        if (o->code == W16_OP_INIT) {
            memset(&g_slab, 0x5A, sizeof g_slab);
            cudaError_t e = slab_init(&g_slab, o->a[0] < 0 ? NULL : range + o->a[0], (size_t)o->a[1], (size_t)o->a[2],
                                      (size_t)o->a[3]);
            r->v = (long long)e, r->zero = slab_zero(&g_slab), g_live = e == cudaSuccess;
        } else if (o->code == W16_OP_ALLOC) {
            void *p = g_live ? slab_alloc(&g_slab) : NULL;
            r->null = p == NULL;
            r->v = p ? (long long)((intptr_t)p - (intptr_t)range) : 0;
        } else if (o->code == W16_OP_FREE) {
            void *p = NULL;
            if (!o->a[1]) {
                intptr_t at = (intptr_t)range + (intptr_t)o->a[0];
                if (o->ref >= 0 && o->ref < i) at += (intptr_t)res[o->ref].v;
                p = (void *)at;
            }
            r->v = g_live ? slab_free(&g_slab, p) : -2;
        } else if (o->code == W16_OP_DESTROY) {
            if (g_live) slab_destroy(&g_slab); /* never on what a failed slab_init left (it may not be zero) */
            else memset(&g_slab, 0, sizeof g_slab);
            r->zero = slab_zero(&g_slab), g_live = 0;
        } else {
            return -1;
        }
        r->in_use = g_live ? (long long)slab_in_use(&g_slab) : -1;
        r->cap = g_live ? (long long)slab_capacity(&g_slab) : -1;
    }
    return 0;
}

static int zc(const jr_args *a)
{
    void *d = NULL;
    if (cudaHostGetDevicePointer(&d, a->p[0], 0) != cudaSuccess || !d) {
        (void)cudaGetLastError();
        return -1;
    }
    return (int)hm_zc_scale((const float *)((unsigned char *)d + a->i64[1]), (float *)a->p[1], (size_t)a->i64[0],
                            (float)a->f64[0], 0);
}

static cudaStream_t g_st[W16_MAX_STREAMS];
static int          g_nst;

static int pipe_call(const jr_args *a)
{
    const int ns = (int)a->i64[3];
    if (ns < 1 || ns > W16_MAX_STREAMS) return -1;
    for (; g_nst < ns; g_nst++)
        if (cudaStreamCreate(&g_st[g_nst]) != cudaSuccess) return -1;
    return (int)pipeline_run((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0], (float *)a->p[2],
                             (float *)a->p[3], (size_t)a->i64[1], (int)a->i64[2], g_st, ns);
}

JR_MAIN({ W16_FN_SLAB, "slab_init/slab_alloc/slab_free", slab_script }, { W16_FN_PIN, "cudaHostRegister", w16_pin },
        { W16_FN_ZC, "hm_zc_scale", zc }, { W16_FN_PIPE, "pipeline_run", pipe_call })
