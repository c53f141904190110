/* judge_w27.c — build/instructor/judge-w27: week 27's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's hgemm_tiled.o, cutlass_gemm.o and cutlass3_gemm.o are linked
 * into the runner (judge_w27_runner.c), which this process starts (or is
 * handed) and asks to call them on buffers it allocated (judge.h). The
 * command line, the runner's start and the record are judge_week.c's:
 *
 *   judge-w27 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks and the timing are judge_hgemm.c's, shared with weeks 25, 26
 * and 28; the cases mirror test_week27.c's, drawn with its tags:
 *   w27.tiled          hgemm_tiled on hgemm_check.h's cases, as week 26's
 *                      judge checks hgemm_mma: the 12 shapes, the 2 with a
 *                      NaN in A and +Inf in B, the 5 unaligned ones, every
 *                      element within hgemm_atol(K) + 1e-4 |ref|, C poisoned
 *                      and guarded; the 2 large shapes at every element
 *                      against cuBLAS's DGEMM (the test samples them). The
 *                      test's CPU case half_rounding checks the workbook's
 *                      helpers, no student code: nothing to judge;
 *   w27.tiled-speed    hgemm_tiled at 4096^3 through the timed-call protocol
 *                      (up to 64 calls a request, fresh A and B and a
 *                      poisoned C each, every timed C checked in full; the
 *                      median of 7 requests) against week 26's reference
 *                      hgemm_mma (phase5/week26/solution, a given object
 *                      here, as in the workbook's own run of the test),
 *                      timed through judge-w27-yard-runner (instructor
 *                      code, no student object) on the same protocol,
 *                      before the student's runner starts and after, the
 *                      faster kept; >= 0.88 W26. In a student copy the
 *                      test's yardstick is the student's own week-26 file:
 *                      the judge holds the student to the reference's;
 *   w27.cutlass        cutlass_hgemm on the same cases as w27.tiled;
 *   w27.cutlass3       cutlass3_hgemm's contract (the test's
 *                      cutlass3_contract: the shapes TMA cannot take and the
 *                      negative ones refused with cudaErrorInvalidValue, the
 *                      empty ones accepted, on NULL pointers; through the
 *                      runner, also without a GPU, where its failure stands);
 *                      on a compute capability 9.0 GPU also the 9 refused
 *                      shapes on real buffers (cudaErrorInvalidValue, C
 *                      untouched, guarded), the test's CUT3_SHAPES,
 *                      CUT3_SPECIAL (a NaN in A, +Inf and -Inf in B),
 *                      CUT3_UNALIGNED and CUT3_LARGE (static in
 *                      test_week27.c: copied below), every element checked as
 *                      above; on another GPU those are SKIP, as the test's;
 *   w27.cutlass3-speed cutlass3_hgemm at 4096^3 through the same protocol
 *                      against cublasGemmEx (FP16 in, FP32 compute, FP32 C)
 *                      timed through the same yard runner, before and after;
 *                      >= 0.9 cuBLAS; SKIP on a GPU other than 9.0, as the
 *                      test's. The 2.x GEMM the test prints beside it is
 *                      reported there, not judged: not here.
 * Every checkpoint of week 27 is judged: none is left to the linked test.
 * On an H200 (2026-11-29), alone over the reference's and the starter's
 * runners, plain and sandboxed: the reference PASSed all five, the
 * starter FAILed all five; not yet through the grader there. Without a GPU
 * every checkpoint is SKIP but for
 * w27.cutlass3's contract, whose failure stands (the starter FAILs it)
 * (instructor/tests/judge_w27.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_w27.h"

/* test_week27.c's CUTLASS 3 cases, copied (static there); CUT3_SPECIAL
 * draws a NaN in A, +Inf and -Inf in B (HGEMM_NAN_PM_INF, 2). */
static const hg_shape CUT3_SHAPES[] = {
    { 1, 8, 8, 0 },       { 0, 8, 8, 0 },      { 5, 0, 8, 0 },       { 5, 8, 0, 0 },        { 17, 40, 64, 0 },
    { 128, 256, 64, 0 },  { 129, 264, 72, 0 }, { 255, 136, 24, 0 },  { 333, 1000, 520, 0 }, { 100, 8, 2000, 0 },
    { 64, 640, 4096, 0 }, { 3, 16, 8, 0 },
};
static const hg_shape CUT3_UNALIGNED[] = {
    { 128, 256, 32, 1 }, { 129, 264, 40, 3 }, { 33, 64, 16, 1 }, { 256, 512, 64, 2 }, { 1, 8, 8, 1 },
};
static const hg_shape CUT3_SPECIAL[] = { { 40, 296, 56, 0 }, { 256, 256, 64, 0 } };
static const hg_shape CUT3_LARGE[] = { { 2047, 2048, 2056, 0 }, { 4096, 4096, 4096, 0 } };
static const hg_shape CUT3_REFUSED[] = {
    { 5, 12, 8, 0 }, { 5, 8, 12, 0 }, { 5, 7, 9, 0 }, { 1, 1, 1, 0 }, { 0, 5, 8, 0 }, { 4, 8, 3, 0 }, { -1, 8, 8, 0 },
    { 8, -8, 8, 0 }, { 8, 8, -8, 0 },
};
static const hg_shape CUT3_EMPTY[] = { { 0, 8, 8, 0 }, { 0, 16, 0, 0 }, { 7, 0, 8, 0 }, { 0, 0, 0, 0 } };
#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))
static const hg_cases CUT3_CASES = { CUT3_SHAPES,     CUT3_SPECIAL, CUT3_UNALIGNED,     CUT3_LARGE,
                                     N_OF(CUT3_SHAPES), N_OF(CUT3_SPECIAL), 2 /* HGEMM_NAN_PM_INF */,
                                     N_OF(CUT3_UNALIGNED), N_OF(CUT3_LARGE) };

static const hg_week TILED = { "hgemm_tiled", "tiled", W27_YARD_RUNNER, 0, 0, 0, 0, 0, 0, HG_FN_STUDENT, NULL };
static const hg_week CUT2 = { "cutlass_hgemm", "cutlass", W27_YARD_RUNNER, 0, 0, 0, 0, 0, 0, HG_FN_CUTLASS, NULL };
static const hg_week CUT3 = { "cutlass3_hgemm", "cutlass3", W27_YARD_RUNNER, 0, 0, 0, 0, 0, 0, HG_FN_CUTLASS3,
                              &CUT3_CASES };

static void judge_tiled(jd_ck *k) { hg_judge_correct(k, &TILED); }
static void judge_tiled_speed(jd_ck *k) { hg_judge_vs_w26(k, &TILED); }
static void w26_before(void) { hg_w26_before(&TILED); }
static void judge_cutlass(jd_ck *k) { hg_judge_correct(k, &CUT2); }
static void cublas_before(void) { hg_cublas_before(&CUT3); }

/* ---------------------------------------------------------------- w27.cutlass3 */

/* cutlass3_hgemm on NULL pointers (the test's cutlass3_contract): the
 * shapes TMA cannot take and the negative ones refused with
 * cudaErrorInvalidValue, the empty ones cudaSuccess. Runs on either kind of
 * runner (no buffer is sent). */
static void contract(jd *J, jd_tally *t)
{
    for (int i = 0; i < N_OF(CUT3_REFUSED) + N_OF(CUT3_EMPTY) && !J->lost; i++) {
        int refuse = i < N_OF(CUT3_REFUSED);
        hg_shape s = refuse ? CUT3_REFUSED[i] : CUT3_EMPTY[i - N_OF(CUT3_REFUSED)];
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, HG_FN_CUTLASS3, 1, 3); /* A, B, C NULL */
        rq.i64[1] = s.M, rq.i64[2] = s.N, rq.i64[3] = s.K;
        t->tests++;
        if (jd_call(J, &rq, &rp, NULL) != 0) {
            jd_failf(t, "cutlass3_hgemm M=%d N=%d K=%d: %s", s.M, s.N, s.K, J->why);
            return;
        }
        const char *got = rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status);
        if (refuse && rp.status != (int)cudaErrorInvalidValue)
            jd_failf(t, "M=%d N=%d K=%d must be refused with cudaErrorInvalidValue (N and K multiples of 8, no "
                        "negative size), got %s", s.M, s.N, s.K, got);
        else if (!refuse && rp.status != 0)
            jd_failf(t, "M=%d N=%d K=%d is a shape the contract accepts (an empty C: cudaSuccess, nothing done), got "
                        "%s: shape_ok() must ask Gemm::can_implement()", s.M, s.N, s.K, got);
    }
}

/* A refused shape on real buffers (the test's cutlass3_refused): the
 * error, and C (poisoned, guarded) untouched. 0 ran, -1 lost. */
static int refused_case(jd *J, hg_shape s, jd_tally *t)
{
    int M = s.M > 0 ? s.M : 8, N = s.N > 0 ? s.N : 8, K = s.K > 0 ? s.K : 8, rc = -1;
    size_t nc = (size_t)M * N;
    jd_gbuf A = { .id = -1 }, B = { .id = -1 }, C = { .id = -1 };
    unsigned char *h = malloc(nc * 4 + 1);
    char what[96];
    snprintf(what, sizeof what, "refused M=%d N=%d K=%d", s.M, s.N, s.K);
    t->tests++;
    if (!h) return jd_failf(t, "%s: the judge is out of memory", what), -1;
    if (jd_gbuf_alloc(J, &A, (size_t)M * K * 2, t) != 0 || jd_gbuf_alloc(J, &B, (size_t)K * N * 2, t) != 0 ||
        jd_gbuf_alloc(J, &C, nc * 4, t) != 0)
        goto out;
    if (jd_gbuf_poison(&A, 0, (size_t)M * K * 2) != 0 || jd_gbuf_poison(&B, 0, (size_t)K * N * 2) != 0 ||
        jd_gbuf_poison(&C, 0, nc * 4) != 0) {
        jd_failf(t, "%s: the judge's own copies failed", what);
        goto out;
    }
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, HG_FN_CUTLASS3, 1, 3);
    jd_gbuf_arg(&rq, 0, &A, 0);
    jd_gbuf_arg(&rq, 1, &B, 0);
    jd_gbuf_arg(&rq, 2, &C, 0);
    rq.i64[0] = (long long)nc, rq.i64[1] = s.M, rq.i64[2] = s.N, rq.i64[3] = s.K;
    if (jd_call(J, &rq, &rp, NULL) != 0) {
        jd_failf(t, "%s: %s", what, J->why);
        goto out;
    }
    rc = 0;
    if (rp.status != (int)cudaErrorInvalidValue) {
        jd_failf(t, "M=%d N=%d K=%d must be refused with cudaErrorInvalidValue, got %s", s.M, s.N, s.K,
                 rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status));
        goto out;
    }
    int f = jd_gbuf_fetch(&C, 0, nc * 4, h, "C", what, t);
    if (f) {
        rc = f < 0 ? -1 : 0;
        goto out;
    }
    for (size_t i = 0; i < nc * 4; i++)
        if (h[i] != 0xFF) {
            jd_failf(t, "%s: C was written (byte %zu) although the call was refused", what, i);
            break;
        }
out:
    jd_gbuf_free(J, &A), jd_gbuf_free(J, &B), jd_gbuf_free(J, &C);
    free(h);
    return rc;
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
                 "cutlass3_hgemm (wgmma, TMA) is sm_90a code, which loads only on a compute capability 9.0 GPU "
                 "(H100, H200); this one is %d.%d", p.major, p.minor);
    return 0;
}

static void judge_cutlass3(jd_ck *k)
{
    contract(k->J, k->t);
    if (k->J->lost || !on_sm90(k->t)) return;
    int lost = 0;
    for (int i = 0; !lost && i < N_OF(CUT3_REFUSED); i++) lost = refused_case(k->J, CUT3_REFUSED[i], k->t) < 0;
    if (!lost) hg_judge_correct(k, &CUT3);
}

static void judge_cutlass3_speed(jd_ck *k)
{
    if (on_sm90(k->t)) hg_judge_vs_cublas(k, &CUT3);
}

static const jd_checkpoint CPS[] = {
    { "w27.tiled", judge_tiled, NULL, 0, 0, NULL },
    { "w27.tiled-speed", judge_tiled_speed, NULL, 0, 0, w26_before },
    { "w27.cutlass", judge_cutlass, NULL, 0, 0, NULL },
    { "w27.cutlass3", judge_cutlass3, contract, 0, 0, NULL },
    { "w27.cutlass3-speed", judge_cutlass3_speed, NULL, 0, 0, cublas_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w27", "phase5/week27", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
