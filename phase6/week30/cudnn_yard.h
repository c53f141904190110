/* cudnn_yard.h — week 30, given (support/cudnn_softmax.cu): cuDNN's softmax
 * as the yardstick, loaded at run time (phase6/common/wb_cudnn.h). */
#ifndef CUDNN_YARD_H
#define CUDNN_YARD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when cuDNN is loaded and a handle made (once per process); 0 with the
 * reason in why. */
int cudnn_yard_open(char *why, size_t n);

/* cudnnSoftmaxForward(CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE)
 * over an NCHW float tensor of N = rows, C = cols, H = W = 1: the softmax of
 * every row, y = exp(x - max) / sum, on the default stream. 0 on success,
 * else cuDNN's status with its text in why. */
int cudnn_yard_softmax(const float *x, float *y, int rows, int cols, char *why, size_t n);

#ifdef __cplusplus
}
#endif
#endif
