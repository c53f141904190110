// tma_ptx.h — Phase 5's Hopper track, given: the inline PTX of TMA and
// mbarriers (weeks 53-56; hopper_ptx.cuh adds wgmma and setmaxnreg for 54
// and 55), one wrapper an instruction, and the runtime route to
// cuTensorMapEncodeTiled. Read each one: the weeks' kernels are
// built from them. Device code for sm_90 and up (sm_90a where a week says
// so); included by .cu files only.
// ([[maybe_unused]]: a starter calls none of them until you write the kernel.)
#ifndef TMA_PTX_H
#define TMA_PTX_H

#include <cuda.h>          // CUtensorMap and its enums: types only, nothing links libcuda
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000
#include <cuda_runtime.h>
#include <stdint.h>

// ---------------------------------------------------------------- the PTX


// A shared-memory address as the 32-bit offset PTX's shared::cta operands take.
[[maybe_unused]] static __device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

// An mbarrier expecting `count` arrivals per phase.
[[maybe_unused]] static __device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

// Make mbarrier.init visible to the other proxies (the TMA unit completes
// transactions on it through the async proxy) before anything uses it.
[[maybe_unused]] static __device__ __forceinline__ void fence_mbar_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }

// Order this thread's shared-memory accesses (generic proxy) before the
// async proxy's (TMA) that follow.
[[maybe_unused]] static __device__ __forceinline__ void fence_proxy_async_smem() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

// Arrive once and tell the barrier `bytes` more are coming: the phase
// completes when every arrival is in and the TMA unit has delivered them.
[[maybe_unused]] static __device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

// Arrive once, announcing no bytes (a consumer handing a stage back).
[[maybe_unused]] static __device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

// Wait until the phase with this parity has completed (try_wait may give up
// after a time the hardware chooses: loop).
[[maybe_unused]] static __device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
    uint32_t done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
    } while (!done);
}

// Start fetching the box at column x, row y of `map` into shared memory at
// `dst`; its bytes complete a transaction on the mbarrier `bar`.
[[maybe_unused]] static __device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap *map, uint32_t bar, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
                 ::"r"(dst), "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(x), "r"(y)
                 : "memory");
}

// Start writing the box in shared memory at `src` to column x, row y of
// `map`; what falls outside the tensor's dimensions is not written.
[[maybe_unused]] static __device__ __forceinline__ void tma_store_2d(const CUtensorMap *map, uint32_t src, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];"
                 ::"l"(reinterpret_cast<uint64_t>(map)), "r"(src), "r"(x), "r"(y)
                 : "memory");
}

// The stores issued since the last commit become one bulk group.
[[maybe_unused]] static __device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }

// Wait until at most N bulk groups are still reading their shared memory
// (.read: the source may be reused; the global writes may still be on their way).
template <int N> [[maybe_unused]] static __device__ __forceinline__ void bulk_wait_read()
{
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}

// Wait until at most N bulk groups are incomplete, writes included.
template <int N> [[maybe_unused]] static __device__ __forceinline__ void bulk_wait() { asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory"); }

// Fetch a tensor map (a kernel parameter) into the TMA unit's cache early.
[[maybe_unused]] static __device__ __forceinline__ void prefetch_map(const CUtensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// ---------------------------------------------------------------- the host

// cuTensorMapEncodeTiled is a driver API function: ask the runtime for its
// address (the version of the prototype we compile against, 12.0), so the
// program links no -lcuda.
[[maybe_unused]] static PFN_cuTensorMapEncodeTiled_v12000 encode_tiled_fn(cudaError_t *err)
{
    static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
    if (fn) return fn;
    void *p = nullptr;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess) {
        *err = e;
        return nullptr;
    }
    if (q != cudaDriverEntryPointSuccess || !p) {
        *err = cudaErrorNotSupported;
        return nullptr;
    }
    fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
    return fn;
}

#endif
