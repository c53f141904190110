/* judge_w17_kernels.h — week 17's judge kernel (judge_w17_kernels.cu),
 * linked into judge-w17 alone. */
#ifndef JUDGE_W17_KERNELS_H
#define JUDGE_W17_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The k x k weights of a timed convolution (k odd, at most 15), by value. */
typedef struct {
    float w[15 * 15];
    int   k;
} jd_w17_filter;

/* A timed convolution's output in full (out: width x height floats)
 * against conv2d.h's rule in double, the input re-derived from its seed
 * (wb_hash_uniform(seed, i, lo, hi), the fill wb_dfill_uniform_f32 made):
 * the border clamped (zero_pad 0) or zeros (1: cuDNN's padding), each
 * element within wb_close_hd(atol, rtol). bad[0] = how many are wrong,
 * bad[1] = the first's index (bad: 2 device words; on stream s, not waited
 * for). */
cudaError_t jd_w17_conv_check_f32(const float *out, int width, int height, const jd_w17_filter *f,
                                  unsigned long long seed, float lo, float hi, int zero_pad, double atol, double rtol,
                                  unsigned long long *bad, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
