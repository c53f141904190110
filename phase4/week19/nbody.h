/* nbody.h — week 19: gravitational accelerations, all pairs, O(n^2).
 *
 * Bodies are 4 floats each, (x, y, z, m): body i is pos[4i .. 4i+3], the
 * array 16-byte aligned (read it as float4). Accelerations are 3 floats
 * each: a_i is acc[3i .. 3i+2]. With G = 1 and softening eps2 > 0,
 *
 *     a_i = sum over all j of  m_j (x_j - x_i) / (|x_j - x_i|^2 + eps2)^(3/2)
 *
 * j = i included: its term is 0 (x_j - x_i = 0), and eps2 > 0 keeps the
 * denominator away from 0 for any pair. One term is an "interaction"; the
 * workbook counts NBODY_FLOPS_PER_INTERACTION flops for each (README: how
 * honest that count is). n >= 0; n == 0 launches nothing. pos and acc are
 * device pointers, not overlapping; nothing past acc[3n-1] may be written.
 * Both launch on the default stream without waiting and return the launch's
 * error (cudaSuccess if none). */
#ifndef NBODY_H
#define NBODY_H

#include <cuda_runtime_api.h>

#define NBODY_FLOPS_PER_INTERACTION 20

#ifdef __cplusplus
extern "C" {
#endif

/* One thread per body i, reading every body j from global memory. */
cudaError_t nbody_accel_naive(const float *pos, float *acc, int n, float eps2);
/* One thread per body i; a block stages tiles of bodies j in shared memory
 * and every thread of the block uses each staged body. */
cudaError_t nbody_accel_tiled(const float *pos, float *acc, int n, float eps2);

#ifdef __cplusplus
}
#endif
#endif
