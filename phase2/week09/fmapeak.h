/* fmapeak.h — week 09, given (support/fmapeak.cu): a measured FP32 peak. */
#ifndef FMAPEAK_H
#define FMAPEAK_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads the peak kernel runs (its out buffer holds one float each). */
size_t fmapeak_threads(int sm_count);
/* Flops one launch performs. */
double fmapeak_flops(int sm_count, int iters);
/* Launch it on the default stream. */
cudaError_t fmapeak_launch(float *out, int sm_count, int iters);

#ifdef __cplusplus
}
#endif
#endif
