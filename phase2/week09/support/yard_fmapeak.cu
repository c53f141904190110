/* yard_fmapeak.cu — week 09, given: the measured FP32 FMA peak, the compute half
 * of the roof. Every thread runs 8 independent FMA chains in registers (no
 * memory traffic but one store at the end), on 2048 threads per SM. The
 * datasheet peak assumes the boost clock; under a full FMA load the clock
 * may sit lower, so the roof uses what this kernel measures in the same run. */
#include "yard_fmapeak.h"

static __global__ void fmapeak_kernel(float *out, int iters, float a, float b)
{
    float v0 = threadIdx.x, v1 = v0 + 1, v2 = v0 + 2, v3 = v0 + 3, v4 = v0 + 4, v5 = v0 + 5, v6 = v0 + 6, v7 = v0 + 7;
    for (int j = 0; j < iters; j++) {
#pragma unroll
        for (int u = 0; u < 8; u++) {
            v0 = fmaf(v0, a, b), v1 = fmaf(v1, a, b), v2 = fmaf(v2, a, b), v3 = fmaf(v3, a, b);
            v4 = fmaf(v4, a, b), v5 = fmaf(v5, a, b), v6 = fmaf(v6, a, b), v7 = fmaf(v7, a, b);
        }
    }
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;
}

extern "C" size_t yard_fmapeak_threads(int sm_count) { return (size_t)sm_count * 8 * 256; }

extern "C" double yard_fmapeak_flops(int sm_count, int iters)
{
    return 2.0 * 64.0 * iters * yard_fmapeak_threads(sm_count);
}

extern "C" cudaError_t yard_fmapeak_launch(float *out, int sm_count, int iters)
{
    fmapeak_kernel<<<sm_count * 8, 256>>>(out, iters, 0.999f, 0.001f);
    return cudaGetLastError();
}
