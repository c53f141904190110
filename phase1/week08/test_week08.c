/* test_week08.c — week 08's checkpoints: last-block reduction, grid sync,
 * warp-vote compaction, a lock-free stack, the message-passing litmus
 * (release/acquire at device and block scope), atomics with scopes, and a
 * shared-memory race judged by compute-sanitizer racecheck (w08.racecheck:
 * this program runs itself under racecheck, see racefix_racecheck).
 * Many seeds: WB_SEED=random. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wb_multicast.h"
#include "wb_harness.h"
#include "gridsync.h"
#include "lastblock.h"
#include "lfstack.h"
#include "litmus.h"
#include "racefix.h"
#include "tally.h"
#include "vote.h"
#include "w08_checks.h"

#define SIZES W08_SIZES /* the sizes, the cases and their checks: w08_checks.h, shared with the judge */

/* ---------------------------------------------------------------- lastblock */

START_TEST(lastblock_exact_deterministic)
{
    ck_assert_str_eq(__func__, W08_LASTBLOCK_TAG); /* the judge draws these cases by this tag (w08_checks.h) */
    wb_rng rng = WB_RNG();
    size_t n = SIZES[_i];
    float *hx = wb_hmalloc((n + 1) * 4);
    double ref = w08_lastblock_ints(&rng, hx, n); /* exact in any order */
    float *dx = wb_dcopy(hx, n * 4);
    void *tmp = wb_dmalloc(lastblock_tmp_bytes());
    wb_dout out;
    float *dout = wb_dout_alloc(&out, "sum", 4, 0);
    char what[64];
    for (int run = 0; run < W08_LASTBLOCK_INT_RUNS; run++) { /* the same workspace: the counter must come back to 0 */
        wb_dout_poison(&out);
        WB_CUDA(lastblock_reduce(dx, n, dout, tmp));
        float got;
        snprintf(what, sizeof what, "n=%zu, run %d, integer data", n, run + 1);
        wb_expect_dout_guards(&out, &got, what);
        ck_assert_msg(got == (float)ref, "n=%zu, run %d (seed %llu): sum %.1f, expected %.1f", n, run + 1,
                      (unsigned long long)wb_base_seed(), got, ref);
    }
    /* float data: close to the double sum, and the same bits every run */
    double tol, fref = w08_lastblock_floats(&rng, hx, n, &tol);
    wb_h2d(dx, hx, n * 4);
    uint32_t bits0 = 0;
    for (int run = 0; run < W08_LASTBLOCK_FLOAT_RUNS; run++) {
        wb_dout_poison(&out);
        WB_CUDA(lastblock_reduce(dx, n, dout, tmp));
        float got;
        snprintf(what, sizeof what, "n=%zu, run %d, float data", n, run + 1);
        wb_expect_dout_guards(&out, &got, what);
        ck_assert_msg(wb_close(got, fref, tol, 0), "n=%zu float data: sum %.9g, expected %.9g", n, got, fref);
        uint32_t bits;
        memcpy(&bits, &got, 4);
        if (run == 0) bits0 = bits;
        ck_assert_msg(bits == bits0, "n=%zu: run %d gave different bits (0x%08x vs 0x%08x): the sum is not deterministic",
                      n, run + 1, bits, bits0);
    }
    wb_dfree(dx), wb_dout_free(&out), wb_dfree(tmp);
    free(hx);
}
END_TEST

/* ---------------------------------------------------------------- gridsync */

START_TEST(center_sizes)
{
    ck_assert_str_eq(__func__, W08_CENTER_TAG);
    wb_rng rng = WB_RNG();
    size_t n = w08_center_n(&rng, _i);
    float *hx = wb_hmalloc(n * 4);
    double *ref = wb_hmalloc(n * 8);
    w08_center_draw(&rng, hx, ref, n);
    float *dx = wb_dcopy(hx, n * 4);
    void *tmp = wb_dmalloc(gridsync_center_tmp_bytes());
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    WB_CUDA(gridsync_center_mean(dx, dy, n, tmp));
    char what[48];
    snprintf(what, sizeof what, "n=%zu", n);
    wb_expect_dout_f32_f64(&y, ref, n, W08_CENTER_ATOL, W08_CENTER_RTOL, what);
    wb_dfree(dx), wb_dout_free(&y), wb_dfree(tmp);
    free(hx), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- vote */

START_TEST(compact_sizes)
{
    ck_assert_str_eq(__func__, W08_COMPACT_TAG);
    wb_rng rng = WB_RNG();
    size_t n = w08_compact_n(&rng, _i);
    float *hx = wb_hmalloc(n * 4), *hout = wb_hmalloc(n * 4), *ref = wb_hmalloc(n * 4);
    size_t k = w08_compact_draw(&rng, hx, ref, n);
    float *dx = wb_dcopy(hx, n * 4);
    wb_dout out, cnt;
    float *dout = wb_dout_alloc(&out, "out", n * 4, 0);
    unsigned int *dcount = wb_dout_alloc(&cnt, "count", 4, 0), count = 0;
    WB_CUDA(vote_compact_positive(dx, n, dout, dcount));
    char what[64];
    snprintf(what, sizeof what, "n=%zu", n);
    wb_expect_dout_guards(&cnt, &count, what);
    /* the kept elements come in any order: the test compares them sorted, and
     * out[count..n) must still hold the poison (the guards cover past n) */
    wb_expect_dout_guards(&out, hout, what);
    ck_assert_msg(count == k, "n=%zu (seed %llu): count %u, expected %zu", n, (unsigned long long)wb_base_seed(), count, k);
    qsort(hout, k, 4, w08_cmp_float);
    qsort(ref, k, 4, w08_cmp_float);
    snprintf(what, sizeof what, "n=%zu, kept elements sorted", n);
    wb_cmp cmp;
    wb_compare_f32("out", hout, ref, k, 0, 0, &cmp);
    WB_EXPECT_CMP(cmp, what);
    ck_assert_msg(wb_count_not_byte(hout + k, (n - k) * 4, 0xFF) == 0, "n=%zu: written past out[count-1]", n);
    wb_dfree(dx), wb_dout_free(&out), wb_dout_free(&cnt);
    free(hx), free(hout), free(ref);
}
END_TEST

/* ---------------------------------------------------------------- lfstack */

START_TEST(stack_push_pop)
{
    size_t n = W08_STACK_SIZES[_i], extra = W08_STACK_EXTRA, m = n + extra;
    wb_dout head_o, next_o, pop_o;
    unsigned int *dhead = wb_dout_alloc(&head_o, "head", 4, 0), *dnext = wb_dout_alloc(&next_o, "next", n * 4, 0),
                 *dpop = wb_dout_alloc(&pop_o, "popped", m * 4, 0);
    unsigned int empty = STACK_EMPTY, head;
    unsigned int *next = wb_hmalloc(n * 4), *pop = wb_hmalloc(m * 4);
    unsigned char *seen = calloc(n, 1);
    char what[48];
    wb_h2d(dhead, &empty, 4);
    WB_CUDA(lfstack_push_all(dhead, dnext, n));
    snprintf(what, sizeof what, "n=%zu, after the pushes", n);
    wb_expect_dout_guards(&head_o, &head, what);
    wb_expect_dout_guards(&next_o, next, what);
    char err[200];
    if (w08_stack_walk(head, next, n, seen, err, sizeof err)) ck_abort_msg("%s", err); /* w08_checks.h: the judge's too */
    WB_CUDA(lfstack_pop_all(dhead, dnext, dpop, m));
    snprintf(what, sizeof what, "n=%zu, after the pops", n);
    wb_expect_dout_guards(&pop_o, pop, what);
    wb_expect_dout_guards(&head_o, &head, what);
    if (w08_stack_pops(pop, m, n, head, seen, err, sizeof err)) ck_abort_msg("%s", err);
    wb_dout_free(&head_o), wb_dout_free(&next_o), wb_dout_free(&pop_o);
    free(next), free(pop), free(seen);
}
END_TEST

/* ---------------------------------------------------------------- litmus
 *
 * A litmus test on a GPU is probabilistic: a missing fence MAY show as a
 * stale read, and may not in any number of rounds. The checkpoints therefore
 * judge only what the memory model forbids: with release/acquire at a scope
 * that holds both threads a stale read never happens, so a correct solution
 * cannot fail by chance; a wrong one is caught when it shows one, or at once
 * when it delivers nothing (every data and flag must hold the round's value
 * afterwards, every reader must write what it saw). The stale reads of the
 * unordered demonstrations are reported (wb_report), never judged. */

typedef w08_mp_count mp_count;

/* `rounds` rounds of `kind` on npairs pairs, fresh round values. 0, or 1 and
 * *err says what is wrong (a record not written, a value no writer stored, a
 * message not delivered). Stale reads are counted, not judged. */
static int mp_run(wb_rng *rng, size_t npairs, int kind, int rounds, mp_count *c, char *err, size_t errsz)
{
    memset(c, 0, sizeof *c);
    err[0] = 0;
    wb_dout data_o, flag_o, seen_o;
    unsigned int *ddata = wb_dout_alloc(&data_o, "data", npairs * 4, 0), *dflag = wb_dout_alloc(&flag_o, "flag", npairs * 4, 0),
                 *dseen = wb_dout_alloc(&seen_o, "seen", 2 * npairs * 4, 0);
    unsigned int *hd = wb_hmalloc(npairs * 4 + 4), *hf = wb_hmalloc(npairs * 4 + 4), *hs = wb_hmalloc(2 * npairs * 4 + 4);
    unsigned int base = w08_mp_base(rng);
    for (size_t p = 0; p < npairs; p++) hd[p] = hf[p] = base - 1;
    wb_h2d(ddata, hd, npairs * 4);
    wb_h2d(dflag, hf, npairs * 4);
    char what[96];
    for (int k = 0; k < rounds && !err[0]; k++) {
        unsigned int r = base + (unsigned int)k;
        wb_dout_poison(&seen_o);
        WB_CUDA(litmus_mp_round(ddata, dflag, dseen, npairs, r, kind));
        snprintf(what, sizeof what, "npairs=%zu, round %d", npairs, k + 1);
        wb_expect_dout_guards(&seen_o, hs, what);
        wb_expect_dout_guards(&data_o, hd, what);
        wb_expect_dout_guards(&flag_o, hf, what);
        w08_mp_round_check(hs, hd, hf, npairs, r, what, c, err, errsz);
    }
    wb_dout_free(&data_o), wb_dout_free(&flag_o), wb_dout_free(&seen_o);
    free(hd), free(hf), free(hs);
    return err[0] != 0;
}

static void check_mp(wb_rng *rng, size_t npairs, int kind, int rounds)
{
    mp_count c;
    char err[300];
    if (mp_run(rng, npairs, kind, rounds, &c, err, sizeof err))
        ck_abort_msg("%s (seed %llu)", err, (unsigned long long)wb_base_seed());
    printf("  npairs=%zu, %d rounds: flag seen raised in %zu of %zu reads, %zu stale\n", npairs, rounds, c.raised, c.reads,
           c.stale);
    ck_assert_msg(c.stale == 0,
                  "npairs=%zu (seed %llu): %zu of %zu reads saw the flag raised and OLD data: the release/acquire pair "
                  "does not order data before flag (or its scope does not hold both threads)",
                  npairs, (unsigned long long)wb_base_seed(), c.stale, c.raised);
}

#define MP_SIZES W08_MP_SIZES

START_TEST(mp_device_sizes)
{
    ck_assert_str_eq(__func__, W08_MP_DEVICE_TAG);
    wb_rng rng = WB_RNG();
    check_mp(&rng, MP_SIZES[_i], MP_DEVICE, w08_mp_rounds(MP_SIZES[_i]));
}
END_TEST

START_TEST(mp_block_sizes)
{
    ck_assert_str_eq(__func__, W08_MP_BLOCK_TAG);
    wb_rng rng = WB_RNG();
    check_mp(&rng, MP_SIZES[_i], MP_BLOCK, w08_mp_rounds(MP_SIZES[_i]));
}
END_TEST

/* The demonstration: your device-scope version must be clean first, then the
 * unordered versions run the same rounds and their stale reads are reported.
 * Zero stale reads there proves nothing: the model allows them, the hardware
 * need not show them. */
START_TEST(mp_demo)
{
    enum { NP = W08_MP_DEMO_NP, ROUNDS = W08_MP_DEMO_ROUNDS };
    ck_assert_str_eq(__func__, W08_MP_DEMO_TAG);
    wb_rng rng = WB_RNG();
    mp_count c;
    char err[300], fig[400];
    if (mp_run(&rng, NP, MP_DEVICE, ROUNDS, &c, err, sizeof err)) ck_abort_msg("%s (seed %llu)", err, (unsigned long long)wb_base_seed());
    ck_assert_msg(c.stale == 0, "release/acquire at device scope: %zu stale reads of %zu raised flags (seed %llu)", c.stale,
                  c.raised, (unsigned long long)wb_base_seed());
    int len = snprintf(fig, sizeof fig, "stale reads / flags seen raised over %d x %d pairs: release/acquire %zu/%zu", ROUNDS,
                       NP, c.stale, c.raised);
    static const struct { int kind; const char *name; } DEMOS[] = {
        { MP_DEMO_PLAIN, "plain+volatile" }, { MP_DEMO_RELAXED, "relaxed" }, { MP_DEMO_NARROW, "block scope across blocks" } };
    for (size_t k = 0; k < WB_COUNT(DEMOS); k++) {
        if (mp_run(&rng, NP, DEMOS[k].kind, ROUNDS, &c, err, sizeof err))
            len += snprintf(fig + len, sizeof fig - len, ", %s: no figure", DEMOS[k].name), printf("  %s: %s\n", DEMOS[k].name, err);
        else
            len += snprintf(fig + len, sizeof fig - len, ", %s %zu/%zu", DEMOS[k].name, c.stale, c.raised);
        if (len >= (int)sizeof fig) len = (int)sizeof fig - 1;
    }
    printf("  %s\n", fig);
    wb_report(fig);
}
END_TEST

/* ---------------------------------------------------------------- tally */

static void check_tally(wb_rng *rng, size_t n, unsigned int nbins, int skew)
{
    unsigned int *keys = wb_hmalloc(n * 4 + 4), *ref = wb_hmalloc((size_t)nbins * 4), *got = wb_hmalloc((size_t)nbins * 4);
    w08_tally_draw(rng, keys, ref, n, nbins, skew); /* skew: half the keys on one bin */
    unsigned int *dkeys = wb_dcopy(keys, n * 4);
    wb_dout c;
    unsigned int *dc = wb_dout_alloc(&c, "counts", (size_t)nbins * 4, 0);
    char what[96];
    snprintf(what, sizeof what, "tally_device, n=%zu, %u bins%s", n, nbins, skew ? ", half the keys on one bin" : "");
    WB_CUDA(tally_device(dkeys, n, dc, nbins));
    wb_expect_dout_u32(&c, ref, nbins, what);
    wb_dout_poison(&c);
    snprintf(what, sizeof what, "tally_block, n=%zu, %u bins%s", n, nbins, skew ? ", half the keys on one bin" : "");
    cudaError_t e = tally_block(dkeys, n, dc, nbins);
    if (nbins <= TALLY_SHARED_MAX) {
        WB_CUDA(e);
        wb_expect_dout_u32(&c, ref, nbins, what);
    } else {
        ck_assert_msg(e == cudaErrorInvalidValue, "%s: returned %s, expected cudaErrorInvalidValue (too many bins for shared memory)",
                      what, cudaGetErrorName(e));
        wb_expect_dout_guards(&c, got, what);
        ck_assert_msg(wb_count_not_byte(got, (size_t)nbins * 4, 0xFF) == 0, "%s: wrote counts though it refused the bins", what);
    }
    wb_dfree(dkeys), wb_dout_free(&c);
    free(keys), free(ref), free(got);
}

START_TEST(tally_sizes)
{
    ck_assert_str_eq(__func__, W08_TALLY_TAG);
    wb_rng rng = WB_RNG();
    size_t n = w08_tally_n(_i);
    for (int part = 0; part < 2; part++) check_tally(&rng, n, w08_tally_bins(&rng, _i, part), w08_tally_skew(_i, part));
}
END_TEST

/* ---------------------------------------------------------------- racefix
 *
 * w08.racecheck has two parts. racefix_sizes: the stencil exact against the
 * CPU on fresh inputs, every edge size and grid (a race can give right
 * numbers, so this alone proves little). racefix_racecheck: compute-sanitizer
 * --tool racecheck runs this very program in its probe mode (WB_RACE_PROBE,
 * read first thing in main, before any test exists), which launches
 * racefix_stencil once on a small input with few blocks (each does several
 * tiles), checks the numbers and writes its verdict to the file the variable
 * names. Any hazard fails the checkpoint, whatever the numbers said. */

#define racefix_inputs w08_racefix_inputs /* w08_checks.h */
#define racefix_ref    w08_racefix_ref
#define RF_SIZES       W08_RF_SIZES

START_TEST(racefix_sizes)
{
    ck_assert_str_eq(__func__, W08_RACEFIX_TAG);
    wb_rng rng = WB_RNG();
    size_t n = w08_rf_n(_i), lead = w08_rf_lead(_i); /* an output 0, 4 or 8 bytes past an aligned start */
    unsigned int blocks = w08_rf_blocks(_i);
    float *hx = wb_hmalloc(n * 4 + 4), *ref = wb_hmalloc(n * 4 + 4);
    racefix_taps taps;
    racefix_inputs(&rng, hx, n, &taps);
    racefix_ref(hx, n, &taps, ref);
    float *dx = wb_dcopy(hx, n * 4); /* exactly n floats: a read past x is memcheck's to see */
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, lead);
    char what[96];
    for (int run = 0; run < W08_RF_RUNS; run++) { /* a race may show on one run of several */
        wb_dout_poison(&y);
        WB_CUDA(racefix_stencil(dx, dy, n, taps, blocks));
        snprintf(what, sizeof what, "n=%zu, blocks=%u%s, run %d", n, blocks, blocks ? "" : " (chosen)", run + 1);
        wb_expect_dout_f32(&y, ref, n, 0, 0, what);
    }
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref);
}
END_TEST

/* The probe: small, and every block does several tiles (the shared array is
 * staged again over what the previous tile left there). */
enum { RF_PROBE_N = 6 * RACEFIX_TILE + 77, RF_PROBE_BLOCKS = 2 };
#define RF_PROBE_MARK "racefix probe: CUDA is up, launching racefix_stencil"

/* Runs in the program compute-sanitizer started (main, WB_RACE_PROBE set):
 * not a test, so WB_CUDA's default handler (print, exit 2) applies. Writes
 * "ok ..." or "wrong ..." to `verdict`; 0 when the numbers are right. */
static int racefix_probe(const char *verdict)
{
    wb_multicast_off();
    WB_CUDA(cudaFree(0));
    fprintf(stderr, "%s\n", RF_PROBE_MARK);
    wb_rng rng = wb_rng_for("racefix_probe", 0);
    size_t n = RF_PROBE_N;
    float *hx = wb_hmalloc(n * 4), *ref = wb_hmalloc(n * 4), *got = wb_hmalloc(n * 4);
    racefix_taps taps;
    racefix_inputs(&rng, hx, n, &taps);
    racefix_ref(hx, n, &taps, ref);
    float *dx = wb_dcopy(hx, n * 4);
    wb_dout y;
    float *dy = wb_dout_alloc(&y, "y", n * 4, 0);
    WB_CUDA(racefix_stencil(dx, dy, n, taps, RF_PROBE_BLOCKS));
    size_t guards = wb_dout_fetch(&y, got);
    wb_cmp cmp;
    wb_compare_f32("y", got, ref, n, 0, 0, &cmp);
    FILE *f = fopen(verdict, "w");
    if (!f) {
        fprintf(stderr, "racefix probe: cannot write %s: %s\n", verdict, strerror(errno));
        return 3;
    }
    if (cmp.bad) fprintf(f, "wrong: n=%zu, %u blocks: %s\n", n, (unsigned)RF_PROBE_BLOCKS, cmp.msg);
    else if (guards) fprintf(f, "wrong: n=%zu, %u blocks: %zu bytes written outside y\n", n, (unsigned)RF_PROBE_BLOCKS, guards);
    else fprintf(f, "ok: n=%zu, %u blocks, exact\n", n, (unsigned)RF_PROBE_BLOCKS);
    fclose(f);
    wb_dfree(dx), wb_dout_free(&y);
    free(hx), free(ref), free(got);
    return cmp.bad || guards ? 1 : 0;
}

/* compute-sanitizer: on PATH, else under $CUDA_HOME/bin, else in
 * /usr/local/cuda/bin (where the toolkit puts it). 0 when found. */
static int rf_find_sanitizer(char *out, size_t sz)
{
    const char *path = getenv("PATH");
    if (path) {
        const char *p = path;
        while (*p) {
            size_t len = strcspn(p, ":");
            if (len) {
                snprintf(out, sz, "%.*s/compute-sanitizer", (int)len, p);
                if (access(out, X_OK) == 0) return 0;
            }
            p += len + (p[len] == ':');
        }
    }
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(out, sz, "%s/bin/compute-sanitizer", home);
        if (access(out, X_OK) == 0) return 0;
    }
    snprintf(out, sz, "/usr/local/cuda/bin/compute-sanitizer");
    return access(out, X_OK) == 0 ? 0 : -1;
}

enum { RF_PASS, RF_FAIL, RF_SKIP };
typedef struct {
    int  status;     /* RF_PASS, RF_FAIL or RF_SKIP */
    int  hazards;    /* summed over the RACECHECK SUMMARY lines; -1: none printed */
    char msg[460];   /* why it failed or was skipped */
} rf_outcome;

/* The first race racecheck's analysis reports, as "Write at racefix.cu:41
 * and Read at racefix.cu:47": the record is a line "Error: Race reported
 * between <Kind> access at <function>+0x.. in <file:line>" and a next line
 * "and <Kind> access at ... in <file:line> [n hazards]". "" if none. */
static void rf_first_race(const char *log, char *out, size_t sz)
{
    out[0] = 0;
    const char *r = strstr(log, "Race reported between");
    if (!r) return;
    size_t len = 0;
    const char *line = r;
    for (int part = 0; part < 2 && line; part++) {
        const char *eol = strchr(line, '\n');
        size_t ll = eol ? (size_t)(eol - line) : strlen(line);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(ll < sizeof buf - 1 ? ll : sizeof buf - 1), line);
        char *acc = strstr(buf, " access at ");
        char *in = NULL;
        for (char *q = strstr(buf, " in "); q; q = strstr(q + 1, " in ")) in = q;
        if (!acc || !in) break;
        char *kind = acc;
        while (kind > buf && kind[-1] != ' ') kind--;
        char loc[160];
        snprintf(loc, sizeof loc, "%s", in + 4);
        loc[strcspn(loc, " \t\r")] = 0;
        len += snprintf(out + len, len < sz ? sz - len : 0, "%s%.*s at %s", part ? " and " : "", (int)(acc - kind), kind,
                        loc);
        line = eol ? eol + 1 : NULL;
    }
    if (len >= sz) out[sz - 1] = 0;
}

/* Judge what racecheck printed (log), how compute-sanitizer ended (how: a
 * wait status, or -1 when it was stopped after limit_s seconds) and what the
 * probe wrote (verdict, "" when it wrote nothing). */
static void rf_judge(const char *log, int how, int limit_s, const char *verdict, const char *log_path, rf_outcome *o)
{
    memset(o, 0, sizeof *o);
    o->hazards = -1;
    for (const char *p = strstr(log, "RACECHECK SUMMARY:"); p; p = strstr(p + 1, "RACECHECK SUMMARY:")) {
        int k;
        if (sscanf(p, "RACECHECK SUMMARY: %d hazard", &k) == 1) o->hazards = (o->hazards < 0 ? 0 : o->hazards) + k;
    }
    int ran = strstr(log, RF_PROBE_MARK) != NULL;
    int rc = how >= 0 && WIFEXITED(how) ? WEXITSTATUS(how) : -1;
    if (o->hazards > 0) {
        char race[240];
        rf_first_race(log, race, sizeof race);
        o->status = RF_FAIL;
        snprintf(o->msg, sizeof o->msg,
                 "racecheck found %d hazard%s in racefix_kernel%s%s%s: two threads of a block access one shared address, "
                 "one writes, and no __syncthreads() lies between; add the missing barrier (every thread must reach it). "
                 "Log: %s", o->hazards, o->hazards == 1 ? "" : "s", race[0] ? " (" : "", race, race[0] ? ")" : "", log_path);
    } else if (strncmp(verdict, "wrong", 5) == 0) {
        o->status = RF_FAIL;
        snprintf(o->msg, sizeof o->msg, "under racecheck, racefix_stencil gave wrong results: %s", verdict);
    } else if (!ran) { /* stopped before the probe's first CUDA call came back: the tool's or the host's doing */
        char first[160] = "";
        const char *e = strstr(log, "CUDA error");
        if (!e) e = strstr(log, "Error:");
        if (e) {
            while (e > log && e[-1] != '\n') e--;
            while (*e == '=' || *e == ' ') e++;
            snprintf(first, sizeof first, ": %.*s", (int)strcspn(e, "\n"), e);
        }
        o->status = RF_SKIP;
        snprintf(o->msg, sizeof o->msg, "compute-sanitizer could not run the test program (%s%s); log: %s",
                 how < 0 ? "stopped after the time limit" : rc == 127 ? "it did not start" : "it stopped before CUDA was up",
                 first, log_path);
    } else if (how < 0) {
        o->status = RF_FAIL;
        snprintf(o->msg, sizeof o->msg, "racefix_stencil did not finish in %d s under racecheck (a hang: a barrier some "
                 "threads never reach?); log: %s", limit_s, log_path);
    } else if (!verdict[0]) {
        o->status = RF_FAIL;
        snprintf(o->msg, sizeof o->msg, "racefix_stencil failed under racecheck (exit status %d: a CUDA error or a "
                 "crash); log: %s", rc, log_path);
    } else if (rc != 0) {
        o->status = RF_FAIL;
        snprintf(o->msg, sizeof o->msg, "compute-sanitizer racecheck ended with status %d though it printed no hazard; "
                 "log: %s", rc, log_path);
    } else if (o->hazards < 0) {
        o->status = RF_SKIP;
        snprintf(o->msg, sizeof o->msg, "compute-sanitizer racecheck printed no RACECHECK SUMMARY line: nothing to "
                 "judge; log: %s", log_path);
    } else {
        o->status = RF_PASS;
    }
}

/* Runs `san` --tool racecheck on `exe` in its probe mode, writing its
 * output to log_path, and judges it. Forks and execs only: no CUDA call
 * here (this runs in Check's test child; with CK_FORK=no the test skips). */
static void rf_run(const char *san, const char *exe, const char *log_path, int limit_s, rf_outcome *o)
{
    char verdict_path[512];
    const char *tmpdir = getenv("TMPDIR");
    snprintf(verdict_path, sizeof verdict_path, "%s/wb-racefix-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int vfd = mkstemp(verdict_path);
    int lfd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (vfd < 0 || lfd < 0) {
        memset(o, 0, sizeof *o);
        o->status = RF_SKIP;
        snprintf(o->msg, sizeof o->msg, "cannot write %s: %s", vfd < 0 ? verdict_path : log_path, strerror(errno));
        if (vfd >= 0) close(vfd), unlink(verdict_path);
        if (lfd >= 0) close(lfd);
        return;
    }
    close(vfd);
    /* The environment and arguments are made before fork: the child only
     * calls what is safe after a fork (setpgid, dup2, execve). */
    extern char **environ;
    size_t ne = 0;
    while (environ[ne]) ne++;
    char **envp = calloc(ne + 2, sizeof *envp), probe[600];
    size_t k = 0;
    for (size_t i = 0; i < ne; i++)
        if (strncmp(environ[i], "WB_RACE_PROBE=", 14) != 0) envp[k++] = environ[i];
    snprintf(probe, sizeof probe, "WB_RACE_PROBE=%s", verdict_path);
    envp[k++] = probe, envp[k] = NULL;
    char *argv[] = { (char *)san, "--tool", "racecheck", "--racecheck-report", "all", "--error-exitcode", "99",
                     (char *)exe, NULL };
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0); /* its own group: a time-out stops the sanitizer and the program it started */
        dup2(lfd, 1), dup2(lfd, 2);
        execve(san, argv, envp);
        static const char m[] = "exec compute-sanitizer failed\n";
        ssize_t w = write(2, m, sizeof m - 1);
        (void)w;
        _exit(127);
    }
    close(lfd);
    free(envp);
    int how = -1;
    if (pid < 0) {
        memset(o, 0, sizeof *o);
        o->status = RF_SKIP;
        snprintf(o->msg, sizeof o->msg, "fork: %s", strerror(errno));
        unlink(verdict_path);
        return;
    }
    setpgid(pid, pid);
    struct timespec step = { 0, 50 * 1000 * 1000 };
    for (long waited_ms = 0;; waited_ms += 50) {
        int st;
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid) {
            how = st;
            break;
        }
        if (r < 0 && errno != EINTR) break;
        if (waited_ms >= (long)limit_s * 1000) {
            kill(-pid, SIGKILL);
            waitpid(pid, &st, 0);
            how = -1;
            break;
        }
        nanosleep(&step, NULL);
    }
    char *log = wb_read_file(log_path, NULL), *verdict = wb_read_file(verdict_path, NULL);
    unlink(verdict_path);
    if (verdict) verdict[strcspn(verdict, "\n")] = 0;
    rf_judge(log ? log : "", how, limit_s, verdict ? verdict : "", log_path, o);
    free(log), free(verdict);
}

START_TEST(racefix_racecheck)
{
    const char *fork_mode = getenv("CK_FORK");
    if (fork_mode && strcmp(fork_mode, "no") == 0)
        wb_skip_test("CK_FORK=no (make sanitize, cuda-gdb): racecheck is not started inside another tool; "
                     "make phase1/week08 check runs it");
    char san[1024];
    if (rf_find_sanitizer(san, sizeof san) != 0)
        wb_skip_test("compute-sanitizer not found (not on PATH, nor in $CUDA_HOME/bin or /usr/local/cuda/bin): it "
                     "ships with the CUDA toolkit; add its bin folder to PATH");
    char exe[1024], log_path[1100];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1); /* its own path: the sanitizer's /proc/self is not this */
    ck_assert_msg(len > 0 && (size_t)len < sizeof exe - 1, "cannot read /proc/self/exe: %s", strerror(errno));
    exe[len] = 0;
    /* The log sits beside the test program (build/phase1/week08/IMPL/), where the learner can read it. */
    char dir[1024];
    snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(exe, '/') - exe), exe);
    snprintf(log_path, sizeof log_path, "%s/racecheck-racefix.log", dir);
    if (access(dir, W_OK) != 0) {
        const char *tmpdir = getenv("TMPDIR");
        snprintf(log_path, sizeof log_path, "%s/racecheck-racefix.log", tmpdir && *tmpdir ? tmpdir : "/tmp");
    }
    int timeout = getenv("WB_TEST_TIMEOUT") ? atoi(getenv("WB_TEST_TIMEOUT")) : 300;
    int limit = timeout > 0 && timeout - 20 < 150 ? timeout - 20 : 150; /* inside Check's own time-out */
    if (limit < 10) limit = 10;
    rf_outcome o;
    rf_run(san, exe, log_path, limit, &o);
    if (o.status == RF_SKIP) wb_skip_test("%s", o.msg);
    ck_assert_msg(o.status == RF_PASS, "%s", o.msg);
    printf("  racecheck on racefix_stencil (n=%d, %d blocks): 0 hazards (%s)\n", RF_PROBE_N, RF_PROBE_BLOCKS, log_path);
}
END_TEST

/* ---------------------------------------------------------------- benchmarks (no targets) */

enum { SEED_X = 81 };

typedef struct { const float *x; float *out; size_t n; void *tmp; unsigned int *count; } w8_ctx;

static void lb_work(void *p)
{
    w8_ctx *c = p;
    WB_CUDA(lastblock_reduce(c->x, c->n, c->out, c->tmp));
}

static double lb_expect(size_t i, const void *ctx)
{
    (void)i;
    return *(const double *)ctx;
}

static double bench_lastblock(void)
{
    size_t bytes = wb_bench_bytes(), n = bytes / 4;
    w8_ctx c = { wb_dmalloc(bytes), wb_dmalloc(4), n, wb_dmalloc(lastblock_tmp_bytes()), NULL };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_X, 0, 1);
    float *h = wb_hmalloc(bytes);
    wb_d2h(h, c.x, bytes);
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += h[i];
    free(h);
    double copy = wb_yard_copy_gbps(bytes);
    wb_bench_row r = { .exercise = "lastblock", .variant = "single pass, threadfence", .n = n, .bytes = 4.0 * n,
                       .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    wb_dpoison(c.out, 4);
    wb_time(lb_work, &c, NULL, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (wb_dverify_f32("sum", c.out, 1, lb_expect, &sum, 1, 1e-5 * sum, 0, &cmp)) wb_bench_invalid(&r, cmp.msg);
    wb_bench_emit(&r);
    wb_dfree((void *)c.x), wb_dfree(c.out), wb_dfree(c.tmp);
    return wb_bench_ratio(&r);
}

static void cp_work(void *p)
{
    w8_ctx *c = p;
    WB_CUDA(vote_compact_positive(c->x, c->n, c->out, c->count));
}

static double bench_compact(void)
{
    size_t bytes = wb_bench_bytes(), n = bytes / 4;
    w8_ctx c = { wb_dmalloc(bytes), wb_dmalloc(bytes), n, NULL, wb_dmalloc(4) };
    wb_dfill_uniform_f32((float *)c.x, n, SEED_X, -1, 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += wb_hash_uniform_f32(SEED_X, i, -1, 1) > 0;
    double copy = wb_yard_copy_gbps(bytes);
    wb_bench_row r = { .exercise = "compact", .variant = "warp vote, half kept", .n = n, .bytes = 4.0 * n + 4.0 * k,
                       .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    wb_time(cp_work, &c, NULL, &r.t);
    r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
    unsigned int count = 0;
    wb_d2h(&count, c.count, 4);
    if (count != k) {
        char msg[96];
        snprintf(msg, sizeof msg, "count %u, expected %zu", count, k);
        wb_bench_invalid(&r, msg);
    }
    wb_bench_emit(&r);
    wb_dfree((void *)c.x), wb_dfree(c.out), wb_dfree(c.count);
    return wb_bench_ratio(&r);
}

/* The contention sweep: n keys spread over nbins counters, from 1 (every
 * atomic on one address) to 2^20, both scopes. GB/s counts the keys read;
 * one key is one atomic, so updates/s = GB/s / 4. No target: the figure is
 * the shape of the curve. */
typedef struct {
    unsigned int *dkeys, *dcounts, *keys, *ref, *keys2, *ref2, nbins;
    size_t n;
    int block, alt; /* tally_block; the spot check's inputs are on the device */
} ct_ctx;

static void ct_work(void *p)
{
    ct_ctx *c = p;
    WB_CUDA((c->block ? tally_block : tally_device)(c->dkeys, c->n, c->dcounts, c->nbins));
}

static void ct_fill(unsigned int *keys, unsigned int *ref, size_t n, unsigned int nbins, unsigned long long salt)
{
    wb_rng rng;
    wb_rng_seed(&rng, wb_base_seed() ^ (salt * 0x9E3779B97F4A7C15ull) ^ nbins);
    wb_fill_u32(&rng, keys, n, nbins);
    memset(ref, 0, (size_t)nbins * 4);
    for (size_t i = 0; i < n; i++) ref[keys[i]]++;
}

static void ct_fresh(void *p, unsigned long long salt)
{
    ct_ctx *c = p;
    if (salt) ct_fill(c->keys2, c->ref2, c->n, c->nbins, salt);
    wb_h2d(c->dkeys, salt ? c->keys2 : c->keys, c->n * 4);
    wb_dpoison(c->dcounts, (size_t)c->nbins * 4);
    c->alt = salt != 0;
}

static int ct_check(void *p, char *why, size_t size)
{
    ct_ctx *c = p;
    unsigned int *got = wb_hmalloc((size_t)c->nbins * 4);
    wb_sync();
    wb_d2h(got, c->dcounts, (size_t)c->nbins * 4);
    wb_cmp cmp;
    size_t bad = wb_compare_u32("counts", got, c->alt ? c->ref2 : c->ref, c->nbins, &cmp);
    if (bad) snprintf(why, size, "%s", cmp.msg);
    free(got);
    return bad != 0;
}

static double bench_contention(void)
{
    static const unsigned int NB[] = { 1, 4, 32, 256, 2048, TALLY_SHARED_MAX, 65536, 1u << 20 };
    size_t n = (size_t)1 << 24, bytes = n * 4;
    double copy = wb_yard_copy_gbps(bytes);
    int rows = 0, valid = 0;
    ct_ctx c = { wb_dmalloc(bytes), wb_dmalloc((size_t)NB[WB_COUNT(NB) - 1] * 4), wb_hmalloc(bytes), NULL, wb_hmalloc(bytes),
                 NULL, 0, n, 0, 0 };
    for (size_t b = 0; b < WB_COUNT(NB); b++) {
        c.nbins = NB[b];
        c.ref = wb_hmalloc((size_t)c.nbins * 4), c.ref2 = wb_hmalloc((size_t)c.nbins * 4);
        ct_fill(c.keys, c.ref, n, c.nbins, 0);
        for (c.block = 0; c.block < 2; c.block++) {
            if (c.block && c.nbins > TALLY_SHARED_MAX) continue;
            char variant[64];
            snprintf(variant, sizeof variant, "%s scope, %u bins", c.block ? "block" : "device", c.nbins);
            wb_bench_row r = { .exercise = "tally", .variant = variant, .n = n, .bytes = (double)bytes, .unit = "GB/s",
                               .yard_name = "COPY", .yard = copy };
            wb_bench_opts o = WB_BENCH_DEFAULTS;
            o.fresh = ct_fresh, o.check = ct_check;
            ct_fresh(&c, 0);
            wb_time(ct_work, &c, &o, &r.t);
            r.value = r.bytes / (r.t.median * 1e-3) / 1e9;
            char why[200];
            if (ct_check(&c, why, sizeof why)) wb_bench_invalid(&r, why);
            else valid++;
            rows++;
            wb_bench_emit(&r);
        }
        free(c.ref), free(c.ref2);
    }
    wb_dfree(c.dkeys), wb_dfree(c.dcounts);
    free(c.keys), free(c.keys2);
    return rows ? (double)valid / rows : 0;
}

static const wb_test TESTS[] = {
    { "w08.lastblock", WB_T(lastblock_exact_deterministic), WB_GPU, WB_COUNT(SIZES) },
    { "w08.gridsync", WB_T(center_sizes), WB_GPU, W08_CENTER_CASES },
    { "w08.vote", WB_T(compact_sizes), WB_GPU, W08_COMPACT_CASES },
    { "w08.lockfree", WB_T(stack_push_pop), WB_GPU, W08_N_STACK_SIZES },
    { "w08.mp-device", WB_T(mp_device_sizes), WB_GPU, WB_COUNT(MP_SIZES) },
    { "w08.mp-device", WB_T(mp_demo), WB_GPU, 0 },
    { "w08.mp-block", WB_T(mp_block_sizes), WB_GPU, WB_COUNT(MP_SIZES) },
    { "w08.tally", WB_T(tally_sizes), WB_GPU, W08_TALLY_CASES },
    { "w08.racecheck", WB_T(racefix_sizes), WB_GPU, WB_COUNT(RF_SIZES) },
    { "w08.racecheck", WB_T(racefix_racecheck), WB_GPU, 0 },
};

static const wb_benchmark BENCHES[] = {
    { "lastblock", bench_lastblock },
    { "compact", bench_compact },
    { "contention", bench_contention },
};

int main(int argc, char **argv)
{
    /* The racecheck probe (racefix_racecheck starts this program under
     * compute-sanitizer with WB_RACE_PROBE set): one launch, no tests. */
    const char *probe = getenv("WB_RACE_PROBE");
    if (probe && *probe) return racefix_probe(probe);
    return WB_TEST_MAIN(argc, argv, TESTS, BENCHES);
}
