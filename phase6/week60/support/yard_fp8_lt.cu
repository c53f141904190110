/* yard_fp8_lt.cu — week 60, given: cuBLASLt's FP8 GEMM on the week's layout
 * (support/yard_fp8_lt.h says what it computes and why it is "TN"). */
#include <stdio.h>
#include <stdlib.h>
#include <cublasLt.h>
#include <cuda_runtime.h>
#include "yard_fp8_lt.h"

struct yard_fp8 {
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, ld; /* cuBLASLt's A (our B), B (our A), C = D */
    cublasLtMatmulAlgo_t algo;
    const void *A, *B;
    void *D, *ws;
    size_t ws_bytes;
};

/* cuBLASLt's own words on a failed try: errors and hints go to this buffer
 * while the candidates are tried (cuBLASLt logs through a process-wide
 * callback), so that a yardstick that does not run says why, not only
 * "not supported". */
static char g_lt_said[320];
static void lt_heard(int level, const char *fn, const char *msg)
{
    (void)level;
    snprintf(g_lt_said, sizeof g_lt_said, "%s: %s", fn ? fn : "?", msg ? msg : "");
}

extern "C" void yard_fp8_close(yard_fp8 *p)
{
    if (!p) return;
    if (p->la) cublasLtMatrixLayoutDestroy(p->la);
    if (p->lb) cublasLtMatrixLayoutDestroy(p->lb);
    if (p->ld) cublasLtMatrixLayoutDestroy(p->ld);
    if (p->op) cublasLtMatmulDescDestroy(p->op);
    if (p->lt) cublasLtDestroy(p->lt);
    if (p->ws) cudaFree(p->ws);
    free(p);
}

extern "C" yard_fp8 *yard_fp8_open(const uint8_t *A, const uint8_t *B, const float *scale_a, const float *scale_b,
                                   uint16_t *D, int M, int N, int K, int fast_accum, char *why, size_t why_size)
{
    if (M <= 0 || N <= 0 || K <= 0 || !scale_a || !scale_b) {
        snprintf(why, why_size, "yard_fp8_open: M, N, K must be positive and the scales given");
        return NULL;
    }
    yard_fp8 *p = (yard_fp8 *)calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, why_size, "yard_fp8_open: out of host memory");
        return NULL;
    }
    p->A = A, p->B = B, p->D = D;
    cublasStatus_t s;
    cublasLtMatmulPreference_t pref = NULL;
#define LT(call)                                                                              \
    if ((s = (call)) != CUBLAS_STATUS_SUCCESS) {                                              \
        snprintf(why, why_size, "%s: %s", #call, cublasLtGetStatusString(s));                 \
        goto fail;                                                                            \
    }
    {
        const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        const int8_t fast = fast_accum ? 1 : 0;
        /* cuBLASLt's A is our B and its B our A: their scales swap with them */
        const float *lt_scale_a = scale_b, *lt_scale_b = scale_a;
        LT(cublasLtCreate(&p->lt));
        LT(cublasLtMatmulDescCreate(&p->op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
        LT(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
        LT(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
        LT(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &lt_scale_a,
                                          sizeof lt_scale_a));
        LT(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &lt_scale_b,
                                          sizeof lt_scale_b));
        LT(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
        /* column-major: Lt's A is stored K x N (ld K) and transposed, Lt's B K x M (ld K), D N x M (ld N) */
        LT(cublasLtMatrixLayoutCreate(&p->la, CUDA_R_8F_E4M3, (uint64_t)K, (uint64_t)N, K));
        LT(cublasLtMatrixLayoutCreate(&p->lb, CUDA_R_8F_E4M3, (uint64_t)K, (uint64_t)M, K));
        LT(cublasLtMatrixLayoutCreate(&p->ld, CUDA_R_16BF, (uint64_t)N, (uint64_t)M, N));
        LT(cublasLtMatmulPreferenceCreate(&pref));
        p->ws_bytes = (size_t)32 << 20;
        cudaError_t e = cudaMalloc(&p->ws, p->ws_bytes);
        if (e != cudaSuccess) {
            snprintf(why, why_size, "cudaMalloc of the cuBLASLt workspace: %s", cudaGetErrorString(e));
            p->ws = NULL;
            goto fail;
        }
        LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &p->ws_bytes,
                                                sizeof p->ws_bytes));
        /* up to 8 candidates, each tried once on the real buffers: the first
         * that runs to completion is the plan (a heuristic's first answer has
         * been seen to fail at run time; the status of the last try is kept
         * for the message) */
        cublasLtMatmulHeuristicResult_t res[8];
        int found = 0;
        LT(cublasLtMatmulAlgoGetHeuristic(p->lt, p->op, p->la, p->lb, p->ld, p->ld, pref, 8, res, &found));
        int chosen = -1, tried = 0;
        cublasStatus_t last = CUBLAS_STATUS_SUCCESS;
        cudaError_t sync = cudaSuccess;
        g_lt_said[0] = 0;
        const int env_log = getenv("CUBLASLT_LOG_MASK") || getenv("CUBLASLT_LOG_LEVEL");
        if (!env_log) { /* else the user's own logging stands */
            cublasLtLoggerSetCallback(lt_heard);
            cublasLtLoggerSetMask(1 | 4); /* errors and hints */
        }
        for (int i = 0; i < found && chosen < 0; i++) {
            if (res[i].state != CUBLAS_STATUS_SUCCESS) continue;
            p->algo = res[i].algo;
            tried++;
            last = (cublasStatus_t)yard_fp8_run(p);
            if (last == CUBLAS_STATUS_SUCCESS && (sync = cudaDeviceSynchronize()) == cudaSuccess) chosen = i;
        }
        if (!env_log) {
            cublasLtLoggerSetMask(0);
            cublasLtLoggerSetCallback(NULL);
        }
        if (chosen < 0) {
            snprintf(why, why_size,
                     "cuBLASLt has no FP8 (E4M3 TN, BF16 out%s) algorithm that runs for %d x %d x %d here "
                     "(%d candidates, %d tried; the last: %s%s%s; cuBLASLt said: %s)",
                     fast_accum ? ", fast accumulation" : "", M, N, K, found, tried, cublasLtGetStatusString(last),
                     sync != cudaSuccess ? ", then " : "", sync != cudaSuccess ? cudaGetErrorString(sync) : "",
                     g_lt_said[0] ? g_lt_said : "nothing");
            goto fail;
        }
        cublasLtMatmulPreferenceDestroy(pref);
        return p;
    }
#undef LT
fail:
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    yard_fp8_close(p);
    return NULL;
}

extern "C" int yard_fp8_run(const yard_fp8 *p)
{
    const float one = 1.f, zero = 0.f;
    return (int)cublasLtMatmul(p->lt, p->op, &one, p->B, p->la, p->A, p->lb, &zero, p->D, p->ld, p->D, p->ld,
                               &p->algo, p->ws, p->ws_bytes, 0);
}

extern "C" const char *yard_fp8_status(int status) { return cublasLtGetStatusString((cublasStatus_t)status); }
