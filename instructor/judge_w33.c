/* judge_w33.c — build/instructor/judge-w33: week 33's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (no JUDGED_WEEKS line, no
 * JUDGES row: the grader grades the week with its linked test until this
 * has run on a GPU; README.md's week 33 entry has the commands). It links
 * no student code: the student's qkt.o and mask.o are linked into the
 * runner (judge_w33_runner.c, with cuBLAS), which this process starts (or
 * is handed) and asks to call them on buffers it allocated (judge.h). It
 * poisons, fills and checks, and writes the results record itself, outside
 * the runner's reach. The command line, the runner's start, the record and
 * the guarded buffers are judge_week.c's:
 *
 *   judge-w33 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week33.c's, shared through phase6/week33/w33_checks.h
 * (the shapes, each case drawn as the test draws it for the seed:
 * wb_rng_for_seed with the test's tag; the double reference, the masks'
 * rule, the scores' tolerance, the bad sizes). qkt_scores
 * takes a cuBLAS handle, which cannot cross processes: the runner makes one
 * for each call in pedantic FP32 (the test's wb_cublas_handle(1)) and
 * destroys it after. Every output S is a guarded buffer (jd_gbuf: a
 * poisoned band each side), read back whole, nothing written outside it:
 *   w33.qkt     qkt_scores on the test's 10 shapes (L = 1, L odd and past a
 *               warp, L = 1000, D = 1, D = 128, B * H * L = 0), Q and K
 *               uniform in +-1 and +-100 by turns, every score against the
 *               double dot product within 1e-7 + 2 D 2^-24 sum |q k| / sqrt(D)
 *               (finite; a NaN never passes); then the test's 6 bad sizes
 *               (D 0 and -4, L, B, H negative, B * H = 2^32) returning
 *               CUBLAS_STATUS_INVALID_VALUE and a null handle returning an
 *               error, S not touched by any of them (every byte still the
 *               poison: stricter than the test, which takes any NaN);
 *   w33.mask    mask_scores on the test's 10 shapes (L 0 to 1500, B 0) over
 *               scores of +-1e4 sprinkled with NaN, +-Inf, -0 and +-1e4, the
 *               four mask choices, padding lengths 0, L, between and out of
 *               range (-3, L + 5): every entry bit for bit (masked ones
 *               0xff800000, the others as they were); then past 2^31
 *               entries: B 9, H 16, L 4096 (9.7 GB; B shrinks, as in the
 *               test, until it and 1 GB more fit in the free memory), S
 *               filled on the device by the judge from a seed of its own,
 *               masked causal and padded (the batch across entry 2^31 cut
 *               mid-row), and the last 64 rows, the 64 around entry 2^31
 *               and 256 rows at random checked bit for bit; then the test's
 *               3 negative sizes returning cudaErrorInvalidValue, S not
 *               touched;
 *   w33.scores  qkt_scores then mask_scores on the 10 shapes, the four mask
 *               choices (batch 0's kv_len 0), S poisoned before each: masked
 *               entries exactly -inf, the others within w33.qkt's bound.
 * Every checkpoint of week 33 is formed here: none is left to the linked
 * test (the week has no speed checkpoint; its benchmark is a report). The
 * test also calls cudaGetLastError after the refused masks; here the runner
 * synchronises after every call that returned success and a late error
 * becomes that call's status.
 *
 * The starter's qkt_scores returns CUBLAS_STATUS_NOT_SUPPORTED and its
 * mask_scores returns cudaSuccess, neither writing anything: w33.qkt and
 * w33.scores fail at their first shape (qkt_scores returned
 * CUBLAS_STATUS_NOT_SUPPORTED), w33.mask at its first (S[0] still the
 * poison, bits ffffffff, where the scores' bits are due).
 *
 * Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS (3 of 3), the starter FAIL (3). Without a GPU every checkpoint SKIPs (no CPU part):
 * instructor/tests/judge_w33.sh. */
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
#include "judge_cublas.h"
#include "judge_w33.h"
#include "judge_week.h"
#include "wb_cuda.h"
#include "w33_checks.h"
#include "wb_rand.h"

#define N_OF(a) W33_COUNT(a)

static const char *cuda_status(int st) { return st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st); }

/* w33_scores_bad's verdict into t: 0, or 1 with t failed at the first wrong score. */
static int expect_scores(const float *got, const double *ref, const double *mag, size_t n, int D, const char *what,
                         jd_tally *t)
{
    size_t first = 0, bad = w33_scores_bad(got, ref, mag, n, D, &first);
    if (!bad) return 0;
    jd_failf(t, "%s: %zu of %zu scores wrong; S[%zu] (flat index) expected %.9g%s, got %.9g (bits %08x)%s", what, bad, n,
             first, ref[first], isinf(ref[first]) ? " (masked: exactly -inf)" : "", (double)got[first],
             w33_f2u(got[first]), w33_f2u(got[first]) == 0xffffffffu ? ": never written (still the poison)" : "");
    return 1;
}

/* ---------------------------------------------------------------- buffers and calls */

/* Q, K, S and kv_len, guarded, with host room for every case of the week. */
typedef struct {
    jd_gbuf q, k, s, kv;
    float  *hQ, *hK, *hS, *got;
    double *ref, *mag, *want;
    int    *kvh;
    size_t  nqk, ns; /* the caps, in floats */
} w33_bufs;

static void bufs_free(jd *J, w33_bufs *B)
{
    jd_gbuf_free(J, &B->q), jd_gbuf_free(J, &B->k), jd_gbuf_free(J, &B->s), jd_gbuf_free(J, &B->kv);
    free(B->hQ), free(B->hK), free(B->hS), free(B->got), free(B->ref), free(B->mag), free(B->want), free(B->kvh);
    memset(B, 0, sizeof *B);
    B->q.id = B->k.id = B->s.id = B->kv.id = -1;
}

/* 0, or -1 with t failed; bufs_free after either. */
static int bufs_alloc(jd *J, w33_bufs *B, jd_tally *t)
{
    memset(B, 0, sizeof *B);
    B->q.id = B->k.id = B->s.id = B->kv.id = -1;
    size_t nqk = 64, ns = 64;
    for (size_t i = 0; i < N_OF(W33_SHAPES); i++) {
        size_t q = (size_t)W33_SHAPES[i].B * W33_SHAPES[i].H * W33_SHAPES[i].L * W33_SHAPES[i].D;
        size_t s = (size_t)W33_SHAPES[i].B * W33_SHAPES[i].H * W33_SHAPES[i].L * W33_SHAPES[i].L;
        if (q > nqk) nqk = q;
        if (s > ns) ns = s;
    }
    for (size_t i = 0; i < N_OF(W33_MSHAPES); i++) {
        size_t s = (size_t)W33_MSHAPES[i].B * W33_MSHAPES[i].H * W33_MSHAPES[i].L * W33_MSHAPES[i].L;
        if (s > ns) ns = s;
    }
    B->nqk = nqk, B->ns = ns;
    if (jd_gbuf_alloc(J, &B->q, nqk * 4, t) != 0 || jd_gbuf_alloc(J, &B->k, nqk * 4, t) != 0 ||
        jd_gbuf_alloc(J, &B->s, ns * 4, t) != 0 || jd_gbuf_alloc(J, &B->kv, 64 * 4, t) != 0)
        return -1;
    if (!(B->hQ = malloc(nqk * 4)) || !(B->hK = malloc(nqk * 4)) || !(B->hS = malloc(ns * 4)) ||
        !(B->got = malloc(ns * 4)) || !(B->ref = malloc(ns * 8)) || !(B->mag = malloc(ns * 8)) ||
        !(B->want = malloc(ns * 8)) || !(B->kvh = malloc(64 * 4)))
        return jd_failf(t, "buffers: out of memory"), -1;
    return 0;
}

/* qkt_scores on the Q and K already in B (NULL where have_in is 0: inputs
 * of no floats, as the test's wb_dcopy of 0 bytes gives) into S (not
 * poisoned here), a null handle where null_handle: 0 with *st, or -1 with t
 * failed (the runner is lost). */
static int qkt_call(jd *J, w33_bufs *B, w33_shape4 s, int have_in, int null_handle, const char *what, int *st, jd_tally *t)
{
    const int nqk = have_in;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W33_FN_QKT, 1, 3);
    jd_gbuf_arg(&rq, 0, nqk ? &B->q : NULL, 0), jd_gbuf_arg(&rq, 1, nqk ? &B->k : NULL, 0);
    jd_gbuf_arg(&rq, 2, &B->s, 0);
    rq.i64[1] = s.B, rq.i64[2] = s.H, rq.i64[3] = s.L, rq.i64[4] = s.D, rq.i64[5] = null_handle;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    *st = rp.status;
    return 0;
}

/* mask_scores on S in B, kv_len from B where padded: 0 with *st, or -1 with t failed. */
static int mask_call(jd *J, w33_bufs *B, w33_shape3 s, int causal, int padded, const char *what, int *st, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W33_FN_MASK, 1, 2);
    jd_gbuf_arg(&rq, 0, &B->s, 0);
    jd_gbuf_arg(&rq, 1, padded && s.B > 0 ? &B->kv : NULL, 0); /* B ints: none is NULL, as the test's wb_dcopy of 0 */
    rq.i64[1] = s.B, rq.i64[2] = s.H, rq.i64[3] = s.L, rq.i64[4] = causal;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    *st = rp.status;
    return 0;
}

/* Every byte of S's first `bytes` still the poison, and its band: 0, 1 (t
 * failed), or -1 (the judge's copy failed). */
static int untouched(w33_bufs *B, size_t bytes, const char *what, const char *writer, jd_tally *t)
{
    int f = jd_gbuf_fetch(&B->s, 0, bytes, B->got, "S", what, t);
    if (f) return f;
    const unsigned char *u = (const unsigned char *)B->got;
    for (size_t i = 0; i < bytes; i++)
        if (u[i] != 0xff) return jd_failf(t, "%s: %s wrote S (byte %zu changed); it must write nothing", what, writer, i), 1;
    return 0;
}

/* ---------------------------------------------------------------- w33.qkt */

/* One shape of qkt_shapes (for = 0) or of scores_masked (for = 1: the four
 * mask choices after it): 0 ran, -1 the runner or the judge's copies failed. */
static int scores_case(jd *J, w33_bufs *B, int i, int with_mask, jd_tally *t)
{
    const w33_shape4 s = W33_SHAPES[i];
    const size_t nqk = (size_t)s.B * s.H * s.L * s.D, ns = (size_t)s.B * s.H * s.L * s.L;
    wb_rng rng = wb_rng_for_seed(jd_seed, with_mask ? W33_SCORES_TAG : W33_QKT_TAG, i);
    const float r = with_mask ? (i & 1 ? 1.0f : 100.0f) : (i & 1 ? 100.0f : 1.0f);
    w33_fill_qk(&rng, B->hQ, B->hK, nqk, r);
    w33_ref_scores(B->hQ, B->hK, s, B->ref, B->mag);
    if (with_mask) w33_draw_kv_len(&rng, B->kvh, s.B, s.L, i + 1);
    if (jd_gbuf_put(&B->q, 0, B->hQ, nqk * 4) != 0 || jd_gbuf_put(&B->k, 0, B->hK, nqk * 4) != 0 ||
        (s.B > 0 && jd_gbuf_put(&B->kv, 0, B->kvh, (size_t)s.B * 4) != 0))
        return jd_failf(t, "B=%d H=%d L=%d D=%d: the judge's own copies failed", s.B, s.H, s.L, s.D), -1;
    for (int combo = 0; combo < (with_mask ? 4 : 1); combo++) {
        const int causal = combo & 1, padded = (combo & 2) != 0;
        char what[220], sb[120];
        if (with_mask)
            snprintf(what, sizeof what, "qkt_scores then mask_scores, B=%d H=%d L=%d D=%d, %s%s", s.B, s.H, s.L, s.D,
                     causal ? "causal" : "not causal", padded ? ", padded (kv_len of batch 0 is 0)" : ", no padding");
        else
            snprintf(what, sizeof what, "qkt_scores B=%d H=%d L=%d D=%d, inputs in +-%g", s.B, s.H, s.L, s.D, (double)r);
        const double *want = B->ref;
        if (with_mask) {
            for (size_t row = 0; row < (size_t)s.B * s.H * s.L; row++) {
                int ii = (int)(row % (size_t)s.L), b = (int)(row / ((size_t)s.L * s.H));
                for (int j = 0; j < s.L; j++) {
                    size_t k = row * s.L + j;
                    B->want[k] = w33_masked(ii, j, causal, padded ? B->kvh : NULL, b) ? -INFINITY : B->ref[k];
                }
            }
            want = B->want;
        }
        t->tests++;
        int st;
        if (jd_gbuf_poison(&B->s, 0, ns * 4) != 0) return jd_failf(t, "%s: the judge's own copies failed", what), -1;
        if (qkt_call(J, B, s, nqk > 0, 0, what, &st, t) != 0) return -1;
        if (st != 0) {
            jd_failf(t, "%s: qkt_scores returned %s", what, jd_cublas_status(st, sb, sizeof sb));
            return 0;
        }
        if (with_mask) {
            w33_shape3 m = { s.B, s.H, s.L };
            if (mask_call(J, B, m, causal, padded, what, &st, t) != 0) return -1;
            if (st != 0) {
                jd_failf(t, "%s: mask_scores returned %s", what, cuda_status(st));
                return 0;
            }
        }
        int f = jd_gbuf_fetch(&B->s, 0, ns * 4, B->got, "S", what, t);
        if (f < 0) return -1;
        if (f || expect_scores(B->got, want, B->mag, ns, s.D, what, t)) return 0;
    }
    return 0;
}

/* qkt_errors: the bad sizes and the null handle, S untouched. */
static void qkt_errors(jd *J, w33_bufs *B, jd_tally *t)
{
    enum { L = W33_ERR_L, D = W33_ERR_D };
    wb_rng rng = wb_rng_for_seed(jd_seed, W33_QKT_ERR_TAG, 0);
    w33_fill_qk(&rng, B->hQ, B->hK, L * D, 1.0f);
    if (jd_gbuf_put(&B->q, 0, B->hQ, L * D * 4) != 0 || jd_gbuf_put(&B->k, 0, B->hK, L * D * 4) != 0 ||
        jd_gbuf_poison(&B->s, 0, L * L * 4) != 0) {
        jd_failf(t, "qkt_scores' bad sizes: the judge's own copies failed");
        return;
    }
    const w33_bad4 *bad = W33_QKT_BAD;
    char what[120], sb[120];
    t->tests++;
    for (size_t k = 0; k < N_OF(W33_QKT_BAD) && !J->lost; k++) {
        const w33_shape4 s = { bad[k].B, bad[k].H, bad[k].L, bad[k].D };
        int st;
        snprintf(what, sizeof what, "qkt_scores with %s", bad[k].what);
        if (qkt_call(J, B, s, 1, 0, what, &st, t) != 0) return;
        if (st != (int)CUBLAS_STATUS_INVALID_VALUE) {
            jd_failf(t, "%s returned %s, expected CUBLAS_STATUS_INVALID_VALUE", what, jd_cublas_status(st, sb, sizeof sb));
            return;
        }
    }
    int st;
    if (qkt_call(J, B, (w33_shape4){ 1, 1, L, D }, 1, 1, "qkt_scores with a null handle", &st, t) != 0) return;
    if (st == 0) {
        jd_failf(t, "qkt_scores with a null handle returned CUBLAS_STATUS_SUCCESS: pass on cuBLAS's error");
        return;
    }
    if (st < 0) {
        jd_failf(t, "qkt_scores with a null handle: %s", jd_cublas_status(st, sb, sizeof sb));
        return;
    }
    untouched(B, L * L * 4, "failed qkt_scores calls (bad sizes, a null handle)", "a failed call", t);
}

static void judge_qkt(jd_ck *k)
{
    w33_bufs B;
    if (bufs_alloc(k->J, &B, k->t) == 0) {
        int rc = 0;
        for (int i = 0; i < (int)N_OF(W33_SHAPES) && rc == 0 && !k->J->lost; i++) rc = scores_case(k->J, &B, i, 0, k->t);
        if (rc == 0 && !k->J->lost) qkt_errors(k->J, &B, k->t);
    }
    bufs_free(k->J, &B);
}

static void judge_scores(jd_ck *k)
{
    w33_bufs B;
    if (bufs_alloc(k->J, &B, k->t) == 0)
        for (int i = 0, rc = 0; i < (int)N_OF(W33_SHAPES) && rc == 0 && !k->J->lost; i++)
            rc = scores_case(k->J, &B, i, 1, k->t);
    bufs_free(k->J, &B);
}

/* ---------------------------------------------------------------- w33.mask */

/* mask_exact's shape i: the four mask choices over the adversarial scores,
 * bit for bit. 0 ran, -1 the runner or the judge's copies failed. */
static int mask_case(jd *J, w33_bufs *B, int i, jd_tally *t)
{
    const w33_shape3 s = W33_MSHAPES[i];
    const size_t ns = (size_t)s.B * s.H * s.L * s.L;
    wb_rng rng = wb_rng_for_seed(jd_seed, W33_MASK_TAG, i);
    w33_fill_adversarial(&rng, B->hS, ns);
    w33_draw_kv_len(&rng, B->kvh, s.B, s.L, i);
    if (s.B >= 4) B->kvh[1] = -3, B->kvh[2] = s.L + 5; /* out of range: all masked, none masked */
    if (s.B > 0 && jd_gbuf_put(&B->kv, 0, B->kvh, (size_t)s.B * 4) != 0)
        return jd_failf(t, "mask_scores B=%d H=%d L=%d: the judge's own copies failed", s.B, s.H, s.L), -1;
    uint32_t *want = (uint32_t *)B->want, *got = (uint32_t *)B->got;
    for (int combo = 0; combo < 4; combo++) {
        const int causal = combo & 1, padded = (combo & 2) != 0;
        for (size_t r = 0; r < (size_t)s.B * s.H * s.L; r++) {
            int ii = (int)(r % (size_t)s.L), b = (int)(r / ((size_t)s.L * s.H));
            for (int j = 0; j < s.L; j++) {
                size_t k = r * s.L + j;
                want[k] = w33_masked(ii, j, causal, padded ? B->kvh : NULL, b) ? W33_NEG_INF_BITS : w33_f2u(B->hS[k]);
            }
        }
        char what[200];
        snprintf(what, sizeof what, "mask_scores B=%d H=%d L=%d, %s%s (scores of +-1e4 with NaN, +-Inf, -0 among them)",
                 s.B, s.H, s.L, causal ? "causal" : "not causal", padded ? ", padded" : ", no padding");
        t->tests++;
        if (jd_gbuf_poison(&B->s, 0, ns * 4) != 0 || jd_gbuf_put(&B->s, 0, B->hS, ns * 4) != 0)
            return jd_failf(t, "%s: the judge's own copies failed", what), -1;
        int st;
        if (mask_call(J, B, s, causal, padded, what, &st, t) != 0) return -1;
        if (st != 0) return jd_failf(t, "%s returned %s", what, cuda_status(st)), 0;
        int f = jd_gbuf_fetch(&B->s, 0, ns * 4, got, "S", what, t);
        if (f < 0) return -1;
        if (f) return 0;
        for (size_t k = 0; k < ns; k++)
            if (got[k] != want[k])
                return jd_failf(t, "%s: S[%zu] (flat index, row %zu, column %zu) expected bits %08x%s, got %08x%s", what,
                                k, k / (size_t)s.L, k % (size_t)s.L, want[k],
                                want[k] == W33_NEG_INF_BITS ? " (masked: exactly -inf)" : " (unmasked: as it was)", got[k],
                                got[k] == 0xffffffffu ? " (the poison: what the judge wrote before the scores)" : ""),
                       0;
    }
    return 0;
}

/* mask_past_2g: rows r0 .. r0 + nr of the masked S (causal and padded) bit
 * for bit: 0, 1 (t failed), -1 (the judge's copy failed). */
static int check_rows(const float *dS, size_t r0, size_t nr, int H, int L, const int *kv, unsigned long long seed,
                      uint32_t *got, jd_tally *t)
{
    if (cudaMemcpy(got, dS + r0 * (size_t)L, nr * (size_t)L * 4, cudaMemcpyDeviceToHost) != cudaSuccess)
        return jd_failf(t, "mask_scores past 2^31 entries: reading S back: the judge's copy failed"), -1;
    for (size_t r = r0; r < r0 + nr; r++) {
        int i = (int)(r % (size_t)L), b = (int)(r / ((size_t)L * H));
        for (int j = 0; j < L; j++) {
            size_t k = r * L + j;
            uint32_t want = w33_masked(i, j, 1, kv, b) ? W33_NEG_INF_BITS : w33_f2u(wb_hash_uniform_f32(seed, k, -1, 1));
            if (got[k - r0 * L] != want)
                return jd_failf(t, "mask_scores causal and padded, H %d, L %d: row %zu (batch %d, query %d, kv_len %d), "
                                "column %d (flat index %zu) expected bits %08x%s, got %08x", H, L, r, b, i, kv[b], j, k,
                                want, want == W33_NEG_INF_BITS ? " (masked: exactly -inf)" : " (unmasked: as it was)",
                                got[k - r0 * L]),
                       1;
        }
    }
    return 0;
}

static void mask_past_2g(jd *J, jd_tally *t)
{
    int B = 9, H = 16, L = 4096;
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        jd_failf(t, "mask_scores past 2^31 entries: cudaMemGetInfo failed in the judge");
        return;
    }
    while (B > 1 && (size_t)B * H * L * L * 4 + (1u << 30) > free_b) B--;
    const size_t rows = (size_t)B * H * L, n = rows * L;
    if (n <= ((size_t)1 << 31))
        printf("  mask past 2^31: %.1f GB free, checked at B = %d (%zu entries)\n", free_b / 1e9, B, n);
    wb_rng rng = wb_rng_for_seed(jd_seed, W33_MASK_2G_TAG, 0);
    const unsigned long long seed = wb_rng_u64(&rng);
    int kv[9];
    w33_draw_kv_len(&rng, kv, B, L, 2);
    if (B > 2) kv[B - 2] = (int)wb_rng_int(&rng, 1, L - 1); /* the batch across 2^31 cut mid-row */
    const size_t span = 64;
    uint32_t *got = malloc(span * L * 4);
    float *dS = NULL;
    jd_gbuf kvb = { -1, NULL, 0 };
    int id = -1;
    char what[160];
    snprintf(what, sizeof what, "mask_scores causal and padded, B %d, H %d, L %d (%zu entries)", B, H, L, n);
    t->tests++;
    if (!got) {
        jd_failf(t, "%s: out of memory", what);
        goto out;
    }
    id = jd_alloc(J, n * 4, (void **)&dS);
    if (id < 0) {
        jd_failf(t, "%s: the judge's buffer: %s", what, J->why);
        goto out;
    }
    if (jd_gbuf_alloc(J, &kvb, sizeof kv, t) != 0) goto out;
    wb_dfill_uniform_f32(dS, n, seed, -1, 1);
    if (cudaDeviceSynchronize() != cudaSuccess || jd_gbuf_put(&kvb, 0, kv, (size_t)B * 4) != 0) {
        jd_failf(t, "%s: the judge's own fill failed", what);
        goto out;
    }
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W33_FN_MASK, 1, 2);
    rq.arg_buf[0][0] = id, rq.arg_off[0][0] = 0;
    jd_gbuf_arg(&rq, 1, &kvb, 0);
    rq.i64[1] = B, rq.i64[2] = H, rq.i64[3] = L, rq.i64[4] = 1;
    if (jd_call(J, &rq, &rp, NULL) != 0) {
        jd_failf(t, "%s: %s", what, J->why);
        goto out;
    }
    if (rp.status != 0) {
        jd_failf(t, "%s returned %s", what, cuda_status(rp.status));
        goto out;
    }
    if (check_rows(dS, rows - span, span, H, L, kv, seed, got, t)) goto out;
    const size_t r31 = ((size_t)1 << 31) / L; /* the row where entry 2^31 starts */
    if (r31 + span / 2 <= rows && r31 >= span / 2 && check_rows(dS, r31 - span / 2, span, H, L, kv, seed, got, t))
        goto out;
    for (int k = 0; k < 256; k++)
        if (check_rows(dS, (size_t)wb_rng_int(&rng, 0, (int64_t)rows - 1), 1, H, L, kv, seed, got, t)) break;
out:
    if (id >= 0) jd_free(J, id);
    jd_gbuf_free(J, &kvb);
    free(got);
}

/* mask_errors: negative sizes refused, S untouched. */
static void mask_errors(jd *J, w33_bufs *B, jd_tally *t)
{
    const w33_bad3 *bad = W33_MASK_BAD;
    t->tests++;
    if (jd_gbuf_poison(&B->s, 0, 16 * 4) != 0) {
        jd_failf(t, "mask_scores' bad sizes: the judge's own copies failed");
        return;
    }
    for (size_t k = 0; k < N_OF(W33_MASK_BAD); k++) {
        char what[120];
        snprintf(what, sizeof what, "mask_scores(B=%d, H=%d, L=%d)", bad[k].B, bad[k].H, bad[k].L);
        const w33_shape3 s = { bad[k].B, bad[k].H, bad[k].L };
        int st;
        if (mask_call(J, B, s, 1, 0, what, &st, t) != 0) return;
        if (st != (int)cudaErrorInvalidValue) {
            jd_failf(t, "%s returned %s, expected cudaErrorInvalidValue", what, cuda_status(st));
            return;
        }
    }
    untouched(B, 16 * 4, "refused mask_scores calls (negative sizes)", "a refused call", t);
}

static void judge_mask(jd_ck *k)
{
    w33_bufs B;
    int rc = bufs_alloc(k->J, &B, k->t);
    for (int i = 0; i < (int)N_OF(W33_MSHAPES) && rc == 0 && !k->J->lost; i++) rc = mask_case(k->J, &B, i, k->t);
    if (rc == 0 && !k->J->lost) {
        bufs_free(k->J, &B); /* the large case wants the memory */
        mask_past_2g(k->J, k->t);
        if (!k->J->lost && bufs_alloc(k->J, &B, k->t) == 0) mask_errors(k->J, &B, k->t);
    }
    bufs_free(k->J, &B);
}

static const jd_checkpoint CPS[] = {
    { "w33.qkt", judge_qkt, NULL, 0, 0, NULL },
    { "w33.mask", judge_mask, NULL, 0, 0, NULL },
    { "w33.scores", judge_scores, NULL, 0, 0, NULL },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w33", "phase6/week33", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
