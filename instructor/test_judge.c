/* test_judge.c — Check tests of the judge and the runner's plumbing
 * (judge.c, judge_runner.c, judge_sb.c) without a GPU
 * (make -f instructor/Makefile.sandbox test).
 *
 * Each test runs build/sandbox/judge-plumb (judge_plumb.c: a judge whose
 * "device" is host memory) against build/sandbox/judge-plumb-runner in one
 * of its modes (judge_plumb_runner.c: an honest CPU vector add, or a runner
 * that lies), then reads the results record the judge wrote. The honest
 * runner must pass both checkpoints (the control: the judge can pass at
 * all); every lying runner must get no PASS where it lies. Each runs twice:
 * the runner as a plain child, and in the grader's sandbox (bwrap; without
 * a working bwrap the sandboxed half fails, as the other module tests do:
 * a host without a sandbox is not one to grade on).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox.h"
#include "wb_results.h"

static char g_dir[PATH_MAX]; /* where the two programs are (beside this one) */

typedef struct {
    int  status[2];   /* plumb.vecadd, plumb.vecadd-speed; -1: absent */
    char message[2][600];
    char scratch[PATH_MAX];
} outcome;

static int copy(const char *from, const char *to)
{
    char cmd[3 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && chmod 755 '%s'", from, to, to);
    return system(cmd);
}

/* Run the judge against the runner in `mode`, in a fresh folder (the
 * runner's scratch folder when sandboxed, its cwd when not). */
static void judge(const char *mode, int sandboxed, outcome *o)
{
    memset(o, 0, sizeof *o);
    o->status[0] = o->status[1] = -1;
    char base[] = "/tmp/wb-test-judge-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(base));
    chmod(base, 0755);
    char judge_bin[PATH_MAX + 32], runner[PATH_MAX + 32], rec[PATH_MAX], log[PATH_MAX];
    snprintf(o->scratch, sizeof o->scratch, "%s/scratch", base);
    ck_assert_int_eq(mkdir(o->scratch, 0755), 0);
    snprintf(judge_bin, sizeof judge_bin, "%s/judge-plumb", g_dir);
    snprintf(runner, sizeof runner, "%s/judge-plumb-runner", o->scratch);
    char src[PATH_MAX + 32];
    snprintf(src, sizeof src, "%s/judge-plumb-runner", g_dir);
    ck_assert_int_eq(copy(src, runner), 0);
    /* the judge's record lies outside the scratch folder, as the grader's would */
    snprintf(rec, sizeof rec, "%s/record.tsv", base);
    snprintf(log, sizeof log, "%s/runner.log", base);
    pid_t p = fork();
    ck_assert_int_ge(p, 0);
    if (p == 0) {
        if (chdir(o->scratch) != 0) _exit(126);
        int nul = open("/dev/null", 1);
        if (nul >= 0) dup2(nul, 1);
        /* a WB_RESULTS the runner can see names a file it may forge: the judge never reads it */
        char forged[PATH_MAX + 32];
        snprintf(forged, sizeof forged, "%s/forged-wb-results.tsv", o->scratch);
        setenv("WB_RESULTS", forged, 1);
        if (sandboxed)
            execl(judge_bin, judge_bin, "--record", rec, "--seed", "777", "--log", log, "--sandbox", o->scratch, runner,
                  mode, (char *)NULL);
        else
            execl(judge_bin, judge_bin, "--record", rec, "--seed", "777", "--log", log, runner, mode, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    ck_assert_int_eq(waitpid(p, &st, 0), p);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "judge-plumb did not write its record (status %d)", st);
    wb_result *r = NULL;
    char err[700];
    int n = wb_results_read(rec, &r, err, sizeof err);
    ck_assert_msg(n == 2, "the judge's record: %s", n < 0 ? err : "not two checkpoints");
    const char *ids[2] = { "plumb.vecadd", "plumb.vecadd-speed" };
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++)
            if (!strcmp(r[i].id, ids[k])) {
                o->status[k] = r[i].status;
                snprintf(o->message[k], sizeof o->message[k], "%s", r[i].message);
            }
    free(r);
}

static void cleanup(outcome *o)
{
    char cmd[PATH_MAX + 64];
    /* the scratch's parent is the mkdtemp folder */
    char *parent = strdup(o->scratch);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dirname(parent));
    free(parent);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", o->scratch);
}

/* _i: 0 plain child, 1 sandboxed */
START_TEST(honest_runner_passes)
{
    outcome o;
    judge("honest", _i, &o);
    ck_assert_msg(o.status[0] == WB_RES_PASS, "plumb.vecadd: %s", o.message[0]);
    ck_assert_msg(o.status[1] == WB_RES_PASS, "plumb.vecadd-speed: %s", o.message[1]);
    cleanup(&o);
}
END_TEST

static void expect_no_pass(const char *mode, int sandboxed, const char *want)
{
    outcome o;
    judge(mode, sandboxed, &o);
    for (int k = 0; k < 2; k++) {
        ck_assert_msg(o.status[k] != -1, "%s: a checkpoint is missing from the judge's record", mode);
        ck_assert_msg(o.status[k] != WB_RES_PASS, "%s runner: checkpoint %d passed", mode, k);
    }
    ck_assert_msg(strstr(o.message[1], want) || strstr(o.message[0], want), "%s runner: the failure (\"%s\" / \"%s\") "
                  "does not say \"%s\"", mode, o.message[0], o.message[1], want);
    cleanup(&o);
}

/* judge-plumb checks the outputs in full 200 ms after the reply, and this
 * runner finishes 20 ms after it: only the judge's look right after the
 * reply catches it (a judge without the look passes it: checked by hand
 * with jd_timed_call's look removed). */
START_TEST(early_reply_fails)
{
    expect_no_pass("early", _i, "not yet written");
}
END_TEST

START_TEST(exit0_fails)
{
    expect_no_pass("exit0", _i, "ended without answering");
}
END_TEST

START_TEST(garbage_fails)
{
    expect_no_pass("garbage", _i, "wrong");
}
END_TEST

START_TEST(lying_status_fails)
{
    expect_no_pass("status", _i, "returned 1");
}
END_TEST

/* A runner that asks the judge for work inside a call (jr_back) where the
 * judge has no handler for it (jd.back unset, as in every judge but week
 * 04's mytest) is lost: its message answers no request of the judge's. */
START_TEST(unasked_back_fails)
{
    expect_no_pass("back", _i, "answered another request");
}
END_TEST

/* A spare reply sent by the runner before the judge's request: it cannot
 * carry the request's nonce, so the judge takes it for no answer. */
START_TEST(spare_reply_fails)
{
    expect_no_pass("spare", _i, "nonce");
}
END_TEST

/* The runner writes passing records wherever it can: they exist afterwards
 * (the attempt was made) and the judge's own record still fails it. */
START_TEST(forged_record_is_not_read)
{
    outcome o;
    judge("forge", _i, &o);
    char f[PATH_MAX + 32];
    snprintf(f, sizeof f, "%s/results.tsv", o.scratch);
    ck_assert_msg(access(f, F_OK) == 0, "the forging runner wrote nothing (the test cannot fail)");
    for (int k = 0; k < 2; k++) ck_assert_msg(o.status[k] == WB_RES_FAIL, "forge runner: checkpoint %d not FAIL", k);
    cleanup(&o);
}
END_TEST

/* k repeats in one timed request: a runner that works once and skips the
 * rest passes the correctness checkpoint (one call each) and fails speed. */
START_TEST(skipped_repeats_fail)
{
    outcome o;
    judge("skipreps", _i, &o);
    ck_assert_msg(o.status[0] == WB_RES_PASS, "skipreps: plumb.vecadd should pass (a control): %s", o.message[0]);
    ck_assert_msg(o.status[1] == WB_RES_FAIL, "skipreps: plumb.vecadd-speed passed");
    ck_assert_msg(strstr(o.message[1], "rep "), "skipreps: %s", o.message[1]);
    cleanup(&o);
}
END_TEST

int main(int argc, char **argv)
{
    (void)argc;
    char self[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0) return perror("readlink"), 2;
    self[k] = 0;
    snprintf(g_dir, sizeof g_dir, "%s", dirname(self));
    (void)argv;
    Suite *s = suite_create("judge");
    TCase *tc = tcase_create("plumbing");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, honest_runner_passes, 0, 2);
    tcase_add_loop_test(tc, early_reply_fails, 0, 2);
    tcase_add_loop_test(tc, spare_reply_fails, 0, 2);
    tcase_add_loop_test(tc, exit0_fails, 0, 2);
    tcase_add_loop_test(tc, garbage_fails, 0, 2);
    tcase_add_loop_test(tc, lying_status_fails, 0, 2);
    tcase_add_loop_test(tc, unasked_back_fails, 0, 2);
    tcase_add_loop_test(tc, forged_record_is_not_read, 0, 2);
    tcase_add_loop_test(tc, skipped_repeats_fail, 0, 2);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
