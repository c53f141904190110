/* saxpy.cu — week 07, exercise 1: y = a x + y at the speed of memory.
 * 2 flops per 12 bytes: memory-bound; the grid-stride float4 loop of week 05
 * with a scalar loop for the tail and for misaligned pointers. */
#include <stdint.h>
#include "saxpy.h"

/* TODO: your kernel(s). */

cudaError_t saxpy(size_t n, float a, const float *x, float *y)
{
    /* TODO: launch; nothing when n == 0; return cudaGetLastError(). */
    (void)n, (void)a, (void)x, (void)y;
    return cudaSuccess;
}
