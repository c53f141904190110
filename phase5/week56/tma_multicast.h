/* tma_multicast.h — week 56: one matrix copied C times, each box read from
 * global memory once per cluster and delivered by TMA multicast into the
 * shared memory of all C CTAs of the cluster. */
#ifndef TMA_MULTICAST_H
#define TMA_MULTICAST_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copy k of the source, for k < copies, is the rows x cols matrix at
 * dst + k * rows * ld_dst (row stride ld_dst):
 *
 *     dst[(k * rows + r) * ld_dst + c] = src[r * ld_src + c]   r < rows, c < cols,
 *
 * bit for bit (NaN payloads, -0). Nothing else of dst is written (not the
 * padding past a row's cols). A cluster of `copies` CTAs (2 or 4) shares
 * each 128 x 32 box: with multicast != 0, CTA r of the cluster loads rows
 * [r * 128 / copies, (r + 1) * 128 / copies) of the box with one TMA load
 * multicast to every CTA of the cluster, so each box is read from global
 * memory once and arrives in all `copies` shared memories; CTA k then
 * stores copy k. With multicast == 0 each CTA loads the whole box itself
 * (the comparison: `copies` reads of every box).
 *
 * TMA's rules make the contract, as in week 53: src and dst 16-byte
 * aligned, ld_src and ld_dst multiples of 4 floats and at least cols, rows
 * and cols at most 2^31 - 1, copies 2 or 4. Anything else is refused with
 * cudaErrorInvalidValue before any CUDA call, nothing written. rows == 0 or
 * cols == 0 (with copies valid): cudaSuccess, no CUDA call.
 *
 * sm_90a code: compute capability 9.0 (H100, H200) only. Default stream;
 * returns the first error. */
cudaError_t tma_multicast_f32(const float *src, size_t ld_src, float *dst, size_t ld_dst, size_t rows, size_t cols,
                              int copies, int multicast);

#ifdef __cplusplus
}
#endif
#endif
