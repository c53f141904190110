/* localmem.h — week 06: registers versus local memory (a dynamically indexed array, not a register spill). */
#ifndef LOCALMEM_H
#define LOCALMEM_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = median of in[clamp(i-4)], ..., in[clamp(i+4)] (indices clamped to
 * [0, n-1]), finite inputs. Two versions with the same result:
 * localmem_median9_local (given) sorts its window with insertion sort, whose
 * data-dependent index puts the window in local memory; localmem_median9_regs keeps
 * it in registers. */
cudaError_t localmem_median9_local(const float *in, float *out, size_t n);
cudaError_t localmem_median9_regs(const float *in, float *out, size_t n);

/* The kernel's local memory (bytes per thread) and registers:
 * which = 0 for localmem_median9_local's kernel, 1 for localmem_median9_regs's. */
cudaError_t localmem_median9_attrs(int which, int *local_bytes, int *regs);

#ifdef __cplusplus
}
#endif
#endif
