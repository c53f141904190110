/* scan.h — week 07: inclusive prefix sums, three ways. */
#ifndef SCAN_H
#define SCAN_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of device workspace any of the scans needs for n elements (given). */
size_t scan_tmp_bytes(size_t n);

/* y[i] = x[0] + ... + x[i] for i < n (inclusive scan); x and y do not
 * overlap; tmp: scan_tmp_bytes(n) bytes. Default stream; the first error. */
cudaError_t scan_hs(const float *x, float *y, size_t n, void *tmp);       /* Hillis-Steele tiles */
cudaError_t scan_blelloch(const float *x, float *y, size_t n, void *tmp); /* work-efficient tiles */
cudaError_t scan_fast(const float *x, float *y, size_t n, void *tmp);     /* reduce-then-scan */

#ifdef __cplusplus
}
#endif
#endif
