/* wbk.cu — week 20, exercise 1: the API layer of libwbk (wbk.h).
 *
 * The kernels are not here: they are your own from weeks 04 (sl_saxpy,
 * sl_dot), 06 (transpose_padded) and 07 (reduce_sum), linked in by
 * week.txt's `uses:`. This file is what turns them into a library a
 * stranger can call: a context that owns devices and workspaces, argument
 * checks that come before any GPU work, error codes with messages, the
 * split across devices, and a device guard (the caller's current device is
 * left as it was). The shared library is built from this file and those
 * kernels with -fvisibility=hidden: only the WBK_API functions are
 * exported (phase4/week20/week.mk). */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wbk.h"
#include "saxpylib.h"
#include "reduce.h"
#include "transpose.h"

/* ---- given: version, status names, the thread's last error ---- */

int wbk_version(void) { return WBK_VERSION; }

static const char *const STATUS_NAME[WBK_STATUS_COUNT] = {
    "WBK_OK", "WBK_ERR_INVALID_ARG", "WBK_ERR_INVALID_HANDLE", "WBK_ERR_NO_DEVICE", "WBK_ERR_OUT_OF_MEMORY",
    "WBK_ERR_CUDA",
};
static const char *const STATUS_TEXT[WBK_STATUS_COUNT] = {
    "no error",
    "an argument is invalid",
    "the context is NULL",
    "no usable CUDA device",
    "out of device memory",
    "a CUDA call failed",
};

const char *wbk_status_name(int s) { return s >= 0 && s < WBK_STATUS_COUNT ? STATUS_NAME[s] : "WBK_ERR_UNKNOWN"; }
const char *wbk_status_string(int s) { return s >= 0 && s < WBK_STATUS_COUNT ? STATUS_TEXT[s] : "unknown status"; }

/* One message per thread: two threads with two contexts never see each
 * other's errors (errno and dlerror work the same way). */
static thread_local char last_error[512];

const char *wbk_last_error(void) { return last_error; }

/* Record "FUNC: message" as this thread's last error and return the status. */
static wbk_status fail(wbk_status s, const char *func, const char *fmt, ...)
{
    int k = snprintf(last_error, sizeof last_error, "%s: ", func);
    va_list ap;
    va_start(ap, fmt);
    if (k > 0 && (size_t)k < sizeof last_error) vsnprintf(last_error + k, sizeof last_error - (size_t)k, fmt, ap);
    va_end(ap);
    return s;
}

/* A CUDA error as a status: what failed, the error's name and text. */
static wbk_status fail_cuda(const char *func, const char *what, cudaError_t e)
{
    wbk_status s = e == cudaErrorMemoryAllocation                                 ? WBK_ERR_OUT_OF_MEMORY
                   : (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) ? WBK_ERR_NO_DEVICE
                                                                                  : WBK_ERR_CUDA;
    return fail(s, func, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

/* TODO: the context (struct wbk_ctx: its devices, and on each a workspace
 * grown on demand, never allocated per call), the split of n elements
 * across its entries (entry k of D takes [n*k/D, n*(k+1)/D)), and a guard
 * that restores the caller's current device (cudaGetDevice at the start,
 * cudaSetDevice before every return). Use fail() and fail_cuda() above for
 * every error: they set the message wbk_last_error() returns. */
struct wbk_ctx { int ndev; };

wbk_status wbk_create(wbk_ctx **ctx, int max_devices)
{
    const char *const func = "wbk_create";
    /* TODO: check ctx (not NULL; set *ctx = NULL first) and max_devices
     * (>= 0) before anything else; then cudaGetDeviceCount: an error or 0
     * devices is WBK_ERR_NO_DEVICE; then allocate and fill the context. */
    (void)func, (void)ctx, (void)max_devices, (void)fail, (void)fail_cuda;
    return WBK_OK;
}

wbk_status wbk_create_on(wbk_ctx **ctx, const int *devices, int ndev)
{
    const char *const func = "wbk_create_on";
    /* TODO: as wbk_create, with the list checked first (devices not NULL,
     * 1 <= ndev <= WBK_MAX_DEVICES, no ordinal < 0), then an ordinal past
     * the last device is WBK_ERR_NO_DEVICE. */
    (void)func, (void)ctx, (void)devices, (void)ndev;
    return WBK_OK;
}

wbk_status wbk_destroy(wbk_ctx *ctx)
{
    /* TODO: free every workspace (on its device) and the context. */
    (void)ctx;
    return WBK_OK;
}

wbk_status wbk_device_count(const wbk_ctx *ctx, int *count)
{
    const char *const func = "wbk_device_count";
    /* TODO: count not NULL (INVALID_ARG), then ctx (INVALID_HANDLE); then
     * *count = the number of entries the context splits across. */
    (void)func, (void)ctx, (void)count;
    return WBK_OK;
}

wbk_status wbk_saxpy(wbk_ctx *ctx, float a, const float *x, size_t nx, float *y, size_t ny)
{
    const char *const func = "wbk_saxpy";
    /* TODO: check the arguments in order (nx == ny, n <= WBK_MAX_N, x and y
     * not NULL when n > 0), then the context; then each entry uploads its
     * chunk of x and y, runs your week-04 sl_saxpy, and downloads y. */
    (void)func, (void)ctx, (void)a, (void)x, (void)nx, (void)y, (void)ny;
    return WBK_OK;
}


wbk_status wbk_dot(wbk_ctx *ctx, const float *x, size_t nx, const float *y, size_t ny, double *result)
{
    const char *const func = "wbk_dot";
    /* TODO: the checks (as wbk_saxpy, and result not NULL), then each
     * entry's partial dot (your week-04 sl_dot into one float of its
     * workspace), added on the host in double. */
    (void)func, (void)ctx, (void)x, (void)nx, (void)y, (void)ny, (void)result;
    return WBK_OK;
}

wbk_status wbk_sum(wbk_ctx *ctx, const float *x, size_t n, double *result)
{
    const char *const func = "wbk_sum";
    /* TODO: the checks, then each entry's partial sum (your week-07
     * reduce_sum, version 6, with the workspace's reduce_tmp_bytes buffer),
     * added on the host in double. */
    (void)func, (void)ctx, (void)x, (void)n, (void)result;
    return WBK_OK;
}

wbk_status wbk_transpose(wbk_ctx *ctx, const float *in, size_t n_in, float *out, size_t n_out, int rows, int cols)
{
    const char *const func = "wbk_transpose";
    /* TODO: the checks (rows and cols in 0..WBK_MAX_DIM, n_in == n_out ==
     * rows * cols, pointers, no overlap), then split by rows: entry k
     * transposes its block of rows with your week-06 transpose_padded, and
     * the (cols x m) result goes into columns lo..lo+m-1 of out: one
     * cudaMemcpy2D with a destination pitch of rows floats. */
    (void)func, (void)ctx, (void)in, (void)n_in, (void)out, (void)n_out, (void)rows, (void)cols;
    return WBK_OK;
}

wbk_status wbk_standardize(wbk_ctx *ctx, const float *x, size_t nx, float *y, size_t ny, wbk_stats *stats)
{
    const char *const func = "wbk_standardize";
    /* TODO: the checks (n >= 1, nx == ny, n <= WBK_MAX_N, x and y not
     * NULL), then with x kept on the devices: the sum (reduce_sum) gives
     * the mean; d = x - mean (fill a vector with -mean, then sl_saxpy with
     * a = 1); sum(d) and dot(d, d) give the corrected mean and variance
     * (see the README); y = (d - sum(d)/n) / std (fill, then sl_saxpy);
     * std <= 1e-5 |mean| divides by 1 instead (see wbk.h). */
    (void)func, (void)ctx, (void)x, (void)nx, (void)y, (void)ny, (void)stats;
    return WBK_OK;
}
