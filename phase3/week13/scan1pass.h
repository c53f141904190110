/* scan1pass.h — week 13: a single-pass inclusive prefix sum of int32 with
 * decoupled look-back (Merrill and Garland, 2016). */
#ifndef SCAN1PASS_H
#define SCAN1PASS_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A tile is one block's share: SCAN1_THREADS threads of SCAN1_ITEMS
 * consecutive-in-fours ints each (six int4 a thread), 3072 ints: CUB's
 * own shape for an int32 scan on sm_90, and the fastest of the 18 shapes
 * and sleeps `make tune-w13` timed (README, "The sweep"). (A tuning build
 * may give other values with -D, to the test's compiler as well as to
 * nvcc; the reference's comment says which it accepts.) */
#ifndef SCAN1_THREADS
#define SCAN1_THREADS 128
#endif
#ifndef SCAN1_ITEMS
#define SCAN1_ITEMS 24
#endif
#define SCAN1_TILE (SCAN1_THREADS * SCAN1_ITEMS)

/* Bytes of device workspace scan1pass needs for n elements (given): the
 * tile counter and one 64-bit status word a tile. */
size_t scan1pass_tmp_bytes(size_t n);

/* y[i] = x[0] + ... + x[i] for i < n, an inclusive scan in one pass over x
 * (x read once, y written once). The sums wrap modulo 2^32, as 32-bit
 * integer addition does on the GPU (two's complement). One block a tile;
 * each block takes its tile from a counter in tmp, publishes the tile's
 * status and looks back over its predecessors' (README). x and y do not
 * overlap and may start at any int (both 16-byte aligned: 16-byte loads and
 * stores). tmp: scan1pass_tmp_bytes(n) bytes, contents on entry
 * unimportant (the launcher clears them first, on the same stream).
 * shake: 0 for a plain scan; any other value (a test's knob) makes a
 * pseudo-random subset of tiles, chosen by that value, wait a pseudo-random
 * time (up to some 20 us) before each of their publishes; the result must
 * not change. Asynchronous (default stream); returns the first error,
 * cudaErrorInvalidValue when n needs 2^31 tiles or more. */
cudaError_t scan1pass(const int32_t *x, int32_t *y, size_t n, void *tmp, unsigned shake);

#ifdef __cplusplus
}
#endif
#endif
