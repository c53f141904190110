/* judge_w23_runner.c — week 23's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's tile1d.o and tile2d.o, nothing that
 * writes a record. Each entry calls one SGEMM on what the judge sent
 * (judge_gemm.h's layout); judge_w23.c holds every check. */
#include <cuda_runtime_api.h>

#define JG_RUNNER_ONLY
#include "judge.h"
#include "judge_gemm.h"
#include "judge_w23.h"
#include "tile1d.h"
#include "tile2d.h"

static int tile1d(const jr_args *a) { return jg_call(a, tile1d_sgemm); }
static int tile2d(const jr_args *a) { return jg_call(a, tile2d_sgemm); }

JR_MAIN({ W23_FN_TILE1D, "tile1d_sgemm", tile1d }, { W23_FN_TILE2D, "tile2d_sgemm", tile2d })
