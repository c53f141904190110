/* tally.h — week 08: counting with atomics, and what contention costs. */
#ifndef TALLY_H
#define TALLY_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most bins tally_block keeps in shared memory. */
#define TALLY_SHARED_MAX 8192u

/* counts[b] = the number of i < n with keys[i] == b, for b < nbins (every
 * key is < nbins; counts is zeroed first). tally_device: one device-scope
 * atomic per key on counts. tally_block: block-scope atomics on a copy of the
 * bins in shared memory, then one device-scope add per bin and block;
 * nbins <= TALLY_SHARED_MAX, else cudaErrorInvalidValue and nothing runs.
 * Default stream; the first error. */
cudaError_t tally_device(const unsigned int *keys, size_t n, unsigned int *counts, unsigned int nbins);
cudaError_t tally_block(const unsigned int *keys, size_t n, unsigned int *counts, unsigned int nbins);

#ifdef __cplusplus
}
#endif
#endif
