/* judge_w35_kernels.h — week 35's judge kernel (judge_w35_kernels.cu),
 * linked into judge-w35 alone. */
#ifndef JUDGE_W35_KERNELS_H
#define JUDGE_W35_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A timed dropout output in full: out is y (rows x cols floats) then the
 * mask (rows x cols bytes). The inputs are recomputed from their seeds
 * (wb_hash_uniform_f32's values, as wb_dfill_uniform_f32 wrote them): x[i]
 * from sx in [-4, 4), residual[i] from sr in [-1, 1), bias[j] from sb in
 * [-1, 1). mask[i] must be the model's keep (judge_w35_philox.h: seed,
 * offset, i, p), and y[i] the residual exactly where dropped, else within
 * one ulp of y plus one ulp of the scaled term of the exact r + (x + b) *
 * scale (x + b rounded to float first; w35_checks.h's w35_y_ok bound; scale =
 * 1.0f / (1.0f - p) in float). bad[0] = how many elements are wrong, bad[1]
 * = the first's index (bad: 2 device words; on stream s, not waited for). */
cudaError_t jd_w35_dropout_check(const float *out, size_t rows, int cols, unsigned long long sx, unsigned long long sr,
                                 unsigned long long sb, unsigned long long seed, unsigned long long offset, float p,
                                 unsigned long long *bad, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
