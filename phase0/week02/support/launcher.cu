/* launcher.cu — week 02 support: launches the test asks for, left unchecked on
 * purpose, so that bug_check_launch has something to find. */
#include "launcher.h"

static __global__ void w02_fill(float *y, size_t n, float v)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}

static __global__ void w02_fault(float *p)
{
    /* an address no allocation holds: the kernel fails while running */
    p[(size_t)1 << 40] = 1.0f;
}

extern "C" void w02_launch_fill(float *y, size_t n, float v, int block, size_t smem_bytes)
{
    unsigned grid = (unsigned)((n + (block > 0 ? block : 1) - 1) / (block > 0 ? block : 1));
    w02_fill<<<grid ? grid : 1, block, smem_bytes>>>(y, n, v);
}

extern "C" void w02_launch_fault(float *p) { w02_fault<<<1, 1>>>(p); }
