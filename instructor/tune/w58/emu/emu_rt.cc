/* emu_rt.cc — week 58's emulator runtime, on the coroutines, barriers and
 * checked buffers of ../../emu/emu_core.h (shared with week 57's): the
 * warp's mma.sync, emulated mbarriers and cp.async.bulk (every bulk copy's
 * source checked against the buffers too). The threads
 * of a block run one at a time, in an order shuffled every round; a bulk
 * copy poisons its destination (0xff bytes: NaN halves) when issued and
 * lands, completing its bytes on its mbarrier, at a later round chosen at
 * random, so a consumer that reads a stage before its phase completes, or
 * a producer that refills a stage a consumer still reads, gives NaN. */
#include "emu_shim.h"
#include <algorithm>
#include <map>
#include <random>
#include "../../emu/emu_core.h"

emu_idx emu_grid;
int emu_sms = 132, emu_per_sm = 2, emu_binary_version = 90;
static std::mt19937_64 rng(1);
void emu_seed(unsigned long s) { rng.seed(s); }

[[noreturn]] void emu_fail(const char *what)
{
    fprintf(stderr, "emu: %s (block %u, %u; thread %u)\n", what, emu_cur ? emu_cur->bid.x : 0, emu_cur ? emu_cur->bid.y : 0,
            emu_cur ? emu_cur->tid.x : 0);
    abort();
}

void emu_progress() { progress++; }

/* ---- mma.sync.m16n8k16 (f16 in, f32 accumulate): A row-major 16 x 16, B
 * 16 x 8 ("col": each thread's pairs run along k), C 16 x 8. Thread (g, t):
 * a0 = A[g][2t, 2t+1], a1 = A[g+8][2t, 2t+1], a2 = A[g][2t+8, 2t+9],
 * a3 = A[g+8][2t+8, 2t+9]; b0 = B[2t, 2t+1][g], b1 = B[2t+8, 2t+9][g];
 * c0, c1 = C[g][2t, 2t+1], c2, c3 = C[g+8][2t, 2t+1] (PTX ISA, the m16n8k16
 * fragments); the lower half of a register is the lower index. */
static float xa[32][32][8], xb[32][32][4]; /* each lane's fragments, as floats */
static float h2f(uint32_t r, int hi)
{
    __half h;
    uint16_t u = (uint16_t)(hi ? r >> 16 : r);
    memcpy(&h, &u, 2);
    return __half2float(h);
}
void emu_mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
    const int w = emu_cur->warp, l = emu_cur->lane, g = l >> 2, t = l & 3;
    for (int i = 0; i < 8; i++) xa[w][l][i] = h2f(a[i >> 1], i & 1);
    for (int i = 0; i < 4; i++) xb[w][l][i] = h2f(i < 2 ? b0 : b1, i & 1);
    emu_barrier_warp();
    /* A[r][k]: lane (r % 8) * 4 + (k % 8) / 2, register (r / 8) + 2 (k / 8), half k % 2; B[k][n]: lane 4 n + (k % 8) / 2, register k / 8 */
    float d[4];
    for (int q = 0; q < 4; q++) {
        const int r = g + 8 * (q >> 1), n = 2 * t + (q & 1);
        float s = c[q];
        for (int k = 0; k < 16; k++)
            s += xa[w][(r & 7) * 4 + (k & 7) / 2][2 * ((r >> 3) + 2 * (k >> 3)) + (k & 1)] *
                 xb[w][n * 4 + (k & 7) / 2][2 * (k >> 3) + (k & 1)];
        d[q] = s;
    }
    emu_barrier_warp(); /* everyone has read the exchange before it is written again */
    for (int q = 0; q < 4; q++) c[q] = d[q];
}

/* ---- shared memory: 32-bit addresses as offsets from an anchor in .bss (the
 * kernels' __shared__ are statics of the same program, well within 2 GiB) */
static char anchor;
uint32_t emu_smem_addr(const void *p) { return (uint32_t)((intptr_t)p - (intptr_t)&anchor); }
void *emu_smem_ptr(uint32_t a) { return &anchor + (int32_t)a; }
static unsigned char *ring_p;
static size_t ring_n;
void emu_smem(void *p, size_t n)
{
    if (ring_p != p) ring_p = (unsigned char *)p, ring_n = n, memset(p, 0xff, n);
}

/* ---- mbarriers, kept beside the 8 bytes the kernel gives them */
struct mbar { int expected, pending; long tx; unsigned phase; };
static std::map<uint32_t, mbar> mbars;
void emu_mbar_init(uint32_t b, uint32_t count)
{
    if (b % 8) emu_fail("mbarrier not 8-byte aligned");
    if (count == 0 || count > (1u << 20) - 1) emu_fail("mbarrier count out of range");
    mbars[b] = { (int)count, (int)count, 0, 0 };
}
static mbar &mb(uint32_t b)
{
    auto it = mbars.find(b);
    if (it == mbars.end()) emu_fail("mbarrier used before mbarrier.init");
    return it->second;
}
static void complete_if_done(mbar &m)
{
    if (m.pending == 0 && m.tx == 0) m.phase++, m.pending = m.expected, progress++;
}
void emu_mbar_arrive(uint32_t b, uint32_t tx)
{
    mbar &m = mb(b);
    if (m.pending <= 0) emu_fail("more arrivals than the mbarrier expects in a phase");
    m.tx += tx;
    if (m.tx > (1 << 20) - 1) emu_fail("mbarrier tx-count past 2^20 - 1");
    m.pending--, progress++;
    complete_if_done(m);
}
bool emu_mbar_test(uint32_t b, uint32_t parity)
{
    if (parity > 1) emu_fail("mbarrier parity not 0 or 1");
    return (mb(b).phase & 1) != parity; /* the phase of that parity (the one before the current) has completed */
}

/* ---- bulk copies in flight */
struct copy { unsigned char *dst; const void *src; uint32_t bytes, bar; };
static std::vector<copy> flying;
long emu_bulk_bytes, emu_bulk_count;
void emu_bulk(uint32_t dst, const void *src, uint32_t bytes, uint32_t bar)
{
    unsigned char *d = (unsigned char *)emu_smem_ptr(dst);
    if (dst % 16 || (uintptr_t)src % 16) emu_fail("cp.async.bulk address not 16-byte aligned");
    if (bytes == 0 || bytes % 16) emu_fail("cp.async.bulk size not a positive multiple of 16");
    if (!ring_p || d < ring_p || d + bytes > ring_p + ring_n) emu_fail("cp.async.bulk destination outside the ring");
    emu_check_read(src, 16);
    emu_check_read((const char *)src + bytes - 16, 16);
    mb(bar);
    for (const copy &c : flying)
        if (d < c.dst + c.bytes && c.dst < d + bytes) emu_fail("two bulk copies in flight into the same bytes");
    memset(d, 0xff, bytes); /* what a reader sees before the bytes land */
    flying.push_back({ d, src, bytes, bar });
    emu_bulk_bytes += bytes, emu_bulk_count++;
}
static void land(size_t i)
{
    copy c = flying[i];
    flying.erase(flying.begin() + (long)i);
    memcpy(c.dst, c.src, c.bytes);
    mbar &m = mb(c.bar);
    m.tx -= c.bytes;
    if (m.tx < -((1 << 20) - 1)) emu_fail("mbarrier tx-count below -(2^20 - 1)");
    progress++;
    complete_if_done(m);
}

void emu_run_block(dim3 bid, unsigned n, const std::function<void()> &body)
{
    std::function<void()> fn = body;
    start_threads(bid, n, &fn);
    mbars.clear();
    if (ring_p) memset(ring_p, 0xff, ring_n); /* a new block: nothing in the ring is its own yet */
    std::vector<unsigned> order(n);
    for (unsigned i = 0; i < n; i++) order[i] = i;
    unsigned live = n;
    int stuck = 0;
    while (live) {
        long before = progress;
        std::shuffle(order.begin(), order.end(), rng);
        for (unsigned i : order) {
            if (th[i].done) continue;
            emu_cur = &th[i];
            emu_switch(&sched_sp, th[i].sp);
            if (th[i].done) live--;
        }
        emu_cur = nullptr;
        /* some copies land: each with probability 1/4, or all of them when no thread moved */
        const bool none = progress == before;
        for (size_t i = flying.size(); i-- > 0;)
            if (none || rng() % 4 == 0) land(i);
        if (progress == before && live) {
            if (++stuck > 3) { fprintf(stderr, "emu: deadlock in block (%u, %u, %u): a barrier or an mbarrier phase never completes\n", bid.x, bid.y, bid.z); abort(); }
        } else stuck = 0;
    }
    if (!flying.empty()) { fprintf(stderr, "emu: block (%u, %u) ended with %zu bulk copies in flight\n", bid.x, bid.y, flying.size()); abort(); }
    for (auto &kv : mbars)
        if (kv.second.tx != 0 || kv.second.pending != kv.second.expected) {
            fprintf(stderr, "emu: block (%u, %u) ended with an mbarrier mid-phase (tx %ld, %d of %d arrivals)\n", bid.x, bid.y,
                    kv.second.tx, kv.second.expected - kv.second.pending, kv.second.expected);
            abort();
        }
}

