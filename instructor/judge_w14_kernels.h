/* judge_w14_kernels.h — week 14's judge kernels (judge_w14_kernels.cu),
 * linked into judge-w14 and its yard runner: w14.sort-speed's inputs made
 * from a seed, its timed outputs checked in full, and CUB's own SortPairs
 * (the judge's reference of the look, and the yardstick ALLBITS). */
#ifndef JUDGE_W14_KERNELS_H
#define JUDGE_W14_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A timed sort's inputs from a seed alone (on stream s, not waited for):
 *   jd_w14_sort_keys: d[i] = wb_hash_bits(seed, i) >> 48, keys below 2^16
 *     (the keys test_week14.c's sort_inputs draws: its
 *     (wb_hash_uniform_f32(seed, i, 0, 1) * 65536) & 0xffff is those bits);
 *   jd_w14_sort_vals: d[i] = ((i * mul) ^ mask) mod n, mul odd and mask
 *     drawn from seed: a permutation of [0, n) that the check inverts to
 *     find each output pair's input position (n a power of two, else
 *     cudaErrorInvalidValue). */
cudaError_t jd_w14_sort_keys(unsigned *d, size_t n, unsigned long long seed, cudaStream_t s);
cudaError_t jd_w14_sort_vals(unsigned *d, size_t n, unsigned long long seed, cudaStream_t s);

/* A timed output in full: keys_out ko and vals_out vo (n each) are the n
 * input pairs (keys from sk, values from sv, as above) stably sorted by the
 * whole 32-bit key. Each output pair i: its value names an input position p
 * (the values' permutation inverted; a value not below n is wrong), its key
 * is key(p), and (key, p) is larger than pair i - 1's: sorted, stable, and,
 * all n positions distinct, a permutation of the input. bad[0] = how many
 * pairs are wrong, bad[1] = the first (bad: 2 device words; on stream s,
 * not waited for). */
cudaError_t jd_w14_sort_check(const unsigned *ko, const unsigned *vo, size_t n, unsigned long long sk,
                              unsigned long long sv, unsigned long long *bad, cudaStream_t s);

/* cub::DeviceRadixSort::SortPairs over bits [0, end_bit) on stream s: the
 * size query when tmp is NULL, as CUB's own. */
cudaError_t jd_w14_cub_sort_pairs(void *tmp, size_t *bytes, const unsigned *keys_in, unsigned *keys_out,
                                  const unsigned *vals_in, unsigned *vals_out, int n, int end_bit, cudaStream_t s);

/* dst[j] = word idx[j] of keys_out (n words) then vals_out (n more): idx[j]
 * < n ? ko[idx[j]] : vo[idx[j] - n], j < m (on stream s, not waited for). */
cudaError_t jd_w14_gather_pairs(const unsigned *ko, const unsigned *vo, size_t n, const unsigned long long *idx, int m,
                                unsigned *dst, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
