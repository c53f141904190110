/* lowocc.h — week 10: a kernel that is faster at lower occupancy. */
#ifndef LOWOCC_H
#define LOWOCC_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LOWOCC_ACC 48   /* accumulators each thread keeps live */
#define LOWOCC_STEPS 32 /* update rounds */

/* For every i < n: acc[j] = x[i] * (j + 1) / LOWOCC_ACC for j < LOWOCC_ACC;
 * then LOWOCC_STEPS rounds of, for j = 0 .. LOWOCC_ACC-1 in order,
 *   acc[j] = fmaf(acc[j], 0.5f, acc[(j + 1) % LOWOCC_ACC] * 0.25f) + c
 * with c = 0.01f * (round + 1); y[i] = the sum of acc[] in index order.
 * About 100 flops per accumulator round: compute-bound. Device pointers;
 * returns the launch's error. */
cudaError_t lowocc_run(const float *x, float *y, size_t n);

/* Given (support/capped.cu): the same computation compiled with
 * __launch_bounds__(256, 8) — full occupancy, 32 registers, spills. */
cudaError_t lowocc_capped(const float *x, float *y, size_t n);
/* Registers a thread of each version uses and its local-memory bytes. */
cudaError_t lowocc_regs(int capped, int *regs, int *local_bytes);

#ifdef __cplusplus
}
#endif
#endif
