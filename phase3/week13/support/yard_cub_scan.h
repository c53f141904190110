/* yard_cub_scan.h — week 13, given: CUB's inclusive scan of int32, the
 * yardstick CUB of w13.scan-speed (support/yard_cub_scan.cu). */
#ifndef W13_YARD_CUB_SCAN_H
#define W13_YARD_CUB_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cub::DeviceScan::InclusiveSum of n ints (n below 2^31), y[i] = x[0] +
 * ... + x[i]: the workspace's bytes, then the call (default stream,
 * asynchronous; allocate the workspace outside any timed region; 0 bytes:
 * the size query failed, and the call will say why). CUB's
 * scan is single-pass with decoupled look-back, as scan1pass is. */
size_t yard_cub_scan_i32_bytes(size_t n);
cudaError_t yard_cub_scan_i32(void *tmp, size_t tmp_bytes, const int32_t *x, int32_t *y, size_t n);

#ifdef __cplusplus
}
#endif
#endif
