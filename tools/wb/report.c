/* report.c — the progress file after a check: `wb report` records what
 * passed and says what next; `wb progress-check` reads the file. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_file.h"
#include "wb_results.h"
#include "wb_tool.h"

/* The exercise files checkpoint `id` is about, for the Next line of a
 * failed check: named[i] set for each; returns how many (0: neither
 * week.txt's `belongs:` nor the checkpoint's name gives a file away, and
 * the learner is sent to every file). `belongs:` first; else an exercise
 * whose name starts the checkpoint's ("w22.tiled-speed": tiled), or one
 * with the checkpoint's first word as a word of its name ("w61.gemm":
 * sp24_gemm). */
int checkpoint_files(const wb_week *w, const char *id, int *named)
{
    const wb_checkpoint *cp = wb_week_checkpoint(w, id);
    const char *files = cp ? cp->files : "";
    const char *dot = strchr(id, '.');
    id = dot ? dot + 1 : id;
    int hits = 0;
    for (int i = 0; i < n_ex_files(w); i++) {
        const char *ex = ex_name(w, i);
        size_t l = strlen(ex);
        int match = 0;
        if (*files) { /* week.txt says: a word of its list */
            for (const char *c = files; !match && *c; c += strcspn(c, " "), c += *c == ' ')
                match = strcspn(c, " ") == l && strncmp(c, ex, l) == 0;
        } else {
            match = strncmp(id, ex, l) == 0 && (id[l] == 0 || id[l] == '-' || id[l] == '_' || id[l] == '.');
            size_t wl = strcspn(id, "-_.");
            for (const char *c = ex; !match && *c; c += strcspn(c, "_"), c += *c == '_') {
                size_t cl = strcspn(c, "_");
                match = cl == wl && strncmp(c, id, wl) == 0;
                if (!cl) break;
            }
        }
        named[i] = match;
        hits += match;
    }
    return hits;
}

/* Whether the file at PATH still holds a TODO (a file that cannot be read: no). */
static int has_todo(const char *path)
{
    char *text = wb_read_file(path, NULL);
    int yes = text && strstr(text, "TODO") != NULL;
    free(text);
    return yes;
}

/* The checkpoints IDS[0..n-1] for a sentence: "a", "a and b", "a, b and c", "a, b, c and 2 more". */
static void print_ids(char ids[][64], int n)
{
    int shown = n > 4 ? 3 : n;
    for (int i = 0; i < shown; i++)
        printf("%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ", ids[i]);
    if (shown < n) printf(" and %d more", n - shown);
}

/* The closing line for the checkpoints whose tests did not finish (ran to the time limit, crashed, were
 * killed): each named, with the way to see where. LEAD and WHAT come in the singular ([0]) and the plural. */
static void print_stopped(const char *const lead[2], char ids[][64], int n, const char *const what[2],
                          const char *how, const char *bin)
{
    if (!n) return;
    printf("%s ", lead[n > 1]);
    print_ids(ids, n);
    printf(" %s To see where%s: `CK_FORK=no CK_RUN_CASE=%s gdb --args %s`, %s.\n", what[n > 1],
           n > 1 ? ", start with the first" : "", ids[0], bin, how);
}

/* `wb report RESULTS WEEK [--record] [--status N] [--impl IMPL] [--bin TEST]`:
 * after `make check`, read the run's results record, record the passed
 * checkpoints in the progress file (--record: the learner's own code), and
 * print the one line that says what to do next. N is the test program's
 * exit status, IMPL the variant checked (learner, starter, solution), TEST
 * the test program (named in the way to debug a hang or a crash). Exit 0, 1
 * (a checkpoint failed or the test program stopped early) or 3 (the
 * progress file could not be written). */
int cmd_report(int argc, char **argv)
{
    const char *rpath = argv[2], *wdir = argv[3], *impl = "learner", *bin = "the test program";
    int record = 0, status = 0;
    for (int i = 4; i < argc; i++) {
        if (strcmp(argv[i], "--record") == 0) record = 1;
        else if (strcmp(argv[i], "--status") == 0 && i + 1 < argc) status = atoi(argv[++i]);
        else if (strcmp(argv[i], "--impl") == 0 && i + 1 < argc) impl = argv[++i];
        else if (strcmp(argv[i], "--bin") == 0 && i + 1 < argc) bin = argv[++i];
    }
    wb_week w;
    if (load_week(wdir, &w)) return 2;
    wb_result *r = NULL;
    char err[700];
    int n = wb_results_read(rpath, &r, err, sizeof err);
    if (n < 0) {
        char how[64];
        if (status > 128) snprintf(how, sizeof how, "killed by signal %d%s", status - 128,
                                   status - 128 == 11 ? ", a segmentation fault" : "");
        else snprintf(how, sizeof how, "exit status %d", status);
        printf(">>> The test program of %s stopped before it wrote its results (%s): the lines above say "
               "where. Fix that, then `make %s check` again.\n", wdir, how, wdir);
        return 1;
    }
    int fail = 0, pass = 0, nogpu = 0, notsel = 0, rc = status == 0 ? 0 : 1, nfailed = 0, envonly = 0, pyimport = 0;
    int timeout = 0, crash = 0, killed = 0;
    static char failed_ids[WB_MAX_CHECKPOINTS][64], slow_ids[WB_MAX_CHECKPOINTS][64],
        crash_ids[WB_MAX_CHECKPOINTS][64], killed_ids[WB_MAX_CHECKPOINTS][64];
    wb_record recs[WB_MAX_CHECKPOINTS];
    int nrec = 0;
    char why[600] = "", why_env[600] = "", why_gpu[600] = "";
    for (int i = 0; i < n; i++) {
        if (r[i].status == WB_RES_FAIL && nfailed < WB_MAX_CHECKPOINTS)
            snprintf(failed_ids[nfailed++], sizeof failed_ids[0], "%s", r[i].id);
        if (r[i].status == WB_RES_FAIL) fail++;
        /* Check's words for a test it stopped at its timeout, or whose process died of a signal (9: killed,
         * most likely for memory; Check's own stop at the timeout is said as above) */
        if (r[i].status == WB_RES_FAIL && strstr(r[i].message, "Test timeout expired") && timeout < WB_MAX_CHECKPOINTS)
            snprintf(slow_ids[timeout++], sizeof slow_ids[0], "%s", r[i].id);
        else if (r[i].status == WB_RES_FAIL && strstr(r[i].message, "Received signal 9 ") && killed < WB_MAX_CHECKPOINTS)
            snprintf(killed_ids[killed++], sizeof killed_ids[0], "%s", r[i].id);
        else if (r[i].status == WB_RES_FAIL && strstr(r[i].message, "Received signal") && crash < WB_MAX_CHECKPOINTS)
            snprintf(crash_ids[crash++], sizeof crash_ids[0], "%s", r[i].id);
        if (r[i].status == WB_RES_PASS) pass++;
        if (r[i].status == WB_RES_SKIP) {
            if (r[i].reason == WB_WHY_NOTSELECTED) notsel++;
            else {
                nogpu++;
                envonly += r[i].reason == WB_WHY_ENV;
                if (!why[0]) snprintf(why, sizeof why, "%s", r[i].message);
                /* the first of each cause, for a run that lacked both a GPU and a module */
                char *first = r[i].reason == WB_WHY_ENV ? why_env : why_gpu;
                if (!first[0]) snprintf(first, sizeof why_env, "%s", r[i].message);
                pyimport |= strstr(r[i].message, " not importable: ") != NULL; /* Phase 7's runner: pytest, torch */
            }
        }
        /* Only what a GPU ran is recorded: without one nothing is done. */
        if (record && r[i].status == WB_RES_PASS && r[i].gpu[0] && nrec < WB_MAX_CHECKPOINTS) {
            char fig[400], tgt[96];
            wb_result_figure(&r[i], fig, sizeof fig);
            wb_result_target(&r[i], tgt, sizeof tgt);
            /* a line with per-model targets: say which one this GPU's record met ("(H200)", "(default)") */
            const wb_checkpoint *cp = wb_week_checkpoint(&w, r[i].id);
            if (cp && cp->n_models && r[i].target > 0) wb_target_text(cp, r[i].gpu, tgt, sizeof tgt);
            wb_record_set(&recs[nrec++], r[i].id, NULL, r[i].gpu, fig[0] ? fig : "PASS", tgt);
        }
    }
    free(r);
    if (nrec > 0) {
        if (wb_progress_update(wb_progress_path(), recs, nrec, err, sizeof err) == 0) {
            printf("Recorded %d passed checkpoint%s in %s.\n", nrec, nrec == 1 ? "" : "s", wb_progress_path());
        } else {
            printf("Progress NOT recorded: %s\n>>> Next: fix that (the progress file was left as it was), then "
                   "`make %s check` again.\n", err, wdir);
            return 3;
        }
    }
    if (fail) {
        /* the exercises the failing checkpoints belong to (week.txt's `belongs:`), or name ("w22.tiled-speed":
         * tiled), else every one */
        int named[WB_MAX_EXERCISES * 2] = {0}, nnamed = 0, unmatched = 0;
        for (int j = 0; j < nfailed; j++) {
            int mine[WB_MAX_EXERCISES * 2] = {0};
            if (!checkpoint_files(&w, failed_ids[j], mine)) unmatched++;
            for (int i = 0; i < n_ex_files(&w); i++)
                if (mine[i] && !named[i]) named[i] = 1, nnamed++;
        }
        if (unmatched) nnamed = 0; /* a failure no file's name or `belongs:` gives away: every exercise file */
        if (strcmp(impl, "starter") == 0) { /* no file of the learner's ran */
            printf("Next: that was the untouched starter (IMPL=starter), which fails by design; `make %s check` "
                   "checks your own files.\n", wdir);
            return 1;
        }
        /* "look for TODO" only where a named file still holds one: a learner who removed them all is sent to
         * the FAIL lines instead */
        int todo[WB_MAX_EXERCISES * 2] = {0}, nfiles = 0, ntodo = 0;
        for (int i = 0; i < n_ex_files(&w); i++) {
            if (nnamed && !named[i]) continue;
            char path[600];
            snprintf(path, sizeof path, "%s/%s%s", wdir, ex_name(&w, i), ex_ext(&w, i));
            todo[i] = has_todo(path);
            nfiles++, ntodo += todo[i];
        }
        printf("Next: fix the failing checkpoint%s in ", fail == 1 ? "" : "s");
        for (int i = 0, k = 0; i < n_ex_files(&w); i++)
            if (!nnamed || named[i]) printf("%s%s/%s%s", k++ ? ", " : "", wdir, ex_name(&w, i), ex_ext(&w, i));
        if (ntodo == nfiles) printf(" (look for TODO)");
        else if (!ntodo) printf(" (each FAIL line above says what went wrong)");
        else
            for (int i = 0, k = 0; i < n_ex_files(&w); i++)
                if (todo[i]) k++, printf("%s%s%s%s", k > 1 ? ", " : " (look for TODO in ", ex_name(&w, i),
                                         ex_ext(&w, i), k == ntodo ? ")" : "");
        printf(", then check again; `make %s hint` shows a hint.\n", wdir);
        static const char *const a_test[2] = { "A test of", "Tests of" };
        static const char *const crashed[2] = { "Your code crashed inside a test of", "Your code crashed inside tests of" };
        static const char *const loop[2] = { "ran past its time limit: most likely a loop in your code that never ends.",
                                             "ran past their time limit: most likely a loop in your code that never ends." };
        static const char *const where[2] = { "(the line above names the test, not your code).",
                                              "(the lines above name the tests, not your code)." };
        static const char *const oom[2] = { "was killed (signal 9): most likely for using too much memory (a size "
                                            "computed wrong?).", "were killed (signal 9): most likely for using too "
                                            "much memory (a size computed wrong?)." };
        char how[200];
        snprintf(how, sizeof how, "run, then `bt`; on the GPU, `make %s sanitize`", wdir);
        print_stopped(a_test, slow_ids, timeout, loop, "run, then Ctrl-C", bin);
        print_stopped(crashed, crash_ids, crash, where, how, bin);
        print_stopped(a_test, killed_ids, killed, oom, "run, then `bt` where it stops", bin);
        return 1;
    }
    if (nogpu) {
        /* not done: the week's GPU checkpoints never ran, so the exit status is not 0 */
        /* a GPU is the remedy only where the GPU was what lacked */
        /* passes that ran without a GPU were not recorded either: say so, lest the PASS lines read as done */
        char also[96] = "";
        if (record && pass > 0 && nrec == 0)
            snprintf(also, sizeof also, ", nor for the %d that passed (only a run with a GPU is recorded)", pass);
        /* the remedy for missing modules first: the Next line is the last */
        if (pyimport)
            printf("Python modules are missing: `python3 -m pip install -r phase7/requirements.txt` installs all that "
                   "the Python checkpoints need (in a virtual environment: phase7/README.md, \"What you need\", says how).\n");
        if (envonly == nogpu)
            printf("Next: %d checkpoint%s could not run here (%s); nothing was recorded for %s%s. Install what that "
                   "names, then `make %s check` again.\n", nogpu, nogpu == 1 ? "" : "s", why, nogpu == 1 ? "it" : "them",
                   also, wdir);
        else if (envonly == 0)
            printf("Next: %d checkpoint%s could not run here (%s); nothing was recorded for %s%s. Run the same check "
                   "on a machine with an NVIDIA GPU.\n", nogpu, nogpu == 1 ? "" : "s", why, nogpu == 1 ? "it" : "them",
                   also);
        else /* both causes: each with its own count, lest a missing module be blamed on the GPU */
            printf("Next: %d checkpoints could not run here: %d for want of a GPU (%s), %d for want of what this "
                   "names (%s); nothing was recorded for them%s. Install that, then run the same check on a machine "
                   "with an NVIDIA GPU.\n", nogpu, nogpu - envonly, why_gpu, envonly, why_env, also);
        return rc ? rc : 1;
    }
    if (notsel) {
        printf("%d of %d checkpoints passed%s; %d not selected (CK_RUN_CASE). Unset it to check the whole week.\n",
               pass, n, record && pass > 0 && nrec == 0 ? " (not recorded: only a run with a GPU is recorded)" : "",
               notsel);
        return rc;
    }
    if (rc) {
        printf(">>> Every checkpoint passed, but the test program exited with status %d: the lines above say why.\n",
               status);
        return rc;
    }
    printf("All %d checkpoints of %s passed%s. `make status` shows what comes next.\n", n, wdir,
           nrec ? " and are recorded" : record ? "" : " (not recorded: not your own code)");
    return 0;
}

int cmd_progress_check(int argc, char **argv)
{
    (void)argc, (void)argv;
    wb_progress p;
    char err[700];
    if (wb_progress_load(wb_progress_path(), &p, err, sizeof err) != 0) {
        fprintf(stderr, "refused: %s\nThe file was left exactly as it is.\n", err);
        return 1;
    }
    printf("%s: %d records, readable\n", wb_progress_path(), p.n);
    wb_progress_free(&p);
    return 0;
}
