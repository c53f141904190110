/* yard_cub_rowsum.h — week 13, given: row sums by CUB on the same data, the
 * yardstick CUB of w13.shfl-cub (support/yard_cub_rowsum.cu). Both write
 * out[r] = the sum of row r of the rows x cols row-major x, on the default
 * stream, asynchronously. */
#ifndef W13_YARD_CUB_ROWSUM_H
#define W13_YARD_CUB_ROWSUM_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A kernel of CUB's block primitives, one block of 256 threads a row:
 * cub::BlockLoad (BLOCK_LOAD_VECTORIZE: four floats a thread, one 16-byte
 * load where the row is aligned) over the row in tiles of 1024 floats, then
 * cub::BlockReduce::Sum. rows below 2^31. */
cudaError_t yard_cub_rowsum_block(const float *x, size_t rows, size_t cols, float *out);

/* cub::DeviceSegmentedReduce::Sum with row r as segment r (offsets r * cols
 * computed on the fly, nothing stored): the workspace's bytes, then the call
 * (allocate the workspace outside any timed region). */
size_t yard_cub_rowsum_seg_bytes(size_t rows, size_t cols);
cudaError_t yard_cub_rowsum_seg(void *tmp, size_t tmp_bytes, const float *x, size_t rows, size_t cols, float *out);

#ifdef __cplusplus
}
#endif
#endif
