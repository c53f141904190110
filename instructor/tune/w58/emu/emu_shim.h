/* emu_shim.h — what week 58's decode kernels need, on the CPU: one coroutine
 * per thread of a block (emu_rt.cc), __syncthreads and __syncwarp as
 * barriers, mma.sync as a warp-wide exchange, mbarriers and cp.async.bulk
 * (hopper_ptx.cuh beside this file stands in for common/include's), the
 * runtime calls the host code makes. Included first by gen.py's output. */
#pragma once
#include <cuda_runtime_api.h>
#include <vector_functions.h>
#include <cuda_fp16.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#undef __shared__
#define __shared__ static
#define __launch_bounds__(...)
#ifndef __annotate__
#define __annotate__(...)
#endif

struct emu_idx { unsigned x, y, z; };
struct emu_thread {
    void *sp; /* saved stack pointer */
    char *stack;
    int done;
    emu_idx tid, bid;
    int lane, warp;
    std::function<void()> *fn;
};
extern emu_thread *emu_cur;
extern emu_idx emu_grid;
#define threadIdx (emu_cur->tid)
#define blockIdx (emu_cur->bid)
#define gridDim (emu_grid)

void emu_yield();
void emu_progress();
void emu_barrier_warp();
void emu_barrier_block();
void emu_check_read(const void *p, size_t n);
[[noreturn]] void emu_fail(const char *what);
static inline void emu_unemulated(const char *what) { emu_fail(what); }

/* mma.sync.m16n8k16.row.col.f32.f16.f16.f32, the whole warp at once */
void emu_mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1);

/* shared memory addresses (32-bit, as PTX's shared::cta operands) */
uint32_t emu_smem_addr(const void *p);
void *emu_smem_ptr(uint32_t a);
void emu_smem(void *p, size_t n); /* the dynamic ring: poisoned at every block's start, bulk copies land in it */
/* a bulk copy: dst poisoned now, the bytes land (and complete their
 * transaction on bar) at a later round the scheduler picks */
void emu_bulk(uint32_t dst, const void *src, uint32_t bytes, uint32_t bar);
void emu_mbar_init(uint32_t bar, uint32_t count);
void emu_mbar_arrive(uint32_t bar, uint32_t tx);
bool emu_mbar_test(uint32_t bar, uint32_t parity);

#define __syncthreads() emu_barrier_block()
#define __syncwarp(...) emu_barrier_warp()
static inline void __threadfence() {}
static inline uint4 __ldg(const uint4 *p) { emu_check_read(p, 16); return *p; }
static inline uint2 __ldg(const uint2 *p) { emu_check_read(p, 8); return *p; }
static inline uint4 __ldcs(const uint4 *p) { emu_check_read(p, 16); return *p; }
static inline float4 __ldcg(const float4 *p) { emu_check_read(p, 16); return *p; }
static inline unsigned atomicAdd(unsigned *p, unsigned v) { unsigned o = *p; *p = o + v; return o; }
static inline uint32_t __byte_perm(uint32_t a, uint32_t b, uint32_t s)
{
    const uint64_t v = (uint64_t)b << 32 | a;
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) r |= (uint32_t)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}
static inline size_t __cvta_generic_to_shared(const void *p) { return emu_smem_addr(p); }
static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }

/* the runtime calls of the host code */
extern int emu_sms, emu_per_sm, emu_binary_version;
void *emu_alloc(size_t n);
void emu_free(void *p);
#define cudaGetDevice(d) (*(d) = 0, cudaSuccess)
#define cudaDeviceGetAttribute(v, a, d) emu_attr((v), (a))
#define cudaFuncSetAttribute(f, a, v) cudaSuccess
#define cudaFuncGetAttributes(fa, f) emu_func_attr(fa)
#define cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, f, t, s) (*(n) = emu_per_sm, cudaSuccess)
#define cudaMalloc(p, n) (*(p) = emu_alloc(n), cudaSuccess)
#define cudaFree(p) (emu_free(p), cudaSuccess)
#define cudaMemsetAsync(p, v, n, s) (memset((p), (v), (n)), cudaSuccess)
#define cudaGetLastError() cudaSuccess
static inline cudaError_t emu_attr(int *v, cudaDeviceAttr a)
{
    if (a == cudaDevAttrMultiProcessorCount) *v = emu_sms;
    else if (a == cudaDevAttrMaxSharedMemoryPerBlockOptin) *v = 227 * 1024;
    else emu_fail("a device attribute not emulated");
    return cudaSuccess;
}
static inline cudaError_t emu_func_attr(cudaFuncAttributes *fa)
{
    memset(fa, 0, sizeof *fa);
    fa->binaryVersion = emu_binary_version, fa->sharedSizeBytes = 128;
    return cudaSuccess;
}

/* run a grid: every block's threads as coroutines, to completion, blocks one after another */
void emu_run_block(dim3 bid, unsigned threads, const std::function<void()> &body);
static inline void emu_launch(dim3 grid, unsigned block, size_t smem, const std::function<void()> &body)
{
    (void)smem;
    emu_grid = { grid.x, grid.y, grid.z };
    for (unsigned z = 0; z < grid.z; z++)
        for (unsigned y = 0; y < grid.y; y++)
            for (unsigned x = 0; x < grid.x; x++) emu_run_block(dim3(x, y, z), block, body);
}
