/* judge_w24_runner.c — week 24's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's vec4.o, dbuf.o and warptile.o, nothing
 * that writes a record. Each entry calls one SGEMM on what the judge sent
 * (judge_gemm.h's layout); judge_w24.c holds every check. */
#include <cuda_runtime_api.h>

#define JG_RUNNER_ONLY
#include "dbuf.h"
#include "judge.h"
#include "judge_gemm.h"
#include "judge_w24.h"
#include "vec4.h"
#include "warptile.h"

static int vec4(const jr_args *a) { return jg_call(a, vec4_sgemm); }
static int dbuf(const jr_args *a) { return jg_call(a, dbuf_sgemm); }
static int warptile(const jr_args *a) { return jg_call(a, warptile_sgemm); }

JR_MAIN({ W24_FN_VEC4, "vec4_sgemm", vec4 }, { W24_FN_DBUF, "dbuf_sgemm", dbuf },
        { W24_FN_WARPTILE, "warptile_sgemm", warptile })
