/* yard_hist.h — week 56, given: the histogram the cluster version is
 * measured against (support/yard_hist.cu): one global atomic per key, the
 * only way to count bins that no single CTA's shared memory can hold
 * without a cluster. */
#ifndef W56_YARD_HIST_H
#define W56_YARD_HIST_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* bins[b] = the number of i < n with keys[i] == b, b < nbins, keys of nbins
 * or more counted nowhere: zeroes bins, then atomicAdd(&bins[key], 1) for
 * every key. Default stream, asynchronous; any alignment of keys. */
cudaError_t yard_hist_global(const uint32_t *keys, size_t n, uint32_t *bins, uint32_t nbins);

#ifdef __cplusplus
}
#endif
#endif
