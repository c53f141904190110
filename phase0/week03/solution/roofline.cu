/* roofline.cu — week 03, exercise 3: a roofline calculator (host code only).
 *
 * A kernel that moves B bytes and does F flops in t seconds reached B/t bytes
 * per second and F/t flops per second. Its arithmetic intensity I = F/B
 * (flops per byte) says which of the device's two ceilings limits it: the
 * roof is min(peak FLOP/s, I x peak bytes/s). Below the ridge point
 * I* = peak FLOP/s / peak bytes/s the sloped part applies (memory-bound);
 * at or above it the flat part (compute-bound). On an H100 I* is about 20
 * flops per byte: a vector add (1/12) is far below it, a large GEMM far above. */
#include <math.h>
#include "roofline.h"

rl_cost rl_cost_vecadd(size_t n)
{
    rl_cost c = { 0, 0 };
    //@solution
    c.bytes = 12.0 * (double)n; /* read a, b; write c */
    c.flops = (double)n;
    //@starter
    //| /* TODO: bytes read and written, flops. */
    //| (void)n;
    //@end
    return c;
}

rl_cost rl_cost_saxpy(size_t n)
{
    rl_cost c = { 0, 0 };
    //@solution
    c.bytes = 12.0 * (double)n; /* read x, y; write y */
    c.flops = 2.0 * (double)n;  /* one FMA */
    //@starter
    //| (void)n;
    //@end
    return c;
}

rl_cost rl_cost_dot(size_t n)
{
    rl_cost c = { 0, 0 };
    //@solution
    c.bytes = 8.0 * (double)n;
    c.flops = 2.0 * (double)n;
    //@starter
    //| (void)n;
    //@end
    return c;
}

rl_cost rl_cost_gemm(size_t m, size_t n, size_t k)
{
    rl_cost c = { 0, 0 };
    //@solution
    double M = (double)m, N = (double)n, K = (double)k;
    c.bytes = 4.0 * (M * K + K * N + M * N);
    c.flops = 2.0 * M * N * K;
    //@starter
    //| (void)m, (void)n, (void)k;
    //@end
    return c;
}

rl_cost rl_cost_stencil5(size_t nx, size_t ny)
{
    rl_cost c = { 0, 0 };
    //@solution
    double interior = (nx > 2 && ny > 2) ? (double)(nx - 2) * (double)(ny - 2) : 0.0;
    c.bytes = 4.0 * (double)nx * (double)ny + 4.0 * interior;
    c.flops = 5.0 * interior; /* 4 adds, 1 multiply */
    //@starter
    //| (void)nx, (void)ny;
    //@end
    return c;
}

int rl_analyse(rl_cost c, double ms, double peak_gbps, double peak_gflops, rl_point *p)
{
    //@solution
    /* written so that NaN fails every test (comparisons with NaN are false) */
    if (!(ms > 0) || !(peak_gbps > 0) || !(peak_gflops > 0) || !(c.bytes >= 0) || !(c.flops >= 0)) return -1;
    if (c.bytes == 0 && c.flops == 0) return -1;
    if (isinf(ms) || isinf(peak_gbps) || isinf(peak_gflops) || isinf(c.bytes) || isinf(c.flops)) return -1;
    rl_point r;
    double s = ms * 1e-3;
    r.gbps = c.bytes / s / 1e9;
    r.gflops = c.flops / s / 1e9;
    r.intensity = c.bytes > 0 ? c.flops / c.bytes : INFINITY;
    r.ridge = peak_gflops / peak_gbps;
    r.roof_gflops = r.intensity * peak_gbps < peak_gflops ? r.intensity * peak_gbps : peak_gflops;
    if (r.intensity < r.ridge) {
        r.bound = "memory";
        r.fraction = r.gbps / peak_gbps;
    } else {
        r.bound = "compute";
        r.fraction = r.gflops / peak_gflops;
    }
    *p = r;
    return 0;
    //@starter
    //| /* TODO: check the arguments (return -1), then fill *p (see roofline.h). */
    //| (void)c, (void)ms, (void)peak_gbps, (void)peak_gflops, (void)p;
    //| return -1;
    //@end
}
