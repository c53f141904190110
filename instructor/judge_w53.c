/* judge_w53.c — build/instructor/judge-w53: week 53's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (no JUDGED_WEEKS line, no
 * JUDGES row: the grader grades the week with its linked test until this
 * has run on a GPU; README.md's week 53 entry has the commands). It links
 * no student code: the student's tma_box.o and tma_copy.o (sm_90a code, as
 * the week's rules build them) are linked into the runner
 * (judge_w53_runner.c), which this process starts (or is handed) and asks
 * to call them on what it sends (judge.h). It poisons, fills, times and
 * checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record, the guarded
 * buffers, the timed-call protocol and the COPY yardstick are
 * judge_week.c's:
 *
 *   judge-w53 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week53.c's. Its case tables and its reference of
 * TMA's rules are static there (the test has no header of its own to
 * share), so they are copied below; the copy's values, the special bit
 * patterns and the empty shapes come from phase5/common/tma_copy_check.h,
 * which the test includes too; the copy's checks on guarded buffers are
 * judge_tma_copy.c's, shared with week 56's judge. Cases are drawn from
 * the hidden seed with this judge's own tags, not as the test draws them.
 *   w53.box          tma_box_plan, a CPU function: the runner calls it on
 *                    the scalars sent, over a plan of 0x5A bytes, and
 *                    returns the status and the plan as it left them. The
 *                    test's 31 shapes (valid ones and each breaking one rule,
 *                    the answer spelled in the table and the judge's own
 *                    reference held to it, with the test's numbers by hand),
 *                    then its random draw (4 x 2000 valid shapes, each also
 *                    broken in one rule), every status and every field of
 *                    the plan against the reference, a refused plan left
 *                    untouched. Stricter than the test where tma_box.h's
 *                    contract says so: 9 shapes of the judge's own (a row
 *                    stride whose product wraps 64 bits, an element size
 *                    or a box that only a narrowing cast makes valid, a
 *                    negative swizzle, a 2^32-column matrix) and, with each
 *                    random shape, the same broken in two rules at once (the
 *                    first broken in tma_box.h's order is the answer).
 *                    Judged with or without a GPU (the runner then opens
 *                    none): its PASS stands without one, as the test's;
 *   w53.tma-copy     tma_copy_f32's contract first, on addresses that are
 *                    never dereferenced (the test's copy_contract: its 6
 *                    refused shapes, 2^31 rows, (2^31 - 1)^2, and the empty
 *                    shapes on NULL pointers; and 3 of the judge's own:
 *                    2^31 columns, a row stride of 2^40 bytes, an ld that
 *                    breaks two rules; the strides that wrap 64 bits are
 *                    w53.box's, not sent here, where a plan that let one
 *                    through could have the kernel fault on an address
 *                    that is not memory and end the runner's context): cudaErrorInvalidValue, or
 *                    cudaSuccess for the empty ones; through the runner,
 *                    also without a GPU, where its failure stands. On a
 *                    compute capability 9.0 GPU then the test's 20 shapes
 *                    (1 x 1 to 3001 x 5003 and 2097153 x 4, 65537 boxes
 *                    down), its 2 of NaN payloads, Inf, -0 and denormals and
 *                    8 random ones (rows and cols 1..700, padded row
 *                    strides, every other one with the specials), every
 *                    element of dst, padding included, the source's bits or
 *                    still the poison, nothing written outside dst (a
 *                    poisoned band each side); the 3 empty shapes on real
 *                    buffers (cudaSuccess, nothing written); the 6 refused
 *                    shapes on real buffers (cudaErrorInvalidValue, dst
 *                    untouched). On another GPU those are SKIP with the
 *                    test's reason (sm_90a code loads nowhere else);
 *   w53.tma-copy-bw  tma_copy_f32 on the test's matrix (wb_bench_bytes() /
 *                    4 / 8192 rows x 8192 floats, dense rows) through the
 *                    timed-call protocol (up to 64 calls a request, each on
 *                    its own source and a poisoned destination, fresh
 *                    inputs from the hidden seed every request, the judge's
 *                    look bit for bit, then every element of every timed
 *                    output checked bit for bit by the judge's kernel
 *                    (jd_perm_check_f32 as the identity); the median of 7
 *                    requests), 8 bytes an element against COPY timed
 *                    through the same protocol by the yard runner (before
 *                    the student's runner starts and after, the larger);
 *                    the target from week.txt (0.88 COPY). SKIP on a GPU
 *                    other than 9.0, as the test's.
 * The week's benchmark `clip` (the given store-clipping probe) is a report,
 * no checkpoint. Every checkpoint of week 53 is judged: none is left to
 * the linked test. Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS, the starter FAIL. Without a GPU every checkpoint is
 * SKIP but w53.box (PASS or FAIL) and w53.tma-copy's contract, whose
 * failure stands (instructor/tests/judge_w53.sh). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "judge_kernels.h"
#include "judge_week.h"
#include "tma_box.h"
#include "judge_tma_copy.h" /* the copy checks shared with week 56's judge (phase5/common/tma_copy_check.h's values) */
#include "judge_w53.h"
#include "wb_bench.h"
#include "wb_cuda.h"
#include "wb_rand.h"

#define TIMED 7
#define LO    (-1.0f) /* the benchmark's inputs, as test_week53.c fills them */
#define HI    1.0f
#define COUNT(a) (sizeof(a) / sizeof *(a))

/* ---------------------------------------------------------------- w53.box (CPU) */

/* test_week53.c's reference, copied: TMA's rules in tma_box.h's order, the plan from them. */
static tma_status ref_plan(uintptr_t base, uint64_t rows, uint64_t cols, uint64_t ld, uint64_t eb, unsigned br,
                           unsigned bc, int sw, tma_plan *p)
{
    if (!(eb == 1 || eb == 2 || eb == 4 || eb == 8) || !(sw == 0 || sw == 32 || sw == 64 || sw == 128))
        return TMA_ERR_ARG;
    if (!rows || !cols) return TMA_EMPTY;
    if (cols > ld) return TMA_ERR_LD;
    if (base % 16) return TMA_ERR_ALIGN;
    if (rows > (1ull << 32) || cols > (1ull << 32)) return TMA_ERR_DIM;
    unsigned __int128 stride = (unsigned __int128)ld * eb; /* no wrap in the reference */
    if (stride % 16 || stride >= ((unsigned __int128)1 << 40)) return TMA_ERR_STRIDE;
    if (br < 1 || br > 256 || bc < 1 || bc > 256) return TMA_ERR_BOX;
    if ((bc * eb) % 16) return TMA_ERR_BOX_INNER;
    if (sw && bc * eb > (uint64_t)sw) return TMA_ERR_SWIZZLE;
    memset(p, 0, sizeof *p);
    p->global_dim[0] = cols, p->global_dim[1] = rows;
    p->global_stride[0] = (uint64_t)stride;
    p->box_dim[0] = bc, p->box_dim[1] = br;
    p->element_stride[0] = p->element_stride[1] = 1;
    p->box_bytes = (uint32_t)(bc * eb * br);
    p->smem_align = sw ? 8u * (uint32_t)sw : 128u;
    p->boxes[0] = (cols + bc - 1) / bc, p->boxes[1] = (rows + br - 1) / br;
    return TMA_OK;
}

static const char *status_name(int s)
{
    static const char *names[] = { "TMA_OK", "TMA_ERR_ARG", "TMA_EMPTY", "TMA_ERR_LD", "TMA_ERR_ALIGN", "TMA_ERR_DIM",
                                   "TMA_ERR_STRIDE", "TMA_ERR_BOX", "TMA_ERR_BOX_INNER", "TMA_ERR_SWIZZLE" };
    return s >= 0 && s < (int)COUNT(names) ? names[s] : "(not a tma_status)";
}

typedef struct {
    uintptr_t base;
    uint64_t  rows, cols, ld, eb;
    unsigned  br, bc;
    int       sw;
} box_case;

#define B0 0x7f0000000000ull /* 16-byte aligned */

/* test_week53.c's box_table, copied: valid shapes and shapes breaking one rule, the answer spelled. */
static const struct {
    box_case   c;
    tma_status want;
} BOX_TABLE[] = {
    { { B0, 1, 1, 4, 4, 128, 32, 128 }, TMA_OK },
    { { B0, 129, 33, 36, 4, 128, 32, 128 }, TMA_OK },
    { { B0, 4096, 4096, 4096, 4, 128, 32, 128 }, TMA_OK },
    { { B0, 1000, 1000, 1000, 2, 64, 64, 128 }, TMA_OK },
    { { B0, 7, 5, 16, 1, 256, 256, 0 }, TMA_OK },
    { { B0, 3, 3, 4, 8, 8, 16, 128 }, TMA_OK },
    { { B0, 1ull << 32, 8, 8, 4, 1, 16, 64 }, TMA_OK },
    { { B0, 5, 5, 8, 4, 16, 8, 32 }, TMA_OK },
    { { B0, 12800, 8192, 8192, 4, 32, 256, 0 }, TMA_OK },
    { { B0, 4097, 2049, 2056, 4, 32, 256, 0 }, TMA_OK },
    { { B0, 8, 8, 8, 3, 8, 16, 0 }, TMA_ERR_ARG },
    { { B0, 8, 8, 8, 4, 8, 16, 16 }, TMA_ERR_ARG },
    { { B0, 0, 8, 8, 4, 8, 16, 0 }, TMA_EMPTY },
    { { B0, 8, 0, 8, 4, 8, 16, 0 }, TMA_EMPTY },
    { { 0, 0, 0, 0, 4, 128, 32, 128 }, TMA_EMPTY },
    { { B0, 8, 9, 8, 4, 8, 16, 0 }, TMA_ERR_LD },
    { { B0 + 4, 8, 8, 8, 4, 8, 16, 0 }, TMA_ERR_ALIGN },
    { { B0 + 8, 8, 8, 8, 4, 8, 16, 0 }, TMA_ERR_ALIGN },
    { { B0, (1ull << 32) + 1, 8, 8, 4, 8, 16, 0 }, TMA_ERR_DIM },
    { { B0, 8, 5, 5, 4, 8, 16, 0 }, TMA_ERR_STRIDE },
    { { B0, 8, 6, 6, 4, 8, 16, 0 }, TMA_ERR_STRIDE },
    { { B0, 8, 8, 1ull << 38, 4, 8, 16, 0 }, TMA_ERR_STRIDE },
    { { B0, 8, 8, 8, 4, 0, 16, 0 }, TMA_ERR_BOX },
    { { B0, 8, 8, 8, 4, 257, 16, 0 }, TMA_ERR_BOX },
    { { B0, 8, 8, 16, 1, 8, 272, 0 }, TMA_ERR_BOX },
    { { B0, 8, 8, 8, 4, 8, 6, 0 }, TMA_ERR_BOX_INNER },
    { { B0, 8, 8, 8, 4, 8, 1, 0 }, TMA_ERR_BOX_INNER },
    { { B0, 8, 8, 8, 4, 8, 64, 128 }, TMA_ERR_SWIZZLE },
    { { B0, 8, 8, 8, 4, 8, 16, 32 }, TMA_ERR_SWIZZLE },
    { { B0, 8, 8, 8, 2, 8, 64, 64 }, TMA_ERR_SWIZZLE },
    { { B0, 12800, 8192, 8192, 4, 32, 256, 128 }, TMA_ERR_SWIZZLE },
    /* the judge's own (tma_box.h's contract; the test has none of these) */
    { { B0, 8, 8, 1ull << 62, 4, 8, 16, 0 }, TMA_ERR_STRIDE },           /* ld * 4 = 2^64: wraps to 0 */
    { { B0, 8, 8, (1ull << 62) + 4, 4, 8, 16, 0 }, TMA_ERR_STRIDE },     /* wraps to 16 */
    { { B0, 8, 8, 1ull << 61, 8, 8, 16, 0 }, TMA_ERR_STRIDE },           /* 8-byte elements: wraps to 0 */
    { { B0, 8, 8, 8, (1ull << 32) + 4, 8, 16, 0 }, TMA_ERR_ARG },        /* 4 only when narrowed to 32 bits */
    { { B0, 8, 8, 8, 4, 0xFFFFFFFFu, 16, 0 }, TMA_ERR_BOX },             /* -1 as an int */
    { { B0, 8, 8, 8, 4, 8, 0x80000010u, 0 }, TMA_ERR_BOX },              /* 16 in the low bits */
    { { B0, 8, 8, 8, 4, 8, 16, -128 }, TMA_ERR_ARG },                    /* a negative swizzle */
    { { B0, 1, 1ull << 32, 1ull << 32, 4, 1, 16, 0 }, TMA_OK },          /* the widest row TMA takes */
    { { B0, 3, (1ull << 32) + 1, (1ull << 32) + 4, 4, 8, 16, 0 }, TMA_ERR_DIM },
};
#define N_BOX_TEST 31 /* the first 31 rows are the test's */

/* The runner's tma_box_plan on c: its status and the plan as it left it
 * over W53_PLAN_FILL bytes. 0, or -1 (t failed: the runner is lost or could
 * not call it). */
static int box_call(jd *J, const box_case *c, int *status, tma_plan *got, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W53_FN_BOX, 1, 0);
    rq.i64[0] = (long long)c->base, rq.i64[1] = (long long)c->rows, rq.i64[2] = (long long)c->cols;
    rq.i64[3] = (long long)c->ld, rq.i64[4] = (long long)c->eb, rq.i64[5] = c->br, rq.i64[6] = c->bc;
    rq.i64[7] = c->sw;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "tma_box_plan: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != W53_BOX_REPLY)
        return jd_failf(t, "tma_box_plan: the runner could not call it (%s)", rp.text), -1;
    int32_t s;
    memcpy(&s, rp.out, 4);
    memcpy(got, rp.out + 4, sizeof *got);
    *status = s;
    return 0;
}

/* test_week53.c's check_box: the status and, on TMA_OK, every field must
 * agree with the reference; a refused plan must be untouched. 0 (checked:
 * 1 in *wrong when it failed), or -1 (the runner is lost). */
static int check_box(jd *J, const box_case *c, const char *what, int *wrong, jd_tally *t)
{
    tma_plan want, got, before;
    tma_status ws = ref_plan(c->base, c->rows, c->cols, c->ld, c->eb, c->br, c->bc, c->sw, &want);
    int gs;
    memset(&before, W53_PLAN_FILL, sizeof before);
    t->tests++;
    *wrong = 1;
    if (box_call(J, c, &gs, &got, t) != 0) return -1;
    char desc[300];
    snprintf(desc, sizeof desc, "%s: base 0x%llx, %llu x %llu, ld %llu, %llu-byte elements, box %u x %u, swizzle %d",
             what, (unsigned long long)c->base, (unsigned long long)c->rows, (unsigned long long)c->cols,
             (unsigned long long)c->ld, (unsigned long long)c->eb, c->br, c->bc, c->sw);
    if (gs != (int)ws) return jd_failf(t, "%s: %s, expected %s", desc, status_name(gs), status_name(ws)), 0;
    if (ws != TMA_OK) {
        if (memcmp(&got, &before, sizeof got) != 0)
            return jd_failf(t, "%s: refused (%s), but *p was written", desc, status_name(gs)), 0;
        *wrong = 0;
        return 0;
    }
#define FIELD(f)                                                                                                   \
    if (got.f != want.f)                                                                                           \
        return jd_failf(t, "%s: " #f " = %llu, expected %llu", desc, (unsigned long long)got.f,                    \
                        (unsigned long long)want.f),                                                               \
               0
    FIELD(global_dim[0]);
    FIELD(global_dim[1]);
    FIELD(global_stride[0]);
    FIELD(box_dim[0]);
    FIELD(box_dim[1]);
    FIELD(element_stride[0]);
    FIELD(element_stride[1]);
    FIELD(box_bytes);
    FIELD(smem_align);
    FIELD(boxes[0]);
    FIELD(boxes[1]);
#undef FIELD
    *wrong = 0;
    return 0;
}

/* The judge's reference held to the test's table and its numbers by hand. */
static int ref_ok(jd_tally *t)
{
    tma_plan p;
    for (size_t i = 0; i < COUNT(BOX_TABLE); i++) {
        const box_case *c = &BOX_TABLE[i].c;
        if (ref_plan(c->base, c->rows, c->cols, c->ld, c->eb, c->br, c->bc, c->sw, &p) != BOX_TABLE[i].want)
            return jd_failf(t, "the judge's own reference disagrees with its table at row %zu: the judge is broken", i),
                   0;
    }
    int ok = ref_plan(B0, 129, 33, 36, 4, 128, 32, 128, &p) == TMA_OK && p.global_dim[0] == 33 &&
             p.global_dim[1] == 129 && p.global_stride[0] == 144 && p.box_dim[0] == 32 && p.box_dim[1] == 128 &&
             p.box_bytes == 16384 && p.smem_align == 1024 && p.boxes[0] == 2 && p.boxes[1] == 2;
    ok = ok && ref_plan(B0, 12800, 8192, 8192, 4, 32, 256, 0, &p) == TMA_OK && p.box_dim[0] == 256 &&
         p.box_dim[1] == 32 && p.box_bytes == 32768 && p.smem_align == 128 && p.boxes[0] == 32 && p.boxes[1] == 400;
    if (!ok) jd_failf(t, "the judge's own reference misses the test's numbers by hand: the judge is broken");
    return ok;
}

/* One rule of c broken (test_week53.c's box_random, its eight ways; k picks the way). */
static void break_rule(wb_rng *rng, int k, const box_case *c, box_case *b)
{
    const uint64_t per16 = 16 / c->eb;
    switch (k) {
    case 0: b->base += (uintptr_t)wb_rng_int(rng, 1, 15); break;
    case 1: b->ld = c->cols - (uint64_t)wb_rng_int(rng, 1, (int64_t)c->cols); break;
    case 2: b->ld = c->ld + (uint64_t)wb_rng_int(rng, 1, (int64_t)per16 - 1); break;
    case 3: b->br = (unsigned)wb_rng_int(rng, 257, 100000); break;
    case 4: b->bc = (unsigned)(16 / c->eb) - 1; break;
    case 5: b->rows = 0; break;
    case 6: b->cols = ((uint64_t)1 << 32) + (uint64_t)wb_rng_int(rng, 1, 1000), b->ld = b->cols + 16; break;
    default: b->sw = c->sw ? c->sw / 2 : 48; break;
    }
}

/* test_week53.c's box_random, draw i: 2000 valid shapes, each also broken
 * in one rule; and (the judge's own) in two rules at once. Stops at the
 * first wrong answer, as the test's assertion does. */
static int box_random(jd *J, int i, jd_tally *t)
{
    static const int SW[] = { 0, 32, 64, 128 };
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w53_box_random", i);
    int wrong = 0;
    for (int k = 0; k < 2000 && !wrong; k++) {
        box_case c;
        c.eb = 1ull << wb_rng_int(&rng, 0, 3);
        c.sw = SW[wb_rng_int(&rng, 0, 3)];
        uint64_t span = c.sw ? (uint64_t)c.sw : 256 * c.eb;
        if (span > 256 * c.eb) span = 256 * c.eb;
        uint64_t chunks = span / 16;
        c.bc = (unsigned)((uint64_t)wb_rng_int(&rng, 1, (int64_t)chunks) * 16 / c.eb);
        c.br = (unsigned)wb_rng_int(&rng, 1, 256);
        int big = wb_rng_int(&rng, 0, 9) == 0;
        c.rows = (uint64_t)wb_rng_int(&rng, 1, big ? (int64_t)1 << 32 : 5000);
        c.cols = (uint64_t)wb_rng_int(&rng, 1, big ? (int64_t)1 << 24 : 5000);
        uint64_t per16 = 16 / c.eb;
        c.ld = (c.cols + per16 - 1) / per16 * per16 + per16 * (uint64_t)wb_rng_int(&rng, 0, 3);
        c.base = (uintptr_t)(0x10000ull + 16ull * (uint64_t)wb_rng_int(&rng, 0, 1 << 20));
        if (check_box(J, &c, "random valid", &wrong, t) != 0) return -1;
        if (wrong) break;
        box_case b = c;
        break_rule(&rng, (int)wb_rng_int(&rng, 0, 7), &c, &b);
        if (check_box(J, &b, "random, one rule broken", &wrong, t) != 0) return -1;
        if (wrong) break;
        int k1 = (int)wb_rng_int(&rng, 0, 7), k2 = (int)wb_rng_int(&rng, 0, 6);
        k2 += k2 >= k1;
        box_case b2 = c;
        break_rule(&rng, k1, &c, &b2);
        box_case c2 = b2;
        break_rule(&rng, k2, &c2, &b2);
        if (check_box(J, &b2, "random, two rules broken (the first in tma_box.h's order is the answer)", &wrong, t) != 0)
            return -1;
    }
    return 0;
}

static void judge_box(jd *J, jd_tally *t)
{
    if (!ref_ok(t)) return;
    int wrong = 0;
    for (size_t i = 0; i < COUNT(BOX_TABLE) && !wrong; i++) {
        char what[48];
        snprintf(what, sizeof what, "%s %zu", i < N_BOX_TEST ? "case" : "the judge's case", i);
        if (check_box(J, &BOX_TABLE[i].c, what, &wrong, t) != 0) return;
    }
    for (int i = 0; i < 4; i++)
        if (box_random(J, i, t) != 0) return;
}

static void judge_box_gpu(jd_ck *k) { judge_box(k->J, k->t); }

/* ---------------------------------------------------------------- w53.tma-copy */

/* test_week53.c's SHAPES, its specials' shapes and its REFUSED, copied. */
static const tma_copy_shape SHAPES[] = {
    { 1, 1, 0, 0 },      { 1, 4, 0, 0 },      { 3, 5, 0, 4 },      { 2, 7, 8, 0 },      { 31, 33, 0, 0 },
    { 128, 32, 0, 0 },   { 129, 33, 4, 12 },  { 127, 31, 0, 0 },   { 256, 64, 0, 0 },   { 257, 1000, 0, 4 },
    { 1000, 257, 4, 0 }, { 2, 1025, 0, 0 },   { 1025, 3, 4, 4 },   { 513, 4099, 0, 0 }, { 4097, 2049, 4, 8 },
    { 3001, 5003, 0, 0 }, { 32, 256, 0, 0 },  { 33, 260, 0, 0 },   { 65, 513, 4, 8 },   { 2097153, 4, 0, 0 },
};
static const tma_copy_shape SPECIAL_SHAPES[] = { { 77, 45, 0, 4 }, { 300, 129, 4, 0 } };
#define N_RANDOM 8
#define RANDOM_MAX 700 /* rows and cols of a random shape, pads 0..12 */

typedef struct {
    size_t      rows, cols, ld_src, ld_dst, off_src, off_dst; /* offsets in floats */
    const char *why;
} refused_case;

static const refused_case REFUSED[] = {
    { 8, 8, 8, 8, 1, 0, "src one float past a 16-byte boundary" },
    { 8, 8, 8, 8, 0, 2, "dst two floats past a 16-byte boundary" },
    { 8, 5, 5, 8, 0, 0, "ld_src 5 floats: a 20-byte row stride" },
    { 8, 6, 8, 6, 0, 0, "ld_dst 6 floats: a 24-byte row stride" },
    { 8, 8, 4, 8, 0, 0, "ld_src below cols" },
    { 8, 9, 12, 8, 0, 0, "ld_dst below cols" },
};

/* The contract's further refusals (the test's two, then the judge's own):
 * rows, cols, ld_src, ld_dst on 16-byte aligned addresses never dereferenced. */
static const refused_case REFUSED_BIG[] = {
    { (size_t)1 << 31, 4, (size_t)1 << 31, (size_t)1 << 31, 0, 0, "2^31 rows: TMA's coordinates are 32-bit signed" },
    { INT32_MAX, INT32_MAX, (size_t)1 << 31, (size_t)1 << 31, 0, 0,
      "(2^31 - 1) x (2^31 - 1): 2^49 boxes, past a 1-D grid" },
    { 4, (size_t)1 << 31, (size_t)1 << 31, (size_t)1 << 31, 0, 0, "2^31 cols: TMA's coordinates are 32-bit signed" },
    { 8, 8, (size_t)1 << 38, 8, 0, 0, "ld_src 2^38 floats: a row stride of 2^40 bytes" },
    { 8, 8, 6, 4, 0, 0, "ld_src below cols and not a multiple of 4 floats" },
};

#define A0 0x7f0000000000ull /* the contract's addresses: 16-byte aligned, never dereferenced */

/* tma_copy_f32 as its runner calls it (judge_tma_copy.h): one copy. */
static const jt_call COPY_CALL = { W53_FN_COPY, 1, 0, 0, "tma_copy_f32", "tma_copy_f32" };

/* test_week53.c's copy_contract (and the judge's own refusals): refused
 * shapes refused before any CUDA call, the empty ones accepted on NULL
 * pointers. Runs on either kind of runner (no buffer is sent). */
static void contract(jd *J, jd_tally *t)
{
    int s;
    for (size_t i = 0; i < COUNT(REFUSED) + COUNT(REFUSED_BIG) && !J->lost; i++) {
        const refused_case *c = i < COUNT(REFUSED) ? &REFUSED[i] : &REFUSED_BIG[i - COUNT(REFUSED)];
        t->tests++;
        if (jt_raw(J, &COPY_CALL, A0 + 4 * c->off_src, c->ld_src, A0 + 65536 + 4 * c->off_dst, c->ld_dst, c->rows,
                   c->cols, &s, t) != 0)
            return;
        if (s != (int)cudaErrorInvalidValue)
            jd_failf(t, "%s: must be refused with cudaErrorInvalidValue, got %s", c->why, jt_status(s));
    }
    jt_empty_host(J, &COPY_CALL, t);
}

/* Compute capability 9.0 (the sm_90a kernel loads nowhere else): 1, or 0
 * with t SKIP and the test's reason. */
static int on_sm90(jd_tally *t)
{
    struct cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    if (cudaGetDeviceProperties(&p, jd_dev) == cudaSuccess && p.major == 9 && p.minor == 0) return 1;
    t->skipped++;
    if (!t->msg[0])
        snprintf(t->msg, sizeof t->msg,
                 "tma_copy (cp.async.bulk.tensor, mbarriers) is sm_90a code, which loads only on a compute capability "
                 "9.0 GPU (H100, H200); this one is %d.%d", p.major, p.minor);
    return 0;
}

/* test_week53.c's copy_refused on real buffers: the error, dst untouched. */
static int refused_cases(jd *J, jt_room *R, jd_tally *t)
{
    for (size_t i = 0; i < COUNT(REFUSED); i++) {
        const refused_case *c = &REFUSED[i];
        t->tests++;
        if (jt_poison(R, 4096, c->why, t) != 0) return -1;
        int r = jt_refused(J, R, &COPY_CALL, c->rows, c->cols, c->ld_src, c->ld_dst, c->off_src, c->off_dst, c->why, t);
        if (r < 0) return -1;
        if (r == 0 && jt_untouched(R, 4096, c->why, t) != 0) return -1;
    }
    return 0;
}

static void judge_copy(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    contract(J, t);
    if (J->lost || !on_sm90(t)) return;
    jt_room R = { .src_cap = 4096, .dst_cap = 4096 };
    tma_copy_shape biggest = { RANDOM_MAX, RANDOM_MAX, 12, 12 };
    jt_fit(biggest, 1, &R.src_cap, &R.dst_cap);
    for (size_t i = 0; i < COUNT(SHAPES); i++) jt_fit(SHAPES[i], 1, &R.src_cap, &R.dst_cap);
    for (size_t i = 0; i < COUNT(SPECIAL_SHAPES); i++) jt_fit(SPECIAL_SHAPES[i], 1, &R.src_cap, &R.dst_cap);
    if (jt_room_open(J, &R, t) != 0) goto out;
    for (size_t i = 0; i < COUNT(SHAPES); i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w53_copy_shapes", (int)i);
        if (jt_case(J, &R, &COPY_CALL, &rng, SHAPES[i], 0, t) != 0) goto out;
    }
    for (size_t i = 0; i < COUNT(SPECIAL_SHAPES); i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w53_copy_specials", (int)i);
        if (jt_case(J, &R, &COPY_CALL, &rng, SPECIAL_SHAPES[i], 1, t) != 0) goto out;
    }
    for (int i = 0; i < N_RANDOM; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w53_copy_random", i);
        tma_copy_shape s = { (size_t)wb_rng_int(&rng, 1, RANDOM_MAX), (size_t)wb_rng_int(&rng, 1, RANDOM_MAX),
                             4 * (size_t)wb_rng_int(&rng, 0, 3), 4 * (size_t)wb_rng_int(&rng, 0, 3) };
        if (jt_case(J, &R, &COPY_CALL, &rng, s, i & 1, t) != 0) goto out;
    }
    if (jt_empty(J, &R, &COPY_CALL, t) != 0) goto out;
    refused_cases(J, &R, t);
out:
    jt_room_close(J, &R);
}

/* ---------------------------------------------------------------- w53.tma-copy-bw */

/* dst = src bit for bit: element i is the fill's value at i. */
static float copy_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    return wb_hash_uniform_f32(seed[0], i, b->lo, b->hi);
}

/* Every element of a timed output, bit for bit: the identity permutation of
 * jd_perm_check_f32 (R = n, S = 1: (i % n) * 1 + i / n = i). */
static int copy_full_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                           unsigned long long h[2])
{
    return jd_full_check_done(jd_perm_check_f32(out, b->n, seed[0], b->lo, b->hi, b->n, 1, bad, jd_stream), bad, h);
}

static jd_bench g_bench; /* large: its sample arrays */

/* w53.tma-copy-bw: the test's rows x 8192 matrix, dense rows, 8 bytes an
 * element against COPY, both by the judge's clock. */
static void judge_copy_bw(jd_ck *k)
{
    if (!on_sm90(k->t)) return;
    const size_t cols = 8192, rows = wb_bench_bytes() / 4 / cols;
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.fn = W53_FN_COPY, g_bench.n_in = 1, g_bench.max_k = JD_BENCH_MAX_K, g_bench.n = rows * cols;
    g_bench.lo = LO, g_bench.hi = HI, g_bench.atol = JD_BITWISE, g_bench.rtol = 0;
    g_bench.i64[1] = (long long)cols, g_bench.i64[2] = (long long)cols, g_bench.i64[3] = (long long)rows;
    g_bench.i64[4] = (long long)cols;
    g_bench.fn_name = "tma_copy_f32", g_bench.out_name = "dst";
    g_bench.expect = copy_expect, g_bench.full_check = copy_full_check;
    jd_bw_checkpoint(k, &g_bench, TIMED, 8.0, "tma_copy");
}

static const jd_checkpoint CPS[] = {
    { "w53.box", judge_box_gpu, judge_box, 1, 0 },
    { "w53.tma-copy", judge_copy, contract, 0, 0 },
    { "w53.tma-copy-bw", judge_copy_bw, NULL, 0, 8 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w53", "phase5/week53", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
