/* judge_hgemm_yard_runner.c — the HGEMM weeks' yardsticks' runner
 * (judge_week.h, jd_yard_bench): judge_runner.c, this main and cuBLAS,
 * instructor code only, no student object: judge-w25-yard-runner; built
 * with -DHG_WITH_SIMT and week 26's given support/yard_sgemm_simt.o as
 * judge-w26-yard-runner; built with -DHG_WITH_W26 and week 26's reference
 * phase5/week26/solution/hgemm_mma.o (a given object: week 27's yardstick,
 * not the student's) as judge-w27-yard-runner. The judge times them through it with the same
 * protocol as the student's calls (judge_hgemm.c), so what the protocol
 * costs is in both figures and not in their ratio. */
#include <stdint.h>
#include <cublas_v2.h>

#define JUDGE_HGEMM_RUNNER_ONLY
#include "judge.h"
#include "judge_hgemm.h"
#include "hgemm_host.h" /* hgemm_cublas_rm: the tests' cuBLAS HGEMM */
#ifdef HG_WITH_SIMT
#include "support/yard_sgemm_simt.h"
#endif

/* p[0] A, p[1] B (halves), p[2] C (floats), i64[1..3] M, N, K: cublasGemmEx,
 * FP16 in, FP32 compute, on a handle made on the first call (the protocol's
 * untimed warm-up request), on the default stream. */
static int cublas(const jr_args *a)
{
    static cublasHandle_t h;
    if (!h && cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return h = NULL, -1;
    cublasStatus_t s = hgemm_cublas_rm(h, (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (const uint16_t *)a->p[0],
                                       (const uint16_t *)a->p[1], (float *)a->p[2]);
    return s == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}

#ifdef HG_WITH_SIMT
/* the same, A and B floats holding the halves: week 26's given FP32 CUDA-core GEMM */
static int simt(const jr_args *a)
{
    return (int)yard_sgemm_simt((const float *)a->p[0], (const float *)a->p[1], (float *)a->p[2], (int)a->i64[1],
                                (int)a->i64[2], (int)a->i64[3]);
}
#define HG_SIMT_ENTRY , { HG_YARD_SIMT, "yard_sgemm_simt", simt }
#else
#define HG_SIMT_ENTRY
#endif

#ifdef HG_WITH_W26
#include "hgemm_mma.h"
/* the same arguments: week 26's reference kernel, w27.tiled-speed's yardstick */
static int w26(const jr_args *a)
{
    return (int)hgemm_mma((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], (float *)a->p[2], (int)a->i64[1],
                          (int)a->i64[2], (int)a->i64[3]);
}
#define HG_W26_ENTRY , { HG_YARD_W26, "hgemm_mma (week 26's reference)", w26 }
#else
#define HG_W26_ENTRY
#endif

JR_MAIN({ HG_YARD_CUBLAS, "cublasGemmEx", cublas } HG_SIMT_ENTRY HG_W26_ENTRY)
