/* judge_w39_runner.c — week 39's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's softmax_ext.o (the C API alone: built
 * without WB_TORCH_EXT, as the week's Check test links it), nothing that
 * writes a record. Its one entry calls softmax_ext on what the judge sent
 * (judge_w39.h); judge_w39.c holds every check. */
#include <cuda_runtime_api.h>
#include <string.h>

#include "judge.h"
#include "judge_w39.h"
#include "softmax_ext.h"

static int softmax(const jr_args *a)
{
    cudaError_t e = softmax_ext(a->p[0], a->p[1], a->i64[1], a->i64[2], (softmax_dtype)a->i64[3], 0);
    if (a->i64[4]) { /* the test's synchronisation after a refused call */
        int later = (int)cudaDeviceSynchronize();
        memcpy(a->out, &later, sizeof later);
        *a->out_len = sizeof later;
    }
    return (int)e;
}

JR_MAIN({ W39_FN_SOFTMAX, "softmax_ext", softmax })
