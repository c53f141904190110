/* emu.h — cpu_emu's runtime (instructor/tune/w13): runs week 13's
 * scan1pass kernel, its own source, on the CPU, so that every setting of
 * its knobs can be checked on a machine without a GPU.
 *
 * A block is run by one host thread; each of its CUDA threads is a fiber
 * (a stack of its own, switched by emu_swap below) that runs until it
 * reaches a warp-synchronous call or __syncthreads, or ends. The block's
 * scheduler resumes the runnable fibers (in a shuffled order each round);
 * when all 32 lanes of a warp wait at a warp call it computes the call for
 * all of them (they must all be at the same call, with the full mask: the
 * kernel uses no other), and when every thread of the block waits at the
 * barrier it releases them. Anything else that leaves no fiber runnable
 * (a warp call some lanes never reach, a barrier some threads skip) is
 * reported and the program stops. __shared__ is static thread_local: one
 * copy per host thread, i.e. per running block.
 *
 * Several host threads ("SMs") run blocks at once, taking block indices in
 * order (or shuffled) from a shared counter, as the hardware starts them;
 * they share the status words through real atomics, so a look-back really
 * waits on X words that other host threads publish later. __nanosleep
 * really sleeps (the test's shake_delay then delays a publish by tens of
 * microseconds or more). A spin with no progress for EMU_STALL_S seconds
 * is reported as a hang. */
#pragma once
#include <cuda_runtime_api.h>
#include <vector_functions.h>

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <thread>
#include <vector>

#undef __global__
#undef __device__
#undef __host__
#undef __shared__
#undef __forceinline__
#undef __launch_bounds__
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static thread_local

#ifndef EMU_STALL_S
#define EMU_STALL_S 60
#endif

extern "C" void emu_swap(void **save_sp, void *new_sp);
__asm__(".text\n"
        ".globl emu_swap\n"
        ".type emu_swap,@function\n"
        "emu_swap:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size emu_swap, .-emu_swap\n");

namespace emu {

enum State { RUN, WAIT_WARP, WAIT_BAR, DONE };
enum Op { SHFL_UP, SHFL_IDX, BALLOT, ANY, REDUX_ADD };

struct dim { unsigned x, y, z; };

struct Lane {
    void *sp = nullptr;
    State state = DONE;
    Op op = ANY;
    unsigned mask = 0, arg = 0;
    uint64_t val = 0, res = 0;
    dim tid{ 0, 0, 0 };
};

struct Block {
    std::vector<Lane> lanes;
    std::vector<char *> stacks;
    std::vector<unsigned> order;
    void *sched_sp = nullptr;
    const std::function<void()> *body = nullptr;
    unsigned long long rng = 0;
    long long redux = 0;
    dim bid{ 0, 0, 0 };
};

static thread_local Block *cur_block;
static thread_local Lane *cur_lane;
static std::atomic<long long> progress_stamp{ 0 }; /* bumped whenever a block ends */
/* what the runs did: blocks, warp REDUX calls (look-back windows, and any
 * other __reduce_add_sync), __any_sync calls that found some lane true
 * (spins of a look-back on an X) */
static std::atomic<long long> n_blocks{ 0 }, n_redux{ 0 }, n_spins{ 0 }, max_redux{ 0 }; /* max: in one block */

[[noreturn]] static void fail(const char *what)
{
    fprintf(stderr, "cpu_emu: %s\n", what);
    fflush(stderr);
    _Exit(3);
}

static void yield_to_scheduler() { emu_swap(&cur_lane->sp, cur_block->sched_sp); }

static void lane_entry()
{
    (*cur_block->body)();
    cur_lane->state = DONE;
    yield_to_scheduler();
    fail("a finished lane was resumed");
}

enum { STACK = 128 * 1024 };

static void *fresh_stack(char *stack)
{
    uintptr_t top = ((uintptr_t)stack + STACK) & ~(uintptr_t)15;
    void **sp = (void **)top;
    *--sp = nullptr;              /* lane_entry's return address: it never returns */
    *--sp = (void *)&lane_entry;  /* where emu_swap's ret goes */
    for (int i = 0; i < 6; i++) *--sp = nullptr; /* rbp rbx r12-r15 */
    return sp;
}

/* Computes one warp call for the 32 lanes of warp w, all waiting at it. */
static void resolve_warp(Block &b, unsigned w)
{
    Lane *l = &b.lanes[32 * w];
    for (int i = 0; i < 32; i++) {
        if (l[i].mask != 0xffffffffu) fail("a warp call with a mask other than the full one");
        if (l[i].op != l[0].op) fail("lanes of one warp at different warp calls");
    }
    switch (l[0].op) {
    case SHFL_UP:
        for (int i = 0; i < 32; i++) l[i].res = (unsigned)i >= l[i].arg ? l[i - l[i].arg].val : l[i].val;
        break;
    case SHFL_IDX:
        for (int i = 0; i < 32; i++) l[i].res = l[l[i].arg & 31].val;
        break;
    case BALLOT:
    case ANY: {
        unsigned bits = 0;
        for (int i = 0; i < 32; i++) bits |= (l[i].val != 0) << i;
        for (int i = 0; i < 32; i++) l[i].res = l[0].op == BALLOT ? bits : bits != 0;
        if (l[0].op == ANY && bits) n_spins++, sched_yield(); /* a spin: let the other blocks run */
        break;
    }
    case REDUX_ADD: {
        unsigned s = 0;
        n_redux++, b.redux++;
        for (int i = 0; i < 32; i++) s += (unsigned)l[i].val;
        for (int i = 0; i < 32; i++) l[i].res = s;
        break;
    }
    }
    for (int i = 0; i < 32; i++) l[i].state = RUN;
}

/* Runs block `bid` of `threads` threads to its end. */
static void run_block(Block &b, unsigned bid, unsigned threads, const std::function<void()> &body)
{
    if (threads % 32) fail("a block that is not whole warps");
    b.lanes.assign(threads, Lane());
    while (b.stacks.size() < threads) b.stacks.push_back((char *)aligned_alloc(64, STACK));
    b.order.resize(threads);
    for (unsigned i = 0; i < threads; i++) {
        b.lanes[i].tid = { i, 0, 0 };
        b.lanes[i].state = RUN;
        b.lanes[i].sp = fresh_stack(b.stacks[i]);
        b.order[i] = i;
    }
    b.body = &body;
    b.bid = { bid, 0, 0 };
    b.redux = 0;
    cur_block = &b;
    const unsigned warps = threads / 32;
    for (;;) {
        for (unsigned i = threads - 1; i > 0; i--) { /* a new order each round */
            b.rng = b.rng * 6364136223846793005ull + 1442695040888963407ull;
            std::swap(b.order[i], b.order[(b.rng >> 33) % (i + 1)]);
        }
        for (unsigned i : b.order)
            if (b.lanes[i].state == RUN) {
                cur_lane = &b.lanes[i];
                emu_swap(&b.sched_sp, b.lanes[i].sp);
            }
        unsigned done = 0, bar = 0, resolved = 0;
        for (unsigned w = 0; w < warps; w++) {
            unsigned at = 0;
            for (int i = 0; i < 32; i++) at += b.lanes[32 * w + i].state == WAIT_WARP;
            if (at == 32) resolve_warp(b, w), resolved++;
            else if (at) {
                unsigned others_run = 0;
                for (int i = 0; i < 32; i++) others_run += b.lanes[32 * w + i].state == RUN;
                if (!others_run) fail("a warp call that some lanes of the warp never reach (ended or at a barrier)");
            }
        }
        for (const Lane &l : b.lanes) done += l.state == DONE, bar += l.state == WAIT_BAR;
        if (done == threads) {
            for (long long m = max_redux.load(); b.redux > m && !max_redux.compare_exchange_weak(m, b.redux);) {
            }
            return;
        }
        if (bar && bar + done == threads) {
            if (done) fail("__syncthreads that some threads of the block never reach");
            for (Lane &l : b.lanes) l.state = RUN;
        }
    }
}

/* The grid: `grid` blocks of `threads`, on `sms` host threads; blocks
 * start in index order, or shuffled with `shuffle_seed` != 0. */
static void launch(unsigned grid, unsigned threads, const std::function<void()> &body, unsigned sms,
                   unsigned long long shuffle_seed)
{
    std::vector<unsigned> order(grid);
    for (unsigned i = 0; i < grid; i++) order[i] = i;
    if (shuffle_seed) {
        unsigned long long r = shuffle_seed;
        for (unsigned i = grid - 1; i > 0 && grid > 1; i--) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            std::swap(order[i], order[(r >> 33) % (i + 1)]);
        }
    }
    std::atomic<unsigned> next{ 0 };
    std::atomic<bool> finished{ false };
    std::vector<std::thread> pool;
    for (unsigned s = 0; s < std::min(sms, grid); s++)
        pool.emplace_back([&, s] {
            Block b;
            b.rng = 0x9e3779b97f4a7c15ull * (s + 1);
            for (unsigned i; (i = next.fetch_add(1)) < grid;) {
                run_block(b, order[i], threads, body);
                progress_stamp.fetch_add(1), n_blocks++;
            }
            for (char *st : b.stacks) free(st);
        });
    std::thread watchdog([&] {
        long long last = -1;
        time_t since = time(nullptr);
        while (!finished.load()) {
            struct timespec ts = { 0, 20 * 1000 * 1000 };
            nanosleep(&ts, nullptr);
            long long now = progress_stamp.load();
            if (now != last) last = now, since = time(nullptr);
            else if (time(nullptr) - since > EMU_STALL_S) fail("no block ended for EMU_STALL_S seconds: a hang");
        }
    });
    for (auto &t : pool) t.join();
    finished = true;
    watchdog.join();
}

/* Knobs of the next launch (the launcher is the reference's own). */
static unsigned launch_sms = 4;
static unsigned long long launch_shuffle = 0;

static uint64_t warp_call(Op op, unsigned mask, uint64_t val, unsigned arg)
{
    Lane *l = cur_lane;
    l->op = op, l->mask = mask, l->val = val, l->arg = arg, l->state = WAIT_WARP;
    yield_to_scheduler();
    return l->res;
}

} // namespace emu

#define threadIdx (emu::cur_lane->tid)
#define blockIdx (emu::cur_block->bid)

static inline void __syncthreads()
{
    emu::cur_lane->state = emu::WAIT_BAR;
    emu::yield_to_scheduler();
}
static inline unsigned __shfl_up_sync(unsigned mask, unsigned v, unsigned d)
{
    return (unsigned)emu::warp_call(emu::SHFL_UP, mask, v, d);
}
static inline unsigned __shfl_sync(unsigned mask, unsigned v, int src)
{
    return (unsigned)emu::warp_call(emu::SHFL_IDX, mask, v, (unsigned)src);
}
static inline unsigned __ballot_sync(unsigned mask, int p) { return (unsigned)emu::warp_call(emu::BALLOT, mask, p != 0, 0); }
static inline int __any_sync(unsigned mask, int p) { return (int)emu::warp_call(emu::ANY, mask, p != 0, 0); }
static inline unsigned __reduce_add_sync(unsigned mask, unsigned v)
{
    return (unsigned)emu::warp_call(emu::REDUX_ADD, mask, v, 0);
}
static inline int __ffs(int v) { return __builtin_ffs(v); }
static inline void __nanosleep(unsigned ns)
{
    struct timespec ts = { 0, (long)ns };
    nanosleep(&ts, nullptr);
}
static inline unsigned atomicAdd(unsigned *p, unsigned v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static inline void __stcs(int4 *p, int4 v) { *p = v; }

/* The runtime calls the reference's launcher makes. */
extern "C" cudaError_t cudaMemsetAsync(void *p, int v, size_t bytes, cudaStream_t)
{
    memset(p, v, bytes);
    return cudaSuccess;
}
extern "C" cudaError_t cudaGetLastError(void) { return cudaSuccess; }

/* kernel<<<grid, threads>>>(args...), rewritten by run.sh into
 * EMU_LAUNCH(grid, threads, kernel, args...). */
#define EMU_LAUNCH(grid, threads, kernel, ...)                                                                    \
    emu::launch((unsigned)(grid), (unsigned)(threads), [&] { kernel(__VA_ARGS__); }, emu::launch_sms,              \
                emu::launch_shuffle)
