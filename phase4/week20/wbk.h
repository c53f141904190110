/* wbk.h — week 20: the workbook's kernels as a library, libwbk.
 *
 * The kernels are your own from earlier weeks (week.txt `uses:`):
 *   saxpy and dot      phase0/week04 (sl_saxpy, sl_dot)
 *   sum                phase1/week07 (reduce_sum, version 6)
 *   transpose          phase1/week06 (transpose_padded)
 * This header is the new part: the API layer a program, or Python through
 * ctypes (python/wbk.py), calls. It is what the kernels' own headers are
 * not: safe to call with anything.
 *
 *   - A context (wbk_ctx) owns the devices it runs on and a workspace on
 *     each, allocated on first use and grown, never once per call.
 *   - Every function returns a wbk_status. On failure, wbk_last_error()
 *     says what was wrong, as "FUNCTION: what" ("wbk_saxpy: x has 3
 *     elements but y has 2"): one message per thread, overwritten by the
 *     next failure, kept across calls that succeed.
 *   - Arguments are checked first, in the order of the parameter list, the
 *     context last: a call that can never succeed is refused the same way on
 *     any machine, with or without a GPU, and nothing touches a GPU until
 *     every check has passed. A NULL context with good arguments is
 *     WBK_ERR_INVALID_HANDLE.
 *   - Arrays are host memory (plain C arrays, Python's array.array), each
 *     passed with its length in elements, so the library can refuse a
 *     mismatch instead of reading past an end. Calls are synchronous: when
 *     one returns, its outputs are written. Outputs are complete only on
 *     success (a failure may leave them partly written).
 *   - The data are split across the context's devices: device k of D takes
 *     elements [n*k/D, n*(k+1)/D) (rows, for the transpose); partial
 *     results come back to the host and are added in double. A context may
 *     list one device several times: the split then runs on one GPU (this
 *     is how the week's test covers the split on a machine with one).
 *   - The calling thread's current CUDA device is the same after a call as
 *     before it.
 *   - Not thread-safe per context: use one context per thread.
 *
 * Versioning: WBK_VERSION is the version this header describes;
 * wbk_version() is the version of the library actually loaded. A program
 * (or the Python module) refuses a library whose major version differs from
 * the header's: a new major version may change the ABI. The shared library's
 * soname carries the major version (libwbk.so.1). */
#ifndef WBK_H
#define WBK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WBK_VERSION_MAJOR 1
#define WBK_VERSION_MINOR 0
#define WBK_VERSION_PATCH 0
#define WBK_VERSION (WBK_VERSION_MAJOR * 10000 + WBK_VERSION_MINOR * 100 + WBK_VERSION_PATCH)

#define WBK_MAX_N       ((size_t)1 << 32) /* most elements of one vector */
#define WBK_MAX_DIM     (1 << 20)         /* most rows, and most columns, of a matrix */
#define WBK_MAX_DEVICES 16                /* most devices (entries) of one context */

/* The symbols the shared library exports (everything else is hidden). */
#if defined(__GNUC__)
#define WBK_API __attribute__((visibility("default")))
#else
#define WBK_API
#endif

typedef enum {
    WBK_OK = 0,
    WBK_ERR_INVALID_ARG = 1,    /* an argument is wrong: NULL, a bad length or size, a mismatch */
    WBK_ERR_INVALID_HANDLE = 2, /* the context is NULL */
    WBK_ERR_NO_DEVICE = 3,      /* no CUDA device (or no driver), or a device that does not exist */
    WBK_ERR_OUT_OF_MEMORY = 4,  /* a device allocation failed */
    WBK_ERR_CUDA = 5,           /* any other CUDA error (the message names it) */
} wbk_status;
#define WBK_STATUS_COUNT 6

typedef struct wbk_ctx wbk_ctx;

typedef struct {
    double mean; /* sum of x / n */
    double std;  /* population standard deviation: sqrt(sum of (x - mean)^2 / n) */
} wbk_stats;

/* WBK_VERSION of the library that is loaded. */
WBK_API int wbk_version(void);
/* "WBK_OK", "WBK_ERR_INVALID_ARG", ...; "WBK_ERR_UNKNOWN" for any other value. */
WBK_API const char *wbk_status_name(int status);
/* One sentence about the status ("an argument is invalid"); for any other
 * value, "unknown status". Never NULL, never empty. */
WBK_API const char *wbk_status_string(int status);
/* The message of this thread's last failed call, "FUNCTION: what"; "" if
 * none has failed yet. The text stays valid until the thread's next call. */
WBK_API const char *wbk_last_error(void);

/* A context on the first max_devices CUDA devices (0: every device). *ctx
 * is set to the new context, or to NULL on failure. Errors: ctx NULL or
 * max_devices < 0 (INVALID_ARG); no device or no driver (NO_DEVICE). */
WBK_API wbk_status wbk_create(wbk_ctx **ctx, int max_devices);
/* A context on the ndev devices listed, in that order (1 <= ndev <=
 * WBK_MAX_DEVICES; an ordinal may repeat). Errors: ctx NULL, devices NULL,
 * ndev out of range, an ordinal < 0 (INVALID_ARG, checked without a GPU);
 * no device, or an ordinal past the last device (NO_DEVICE). */
WBK_API wbk_status wbk_create_on(wbk_ctx **ctx, const int *devices, int ndev);
/* Free the context and its workspaces. NULL is allowed (nothing to do). */
WBK_API wbk_status wbk_destroy(wbk_ctx *ctx);
/* The number of devices (entries) the context splits the data across. */
WBK_API wbk_status wbk_device_count(const wbk_ctx *ctx, int *count);

/* y[i] = a * x[i] + y[i]. nx == ny <= WBK_MAX_N; x, y non-NULL when n > 0. */
WBK_API wbk_status wbk_saxpy(wbk_ctx *ctx, float a, const float *x, size_t nx, float *y, size_t ny);
/* *result = sum of x[i] * y[i] (0 for n == 0). nx == ny <= WBK_MAX_N;
 * result non-NULL. Accuracy, with t = x y: |error| <= 8 FLT_EPSILON sqrt(n)
 * sqrt(sum t^2) + 1e-6 |exact| + 2e-6 sum |t| (float partial sums). */
WBK_API wbk_status wbk_dot(wbk_ctx *ctx, const float *x, size_t nx, const float *y, size_t ny, double *result);
/* *result = sum of x[i] (0 for n == 0); the same accuracy with y = 1. */
WBK_API wbk_status wbk_sum(wbk_ctx *ctx, const float *x, size_t n, double *result);
/* out (cols x rows, row-major) = in (rows x cols, row-major) transposed:
 * out[c * rows + r] = in[r * cols + c]. 0 <= rows, cols <= WBK_MAX_DIM;
 * n_in == n_out == rows * cols; in and out non-NULL when that is > 0, and
 * not overlapping. */
WBK_API wbk_status wbk_transpose(wbk_ctx *ctx, const float *in, size_t n_in, float *out, size_t n_out, int rows,
                                 int cols);
/* y = (x - mean) / std, and the statistics in *stats (NULL: not wanted).
 * 1 <= nx == ny <= WBK_MAX_N; x, y non-NULL; y may be x (in place). A
 * spread too small for float to resolve, std <= 1e-5 |mean| (a constant
 * vector), divides by 1 instead: y = x - mean, about 0. NaN in x makes
 * every output NaN. */
WBK_API wbk_status wbk_standardize(wbk_ctx *ctx, const float *x, size_t nx, float *y, size_t ny, wbk_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
