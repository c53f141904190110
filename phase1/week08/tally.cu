/* tally.cu — week 08, exercise 6: atomics under contention, with scopes.
 *
 * counts[keys[i]] += 1 from every thread at once is a read-modify-write that
 * must not lose updates: an atomic. Where it happens decides what it costs:
 * atomics on global memory are done at the L2 slice that owns the address,
 * one at a time per address, so n updates of ONE counter are serialised at one
 * place, while n updates spread over a million counters run in parallel over
 * every slice. `make phase1/week08 bench NAME=contention` sweeps the number of
 * distinct addresses and measures both versions below.
 *
 * The scope says which threads the atomic must be atomic for, and is the
 * cheapest promise that is still true:
 *   - tally_device: counts is shared by every block: cuda::thread_scope_device.
 *   - tally_block: a copy of the bins in shared memory belongs to one block:
 *     cuda::thread_scope_block (done in the SM); one device-scope add per bin
 *     and block then merges the copies.
 * memory_order_relaxed is enough for a counter: nobody reads the counts until
 * the kernel has ended, and the end of a kernel orders everything in it. */
#include <cuda/atomic>
#include "tally.h"

#define TALLY_TPB 256

/* TODO: tally_device_kernel: grid-stride over keys, one
 * cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(counts[keys[i]])
 * .fetch_add(1u, cuda::memory_order_relaxed) each.
 * tally_block_kernel: zero bins[0 .. nbins) (dynamic shared memory),
 * __syncthreads(), count with thread_scope_block atomics on bins,
 * __syncthreads(), then add each non-zero bin to counts at device scope. */
static __global__ void tally_device_kernel(const unsigned int *keys, size_t n, unsigned int *counts)
{
    (void)keys, (void)n, (void)counts;
}

static __global__ void tally_block_kernel(const unsigned int *keys, size_t n, unsigned int *counts, unsigned int nbins)
{
    (void)keys, (void)n, (void)counts, (void)nbins;
}

/* ---- given ---- */
static unsigned int tally_blocks(size_t n)
{
    size_t b = (n + TALLY_TPB - 1) / TALLY_TPB;
    return (unsigned int)(b < 132 * 8 ? b : 132 * 8);
}

cudaError_t tally_device(const unsigned int *keys, size_t n, unsigned int *counts, unsigned int nbins)
{
    cudaError_t e = cudaMemsetAsync(counts, 0, (size_t)nbins * sizeof *counts, 0);
    if (e != cudaSuccess || n == 0) return e;
    tally_device_kernel<<<tally_blocks(n), TALLY_TPB>>>(keys, n, counts);
    return cudaGetLastError();
}

cudaError_t tally_block(const unsigned int *keys, size_t n, unsigned int *counts, unsigned int nbins)
{
    if (nbins > TALLY_SHARED_MAX) return cudaErrorInvalidValue;
    cudaError_t e = cudaMemsetAsync(counts, 0, (size_t)nbins * sizeof *counts, 0);
    if (e != cudaSuccess || n == 0) return e;
    tally_block_kernel<<<tally_blocks(n), TALLY_TPB, nbins * sizeof(unsigned int)>>>(keys, n, counts, nbins);
    return cudaGetLastError();
}
