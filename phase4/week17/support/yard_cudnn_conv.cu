/* yard_cudnn_conv.cu — week 17, given: cuDNN's forward convolution, the
 * yardstick of w17.conv-speed (yard_cudnn_conv.h). No cuDNN library is
 * linked: <cudnn.h> gives the types, and the functions are found at run time
 * through wb_cudnn_sym (common/include/wb_cudnn.h), so the test starts, and
 * the checkpoint that needs cuDNN says SKIP with the reason, on a machine
 * without it. The legacy convolution API (cudnnFindConvolutionForwardAlgorithm,
 * cudnnConvolutionForward) is cuDNN 9's own, deprecated in favour of the
 * graph API but still shipped, and the one a C program calls without the
 * C++ frontend. */
#include <math.h>
#include <stdio.h>
#include <cudnn.h>
#include <cuda_runtime.h>
#include "wb_cudnn.h"
#include "yard_cudnn_conv.h"

typedef cudnnStatus_t (*create_fn)(cudnnHandle_t *);
typedef cudnnStatus_t (*create_tensor_fn)(cudnnTensorDescriptor_t *);
typedef cudnnStatus_t (*set_tensor_fn)(cudnnTensorDescriptor_t, cudnnTensorFormat_t, cudnnDataType_t, int, int, int,
                                       int);
typedef cudnnStatus_t (*create_filter_fn)(cudnnFilterDescriptor_t *);
typedef cudnnStatus_t (*set_filter_fn)(cudnnFilterDescriptor_t, cudnnDataType_t, cudnnTensorFormat_t, int, int, int,
                                       int);
typedef cudnnStatus_t (*create_conv_fn)(cudnnConvolutionDescriptor_t *);
typedef cudnnStatus_t (*set_conv_fn)(cudnnConvolutionDescriptor_t, int, int, int, int, int, int,
                                     cudnnConvolutionMode_t, cudnnDataType_t);
typedef cudnnStatus_t (*set_math_fn)(cudnnConvolutionDescriptor_t, cudnnMathType_t);
typedef cudnnStatus_t (*out_dim_fn)(const cudnnConvolutionDescriptor_t, const cudnnTensorDescriptor_t,
                                    const cudnnFilterDescriptor_t, int *, int *, int *, int *);
typedef cudnnStatus_t (*find_fn)(cudnnHandle_t, const cudnnTensorDescriptor_t, const cudnnFilterDescriptor_t,
                                 const cudnnConvolutionDescriptor_t, const cudnnTensorDescriptor_t, const int, int *,
                                 cudnnConvolutionFwdAlgoPerf_t *);
typedef cudnnStatus_t (*forward_fn)(cudnnHandle_t, const void *, const cudnnTensorDescriptor_t, const void *,
                                    const cudnnFilterDescriptor_t, const void *, const cudnnConvolutionDescriptor_t,
                                    cudnnConvolutionFwdAlgo_t, void *, size_t, const void *,
                                    const cudnnTensorDescriptor_t, void *);
typedef const char *(*errstr_fn)(cudnnStatus_t);

static cudnnHandle_t g_handle;
static cudnnTensorDescriptor_t g_x, g_y;
static cudnnFilterDescriptor_t g_w;
static cudnnConvolutionDescriptor_t g_conv;
static set_tensor_fn g_set_tensor;
static set_filter_fn g_set_filter;
static set_conv_fn g_set_conv;
static set_math_fn g_set_math;
static out_dim_fn g_out_dim;
static find_fn g_find;
static forward_fn g_forward;
static errstr_fn g_errstr;
static float *g_dw;          /* the planned weights, on the device */
static int g_planned = 0;

static const char *status_text(cudnnStatus_t st) { return g_errstr ? g_errstr(st) : "(no cudnnGetErrorString)"; }

static const char *algo_name(int a)
{
    static const char *const NAMES[] = { "IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT",
                                         "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED" };
    return a >= 0 && a < (int)(sizeof NAMES / sizeof NAMES[0]) ? NAMES[a] : "?";
}

int yard_cudnn_conv_open(char *why, size_t n)
{
    if (g_handle) return 1;
    if (!wb_cudnn_open(why, n)) return 0;
    create_fn create = (create_fn)wb_cudnn_sym("cudnnCreate");
    create_tensor_fn create_tensor = (create_tensor_fn)wb_cudnn_sym("cudnnCreateTensorDescriptor");
    create_filter_fn create_filter = (create_filter_fn)wb_cudnn_sym("cudnnCreateFilterDescriptor");
    create_conv_fn create_conv = (create_conv_fn)wb_cudnn_sym("cudnnCreateConvolutionDescriptor");
    g_set_tensor = (set_tensor_fn)wb_cudnn_sym("cudnnSetTensor4dDescriptor");
    g_set_filter = (set_filter_fn)wb_cudnn_sym("cudnnSetFilter4dDescriptor");
    g_set_conv = (set_conv_fn)wb_cudnn_sym("cudnnSetConvolution2dDescriptor");
    g_set_math = (set_math_fn)wb_cudnn_sym("cudnnSetConvolutionMathType");
    g_out_dim = (out_dim_fn)wb_cudnn_sym("cudnnGetConvolution2dForwardOutputDim");
    g_find = (find_fn)wb_cudnn_sym("cudnnFindConvolutionForwardAlgorithm");
    g_forward = (forward_fn)wb_cudnn_sym("cudnnConvolutionForward");
    g_errstr = (errstr_fn)wb_cudnn_sym("cudnnGetErrorString");
    if (!create || !create_tensor || !create_filter || !create_conv || !g_set_tensor || !g_set_filter ||
        !g_set_conv || !g_set_math || !g_out_dim || !g_find || !g_forward) {
        snprintf(why, n, "cuDNN loaded from %s, but without its convolution API (cudnnFindConvolutionForwardAlgorithm, "
                 "cudnnConvolutionForward and their descriptors)", wb_cudnn_path() ? wb_cudnn_path() : "?");
        return 0;
    }
    cudnnHandle_t h;
    cudnnStatus_t st = create(&h);
    if (st != CUDNN_STATUS_SUCCESS) {
        snprintf(why, n, "cudnnCreate failed: %s", status_text(st));
        return 0;
    }
    if ((st = create_tensor(&g_x)) != CUDNN_STATUS_SUCCESS || (st = create_tensor(&g_y)) != CUDNN_STATUS_SUCCESS ||
        (st = create_filter(&g_w)) != CUDNN_STATUS_SUCCESS || (st = create_conv(&g_conv)) != CUDNN_STATUS_SUCCESS) {
        snprintf(why, n, "creating cuDNN's descriptors failed: %s", status_text(st));
        return 0;
    }
    g_handle = h; /* on the default stream: the handle's stream is 0 until set */
    return 1;
}

#define TRY(call, what)                                                                 \
    do {                                                                                \
        cudnnStatus_t st_ = (call);                                                     \
        if (st_ != CUDNN_STATUS_SUCCESS) {                                              \
            snprintf(why, n, "%s: %s", (what), status_text(st_));                       \
            return (int)st_;                                                            \
        }                                                                               \
    } while (0)

int yard_cudnn_conv_plan(int width, int height, const float *h_weights, int k, yard_conv_algo *algos, int max,
                         int *found, char *why, size_t n)
{
    *found = 0;
    g_planned = 0;
    if (!g_handle) {
        snprintf(why, n, "yard_cudnn_conv_open was not called or failed");
        return -1;
    }
    if (k < 1 || k % 2 == 0 || width < 1 || height < 1) {
        snprintf(why, n, "yard_cudnn_conv_plan: bad shape %dx%d, K=%d", width, height, k);
        return -1;
    }
    const int r = k / 2;
    TRY(g_set_tensor(g_x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, height, width), "cudnnSetTensor4dDescriptor (x)");
    TRY(g_set_tensor(g_y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, height, width), "cudnnSetTensor4dDescriptor (y)");
    TRY(g_set_filter(g_w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 1, 1, k, k), "cudnnSetFilter4dDescriptor");
    TRY(g_set_conv(g_conv, r, r, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
        "cudnnSetConvolution2dDescriptor");
    TRY(g_set_math(g_conv, CUDNN_FMA_MATH), "cudnnSetConvolutionMathType (FMA)");
    int on, oc, oh, ow;
    TRY(g_out_dim(g_conv, g_x, g_w, &on, &oc, &oh, &ow), "cudnnGetConvolution2dForwardOutputDim");
    if (on != 1 || oc != 1 || oh != height || ow != width) {
        snprintf(why, n, "cuDNN's output for %dx%d, K=%d, pad %d would be %dx%dx%dx%d, not 1x1x%dx%d", width, height, k,
                 r, on, oc, oh, ow, height, width);
        return -1;
    }
    if (g_dw) cudaFree(g_dw), g_dw = NULL;
    cudaError_t ce = cudaMalloc((void **)&g_dw, (size_t)k * k * sizeof(float));
    if (ce == cudaSuccess) ce = cudaMemcpy(g_dw, h_weights, (size_t)k * k * sizeof(float), cudaMemcpyHostToDevice);
    if (ce != cudaSuccess) {
        snprintf(why, n, "the weights to the device: %s", cudaGetErrorString(ce));
        return -1;
    }
    cudnnConvolutionFwdAlgoPerf_t perf[2 * CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int got = 0;
    TRY(g_find(g_handle, g_x, g_w, g_conv, g_y, (int)(sizeof perf / sizeof perf[0]), &got, perf),
        "cudnnFindConvolutionForwardAlgorithm");
    for (int i = 0; i < got && *found < max; i++) {
        /* FP32 arithmetic only: an entry measured with tensor cores (TF32) is
         * not this convolution. One algorithm is listed once, at its fastest
         * FP32 entry; its workspace is the largest any successful entry of
         * that algorithm asked for, since the forward call runs with the
         * descriptor's math (CUDNN_FMA_MATH), which may not be the math the
         * fastest entry was measured with. */
        if (perf[i].status != CUDNN_STATUS_SUCCESS || perf[i].mathType == CUDNN_TENSOR_OP_MATH ||
            perf[i].mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)
            continue;
        int seen = 0;
        for (int j = 0; j < *found; j++) seen |= algos[j].algo == (int)perf[i].algo;
        if (seen) continue;
        size_t ws = 0;
        for (int j = 0; j < got; j++)
            if (perf[j].status == CUDNN_STATUS_SUCCESS && perf[j].algo == perf[i].algo && perf[j].memory > ws)
                ws = perf[j].memory;
        algos[*found] = (yard_conv_algo){ (int)perf[i].algo, algo_name((int)perf[i].algo), perf[i].time, ws, 0 };
        ++*found;
    }
    float quickest = INFINITY;
    for (int i = 0; i < *found; i++)
        if (algos[i].find_ms > 0 && algos[i].find_ms < quickest) quickest = algos[i].find_ms;
    for (int i = 0; i < *found; i++) algos[i].too_slow = algos[i].find_ms > YARD_CONV_TOO_SLOW * quickest;
    if (*found == 0) {
        snprintf(why, n, "cudnnFindConvolutionForwardAlgorithm found no algorithm that runs a %dx%d image with K=%d "
                 "(%d tried)", width, height, k, got);
        return -1;
    }
    g_planned = 1;
    return 0;
}

int yard_cudnn_conv(const float *in, float *out, const yard_conv_algo *a, void *workspace, char *why, size_t n)
{
    if (!g_planned) {
        snprintf(why, n, "yard_cudnn_conv_plan was not called or failed");
        return -1;
    }
    const float one = 1.0f, zero = 0.0f;
    cudnnStatus_t st = g_forward(g_handle, &one, g_x, in, g_w, g_dw, g_conv, (cudnnConvolutionFwdAlgo_t)a->algo,
                                 workspace, a->workspace, &zero, g_y, out);
    if (st != CUDNN_STATUS_SUCCESS) {
        snprintf(why, n, "cudnnConvolutionForward (%s): %s", a->name, status_text(st));
        return (int)st;
    }
    return 0;
}
