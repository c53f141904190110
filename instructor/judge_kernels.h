/* judge_kernels.h — kernels of the GPU judges (judge_kernels.cu). */
#ifndef JUDGE_KERNELS_H
#define JUDGE_KERNELS_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dst[k] = src[idx[k]] for k < n (device pointers; on stream s, not waited for). */
cudaError_t jd_gather_f32(const float *src, const unsigned long long *idx, int n, float *dst, cudaStream_t s);

/* Every c[i] (i < n) compared bit for bit with
 * wb_hash_uniform_f32(sa, i, lo, hi) + wb_hash_uniform_f32(sb, i, lo, hi):
 * bad[0] = how many differ, bad[1] = the first (bad: 2 device words; on
 * stream s, not waited for). */
cudaError_t jd_sum_check_f32(const float *c, size_t n, unsigned long long sa, unsigned long long sb, float lo, float hi,
                             unsigned long long *bad, cudaStream_t s);

/* Every y[i] (i < n) compared with x = wb_hash_uniform_f32(sx, i, lo, hi)
 * after `iters` steps of x = fmaf(x, a, b) (iters 0: a copy of the input),
 * by wb_close's rule (atol + rtol |ref|; NaN only for NaN): bad[0] = how many
 * differ, bad[1] = the first (bad: 2 device words; on stream s, not waited for). */
cudaError_t jd_fma_check_f32(const float *y, size_t n, unsigned long long sx, float lo, float hi, int iters, float a,
                             float b, double atol, double rtol, unsigned long long *bad, cudaStream_t s);

/* Every y[i] (i < n) against SAXPY's a x + y0 in double, x =
 * wb_hash_uniform_f32(sx, i, lo, hi) and y0 the same of sy: |y[i] - ref| <=
 * atol + rtol |ref|, y[i] finite (inputs finite): bad[0] = how many differ,
 * bad[1] = the first (bad: 2 device words; on stream s, not waited for). */
cudaError_t jd_saxpy_check_f32(const float *y, size_t n, unsigned long long sx, unsigned long long sy, float lo,
                               float hi, float a, double atol, double rtol, unsigned long long *bad, cudaStream_t s);

/* *out (one device double) = the sum over i < n of wb_hash_uniform_f32(seed,
 * i, lo, hi), in double: the sum of what wb_dfill_uniform_f32 wrote (on
 * stream s, not waited for). */
cudaError_t jd_hash_sum_f64(size_t n, unsigned long long seed, float lo, float hi, double *out, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
