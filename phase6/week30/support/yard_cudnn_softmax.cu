/* yard_cudnn_softmax.cu — week 30, given: cuDNN's softmax, the yardstick of
 * w30.cudnn and of the ladder. No cuDNN library is linked: <cudnn.h> gives
 * the types and prototypes, and the functions are found at run time through
 * wb_cudnn_sym (common/include/wb_cudnn.h), so the test starts, and the
 * checkpoint that needs cuDNN says SKIP with the reason, on a machine
 * without it. */
#include <stdio.h>
#include <cudnn.h>
#include "wb_cudnn.h"
#include "yard_cudnn_softmax.h"

typedef cudnnStatus_t (*create_fn)(cudnnHandle_t *);
typedef cudnnStatus_t (*create_desc_fn)(cudnnTensorDescriptor_t *);
typedef cudnnStatus_t (*set4d_fn)(cudnnTensorDescriptor_t, cudnnTensorFormat_t, cudnnDataType_t, int, int, int, int);
typedef cudnnStatus_t (*softmax_fn)(cudnnHandle_t, cudnnSoftmaxAlgorithm_t, cudnnSoftmaxMode_t, const void *,
                                    const cudnnTensorDescriptor_t, const void *, const void *,
                                    const cudnnTensorDescriptor_t, void *);
typedef const char *(*errstr_fn)(cudnnStatus_t);

static cudnnHandle_t g_handle;
static cudnnTensorDescriptor_t g_desc;
static int g_rows = -1, g_cols = -1;
static set4d_fn g_set4d;
static softmax_fn g_softmax;
static errstr_fn g_errstr;

static const char *status_text(cudnnStatus_t st) { return g_errstr ? g_errstr(st) : "(no cudnnGetErrorString)"; }

int yard_cudnn_open(char *why, size_t n)
{
    if (g_handle) return 1;
    if (!wb_cudnn_open(why, n)) return 0;
    create_fn create = (create_fn)wb_cudnn_sym("cudnnCreate");
    create_desc_fn create_desc = (create_desc_fn)wb_cudnn_sym("cudnnCreateTensorDescriptor");
    g_set4d = (set4d_fn)wb_cudnn_sym("cudnnSetTensor4dDescriptor");
    g_softmax = (softmax_fn)wb_cudnn_sym("cudnnSoftmaxForward");
    g_errstr = (errstr_fn)wb_cudnn_sym("cudnnGetErrorString");
    if (!create || !create_desc || !g_set4d || !g_softmax) {
        snprintf(why, n, "cuDNN loaded from %s, but without cudnnCreate, cudnnCreateTensorDescriptor, "
                 "cudnnSetTensor4dDescriptor or cudnnSoftmaxForward", wb_cudnn_path() ? wb_cudnn_path() : "?");
        return 0;
    }
    cudnnHandle_t h;
    cudnnStatus_t st = create(&h);
    if (st != CUDNN_STATUS_SUCCESS) {
        snprintf(why, n, "cudnnCreate failed: %s", status_text(st));
        return 0;
    }
    if ((st = create_desc(&g_desc)) != CUDNN_STATUS_SUCCESS) {
        snprintf(why, n, "cudnnCreateTensorDescriptor failed: %s", status_text(st));
        return 0;
    }
    g_handle = h; /* on the default stream: the handle's stream is 0 until set */
    return 1;
}

int yard_cudnn_softmax(const float *x, float *y, int rows, int cols, char *why, size_t n)
{
    if (!g_handle) {
        snprintf(why, n, "yard_cudnn_open was not called or failed");
        return -1;
    }
    cudnnStatus_t st;
    if (rows != g_rows || cols != g_cols) {
        st = g_set4d(g_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, rows, cols, 1, 1);
        if (st != CUDNN_STATUS_SUCCESS) {
            snprintf(why, n, "cudnnSetTensor4dDescriptor(N=%d, C=%d, 1, 1): %s", rows, cols, status_text(st));
            return (int)st;
        }
        g_rows = rows, g_cols = cols;
    }
    const float one = 1.0f, zero = 0.0f;
    st = g_softmax(g_handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, &one, g_desc, x, &zero, g_desc, y);
    if (st != CUDNN_STATUS_SUCCESS) {
        snprintf(why, n, "cudnnSoftmaxForward(rows %d, cols %d): %s", rows, cols, status_text(st));
        return (int)st;
    }
    return 0;
}
