/* fp8_gemm.h — week 60: an FP8 GEMM on Hopper's tensor cores (wgmma),
 * E4M3 in, FP32 accumulation, per-tensor scales, BF16 out.
 *
 *   D = bf16( scale_a[0] * scale_b[0] * (A B^T) )
 *
 * A is M x K and B is N x K, both row-major E4M3 codes (fp8_convert.h):
 * both operands K-major, the one layout FP8 wgmma reads (it has no
 * transpose for 8-bit types). D is M x N, row-major BF16 bit patterns with
 * ldd elements a row (ldd >= N); the columns past N are never written.
 * scale_a and scale_b are device pointers to one float each (the
 * dequantisation scales: A's real values are scale_a[0] times its E4M3
 * values), read by the kernel, so they may be computed on the GPU without
 * a round trip to the host; their product must be finite in FP32. Each
 * output is the FP32 accumulator times scale_a[0] * scale_b[0] (rounded to
 * FP32), rounded to BF16 to nearest even: an E4M3 NaN in row i of A or row
 * j of B gives NaN in D[i][j]; an output past BF16's range is +-infinity
 * (E4M3 has no infinity; the scales bring one).
 *
 * Contract (the host code is given): K a multiple of 16 (TMA's rows are
 * multiples of 16 bytes), A and B 16-byte aligned when K > 0, scale_a and
 * scale_b not NULL when K > 0; D may start at any 2-byte boundary.
 * M == 0 or N == 0: cudaSuccess and no CUDA call (no pointer looked at);
 * K == 0: D = 0 (the scales are not read). Anything else (a negative size,
 * K % 16 != 0, ldd < N, a misaligned A or B, a NULL scale) is refused with
 * cudaErrorInvalidValue before any CUDA call, and nothing is written.
 * Launches on the default stream without waiting.
 *
 * The kernel is week 55's, persistent and warp-specialised: min(number of
 * SMs, tiles) CTAs of 384 threads walk 128 x 256 tiles of D in the grouped
 * order (16 row-tiles a group), k-tiles of 128 (one 128-byte row of E4M3,
 * the 128B swizzle's span) through a 4-stage ring of 48 KiB stages. The
 * epilogue goes through shared memory and TMA stores where D allows a
 * tensor map (D 16-byte aligned, N and ldd multiples of 8: a TMA store
 * writes whole 16-byte units), and from registers elsewhere. */
#ifndef FP8_GEMM_H
#define FP8_GEMM_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The tile, k-tile, ring and group the kernel uses. */
enum { FP8_BM = 128, FP8_BN = 256, FP8_BK = 128, FP8_STAGES = 4, FP8_GROUP_M = 16 };

cudaError_t fp8_gemm(const uint8_t *A, const uint8_t *B, const float *scale_a, const float *scale_b, uint16_t *D,
                     int M, int N, int K, size_t ldd);

/* The same with the grid chosen: grid CTAs (capped at the number of tiles),
 * or one per SM when grid is 0; grid < 0 is refused like a bad shape. The
 * tests run grids of 1, 2, 3, 5 and 7 CTAs, so that every CTA walks many
 * tiles and the ring's parity crosses many tile boundaries. */
cudaError_t fp8_gemm_grid(const uint8_t *A, const uint8_t *B, const float *scale_a, const float *scale_b,
                          uint16_t *D, int M, int N, int K, size_t ldd, int grid);

#ifdef __cplusplus
}
#endif
#endif
