/* constmem.h — week 06: constant memory. */
#ifndef CONSTMEM_H
#define CONSTMEM_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define POLY_MAX 64

/* Copy ncoef (1..POLY_MAX) host coefficients into __constant__ memory; the
 * caller may reuse its array afterwards. cudaErrorInvalidValue otherwise. */
cudaError_t constmem_poly_set(const float *coef, int ncoef);

/* y[i] = c[0] + c[1] x[i] + ... + c[ncoef-1] x[i]^(ncoef-1) (Horner, float),
 * with the coefficients of the last constmem_poly_set. */
cudaError_t constmem_poly_eval(const float *x, float *y, size_t n);

#ifdef __cplusplus
}
#endif
#endif
