/* judge_w32_runner.c — week 32's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's ln_host.o, ln_dx.o and ln_dgb.o, nothing
 * that writes a record. Each entry calls one function of the week's API on
 * what the judge sent (judge_w32.h); judge_w32.c holds every check. */
#include <stddef.h>
#include <string.h>

#include "judge.h"
#include "judge_w32.h"
#include "ln_dgb.h"
#include "ln_dx.h"
#include "ln_host.h"

static int host(const jr_args *a)
{
    const int rows = (int)a->i64[1], cols = (int)a->i64[2];
    const size_t n = (size_t)(rows > 0 ? rows : 0) * (size_t)(cols > 0 ? cols : 0);
    const size_t nr = rows > 0 ? (size_t)rows : 0, nc = cols > 0 ? (size_t)cols : 0;
    const double *x = (const double *)a->p[0], *gamma = x + n, *mean = gamma + nc, *rstd = mean + nr, *dy = rstd + nr;
    double *dx = (double *)a->p[1], *dgamma = dx + n, *dbeta = dgamma + nc;
    ln_host_backward(x, gamma, mean, rstd, dy, dx, dgamma, dbeta, rows, cols);
    return 0;
}

static int dx(const jr_args *a)
{
    const float *mean = (const float *)a->p[3];
    return (int)ln_dx_backward((const float *)a->p[0], (const float *)a->p[1], (const float *)a->p[2], mean,
                               mean ? mean + a->i64[3] : NULL, (float *)a->p[4], (int)a->i64[1], (int)a->i64[2]);
}

static int ws_bytes(const jr_args *a)
{
    unsigned long long b = (unsigned long long)ln_dgb_workspace_bytes((int)a->i64[1], (int)a->i64[2]);
    memcpy(a->out, &b, sizeof b), *a->out_len = sizeof b;
    return 0;
}

static int dgb(const jr_args *a)
{
    const float *mean = (const float *)a->p[2];
    return (int)ln_dgb_backward((const float *)a->p[0], (const float *)a->p[1], mean, mean ? mean + a->i64[3] : NULL,
                                (float *)a->p[3], (float *)a->p[4], a->p[5], (int)a->i64[1], (int)a->i64[2]);
}

static int dx_timed(const jr_args *a)
{
    const size_t n = (size_t)a->i64[0], rows = (size_t)a->i64[1], cols = (size_t)a->i64[2];
    const float *x = (const float *)a->p[0], *gamma = x + n, *mean = gamma + cols, *rstd = mean + rows;
    return (int)ln_dx_backward(x, (const float *)a->p[1], gamma, mean, rstd, (float *)a->p[2], (int)rows, (int)cols);
}

static int dgb_timed(const jr_args *a)
{
    const size_t n = (size_t)a->i64[0], rows = (size_t)a->i64[1], cols = (size_t)a->i64[2];
    const float *x = (const float *)a->p[0], *mean = x + n, *rstd = mean + rows;
    float *dgamma = (float *)a->p[2];
    void *ws = a->i64[4] ? (char *)a->p[0] + a->i64[3] : NULL;
    return (int)ln_dgb_backward(x, (const float *)a->p[1], mean, rstd, dgamma, dgamma + cols, ws, (int)rows, (int)cols);
}

JR_MAIN({ W32_FN_HOST, "ln_host_backward", host }, { W32_FN_DX, "ln_dx_backward", dx },
        { W32_FN_WS_BYTES, "ln_dgb_workspace_bytes", ws_bytes }, { W32_FN_DGB, "ln_dgb_backward", dgb },
        { W32_FN_DX_TIMED, "ln_dx_backward", dx_timed }, { W32_FN_DGB_TIMED, "ln_dgb_backward", dgb_timed })
