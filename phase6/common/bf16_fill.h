/* bf16_fill.h — Phase 6's device-side input fill for the attention benchmarks (given code,
 * not an exercise; weeks 38, 59 and 62 use it). */
#ifndef BF16_FILL_H
#define BF16_FILL_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* d[i] = a bf16 drawn uniformly in [lo, hi) from a hash of (seed, i), for
 * the benchmarks' large inputs (a host fill of 400 MB takes seconds). The
 * checks read the values back; nothing recomputes the hash on the host.
 * Default stream, no wait. */
cudaError_t bf16_fill_uniform(uint16_t *d, size_t n, unsigned long long seed, float lo, float hi);

#ifdef __cplusplus
}
#endif
#endif
