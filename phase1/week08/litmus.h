/* litmus.h — week 08: message passing between threads, with and without
 * ordering (cuda::atomic_ref, release/acquire, scopes). */
#ifndef LITMUS_H
#define LITMUS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What one round runs. The first two are the checkpoints (your code); the
 * demonstrations are given code, or your code at a scope too narrow for where
 * its threads are: the model allows them a stale read, the checkpoints not. */
enum {
    MP_DEVICE = 0,        /* release/acquire, device scope; writer and reader in different blocks */
    MP_BLOCK = 1,         /* release/acquire, block scope; writer and reader in different warps of one block */
    MP_DEMO_PLAIN = 2,    /* demonstration: plain stores, a volatile flag, plain loads; different blocks */
    MP_DEMO_RELAXED = 3,  /* demonstration: relaxed atomics only (no order); different blocks */
    MP_DEMO_NARROW = 4,   /* demonstration: your release/acquire at BLOCK scope, but different blocks */
    MP_KINDS = 5
};

/* Pairs p < npairs, one round: a writer thread sets data[p] = round, then
 * flag[p] = round; a reader thread polls flag[p] (at most MP_SPIN times, it
 * never waits for ever) and writes what it saw: seen[2p] = the flag,
 * seen[2p+1] = data[p] read after it. Before the round data and flag hold
 * round - 1. A stale read: seen[2p] == round but seen[2p+1] != round.
 * Default stream; the first error. */
#define MP_SPIN 4096
cudaError_t litmus_mp_round(unsigned int *data, unsigned int *flag, unsigned int *seen, size_t npairs,
                            unsigned int round, int kind);

#ifdef __cplusplus
}
#endif
#endif
