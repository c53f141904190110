/* judge_w18_kernels.h — week 18's judge kernels (judge_w18_kernels.cu),
 * linked into judge-w18 alone: the timed layer's inputs made from their
 * seeds, and its output checked in full. */
#ifndef JUDGE_W18_KERNELS_H
#define JUDGE_W18_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ranges of the timed layer's draws (test_week18.c's layer_bench): x
 * in [-1, 1), W in [-1/32, 1/32) (1 / sqrt(in) for in = 1024), b in
 * [-0.5, 0.5). */
#define JD_W18_XR 1.0f
#define JD_W18_WR 0.03125f
#define JD_W18_BR 0.5f

/* Element i of the draw of seed over [-r, r) as the layer sees it: the
 * float wb_hash_uniform gives, rounded to bfloat16 (nearest even) when
 * bf16. Host and device (judge_w18_kernels.cu defines it inline). */
float jd_w18_draw(unsigned long long seed, size_t i, float r, int bf16);

/* The timed input x | W | b (judge_w18.h's layout, element size 4, or 2
 * with x and W as bfloat16 bits) from the seeds sx, sw, sb, on stream s. */
cudaError_t jd_w18_fill(void *in, int bf16, int batch, int in_, int out, unsigned long long sx,
                        unsigned long long sw, unsigned long long sb, cudaStream_t s);
/* The same draws as floats (the judge's own copies, for the check): x
 * (batch x in), W (out x in), b (out). On s. */
cudaError_t jd_w18_fill_ref(float *x, float *W, float *b, int bf16, int batch, int in_, int out,
                            unsigned long long sx, unsigned long long sw, unsigned long long sb, cudaStream_t s);
/* y (batch x out) against ReLU(x W^T + b) summed in double, each element
 * within wb_close_hd(atol, rtol): bad[0] how many are wrong, bad[1] the
 * first's index (bad: 2 device words; on s, not waited for). */
cudaError_t jd_w18_check(const float *y, const float *x, const float *W, const float *b, int batch, int in_, int out,
                         double atol, double rtol, unsigned long long *bad, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
