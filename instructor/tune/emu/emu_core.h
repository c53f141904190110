/* emu_core.h — what the kernel emulators (w57/emu, w58/emu) share: a
 * block's threads as coroutines on a hand-written x86-64 stack switch
 * (emu_switch saves the callee-saved registers on the current stack, stores
 * its stack pointer in *save_sp, moves to to_sp and restores that stack's
 * registers), the warp and block barriers, and the registry of "device"
 * buffers every load is checked against. Each emulator's emu_rt.cc includes
 * it once, after its emu_shim.h (emu_thread, dim3), and keeps what is its
 * own: the scheduling loop (emu_run_block), shuffles, cp.async, mbarriers. */
#pragma once
#include <map>
#include <vector>
extern "C" void emu_switch(void **save_sp, void *to_sp);
asm(R"(
.text
.globl emu_switch
.type emu_switch,@function
emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
)");

/* The coroutines: one a thread of the block, each on its own stack, run one
 * at a time by the emulator's emu_run_block, which switches to each live
 * thread in turn and counts progress (a round without any is a deadlock). */
emu_thread *emu_cur;
static void *sched_sp;
struct bar { int count, gen, expected; };
static bar warp_bar[32], block_bar;
static std::vector<emu_thread> th;
static const size_t STACK = 256 << 10;
static long progress;

static void trampoline()
{
    (*emu_cur->fn)();
    emu_cur->done = 1;
    progress++;
    emu_switch(&emu_cur->sp, sched_sp);
    abort();
}

void emu_yield() { emu_switch(&emu_cur->sp, sched_sp); }

static void barrier(bar &b)
{
    int g = b.gen;
    progress++;
    if (++b.count == b.expected) { b.count = 0, b.gen++, progress++; return; }
    while (b.gen == g) emu_yield();
}
void emu_barrier_warp() { barrier(warp_bar[emu_cur->warp]); }
void emu_barrier_block() { barrier(block_bar); }

/* n threads of block bid, each to run *fn from the top of its own stack, and
 * the warps' and the block's barriers reset. */
static void start_threads(dim3 bid, unsigned n, std::function<void()> *fn)
{
    if (n == 0 || n % 32 || n > 1024) { fprintf(stderr, "emu: block of %u threads\n", n); abort(); }
    if (th.size() < n) th.resize(n);
    for (unsigned i = 0; i < n; i++) {
        emu_thread &t = th[i];
        if (!t.stack) t.stack = (char *)aligned_alloc(64, STACK);
        uintptr_t top = ((uintptr_t)(t.stack + STACK)) & ~(uintptr_t)15;
        void **sp = (void **)top;
        *--sp = nullptr;            /* the trampoline's "return address" */
        *--sp = (void *)trampoline; /* ret of emu_switch lands here */
        for (int r = 0; r < 6; r++) *--sp = nullptr;
        t.sp = sp, t.done = 0, t.fn = fn;
        t.tid = { i, 0, 0 }, t.bid = { bid.x, bid.y, bid.z }, t.lane = i % 32, t.warp = i / 32;
    }
    for (unsigned w = 0; w < n / 32; w++) warp_bar[w] = { 0, 0, 32 };
    block_bar = { 0, 0, (int)n };
}

/* The "device" buffers: every global load (emu_check_read) must lie inside
 * one, aligned to its size. */
static std::map<uintptr_t, size_t> bufs;
void *emu_alloc(size_t n)
{
    void *p = aligned_alloc(256, (n + 255) & ~(size_t)255);
    bufs[(uintptr_t)p] = n;
    return p;
}
void emu_free(void *p) { if (p) { bufs.erase((uintptr_t)p); free(p); } }
long emu_reads;
void emu_check_read(const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    emu_reads++;
    if (a % n) { fprintf(stderr, "emu: misaligned %zu-byte load at %p\n", n, p); abort(); }
    auto it = bufs.upper_bound(a);
    if (it == bufs.begin() || (--it, a + n > it->first + it->second)) {
        fprintf(stderr, "emu: load of %zu bytes at %p outside every buffer\n", n, p); abort();
    }
}
