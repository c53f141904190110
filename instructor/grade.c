/* grade.c — grades a class's submissions of chosen weeks into a gradebook.
 *
 *   grade --submissions DIR --weeks "phase0/week01 ..." --gradebook OUT.csv
 *         [--feedback DIR] [--scratch DIR] [--root DIR] [--seed N]
 *         [--limit SECONDS] [--build-limit SECONDS] [--jobs N] [--gpu-share N]
 *         [--make-arg ARG]...
 *         [--scheduler slurm [--slurm-dir DIR] [--gres SPEC] [--sbatch OPTION]...
 *          [--wait 0|1] [--poll S] [--max-running N] [--regrade "all"|"ID ..."]]
 *   grade --collect GRADEBOOK [--slurm-dir DIR]
 *   grade --task SLURM_DIR LIST
 *
 * With --scheduler slurm, steps 1-4 run here and steps 5-6 in a Slurm job
 * array, a task a student (grade_slurm.c); --collect assembles the
 * gradebook of such a grading as it stands, and --task is one array task.
 *
 * A submission is a folder or a .tar, .tar.gz, .tgz or .zip archive in DIR,
 * one per student (its name, less the extension, is the student's id). It
 * holds the student's edited week files, e.g. phase0/week01/vecadd.cu, at its
 * top or one folder down. For each student:
 *
 *   1. a scratch copy of the workbook (Makefile, mk/, common/, tools/, the
 *      graded weeks without solution/ or instructor/, the instructor's
 *      prebuilt library, test and support objects, a link to .deps/ for
 *      third-party headers such as CUTLASS) in SCRATCH/ID/wb;
 *   2. the submission imported by unpack.c (plain files only, or refused
 *      whole: links, devices, ../ paths, caps), and its exercise files
 *      named in week.txt laid over the starters
 *      (nothing else: not the test, not week.txt); a missing file leaves the
 *      starter and the feedback says so;
 *   3. the learner test binary built there in a bubblewrap sandbox
 *      (sandbox.h: the scratch copy read-write, the toolkit and .deps/
 *      read-only, this workbook, the class and the gradebook absent; no
 *      network; limits on time, memory, processes, files and output),
 *      students in parallel (--jobs), with nvcc -M full dependency lists;
 *   4. the object check (objcheck.h) of each exercise object and its
 *      dependency list, before any of the student's code runs: only the
 *      exercise's API defined, only allowed references, headers from the
 *      week, common/ or the toolkit, and no library of the week's forbid.txt
 *      (instructor/weeks/WEEK/forbid.txt or WEEK/instructor/forbid.txt:
 *      "NAME [except EXERCISE...]" a line); a finding scores the week 0;
 *   5. run on the GPU, one sandboxed process per checkpoint (CK_RUN_CASE;
 *      Check's fork mode on, so each test runs in its own child): first the
 *      correctness checkpoints (no target), those of up to --gpu-share
 *      students at a time (default 4), one student's runs one after
 *      another; a shared run's PASS stands, and its FAIL on wrong values;
 *      anything else is run again alone and only that counts (grade_shared, grade_run.c: a neighbour
 *      can cost time, never marks); then every speed checkpoint alone on
 *      the GPU, student by student (--gpu-share 1: every run alone, in
 *      order). Each run has WB_SEED=the class seed and WB_RESULTS and
 *      WB_PROGRESS in the scratch copy; a hang is stopped at the limit and
 *      costs only that checkpoint. The outcome (status, ratio, target,
 *      message) comes from the results record (common/include/wb_results.h),
 *      read from a bounded copy, never from what the program prints: no
 *      record (a crash before the end) is a FAIL;
 *   6. hidden tests: every correctness checkpoint that passed is run again
 *      with each seed of instructor/weeks/WEEK/seeds.txt (or
 *      WEEK/instructor/seeds.txt); failing one costs the checkpoint.
 *
 * Points: 10 a checkpoint unless points.txt (same folders; lines
 * `checkpoint-id points`) says otherwise. A speed checkpoint that misses its
 * target earns points * ratio / target (its same-run ratio to the yardstick).
 * A checkpoint that could not run for want of a GPU is SKIP in the gradebook
 * and earns nothing, and grade exits 3 (the gradebook is incomplete).
 *
 * Output: the gradebook CSV (a row a student, a column a week/checkpoint, the
 * total and the most possible) and FEEDBACK/ID.md per student.
 *
 * Parts (each its own compilation unit, behind grade.h; each part's helpers stay
 * private to it):
 *   grade_jobs.c      utilities; a command run with a time limit (jobs)
 *   grade_class.c     outcomes and points, forbid lists, week configuration,
 *                     the submissions found
 *   grade_build.c     scratch copies, the sandbox, the builds (steps 1-3)
 *   grade_objcheck.c  the static checks on what was built (step 4)
 *   grade_run.c       checkpoint runs and their results records (5-6)
 *   grade_report.c    the gradebook and the feedback; the end of a grading
 *   grade_slurm.c     grading on a Slurm cluster: a job array, a task a
 *                     student; plans, results, re-queue, collection
 *   grade.c           this: the command line and the order of the steps
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb_file.h"
#include "grade.h"

/* ------------------------------------------------------------ Python */

/* The python3 on the grader's PATH, for Phase 7's Python checkpoints: its
 * sys.executable (a venv's own, not the binary it links to: the venv's
 * pyvenv.cfg sits beside it) and the folders it needs inside the sandbox,
 * read-only: its prefixes, the folder of the binary it resolves to, every
 * folder of its sys.path (site-packages, and what .pth files add) and the
 * folders holding torch, triton and pytest, where they are found; each one
 * with its canonical path too, where it is a link. Nothing under /usr, /lib
 * and the like (the sandbox shows those anyway), nothing shown twice. 0, or
 * -1 with why. */
static int find_python(grader *G, char *why, size_t whysz)
{
    static const char script[] =
        "import sys, os, importlib.util\n"
        "print(sys.executable)\n"
        "ds = [os.path.dirname(sys.executable), sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,\n"
        "      os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))] + list(sys.path)\n"
        "for m in ('torch', 'triton', 'pytest'):\n"
        "    try:\n"
        "        s = importlib.util.find_spec(m)\n"
        "    except Exception:\n"
        "        s = None\n"
        "    for l in (list(s.submodule_search_locations or []) if s else []):\n"
        "        ds.append(os.path.dirname(l))\n"
        "for d in ds:\n"
        "    if d and os.path.isabs(d) and os.path.isdir(d):\n"
        "        print(d)\n"
        "        print(os.path.realpath(d))\n";
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "python3 -I -c %s 2>&1", q(script));
    FILE *f = popen(cmd, "r");
    if (!f) return snprintf(why, whysz, "cannot start python3: %s", strerror(errno)), -1;
    char line[700], first[700] = "";
    G->n_py_ro = 0;
    int n = 0, overflow = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (n++ == 0) {
            snprintf(first, sizeof first, "%s", line);
            continue;
        }
        static const char *const sys_dirs[] = { "/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", NULL };
        int skip = line[0] != '/' || strcmp(line, "/") == 0;
        for (int k = 0; sys_dirs[k] && !skip; k++) {
            size_t m = strlen(sys_dirs[k]);
            skip = strncmp(line, sys_dirs[k], m) == 0 && (line[m] == 0 || line[m] == '/');
        }
        for (int k = 0; k < G->n_py_ro && !skip; k++) {
            size_t m = strlen(G->py_ro[k]);
            skip = strncmp(line, G->py_ro[k], m) == 0 && (line[m] == 0 || line[m] == '/');
        }
        if (skip) continue;
        /* a folder above one already listed replaces it */
        for (int k = 0; k < G->n_py_ro;) {
            size_t m = strlen(line);
            if (strncmp(G->py_ro[k], line, m) == 0 && G->py_ro[k][m] == '/') {
                memmove(G->py_ro[k], G->py_ro[G->n_py_ro - 1], sizeof G->py_ro[k]);
                G->n_py_ro--;
            } else k++;
        }
        if (G->n_py_ro == MAX_PY_RO) {
            overflow = 1;
            continue;
        }
        snprintf(G->py_ro[G->n_py_ro++], sizeof G->py_ro[0], "%s", line);
    }
    int rc = pclose(f);
    if (rc != 0 || first[0] != '/')
        return snprintf(why, whysz, "`python3` on PATH did not run (%s)", first[0] ? first : "no output"), -1;
    if (overflow)
        return snprintf(why, whysz, "%s needs more than %d folders outside /usr shown in the sandbox", first,
                        MAX_PY_RO), -1;
    snprintf(G->py_exe, sizeof G->py_exe, "%s", first);
    return 0;
}

/* Can the sandbox run that python3, with what it needs? The same sandbox as
 * a checkpoint's run (less the GPU), in a folder of its own under the
 * scratch folder: a host whose Python lives where the sandbox's uid cannot
 * read (a root-only home) is refused here, before any student is graded,
 * rather than failing every student's Python checkpoints. 0, or -1 with why. */
static int probe_python(grader *G, char *why, size_t whysz)
{
    char dir[700], log[800], cmd[1600];
    snprintf(dir, sizeof dir, "%s/.python-probe", G->scratch);
    /* an array task's own probe folder: tasks on other nodes probe at the same time */
    if (G->in_task && getenv("SLURM_JOB_ID")) appendf(dir, sizeof dir, "-%s", getenv("SLURM_JOB_ID"));
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s && chmod 755 %s", q(dir), q(dir), q(dir));
    if (sh(cmd, NULL)) return snprintf(why, whysz, "cannot make %s", dir), -1;
    sb_opts o;
    memset(&o, 0, sizeof o);
    o.scratch = dir;
    o.ro_binds = G->ro;
    o.hide = G->hide;
    o.path = G->sb_path;
    o.max_procs = 256;
    o.wall_s = 60;
    o.seccomp = G->seccomp;
    o.log_path = log;
    char *argv[] = { G->py_exe, "-I", "-B", "-c", "import json, encodings, subprocess; print('python ok')", NULL };
    sb_result r;
    memset(&r, 0, sizeof r);
    /* bwrap that fails to set up (a folder it cannot read) can close the pipe
     * sb_run writes to: that must not kill the grader */
    void (*was)(int) = signal(SIGPIPE, SIG_IGN);
    int started = sb_run(&o, argv, &r) == 0;
    signal(SIGPIPE, was);
    char *text = wb_read_file(log, NULL);
    for (size_t k = text ? strlen(text) : 0; k && (text[k - 1] == '\n' || text[k - 1] == ' '); k--) text[k - 1] = 0;
    int ok = started && r.exit_code == 0 && r.signal == 0 && text && strstr(text, "python ok");
    if (!ok && !started) {
        snprintf(why, whysz, "the sandbox could not start %s: %s%s%s (the sandbox's uid must be able to read these "
                 "folders and their parents: ", G->py_exe, r.why, text && *text ? ": " : "", text ? text : "");
        for (int i = 0; i < G->n_py_ro; i++) appendf(why, whysz, "%s%s", i ? " " : "", G->py_ro[i]);
        appendf(why, whysz, ")");
    } else if (!ok) {
        size_t k = text ? strlen(text) : 0;
        while (k && (text[k - 1] == '\n' || text[k - 1] == ' ')) text[--k] = 0;
        const char *ls = text ? text + k : "";
        while (text && ls > text && ls[-1] != '\n') ls--;
        snprintf(why, whysz, "%s does not run in the sandbox (exit %d, signal %d): \"%s\" (the sandbox's uid must "
                 "be able to read its folders: ", G->py_exe, r.exit_code, r.signal, ls);
        for (int i = 0; i < G->n_py_ro; i++) appendf(why, whysz, "%s%s", i ? " " : "", G->py_ro[i]);
        appendf(why, whysz, "; see %s)", log);
    }
    free(text);
    return ok ? 0 : -1;
}

/* ------------------------------------------------------------------ main */

static void usage(void)
{
    fprintf(stderr, "usage: grade --submissions DIR --weeks \"phaseP/weekNN ...\" --gradebook OUT.csv [--feedback DIR]\n"
                    "             [--scratch DIR] [--root DIR] [--seed N] [--limit S] [--build-limit S] [--jobs N]\n"
                    "             [--gpu-share N] [--make-arg ARG]... [--disk-quota MiB] [--keep-scratch 0|1]\n"
                    "             [--seccomp deny|allow|log|off] [--judge 0|1]\n"
                    "             [--scheduler local|slurm [--slurm-dir DIR] [--gres SPEC] [--sbatch OPTION]...\n"
                    "              [--wait 0|1] [--poll S] [--max-running N] [--regrade \"all\"|\"ID ...\"]]\n"
                    "       grade --collect GRADEBOOK [--slurm-dir DIR]   (a Slurm grading: the gradebook as it stands)\n"
                    "       grade --task SLURM_DIR LIST                   (one array task: run by the job script)\n");
}

/* The command line into G; the weeks as given into `weeks`. 0, or 2 (usage). */
static int parse_args(grader *G, int argc, char **argv, char *weeks, size_t wsz)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) return usage(), 2;
        if (strcmp(a, "--submissions") == 0) snprintf(G->subs, sizeof G->subs, "%s", v);
        else if (strcmp(a, "--weeks") == 0) snprintf(weeks, wsz, "%s", v);
        else if (strcmp(a, "--gradebook") == 0) snprintf(G->gradebook, sizeof G->gradebook, "%s", v);
        else if (strcmp(a, "--feedback") == 0) snprintf(G->feedback, sizeof G->feedback, "%s", v);
        else if (strcmp(a, "--scratch") == 0) snprintf(G->scratch, sizeof G->scratch, "%s", v);
        else if (strcmp(a, "--root") == 0) snprintf(G->root, sizeof G->root, "%s", v);
        else if (strcmp(a, "--seed") == 0) G->seed = strtoull(v, NULL, 0);
        else if (strcmp(a, "--limit") == 0) G->limit = atof(v);
        else if (strcmp(a, "--build-limit") == 0) G->build_limit = atof(v);
        else if (strcmp(a, "--jobs") == 0) G->jobs = atoi(v) > 0 ? atoi(v) : 1;
        else if (strcmp(a, "--gpu-share") == 0) G->gpu_share = atoi(v) > 0 ? atoi(v) : 1;
        else if (strcmp(a, "--make-arg") == 0 && G->n_make_args < 32) G->make_args[G->n_make_args++] = (char *)v;
        else if (strcmp(a, "--disk-quota") == 0 && atoll(v) > 0) G->disk_quota = atoll(v) << 20;
        else if (strcmp(a, "--keep-scratch") == 0) G->keep_scratch = atoi(v) != 0;
        else if (strcmp(a, "--judge") == 0) G->judge = atoi(v) != 0;
        else if (strcmp(a, "--seccomp") == 0 && sb_seccomp_parse(v) >= 0) G->seccomp = sb_seccomp_parse(v);
        else if (strcmp(a, "--scheduler") == 0 && (strcmp(v, "local") == 0 || strcmp(v, "slurm") == 0))
            G->slurm = strcmp(v, "slurm") == 0;
        else if (strcmp(a, "--slurm-dir") == 0) snprintf(G->slurm_dir, sizeof G->slurm_dir, "%s", v);
        else if (strcmp(a, "--gres") == 0) snprintf(G->gres, sizeof G->gres, "%s", v);
        else if (strcmp(a, "--sbatch") == 0 && G->n_sbatch < 32) G->sbatch[G->n_sbatch++] = (char *)v;
        else if (strcmp(a, "--wait") == 0) G->slurm_wait = atoi(v) != 0;
        else if (strcmp(a, "--poll") == 0) G->slurm_poll = atof(v) > 0 ? atof(v) : 1;
        else if (strcmp(a, "--max-running") == 0) G->slurm_max = atoi(v) > 0 ? atoi(v) : 0;
        else if (strcmp(a, "--regrade") == 0) snprintf(G->regrade, sizeof G->regrade, "%s", v);
        else return usage(), 2;
        i++;
    }
    return 0;
}

/* An absolute path for p (a relative one is taken from the current folder),
 * for what a Slurm task on another node must find at the same path. */
static void absolute(char *p, size_t sz)
{
    if (!p[0] || p[0] == '/') return;
    char cwd[600], t[1300];
    if (!getcwd(cwd, sizeof cwd)) return;
    snprintf(t, sizeof t, "%s/%s", cwd, p);
    snprintf(p, sz, "%s", t);
}

enum { MODE_LOCAL, MODE_TASK, MODE_COLLECT };

/* Everything a grading needs before it reads the class: the workbook, the
 * scratch and feedback folders, what the sandbox shows and hides, the GPUs,
 * the weeks, Python. A collection (which runs no student code) needs only
 * the folders and the weeks. 0, or the exit status, said on stderr. */
static int setup(grader *G, const char *weeks, int mode)
{
    int ro_k = 0;
    char why[512];
    /* Student code runs only in the sandbox: without one, nothing is graded. */
    if (mode != MODE_COLLECT && !sb_available(NULL, why))
        return fprintf(stderr, "grade: refusing to grade: student code runs only in a bubblewrap sandbox, and %s\n", why), 2;
    char *r = realpath(G->root, NULL);
    if (!r) return fprintf(stderr, "no workbook at %s\n", G->root), 2;
    snprintf(G->root, sizeof G->root, "%s", r);
    free(r);
    if (G->slurm) {
        /* what the tasks find on their nodes: absolute paths; the plans,
         * results and scripts beside the gradebook, and the scratch copies
         * there too unless given (the class's own, on the shared filesystem) */
        absolute(G->gradebook, sizeof G->gradebook);
        absolute(G->feedback, sizeof G->feedback);
        absolute(G->scratch, sizeof G->scratch);
        absolute(G->slurm_dir, sizeof G->slurm_dir);
        if (!G->slurm_dir[0]) {
            snprintf(G->slurm_dir, sizeof G->slurm_dir, "%s", G->gradebook);
            char *dot = strrchr(G->slurm_dir, '.');
            if (dot && !strchr(dot, '/')) *dot = 0;
            strncat(G->slurm_dir, "-slurm", sizeof G->slurm_dir - strlen(G->slurm_dir) - 1);
        }
        if (!G->scratch[0]) snprintf(G->scratch, sizeof G->scratch, "%s/scratch", G->slurm_dir);
    }
    if (!G->scratch[0]) snprintf(G->scratch, sizeof G->scratch, "%s/build/instructor/scratch", G->root);
    if (!G->feedback[0]) {
        snprintf(G->feedback, sizeof G->feedback, "%s", G->gradebook);
        char *dot = strrchr(G->feedback, '.');
        if (dot && !strchr(dot, '/')) *dot = 0;
        strncat(G->feedback, "-feedback", sizeof G->feedback - strlen(G->feedback) - 1);
    }
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "mkdir -p %s %s", q(G->scratch), q(G->feedback));
    if (sh(cmd, NULL)) return fprintf(stderr, "cannot make %s or %s\n", G->scratch, G->feedback), 2;
    r = realpath(G->scratch, NULL);
    snprintf(G->scratch, sizeof G->scratch, "%s", r);
    free(r);
    /* What the sandbox shows read-only besides the system: the toolkit of the
     * nvcc make is given, .deps/ (third-party headers), Check if it lives
     * elsewhere; what must not be there: this workbook, the class, the
     * gradebook and the feedback. */
    snprintf(G->nvcc, sizeof G->nvcc, "/usr/local/cuda/bin/nvcc");
    for (int i = 0; i < G->n_make_args; i++) {
        if (strncmp(G->make_args[i], "NVCC=", 5) == 0) snprintf(G->nvcc, sizeof G->nvcc, "%s", G->make_args[i] + 5);
        /* folders the builds are given and the sandbox must show: Check's,
         * and cuDNN's headers as the instructor's make found them
         * (mk/needs-cudnn.mk; inside, the build cannot look them up where they
         * are a Python package's: its PATH and environment are the grader's) */
        const struct { const char *key; char *dst; size_t cap; } dirs[] = {
            { "CHECK_DIR=", G->check_dir, sizeof G->check_dir }, { "CUDNN_INCLUDE=", G->cudnn_inc, sizeof G->cudnn_inc } };
        for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
            const size_t kl = strlen(dirs[d].key);
            if (strncmp(G->make_args[i], dirs[d].key, kl) || !G->make_args[i][kl]) continue;
            r = realpath(G->make_args[i] + kl, NULL);
            if (r) snprintf(dirs[d].dst, dirs[d].cap, "%s", r);
            free(r);
        }
    }
    {
        char home[600];
        snprintf(home, sizeof home, "%s", G->nvcc);
        for (int k = 0; k < 2; k++) {
            char *sl = strrchr(home, '/');
            if (sl) *sl = 0;
        }
        r = home[0] ? realpath(home, NULL) : NULL;
        if (r) snprintf(G->cuda_home, sizeof G->cuda_home, "%s", r);
        free(r);
        snprintf(G->sb_path, sizeof G->sb_path, "%.*s:/usr/local/cuda/bin:/usr/bin:/bin",
                 (int)(strrchr(G->nvcc, '/') ? strrchr(G->nvcc, '/') - G->nvcc : 0), G->nvcc);
        if (G->sb_path[0] == ':') memmove(G->sb_path, G->sb_path + 1, strlen(G->sb_path));
        char deps[700];
        snprintf(deps, sizeof deps, "%s/.deps", G->root);
        r = is_dir(deps) ? realpath(deps, NULL) : NULL;
        if (r) snprintf(G->deps_real, sizeof G->deps_real, "%s", r);
        free(r);
        int k = 0;
        if (G->cuda_home[0]) G->ro[k++] = G->cuda_home;
        if (G->deps_real[0]) G->ro[k++] = G->deps_real;
        if (G->check_dir[0]) G->ro[k++] = G->check_dir;
        if (G->cudnn_inc[0]) G->ro[k++] = G->cudnn_inc;
        G->ro[k] = NULL;
        ro_k = k;
        /* every folder the sandbox shows must be one its user can enter */
        const char *reach[8] = { G->scratch };
        for (int i = 0; i < k && i < 7; i++) reach[i + 1] = G->ro[i];
        for (int i = 0; i < 8 && reach[i] && mode != MODE_COLLECT; i++)
            if (!sb_reachable(reach[i], why))
                return fprintf(stderr, "grade: refusing to grade: %s\n", why), 2;
        r = realpath(G->subs, NULL);
        if (!r) return fprintf(stderr, "no submissions folder %s\n", G->subs), 2;
        snprintf(G->subs, sizeof G->subs, "%s", r);
        free(r);
        k = 0;
        G->hide[k++] = G->root, G->hide[k++] = G->subs, G->hide[k++] = G->feedback, G->hide[k++] = G->gradebook;
        if (G->slurm) G->hide[k++] = G->slurm_dir; /* the class's plans and results */
        G->hide[k] = NULL;
        const char *ng = getenv("WB_NO_GPU");
        G->no_gpu_env = ng && *ng == '1';
        g_host_gpus = G->no_gpu_env || mode == MODE_COLLECT ? 0 : host_gpu_count(G->root);
    }
    char err[4000];
    /* the scratch copies hold the files git tracks, nothing else (grade_build.c's copy_tracked) */
    if (mode == MODE_LOCAL) {
        char c[1400];
        snprintf(c, sizeof c, "cd %s && git -c safe.directory='*' ls-files --error-unmatch Makefile >/dev/null 2>&1", q(G->root));
        if (sh(c, NULL))
            return fprintf(stderr, "grade: refusing to grade: the workbook %s is not a git checkout (or git is missing): "
                           "a student's scratch copy holds only the files git tracks\n", G->root), 2;
    }
    char list[MAX_WEEKS][64];
    int n_list = split_weeks(weeks, list, err, sizeof err);
    if (n_list < 0) return fprintf(stderr, "%s\n", err), 2;
    for (int k = 0; k < n_list; k++) {
        /* the exercises' API is for the object check, which only the host that builds runs */
        if (load_week_cfg(G->root, list[k], &G->weeks[G->n_weeks], err, sizeof err) != 0 ||
            (mode == MODE_LOCAL && load_week_api(G->root, &G->weeks[G->n_weeks], err, sizeof err) != 0))
            return fprintf(stderr, "%s\n", err), 2;
        G->n_weeks++;
    }
    /* --judge 1: each graded week with a judge is judged by it (grade_run.c,
     * find_judge); a week without one is graded as before, and says so. A
     * Slurm grading too: the submitting host links and keeps each student's
     * runner at the build (its hash in the student's plan), and each task
     * starts the judge on its node; a collection runs nothing. */
    for (int w = 0; G->judge && mode != MODE_COLLECT && w < G->n_weeks; w++) {
        week_cfg *W = &G->weeks[w];
        int f = find_judge(G, W, err, sizeof err);
        if (f < 0) return fprintf(stderr, "grade: refusing to grade: %s\n", err), 2;
        printf("%s: %s", W->dir, f ? "judged outside the student's process (--judge 1)"
                                   : "has no judge: its test program forms the verdict, as without --judge");
        for (int c = 0, first = 1; f && c < W->meta.n_checkpoints; c++)
            if (!W->judged[c] && !W->meta.checkpoints[c].py)
                printf("%s%s", first ? "; left to its test program (the API cannot cross a process): " : ", ",
                       W->meta.checkpoints[c].id), first = 0;
        printf("\n");
    }
    /* Phase 7's Python checkpoints: the instructor's python3, checked to run in the sandbox before anyone is graded */
    int any_py = 0;
    for (int w = 0; w < G->n_weeks; w++) any_py |= G->weeks[w].has_py;
    if (any_py) {
        const char *ti = getenv("TRITON_INTERPRET");
        G->interpret = ti && strcmp(ti, "1") == 0;
    }
    if (any_py && mode != MODE_COLLECT) {
        if (find_python(G, err, sizeof err) != 0)
            return fprintf(stderr, "grade: refusing to grade: a graded week has Python checkpoints, and %s\n", err), 2;
        for (int i = 0; i < G->n_py_ro; i++) G->ro[ro_k++] = G->py_ro[i];
        G->ro[ro_k] = NULL;
        /* its bin/ last on PATH (Triton's and torch's tools: ninja for an extension build) */
        char pb[600];
        snprintf(pb, sizeof pb, "%s", G->py_exe);
        if (strrchr(pb, '/')) *strrchr(pb, '/') = 0;
        appendf(G->sb_path, sizeof G->sb_path, ":%s", pb);
        if (probe_python(G, err, sizeof err) != 0)
            return fprintf(stderr, "grade: refusing to grade: a graded week has Python checkpoints, and %s\n", err), 2;
        printf("Python checkpoints: %s in the sandbox, with", G->py_exe);
        for (int i = 0; i < G->n_py_ro; i++) printf(" %s", G->py_ro[i]);
        printf(" read-only%s\n", G->interpret ? "; TRITON_INTERPRET=1: Triton's interpreter, not a grading on a GPU" : "");
    }
    return 0;
}

/* The class's submissions into G->st (the folder listing's order). 0, or the exit status. */
static int read_class(grader *G)
{
    char err[4000], ignored[2000] = "";
    G->n_students = list_submissions(G->subs, G->st, MAX_STUDENTS, err, sizeof err, ignored, sizeof ignored);
    if (G->n_students < 0) return fprintf(stderr, "grade: the class folder %s cannot be graded:\n%s\n", G->subs, err), 2;
    if (ignored[0]) printf("Not submissions (ignored):\n%s%s", ignored, ignored[strlen(ignored) - 1] == '\n' ? "" : "\n");
    if (G->n_students == 0) return fprintf(stderr, "no submissions (folders or archives) in %s\n", G->subs), 2;
    return 0;
}

static void defaults(grader *G)
{
    memset(G, 0, sizeof *G);
    snprintf(G->root, sizeof G->root, ".");
    G->seed = 20261122;
    G->limit = 120;
    G->build_limit = 300;
    G->jobs = 8;
    G->gpu_share = 4; /* four students' correctness runs at once: graded the class of 30 on an H100 (README step 6) */
    G->disk_quota = DISK_QUOTA;
    snprintf(G->gres, sizeof G->gres, "gpu:1");
    G->slurm_wait = 1;
    G->slurm_poll = 30;
}

int main(int argc, char **argv)
{
    static grader G;
    defaults(&G);
    char weeks[2000] = "";
    int mode = MODE_LOCAL;
    /* A Slurm task or a collection: the grading's own options, as the
     * submitting grader wrote them into its Slurm folder */
    static char store[16384];
    char *args[200];
    if (argc >= 3 && (strcmp(argv[1], "--task") == 0 || strcmp(argv[1], "--collect") == 0)) {
        mode = strcmp(argv[1], "--task") == 0 ? MODE_TASK : MODE_COLLECT;
        char dir[600];
        if (mode == MODE_TASK && argc == 4) snprintf(dir, sizeof dir, "%s", argv[2]);
        else if (mode == MODE_TASK) return usage(), 2;
        else if (argc == 5 && strcmp(argv[3], "--slurm-dir") == 0) snprintf(dir, sizeof dir, "%s", argv[4]);
        else if (argc == 3) {
            snprintf(dir, sizeof dir, "%s", argv[2]);
            char *dot = strrchr(dir, '.');
            if (dot && !strchr(dot, '/')) *dot = 0;
            strncat(dir, "-slurm", sizeof dir - strlen(dir) - 1);
        } else return usage(), 2;
        int n = slurm_read_args(dir, args, 200, store, sizeof store);
        if (n < 0)
            return fprintf(stderr, "grade: %s holds no Slurm grading (no args file there: was the class graded with "
                           "SCHEDULER=slurm?)\n", dir), 2;
        int rc = parse_args(&G, n, args, weeks, sizeof weeks);
        if (rc) return rc;
        if (!G.slurm) return fprintf(stderr, "grade: %s: not a Slurm grading\n", dir), 2;
        G.in_task = mode == MODE_TASK;
        if (G.in_task) snprintf(G.slurm_list, sizeof G.slurm_list, "%s", argv[3]);
    } else {
        int rc = parse_args(&G, argc, argv, weeks, sizeof weeks);
        if (rc) return rc;
    }
    if (!G.subs[0] || !weeks[0] || !G.gradebook[0]) return usage(), 2;
    int rc = setup(&G, weeks, mode);
    if (rc) return rc;
    G.st = calloc(MAX_STUDENTS, sizeof *G.st);
    if (mode == MODE_TASK) return slurm_task(&G);
    if (mode == MODE_COLLECT) {
        double t0 = now_s();
        int killed = 0;
        if (slurm_collect(&G, 1, &killed) < 0) return 2;
        return finish(&G, t0);
    }
    rc = read_class(&G);
    if (rc) return rc;
    if (G.slurm) return slurm_submit(&G);
    double t0 = now_s();
    printf("Grading %d submission%s of", G.n_students, G.n_students == 1 ? "" : "s");
    for (int w = 0; w < G.n_weeks; w++) printf(" %s", G.weeks[w].dir);
    printf(" (seed %llu, %.0f s a checkpoint)\n", G.seed, G.limit);
    prepare_build_check(&G);
    printf("  prepared, built and checked in %.0f s\n", now_s() - t0);
    /* Correctness runs first, shared among students when --gpu-share > 1;
     * then every speed run alone on the GPU, student by student. */
    double tr = now_s();
    int n_shared = 0, n_alone = 0, n_speed = 0;
    if (G.gpu_share > 1) n_alone = grade_shared(&G, &n_shared);
    else
        for (int i = 0; i < G.n_students; i++) grade_serial(&G, &G.st[i], 0);
    for (int i = 0; i < G.n_students; i++) {
        student *s = &G.st[i];
        for (int w = 0; w < G.n_weeks; w++)
            for (int c = 0; c < G.weeks[w].meta.n_checkpoints; c++) n_speed += phase_has(&G, s, w, c, 1);
        grade_serial(&G, s, 1);
    }
    const int at_once = G.gpu_share < G.n_students ? G.gpu_share : G.n_students;
    if (G.gpu_share > 1)
        printf("  runs: %d correctness checkpoint%s run up to %d student%s at a time, %d of them run again alone (not "
               "a pass and not wrong values while shared); %d speed checkpoint%s run alone; %.0f s\n", n_shared,
               n_shared == 1 ? "" : "s", at_once, at_once == 1 ? "" : "s", n_alone, n_speed,
               n_speed == 1 ? "" : "s", now_s() - tr);
    else
        printf("  runs: every checkpoint run alone (--gpu-share 1); %.0f s\n", now_s() - tr);
    rc = finish(&G, t0);
    /* The gradebook is written: the scratch copies go (they hold each
     * student's build and whatever its runs wrote), unless asked to stay. */
    if (!G.keep_scratch && is_file(G.gradebook)) {
        for (int i = 0; i < G.n_students; i++) {
            char base[1400], cmd[3000];
            snprintf(base, sizeof base, "%s/%s", G.scratch, G.st[i].id);
            if (!is_dir(base)) continue;
            snprintf(cmd, sizeof cmd, "chmod -R u+rwX %s 2>/dev/null; rm -rf %s", q(base), q(base));
            if (sh(cmd, NULL)) fprintf(stderr, "grade: cannot remove %s\n", base);
        }
        printf("Scratch copies removed (--keep-scratch 1, KEEP_SCRATCH=1, keeps them).\n");
    }
    free(G.st);
    for (int w = 0; w < G.n_weeks; w++)
        for (int k = 0; k < G.weeks[w].n_api; k++) free(G.weeks[w].api[k]);
    for (int w = 0; w < G.n_weeks; w++)
        for (int k = 0; k < G.weeks[w].n_given; k++) free(G.weeks[w].given[k]);
    return rc;
}
