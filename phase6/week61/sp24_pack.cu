/* sp24_pack.cu — week 61: 2:4 pruning, compression and the metadata
 * layout of mma.sp, on the CPU (sp24_pack.h says the layout). Host code
 * only: the weights of a layer are pruned and compressed once, offline. */
#include <stddef.h>
#include "sp24_pack.h"

/* TODO: helpers. Where do the positions of group (r, k) go? Work out the
 * block (r / 16, k / 64), the word 4 (r % 8) + (k % 64) / 16 inside it and
 * the shift 16 ((r % 16) / 8) + 4 ((k % 16) / 4) inside the word, and say
 * why from the mma.sp metadata figure (README, "The metadata layout"). */

cudaError_t sp24_pack_prune(const uint16_t *w, uint16_t *wp, int rows, int K)
{
    (void)w, (void)wp, (void)rows, (void)K;
    return cudaSuccess; /* TODO: keep the two largest magnitudes of each group, ties to the lower k */
}

cudaError_t sp24_pack_compress(const uint16_t *wp, uint16_t *vals, uint32_t *meta, int rows, int K)
{
    (void)wp, (void)vals, (void)meta, (void)rows, (void)K;
    return cudaSuccess; /* TODO: the kept values in k order, their positions packed as sp24_pack.h says */
}

cudaError_t sp24_pack_decompress(const uint16_t *vals, const uint32_t *meta, uint16_t *w, int rows, int K)
{
    (void)vals, (void)meta, (void)w, (void)rows, (void)K;
    return cudaSuccess; /* TODO: the inverse of compress; refuse positions that are not i0 < i1 */
}
