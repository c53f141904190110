/* wb_cuda.c — error check, device facts, buffers (CUDA runtime, C API). */
#include "wb_cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>

static void default_handler(const char *message)
{
    fprintf(stderr, "%s\n", message);
    exit(2);
}

static wb_error_handler handler = default_handler;

void wb_set_error_handler(wb_error_handler h) { handler = h ? h : default_handler; }

cudaError_t wb_cuda_check_(cudaError_t e, const char *expr, const char *file, int line)
{
    if (e != cudaSuccess) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s:%d: CUDA error in '%s': %s (%s)", file, line, expr, cudaGetErrorString(e),
                 cudaGetErrorName(e));
        handler(msg);
    }
    return e;
}

cudaError_t wb_launch_status_(void)
{
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    const char *s = getenv("WB_SYNC_LAUNCHES");
    if (s && *s == '1') return cudaDeviceSynchronize();
    return cudaSuccess;
}

int wb_fp32_lanes_per_sm(int major, int minor)
{
    switch (major) {
    case 6: return minor == 0 ? 64 : 128;
    case 7: return 64;
    case 8: return minor == 0 ? 64 : 128;
    case 9: return 128;
    case 10: case 11: case 12: return 128;
    default: return 0;
    }
}

cudaError_t wb_device_query(int ordinal, wb_device *d)
{
    memset(d, 0, sizeof *d);
    d->ordinal = ordinal;
    cudaError_t e;
#define ATTR(field, attr) \
    if ((e = cudaDeviceGetAttribute(&d->field, attr, ordinal)) != cudaSuccess) return e
    ATTR(cc_major, cudaDevAttrComputeCapabilityMajor);
    ATTR(cc_minor, cudaDevAttrComputeCapabilityMinor);
    ATTR(sm_count, cudaDevAttrMultiProcessorCount);
    ATTR(l2_bytes, cudaDevAttrL2CacheSize);
    ATTR(smem_per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin);
    ATTR(sm_clock_khz, cudaDevAttrClockRate);
    ATTR(mem_clock_khz, cudaDevAttrMemoryClockRate);
    ATTR(bus_width_bits, cudaDevAttrGlobalMemoryBusWidth);
#undef ATTR
    struct cudaDeviceProp prop;
    if ((e = cudaGetDeviceProperties(&prop, ordinal)) != cudaSuccess) return e;
    snprintf(d->name, sizeof d->name, "%s", prop.name);
    d->global_mem_bytes = prop.totalGlobalMem;
    d->fp32_lanes_per_sm = wb_fp32_lanes_per_sm(d->cc_major, d->cc_minor);
    d->peak_gbps = 2.0 * d->mem_clock_khz * 1e3 * (d->bus_width_bits / 8.0) / 1e9;
    d->peak_fp32_gflops = 2.0 * d->fp32_lanes_per_sm * d->sm_count * d->sm_clock_khz * 1e3 / 1e9;
    cudaRuntimeGetVersion(&d->runtime_version);
    cudaDriverGetVersion(&d->driver_version);
    return cudaSuccess;
}

const wb_device *wb_this_device(void)
{
    static wb_device dev;
    static int have;
    if (!have) {
        int ordinal = 0;
        WB_CUDA(cudaGetDevice(&ordinal));
        WB_CUDA(wb_device_query(ordinal, &dev));
        have = 1;
    }
    return &dev;
}

int wb_gpu_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

int wb_gpu_probe(char *what, size_t n)
{
    const char *off = getenv("WB_NO_GPU");
    if (off && *off == '1') {
        snprintf(what, n, "WB_NO_GPU=1 is set");
        return 0;
    }
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice) {
        /* What the runtime says without a driver ("CUDA driver version is
         * insufficient") misleads: there is no driver or no GPU at all. */
        snprintf(what, n, "no NVIDIA GPU or driver found on this machine (%s)", cudaGetErrorName(e));
        return 0;
    }
    if (e != cudaSuccess) {
        snprintf(what, n, "the GPU cannot be used (cudaGetDeviceCount: %s)", cudaGetErrorString(e));
        return 0;
    }
    if (count == 0) {
        snprintf(what, n, "no NVIDIA GPU found on this machine");
        return 0;
    }
    struct cudaDeviceProp p;
    snprintf(what, n, "%s", cudaGetDeviceProperties(&p, 0) == cudaSuccess ? p.name : "");
    return count;
}

void *wb_dmalloc(size_t bytes)
{
    void *p = NULL;
    if (bytes == 0) return NULL;
    WB_CUDA(cudaMalloc(&p, bytes));
    return p;
}

void wb_dfree(void *p)
{
    if (p) WB_CUDA(cudaFree(p));
}

void wb_dpoison(void *p, size_t bytes)
{
    if (p && bytes) WB_CUDA(cudaMemset(p, 0xFF, bytes));
}

void wb_h2d(void *dst, const void *src, size_t bytes)
{
    if (bytes) WB_CUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}

void wb_d2h(void *dst, const void *src, size_t bytes)
{
    if (bytes) WB_CUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}

void *wb_dcopy(const void *host, size_t bytes)
{
    void *d = wb_dmalloc(bytes);
    wb_h2d(d, host, bytes);
    return d;
}

void *wb_dout_alloc(wb_dout *o, const char *name, size_t bytes, size_t lead)
{
    o->name = name ? name : "out";
    o->lead = lead;
    o->bytes = bytes;
    o->base = wb_dmalloc(2 * WB_GUARD_BYTES + lead + bytes);
    wb_dout_poison(o);
    return wb_dout_ptr(o);
}

void *wb_dout_ptr(const wb_dout *o) { return o->base + WB_GUARD_BYTES + o->lead; }

void wb_dout_poison(const wb_dout *o) { wb_dpoison(o->base, 2 * WB_GUARD_BYTES + o->lead + o->bytes); }

size_t wb_dout_fetch(const wb_dout *o, void *host)
{
    wb_sync(); /* first: a failure here leaves nothing allocated behind */
    size_t front = WB_GUARD_BYTES + o->lead;
    unsigned char g[WB_GUARD_BYTES], *f = malloc(front);
    if (!f) return front;
    wb_d2h(f, o->base, front);
    wb_d2h(g, o->base + front + o->bytes, WB_GUARD_BYTES);
    if (o->bytes) wb_d2h(host, o->base + front, o->bytes);
    size_t changed = 0;
    for (size_t i = 0; i < front; i++) changed += f[i] != 0xFF;
    for (size_t i = 0; i < WB_GUARD_BYTES; i++) changed += g[i] != 0xFF;
    free(f);
    return changed;
}

void wb_dout_free(wb_dout *o)
{
    wb_dfree(o->base);
    o->base = NULL;
}

void wb_sync(void)
{
    WB_CUDA(cudaGetLastError());
    WB_CUDA(cudaDeviceSynchronize());
}

void *wb_hmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        char msg[128];
        snprintf(msg, sizeof msg, "out of host memory allocating %zu bytes", bytes);
        handler(msg);
    }
    return p;
}

void wb_hpoison(void *p, size_t bytes)
{
    if (p && bytes) memset(p, 0xFF, bytes);
}
