/* judge_w07.c — build/instructor/judge-w07: week 07's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's reduce.o, scan.o, hist.o, atomics.o and matmul.o are linked
 * into the runner (judge_w07_runner.c, with the week's support objects, as
 * the test program links them), which this process starts (or is handed)
 * and asks to call them on buffers it allocated (judge.h). It poisons,
 * fills and checks, and writes the results record itself, outside the
 * runner's reach. The command line, the runner's start and the record are
 * judge_week.c's:
 *
 *   judge-w07 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases are test_week07.c's (drawn through phase1/week07/w07_checks.h,
 * shared with the test, each from wb_rng_for_seed with the test's tag for
 * the hidden seed); every output is poisoned whole with JD_GBAND (256)
 * bytes of poison on each side (jd_gbuf, as the test's wb_dout), a write
 * outside it fails, and an element still the poison where NaN is due
 * counts as not written:
 *   w07.reduce    the 17 sizes on integer data (every version exact; x at
 *                 an offset of 0 or 1 floats), 4 float cases (within
 *                 1e-6 sum |x| + 1e-6 of the double sum), 3 NaN/Inf cases
 *                 (the sum NaN or Inf), versions 0 and 7 refused with
 *                 cudaErrorInvalidValue; each of the six versions on a
 *                 workspace of reduce_tmp_bytes(n) that the runner holds
 *                 (filled with 0xff before every call);
 *   w07.scan      the 17 sizes and 2 larger ones on integer data (exact, x
 *                 and y at offsets 0-2), 3 float cases (one with a NaN, one
 *                 with an Inf) within 1e-3 + 2e-5 |ref| of the double
 *                 prefix, for scan_hs, scan_blelloch and scan_fast;
 *   w07.hist      the 10 sizes x uniform, one-value and four-value bytes at
 *                 a drawn byte offset, each version from poisoned bins, exact;
 *   w07.compact   the 17 sizes (offsets 0-3, the five kinds in turn) and the
 *                 5 kinds at drawn sizes: the count exact, out's first count
 *                 words the kept ones as a multiset, the rest of out still
 *                 poison, nothing outside out or the count written;
 *   w07.keycount  the 16 (n, nkeys) cases of uniform, hot-key and run data
 *                 with out-of-range keys, the counts exact from poison;
 *   w07.matmul    the 9 shapes, naive and tiled each into a fresh poison,
 *                 within 1e-6 K + 1e-6 + 1e-5 |ref| of the double product;
 *                 and, as the test's matmul_vs_cublas does, both at 4096^3
 *                 on inputs filled from the hidden seed, 128 hidden
 *                 elements and the first and last 64 of C within 1e-3 +
 *                 1e-4 |ref| (their TFLOP/s by the judge's clock go in the
 *                 record's detail; no target: cuBLAS's figure is the linked
 *                 test's report only).
 *   w07.reduce-bw, w07.scan-bw, w07.hist-bw, w07.keycount-speed: the
 *                 timed-call protocol (judge_week.h): K calls a request,
 *                 each on its own input fresh from the hidden seed and its
 *                 own poisoned output, the judge's look after the reply and
 *                 every output checked in full after the timing against
 *                 what the judge's kernels compute from the input's seed;
 *                 the median of 7 requests:
 *                 - reduce-bw: reduce_sum(6, ...) on wb_bench_bytes() of
 *                   floats in [0, 1), one float out (jd_bench.out_n), within
 *                   the test's 1e-5 sum |x| (taken at 0.4999 n: sum |x| is
 *                   n/2 within a few 1e-5 of it) of the double sum; 4 bytes
 *                   an element, against CUB's DeviceReduce::Sum;
 *                 - scan-bw: scan_fast on the same floats, every element
 *                   within the test's 1e-2 + 1e-4 |ref| of the double prefix
 *                   sums (jd_hash_prefix_f64; the test samples 4096 of
 *                   them); 8 bytes an element, against CUB's InclusiveSum;
 *                 - hist-bw: hist_shared on wb_bench_bytes() of uniform
 *                   random bytes (jd_bench.fill, jd_hash_bytes), the 256
 *                   bins exact; a byte an element, against CUB's
 *                   HistogramEven (its bins zeroed first, as the test's);
 *                 - keycount-speed: atomics_keycount_warp at one key on
 *                   wb_bench_bytes() / 4 keys, all 0 but one in 65536 out of
 *                   range (jd_hash_keys: the count is fresh for every rep,
 *                   where the test's keys are all 0 and its count always n),
 *                   counts[0] exact; Gkeys/s, against the given naive key
 *                   count (support/yard_atomics_naive.cu; 4 calls a request,
 *                   about 75 ms each).
 *                 Each yardstick is run and timed by the judge through a
 *                 runner of the instructor's (judge_w07_yard_runner.c, with
 *                 the week's given support objects, beside the judge;
 *                 jd_yard_bench) on the same protocol, sizes and checks,
 *                 before the student's runner starts and after its timing,
 *                 the larger figure taken (as COPY is); the runners hold
 *                 their workspaces (allocated in the untimed warm-up
 *                 request, as the test allocates them before timing); the
 *                 target for this GPU from week.txt.
 * Every checkpoint of week 07 is judged: none is left to the linked test.
 * Not yet run on a GPU; without a GPU every
 * checkpoint is SKIP (instructor/tests/judge_w07.sh). */
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
#include "judge_w07.h"
#include "judge_week.h"
#include "w07_checks.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cuda.h"

/* ------------------------------------------------------------ buffers */

/* Every buffer is a guarded byte buffer (jd_gbuf: JD_GBAND bytes of band on
 * each side of lead + array, the test's WB_GUARD_BYTES), inputs too: every
 * argument points at an array JD_GBAND + lead bytes into its allocation, as
 * an output's always did. */
static void bufs_free(jd *J, jd_gbuf *b, int n)
{
    for (int i = 0; i < n; i++) jd_gbuf_free(J, &b[i]);
}

/* Up to 3 for a checkpoint, cap[i] the most lead + array bytes of b[i]; 0,
 * or -1 (t says why) with none left. */
static int bufs_alloc(jd *J, jd_gbuf *b, int n, const size_t *cap, jd_tally *t)
{
    for (int i = 0; i < n; i++) b[i].id = -1;
    for (int i = 0; i < n; i++)
        if (jd_gbuf_alloc(J, &b[i], cap[i], t) != 0) return bufs_free(J, b, n), -1;
    return 0;
}

/* The call: argument a the array of b[a], lead[a] bytes past its band (b[a]
 * NULL: a NULL pointer); 0, 1 (a status other than success: t has it), -1
 * (the runner is lost). */
static int call(jd *J, int fn, int nargs, const jd_gbuf *const *b, const size_t *lead, const long long *i64,
                const char *fn_name, const char *what, jd_tally *t, double *wall_us)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, nargs);
    for (int a = 0; a < nargs; a++) jd_gbuf_arg(&rq, a, b[a], lead[a]);
    for (int k = 0; k < 8; k++) rq.i64[k] = i64[k];
    if (jd_call(J, &rq, &rp, wall_us) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0)
        return jd_failf(t, "%s: %s returned %s", what, fn_name, rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status)), 1;
    return 0;
}

/* got against want (wb_close; exact for atol = rtol = 0 on finite values),
 * the poison where NaN is due counted as not written; 0 or 1 with t's message */
static int expect_f32(const float *got, const double *want64, const float *want32, size_t n, double atol, double rtol,
                      const char *name, const char *what, jd_tally *t)
{
    for (size_t i = 0; i < n; i++) {
        double want = want64 ? want64[i] : (double)want32[i];
        uint32_t u;
        memcpy(&u, &got[i], 4);
        if (isnan(want) && u == 0xffffffffu)
            return jd_failf(t, "%s: %s[%zu], where NaN is expected, was never written (it still holds the poison)", what,
                            name, i), 1;
        if (!wb_close(got[i], want, atol, rtol))
            return jd_failf(t, "%s: %s[%zu] expected %.9g got %.9g", what, name, i, want, (double)got[i]), 1;
    }
    return 0;
}

static int expect_u32(const uint32_t *got, const uint32_t *want, size_t n, const char *name, const char *what, jd_tally *t)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            return jd_failf(t, "%s: %s[%zu] expected %u got %u%s", what, name, i, want[i], got[i],
                            got[i] == 0xffffffffu ? " (still the poison)" : ""), 1;
    return 0;
}

/* ---------------------------------------------------------------- reduce */

/* Every version's sum of hx[off .. off + n) (n + off floats copied to x),
 * each into a fresh poison, against want (atol, or NaN / Inf). 0, or -1 lost. */
static int reduce_case(jd *J, jd_gbuf *b, const float *hx, size_t n, size_t off, double want, double atol, const char *data,
                       jd_tally *t)
{
    if (jd_gbuf_put(&b[0], 0, hx, (n + off) * 4) != 0) return jd_failf(t, "the judge's own copies failed"), -1;
    for (int v = 1; v <= 6; v++) {
        char what[160];
        snprintf(what, sizeof what, "v%d, n=%zu, x+%zu, %s", v, n, off, data);
        t->tests++;
        if (jd_gbuf_poison(&b[1], 0, 4) != 0) return jd_failf(t, "the judge's own copies failed"), -1;
        const jd_gbuf *a[2] = { n + off ? &b[0] : NULL, &b[1] };
        size_t lead[2] = { off * 4, 0 };
        long long i64[8] = { (long long)n, v, W07_WS_POISON };
        int c = call(J, W07_FN_REDUCE, 2, a, lead, i64, "reduce_sum", what, t, NULL);
        if (c < 0) return -1;
        if (c) continue;
        float got;
        int f = jd_gbuf_fetch(&b[1], 0, 4, &got, "sum", what, t);
        if (f < 0) return -1;
        if (f) continue;
        float w32 = (float)want;
        if (atol < 0) { /* exact on integers: the float of the exact sum */
            if (got != w32) jd_failf(t, "%s: sum %.1f, expected %.1f", what, got, want);
        } else {
            expect_f32(&got, &want, NULL, 1, atol, 0, "sum", what, t);
        }
    }
    return 0;
}

static void judge_reduce(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t maxn = ((size_t)1 << 24) + 3;
    jd_gbuf b[2];
    size_t cap[2] = { (maxn + 1) * 4, 4 };
    if (bufs_alloc(J, b, 2, cap, t) != 0) return;
    float *hx = malloc((maxn + 1) * 4);
    if (!hx) jd_failf(t, "out of memory");
    for (int i = 0; hx && i < (int)W07_N_SIZES && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W07_REDUCE_EXACT_TAG, i);
        size_t n = W07_SIZES[i], off = w07_reduce_exact_off(i);
        double ref = w07_reduce_exact_fill(&r, hx, n, off);
        if (reduce_case(J, b, hx, n, off, ref, -1, "integer data", t) < 0) break;
    }
    for (int i = 0; hx && i < W07_N_REDUCE_FLOAT && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W07_REDUCE_FLOAT_TAG, i);
        size_t n = w07_reduce_float_n(&r, i);
        double atol, ref = w07_reduce_float_fill(&r, hx, n, &atol);
        if (reduce_case(J, b, hx, n, 0, ref, atol, "floats in [-1, 2)", t) < 0) break;
    }
    for (int i = 0; hx && i < W07_N_REDUCE_NANINF && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W07_REDUCE_NANINF_TAG, i);
        size_t n = w07_reduce_naninf_n(&r);
        const char *what;
        float want = w07_reduce_naninf_fill(&r, hx, n, i, &what);
        if (reduce_case(J, b, hx, n, 0, want, 0, what, t) < 0) break;
    }
    for (int v = 0; v <= 7 && !J->lost; v += 7) { /* reduce_sum(v, NULL, 10, NULL, NULL) */
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, W07_FN_REDUCE, 1, 2);
        rq.i64[0] = 10, rq.i64[1] = v, rq.i64[2] = W07_WS_NONE;
        t->tests++;
        if (jd_call(J, &rq, &rp, NULL) != 0) jd_failf(t, "reduce_sum(%d, ...): %s", v, J->why);
        else if (rp.status != (int)cudaErrorInvalidValue)
            jd_failf(t, "versions outside 1..6 must return cudaErrorInvalidValue (version %d returned %s)", v,
                     rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status));
    }
    free(hx);
    bufs_free(J, b, 2);
}

/* ---------------------------------------------------------------- scan */

static const char *const SCAN_NAMES[3] = { "scan_hs", "scan_blelloch", "scan_fast" };

/* The three scans of hx[off .. off + n) into y at the same offset, each into
 * a fresh poison; 0, or -1 lost. */
static int scan_case(jd *J, jd_gbuf *b, const float *hx, size_t n, size_t off, const float *ref32, const double *ref64,
                     double atol, double rtol, const char *data, float *got, jd_tally *t)
{
    if (jd_gbuf_put(&b[0], 0, hx, (n + off) * 4) != 0) return jd_failf(t, "the judge's own copies failed"), -1;
    for (int s = 0; s < 3; s++) {
        char what[160];
        snprintf(what, sizeof what, "%s, n=%zu, offset %zu, %s", SCAN_NAMES[s], n, off, data);
        t->tests++;
        if (jd_gbuf_poison(&b[1], off * 4, n * 4) != 0) return jd_failf(t, "the judge's own copies failed"), -1;
        const jd_gbuf *a[2] = { n + off ? &b[0] : NULL, &b[1] };
        size_t lead[2] = { off * 4, off * 4 };
        long long i64[8] = { (long long)n, s, W07_WS_POISON };
        int c = call(J, W07_FN_SCAN, 2, a, lead, i64, SCAN_NAMES[s], what, t, NULL);
        if (c < 0) return -1;
        if (c) continue;
        int f = jd_gbuf_fetch(&b[1], off * 4, n * 4, got, "y", what, t);
        if (f < 0) return -1;
        if (!f) expect_f32(got, ref64, ref32, n, atol, rtol, "y", what, t);
    }
    return 0;
}

static void judge_scan(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t maxn = W07_SCAN_FLOAT_MAX_N;
    for (size_t i = 0; i < W07_N_SCAN_EXACT; i++)
        if (w07_scan_exact_n((int)i) > maxn) maxn = w07_scan_exact_n((int)i);
    jd_gbuf b[2];
    size_t cap[2] = { (maxn + 3) * 4, (maxn + 3) * 4 };
    if (bufs_alloc(J, b, 2, cap, t) != 0) return;
    float *hx = malloc((maxn + 3) * 4), *ref = malloc(maxn * 4), *got = malloc(maxn * 4);
    double *ref64 = malloc(maxn * 8);
    if (!hx || !ref || !got || !ref64) jd_failf(t, "out of memory");
    for (int i = 0; ref64 && got && ref && hx && i < (int)W07_N_SCAN_EXACT && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W07_SCAN_EXACT_TAG, i);
        size_t n = w07_scan_exact_n(i), off = w07_scan_exact_off(i);
        w07_scan_exact_fill(&r, hx, n, off, ref);
        if (scan_case(J, b, hx, n, off, ref, NULL, 0, 0, "integer data", got, t) < 0) break;
    }
    for (int i = 0; ref64 && got && ref && hx && i < W07_N_SCAN_FLOAT && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W07_SCAN_FLOAT_TAG, i);
        size_t n = w07_scan_float_n(&r);
        w07_scan_float_fill(&r, i, hx, n, ref64);
        if (scan_case(J, b, hx, n, 0, NULL, ref64, W07_SCAN_ATOL, W07_SCAN_RTOL,
                      i == 1 ? "a NaN" : i == 2 ? "an Inf" : "floats in [0, 1)", got, t) < 0)
            break;
    }
    free(hx), free(ref), free(got), free(ref64);
    bufs_free(J, b, 2);
}

/* ---------------------------------------------------------------- histogram */

static const char *const HIST_NAMES[3] = { "hist_global", "hist_shared", "hist_warp" };

static void judge_hist(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    jd_gbuf b[2];
    size_t cap[2] = { W07_HIST_MAX_N + 16, W07_HIST_BINS * 4 };
    if (bufs_alloc(J, b, 2, cap, t) != 0) return;
    unsigned char *hx = malloc(W07_HIST_MAX_N + 16);
    if (!hx) jd_failf(t, "out of memory");
    for (int i = 0; hx && i < W07_N_HIST && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W07_HIST_TAG, i);
        size_t n = w07_hist_n(i);
        uint32_t ref[W07_HIST_BINS], got[W07_HIST_BINS];
        size_t off = w07_hist_fill(&r, i, hx, ref);
        if (jd_gbuf_put(&b[0], 0, hx, n + 16) != 0) {
            jd_failf(t, "the judge's own copies failed");
            break;
        }
        int lost = 0;
        for (int h = 0; h < 3 && !lost; h++) {
            char what[160];
            snprintf(what, sizeof what, "%s, n=%zu at byte offset %zu, %s", HIST_NAMES[h], n, off, W07_HIST_KIND[i / 10]);
            t->tests++;
            if (jd_gbuf_poison(&b[1], 0, sizeof ref) != 0) { /* each version from poisoned bins: it must zero them */
                lost = 1, jd_failf(t, "the judge's own copies failed");
                break;
            }
            const jd_gbuf *a[2] = { &b[0], &b[1] };
            size_t lead[2] = { off, 0 };
            long long i64[8] = { (long long)n, h };
            int c = call(J, W07_FN_HIST, 2, a, lead, i64, HIST_NAMES[h], what, t, NULL);
            if (c < 0) lost = 1;
            if (c) continue;
            int f = jd_gbuf_fetch(&b[1], 0, sizeof got, got, "bins", what, t);
            if (f < 0) lost = 1;
            if (!f) expect_u32(got, ref, W07_HIST_BINS, "bins", what, t);
        }
        if (lost) break;
    }
    free(hx);
    bufs_free(J, b, 2);
}

/* ---------------------------------------------------------------- compaction */

/* One compaction case (w07_compact_fill): the count exact, the kept words
 * as a multiset, out past the count still poison, nothing outside out or
 * the count written. hx, ref, got: n + off + 1 words. 0, or -1 lost. */
static int compact_case(jd *J, jd_gbuf *b, wb_rng *r, size_t n, size_t off, int kind, uint32_t *hx, uint32_t *ref,
                        uint32_t *got, jd_tally *t)
{
    size_t nref = w07_compact_fill(r, kind, hx, n, off, ref);
    char what[160];
    snprintf(what, sizeof what, "atomics_compact_warp, n=%zu, x+%zu, %s", n, off, W07_COMPACT_KIND[kind]);
    t->tests++;
    if (jd_gbuf_put(&b[0], 0, hx, (n + off) * 4) != 0 || jd_gbuf_poison(&b[1], 0, n * 4) != 0 ||
        jd_gbuf_poison(&b[2], 0, 4) != 0)
        return jd_failf(t, "the judge's own copies failed"), -1;
    const jd_gbuf *a[3] = { n + off ? &b[0] : NULL, &b[1], &b[2] };
    size_t lead[3] = { off * 4, 0, 0 };
    long long i64[8] = { (long long)n, w07_compact_thresh(kind) };
    int c = call(J, W07_FN_COMPACT, 3, a, lead, i64, "atomics_compact_warp", what, t, NULL);
    if (c) return c < 0 ? -1 : 0;
    uint32_t count;
    int f = jd_gbuf_fetch(&b[2], 0, 4, &count, "count", what, t);
    if (!f) f = jd_gbuf_fetch(&b[1], 0, n * 4, got, "out", what, t);
    if (f) return f < 0 ? -1 : 0;
    if (count != nref) return jd_failf(t, "%s: count %u, expected %zu", what, count, nref), 0;
    size_t past = 0;
    for (size_t i = nref; i < n; i++) past += got[i] != 0xFFFFFFFFu;
    if (past) return jd_failf(t, "%s: %zu elements of out past the count (%zu) were written", what, past, nref), 0;
    qsort(got, nref, 4, w07_cmp_u32);
    qsort(ref, nref, 4, w07_cmp_u32);
    expect_u32(got, ref, nref, "out, sorted", what, t);
    return 0;
}

static void judge_compact(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t maxn = W07_COMPACT_MAX_N;
    if (W07_SIZES[W07_N_SIZES - 1] > maxn) maxn = W07_SIZES[W07_N_SIZES - 1];
    jd_gbuf b[3];
    size_t cap[3] = { (maxn + 4) * 4, maxn * 4, 4 };
    if (bufs_alloc(J, b, 3, cap, t) != 0) return;
    uint32_t *hx = malloc((maxn + 4) * 4), *ref = malloc((maxn + 1) * 4), *got = malloc((maxn + 1) * 4);
    int ok = hx && ref && got;
    if (!ok) jd_failf(t, "out of memory");
    for (int i = 0; ok && i < (int)W07_N_SIZES && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W07_COMPACT_SIZES_TAG, i);
        if (compact_case(J, b, &r, W07_SIZES[i], (size_t)(i % 4), i % 5, hx, ref, got, t) < 0) ok = 0;
    }
    for (int i = 0; ok && i < W07_N_COMPACT_KINDS && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W07_COMPACT_KINDS_TAG, i);
        size_t n, off;
        w07_compact_kinds_case(&r, &n, &off);
        if (compact_case(J, b, &r, n, off, i, hx, ref, got, t) < 0) ok = 0;
    }
    free(hx), free(ref), free(got);
    bufs_free(J, b, 3);
}

/* ---------------------------------------------------------------- key counts */

static void judge_keycount(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    jd_gbuf b[2];
    size_t cap[2] = { (W07_KC_MAX_N + 4) * 4, (size_t)W07_KC_MAX_K * 4 };
    if (bufs_alloc(J, b, 2, cap, t) != 0) return;
    uint32_t *hk = malloc((W07_KC_MAX_N + 4) * 4), *ref = malloc(((size_t)W07_KC_MAX_K + 1) * 4),
             *got = malloc(((size_t)W07_KC_MAX_K + 1) * 4);
    if (!hk || !ref || !got) jd_failf(t, "out of memory");
    for (int i = 0; hk && ref && got && i < (int)W07_N_KC && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W07_KEYCOUNT_TAG, i);
        size_t n = W07_KC[i].n, off = (size_t)(i % 4);
        unsigned nkeys = W07_KC[i].nkeys;
        w07_keycount_fill(&r, i, hk, ref);
        char what[160];
        snprintf(what, sizeof what, "atomics_keycount_warp, n=%zu, keys+%zu, nkeys=%u, %s", n, off, nkeys,
                 W07_KC_MODE[i % 3]);
        t->tests++;
        if (jd_gbuf_put(&b[0], 0, hk, (n + off) * 4) != 0 || jd_gbuf_poison(&b[1], 0, (size_t)nkeys * 4) != 0) {
            jd_failf(t, "the judge's own copies failed");
            break;
        }
        const jd_gbuf *a[2] = { n + off ? &b[0] : NULL, &b[1] };
        size_t lead[2] = { off * 4, 0 };
        long long i64[8] = { (long long)n, nkeys };
        int c = call(J, W07_FN_KEYCOUNT, 2, a, lead, i64, "atomics_keycount_warp", what, t, NULL);
        if (c < 0) break;
        if (c) continue;
        int f = jd_gbuf_fetch(&b[1], 0, (size_t)nkeys * 4, got, "counts", what, t);
        if (f < 0) break;
        if (!f) expect_u32(got, ref, nkeys, "counts", what, t);
    }
    free(hk), free(ref), free(got);
    bufs_free(J, b, 2);
}

/* ---------------------------------------------------------------- matmul */

static const char *const MM_NAMES[2] = { "matmul_naive", "matmul_tiled" };

/* C = A B by version v into a fresh poison (C's bytes: M N floats); 0 ran,
 * 1 failed (t), -1 lost. */
static int mm_call(jd *J, jd_gbuf *b, int M, int N, int K, int v, const char *what, double *wall_us, jd_tally *t)
{
    if (jd_gbuf_poison(&b[2], 0, (size_t)M * N * 4) != 0) return jd_failf(t, "the judge's own copies failed"), -1;
    const jd_gbuf *a[3] = { &b[0], &b[1], &b[2] };
    size_t lead[3] = { 0, 0, 0 };
    long long i64[8] = { M, N, K, v };
    return call(J, W07_FN_MATMUL, 3, a, lead, i64, MM_NAMES[v], what, t, wall_us);
}

/* The test's matmul_vs_cublas: both versions at 4096^3 on inputs filled
 * from the hidden seed, 128 hidden elements of C and its first and last 64
 * against the double product; TFLOP/s by the judge's clock into detail. */
static void mm_big(jd *J, jd_tally *t, wb_result *R)
{
    const int n = W07_MM_BIG;
    size_t e = (size_t)n * n;
    jd_gbuf b[3];
    size_t cap[3] = { e * 4, e * 4, e * 4 };
    if (bufs_alloc(J, b, 3, cap, t) != 0) return;
    uint64_t s = jd_mix(jd_seed ^ 0x4d4d);
    unsigned long long sa = s = jd_mix(s), sb = s = jd_mix(s);
    wb_dfill_uniform_f32((float *)(b[0].d + JD_GBAND), e, sa, -1, 1); /* at the arrays, where the call points */
    wb_dfill_uniform_f32((float *)(b[1].d + JD_GBAND), e, sb, -1, 1);
    double tf[2] = { NAN, NAN };
    if (cudaDeviceSynchronize() != cudaSuccess) jd_failf(t, "the judge's own fill failed");
    else
        for (int v = 0; v < 2 && !J->lost; v++) {
            char what[96];
            snprintf(what, sizeof what, "%s, M=N=K=%d (the timed size)", MM_NAMES[v], n);
            t->tests++;
            double us = 0;
            if (mm_call(J, b, n, n, n, v, what, &us, t) != 0) continue;
            tf[v] = 2.0 * n * n * (double)n / (us * 1e-6) / 1e12;
            enum { S = W07_MM_BIG_SAMPLES + 128 };
            size_t idx[S];
            for (int j = 0; j < 64; j++) idx[j] = (size_t)j, idx[64 + j] = e - 64 + (size_t)j;
            for (int j = 128; j < S; j++) idx[j] = (size_t)((s = jd_mix(s)) % e);
            for (int j = 0; j < S; j++) {
                float got;
                if (cudaMemcpy(&got, b[2].d + JD_GBAND + idx[j] * 4, 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
                    jd_failf(t, "%s: reading C failed", what);
                    break;
                }
                size_t r = idx[j] / n, c = idx[j] % n;
                double acc = 0;
                for (size_t q = 0; q < (size_t)n; q++)
                    acc += (double)wb_hash_uniform_f32(sa, r * n + q, -1, 1) * wb_hash_uniform_f32(sb, q * n + c, -1, 1);
                char nm[48];
                snprintf(nm, sizeof nm, "C (row %zu, col %zu): C", r, c);
                if (expect_f32(&got, &acc, NULL, 1, W07_MM_BIG_ATOL, W07_MM_BIG_RTOL, nm, what, t)) break;
            }
        }
    snprintf(R->detail, sizeof R->detail, "4096^3: naive %.2f, tiled %.2f TFLOP/s by the judge's clock (one call each)",
             tf[0], tf[1]);
    bufs_free(J, b, 3);
}

static void judge_matmul(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t ma = 0, mb = 0, mc = 0;
    for (size_t i = 0; i < W07_N_MM; i++) {
        size_t M = (size_t)W07_MM_SHAPES[i][0], N = (size_t)W07_MM_SHAPES[i][1], K = (size_t)W07_MM_SHAPES[i][2];
        if (M * K + 1 > ma) ma = M * K + 1;
        if (K * N + 1 > mb) mb = K * N + 1;
        if (M * N > mc) mc = M * N;
    }
    jd_gbuf b[3];
    size_t cap[3] = { ma * 4, mb * 4, mc * 4 };
    if (bufs_alloc(J, b, 3, cap, t) != 0) return;
    float *hA = malloc(ma * 4), *hB = malloc(mb * 4), *got = malloc(mc * 4);
    double *ref = malloc(mc * 8);
    int ok = hA && hB && got && ref;
    if (!ok) jd_failf(t, "out of memory");
    for (int i = 0; ok && i < (int)W07_N_MM && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W07_MATMUL_TAG, i);
        int M = W07_MM_SHAPES[i][0], N = W07_MM_SHAPES[i][1], K = W07_MM_SHAPES[i][2];
        w07_matmul_fill(&r, M, N, K, hA, hB, ref);
        if (jd_gbuf_put(&b[0], 0, hA, ((size_t)M * K + 1) * 4) != 0 ||
            jd_gbuf_put(&b[1], 0, hB, ((size_t)K * N + 1) * 4) != 0) {
            ok = 0, jd_failf(t, "the judge's own copies failed");
            break;
        }
        for (int v = 0; v < 2 && ok; v++) {
            char what[96];
            snprintf(what, sizeof what, "%s, M=%d N=%d K=%d", MM_NAMES[v], M, N, K);
            t->tests++;
            int c = mm_call(J, b, M, N, K, v, what, NULL, t);
            if (c < 0) ok = 0;
            if (c) continue;
            int f = jd_gbuf_fetch(&b[2], 0, (size_t)M * N * 4, got, "C", what, t);
            if (f < 0) ok = 0;
            if (!f) expect_f32(got, ref, NULL, (size_t)M * N, w07_mm_atol(K), W07_MM_RTOL, "C", what, t);
        }
    }
    free(hA), free(hB), free(got), free(ref);
    bufs_free(J, b, 3);
    if (ok && !J->lost) mm_big(J, t, k->R);
}

/* ---------------------------------------------------------------- the speed checkpoints */

#define TIMED 7

enum { JOB_REDUCE, JOB_SCAN, JOB_HIST, JOB_KEYCOUNT };

/* The job a call belongs to, the student's or its yardstick's. */
static int job_of(int fn)
{
    switch (fn) {
    case W07_FN_SCAN: case W07_YARD_CUB_SCAN: return JOB_SCAN;
    case W07_FN_HIST: case W07_YARD_CUB_HIST: return JOB_HIST;
    case W07_FN_KEYCOUNT: case W07_YARD_NAIVE_KEYCOUNT: return JOB_KEYCOUNT;
    }
    return JOB_REDUCE;
}

/* What a rep's output must be, computed from its input's seed by the
 * judge's kernels (the input is the seed's fill): the last seed's kept (the
 * look asks JD_SAMPLES times a rep). 0, or -1 when a kernel failed. */
typedef struct {
    unsigned long long seed;
    int                ok, kind;               /* the job it is for (JOB_*): jobs share the seeds' sequence */
    size_t             n;
    double             sum;                /* reduce: the double sum of the floats */
    uint32_t           bins[W07_HIST_BINS]; /* hist: the counts of the bytes */
    unsigned long long in_range;           /* keycount at one key: counts[0] */
    double            *prefix;             /* scan: the double prefix sums (device, n) */
} want_cache;

static int wanted(const jd_bench *b, unsigned long long seed, want_cache **out)
{
    static want_cache c;
    static void *d;
    *out = &c;
    if (c.ok && c.seed == seed && c.kind == job_of(b->fn) && c.n == b->n) return 0;
    c.ok = 0, c.kind = job_of(b->fn), c.n = b->n;
    if (!d && cudaMalloc(&d, W07_HIST_BINS * 4) != cudaSuccess) return d = NULL, -1;
    cudaError_t e;
    void *h;
    size_t bytes;
    if (b->fn == W07_FN_SCAN || b->fn == W07_YARD_CUB_SCAN) { /* n doubles of the judge's, once */
        static size_t cap;
        if (b->n > cap) {
            if (c.prefix) cudaFree(c.prefix);
            c.prefix = NULL, cap = 0;
            if (cudaMalloc((void **)&c.prefix, b->n * sizeof *c.prefix) != cudaSuccess) return c.prefix = NULL, -1;
            cap = b->n;
        }
        if (jd_hash_prefix_f64(b->n, seed, b->lo, b->hi, c.prefix, jd_stream) != cudaSuccess) return -1;
        c.seed = seed, c.ok = 1;
        return 0;
    }
    if (b->fn == W07_FN_HIST || b->fn == W07_YARD_CUB_HIST)
        e = jd_hash_bytes_hist(b->n, seed, d, jd_stream), h = c.bins, bytes = sizeof c.bins;
    else if (b->fn == W07_FN_KEYCOUNT || b->fn == W07_YARD_NAIVE_KEYCOUNT)
        e = jd_hash_keys_in_range(b->n, seed, 1, d, jd_stream), h = &c.in_range, bytes = sizeof c.in_range;
    else e = jd_hash_sum_f64(b->n, seed, b->lo, b->hi, d, jd_stream), h = &c.sum, bytes = sizeof c.sum;
    if (e != cudaSuccess || cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
        cudaStreamSynchronize(jd_stream) != cudaSuccess)
        return -1;
    c.seed = seed, c.ok = 1;
    return 0;
}

/* Element i of the output: the sum, a bin, the count (a count's bits as a
 * float: compared bit for bit, JD_BITWISE). NaN when the kernel failed. */
static float out_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    want_cache *c;
    if (wanted(b, seed[0], &c) != 0) return NAN;
    if (b->fn == W07_FN_SCAN || b->fn == W07_YARD_CUB_SCAN) {
        double r = NAN;
        if (cudaMemcpy(&r, c->prefix + i, sizeof r, cudaMemcpyDeviceToHost) != cudaSuccess) return NAN;
        return (float)r;
    }
    if (b->out_n == 1 && b->atol != JD_BITWISE) return (float)c->sum;
    uint32_t u = b->out_n == 1 ? (uint32_t)c->in_range : c->bins[i % W07_HIST_BINS];
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Every element of a rep's output against out_expect (a scan's: the
 * judge's kernel against the double prefix sums). */
static int out_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                     unsigned long long h[2])
{
    if (b->fn == W07_FN_SCAN || b->fn == W07_YARD_CUB_SCAN) {
        want_cache *c;
        if (wanted(b, seed[0], &c) != 0) return -1;
        return jd_full_check_done(jd_prefix_check_f32(out, c->prefix, b->n, b->atol, b->rtol, bad, jd_stream), bad, h);
    }
    float got[W07_HIST_BINS];
    size_t m = b->out_n;
    if (m > W07_HIST_BINS || cudaMemcpyAsync(got, out, m * 4, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
        cudaStreamSynchronize(jd_stream) != cudaSuccess)
        return -1;
    h[0] = 0, h[1] = 0;
    for (size_t i = 0; i < m; i++) {
        float want = out_expect(b, seed, i);
        int ok = b->atol == JD_BITWISE ? memcmp(&got[i], &want, 4) == 0 : wb_close(got[i], (double)want, b->atol, 0);
        if (!ok && !h[0]++) h[1] = i;
    }
    return 0;
}

static void fill_bytes(const jd_bench *b, void *in, unsigned long long seed) { jd_hash_bytes(in, b->n, seed, 0); }
static void fill_keys(const jd_bench *b, void *in, unsigned long long seed) { jd_hash_keys(in, b->n, seed, 1, 0); }

/* The four timed jobs, the student's call (yard 0) or its yardstick's:
 *   reduce: reduce_sum(6, ...) or CUB's sum on wb_bench_bytes() of floats
 *     in [0, 1), one float out; the test's tolerance, 1e-5 sum |x|, taken at
 *     0.4999 n (sum |x| is n/2 within a few 1e-5 of it: no laxer);
 *   scan: scan_fast or CUB's InclusiveSum on the same floats, n out, every
 *     element within the test's 1e-2 + 1e-4 |ref| of the double prefix;
 *   hist: hist_shared or CUB's HistogramEven (bins zeroed first, as the
 *     test's yardstick) on wb_bench_bytes() of uniform random bytes, 256
 *     bins out, exact;
 *   keycount: atomics_keycount_warp or the given naive one, one key (nkeys
 *     1), wb_bench_bytes() / 4 keys: 0, but one in 65536 out of range (so the
 *     count is fresh for every rep), counts[0] exact. */
static void job_bench(jd_bench *x, int job, int yard)
{
    memset(x, 0, sizeof *x);
    x->n_in = 1, x->max_k = JD_BENCH_MAX_K, x->expect = out_expect, x->full_check = out_check;
    if (job == JOB_REDUCE) {
        x->fn = yard ? W07_YARD_CUB_SUM : W07_FN_REDUCE, x->out_n = 1, x->n = wb_bench_bytes() / 4;
        x->lo = 0.0f, x->hi = 1.0f, x->atol = 1e-5 * 0.4999 * (double)x->n;
        x->i64[1] = 6, x->i64[2] = W07_WS_KEEP; /* the student's: version 6, the workspace kept */
        x->fn_name = yard ? "cub::DeviceReduce::Sum" : "reduce_sum", x->out_name = "sum";
    } else if (job == JOB_SCAN) {
        x->fn = yard ? W07_YARD_CUB_SCAN : W07_FN_SCAN, x->n = wb_bench_bytes() / 4;
        x->lo = 0.0f, x->hi = 1.0f, x->atol = W07_SCAN_BENCH_ATOL, x->rtol = W07_SCAN_BENCH_RTOL;
        x->i64[1] = 2, x->i64[2] = W07_WS_KEEP; /* scan_fast, the workspace kept */
        x->fn_name = yard ? "cub::DeviceScan::InclusiveSum" : "scan_fast", x->out_name = "y";
    } else if (job == JOB_HIST) {
        x->fn = yard ? W07_YARD_CUB_HIST : W07_FN_HIST, x->out_n = W07_HIST_BINS, x->n = wb_bench_bytes();
        x->in_bytes = x->n, x->fill = fill_bytes, x->atol = JD_BITWISE;
        x->i64[1] = 1; /* hist_shared */
        x->fn_name = yard ? "cub::DeviceHistogram::HistogramEven" : "hist_shared", x->out_name = "bins";
    } else {
        x->fn = yard ? W07_YARD_NAIVE_KEYCOUNT : W07_FN_KEYCOUNT, x->out_n = 1, x->n = wb_bench_bytes() / 4;
        x->fill = fill_keys, x->atol = JD_BITWISE;
        x->i64[1] = 1; /* nkeys */
        if (yard) x->max_k = 4; /* about 75 ms a call: the protocol's cost is nothing beside it */
        x->fn_name = yard ? "yard_keycount_naive" : "atomics_keycount_warp", x->out_name = "counts";
    }
}

/* What a call of job moves, in its unit (GB/s: bytes; Gkeys/s: keys), an element. */
static const struct {
    double      per_elem;
    const char *unit, *label;
} JOB[] = { { 4.0, "GB/s", "reduce v6" },
            { 8.0, "GB/s", "scan_fast" },
            { 1.0, "GB/s", "hist_shared" },
            { 1.0, "Gkeys/s", "keycount, 1 key" } };

static jd_bench g_yard_b;                          /* large: its sample arrays */
static double   g_before[4] = { NAN, NAN, NAN, NAN }; /* each yardstick before the student's runner started */
static char     g_yard_why[700];

/* job's yardstick through the week's yard runner: its figure, or NAN (g_yard_why). */
static double yard_figure(int job)
{
    job_bench(&g_yard_b, job, 1);
    double ms = NAN;
    if (jd_yard_bench(W07_YARD_RUNNER, &g_yard_b, TIMED, &ms, g_yard_why, sizeof g_yard_why) != 0) return NAN;
    return JOB[job].per_elem * (double)g_yard_b.n / (ms * 1e-3) / 1e9;
}

static void before_reduce(void) { g_before[JOB_REDUCE] = yard_figure(JOB_REDUCE); }
static void before_scan(void) { g_before[JOB_SCAN] = yard_figure(JOB_SCAN); }
static void before_hist(void) { g_before[JOB_HIST] = yard_figure(JOB_HIST); }
static void before_keycount(void) { g_before[JOB_KEYCOUNT] = yard_figure(JOB_KEYCOUNT); }

/* The student's job timed, then its yardstick again: the larger of before
 * and now (the student's runner can only slow the GPU down). */
static void judge_speed(jd_ck *k, int job)
{
    static jd_bench x; /* large: its sample arrays */
    job_bench(&x, job, 0);
    double ms = NAN, value = NAN, yard = NAN;
    char why[700] = "", detail[200] = "";
    if (jd_bench_run(k->J, &x, TIMED, &ms, why, sizeof why) == 0) {
        yard = yard_figure(job);
        if (g_before[job] > yard || !(yard > 0)) yard = g_before[job];
        if (!(yard > 0)) snprintf(why, sizeof why, "no yardstick figure: %s", g_yard_why);
        value = JOB[job].per_elem * (double)x.n / (ms * 1e-3) / 1e9;
        snprintf(detail, sizeof detail, "%.4g %s vs %s %.4g (judge's clock, %d calls a request, median of %d)", value,
                 JOB[job].unit, k->c->yard[0] ? k->c->yard : "yardstick", yard, x.k, TIMED);
        printf("  %s: %.4f ms a call by the judge's clock (%.4f by the runner's own), %s\n", JOB[job].label, ms,
               x.runner_ms, detail);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, JOB[job].unit, "", yard, detail, why);
}

static void judge_reduce_bw(jd_ck *k) { judge_speed(k, JOB_REDUCE); }
static void judge_scan_bw(jd_ck *k) { judge_speed(k, JOB_SCAN); }
static void judge_hist_bw(jd_ck *k) { judge_speed(k, JOB_HIST); }
static void judge_keycount_speed(jd_ck *k) { judge_speed(k, JOB_KEYCOUNT); }

static const jd_checkpoint CPS[] = {
    { "w07.reduce", judge_reduce, NULL, 0, 0 },
    { "w07.reduce-bw", judge_reduce_bw, NULL, 0, 0, before_reduce },
    { "w07.scan", judge_scan, NULL, 0, 0 },
    { "w07.scan-bw", judge_scan_bw, NULL, 0, 0, before_scan },
    { "w07.hist", judge_hist, NULL, 0, 0 },
    { "w07.hist-bw", judge_hist_bw, NULL, 0, 0, before_hist },
    { "w07.compact", judge_compact, NULL, 0, 0 },
    { "w07.keycount", judge_keycount, NULL, 0, 0 },
    { "w07.keycount-speed", judge_keycount_speed, NULL, 0, 0, before_keycount },
    { "w07.matmul", judge_matmul, NULL, 0, 0 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w07", "phase1/week07", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
