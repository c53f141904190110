/* atomics.h — week 07: warp-aggregated global atomics.
 *
 * Two jobs that end in atomics on global memory, each written twice: a given
 * yardstick with one atomic per element (support/yard_atomics_naive.cu) and
 * yours, with one atomic per group of lanes that share an address.
 *
 *   compact:  stream compaction, a filter that appends to one counter.
 *             Every kept element needs a slot: atomicAdd(count, 1) returns
 *             it. Yours: one __ballot_sync per warp, one atomicAdd of
 *             __popc(ballot) by one lane, __shfl_sync of the base, and each
 *             kept lane's slot is base + the number of kept lanes below it.
 *   keycount: counts of keys in global memory (a histogram with nkeys bins
 *             and no shared-memory copy). Yours: __match_any_sync groups
 *             the lanes holding the same key, the lowest lane of each group
 *             adds __popc(group). Few distinct keys: many lanes per group,
 *             and the naive version's atomics all queue on a few addresses.
 *
 * All four take device pointers, run on the default stream, zero their own
 * outputs first (asynchronously) and return the first error. n is at most
 * 2^32 - 1 (cudaErrorInvalidValue otherwise): the counts are 32-bit. */
#ifndef ATOMICS_H
#define ATOMICS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* *count = the number of i < n with x[i] < thresh; out[0 .. *count) holds
 * those x[i], each once, in any order; nothing else of out is written. x
 * may start at any 4-byte address. */
cudaError_t atomics_compact_warp(const unsigned int *x, size_t n, unsigned int thresh, unsigned int *out,
                                 unsigned int *count);

/* counts[k] = the number of i < n with keys[i] == k, for k < nkeys; keys
 * of nkeys or more are not counted. nkeys == 0 writes nothing. */
cudaError_t atomics_keycount_warp(const unsigned int *keys, size_t n, unsigned int nkeys, unsigned int *counts);

/* Given (support/yard_atomics_naive.cu), the yardsticks: the same contracts,
 * one atomic per kept element or per key. ptxas aggregates yard_compact_naive's
 * atomics itself (its counter's address is the same in every lane; see the
 * README), not yard_keycount_naive's. */
cudaError_t yard_compact_naive(const unsigned int *x, size_t n, unsigned int thresh, unsigned int *out,
                               unsigned int *count);
cudaError_t yard_keycount_naive(const unsigned int *keys, size_t n, unsigned int nkeys, unsigned int *counts);

#ifdef __cplusplus
}
#endif
#endif
