/* emu_shim.h — what a CUDA kernel of week 57 needs, on the CPU: one coroutine
 * per thread of a block, shuffles and __syncthreads as barriers between them. */
#pragma once
#include <cuda_runtime_api.h>
#include <vector_functions.h>
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
#undef __align__
#define __align__(n) alignas(n)
#ifndef __annotate__
#define __annotate__(...)
#endif

struct emu_thread;
extern emu_thread *emu_cur;
struct emu_idx { unsigned x, y, z; };
struct emu_thread {
    void *sp;            /* saved stack pointer */
    char *stack;
    int done;
    emu_idx tid, bid;
    int lane, warp;
    std::function<void()> *fn;
    /* PAGED_STAGES's cp.async: the copies not yet done, each with its group */
    struct cp { void *dst; const void *src; long group; };
    std::vector<cp> cps;
    long cp_group; /* the group open now (committed groups: cp_group) */
};
#define threadIdx (emu_cur->tid)
#define blockIdx (emu_cur->bid)

void emu_yield();
void emu_barrier_warp();
void emu_barrier_block();
void emu_check_read(const void *p, size_t n);
extern float emu_xchg[32][32];
extern double emu_xchg_d[32][32];

template <typename T> static inline T emu_shfl_xor(T v, int o)
{
    static_assert(sizeof(T) == 4, "4-byte shuffles");
    float f; memcpy(&f, &v, 4);
    emu_xchg[emu_cur->warp][emu_cur->lane] = f;
    emu_barrier_warp();
    float r = emu_xchg[emu_cur->warp][emu_cur->lane ^ o];
    emu_barrier_warp();
    T t; memcpy(&t, &r, 4);
    return t;
}
#define __shfl_xor_sync(mask, v, o) emu_shfl_xor((v), (o))
template <typename T> static inline T emu_shfl_idx(T v, int src)
{
    static_assert(sizeof(T) == 4, "4-byte shuffles");
    if (src < 0 || src > 31) { fprintf(stderr, "emu: __shfl_sync from lane %d\n", src); abort(); }
    float f; memcpy(&f, &v, 4);
    emu_xchg[emu_cur->warp][emu_cur->lane] = f;
    emu_barrier_warp();
    float r = emu_xchg[emu_cur->warp][src];
    emu_barrier_warp();
    T t; memcpy(&t, &r, 4);
    return t;
}
#define __shfl_sync(mask, v, s) emu_shfl_idx((v), (s))
#define __syncthreads() emu_barrier_block()
static inline int __ldg(const int32_t *p) { emu_check_read(p, 4); return *p; }
static inline uint4 __ldcs(const uint4 *p) { emu_check_read(p, 16); return *p; }
static inline float __uint_as_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline long long min(long long a, long long b) { return a < b ? a : b; }
static inline long long max(long long a, long long b) { return a > b ? a : b; }

/* cp.async (PAGED_STAGES): the destination, in the dynamic shared memory, is
 * poisoned at issue and written when a wait completes the copy's group, so
 * a read before its wait sees NaN; a second copy into a piece with one
 * pending, or a source outside every buffer, stops the run. */
extern void *emu_dyn_smem;
void emu_cp_async(void *dst, const void *src);
void emu_cp_commit();
void emu_cp_wait(int n);
#define cudaFuncSetAttribute(...) cudaSuccess /* the kernel names a template: commas */

/* run a grid: every block's W threads as coroutines, to completion */
void emu_run_block(dim3 bid, unsigned threads, const std::function<void()> &body);
static inline void emu_launch(dim3 grid, dim3 block, const std::function<void()> &body)
{
    for (unsigned z = 0; z < grid.z; z++)
        for (unsigned y = 0; y < grid.y; y++)
            for (unsigned x = 0; x < grid.x; x++) emu_run_block(dim3(x, y, z), block.x, body);
}
static inline void emu_launch(unsigned grid, unsigned block, const std::function<void()> &body) { emu_launch(dim3(grid), dim3(block), body); }
/* with dynamic shared memory: a fresh buffer of that many bytes, poisoned */
void emu_set_dyn_smem(size_t bytes);
static inline void emu_launch(dim3 grid, unsigned block, size_t smem, const std::function<void()> &body)
{
    for (unsigned z = 0; z < grid.z; z++)
        for (unsigned y = 0; y < grid.y; y++)
            for (unsigned x = 0; x < grid.x; x++) {
                emu_set_dyn_smem(smem);
                emu_run_block(dim3(x, y, z), block, body);
            }
}
#define cudaGetLastError() cudaSuccess
