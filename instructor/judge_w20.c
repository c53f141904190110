/* judge_w20.c — build/instructor/judge-w20: week 20's judge (instructor/
 * README.md, "The judge and the runner"). Used by the grader since
 * 2026-11-29 (JUDGED_WEEKS), after it ran on an H200. It links no student code:
 * the student's wbk.o and app.o (with the kernels of the weeks week.txt
 * `uses:`, as the week's test program links them) are linked into the
 * runner (judge_w20_runner.c), which this process starts (or is handed) and
 * asks to call them on buffers it allocated (judge.h). The library's arrays
 * are host memory: every buffer here is one both processes map (a memfd),
 * with a GPU too. A context handle cannot cross a process: the runner makes
 * its own contexts and keeps them in slots this judge names (judge_w20.h).
 * It poisons, fills, times and checks, and writes the results record
 * itself. The command line, the runner's start and the record are
 * judge_week.c's:
 *
 *   judge-w20 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases are test_week20.c's, COPIED here (the test has no shared
 * header, and the judge, written staged, left the week's test as it is): the same
 * sizes, shapes, ranges, edge values and tolerances, drawn from the class
 * seed with the judge's own tags (wb_rng_for_seed); the CPU references the
 * test's (double sums; the dot's and sum's bound wbk.h's plus 2e-6 of the
 * sum of |terms|). Every output sits between guard bands of 0xFF (64
 * floats each side), itself poisoned, and is compared with
 * wb_compare_f32_f64 (atol + rtol |ref|, NaN never passing):
 *   w20.api         a CPU checkpoint (judged with or without a GPU; without
 *                   one the runner opens none): wbk_version, every status's
 *                   name and text (distinct, never empty, UNKNOWN outside
 *                   the range), and the test's 46 calls 4 times (n drawn
 *                   in 2..1000): every bad argument INVALID_ARG, good ones
 *                   with a NULL context INVALID_HANDLE, each failure's
 *                   wbk_last_error() "FUNCTION: what", the saxpy mismatch's
 *                   message naming both lengths, a failed creator leaving
 *                   *ctx NULL, a failed dot, sum or count not writing its
 *                   result, the message kept across wbk_destroy(NULL), a
 *                   new thread's message "". Each call's status and message
 *                   are return values the runner hands back: the runner
 *                   lives in the student's process, so this is its word, as
 *                   it is the test's (a status and a message are all a
 *                   refusal is);
 *   w20.ops         through a context on one device: saxpy, dot, sum and
 *                   standardize on every size of the test's SIZES (0, 1, 3,
 *                   ... 2^24 + 1), saxpy at 1e-6 + 1e-6 |ref|, dot and sum
 *                   within the bound, standardize at 1e-4 + 1e-4 |ref| and
 *                   its statistics at 1e-5; the transpose on the test's 12
 *                   SHAPES (0 x 0 to 4099 x 4097) exactly; NaN and +Inf
 *                   (dot, sum, saxpy propagate, standardize all NaN, and
 *                   written: a y left all poison fails here, where the
 *                   test's NaN poison passes); one
 *                   context through sizes up and down (the workspace
 *                   reused); constant vectors (y = 0 at 1e-4, std <= 1e-5
 *                   (1 + |mean|));
 *   w20.split       device 0 listed 1 to 5 times (wbk_device_count says
 *                   so): the vector operations on n of 1, 2, 4, 5, 6, 1000,
 *                   65537, 1000003 and the transposes 1 x 9, 3 x 40,
 *                   1001 x 77, as above; a context over every GPU of the
 *                   runner's machine (as many entries as it has, at most
 *                   16) on n = 3000017 and a 1999 x 1001 transpose, the
 *                   runner's current device set to the last GPU before and
 *                   found the same after (read by the runner in the
 *                   student's process with cudaGetDevice: its word, as in
 *                   the test);
 *   w20.app         app_standardize_columns on the test's 7 tables (1 x 1
 *                   to 100000 x 3, 777 x 67), out at 1e-4 + 1e-4 |ref|, the
 *                   means and stds at 1e-5, through a context over every
 *                   GPU; and app_main as the test calls it, its output
 *                   stream the runner's (open_memstream), what it printed
 *                   handed back in a host buffer: the 9 bad command lines
 *                   exit 2 with "error: ..." and the usage line, a random
 *                   good one exits 0 with "devices: ", "feature 0: mean="
 *                   and a last line "scaled RxC max_err=E ok", E <= 1e-3.
 *                   Those lines are the program's own report, as they are
 *                   in the test; the tables' values are the judge's check;
 *   w20.standardize-speed
 *                   wbk_standardize host to host on wb_bench_bytes() of
 *                   floats, x and y host buffers both map, pinned by the
 *                   runner (cudaHostRegister, as the test's cudaMallocHost
 *                   arrays are pinned), W20_TIMED_K calls a request, each on
 *                   its own x and y; before every request fresh x from a
 *                   hidden seed (jd_mix of the class seed and the judge's
 *                   own random bits), uniform in [2, 5) times a factor of
 *                   either sign, y poisoned and found still poisoned; the
 *                   judge's clock from the request to its look (256 hidden
 *                   positions of every y, expected values computed before
 *                   the request); then every y checked in full at 1e-4 +
 *                   1e-4 |ref| with its guard bands, and the statistics at
 *                   1e-5; the median of W20_TIMED requests, 8 bytes an
 *                   element, against XFER as the test defines it (x up and
 *                   y down between the same pinned buffers) timed through
 *                   the same requests by the yard runner
 *                   (judge_w20_yard_runner.c) before the student's runner
 *                   starts and again after, the faster kept. A buffer the
 *                   driver will not pin is the judge's failure to set up:
 *                   SKIP, never a figure from pageable copies.
 * Not listed (judge-w20 --list), so the grader runs them in the week's
 * linked test program: w20.py-errors and w20.py (python/test_wbk.py run by
 * python3 over the libwbk.so.1 built beside the test: the Python module's
 * exceptions and results exist only in that interpreter, which loads the
 * student's shared library; a judge that links no student code has no
 * such library to load, and what Python printed is the student process's
 * word). Their guarantee is the linked test's (instructor/README.md, the
 * threat model). Not yet run on a GPU. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge_w20.h"
#include "judge_week.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_hd.h"
#include "wb_rand.h"
#include "wbk.h"

#define N_OF(a) (sizeof(a) / sizeof *(a))
enum { GUARD = 64 }; /* floats of 0xFF on each side of an output */

/* test_week20.c's */
static const size_t SIZES[] = { 0, 1, 3, 31, 255, 256, 257, 1023, 4097, 65537, 1000003, ((size_t)1 << 24) + 1 };
static const int SHAPES[][2] = { { 0, 0 }, { 0, 7 }, { 5, 0 }, { 1, 1 }, { 1, 1000 }, { 1000, 1 }, { 31, 33 },
                                 { 32, 32 }, { 33, 31 }, { 257, 129 }, { 1000, 1003 }, { 4099, 4097 } };
static const int TABLES[][2] = { { 1, 1 }, { 2, 3 }, { 1, 67 }, { 1000, 1 }, { 33, 17 }, { 777, 67 }, { 100000, 3 } };
#define CAP ((size_t)4099 * 4097) /* floats: the largest array of a correctness case */

static const char *st_name(int s)
{
    static const char *names[WBK_STATUS_COUNT] = { "WBK_OK", "WBK_ERR_INVALID_ARG", "WBK_ERR_INVALID_HANDLE",
                                                   "WBK_ERR_NO_DEVICE", "WBK_ERR_OUT_OF_MEMORY", "WBK_ERR_CUDA" };
    return s >= 0 && s < WBK_STATUS_COUNT ? names[s] : "an unknown status";
}

/* ---------------------------------------------------------------- host buffers and calls */

typedef struct {
    int    id;
    void  *p;
    size_t bytes;
} hbuf;

static int hb_alloc(jd *J, hbuf *b, size_t bytes, jd_tally *t)
{
    b->bytes = bytes;
    b->id = jd_alloc_kind(J, JD_MEM_HOST, bytes, &b->p);
    if (b->id < 0) return jd_failf(t, "buffers: %s", J->why), -1;
    return 0;
}

static void hb_free(jd *J, hbuf *b)
{
    if (b->id >= 0) jd_free(J, b->id);
    b->id = -1;
}

/* A request for fn with the context of slot (-1: NULL), every argument NULL. */
static void rq_init(jd_req *rq, int fn, int slot)
{
    jd_call_setup(rq, fn, 1, 4);
    rq->i64[1] = slot;
}

/* Argument k: byte off of b (NULL where b is NULL). */
static void rq_arg(jd_req *rq, int k, const hbuf *b, size_t off)
{
    rq->arg_buf[0][k] = b ? b->id : -1;
    rq->arg_off[0][k] = b ? off : 0;
}

/* One call and what the runner saw of it: 0, or -1 (t says why: the runner
 * lost, or a CUDA error still pending in it after the call). */
static int call(jd *J, const jd_req *rq, w20_rep *o, jd_tally *t, const char *what)
{
    jd_rep rp;
    if (jd_call(J, rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0)
        return jd_failf(t, "%s: %s (after the call: %s)", what, rp.text,
                        rp.status > 0 ? cudaGetErrorName((cudaError_t)rp.status) : "the runner's own failure"),
               -1;
    if (rp.out_len < sizeof *o) return jd_failf(t, "%s: the runner handed back %u bytes", what, rp.out_len), -1;
    memcpy(o, rp.out, sizeof *o);
    o->msg[W20_MSG - 1] = 0;
    return 0;
}

/* A call that must succeed: 0, 1 (failed: t says how), -1 (the runner). */
static int call_ok(jd *J, const jd_req *rq, w20_rep *o, jd_tally *t, const char *what)
{
    if (call(J, rq, o, t, what) != 0) return -1;
    if (o->status != 0) return jd_failf(t, "%s: %s: %s", what, st_name(o->status), o->msg), 1;
    return 0;
}

/* A context in slot: wbk_create(max_devices) when devs is NULL, else
 * wbk_create_on over ndev ordinals. 0, or -1 (t says why). */
static int open_ctx(jd *J, int slot, const int *devs, int ndev, jd_tally *t)
{
    jd_req rq;
    w20_rep o;
    hbuf d = { -1, NULL, 0 };
    rq_init(&rq, devs ? W20_FN_CREATE_ON : W20_FN_CREATE, slot);
    rq.i64[2] = ndev;
    if (devs) {
        if (hb_alloc(J, &d, (size_t)ndev * sizeof(int), t) != 0) return -1;
        memcpy(d.p, devs, (size_t)ndev * sizeof(int));
        rq_arg(&rq, 0, &d, 0);
    }
    int rc = call_ok(J, &rq, &o, t, devs ? "creating a context (wbk_create_on)" : "creating a context (wbk_create)");
    hb_free(J, &d);
    if (rc == 0 && o.ctx_null) return jd_failf(t, "creating a context: WBK_OK but the handle is NULL"), -1;
    return rc ? -1 : 0;
}

static void close_ctx(jd *J, int slot, jd_tally *t)
{
    jd_req rq;
    w20_rep o;
    rq_init(&rq, W20_FN_DESTROY, slot);
    call(J, &rq, &o, t, "wbk_destroy");
}

/* ---------------------------------------------------------------- w20.api (no GPU) */

static int msg_ok(const w20_rep *o, const char *func)
{
    size_t k = strlen(func);
    return !o->null_text && strncmp(o->msg, func, k) == 0 && o->msg[k] == ':' && o->msg[k + 1] == ' ' &&
           strlen(o->msg) > k + 4;
}

/* The call's status is want, and for an error its message "func: what". 0, or -1 when the runner is lost. */
static int expect(jd *J, const jd_req *rq, w20_rep *o, int want, const char *func, const char *expr, jd_tally *t)
{
    t->tests++;
    if (call(J, rq, o, t, expr) != 0) return -1;
    if (o->status != want)
        jd_failf(t, "%s returned %s, expected %s (message: \"%s\")", expr, st_name(o->status), st_name(want), o->msg);
    else if (want != WBK_OK && !msg_ok(o, func))
        jd_failf(t, "%s: wbk_last_error() is \"%s\", expected \"%s: what is wrong\"", expr,
                 o->null_text ? "(NULL)" : o->msg, func);
    return 0;
}

static void api_statuses(jd *J, jd_tally *t)
{
    static const char *names[WBK_STATUS_COUNT] = { "WBK_OK", "WBK_ERR_INVALID_ARG", "WBK_ERR_INVALID_HANDLE",
                                                   "WBK_ERR_NO_DEVICE", "WBK_ERR_OUT_OF_MEMORY", "WBK_ERR_CUDA" };
    static const int probe[] = { 0, 1, 2, 3, 4, 5, -1, WBK_STATUS_COUNT, 1000 };
    char text[N_OF(probe)][W20_MSG];
    for (size_t i = 0; i < N_OF(probe) && !J->lost; i++) {
        jd_req rq;
        w20_rep o;
        rq_init(&rq, W20_FN_INFO, -1);
        rq.i64[2] = probe[i];
        t->tests++;
        if (call(J, &rq, &o, t, "wbk_status_name") != 0) return;
        char *nl = strchr(o.msg, '\n');
        const char *name = o.msg, *str = nl ? nl + 1 : "";
        if (nl) *nl = 0;
        snprintf(text[i], sizeof text[i], "%s", str);
        const int s = probe[i];
        if (i == 0 && o.rc != WBK_VERSION) jd_failf(t, "wbk_version() = %d, the header says %d", o.rc, WBK_VERSION);
        if (o.null_text) jd_failf(t, "wbk_status_name or wbk_status_string(%d) returned NULL", s);
        if (strcmp(name, s >= 0 && s < WBK_STATUS_COUNT ? names[s] : "WBK_ERR_UNKNOWN") != 0 && s != 1000)
            jd_failf(t, "wbk_status_name(%d) is \"%s\", expected \"%s\"", s, name,
                     s >= 0 && s < WBK_STATUS_COUNT ? names[s] : "WBK_ERR_UNKNOWN");
        if (!*str && (i < WBK_STATUS_COUNT || s == 1000)) jd_failf(t, "wbk_status_string(%d) is empty", s);
        for (size_t u = 0; u < i && i < WBK_STATUS_COUNT; u++)
            if (strcmp(text[u], str) == 0) jd_failf(t, "statuses %d and %d have the same text", probe[u], s);
    }
}

/* test_week20.c's api_arguments_checked_first, draw `round` of its 4. */
static void api_arguments(jd *J, jd_tally *t, int round)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w20 api", round);
    const size_t n = (size_t)wb_rng_int(&rng, 2, 1000), big = WBK_MAX_N + 1;
    hbuf X = { -1, NULL, 0 }, OUT = { -1, NULL, 0 }, D = { -1, NULL, 0 };
    if (hb_alloc(J, &X, 2 * n * sizeof(float), t) || hb_alloc(J, &OUT, 2 * n * sizeof(float), t) ||
        hb_alloc(J, &D, 3 * sizeof(int), t))
        goto done;
    wb_fill_uniform_f32(&rng, (float *)X.p, 2 * n, -1, 1);
    memcpy(D.p, (int[3]){ 0, -2, 0 }, 3 * sizeof(int));
    const size_t Y = n * sizeof(float); /* y = x + n */
    jd_req rq;
    w20_rep o;
    char msg[W20_MSG];
#define RUN(want, func, expr) \
    do { if (expect(J, &rq, &o, (want), (func), (expr), t) != 0) goto done; } while (0)
#define NOT_WRITTEN(what)                                                                              \
    do { if (o.result != W20_UNSET) jd_failf(t, "a failed %s wrote its result (%g)", (what), o.result); } while (0)

    /* the creators: a bad argument before any GPU; a failed one leaves *ctx NULL */
    rq_init(&rq, W20_FN_CREATE, -1), rq.i64[2] = 0;
    RUN(WBK_ERR_INVALID_ARG, "wbk_create", "wbk_create(NULL, 0)");
    rq_init(&rq, W20_FN_CREATE, 0), rq.i64[2] = -1;
    RUN(WBK_ERR_INVALID_ARG, "wbk_create", "wbk_create(&c, -1)");
    if (!o.ctx_null) jd_failf(t, "wbk_create failed but left *ctx set");
    rq_init(&rq, W20_FN_CREATE_ON, 0), rq.i64[2] = 1;
    RUN(WBK_ERR_INVALID_ARG, "wbk_create_on", "wbk_create_on(&c, NULL, 1)");
    if (!o.ctx_null) jd_failf(t, "wbk_create_on failed but left *ctx set");
    rq_init(&rq, W20_FN_CREATE_ON, -1), rq_arg(&rq, 0, &D, 0), rq.i64[2] = 1;
    RUN(WBK_ERR_INVALID_ARG, "wbk_create_on", "wbk_create_on(NULL, devs, 1)");
    rq_init(&rq, W20_FN_CREATE_ON, 0), rq_arg(&rq, 0, &D, 0), rq.i64[2] = 0;
    RUN(WBK_ERR_INVALID_ARG, "wbk_create_on", "wbk_create_on(&c, devs, 0)");
    rq.i64[2] = WBK_MAX_DEVICES + 1;
    RUN(WBK_ERR_INVALID_ARG, "wbk_create_on", "wbk_create_on(&c, devs, WBK_MAX_DEVICES + 1)");
    rq.i64[2] = 3;
    RUN(WBK_ERR_INVALID_ARG, "wbk_create_on", "wbk_create_on(&c, {0, -2, 0}, 3)");
    rq_init(&rq, W20_FN_COUNT, -1), rq.i64[4] = 1;
    RUN(WBK_ERR_INVALID_ARG, "wbk_device_count", "wbk_device_count(NULL, NULL)");
    rq.i64[4] = 0;
    RUN(WBK_ERR_INVALID_HANDLE, "wbk_device_count", "wbk_device_count(NULL, &k)");
    if (o.count != (int)W20_UNSET) jd_failf(t, "a failed wbk_device_count wrote its count (%d)", o.count);

    /* saxpy */
    rq_init(&rq, W20_FN_SAXPY, -1), rq.f64[0] = 2;
    rq_arg(&rq, 0, &X, 0), rq.i64[2] = (long long)n, rq_arg(&rq, 1, &X, Y), rq.i64[3] = (long long)n - 1;
    RUN(WBK_ERR_INVALID_ARG, "wbk_saxpy", "wbk_saxpy(NULL, 2, x, n, y, n - 1)");
    {
        char nn[32], n1[32];
        snprintf(nn, sizeof nn, "%zu", n), snprintf(n1, sizeof n1, "%zu", n - 1);
        if (o.status == WBK_ERR_INVALID_ARG && !(strstr(o.msg, nn) && strstr(o.msg, n1)))
            jd_failf(t, "the message should give both lengths (%s and %s): \"%s\"", nn, n1, o.msg);
    }
    rq.i64[3] = (long long)n, rq_arg(&rq, 0, NULL, 0);
    RUN(WBK_ERR_INVALID_ARG, "wbk_saxpy", "wbk_saxpy(NULL, 2, NULL, n, y, n)");
    rq_arg(&rq, 0, &X, 0), rq_arg(&rq, 1, NULL, 0);
    RUN(WBK_ERR_INVALID_ARG, "wbk_saxpy", "wbk_saxpy(NULL, 2, x, n, NULL, n)");
    rq_arg(&rq, 1, &X, Y), rq.i64[2] = rq.i64[3] = (long long)big;
    RUN(WBK_ERR_INVALID_ARG, "wbk_saxpy", "wbk_saxpy(NULL, 2, x, WBK_MAX_N + 1, y, WBK_MAX_N + 1)");
    rq.i64[2] = rq.i64[3] = (long long)n;
    RUN(WBK_ERR_INVALID_HANDLE, "wbk_saxpy", "wbk_saxpy(NULL, 2, x, n, y, n)");
    rq_arg(&rq, 0, NULL, 0), rq_arg(&rq, 1, NULL, 0), rq.i64[2] = rq.i64[3] = 0;
    RUN(WBK_ERR_INVALID_HANDLE, "wbk_saxpy", "wbk_saxpy(NULL, 2, NULL, 0, NULL, 0)");

    /* dot */
    rq_init(&rq, W20_FN_DOT, -1);
    rq_arg(&rq, 0, &X, 0), rq.i64[2] = (long long)n, rq_arg(&rq, 1, &X, Y), rq.i64[3] = (long long)n + 1;
    RUN(WBK_ERR_INVALID_ARG, "wbk_dot", "wbk_dot(NULL, x, n, y, n + 1, &r)");
    NOT_WRITTEN("wbk_dot");
    rq.i64[3] = (long long)n, rq_arg(&rq, 1, NULL, 0);
    RUN(WBK_ERR_INVALID_ARG, "wbk_dot", "wbk_dot(NULL, x, n, NULL, n, &r)");
    NOT_WRITTEN("wbk_dot");
    rq_arg(&rq, 1, &X, Y), rq.i64[4] = 1;
    RUN(WBK_ERR_INVALID_ARG, "wbk_dot", "wbk_dot(NULL, x, n, y, n, NULL)");
    rq.i64[4] = 0, rq.i64[2] = rq.i64[3] = (long long)big;
    RUN(WBK_ERR_INVALID_ARG, "wbk_dot", "wbk_dot(NULL, x, WBK_MAX_N + 1, y, WBK_MAX_N + 1, &r)");
    NOT_WRITTEN("wbk_dot");
    rq.i64[2] = rq.i64[3] = (long long)n;
    RUN(WBK_ERR_INVALID_HANDLE, "wbk_dot", "wbk_dot(NULL, x, n, y, n, &r)");
    NOT_WRITTEN("wbk_dot");

    /* sum */
    rq_init(&rq, W20_FN_SUM, -1), rq.i64[2] = (long long)n;
    RUN(WBK_ERR_INVALID_ARG, "wbk_sum", "wbk_sum(NULL, NULL, n, &r)");
    NOT_WRITTEN("wbk_sum");
    rq_arg(&rq, 0, &X, 0), rq.i64[4] = 1;
    RUN(WBK_ERR_INVALID_ARG, "wbk_sum", "wbk_sum(NULL, x, n, NULL)");
    rq.i64[4] = 0, rq.i64[2] = (long long)big;
    RUN(WBK_ERR_INVALID_ARG, "wbk_sum", "wbk_sum(NULL, x, WBK_MAX_N + 1, &r)");
    NOT_WRITTEN("wbk_sum");
    rq.i64[2] = (long long)n;
    RUN(WBK_ERR_INVALID_HANDLE, "wbk_sum", "wbk_sum(NULL, x, n, &r)");
    NOT_WRITTEN("wbk_sum");
    rq_arg(&rq, 0, NULL, 0), rq.i64[2] = 0;
    RUN(WBK_ERR_INVALID_HANDLE, "wbk_sum", "wbk_sum(NULL, NULL, 0, &r)");
    NOT_WRITTEN("wbk_sum");

    /* transpose */
    {
        const int rows = (int)wb_rng_int(&rng, 1, n < 30 ? (int64_t)n : 30), cols = (int)(2 * n / (size_t)rows);
        const long long m = (long long)rows * cols;
        static const struct { int in, nin, out, nout, rows, cols, want; const char *expr; } T[] = {
            /* in: 0 x, 1 NULL; out: 0 out, 1 NULL, 2 x, 3 x + 1; nin/nout: 0 m, 1 m - 1, 2 m + 1, 3 zero;
             * rows/cols: 0 the drawn, 1 -1 / -5, 2 WBK_MAX_DIM + 1 / 0, 3 0 / INT_MAX */
            { 0, 0, 0, 0, 1, 0, WBK_ERR_INVALID_ARG, "wbk_transpose(NULL, x, m, out, m, -1, cols)" },
            { 0, 0, 0, 0, 0, 1, WBK_ERR_INVALID_ARG, "wbk_transpose(NULL, x, m, out, m, rows, -5)" },
            { 0, 3, 0, 3, 2, 2, WBK_ERR_INVALID_ARG, "wbk_transpose(NULL, x, 0, out, 0, WBK_MAX_DIM + 1, 0)" },
            { 0, 3, 0, 3, 3, 3, WBK_ERR_INVALID_ARG, "wbk_transpose(NULL, x, 0, out, 0, 0, INT_MAX)" },
            { 0, 1, 0, 0, 0, 0, WBK_ERR_INVALID_ARG, "wbk_transpose(NULL, x, m - 1, out, m, rows, cols)" },
            { 0, 0, 0, 2, 0, 0, WBK_ERR_INVALID_ARG, "wbk_transpose(NULL, x, m, out, m + 1, rows, cols)" },
            { 1, 0, 0, 0, 0, 0, WBK_ERR_INVALID_ARG, "wbk_transpose(NULL, NULL, m, out, m, rows, cols)" },
            { 0, 0, 1, 0, 0, 0, WBK_ERR_INVALID_ARG, "wbk_transpose(NULL, x, m, NULL, m, rows, cols)" },
            { 0, 0, 2, 0, 0, 0, WBK_ERR_INVALID_ARG, "wbk_transpose(NULL, x, m, x, m, rows, cols) (in place)" },
            { 0, 0, 3, 0, 0, 0, WBK_ERR_INVALID_ARG, "wbk_transpose(NULL, x, m, x + 1, m, rows, cols) (overlap)" },
            { 0, 0, 0, 0, 0, 0, WBK_ERR_INVALID_HANDLE, "wbk_transpose(NULL, x, m, out, m, rows, cols)" },
            { 1, 3, 1, 3, 3, 0, WBK_ERR_INVALID_HANDLE, "wbk_transpose(NULL, NULL, 0, NULL, 0, 0, cols)" },
        };
        for (size_t i = 0; i < N_OF(T); i++) {
            const long long len[4] = { m, m - 1, m + 1, 0 };
            rq_init(&rq, W20_FN_TRANSPOSE, -1);
            rq_arg(&rq, 0, T[i].in ? NULL : &X, 0);
            rq_arg(&rq, 1, T[i].out == 1 ? NULL : T[i].out ? &X : &OUT, T[i].out == 3 ? sizeof(float) : 0);
            rq.i64[2] = len[T[i].nin], rq.i64[3] = len[T[i].nout];
            rq.i64[4] = T[i].rows == 0 ? rows : T[i].rows == 1 ? -1 : T[i].rows == 2 ? WBK_MAX_DIM + 1 : 0;
            rq.i64[5] = T[i].cols == 0 ? cols : T[i].cols == 1 ? -5 : T[i].cols == 2 ? 0 : INT_MAX;
            RUN(T[i].want, "wbk_transpose", T[i].expr);
        }
    }

    /* standardize */
    rq_init(&rq, W20_FN_STANDARDIZE, -1);
    rq_arg(&rq, 0, &X, 0), rq_arg(&rq, 1, &X, Y), rq.i64[2] = rq.i64[3] = 0;
    RUN(WBK_ERR_INVALID_ARG, "wbk_standardize", "wbk_standardize(NULL, x, 0, y, 0, &st)");
    rq.i64[2] = (long long)n, rq.i64[3] = (long long)n - 1;
    RUN(WBK_ERR_INVALID_ARG, "wbk_standardize", "wbk_standardize(NULL, x, n, y, n - 1, &st)");
    rq.i64[3] = (long long)n, rq_arg(&rq, 0, NULL, 0);
    RUN(WBK_ERR_INVALID_ARG, "wbk_standardize", "wbk_standardize(NULL, NULL, n, y, n, &st)");
    rq_arg(&rq, 0, &X, 0), rq_arg(&rq, 1, NULL, 0);
    RUN(WBK_ERR_INVALID_ARG, "wbk_standardize", "wbk_standardize(NULL, x, n, NULL, n, &st)");
    rq_arg(&rq, 1, &X, Y), rq.i64[2] = rq.i64[3] = (long long)big;
    RUN(WBK_ERR_INVALID_ARG, "wbk_standardize", "wbk_standardize(NULL, x, WBK_MAX_N + 1, y, WBK_MAX_N + 1, &st)");
    rq.i64[2] = rq.i64[3] = (long long)n, rq.i64[4] = 1;
    RUN(WBK_ERR_INVALID_HANDLE, "wbk_standardize", "wbk_standardize(NULL, x, n, y, n, NULL)");
    rq.i64[4] = 0, rq_arg(&rq, 1, &X, 0);
    RUN(WBK_ERR_INVALID_HANDLE, "wbk_standardize", "wbk_standardize(NULL, x, n, x, n, &st) (in place is allowed)");

    /* the message stays until the next failure; another thread has its own */
    rq_init(&rq, W20_FN_SUM, -1), rq.i64[2] = (long long)n;
    RUN(WBK_ERR_INVALID_ARG, "wbk_sum", "wbk_sum(NULL, NULL, n, &r)");
    snprintf(msg, sizeof msg, "%s", o.msg);
    rq_init(&rq, W20_FN_DESTROY, -1);
    RUN(WBK_OK, "wbk_destroy", "wbk_destroy(NULL)");
    if (strcmp(msg, o.msg) != 0)
        jd_failf(t, "a call that succeeded changed wbk_last_error(): \"%s\" became \"%s\"", msg, o.msg);
    rq_init(&rq, W20_FN_THREAD, -1);
    t->tests++;
    if (call(J, &rq, &o, t, "wbk_last_error on a new thread") != 0) goto done;
    if (o.msg[0]) jd_failf(t, "a new thread's wbk_last_error() is \"%s\", expected \"\" (one message per thread)", o.msg);
#undef RUN
#undef NOT_WRITTEN
done:
    hb_free(J, &X), hb_free(J, &OUT), hb_free(J, &D);
}

static void judge_api(jd *J, jd_tally *t)
{
    api_statuses(J, t);
    for (int r = 0; r < 4 && !J->lost; r++) api_arguments(J, t, r);
}

static void judge_api_gpu(jd_ck *k) { judge_api(k->J, k->t); }

/* ---------------------------------------------------------------- CPU references (test_week20.c's) */

static void ref_dot(const float *x, const float *y, size_t n, double *sum, double *tol)
{
    double s = 0, sq = 0, sa = 0;
    for (size_t i = 0; i < n; i++) {
        double v = (double)x[i] * (y ? y[i] : 1.0f);
        s += v, sq += v * v, sa += fabs(v);
    }
    *sum = s;
    *tol = 8 * FLT_EPSILON * sqrt((double)n) * sqrt(sq) + 1e-6 * fabs(s) + 2e-6 * sa;
}

static void ref_standardize(const float *x, size_t n, double *y, double *mean, double *sd)
{
    double s = 0, ss = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    double m = s / (double)n;
    for (size_t i = 0; i < n; i++) ss += (x[i] - m) * (x[i] - m);
    double d = sqrt(ss / (double)n), scale = d > 1e-5 * fabs(m) ? 1 / d : 1;
    if (y)
        for (size_t i = 0; i < n; i++) y[i] = (x[i] - m) * scale;
    *mean = m, *sd = d;
}

/* ---------------------------------------------------------------- the operations' buffers */

/* Two inputs of CAP floats (A, B), an output of GUARD + CAP + GUARD floats
 * (O) and a double reference (host only). */
typedef struct {
    hbuf    A, B, O;
    double *ref;
    float  *y0;
} opsbuf;

static int ops_alloc(jd *J, opsbuf *b, jd_tally *t)
{
    memset(b, 0, sizeof *b);
    b->A.id = b->B.id = b->O.id = -1;
    b->ref = malloc(CAP * sizeof(double));
    b->y0 = malloc(CAP * sizeof(float));
    if (!b->ref || !b->y0) return jd_failf(t, "the judge's own memory"), -1;
    if (hb_alloc(J, &b->A, CAP * 4, t) || hb_alloc(J, &b->B, CAP * 4, t) ||
        hb_alloc(J, &b->O, (CAP + 2 * GUARD) * 4, t))
        return -1;
    return 0;
}

static void ops_free(jd *J, opsbuf *b)
{
    hb_free(J, &b->A), hb_free(J, &b->B), hb_free(J, &b->O);
    free(b->ref), free(b->y0);
}

static float *out_of(opsbuf *b) { return (float *)b->O.p + GUARD; }

/* The output poisoned whole, guards included (n floats inside). */
static void out_poison(opsbuf *b, size_t n) { memset(b->O.p, 0xff, (n + 2 * GUARD) * 4); }

/* Nothing written in the guards around n floats: 0, or 1 (t told). */
static int out_guards(opsbuf *b, size_t n, const char *what, jd_tally *t)
{
    const float *y = out_of(b);
    size_t bad = wb_count_not_byte(y - GUARD, GUARD * 4, 0xFF) + wb_count_not_byte(y + n, GUARD * 4, 0xFF);
    if (bad) return jd_failf(t, "%s: %zu bytes written outside the output's %zu floats", what, bad, n), 1;
    return 0;
}

static void expect_f32(jd_tally *t, const float *got, const double *ref, size_t n, double atol, double rtol,
                       const char *what)
{
    wb_cmp cmp;
    if (wb_compare_f32_f64("y", got, ref, n, atol, rtol, &cmp)) jd_failf(t, "%s: %s", what, cmp.msg);
}

/* saxpy, dot, sum and standardize on n fresh elements through slot's
 * context (test_week20.c's check_vector_ops). 0, or -1 when the runner is lost. */
static int check_vector_ops(jd *J, opsbuf *b, int slot, wb_rng *rng, size_t n, const char *tag, jd_tally *t)
{
    float *x = (float *)b->A.p, *y0 = (float *)b->B.p, *y = out_of(b);
    const float lo = (float)wb_rng_int(rng, -8, 4), hi = lo + (float)wb_rng_int(rng, 1, 6);
    wb_fill_uniform_f32(rng, x, n, lo, hi);
    wb_fill_uniform_f32(rng, y0, n, -1, 1);
    const float a = (float)(4 * wb_rng_unit(rng) - 2);
    char what[200];
    jd_req rq;
    w20_rep o;
    t->tests++;

    out_poison(b, n);
    memcpy(y, y0, n * 4);
    for (size_t i = 0; i < n; i++) b->ref[i] = (double)a * x[i] + y0[i];
    snprintf(what, sizeof what, "%s: wbk_saxpy n=%zu a=%g", tag, n, a);
    rq_init(&rq, W20_FN_SAXPY, slot), rq.f64[0] = a;
    rq_arg(&rq, 0, &b->A, 0), rq_arg(&rq, 1, &b->O, GUARD * 4), rq.i64[2] = rq.i64[3] = (long long)n;
    int rc = call_ok(J, &rq, &o, t, what);
    if (rc < 0) return -1;
    if (rc == 0) expect_f32(t, y, b->ref, n, 1e-6, 1e-6, what), out_guards(b, n, what, t);

    double want, tol;
    ref_dot(x, y0, n, &want, &tol);
    snprintf(what, sizeof what, "%s: wbk_dot n=%zu", tag, n);
    rq_init(&rq, W20_FN_DOT, slot);
    rq_arg(&rq, 0, &b->A, 0), rq_arg(&rq, 1, &b->B, 0), rq.i64[2] = rq.i64[3] = (long long)n;
    if ((rc = call_ok(J, &rq, &o, t, what)) < 0) return -1;
    if (rc == 0 && !(fabs(o.result - want) <= tol))
        jd_failf(t, "%s: %.9g, reference %.9g, |error| %.3g > tolerance %.3g", what, o.result, want,
                 fabs(o.result - want), tol);
    ref_dot(x, NULL, n, &want, &tol);
    snprintf(what, sizeof what, "%s: wbk_sum n=%zu", tag, n);
    rq_init(&rq, W20_FN_SUM, slot);
    rq_arg(&rq, 0, &b->A, 0), rq.i64[2] = (long long)n;
    if ((rc = call_ok(J, &rq, &o, t, what)) < 0) return -1;
    if (rc == 0 && !(fabs(o.result - want) <= tol))
        jd_failf(t, "%s: %.9g, reference %.9g, |error| %.3g > tolerance %.3g", what, o.result, want,
                 fabs(o.result - want), tol);

    if (n > 0) {
        double mean, sd;
        ref_standardize(x, n, b->ref, &mean, &sd);
        out_poison(b, n);
        snprintf(what, sizeof what, "%s: wbk_standardize n=%zu, x in [%g, %g)", tag, n, lo, hi);
        rq_init(&rq, W20_FN_STANDARDIZE, slot);
        rq_arg(&rq, 0, &b->A, 0), rq_arg(&rq, 1, &b->O, GUARD * 4), rq.i64[2] = rq.i64[3] = (long long)n;
        if ((rc = call_ok(J, &rq, &o, t, what)) < 0) return -1;
        if (rc == 0) {
            expect_f32(t, y, b->ref, n, 1e-4, 1e-4, what);
            out_guards(b, n, what, t);
            if (!(wb_close(o.mean, mean, 1e-5, 1e-5) && wb_close(o.std, sd, 1e-5, 1e-5)))
                jd_failf(t, "%s: mean %.9g std %.9g, reference %.9g %.9g", what, o.mean, o.std, mean, sd);
        }
    }
    return 0;
}

/* test_week20.c's check_transpose: exact. 0, or -1 when the runner is lost. */
static int check_transpose(jd *J, opsbuf *b, int slot, wb_rng *rng, int rows, int cols, const char *tag, jd_tally *t)
{
    const size_t n = (size_t)rows * (size_t)cols;
    float *in = (float *)b->A.p, *want = b->y0, *out = out_of(b);
    wb_fill_uniform_f32(rng, in, n, -100, 100);
    for (size_t r = 0; r < (size_t)rows; r++)
        for (size_t c = 0; c < (size_t)cols; c++) want[c * rows + r] = in[r * cols + c];
    out_poison(b, n);
    char what[128];
    snprintf(what, sizeof what, "%s: wbk_transpose %d x %d", tag, rows, cols);
    jd_req rq;
    w20_rep o;
    t->tests++;
    rq_init(&rq, W20_FN_TRANSPOSE, slot);
    rq_arg(&rq, 0, &b->A, 0), rq_arg(&rq, 1, &b->O, GUARD * 4);
    rq.i64[2] = rq.i64[3] = (long long)n, rq.i64[4] = rows, rq.i64[5] = cols;
    int rc = call_ok(J, &rq, &o, t, what);
    if (rc < 0) return -1;
    if (rc) return 0;
    wb_cmp cmp;
    if (wb_compare_f32("out", out, want, n, 0, 0, &cmp)) jd_failf(t, "%s: %s", what, cmp.msg);
    out_guards(b, n, what, t);
    return 0;
}

/* ---------------------------------------------------------------- w20.ops */

/* body(k, b) on the operations' buffers, freed after. */
static void with_ops(jd_ck *k, void (*body)(jd_ck *k, opsbuf *b))
{
    opsbuf b;
    if (ops_alloc(k->J, &b, k->t) == 0) body(k, &b);
    ops_free(k->J, &b);
}


/* NaN (k 0) or +Inf (k 1) in x: test_week20.c's ops_nonfinite. */
static int ops_nonfinite(jd *J, opsbuf *b, int k, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w20 nonfinite", k);
    const size_t n = (size_t)wb_rng_int(&rng, 1000, 100000), at = (size_t)wb_rng_int(&rng, 0, (int64_t)n - 1);
    float *x = (float *)b->A.p, *y = (float *)b->B.p;
    wb_fill_uniform_f32(&rng, x, n, 0.5f, 1);
    wb_fill_uniform_f32(&rng, y, n, 0.5f, 1);
    x[at] = k ? INFINITY : NAN;
    if (open_ctx(J, 0, NULL, 1, t) != 0) return -1;
    jd_req rq;
    w20_rep d, s, o;
    t->tests++;
    rq_init(&rq, W20_FN_DOT, 0);
    rq_arg(&rq, 0, &b->A, 0), rq_arg(&rq, 1, &b->B, 0), rq.i64[2] = rq.i64[3] = (long long)n;
    if (call_ok(J, &rq, &d, t, "wbk_dot with a non-finite x") != 0) return J->lost ? -1 : 0;
    rq_init(&rq, W20_FN_SUM, 0);
    rq_arg(&rq, 0, &b->A, 0), rq.i64[2] = (long long)n;
    if (call_ok(J, &rq, &s, t, "wbk_sum with a non-finite x") != 0) return J->lost ? -1 : 0;
    if (k ? !(isinf(d.result) && d.result > 0 && isinf(s.result) && s.result > 0) : !(isnan(d.result) && isnan(s.result)))
        jd_failf(t, "one x = %s: dot %g and sum %g must be %s", k ? "+Inf" : "NaN", d.result, s.result, k ? "+Inf" : "NaN");
    const float yat = y[at];
    rq_init(&rq, W20_FN_SAXPY, 0), rq.f64[0] = 2;
    rq_arg(&rq, 0, &b->A, 0), rq_arg(&rq, 1, &b->B, 0), rq.i64[2] = rq.i64[3] = (long long)n;
    if (call_ok(J, &rq, &o, t, "wbk_saxpy with a non-finite x") != 0) return J->lost ? -1 : 0;
    if (k ? !(isinf(y[at]) && y[at] > 0) : !isnan(y[at]))
        jd_failf(t, "saxpy: y[%zu] = %g from x = %g and y = %g", at, y[at], x[at], yat);
    out_poison(b, n);
    rq_init(&rq, W20_FN_STANDARDIZE, 0);
    rq_arg(&rq, 0, &b->A, 0), rq_arg(&rq, 1, &b->O, GUARD * 4), rq.i64[2] = rq.i64[3] = (long long)n;
    if (call_ok(J, &rq, &o, t, "wbk_standardize with a non-finite x") != 0) return J->lost ? -1 : 0;
    size_t not_nan = 0, unwritten = 0;
    const float *z = out_of(b);
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &z[i], 4);
        not_nan += !isnan(z[i]), unwritten += u == 0xffffffffu;
    }
    if (!(isnan(o.mean) || isinf(o.mean))) jd_failf(t, "standardize with x[%zu] = %g: mean %g", at, x[at], o.mean);
    if (not_nan) jd_failf(t, "standardize with x[%zu] = %g: %zu of %zu outputs are not NaN", at, x[at], not_nan, n);
    /* the test's poison is NaN too: an output never written passes there; here it is named */
    if (unwritten == n) jd_failf(t, "standardize with x[%zu] = %g: no output written (y still the poison)", at, x[at]);
    out_guards(b, n, "standardize, NaN/Inf", t);
    close_ctx(J, 0, t);
    return 0;
}

/* A constant vector (k 0: one element): test_week20.c's ops_constant. */
static int ops_constant(jd *J, opsbuf *b, int k, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w20 constant", k);
    const size_t n = k ? (size_t)wb_rng_int(&rng, 2, 3000000) : 1;
    const float c = (float)(20 * wb_rng_unit(&rng) - 10);
    float *x = (float *)b->A.p;
    for (size_t i = 0; i < n; i++) x[i] = c;
    double mean, sd;
    ref_standardize(x, n, b->ref, &mean, &sd);
    if (open_ctx(J, 0, NULL, 1, t) != 0) return -1;
    char what[96];
    snprintf(what, sizeof what, "wbk_standardize of %zu copies of %g", n, c);
    jd_req rq;
    w20_rep o;
    t->tests++;
    out_poison(b, n);
    rq_init(&rq, W20_FN_STANDARDIZE, 0);
    rq_arg(&rq, 0, &b->A, 0), rq_arg(&rq, 1, &b->O, GUARD * 4), rq.i64[2] = rq.i64[3] = (long long)n;
    int rc = call_ok(J, &rq, &o, t, what);
    if (rc < 0) return -1;
    if (rc == 0) {
        expect_f32(t, out_of(b), b->ref, n, 1e-4, 0, what);
        out_guards(b, n, what, t);
        if (!(wb_close(o.mean, mean, 1e-5, 1e-5) && o.std <= 1e-5 * (1 + fabs(mean))))
            jd_failf(t, "%s: mean %g std %g", what, o.mean, o.std);
    }
    close_ctx(J, 0, t);
    return 0;
}

static void ops_all(jd_ck *k, opsbuf *b)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    for (size_t i = 0; i < N_OF(SIZES); i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w20 ops_sizes", (int)i);
        if (open_ctx(J, 0, NULL, 1, t) != 0 || check_vector_ops(J, b, 0, &rng, SIZES[i], "one device", t) != 0) return;
        close_ctx(J, 0, t);
    }
    for (size_t i = 0; i < N_OF(SHAPES); i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w20 ops_transpose", (int)i);
        if (open_ctx(J, 0, NULL, 1, t) != 0 ||
            check_transpose(J, b, 0, &rng, SHAPES[i][0], SHAPES[i][1], "one device", t) != 0)
            return;
        close_ctx(J, 0, t);
    }
    for (int i = 0; i < 2; i++)
        if (ops_nonfinite(J, b, i, t) != 0) return;
    {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w20 ops_workspace_reuse", 0);
        static const size_t seq[] = { 10, 300000, 7, 1 << 20, 1000, 1 << 20, 1 };
        if (open_ctx(J, 0, NULL, 1, t) != 0) return;
        for (size_t i = 0; i < N_OF(seq); i++)
            if (check_vector_ops(J, b, 0, &rng, seq[i], "one context, many sizes", t) != 0) return;
        if (check_transpose(J, b, 0, &rng, 2000, 3000, "one context, many sizes", t) != 0 ||
            check_transpose(J, b, 0, &rng, 3, 5, "one context, many sizes", t) != 0)
            return;
        close_ctx(J, 0, t);
    }
    for (int i = 0; i < 3; i++)
        if (ops_constant(J, b, i, t) != 0) return;
}

static void judge_ops(jd_ck *k) { with_ops(k, ops_all); }

/* ---------------------------------------------------------------- w20.split */

/* The runner's device count and current device, after setting it to dev (-1: not). 0, or -1 (t says why). */
static int runner_device(jd *J, int dev, int *count, int *cur, jd_tally *t)
{
    jd_req rq;
    w20_rep o;
    rq_init(&rq, W20_FN_DEVICE, -1), rq.i64[2] = dev;
    if (call(J, &rq, &o, t, "the runner's devices") != 0) return -1;
    if (o.rc != 0) return jd_failf(t, "the runner's devices: %s", cudaGetErrorName((cudaError_t)o.rc)), -1;
    *count = o.count, *cur = o.cur;
    return 0;
}

static void split_all(jd_ck *k, opsbuf *b)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    for (int reps = 1; reps <= 5; reps++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w20 split_repeated_device", reps - 1);
        static const int devs[5] = { 0, 0, 0, 0, 0 };
        jd_req rq;
        w20_rep o;
        if (open_ctx(J, 0, devs, reps, t) != 0) return;
        rq_init(&rq, W20_FN_COUNT, 0);
        t->tests++;
        if (call_ok(J, &rq, &o, t, "wbk_device_count") < 0) return;
        if (o.status == WBK_OK && o.count != reps)
            jd_failf(t, "wbk_device_count: %d, the context lists %d", o.count, reps);
        char tag[48];
        snprintf(tag, sizeof tag, "device 0 listed %d times", reps);
        static const size_t ns[] = { 1, 2, 4, 5, 6, 1000, 65537, 1000003 };
        for (size_t i = 0; i < N_OF(ns); i++)
            if (check_vector_ops(J, b, 0, &rng, ns[i], tag, t) != 0) return;
        if (check_transpose(J, b, 0, &rng, 1, 9, tag, t) || check_transpose(J, b, 0, &rng, 3, 40, tag, t) ||
            check_transpose(J, b, 0, &rng, 1001, 77, tag, t))
            return;
        close_ctx(J, 0, t);
    }
    {
        int count = 0, start = 0, cur = -1, ndev = 0;
        if (runner_device(J, -1, &count, &start, t) != 0) return;
        if (open_ctx(J, 0, NULL, 0, t) != 0) return;
        jd_req rq;
        w20_rep o;
        rq_init(&rq, W20_FN_COUNT, 0);
        t->tests++;
        if (call_ok(J, &rq, &o, t, "wbk_device_count") < 0) return;
        ndev = o.count;
        const int want = count < WBK_MAX_DEVICES ? count : WBK_MAX_DEVICES;
        if (o.status == WBK_OK && ndev != want)
            jd_failf(t, "wbk_create(&ctx, 0) uses %d devices, this machine has %d", ndev, count);
        if (runner_device(J, count - 1, &count, &cur, t) != 0) return;
        wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w20 split_every_gpu", 0);
        if (check_vector_ops(J, b, 0, &rng, 3000017, "every GPU", t) != 0 ||
            check_transpose(J, b, 0, &rng, 1999, 1001, "every GPU", t) != 0)
            return;
        if (runner_device(J, -1, &count, &cur, t) != 0) return;
        t->tests++;
        if (cur != count - 1) jd_failf(t, "the current device was %d before the calls and %d after", count - 1, cur);
        close_ctx(J, 0, t);
        runner_device(J, start, &count, &cur, t);
        char fig[120];
        if (count == 1)
            snprintf(fig, sizeof fig, "1 GPU: the single-GPU path (the split is checked with device 0 listed 1-5 times)");
        else
            snprintf(fig, sizeof fig, "%d GPUs: data split across %d", count, ndev);
        printf("  %s\n", fig);
        snprintf(k->R->detail, sizeof k->R->detail, "%s", fig);
    }
}

static void judge_split(jd_ck *k) { with_ops(k, split_all); }

/* ---------------------------------------------------------------- w20.app */

static int app_table(jd *J, opsbuf *b, hbuf *M, int i, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w20 app_tables", i);
    const int rows = TABLES[i][0], cols = TABLES[i][1];
    const size_t n = (size_t)rows * (size_t)cols;
    float *data = (float *)b->A.p, *col = b->y0;
    double *cref = malloc((size_t)rows * sizeof(double)), *rmean = malloc(cols * sizeof(double)),
           *rstd = malloc(cols * sizeof(double));
    double *means = (double *)M->p, *stds = means + cols;
    int rc = 0;
    if (!cref || !rmean || !rstd) {
        jd_failf(t, "the judge's own memory");
        goto done;
    }
    for (size_t k = 0; k < n; k++) {
        double j = (double)(k % (size_t)cols);
        data[k] = (float)(j - 5 + (4 + j / 8) * wb_rng_unit(&rng));
    }
    for (int j = 0; j < cols; j++) {
        for (int r = 0; r < rows; r++) col[r] = data[(size_t)r * cols + j];
        ref_standardize(col, (size_t)rows, cref, &rmean[j], &rstd[j]);
        for (int r = 0; r < rows; r++) b->ref[(size_t)r * cols + j] = cref[r];
    }
    memset(M->p, 0xff, M->bytes);
    out_poison(b, n);
    char what[96];
    snprintf(what, sizeof what, "app_standardize_columns %d x %d", rows, cols);
    jd_req rq;
    w20_rep o;
    t->tests++;
    if (open_ctx(J, 0, NULL, 0, t) != 0) {
        rc = -1;
        goto done;
    }
    rq_init(&rq, W20_FN_APP_COLS, 0);
    rq_arg(&rq, 0, &b->A, 0), rq_arg(&rq, 1, &b->O, GUARD * 4), rq_arg(&rq, 2, M, 0);
    rq_arg(&rq, 3, M, (size_t)cols * sizeof(double));
    rq.i64[4] = rows, rq.i64[5] = cols;
    int got = call_ok(J, &rq, &o, t, what);
    if (got < 0) {
        rc = -1;
        goto done;
    }
    if (got == 0) {
        expect_f32(t, out_of(b), b->ref, n, 1e-4, 1e-4, what);
        out_guards(b, n, what, t);
        wb_cmp cmp;
        if (wb_compare_f64("means", means, rmean, (size_t)cols, 1e-5, 1e-5, &cmp)) jd_failf(t, "%s: %s", what, cmp.msg);
        if (wb_compare_f64("stds", stds, rstd, (size_t)cols, 1e-5, 1e-5, &cmp)) jd_failf(t, "%s: %s", what, cmp.msg);
        if (wb_count_not_byte(stds + cols, M->bytes - 2 * (size_t)cols * sizeof(double), 0xFF))
            jd_failf(t, "%s: written past stds[%d]", what, cols - 1);
    }
    close_ctx(J, 0, t);
done:
    free(cref), free(rmean), free(rstd);
    return rc;
}

enum { APP_ARGS = 256, APP_OUT = 4096 };

/* app_main on args, what it printed into out. 0, or -1 (t says why). */
static int app_run(jd *J, hbuf *T, const char *args, int *rc, char *out, jd_tally *t)
{
    jd_req rq;
    w20_rep o;
    snprintf((char *)T->p, APP_ARGS, "%s", args);
    memset((char *)T->p + APP_ARGS, 0, APP_OUT);
    rq_init(&rq, W20_FN_APP_MAIN, -1);
    rq_arg(&rq, 0, T, 0), rq_arg(&rq, 1, T, APP_ARGS), rq.i64[2] = APP_OUT;
    char what[APP_ARGS + 32];
    snprintf(what, sizeof what, "`wbk-app %s`", args);
    if (call(J, &rq, &o, t, what) != 0) return -1;
    *rc = o.status;
    memcpy(out, (char *)T->p + APP_ARGS, APP_OUT);
    out[APP_OUT - 1] = 0;
    return 0;
}

/* test_week20.c's app_program. */
static void app_program(jd *J, hbuf *T, jd_tally *t)
{
    static const char *bad[] = { "", "10", "0 5", "5 0", "x 5", "5 5 -1", "1048577 1", "100000 10000", "5 5 5 5" };
    char out[APP_OUT];
    int rc;
    for (size_t i = 0; i < N_OF(bad); i++) {
        t->tests++;
        if (app_run(J, T, bad[i], &rc, out, t) != 0) return;
        if (!(rc == 2 && strncmp(out, "error: ", 7) == 0 && strstr(out, "\nusage: wbk-app ROWS COLS [SEED]\n")))
            jd_failf(t, "`wbk-app %s`: exit %d, printed \"%.300s\"; expected exit 2, \"error: ...\" and the usage line",
                     bad[i], rc, out);
    }
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge-w20 app_program", 0);
    char args[64];
    snprintf(args, sizeof args, "%d %d %d", (int)wb_rng_int(&rng, 100, 3000), (int)wb_rng_int(&rng, 1, 9),
             (int)wb_rng_int(&rng, 0, 1000));
    t->tests++;
    if (app_run(J, T, args, &rc, out, t) != 0) return;
    if (rc != 0) {
        jd_failf(t, "`wbk-app %s`: exit %d; printed \"%.400s\"", args, rc, out);
        return;
    }
    if (!(strncmp(out, "devices: ", 9) == 0 && strstr(out, "\nfeature 0: mean="))) {
        jd_failf(t, "`wbk-app %s`: expected \"devices: ...\" then \"feature 0: mean=...\", got \"%.400s\"", args, out);
        return;
    }
    const char *last = strstr(out, "\nscaled ");
    double err = -1;
    char ok[16] = "";
    if (!(last && sscanf(last + 1, "scaled %*dx%*d max_err=%lf %15s", &err, ok) == 2 && strcmp(ok, "ok") == 0 &&
          err >= 0 && err <= 1e-3))
        jd_failf(t, "`wbk-app %s`: expected a last line \"scaled RxC max_err=E ok\", got \"%.400s\"", args, out);
}

static void judge_app(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    opsbuf b;
    hbuf M = { -1, NULL, 0 }, T = { -1, NULL, 0 };
    if (ops_alloc(J, &b, t) != 0 || hb_alloc(J, &M, (2 * 67 + 2 * GUARD) * sizeof(double), t) != 0 ||
        hb_alloc(J, &T, APP_ARGS + APP_OUT, t) != 0)
        goto done;
    for (size_t i = 0; i < N_OF(TABLES); i++)
        if (app_table(J, &b, &M, (int)i, t) != 0) goto done;
    app_program(J, &T, t);
done:
    hb_free(J, &M), hb_free(J, &T);
    ops_free(J, &b);
}

/* ---------------------------------------------------------------- w20.standardize-speed */

enum { SPEED_K = 2, SPEED_TIMED = 7 }; /* calls a request (each some 20-50 ms on an H200), requests timed */

typedef struct {
    jd      *J;
    int      xfer;       /* 1: the yard runner's XFER (y = x bit for bit); 0: the student's wbk_standardize */
    size_t   n;
    hbuf     x[SPEED_K], y[SPEED_K]; /* y: GUARD floats each side */
    int      pinned[SPEED_K][2];
    double   mean[SPEED_K], sd[SPEED_K];
    size_t   idx[JD_SAMPLES];
    double   want[SPEED_K][JD_SAMPLES];
    uint64_t salt;
    w20_timed_rep rep;
} speed;

static float *sp_y(const speed *s, int r) { return (float *)s->y[r].p + GUARD; }

/* 64 random bits of this process (getrandom) mixed into the salts: the timed
 * inputs and the look's positions follow from them, not from the class seed
 * alone (judge_week.c's jd_secret, for host buffers). */
static uint64_t sp_secret(void)
{
    static uint64_t s;
    static int have;
    if (!have) {
        FILE *f = fopen("/dev/urandom", "rb");
        if (!f || fread(&s, sizeof s, 1, f) != 1) s = (uint64_t)jd_now_us() ^ ((uint64_t)getpid() << 40);
        if (f) fclose(f);
        s = jd_mix(s), have = 1;
    }
    return s;
}

static int sp_pin(speed *s, int r, int which, int on, char *why, size_t why_n)
{
    jd_req rq;
    w20_rep o;
    jd_tally t;
    memset(&t, 0, sizeof t);
    hbuf *b = which ? &s->y[r] : &s->x[r];
    rq_init(&rq, on ? W20_FN_PIN : W20_FN_UNPIN, -1);
    rq_arg(&rq, 0, b, 0), rq.i64[2] = on ? (long long)b->bytes : 0;
    if (call(s->J, &rq, &o, &t, on ? "pinning a host buffer" : "unpinning a host buffer") != 0)
        return snprintf(why, why_n, "%s", t.msg), -1;
    if (on && o.rc != 0)
        return snprintf(why, why_n, "the runner could not pin the judge's host buffer of %zu bytes (cudaHostRegister: %s)",
                        b->bytes, cudaGetErrorName((cudaError_t)o.rc)), 1;
    s->pinned[r][which] = on;
    return 0;
}

static void sp_free(speed *s)
{
    char why[200];
    for (int r = 0; r < SPEED_K; r++) {
        for (int w = 0; w < 2; w++)
            if (s->pinned[r][w] && !s->J->lost) sp_pin(s, r, w, 0, why, sizeof why);
        hb_free(s->J, &s->x[r]), hb_free(s->J, &s->y[r]);
    }
}

/* 0; 1 when a buffer could not be pinned (the judge's set-up: SKIP); -1 with why. */
static int sp_alloc(speed *s, jd *J, int xfer, size_t n, char *why, size_t why_n)
{
    memset(s, 0, sizeof *s);
    s->J = J, s->xfer = xfer, s->n = n;
    for (int r = 0; r < SPEED_K; r++) s->x[r].id = s->y[r].id = -1;
    jd_tally t;
    memset(&t, 0, sizeof t);
    for (int r = 0; r < SPEED_K; r++) {
        if (hb_alloc(J, &s->x[r], n * 4, &t) || hb_alloc(J, &s->y[r], (n + 2 * GUARD) * 4, &t))
            return snprintf(why, why_n, "%s", t.msg), -1;
        for (int w = 0; w < 2; w++) {
            int rc = sp_pin(s, r, w, 1, why, why_n);
            if (rc) return rc;
        }
    }
    return 0;
}

/* Fresh x for every rep, y poisoned, the references; then the look's positions and values. */
static void sp_refill(speed *s)
{
    const float f = jd_fresh_factor(s->salt = jd_mix(s->salt));
    for (int r = 0; r < SPEED_K; r++) {
        const unsigned long long seed = s->salt = jd_mix(s->salt);
        float *x = (float *)s->x[r].p;
        for (size_t i = 0; i < s->n; i++) x[i] = wb_hash_uniform(seed, i, 2.0f, 5.0f) * f;
        memset(s->y[r].p, 0xff, s->y[r].bytes);
        if (!s->xfer) ref_standardize(x, s->n, NULL, &s->mean[r], &s->sd[r]);
    }
    uint64_t k = s->salt = jd_mix(s->salt);
    for (int j = 0; j < JD_SAMPLES; j++) s->idx[j] = (k = jd_mix(k)) % s->n;
    for (int r = 0; r < SPEED_K; r++)
        for (int j = 0; j < JD_SAMPLES; j++) {
            const float xi = ((const float *)s->x[r].p)[s->idx[j]];
            s->want[r][j] = s->xfer ? xi : (xi - s->mean[r]) / s->sd[r];
        }
}

static int sp_same(const speed *s, float got, double want)
{
    if (s->xfer) return memcmp(&got, &(float){ (float)want }, 4) == 0;
    return fabs(got - want) <= 1e-4 + 1e-4 * fabs(want); /* NaN never passes */
}

/* The look right after a reply: JD_SAMPLES hidden positions of every y. */
static int sp_look(void *p, char *why, size_t n)
{
    speed *s = p;
    for (int r = 0; r < SPEED_K; r++)
        for (int j = 0; j < JD_SAMPLES; j++) {
            const float got = sp_y(s, r)[s->idx[j]];
            if (!sp_same(s, got, s->want[r][j])) {
                uint32_t u;
                memcpy(&u, &got, 4);
                return snprintf(why, n, JD_TIMED_WRONG ": call %d of a timed request: y[%zu] %s right after the reply", r,
                                s->idx[j], u == 0xffffffffu ? "not yet written (still the poison)" : "wrong"), 1;
            }
        }
    return 0;
}

/* Every element of every y, its guards, and (the student's) the statistics. 0, or 1 with why. */
static int sp_full_check(speed *s, char *why, size_t why_n)
{
    for (int r = 0; r < SPEED_K; r++) {
        const float *x = (const float *)s->x[r].p, *y = sp_y(s, r);
        if (!s->xfer && s->rep.status[r] != WBK_OK)
            return snprintf(why, why_n, "wbk_standardize failed in call %d of a timed request: %s", r,
                            st_name(s->rep.status[r])), 1;
        if (wb_count_not_byte(y - GUARD, GUARD * 4, 0xFF) + wb_count_not_byte(y + s->n, GUARD * 4, 0xFF))
            return snprintf(why, why_n, JD_TIMED_WRONG ": call %d of a timed request wrote outside y", r), 1;
        size_t bad = 0, first = 0;
        const double scale = s->xfer ? 1 : 1 / s->sd[r];
        for (size_t i = 0; i < s->n; i++) {
            const int ok = s->xfer ? memcmp(&y[i], &x[i], 4) == 0 : sp_same(s, y[i], (x[i] - s->mean[r]) * scale);
            if (!ok && bad++ == 0) first = i;
        }
        if (bad)
            return snprintf(why, why_n, JD_TIMED_WRONG ": call %d of a timed request: %zu of %zu elements wrong, the "
                            "first y[%zu] (checked in full after the timing)", r, bad, s->n, first), 1;
        if (!s->xfer && !(wb_close(s->rep.mean[r], s->mean[r], 1e-5, 1e-5) && wb_close(s->rep.std[r], s->sd[r], 1e-5, 1e-5)))
            return snprintf(why, why_n, JD_TIMED_WRONG ": call %d of a timed request: stats mean %g std %g, expected %g %g",
                            r, s->rep.mean[r], s->rep.std[r], s->mean[r], s->sd[r]), 1;
    }
    return 0;
}

/* The protocol on s's buffers: one checked warm-up request, then SPEED_TIMED timed ones,
 * each checked in full. 0 and *ms (the median, a call), or -1 with why. */
static int sp_run(speed *s, int slot, double *ms, char *why, size_t why_n)
{
    jd_req rq;
    jd_rep rp;
    double t_us[SPEED_TIMED], look_us = 0;
    jd_call_setup(&rq, s->xfer ? W20_YARD_FN_XFER : W20_FN_TIMED, SPEED_K, 2);
    rq.i64[1] = slot, rq.i64[2] = s->xfer ? (long long)(s->n * 4) : (long long)s->n;
    for (int r = 0; r < SPEED_K; r++) {
        rq.arg_buf[r][0] = s->x[r].id, rq.arg_off[r][0] = 0;
        rq.arg_buf[r][1] = s->y[r].id, rq.arg_off[r][1] = GUARD * 4;
    }
    s->salt = jd_mix(jd_seed ^ 0x20a5 ^ sp_secret());
    for (int q = 0; q <= SPEED_TIMED; q++) {
        sp_refill(s);
        for (int r = 0; r < SPEED_K; r++) /* nothing computed before the request */
            for (int j = 0; j < JD_SAMPLES; j++) {
                uint32_t u;
                memcpy(&u, &sp_y(s, r)[s->idx[j]], 4);
                if (u != 0xffffffffu)
                    return snprintf(why, why_n, "call %d: the output was written before the request was sent", r), -1;
            }
        double us = 0;
        int rc = jd_timed_call(s->J, &rq, &rp, sp_look, s, look_us, &us);
        if (rc < 0) return snprintf(why, why_n, "%s", s->J->why), -1;
        if (rc == 1)
            return snprintf(why, why_n, "%s failed: %s", s->xfer ? "the copies" : "wbk_standardize",
                            rp.status > 0 ? cudaGetErrorName((cudaError_t)rp.status) : rp.text), -1;
        memset(&s->rep, 0, sizeof s->rep);
        memcpy(&s->rep, rp.out, rp.out_len < sizeof s->rep ? rp.out_len : sizeof s->rep);
        if (rc == 2 || sp_full_check(s, why, why_n)) {
            if (rc == 2) snprintf(why, why_n, "%s", s->J->why);
            return -1;
        }
        if (q == 0) { /* the look's own cost, on a finished output */
            char w[8];
            double a = jd_now_us();
            sp_look(s, w, sizeof w);
            look_us = jd_now_us() - a;
        } else {
            t_us[q - 1] = us;
        }
    }
    for (int i = 1; i < SPEED_TIMED; i++) /* the median */
        for (int j = i; j > 0 && t_us[j] < t_us[j - 1]; j--) {
            double v = t_us[j];
            t_us[j] = t_us[j - 1], t_us[j - 1] = v;
        }
    *ms = t_us[SPEED_TIMED / 2] / 1000.0 / SPEED_K;
    return 0;
}

/* XFER through the yard runner beside this judge: ms a call, or NAN with why. */
static double xfer_ms(char *why, size_t why_n)
{
    char self[PATH_MAX], path[PATH_MAX + 64];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    self[len > 0 ? len : 0] = 0;
    char *slash = strrchr(self, '/');
    if (slash) *slash = 0;
    snprintf(path, sizeof path, "%s/%s", slash ? self : ".", W20_YARD_RUNNER);
    jd Y;
    char *argv[2] = { path, NULL };
    double ms = NAN;
    if (jd_start_plain(&Y, argv, NULL) != 0 || jd_hello(&Y, JD_MEM_DEVICE, jd_dev) != 0) {
        snprintf(why, why_n, "the yard runner (%s) did not start: %s", path, Y.why);
        jd_stop(&Y);
        return NAN;
    }
    static speed s; /* large: its sample arrays */
    int rc = sp_alloc(&s, &Y, 1, wb_bench_bytes() / 4, why, why_n);
    if (rc == 0 && sp_run(&s, -1, &ms, why, why_n) != 0) ms = NAN;
    if (rc != 0) ms = NAN;
    sp_free(&s);
    jd_stop(&Y);
    return ms;
}

static double g_xfer_before = NAN;
static char   g_xfer_why[300];

static void xfer_before(void) { g_xfer_before = xfer_ms(g_xfer_why, sizeof g_xfer_why); }

static void judge_speed(jd_ck *k)
{
    static speed s;
    const size_t n = wb_bench_bytes() / 4;
    const double bytes = 2.0 * 4 * (double)n;
    double ms = NAN, value = NAN, yard = NAN;
    char why[600] = "", detail[200] = "";
    jd_tally setup;
    memset(&setup, 0, sizeof setup);
    if (open_ctx(k->J, 0, NULL, 0, &setup) != 0) {
        snprintf(why, sizeof why, "%s", setup.msg);
    } else {
        int rc = sp_alloc(&s, k->J, 0, n, why, sizeof why);
        if (rc == 1) { /* the driver would not pin the judge's buffers: no fair figure here */
            sp_free(&s);
            close_ctx(k->J, 0, &setup);
            k->t->tests = 1, k->t->skipped = 1;
            snprintf(k->t->msg, sizeof k->t->msg, "not timed: %s", why);
            return;
        }
        if (rc == 0 && sp_run(&s, 0, &ms, why, sizeof why) == 0) {
            char ywhy[300] = "";
            double after = xfer_ms(ywhy, sizeof ywhy);
            double yms = !(after > 0) ? g_xfer_before : !(g_xfer_before > 0) ? after : fmin(after, g_xfer_before);
            value = bytes / (ms * 1e-3) / 1e9;
            if (yms > 0) yard = bytes / (yms * 1e-3) / 1e9;
            else snprintf(why, sizeof why, "no XFER figure: %s", ywhy[0] ? ywhy : g_xfer_why);
            snprintf(detail, sizeof detail, "%.1f GB/s vs XFER %.1f GB/s (judge's clock, %d calls a request, median of %d)",
                     value, yard, SPEED_K, SPEED_TIMED);
            printf("  standardize host to host: %.3f ms a call by the judge's clock, %s\n", ms, detail);
        }
        sp_free(&s);
        close_ctx(k->J, 0, &setup);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "GB/s", "XFER", yard, detail, why);
}

/* ---------------------------------------------------------------- the week */

static const jd_checkpoint CPS[] = {
    { "w20.api", judge_api_gpu, judge_api, 1, 0, NULL, 0, 0 },
    { "w20.ops", judge_ops, NULL, 0, 0, NULL, 0, 0 },
    { "w20.split", judge_split, NULL, 0, 0, NULL, 0, 0 },
    { "w20.app", judge_app, NULL, 0, 0, NULL, 0, 0 },
    { "w20.standardize-speed", judge_speed, NULL, 0, 0, xfer_before, 0, 0 },
};

int main(int argc, char **argv) { return jd_week_main(argc, argv, "judge-w20", "phase4/week20", CPS, N_OF(CPS)); }
