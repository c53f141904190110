/* copy.cu — week 03, exercise 1: a copy kernel, to find the bandwidth ceiling.
 *
 * A copy does no arithmetic at all: its speed is the memory system's. The
 * yardstick is cudaMemcpy device to device on the same bytes, measured in
 * the same run; a kernel that matches it shows the ceiling every memory-bound
 * kernel of this workbook is compared with.
 *
 * Version 1: one thread per float, a bounds check (week 01's pattern).
 * Version 2: float4 loads and stores when both pointers are 16-byte aligned,
 * four float4s in flight per thread (all loads, then all stores), the scalar
 * kernel for the tail and for misaligned pointers. */
#include <stdint.h>
#include "copy.h"

/* TODO: write the copy kernel(s). Start with one thread per float and a
 * bounds check; then move 16 bytes per load with float4 when both pointers
 * are 16-byte aligned, several float4s per thread, and a scalar tail. */

cudaError_t copy_f32(const float *x, float *y, size_t n)
{
    /* TODO: launch your kernel(s) over n elements (nothing when n == 0) and
     * return cudaGetLastError(). */
    (void)x, (void)y, (void)n;
    return cudaSuccess;
}
