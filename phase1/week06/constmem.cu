/* constmem.cu — week 06, exercise 4: constant memory.
 *
 * 64 KiB of __constant__ memory is read through a small per-SM cache that
 * broadcasts one address to a whole warp in one go: ideal for coefficients
 * every thread reads in the same order. Addresses that differ inside a warp
 * are serialised, so it is the wrong place for a lookup table indexed by
 * data. The host fills it with cudaMemcpyToSymbol. */
#include "constmem.h"

/* TODO: __constant__ storage for POLY_MAX coefficients and their count, and
 * a grid-stride kernel doing Horner's rule with them. */

cudaError_t constmem_poly_set(const float *coef, int ncoef)
{
    if (ncoef < 1 || ncoef > POLY_MAX || !coef) return cudaErrorInvalidValue;
    /* TODO: cudaMemcpyToSymbol the coefficients and their count. */
    return cudaSuccess;
}

cudaError_t constmem_poly_eval(const float *x, float *y, size_t n)
{
    if (n == 0) return cudaSuccess;
    /* TODO: launch your kernel. */
    (void)x, (void)y;
    return cudaSuccess;
}
