/* gemm_support.h — given device code for week 27 (support/ folder). */
#ifndef GEMM_SUPPORT_H
#define GEMM_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* d[i] = half(wb_hash_uniform_f32(seed, i, lo, hi)), rounded to nearest even:
 * the host replays any element with wb_hash_uniform_f32 and a half rounding. */
cudaError_t fill_half_uniform(uint16_t *d, size_t n, unsigned long long seed, float lo, float hi);
/* The week-26 mma.sync HGEMM (same contract as hgemm_tiled): the yardstick
 * the restructured kernel must keep up with. */
cudaError_t hgemm_w26(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K);

#ifdef __cplusplus
}
#endif
#endif
