/* sp24_pack.cu — week 61: 2:4 pruning, compression and the metadata
 * layout of mma.sp, on the CPU (sp24_pack.h says the layout). Host code
 * only: the weights of a layer are pruned and compressed once, offline. */
#include <stddef.h>
#include "sp24_pack.h"

//@solution
/* The magnitude of FP16 bits: the bits without the sign, as an integer.
 * Larger for a larger |w|, and for Inf and NaN larger than any finite. */
static unsigned mag(uint16_t h) { return h & 0x7fffu; }

/* Where the 2-bit positions of group (r, k) (k = 4q) live in meta: the word
 * and the bit of i0 (i1 is 2 above). */
static size_t meta_word(int r, int k, int K)
{
    const size_t block = (size_t)(r / 16) * (size_t)(K / 64) + (size_t)(k / 64);
    return block * 32 + (size_t)(4 * (r % 8) + (k % 64) / 16);
}
static int meta_shift(int r, int k) { return 16 * ((r % 16) / 8) + 4 * ((k % 16) / 4); }

static int bad_shape(int rows, int K) { return rows < 0 || K < 0 || rows % 16 || K % 64; }
//@starter
//| /* TODO: helpers. Where do the positions of group (r, k) go? Work out the
//|  * block (r / 16, k / 64), the word 4 (r % 8) + (k % 64) / 16 inside it and
//|  * the shift 16 ((r % 16) / 8) + 4 ((k % 16) / 4) inside the word, and say
//|  * why from the mma.sp metadata figure (README, "The metadata layout"). */
//@end

cudaError_t sp24_pack_prune(const uint16_t *w, uint16_t *wp, int rows, int K)
{
    //@solution
    if (rows < 0 || K < 0 || K % 4) return cudaErrorInvalidValue;
    if (rows == 0 || K == 0) return cudaSuccess;
    if (!w || !wp) return cudaErrorInvalidValue;
    for (size_t g = 0; g < (size_t)rows * (size_t)K; g += 4) {
        const uint16_t v[4] = { w[g], w[g + 1], w[g + 2], w[g + 3] };
        /* the rank of position i: how many others beat it (larger, or equal
         * and at a lower position); the two with rank 0 and 1 stay */
        for (int i = 0; i < 4; i++) {
            int beaten = 0;
            for (int j = 0; j < 4; j++)
                if (j != i && (mag(v[j]) > mag(v[i]) || (mag(v[j]) == mag(v[i]) && j < i))) beaten++;
            wp[g + i] = beaten < 2 ? v[i] : (uint16_t)0;
        }
    }
    return cudaSuccess;
    //@starter
    //| (void)w, (void)wp, (void)rows, (void)K;
    //| return cudaSuccess; /* TODO: keep the two largest magnitudes of each group, ties to the lower k */
    //@end
}

cudaError_t sp24_pack_compress(const uint16_t *wp, uint16_t *vals, uint32_t *meta, int rows, int K)
{
    //@solution
    if (bad_shape(rows, K)) return cudaErrorInvalidValue;
    if (rows == 0 || K == 0) return cudaSuccess;
    if (!wp || !vals || !meta) return cudaErrorInvalidValue;
    for (size_t i = 0; i < (size_t)(rows / 16) * (size_t)(K / 64) * 32; i++) meta[i] = 0;
    for (int row = 0; row < rows; row++)
        for (int k0 = 0; k0 < K; k0 += 4) {
            const uint16_t *v = wp + (size_t)row * K + k0;
            int pos[2], n = 0;
            for (int i = 0; i < 4; i++)
                if (mag(v[i])) {
                    if (n == 2) return cudaErrorInvalidValue; /* a third nonzero: not 2:4 */
                    pos[n++] = i;
                }
            /* complete with zero positions from the lowest up, then sort */
            for (int i = 0; i < 4 && n < 2; i++)
                if (!mag(v[i]) && (n == 0 || pos[0] != i)) pos[n++] = i;
            if (pos[0] > pos[1]) { int t = pos[0]; pos[0] = pos[1]; pos[1] = t; }
            uint16_t *kept = vals + (size_t)row * (K / 2) + k0 / 2;
            kept[0] = v[pos[0]], kept[1] = v[pos[1]];
            meta[meta_word(row, k0, K)] |= (uint32_t)(pos[0] | pos[1] << 2) << meta_shift(row, k0);
        }
    return cudaSuccess;
    //@starter
    //| (void)wp, (void)vals, (void)meta, (void)rows, (void)K;
    //| return cudaSuccess; /* TODO: the kept values in k order, their positions packed as sp24_pack.h says */
    //@end
}

cudaError_t sp24_pack_decompress(const uint16_t *vals, const uint32_t *meta, uint16_t *w, int rows, int K)
{
    //@solution
    if (bad_shape(rows, K)) return cudaErrorInvalidValue;
    if (rows == 0 || K == 0) return cudaSuccess;
    if (!vals || !meta || !w) return cudaErrorInvalidValue;
    for (int row = 0; row < rows; row++)
        for (int k0 = 0; k0 < K; k0 += 4) {
            const unsigned nib = (meta[meta_word(row, k0, K)] >> meta_shift(row, k0)) & 0xfu;
            const int i0 = nib & 3, i1 = nib >> 2;
            if (i0 >= i1) return cudaErrorInvalidValue;
            const uint16_t *kept = vals + (size_t)row * (K / 2) + k0 / 2;
            uint16_t *grp = w + (size_t)row * K + k0;
            for (int i = 0; i < 4; i++) grp[i] = i == i0 ? kept[0] : i == i1 ? kept[1] : (uint16_t)0;
        }
    return cudaSuccess;
    //@starter
    //| (void)vals, (void)meta, (void)w, (void)rows, (void)K;
    //| return cudaSuccess; /* TODO: the inverse of compress; refuse positions that are not i0 < i1 */
    //@end
}
