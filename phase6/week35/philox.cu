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

void philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    /* TODO: ten rounds (philox.h gives one round and the key bumps). The
     * products are 32 x 32 -> 64 bits: multiply as uint64_t and split into
     * the high and low words. Write out[0..3]. */
    (void)ctr, (void)key, (void)out;
}

float philox_uniform(uint32_t x)
{
    /* TODO: curand_uniform's map (philox.h), in float. */
    (void)x;
    return 0.0f;
}

int philox_dropout_keep_host(unsigned long long seed, unsigned long long offset, size_t i, float p)
{
    /* TODO: the block of group i / 4 (counter and key as philox.h says),
     * word i % 4, through philox_uniform, kept when > p. */
    (void)seed, (void)offset, (void)i, (void)p;
    return -1;
}
