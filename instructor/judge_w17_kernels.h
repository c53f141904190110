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

/* w17.pipeline-speed's inputs and checks. A scene (a gradient, 7 discs
 * of other levels, noise of -4..4, as test_week17.c's make_scene draws it
 * on the host) made from seed alone, on stream s: img, w x h bytes. */
cudaError_t jd_w17_scene_u8(unsigned char *img, int w, int h, unsigned long long seed, cudaStream_t s);
/* pipeline.h's blur, edges and equalisation LUT of in (w x h bytes), exact
 * as the test's CPU version: tmp and blur w x h floats, edge w x h bytes,
 * hist 256 counts, lut 256 bytes (the output is lut[edge[i]]). On s. */
cudaError_t jd_w17_pipe_ref(const unsigned char *in, int w, int h, float *tmp, float *blur, unsigned char *edge,
                            unsigned *hist, unsigned char *lut, cudaStream_t s);
/* The output's 4-byte words at the m positions idx (word j: bytes 4 idx[j]
 * .. 4 idx[j] + 3 of lut[edge[.]], as they lie in memory) into words. On s. */
cudaError_t jd_w17_pipe_words(const unsigned char *edge, const unsigned char *lut, const unsigned long long *idx, int m,
                              unsigned *words, cudaStream_t s);
/* out (n bytes) against lut[edge[i]] in full: bad[0] how many differ,
 * bad[1] the first (bad: 2 device words; on s, not waited for). */
cudaError_t jd_w17_pipe_check(const unsigned char *out, const unsigned char *edge, const unsigned char *lut, size_t n,
                              unsigned long long *bad, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
