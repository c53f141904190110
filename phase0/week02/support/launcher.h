/* launcher.h — week 02's given launches (support/launcher.cu). Neither
 * checks its launch: that is what bug_check_launch is for. */
#ifndef W02_LAUNCHER_H
#define W02_LAUNCHER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = v for i < n, launched with `block` threads per block and
 * `smem_bytes` of dynamic shared memory, whatever they are. */
void w02_launch_fill(float *y, size_t n, float v, int block, size_t smem_bytes);
/* A kernel that writes far past the allocation p: it launches fine and
 * fails while running (cudaErrorIllegalAddress at the next synchronisation;
 * the context is unusable afterwards). */
void w02_launch_fault(float *p);

#ifdef __cplusplus
}
#endif
#endif
