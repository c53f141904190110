/* judge_plumb.c — build/sandbox/judge-plumb: the judge and runner's plumbing
 * without a GPU (instructor/README.md, "The judge and the runner"). The
 * "device" is host memory (memfds passed over SCM_RIGHTS, mapped by both
 * sides) and the runner's exercise is a CPU vector add
 * (judge_plumb_runner.c, which can also lie: that is what
 * instructor/test_judge.c checks). Everything else is as a GPU judge does
 * it: this process links no exercise code, poisons and fills the buffers,
 * times each request by its own clock, checks every output itself and
 * writes the results record.
 *
 *   judge-plumb --record FILE [--seed N] [--sandbox SCRATCH] [--log FILE] RUNNER [ARGS...]
 *
 * Two checkpoints, both always in the record:
 *   plumb.vecadd        c = a + b for sizes 0..65537 at every offset mix,
 *                       nothing written outside c;
 *   plumb.vecadd-speed  4 reps a request, each on its own fresh buffers,
 *                       5 timed requests; every rep's output sampled right
 *                       after the reply (the clock stops there) and checked in
 *                       full afterwards; the figure against the judge's own
 *                       memcpy of the same bytes ("COPY"), no target.
 * --sandbox: the runner runs in the grader's sandbox (sb_run, keep_fd), its
 * scratch folder SCRATCH (the runner must be inside it). Exit 0 when the
 * record was written (whatever it says), 2 when not. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge.h"
#include "judge_sb.h"
#include "wb_results.h"

enum { FN_VECADD = 1 };
#define REPS     4
#define SPEED_N  (1u << 20)
#define TIMED    5
#define SAMPLES  256

static unsigned long long g_seed = 20261128;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Value i of stream `salt`: uniform in [-100, 100). */
static float val(uint64_t salt, size_t i)
{
    return (float)((mix(salt * 0x100000001b3ull ^ i) >> 40) * (200.0 / 16777216.0) - 100.0);
}

static const uint32_t POISON = 0xffffffffu; /* a NaN: never equal to a sum */

static void poison(float *p, size_t n) { memset(p, 0xff, n * sizeof *p); }

static int is_poison(const float *p) { uint32_t u; memcpy(&u, p, 4); return u == POISON; }

/* c[i] == a[i] + b[i] exactly (the runner adds the same two floats) */
static int right(const float *c, const float *a, const float *b, size_t i)
{
    float want = a[i] + b[i];
    return memcmp(&c[i], &want, 4) == 0;
}

/* ------------------------------------------------------------ plumb.vecadd */

static const size_t SIZES[] = { 0, 1, 3, 31, 255, 256, 257, 1023, 4097, 65537 };
#define MAXN  65537
#define GUARD 64

static int check_correct(jd *J, char *msg, size_t m, int *tests, int *failed)
{
    float *a, *b, *c;
    int ia = jd_alloc(J, (MAXN + 4) * 4, (void **)&a), ib = ia < 0 ? -1 : jd_alloc(J, (MAXN + 4) * 4, (void **)&b),
        ic = ib < 0 ? -1 : jd_alloc(J, (MAXN + 4 + GUARD) * 4, (void **)&c);
    if (ic < 0) return snprintf(msg, m, "buffers: %s", J->why), ++*failed, ++*tests, -1;
    uint64_t salt = mix(g_seed);
    for (size_t s = 0; s < sizeof SIZES / sizeof *SIZES; s++)
        for (int off = 0; off < 4; off++) {
            size_t n = SIZES[s], oa = (size_t)off, ob = (size_t)(3 - off), oc = (size_t)(off & 1);
            ++*tests;
            salt = mix(salt);
            for (size_t i = 0; i < MAXN + 4; i++) a[i] = val(salt, i), b[i] = val(salt + 1, i);
            poison(c, MAXN + 4 + GUARD);
            jd_req rq;
            jd_rep rp;
            memset(&rq, 0, sizeof rq);
            rq.op = JD_OP_CALL, rq.fn = FN_VECADD, rq.reps = 1, rq.nargs = 3;
            rq.arg_buf[0][0] = ia, rq.arg_off[0][0] = oa * 4;
            rq.arg_buf[0][1] = ib, rq.arg_off[0][1] = ob * 4;
            rq.arg_buf[0][2] = ic, rq.arg_off[0][2] = oc * 4;
            rq.i64[0] = (long long)n;
            if (jd_call(J, &rq, &rp, NULL) != 0) return snprintf(msg, m, "n=%zu: %s", n, J->why), ++*failed, -1;
            if (rp.status != 0) return snprintf(msg, m, "n=%zu: vecadd returned %d", n, rp.status), ++*failed, -1;
            /* the judge reads its own mapping: every output, and the poison around it */
            for (size_t i = 0; i < MAXN + 4 + GUARD; i++) {
                int inside = i >= oc && i < oc + n;
                if (inside ? !right(c + oc, a + oa, b + ob, i - oc) : !is_poison(&c[i])) {
                    snprintf(msg, m, "n=%zu, offsets a+%zu b+%zu c+%zu: c[%zd] %s", n, oa, ob, oc, (ssize_t)i - (ssize_t)oc,
                             inside ? "wrong" : "written outside the output");
                    return ++*failed, 0;
                }
            }
        }
    jd_free(J, ia), jd_free(J, ib), jd_free(J, ic);
    return 0;
}

/* ----------------------------------------------------- plumb.vecadd-speed */

typedef struct {
    float   *a[REPS], *b[REPS], *c[REPS];
    int      ia[REPS], ib[REPS], ic[REPS];
    size_t   n;
    uint64_t pick;     /* hidden: where the look samples */
} speed_ctx;

/* The look right after the reply: SAMPLES hidden positions of every rep. */
static int look(void *p, char *why, size_t n)
{
    speed_ctx *s = p;
    uint64_t k = s->pick = mix(s->pick);
    for (int r = 0; r < REPS; r++)
        for (int j = 0; j < SAMPLES; j++) {
            size_t i = (size_t)((k = mix(k)) % s->n);
            if (!right(s->c[r], s->a[r], s->b[r], i)) {
                snprintf(why, n, "rep %d of a timed request: c[%zu] %s right after the reply", r, i,
                         is_poison(&s->c[r][i]) ? "not yet written (poison)" : "wrong");
                return 1;
            }
        }
    return 0;
}

static int full_check(speed_ctx *s, char *why, size_t n)
{
    for (int r = 0; r < REPS; r++)
        for (size_t i = 0; i < s->n; i++)
            if (!right(s->c[r], s->a[r], s->b[r], i))
                return snprintf(why, n, "rep %d of a timed request: c[%zu] wrong (checked after the timing)", r, i), 1;
    return 0;
}

/* Fresh inputs, poisoned outputs, then: is every output still poison? (a
 * runner that computes before it is asked is caught here) */
static int refill(speed_ctx *s, uint64_t salt, char *why, size_t n)
{
    for (int r = 0; r < REPS; r++) {
        uint64_t t = mix(salt + (uint64_t)r * 2);
        for (size_t i = 0; i < s->n; i++) s->a[r][i] = val(t, i), s->b[r][i] = val(t + 1, i);
        poison(s->c[r], s->n);
    }
    uint64_t k = mix(salt ^ 0x5555);
    for (int r = 0; r < REPS; r++)
        for (int j = 0; j < SAMPLES; j++) {
            size_t i = (size_t)((k = mix(k)) % s->n);
            if (!is_poison(&s->c[r][i]))
                return snprintf(why, n, "rep %d: the output was written before the request was sent", r), 1;
        }
    return 0;
}

static int cmp_d(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static void check_speed(jd *J, wb_result *R)
{
    speed_ctx s;
    memset(&s, 0, sizeof s);
    s.n = SPEED_N, s.pick = mix(g_seed ^ 0xabcdef);
    R->tests = 1, R->failed = 1; /* until it passes */
    for (int r = 0; r < REPS; r++) {
        s.ia[r] = jd_alloc(J, s.n * 4, (void **)&s.a[r]);
        s.ib[r] = s.ia[r] < 0 ? -1 : jd_alloc(J, s.n * 4, (void **)&s.b[r]);
        s.ic[r] = s.ib[r] < 0 ? -1 : jd_alloc(J, s.n * 4, (void **)&s.c[r]);
        if (s.ic[r] < 0) {
            snprintf(R->message, sizeof R->message, "buffers: %s", J->why);
            return;
        }
    }
    jd_req rq;
    jd_rep rp;
    memset(&rq, 0, sizeof rq);
    rq.op = JD_OP_CALL, rq.fn = FN_VECADD, rq.reps = REPS, rq.nargs = 3;
    for (int r = 0; r < REPS; r++) rq.arg_buf[r][0] = s.ia[r], rq.arg_buf[r][1] = s.ib[r], rq.arg_buf[r][2] = s.ic[r];
    rq.i64[0] = (long long)s.n;
    double t[TIMED], look_us = 1e30, us = 0;
    uint64_t salt = mix(g_seed ^ 0x77);
    char why[300];
    /* a warm-up request, checked in full; then the judge's own cost of a look */
    for (int k = -1; k < TIMED; k++) {
        if (refill(&s, salt = mix(salt), why, sizeof why)) {
            snprintf(R->message, sizeof R->message, "%s", why);
            return;
        }
        int rc = jd_timed_call(J, &rq, &rp, look, &s, k < 0 ? 0 : look_us, &us);
        if (rc == -1) snprintf(R->message, sizeof R->message, "%s", J->why);
        else if (rc == 1) snprintf(R->message, sizeof R->message, "vecadd returned %d", rp.status);
        else if (rc == 2) snprintf(R->message, sizeof R->message, "%s", J->why);
        /* the full check comes late, as a GPU judge's may: a runner that
         * replied early and finished meanwhile is then caught by the look
         * alone (test_judge's `early` runner finishes 20 ms after its reply) */
        else if (usleep(200000), full_check(&s, why, sizeof why)) snprintf(R->message, sizeof R->message, "%s", why);
        else if (rp.reps_done != REPS) snprintf(R->message, sizeof R->message, "the runner did %d of %d calls", rp.reps_done, REPS);
        if (rc != 0 || R->message[0]) return;
        if (k < 0) {
            for (int j = 0; j < 5; j++) {
                double a0 = jd_now_us();
                look(&s, why, sizeof why);
                double d = jd_now_us() - a0;
                if (d < look_us) look_us = d;
            }
        } else {
            t[k] = us / REPS;
        }
    }
    qsort(t, TIMED, sizeof *t, cmp_d);
    double med = t[TIMED / 2], bytes = 12.0 * s.n;
    /* the yardstick, by the judge in the same run: a memcpy of as many bytes */
    double ct[TIMED];
    for (int k = 0; k < TIMED; k++) {
        double a0 = jd_now_us();
        memcpy(s.c[0], s.a[0], s.n * 4), memcpy(s.c[1], s.a[1], s.n * 4), memcpy(s.c[2], s.a[2], s.n * 4 / 2);
        ct[k] = jd_now_us() - a0;
    }
    qsort(ct, TIMED, sizeof *ct, cmp_d);
    R->value = bytes / (med * 1e-6) / 1e9;
    R->yard_value = bytes / (ct[TIMED / 2] * 1e-6) / 1e9;
    R->ratio = R->value / R->yard_value;
    snprintf(R->unit, sizeof R->unit, "GB/s");
    snprintf(R->yard, sizeof R->yard, "COPY");
    snprintf(R->detail, sizeof R->detail, "%.3g GB/s vs COPY %.3g GB/s (the runner said %.0f us for %d calls, the judge "
             "timed %.0f us)", R->value, R->yard_value, rp.host_us, REPS, us);
    R->failed = 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: judge-plumb --record FILE [--seed N] [--sandbox SCRATCH] [--log FILE] RUNNER [ARGS...]\n");
}

int main(int argc, char **argv)
{
    const char *record = NULL, *scratch = NULL, *log = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--record") && i + 1 < argc) record = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) g_seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--sandbox") && i + 1 < argc) scratch = argv[++i];
        else if (!strcmp(argv[i], "--log") && i + 1 < argc) log = argv[++i];
        else return usage(), 2;
    }
    if (!record || i >= argc) return usage(), 2;
    wb_result R[2];
    const char *ids[2] = { "plumb.vecadd", "plumb.vecadd-speed" };
    for (int k = 0; k < 2; k++) {
        wb_result_init(&R[k]);
        snprintf(R[k].week, sizeof R[k].week, "instructor/plumbing");
        snprintf(R[k].id, sizeof R[k].id, "%s", ids[k]);
        R[k].seed = g_seed;
    }
    jd J;
    int started;
    if (scratch) {
        sb_opts o;
        memset(&o, 0, sizeof o);
        o.scratch = scratch;
        o.wall_s = 60, o.mem_bytes = 1ll << 30, o.max_procs = 64, o.file_bytes = 64ll << 20;
        o.log_path = log;
        started = jd_start_sandboxed(&J, &o, argv + i) == 0;
    } else {
        started = jd_start_plain(&J, argv + i, log) == 0;
    }
    J.reply_s = 20;
    if (started) started = jd_hello(&J, JD_MEM_HOST, -1) == 0;
    char msg[600] = "";
    if (!started) {
        for (int k = 0; k < 2; k++) {
            R[k].status = WB_RES_FAIL, R[k].reason = WB_WHY_CODE, R[k].tests = R[k].failed = 1;
            snprintf(R[k].message, sizeof R[k].message, "the runner did not start: %s", J.why);
        }
    } else {
        int tests = 0, failed = 0;
        check_correct(&J, msg, sizeof msg, &tests, &failed);
        R[0].tests = tests, R[0].failed = failed;
        snprintf(R[0].message, sizeof R[0].message, "%s", msg);
        if (!J.lost) check_speed(&J, &R[1]);
        else R[1].tests = R[1].failed = 1, snprintf(R[1].message, sizeof R[1].message, "not run: %s", J.why);
        for (int k = 0; k < 2; k++) {
            int ok = R[k].tests > 0 && R[k].failed == 0;
            R[k].status = ok ? WB_RES_PASS : WB_RES_FAIL, R[k].reason = ok ? WB_WHY_NONE : WB_WHY_CODE;
        }
    }
    int st = jd_stop(&J);
    printf("judge-plumb: %s %s, %s %s; the runner's wait status %d\n", ids[0], wb_result_status_name(R[0].status), ids[1],
           wb_result_status_name(R[1].status), st);
    for (int k = 0; k < 2; k++)
        if (R[k].message[0]) printf("  %s: %s\n", ids[k], R[k].message);
    char err[300];
    if (wb_results_write(record, R, 2, err, sizeof err) != 0) return fprintf(stderr, "judge-plumb: %s\n", err), 2;
    return 0;
}
