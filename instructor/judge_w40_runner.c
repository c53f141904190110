/* judge_w40_runner.c — week 40's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's softmax_checked.o (the C API alone: built
 * without WB_TORCH_EXT, as the week's Check test links it), nothing that
 * writes a record. Its one entry calls softmax_checked on what the judge
 * sent (judge_w40.h); judge_w40.c holds every check. */
#include <cuda_runtime_api.h>
#include <string.h>

#include "judge.h"
#include "judge_w40.h"
#include "softmax_checked.h"

static int softmax(const jr_args *a)
{
    cudaError_t e = softmax_checked(a->p[0], a->p[1], a->i64[1], a->i64[2], (smc_dtype)a->i64[3], 0);
    if (a->i64[4]) { /* the test's synchronisation after a refused call */
        int later = (int)cudaDeviceSynchronize();
        memcpy(a->out, &later, sizeof later);
        *a->out_len = sizeof later;
    }
    return (int)e;
}

JR_MAIN({ W40_FN_SOFTMAX, "softmax_checked", softmax })
