/* yard_cudnn_conv.h — week 17, given (support/yard_cudnn_conv.cu): cuDNN's
 * 2D convolution as the yardstick of w17.conv-speed, loaded at run time
 * (common/include/wb_cudnn.h).
 *
 * The same work as conv2d.h asks of you, in cuDNN's terms: one image, one
 * channel in and one out (NCHW, N = C = K = 1), FP32 in, out and arithmetic
 * (CUDNN_FMA_MATH: no TF32 tensor cores), stride 1, a K x K filter applied
 * as conv2d.h defines it, unflipped (CUDNN_CROSS_CORRELATION), with a
 * padding of r = K / 2 on every side so the output is width x height. The
 * one difference is the border: cuDNN pads with zeros where conv2d.h clamps,
 * so the two outputs agree on the interior (r pixels in from every edge)
 * and each is checked against its own rule everywhere. */
#ifndef W17_YARD_CUDNN_CONV_H
#define W17_YARD_CUDNN_CONV_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One of cuDNN's forward algorithms, as its own search found it. */
typedef struct {
    int         algo;      /* cudnnConvolutionFwdAlgo_t */
    const char *name;      /* "IMPLICIT_PRECOMP_GEMM", ... */
    float       find_ms;   /* the time cudnnFindConvolutionForwardAlgorithm measured */
    size_t      workspace; /* bytes of device workspace it needs */
    int         too_slow;  /* 1: cuDNN's search timed it at more than YARD_CONV_TOO_SLOW times its
                              fastest, so it cannot be the fastest: a bench need not time it */
} yard_conv_algo;

/* An algorithm cuDNN's own search timed at more than this many times its
 * fastest is marked too_slow (FFT_TILING at K = 15 ran for seconds a call). */
#define YARD_CONV_TOO_SLOW 20.0f

/* 1 when cuDNN is loaded and a handle made (once per process); 0 with the
 * reason in why. */
int yard_cudnn_conv_open(char *why, size_t n);

/* Describe the convolution (the image size, the k x k weights copied from
 * the host array h_weights to the device) and ask cuDNN which of its
 * algorithms run it, fastest first (cudnnFindConvolutionForwardAlgorithm,
 * which times each one itself): up to max of those that succeeded go to
 * algos, their number to *found, each marked too_slow or not. 0 on success, else cuDNN's status (or -1)
 * with its text in why. */
int yard_cudnn_conv_plan(int width, int height, const float *h_weights, int k, yard_conv_algo *algos, int max,
                         int *found, char *why, size_t n);

/* One forward convolution of the planned shape with algorithm a, on the
 * default stream: out = weights (*) in. workspace holds a->workspace bytes
 * (allocated by the caller, outside any timing). 0 or cuDNN's status, with
 * its text in why. */
int yard_cudnn_conv(const float *in, float *out, const yard_conv_algo *a, void *workspace, char *why, size_t n);

#ifdef __cplusplus
}
#endif
#endif
