/* wb_test.c — runs a week's Check tests the workbook's way (see wb_test.h). */

#include "wb_test.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda_runtime_api.h>

static wb_week g_week;
static char g_week_dir[256];
static char g_figures[256];

const wb_week *wb_current_week(void) { return &g_week; }

/* ---- GPU probe: in a child, so this process never initialises CUDA ---- */

typedef struct {
    int  count;
    char name[256];
    char why[256];
} gpu_probe;

static void probe_gpu(gpu_probe *g)
{
    memset(g, 0, sizeof *g);
    const char *off = getenv("WB_NO_GPU");
    if (off && *off == '1') {
        snprintf(g->why, sizeof g->why, "WB_NO_GPU=1 is set");
        return;
    }
    int fd[2];
    if (pipe(fd) != 0) {
        snprintf(g->why, sizeof g->why, "pipe: %s", strerror(errno));
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        gpu_probe c;
        memset(&c, 0, sizeof c);
        cudaError_t e = cudaGetDeviceCount(&c.count);
        if (e != cudaSuccess) {
            c.count = 0;
            snprintf(c.why, sizeof c.why, "no usable CUDA device (cudaGetDeviceCount: %s)", cudaGetErrorString(e));
        } else if (c.count == 0) {
            snprintf(c.why, sizeof c.why, "no CUDA device found");
        } else {
            struct cudaDeviceProp p;
            if (cudaGetDeviceProperties(&p, 0) == cudaSuccess) snprintf(c.name, sizeof c.name, "%s", p.name);
        }
        ssize_t k = write(fd[1], &c, sizeof c);
        (void)k;
        _exit(0);
    }
    close(fd[1]);
    if (pid < 0 || read(fd[0], g, sizeof *g) != (ssize_t)sizeof *g) {
        memset(g, 0, sizeof *g);
        snprintf(g->why, sizeof g->why, "the GPU probe process failed");
    }
    close(fd[0]);
    if (pid > 0) waitpid(pid, NULL, 0);
}

/* ---- figures reported by tests (children) back to this process ---- */

static void append_line(const char *fmt, ...)
{
    if (!g_figures[0]) return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n <= 0) return;
    if ((size_t)n >= sizeof buf) n = sizeof buf - 1;
    int fd = open(g_figures, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd < 0) return;
    ssize_t k = write(fd, buf, (size_t)n); /* one write: lines never interleave */
    (void)k;
    close(fd);
}

static void note_gpu(void)
{
    int dev = 0;
    struct cudaDeviceProp p;
    if (cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&p, dev) == cudaSuccess)
        append_line("gpu\t%s\n", p.name);
}

void wb_report_figure(const char *checkpoint, const char *figure)
{
    note_gpu();
    append_line("fig\t%s\t%s\n", checkpoint, figure);
}

void wb_expect_target(const char *checkpoint, double ratio, const char *detail)
{
    const wb_checkpoint *c = wb_week_checkpoint(&g_week, checkpoint);
    ck_assert_msg(c && c->target > 0, "checkpoint %s has no target in week.txt", checkpoint);
    if (!detail) detail = wb_bench_last_detail();
    ck_assert_msg(!isnan(ratio), "%s: %s", checkpoint, detail[0] ? detail : "the benchmark gave no figure");
    char fig[160];
    snprintf(fig, sizeof fig, "%.3f of %s (%s)", ratio, c->yard, detail);
    wb_report_figure(checkpoint, fig);
    ck_assert_msg(ratio >= c->target, "%s: %.3f of %s, target >= %.2f (%s)", checkpoint, ratio, c->yard, c->target,
                  detail);
}

static void fail_test(const char *message) { ck_abort_msg("%s", message); }

static void gpu_setup(void) { wb_set_error_handler(fail_test); }

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

/* ---- main ---- */

typedef struct {
    int ran, passed, failed, skipped;
    char figure[160];
    char first_msg[600];
} cp_result;

static int checkpoint_index(const char *id)
{
    for (int i = 0; i < g_week.n_checkpoints; i++)
        if (strcmp(g_week.checkpoints[i].id, id) == 0) return i;
    return -1;
}

static void ledger(const char *status, const char *label, const char *detail)
{
    const char *path = getenv("WB_LEDGER");
    if (!path || !*path) return;
    FILE *f = fopen(path, "a");
    if (!f) return;
    fprintf(f, "%s\t%s\t%s\n", status, label, detail ? detail : "");
    fclose(f);
}

/* A benchmark runs as a Check test in this process (no fork: one CUDA
 * context for all of them), so the ck_assert calls it shares with the speed
 * checkpoints work, and a failed one is reported, not fatal to the rest. */
static const wb_benchmark *g_bench;

START_TEST(bench_case)
{
    g_bench->run();
}
END_TEST

static int run_bench(const wb_benchmark *b)
{
    g_bench = b;
    Suite *s = suite_create("bench");
    TCase *tc = tcase_create(b->name);
    tcase_add_checked_fixture(tc, gpu_setup, NULL);
    tcase_add_test(tc, WB_T(bench_case));
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run(sr, "bench", b->name, CK_SILENT); /* named: CK_RUN_CASE in the environment does not apply */
    int nf = srunner_ntests_failed(sr);
    if (nf) {
        TestResult **r = srunner_failures(sr);
        fflush(stdout);
        fprintf(stderr, "benchmark %s failed: %s:%d: %s\n", b->name, tr_lfile(r[0]), tr_lno(r[0]), tr_msg(r[0]));
        free(r);
    }
    srunner_free(sr);
    fflush(stdout);
    return nf ? 1 : 0;
}

static int run_benches(const wb_benchmark *b, int n, const char *only, const gpu_probe *g)
{
    if (g->count == 0) {
        printf("%s: benchmarks need a GPU; skipped (%s)\n", g_week_dir, g->why);
        return 0;
    }
    wb_set_error_handler(NULL);
    const wb_device *d = wb_this_device();
    printf("%s benchmarks on %s (%d SMs, L2 %d MiB, seed %llu)\n", g_week_dir, d->name, d->sm_count,
           d->l2_bytes >> 20, (unsigned long long)wb_base_seed());
    int ran = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        if (only && strcmp(only, b[i].name) != 0) continue;
        failed += run_bench(&b[i]);
        ran++;
    }
    if (only && !ran) {
        fprintf(stderr, "no benchmark named '%s'\n", only);
        return 2;
    }
    if (getenv("WB_CSV")) printf("CSV rows appended to %s\n", getenv("WB_CSV"));
    return failed ? 1 : 0;
}

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
    find_week_dir(argv[0]);
    char path[512], err[600];
    snprintf(path, sizeof path, "%s/week.txt", g_week_dir[0] ? g_week_dir : ".");
    if (wb_week_load(path, &g_week, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n(run from the workbook's top folder, or set WB_WEEK_DIR=phaseP/weekNN)\n", err);
        return 2;
    }
    /* Authoring checks: every test names a known checkpoint, every checkpoint has a test. */
    for (int i = 0; i < n_tests; i++)
        if (checkpoint_index(tests[i].checkpoint) < 0) {
            fprintf(stderr, "%s: test %s names checkpoint '%s', which week.txt does not list\n", path,
                    tests[i].test->name, tests[i].checkpoint);
            return 2;
        }
    for (int c = 0; c < g_week.n_checkpoints; c++) {
        int k = 0;
        for (int i = 0; i < n_tests; i++) k += strcmp(tests[i].checkpoint, g_week.checkpoints[c].id) == 0;
        if (!k) {
            fprintf(stderr, "%s: checkpoint '%s' has no test\n", path, g_week.checkpoints[c].id);
            return 2;
        }
    }
    if (list) {
        for (int i = 0; i < n_tests; i++)
            printf("%-24s %-32s %s x%d\n", tests[i].checkpoint, tests[i].test->name, tests[i].gpu ? "gpu" : "cpu",
                   tests[i].loops ? tests[i].loops : 1);
        for (int i = 0; i < n_benches; i++) printf("bench %s\n", benches[i].name);
        return 0;
    }

    gpu_probe g;
    probe_gpu(&g);
    if (bench) return run_benches(benches, n_benches, only, &g);

    snprintf(g_figures, sizeof g_figures, "/tmp/wb-figures-XXXXXX");
    int ffd = mkstemp(g_figures);
    if (ffd < 0) g_figures[0] = 0;
    else close(ffd);

    const char *impl = getenv("WB_IMPL");
    if (!impl || !*impl) impl = "your code";
    int expect_fail = getenv("WB_EXPECT") && strcmp(getenv("WB_EXPECT"), "fail") == 0;
    int timeout = getenv("WB_TEST_TIMEOUT") ? atoi(getenv("WB_TEST_TIMEOUT")) : 300;

    cp_result res[WB_MAX_CHECKPOINTS];
    memset(res, 0, sizeof res);
    Suite *s = suite_create(g_week_dir);
    TCase *tc[WB_MAX_CHECKPOINTS] = { 0 };
    int skipped_total = 0;
    for (int i = 0; i < n_tests; i++) {
        int c = checkpoint_index(tests[i].checkpoint);
        int loops = tests[i].loops > 0 ? tests[i].loops : 1;
        if (tests[i].gpu && g.count == 0) {
            res[c].skipped += loops;
            skipped_total += loops;
            continue;
        }
        if (!tc[c]) {
            tc[c] = tcase_create(g_week.checkpoints[c].id);
            tcase_set_timeout(tc[c], timeout);
            tcase_add_checked_fixture(tc[c], gpu_setup, NULL);
            suite_add_tcase(s, tc[c]);
        }
        if (tests[i].loops > 0) tcase_add_loop_test(tc[c], tests[i].test, 0, tests[i].loops);
        else tcase_add_test(tc[c], tests[i].test);
    }
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_SILENT);
    int nres = srunner_ntests_run(sr);
    TestResult **trs = srunner_results(sr);

    printf("\n%s — %s (%s)\n", g_week_dir, g_week.title, impl);
    for (int i = 0; i < nres; i++) {
        int c = checkpoint_index(tr_tcname(trs[i]));
        if (c < 0) continue;
        res[c].ran++;
        if (tr_rtype(trs[i]) == CK_PASS) {
            res[c].passed++;
        } else {
            res[c].failed++;
            if (!res[c].first_msg[0])
                snprintf(res[c].first_msg, sizeof res[c].first_msg, "%s:%d: %s", tr_lfile(trs[i]), tr_lno(trs[i]),
                         tr_msg(trs[i]));
        }
    }
    /* figures and the GPU name written by the children */
    char gpu[256] = "";
    if (g_figures[0]) {
        FILE *f = fopen(g_figures, "r");
        char line[1024];
        while (f && fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = 0;
            if (strncmp(line, "gpu\t", 4) == 0) {
                snprintf(gpu, sizeof gpu, "%s", line + 4);
            } else if (strncmp(line, "fig\t", 4) == 0) {
                char *id = line + 4, *fig = strchr(id, '\t');
                if (!fig) continue;
                *fig++ = 0;
                int c = checkpoint_index(id);
                if (c >= 0) snprintf(res[c].figure, sizeof res[c].figure, "%s", fig);
            }
        }
        if (f) fclose(f);
        unlink(g_figures);
    }
    if (!gpu[0]) snprintf(gpu, sizeof gpu, "%s", g.name);

    int n_pass = 0, n_fail = 0, n_skip = 0;
    wb_record recs[WB_MAX_CHECKPOINTS];
    int nrec = 0;
    for (int c = 0; c < g_week.n_checkpoints; c++) {
        const wb_checkpoint *cp = &g_week.checkpoints[c];
        cp_result *r = &res[c];
        const char *st = r->failed ? "FAIL" : r->skipped ? "SKIP" : r->ran ? "PASS" : "SKIP";
        char target[96] = "-";
        if (cp->target > 0) snprintf(target, sizeof target, ">= %.2f %s", cp->target, cp->yard);
        printf("  %s  %-22s %s", st, cp->id, cp->desc);
        if (r->figure[0]) printf("  [%s]", r->figure);
        else if (cp->target > 0) printf("  [target %s]", target);
        printf("\n");
        if (r->failed) {
            printf("        %s\n", r->first_msg);
            if (r->failed > 1) printf("        (%d of %d tests of this checkpoint failed)\n", r->failed, r->ran);
        } else if (r->skipped) {
            printf("        %d GPU test%s skipped: %s\n", r->skipped, r->skipped == 1 ? "" : "s", g.why);
        }
        char label[300];
        snprintf(label, sizeof label, "%s %s %s", g_week_dir, impl, cp->id);
        if (expect_fail) {
            /* A starter must fail every checkpoint that ran. */
            if (r->failed) ledger("PASS", label, "fails on the starter, as it must");
            else if (r->skipped || !r->ran) ledger("SKIP", label, "needs a GPU");
            else ledger("FAIL", label, "passes on the untouched starter: its tests cannot catch it");
        } else {
            for (int k = 0; k < r->passed; k++) ledger("PASS", label, "");
            for (int k = 0; k < r->failed; k++) ledger("FAIL", label, r->first_msg);
            for (int k = 0; k < r->skipped; k++) ledger("SKIP", label, g.why);
        }
        if (r->failed) n_fail++;
        else if (r->skipped || !r->ran) n_skip++;
        else {
            n_pass++;
            wb_record_set(&recs[nrec++], cp->id, NULL, gpu, r->figure, target);
        }
    }
    printf("  -- %d of %d checkpoints passed", n_pass, g_week.n_checkpoints);
    if (n_fail) printf(", %d failed", n_fail);
    if (n_skip) printf(", %d skipped", n_skip);
    printf(" (%d tests run, %d skipped; seed %llu)\n", nres, skipped_total, (unsigned long long)wb_base_seed());
    srunner_print(sr, CK_MINIMAL);

    const char *record = getenv("WB_RECORD");
    int recorded = 0, record_failed = 0;
    if (record && *record == '1' && nrec > 0 && g.count > 0 && !expect_fail) {
        if (wb_progress_update(wb_progress_path(), recs, nrec, err, sizeof err) == 0) {
            recorded = 1;
            printf("Recorded %d passed checkpoint%s in %s.\n", nrec, nrec == 1 ? "" : "s", wb_progress_path());
        } else {
            record_failed = 1;
            printf("Progress NOT recorded: %s\nNext: fix that line (or move the file away; it was left untouched) and "
                   "check again.\n", err);
        }
    }
    if (!expect_fail && !record_failed) {
        if (n_fail) {
            printf("Next: fix the failing checkpoint%s in ", n_fail == 1 ? "" : "s");
            for (int i = 0; i < g_week.n_exercises; i++)
                printf("%s%s/%s.cu", i ? ", " : "", g_week_dir, g_week.exercises[i]);
            printf(" (look for TODO), then check again; `make %s hint` shows a hint.\n", g_week_dir);
        } else if (g.count == 0) {
            printf("Next: no GPU here (%s), so nothing was tested on one and nothing was recorded; "
                   "run the same check on a machine with an NVIDIA GPU.\n", g.why);
        } else if (n_skip == 0) {
            printf("All checkpoints of %s passed%s. `make status` shows what comes next.\n", g_week_dir,
                   recorded ? " and are recorded" : "");
        }
    }
    srunner_free(sr);
    if (expect_fail) {
        for (int c = 0; c < g_week.n_checkpoints; c++)
            if (!res[c].failed && !res[c].skipped && res[c].ran) return 1;
        return 0;
    }
    return n_fail ? 1 : record_failed ? 3 : 0;
}
