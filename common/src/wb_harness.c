/* wb_harness.c — runs a week's Check tests the workbook's way (see wb_harness.h). */

#include "wb_multicast.h"
#include "wb_cuda.h"
#include "wb_harness.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>
#include <cuda_runtime_api.h>

static wb_week g_week;
static char g_week_dir[256];
static char g_channel[256]; /* results records from test processes to this one */
static char g_ends[256];    /* a record from each test that reached its end (test_end) */
static char g_gpu[256];     /* the GPU the probe found ("" for none) */
static char g_running[256]; /* this run's folder of markers: file C while a test of checkpoint C runs (cp_enter) */

const wb_week *wb_current_week(void) { return &g_week; }

/* A checkpoint's target on this run's GPU (week.txt's `| H200 >= 0.64`
 * fields, wb_target_for), and the same for people: ">= 0.64 COPY (H200)". The
 * probe sets g_gpu before any test process or benchmark starts. */
static double cp_target(const wb_checkpoint *c) { return wb_target_for(c, g_gpu, NULL); }
static const char *cp_target_text(const wb_checkpoint *c, char *buf, size_t n)
{
    return wb_target_text(c, g_gpu, buf, n);
}

/* ---- GPU probe: wb_gpu_probe in a child, so this process never
 * initialises CUDA; the record says why in its reason field (nogpu). ---- */

typedef struct {
    int  count;
    char name[256];
    char why[256];
    int  reason; /* with no GPU: WB_WHY_NOGPU, or WB_WHY_ENV when the probe could not start */
} gpu_probe;

static void probe_gpu(gpu_probe *g)
{
    memset(g, 0, sizeof *g);
    g->reason = WB_WHY_NOGPU;
    int fd[2];
    if (pipe(fd) != 0) {
        snprintf(g->why, sizeof g->why, "pipe: %s", strerror(errno));
        g->reason = WB_WHY_ENV;
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        gpu_probe c;
        memset(&c, 0, sizeof c);
        c.reason = WB_WHY_NOGPU;
        char what[256];
        c.count = wb_gpu_probe(what, sizeof what);
        if (c.count) snprintf(c.name, sizeof c.name, "%s", what);
        else snprintf(c.why, sizeof c.why, "%s", what);
        ssize_t k = write(fd[1], &c, sizeof c);
        (void)k;
        _exit(0);
    }
    close(fd[1]);
    if (pid < 0 || read(fd[0], g, sizeof *g) != (ssize_t)sizeof *g) {
        memset(g, 0, sizeof *g);
        snprintf(g->why, sizeof g->why, "the GPU probe process failed");
        g->reason = WB_WHY_NOGPU;
    }
    close(fd[0]);
    if (pid > 0) waitpid(pid, NULL, 0);
}

/* ---- figures reported by tests (child processes) back to this one ---- */

static void send_figure(const wb_result *r)
{
    if (g_channel[0] && wb_results_append(g_channel, r) != 0)
        fprintf(stderr, "warning: the figure of %s could not be passed on (%s)\n", r->id, strerror(errno));
}

static void figure_base(wb_result *r, const char *checkpoint)
{
    wb_result_init(r);
    r->status = WB_RES_PASS; /* a figure; wb_skip sends WB_RES_SKIP */
    snprintf(r->week, sizeof r->week, "%s", g_week_dir);
    snprintf(r->id, sizeof r->id, "%s", checkpoint);
    r->seed = wb_base_seed();
}

static void wb_report_figure(const char *checkpoint, const char *figure)
{
    wb_result r;
    figure_base(&r, checkpoint);
    snprintf(r.detail, sizeof r.detail, "%s", figure);
    send_figure(&r);
}

static const wb_test *g_tests;
static int g_n_tests;

/* Check's tcase_name() names the running test function; the table says
 * which checkpoint it serves. */
void wb_report(const char *figure)
{
    const char *fn = tcase_name();
    for (int i = 0; fn && i < g_n_tests; i++)
        if (g_tests[i].test && strcmp(g_tests[i].test->name, fn) == 0) {
            wb_report_figure(g_tests[i].checkpoint, figure);
            return;
        }
    ck_abort_msg("wb_report called outside a test of the table (%s)", fn ? fn : "no test running");
}

/* A test that cannot do its work here for a reason that is not the code's
 * (no gnuplot to draw the plot it checks): its checkpoint is SKIP with the
 * reason, never PASS. The caller returns right after (wb_skip_test). */
int wb_device_room(size_t bytes, size_t *free_out)
{
    size_t free_b = 0, total_b = 0;
    WB_CUDA(cudaMemGetInfo(&free_b, &total_b));
    if (free_out) *free_out = free_b;
    if (free_b >= bytes) return 1;
    const char *sh = getenv("WB_GPU_SHARED");
    if (sh && strcmp(sh, "1") == 0) {
        wb_skip("the GPU is shared with other runs: %.1f GB free, %.1f GB needed (run alone, the test does not "
                "shrink)", free_b / 1e9, bytes / 1e9);
        return -1;
    }
    return 0;
}

void wb_skip(const char *fmt, ...)
{
    const char *fn = tcase_name();
    for (int i = 0; fn && i < g_n_tests; i++)
        if (g_tests[i].test && strcmp(g_tests[i].test->name, fn) == 0) {
            wb_result r;
            figure_base(&r, g_tests[i].checkpoint);
            r.status = WB_RES_SKIP, r.reason = WB_WHY_ENV;
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(r.message, sizeof r.message, fmt, ap);
            va_end(ap);
            send_figure(&r);
            return;
        }
    ck_abort_msg("wb_skip called outside a test of the table (%s)", fn ? fn : "no test running");
}

/* The figure of a speed checkpoint from a headline row (or from a ratio and
 * its detail alone, for wb_expect_target). */
static void send_speed(const wb_checkpoint *c, const wb_headline *h, double ratio, const char *detail)
{
    wb_result r;
    figure_base(&r, c->id);
    r.ratio = ratio;
    r.target = cp_target(c);
    snprintf(r.yard, sizeof r.yard, "%s", c->yard);
    if (h) {
        r.value = h->value;
        r.yard_value = h->yard;
        snprintf(r.unit, sizeof r.unit, "%s", h->unit);
    }
    snprintf(r.detail, sizeof r.detail, "%s", detail ? detail : "");
    send_figure(&r);
}

void wb_expect_target(const char *checkpoint, double ratio, const char *detail)
{
    const wb_checkpoint *c = wb_week_checkpoint(&g_week, checkpoint);
    ck_assert_msg(c && c->target > 0, "checkpoint %s has no target in week.txt", checkpoint);
    if (!detail) detail = "";
    ck_assert_msg(!isnan(ratio), "%s: %s", checkpoint, detail[0] ? detail : "the benchmark gave no figure");
    send_speed(c, NULL, ratio, detail);
    char tgt[96];
    ck_assert_msg(ratio >= cp_target(c), "%s: %.3f of %s, target %s (%s)", checkpoint, ratio, c->yard,
                  cp_target_text(c, tgt, sizeof tgt), detail);
}

/* ---- guarded device outputs ---- */

static void *fetch_checked(const wb_dout *o, size_t n, size_t elem, const char *what)
{
    /* the whole output is compared: never a prefix that would hide the rest */
    ck_assert_msg(elem == 1 || n * elem == o->bytes, "%s: comparing %zu elements of %s, which holds %zu bytes (test bug)",
                  what, n, o->name, o->bytes);
    void *h = wb_hmalloc(o->bytes);
    size_t touched = wb_dout_fetch(o, h);
    if (touched) {
        free(h);
        ck_abort_msg("%s (seed %llu): %zu bytes written outside %s (before its start or past its end)", what,
                     (unsigned long long)wb_base_seed(), touched, o->name);
    }
    return h;
}

/* An element still holding the poison (all bits set: a NaN) was never
 * written. Where the reference is NaN the comparison alone would accept it,
 * so those are counted separately: a kernel that skips them fails. */
static size_t count_poison_at_nan(const void *got, size_t n, size_t elem, const double *refd, const float *reff)
{
    size_t k = 0;
    const unsigned char *g = got;
    for (size_t i = 0; i < n; i++) {
        int nan_ref = refd ? isnan(refd[i]) : isnan(reff[i]);
        if (!nan_ref) continue;
        size_t j = 0;
        while (j < elem && g[i * elem + j] == 0xFF) j++;
        k += j == elem;
    }
    return k;
}

#define EXPECT_DOUT(T, cmpfn, refd, reff, ...)                                                                    \
    do {                                                                                                          \
        T *got = fetch_checked(o, n, sizeof(T), what);                                                            \
        wb_cmp cmp;                                                                                               \
        cmpfn(o->name, got, ref, n, __VA_ARGS__ &cmp);                                                            \
        size_t unwritten = (refd || reff) ? count_poison_at_nan(got, n, sizeof(T), refd, reff) : 0;               \
        free(got);                                                                                                \
        WB_EXPECT_CMP(cmp, what);                                                                                 \
        ck_assert_msg(unwritten == 0, "%s (seed %llu): %zu elements of %s where NaN is expected were never "      \
                      "written (they still hold the poison)", what, (unsigned long long)wb_base_seed(), unwritten, \
                      o->name);                                                                                   \
    } while (0)

void wb_expect_dout_f32(const wb_dout *o, const float *ref, size_t n, double atol, double rtol, const char *what)
{
    EXPECT_DOUT(float, wb_compare_f32, NULL, ref, atol, rtol, );
}

void wb_expect_dout_f32_f64(const wb_dout *o, const double *ref, size_t n, double atol, double rtol,
                            const char *what)
{
    EXPECT_DOUT(float, wb_compare_f32_f64, ref, NULL, atol, rtol, );
}

void wb_expect_dout_f64(const wb_dout *o, const double *ref, size_t n, double atol, double rtol, const char *what)
{
    EXPECT_DOUT(double, wb_compare_f64, ref, NULL, atol, rtol, );
}

void wb_expect_dout_u32(const wb_dout *o, const uint32_t *ref, size_t n, const char *what)
{
    EXPECT_DOUT(uint32_t, wb_compare_u32, (const double *)NULL, (const float *)NULL, );
}

void wb_expect_dout_guards(const wb_dout *o, void *host, const char *what)
{
    void *h = fetch_checked(o, 0, 1, what);
    if (o->bytes) memcpy(host, h, o->bytes);
    free(h);
}

int wb_gnuplot(const char *script, const char *csv, const char *png)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        printf("  gnuplot not found: %s is written; install gnuplot to draw %s\n", csv, png);
        return 0;
    }
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "gnuplot -e \"csv='%s'; png='%s'\" '%s'", csv, png, script);
    if (system(cmd) != 0 || !wb_png_ok(png)) {
        printf("  gnuplot failed to draw %s\n", png);
        return -1;
    }
    printf("  plot: %s\n", png);
    return 1;
}

int wb_png_ok(const char *path)
{
    static const unsigned char PNG[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    unsigned char sig[8] = { 0 };
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t got = fread(sig, 1, 8, f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    return got == 8 && memcmp(sig, PNG, 8) == 0 && size > 1024;
}

static void fail_test(const char *message) { ck_abort_msg("%s", message); }

/* A test that runs long says so once, from its own process: Check stops it
 * only at its timeout (300 s), silently, and a loop that never ends in a
 * learner's CPU code looks like a workbook that hangs. g_main_pid: the
 * harness's process, where no note starts (CK_FORK=no runs every test
 * there); g_slow_s: when (20 s without a GPU, when every test that runs is
 * a CPU test; 60 s with one; WB_SLOW_NOTE_S, 0 for never). */
static pid_t g_main_pid;
static unsigned g_slow_s;
static int g_timeout_s;
static void *slow_note(void *arg)
{
    const char *name = arg;
    sleep(g_slow_s);
    fprintf(stderr, "  ... a test of %s has run %u s: on the CPU, most likely a loop that never ends (Ctrl-C stops "
            "the check; the test is stopped at %d s)\n", name ? name : "this week", g_slow_s, g_timeout_s);
    return NULL;
}

/* A test that never ends runs to Check's time limit, and so would every
 * later test of its checkpoint (a loop in the learner's code is met by each
 * of them): N tests cost N time limits before the check says anything. So
 * each test of a checkpoint, in its own process, leaves a marker while it
 * runs: g_running/C, the time it started, removed when the test reaches its
 * end (test_end). A test that fails a check ends its process at once
 * (Check's _exit) and leaves the marker too, but early; one stopped at the
 * time limit leaves it one time limit old, and one that dies of a signal (a
 * crash, or SIGKILL from the out-of-memory killer) gets "signal N" added to
 * it by this process as the test's process dies (test_died). The
 * checkpoint's next test finds it and, for those two, fails at once, saying
 * so (a message that starts WB_NOT_RUN). The folder is made fresh for each
 * run (mkdtemp) and removed at its end, however the run ends (janitor_start),
 * so no marker of an earlier run is ever found. */
#define WB_NOT_RUN "not run: an earlier test of " /* the printed summary drops "not run: " */
static double g_limit_s;   /* Check's time limit: WB_TEST_TIMEOUT times CK_TIMEOUT_MULTIPLIER */
static int g_mark_fd = -1; /* the running test's marker */
/* The test running now, written by its process into memory shared with this one (mmap before the run):
 * test_died, in this process, reads which marker is its. The markers' paths are made before the run, as a
 * signal handler cannot format one. */
typedef struct {
    volatile pid_t pid;
    volatile int   cp;
} running_test;
static running_test *g_now;
static char g_marker[WB_MAX_CHECKPOINTS][300];

/* SIGCHLD in this process: a test's process died of a signal. Only what a signal handler may do: open,
 * write, close. Check's waitpid returns only after this has run (the signal is handled on the way back from
 * the wait), so the next test finds the note. */
static void test_died(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)ctx;
    if (!g_now || si->si_pid != g_now->pid || (si->si_code != CLD_KILLED && si->si_code != CLD_DUMPED)) return;
    int c = g_now->cp, saved = errno;
    int fd = c >= 0 && c < WB_MAX_CHECKPOINTS ? open(g_marker[c], O_WRONLY | O_APPEND | O_CLOEXEC) : -1;
    if (fd >= 0) { /* no O_CREAT: a test that reached its end left no marker */
        char note[16] = "signal ";
        size_t n = 7;
        int s = si->si_status;
        if (s >= 10) note[n++] = (char)('0' + s / 10 % 10);
        note[n++] = (char)('0' + s % 10), note[n++] = '\n';
        ssize_t k = write(fd, note, n);
        (void)k;
        close(fd);
    }
    errno = saved;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* In the test's process, before the test: fail at once when the
 * checkpoint's previous test did not finish; else leave this test's marker. */
static void cp_enter(int c)
{
    if (!g_running[0] || getpid() == g_main_pid) return; /* CK_FORK=no: one process, no markers */
    signal(SIGCHLD, SIG_DFL); /* test_died is this process's parent's */
    char text[200] = "";
    const char *path = g_marker[c];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t k = read(fd, text, sizeof text - 1);
        close(fd);
        text[k > 0 ? k : 0] = 0;
        double started = 0;
        int sig = 0;
        const char *id = g_week.checkpoints[c].id, *died = strstr(text, "signal ");
        if (died) sscanf(died, "signal %d", &sig);
        /* g_limit_s 0 (CK_TIMEOUT_MULTIPLIER=0): Check sets no limit, so no test ran to one; a marker
         * left is a test that failed a check, as with a limit the marker is younger than it. Check stops a
         * test at its limit with SIGKILL: the age says which it was. */
        if (g_limit_s > 0 && sscanf(text, "started %lf", &started) == 1 &&
            now_s() - started >= g_limit_s - fmin(1.0, 0.1 * g_limit_s))
            ck_abort_msg(WB_NOT_RUN "%s did not finish: it ran to the %g s time limit (a loop that never ends?); fix "
                         "that one first", id, g_limit_s);
        if (sig == SIGKILL)
            ck_abort_msg(WB_NOT_RUN "%s did not finish: it was killed (signal 9: out of memory?); fix that one first",
                         id);
        if (sig)
            ck_abort_msg(WB_NOT_RUN "%s did not finish: it crashed (signal %d); fix that one first", id, sig);
        /* it failed a check, or exited: that says nothing about this test */
    }
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return; /* no marker: this test runs as it would without */
    int n = snprintf(text, sizeof text, "started %.6f\n", now_s());
    if (write(fd, text, (size_t)n) != n) {
        close(fd);
        unlink(path);
        return;
    }
    g_mark_fd = fd;
    if (g_now) g_now->cp = c, g_now->pid = getpid();
}

/* In the test's process, once the test has returned: it finished. */
static void cp_leave(int c)
{
    if (g_mark_fd < 0) return;
    close(g_mark_fd);
    g_mark_fd = -1;
    unlink(g_marker[c]);
}

/* Before the run: the markers' folder, fresh, and their paths. After it: gone. */
static void cp_markers_start(const char *tmp)
{
    snprintf(g_running, sizeof g_running, "%s/wb-running-XXXXXX", tmp);
    if (!mkdtemp(g_running)) {
        fprintf(stderr, "warning: no folder for the running tests' markers in %s (%s): a test that never ends is "
                "met by each test of its checkpoint\n", tmp, strerror(errno));
        g_running[0] = 0;
        return;
    }
    for (int c = 0; c < WB_MAX_CHECKPOINTS; c++) snprintf(g_marker[c], sizeof g_marker[c], "%s/%d", g_running, c);
    void *m = mmap(NULL, sizeof *g_now, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    g_now = m == MAP_FAILED ? NULL : m; /* without it, a test killed is taken for one that failed a check */
    if (g_now) g_now->pid = 0, g_now->cp = -1;
}

static void cp_markers_end(void)
{
    if (!g_running[0]) return;
    for (int c = 0; c < WB_MAX_CHECKPOINTS; c++) unlink(g_marker[c]);
    rmdir(g_running);
    g_running[0] = 0;
}

/* ---- the run's temporary files, removed however the run ends ----
 * The figures' channel, the tests' ends and the markers' folder are this
 * run's, in TMPDIR. A Ctrl-C, a SIGTERM or the out-of-memory killer ends
 * this process before it removes them, and while the tests run Check's own
 * handler of SIGINT and SIGTERM is the one in place (it stops the running
 * test and ends this process). So a small process of its own, started
 * before the tests in a session of its own (the Ctrl-C does not reach it),
 * waits on a pipe from this one: a byte says this process removed them;
 * the pipe's end without one, that it died, and the janitor removes them. */
static int g_janitor_fd = -1;
static pid_t g_janitor_pid;

static void run_files_remove(void)
{
    if (g_channel[0]) unlink(g_channel), g_channel[0] = 0;
    if (g_ends[0]) unlink(g_ends), g_ends[0] = 0;
    cp_markers_end();
}

static void janitor_start(void)
{
    int p[2];
    if (pipe(p) != 0) return; /* no janitor: the files are removed as before, at the run's end */
    /* not into what a test executes (gnuplot, compute-sanitizer, python3): under CK_FORK=no the tests run in
     * this process, and a program they started that outlives it would keep the janitor from its work */
    fcntl(p[1], F_SETFD, FD_CLOEXEC);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        int null = open("/dev/null", O_RDWR);
        for (int fd = 0; fd < 3 && null >= 0; fd++) dup2(null, fd); /* holds no pipe a caller reads to its end */
        for (int fd = 3; fd < 1024; fd++)
            if (fd != p[0]) close(fd);
        char b;
        ssize_t k;
        while ((k = read(p[0], &b, 1)) < 0 && errno == EINTR) {}
        if (k <= 0) run_files_remove();
        _exit(0);
    }
    close(p[0]);
    if (pid < 0) {
        close(p[1]);
        return;
    }
    g_janitor_fd = p[1], g_janitor_pid = pid;
}

static void janitor_end(void)
{
    if (g_janitor_fd < 0) return;
    /* a janitor that is gone (killed: by the OOM killer, by a test's code) leaves a pipe with no reader; the
     * write's SIGPIPE would end this process before it prints or records anything */
    struct sigaction ign, pipe_before;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &pipe_before);
    ssize_t k = write(g_janitor_fd, "", 1);
    (void)k;
    sigaction(SIGPIPE, &pipe_before, NULL);
    close(g_janitor_fd);
    g_janitor_fd = -1;
    waitpid(g_janitor_pid, NULL, 0);
}

static void gpu_setup(void) { wb_set_error_handler(fail_test); }
/* checkpoint c's checked setup (START_FNS, below, as END_FNS) */
static void test_start(int c)
{
    if (getpid() != g_main_pid) { /* a test's process */
        if (g_janitor_fd >= 0) close(g_janitor_fd), g_janitor_fd = -1; /* the janitor's pipe is the harness's */
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a test never outlives the run, even one killed with SIGKILL */
        if (getppid() != g_main_pid) _exit(1);
#endif
    }
    cp_enter(c);
    gpu_setup();
    pthread_t t;
    if (g_slow_s > 0 && getpid() != g_main_pid &&
        pthread_create(&t, NULL, slow_note, (void *)g_week.checkpoints[c].id) == 0)
        pthread_detach(t);
}

/* Check's fork mode counts a test child that exits with status 0 as passed,
 * wherever it exits: code under test that calls exit(0) or _exit(0) in the
 * middle of a test would pass it without a single check having run. A
 * checked teardown runs in the test's process only once the test function
 * has returned; checkpoint c's (END_FNS: Check's fixtures take no argument,
 * so one function a checkpoint) says so on its own channel, and
 * wb_test_main fails every checkpoint with fewer of these than passed tests. */
static void test_end(int c)
{
    cp_leave(c);
    if (!g_ends[0]) return;
    wb_result r;
    figure_base(&r, g_week.checkpoints[c].id);
    if (wb_results_append(g_ends, &r) != 0)
        fprintf(stderr, "warning: the end of a test of %s could not be passed on (%s)\n", r.id, strerror(errno));
}

/* checkpoint k's setup and teardown, one pair a checkpoint (Check's fixtures take no argument) */
#define CP_FNS(k) static void test_start_##k(void) { test_start(k); } static void test_end_##k(void) { test_end(k); }
#define CP_FNS8(a, b, c, d, e, f, g, h) CP_FNS(a) CP_FNS(b) CP_FNS(c) CP_FNS(d) CP_FNS(e) CP_FNS(f) CP_FNS(g) CP_FNS(h)
CP_FNS8(0, 1, 2, 3, 4, 5, 6, 7)
CP_FNS8(8, 9, 10, 11, 12, 13, 14, 15)
CP_FNS8(16, 17, 18, 19, 20, 21, 22, 23)
CP_FNS8(24, 25, 26, 27, 28, 29, 30, 31)
#define CP_TABLE(f)                                                                                                \
    { f##0,  f##1,  f##2,  f##3,  f##4,  f##5,  f##6,  f##7,  f##8,  f##9,  f##10, f##11, f##12, f##13, f##14, f##15, \
      f##16, f##17, f##18, f##19, f##20, f##21, f##22, f##23, f##24, f##25, f##26, f##27, f##28, f##29, f##30, f##31 }
static void (*const START_FNS[])(void) = CP_TABLE(test_start_);
static void (*const END_FNS[])(void) = CP_TABLE(test_end_);
_Static_assert(sizeof END_FNS / sizeof *END_FNS == WB_MAX_CHECKPOINTS, "one test_end a checkpoint");

/* ---- the week's folder and metadata ---- */

static void find_week_dir(const char *argv0)
{
    const char *e = getenv("WB_WEEK_DIR");
    if (e && *e) {
        snprintf(g_week_dir, sizeof g_week_dir, "%s", e);
        return;
    }
    regex_t re;
    regmatch_t m;
    regcomp(&re, "phase[0-9]+/week[0-9]+", REG_EXTENDED);
    if (regexec(&re, argv0, 1, &m, 0) == 0)
        snprintf(g_week_dir, sizeof g_week_dir, "%.*s", (int)(m.rm_eo - m.rm_so), argv0 + m.rm_so);
    regfree(&re);
}

static int checkpoint_index(const char *id)
{
    for (int i = 0; i < g_week.n_checkpoints; i++)
        if (strcmp(g_week.checkpoints[i].id, id) == 0) return i;
    return -1;
}

/* ---- speed checkpoints: the benchmark's headline against the target ---- */

static const char *bench_label(const wb_test *t)
{
    return strncmp(t->bench_name, "bench_", 6) == 0 ? t->bench_name + 6 : t->bench_name;
}

/* A headline row against its checkpoint's target: the yardstick the target
 * names, a valid figure, the record (figure, yardstick figure, ratio), the
 * target. */
static void judge_headline(const wb_checkpoint *c, const wb_headline *h)
{
    ck_assert_msg(strcmp(h->yard_name, c->yard) == 0,
                  "%s: the benchmark measured against %s, but week.txt's target names %s (authors: one of them is "
                  "wrong)", c->id, h->yard_name[0] ? h->yard_name : "no yardstick", c->yard);
    ck_assert_msg(!h->invalid && !isnan(h->ratio), "%s: %s", c->id,
                  h->detail[0] ? h->detail : "the benchmark gave no figure");
    send_speed(c, h, h->ratio, h->detail);
    char tgt[96];
    ck_assert_msg(h->ratio >= cp_target(c), "%s: %.3f of %s, target %s (%s)", c->id, h->ratio, c->yard,
                  cp_target_text(c, tgt, sizeof tgt), h->detail);
}

START_TEST(speed_case)
{
    const wb_test *t = &g_tests[_i];
    const wb_checkpoint *c = wb_week_checkpoint(&g_week, t->checkpoint);
    wb_headline h = { .target = cp_target(c) };
    double ratio = t->bench(&h);
    ck_assert_msg(h.set, "%s: benchmark %s emitted no headline row (authors: end it with "
                         "`return wb_bench_headline(&row, h);`)", c->id, t->bench_name);
    ck_assert_msg(isnan(ratio) == isnan(h.ratio) && (isnan(ratio) || ratio == h.ratio),
                  "%s: benchmark %s returned %g, not its headline row's ratio %g (authors: return "
                  "wb_bench_headline(&row, h))", c->id, t->bench_name, ratio, h.ratio);
    judge_headline(c, &h);
}
END_TEST

void wb_expect_target_row(const char *checkpoint, wb_bench_row *row)
{
    const wb_checkpoint *c = wb_week_checkpoint(&g_week, checkpoint);
    ck_assert_msg(c && c->target > 0, "checkpoint %s has no target in week.txt", checkpoint);
    wb_headline h = { .target = cp_target(c) };
    wb_bench_headline(row, &h);
    judge_headline(c, &h);
}

/* ---- benchmarks (--bench) ---- */

/* A benchmark runs as a Check test in this process (no fork: one CUDA
 * context for all of them), so the ck_assert calls it shares with the speed
 * checkpoints work, and a failed one is reported, not fatal to the rest.
 * A speed checkpoint's benchmark gets its target, as under the test. */
static double (*g_bench_fn)(void);
static wb_speed_fn g_speed_fn;
static double g_speed_target;

START_TEST(bench_case)
{
    wb_headline h = { .target = g_speed_target };
    if (g_speed_fn) g_speed_fn(&h);
    else g_bench_fn();
}
END_TEST

static int run_bench(const char *name, double (*fn)(void), wb_speed_fn speed, double target)
{
    g_bench_fn = fn, g_speed_fn = speed, g_speed_target = target;
    Suite *s = suite_create("bench");
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, gpu_setup, NULL);
    tcase_add_test(tc, WB_T(bench_case));
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run(sr, "bench", name, CK_SILENT); /* named: CK_RUN_CASE in the environment does not apply */
    int nf = srunner_ntests_failed(sr);
    if (nf) {
        TestResult **r = srunner_failures(sr);
        fflush(stdout);
        fprintf(stderr, "benchmark %s failed: %s:%d: %s\n", name, tr_lfile(r[0]), tr_lno(r[0]), tr_msg(r[0]));
        free(r);
    }
    srunner_free(sr);
    fflush(stdout);
    return nf ? 1 : 0;
}

static int run_benches(const wb_test *tests, int n_tests, const wb_benchmark *b, int n, const char *only,
                       const gpu_probe *g)
{
    /* a week without benchmarks (a correctness week) says so, GPU or not, NAME= or not: "need a GPU" would
     * send a learner to a GPU machine for nothing */
    int any = n > 0;
    for (int i = 0; i < n_tests && !any; i++) any = tests[i].bench != NULL;
    if (!any) {
        printf("%s has no benchmarks: nothing was measured. `make %s check` "
               "runs its checkpoints.\n", g_week_dir, g_week_dir);
        return only ? 2 : 0;
    }
    /* a name that is no benchmark's is said so first, GPU or not */
    int known = !only;
    for (int i = 0; i < n_tests && !known; i++) known = tests[i].bench && !strcmp(only, bench_label(&tests[i]));
    for (int i = 0; i < n && !known; i++) known = !strcmp(only, b[i].name);
    if (!known) {
        fprintf(stderr, "no benchmark named '%s' in %s; its benchmarks:", only, g_week_dir);
        for (int i = 0; i < n_tests; i++) {
            int dup = !tests[i].bench;
            for (int j = 0; j < i && !dup; j++) dup = tests[j].bench == tests[i].bench;
            if (!dup) fprintf(stderr, " %s", bench_label(&tests[i]));
        }
        for (int i = 0; i < n; i++) fprintf(stderr, " %s", b[i].name);
        fprintf(stderr, " (NAME=one of them, or none for all)\n");
        return 2;
    }
    wb_set_error_handler(NULL);
    int ran = 0, failed = 0;
    if (g->count == 0) {
        /* only the benchmarks that need no GPU (cpu_only; a speed checkpoint's always needs one) */
        int cpu = 0, gpu = 0;
        for (int i = 0; i < n; i++)
            if (!only || !strcmp(only, b[i].name)) cpu += b[i].cpu_only, gpu += !b[i].cpu_only;
        for (int i = 0; i < n_tests && !gpu; i++) gpu = tests[i].bench && (!only || !strcmp(only, bench_label(&tests[i])));
        if (!cpu) {
            /* make's own error line follows: this one, the last before it, says what to do (README.md) */
            if (only) printf(">>> %s: benchmark %s needs a GPU; nothing was measured (%s). Run `make %s bench NAME=%s` "
                             "on a machine with an NVIDIA GPU.\n", g_week_dir, only, g->why, g_week_dir, only);
            else printf(">>> %s: benchmarks need a GPU; nothing was measured (%s). Run `make %s bench` on a machine "
                        "with an NVIDIA GPU.\n", g_week_dir, g->why, g_week_dir);
            return 3;
        }
        printf("%s benchmarks without a GPU: those that run on the CPU (seed %llu)\n", g_week_dir,
               (unsigned long long)wb_base_seed());
        for (int i = 0; i < n; i++) {
            if (!b[i].cpu_only || (only && strcmp(only, b[i].name) != 0)) continue;
            failed += run_bench(b[i].name, b[i].run, NULL, 0);
        }
        if (getenv("WB_CSV")) printf("CSV rows appended to %s\n", getenv("WB_CSV"));
        if (gpu) printf(">>> The week's other benchmarks need a GPU: they were not measured (%s). Run `make %s bench` "
                        "on a machine with an NVIDIA GPU for them.\n", g->why, g_week_dir);
        return failed ? 1 : gpu ? 3 : 0;
    }
    const wb_device *d = wb_this_device();
    printf("%s benchmarks on %s (%d SMs, L2 %d MiB, seed %llu)\n", g_week_dir, d->name, d->sm_count,
           d->l2_bytes >> 20, (unsigned long long)wb_base_seed());
    /* the speed checkpoints' benchmarks first, in table order, then the rest */
    for (int i = 0; i < n_tests; i++) {
        if (!tests[i].bench) continue;
        int dup = 0; /* one benchmark serving two checkpoints runs once */
        for (int j = 0; j < i; j++) dup |= tests[j].bench == tests[i].bench;
        if (dup || (only && strcmp(only, bench_label(&tests[i])) != 0)) continue;
        failed += run_bench(bench_label(&tests[i]), NULL, tests[i].bench,
                            cp_target(wb_week_checkpoint(&g_week, tests[i].checkpoint)));
        ran++;
    }
    for (int i = 0; i < n; i++) {
        if (only && strcmp(only, b[i].name) != 0) continue;
        failed += run_bench(b[i].name, b[i].run, NULL, 0);
        ran++;
    }
    if (only && !ran) {
        fprintf(stderr, "no benchmark named '%s' in %s (`%s --list` lists them)\n", only, g_week_dir, "test");
        return 2;
    }
    if (getenv("WB_CSV")) printf("CSV rows appended to %s\n", getenv("WB_CSV"));
    return failed ? 1 : 0;
}

/* ---- main ---- */

static int authoring_checks(const char *path, const wb_test *tests, int n_tests, const wb_benchmark *b, int n_b)
{
    for (int i = 0; i < n_tests; i++) {
        const char *name = tests[i].test ? tests[i].test->name : tests[i].bench_name;
        int c = checkpoint_index(tests[i].checkpoint);
        if (c < 0) {
            fprintf(stderr, "%s: test %s names checkpoint '%s', which week.txt does not list\n", path, name,
                    tests[i].checkpoint);
            return 2;
        }
        if (!tests[i].test && !tests[i].bench) {
            fprintf(stderr, "%s: the entry for %s has neither a test nor a benchmark\n", path, tests[i].checkpoint);
            return 2;
        }
        if (tests[i].bench && !(g_week.checkpoints[c].target > 0)) {
            fprintf(stderr, "%s: %s is a WB_SPEED checkpoint, but week.txt gives it no target (`| >= 0.85 COPY`)\n",
                    path, tests[i].checkpoint);
            return 2;
        }
    }
    for (int c = 0; c < g_week.n_checkpoints; c++) {
        int k = 0;
        for (int i = 0; i < n_tests; i++) k += strcmp(tests[i].checkpoint, g_week.checkpoints[c].id) == 0;
        if (!k) {
            fprintf(stderr, "%s: checkpoint '%s' has no test\n", path, g_week.checkpoints[c].id);
            return 2;
        }
    }
    for (int i = 0; i < n_tests; i++)
        for (int j = 0; tests[i].bench && j < n_b; j++)
            if (strcmp(b[j].name, bench_label(&tests[i])) == 0) {
                fprintf(stderr, "%s: benchmark %s is a WB_SPEED checkpoint's and is also in the benchmark table "
                                "(a speed benchmark is listed once, in the test table)\n", path, b[j].name);
                return 2;
            }
    for (int i = 0; i < n_b; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(b[i].name, b[j].name) == 0) {
                fprintf(stderr, "%s: two benchmarks are named '%s'\n", path, b[i].name);
                return 2;
            }
    return 0;
}

typedef struct {
    int  ran, passed, failed, skipped;
    int  not_run; /* failed at once: an earlier test of the checkpoint did not finish (cp_enter) */
    char not_run_msg[300];
    int  ran_skipped; /* tests that ran and skipped their work themselves (wb_skip) */
    char first_msg[600];
    char skip_why[300];
    int  skip_reason; /* WB_WHY_* of skip_why */
} cp_tally;

int wb_test_main(int argc, char **argv, const wb_test *tests, int n_tests, const wb_benchmark *benches,
                 int n_benches)
{
    int bench = 0, list = 0;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--bench") == 0) {
            bench = 1;
            if (i + 1 < argc && argv[i + 1][0] != '-') only = argv[++i];
        } else if (strcmp(argv[i], "--list") == 0) {
            list = 1;
        } else {
            fprintf(stderr, "usage: %s [--list | --bench [name]]\n", argv[0]);
            return 2;
        }
    }
    wb_multicast_off(); /* before anything can load NCCL or touch a GPU */
    g_tests = tests, g_n_tests = n_tests;
    find_week_dir(argv[0]);
    char path[512], err[600];
    snprintf(path, sizeof path, "%s/week.txt", g_week_dir[0] ? g_week_dir : ".");
    if (wb_week_load(path, &g_week, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n(run from the workbook's top folder, or set WB_WEEK_DIR=phaseP/weekNN)\n", err);
        return 2;
    }
    /* `pycheckpoint:` lines are the week's Python tests' to judge (wb_pyrun.py
     * judges what this record lacks): this program neither needs a test for
     * them nor prints or records them. CK_RUN_CASE naming one of them selects
     * none of this program's checkpoints: they are recorded as not selected. */
    const char *sel = getenv("CK_RUN_CASE");
    if (sel && !*sel) sel = NULL;
    int sel_py = 0, n_c = 0;
    char all_ids[WB_MAX_CHECKPOINTS * 66] = ""; /* every checkpoint of the week, for a CK_RUN_CASE that is none */
    for (int c = 0; c < g_week.n_checkpoints; c++) {
        size_t k = strlen(all_ids);
        snprintf(all_ids + k, sizeof all_ids - k, " %s", g_week.checkpoints[c].id);
        if (!g_week.checkpoints[c].py) g_week.checkpoints[n_c++] = g_week.checkpoints[c];
        else if (sel && strcmp(sel, g_week.checkpoints[c].id) == 0) sel_py = 1;
    }
    g_week.n_checkpoints = n_c;
    if (authoring_checks(path, tests, n_tests, benches, n_benches)) return 2;
    if (list) {
        for (int i = 0; i < n_tests; i++)
            printf("%-24s %-32s %s x%d\n", tests[i].checkpoint, tests[i].test ? tests[i].test->name : tests[i].bench_name,
                   tests[i].gpu ? "gpu" : "cpu", tests[i].loops ? tests[i].loops : 1);
        for (int i = 0; i < n_benches; i++)
            printf("bench %s%s\n", benches[i].name, benches[i].cpu_only ? " (CPU only: runs without a GPU)" : "");
        for (int i = 0; i < n_tests; i++)
            if (tests[i].bench) printf("bench %s (%s)\n", bench_label(&tests[i]), tests[i].checkpoint);
        return 0;
    }

    /* One seed for the whole run, settled before any test process exists:
     * an invalid WB_SEED stops here, and "random" is drawn once. */
    unsigned long long seed = wb_base_seed();

    /* CK_RUN_CASE picks one checkpoint; a name that is none of the week's is an error. */
    if (sel && !sel_py && checkpoint_index(sel) < 0) {
        fprintf(stderr, "CK_RUN_CASE=%s is not a checkpoint of %s; its checkpoints are:%s\n", sel, g_week_dir, all_ids);
        return 2;
    }
    if (getenv("CK_RUN_SUITE") && *getenv("CK_RUN_SUITE")) unsetenv("CK_RUN_SUITE"); /* the suite is the week */
    unsetenv("CK_INCLUDE_TAGS"), unsetenv("CK_EXCLUDE_TAGS");

    gpu_probe g;
    probe_gpu(&g);
    snprintf(g_gpu, sizeof g_gpu, "%s", g.count ? g.name : "");
    if (bench) return run_benches(tests, n_tests, benches, n_benches, only, &g);

    const char *tmpdir = getenv("TMPDIR");
    snprintf(g_channel, sizeof g_channel, "%s/wb-figures-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int ffd = mkstemp(g_channel);
    if (ffd < 0 || (close(ffd), wb_results_start(g_channel)) != 0) {
        fprintf(stderr, "cannot make a temporary file in %s: %s\n", tmpdir && *tmpdir ? tmpdir : "/tmp",
                strerror(errno));
        return 2;
    }
    snprintf(g_ends, sizeof g_ends, "%s/wb-ends-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int efd = mkstemp(g_ends);
    if (efd < 0 || (close(efd), wb_results_start(g_ends)) != 0) {
        fprintf(stderr, "cannot make a temporary file in %s: %s\n", tmpdir && *tmpdir ? tmpdir : "/tmp",
                strerror(errno));
        unlink(g_channel);
        return 2;
    }

    const char *impl = getenv("WB_IMPL");
    if (!impl || !*impl) impl = "your code";
    int timeout = getenv("WB_TEST_TIMEOUT") ? atoi(getenv("WB_TEST_TIMEOUT")) : 300;
    if (timeout <= 0) timeout = 300;
    const char *slow = getenv("WB_SLOW_NOTE_S");
    g_main_pid = getpid(), g_timeout_s = timeout;
    g_slow_s = slow && *slow ? (unsigned)atoi(slow) : g.count == 0 ? 20 : 60;
    if (g_slow_s >= (unsigned)timeout) g_slow_s = 0;
    /* the limit Check applies (tcase_set_timeout reads the multiplier the same way) */
    g_limit_s = timeout;
    const char *mul = getenv("CK_TIMEOUT_MULTIPLIER");
    char *mul_end = NULL;
    double mulv = mul ? strtod(mul, &mul_end) : 1;
    if (mul && mulv >= 0 && mul_end != mul && !*mul_end) g_limit_s *= mulv;
    cp_markers_start(tmpdir && *tmpdir ? tmpdir : "/tmp");
    janitor_start();

    cp_tally res[WB_MAX_CHECKPOINTS];
    memset(res, 0, sizeof res);
    Suite *s = suite_create(g_week_dir);
    TCase *tc[WB_MAX_CHECKPOINTS] = { 0 };
    for (int i = 0; i < n_tests; i++) {
        int c = checkpoint_index(tests[i].checkpoint);
        int loops = tests[i].loops > 0 ? tests[i].loops : 1;
        const char *why = NULL;
        int reason = WB_WHY_NONE;
        char notsel[300];
        if (sel && strcmp(sel, tests[i].checkpoint) != 0) {
            snprintf(notsel, sizeof notsel, "not selected (CK_RUN_CASE=%s)", sel);
            why = notsel, reason = WB_WHY_NOTSELECTED;
        } else if (tests[i].gpu && g.count == 0) {
            why = g.why, reason = g.reason;
        }
        if (why) {
            res[c].skipped += loops;
            snprintf(res[c].skip_why, sizeof res[c].skip_why, "%s", why);
            res[c].skip_reason = reason;
            continue;
        }
        if (!tc[c]) {
            tc[c] = tcase_create(g_week.checkpoints[c].id);
            tcase_set_timeout(tc[c], timeout);
            tcase_add_checked_fixture(tc[c], START_FNS[c], END_FNS[c]);
            suite_add_tcase(s, tc[c]);
        }
        if (tests[i].bench) tcase_add_loop_test(tc[c], WB_T(speed_case), i, i + 1);
        else if (tests[i].loops > 0) tcase_add_loop_test(tc[c], tests[i].test, 0, tests[i].loops);
        else tcase_add_test(tc[c], tests[i].test);
    }
    SRunner *sr = srunner_create(s);
    struct sigaction died, chld_before;
    memset(&died, 0, sizeof died);
    died.sa_sigaction = test_died;
    died.sa_flags = SA_SIGINFO | SA_RESTART | SA_NOCLDSTOP;
    sigemptyset(&died.sa_mask);
    sigaction(SIGCHLD, &died, &chld_before);
    /* a SIGCHLD blocked in the mask this process was started with (a signal mask survives exec) would never
     * reach test_died: a killed test would go unnoted and each later test of its checkpoint run */
    sigset_t chld, mask_before;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_UNBLOCK, &chld, &mask_before);
    srunner_run(sr, NULL, NULL, CK_SILENT);
    sigaction(SIGCHLD, &chld_before, NULL);
    sigprocmask(SIG_SETMASK, &mask_before, NULL);
    cp_markers_end();
    int nres = srunner_ntests_run(sr);
    TestResult **trs = srunner_results(sr);
    for (int i = 0; i < nres; i++) {
        int c = checkpoint_index(tr_tcname(trs[i]));
        if (c < 0) continue;
        res[c].ran++;
        if (tr_rtype(trs[i]) == CK_PASS) {
            res[c].passed++;
        } else {
            res[c].failed++;
            if (strncmp(tr_msg(trs[i]), WB_NOT_RUN, strlen(WB_NOT_RUN)) == 0 && !res[c].not_run++)
                snprintf(res[c].not_run_msg, sizeof res[c].not_run_msg, "%s", tr_msg(trs[i]));
            if (!res[c].first_msg[0])
                snprintf(res[c].first_msg, sizeof res[c].first_msg, "%s:%d: %s", tr_lfile(trs[i]), tr_lno(trs[i]),
                         tr_msg(trs[i]));
        }
    }
    free(trs);

    /* A passed test that did not reach its end (test_end) exited early. */
    int ended[WB_MAX_CHECKPOINTS] = { 0 };
    wb_result *ends = NULL;
    int nend = wb_results_read(g_ends, &ends, err, sizeof err);
    if (nend < 0) fprintf(stderr, "warning: the tests' ends were lost: %s\n", err);
    for (int i = 0; i < nend; i++) {
        int c = checkpoint_index(ends[i].id);
        if (c >= 0) ended[c]++;
    }
    free(ends);
    for (int c = 0; c < g_week.n_checkpoints; c++) {
        int early = res[c].passed - ended[c];
        if (early <= 0) continue;
        res[c].passed -= early, res[c].failed += early;
        if (!res[c].first_msg[0])
            snprintf(res[c].first_msg, sizeof res[c].first_msg, "%d of %d test%s of %s ended before reaching its end, "
                     "without a failure (the test process exited mid-test: exit or _exit in the code under test?)",
                     early, res[c].ran, res[c].ran == 1 ? "" : "s", g_week.checkpoints[c].id);
    }

    /* The records: the outcome from Check, the figures from the channel. */
    wb_result out[WB_MAX_CHECKPOINTS];
    for (int c = 0; c < g_week.n_checkpoints; c++) {
        const wb_checkpoint *cp = &g_week.checkpoints[c];
        cp_tally *r = &res[c];
        wb_result *o = &out[c];
        wb_result_init(o);
        snprintf(o->week, sizeof o->week, "%s", g_week_dir);
        snprintf(o->id, sizeof o->id, "%s", cp->id);
        o->status = r->failed ? WB_RES_FAIL : (r->skipped || !r->ran) ? WB_RES_SKIP : WB_RES_PASS;
        o->reason = r->failed ? WB_WHY_CODE : !r->skipped ? (r->ran ? WB_WHY_NONE : WB_WHY_ENV) : r->skip_reason;
        o->seed = seed;
        o->tests = r->ran, o->failed = r->failed, o->skipped = r->skipped;
        if (cp->target > 0) o->target = cp_target(cp), snprintf(o->yard, sizeof o->yard, "%s", cp->yard);
        if (r->ran) snprintf(o->gpu, sizeof o->gpu, "%s", g_gpu);
        if (r->failed) snprintf(o->message, sizeof o->message, "%s", r->first_msg);
        else if (r->skipped) snprintf(o->message, sizeof o->message, "%s", r->skip_why);
    }
    wb_result *figs = NULL;
    int nfig = wb_results_read(g_channel, &figs, err, sizeof err);
    if (nfig < 0) fprintf(stderr, "warning: figures lost: %s\n", err);
    for (int i = 0; i < nfig; i++) {
        int c = checkpoint_index(figs[i].id);
        if (c < 0) continue;
        wb_result *o = &out[c];
        if (figs[i].status == WB_RES_SKIP) { /* wb_skip: the test could not do its work here */
            res[c].skipped++, o->skipped++, res[c].ran_skipped++;
            snprintf(res[c].skip_why, sizeof res[c].skip_why, "%s", figs[i].message);
            if (o->status != WB_RES_FAIL) {
                o->status = WB_RES_SKIP, o->reason = figs[i].reason;
                snprintf(o->message, sizeof o->message, "%s", figs[i].message);
            }
            continue;
        }
        o->value = figs[i].value, o->yard_value = figs[i].yard_value, o->ratio = figs[i].ratio;
        snprintf(o->unit, sizeof o->unit, "%s", figs[i].unit);
        if (figs[i].yard[0]) snprintf(o->yard, sizeof o->yard, "%s", figs[i].yard);
        snprintf(o->detail, sizeof o->detail, "%s", figs[i].detail);
    }
    free(figs);
    run_files_remove();
    janitor_end();
    /* A checkpoint with a target passes on its figure: tests that passed
     * without reporting one (no WB_SPEED line, no wb_expect_target) prove
     * nothing about speed. */
    for (int c = 0; c < g_week.n_checkpoints; c++)
        if (out[c].status == WB_RES_PASS && g_week.checkpoints[c].target > 0 && isnan(out[c].ratio)) {
            out[c].status = WB_RES_FAIL, out[c].reason = WB_WHY_CODE;
            snprintf(out[c].message, sizeof out[c].message, "%s has a target in week.txt, but its tests reported no "
                     "figure (authors: serve it with a WB_SPEED line)", g_week.checkpoints[c].id);
        }

    /* For people. */
    printf("\n%s — %s (%s)\n", g_week_dir, g_week.title, impl);
    int n_pass = 0, n_fail = 0, n_skip = 0, skipped_total = 0;
    for (int c = 0; c < g_week.n_checkpoints; c++) {
        const wb_checkpoint *cp = &g_week.checkpoints[c];
        const wb_result *o = &out[c];
        char fig[400], tgt[96];
        wb_result_figure(o, fig, sizeof fig);
        printf("  %s  %-22s %s", o->status == WB_RES_PASS ? "PASS" : o->status == WB_RES_FAIL ? "FAIL" : "SKIP",
               cp->id, cp->desc);
        if (fig[0]) printf("  [%s]", fig);
        else if (cp->target > 0 && g_gpu[0]) printf("  [target %s]", cp_target_text(cp, tgt, sizeof tgt));
        else if (cp->target > 0) printf("  [target %s]", wb_targets_all(cp, tgt, sizeof tgt)); /* no GPU: every one */
        printf("\n");
        if (o->status == WB_RES_FAIL) {
            printf("        %s\n", o->message);
            if (o->failed > 1 && res[c].not_run)
                printf("        (%d of %d tests of this checkpoint failed; %d of them at once, not run: %s)\n", o->failed,
                       o->tests, res[c].not_run, res[c].not_run_msg + strlen("not run: "));
            else if (o->failed > 1) printf("        (%d of %d tests of this checkpoint failed)\n", o->failed, o->tests);
        } else if (o->skipped && o->tests > res[c].ran_skipped) {
            /* the tests that ran and did their work (on the CPU, without a GPU) passed: say so beside the skipped */
            int passed = o->tests - res[c].ran_skipped;
            printf("        %d test%s passed, %d skipped: %s\n", passed, passed == 1 ? "" : "s", o->skipped,
                   res[c].skip_why);
        } else if (o->skipped) {
            printf("        %d test%s skipped: %s\n", o->skipped, o->skipped == 1 ? "" : "s", res[c].skip_why);
        }
        skipped_total += o->skipped;
        n_pass += o->status == WB_RES_PASS, n_fail += o->status == WB_RES_FAIL, n_skip += o->status == WB_RES_SKIP;
    }
    printf("  -- %d of %d checkpoints passed", n_pass, g_week.n_checkpoints);
    if (n_fail) printf(", %d failed", n_fail);
    if (n_skip) printf(", %d skipped", n_skip);
    printf(" (%d tests run, %d skipped; seed %llu)\n", nres, skipped_total, seed);
    srunner_free(sr); /* the line above is the summary: Check's own would repeat it */
    fflush(stdout);

    /* For programs. */
    const char *rpath = getenv("WB_RESULTS");
    if (rpath && *rpath && wb_results_write(rpath, out, g_week.n_checkpoints, err, sizeof err) != 0) {
        fprintf(stderr, "the results record could not be written: %s\n", err);
        return 2;
    }
    return n_fail ? 1 : 0;
}
