/* tma_copy.h — week 53: a matrix copy through shared memory with TMA. */
#ifndef TMA_COPY_H
#define TMA_COPY_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dst[r * ld_dst + c] = src[r * ld_src + c] for r < rows, c < cols, bit for
 * bit (NaN payloads, -0, denormals), by TMA: tensor-map loads into shared
 * memory, completed on an mbarrier, and tensor-map stores back, one CTA a
 * box of 32 x 256 floats (tma_copy.cu's BOX_ROWS x BOX_COLS). Nothing
 * else of dst is written (not the padding between a row's end and the next
 * row's start). src and dst are device pointers that do not overlap.
 *
 * A TMA store past the tensor's edge wrote whole 16-byte units of a row on
 * the H100 (README, the story), so the tensor maps cover cols & ~3 columns
 * and a plain kernel the last cols % 4 of each row.
 *
 * TMA's rules make the contract: src and dst 16-byte aligned, ld_src and
 * ld_dst multiples of 4 floats (16-byte row strides) and at least cols,
 * rows and cols at most 2^31 - 1 (TMA's coordinates are 32-bit signed),
 * at most 2^31 - 1 boxes (a 1-D grid; no GPU holds such a matrix). Anything else is refused with cudaErrorInvalidValue before any CUDA call
 * and nothing is written. rows == 0 or cols == 0: cudaSuccess, nothing done,
 * no CUDA call (the pointers are not looked at).
 *
 * The kernel is sm_90a code (week.txt's nvflags): it runs on a compute
 * capability 9.0 GPU (H100, H200) only. Launches on the default stream;
 * returns the first error. */
cudaError_t tma_copy_f32(const float *src, size_t ld_src, float *dst, size_t ld_dst, size_t rows, size_t cols);

#ifdef __cplusplus
}
#endif
#endif
