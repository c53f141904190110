/* judge_w07_yard_runner.c — week 07's yardstick runner (judge_week.h,
 * jd_yard_bench): judge_runner.c, this main and the week's given CUB
 * wrapper (phase1/week07/support/yard_cub.cu), instructor code only. The
 * judge times CUB's sum through it with the same protocol as the student's
 * reduce_sum, so what the protocol costs is in both figures and not in
 * their ratio. */
#include <stddef.h>
#include <cuda_runtime_api.h>

#include "judge.h"
#include "judge_w07.h"
#include "support/yard_cub.h"

/* p[0] x, p[1] the sum (one float), i64[0] n: cub::DeviceReduce::Sum on a
 * workspace of the runner's own, allocated on the first call of a size
 * (the warm-up request: not timed), as the test allocates CUB's before
 * timing. */
static int cub_sum(const jr_args *a)
{
    static void *ws;
    static size_t cap;
    size_t n = (size_t)a->i64[0], bytes = yard_cub_sum_bytes(n);
    if (bytes > cap) {
        if (ws) cudaFree(ws);
        ws = NULL, cap = 0;
        if (cudaMalloc(&ws, bytes) != cudaSuccess) return -1;
        cap = bytes;
    }
    return (int)yard_cub_sum(ws, bytes, (const float *)a->p[0], (float *)a->p[1], n);
}

JR_MAIN({ W07_YARD_CUB_SUM, "cub::DeviceReduce::Sum", cub_sum })
