/* emu_rt.cc — week 57's emulator runtime: the block's threads run in order,
 * round after round, on the coroutines, barriers and checked buffers of
 * ../../emu/emu_core.h; the shuffles' exchange array and cp.async. */
#include "emu_shim.h"
#include "../../emu/emu_core.h"

float emu_xchg[32][32];

void emu_run_block(dim3 bid, unsigned n, const std::function<void()> &body)
{
    std::function<void()> fn = body;
    start_threads(bid, n, &fn);
    for (unsigned i = 0; i < n; i++) th[i].cps.clear(), th[i].cp_group = 0;
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
