/* yard_epilogue.cu — week 28, given: cuBLASLt's fused epilogue and a
 * library unfused pair, the yardsticks of w28.fused-speed
 * (support/yard_epilogue.h says what each computes). */
#include <stdio.h>
#include <stdlib.h>
#include <cublasLt.h>
#include "gemm_epilogue.h" /* ACT_NONE, ACT_RELU, ACT_GELU */
#include "yard_epilogue.h"

struct yard_lt {
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, lc; /* cuBLASLt's A (our B), B (our A), C */
    cublasLtMatmulAlgo_t algo;
    const void *A, *B;
    void *C, *ws;
    size_t ws_bytes;
    cublasLtEpilogue_t epi;
};

static cublasLtEpilogue_t epilogue_for(int act, int with_bias)
{
    if (act == ACT_RELU) return with_bias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
    if (act == ACT_GELU) return with_bias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
    return with_bias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
}

extern "C" const char *yard_lt_epilogue(const yard_lt *p)
{
    switch (p->epi) {
    case CUBLASLT_EPILOGUE_RELU_BIAS: return "CUBLASLT_EPILOGUE_RELU_BIAS";
    case CUBLASLT_EPILOGUE_RELU: return "CUBLASLT_EPILOGUE_RELU";
    case CUBLASLT_EPILOGUE_GELU_BIAS: return "CUBLASLT_EPILOGUE_GELU_BIAS";
    case CUBLASLT_EPILOGUE_GELU: return "CUBLASLT_EPILOGUE_GELU";
    case CUBLASLT_EPILOGUE_BIAS: return "CUBLASLT_EPILOGUE_BIAS";
    default: return "CUBLASLT_EPILOGUE_DEFAULT";
    }
}

/* The largest power of two (up to 256) dividing the address. */
static uint32_t align_of(const void *p)
{
    uint32_t a = 256;
    while (a > 1 && ((uintptr_t)p % a) != 0) a /= 2;
    return a;
}

extern "C" void yard_lt_close(yard_lt *p)
{
    if (!p) return;
    if (p->la) cublasLtMatrixLayoutDestroy(p->la);
    if (p->lb) cublasLtMatrixLayoutDestroy(p->lb);
    if (p->lc) cublasLtMatrixLayoutDestroy(p->lc);
    if (p->op) cublasLtMatmulDescDestroy(p->op);
    if (p->lt) cublasLtDestroy(p->lt);
    if (p->ws) cudaFree(p->ws);
    free(p);
}

extern "C" yard_lt *yard_lt_open(const uint16_t *A, const uint16_t *B, const float *bias, float *C, int M, int N,
                                 int K, int act, char *why, size_t why_size)
{
    if (M <= 0 || N <= 0 || K <= 0 || act < ACT_NONE || act > ACT_GELU) {
        snprintf(why, why_size, "yard_lt_open: M, N, K must be positive and act one of ACT_*");
        return NULL;
    }
    yard_lt *p = (yard_lt *)calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, why_size, "yard_lt_open: out of host memory");
        return NULL;
    }
    p->A = A, p->B = B, p->C = C, p->epi = epilogue_for(act, bias != NULL);
    cublasStatus_t s;
    cublasLtMatmulPreference_t pref = NULL;
#define LT(call)                                                                                     \
    if ((s = (call)) != CUBLAS_STATUS_SUCCESS) {                                                     \
        snprintf(why, why_size, "%s: %s", #call, cublasLtGetStatusString(s));                        \
        goto fail;                                                                                   \
    }
    {
        LT(cublasLtCreate(&p->lt));
        LT(cublasLtMatmulDescCreate(&p->op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
        LT(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_EPILOGUE, &p->epi, sizeof p->epi));
        if (bias) LT(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
        /* column-major: Lt's A is B^T (N x K, ld N), Lt's B is A^T (K x M, ld K), C^T is N x M (ld N) */
        LT(cublasLtMatrixLayoutCreate(&p->la, CUDA_R_16F, (uint64_t)N, (uint64_t)K, N));
        LT(cublasLtMatrixLayoutCreate(&p->lb, CUDA_R_16F, (uint64_t)K, (uint64_t)M, K));
        LT(cublasLtMatrixLayoutCreate(&p->lc, CUDA_R_32F, (uint64_t)N, (uint64_t)M, N));
        LT(cublasLtMatmulPreferenceCreate(&pref));
        p->ws_bytes = (size_t)32 << 20;
        cudaError_t e = cudaMalloc(&p->ws, p->ws_bytes);
        if (e != cudaSuccess) {
            snprintf(why, why_size, "cudaMalloc of the cuBLASLt workspace: %s", cudaGetErrorString(e));
            p->ws = NULL;
            goto fail;
        }
        uint32_t al_a = align_of(B), al_b = align_of(A), al_c = align_of(C);
        LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &p->ws_bytes,
                                                sizeof p->ws_bytes));
        LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &al_a, sizeof al_a));
        LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &al_b, sizeof al_b));
        LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &al_c, sizeof al_c));
        LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &al_c, sizeof al_c));
        cublasLtMatmulHeuristicResult_t res;
        int found = 0;
        LT(cublasLtMatmulAlgoGetHeuristic(p->lt, p->op, p->la, p->lb, p->lc, p->lc, pref, 1, &res, &found));
        if (!found || res.state != CUBLAS_STATUS_SUCCESS) {
            snprintf(why, why_size, "cuBLASLt has no algorithm for %s on this GPU", yard_lt_epilogue(p));
            goto fail;
        }
        p->algo = res.algo;
        cublasLtMatmulPreferenceDestroy(pref);
        return p;
    }
#undef LT
fail:
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    yard_lt_close(p);
    return NULL;
}

extern "C" int yard_lt_run(const yard_lt *p)
{
    const float one = 1.f, zero = 0.f;
    return (int)cublasLtMatmul(p->lt, p->op, &one, p->B, p->la, p->A, p->lb, &zero, p->C, p->lc, p->C, p->lc,
                               &p->algo, p->ws, p->ws_bytes, 0);
}

/* ---------------------------------------------------------------- the library side's element-wise pass */

/* One float a thread, grid-stride; the activations as gemm_epilogue.h
 * defines them (ReLU keeps NaN; GELU in its tanh form, with tanhf). */
template <int ACT> static __global__ void yard_bias_act_kernel(float *C, const float *bias, size_t n, size_t N)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float x = C[i] + (bias != nullptr ? bias[i % N] : 0.f);
        if (ACT == ACT_RELU) x = (x < 0.f) ? 0.f : x;
        if (ACT == ACT_GELU) x = 0.5f * x * (1.f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
        C[i] = x;
    }
}

extern "C" cudaError_t yard_bias_act(float *C, const float *bias, int M, int N, int act)
{
    bool known = act == ACT_NONE || act == ACT_RELU || act == ACT_GELU;
    if (!known || M < 0 || N < 0) return cudaErrorInvalidValue;
    size_t n = (size_t)M * (size_t)N;
    if (n == 0) return cudaSuccess;
    int dev = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess) return e;
    size_t want = (n + 255) / 256, cap = (size_t)sms * 16;
    unsigned blocks = (unsigned)(want < cap ? want : cap);
    switch (act) {
    case ACT_RELU: yard_bias_act_kernel<ACT_RELU><<<blocks, 256>>>(C, bias, n, (size_t)N); break;
    case ACT_GELU: yard_bias_act_kernel<ACT_GELU><<<blocks, 256>>>(C, bias, n, (size_t)N); break;
    default: yard_bias_act_kernel<ACT_NONE><<<blocks, 256>>>(C, bias, n, (size_t)N); break;
    }
    return cudaGetLastError();
}
