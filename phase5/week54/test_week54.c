/* test_week54.c — week 54 (Phase 5's optional Hopper track): wgmma's
 * shared-memory matrix descriptor encoded on the CPU, and a TMA + wgmma BF16
 * GEMM checked against a double-precision reference and timed against
 * cublasGemmEx. The GEMM is sm_90a code: on a GPU that is not compute
 * capability 9.0 its checkpoints are SKIP, saying why. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "wgmma_desc.h"
#include "wgmma_gemm.h"
#include "bf16_host.h"       /* wb_f32_to_bf16, wb_bf16_to_f32 */
#include "bf16_gemm_check.h" /* the checks and timing rows weeks 54 and 55 share */

/* ---------------------------------------------------------------- w54.desc (CPU) */

/* The fields of a descriptor, read back bit by bit (the test's own decoder). */
typedef struct { uint32_t addr, lbo, sbo; unsigned base; int swizzle; uint64_t rest; } desc_fields;

static desc_fields decode(uint64_t d)
{
    desc_fields f;
    f.addr = (uint32_t)(d & 0x3fff) << 4;
    f.lbo = (uint32_t)(d >> 16 & 0x3fff) << 4;
    f.sbo = (uint32_t)(d >> 32 & 0x3fff) << 4;
    f.base = (unsigned)(d >> 49 & 7);
    f.swizzle = (int)(d >> 62);
    /* bits 14-15, 30-31, 46-48 and 52-61 are always 0 */
    f.rest = d & (3ull << 14 | 3ull << 30 | 7ull << 46 | 0x3ffull << 52);
    return f;
}

#define UNTOUCHED 0x5a5a5a5a5a5a5a5aull

/* wgmma_desc_make(addr, lbo, sbo, base, sw) must give `want` (ok) or refuse
 * and leave the output alone. */
static void expect_make(uint32_t addr, uint32_t lbo, uint32_t sbo, unsigned base, int sw, int ok, uint64_t want)
{
    uint64_t got = UNTOUCHED;
    int r = wgmma_desc_make(addr, lbo, sbo, base, sw, &got);
    if (ok)
        ck_assert_msg(r == 0 && got == want,
                      "wgmma_desc_make(addr 0x%x, lbo %u, sbo %u, base %u, swizzle %d): returned %d, descriptor "
                      "0x%016llx, expected 0 and 0x%016llx",
                      addr, lbo, sbo, base, sw, r, (unsigned long long)got, (unsigned long long)want);
    else
        ck_assert_msg(r == -1 && got == UNTOUCHED,
                      "wgmma_desc_make(addr 0x%x, lbo %u, sbo %u, base %u, swizzle %d) must be refused (-1, the "
                      "output untouched): returned %d, output 0x%016llx",
                      addr, lbo, sbo, base, sw, r, (unsigned long long)got);
}

/* Descriptors worked out by hand (the comments show the fields). */
START_TEST(desc_table)
{
    /* 0x400 >> 4 = 0x40 | 16 >> 4 = 1 at bit 16 | 1024 >> 4 = 0x40 at bit 32 | 128B (1) at bit 62 */
    expect_make(0x400, 16, 1024, 0, WGMMA_SWIZZLE_128B, 1, 0x4000004000010040ull);
    expect_make(0, 0, 0, 0, WGMMA_SWIZZLE_NONE, 1, 0);
    /* every field full: 0x3fff three times, base 7 at bits 49-51, swizzle 3 (32B) at 62-63 */
    expect_make(0x3fff0, 0x3fff0, 0x3fff0, 7, WGMMA_SWIZZLE_32B, 1, 0xc00e3fff3fff3fffull);
    /* no swizzle: 0x12340 >> 4 = 0x1234, lbo 256 -> 0x10, sbo 8192 -> 0x200 */
    expect_make(0x12340, 0x100, 0x2000, 0, WGMMA_SWIZZLE_NONE, 1, 0x0000020000101234ull);
    /* 64B swizzle (2), base offset 3: 2 << 62 | 3 << 49 | 0x80 << 32 | 2 << 16 | 0x100 */
    expect_make(0x1000, 32, 2048, 3, WGMMA_SWIZZLE_64B, 1, 0x8006008000020100ull);
    /* refused: a field past 14 bits, not a multiple of 16, base above 7, no such swizzle, no output */
    expect_make(0x40000, 16, 1024, 0, 1, 0, 0);
    expect_make(0x408, 16, 1024, 0, 1, 0, 0);
    expect_make(0x400, 24, 1024, 0, 1, 0, 0);
    expect_make(0x400, 16, 1030, 0, 1, 0, 0);
    expect_make(0x400, 1u << 18, 1024, 0, 1, 0, 0);
    expect_make(0x400, 16, 1u << 18, 0, 1, 0, 0);
    expect_make(0x400, 16, 1024, 8, 1, 0, 0);
    expect_make(0x400, 16, 1024, 0, 4, 0, 0);
    expect_make(0x400, 16, 1024, 0, -1, 0, 0);
    ck_assert_msg(wgmma_desc_make(0x400, 16, 1024, 0, 1, NULL) == -1, "wgmma_desc_make with desc NULL must return -1");
}
END_TEST

/* Advancing: the start field alone moves, in 16-byte units, never carrying. */
START_TEST(desc_advance)
{
    const uint64_t d = 0x4000004000010040ull;
    const struct { uint64_t in; uint32_t bytes; int ok; uint64_t want; } T[] = {
        { d, 0, 1, d },
        { d, 32, 1, 0x4000004000010042ull },     /* the next k16 slice of BF16 */
        { d, 96, 1, 0x4000004000010046ull },     /* the fourth */
        { d, 8192, 1, 0x4000004000010240ull },   /* 64 rows of 128 bytes further: the second consumer's A */
        { 0xc00e3fff3fff3ff0ull, 0xf0, 1, 0xc00e3fff3fff3fffull }, /* up to the field's last unit */
        { 0xc00e3fff3fff3fffull, 16, 0, 0 },     /* would carry into bit 14 */
        { d, 17, 0, 0 },
        { d, 8, 0, 0 },
        { 0x3ff0, 0x400, 0, 0 },
    };
    for (size_t i = 0; i < WB_COUNT(T); i++) {
        uint64_t got = UNTOUCHED;
        int r = wgmma_desc_advance(T[i].in, T[i].bytes, &got);
        if (T[i].ok)
            ck_assert_msg(r == 0 && got == T[i].want,
                          "wgmma_desc_advance(0x%016llx, %u bytes): returned %d, 0x%016llx, expected 0 and 0x%016llx",
                          (unsigned long long)T[i].in, T[i].bytes, r, (unsigned long long)got,
                          (unsigned long long)T[i].want);
        else
            ck_assert_msg(r == -1 && got == UNTOUCHED,
                          "wgmma_desc_advance(0x%016llx, %u bytes) must be refused (-1, output untouched): returned "
                          "%d, 0x%016llx",
                          (unsigned long long)T[i].in, T[i].bytes, r, (unsigned long long)got);
    }
    ck_assert_msg(wgmma_desc_advance(d, 32, NULL) == -1, "wgmma_desc_advance with out NULL must return -1");
}
END_TEST

/* The GEMM's descriptor: K-major BF16, 128B swizzle, slice kk of a tile. */
START_TEST(desc_bf16_sw128)
{
    for (uint32_t tile = 0; tile < (1u << 18); tile += 1024)
        for (unsigned kk = 0; kk < 4; kk++) {
            uint64_t got = UNTOUCHED;
            int r = wgmma_desc_bf16_sw128(tile, kk, &got);
            uint64_t want = 1ull << 62 | 64ull << 32 | 1ull << 16 | (uint64_t)(tile / 16 + 2 * kk);
            if (r != 0 || got != want)
                ck_abort_msg("wgmma_desc_bf16_sw128(0x%x, %u): returned %d, 0x%016llx, expected 0 and 0x%016llx "
                             "(LBO 16, SBO 1024, base 0, 128B swizzle, start tile + 32 kk)",
                             tile, kk, r, (unsigned long long)got, (unsigned long long)want);
        }
    const struct { uint32_t tile; unsigned kk; } bad[] = { { 512, 0 }, { 0x400 + 16, 0 }, { 0, 4 }, { 1u << 18, 0 },
                                                           { 0x3fc00 + 1024, 1 } };
    for (size_t i = 0; i < WB_COUNT(bad); i++) {
        uint64_t got = UNTOUCHED;
        int r = wgmma_desc_bf16_sw128(bad[i].tile, bad[i].kk, &got);
        ck_assert_msg(r == -1 && got == UNTOUCHED,
                      "wgmma_desc_bf16_sw128(0x%x, %u) must be refused (the tile 1024-byte aligned and below 2^18, "
                      "kk 0..3): returned %d, 0x%016llx",
                      bad[i].tile, bad[i].kk, r, (unsigned long long)got);
    }
}
END_TEST

/* Fresh random fields: the descriptor decodes to them, with every unused
 * bit 0; then one field broken, refused. */
START_TEST(desc_random)
{
    wb_rng rng = WB_RNG();
    for (int i = 0; i < 20000; i++) {
        uint32_t addr = 16u * (uint32_t)wb_rng_int(&rng, 0, 0x3fff), lbo = 16u * (uint32_t)wb_rng_int(&rng, 0, 0x3fff),
                 sbo = 16u * (uint32_t)wb_rng_int(&rng, 0, 0x3fff);
        unsigned base = (unsigned)wb_rng_int(&rng, 0, 7);
        int sw = (int)wb_rng_int(&rng, 0, 3);
        uint64_t d = UNTOUCHED;
        int r = wgmma_desc_make(addr, lbo, sbo, base, sw, &d);
        desc_fields f = decode(d);
        if (r != 0 || f.addr != addr || f.lbo != lbo || f.sbo != sbo || f.base != base || f.swizzle != sw || f.rest)
            ck_abort_msg("wgmma_desc_make(addr 0x%x, lbo 0x%x, sbo 0x%x, base %u, swizzle %d) returned %d, "
                         "0x%016llx: that reads back as addr 0x%x, lbo 0x%x, sbo 0x%x, base %u, swizzle %d, unused "
                         "bits 0x%llx",
                         addr, lbo, sbo, base, sw, r, (unsigned long long)d, f.addr, f.lbo, f.sbo, f.base, f.swizzle,
                         (unsigned long long)f.rest);
        uint32_t step = 16u * (uint32_t)wb_rng_int(&rng, 0, 0x3fff - (int64_t)(addr / 16));
        uint64_t e = UNTOUCHED;
        r = wgmma_desc_advance(d, step, &e);
        if (r != 0 || e != d + step / 16)
            ck_abort_msg("wgmma_desc_advance(0x%016llx, %u) returned %d, 0x%016llx, expected 0x%016llx",
                         (unsigned long long)d, step, r, (unsigned long long)e, (unsigned long long)(d + step / 16));
        switch (wb_rng_int(&rng, 0, 4)) {
        case 0: addr += (uint32_t)wb_rng_int(&rng, 1, 15); break;
        case 1: lbo = (1u << 18) + 16u * (uint32_t)wb_rng_int(&rng, 0, 1000); break;
        case 2: sbo |= 8; break;
        case 3: base = (unsigned)wb_rng_int(&rng, 8, 1000); break;
        default: sw = wb_rng_int(&rng, 0, 1) ? 4 + (int)wb_rng_int(&rng, 0, 100) : -1; break;
        }
        uint64_t x = UNTOUCHED;
        r = wgmma_desc_make(addr, lbo, sbo, base, sw, &x);
        if (r != -1 || x != UNTOUCHED)
            ck_abort_msg("wgmma_desc_make(addr 0x%x, lbo 0x%x, sbo 0x%x, base %u, swizzle %d) breaks a rule and "
                         "must return -1 with the output untouched: returned %d, 0x%016llx",
                         addr, lbo, sbo, base, sw, r, (unsigned long long)x);
    }
}
END_TEST

/* ---------------------------------------------------------------- w54.gemm */

#define NEED_SM90A() wb_need_sm90a("wgmma_gemm (wgmma, TMA, setmaxnreg)")

/* The GEMM under test, for bf16_gemm_check.h (tolerance: bf16_gemm_atol there). */
static const bf16_gemm_api API = { "wgmma_gemm_bf16", wgmma_gemm_bf16, NULL, NULL };

static const bf16_gemm_shape SHAPES[] = {
    { 1, 1, 8, 0, 0, 0 },        { 0, 5, 8, 0, 0, 0 },        { 5, 0, 8, 0, 0, 0 },       { 5, 7, 0, 3, 1, 0 },
    { 1, 1, 0, 0, 0, 0 },        { 3, 5, 8, 1, 1, 0 },        { 8, 8, 8, 0, 0, 0 },       { 64, 64, 64, 0, 0, 0 },
    { 127, 129, 72, 0, 0, 0 },   { 128, 256, 64, 0, 0, 0 },   { 129, 257, 136, 2, 0, 0 }, { 255, 256, 1000, 0, 1, 0 },
    { 256, 255, 256, 1, 0, 0 },  { 257, 511, 64, 0, 0, 0 },   { 1, 257, 264, 0, 0, 0 },   { 1000, 1000, 96, 0, 3, 0 },
    { 64, 4096, 8, 0, 0, 0 },    { 4096, 64, 128, 0, 0, 0 },  { 130, 260, 200, 0, 2, 0 }, { 300, 300, 4096, 5, 0, 0 },
    /* NaN and +-Inf: a multiple of the tile, and not */
    { 128, 256, 128, 0, 0, 1 },  { 77, 300, 56, 3, 1, 1 },
};

/* Every element of each shape against the CPU (bf16_check_gemm). */
START_TEST(gemm_shapes)
{
    NEED_SM90A();
    wb_rng rng = WB_RNG();
    bf16_check_gemm(&API, &rng, SHAPES[_i]);
}
END_TEST

/* Fresh random shapes on top of the table. */
START_TEST(gemm_random)
{
    NEED_SM90A();
    wb_rng rng = WB_RNG();
    bf16_gemm_shape s = { (int)wb_rng_int(&rng, 1, 600), (int)wb_rng_int(&rng, 1, 600),
                          8 * (int)wb_rng_int(&rng, 1, 60), (int)wb_rng_int(&rng, 0, 3), (int)wb_rng_int(&rng, 0, 3),
                          0 };
    bf16_check_gemm(&API, &rng, s);
}
END_TEST

/* ---- large shapes, sampled: inputs filled on the device from two seeds */

enum { SEED_A = 541, SEED_B = 542 };

static const bf16_gemm_shape LARGE[] = { { 4096, 4096, 4096, 0, 0, 0 }, { 2049, 3001, 4104, 0, 0, 0 } };

START_TEST(gemm_large)
{
    NEED_SM90A();
    bf16_seeded g = bf16_seeded_open(LARGE[_i].M, LARGE[_i].N, LARGE[_i].K, SEED_A, SEED_B);
    WB_CUDA(wgmma_gemm_bf16(g.A, g.B, g.C, g.M, g.N, g.K, (size_t)g.N));
    bf16_expect_seeded(&g, 4096, "wgmma_gemm_bf16");
    bf16_seeded_close(&g);
}
END_TEST

/* ---- the contract's refusals */

static const bf16_refused_case REFUSED[] = {
    { 8, 8, 12, 8, 0, 0, "K = 12 is not a multiple of 8 (24-byte rows)" },
    { 8, 8, 7, 8, 0, 0, "K = 7" },
    { 8, 8, 8, 7, 0, 0, "ldc < N" },
    { -1, 8, 8, 8, 0, 0, "M < 0" },
    { 8, -8, 8, 8, 0, 0, "N < 0" },
    { 8, 8, -8, 8, 0, 0, "K < 0" },
    { 8, 8, 8, 8, 4, 0, "A 8 bytes past a 16-byte boundary" },
    { 8, 8, 8, 8, 0, 1, "B 2 bytes past a 16-byte boundary" },
};

/* On real buffers: refused, and C (poisoned) untouched. */
START_TEST(gemm_refused)
{
    NEED_SM90A();
    bf16_check_refused(&API, &REFUSED[_i]);
}
END_TEST

/* The host side of the contract, no GPU needed: refused shapes are refused
 * before any CUDA call, empty ones accepted without one. */
START_TEST(gemm_contract) { bf16_check_contract(&API, REFUSED, WB_COUNT(REFUSED)); }
END_TEST

/* The test's own bfloat16 rounding (bf16_host.h), checked before it judges
 * anything: nearest even, NaN stays NaN, overflow to Inf, every BF16 round trips. */
START_TEST(bf16_rounding)
{
    wb_rng rng = WB_RNG();
    ck_assert_uint_eq(wb_f32_to_bf16(1.0f), 0x3f80);
    ck_assert_uint_eq(wb_f32_to_bf16(-2.0f), 0xc000);
    ck_assert_uint_eq(wb_f32_to_bf16(1.0f + ldexpf(1, -8)), 0x3f80);     /* tie: to even (down) */
    ck_assert_uint_eq(wb_f32_to_bf16(1.0f + 3 * ldexpf(1, -8)), 0x3f82); /* tie: to even (up) */
    ck_assert_uint_eq(wb_f32_to_bf16(1.0f + ldexpf(1, -8) + ldexpf(1, -20)), 0x3f81); /* past the tie: up */
    ck_assert_uint_eq(wb_f32_to_bf16(INFINITY), 0x7f80);
    ck_assert_uint_eq(wb_f32_to_bf16(-INFINITY), 0xff80);
    ck_assert_uint_eq(wb_f32_to_bf16(3.4028235e38f), 0x7f80); /* rounds past the largest BF16 */
    ck_assert(isnan(wb_bf16_to_f32(wb_f32_to_bf16(NAN))));
    ck_assert_uint_eq(wb_f32_to_bf16(ldexpf(1, -133)), 0x0001); /* the smallest subnormal */
    for (int i = 0; i < 100000; i++) {
        uint16_t h = (uint16_t)wb_rng_int(&rng, 0, 0xffff);
        if ((h & 0x7f80) == 0x7f80 && (h & 0x7f)) continue; /* NaN: any NaN comes back */
        if (wb_f32_to_bf16(wb_bf16_to_f32(h)) != h)
            ck_abort_msg("bfloat16 0x%04x does not survive the round trip through float", (unsigned)h);
    }
}
END_TEST

/* ---------------------------------------------------------------- w54.gemm-speed */

/* cuBLAS then ours on the same n^3 data in the same run; cuBLAS's row is
 * printed, ours returned (its yardstick: cuBLAS's figure, NaN if its output
 * was wrong). */
static wb_bench_row speed_rows(int n)
{
    bf16_speed_run r = bf16_speed_open("wgmma_gemm", n, SEED_A, SEED_B);
    wb_bench_row lib = bf16_speed_row(&r, NULL, "cuBLAS GemmEx BF16 TN", NULL, 0);
    wb_bench_emit(&lib);
    wb_bench_row row = bf16_speed_row(&r, wgmma_gemm_bf16, "TMA + wgmma 128x256, 4 stages (yours)", "cuBLAS",
                                      lib.invalid ? NAN : lib.value);
    bf16_speed_close(&r);
    return row;
}

/* The yardstick itself, on a small shape against the CPU (bf16_check_yardstick). */
START_TEST(yard_check)
{
    NEED_SM90A();
    bf16_check_yardstick(SEED_A + 7, SEED_B + 7);
}
END_TEST

/* A test, not a WB_SPEED line: off compute capability 9.0 it must be SKIP,
 * and only a test can skip. */
START_TEST(gemm_speed)
{
    NEED_SM90A();
    wb_bench_row row = speed_rows(4096);
    wb_expect_target_row("w54.gemm-speed", &row);
}
END_TEST

static const wb_test TESTS[] = {
    { "w54.desc", WB_T(desc_table), WB_CPU, 0 },
    { "w54.desc", WB_T(desc_advance), WB_CPU, 0 },
    { "w54.desc", WB_T(desc_bf16_sw128), WB_CPU, 0 },
    { "w54.desc", WB_T(desc_random), WB_CPU, 4 },
    { "w54.gemm", WB_T(bf16_rounding), WB_CPU, 0 },
    { "w54.gemm", WB_T(gemm_contract), WB_CPU, 0 },
    { "w54.gemm", WB_T(gemm_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w54.gemm", WB_T(gemm_random), WB_GPU, 6 },
    { "w54.gemm", WB_T(gemm_large), WB_GPU, WB_COUNT(LARGE) },
    { "w54.gemm", WB_T(gemm_refused), WB_GPU, WB_COUNT(REFUSED) },
    { "w54.gemm-speed", WB_T(yard_check), WB_GPU, 0 },
    { "w54.gemm-speed", WB_T(gemm_speed), WB_GPU, 0 },
};

/* Ours against cuBLAS at 1024, 2048 and 4096, printed only (the 4096 row is
 * w54.gemm-speed's figure, judged by its test): `--bench gemm`. */
static double bench_gemm(void) { return bf16_bench_sizes("wgmma_gemm", speed_rows); }

static const wb_benchmark BENCHES[] = {
    { "gemm", bench_gemm },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
