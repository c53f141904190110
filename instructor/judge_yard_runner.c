/* judge_yard_runner.c — the yardstick's runner (judge_week.h, jd_copy_yard):
 * judge_runner.c and this main, instructor code only. The judge times COPY
 * through it with the same protocol as a student's calls (requests of
 * several calls, the judge's clock, every output checked), so that what
 * the protocol costs is in both figures and not in their ratio. */
#include <cuda_runtime.h>

#include "judge.h"
#include "judge_week.h"

/* p[0] the input, p[1] the output, i64[0] floats */
static int copy(const jr_args *a)
{
    return (int)cudaMemcpyAsync(a->p[1], a->p[0], (size_t)a->i64[0] * sizeof(float), cudaMemcpyDeviceToDevice, 0);
}

JR_MAIN({ JD_YARD_FN_COPY, "cudaMemcpyAsync", copy })
