/* yard_fmapeak.h — week 09, given (support/yard_fmapeak.cu): a measured FP32 peak. */
#ifndef W09_YARD_FMAPEAK_H
#define W09_YARD_FMAPEAK_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads the peak kernel runs (its out buffer holds one float each). */
size_t yard_fmapeak_threads(int sm_count);
/* Flops one launch performs. */
double yard_fmapeak_flops(int sm_count, int iters);
/* Launch it on the default stream. */
cudaError_t yard_fmapeak_launch(float *out, int sm_count, int iters);

#ifdef __cplusplus
}
#endif
#endif
