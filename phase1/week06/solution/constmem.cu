/* constmem.cu — week 06, exercise 4: constant memory.
 *
 * 64 KiB of __constant__ memory is read through a small per-SM cache that
 * broadcasts one address to a whole warp in one go: ideal for coefficients
 * every thread reads in the same order. Addresses that differ inside a warp
 * are serialised, so it is the wrong place for a lookup table indexed by
 * data. The host fills it with cudaMemcpyToSymbol. */
#include "constmem.h"

//@solution
static __constant__ float c_coef[POLY_MAX];
static __constant__ int c_ncoef;

static __global__ void poly_kernel(const float *__restrict__ x, float *__restrict__ y, size_t n)
{
    int m = c_ncoef;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float v = x[i], acc = c_coef[m - 1];
        for (int k = m - 2; k >= 0; k--) acc = fmaf(acc, v, c_coef[k]);
        y[i] = acc;
    }
}
//@starter
//| /* TODO: __constant__ storage for POLY_MAX coefficients and their count, and
//|  * a grid-stride kernel doing Horner's rule with them. */
//@end

cudaError_t constmem_poly_set(const float *coef, int ncoef)
{
    if (ncoef < 1 || ncoef > POLY_MAX || !coef) return cudaErrorInvalidValue;
    //@solution
    cudaError_t e = cudaMemcpyToSymbol(c_coef, coef, (size_t)ncoef * sizeof(float));
    if (e == cudaSuccess) e = cudaMemcpyToSymbol(c_ncoef, &ncoef, sizeof ncoef);
    return e;
    //@starter
    //| /* TODO: cudaMemcpyToSymbol the coefficients and their count. */
    //| return cudaSuccess;
    //@end
}

cudaError_t constmem_poly_eval(const float *x, float *y, size_t n)
{
    if (n == 0) return cudaSuccess;
    //@solution
    size_t b = (n + 255) / 256;
    poly_kernel<<<(unsigned)(b < 132 * 8 ? b : 132 * 8), 256>>>(x, y, n);
    return cudaGetLastError();
    //@starter
    //| /* TODO: launch your kernel. */
    //| (void)x, (void)y;
    //| return cudaSuccess;
    //@end
}
