/* gemm_support.h — device helpers the tests of weeks 25-28 use (phase5/common/gemm_support.cu). */
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
/* dst[i] = (float)src[i] for halves. */
cudaError_t half_to_float(const uint16_t *src, float *dst, size_t n);

#ifdef __cplusplus
}
#endif
#endif
