/* judge_w62.c — build/instructor/judge-w62: week 62's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (the week is graded with its
 * linked test until this judge has run on a GPU). It links no student code:
 * the student's fa3_fwd.o is linked into the runner (judge_w62_runner.c),
 * which this process starts (or is handed) and asks to call fa3_fwd or
 * fa3_fwd_desc on what it sent (judge.h). It poisons, fills, times and
 * checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record, the guarded
 * buffers, the timed-call protocol are judge_week.c's:
 *
 *   judge-w62 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * fa3_fwd has week 38's contract (D 128 alone), so the attention calls,
 * checks and timing are week 38's judge's (judge_attn.c): its reference in
 * double on the host and on the GPU (judge_w38_kernels.cu, linked here
 * too), its tolerances and draw (phase6/week38/w38_checks.h, which
 * test_week62.c's ref_row, ATOL, RTOL, ATOL_BIG_LOGITS, LSE_RTOL, lse_atol
 * and draw_bf16 are copies of), its yard runner (judge-w38-yard-runner:
 * cuDNN's fused attention through the phase's given
 * phase6/common/cudnn-frontend/yard_sdpa_cudnn.cu, the yardstick
 * test_week62.c times). Week 62's own: the test's CASES, fwd_long rows and
 * fwd_args calls, and its descriptor checks, are copied here (they sit in
 * test_week62.c, which has no shared header); each case is drawn as the
 * test draws it for the seed (wb_rng_for_seed with the test's tags
 * "fwd_cases_fn" and "fwd_long_fn", week 38's W38_CASES_TAG and
 * W38_LONG_TAG, since the two tests name their tests alike: the test's
 * inputs for the same seed;
 * the reference with the test's double scale, the call given it as a float).
 *   w62.desc       (CPU, also judged without a GPU) the test's desc_values:
 *                  fa3_fwd_desc for both operands, every k16 step kk 0..7
 *                  at six tile addresses (0 to 2^18 - 32 KiB), against the
 *                  descriptor assembled field by field (start, LBO, SBO in
 *                  16-byte units, swizzle 128B); and its desc_refused: a
 *                  NULL desc, operand 2 and -1, kk 8 and -1, a tile at 512,
 *                  a tile past 2^18 - 32 KiB, each -1 with the output
 *                  untouched;
 *   w62.fwd        on a compute capability 9.0 GPU (else SKIP with the
 *                  test's reason: sm_90a code): the test's 21 cases (S 1 to
 *                  1000, D 128, causal and not, scale 1 with logits near
 *                  1e4), every element of O and every lse against the double
 *                  reference on the host; its 2 long cases (B 2, H 3, S
 *                  4133, causal and not), the test's 32 rows a head against
 *                  the host reference, and every row of every head against
 *                  the GPU reference; nothing written past O or lse (the
 *                  guard bands) in any case; the test's fwd_args: B, H or
 *                  S == 0 is cudaSuccess; D 96 and 64, B -1, B H = 65536,
 *                  scale +inf, 0 and NaN, an O 8 bytes off, a NULL K, a Q
 *                  2 bytes off, a NULL lse and an lse 2 bytes off are
 *                  cudaErrorInvalidValue; none writes a byte of O or lse;
 *   w62.fwd-speed  on a compute capability 9.0 GPU (else SKIP, as the
 *                  test): B4 H16 S4096 D128, non-causal and then causal,
 *                  scale 1/sqrt(128), O and lse, each through the timed-call
 *                  protocol as week 38's judge times its shape (8 calls a
 *                  request, each on its own Q, K, V from the hidden seed and
 *                  its own poisoned output; the judge's look of 256
 *                  positions a call, then every element of every timed O
 *                  and lse checked by the judge's kernel at the test's
 *                  tolerances; the median of 7 requests), and cuDNN's SDPA
 *                  on the same protocol, sizes, mask and checks (O at the
 *                  test's 2e-2, 2e-2) through judge-w38-yard-runner, timed
 *                  before the student's runner starts and after, the faster
 *                  kept. TFLOP/s = 4 B H S^2 D (half of it causal) / the
 *                  median call's time by the judge's clock; the figure is
 *                  the lower of the two ratios (the test's), against the
 *                  target (week.txt, >= 0.80 of cuDNN's). A wrong output of
 *                  the student's FAILs, with or without cuDNN; then, where
 *                  the judge cannot load cuDNN (wb_cudnn_open, the test's
 *                  loader) or cuDNN cannot run a shape, SKIP with that
 *                  reason (the test's cudnn_ready); a wrong cuDNN output
 *                  FAILs (the test's !lib.invalid).
 * Every checkpoint of the week is formed here; none is left to the linked
 * test. Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS, the starter FAIL. Without a GPU the plumbing is tested by
 * instructor/tests/judge_w62.sh (w62.desc PASS for the reference and FAIL
 * for the starter; w62.fwd and w62.fwd-speed SKIP, never PASS). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "judge_attn.h"
#include "judge_gemm_refs.h" /* jd_on_sm90 */
#include "judge_w62.h"

#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))
#define SM90_WHAT "fa3_fwd (TMA, wgmma, setmaxnreg)" /* the test's NEED_SM90A */

static const ja_week W62 = { W62_FN_FWD, W62_FN_FWD_TIMED, "fa3_fwd" };

/* ---------------------------------------------------------------- w62.desc */

#define UNTOUCHED 0x5a5a5a5a5a5a5a5aull

/* One fa3_fwd_desc call through the runner: 0 and *o, or -1 (t says why). */
static int desc_call(jd *J, int operand, uint32_t addr, int kk, int null_out, w62_desc_out *o, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W62_FN_DESC, 1, 0);
    rq.i64[0] = operand, rq.i64[1] = addr, rq.i64[2] = kk, rq.i64[3] = (long long)UNTOUCHED, rq.i64[4] = null_out;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "fa3_fwd_desc: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *o)
        return jd_failf(t, "fa3_fwd_desc: no answer from the runner (%s)", rp.text), -1;
    memcpy(o, rp.out, sizeof *o);
    return 0;
}

/* The descriptor as the PTX ISA lays it out (the test's want_desc): start,
 * LBO and SBO in 16-byte units, swizzle 128B (1) in bits 62-63. */
static uint64_t want_desc(uint32_t start, uint32_t lbo, uint32_t sbo)
{
    return (uint64_t)(start / 16) | (uint64_t)(lbo / 16) << 16 | (uint64_t)(sbo / 16) << 32 | 1ull << 62;
}

/* The test's desc_values: 0 right, 1 wrong, -1 lost. */
static int desc_values(jd *J, jd_tally *t)
{
    static const uint32_t ADDR[] = { 0, 1024, 32768, 99328, 163840, (1u << 18) - 32768 };
    t->tests++;
    for (int a = 0; a < N_OF(ADDR); a++)
        for (int kk = 0; kk < 8; kk++) {
            w62_desc_out o;
            const uint32_t sq = ADDR[a] + 16384u * (uint32_t)(kk / 4) + 32u * (uint32_t)(kk % 4);
            const uint32_t sv = ADDR[a] + 2048u * (uint32_t)kk;
            const uint64_t qk = want_desc(sq, 16, 1024), v = want_desc(sv, 16384, 1024);
            if (desc_call(J, 0, ADDR[a], kk, 0, &o, t) != 0) return -1;
            if (o.ret != 0 || o.desc != qk)
                return jd_failf(t, "QK (K-major), tile at %u, k16 step %d: returned %d, 0x%016llx, expected 0 and "
                                "0x%016llx (start %u, LBO 16, SBO 1024, swizzle 128B)", ADDR[a], kk, o.ret,
                                (unsigned long long)o.desc, (unsigned long long)qk, sq), 1;
            if (desc_call(J, 1, ADDR[a], kk, 0, &o, t) != 0) return -1;
            if (o.ret != 0 || o.desc != v)
                return jd_failf(t, "V (MN-major), tile at %u, k16 step %d: returned %d, 0x%016llx, expected 0 and "
                                "0x%016llx (start %u, LBO 16384: the next 64 columns of D, SBO 1024: the next 8 "
                                "keys, swizzle 128B)", ADDR[a], kk, o.ret, (unsigned long long)o.desc,
                                (unsigned long long)v, sv), 1;
        }
    return 0;
}

/* The test's desc_refused: -1 and the output untouched. 0 right, 1 wrong, -1 lost. */
static int desc_refused(jd *J, jd_tally *t)
{
    static const struct {
        int         operand;
        uint32_t    addr;
        int         kk, null_out;
        const char *what;
    } BAD[] = {
        { 0, 0, 0, 1, "a NULL desc must be refused" },
        { 2, 0, 0, 0, "operand 2 must be refused, *desc untouched" },
        { -1, 0, 0, 0, "operand -1 must be refused, *desc untouched" },
        { 0, 0, 8, 0, "kk = 8 must be refused" },
        { 1, 0, -1, 0, "kk = -1 must be refused" },
        { 1, 512, 0, 0, "a tile at 512 (not on the swizzle's 1024-byte repeat) must be refused" },
        { 0, (1u << 18) - 31744, 0, 0, "a tile whose end passes 2^18 (the start field's range) must be refused" },
    };
    t->tests++;
    for (int i = 0; i < N_OF(BAD); i++) {
        w62_desc_out o;
        if (desc_call(J, BAD[i].operand, BAD[i].addr, BAD[i].kk, BAD[i].null_out, &o, t) != 0) return -1;
        if (o.ret != -1 || (!BAD[i].null_out && o.desc != UNTOUCHED))
            return jd_failf(t, "fa3_fwd_desc(%d, %u, %d, %s): %s (-1, the output untouched); it returned %d, "
                            "0x%016llx", BAD[i].operand, BAD[i].addr, BAD[i].kk, BAD[i].null_out ? "NULL" : "desc",
                            BAD[i].what, o.ret, (unsigned long long)o.desc), 1;
    }
    return 0;
}

static void judge_desc(jd *J, jd_tally *t)
{
    if (desc_values(J, t) < 0) return;
    desc_refused(J, t);
}

static void judge_desc_gpu(jd_ck *k) { judge_desc(k->J, k->t); }

/* ---------------------------------------------------------------- w62.fwd */

/* test_week62.c's CASES (B, H, S, D, causal, big) */
static const fa_case W62_CASES[] = {
    { 1, 1, 1, 128, 0, 0 },    { 1, 1, 1, 128, 1, 0 },    { 1, 2, 63, 128, 0, 0 },   { 2, 1, 63, 128, 1, 0 },
    { 1, 1, 64, 128, 1, 0 },   { 1, 3, 64, 128, 0, 0 },   { 1, 1, 65, 128, 0, 0 },   { 2, 2, 65, 128, 1, 0 },
    { 1, 1, 127, 128, 0, 0 },  { 1, 2, 127, 128, 1, 0 },  { 1, 1, 128, 128, 1, 0 },  { 1, 2, 129, 128, 0, 0 },
    { 2, 2, 129, 128, 1, 0 },  { 1, 1, 256, 128, 1, 0 },  { 1, 3, 333, 128, 0, 0 },  { 1, 1, 1000, 128, 0, 0 },
    { 2, 3, 1000, 128, 1, 0 }, { 1, 2, 300, 128, 0, 1 },  { 1, 2, 300, 128, 1, 1 },  { 1, 1, 513, 128, 0, 1 },
    { 1, 1, 513, 128, 1, 1 },
};

/* test_week62.c's fwd_args (inputs and O in the poisoned 4096-byte O, lse
 * 1024 bytes): B H S D causal scale, byte offsets of Q, O, lse, K NULL,
 * lse NULL, refused */
static const ja_arg_call CALLS[] = {
    { 0, 4, 16, 128, 0, 0.125f, 0, 0, 0, 0, 0, 0, "B = 0 is nothing to do (cudaSuccess)" },
    { 2, 0, 16, 128, 1, 0.125f, 0, 0, 0, 0, 0, 0, "H = 0 is nothing to do (cudaSuccess)" },
    { 2, 4, 0, 128, 1, 0.125f, 0, 0, 0, 0, 0, 0, "S = 0 is nothing to do (cudaSuccess)" },
    { 1, 1, 16, 96, 0, 0.1f, 0, 0, 0, 0, 0, 1, "D = 96 must be refused" },
    { 1, 1, 16, 64, 0, 0.1f, 0, 0, 0, 0, 0, 1, "D = 64 must be refused (this kernel is built for D = 128)" },
    { -1, 1, 16, 128, 0, 0.1f, 0, 0, 0, 0, 0, 1, "B = -1 must be refused" },
    { 256, 256, 16, 128, 0, 0.1f, 0, 0, 0, 0, 0, 1, "B * H = 65536 must be refused (the grid's y)" },
    { 1, 1, 16, 128, 0, INFINITY, 0, 0, 0, 0, 0, 1, "scale +inf must be refused" },
    { 1, 1, 16, 128, 0, 0.1f, 0, 8, 0, 0, 0, 1, "an O that is not 16-byte aligned must be refused" },
    { 1, 1, 16, 128, 0, 0.1f, 0, 0, 0, 1, 0, 1, "a NULL K must be refused" },
    { 1, 1, 16, 128, 0, 0.f, 0, 0, 0, 0, 0, 1, "scale 0 must be refused" },
    { 1, 1, 16, 128, 0, NAN, 0, 0, 0, 0, 0, 1, "scale NaN must be refused" },
    { 1, 1, 16, 128, 0, 0.1f, 2, 0, 0, 0, 0, 1, "a Q that is not 16-byte aligned must be refused" },
    { 1, 1, 16, 128, 0, 0.1f, 0, 0, 0, 0, 1, 1, "a NULL lse must be refused (it is required, like O)" },
    { 1, 1, 16, 128, 0, 0.1f, 0, 0, 2, 0, 0, 1, "an lse that is not 4-byte aligned must be refused" },
};

/* test_week62.c's fwd_long (_i: causal) */
static const fa_case LONG[] = { { 2, 3, 4133, 128, 0, 0 }, { 2, 3, 4133, 128, 1, 0 } };

static void judge_fwd(jd_ck *k)
{
    if (jd_on_sm90(k->t, SM90_WHAT)) ja_fwd(k, W62_CASES, N_OF(W62_CASES), LONG, N_OF(LONG), CALLS, N_OF(CALLS));
}

/* ---------------------------------------------------------------- w62.fwd-speed */

static void cudnn_before(void) /* (not on a GPU where the checkpoint SKIPs) */
{
    jd_tally t;
    memset(&t, 0, sizeof t);
    if (!jd_on_sm90(&t, SM90_WHAT)) return;
    ja_cudnn_before(0);
    ja_cudnn_before(1);
}

/* Both shapes, the lower ratio the figure (the test's fwd_speed). */
static void judge_speed(jd_ck *k)
{
    double value[2] = { NAN, NAN }, yard[2] = { NAN, NAN };
    char why[700] = "", detail[400] = "";
    if (!jd_on_sm90(k->t, SM90_WHAT)) return;
    int worst = -1;
    for (int causal = 0; causal < 2; causal++) {
        const int r = ja_time_shape(k, causal, &value[causal], &yard[causal], why, sizeof why);
        if (r == 2) { /* no yardstick: SKIP, as the test */
            k->t->skipped++;
            snprintf(k->t->msg, sizeof k->t->msg, "%s", why);
            return;
        }
        if (r == 1) { /* a wrong output or a lost runner: FAIL */
            jd_speed_result(k->R, k->t, k->c, k->gpu, NAN, "TFLOP/s", "cuDNN", NAN, "", why);
            return;
        }
        if (worst < 0 || value[causal] / yard[causal] < value[worst] / yard[worst]) worst = causal;
    }
    snprintf(detail, sizeof detail, "B%d H%d S%d D%d, O and lse, against cuDNN SDPA (O only): non-causal %.0f TFLOP/s "
             "vs %.0f (%.3f), causal %.0f vs %.0f (%.3f); the lower ratio counts", JA_TB, JA_TH, JA_TS, JA_TD, value[0],
             yard[0], value[0] / yard[0], value[1], yard[1], value[1] / yard[1]);
    jd_speed_result(k->R, k->t, k->c, k->gpu, value[worst], "TFLOP/s", "cuDNN", yard[worst], detail, "");
}

static const jd_checkpoint CPS[] = {
    { "w62.desc", judge_desc_gpu, judge_desc, 1, 0, NULL },
    { "w62.fwd", judge_fwd, NULL, 0, 0, NULL },
    { "w62.fwd-speed", judge_speed, NULL, 0, 0, cudnn_before },
};

int main(int argc, char **argv)
{
    ja_use(&W62);
    return jd_week_main(argc, argv, "judge-w62", "phase6/week62", CPS, N_OF(CPS));
}
