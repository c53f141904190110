/* judge_w20_yard_runner.c — week 20's yardstick's runner: judge_runner.c
 * and this main, no student object. XFER as the week's test defines it
 * (test_week20.c, xfer_work): the bytes of x copied up to the device and
 * back down into y, between host buffers pinned as the library's are
 * (W20_FN_PIN), timed by the judge through the same requests as the
 * student's wbk_standardize (judge_w20.h), every y checked by the judge. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "judge.h"
#include "judge_w20.h"

static void  *g_dev_buf; /* the device copy, grown to the largest call */
static size_t g_cap;

static int xfer(const jr_args *a)
{
    const size_t bytes = (size_t)a->i64[2];
    if (bytes > g_cap) {
        cudaFree(g_dev_buf);
        g_dev_buf = NULL, g_cap = 0;
        cudaError_t e = cudaMalloc(&g_dev_buf, bytes);
        if (e != cudaSuccess) return (int)e;
        g_cap = bytes;
    }
    cudaError_t e = cudaMemcpy(g_dev_buf, a->p[0], bytes, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(a->p[1], g_dev_buf, bytes, cudaMemcpyDeviceToHost);
    if (a->rep == 0) memset(a->out, 0, sizeof(w20_timed_rep)), *a->out_len = sizeof(w20_timed_rep);
    return (int)e;
}

static int pin(const jr_args *a)
{
    w20_rep *r = (w20_rep *)a->out;
    memset(r, 0, sizeof *r), *a->out_len = sizeof *r;
    r->rc = a->i64[2] ? (int)cudaHostRegister(a->p[0], (size_t)a->i64[2], cudaHostRegisterDefault)
                      : (int)cudaHostUnregister(a->p[0]);
    (void)cudaGetLastError();
    return 0;
}

JR_MAIN({ W20_YARD_FN_XFER, "cudaMemcpy up and down", xfer }, { W20_FN_PIN, "cudaHostRegister", pin },
        { W20_FN_UNPIN, "cudaHostUnregister", pin })
