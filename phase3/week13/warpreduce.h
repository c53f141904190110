/* warpreduce.h — week 13: sum, max and min of each warp's 32 elements, by
 * shuffles; and the lane mask of a partial warp. */
#ifndef WARPREDUCE_H
#define WARPREDUCE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { WR_SUM = 0, WR_MAX = 1, WR_MIN = 2 };

/* The groups of n elements: ceil(n / 32). */
#define WR_GROUPS(n) (((n) + 31) / 32)

/* The mask of the `valid` lowest lanes of a warp: bits 0 .. valid-1 set,
 * for valid = 0 .. 32 (32 gives 0xffffffff). Host-callable (the CPU
 * checkpoint); the kernels use the same function. */
unsigned wr_tail_mask(unsigned valid);

/* out[g] = op(x[32g], ..., x[min(32g + 32, n) - 1]) for g < WR_GROUPS(n):
 * one warp per group of 32 consecutive elements; the last group may be
 * partial, and only its valid lanes take part. op is WR_SUM, WR_MAX or
 * WR_MIN. Max and min propagate NaN (a group holding a NaN gives NaN; fmaxf
 * would drop it); sums follow IEEE (Inf + -Inf is NaN). x and out are device
 * pointers; nothing past out[WR_GROUPS(n) - 1] is written. Asynchronous
 * (default stream); returns the launch's error, cudaErrorInvalidValue for a
 * bad op. */
cudaError_t wr_warp_reduce(int op, const float *x, size_t n, float *out);

#ifdef __cplusplus
}
#endif
#endif
