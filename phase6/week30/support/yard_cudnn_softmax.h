/* yard_cudnn_softmax.h — week 30, given (support/yard_cudnn_softmax.cu): cuDNN's softmax
 * as the yardstick, loaded at run time (common/include/wb_cudnn.h). */
#ifndef W30_YARD_CUDNN_SOFTMAX_H
#define W30_YARD_CUDNN_SOFTMAX_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when cuDNN is loaded and a handle made (once per process); 0 with the
 * reason in why. */
int yard_cudnn_open(char *why, size_t n);

/* cudnnSoftmaxForward(CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE)
 * over an NCHW float tensor of N = rows, C = cols, H = W = 1: the softmax of
 * every row, y = exp(x - max) / sum, on the default stream. 0 on success,
 * else cuDNN's status with its text in why. */
int yard_cudnn_softmax(const float *x, float *y, int rows, int cols, char *why, size_t n);

#ifdef __cplusplus
}
#endif
#endif
