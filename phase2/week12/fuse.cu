/* fuse.cu — week 12, exercise 3: three element-wise kernels as one.
 *
 * Each step of the given chain is memory-bound: it reads n floats and writes
 * n floats for one or two flops. Fused, the chain reads x once and writes y
 * once and the intermediates never leave registers: a third of the traffic,
 * and two launches fewer. Fusion matters exactly when the kernels are
 * memory-bound; for a compute-bound step it saves little. */
#include "fuse.h"


cudaError_t fused_chain(const float *x, float *y, size_t n, float a, float b, float s)
{
    /* TODO: one kernel: t = fmaf(a, x, b); y = (t < 0 ? 0 : t) * s. */
    (void)x, (void)y, (void)n, (void)a, (void)b, (void)s;
    return cudaSuccess;
}
