/* hist.h — week 07: a 256-bin histogram of bytes, three ways. */
#ifndef HIST_H
#define HIST_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HIST_BINS 256

/* bins[b] = number of i < n with x[i] == b, for the 256 byte values. The
 * function zeroes bins itself (asynchronously, before counting); x may
 * start at any byte address. Default stream; the first error. */
cudaError_t hist_global(const unsigned char *x, size_t n, unsigned int *bins); /* global atomics */
cudaError_t hist_shared(const unsigned char *x, size_t n, unsigned int *bins); /* block-private, shared */
cudaError_t hist_warp(const unsigned char *x, size_t n, unsigned int *bins);   /* + warp aggregation */

#ifdef __cplusplus
}
#endif
#endif
