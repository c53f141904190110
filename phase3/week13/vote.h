/* vote.h — week 13: warp votes (__ballot_sync, __any_sync, __all_sync) and
 * a stream compaction built on them. */
#ifndef VOTE_H
#define VOTE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VT_ANY_NAN   1u /* flags: some element of the group is NaN */
#define VT_ALL_ABOVE 2u /* flags: every element of the group is > thr */

/* The lanes below `lane` (0 .. 31): bits 0 .. lane-1 set. Host-callable
 * (the CPU checkpoint); the compaction kernel uses the same function. */
unsigned vt_lanes_below(unsigned lane);

/* For each group g of 32 consecutive elements (the last may be partial;
 * WR_GROUPS(n) groups, see warpreduce.h):
 *   ballot[g]: bit j set when x[32g + j] > thr; bits past the end of a
 *              partial group are 0;
 *   flags[g]:  VT_ANY_NAN if any element of the group is NaN, | VT_ALL_ABOVE
 *              if every element of the group (the valid ones) is > thr.
 * Device pointers; nothing past either output's last group is written.
 * Asynchronous; returns the launch's error. */
cudaError_t vt_warp_votes(const float *x, size_t n, float thr, unsigned *ballot, unsigned *flags);

/* Stream compaction: every x[i] > thr (so never a NaN) is written to out,
 * and *count (one device unsigned long long, zeroed here) becomes how many.
 * The elements of one warp's group land next to each other in index order;
 * the groups land in any order. out has room for n floats; nothing past
 * out[*count - 1] is written. Asynchronous; returns the first error. */
cudaError_t vt_compact(const float *x, size_t n, float thr, float *out, unsigned long long *count);

#ifdef __cplusplus
}
#endif
#endif
