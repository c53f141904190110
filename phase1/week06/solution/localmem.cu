/* localmem.cu — week 06, exercise 3: keep an array in registers, not local memory.
 *
 * Registers have no addresses: an array lives in registers only when every
 * index into it is a compile-time constant. localmem_median9_local's insertion sort
 * moves elements with a data-dependent index, so the compiler puts the
 * window in local memory (a per-thread slice of DRAM, cached in L1): see
 * `ld.local`/`st.local` in the PTX and a stack frame in `nvcc -Xptxas -v`.
 * localmem_median9_regs sorts with a fixed compare-exchange network whose loops
 * unroll completely: every index is constant and the window stays in
 * registers. */
#include "localmem.h"

static __device__ __forceinline__ size_t clampi(long long i, size_t n)
{
    return i < 0 ? 0 : (i >= (long long)n ? n - 1 : (size_t)i);
}

/* Given: insertion sort, the window in local memory. */
static __global__ void median9_local_kernel(const float *__restrict__ in, float *__restrict__ out, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float a[9];
#pragma unroll
        for (int k = 0; k < 9; k++) a[k] = in[clampi((long long)i + k - 4, n)];
        for (int k = 1; k < 9; k++) {
            float v = a[k];
            int j = k - 1;
            while (j >= 0 && a[j] > v) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = v;
        }
        out[i] = a[4];
    }
}

static __global__ void median9_regs_kernel(const float *__restrict__ in, float *__restrict__ out, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float a[9];
#pragma unroll
        for (int k = 0; k < 9; k++) a[k] = in[clampi((long long)i + k - 4, n)];
        //@solution
#pragma unroll
        for (int p = 0; p < 9; p++)
#pragma unroll
            for (int j = 0; j < 8 - p; j++) {
                float lo = fminf(a[j], a[j + 1]), hi = fmaxf(a[j], a[j + 1]);
                a[j] = lo, a[j + 1] = hi;
            }
        //@starter
        //| /* TODO: this is the same insertion sort as the local version: replace
        //|  * it with a sort whose every array index is known at compile time. */
        //| for (int k = 1; k < 9; k++) {
        //|     float v = a[k];
        //|     int j = k - 1;
        //|     while (j >= 0 && a[j] > v) {
        //|         a[j + 1] = a[j];
        //|         j--;
        //|     }
        //|     a[j + 1] = v;
        //| }
        //@end
        out[i] = a[4];
    }
}

static unsigned grid_for(size_t n)
{
    size_t b = (n + 255) / 256;
    return (unsigned)(b < 132 * 8 ? b : 132 * 8);
}

cudaError_t localmem_median9_local(const float *in, float *out, size_t n)
{
    if (n == 0) return cudaSuccess;
    median9_local_kernel<<<grid_for(n), 256>>>(in, out, n);
    return cudaGetLastError();
}

cudaError_t localmem_median9_regs(const float *in, float *out, size_t n)
{
    if (n == 0) return cudaSuccess;
    median9_regs_kernel<<<grid_for(n), 256>>>(in, out, n);
    return cudaGetLastError();
}

cudaError_t localmem_median9_attrs(int which, int *local_bytes, int *regs)
{
    struct cudaFuncAttributes a;
    cudaError_t e = which == 0 ? cudaFuncGetAttributes(&a, median9_local_kernel)
                               : cudaFuncGetAttributes(&a, median9_regs_kernel);
    if (e != cudaSuccess) return e;
    *local_bytes = (int)a.localSizeBytes;
    *regs = a.numRegs;
    return cudaSuccess;
}
