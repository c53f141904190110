/* test_grade.c — Check tests of the grader (grade.h): results records,
 * runs in the sandbox, limits, submissions, week configuration, the
 * gradebook and the feedback; no GPU. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wb_file.h"
#include "wb_rand.h"
#include "wb_results.h"
#include "../phase0/week01/w01_checks.h" /* the draws week 01's test and its judge share */
#include "grade.h"
#include "unpack.h"
#include "quiz.h"
#include "test_instructor.h"

/* ------------------------------------------------------- results records */

/* The grader reads a checkpoint's outcome from the results record the test
 * program writes (WB_RESULTS), never from the lines it prints. */

static void rec(wb_result *r, const char *id, int status, const char *msg)
{
    wb_result_init(r);
    snprintf(r->week, sizeof r->week, "phase0/week01");
    snprintf(r->id, sizeof r->id, "%s", id);
    r->status = status;
    r->reason = status == WB_RES_PASS ? WB_WHY_NONE : status == WB_RES_FAIL ? WB_WHY_CODE : WB_WHY_ENV;
    r->seed = 5;
    r->tests = 1;
    r->failed = status == WB_RES_FAIL;
    r->skipped = status == WB_RES_SKIP;
    snprintf(r->message, sizeof r->message, "%s", msg);
}

static char *tmp_file(const char *text)
{
    static char paths[8][64];
    static int k;
    char *p = paths[k++ & 7];
    snprintf(p, 64, "/tmp/wb-grade-rec-XXXXXX");
    int fd = mkstemp(p);
    ck_assert_int_ge(fd, 0);
    if (text) ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return p;
}

START_TEST(grade_from_results_record)
{
    wb_result r[5];
    rec(&r[0], "w01.devquery", WB_RES_PASS, "");
    rec(&r[1], "w01.vecadd", WB_RES_FAIL, "phase0/week01/test_week01.c:85: n=1025: c: 3 of 1025 wrong");
    rec(&r[2], "w01.vecadd-bw", WB_RES_FAIL, "phase0/week01/test_week01.c:201: 0.620 of COPY, target >= 0.85");
    r[2].value = 1750, r[2].yard_value = 2822, r[2].ratio = 0.62, r[2].target = 0.85;
    snprintf(r[2].unit, sizeof r[2].unit, "GB/s");
    snprintf(r[2].yard, sizeof r[2].yard, "COPY");
    snprintf(r[2].detail, sizeof r[2].detail, "1750 GB/s vs COPY 2822 GB/s");
    rec(&r[3], "w01.other", WB_RES_SKIP, "no NVIDIA GPU or driver found on this machine");
    r[3].reason = WB_WHY_NOGPU;
    r[3].target = 0.85;
    snprintf(r[3].yard, sizeof r[3].yard, "COPY");
    rec(&r[4], "w01.fast", WB_RES_FAIL, "x.c:9: c: 3 of 1025 elements differ"); /* a speed checkpoint, not measured */
    r[4].target = 0.85;
    char *path = tmp_file(NULL), err[600];
    ck_assert_msg(wb_results_write(path, r, 5, err, sizeof err) == 0, "%s", err);
    sb_result ok = { .exit_code = 1 };
    cp_grade g;

    outcome_from_record(path, "w01.devquery", &ok, 60, NULL, 1, &g);
    ck_assert_int_eq(g.status, ST_PASS);
    score_checkpoint(&g, 10);
    ck_assert_double_eq(g.points, 10);

    outcome_from_record(path, "w01.vecadd", &ok, 60, NULL, 1, &g);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_str_eq(g.why, "wrong result: phase0/week01/test_week01.c:85: n=1025: c: 3 of 1025 wrong");
    /* the kind is the grader's word, the message the run's (the feedback quotes it) */
    ck_assert_int_eq(g.n_own, 1);
    ck_assert_uint_eq(g.own[0][0], 0);
    ck_assert_uint_eq(g.own[0][1], strlen("wrong result: "));
    score_checkpoint(&g, 20);
    ck_assert_double_eq(g.points, 0);

    /* partial speed credit from the record's ratio and target */
    outcome_from_record(path, "w01.vecadd-bw", &ok, 60, NULL, 1, &g);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_str_eq(g.figure, "0.620 of COPY (1750 GB/s vs COPY 2822 GB/s)");
    ck_assert_double_eq_tol(g.ratio, 0.62, 1e-12);
    ck_assert_double_eq_tol(g.target, 0.85, 1e-12);
    score_checkpoint(&g, 10);
    ck_assert_double_eq_tol(g.points, 10 * 0.62 / 0.85, 1e-9);
    ck_assert_str_eq(g.why, "below target: 0.620 of COPY, target >= 0.85 COPY: 7.29 of 10 points");
    ck_assert_int_eq(g.n_own, 3); /* the yardstick's name is the record's: the run's text, twice */
    ck_assert_uint_eq(g.own[0][1], strlen("below target: 0.620 of "));

    /* held against week.txt: the same record with week.txt's target is
     * unchanged; a lowered target, or a PASS under the target, is a FAIL
     * with no points (a record written by a process holding student code) */
    wb_checkpoint bw = { .id = "w01.vecadd-bw", .target = 0.85, .yard = "COPY" };
    outcome_from_record(path, "w01.vecadd-bw", &ok, 60, NULL, 1, &g);
    reconcile_speed(&g, &bw);
    ck_assert_int_eq(g.status, ST_FAIL);
    score_checkpoint(&g, 10);
    ck_assert_double_eq_tol(g.points, 10 * 0.62 / 0.85, 1e-9);
    {
        wb_result t[2];
        rec(&t[0], "w01.vecadd-bw", WB_RES_PASS, ""); /* the target lowered in memory: 0.62 judged a PASS */
        t[0].value = 1750, t[0].yard_value = 2822, t[0].ratio = 0.62, t[0].target = 0.60;
        snprintf(t[0].yard, sizeof t[0].yard, "COPY");
        rec(&t[1], "w01.fast", WB_RES_PASS, ""); /* the status changed after judging */
        t[1].value = 1750, t[1].yard_value = 2822, t[1].ratio = 0.62, t[1].target = 0.85;
        snprintf(t[1].yard, sizeof t[1].yard, "COPY");
        char *tp = tmp_file(NULL);
        ck_assert_msg(wb_results_write(tp, t, 2, err, sizeof err) == 0, "%s", err);
        outcome_from_record(tp, "w01.vecadd-bw", &ok, 60, NULL, 1, &g);
        ck_assert_int_eq(g.status, ST_PASS);
        reconcile_speed(&g, &bw);
        ck_assert_int_eq(g.status, ST_FAIL);
        ck_assert_msg(strstr(g.why, "tampered record: its target is 0.6, week.txt's is 0.85") != NULL, "%s", g.why);
        score_checkpoint(&g, 10);
        ck_assert_double_eq(g.points, 0);
        wb_checkpoint fast = { .id = "w01.fast", .target = 0.85, .yard = "COPY" };
        outcome_from_record(tp, "w01.fast", &ok, 60, NULL, 1, &g);
        reconcile_speed(&g, &fast);
        ck_assert_int_eq(g.status, ST_FAIL);
        ck_assert_msg(strstr(g.why, "says PASS at 0.620, under week.txt's target 0.85") != NULL, "%s", g.why);
        score_checkpoint(&g, 10);
        ck_assert_double_eq(g.points, 0);
        wb_checkpoint plain = { .id = "w01.vecadd-bw", .target = 0 }; /* no target: nothing to hold */
        outcome_from_record(tp, "w01.vecadd-bw", &ok, 60, NULL, 1, &g);
        reconcile_speed(&g, &plain);
        ck_assert_int_eq(g.status, ST_PASS);
        unlink(tp);
    }

    outcome_from_record(path, "w01.other", &ok, 60, NULL, 1, &g);
    ck_assert_int_eq(g.status, ST_SKIP);
    ck_assert_str_eq(g.why, "not graded: no NVIDIA GPU or driver found on this machine");
    ck_assert_str_eq(g.figure, "");
    score_checkpoint(&g, 10);
    ck_assert_double_eq(g.points, 0);

    /* on a host with a GPU, a run that found none lost it by its own doing */
    g_host_gpus = 1;
    outcome_from_record(path, "w01.other", &ok, 60, NULL, 1, &g);
    g_host_gpus = 0;
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "no GPU in the run, on a host that has one") != NULL, "%s", g.why);
    score_checkpoint(&g, 10);
    ck_assert_double_eq(g.points, 0);
    /* the record's reason decides, never its words: a skip for the
     * environment stays a skip whatever its message says */
    r[3].reason = WB_WHY_ENV;
    ck_assert_msg(wb_results_write(path, r, 5, err, sizeof err) == 0, "%s", err);
    g_host_gpus = 1;
    outcome_from_record(path, "w01.other", &ok, 60, NULL, 1, &g);
    g_host_gpus = 0;
    ck_assert_int_eq(g.status, ST_SKIP);

    /* a PASS in a record beside an end the harness never makes (Check's
     * runner stopped by junk on its pipe: exit 2; a signal) was not written
     * by the harness: nothing, when the program held student code (must_end);
     * a judge's record (must_end 0) stands */
    {
        sb_result two = { .exit_code = 2 }, killed = { .exit_code = -1, .signal = SIGSEGV };
        outcome_from_record(path, "w01.devquery", &two, 60, NULL, 1, &g);
        ck_assert_int_eq(g.status, ST_FAIL);
        ck_assert_msg(strstr(g.why, "(exit 2): a results record is there, but a record counts only from a program "
                                    "that ran to its end") != NULL, "%s", g.why);
        outcome_from_record(path, "w01.devquery", &killed, 60, NULL, 1, &g);
        ck_assert_int_eq(g.status, ST_FAIL);
        ck_assert_msg(strstr(g.why, "crash: the test program died of signal 11") != NULL, "%s", g.why);
        outcome_from_record(path, "w01.devquery", &two, 60, NULL, 0, &g);
        ck_assert_int_eq(g.status, ST_PASS);
        sb_result zero = { .exit_code = 0 };
        outcome_from_record(path, "w01.devquery", &zero, 60, NULL, 1, &g);
        ck_assert_int_eq(g.status, ST_PASS);
    }

    /* a speed checkpoint that failed without a figure earns nothing */
    outcome_from_record(path, "w01.fast", &ok, 60, NULL, 1, &g);
    score_checkpoint(&g, 10);
    ck_assert_double_eq(g.points, 0);
    ck_assert_str_eq(g.why, "wrong result: x.c:9: c: 3 of 1025 elements differ");
    unlink(path);

    /* the speed credit itself */
    ck_assert_double_eq_tol(speed_points(10, 1.3, 0.85), 10, 1e-12); /* capped */
    ck_assert_double_eq(speed_points(10, NAN, 0.85), 0);
    ck_assert_double_eq(speed_points(10, -1, 0.85), 0);
    ck_assert_double_eq(speed_points(10, 0.5, 0), 0);
}
END_TEST

START_TEST(no_record_is_a_fail)
{
    cp_grade g;
    sb_result ok = { .exit_code = 1 }, segv = { .signal = SIGSEGV }, hung = { .limit = SB_LIMIT_WALL, .signal = SIGKILL },
              oom = { .limit = SB_LIMIT_MEM, .signal = SIGKILL };
    /* none written: the program died or stopped first */
    outcome_from_record("/nonexistent/results.tsv", "w01.vecadd", &ok, 60, NULL, 1, &g);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "stopped before its results (exit 1): it wrote no results record"), "%s", g.why);
    outcome_from_record("/nonexistent/results.tsv", "w01.vecadd", &segv, 60, NULL, 1, &g);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "crash: the test program died of signal 11") && strstr(g.why, "no results record"),
                  "%s", g.why);
    score_checkpoint(&g, 10);
    ck_assert_double_eq(g.points, 0);
    /* the sandbox's seccomp filter killed it (sb_run names that in why) */
    sb_result sys = { .exit_code = -1, .signal = SIGSYS, .why = SB_SECCOMP_KILLED };
    outcome_from_record("/nonexistent/results.tsv", "w01.vecadd", &sys, 60, NULL, 1, &g);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "forbidden system call: the test program was killed by the seccomp filter"), "%s", g.why);
    /* ... or one test's process, in Check's fork mode: the record says so */
    ck_assert_str_eq(classify("Received signal 31 (Bad system call)"),
                     "forbidden system call (killed by the sandbox's seccomp filter)");
    ck_assert_str_eq(classify("Received signal 11 (Segmentation fault)"), "crash");
    /* what it printed last is shown, never read for a result */
    char *log = tmp_file("  PASS  w01.vecadd   vector add  [1.000 of COPY (x)]\n"
                         "CK_RUN_CASE=w01.vecadd is not a checkpoint of phase0/week01\n");
    outcome_from_record("/nonexistent/results.tsv", "w01.vecadd", &ok, 60, log, 1, &g);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "its last line: CK_RUN_CASE=w01.vecadd is not a checkpoint"), "%s", g.why);
    unlink(log);
    /* printed lines in place of a record: unreadable */
    char *bad = tmp_file("  PASS  w01.vecadd   vector add\n");
    outcome_from_record(bad, "w01.vecadd", &ok, 60, NULL, 1, &g);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "results record is unreadable") && strstr(g.why, "not a results record"), "%s", g.why);
    unlink(bad);
    /* a record without this checkpoint */
    wb_result r;
    rec(&r, "w01.devquery", WB_RES_PASS, "");
    char *other = tmp_file(NULL), err[600];
    ck_assert_int_eq(wb_results_write(other, &r, 1, err, sizeof err), 0);
    outcome_from_record(other, "w01.vecadd", &ok, 60, NULL, 1, &g);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "its results record has no checkpoint w01.vecadd"), "%s", g.why);
    /* a hang is a hang, whatever a record says */
    outcome_from_record(other, "w01.devquery", &hung, 60, NULL, 1, &g);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strncmp(g.why, "hang: no result within 60 s", 27) == 0, "%s", g.why);
    /* so is any other limit of the sandbox */
    outcome_from_record(other, "w01.devquery", &oom, 60, NULL, 1, &g);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "out of memory"), "%s", g.why);
    unlink(other);
}
END_TEST

/* A grader of week 01 alone for the run tests below: 30 s a checkpoint, the
 * sandbox's PATH, the workbook (`here`, the current folder) hidden from it. */
static void week01_grader(grader *G, student *st, char *here, size_t n)
{
    char err[600];
    memset(G, 0, sizeof *G);
    memset(st, 0, sizeof *st);
    ck_assert_ptr_nonnull(getcwd(here, n));
    ck_assert_msg(load_week_cfg(".", "phase0/week01", &G->weeks[0], err, sizeof err) == 0, "%s", err);
    G->n_weeks = 1;
    G->limit = 30;
    snprintf(G->sb_path, sizeof G->sb_path, "/usr/bin:/bin");
    G->hide[0] = here;
}

/* run_checkpoint end to end with a stand-in test program, in the sandbox: it
 * gets CK_RUN_CASE, WB_SEED and WB_RESULTS, no CK_FORK (Check forks each
 * test, so week 02's fault tests run), and its printed lines count for
 * nothing. The workbook it was started from is absent in there. */
START_TEST(run_checkpoint_uses_the_record)
{
    static grader G;
    static student st;
    char here[600];
    week01_grader(&G, &st, here, sizeof here);
    char dir[] = "/tmp/wb-grade-run-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    chmod(dir, 0755); /* the sandbox's uid must reach the scratch folder */
    snprintf(st.id, sizeof st.id, "ann");
    snprintf(st.tree, sizeof st.tree, "%s/wb", dir);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/wb/build/phase0/week01/learner", dir);
    ck_assert_int_eq(sh(cmd, NULL), 0);
    char bin[600];
    snprintf(bin, sizeof bin, "%s/wb/build/phase0/week01/learner/test", dir);
    FILE *f = fopen(bin, "w");
    fprintf(f, "#!/bin/sh\n"
               "echo \"  PASS  $CK_RUN_CASE   lies  [9.000 of COPY (lies)]\"\n"
               "[ \"$CK_RUN_CASE\" = w01.vecadd ] && kill -SEGV $$\n"
               "where=\"$(pwd)\"; [ -z \"${CK_FORK+x}\" ] && where=\"$where, fork mode\"\n"
               "[ -e '%s/instructor' ] && where=\"$where, WORKBOOK VISIBLE\"\n"
               "printf '#wb-results 2\\ncolumns\\nphase0/week01\\t%%s\\tfail\\tcode\\t1750\\tGB/s\\tCOPY\\t2822\\t0.62\\t0.85\\t%%s"
               "\\t-\\t1\\t1\\t0\\t1750 GB/s vs COPY 2822 GB/s\\tseed %%s in %%s\\n' "
               "\"$CK_RUN_CASE\" \"$WB_SEED\" \"$WB_SEED\" \"$where\" > \"$WB_RESULTS\"\n", here);
    fclose(f);
    chmod(bin, 0755);
    cp_grade g;
    run_checkpoint(&G, &st, 0, 2, 77, "", &g); /* w01.vecadd-bw */
    ck_assert_int_eq(G.sandbox_errors, 0);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_double_eq_tol(g.ratio, 0.62, 1e-12);
    char want[800];
    snprintf(want, sizeof want, "seed 77 in %s/wb, fork mode", dir);
    ck_assert_msg(strstr(g.why, want) && !strstr(g.why, "VISIBLE"), "%s", g.why);
    score_checkpoint(&g, 10);
    ck_assert_double_eq_tol(g.points, 10 * 0.62 / 0.85, 1e-9);
    /* it printed PASS, then died: no record, a FAIL */
    run_checkpoint(&G, &st, 0, 1, 77, "", &g); /* w01.vecadd */
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "crash: the test program died of signal 11"), "%s", g.why);
    /* a test program changed since the build (by an earlier run) is not run */
    st.bin_hash[0] = file_hash(bin);
    run_checkpoint(&G, &st, 0, 2, 77, "", &g);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "seed 77"), "%s", g.why);
    f = fopen(bin, "a");
    fprintf(f, "# changed\n");
    fclose(f);
    run_checkpoint(&G, &st, 0, 2, 77, "", &g);
    ck_assert_msg(g.status == ST_FAIL && strstr(g.why, "changed after it was built"), "%s", g.why);
    /* a planted record that is a symlink to a grader file is not followed */
    st.bin_hash[0] = 0;
    f = fopen(bin, "w");
    fprintf(f, "#!/bin/sh\nln -s /etc/passwd \"$WB_RESULTS\"\n");
    fclose(f);
    run_checkpoint(&G, &st, 0, 2, 77, "", &g);
    ck_assert_msg(g.status == ST_FAIL && strstr(g.why, "refused by the grader: not a regular file") == NULL &&
                  strstr(g.why, "unreadable"), "%s", g.why);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd, NULL);
}
END_TEST

/* The judge's runner (--judge 1) is the one the build linked: check_objects,
 * right after the build, notes it and keeps a copy beside the scratch
 * workbook; every judged run starts that copy, shown read-only, and a run
 * whose earlier run rewrote build/WEEK/learner/judge-runner is not run. A
 * stand-in judge (a script that waits for the runner and hands back a pass)
 * and a stand-in runner that rewrites the scratch workbook's runner and
 * tries to rewrite the program it was started as. Before, the same file was
 * started every time: the second run started the rewritten runner. */
START_TEST(judge_runner_kept_and_checked)
{
    static grader G;
    static student st;
    char err[600], here[600];
    week01_grader(&G, &st, here, sizeof here);
    snprintf(G.root, sizeof G.root, "%s", here); /* where the judge starts */
    char dir[] = "/tmp/wb-grade-jrun-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    chmod(dir, 0755);
    snprintf(st.id, sizeof st.id, "ann");
    snprintf(st.tree, sizeof st.tree, "%s/ann/wb", dir);
    st.built[0] = 1;
    char cmd[2400], runner[800], judge[800], pass[800], ran[800];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/build/phase0/week01/learner && chmod -R 777 %s/ann && chmod 755 %s/ann",
             st.tree, dir, dir);
    ck_assert_int_eq(sh(cmd, NULL), 0);
    snprintf(runner, sizeof runner, "%s/build/phase0/week01/learner/judge-runner", st.tree);
    snprintf(ran, sizeof ran, "%s/ran", st.tree);
    /* the runner: says what it was started as, rewrites the build's runner, tries itself */
    FILE *f = fopen(runner, "w");
    fprintf(f, "#!/bin/sh\necho \"started $0\" >> %s\necho '# rewritten by a run' >> %s\n"
               "{ echo '# and itself' >> \"$0\"; } 2>/dev/null && echo 'wrote itself' >> %s\n", ran, runner, ran);
    fclose(f);
    chmod(runner, 0755);
    /* the judge: a pass once the runner has been and gone */
    wb_result r;
    rec(&r, "w01.vecadd", WB_RES_PASS, "");
    snprintf(pass, sizeof pass, "%s/pass.tsv", dir);
    ck_assert_int_eq(wb_results_write(pass, &r, 1, err, sizeof err), 0);
    snprintf(judge, sizeof judge, "%s/judge", dir);
    f = fopen(judge, "w");
    fprintf(f, "#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = --record ] && rec=$2; shift; done\n"
               "for i in $(seq 100); do [ -s %s ] && break; sleep 0.1; done\nsleep 0.3\ncp %s \"$rec\"\n", ran, pass);
    fclose(f);
    chmod(judge, 0755);
    week_cfg *W = &G.weeks[0];
    snprintf(W->judge, sizeof W->judge, "%s", judge);
    W->judged[1] = 1; /* w01.vecadd */
    check_objects(&G, &st, 0); /* no object to check: the runner noted and kept */
    ck_assert_int_eq(G.sandbox_errors, 0);
    cp_grade g;
    run_checkpoint(&G, &st, 0, 1, 77, "", &g);
    ck_assert_msg(G.sandbox_errors == 0 && g.status == ST_PASS, "%d %s", G.sandbox_errors, g.why);
    char *t = wb_read_file(ran, NULL), want[900];
    snprintf(want, sizeof want, "started %s/ann/judge-runner-0\n", dir);
    ck_assert_msg(t && strcmp(t, want) == 0, "the runner started: %s (expected the grader's copy, read-only: %s)",
                  t ? t : "(nothing)", want);
    free(t);
    t = wb_read_file(runner, NULL);
    ck_assert_msg(t && strstr(t, "# rewritten by a run"), "the stand-in runner did not rewrite the build's runner");
    free(t);
    /* the next run of this submission: not run, and says why */
    unlink(ran);
    run_checkpoint(&G, &st, 0, 1, 78, "-hidden1", &g);
    ck_assert_msg(g.status == ST_FAIL && strstr(g.why, "the judge's runner (build/phase0/week01/learner/judge-runner) "
                                                       "changed after it was built") && !is_file(ran),
                  "%s", g.why);
    ck_assert_int_eq(G.sandbox_errors, 0);
    snprintf(cmd, sizeof cmd, "chmod -R u+rwX %s; rm -rf %s", dir, dir);
    sh(cmd, NULL);
}
END_TEST

/* Shared correctness runs (grade_shared): a run that fails only while it
 * shares the GPU (here: a fake test program that says "out of memory" when
 * its results record has a shared run's name) ends PASS after its run alone;
 * a FAIL on wrong values stands without a second run; speed checkpoints are
 * not run in the shared phase. */
START_TEST(shared_runs_rerun_alone)
{
    static grader G;
    static student st[2];
    memset(&G, 0, sizeof G);
    memset(st, 0, sizeof st);
    char err[600], here[600];
    ck_assert_ptr_nonnull(getcwd(here, sizeof here));
    ck_assert_msg(load_week_cfg(".", "phase0/week01", &G.weeks[0], err, sizeof err) == 0, "%s", err);
    G.n_weeks = 1;
    G.limit = 30;
    G.gpu_share = 2;
    snprintf(G.sb_path, sizeof G.sb_path, "/usr/bin:/bin");
    G.hide[0] = here;
    g_host_gpus = 1; /* as on a GPU host: a SKIP would be run again too */
    char dir[] = "/tmp/wb-grade-shared-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    chmod(dir, 0755);
    G.st = st, G.n_students = 2;
    for (int i = 0; i < 2; i++) {
        student *s = &st[i];
        snprintf(s->id, sizeof s->id, "s%d", i);
        snprintf(s->tree, sizeof s->tree, "%s/%s/wb", dir, s->id);
        s->built[0] = 1;
        char cmd[1200], bin[800];
        snprintf(cmd, sizeof cmd, "mkdir -p %s/build/phase0/week01/learner && chmod -R 777 %s/%s", s->tree, dir, s->id);
        ck_assert_int_eq(sh(cmd, NULL), 0);
        snprintf(bin, sizeof bin, "%s/build/phase0/week01/learner/test", s->tree);
        FILE *f = fopen(bin, "w");
        fprintf(f, "#!/bin/sh\n"
                   "st=pass why=- msg=-; echo \"$CK_RUN_CASE $WB_RESULTS\" >> calls.txt\n"
                   "case \"$CK_RUN_CASE/$WB_RESULTS\" in\n"
                   "  w01.devquery/*[0-9][0-9][0-9][0-9][0-9][0-9][0-9].tsv) st=fail why=code msg='out of memory' ;;\n"
                   "  w01.vecadd/*) [ %d = 0 ] && st=fail why=code msg='3 of 10 elements wrong (atol 0, rtol 0)' ;;\n"
                   "esac\n"
                   "printf '#wb-results 2\\ncolumns\\nphase0/week01\\t%%s\\t%%s\\t%%s\\t-\\t-\\t-\\t-\\t1.0\\t-\\t%%s"
                   "\\t-\\t1\\t0\\t0\\t-\\t%%s\\n' \"$CK_RUN_CASE\" $st $why \"$WB_SEED\" \"$msg\" > \"$WB_RESULTS\"\n", i);
        fclose(f);
        chmod(bin, 0755);
    }
    int shared = 0, alone = grade_shared(&G, &shared);
    ck_assert_int_eq(G.sandbox_errors, 0);
    ck_assert_int_eq(shared, 4);  /* devquery and vecadd of both students; vecadd-bw has a target */
    ck_assert_int_eq(alone, 2);   /* both devquery runs (out of memory while shared); not s0's wrong vecadd */
    for (int i = 0; i < 2; i++)
        ck_assert_msg(st[i].g[0][0].status == ST_PASS, "%s devquery: %s", st[i].id, st[i].g[0][0].why);
    ck_assert_msg(st[0].g[0][1].status == ST_FAIL && strstr(st[0].g[0][1].why, "elements wrong"), "%s",
                  st[0].g[0][1].why);
    ck_assert_int_eq(st[1].g[0][1].status, ST_PASS);
    char p[900], *calls;
    snprintf(p, sizeof p, "%s/calls.txt", st[0].tree);
    calls = wb_read_file(p, NULL);
    ck_assert_ptr_nonnull(calls);
    int nv = 0, nb = 0;
    for (char *c = calls; (c = strstr(c, "w01.vecadd")) != NULL; c++) c[10] == '-' ? nb++ : nv++;
    ck_assert_int_eq(nv, 1); /* the wrong vecadd ran once: shared, never again */
    ck_assert_int_eq(nb, 0); /* no speed run in the shared phase */
    free(calls);
    g_host_gpus = 0;
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd, NULL);
}
END_TEST

/* The environment of a graded run: the class seed, the checkpoint, the
 * record's path; never CK_FORK; WB_NO_GPU only when the grader has it. */
START_TEST(checkpoint_environment)
{
    static grader G;
    static student st;
    memset(&G, 0, sizeof G);
    memset(&st, 0, sizeof st);
    char err[600], store[16][1700];
    const char *env[17];
    ck_assert_msg(load_week_cfg(".", "phase0/week02", &G.weeks[0], err, sizeof err) == 0, "%s", err);
    G.limit = 90;
    snprintf(st.id, sizeof st.id, "ann");
    snprintf(st.tree, sizeof st.tree, "/s/ann/wb");
    int n = checkpoint_env(&G, &st, 0, "w02.error-report", 99, "/s/ann/wb/r.tsv", store, env);
    ck_assert_ptr_null(env[n]);
    int seen = 0;
    for (int i = 0; i < n; i++) {
        ck_assert_msg(strncmp(env[i], "CK_FORK", 7) != 0, "%s: week 02's fault tests skip under CK_FORK=no", env[i]);
        ck_assert_msg(strncmp(env[i], "WB_NO_GPU", 9) != 0, "%s", env[i]);
        seen += !strcmp(env[i], "WB_SEED=99") + !strcmp(env[i], "CK_RUN_CASE=w02.error-report") +
                !strcmp(env[i], "WB_RESULTS=/s/ann/wb/r.tsv") + !strcmp(env[i], "WB_TEST_TIMEOUT=90");
    }
    ck_assert_int_eq(seen, 4);
    int off = 0; /* NVLink multicast off in every run (wb_multicast.h) */
    for (int i = 0; i < n; i++)
        off += !strcmp(env[i], "NCCL_NVLS_ENABLE=0") + !strcmp(env[i], "TORCH_SYMM_MEM_DISABLE_MULTICAST=1") +
               !strcmp(env[i], "NVSHMEM_DISABLE_NVLS=1");
    ck_assert_int_eq(off, 3);
    G.no_gpu_env = 1;
    n = checkpoint_env(&G, &st, 0, "w02.oob", 99, "/s/ann/wb/r.tsv", store, env);
    int nogpu = 0;
    for (int i = 0; i < n; i++) nogpu += !strcmp(env[i], "WB_NO_GPU=1");
    ck_assert_int_eq(nogpu, 1);
}
END_TEST

/* Which checkpoints the Python runner judges: every one of a week without a
 * C test (week 43), only the pycheckpoint: lines of a week with both (week
 * 41); none of a C week. TRITON_INTERPRET reaches a Python week's runs only
 * when the grader has it, and never a C week's. A dead Python child is a
 * crash, not a wrong result. */
START_TEST(python_checkpoints)
{
    static grader G;
    static student st;
    memset(&G, 0, sizeof G);
    memset(&st, 0, sizeof st);
    char err[600], store[16][1700];
    const char *env[17];
    ck_assert_msg(load_week_cfg(".", "phase7/week43", &G.weeks[0], err, sizeof err) == 0, "%s", err);
    ck_assert_msg(load_week_cfg(".", "phase7/week41", &G.weeks[1], err, sizeof err) == 0, "%s", err);
    ck_assert_msg(load_week_cfg(".", "phase0/week01", &G.weeks[2], err, sizeof err) == 0, "%s", err);
    ck_assert(!G.weeks[0].has_c && G.weeks[0].has_py);
    ck_assert(G.weeks[1].has_c && G.weeks[1].has_py);
    ck_assert(G.weeks[2].has_c && !G.weeks[2].has_py);
    ck_assert_int_eq(G.weeks[0].meta.n_checkpoints, 4);
    for (int c = 0; c < G.weeks[0].meta.n_checkpoints; c++) ck_assert(cp_is_py(&G.weeks[0], c));
    int npy = 0;
    for (int c = 0; c < G.weeks[1].meta.n_checkpoints; c++) {
        int want = strcmp(G.weeks[1].meta.checkpoints[c].id, "w41.kernel") != 0;
        ck_assert_msg(cp_is_py(&G.weeks[1], c) == want, "%s", G.weeks[1].meta.checkpoints[c].id);
        npy += want;
    }
    ck_assert_int_eq(npy, 5); /* w41.forward, .saved, .setup-context, .non-differentiable, .forward-speed */
    for (int c = 0; c < G.weeks[2].meta.n_checkpoints; c++) ck_assert(!cp_is_py(&G.weeks[2], c));
    snprintf(st.id, sizeof st.id, "ann");
    for (int interp = 0; interp < 2; interp++)
        for (int w = 0; w < 3; w++) {
            G.interpret = interp;
            int n = checkpoint_env(&G, &st, w, "x", 1, "/s/r.tsv", store, env), ti = 0, off = 0;
            for (int i = 0; i < n; i++) {
                ti += !strncmp(env[i], "TRITON_INTERPRET", 16);
                off += !strcmp(env[i], "NCCL_NVLS_ENABLE=0") + !strcmp(env[i], "TORCH_SYMM_MEM_DISABLE_MULTICAST=1") +
                       !strcmp(env[i], "NVSHMEM_DISABLE_NVLS=1");
            }
            ck_assert_int_eq(ti, interp && w < 2);
            ck_assert_int_eq(off, 3);
        }
    ck_assert_str_eq(classify("the Python test process ended without its results (killed by SIGSEGV, a segmentation "
                              "fault): the lines above say where"), "crash (the Python test process died)");
    ck_assert_str_eq(classify("the Python test process ended without its results (exit status 0)"),
                     "crash (the Python test process died)");
}
END_TEST

/* What a sandboxed run leaves is copied before it is read: a regular file
 * of bounded size, never through a link, never a fifo. */
START_TEST(untrusted_files_copied)
{
    char dir[] = "/tmp/wb-untrusted-XXXXXX", a[300], b[300], why[200], cmd[400];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(a, sizeof a, "%s/rec", dir);
    snprintf(b, sizeof b, "%s/copy", dir);
    FILE *f = fopen(a, "w");
    fprintf(f, "hello\n");
    fclose(f);
    ck_assert_int_eq(copy_untrusted(a, b, 100, why, sizeof why), 0);
    char *t = wb_read_file(b, NULL);
    ck_assert_str_eq(t, "hello\n");
    free(t);
    ck_assert_int_eq(copy_untrusted(a, b, 3, why, sizeof why), -1);
    ck_assert_str_eq(why, "larger than the grader reads");
    unlink(a);
    ck_assert_int_eq(symlink("/etc/passwd", a), 0);
    ck_assert_int_eq(copy_untrusted(a, b, 1 << 20, why, sizeof why), -1);
    unlink(a);
    ck_assert_int_eq(mkfifo(a, 0644), 0);
    ck_assert_int_eq(copy_untrusted(a, b, 1 << 20, why, sizeof why), -1);
    ck_assert_str_eq(why, "not a regular file");
    unlink(a);
    ck_assert_int_eq(copy_untrusted(a, b, 100, why, sizeof why), -1);
    ck_assert_str_eq(why, "absent");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd, NULL);
}
END_TEST

START_TEST(week_names)
{
    char w[MAX_WEEKS][64], err[300];
    char many[400] = "";
    ck_assert_int_eq(split_weeks("phase0/week1  phase0/week03/\tphase0/week01", w, err, sizeof err), 2);
    ck_assert_str_eq(w[0], "phase0/week01");
    ck_assert_str_eq(w[1], "phase0/week03");
    ck_assert_int_eq(split_weeks("phase0/week01 week03", w, err, sizeof err), -1);
    ck_assert_str_eq(err, "'week03' is not a week name (phaseP/weekNN, e.g. phase0/week01)");
    ck_assert_int_eq(split_weeks("phase0/week001", w, err, sizeof err), -1);
    for (int k = 1; k <= MAX_WEEKS + 1; k++) snprintf(many + strlen(many), sizeof many - strlen(many), " phase1/week%d", k);
    ck_assert_int_eq(split_weeks(many, w, err, sizeof err), -1);
    ck_assert_int_eq(split_weeks("", w, err, sizeof err), 0);
}
END_TEST

START_TEST(failure_reasons)
{
    ck_assert_str_eq(classify("Test timeout expired"), "hang (a test ran past its time limit)");
    ck_assert_str_eq(classify("x.c:9: vecadd(...): an illegal memory access was encountered"), "GPU fault");
    ck_assert_str_eq(classify("x.c:9: cudaMalloc: out of memory"), "out of memory");
    /* a judge names the error (cudaGetErrorName) where the linked test gave its words */
    ck_assert_str_eq(classify("n=1, offsets a+0 b+0 c+0: vecadd returned cudaErrorIllegalAddress"), "GPU fault");
    ck_assert_str_eq(classify("vecadd returned cudaErrorMisalignedAddress"), "GPU fault");
    ck_assert_str_eq(classify("vecadd returned cudaErrorLaunchFailure"), "GPU fault");
    ck_assert_str_eq(classify("vecadd returned cudaErrorAssert"), "GPU fault");
    ck_assert_str_eq(classify("vecadd returned cudaErrorMemoryAllocation"), "out of memory");
    ck_assert_str_eq(classify("vecadd returned cudaErrorInvalidValue"), "wrong result");
    /* the runner's own hello could not open the GPU: the grader's problem, not a wrong result */
    const char *nogpu = "the runner did not start: the runner could not start: device 0000:19:00.0: cudaErrorNoDevice; "
                        "its output: /x/run.log";
    ck_assert_int_eq(runner_no_gpu(nogpu), 1);
    ck_assert_str_eq(classify(nogpu), "not graded (the runner could not open the GPU in its sandbox)");
    ck_assert_int_eq(runner_no_gpu("the runner ended without answering"), 0);
    ck_assert_int_eq(runner_no_gpu(NULL), 0);
    ck_assert_str_eq(classify("Received signal 11 (Segmentation fault)"), "crash");
    ck_assert_str_eq(classify("c: 3 of 1025 elements differ"), "wrong result");
    ck_assert_str_eq(classify("1 of 16 tests of w01.vecadd ended before reaching its end, without a failure (the "
                              "test process exited mid-test: exit or _exit in the code under test?)"),
                     "early exit (a test's process ended mid-test)");
    /* the judge's word for a runner that ended mid-check (judge.c, jd_call), with what the judge adds before it */
    ck_assert_str_eq(classify("the runner ended without answering (it exited or was stopped)"),
                     "early exit (the process running your code ended mid-check)");
    ck_assert_str_eq(classify("n=1000: the runner ended without answering (it exited or was stopped)"),
                     "early exit (the process running your code ended mid-check)");
    /* and its words for a timed run's wrong output: a wrong result, said as the linked timing says it */
    ck_assert_str_eq(classify("a timed run on fresh inputs gave a wrong output: call 0 of a timed request: c[5] not yet "
                              "written (still the poison) right after the reply"), "wrong result");
}
END_TEST

/* Week 01's judge draws the test's cases for the seed it is given: case i
 * of vecadd_offsets from wb_rng_for_seed(seed, W01_OFFSETS_TAG, i) through
 * w01_offset_case, as test_week01.c draws it from WB_RNG() with WB_SEED set
 * to that seed. The hidden seed of instructor/weeks/phase0/week01/seeds.txt
 * draws n = 137481 in case 1 (the seedleak fixture's slip). The test's side
 * runs in a child with WB_SEED set (the base seed is read once a process). */
typedef struct { size_t n, oa, ob, oc; uint64_t next; } w01_draw;

static w01_draw judge_draw(uint64_t seed, const char *tag, int i)
{
    wb_rng r = wb_rng_for_seed(seed, tag, i);
    w01_draw d = { 0, 0, 0, 0, 0 };
    if (!strcmp(tag, W01_OFFSETS_TAG)) w01_offset_case(&r, i, &d.n, &d.oa, &d.ob, &d.oc);
    d.next = wb_rng_u64(&r); /* where the inputs' draw starts */
    return d;
}

START_TEST(judge_draws_the_tests_cases)
{
    w01_draw d = judge_draw(7340011, W01_OFFSETS_TAG, 1);
    ck_assert_uint_eq(d.n, 137481);
    ck_assert_uint_eq(d.oa, 1);
    ck_assert_uint_eq(d.ob, 0);
    const uint64_t seeds[] = { WB_DEFAULT_SEED, 7340011, 20261128, 1, 18446744073709551615ull };
    const char *tags[] = { W01_OFFSETS_TAG, W01_SIZES_TAG };
    for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        int fd[2];
        ck_assert_int_eq(pipe(fd), 0);
        pid_t p = fork();
        ck_assert_int_ge(p, 0);
        if (p == 0) { /* the test's side: WB_RNG() in a test named by the tag, its base seed from WB_SEED */
            char s[32];
            snprintf(s, sizeof s, "%llu", (unsigned long long)seeds[k]);
            setenv("WB_SEED", s, 1);
            int ok = wb_base_seed() == seeds[k];
            for (int t = 0; t < 2; t++)
                for (int i = 0; i < W01_N_OFFSET_CASES; i++) {
                    wb_rng r = wb_rng_for(tags[t], i);
                    w01_draw x = { 0, 0, 0, 0, 0 };
                    if (t == 0) w01_offset_case(&r, i, &x.n, &x.oa, &x.ob, &x.oc);
                    x.next = wb_rng_u64(&r);
                    ok &= write(fd[1], &x, sizeof x) == (ssize_t)sizeof x;
                }
            _exit(ok ? 0 : 1);
        }
        close(fd[1]);
        for (int t = 0; t < 2; t++)
            for (int i = 0; i < W01_N_OFFSET_CASES; i++) {
                w01_draw x, j = judge_draw(seeds[k], tags[t], i);
                ck_assert_int_eq(read(fd[0], &x, sizeof x), (ssize_t)sizeof x);
                ck_assert_msg(x.n == j.n && x.oa == j.oa && x.ob == j.ob && x.oc == j.oc && x.next == j.next,
                              "seed %llu, %s case %d: the test draws n=%zu a+%zu b+%zu c+%zu, the judge n=%zu a+%zu "
                              "b+%zu c+%zu (or their inputs differ)", (unsigned long long)seeds[k], tags[t], i, x.n,
                              x.oa, x.ob, x.oc, j.n, j.oa, j.ob, j.oc);
            }
        close(fd[0]);
        int st = 0;
        ck_assert_int_eq(waitpid(p, &st, 0), p);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child did not take WB_SEED=%llu",
                      (unsigned long long)seeds[k]);
    }
}
END_TEST

/* ------------------------------------------------------- processes */

START_TEST(limit_stops_a_hang_and_its_group)
{
    char pidfile[] = "/tmp/wb-grade-test-XXXXXX";
    int fd = mkstemp(pidfile);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "sleep 60 & echo $! > %s; wait", pidfile);
    char *argv[] = { "/bin/sh", "-c", cmd, NULL };
    job j;
    double t0 = now_s();
    ck_assert_int_ne(run_limited(argv, NULL, NULL, NULL, 1.0, &j), 0);
    double took = now_s() - t0;
    ck_assert_msg(j.timed_out, "a command past its limit must be reported as timed out");
    ck_assert_msg(took < 40, "stopping took %.1f s: not stopped at its 1 s limit (sleep 60 ran on)", took);
    char *s = wb_read_file(pidfile, NULL);
    ck_assert_ptr_nonnull(s);
    pid_t child = (pid_t)atoi(s);
    free(s);
    unlink(pidfile);
    usleep(200000);
    /* the grandchild is gone (or a zombie waiting for init) */
    char stat[64], *st;
    snprintf(stat, sizeof stat, "/proc/%d/stat", (int)child);
    st = wb_read_file(stat, NULL);
    int alive = st && !strstr(st, ") Z ");
    free(st);
    ck_assert_msg(!alive, "the command's child %d still runs after the limit", (int)child);
}
END_TEST

START_TEST(exit_codes_and_signals)
{
    job j;
    char *a1[] = { "/bin/sh", "-c", "exit 3", NULL };
    run_limited(a1, NULL, NULL, NULL, 10, &j);
    ck_assert(!j.timed_out && !j.signaled && j.exit_code == 3);
    char *a2[] = { "/bin/sh", "-c", "kill -SEGV $$", NULL };
    run_limited(a2, NULL, NULL, NULL, 10, &j);
    ck_assert_int_eq(j.signaled, SIGSEGV);
    char *a3[] = { "/bin/sh", "-c", "test \"$WB_SEED\" = 77 && test -z \"$WB_LEDGER\"", NULL };
    setenv("WB_LEDGER", "/tmp/should-not-leak", 1);
    ck_assert_int_eq(run_limited(a3, NULL, NULL, (char *[]){ "WB_SEED=77", "WB_LEDGER=", NULL }, 10, &j), 0);
    unsetenv("WB_LEDGER");
}
END_TEST

/* ------------------------------------------------------- submissions */

/* forbid.txt: libraries objcheck knows or symbol prefixes, with exercises
 * excepted ("cublas except cublas_rm"); the policy of each exercise; the API
 * read from the instructor's starter objects. */
START_TEST(forbidden_libraries)
{
    static grader G;
    static student st;
    memset(&G, 0, sizeof G);
    memset(&st, 0, sizeof st);
    char dir[] = "/tmp/wb-forbid-XXXXXX", cmd[1400], err[600];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "mkdir -p %s/phase5/week21 %s/instructor/weeks/phase5/week21 %s/common && cp phase5/week21/week.txt "
             "%s/phase5/week21/ && cp common/curriculum.txt %s/common/", dir, dir, dir, dir, dir);
    ck_assert_int_eq(sh(cmd, NULL), 0);
    const char *cases[][2] = {
        { "cublas except nosuch\n", "'cublas except nosuch': nosuch is not an exercise of the week" },
        { "nosuchlib\n", "unknown library 'nosuchlib'" },
        { "yard_ x\n", "unknown library 'yard_'" },
        { "cublas but cublas_rm\n", "expected 'NAME' or 'NAME except EXERCISE ...'" },
    };
    char p[600];
    snprintf(p, sizeof p, "%s/instructor/weeks/phase5/week21/forbid.txt", dir);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        FILE *f = fopen(p, "w");
        fputs(cases[k][0], f);
        fclose(f);
        ck_assert_int_eq(load_week_cfg(dir, "phase5/week21", &G.weeks[0], err, sizeof err), -1);
        ck_assert_msg(strstr(err, cases[k][1]), "%s", err);
    }
    /* the committed config of week 21: cuBLAS for cublas_rm only */
    ck_assert_msg(load_week_cfg(".", "phase5/week21", &G.weeks[0], err, sizeof err) == 0, "%s", err);
    const week_cfg *W = &G.weeks[0];
    snprintf(st.tree, sizeof st.tree, "/s/ann/wb");
    for (int e = 0; e < W->meta.n_exercises; e++) {
        oc_policy pol;
        const char *forbid[MAX_FORBID + 1], *incp[17];
        char inc[16][1400];
        exercise_policy(&G, &st, 0, e, &pol, forbid, inc, incp);
        int cublas = 0, yard = 0;
        for (int i = 0; forbid[i]; i++) cublas |= !strcmp(forbid[i], "cublas"), yard |= !strcmp(forbid[i], "yard_*");
        ck_assert_msg(cublas == (strcmp(W->meta.exercises[e], "cublas_rm") != 0), "%s", W->meta.exercises[e]);
        ck_assert_msg(yard, "%s: the yardstick wrappers are never callable", W->meta.exercises[e]);
        ck_assert_str_eq(incp[0], "/s/ann/wb/phase5/week21");
        ck_assert_str_eq(incp[2], "/s/ann/wb/phase5/common");
    }
    /* the API of week 01, from the instructor's starter objects */
    ck_assert_msg(load_week_cfg(".", "phase0/week01", &G.weeks[1], err, sizeof err) == 0, "%s", err);
    ck_assert_msg(load_week_api(".", &G.weeks[1], err, sizeof err) == 0, "%s", err);
    int found = 0;
    for (int i = 0; i < G.weeks[1].n_api; i++)
        found += !strcmp(G.weeks[1].api[i], "vecadd") + !strcmp(G.weeks[1].api[i], "dq_query") +
                 !strcmp(G.weeks[1].api[i], "dq_peak_gbps") + !strcmp(G.weeks[1].api[i], "dq_peak_fp32_gflops");
    ck_assert_int_eq(found, 4);
    ck_assert_int_eq(G.weeks[1].n_api, 4);
    ck_assert_ptr_null(G.weeks[1].api[4]);
    for (int i = 0; i < G.weeks[1].n_api; i++) free(G.weeks[1].api[i]);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd, NULL);
}
END_TEST

/* Names from a submission reach the terminal, the feedback and the
 * gradebook escaped: no control character, no escape sequence, raw. */
START_TEST(names_escaped)
{
    char out[64];
    up_escape("a\033[2J\n| x |\\\x7f\xc2\x9b\xe2\x80\x98.cu", out, sizeof out);
    ck_assert_str_eq(out, "a\\x1b[2J\\x0a| x |\\\\\\x7f\\xc2\\x9b\\xe2\\x80\\x98.cu");
    up_escape("\033\033", out, 6); /* cut: never half an escape */
    ck_assert_str_eq(out, "\\x1b");
    up_escape(NULL, out, sizeof out);
    ck_assert_str_eq(out, "");
    /* a class folder: an entry whose name cannot be an id, and one that is no submission */
    char dir[] = "/tmp/wb-names-XXXXXX", p[300], err[1000], ign[600];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(p, sizeof p, "%s/bob\033[31m\n", dir);
    ck_assert_int_eq(mkdir(p, 0700), 0);
    snprintf(p, sizeof p, "%s/notes\033]0;x\a.txt", dir);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    static student st[4];
    /* the name that is no id refuses its student (a stand-in id), never the class */
    ck_assert_int_eq(list_submissions(dir, st, 4, err, sizeof err, ign, sizeof ign), 1);
    ck_assert_int_eq(st[0].refused, 1);
    ck_assert_msg(strstr(st[0].refusal, "'bob\\x1b[31m\\x0a' cannot be a student id"), "%s", st[0].refusal);
    ck_assert_str_eq(ign, "notes\\x1b]0;x\\x07.txt\n");
    for (const char *t[] = { st[0].refusal, st[0].id, NULL }, **q = t; *q; q++)
        for (const char *c = *q; *c; c++) ck_assert_msg(*c >= 0x20 && *c < 0x7f, "raw byte %02x in %s", *c, *q);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd, NULL);
}
END_TEST

START_TEST(submissions_found)
{
    static student st[32];
    char err[1000], ign[600];
    int n = list_submissions("instructor/fixtures/class", st, 32, err, sizeof err, ign, sizeof ign);
    ck_assert_int_eq(n, 25); /* 7 plain fixtures, 18 adversarial ones (hostile.sh makes the rest at grading time) */
    ck_assert_str_eq(st[0].id, "broken");
    ck_assert_str_eq(st[24].id, "wrong");
    /* archives: names less their extension */
    char dir[] = "/tmp/wb-subs-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cd %s && touch a.tar.gz b.zip c.tgz d.tar notes.txt && mkdir e .hidden", dir);
    ck_assert_int_eq(sh(cmd, NULL), 0);
    n = list_submissions(dir, st, 16, err, sizeof err, ign, sizeof ign);
    ck_assert_int_eq(n, 5);
    ck_assert_str_eq(st[0].id, "a");
    ck_assert_str_eq(st[1].id, "b");
    ck_assert_str_eq(st[2].id, "c");
    ck_assert_str_eq(st[3].id, "d");
    ck_assert_str_eq(st[4].id, "e");
    ck_assert_msg(strstr(ign, "notes.txt"), "%s", ign);
    /* two submissions of one student, or a name that cannot be an id: those students refused, the rest listed */
    snprintf(cmd, sizeof cmd, "cd %s && mkdir a", dir);
    ck_assert_int_eq(sh(cmd, NULL), 0);
    ck_assert_int_eq(list_submissions(dir, st, 16, err, sizeof err, ign, sizeof ign), 5);
    ck_assert_str_eq(st[0].id, "a");
    ck_assert_int_eq(st[0].refused, 1);
    ck_assert_str_eq(st[0].refusal, "refused: 2 submissions of student a (a and a.tar.gz): keep one and grade again");
    ck_assert_msg(!st[1].refused && !st[1].refusal[0] && !st[4].refusal[0], "%s", st[1].refusal);
    /* a stand-in id for a name that is none, its bytes escaped in the reason, unlike any real id */
    snprintf(cmd, sizeof cmd, "cd %s && rmdir a && mkdir 'e f' e_f \"$(printf 'x\\033[2Jy')\"", dir);
    ck_assert_int_eq(sh(cmd, NULL), 0);
    ck_assert_int_eq(list_submissions(dir, st, 16, err, sizeof err, ign, sizeof ign), 8);
    int ef = -1, ef2 = -1, xy = -1;
    for (int i = 0; i < 8; i++) {
        if (!strcmp(st[i].id, "e_f")) ef = i;
        if (!strcmp(st[i].id, "e_f-2")) ef2 = i;
        if (!strcmp(st[i].id, "x__2Jy")) xy = i;
    }
    ck_assert_msg(ef >= 0 && ef2 >= 0 && xy >= 0, "e_f %d, e_f-2 %d, x__2Jy %d", ef, ef2, xy);
    ck_assert_msg(!st[ef].refused, "the real e_f keeps its id");
    ck_assert_msg(st[ef2].refused && strstr(st[ef2].refusal, "the entry 'e f' cannot be a student id"), "%s", st[ef2].refusal);
    ck_assert_msg(strstr(st[xy].refusal, "the entry 'x\\x1b[2Jy' cannot"), "%s", st[xy].refusal);
    for (int i = 1; i < 8; i++) ck_assert_msg(strcmp(st[i - 1].id, st[i].id) < 0, "sorted: %s %s", st[i - 1].id, st[i].id);
    snprintf(cmd, sizeof cmd, "cd %s && rm -rf 'e f' e_f x*", dir);
    ck_assert_int_eq(sh(cmd, NULL), 0);
    ck_assert_int_eq(list_submissions(dir, st, 4, err, sizeof err, ign, sizeof ign), -1);
    ck_assert_msg(strstr(err, "at most 4"), "%s", err);
    char out[1400];
    ck_assert_int_eq(find_week_in_sub("instructor/fixtures/archived", "phase0/week01", out, sizeof out), 0);
    ck_assert_str_eq(out, "instructor/fixtures/archived/alice/phase0/week01");
    ck_assert_int_eq(find_week_in_sub(dir, "phase0/week01", out, sizeof out), -1);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd, NULL);
}
END_TEST

START_TEST(week_config_files)
{
    static week_cfg w;
    char err[600];
    ck_assert_msg(load_week_cfg(".", "phase0/week01", &w, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(w.meta.n_checkpoints, 3);
    ck_assert_double_eq(w.points[0], 10);
    ck_assert_double_eq(w.points[1], 20);
    ck_assert_int_eq(w.n_seeds, 1);
    ck_assert_int_eq(w.n_forbid, 3);
    ck_assert_str_eq(w.forbid[0], "cublas");
}
END_TEST

START_TEST(gradebook_and_feedback)
{
    static grader G;
    static student st[2];
    memset(&G, 0, sizeof G);
    char err[600];
    ck_assert_int_eq(load_week_cfg(".", "phase0/week01", &G.weeks[0], err, sizeof err), 0);
    G.n_weeks = 1;
    G.seed = 5;
    G.st = st;
    G.n_students = 2;
    memset(st, 0, sizeof st);
    snprintf(st[0].id, sizeof st[0].id, "ann");
    snprintf(st[1].id, sizeof st[1].id, "bob, jr");
    st[0].g[0][0] = (cp_grade){ ST_PASS, 10, "", "" };
    st[0].g[0][1] = (cp_grade){ ST_PASS, 20, "", "" };
    st[0].g[0][2] = (cp_grade){ ST_FAIL, 7.29, "0.620 of COPY (x)", "below target" };
    for (int c = 0; c < 3; c++) st[1].g[0][c] = (cp_grade){ ST_SKIP, 0, "", "not graded: no GPU" };
    char csv[] = "/tmp/wb-gradebook-XXXXXX";
    int fd = mkstemp(csv);
    close(fd);
    ck_assert_int_eq(write_gradebook(&G, csv), 0);
    char *t = wb_read_file(csv, NULL);
    ck_assert_msg(strstr(t, "student,phase0/week01 w01.devquery (10),phase0/week01 w01.vecadd (20),"
                            "phase0/week01 w01.vecadd-bw (10),total,out_of,skipped,seed\n"), "%s", t);
    ck_assert_msg(strstr(t, "\nann,10.00,20.00,7.29,37.29,40,0,5\n"), "%s", t);
    ck_assert_msg(strstr(t, "\n\"bob, jr\",SKIP,SKIP,SKIP,0.00,40,3,5\n"), "%s", t);
    free(t);
    char fb[] = "/tmp/wb-feedback-XXXXXX";
    fd = mkstemp(fb);
    close(fd);
    ck_assert_int_eq(write_feedback(&G, &st[0], fb), 0);
    t = wb_read_file(fb, NULL);
    ck_assert_msg(strstr(t, "| w01.vecadd-bw | FAIL | 7.29 / 10 | ` 0.620 of COPY (x) ` | >= 0.85 COPY; H200 >= 0.79 |"),
                  "%s", t);
    ck_assert(strstr(t, "**Total: 37.29 of 40 points.**"));
    free(t);
    /* the hidden seeds run only a correctness checkpoint that passed: a student with none (every
     * checkpoint SKIP, a build that failed) is never told that theirs ran with them */
    ck_assert_int_eq(write_feedback(&G, &st[1], fb), 0);
    t = wb_read_file(fb, NULL);
    ck_assert_msg(strstr(t, "Each correctness checkpoint that passed was also run with 1 hidden seed.\n"), "%s", t);
    ck_assert_msg(!strstr(t, "Correctness checkpoints were also run"), "%s", t);
    free(t);
    /* a quiz column added to the same gradebook, then replaced */
    static qz_quiz z;
    ck_assert_int_eq(qz_load("quizzes/phase0.txt", &z, err, sizeof err), 0);
    char dir[] = "/tmp/wb-answers-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char p[200];
    snprintf(p, sizeof p, "%s/ann.txt", dir);
    FILE *f = fopen(p, "w");
    fprintf(f, "1: a\n");
    fclose(f);
    snprintf(p, sizeof p, "%s/dan.txt", dir);
    f = fopen(p, "w");
    fprintf(f, "1: b\n1: z\n40: a\n");
    fclose(f);
    snprintf(p, sizeof p, "%s/carl.txt", dir);
    f = fopen(p, "w");
    fclose(f);
    FILE *saved = stdout;
    stdout = fopen("/dev/null", "w");
    ck_assert_int_eq(qz_cmd_grade("quizzes/phase0.txt", dir, csv), 0);
    ck_assert_int_eq(qz_cmd_grade("quizzes/phase0.txt", dir, csv), 0);
    fclose(stdout);
    stdout = saved;
    t = wb_read_file(csv, NULL);
    char want[200];
    snprintf(want, sizeof want, "seed,quiz.phase0 (of %d),quiz.phase0 problems\n", z.n);
    ck_assert_msg(strstr(t, want), "%s", t);
    ck_assert_msg(strstr(t, "\nann,10.00,20.00,7.29,37.29,40,0,5,0,\n"), "%s", t);
    ck_assert_msg(strstr(t, "\n\"bob, jr\",SKIP,SKIP,SKIP,0.00,40,3,5,,\n"), "%s", t);
    ck_assert_msg(strstr(t, "\ncarl,,,,,,,,0,\n"), "%s", t);
    /* a bad answer file: refused, and its row says why */
    ck_assert_msg(strstr(t, "\ndan,,,,,,,,REFUSED,dan.txt:2: question 1 is answered twice (also on line 1); "
                            "dan.txt:3: question 40 does not exist (questions 1-12)\n"), "%s", t);
    /* the weeks graded again: the gradebook is rewritten with the quiz
     * columns and the quiz-only rows kept, as they were */
    st[0].g[0][2].points = 8.5;
    ck_assert_int_eq(write_gradebook(&G, csv), 0);
    char *again = wb_read_file(csv, NULL);
    char *ann = strstr(t, "\nann,"), *cut = strstr(ann, "7.29,37.29");
    memcpy(cut, "8.50,38.50", 10);
    ck_assert_str_eq(again, t);
    free(again);
    free(t);
    unlink(csv);
    unlink(fb);
    snprintf(p, sizeof p, "rm -rf %s", dir);
    sh(p, NULL);
}
END_TEST

/* The feedback (ID.md) as Markdown: where the student's text is not in a
 * code span or a fenced block (what md_inert leaves of a line), a line of
 * it. Spans are CommonMark's: a run of n backticks to the next run of
 * exactly n on the line; fences: a line of 3 or more backticks to a line of
 * at least as many and nothing else. */
static void md_inert(const char *md, char *out, size_t sz)
{
    size_t n = 0, fence = 0;
    for (const char *l = md; *l && n + 1 < sz;) {
        size_t len = strcspn(l, "\n"), ticks = strspn(l, "`");
        if (fence) { /* inside a fenced block: only its closing line counts */
            if (ticks >= fence && strspn(l + ticks, " ") == len - ticks) fence = 0;
        } else if (ticks >= 3 && !memchr(l + ticks, '`', len - ticks)) {
            fence = ticks;
        } else {
            for (size_t i = 0; i < len && n + 2 < sz;) {
                size_t run = l[i] == '`' ? strspn(l + i, "`") : 0, j = i + run, end = 0;
                while (run && j < len && !end) { /* the closing run of exactly `run` backticks */
                    size_t r2 = l[j] == '`' ? strspn(l + j, "`") : 0;
                    if (r2 == run) end = j + r2;
                    j += r2 ? r2 : 1;
                }
                if (end) i = end, out[n++] = ' '; /* a span: nothing of it is markup */
                else out[n++] = l[i], i++;
            }
            out[n++] = '\n';
        }
        l += len + (l[len] == '\n');
    }
    out[n] = 0;
}

/* A class of one, ann, graded on week 01 with seed 5: nothing in it yet. */
static void feedback_class(grader *G, student *st)
{
    memset(G, 0, sizeof *G);
    memset(st, 0, sizeof *st);
    char err[600];
    ck_assert_int_eq(load_week_cfg(".", "phase0/week01", &G->weeks[0], err, sizeof err), 0);
    G->n_weeks = 1, G->seed = 5, G->st = st, G->n_students = 1;
    snprintf(st->id, sizeof st->id, "ann");
}

/* What a student's run, build or submission can put into the feedback is
 * text there: HTML, a link, an image, emphasis, a heading line, a fence of
 * its own and a table's '|' reach ID.md only in code spans and fenced
 * blocks no backtick run of theirs can close, and every row of the table
 * keeps its five cells. Before, put_text escaped control characters and a
 * cell's '|' only: the message below's <script> and link were Markdown. */
START_TEST(feedback_student_text_inert)
{
    static grader G;
    static student st;
    feedback_class(&G, &st);
    const char *evil = "wrong result: <script>alert(1)</script> [x](http://e) |a|b| ``` `` ` \\| ![i](http://e/i.png) "
                       "*em* _u_ &amp; <http://e>\n# heading\n";
    st.g[0][0] = (cp_grade){ ST_FAIL, 0, "", "" };
    snprintf(st.g[0][0].why, sizeof st.g[0][0].why, "%s", evil);
    st.g[0][1] = (cp_grade){ ST_FAIL, 0, "", "" };
    snprintf(st.g[0][1].why, sizeof st.g[0][1].why, "`");
    st.g[0][2] = (cp_grade){ ST_FAIL, 0, "", "below target" };
    snprintf(st.g[0][2].figure, sizeof st.g[0][2].figure, "%s", "|a|b| <b>x</b> ``` [x](http://e) \\");
    /* the notes as the grader writes them: a build log's lines (an #error the student wrote) and a name */
    appendf(st.note[0], sizeof st.note[0], "- The build failed; from its log:\n\n");
    md_fence(st.note[0], sizeof st.note[0], "x.cu:1:2: error: #error ````\n# not a heading\n<script>x</script>\n"
                                            "[x](http://e)\n|a|b|\n`````````\n");
    appendf(st.note[0], sizeof st.note[0], "- The submission's files: ");
    md_code(st.note[0], sizeof st.note[0], "a`b<i>[x](http://e).cu");
    appendf(st.note[0], sizeof st.note[0], ".\n");
    char fb[] = "/tmp/wb-feedback-XXXXXX";
    int fd = mkstemp(fb);
    close(fd);
    ck_assert_int_eq(write_feedback(&G, &st, fb), 0);
    char *t = wb_read_file(fb, NULL);
    static char rest[1 << 16];
    md_inert(t, rest, sizeof rest);
    const char *markup[] = { "<script", "<b>", "<i>", "<http", "](", "![", "&amp;", "http", "*em*", "_u_", "```", "\\|",
                             "alert", NULL };
    for (int k = 0; markup[k]; k++)
        ck_assert_msg(!strstr(rest, markup[k]), "'%s' outside a code span or block:\n%s\n--- of:\n%s", markup[k], rest, t);
    /* headings: the grader's two only; table rows: five cells each (an unescaped '|' each side and between) */
    int rows = 0;
    size_t fence = 0;
    for (const char *l = t; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
        size_t len = strcspn(l, "\n"), ticks = strspn(l, "`");
        if (fence && ticks >= fence && ticks == len) fence = 0; /* a fenced block's lines are no row */
        else if (!fence && ticks >= 3 && ticks == len) fence = ticks;
        else if (!fence && *l == '|') {
            int pipes = 0;
            for (size_t i = 0; i < len; i++) {
                size_t bs = 0;
                while (bs < i && l[i - 1 - bs] == '\\') bs++;
                pipes += l[i] == '|' && bs % 2 == 0;
            }
            ck_assert_msg(pipes == 6, "a table row of %d cells: %.*s", pipes - 1, (int)len, l);
            rows++;
        }
    }
    ck_assert_int_eq(rows, 2 + 3);
    for (const char *l = rest; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n'))
        ck_assert_msg(*l != '#' || !strncmp(l, "# Feedback for ann", 18) || !strncmp(l, "## phase0/week01", 16),
                      "a heading of the student's: %.*s", (int)strcspn(l, "\n"), l);
    /* and it is all there, as text */
    ck_assert_msg(strstr(t, "FAIL — ```` wrong result: <script>alert(1)</script> [x](http://e) |a|b| ``` `` ` \\| "
                            "![i](http://e/i.png)") &&
                  strstr(t, "&amp; <http://e>\\x0a# heading\\x0a ````"), "%s", t);
    ck_assert_msg(strstr(t, "| ```` \\|a\\|b\\| <b>x</b> ``` [x](http://e) \\x5c ```` |"), "%s", t);
    ck_assert_msg(strstr(t, "\n``````````\nx.cu:1:2: error: #error ````\n# not a heading\n"), "%s", t);
    ck_assert_msg(strstr(t, "`` a`b<i>[x](http://e).cu ``"), "%s", t);
    free(t);
    unlink(fb);
    /* cut to fit, never left open */
    char small[40] = "- ";
    md_code(small, sizeof small, "0123456789 ` 0123456789 0123456789 0123456789");
    ck_assert_str_eq(small, "- `` 0123456789 ` 0123456789 0123... ``");
    char none[8] = "abc";
    md_fence(none, sizeof none, "x");
    ck_assert_str_eq(none, "abc\n");
}
END_TEST

/* The grader's own words are text in the feedback; what came from a run is
 * in a code span, told apart by where it came from (why_own, why_text),
 * never by how it reads: a run's message that reads like the grader's
 * words stays quoted. */
START_TEST(feedback_own_words_text)
{
    static grader G;
    static student st;
    feedback_class(&G, &st);
    for (int c = 0; c < 3; c++) st.g[0][c] = (cp_grade){ ST_FAIL, 0, "", "" };
    why_own(&st.g[0][0], "hidden test %d of %d failed: %s", 1, 1, "wrong result");
    why_own(&st.g[0][1], "wrong result: "), why_text(&st.g[0][1], "c[3] is *2* <b>x</b> `y`");
    why_own(&st.g[0][1], " (%s)", "seen_at_3 _x_");
    why_text(&st.g[0][2], "hidden test 1 of 1 failed: wrong result");
    char fb[] = "/tmp/wb-feedback-XXXXXX";
    int fd = mkstemp(fb);
    close(fd);
    ck_assert_int_eq(write_feedback(&G, &st, fb), 0);
    char *t = wb_read_file(fb, NULL);
    ck_assert_msg(strstr(t, "FAIL — hidden test 1 of 1 failed: wrong result\n"), "%s", t);
    ck_assert_msg(strstr(t, "FAIL — wrong result: `` c[3] is *2* <b>x</b> `y` `` (seen_at_3 \\_x\\_)\n"), "%s", t);
    ck_assert_msg(strstr(t, "FAIL — ` hidden test 1 of 1 failed: wrong result `\n"), "%s", t);
    static char rest[1 << 16];
    md_inert(t, rest, sizeof rest);
    ck_assert_msg(!strstr(rest, "<b>") && !strstr(rest, "*2*"), "%s", rest);
    free(t);
    unlink(fb);
}
END_TEST

/* ----------------------------------------------------------- on Slurm */

/* What the Slurm part writes and reads without a cluster: the job script
 * (the grader's lines first, the instructor's after them, no --gres when
 * none is asked), the time a task may take, --array's value, sacct's lines,
 * and the gradebook of a class still with Slurm (PENDING and KILLED, never
 * a 0; the slurm column only where Slurm has something to say). */
START_TEST(slurm_parts)
{
    static grader G;
    memset(&G, 0, sizeof G);
    char err[600];
    ck_assert_int_eq(load_week_cfg(".", "phase0/week01", &G.weeks[0], err, sizeof err), 0);
    G.n_weeks = 1;
    G.limit = 60;
    G.seed = 5;
    /* week 01: three checkpoints, no hidden seeds: 3 runs of 75 s and 180 s to start */
    G.weeks[0].n_seeds = 0;
    ck_assert_int_eq(slurm_minutes(&G), 7);
    G.weeks[0].n_seeds = 2; /* the two correctness checkpoints again with each seed */
    ck_assert_int_eq(slurm_minutes(&G), 12);
    snprintf(G.gradebook, sizeof G.gradebook, "/c/week01.csv");
    snprintf(G.slurm_dir, sizeof G.slurm_dir, "/c/week01-slurm");
    snprintf(G.root, sizeof G.root, "/wb");
    snprintf(G.subs, sizeof G.subs, "/c/subs");
    snprintf(G.gres, sizeof G.gres, "gpu:1");
    char *opts[] = { "--partition=gpu", "--constraint=h100", "--time=30" };
    for (int i = 0; i < 3; i++) G.sbatch[G.n_sbatch++] = opts[i];
    G.no_gpu_env = 1;
    static char sc[16384];
    slurm_script(&G, "/c/week01-slurm/submit-1.txt", sc, sizeof sc);
    ck_assert_msg(strstr(sc, "#!/bin/sh\n"), "%s", sc);
    ck_assert_msg(strstr(sc, "#SBATCH --job-name=wb-grade-week01\n#SBATCH --output=/c/week01-slurm/logs/%A_%a.out\n"), "%s", sc);
    ck_assert_msg(strstr(sc, "#SBATCH --gres=gpu:1\n#SBATCH --time=12\n#SBATCH --mem=18G\n#SBATCH --partition=gpu\n"
                             "#SBATCH --constraint=h100\n#SBATCH --time=30\nexport WB_NO_GPU=1\nexec '"), "%s", sc);
    ck_assert_msg(strstr(sc, " --task '/c/week01-slurm' '/c/week01-slurm/submit-1.txt'\n"), "%s", sc);
    /* what the grader says each task asks for: the instructor's --time (later in the script, so it wins) */
    char req[200];
    slurm_request_text(&G, req, sizeof req);
    ck_assert_str_eq(req, "--time=30 (yours) and 18G");
    /* the resubmission its header tells of names this script, not a placeholder */
    ck_assert_msg(strstr(sc, "# Resubmit a student by hand: sbatch --array=INDEX /c/week01-slurm/submit-1.sh "
                             "(INDEX: the student's line of /c/week01-slurm/submit-1.txt, from 0).\n"), "%s", sc);
    G.gres[0] = 0;
    slurm_script(&G, "/l", sc, sizeof sc);
    ck_assert_msg(!strstr(sc, "--gres"), "%s", sc);
    /* --array */
    char spec[200];
    int idx[] = { 0, 1, 2, 3, 7, 9, 10 };
    slurm_array_spec(idx, 7, 0, spec, sizeof spec);
    ck_assert_str_eq(spec, "0-3,7,9-10");
    slurm_array_spec(idx + 4, 1, 5, spec, sizeof spec);
    ck_assert_str_eq(spec, "7%5");
    /* sacct -P: the database's (JobID of the array task) and the completion file's (sacct -c) */
    char why[300];
    ck_assert_int_eq(slurm_parse_sacct("12_3|CANCELLED by 1000|0:15|node7\n", "12_3", why, sizeof why), 0);
    ck_assert_str_eq(why, "CANCELLED by 1000 (exit 0:15) on node7");
    ck_assert_int_eq(slurm_parse_sacct("40|COMPLETED|0:0|n1\n41|TIMEOUT|0:0|n2\n", "41", why, sizeof why), 0);
    ck_assert_str_eq(why, "TIMEOUT (exit 0:0) on n2");
    ck_assert_int_eq(slurm_parse_sacct("41|NODE_FAIL|0:0|None assigned\n", "99", why, sizeof why), 0);
    ck_assert_str_eq(why, "NODE_FAIL (exit 0:0)");
    ck_assert_int_eq(slurm_parse_sacct("", "1", why, sizeof why), -1);
    /* the gradebook of a class with Slurm */
    static student st[3];
    memset(st, 0, sizeof st);
    G.st = st;
    G.n_students = 3;
    snprintf(st[0].id, sizeof st[0].id, "ann");
    snprintf(st[1].id, sizeof st[1].id, "bob");
    snprintf(st[2].id, sizeof st[2].id, "cy");
    for (int c = 0; c < 3; c++) st[0].g[0][c] = (cp_grade){ ST_PASS, c ? 20 : 10, "", "" };
    st[0].g[0][2].points = 10;
    st[1].sched = SCHED_PENDING;
    snprintf(st[1].sched_note, sizeof st[1].sched_note, "task 7_1 running on n3");
    st[2].sched = SCHED_KILLED;
    snprintf(st[2].sched_note, sizeof st[2].sched_note, "task 7_2 killed: TIMEOUT, re-queued as 8_2, killed");
    char csv[] = "/tmp/wb-gradebook-XXXXXX";
    int fd = mkstemp(csv);
    close(fd);
    ck_assert_int_eq(write_gradebook(&G, csv), 0);
    char *t = wb_read_file(csv, NULL);
    ck_assert_msg(strstr(t, ",total,out_of,skipped,seed,slurm\n"), "%s", t);
    ck_assert_msg(strstr(t, "\nann,10.00,20.00,10.00,40.00,40,0,5,\n"), "%s", t);
    ck_assert_msg(strstr(t, "\nbob,PENDING,PENDING,PENDING,PENDING,40,,5,task 7_1 running on n3\n"), "%s", t);
    ck_assert_msg(strstr(t, "\ncy,KILLED,KILLED,KILLED,KILLED,40,,5,\"task 7_2 killed: TIMEOUT, re-queued as 8_2, killed\"\n"), "%s", t);
    free(t);
    /* all graded, nothing to say: the local grader's gradebook, no slurm column */
    st[1].sched = st[2].sched = SCHED_GRADED;
    st[1].sched_note[0] = st[2].sched_note[0] = 0;
    ck_assert_int_eq(write_gradebook(&G, csv), 0);
    t = wb_read_file(csv, NULL);
    ck_assert_msg(strstr(t, ",total,out_of,skipped,seed\n") && !strstr(t, "slurm"), "%s", t);
    free(t);
    unlink(csv);
}
END_TEST

/* Per-GPU targets (week.txt's `| H200 >= 0.64`): the record's target is held
 * against week.txt's for the GPU the record names, and against this host's
 * GPU where the grader knows it. */
static void gpu_rec(const char *path, const char *gpu, int status, double ratio, double target)
{
    wb_result r;
    char err[600];
    rec(&r, "w41.forward-speed", status, status == WB_RES_PASS ? "" : "below target");
    r.value = 2740 * ratio / 0.704, r.yard_value = 3893, r.ratio = ratio, r.target = target;
    snprintf(r.unit, sizeof r.unit, "GB/s");
    snprintf(r.yard, sizeof r.yard, "COPY");
    snprintf(r.gpu, sizeof r.gpu, "%s", gpu);
    ck_assert_msg(wb_results_write(path, &r, 1, err, sizeof err) == 0, "%s", err);
}

START_TEST(per_gpu_targets_reconciled)
{
    wb_checkpoint cp;
    char err[400];
    memset(&cp, 0, sizeof cp);
    snprintf(cp.id, sizeof cp.id, "w41.forward-speed");
    ck_assert_msg(wb_target_parse(">= 0.89 COPY | H200 >= 0.64", &cp, err, sizeof err) == 0, "%s", err);
    char *path = tmp_file(NULL);
    sb_result ok = { .exit_code = 0 };
    cp_grade g;
    g_host_gpu[0] = 0;

    /* an H200 run judged against the H200 target passes */
    gpu_rec(path, "NVIDIA H200", WB_RES_PASS, 0.704, 0.64);
    outcome_from_record(path, "w41.forward-speed", &ok, 60, NULL, 1, &g);
    ck_assert_str_eq(g.gpu, "NVIDIA H200");
    reconcile_speed(&g, &cp);
    ck_assert_msg(g.status == ST_PASS, "%s", g.why);
    ck_assert_double_eq_tol(g.target, 0.64, 1e-12);
    score_checkpoint(&g, 10);
    ck_assert_double_eq(g.points, 10);

    /* the same H200 record claiming the default target: not week.txt's for an H200 */
    gpu_rec(path, "NVIDIA H200", WB_RES_FAIL, 0.704, 0.89);
    outcome_from_record(path, "w41.forward-speed", &ok, 60, NULL, 1, &g);
    reconcile_speed(&g, &cp);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "tampered record: its target is 0.89, week.txt's is 0.64 for NVIDIA H200 (H200)"),
                  "%s", g.why);
    score_checkpoint(&g, 10);
    ck_assert_double_eq(g.points, 0);

    /* an H100 record claiming the H200 target: forged, whatever its status */
    gpu_rec(path, "NVIDIA H100 80GB HBM3", WB_RES_PASS, 0.70, 0.64);
    outcome_from_record(path, "w41.forward-speed", &ok, 60, NULL, 1, &g);
    reconcile_speed(&g, &cp);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "its target is 0.64, week.txt's is 0.89 (its default) for NVIDIA H100 80GB HBM3"), "%s",
                  g.why);

    /* an H100 record under the default target: partial credit from the default */
    gpu_rec(path, "NVIDIA H100 80GB HBM3", WB_RES_FAIL, 0.70, 0.89);
    outcome_from_record(path, "w41.forward-speed", &ok, 60, NULL, 1, &g);
    reconcile_speed(&g, &cp);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_double_eq_tol(g.target, 0.89, 1e-12);
    score_checkpoint(&g, 10);
    ck_assert_double_eq_tol(g.points, 10 * 0.70 / 0.89, 1e-9);

    /* an H200 record that says PASS under the H200 target */
    gpu_rec(path, "NVIDIA H200", WB_RES_PASS, 0.60, 0.64);
    outcome_from_record(path, "w41.forward-speed", &ok, 60, NULL, 1, &g);
    reconcile_speed(&g, &cp);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "says PASS at 0.600, under week.txt's target 0.64 for NVIDIA H200 (H200)"), "%s",
                  g.why);

    /* "H2000" is not an H200: the default applies */
    gpu_rec(path, "NVIDIA H2000", WB_RES_PASS, 0.70, 0.64);
    outcome_from_record(path, "w41.forward-speed", &ok, 60, NULL, 1, &g);
    reconcile_speed(&g, &cp);
    ck_assert_int_eq(g.status, ST_FAIL);

    /* a GPU name changed to get the H200's target, on a host whose GPU is an H100 */
    snprintf(g_host_gpu, sizeof g_host_gpu, "NVIDIA H100 80GB HBM3");
    gpu_rec(path, "NVIDIA H200", WB_RES_PASS, 0.70, 0.64);
    outcome_from_record(path, "w41.forward-speed", &ok, 60, NULL, 1, &g);
    reconcile_speed(&g, &cp);
    ck_assert_int_eq(g.status, ST_FAIL);
    ck_assert_msg(strstr(g.why, "names GPU NVIDIA H200, whose target is 0.64; this host's GPU, NVIDIA H100 80GB HBM3, "
                                "has 0.89"), "%s", g.why);
    /* the record's GPU name is the run's text (quoted in the feedback), this host's the grader's */
    ck_assert_int_eq(g.n_own, 2);
    ck_assert_uint_eq(g.own[0][1], strlen("tampered record: it names GPU "));
    ck_assert_uint_eq(g.own[1][0], strlen("tampered record: it names GPU NVIDIA H200"));
    /* the same record on an H200 host passes; an H100 record on an H100 host too */
    snprintf(g_host_gpu, sizeof g_host_gpu, "NVIDIA H200");
    outcome_from_record(path, "w41.forward-speed", &ok, 60, NULL, 1, &g);
    reconcile_speed(&g, &cp);
    ck_assert_msg(g.status == ST_PASS, "%s", g.why);
    snprintf(g_host_gpu, sizeof g_host_gpu, "NVIDIA H100 80GB HBM3");
    gpu_rec(path, "NVIDIA H100 80GB HBM3", WB_RES_PASS, 0.95, 0.89);
    outcome_from_record(path, "w41.forward-speed", &ok, 60, NULL, 1, &g);
    reconcile_speed(&g, &cp);
    ck_assert_msg(g.status == ST_PASS, "%s", g.why);
    g_host_gpu[0] = 0;
    unlink(path);
}
END_TEST

void add_grade_tests(Suite *s, int have_sandbox)
{
    ADD(grade_from_results_record);
    ADD(per_gpu_targets_reconciled);
    ADD(no_record_is_a_fail);
    if (have_sandbox) ADD(run_checkpoint_uses_the_record);
    if (have_sandbox) ADD(shared_runs_rerun_alone);
    if (have_sandbox) ADD(judge_runner_kept_and_checked);
    ADD(checkpoint_environment);
    ADD(python_checkpoints);
    ADD(untrusted_files_copied);
    ADD(week_names);
    ADD(failure_reasons);
    ADD(judge_draws_the_tests_cases);
    ADD(limit_stops_a_hang_and_its_group);
    ADD(exit_codes_and_signals);
    ADD(forbidden_libraries);
    ADD(submissions_found);
    ADD(names_escaped);
    ADD(week_config_files);
    ADD(gradebook_and_feedback);
    ADD(feedback_student_text_inert);
    ADD(feedback_own_words_text);
    ADD(slurm_parts);
}
