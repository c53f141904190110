/* yard_lt_layer.cu — week 18, given: cuBLASLt's fused layer, the yardstick
 * cuBLASLt (support/yard_lt_layer.h says what it computes).
 *
 * cuBLASLt is column-major. A row-major y (batch x out) is a column-major
 * out x batch matrix with ld = out, so the layer is, column-major,
 *   y (out x batch) = W^T' (out x in) * x' (in x batch)
 * where the row-major W (out x in) is a column-major in x out matrix
 * (ld = in) taken transposed, and the row-major x is a column-major
 * in x batch matrix (ld = in). The epilogue's bias has one value a row of
 * the column-major result: out values, b as it is. For int8 that layout is
 * cuBLASLt's "TN" (A transposed, B not), the one its IMMA kernels take
 * without the special tile orders (CUBLASLT_ORDER_COL32 ...), leading
 * dimensions a multiple of 4. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cublasLt.h>
#include <cuda_runtime.h>
#include "yard_lt_layer.h"

struct yard_lt_layer {
    cublasLtHandle_t       lt;
    cublasLtMatmulDesc_t   op;
    cublasLtMatrixLayout_t lw, lx, ly;
    cublasLtMatmulAlgo_t   algo;
    yard_lt_type           type;
    const void            *x, *W;
    void                  *y;
    void                  *ws;
    size_t                 ws_bytes;
};

extern "C" void yard_lt_layer_close(yard_lt_layer *p)
{
    if (!p) return;
    if (p->lw) cublasLtMatrixLayoutDestroy(p->lw);
    if (p->lx) cublasLtMatrixLayoutDestroy(p->lx);
    if (p->ly) cublasLtMatrixLayoutDestroy(p->ly);
    if (p->op) cublasLtMatmulDescDestroy(p->op);
    if (p->lt) cublasLtDestroy(p->lt);
    if (p->ws) cudaFree(p->ws);
    free(p);
}

extern "C" yard_lt_layer *yard_lt_layer_open(const float *x, const float *W, const float *b, float *y, int batch,
                                             int in, int out, char *why, size_t why_size)
{
    return yard_lt_layer_open_as(YARD_LT_F32, x, W, b, y, batch, in, out, why, why_size);
}

extern "C" yard_lt_layer *yard_lt_layer_open_as(yard_lt_type type, const void *x, const void *W, const float *b,
                                                void *y, int batch, int in, int out, char *why, size_t why_size)
{
    if (batch <= 0 || in <= 0 || out <= 0 || (type == YARD_LT_I8 && in % 4)) {
        snprintf(why, why_size, "yard_lt_layer_open: batch, in and out must be positive (in a multiple of 4 for int8)");
        return NULL;
    }
    yard_lt_layer *p = (yard_lt_layer *)calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, why_size, "yard_lt_layer_open: out of host memory");
        return NULL;
    }
    p->type = type, p->x = x, p->W = W, p->y = y;
    /* input, output and compute types, and the epilogue, of each type */
    cudaDataType_t tin = type == YARD_LT_F32 ? CUDA_R_32F : type == YARD_LT_BF16 ? CUDA_R_16BF : CUDA_R_8I;
    cudaDataType_t tout = type == YARD_LT_I8 ? CUDA_R_32I : CUDA_R_32F;
    cublasComputeType_t comp = type == YARD_LT_I8 ? CUBLAS_COMPUTE_32I : CUBLAS_COMPUTE_32F;
    cublasStatus_t s;
    cublasLtMatmulPreference_t pref = NULL;
    cublasOperation_t opT = CUBLAS_OP_T, opN = CUBLAS_OP_N;
    cublasLtEpilogue_t epi = type == YARD_LT_I8 ? CUBLASLT_EPILOGUE_DEFAULT : CUBLASLT_EPILOGUE_RELU_BIAS;
#define LT(call)                                                                      \
    if ((s = (call)) != CUBLAS_STATUS_SUCCESS) {                                      \
        snprintf(why, why_size, "%s: %s", #call, cublasLtGetStatusString(s));         \
        goto fail;                                                                    \
    }
    {
        LT(cublasLtCreate(&p->lt));
        /* alpha and beta: int32 for the integer GEMM, float otherwise */
        LT(cublasLtMatmulDescCreate(&p->op, comp, type == YARD_LT_I8 ? CUDA_R_32I : CUDA_R_32F));
        LT(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSA, &opT, sizeof opT));
        LT(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSB, &opN, sizeof opN));
        LT(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
        if (type != YARD_LT_I8) {
            LT(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &b, sizeof b));
        }
        LT(cublasLtMatrixLayoutCreate(&p->lw, tin, (uint64_t)in, (uint64_t)out, in));
        LT(cublasLtMatrixLayoutCreate(&p->lx, tin, (uint64_t)in, (uint64_t)batch, in));
        LT(cublasLtMatrixLayoutCreate(&p->ly, tout, (uint64_t)out, (uint64_t)batch, out));
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
        cublasLtMatmulHeuristicResult_t res;
        int found = 0;
        LT(cublasLtMatmulAlgoGetHeuristic(p->lt, p->op, p->lw, p->lx, p->ly, p->ly, pref, 1, &res, &found));
        if (!found || res.state != CUBLAS_STATUS_SUCCESS) {
            snprintf(why, why_size, "cuBLASLt has no %s on this GPU",
                     type == YARD_LT_F32    ? "FP32 algorithm with CUBLASLT_EPILOGUE_RELU_BIAS"
                     : type == YARD_LT_BF16 ? "BF16 algorithm with CUBLASLT_EPILOGUE_RELU_BIAS"
                                            : "INT8 algorithm (TN, CUBLAS_COMPUTE_32I)");
            goto fail;
        }
        p->algo = res.algo;
        cublasLtMatmulPreferenceDestroy(pref);
        return p;
    }
#undef LT
fail:
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    yard_lt_layer_close(p);
    return NULL;
}

extern "C" int yard_lt_layer_run(yard_lt_layer *p, char *why, size_t why_size)
{
    const float one = 1.f, zero = 0.f;
    const int32_t ione = 1, izero = 0;
    const void *alpha = &one, *beta = &zero;
    if (p->type == YARD_LT_I8) alpha = &ione, beta = &izero;
    cublasStatus_t s = cublasLtMatmul(p->lt, p->op, alpha, p->W, p->lw, p->x, p->lx, beta, p->y, p->ly, p->y, p->ly,
                                      &p->algo, p->ws, p->ws_bytes, 0);
    if (s == CUBLAS_STATUS_SUCCESS) return 0;
    snprintf(why, why_size, "cublasLtMatmul: %s", cublasLtGetStatusString(s));
    return -1;
}
