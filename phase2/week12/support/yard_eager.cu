/* yard_eager.cu — week 12, given: the yardstick EAGER of w12.graph-speed,
 * k launches of tiny_add (support/tiny.cu), one after another. */
#include <cuda_runtime.h>
#include "graph.h"

extern "C" cudaError_t yard_tiny_eager(float *d, int n, int k)
{
    for (int j = 0; j < k; j++) {
        cudaError_t e = tiny_add(d, n, 0);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}
