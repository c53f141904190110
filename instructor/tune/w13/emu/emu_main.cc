/* emu_main.cc — cpu_emu's checks (instructor/tune/w13; run.sh builds and
 * runs them): week 13's reference scan1pass, kernel and launcher as they
 * are (KERNEL_FILE, made by run.sh from phase3/week13/solution/scan1pass.cu),
 * run on the CPU by emu.h, at the knobs given with -D, against a host scan
 * modulo 2^32. The cases are w13.scan1pass's (test_week13.c: SCAN1_CASES,
 * the shaken runs, the 2^31-tile rejection), at this build's SCAN1_TILE,
 * plus the look-back's window of 32 K tiles and the next one, blocks
 * started in a shuffled order, and one host thread running the blocks one
 * at a time (the README's "a GPU that ran one block at a time"). Every run:
 * y poisoned with guards on both sides, tmp poisoned, each case run twice
 * on one workspace. EMU_LARGE=1 adds the 100M + 7 case (minutes). */
#include "emu.h"
#include KERNEL_FILE

#include <string>

static int passed, failed;

static unsigned long long rng_state = 0x13135C4E5ull;
static uint32_t rnd32()
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

enum { GUARD = 16 }; /* ints of poison on each side of y (64 bytes: y's alignment is kept) */
static const uint32_t POISON = 0xA5A5A5A5u;

/* scan1pass of n ints (x ox ints off 16-byte alignment, y oy ints off),
 * values in the whole int32 range (wide) or [-1000, 1000]; sms host
 * threads; blocks in shuffled order when shuffle != 0. */
static void check(size_t n, size_t ox, size_t oy, unsigned shake, bool wide, unsigned sms, unsigned long long shuffle,
                  const char *why)
{
    int32_t *xbuf = (int32_t *)aligned_alloc(16, ((n + ox) * 4 + 15) / 16 * 16 + 16);
    for (size_t i = 0; i < n + ox; i++) xbuf[i] = wide ? (int32_t)rnd32() : (int32_t)(rnd32() % 2001) - 1000;
    const size_t ycount = n + oy + 2 * GUARD;
    uint32_t *ybuf = (uint32_t *)aligned_alloc(16, (ycount * 4 + 15) / 16 * 16);
    int32_t *y = (int32_t *)(ybuf + GUARD + oy);
    const size_t tmp_bytes = scan1pass_tmp_bytes(n);
    void *tmp = aligned_alloc(128, (tmp_bytes + 127) / 128 * 128);
    memset(tmp, 0xFF, tmp_bytes); /* the launcher must clear it */
    std::vector<uint32_t> ref(n);
    uint32_t acc = 0;
    for (size_t i = 0; i < n; i++) acc += (uint32_t)xbuf[ox + i], ref[i] = acc;
    emu::launch_sms = sms, emu::launch_shuffle = shuffle;
    emu::n_blocks = 0, emu::n_redux = 0, emu::n_spins = 0, emu::max_redux = 0;
    std::string bad;
    for (int run = 0; run < 2 && bad.empty(); run++) {
        for (size_t i = 0; i < ycount; i++) ybuf[i] = POISON;
        cudaError_t e = scan1pass(n ? xbuf + ox : nullptr, n ? y : nullptr, n, tmp, shake);
        if (e != cudaSuccess) {
            bad = "returned an error";
            break;
        }
        for (size_t i = 0; i < GUARD + oy; i++)
            if (ybuf[i] != POISON) bad = "wrote before y";
        for (size_t i = GUARD + oy + n; i < ycount; i++)
            if (ybuf[i] != POISON) bad = "wrote past y";
        for (size_t i = 0; i < n && bad.empty(); i++)
            if ((uint32_t)y[i] != ref[i]) {
                char m[160];
                snprintf(m, sizeof m, "%sy[%zu] = %d, expected %d", run ? "second run: " : "", i, y[i], (int32_t)ref[i]);
                bad = m;
            }
    }
    const size_t tiles = (n + SCAN1_TILE - 1) / SCAN1_TILE;
    printf("  %s n=%zu (%zu tiles), x+%zu, y+%zu, %s%s, %u SM%s%s (%s)%s%s\n", bad.empty() ? "ok  " : "FAIL", n, tiles,
           ox, oy, wide ? "int32 range" : "[-1000, 1000]", shake ? ", shaken" : "", sms, sms == 1 ? "" : "s",
           shuffle ? ", blocks shuffled" : "", why, bad.empty() ? "" : ": ", bad.c_str());
    if (tiles > 1) /* both runs: look-back windows a tile after the first, spins on X */
        printf("       look-back windows: %.2f a tile, %lld at most; %lld spins on X\n",
               (double)emu::n_redux.load() / (double)(emu::n_blocks.load() - 2), emu::max_redux.load(),
               emu::n_spins.load());
    fflush(stdout);
    (bad.empty() ? passed : failed)++;
    free(xbuf), free(ybuf), free(tmp);
}

int main()
{
    const size_t T = SCAN1_TILE;
    const size_t K = SCAN1_LOOKBACK;
    printf("cpu_emu: scan1pass at SCAN1_THREADS %d, SCAN1_ITEMS %d (tile %zu), SCAN1_LOOKBACK %zu, SCAN1_DELAY %d, "
           "SCAN1_POLL %d\n",
           SCAN1_THREADS, SCAN1_ITEMS, T, K, SCAN1_DELAY, SCAN1_POLL);
    static const struct { size_t n, ox, oy; } CASES[] = { /* test_week13.c's SCAN1_CASES */
        { 0, 0, 0 },          { 1, 0, 0 },          { 31, 0, 1 },          { 33, 1, 0 },
        { T - 1, 0, 0 },      { T, 0, 0 },          { T, 0, 3 },           { T + 1, 0, 0 },
        { 2 * T + 5, 1, 1 },  { 32 * T, 0, 0 },     { 33 * T + 1, 0, 0 },  { 37 * T + 999, 2, 0 },
        { 1000003, 0, 0 },    { 1000003, 0, 2 },    { 256 * T, 0, 0 },     { 3 * 1024 * T + 77, 0, 0 },
    };
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++)
        check(CASES[c].n, CASES[c].ox, CASES[c].oy, 0, c % 2 == 0, 4, 0, "the test's sizes");
    /* the look-back's step of 32 K tiles: a tile that reads exactly one
     * whole step, and the next */
    check(32 * K * T, 0, 0, 0, true, 4, 0, "32 K tiles");
    check(32 * K * T + 1, 0, 0, 0, false, 4, 0, "32 K tiles + 1");
    check(64 * K * T + 3, 0, 0, 0, true, 4, 0, "64 K tiles + 3");
    /* the test's shaken runs: 40 tiles + 17, 300000 to 3000000, 2^24 + 3 */
    const size_t shaken[] = { 40 * T + 17, 300000 + rnd32() % 2700001, ((size_t)1 << 24) + 3 };
    for (size_t s : shaken) check(s, 0, 0, rnd32() | 1u, false, 4, 0, "random tiles delayed");
    check(33 * T + 7, 0, 0, rnd32() | 1u, false, 8, 0, "shaken, 8 SMs");
    /* as many blocks at once as an H100 holds of the default (132 SMs x 6
     * would be too many threads here: 160), P publishes delayed (shaken):
     * look-backs that walk past the first window of 32 K tiles, the branch
     * that sums a whole window and moves on */
    check(600 * T + 5, 0, 0, rnd32() | 1u, false, 160, 0, "160 SMs, shaken: long look-backs");
    check(64 * K * T + 300 * T + 1, 0, 0, rnd32() | 1u, true, 160, 0, "160 SMs, shaken: long look-backs");
    /* the counter, not blockIdx.x: any start order, one block at a time */
    check(100 * T + 3, 0, 0, 0, true, 4, 0x5EED5EEDull, "blocks started in a shuffled order");
    check(70 * T + 9, 1, 2, rnd32() | 1u, false, 3, 0xC0FFEEull, "shuffled and shaken, unaligned");
    check(80 * T + 11, 0, 0, 0, true, 1, 0x1234567ull, "one block at a time, shuffled");
    if (getenv("EMU_LARGE") && atoi(getenv("EMU_LARGE"))) check(((size_t)100 << 20) + 7, 0, 0, 0, true, 4, 0, "100M + 7");
    /* 2^31 tiles: rejected before anything runs */
    const bool rejected = scan1pass(nullptr, nullptr, (size_t)SCAN1_TILE << 31, nullptr, 0) == cudaErrorInvalidValue;
    printf("  %s n = SCAN1_TILE x 2^31 returns cudaErrorInvalidValue\n", rejected ? "ok  " : "FAIL");
    (rejected ? passed : failed)++;
    printf("cpu_emu: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
