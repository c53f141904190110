/* grade_run.c — part of the grader (grade.h): running the checkpoints in the sandbox and reading their results records;
 * the host's GPUs; scoring. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wb_file.h"
#include "wb_multicast.h"
#include "wb_results.h"
#include "grade.h"
#include "judge_sb.h"
#include "unpack.h"

/* -------------------------------------------------------------- checkpoints */

/* GPUs the CUDA runtime sees on this host (host_gpu_count, asked once before
 * grading), 0 without one or with WB_NO_GPU=1. */
int g_host_gpus;
char g_host_gpu[256];

/* GPUs on this host, as build/gpu-probe (tools/gpu_probe.c: the CUDA
 * runtime the tests link) reports them, run as a child (run_limited, 60 s)
 * so the grader itself never holds a CUDA context across its forks; 0
 * without a driver or a GPU, or when the probe cannot run (said on stderr). */
int host_gpu_count(const char *root)
{
    char probe[700], log[] = "/tmp/wb-grade-probe-XXXXXX";
    snprintf(probe, sizeof probe, "%s/build/gpu-probe", root);
    if (!is_file(probe)) {
        fprintf(stderr, "grade: %s is missing (make build/gpu-probe builds it): grading as on a host without a GPU\n",
                probe);
        return 0;
    }
    int fd = mkstemp(log);
    if (fd < 0) return 0;
    close(fd);
    char *argv[] = { probe, NULL };
    int n = 0;
    if (run_limited(argv, NULL, log, NULL, 60, NULL) == 0) {
        char *out = wb_read_file(log, NULL);
        if (!out || sscanf(out, "%d GPU", &n) != 1 || n < 0) n = 0;
        /* "1 GPU: NVIDIA H200": the name picks week.txt's per-model targets (reconcile_speed) */
        const char *name = out && n > 0 ? strstr(out, ": ") : NULL;
        if (name && strncmp(name + 2, "(name unknown)", 14) != 0) snprintf(g_host_gpu, sizeof g_host_gpu, "%.*s", (int)strcspn(name + 2, "\n"), name + 2);
        free(out);
    }
    unlink(log);
    return n;
}

/* 64 bits from /dev/urandom (a record's name), else from the clock and pid. */
static unsigned long long random_u64(void)
{
    unsigned long long v = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        v = ((unsigned long long)t.tv_nsec << 20) ^ (unsigned long long)t.tv_sec ^ ((unsigned long long)getpid() << 40);
    }
    if (fd >= 0) close(fd);
    return v;
}

/* A checkpoint's outcome from its results record (common/include/wb_results.h),
 * which the test program writes to WB_RESULTS when it has run (the grader
 * reads a bounded copy); `r` says how the sandboxed run ended and `log`
 * holds what it printed (shown to people when there is no record, never read
 * for a result). A missing or unreadable record is a FAIL: the program died
 * or stopped before writing it. */
void outcome_from_record(const char *rpath, const char *id, const sb_result *j, double limit, const char *log,
                         int must_end, cp_grade *out)
{
    memset(out, 0, sizeof *out);
    out->ratio = NAN;
    out->status = ST_FAIL;
    if (j->limit == SB_LIMIT_WALL) {
        why_own(out, "hang: no result within %.0f s; the run was stopped (instructors: if a correct solution needs "
                "longer, raise LIMIT)", limit);
        return;
    }
    if (j->limit != SB_LIMIT_NONE) {
        const char *what = j->limit == SB_LIMIT_MEM    ? "out of memory: the run passed the sandbox's host-memory limit"
                           : j->limit == SB_LIMIT_CPU  ? "CPU time limit: the run used more CPU time than allowed"
                           : j->limit == SB_LIMIT_FILE ? "file size limit: the run wrote too large a file"
                           : j->limit == SB_LIMIT_DISK ? "disk quota: the run wrote more than its scratch folder may "
                                                         "hold and was stopped (its scratch copy was removed)"
                                                       : "output limit: the run printed too much and was stopped";
        why_own(out, "%s", what);
        return;
    }
    wb_result *r = NULL;
    char err[700];
    /* must_end (a test program holding the student's code): the harness
     * writes its record last and then exits 0 or 1, so a record beside any
     * other end (a signal, Check's runner stopped by junk on its pipe: exit
     * 2) was written by someone else, the student's code */
    int ended = !j->signal && (j->exit_code == 0 || j->exit_code == 1);
    int n = must_end && !ended ? -1 : wb_results_read(rpath, &r, err, sizeof err);
    const wb_result *mine = NULL;
    for (int i = 0; i < n && !mine; i++)
        if (strcmp(r[i].id, id) == 0) mine = &r[i];
    if (!mine) {
        /* how it ended (the sandbox's words), then what is wrong with the record */
        if (j->signal == SIGSYS && j->why[0]) why_own(out, "forbidden system call: the test program was %s; ", j->why);
        else if (j->signal)
            why_own(out, "crash: the test program died of signal %d (%s); ", j->signal, strsignal(j->signal));
        else why_own(out, "the test program stopped before its results (exit %d): ", j->exit_code);
        if (n < 0 && access(rpath, F_OK) != 0) why_own(out, "it wrote no results record");
        else if (n < 0 && must_end && !ended)
            why_own(out, "a results record is there, but a record counts only from a program that ran to its end "
                         "(exit 0 or 1)");
        else if (n < 0) /* err may quote the record */
            why_own(out, "its results record is unreadable: "), why_text(out, err);
        else why_own(out, "its results record has no checkpoint %s", id);
        if (!j->signal) {
            /* the last line it printed, for people (the program may have said why it stopped) */
            char tail[240] = "";
            char *text = log ? wb_read_file(log, NULL) : NULL;
            if (text) {
                size_t k = strlen(text);
                while (k && (text[k - 1] == '\n' || text[k - 1] == ' ')) text[--k] = 0;
                const char *ls = text + k;
                while (ls > text && ls[-1] != '\n') ls--;
                snprintf(tail, sizeof tail, "%s", ls);
            }
            free(text);
            if (tail[0]) why_own(out, "; its last line: "), why_text(out, tail);
        }
        free(r);
        return;
    }
    out->status = mine->status == WB_RES_PASS ? ST_PASS : mine->status == WB_RES_FAIL ? ST_FAIL : ST_SKIP;
    if (out->status == ST_SKIP && g_host_gpus > 0 && mine->reason == WB_WHY_NOGPU) {
        /* This host has a GPU, so the run lost it by its own doing (a fork
         * storm leaves the harness no process for its GPU probe; a changed
         * environment says WB_NO_GPU=1): a FAIL, not a SKIP to grade again. */
        out->status = ST_FAIL;
        why_own(out, "no GPU in the run, on a host that has one: ");
        why_text(out, mine->message);
        why_own(out, " (a submission that starves the process limit or hides the GPU from its own test earns nothing)");
        free(r);
        return;
    }
    out->ratio = mine->ratio;
    out->target = mine->target > 0 ? mine->target : 0;
    snprintf(out->yard, sizeof out->yard, "%s", mine->yard);
    snprintf(out->gpu, sizeof out->gpu, "%s", mine->gpu);
    wb_result_figure(mine, out->figure, sizeof out->figure);
    /* the kind of failure is the grader's word (classify); the message is the run's */
    if (out->status == ST_FAIL && mine->message[0])
        why_own(out, "%s: ", classify(mine->message)), why_text(out, mine->message);
    else if (out->status == ST_FAIL) why_own(out, "%s: failed", classify(mine->message));
    else if (out->status == ST_SKIP && mine->message[0]) why_own(out, "not graded: "), why_text(out, mine->message);
    else if (out->status == ST_SKIP) why_own(out, "not graded: skipped");
    free(r);
}

/* A speed checkpoint's outcome held against the week's own metadata (the
 * grader's copy of week.txt, which the student's process cannot reach): the
 * test program writes its record with the student's code linked in, so a
 * record whose target is not week.txt's for the GPU the record names
 * (wb_target_for: a line's `| H200 >= 0.64` fields, the default for any other
 * GPU) was changed in memory (a lowered target turns a slow kernel's FAIL into
 * a PASS), and a PASS whose ratio is under that target is a status changed
 * after judging. A record naming a GPU whose target is not that of this
 * host's GPU (g_host_gpu, the grader's own probe; unknown when it has none)
 * had its GPU name changed to get another model's target. Each is a FAIL with
 * no points. Otherwise the target is week.txt's for that GPU from here on.
 * This does not catch a figure or ratio forged together with the status; the
 * judge (judge.c) is the defence against that. */
void reconcile_speed(cp_grade *g, const wb_checkpoint *cp)
{
    if (!(cp->target > 0) || g->status == ST_SKIP) return;
    if (g->status == ST_FAIL && isnan(g->ratio)) return; /* failed before any figure: nothing to check */
    const char *model;
    double want = wb_target_for(cp, g->gpu, &model);
    /* the why is built in b (g->gpu, the record's GPU name, is the run's text); which of week.txt's
     * targets: " for NVIDIA H200 (H200)", " (its default) for ..." */
    cp_grade b;
    why_clear(&b);
    int bad = 1, gpu_is = 1;
    if (g_host_gpu[0] && !(wb_target_for(cp, g_host_gpu, NULL) == want)) {
        why_own(&b, "tampered record: it names GPU "), why_text(&b, g->gpu);
        why_own(&b, ", whose target is %.4g; this host's GPU, %s, has %.4g", want, g_host_gpu,
                wb_target_for(cp, g_host_gpu, NULL));
        gpu_is = 0;
    } else if (fabs(g->target - want) > 1e-9 * want) {
        why_own(&b, "tampered record: its target is %.4g, week.txt's is %.4g", g->target, want);
    } else if (g->status == ST_PASS && !(g->ratio >= want)) {
        why_own(&b, "tampered record: it says PASS at %.3f, under week.txt's target %.2f", g->ratio, want);
    } else bad = 0;
    if (bad && gpu_is) {
        if (model) why_own(&b, " for "), why_text(&b, g->gpu), why_own(&b, " (%s)", model);
        else if (cp->n_models && g->gpu[0]) why_own(&b, " (its default) for "), why_text(&b, g->gpu);
        else if (cp->n_models) why_own(&b, " (its default) for no GPU named");
    }
    if (bad) {
        why_own(&b, " (no speed credit)");
        memcpy(g->why, b.why, sizeof g->why), memcpy(g->own, b.own, sizeof g->own), g->n_own = b.n_own;
        g->status = ST_FAIL;
        g->ratio = NAN;
    }
    g->target = want;
}

/* The points a checkpoint's outcome earns out of `pts`: all for a pass; for a
 * speed checkpoint that ran and missed its target, pts * ratio / target (the
 * ratio and target its results record gives); nothing otherwise. */
void score_checkpoint(cp_grade *g, double pts)
{
    g->points = 0;
    if (g->status == ST_PASS) g->points = pts;
    else if (g->status == ST_FAIL && g->target > 0 && !isnan(g->ratio)) {
        g->points = speed_points(pts, g->ratio, g->target);
        char yard[sizeof g->yard]; /* the record's name for its yardstick: the run's text */
        snprintf(yard, sizeof yard, "%s", g->yard);
        why_clear(g);
        why_own(g, "below target: %.3f of ", g->ratio), why_text(g, yard), why_own(g, ", target >= %.2f ", g->target);
        why_text(g, yard), why_own(g, ": %.2f of %g points", g->points, pts);
    }
}

/* The environment of a checkpoint's run, besides PATH and HOME (the sandbox
 * sets those and nothing else). No CK_FORK: Check's fork mode is on, so
 * each test of the checkpoint runs in its own child process, as in
 * practice (week 02's fault tests skip themselves under CK_FORK=no). */
int checkpoint_env(const grader *G, const student *s, int w, const char *id, unsigned long long seed,
                   const char *rec, char store[][1700], const char **env)
{
    const week_cfg *W = &G->weeks[w];
    int k = 0;
    snprintf(store[k++], 1700, "WB_SEED=%llu", seed);
    snprintf(store[k++], 1700, "CK_RUN_CASE=%s", id);
    snprintf(store[k++], 1700, "WB_WEEK_DIR=%s", W->dir);
    snprintf(store[k++], 1700, "WB_WEEK=%s", W->dir);
    snprintf(store[k++], 1700, "WB_PROGRESS=%s/.grade-progress.md", s->tree);
    snprintf(store[k++], 1700, "WB_TEST_TIMEOUT=%d", (int)G->limit);
    snprintf(store[k++], 1700, "WB_IMPL=submission of %s", s->id);
    snprintf(store[k++], 1700, "WB_RESULTS=%s", rec);
    if (G->no_gpu_env) snprintf(store[k++], 1700, "WB_NO_GPU=1");
    if (G->in_shared) snprintf(store[k++], 1700, "WB_GPU_SHARED=1"); /* wb_device_room: no shrinking */
    /* a Slurm task: the GPU Slurm gave it, not another task's on the same node */
    if (G->in_task && getenv("CUDA_VISIBLE_DEVICES"))
        snprintf(store[k++], 1700, "CUDA_VISIBLE_DEVICES=%s", getenv("CUDA_VISIBLE_DEVICES"));
    /* Triton's interpreter, only where the instructor asked for it: the Python
     * tests then run on the CPU where torch sees no GPU, record nothing as run
     * on a GPU, and SKIP every speed checkpoint; grade exits 3 (not a grading) */
    if (G->interpret && W->has_py) snprintf(store[k++], 1700, "TRITON_INTERPRET=1");
    for (int i = 0; wb_multicast_off_env[i]; i++) snprintf(store[k++], 1700, "%s", wb_multicast_off_env[i]);
    for (int i = 0; i < k; i++) env[i] = store[i];
    env[k] = NULL;
    return k;
}

/* Run one checkpoint of one week of one student with `seed`, in the
 * sandbox with the GPU: the test program with CK_RUN_CASE=the checkpoint
 * and WB_RESULTS=a file in the scratch tree, whose record gives the outcome. */
/* A checkpoint that is not run: FAIL, no figure, and why. */
static void not_run(cp_grade *out, const char *why)
{
    memset(out, 0, sizeof *out);
    out->ratio = NAN;
    out->status = ST_FAIL;
    why_own(out, "%s", why); /* the grader's words, every caller's */
}

/* ---------------------------------------------------------------- --judge 1
 *
 * The weeks that have a judge (instructor/README.md, "The judge and the
 * runner"): its program and its runner's main object, both in the
 * instructor's build/instructor/ (make judge-w01 ... judge-w15, judge-w17 ... judge-w42 and
 * judge-w53 ... judge-w62: weeks 01-42 and 53-62; the weeks are
 * mk/instructor.mk's JUDGED_WEEKS too: keep the two one). */
static const struct {
    const char *week, *judge, *runner_obj;
} JUDGES[] = {
    { "phase0/week01", "judge-w01", "judge_w01_runner.o" },
    { "phase0/week02", "judge-w02", "judge_w02_runner.o" },
    { "phase0/week03", "judge-w03", "judge_w03_runner.o" },
    { "phase0/week04", "judge-w04", "judge_w04_runner.o" },
    { "phase1/week05", "judge-w05", "judge_w05_runner.o" },
    { "phase1/week06", "judge-w06", "judge_w06_runner.o" },
    { "phase1/week07", "judge-w07", "judge_w07_runner.o" },
    { "phase1/week08", "judge-w08", "judge_w08_runner.o" },
    { "phase2/week09", "judge-w09", "judge_w09_runner.o" },
    { "phase2/week10", "judge-w10", "judge_w10_runner.o" },
    { "phase2/week11", "judge-w11", "judge_w11_runner.o" },
    { "phase2/week12", "judge-w12", "judge_w12_runner.o" },
    { "phase3/week13", "judge-w13", "judge_w13_runner.o" },
    { "phase3/week15", "judge-w15", "judge_w15_runner.o" },
    { "phase4/week19", "judge-w19", "judge_w19_runner.o" },
    { "phase5/week21", "judge-w21", "judge_w21_runner.o" },
    { "phase5/week22", "judge-w22", "judge_w22_runner.o" },
    { "phase5/week23", "judge-w23", "judge_w23_runner.o" },
    { "phase5/week24", "judge-w24", "judge_w24_runner.o" },
    { "phase5/week25", "judge-w25", "judge_w25_runner.o" },
    { "phase5/week26", "judge-w26", "judge_w26_runner.o" },
    { "phase5/week27", "judge-w27", "judge_w27_runner.o" },
    { "phase5/week28", "judge-w28", "judge_w28_runner.o" },
    { "phase6/week29", "judge-w29", "judge_w29_runner.o" },
    { "phase6/week30", "judge-w30", "judge_w30_runner.o" },
    { "phase6/week31", "judge-w31", "judge_w31_runner.o" },
    { "phase6/week32", "judge-w32", "judge_w32_runner.o" },
    { "phase6/week33", "judge-w33", "judge_w33_runner.o" },
    { "phase6/week34", "judge-w34", "judge_w34_runner.o" },
    { "phase6/week35", "judge-w35", "judge_w35_runner.o" },
    { "phase6/week36", "judge-w36", "judge_w36_runner.o" },
    { "phase6/week37", "judge-w37", "judge_w37_runner.o" },
    { "phase6/week38", "judge-w38", "judge_w38_runner.o" },
    { "phase7/week39", "judge-w39", "judge_w39_runner.o" },
    { "phase7/week40", "judge-w40", "judge_w40_runner.o" },
    { "phase7/week41", "judge-w41", "judge_w41_runner.o" },
    { "phase7/week42", "judge-w42", "judge_w42_runner.o" },
    { "phase5/week53", "judge-w53", "judge_w53_runner.o" },
    { "phase5/week54", "judge-w54", "judge_w54_runner.o" },
    { "phase5/week55", "judge-w55", "judge_w55_runner.o" },
    { "phase6/week57", "judge-w57", "judge_w57_runner.o" },
    { "phase6/week59", "judge-w59", "judge_w59_runner.o" },
    { "phase6/week60", "judge-w60", "judge_w60_runner.o" },
    { "phase6/week62", "judge-w62", "judge_w62_runner.o" },
    { "phase3/week14", "judge-w14", "judge_w14_runner.o" },
    { "phase5/week56", "judge-w56", "judge_w56_runner.o" },
    { "phase6/week58", "judge-w58", "judge_w58_runner.o" },
    { "phase6/week61", "judge-w61", "judge_w61_runner.o" },
    { "phase4/week17", "judge-w17", "judge_w17_runner.o" },
    { "phase4/week18", "judge-w18", "judge_w18_runner.o" },
    { "phase4/week20", "judge-w20", "judge_w20_runner.o" },
    { "phase3/week16", "judge-w16", "judge_w16_runner.o" },
};

int find_judge(const grader *G, week_cfg *W, char *err, size_t errsz)
{
    W->judge[0] = W->judge_runner_obj[0] = 0;
    for (size_t i = 0; i < sizeof JUDGES / sizeof *JUDGES; i++) {
        if (strcmp(W->dir, JUDGES[i].week) != 0) continue;
        snprintf(W->judge, sizeof W->judge, "%s/build/instructor/%s", G->root, JUDGES[i].judge);
        snprintf(W->judge_runner_obj, sizeof W->judge_runner_obj, "%s/build/instructor/%s", G->root, JUDGES[i].runner_obj);
        char common[800];
        snprintf(common, sizeof common, "%s/build/instructor/judge_runner_cuda.o", G->root);
        if (!is_file(W->judge) || !is_file(W->judge_runner_obj) || !is_file(common)) {
            snprintf(err, errsz, "--judge 1: %s's judge is not built (make %s)", W->dir, JUDGES[i].judge);
            W->judge[0] = W->judge_runner_obj[0] = 0;
            return -1;
        }
        /* the checkpoints it judges (`--list`, its own table); the rest are the linked test's */
        char cmd[800], line[128];
        snprintf(cmd, sizeof cmd, "%s --list", W->judge);
        FILE *p = popen(cmd, "r");
        int n = 0;
        memset(W->judged, 0, sizeof W->judged);
        while (p && fgets(line, sizeof line, p)) {
            line[strcspn(line, "\r\n")] = 0;
            for (int c = 0; c < W->meta.n_checkpoints; c++)
                if (!strcmp(line, W->meta.checkpoints[c].id)) W->judged[c] = 1, n++;
        }
        if (!p || pclose(p) != 0 || n == 0) {
            snprintf(err, errsz, "--judge 1: %s --list named none of %s's checkpoints", W->judge, W->dir);
            W->judge[0] = W->judge_runner_obj[0] = 0;
            return -1;
        }
        return 1;
    }
    return 0;
}

/* One checkpoint judged outside the student's process: a child of the
 * grader starts the runner (build/WEEK/learner/judge-runner, the student's
 * objects and nothing that writes records) in the checkpoint's sandbox with
 * one end of a socketpair (judge_sb.c), then becomes the judge (exec), which
 * holds the other end, the GPU and the record. The record lies beside the
 * scratch workbook, where the sandbox cannot reach; the runner's own output
 * goes to the run's log as before, the judge's to a log of its own. */
/* The limit named in a judged runner's .end file ("exit E signal S limit NAME
 * why", judge_sb.c), waiting up to 3 s for it to be written; none when there
 * is no such file or it names none. */
static sb_limit runner_limit(const char *end)
{
    char line[1400] = "";
    for (int i = 0; i < 60; i++) {
        FILE *f = fopen(end, "r");
        if (f) {
            int got = fgets(line, sizeof line, f) != NULL;
            fclose(f);
            if (got && strchr(line, '\n')) break;
        }
        line[0] = 0;
        usleep(50000);
    }
    const char *l = strstr(line, " limit ");
    if (!l) return SB_LIMIT_NONE;
    l += 7;
    for (int k = SB_LIMIT_WALL; k <= SB_LIMIT_DISK; k++) {
        const char *name = sb_limit_name((sb_limit)k);
        size_t n = strlen(name);
        if (strncmp(l, name, n) == 0 && (l[n] == ' ' || l[n] == '\n' || l[n] == 0)) return (sb_limit)k;
    }
    return SB_LIMIT_NONE;
}

static void run_judged(grader *G, student *s, int w, const char *id, unsigned long long seed, const char *tag,
                       const sb_opts *o, const char *runner, cp_grade *out)
{
    const week_cfg *W = &G->weeks[w];
    char rec[1600], jlog[1600];
    snprintf(rec, sizeof rec, "%s/../judge-results-%d-%s%s.tsv", s->tree, w, id, tag);
    snprintf(jlog, sizeof jlog, "%s/../judge-%d-%s%s.log", s->tree, w, id, tag);
    unlink(rec);
    char end[1700];
    snprintf(end, sizeof end, "%s.end", o->log_path ? o->log_path : "");
    if (o->log_path) unlink(end);
    double wall = G->limit + 60;
    fflush(NULL);
    pid_t p = fork();
    if (p < 0) {
        memset(out, 0, sizeof *out);
        out->ratio = NAN, out->status = ST_FAIL;
        why_own(out, "not graded: the grader could not fork its judge");
        return;
    }
    if (p == 0) {
        setpgid(0, 0); /* the judge and the sandbox's keeper: one group to stop */
        int lf = open(jlog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (lf >= 0) dup2(lf, 1), dup2(lf, 2);
        jd J;
        char *rargv[] = { (char *)runner, NULL };
        if (jd_start_sandboxed(&J, o, rargv) != 0) {
            fprintf(stderr, "the runner's sandbox: %s\n", J.why);
            _exit(2);
        }
        char sock[16], pid[16], sd[32];
        snprintf(sock, sizeof sock, "%d", J.sock);
        snprintf(pid, sizeof pid, "%d", (int)J.pid);
        snprintf(sd, sizeof sd, "%llu", seed);
        if (fcntl(J.sock, F_SETFD, 0) != 0) _exit(2);
        if (G->in_shared) setenv("WB_GPU_SHARED", "1", 1);
        if (G->no_gpu_env) setenv("WB_NO_GPU", "1", 1);
        if (chdir(G->root) != 0) _exit(2);
        execl(W->judge, W->judge, "--record", rec, "--checkpoint", id, "--seed", sd, "--week-dir", W->dir, "--sock",
              sock, "--pid", pid, (char *)NULL);
        _exit(127);
    }
    int st = 0, timed_out = 0;
    double t0 = now_s();
    while (waitpid(p, &st, WNOHANG) == 0) {
        if (now_s() - t0 > wall) {
            kill(-p, SIGKILL);
            waitpid(p, &st, 0);
            timed_out = 1;
            break;
        }
        usleep(50000);
    }
    sb_result r;
    memset(&r, 0, sizeof r);
    r.limit = timed_out ? SB_LIMIT_WALL : SB_LIMIT_NONE;
    r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    /* the judge is the grader's own program: a judge that dies is the
     * grader's problem, said as such, never the student's verdict */
    if (!timed_out && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
        G->sandbox_errors++;
        fprintf(stderr, "grade: %s %s: the judge ended with status %d (see %s)\n", s->id, id, st, jlog);
        memset(out, 0, sizeof *out);
        out->ratio = NAN, out->status = ST_FAIL;
        why_own(out, "not graded: the judge failed (the instructor was told)");
        return;
    }
    /* A limit the runner's sandbox stopped it at (output, memory, CPU, file size,
     * disk, its wall clock) is the run's outcome, in the words a linked test's run
     * gets: the judge itself only saw a runner that stopped answering. The keeper
     * of that sandbox (judge_sb.c) writes it to the run log's .end file as the
     * runner ends, which may be just after the judge has. */
    if (!timed_out && o->log_path) r.limit = runner_limit(end);
    outcome_from_record(rec, id, &r, wall, jlog, 0, out);
    /* The runner could not open the GPU at the judge's hello, before any of
     * the student's functions was called: the grader's problem (the
     * sandbox's view of the GPU, the host), said as such; the cell scores
     * nothing and the grade exits 1. A shared run's (GPU_SHARE) is run again
     * alone, and only that run's counts. */
    if (out->status == ST_FAIL && runner_no_gpu(out->why)) {
        G->sandbox_errors++;
        fprintf(stderr, "grade: %s %s: the runner could not open the GPU in its sandbox (see %s): if every "
                        "student shows this, the sandbox's view of the GPU is at fault\n", s->id, id, jlog);
        if (strlen(out->why) > 600) { /* room for the words after it; a span past the cut ends there */
            out->why[600] = 0;
            for (int i = 0; i < out->n_own; i++)
                for (int k = 0; k < 2; k++) out->own[i][k] = out->own[i][k] > 600 ? 600 : out->own[i][k];
        }
        why_own(out, " (the instructor was told)");
    }
}

void run_checkpoint(grader *G, student *s, int w, int c, unsigned long long seed, const char *tag,
                    cp_grade *out)
{
    const week_cfg *W = &G->weeks[w];
    const char *id = W->meta.checkpoints[c].id;
    char bin[1400], log[1600], rec[1600], copy[1600], why[300];
    snprintf(bin, sizeof bin, "%s/build/%s/learner/test", s->tree, W->dir);
    snprintf(log, sizeof log, "%s/../run-%d-%s%s.log", s->tree, w, id, tag);
    /* A new name each run, with 64 random bits: an earlier run of this
     * submission cannot leave a record where this run's will be (wb_pyrun.py
     * keeps the records a RESULTS file already holds), and one left anyway
     * is removed first. */
    snprintf(rec, sizeof rec, "%s/.grade-results-%016llx-%u.tsv", s->tree, random_u64(), G->run_seq++);
    if (unlink(rec) != 0 && errno != ENOENT) {
        not_run(out, "something the submission left stands where the results record goes: not run");
        return;
    }
    snprintf(copy, sizeof copy, "%s/../results-%d-%s%s.tsv", s->tree, w, id, tag);
    unlink(copy);
    sb_result r;
    memset(&r, 0, sizeof r);
    /* an earlier run passed the disk quota: its scratch copy is gone (the
     * mark lies beside it, where the sandbox cannot write) */
    char over[1500];
    snprintf(over, sizeof over, "%s/../disk-quota", s->tree);
    if (is_file(over)) {
        not_run(out, "disk quota: an earlier run of this submission wrote more than its scratch folder may hold; "
                     "its scratch copy was removed: not run");
        return;
    }
    /* an earlier run of this student's code could have rewritten the test program */
    if (s->bin_hash[w] && file_hash(bin) != s->bin_hash[w]) {
        not_run(out, "the test program changed after it was built (an earlier run of this "
                 "submission rewrote it): not run");
        return;
    }
    const int py = cp_is_py(W, c);
    if (py && s->py_hash[w] && runner_hash(G, s, w) != s->py_hash[w]) {
        not_run(out, "the Python runner or tests changed after the scratch copy was made (an "
                 "earlier run of this submission rewrote them): not run");
        return;
    }
    char store[16][1700];
    const char *env[17];
    checkpoint_env(G, s, w, id, seed, rec, store, env);
    sb_opts o;
    sandbox_opts(G, s, &o);
    o.gpu = 1;
    o.env = env;
    o.wall_s = G->limit + 10; /* Check's own per-test limit (WB_TEST_TIMEOUT) comes first */
    o.mem_bytes = RUN_MEM;
    o.log_path = log;
    if (is_dir("/usr/local/nvidia/lib64")) o.ld_library_path = "/usr/local/nvidia/lib64";
    if (W->judge[0] && !py && W->judged[c]) { /* --judge 1: the verdict from a process without the student's code */
        /* The runner is told nothing the judge keeps: not the seed (a hidden
         * one, read off the stack's environment strings without naming
         * getenv, would come back encoded in a wrong result the feedback
         * quotes), not which checkpoint runs, not where the record goes. */
        const char *renv[17];
        int k = 0;
        for (int i = 0; env[i]; i++)
            if (strncmp(env[i], "WB_SEED=", 8) && strncmp(env[i], "CK_RUN_CASE=", 12) &&
                strncmp(env[i], "WB_RESULTS=", 11))
                renv[k++] = env[i];
        renv[k] = NULL;
        o.env = renv;
        /* The runner the build linked, as it was before any run: the build's
         * file in the scratch workbook, which every run can write, must still
         * be it (a run that rewrote it fails here), and what starts is the
         * grader's copy (keep_judge_runner), outside the scratch workbook and
         * shown read-only, so no run, nor one still ending, can change it. */
        char built[1500], kept[1500];
        unsigned char h[32];
        judge_runner_paths(s, W, w, built, kept, sizeof built);
        if (s->runner_kept[w] != 1) {
            G->sandbox_errors++;
            not_run(out, "not graded: the grader kept no copy of the judge's runner after the build (the instructor "
                         "was told)");
            return;
        }
        if (file_sha256(built, h) != 0 || memcmp(h, s->runner_sha[w], 32) != 0) {
            char jwhy[900];
            snprintf(jwhy, sizeof jwhy, "the judge's runner (build/%s/learner/judge-runner) changed after it was "
                     "built: an earlier run of this submission rewrote it: not run", W->dir);
            not_run(out, jwhy);
            return;
        }
        if (file_sha256(kept, h) != 0 || memcmp(h, s->runner_sha[w], 32) != 0) {
            G->sandbox_errors++;
            fprintf(stderr, "grade: %s %s: the grader's copy of the judge's runner (%s) changed or is gone\n", s->id, id,
                    kept);
            not_run(out, "not graded: the grader's copy of the judge's runner changed (the instructor was told)");
            return;
        }
        const char *ro[8 + MAX_PY_RO + 2];
        int n = 0;
        for (int i = 0; G->ro[i] && n < 8 + MAX_PY_RO; i++) ro[n++] = G->ro[i];
        ro[n++] = kept;
        ro[n] = NULL;
        o.ro_binds = ro;
        run_judged(G, s, w, id, seed, tag, &o, kept, out);
        return;
    }
    /* A Python checkpoint: the workbook's runner (phase7/common/wb_pyrun.py,
     * no student code in it) runs pytest with the plugin in a child process,
     * the week's code folder being the week in the scratch tree, and writes
     * the record; CK_RUN_CASE selects this checkpoint, as in a C run. -I: no
     * PYTHON* variable, no user site (HOME is the scratch tree, which the
     * student's earlier runs could write), no script folder on sys.path;
     * -B: no bytecode written. */
    char runner[700]; /* Phase 7's, for every week with Python checkpoints (Phase 8's week 52 and 63 too) */
    snprintf(runner, sizeof runner, "phase7/common/wb_pyrun.py");
    char *pyargv[] = { G->py_exe, "-I", "-B", runner, "build/wb", (char *)W->dir, (char *)W->dir, rec, NULL };
    char *cargv[] = { bin, NULL };
    char **argv = py ? pyargv : cargv;
    if (sb_run(&o, argv, &r) != 0) {
        G->sandbox_errors++;
        fprintf(stderr, "grade: %s %s: the sandbox could not start the run: %s\n", s->id, id, r.why);
        snprintf(why, sizeof why, "not graded: the grader could not start the run (%.200s)", r.why);
        not_run(out, why);
        return;
    }
    if (r.limit == SB_LIMIT_DISK) {
        /* free the disk now, not after the class: the scratch workbook goes,
         * and the student's later runs are not run (the mark above) */
        char cmd[3200];
        FILE *m = fopen(over, "w");
        if (m) fprintf(m, "%s %s\n", W->dir, id), fclose(m);
        /* what filled it, for the instructor: the largest entries (names escaped) */
        char du[1600];
        snprintf(du, sizeof du, "%s.du", over);
        snprintf(cmd, sizeof cmd, "cd %s && du -ak . 2>/dev/null | sort -rn | head -n 6 > %s", q(s->tree), q(du));
        sh(cmd, NULL);
        snprintf(cmd, sizeof cmd, "chmod -R u+rwX %s 2>/dev/null; rm -rf %s", q(s->tree), q(s->tree));
        sh(cmd, NULL);
        fprintf(stderr, "grade: %s %s: disk quota (%lld MiB) passed; its scratch copy was removed. Its largest "
                "entries (KiB):\n", s->id, id, o.disk_bytes >> 20);
        FILE *d = fopen(du, "r");
        char line[600], shown[1300];
        while (d && fgets(line, sizeof line, d)) {
            line[strcspn(line, "\n")] = 0;
            up_escape(line, shown, sizeof shown);
            fprintf(stderr, "grade:   %s\n", shown);
        }
        if (d) fclose(d);
        unlink(du);
    }
    if (copy_untrusted(rec, copy, MAX_RECORD, why, sizeof why) != 0 && strcmp(why, "absent") != 0) {
        /* a record that is a link, a fifo or huge: as good as none */
        FILE *f = fopen(copy, "w");
        if (f) fprintf(f, "refused by the grader: %s\n", why), fclose(f);
    }
    outcome_from_record(copy, id, &r, G->limit, log, 1, out);
}

/* One checkpoint of one week of one student: the run with the grader's seed
 * and, for a correctness checkpoint that passed, the same checkpoint with each
 * of the instructor's hidden seeds (the first that fails fails it). */
static void grade_checkpoint(grader *G, student *s, int w, int c)
{
    const week_cfg *W = &G->weeks[w];
    const wb_checkpoint *cp = &W->meta.checkpoints[c];
    cp_grade *g = &s->g[w][c];
    double t0 = now_s();
    run_checkpoint(G, s, w, c, G->seed, "", g);
    reconcile_speed(g, cp);
    score_checkpoint(g, W->points[c]);
    if (g->status == ST_PASS && cp->target <= 0)
        for (int k = 0; k < W->n_seeds; k++) {
            cp_grade h;
            char tag[40];
            snprintf(tag, sizeof tag, "-hidden%d", k + 1);
            run_checkpoint(G, s, w, c, W->seeds[k], tag, &h);
            if (h.status == ST_FAIL) {
                g->status = ST_FAIL;
                g->points = 0;
                /* What went wrong, by its kind alone: a hidden run's message quotes
                 * what the student's code printed or returned and sizes drawn from
                 * the hidden seed, a channel out for anything the code read there
                 * (the seed itself, found by trying seeds against its inputs). The
                 * whole message goes to the instructor's terminal, escaped. */
                why_clear(g); /* the kind alone (classify): the grader's words */
                why_own(g, "hidden test %d of %d failed: %s (the class run's inputs passed; look for sizes and values "
                           "your tests do not draw)", k + 1, W->n_seeds, classify(h.why));
                char shown[4 * sizeof h.why];
                up_escape(h.why, shown, sizeof shown);
                printf("  %-24s %s %s: hidden test %d of %d failed: %s\n", s->id, W->dir, cp->id, k + 1, W->n_seeds, shown);
                fflush(stdout); /* before any fork copies the buffer */
                break;
            }
        }
    s->seconds += now_s() - t0;
}

/* Which checkpoints of a student a phase grades: the correctness ones
 * (no target) or the speed ones. Only weeks that built and passed the
 * object check run at all. */
int phase_has(const grader *G, const student *s, int w, int c, int speed)
{
    return s->built[w] == 1 && (G->weeks[w].meta.checkpoints[c].target > 0) == speed;
}

/* Serial grading, as the grader always did it: every run alone on the GPU. */
void grade_serial(grader *G, student *s, int speed)
{
    for (int w = 0; w < G->n_weeks; w++)
        for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++)
            if (phase_has(G, s, w, c, speed)) grade_checkpoint(G, s, w, c);
}

/* A FAIL on the values the code computed (the harness's comparison: "N of M
 * elements wrong"): a neighbour cannot change them (GPU memory is private to
 * each process, the inputs come from the seed), so it stands without a run
 * alone. A racy kernel may compute other values alone, but it is as wrong
 * alone as shared. */
static int wrong_values(const char *why)
{
    return strstr(why, " elements wrong") != NULL || strstr(why, " element wrong") != NULL;
}

/* What a shared run must hand back to the grader: the student's correctness
 * grades and the time they took. */
typedef struct {
    int    done;
    double seconds;
    cp_grade g[MAX_WEEKS][WB_MAX_CHECKPOINTS];
} shared_out;

/* Correctness checkpoints (no target) of up to G->gpu_share students at once,
 * each student's runs in one child process of the grader, one after another
 * (never two runs of one submission at a time: they share its scratch tree).
 * A PASS from a shared run stands: the tests judge output, not time, and no
 * neighbour can write into another run's memory, files or records; so does a
 * FAIL on wrong values (wrong_values). Anything else (another FAIL, a SKIP
 * on a GPU host, a hang, a crash, a sandbox error) is run again ALONE
 * afterwards, and only that outcome counts: a neighbour that fills the GPU's
 * memory or keeps it busy until others time out costs time, never marks. Returns the number of checkpoints run again alone. */
int grade_shared(grader *G, int *n_shared)
{
    const int n = G->n_students;
    shared_out *out = mmap(NULL, sizeof(shared_out) * (size_t)(n ? n : 1), PROT_READ | PROT_WRITE,
                           MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (out == MAP_FAILED) {
        fprintf(stderr, "grade: no memory to share runs (%s): grading every run alone\n", strerror(errno));
        for (int i = 0; i < n; i++) grade_serial(G, &G->st[i], 0);
        return 0;
    }
    memset(out, 0, sizeof(shared_out) * (size_t)(n ? n : 1));
    pid_t *pid = calloc((size_t)(n ? n : 1), sizeof *pid);
    int next = 0, running = 0;
    *n_shared = 0;
    while (next < n || running > 0) {
        while (next < n && running < G->gpu_share) {
            student *s = &G->st[next];
            int any = 0;
            for (int w = 0; w < G->n_weeks; w++)
                for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) any |= phase_has(G, s, w, c, 0);
            if (!any) {
                pid[next++] = 0;
                continue;
            }
            fflush(NULL);
            pid_t p = fork();
            if (p == 0) {
                /* results records get names no other process uses */
                G->run_seq = 1000000u * (unsigned)(next + 1);
                G->in_shared = 1;
                s->seconds = 0;
                grade_serial(G, s, 0);
                out[next].seconds = s->seconds;
                memcpy(out[next].g, s->g, sizeof out[next].g);
                out[next].done = 1;
                _exit(0);
            }
            if (p < 0) { /* no process: this student is graded alone below */
                pid[next++] = 0;
                continue;
            }
            pid[next++] = p;
            running++;
        }
        if (running == 0) continue;
        int st;
        pid_t p = wait(&st);
        if (p < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < n; i++)
            if (pid[i] == p) pid[i] = 0, running--;
    }
    free(pid);
    int alone = 0;
    for (int i = 0; i < n; i++) {
        student *s = &G->st[i];
        if (out[i].done) {
            s->seconds += out[i].seconds;
            for (int w = 0; w < G->n_weeks; w++)
                for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++)
                    if (phase_has(G, s, w, c, 0)) s->g[w][c] = out[i].g[w][c], ++*n_shared;
        }
        for (int w = 0; w < G->n_weeks; w++)
            for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) {
                if (!phase_has(G, s, w, c, 0)) continue;
                const cp_grade *g = &s->g[w][c];
                int again = !out[i].done || (g->status == ST_FAIL && !wrong_values(g->why)) ||
                            (g->status == ST_SKIP && g_host_gpus > 0);
                if (again) grade_checkpoint(G, s, w, c), alone++;
            }
    }
    munmap(out, sizeof(shared_out) * (size_t)(n ? n : 1));
    return alone;
}
