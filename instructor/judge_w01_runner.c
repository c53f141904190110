/* judge_w01_runner.c — week 01's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's devquery.o and vecadd.o, nothing that
 * writes a record. Each entry calls one function of the week's API on what
 * the judge sent; judge_w01.c holds every check. */
#include <string.h>

#include "devquery.h"
#include "judge.h"
#include "judge_w01.h"
#include "vecadd.h"

static int peak_gbps(const jr_args *a)
{
    double v = dq_peak_gbps((int)a->i64[0], (int)a->i64[1]);
    memcpy(a->out, &v, sizeof v), *a->out_len = sizeof v;
    return 0;
}

static int peak_gflops(const jr_args *a)
{
    double v = dq_peak_fp32_gflops((int)a->i64[0], (int)a->i64[1], (int)a->i64[2]);
    memcpy(a->out, &v, sizeof v), *a->out_len = sizeof v;
    return 0;
}

/* i64[0]: the device, or W01_THIS_DEVICE for the one the judge named in its
 * hello (the runner's own ordinal for it) */
static int query(const jr_args *a)
{
    int dev = (int)a->i64[0];
    if (a->i64[0] == W01_THIS_DEVICE && cudaGetDevice(&dev) != cudaSuccess) return (int)cudaErrorNoDevice;
    dq_report r;
    memset(&r, 0xA5, sizeof r);
    cudaError_t e = dq_query(dev, &r);
    cudaGetLastError(); /* an error dq_query returned is its answer, not the runner's */
    memcpy(a->out, &r, sizeof r), *a->out_len = sizeof r;
    return (int)e;
}

static int add(const jr_args *a)
{
    return (int)vecadd((const float *)a->p[0], (const float *)a->p[1], (float *)a->p[2], (size_t)a->i64[0]);
}

JR_MAIN({ W01_FN_PEAK_GBPS, "dq_peak_gbps", peak_gbps }, { W01_FN_PEAK_GFLOPS, "dq_peak_fp32_gflops", peak_gflops },
        { W01_FN_QUERY, "dq_query", query }, { W01_FN_VECADD, "vecadd", add })
