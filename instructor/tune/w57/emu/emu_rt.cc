/* emu_rt.cc — coroutines (a hand-written x86-64 stack switch), the block and
 * warp barriers, and a registry of "device" buffers that every __ldg and
 * __ldcs is checked against (in range and aligned). */
#include "emu_shim.h"
#include <map>

#include "../../emu/emu_switch.h" /* the coroutines' stack switch, shared with the other week's emulator */

emu_thread *emu_cur;
float emu_xchg[32][32];
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

void emu_run_block(dim3 bid, unsigned n, const std::function<void()> &body)
{
    if (n == 0 || n % 32 || n > 1024) { fprintf(stderr, "emu: block of %u threads\n", n); abort(); }
    if (th.size() < n) th.resize(n);
    std::function<void()> fn = body;
    for (unsigned i = 0; i < n; i++) {
        emu_thread &t = th[i];
        if (!t.stack) t.stack = (char *)aligned_alloc(64, STACK);
        uintptr_t top = ((uintptr_t)(t.stack + STACK)) & ~(uintptr_t)15;
        void **sp = (void **)top;
        *--sp = nullptr;              /* the trampoline's "return address" */
        *--sp = (void *)trampoline;   /* ret of emu_switch lands here */
        for (int r = 0; r < 6; r++) *--sp = nullptr;
        t.sp = sp, t.done = 0, t.fn = &fn;
        t.tid = { i, 0, 0 }, t.bid = { bid.x, bid.y, bid.z }, t.lane = i % 32, t.warp = i / 32;
        t.cps.clear(), t.cp_group = 0;
    }
    for (unsigned w = 0; w < n / 32; w++) warp_bar[w] = { 0, 0, 32 };
    block_bar = { 0, 0, (int)n };
    unsigned live = n;
    int stuck = 0;
    while (live) {
        long before = progress;
        for (unsigned i = 0; i < n; i++) {
            if (th[i].done) continue;
            emu_cur = &th[i];
            emu_switch(&sched_sp, th[i].sp);
            if (th[i].done) live--;
        }
        if (progress == before && live) {
            if (++stuck > 3) { fprintf(stderr, "emu: deadlock in block (%u, %u, %u): a barrier some threads never reach\n", bid.x, bid.y, bid.z); abort(); }
        } else stuck = 0;
    }
    emu_cur = nullptr;
}

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

/* PAGED_STAGES's dynamic shared memory and cp.async (emu_shim.h). */
void *emu_dyn_smem;
static size_t dyn_bytes;
long emu_cp_copies;
void emu_set_dyn_smem(size_t bytes)
{
    static std::vector<unsigned char> buf;
    buf.assign(bytes + 16, 0xFF); /* all-ones bf16: NaN, until a copy lands */
    emu_dyn_smem = (void *)(((uintptr_t)buf.data() + 15) & ~(uintptr_t)15);
    dyn_bytes = bytes;
}
void emu_cp_async(void *dst, const void *src)
{
    uintptr_t d = (uintptr_t)dst, b = (uintptr_t)emu_dyn_smem;
    if (d % 16 || d < b || d + 16 > b + dyn_bytes) { fprintf(stderr, "emu: cp.async to %p outside the dynamic shared memory\n", dst); abort(); }
    emu_check_read(src, 16);
    for (auto &c : emu_cur->cps)
        if (c.dst == dst) { fprintf(stderr, "emu: cp.async into a piece whose copy is still pending (thread %u)\n", emu_cur->tid.x); abort(); }
    memset(dst, 0xFF, 16);
    emu_cur->cps.push_back({ dst, src, emu_cur->cp_group });
}
void emu_cp_commit() { emu_cur->cp_group++; }
void emu_cp_wait(int n)
{
    auto &v = emu_cur->cps;
    size_t k = 0;
    for (auto &c : v) {
        if (c.group < emu_cur->cp_group - n) memcpy(c.dst, c.src, 16), emu_cp_copies++;
        else v[k++] = c;
    }
    v.resize(k);
}
