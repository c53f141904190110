/* philox.cu — week 35, exercise 1: Philox4x32-10 on the CPU.
 *
 * A counter-based generator has no state to carry from one number to the
 * next: block number c under key k is a fixed function of (c, k), a few
 * rounds of multiplications and XORs. Any thread can draw the numbers of any
 * element directly, in any order, which is what makes dropout on a GPU
 * reproducible: the mask of element i is a function of (seed, offset, i).
 * Written here on the CPU, the same function lets the test check the
 * device's mask bit for bit. */
#include "philox.h"

//@solution
static void philox_round(uint32_t c[4], const uint32_t k[2])
{
    const uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
    const uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0, hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
    const uint32_t n0 = hi1 ^ c[1] ^ k[0], n2 = hi0 ^ c[3] ^ k[1];
    c[0] = n0, c[1] = lo1, c[2] = n2, c[3] = lo0;
}

//@end
void philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    //@solution
    uint32_t c[4] = { ctr[0], ctr[1], ctr[2], ctr[3] }, k[2] = { key[0], key[1] };
    for (int round = 0; round < 10; round++) {
        if (round > 0) k[0] += 0x9E3779B9u, k[1] += 0xBB67AE85u;
        philox_round(c, k);
    }
    for (int j = 0; j < 4; j++) out[j] = c[j];
    //@starter
    //| /* TODO: ten rounds (philox.h gives one round and the key bumps). The
    //|  * products are 32 x 32 -> 64 bits: multiply as uint64_t and split into
    //|  * the high and low words. Write out[0..3]. */
    //| (void)ctr, (void)key, (void)out;
    //@end
}

float philox_uniform(uint32_t x)
{
    //@solution
    return (float)x * 2.3283064e-10f + (2.3283064e-10f / 2.0f);
    //@starter
    //| /* TODO: curand_uniform's map (philox.h), in float. */
    //| (void)x;
    //| return 0.0f;
    //@end
}

int philox_dropout_keep_host(unsigned long long seed, unsigned long long offset, size_t i, float p)
{
    //@solution
    const unsigned long long g = (unsigned long long)i / 4;
    const uint32_t ctr[4] = { (uint32_t)offset, (uint32_t)(offset >> 32), (uint32_t)g, (uint32_t)(g >> 32) };
    const uint32_t key[2] = { (uint32_t)seed, (uint32_t)(seed >> 32) };
    uint32_t w[4];
    philox4x32_10(ctr, key, w);
    return philox_uniform(w[i % 4]) > p;
    //@starter
    //| /* TODO: the block of group i / 4 (counter and key as philox.h says),
    //|  * word i % 4, through philox_uniform, kept when > p. */
    //| (void)seed, (void)offset, (void)i, (void)p;
    //| return -1;
    //@end
}
