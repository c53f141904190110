/* litmus.cu — week 08, exercise 5: message passing, the memory-model litmus.
 *
 * A writer publishes a value (data), then raises a flag; a reader that sees
 * the flag raised reads the data. Nothing in the hardware promises that the
 * reader sees the new data: stores from one SM can become visible to another
 * out of order, loads can be served early or from a stale L1 line, and the
 * compiler may move plain loads and stores. The CUDA memory model (PTX ISA,
 * "Memory Consistency Model") forbids the stale read only when the two sides
 * synchronise: the writer's flag store is a RELEASE, the reader's flag load an
 * ACQUIRE that observes it, both at a SCOPE that holds both threads (block for
 * two warps of one block, device for two blocks).
 *
 * cuda::atomic_ref<T, scope> (libcu++, <cuda/atomic>) makes a plain object
 * atomic for the duration of the access, with an explicit memory order:
 *     cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(*flag);
 *     f.store(v, cuda::memory_order_release);    // st.release.gpu
 *     f.load(cuda::memory_order_acquire);        // ld.acquire.gpu
 * thread_scope_block gives .cta; thread_scope_thread is legal only for an
 * object no other thread touches (nvcc 13.0 emits .cta for it too).
 *
 * Your part: mp_write and mp_read, templated on the scope. The kernel and the
 * demonstrations (plain and relaxed code, and yours at too narrow a scope)
 * are given. Data accesses are relaxed atomics too: when the reader gives up
 * polling it still reads data, and a plain read racing the writer would be a
 * data race (undefined behaviour) rather than a stale value. */
#include <cuda/atomic>
#include "litmus.h"

#define MP_TPB 256

/* TODO: mp_write: store v to *data, then to *flag with release order, through
 * cuda::atomic_ref<unsigned int, S>. mp_read: poll *flag with acquire loads
 * (at most MP_SPIN times, until it reads v), then seen[0] = the flag read,
 * seen[1] = *data. Give data relaxed atomic accesses (a plain read racing the
 * writer is a data race). mp_demo_relaxed below is the unordered version. */
template <cuda::thread_scope S>
static __device__ void mp_write(unsigned int *data, unsigned int *flag, unsigned int v)
{
    (void)data, (void)flag, (void)v;
}

template <cuda::thread_scope S>
static __device__ void mp_read(unsigned int *data, unsigned int *flag, unsigned int v, unsigned int *seen)
{
    (void)data, (void)flag, (void)v, (void)seen;
}

/* ---- given: the demonstrations, which the model allows a stale read ---- */

/* What a first attempt looks like: plain data, a volatile flag. volatile
 * stops the compiler caching the flag in a register, and orders nothing. */
static __device__ void mp_demo_plain_write(unsigned int *data, unsigned int *flag, unsigned int v)
{
    *data = v;
    *(volatile unsigned int *)flag = v;
}

static __device__ void mp_demo_plain_read(unsigned int *data, unsigned int *flag, unsigned int v, unsigned int *seen)
{
    volatile unsigned int *f = flag;
    unsigned int got = *f;
    for (int k = 1; k < MP_SPIN && got != v; k++) got = *f;
    seen[0] = got;
    seen[1] = *data;
}

/* Atomic, but relaxed: no data race, and no order between data and flag. */
static __device__ void mp_demo_relaxed_write(unsigned int *data, unsigned int *flag, unsigned int v)
{
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(*data).store(v, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(*flag).store(v, cuda::memory_order_relaxed);
}

static __device__ void mp_demo_relaxed_read(unsigned int *data, unsigned int *flag, unsigned int v,
                                            unsigned int *seen)
{
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> f(*flag);
    unsigned int got = f.load(cuda::memory_order_relaxed);
    for (int k = 1; k < MP_SPIN && got != v; k++) got = f.load(cuda::memory_order_relaxed);
    seen[0] = got;
    seen[1] = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(*data).load(cuda::memory_order_relaxed);
}

/* ---- given: who writes and who reads which pair ----
 * Across blocks (every kind but MP_BLOCK): block 2g writes pairs g*256 + t,
 * block 2g+1 reads them, neighbouring blocks so that they tend to run at the
 * same time on two SMs. Within a block (MP_BLOCK): threads 0..127 write pairs
 * g*128 + t, threads 128..255 (other warps) read them. A reader takes its
 * pair through a permutation (37 is odd), so a writer warp's pairs are read
 * by several reader warps. No thread waits without bound: a reader that never
 * sees the flag gives up after MP_SPIN polls, so blocks that are not resident
 * together cannot deadlock. */
template <int Kind>
static __global__ void mp_kernel(unsigned int *data, unsigned int *flag, unsigned int *seen, size_t npairs,
                                 unsigned int v)
{
    const bool across = Kind != MP_BLOCK;
    const unsigned int half = across ? MP_TPB : MP_TPB / 2, t = threadIdx.x;
    size_t group = across ? blockIdx.x / 2 : blockIdx.x;
    bool writer = across ? (blockIdx.x & 1u) == 0 : t < half;
    unsigned int lane = t % half, slot = writer ? lane : (lane * 37u + 11u) % half;
    size_t p = group * half + slot;
    if (p >= npairs) return;
    unsigned int *d = data + p, *f = flag + p, *s = seen + 2 * p;
    if constexpr (Kind == MP_DEVICE) {
        if (writer) mp_write<cuda::thread_scope_device>(d, f, v);
        else mp_read<cuda::thread_scope_device>(d, f, v, s);
    } else if constexpr (Kind == MP_BLOCK || Kind == MP_DEMO_NARROW) {
        if (writer) mp_write<cuda::thread_scope_block>(d, f, v);
        else mp_read<cuda::thread_scope_block>(d, f, v, s);
    } else if constexpr (Kind == MP_DEMO_PLAIN) {
        if (writer) mp_demo_plain_write(d, f, v);
        else mp_demo_plain_read(d, f, v, s);
    } else {
        if (writer) mp_demo_relaxed_write(d, f, v);
        else mp_demo_relaxed_read(d, f, v, s);
    }
}

cudaError_t litmus_mp_round(unsigned int *data, unsigned int *flag, unsigned int *seen, size_t npairs,
                            unsigned int round, int kind)
{
    if (kind < 0 || kind >= MP_KINDS) return cudaErrorInvalidValue;
    if (npairs == 0) return cudaSuccess;
    size_t groups = (npairs + MP_TPB - 1) / MP_TPB;
    unsigned int across = (unsigned int)(2 * groups), within = (unsigned int)((npairs + MP_TPB / 2 - 1) / (MP_TPB / 2));
    switch (kind) {
    case MP_DEVICE: mp_kernel<MP_DEVICE><<<across, MP_TPB>>>(data, flag, seen, npairs, round); break;
    case MP_BLOCK: mp_kernel<MP_BLOCK><<<within, MP_TPB>>>(data, flag, seen, npairs, round); break;
    case MP_DEMO_PLAIN: mp_kernel<MP_DEMO_PLAIN><<<across, MP_TPB>>>(data, flag, seen, npairs, round); break;
    case MP_DEMO_RELAXED: mp_kernel<MP_DEMO_RELAXED><<<across, MP_TPB>>>(data, flag, seen, npairs, round); break;
    default: mp_kernel<MP_DEMO_NARROW><<<across, MP_TPB>>>(data, flag, seen, npairs, round); break;
    }
    return cudaGetLastError();
}
