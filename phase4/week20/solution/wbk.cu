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

//@solution
/* ---- the context ---- */

/* One entry of the context: a device and its workspace. x and y hold up to
 * cap floats each; part holds two partial results; tmp is reduce_sum's. */
typedef struct {
    int    device;
    float *x, *y, *part;
    void  *tmp;
    size_t cap;
} wbk_slot;

struct wbk_ctx {
    int      ndev;
    wbk_slot slot[WBK_MAX_DEVICES];
};

static void slot_release(wbk_slot *s)
{
    if (!s->x && !s->y && !s->part && !s->tmp) return; /* cudaSetDevice would create a CUDA context for nothing */
    cudaSetDevice(s->device);
    cudaFree(s->x), cudaFree(s->y), cudaFree(s->part), cudaFree(s->tmp);
    s->x = s->y = s->part = NULL, s->tmp = NULL, s->cap = 0;
}

/* Make the slot's workspace hold n floats (grow only); its device is current. */
static cudaError_t slot_reserve(wbk_slot *s, size_t n)
{
    cudaError_t e = cudaSetDevice(s->device);
    if (e != cudaSuccess || (n <= s->cap && s->part)) return e;
    slot_release(s);
    size_t want = n < 1024 ? 1024 : n;
    e = cudaMalloc((void **)&s->x, want * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->y, want * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->part, 2 * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc(&s->tmp, reduce_tmp_bytes(want));
    if (e != cudaSuccess) {
        slot_release(s);
        cudaGetLastError(); /* a failed cudaMalloc leaves no sticky error; clear it anyway */
        return e;
    }
    s->cap = want;
    return cudaSuccess;
}

/* The chunk of [0, n) that entry k of d takes. n <= 2^32 and d <= 16: no overflow. */
static size_t chunk_lo(size_t n, int k, int d) { return n * (size_t)k / (size_t)d; }

/* Restores the caller's current device when the call returns. */
typedef struct { int prev; int ok; } device_guard;
static void guard_enter(device_guard *g) { g->ok = cudaGetDevice(&g->prev) == cudaSuccess; }
static void guard_leave(const device_guard *g)
{
    if (g->ok) cudaSetDevice(g->prev);
}

static wbk_status create(const char *func, wbk_ctx **ctx, const int *devices, int ndev)
{
    int present = 0;
    cudaError_t e = cudaGetDeviceCount(&present);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return fail(WBK_ERR_NO_DEVICE, func, "no CUDA device: %s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
    }
    if (present < 1) return fail(WBK_ERR_NO_DEVICE, func, "no CUDA device on this machine");
    if (!devices && (ndev == 0 || ndev > present)) ndev = present;
    if (ndev > WBK_MAX_DEVICES) ndev = WBK_MAX_DEVICES;
    for (int k = 0; devices && k < ndev; k++)
        if (devices[k] >= present)
            return fail(WBK_ERR_NO_DEVICE, func, "device %d does not exist (this machine has %d)", devices[k], present);
    wbk_ctx *c = (wbk_ctx *)calloc(1, sizeof *c);
    if (!c) return fail(WBK_ERR_OUT_OF_MEMORY, func, "out of host memory");
    c->ndev = ndev;
    for (int k = 0; k < ndev; k++) c->slot[k].device = devices ? devices[k] : k;
    *ctx = c;
    return WBK_OK;
}

/* ---- argument checks shared by the operations ---- */

#define CHECK(cond, ...) \
    do { if (!(cond)) return fail(WBK_ERR_INVALID_ARG, func, __VA_ARGS__); } while (0)
#define CHECK_CTX() \
    do { if (!ctx) return fail(WBK_ERR_INVALID_HANDLE, func, "ctx is NULL (create one with wbk_create)"); } while (0)
/* Inside an operation: on a CUDA error, restore the device and fail. */
#define CU(what, call)                                                   \
    do {                                                                 \
        cudaError_t e_ = (call);                                         \
        if (e_ != cudaSuccess) { guard_leave(&g); return fail_cuda(func, what, e_); } \
    } while (0)

/* Every entry's part of n elements through one step: for (k, lo, m) the
 * body runs with the entry's device current and its workspace reserved. */
#define FOR_EACH_SLOT(n)                                                               \
    for (int k = 0; k < ctx->ndev; k++)                                                \
        for (size_t lo = chunk_lo((n), k, ctx->ndev), m = chunk_lo((n), k + 1, ctx->ndev) - lo, once_ = 1; \
             once_ && m > 0; once_ = 0)

/* A small kernel of the API layer's own: x[i] = v (the steps of
 * standardize need a vector of the mean; 0 needs no kernel, cudaMemset). */
static __global__ void fill_kernel(float *x, size_t n, float v)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) x[i] = v;
}

static cudaError_t fill(float *x, size_t n, float v)
{
    size_t b = (n + 255) / 256;
    fill_kernel<<<(unsigned)(b < 4096 ? b : 4096), 256>>>(x, n, v);
    return cudaGetLastError();
}
//@starter
//| /* TODO: the context (struct wbk_ctx: its devices, and on each a workspace
//|  * grown on demand, never allocated per call), the split of n elements
//|  * across its entries (entry k of D takes [n*k/D, n*(k+1)/D)), and a guard
//|  * that restores the caller's current device (cudaGetDevice at the start,
//|  * cudaSetDevice before every return). Use fail() and fail_cuda() above for
//|  * every error: they set the message wbk_last_error() returns. */
//| struct wbk_ctx { int ndev; };
//@end

wbk_status wbk_create(wbk_ctx **ctx, int max_devices)
{
    const char *const func = "wbk_create";
    //@solution
    CHECK(ctx, "ctx is NULL (pass the address of a wbk_ctx *)");
    *ctx = NULL;
    CHECK(max_devices >= 0, "max_devices = %d must be >= 0 (0: every device)", max_devices);
    return create(func, ctx, NULL, max_devices);
    //@starter
    //| /* TODO: check ctx (not NULL; set *ctx = NULL first) and max_devices
    //|  * (>= 0) before anything else; then cudaGetDeviceCount: an error or 0
    //|  * devices is WBK_ERR_NO_DEVICE; then allocate and fill the context. */
    //| (void)func, (void)ctx, (void)max_devices, (void)fail, (void)fail_cuda;
    //| return WBK_OK;
    //@end
}

wbk_status wbk_create_on(wbk_ctx **ctx, const int *devices, int ndev)
{
    const char *const func = "wbk_create_on";
    //@solution
    CHECK(ctx, "ctx is NULL (pass the address of a wbk_ctx *)");
    *ctx = NULL;
    CHECK(devices, "devices is NULL");
    CHECK(ndev >= 1 && ndev <= WBK_MAX_DEVICES, "ndev = %d must be in 1..%d", ndev, WBK_MAX_DEVICES);
    for (int k = 0; k < ndev; k++) CHECK(devices[k] >= 0, "devices[%d] = %d is not a device ordinal", k, devices[k]);
    return create(func, ctx, devices, ndev);
    //@starter
    //| /* TODO: as wbk_create, with the list checked first (devices not NULL,
    //|  * 1 <= ndev <= WBK_MAX_DEVICES, no ordinal < 0), then an ordinal past
    //|  * the last device is WBK_ERR_NO_DEVICE. */
    //| (void)func, (void)ctx, (void)devices, (void)ndev;
    //| return WBK_OK;
    //@end
}

wbk_status wbk_destroy(wbk_ctx *ctx)
{
    //@solution
    if (!ctx) return WBK_OK;
    device_guard g;
    guard_enter(&g);
    for (int k = 0; k < ctx->ndev; k++) slot_release(&ctx->slot[k]);
    guard_leave(&g);
    free(ctx);
    return WBK_OK;
    //@starter
    //| /* TODO: free every workspace (on its device) and the context. */
    //| (void)ctx;
    //| return WBK_OK;
    //@end
}

wbk_status wbk_device_count(const wbk_ctx *ctx, int *count)
{
    const char *const func = "wbk_device_count";
    //@solution
    CHECK(count, "count is NULL");
    CHECK_CTX();
    *count = ctx->ndev;
    return WBK_OK;
    //@starter
    //| /* TODO: count not NULL (INVALID_ARG), then ctx (INVALID_HANDLE); then
    //|  * *count = the number of entries the context splits across. */
    //| (void)func, (void)ctx, (void)count;
    //| return WBK_OK;
    //@end
}

wbk_status wbk_saxpy(wbk_ctx *ctx, float a, const float *x, size_t nx, float *y, size_t ny)
{
    const char *const func = "wbk_saxpy";
    //@solution
    CHECK(nx == ny, "x has %zu elements but y has %zu", nx, ny);
    CHECK(nx <= WBK_MAX_N, "n = %zu is more than WBK_MAX_N (%zu)", nx, WBK_MAX_N);
    CHECK(nx == 0 || (x && y), "%s is NULL but n = %zu", x ? "y" : "x", nx);
    CHECK_CTX();
    if (nx == 0) return WBK_OK;
    device_guard g;
    guard_enter(&g);
    FOR_EACH_SLOT(nx) {
        wbk_slot *s = &ctx->slot[k];
        CU("workspace", slot_reserve(s, m));
        CU("copy to device", cudaMemcpy(s->x, x + lo, m * sizeof(float), cudaMemcpyHostToDevice));
        CU("copy to device", cudaMemcpy(s->y, y + lo, m * sizeof(float), cudaMemcpyHostToDevice));
        CU("sl_saxpy", sl_saxpy(a, s->x, s->y, m));
    }
    FOR_EACH_SLOT(nx) {
        wbk_slot *s = &ctx->slot[k];
        CU("set device", cudaSetDevice(s->device));
        CU("copy to host", cudaMemcpy(y + lo, s->y, m * sizeof(float), cudaMemcpyDeviceToHost));
    }
    guard_leave(&g);
    return WBK_OK;
    //@starter
    //| /* TODO: check the arguments in order (nx == ny, n <= WBK_MAX_N, x and y
    //|  * not NULL when n > 0), then the context; then each entry uploads its
    //|  * chunk of x and y, runs your week-04 sl_saxpy, and downloads y. */
    //| (void)func, (void)ctx, (void)a, (void)x, (void)nx, (void)y, (void)ny;
    //| return WBK_OK;
    //@end
}

//@solution
/* Upload each entry's chunk of x (and of y, for a dot), reduce it into the
 * entry's part[0] on the device, then add the parts on the host in double. */
static wbk_status reduce_chunks(wbk_ctx *ctx, const char *func, const float *x, const float *y, size_t n, double *result)
{
    double total = 0;
    device_guard g;
    guard_enter(&g);
    FOR_EACH_SLOT(n) {
        wbk_slot *s = &ctx->slot[k];
        CU("workspace", slot_reserve(s, m));
        CU("copy to device", cudaMemcpy(s->x, x + lo, m * sizeof(float), cudaMemcpyHostToDevice));
        if (y) {
            CU("copy to device", cudaMemcpy(s->y, y + lo, m * sizeof(float), cudaMemcpyHostToDevice));
            CU("sl_dot", sl_dot(s->x, s->y, m, s->part));
        } else {
            CU("reduce_sum", reduce_sum(6, s->x, m, s->part, s->tmp));
        }
    }
    FOR_EACH_SLOT(n) {
        wbk_slot *s = &ctx->slot[k];
        float p = 0;
        CU("set device", cudaSetDevice(s->device));
        CU("copy to host", cudaMemcpy(&p, s->part, sizeof p, cudaMemcpyDeviceToHost));
        total += p;
    }
    guard_leave(&g);
    *result = total;
    return WBK_OK;
}
//@end

wbk_status wbk_dot(wbk_ctx *ctx, const float *x, size_t nx, const float *y, size_t ny, double *result)
{
    const char *const func = "wbk_dot";
    //@solution
    CHECK(nx == ny, "x has %zu elements but y has %zu", nx, ny);
    CHECK(nx <= WBK_MAX_N, "n = %zu is more than WBK_MAX_N (%zu)", nx, WBK_MAX_N);
    CHECK(nx == 0 || (x && y), "%s is NULL but n = %zu", x ? "y" : "x", nx);
    CHECK(result, "result is NULL");
    CHECK_CTX();
    if (nx == 0) return *result = 0, WBK_OK;
    return reduce_chunks(ctx, func, x, y, nx, result);
    //@starter
    //| /* TODO: the checks (as wbk_saxpy, and result not NULL), then each
    //|  * entry's partial dot (your week-04 sl_dot into one float of its
    //|  * workspace), added on the host in double. */
    //| (void)func, (void)ctx, (void)x, (void)nx, (void)y, (void)ny, (void)result;
    //| return WBK_OK;
    //@end
}

wbk_status wbk_sum(wbk_ctx *ctx, const float *x, size_t n, double *result)
{
    const char *const func = "wbk_sum";
    //@solution
    CHECK(n <= WBK_MAX_N, "n = %zu is more than WBK_MAX_N (%zu)", n, WBK_MAX_N);
    CHECK(n == 0 || x, "x is NULL but n = %zu", n);
    CHECK(result, "result is NULL");
    CHECK_CTX();
    if (n == 0) return *result = 0, WBK_OK;
    return reduce_chunks(ctx, func, x, NULL, n, result);
    //@starter
    //| /* TODO: the checks, then each entry's partial sum (your week-07
    //|  * reduce_sum, version 6, with the workspace's reduce_tmp_bytes buffer),
    //|  * added on the host in double. */
    //| (void)func, (void)ctx, (void)x, (void)n, (void)result;
    //| return WBK_OK;
    //@end
}

wbk_status wbk_transpose(wbk_ctx *ctx, const float *in, size_t n_in, float *out, size_t n_out, int rows, int cols)
{
    const char *const func = "wbk_transpose";
    //@solution
    CHECK(rows >= 0 && rows <= WBK_MAX_DIM, "rows = %d must be in 0..%d", rows, WBK_MAX_DIM);
    CHECK(cols >= 0 && cols <= WBK_MAX_DIM, "cols = %d must be in 0..%d", cols, WBK_MAX_DIM);
    size_t n = (size_t)rows * (size_t)cols;
    CHECK(n_in == n, "in has %zu elements but rows x cols = %d x %d = %zu", n_in, rows, cols, n);
    CHECK(n_out == n, "out has %zu elements but rows x cols = %d x %d = %zu", n_out, rows, cols, n);
    CHECK(n == 0 || (in && out), "%s is NULL but rows x cols = %zu", in ? "out" : "in", n);
    CHECK(n <= WBK_MAX_N, "rows x cols = %zu is more than WBK_MAX_N (%zu)", n, WBK_MAX_N);
    uintptr_t pi = (uintptr_t)in, po = (uintptr_t)out, nb = n * sizeof(float);
    CHECK(n == 0 || po + nb <= pi || pi + nb <= po, "in and out overlap");
    CHECK_CTX();
    if (n == 0) return WBK_OK;
    device_guard g;
    guard_enter(&g);
    /* Entry k takes rows [r0, r0 + m) of in: a (m x cols) block whose
     * transpose (cols x m) is columns r0 .. r0+m-1 of out, a strided copy. */
    FOR_EACH_SLOT((size_t)rows) {
        wbk_slot *s = &ctx->slot[k];
        CU("workspace", slot_reserve(s, m * (size_t)cols));
        CU("copy to device", cudaMemcpy(s->x, in + lo * (size_t)cols, m * (size_t)cols * sizeof(float),
                                        cudaMemcpyHostToDevice));
        CU("transpose_padded", transpose_padded(s->x, s->y, (int)m, cols));
    }
    FOR_EACH_SLOT((size_t)rows) {
        wbk_slot *s = &ctx->slot[k];
        CU("set device", cudaSetDevice(s->device));
        CU("copy to host", cudaMemcpy2D(out + lo, (size_t)rows * sizeof(float), s->y, m * sizeof(float),
                                        m * sizeof(float), (size_t)cols, cudaMemcpyDeviceToHost));
    }
    guard_leave(&g);
    return WBK_OK;
    //@starter
    //| /* TODO: the checks (rows and cols in 0..WBK_MAX_DIM, n_in == n_out ==
    //|  * rows * cols, pointers, no overlap), then split by rows: entry k
    //|  * transposes its block of rows with your week-06 transpose_padded, and
    //|  * the (cols x m) result goes into columns lo..lo+m-1 of out: one
    //|  * cudaMemcpy2D with a destination pitch of rows floats. */
    //| (void)func, (void)ctx, (void)in, (void)n_in, (void)out, (void)n_out, (void)rows, (void)cols;
    //| return WBK_OK;
    //@end
}

wbk_status wbk_standardize(wbk_ctx *ctx, const float *x, size_t nx, float *y, size_t ny, wbk_stats *stats)
{
    const char *const func = "wbk_standardize";
    //@solution
    CHECK(nx >= 1, "x is empty (the mean of nothing is undefined)");
    CHECK(nx == ny, "x has %zu elements but y has %zu", nx, ny);
    CHECK(nx <= WBK_MAX_N, "n = %zu is more than WBK_MAX_N (%zu)", nx, WBK_MAX_N);
    CHECK(x && y, "%s is NULL but n = %zu", x ? "y" : "x", nx);
    CHECK_CTX();
    size_t n = nx;
    device_guard g;
    guard_enter(&g);
    /* 1. x stays on the devices; each entry sums its chunk (week 07). */
    double sum = 0, ss = 0;
    FOR_EACH_SLOT(n) {
        wbk_slot *s = &ctx->slot[k];
        CU("workspace", slot_reserve(s, m));
        CU("copy to device", cudaMemcpy(s->x, x + lo, m * sizeof(float), cudaMemcpyHostToDevice));
        CU("reduce_sum", reduce_sum(6, s->x, m, s->part, s->tmp));
    }
    FOR_EACH_SLOT(n) {
        float p = 0;
        CU("set device", cudaSetDevice(ctx->slot[k].device));
        CU("copy to host", cudaMemcpy(&p, ctx->slot[k].part, sizeof p, cudaMemcpyDeviceToHost));
        sum += p;
    }
    /* The shift the device subtracts is this mean rounded to float: the
     * correction below is relative to that float, not to the double. */
    double mean = (double)(float)(sum / (double)n);
    /* 2. d = x - mean (a vector of -mean, then week 04's saxpy with a = 1),
     *    the sum of d (week 07) and the sum of d^2 (week 04's dot of d with
     *    itself). The mean came from float partial sums and is off by a
     *    little; the sum of d measures by how much (the corrected two-pass
     *    algorithm): mean += sum(d) / n, var = (sum(d^2) - sum(d)^2 / n) / n. */
    double sd1 = 0;
    FOR_EACH_SLOT(n) {
        wbk_slot *s = &ctx->slot[k];
        CU("set device", cudaSetDevice(s->device));
        CU("fill", fill(s->y, m, (float)-mean));
        CU("sl_saxpy", sl_saxpy(1.0f, s->x, s->y, m));
        CU("reduce_sum", reduce_sum(6, s->y, m, s->part, s->tmp));
        CU("sl_dot", sl_dot(s->y, s->y, m, s->part + 1));
    }
    FOR_EACH_SLOT(n) {
        float p[2] = { 0, 0 };
        CU("set device", cudaSetDevice(ctx->slot[k].device));
        CU("copy to host", cudaMemcpy(p, ctx->slot[k].part, sizeof p, cudaMemcpyDeviceToHost));
        sd1 += p[0], ss += p[1];
    }
    double delta = sd1 / (double)n, var = (ss - sd1 * delta) / (double)n;
    if (var < 0) var = 0; /* rounding; a NaN stays NaN */
    mean += delta;
    double sd = sqrt(var);
    double scale = sd > 1e-5 * fabs(mean) ? 1.0 / sd : 1.0; /* NaN: 1, and NaN stays NaN */
    /* 3. y = scale * (d - delta): a vector of -scale * delta, then saxpy
     *    with a = scale; downloaded. */
    FOR_EACH_SLOT(n) {
        wbk_slot *s = &ctx->slot[k];
        CU("set device", cudaSetDevice(s->device));
        CU("fill", fill(s->x, m, (float)(-scale * delta)));
        CU("sl_saxpy", sl_saxpy((float)scale, s->y, s->x, m));
    }
    FOR_EACH_SLOT(n) {
        wbk_slot *s = &ctx->slot[k];
        CU("set device", cudaSetDevice(s->device));
        CU("copy to host", cudaMemcpy(y + lo, s->x, m * sizeof(float), cudaMemcpyDeviceToHost));
    }
    guard_leave(&g);
    if (stats) stats->mean = mean, stats->std = sd;
    return WBK_OK;
    //@starter
    //| /* TODO: the checks (n >= 1, nx == ny, n <= WBK_MAX_N, x and y not
    //|  * NULL), then with x kept on the devices: the sum (reduce_sum) gives
    //|  * the mean; d = x - mean (fill a vector with -mean, then sl_saxpy with
    //|  * a = 1); sum(d) and dot(d, d) give the corrected mean and variance
    //|  * (see the README); y = (d - sum(d)/n) / std (fill, then sl_saxpy);
    //|  * std <= 1e-5 |mean| divides by 1 instead (see wbk.h). */
    //| (void)func, (void)ctx, (void)x, (void)nx, (void)y, (void)ny, (void)stats;
    //| return WBK_OK;
    //@end
}
