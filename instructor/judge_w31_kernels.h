/* judge_w31_kernels.h — week 31's judge kernel (judge_w31_kernels.cu),
 * linked into judge-w31 alone. */
#ifndef JUDGE_W31_KERNELS_H
#define JUDGE_W31_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A timed LayerNorm or RMSNorm output in full (out: y, rows x cols floats,
 * then for LayerNorm mean, then rstd, rows floats each), against the
 * reference in double from the inputs as doubles (x: rows x cols, g and b:
 * cols each, device; b unused for RMSNorm): per row mean (0 for RMSNorm)
 * and var = the mean of (x - mean)^2, rstd = 1 / sqrt(var + eps), y = (x -
 * mean) rstd g (+ b). y within tol + tol |ref|, rstd within tol |ref|, mean
 * within mean_rtol max(|mean|, sqrt(var)) + 1e-30 (the correctness
 * checkpoints' bound); a NaN or Inf is wrong (the inputs are finite).
 * bad[0] = how many are wrong, bad[1] = the first's index in out (bad: 2
 * device words; on stream s, not waited for). */
cudaError_t jd_w31_norm_check_f32(const float *out, const double *x, const double *g, const double *b, size_t rows,
                                  int cols, int rms, double eps, double tol, double mean_rtol, unsigned long long *bad,
                                  cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
