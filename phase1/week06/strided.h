/* strided.h — week 06: what a stride costs. */
#ifndef STRIDED_H
#define STRIDED_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Read in as a column-major R x s matrix (R = n / s) and write it out
 * contiguously: out[i] = in[(i % R) * s + i / R]. Every element is read once;
 * consecutive threads read addresses s floats apart (s = 1 is a plain copy).
 * Returns cudaErrorInvalidValue when s < 1 or n % s != 0 (nothing launched). */
cudaError_t strided_copy(const float *in, float *out, size_t n, int s);

#ifdef __cplusplus
}
#endif
#endif
