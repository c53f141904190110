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
    /* TODO: bytes read and written, flops. */
    (void)n;
    return c;
}

rl_cost rl_cost_saxpy(size_t n)
{
    rl_cost c = { 0, 0 };
    (void)n;
    return c;
}

rl_cost rl_cost_dot(size_t n)
{
    rl_cost c = { 0, 0 };
    (void)n;
    return c;
}

rl_cost rl_cost_gemm(size_t m, size_t n, size_t k)
{
    rl_cost c = { 0, 0 };
    (void)m, (void)n, (void)k;
    return c;
}

rl_cost rl_cost_stencil5(size_t nx, size_t ny)
{
    rl_cost c = { 0, 0 };
    (void)nx, (void)ny;
    return c;
}

int rl_analyse(rl_cost c, double ms, double peak_gbps, double peak_gflops, rl_point *p)
{
    /* TODO: check the arguments (return -1), then fill *p (see roofline.h). */
    (void)c, (void)ms, (void)peak_gbps, (void)peak_gflops, (void)p;
    return -1;
}
