/* occ_kernels.cu — week 10, given: kernels of different register and shared
 * memory appetites, for checking the calculator against the CUDA runtime's
 * own cudaOccupancyMaxActiveBlocksPerMultiprocessor. They are never run. */
#include <cuda_runtime.h>
#include "occ_kernels.h"

#define HEAVY 96

static __global__ void k_light(float *y, float a)
{
    y[blockIdx.x * blockDim.x + threadIdx.x] *= a;
}

static __device__ __forceinline__ float heavy_body(float x)
{
    float acc[HEAVY];
#pragma unroll
    for (int j = 0; j < HEAVY; j++) acc[j] = x * (j + 1);
#pragma unroll 1
    for (int r = 0; r < 8; r++)
#pragma unroll
        for (int j = 0; j < HEAVY; j++) acc[j] = fmaf(acc[j], acc[(j + 7) % HEAVY], 0.5f);
    float s = 0;
#pragma unroll
    for (int j = 0; j < HEAVY; j++) s += acc[j];
    return s;
}

static __global__ void k_heavy(float *y)
{
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = heavy_body(y[i]);
}

static __global__ void __launch_bounds__(128, 4) k_heavy_bounded(float *y)
{
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = heavy_body(y[i]);
}

static __global__ void k_static_smem(float *y)
{
    __shared__ float tile[3000];
    for (int j = threadIdx.x; j < 3000; j += blockDim.x) tile[j] = y[j];
    __syncthreads();
    y[blockIdx.x * blockDim.x + threadIdx.x] = tile[(threadIdx.x * 7) % 3000];
}

static __global__ void k_light_noopt(float *y, float a)
{
    y[blockIdx.x * blockDim.x + threadIdx.x] += a;
}

static const void *const KERNELS[] = { (const void *)k_light, (const void *)k_heavy, (const void *)k_heavy_bounded,
                                       (const void *)k_static_smem, (const void *)k_light_noopt };
static const char *const NAMES[] = { "light", "heavy", "heavy __launch_bounds__(128,4)", "static smem 12000 B",
                                     "light, not opted in" };

extern "C" int occk_count(void) { return (int)(sizeof KERNELS / sizeof KERNELS[0]); }
extern "C" const char *occk_name(int i) { return NAMES[i]; }
extern "C" int occk_opted_in(int i) { return i != 4; }

extern "C" cudaError_t occk_attr(int i, struct cudaFuncAttributes *a) { return cudaFuncGetAttributes(a, KERNELS[i]); }

/* Raise kernel i's dynamic shared memory limit to the most the device allows. */
extern "C" cudaError_t occk_opt_in(int i, int max_dynamic)
{
    return cudaFuncSetAttribute(KERNELS[i], cudaFuncAttributeMaxDynamicSharedMemorySize, max_dynamic);
}

extern "C" cudaError_t occk_max_active(int i, int threads, size_t dynamic_smem, int *blocks)
{
    *blocks = -1;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, KERNELS[i], threads, dynamic_smem);
}
