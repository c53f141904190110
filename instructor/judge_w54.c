/* judge_w54.c — build/instructor/judge-w54: week 54's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's wgmma_desc.o and wgmma_gemm.o are linked into the runner
 * (judge_w54_runner.c), which this process starts (or is handed) and asks
 * to call them on scalars and buffers it allocated (judge.h). The command
 * line, the runner's start and the record are judge_week.c's:
 *
 *   judge-w54 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * Staged: written and tested without a GPU, not yet used by the grader.
 * The cases are test_week54.c's, copied here (the test keeps its tables to
 * itself); the GEMM's checks and timing are judge_bf16gemm.c's, shared with
 * week 55's judge, with the test's tolerance and types from its own
 * phase5/common/bf16_gemm_check.h:
 *   w54.desc        (CPU, also judged without a GPU) the test's four cases:
 *                   the descriptors worked out by hand and the refusals of
 *                   desc_table, desc_advance's table, every 1024-byte tile
 *                   below 2^18 with kk 0..3 and the refusals of
 *                   desc_bf16_sw128, and desc_random's 4 x 20000 fresh
 *                   fields (from the hidden seed) decoded back, advanced,
 *                   then one field broken and refused; every refusal -1
 *                   with the output as the judge set it, NULL outputs -1.
 *                   The functions are pure arithmetic: the runner calls
 *                   them on the judge's scalars and returns their value
 *                   and the output word, which the judge decodes and checks
 *                   (the output starts as the judge's sentinel, sent with
 *                   the call: a runner can only report what a correct
 *                   function would give);
 *   w54.gemm        the 22 shapes (0, 1, odd, off the tile, padded ldc, C
 *                   off its 256-byte boundary, NaN/+-Inf), 6 random shapes
 *                   drawn as the test draws them from the hidden seed, every
 *                   element within bf16_gemm_atol(K) + 1.5e-5 |ref| of the
 *                   product in double, padding and guard bands untouched;
 *                   the 2 large shapes (4096^3, 2049 x 3001 x 4104) on
 *                   inputs from the hidden seed, every element against
 *                   cuBLAS's DGEMM of the same BF16 values (the test samples
 *                   4096 of them); the 8 refusals on real buffers
 *                   (cudaErrorInvalidValue, C untouched) and the 4 empty
 *                   shapes on NULL pointers (cudaSuccess). Without a GPU,
 *                   the refusals and the empty shapes on host buffers
 *                   through a runner that opens none (the test's CPU
 *                   gemm_contract: only its FAIL stands). The test's CPU
 *                   case bf16_rounding checks the test's own bfloat16
 *                   helpers, no student code: nothing to judge;
 *   w54.gemm-speed  wgmma_gemm_bf16 at 4096^3 through the timed-call
 *                   protocol (up to 64 calls a request, each on fresh A and
 *                   B and a poisoned C, every timed C checked in full; the
 *                   median of 7 requests), against cublasGemmEx (BF16 in,
 *                   FP32 compute, TN) timed by the judge through
 *                   judge-w54-yard-runner (instructor code, no student
 *                   object) on the same protocol and checks, before the
 *                   student's runner starts and after, the faster kept;
 *                   TFLOP/s, >= 0.80 cuBLAS. The test's yard_check (cuBLAS's
 *                   TN call against the CPU) checks the yardstick, no student
 *                   code: here every timed cuBLAS output is checked in full.
 * The GPU checkpoints SKIP on a GPU that is not compute capability 9.0,
 * with the test's reason (the kernel is sm_90a code). Every checkpoint of
 * week 54 is judged: none is left to the linked test. Not yet run on a
 * GPU; without a GPU w54.desc is judged and the others SKIP
 * (instructor/tests/judge_w54.sh). */
#include <stdio.h>
#include <string.h>

#include "judge_w54.h"
#include "wb_rand.h"

/* ---------------------------------------------------------------- w54.desc */

#define UNTOUCHED 0x5a5a5a5a5a5a5a5aull

/* One call of a descriptor function through the runner: 0 and *o, or -1 (t says why). */
static int desc_call(jd *J, int which, long long a1, long long a2, long long a3, long long a4, long long a5, int null_out,
                     w54_desc_out *o, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W54_FN_DESC, 1, 0);
    rq.i64[0] = which, rq.i64[1] = a1, rq.i64[2] = a2, rq.i64[3] = a3, rq.i64[4] = a4, rq.i64[5] = a5;
    rq.i64[6] = (long long)UNTOUCHED, rq.i64[7] = null_out;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "wgmma_desc: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *o)
        return jd_failf(t, "wgmma_desc: no answer from the runner (%s)", rp.text), -1;
    memcpy(o, rp.out, sizeof *o);
    return 0;
}

/* The fields of a descriptor, read back bit by bit (the test's decoder). */
typedef struct { uint32_t addr, lbo, sbo; unsigned base; int swizzle; uint64_t rest; } desc_fields;

static desc_fields decode(uint64_t d)
{
    desc_fields f;
    f.addr = (uint32_t)(d & 0x3fff) << 4;
    f.lbo = (uint32_t)(d >> 16 & 0x3fff) << 4;
    f.sbo = (uint32_t)(d >> 32 & 0x3fff) << 4;
    f.base = (unsigned)(d >> 49 & 7);
    f.swizzle = (int)(d >> 62);
    f.rest = d & (3ull << 14 | 3ull << 30 | 7ull << 46 | 0x3ffull << 52);
    return f;
}

/* wgmma_desc_make must give `want` (ok) or refuse with the output untouched: 0 right, 1 wrong, -1 lost. */
static int expect_make(jd *J, jd_tally *t, uint32_t addr, uint32_t lbo, uint32_t sbo, unsigned base, int sw, int ok,
                       uint64_t want)
{
    w54_desc_out o;
    t->tests++;
    if (desc_call(J, W54_DESC_MAKE, addr, lbo, sbo, base, sw, 0, &o, t) != 0) return -1;
    if (ok && (o.ret != 0 || o.desc != want))
        return jd_failf(t, "wgmma_desc_make(addr 0x%x, lbo %u, sbo %u, base %u, swizzle %d): returned %d, descriptor "
                           "0x%016llx, expected 0 and 0x%016llx",
                        addr, lbo, sbo, base, sw, o.ret, (unsigned long long)o.desc, (unsigned long long)want), 1;
    if (!ok && (o.ret != -1 || o.desc != UNTOUCHED))
        return jd_failf(t, "wgmma_desc_make(addr 0x%x, lbo %u, sbo %u, base %u, swizzle %d) must be refused (-1, the "
                           "output untouched): returned %d, output 0x%016llx",
                        addr, lbo, sbo, base, sw, o.ret, (unsigned long long)o.desc), 1;
    return 0;
}

/* desc_table: the descriptors worked out by hand, the refusals, a NULL output. */
static int desc_table(jd *J, jd_tally *t)
{
    static const struct { uint32_t addr, lbo, sbo; unsigned base; int sw, ok; uint64_t want; } T[] = {
        { 0x400, 16, 1024, 0, 1, 1, 0x4000004000010040ull },  { 0, 0, 0, 0, 0, 1, 0 },
        { 0x3fff0, 0x3fff0, 0x3fff0, 7, 3, 1, 0xc00e3fff3fff3fffull },
        { 0x12340, 0x100, 0x2000, 0, 0, 1, 0x0000020000101234ull },
        { 0x1000, 32, 2048, 3, 2, 1, 0x8006008000020100ull }, { 0x40000, 16, 1024, 0, 1, 0, 0 },
        { 0x408, 16, 1024, 0, 1, 0, 0 },                     { 0x400, 24, 1024, 0, 1, 0, 0 },
        { 0x400, 16, 1030, 0, 1, 0, 0 },                      { 0x400, 1u << 18, 1024, 0, 1, 0, 0 },
        { 0x400, 16, 1u << 18, 0, 1, 0, 0 },                  { 0x400, 16, 1024, 8, 1, 0, 0 },
        { 0x400, 16, 1024, 0, 4, 0, 0 },                      { 0x400, 16, 1024, 0, -1, 0, 0 },
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        int r = expect_make(J, t, T[i].addr, T[i].lbo, T[i].sbo, T[i].base, T[i].sw, T[i].ok, T[i].want);
        if (r) return r;
    }
    w54_desc_out o;
    t->tests++;
    if (desc_call(J, W54_DESC_MAKE, 0x400, 16, 1024, 0, 1, 1, &o, t) != 0) return -1;
    if (o.ret != -1) return jd_failf(t, "wgmma_desc_make with desc NULL must return -1 (returned %d)", o.ret), 1;
    return 0;
}

/* desc_advance: the start field alone moves, in 16-byte units, never carrying. */
static int desc_advance(jd *J, jd_tally *t)
{
    const uint64_t d = 0x4000004000010040ull;
    const struct { uint64_t in; uint32_t bytes; int ok; uint64_t want; } T[] = {
        { d, 0, 1, d },
        { d, 32, 1, 0x4000004000010042ull },
        { d, 96, 1, 0x4000004000010046ull },
        { d, 8192, 1, 0x4000004000010240ull },
        { 0xc00e3fff3fff3ff0ull, 0xf0, 1, 0xc00e3fff3fff3fffull },
        { 0xc00e3fff3fff3fffull, 16, 0, 0 },
        { d, 17, 0, 0 },
        { d, 8, 0, 0 },
        { 0x3ff0, 0x400, 0, 0 },
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        w54_desc_out o;
        t->tests++;
        if (desc_call(J, W54_DESC_ADVANCE, (long long)T[i].in, T[i].bytes, 0, 0, 0, 0, &o, t) != 0) return -1;
        if (T[i].ok && (o.ret != 0 || o.desc != T[i].want))
            return jd_failf(t, "wgmma_desc_advance(0x%016llx, %u bytes): returned %d, 0x%016llx, expected 0 and 0x%016llx",
                            (unsigned long long)T[i].in, T[i].bytes, o.ret, (unsigned long long)o.desc,
                            (unsigned long long)T[i].want), 1;
        if (!T[i].ok && (o.ret != -1 || o.desc != UNTOUCHED))
            return jd_failf(t, "wgmma_desc_advance(0x%016llx, %u bytes) must be refused (-1, output untouched): "
                               "returned %d, 0x%016llx",
                            (unsigned long long)T[i].in, T[i].bytes, o.ret, (unsigned long long)o.desc), 1;
    }
    w54_desc_out o;
    t->tests++;
    if (desc_call(J, W54_DESC_ADVANCE, (long long)d, 32, 0, 0, 0, 1, &o, t) != 0) return -1;
    if (o.ret != -1) return jd_failf(t, "wgmma_desc_advance with out NULL must return -1 (returned %d)", o.ret), 1;
    return 0;
}

/* desc_bf16_sw128: every tile and slice, then the refusals. */
static int desc_sw128(jd *J, jd_tally *t)
{
    t->tests++;
    for (uint32_t tile = 0; tile < (1u << 18); tile += 1024)
        for (unsigned kk = 0; kk < 4; kk++) {
            w54_desc_out o;
            if (desc_call(J, W54_DESC_SW128, tile, kk, 0, 0, 0, 0, &o, t) != 0) return -1;
            uint64_t want = 1ull << 62 | 64ull << 32 | 1ull << 16 | (uint64_t)(tile / 16 + 2 * kk);
            if (o.ret != 0 || o.desc != want)
                return jd_failf(t, "wgmma_desc_bf16_sw128(0x%x, %u): returned %d, 0x%016llx, expected 0 and 0x%016llx "
                                   "(LBO 16, SBO 1024, base 0, 128B swizzle, start tile + 32 kk)",
                                tile, kk, o.ret, (unsigned long long)o.desc, (unsigned long long)want), 1;
        }
    static const struct { uint32_t tile; unsigned kk; } bad[] = { { 512, 0 }, { 0x400 + 16, 0 }, { 0, 4 },
                                                                  { 1u << 18, 0 }, { 0x3fc00 + 1024, 1 } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        w54_desc_out o;
        if (desc_call(J, W54_DESC_SW128, bad[i].tile, bad[i].kk, 0, 0, 0, 0, &o, t) != 0) return -1;
        if (o.ret != -1 || o.desc != UNTOUCHED)
            return jd_failf(t, "wgmma_desc_bf16_sw128(0x%x, %u) must be refused (the tile 1024-byte aligned and below "
                               "2^18, kk 0..3): returned %d, 0x%016llx",
                            bad[i].tile, bad[i].kk, o.ret, (unsigned long long)o.desc), 1;
    }
    w54_desc_out o;
    if (desc_call(J, W54_DESC_SW128, 0x400, 0, 0, 0, 0, 1, &o, t) != 0) return -1;
    if (o.ret != -1) return jd_failf(t, "wgmma_desc_bf16_sw128 with desc NULL must return -1 (returned %d)", o.ret), 1;
    return 0;
}

/* desc_random (index i): 20000 fresh fields from the hidden seed, decoded
 * back with every unused bit 0, advanced, then one field broken and refused. */
static int desc_random(jd *J, jd_tally *t, int i)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "w54_desc_random", i);
    t->tests++;
    for (int n = 0; n < 20000; n++) {
        uint32_t addr = 16u * (uint32_t)wb_rng_int(&rng, 0, 0x3fff), lbo = 16u * (uint32_t)wb_rng_int(&rng, 0, 0x3fff),
                 sbo = 16u * (uint32_t)wb_rng_int(&rng, 0, 0x3fff);
        unsigned base = (unsigned)wb_rng_int(&rng, 0, 7);
        int sw = (int)wb_rng_int(&rng, 0, 3);
        w54_desc_out o;
        if (desc_call(J, W54_DESC_MAKE, addr, lbo, sbo, base, sw, 0, &o, t) != 0) return -1;
        desc_fields f = decode(o.desc);
        if (o.ret != 0 || f.addr != addr || f.lbo != lbo || f.sbo != sbo || f.base != base || f.swizzle != sw || f.rest)
            return jd_failf(t, "wgmma_desc_make(addr 0x%x, lbo 0x%x, sbo 0x%x, base %u, swizzle %d) returned %d, "
                               "0x%016llx: that reads back as addr 0x%x, lbo 0x%x, sbo 0x%x, base %u, swizzle %d, "
                               "unused bits 0x%llx",
                            addr, lbo, sbo, base, sw, o.ret, (unsigned long long)o.desc, f.addr, f.lbo, f.sbo, f.base,
                            f.swizzle, (unsigned long long)f.rest), 1;
        const uint64_t d = o.desc;
        uint32_t step = 16u * (uint32_t)wb_rng_int(&rng, 0, 0x3fff - (int64_t)(addr / 16));
        if (desc_call(J, W54_DESC_ADVANCE, (long long)d, step, 0, 0, 0, 0, &o, t) != 0) return -1;
        if (o.ret != 0 || o.desc != d + step / 16)
            return jd_failf(t, "wgmma_desc_advance(0x%016llx, %u) returned %d, 0x%016llx, expected 0x%016llx",
                            (unsigned long long)d, step, o.ret, (unsigned long long)o.desc,
                            (unsigned long long)(d + step / 16)), 1;
        switch (wb_rng_int(&rng, 0, 4)) {
        case 0: addr += (uint32_t)wb_rng_int(&rng, 1, 15); break;
        case 1: lbo = (1u << 18) + 16u * (uint32_t)wb_rng_int(&rng, 0, 1000); break;
        case 2: sbo |= 8; break;
        case 3: base = (unsigned)wb_rng_int(&rng, 8, 1000); break;
        default: sw = wb_rng_int(&rng, 0, 1) ? 4 + (int)wb_rng_int(&rng, 0, 100) : -1; break;
        }
        if (desc_call(J, W54_DESC_MAKE, addr, lbo, sbo, base, sw, 0, &o, t) != 0) return -1;
        if (o.ret != -1 || o.desc != UNTOUCHED)
            return jd_failf(t, "wgmma_desc_make(addr 0x%x, lbo 0x%x, sbo 0x%x, base %u, swizzle %d) breaks a rule and "
                               "must return -1 with the output untouched: returned %d, 0x%016llx",
                            addr, lbo, sbo, base, sw, o.ret, (unsigned long long)o.desc), 1;
    }
    return 0;
}

/* The four, in the test's order; each runs to its first failure, as a test does. */
static void judge_desc(jd *J, jd_tally *t)
{
    if (desc_table(J, t) < 0 || desc_advance(J, t) < 0 || desc_sw128(J, t) < 0) return;
    for (int i = 0; i < 4; i++)
        if (desc_random(J, t, i) < 0) return;
}

static void judge_desc_gpu(jd_ck *k) { judge_desc(k->J, k->t); }

/* ---------------------------------------------------------------- w54.gemm, w54.gemm-speed */

/* test_week54.c's SHAPES and LARGE (M, N, K, pad, off, special); its
 * REFUSED is judge_bf16gemm.c's bg_refused. */
static const bf16_gemm_shape SHAPES[] = {
    { 1, 1, 8, 0, 0, 0, 0 },       { 0, 5, 8, 0, 0, 0, 0 },       { 5, 0, 8, 0, 0, 0, 0 },
    { 5, 7, 0, 3, 1, 0, 0 },       { 1, 1, 0, 0, 0, 0, 0 },       { 3, 5, 8, 1, 1, 0, 0 },
    { 8, 8, 8, 0, 0, 0, 0 },       { 64, 64, 64, 0, 0, 0, 0 },    { 127, 129, 72, 0, 0, 0, 0 },
    { 128, 256, 64, 0, 0, 0, 0 },  { 129, 257, 136, 2, 0, 0, 0 }, { 255, 256, 1000, 0, 1, 0, 0 },
    { 256, 255, 256, 1, 0, 0, 0 }, { 257, 511, 64, 0, 0, 0, 0 },  { 1, 257, 264, 0, 0, 0, 0 },
    { 1000, 1000, 96, 0, 3, 0, 0 }, { 64, 4096, 8, 0, 0, 0, 0 },  { 4096, 64, 128, 0, 0, 0, 0 },
    { 130, 260, 200, 0, 2, 0, 0 }, { 300, 300, 4096, 5, 0, 0, 0 },
    { 128, 256, 128, 0, 0, 1, 0 }, { 77, 300, 56, 3, 1, 1, 0 },
};
static const bf16_gemm_shape LARGE[] = { { 4096, 4096, 4096, 0, 0, 0, 0 }, { 2049, 3001, 4104, 0, 0, 0, 0 } };

/* test_week54.c's gemm_random: M, N 1..600, K 8..480 in steps of 8, pad and C's offset 0..3. */
static bf16_gemm_shape random_shape(wb_rng *r, int i)
{
    bf16_gemm_shape s = { (int)wb_rng_int(r, 1, 600), (int)wb_rng_int(r, 1, 600), 8 * (int)wb_rng_int(r, 1, 60),
                          (int)wb_rng_int(r, 0, 3), (int)wb_rng_int(r, 0, 3), 0, 0 };
    (void)i;
    return s;
}

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

static const bg_week W54 = { "wgmma_gemm_bf16", NULL, "w54", W54_YARD_RUNNER, "wgmma_gemm (wgmma, TMA, setmaxnreg)",
                             SHAPES, COUNT(SHAPES), 6, random_shape, LARGE, COUNT(LARGE), bg_refused, BG_N_REFUSED_TMA };

static const jd_checkpoint CPS[] = {
    { "w54.desc", judge_desc_gpu, judge_desc, 1, 0, NULL },
    { "w54.gemm", bg_gemm_ck, bg_contract_ck, 0, 0, NULL },
    { "w54.gemm-speed", bg_speed_ck, NULL, 0, 0, bg_before },
};

int main(int argc, char **argv)
{
    bg_use(&W54);
    return jd_week_main(argc, argv, "judge-w54", "phase5/week54", CPS, COUNT(CPS));
}
