/* grade_slurm.c — part of the grader (grade.h): grading a class on a Slurm
 * cluster (--scheduler slurm). The grader does not schedule: Slurm does.
 *
 *   submitting host   steps 1-4 as locally (scratch copies, builds in the
 *                     sandbox, object checks), then one plan a student (its
 *                     state after the build) and one job array: a task a
 *                     student, each asking for one GPU and the time and
 *                     memory the class's limit implies;
 *   a task (a node)   `grade --task DIR LIST`: the student's plan, every
 *                     checkpoint run in the sandbox alone on the task's GPU
 *                     (correctness, hidden seeds, then speed, as locally),
 *                     its result and feedback written atomically into DIR;
 *   collection        `grade --collect GRADEBOOK` (make grade-collect), and
 *                     the submitting grader while it waits: the results
 *                     into the gradebook; a student whose task is pending or
 *                     running is PENDING (never 0); a task that ended without
 *                     a result (killed: time limit, node failure, preemption,
 *                     scancel) is named with the reason sacct gives and
 *                     re-queued once; killed again, the student is KILLED.
 *
 * A task is a student, not a student-week: a student's runs share its
 * scratch tree and never run two at once (grade_run.c), its weeks were built
 * together on the submitting host, and one task a student keeps the speed
 * runs alone on one GPU with no neighbour but the student's own correctness
 * runs, which come first. A class of a few weeks gains little from finer
 * tasks and would pay a node's start (the sandbox and GPU probes) per week.
 *
 * The Slurm folder (default GRADEBOOK-slurm/, on the filesystem the nodes
 * share, at the same path everywhere):
 *   args               the grading's options, one a line (tasks and
 *                      collections read them: one grading, one set of options)
 *   students.txt       the class as last submitted (the gradebook's rows)
 *   submit-N.sh, .txt  the job script of submission N and its class list
 *                      (the array index is a line of it)
 *   plans/ID           the student after the build (binary, this grader's layout)
 *   results/ID         the student graded (a plan's nonce: a result of an
 *                      older plan is not this grading's)
 *   jobs/ID            the student's tasks, a line each: JOB INDEX N<TAB>why it ended
 *   started/ID         the task now running it: its job id, array id, node
 *   logs/JOB_INDEX.out each task's output
 *   scratch/           the scratch copies (unless --scratch)
 *
 * Idempotent: a student whose result stands for the same options and the
 * same submission (its files' names, sizes and times) is not graded again,
 * nor one whose task is still with Slurm, unless --regrade names it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wb_file.h"
#include "grade.h"

#define MAX_ATTEMPTS 2 /* the task and its one re-queue */

/* builds the sandbox could not start on the submitting host, added to the tasks' own in each collection */
static int g_submit_errors;

/* ------------------------------------------------------------ files */

typedef struct {
    char magic[8];             /* "WBPLAN1" or "WBRES1" */
    unsigned size;             /* sizeof(student): the same grader's layout */
    unsigned long long nonce;  /* this submission of the student */
    unsigned long long key;    /* the options and the submission it was graded with */
    int host_gpus;             /* the node's GPUs (a result) */
    int sandbox_errors;        /* runs its sandbox could not start (a result) */
    char node[128];            /* where it ran (a result) */
    char job[64];              /* the task that graded it, JOB_INDEX (a result) */
} blob_hdr;

static void path_of(const grader *G, const char *sub, const char *id, char *out, size_t sz)
{
    snprintf(out, sz, "%s/%s%s%s", G->slurm_dir, sub, id ? "/" : "", id ? id : "");
}

/* Write header and body to path atomically (a temporary file beside it,
 * flushed to disk, renamed over it): a reader on another node sees the old
 * file or the whole new one. 0, or -1. */
static int write_atomic(const char *path, const void *a, size_t na, const void *b, size_t nb)
{
    char tmp[1400];
    char host[64] = "";
    gethostname(host, sizeof host - 1);
    snprintf(tmp, sizeof tmp, "%s.tmp-%s-%d", path, host, (int)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    int ok = (!na || write(fd, a, na) == (ssize_t)na) && (!nb || write(fd, b, nb) == (ssize_t)nb) && fsync(fd) == 0;
    ok &= close(fd) == 0;
    if (!ok || rename(tmp, path) != 0) return unlink(tmp), -1;
    return 0;
}

static int write_text(const char *path, const char *text) { return write_atomic(path, text, strlen(text), NULL, 0); }

/* A plan or a result: 0 when it is whole and of this grader's layout. */
static int read_blob(const char *path, const char *magic, blob_hdr *h, student *s)
{
    size_t n = 0;
    char *b = wb_read_file(path, &n);
    int ok = b && n == sizeof *h + sizeof *s;
    if (ok) memcpy(h, b, sizeof *h), memcpy(s, b + sizeof *h, sizeof *s);
    ok = ok && strncmp(h->magic, magic, sizeof h->magic) == 0 && h->size == sizeof *s;
    free(b);
    if (ok) {
        s->id[sizeof s->id - 1] = 0, s->sched_note[sizeof s->sched_note - 1] = 0;
        for (int w = 0; w < MAX_WEEKS; w++) s->note[w][sizeof s->note[w] - 1] = 0;
    }
    return ok ? 0 : -1;
}

static int write_blob(const char *path, const char *magic, blob_hdr *h, const student *s)
{
    memset(h->magic, 0, sizeof h->magic);
    snprintf(h->magic, sizeof h->magic, "%s", magic);
    h->size = sizeof *s;
    return write_atomic(path, h, sizeof *h, s, sizeof *s);
}

/* ------------------------------------------------------- fingerprints */

static unsigned long long fnv(unsigned long long h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 1099511628211ULL;
    return h;
}

static unsigned long long g_tree_key;
static size_t g_tree_base;
static int tree_entry(const char *p, const struct stat *st, int type, struct FTW *f)
{
    (void)type, (void)f;
    unsigned long long h = fnv(1469598103934665603ULL, p + g_tree_base, strlen(p + g_tree_base) + 1);
    long long v[3] = { (long long)st->st_size, (long long)st->st_mtim.tv_sec, (long long)st->st_mtim.tv_nsec };
    g_tree_key += fnv(h, v, sizeof v); /* a sum: the same whatever order the folder lists */
    return 0;
}

/* What a student's grading depends on: the marks' options (weeks, seed,
 * limits, make arguments, no GPU, Triton's interpreter, the judge) and the submission
 * as it is now (every file's name, size and time). */
static unsigned long long student_key(const grader *G, const student *s)
{
    unsigned long long h = 1469598103934665603ULL;
    for (int w = 0; w < G->n_weeks; w++) h = fnv(h, G->weeks[w].dir, strlen(G->weeks[w].dir) + 1);
    double lim[2] = { G->limit, G->build_limit };
    int flags[2] = { G->no_gpu_env, G->interpret };
    h = fnv(h, &G->seed, sizeof G->seed);
    h = fnv(h, lim, sizeof lim);
    h = fnv(h, flags, sizeof flags);
    if (G->seccomp != SB_SECCOMP_DENY) h = fnv(h, &G->seccomp, sizeof G->seccomp); /* the default keeps older keys */
    /* judged: the plan holds the runner the build linked and its hash, which a plan made without the judge lacks */
    if (G->judge) h = fnv(h, "judge", 6);
    for (int i = 0; i < G->n_make_args; i++) h = fnv(h, G->make_args[i], strlen(G->make_args[i]) + 1);
    /* refused by the class listing (a second submission under the id): graded again once that is fixed, though
     * the submission kept did not change */
    h = fnv(h, s->refusal, strlen(s->refusal) + 1);
    g_tree_key = 0;
    g_tree_base = strlen(s->source);
    nftw(s->source, tree_entry, 16, FTW_PHYS);
    return fnv(h, &g_tree_key, sizeof g_tree_key);
}

static unsigned long long nonce64(void)
{
    unsigned long long v = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v) v = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
    if (fd >= 0) close(fd);
    return v ? v : 1;
}

/* ------------------------------------------------------------ options */

/* The grading's options, for its tasks and collections: absolute paths, one
 * option or value a line. */
static int write_args(const grader *G)
{
    size_t cap = 65536;
    char *t = calloc(1, cap), path[700];
    appendf(t, cap, "--submissions\n%s\n--weeks\n", G->subs);
    for (int w = 0; w < G->n_weeks; w++) appendf(t, cap, "%s%s", w ? " " : "", G->weeks[w].dir);
    appendf(t, cap, "\n--gradebook\n%s\n--feedback\n%s\n--scratch\n%s\n--root\n%s\n--seed\n%llu\n--limit\n%.17g\n"
            "--build-limit\n%.17g\n--jobs\n%d\n--scheduler\nslurm\n--slurm-dir\n%s\n--gres\n%s\n--poll\n%.17g\n",
            G->gradebook, G->feedback, G->scratch, G->root, G->seed, G->limit, G->build_limit, G->jobs,
            G->slurm_dir, G->gres, G->slurm_poll);
    appendf(t, cap, "--seccomp\n%s\n--judge\n%d\n", sb_seccomp_name((sb_seccomp)G->seccomp), G->judge);
    for (int i = 0; i < G->n_make_args; i++) appendf(t, cap, "--make-arg\n%s\n", G->make_args[i]);
    for (int i = 0; i < G->n_sbatch; i++) appendf(t, cap, "--sbatch\n%s\n", G->sbatch[i]);
    path_of(G, "args", NULL, path, sizeof path);
    int rc = write_text(path, t);
    free(t);
    return rc;
}

/* The options in DIR/args as an argv (argv[0] "grade"); its count, or -1. */
int slurm_read_args(const char *dir, char **argv, int max, char *store, size_t storesz)
{
    char path[700];
    snprintf(path, sizeof path, "%s/args", dir);
    char *t = wb_read_file(path, NULL);
    if (!t) return -1;
    snprintf(store, storesz, "%s", t);
    free(t);
    int n = 0;
    argv[n++] = "grade";
    for (char *p = store; *p && n < max - 1;) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = 0;
        argv[n++] = p;
        if (!nl) break;
        p = nl + 1;
    }
    argv[n] = NULL;
    return n;
}

/* ------------------------------------------------------------ Slurm's side */

/* The output of a shell command (stderr dropped) and its exit status (-1
 * when it did not end by itself): run as every command of the grader is,
 * by run_limited, so a Slurm client that hangs (slurmctld not answering)
 * costs at most SLURM_CMD_LIMIT seconds, never the grading. */
#define SLURM_CMD_LIMIT 120
static char *capture(const char *cmd, int *rc)
{
    char full[8192], log[] = "/tmp/wb-slurm-cmd-XXXXXX";
    int fd = mkstemp(log);
    if (fd < 0) return *rc = -1, NULL;
    close(fd);
    snprintf(full, sizeof full, "%s 2>/dev/null", cmd);
    char *argv[] = { "/bin/sh", "-c", full, NULL };
    job j;
    memset(&j, 0, sizeof j);
    int r = run_limited(argv, NULL, log, NULL, SLURM_CMD_LIMIT, &j);
    *rc = r < 0 || j.timed_out || j.signaled ? -1 : j.exit_code;
    char *b = wb_read_file(log, NULL);
    unlink(log);
    if (!b) b = calloc(1, 1);
    return b;
}

/* The minutes a task may take (its --time): every run the student's weeks
 * can make (each checkpoint, each correctness checkpoint again with every
 * hidden seed), each up to the class's limit and the sandbox's 10 s beyond
 * it, and 3 minutes for the task's start (the sandbox, GPU and Python
 * probes). A hang costs its run's limit, never the task. */
int slurm_minutes(const grader *G)
{
    int runs = 0;
    for (int w = 0; w < G->n_weeks; w++)
        for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++)
            runs += 1 + (G->weeks[w].meta.checkpoints[c].target > 0 ? 0 : G->weeks[w].n_seeds);
    double s = runs * (G->limit + 15) + 180;
    return (int)ceil(s / 60);
}

/* What each task asks Slurm for, as the job script ends up asking: the
 * grader's time and memory, or the instructor's where an SBATCH word sets
 * them (theirs come later in the script and win): "15 min and 18G". */
void slurm_request_text(const grader *G, char *out, size_t outsz)
{
    char t[64], m[64];
    snprintf(t, sizeof t, "%d min", slurm_minutes(G));
    snprintf(m, sizeof m, "%lldG", (long long)(RUN_MEM / GIB) + 2);
    for (int i = 0; i < G->n_sbatch; i++) {
        const char *o = G->sbatch[i];
        if (strncmp(o, "--time=", 7) == 0) snprintf(t, sizeof t, "--time=%.50s (yours)", o + 7);
        else if (strncmp(o, "--mem=", 6) == 0) snprintf(m, sizeof m, "--mem=%.50s (yours)", o + 6);
    }
    snprintf(out, outsz, "%s and %s", t, m);
}

/* The job script of one submission: the grader's own #SBATCH lines (a
 * student a task: one node, one task, one GPU, the time and memory the
 * limit implies, no re-queue by Slurm, which the grader does itself), then
 * the instructor's (later lines win), then the task. */
int slurm_script(const grader *G, const char *list, char *out, size_t outsz)
{
    char exe[700] = "", name[200];
    char *r = realpath("/proc/self/exe", NULL);
    snprintf(exe, sizeof exe, "%s", r ? r : "grade");
    free(r);
    const char *b = strrchr(G->gradebook, '/');
    snprintf(name, sizeof name, "%s", b ? b + 1 : G->gradebook);
    if (strrchr(name, '.')) *strrchr(name, '.') = 0;
    out[0] = 0;
    /* this script's own name: its list's, .sh for .txt (submit-N.txt beside submit-N.sh) */
    char self[800];
    size_t ln = strlen(list);
    if (ln > 4 && strcmp(list + ln - 4, ".txt") == 0) snprintf(self, sizeof self, "%.*s.sh", (int)(ln - 4), list);
    else snprintf(self, sizeof self, "%s/submit-N.sh", G->slurm_dir);
    appendf(out, outsz, "#!/bin/sh\n# The workbook's grader (instructor/grade_slurm.c): one task a student of %s.\n"
            "# Resubmit a student by hand: sbatch --array=INDEX %s (INDEX: the student's line of %s, from 0).\n",
            G->subs, self, list);
    appendf(out, outsz, "#SBATCH --job-name=wb-grade-%s\n#SBATCH --output=%s/logs/%%A_%%a.out\n#SBATCH --chdir=%s\n"
            "#SBATCH --export=ALL\n#SBATCH --nodes=1\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=2\n"
            "#SBATCH --no-requeue\n", name, G->slurm_dir, G->root);
    if (G->gres[0]) appendf(out, outsz, "#SBATCH --gres=%s\n", G->gres);
    appendf(out, outsz, "#SBATCH --time=%d\n#SBATCH --mem=%lldG\n", slurm_minutes(G), (long long)(RUN_MEM / GIB) + 2);
    for (int i = 0; i < G->n_sbatch; i++) appendf(out, outsz, "#SBATCH %s\n", G->sbatch[i]);
    if (G->no_gpu_env) appendf(out, outsz, "export WB_NO_GPU=1\n");
    if (G->interpret) appendf(out, outsz, "export TRITON_INTERPRET=1\n");
    appendf(out, outsz, "exec %s --task", q(exe));
    appendf(out, outsz, " %s", q(G->slurm_dir));
    appendf(out, outsz, " %s\n", q(list));
    return 0;
}

/* --array's value: indexes, runs joined (0-3,7,9-10), %N where capped. */
void slurm_array_spec(const int *idx, int n, int max_running, char *out, size_t outsz)
{
    out[0] = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && idx[j + 1] == idx[j] + 1) j++;
        if (j > i) appendf(out, outsz, "%s%d-%d", out[0] ? "," : "", idx[i], idx[j]);
        else appendf(out, outsz, "%s%d", out[0] ? "," : "", idx[i]);
        i = j + 1;
    }
    if (max_running > 0) appendf(out, outsz, "%%%d", max_running);
}

/* A sacct line (JobID|State|ExitCode|NodeList, -P) for job `want`, or the
 * first one, as people read it: "CANCELLED by 0 (exit 0:15) on node7".
 * 0, or -1 when there is none. */
int slurm_parse_sacct(const char *text, const char *want, char *reason, size_t rsz)
{
    char line[600], got[600] = "";
    for (const char *p = text; p && *p;) {
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), p);
        p += n + (p[n] == '\n');
        char *f[4] = { line, NULL, NULL, NULL };
        for (int k = 1; k < 4; k++) {
            char *bar = f[k - 1] ? strchr(f[k - 1], '|') : NULL;
            if (bar) *bar = 0, f[k] = bar + 1;
        }
        if (!f[1] || !f[1][0]) continue;
        char r[600];
        snprintf(r, sizeof r, "%s", f[1]);
        if (f[2] && f[2][0]) appendf(r, sizeof r, " (exit %s)", f[2]);
        if (f[3] && f[3][0] && strcmp(f[3], "None assigned") != 0) appendf(r, sizeof r, " on %s", f[3]);
        if (strcmp(f[0], want) == 0) return snprintf(reason, rsz, "%s", r), 0;
        if (!got[0]) snprintf(got, sizeof got, "%s", r);
    }
    if (!got[0]) return -1;
    return snprintf(reason, rsz, "%s", got), 0;
}

/* Why a task ended, as Slurm's accounting says: sacct from the database,
 * else from the job completion file (jobcomp/filetxt, sacct -c, which knows
 * a task by its own job id only). */
static void sacct_reason(const char *raw, const char *task, char *why, size_t sz)
{
    const char *ids[2] = { raw, task };
    for (int mode = 0; mode < 2; mode++)
        for (int k = 0; k < 2; k++) {
            if (!ids[k] || !ids[k][0] || (mode == 1 && k == 1)) continue;
            char cmd[400];
            snprintf(cmd, sizeof cmd, "sacct %s -n -P -j %s -o JobID,State,ExitCode,NodeList", mode ? "-c" : "-X",
                     q(ids[k]));
            int rc;
            char *out = capture(cmd, &rc);
            int ok = out && rc == 0 && slurm_parse_sacct(out, ids[k], why, sz) == 0;
            free(out);
            if (ok) return;
        }
    snprintf(why, sz, "ended without a result; Slurm's accounting has no record of it (sacct)");
}

typedef struct {
    char task[64];   /* ARRAYJOB_INDEX */
    char state[32];
    char node[128];
    char reason[128];
} q_entry;

/* Our tasks in the queue (squeue -r: one line a task, pending ones too).
 * The count, or -1 when squeue did not answer. */
static int queue_snapshot(q_entry **out)
{
    struct passwd *pw = getpwuid(getuid());
    char cmd[300];
    snprintf(cmd, sizeof cmd, "squeue -h -r -u %s -o '%%i|%%T|%%N|%%r'", q(pw ? pw->pw_name : "root"));
    int rc;
    char *t = capture(cmd, &rc);
    *out = NULL;
    if (!t || rc != 0) return free(t), -1;
    int n = 0, cap = 64;
    q_entry *e = calloc((size_t)cap, sizeof *e);
    for (char *p = t; *p;) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = 0;
        char *f[4] = { p, NULL, NULL, NULL };
        for (int k = 1; k < 4; k++) {
            char *bar = f[k - 1] ? strchr(f[k - 1], '|') : NULL;
            if (bar) *bar = 0, f[k] = bar + 1;
        }
        if (f[1]) {
            if (n == cap) e = realloc(e, sizeof *e * (size_t)(cap *= 2));
            memset(&e[n], 0, sizeof e[n]);
            snprintf(e[n].task, sizeof e[n].task, "%s", f[0]);
            snprintf(e[n].state, sizeof e[n].state, "%s", f[1]);
            snprintf(e[n].node, sizeof e[n].node, "%s", f[2] ? f[2] : "");
            snprintf(e[n].reason, sizeof e[n].reason, "%s", f[3] ? f[3] : "");
            n++;
        }
        if (!nl) break;
        p = nl + 1;
    }
    free(t);
    *out = e;
    return n;
}

/* Still Slurm's: pending, running, completing, suspended, requeued... */
static const q_entry *live(const q_entry *e, int n, const char *task)
{
    static const char *const ended[] = { "COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
                                         "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", NULL };
    for (int i = 0; i < n; i++)
        if (strcmp(e[i].task, task) == 0) {
            for (int k = 0; ended[k]; k++)
                if (strcmp(e[i].state, ended[k]) == 0) return NULL;
            return &e[i];
        }
    return NULL;
}

/* ------------------------------------------------------ a student's tasks */

typedef struct {
    char job[32];      /* the array's job id */
    int  index;        /* the task's index: the student's line of the list */
    int  submit;       /* N of submit-N.sh */
    char why[400];     /* why it ended without a result, once known */
} attempt;

static int read_attempts(const grader *G, const char *id, attempt *a, int max)
{
    char path[900];
    path_of(G, "jobs", id, path, sizeof path);
    char *t = wb_read_file(path, NULL);
    int n = 0;
    for (char *p = t; p && *p && n < max;) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = 0;
        memset(&a[n], 0, sizeof a[n]);
        char *tab = strchr(p, '\t');
        if (tab) *tab = 0, snprintf(a[n].why, sizeof a[n].why, "%s", tab + 1);
        if (sscanf(p, "%31s %d %d", a[n].job, &a[n].index, &a[n].submit) == 3) n++;
        if (!nl) break;
        p = nl + 1;
    }
    free(t);
    return n;
}

static int write_attempts(const grader *G, const char *id, const attempt *a, int n)
{
    char path[900], t[4096] = "";
    path_of(G, "jobs", id, path, sizeof path);
    for (int i = 0; i < n; i++) appendf(t, sizeof t, "%s %d %d\t%s\n", a[i].job, a[i].index, a[i].submit, a[i].why);
    return write_text(path, t);
}

static void task_name(const attempt *a, char *out, size_t sz) { snprintf(out, sz, "%s_%d", a->job, a->index); }

/* sbatch a submission's script for the given indexes: the job id, or -1 (said). */
static long long sbatch(const grader *G, int submit, const char *array)
{
    char script[800], cmd[2000];
    snprintf(script, sizeof script, "%s/submit-%d.sh", G->slurm_dir, submit);
    snprintf(cmd, sizeof cmd, "sbatch --parsable --array=%s %s", array, q(script));
    int rc;
    char *out = capture(cmd, &rc);
    long long job = out && rc == 0 ? atoll(out) : -1;
    if (job <= 0) {
        fprintf(stderr, "grade: sbatch refused the array (%s, exit %d): run `%s` to see why\n", array, rc, cmd);
        job = -1;
    }
    free(out);
    return job;
}

/* The students of the list file, in order; how many, or -1. */
static int read_list(const char *path, student *st, int max)
{
    char *t = wb_read_file(path, NULL);
    if (!t) return -1;
    int n = 0;
    for (char *p = t; *p && n < max;) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = 0;
        if (*p) {
            memset(&st[n], 0, sizeof st[n]);
            snprintf(st[n].id, sizeof st[n].id, "%s", p);
            n++;
        }
        if (!nl) break;
        p = nl + 1;
    }
    free(t);
    return n;
}

static int write_list(const char *path, const grader *G)
{
    size_t cap = (size_t)G->n_students * 130 + 2;
    char *t = calloc(1, cap);
    for (int i = 0; i < G->n_students; i++) appendf(t, cap, "%s\n", G->st[i].id);
    int rc = write_text(path, t);
    free(t);
    return rc;
}

static int lock_dir(const grader *G)
{
    char path[700];
    path_of(G, ".lock", NULL, path, sizeof path);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) flock(fd, LOCK_EX);
    return fd;
}

static void unlock_dir(int fd)
{
    if (fd >= 0) flock(fd, LOCK_UN), close(fd);
}

/* ---------------------------------------------------------- collection */

/* Every student of the class as it stands: graded (its result), with Slurm
 * (PENDING), or killed twice (KILLED); with `requeue`, a task that ended
 * without a result, the student's first, is submitted again. Returns the
 * students still with Slurm, or -1 (said). */
int slurm_collect(grader *G, int requeue, int *n_killed)
{
    char path[900];
    path_of(G, "students.txt", NULL, path, sizeof path);
    int n = read_list(path, G->st, MAX_STUDENTS);
    if (n < 0) return fprintf(stderr, "grade: %s is missing: nothing was submitted\n", path), -1;
    G->n_students = n;
    int lk = lock_dir(G);
    q_entry *qe = NULL;
    int nq = queue_snapshot(&qe); /* before the results are read: a task gone from the queue has written its own */
    int in_flight = 0, gpus = 0;
    *n_killed = 0;
    G->sandbox_errors = g_submit_errors;
    for (int i = 0; i < n; i++) {
        student *s = &G->st[i];
        char id[sizeof s->id];
        snprintf(id, sizeof id, "%s", s->id);
        blob_hdr ph, rh;
        student *tmp = malloc(sizeof *tmp);
        path_of(G, "plans", id, path, sizeof path);
        int have_plan = read_blob(path, "WBPLAN1", &ph, tmp) == 0;
        path_of(G, "results", id, path, sizeof path);
        int have_res = have_plan && read_blob(path, "WBRES1", &rh, tmp) == 0 && rh.nonce == ph.nonce;
        attempt a[MAX_ATTEMPTS + 2];
        int na = read_attempts(G, id, a, MAX_ATTEMPTS + 2);
        char hist[700] = "", tn[64], tn2[64];
        /* what earlier tasks of the student ended with */
        for (int k = 0; k + 1 < na; k++) {
            task_name(&a[k], tn, sizeof tn), task_name(&a[k + 1], tn2, sizeof tn2);
            appendf(hist, sizeof hist, "%stask %s killed: %s; re-queued as %s", k ? "; " : "", tn, a[k].why[0] ? a[k].why : "?", tn2);
        }
        if (have_res) {
            *s = *tmp;
            s->sched = SCHED_GRADED;
            snprintf(s->sched_note, sizeof s->sched_note, "%s%s", hist, hist[0] ? ", which graded it" : "");
            G->sandbox_errors += rh.sandbox_errors;
            if (rh.host_gpus > gpus) gpus = rh.host_gpus;
            free(tmp);
            continue;
        }
        free(tmp);
        memset(s, 0, sizeof *s);
        snprintf(s->id, sizeof s->id, "%s", id);
        if (!have_plan || na == 0) {
            s->sched = SCHED_KILLED, ++*n_killed;
            snprintf(s->sched_note, sizeof s->sched_note, "not submitted (no plan or task for it): grade again");
            continue;
        }
        attempt *last = &a[na - 1];
        task_name(last, tn, sizeof tn);
        const q_entry *e = nq >= 0 ? live(qe, nq, tn) : NULL;
        if (nq < 0 || e) {
            s->sched = SCHED_PENDING, in_flight++;
            if (nq < 0) snprintf(s->sched_note, sizeof s->sched_note, "task %s: squeue did not answer", tn);
            else if (strcmp(e->state, "RUNNING") == 0)
                snprintf(s->sched_note, sizeof s->sched_note, "task %s running on %s", tn, e->node);
            else snprintf(s->sched_note, sizeof s->sched_note, "task %s %s%s%s%s", tn, e->state, e->reason[0] ? " (" : "",
                          e->reason, e->reason[0] ? ")" : "");
            if (hist[0]) snprintf(s->sched_note + strlen(s->sched_note), sizeof s->sched_note - strlen(s->sched_note),
                                  " after %s", hist);
            continue;
        }
        /* the task has left the queue without a result: why, once */
        if (!last->why[0]) {
            char raw[64] = "", at[64] = "", node[128] = "";
            path_of(G, "started", id, path, sizeof path);
            char *t = wb_read_file(path, NULL);
            if (t && sscanf(t, "%63s %63s %127s", raw, at, node) >= 2 && strcmp(at, tn) != 0) raw[0] = 0;
            free(t);
            sacct_reason(raw, tn, last->why, sizeof last->why);
            static const char *const going[] = { "PENDING", "RUNNING", "COMPLETING", "CONFIGURING", "REQUEUED",
                                                 "SUSPENDED", NULL };
            int still = 0;
            for (int k = 0; going[k]; k++) still |= strncmp(last->why, going[k], strlen(going[k])) == 0;
            if (still) { /* the queue and the accounting disagree for a moment: still Slurm's */
                s->sched = SCHED_PENDING, in_flight++;
                snprintf(s->sched_note, sizeof s->sched_note, "task %s %s (sacct)", tn, last->why);
                last->why[0] = 0;
                continue;
            }
            if (strncmp(last->why, "COMPLETED", 9) == 0) {
                /* it ended well, so its result was written: not visible here yet */
                s->sched = SCHED_PENDING, in_flight++;
                snprintf(s->sched_note, sizeof s->sched_note, "task %s completed; its result is not visible here yet "
                         "(the shared filesystem's delay?)", tn);
                last->why[0] = 0;
                continue;
            }
            if (strncmp(last->why, "FAILED", 6) == 0) { /* the grader itself stopped: its last line says why */
                char log[900];
                snprintf(log, sizeof log, "%s/logs/%s.out", G->slurm_dir, tn);
                char *l = wb_read_file(log, NULL);
                if (l) {
                    size_t k = strlen(l);
                    while (k && (l[k - 1] == '\n' || l[k - 1] == ' ')) l[--k] = 0;
                    const char *ls = l + k;
                    while (ls > l && ls[-1] != '\n') ls--;
                    if (*ls) appendf(last->why, sizeof last->why, "; its log ends \"%.200s\"", ls);
                }
                free(l);
            }
            write_attempts(G, id, a, na);
        }
        char killed[700];
        snprintf(killed, sizeof killed, "%s%stask %s killed: %s", hist, hist[0] ? "; " : "", tn, last->why);
        if (requeue && na < MAX_ATTEMPTS) {
            char spec[32];
            snprintf(spec, sizeof spec, "%d", last->index);
            long long job = sbatch(G, last->submit, spec);
            if (job > 0) {
                memset(&a[na], 0, sizeof a[na]);
                snprintf(a[na].job, sizeof a[na].job, "%lld", job);
                a[na].index = last->index, a[na].submit = last->submit;
                write_attempts(G, id, a, na + 1);
                task_name(&a[na], tn2, sizeof tn2);
                printf("  %-24s task %s ended without a result (%s): re-queued as %s\n", id, tn, last->why, tn2);
                fflush(stdout);
                s->sched = SCHED_PENDING, in_flight++;
                snprintf(s->sched_note, sizeof s->sched_note, "%s; re-queued as %s", killed, tn2);
                continue;
            }
        }
        s->sched = SCHED_KILLED, ++*n_killed;
        snprintf(s->sched_note, sizeof s->sched_note, "%s%s", killed,
                 na >= MAX_ATTEMPTS ? "; not re-queued again: grade again with SCHEDULER=slurm" : "");
    }
    free(qe);
    unlock_dir(lk);
    if (gpus > g_host_gpus) g_host_gpus = gpus;
    return in_flight;
}

/* ------------------------------------------------------------ the task */

/* One array task: the student on line SLURM_ARRAY_TASK_ID of the list,
 * graded from its plan, every run alone on this task's GPU; its result and
 * feedback written atomically. Exit 0 once the result is written. */
int slurm_task(grader *G)
{
    const char *ix = getenv("SLURM_ARRAY_TASK_ID");
    if (!ix) return fprintf(stderr, "grade --task: no SLURM_ARRAY_TASK_ID: not an array task\n"), 2;
    int n = read_list(G->slurm_list, G->st, MAX_STUDENTS), i = atoi(ix);
    if (n < 0 || i < 0 || i >= n) return fprintf(stderr, "grade --task: no line %d in %s\n", i, G->slurm_list), 2;
    student *s = &G->st[i];
    char id[sizeof s->id], path[900], node[128] = "?", task[64];
    snprintf(id, sizeof id, "%s", s->id);
    gethostname(node, sizeof node - 1);
    snprintf(task, sizeof task, "%s_%s", getenv("SLURM_ARRAY_JOB_ID") ? getenv("SLURM_ARRAY_JOB_ID") : "?", ix);
    blob_hdr h;
    path_of(G, "plans", id, path, sizeof path);
    if (read_blob(path, "WBPLAN1", &h, s) != 0)
        return fprintf(stderr, "grade --task: %s: no plan at %s (made by a grader of another build?)\n", id, path), 2;
    char started[300];
    snprintf(started, sizeof started, "%s %s %s\n", getenv("SLURM_JOB_ID") ? getenv("SLURM_JOB_ID") : "?", task, node);
    path_of(G, "started", id, path, sizeof path);
    write_text(path, started);
    printf("task %s: %s on %s (%d GPU%s)\n", task, id, node, g_host_gpus, g_host_gpus == 1 ? "" : "s");
    fflush(stdout);
    /* For the workbook's own test of killed tasks (instructor/tests/slurm.sh):
     * the task waits while this file exists, so that it can be cancelled
     * while RUNNING; 10 minutes at most. */
    const char *hold = getenv("WB_GRADE_TASK_HOLD");
    for (int k = 0; hold && *hold && k < 3000 && access(hold, F_OK) == 0; k++) usleep(200000);
    double t0 = now_s();
    G->st = s; /* the grader's view: this student alone */
    G->n_students = 1;
    grade_serial(G, s, 0);
    grade_serial(G, s, 1);
    h.host_gpus = g_host_gpus;
    h.sandbox_errors = G->sandbox_errors;
    snprintf(h.node, sizeof h.node, "%s", node);
    snprintf(h.job, sizeof h.job, "%s", task);
    path_of(G, "results", id, path, sizeof path);
    if (write_blob(path, "WBRES1", &h, s) != 0)
        return fprintf(stderr, "grade --task: %s: cannot write %s: %s\n", id, path, strerror(errno)), 1;
    char fb[1400], tmp[1500];
    snprintf(fb, sizeof fb, "%s/%s.md", G->feedback, id);
    snprintf(tmp, sizeof tmp, "%s.tmp-%s-%d", fb, node, (int)getpid());
    if (write_feedback(G, s, tmp) != 0 || rename(tmp, fb) != 0) fprintf(stderr, "cannot write %s\n", fb), unlink(tmp);
    double tot = 0;
    printf("  %-24s", id);
    for (int w = 0; w < G->n_weeks; w++)
        for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) printf(" %s", st_name(s->g[w][c].status)), tot += s->g[w][c].points;
    printf("  %6.2f / %g  (%.0f s on %s)\n", tot, max_points(G), now_s() - t0, node);
    return 0;
}

/* ---------------------------------------------------------- submission */

static int asked(const grader *G, const char *id)
{
    if (strcmp(G->regrade, "all") == 0) return 1;
    size_t n = strlen(id);
    for (const char *p = G->regrade; (p = strstr(p, id)); p += n)
        if ((p == G->regrade || p[-1] == ' ' || p[-1] == ',') && (p[n] == 0 || p[n] == ' ' || p[n] == ','))
            return 1;
    return 0;
}

static int runnable(const grader *G, const student *s)
{
    for (int w = 0; w < G->n_weeks; w++)
        for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++)
            if (phase_has(G, s, w, c, 0) || phase_has(G, s, w, c, 1)) return 1;
    return 0;
}

static void say_counts(int graded, int pending, int killed)
{
    time_t t = time(NULL);
    char hm[16];
    strftime(hm, sizeof hm, "%H:%M:%S", localtime(&t));
    printf("  Slurm, %s: %d graded, %d pending or running, %d killed\n", hm, graded, pending, killed);
    fflush(stdout);
}

/* The class through Slurm: who needs grading (not a finished student, nor
 * one whose task is with Slurm, unless asked), steps 1-4 for them here,
 * their plans, one job array; then, unless --wait 0, the array waited for
 * (tasks that ended without a result re-queued once) and the gradebook. */
int slurm_submit(grader *G)
{
    double t0 = now_s();
    setvbuf(stdout, NULL, _IOLBF, 0); /* a line at a time: people follow a long wait in its log */
    int rc;
    free(capture("sbatch --version", &rc));
    if (rc != 0)
        return fprintf(stderr, "grade: refusing to grade with SCHEDULER=slurm: sbatch does not run here (Slurm's "
                       "commands must be on PATH, and SLURM_CONF set where the cluster's configuration is not the default)\n"), 2;
    char cmd[4000], path[900];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/plans %s/results %s/jobs %s/started %s/logs", q(G->slurm_dir), q(G->slurm_dir),
             q(G->slurm_dir), q(G->slurm_dir), q(G->slurm_dir));
    if (sh(cmd, NULL)) return fprintf(stderr, "grade: cannot make %s\n", G->slurm_dir), 2;
    int lk = lock_dir(G);
    q_entry *qe = NULL;
    int nq = queue_snapshot(&qe);
    if (nq < 0) {
        unlock_dir(lk);
        return fprintf(stderr, "grade: refusing to grade with SCHEDULER=slurm: squeue does not answer (is slurmctld "
                       "up? see `sinfo`)\n"), 2;
    }
    if (write_args(G) != 0) return unlock_dir(lk), fprintf(stderr, "grade: cannot write in %s\n", G->slurm_dir), 2;
    path_of(G, "students.txt", NULL, path, sizeof path);
    write_list(path, G);
    /* which students to grade */
    grader *S = malloc(sizeof *S);
    *S = *G;
    S->st = calloc(MAX_STUDENTS, sizeof *S->st);
    S->n_students = 0;
    int *cls = calloc(MAX_STUDENTS, sizeof *cls), n_done = 0, n_flight = 0;
    unsigned long long *keys = calloc(MAX_STUDENTS, sizeof *keys);
    for (int i = 0; i < G->n_students; i++) {
        student *s = &G->st[i];
        unsigned long long key = student_key(G, s);
        blob_hdr ph, rh;
        student *tmp = malloc(sizeof *tmp);
        path_of(G, "plans", s->id, path, sizeof path);
        int plan_ok = read_blob(path, "WBPLAN1", &ph, tmp) == 0 && ph.key == key;
        path_of(G, "results", s->id, path, sizeof path);
        int done = plan_ok && read_blob(path, "WBRES1", &rh, tmp) == 0 && rh.nonce == ph.nonce;
        free(tmp);
        attempt a[MAX_ATTEMPTS + 2];
        int na = read_attempts(G, s->id, a, MAX_ATTEMPTS + 2);
        char tn[64] = "";
        if (na) task_name(&a[na - 1], tn, sizeof tn);
        int flying = na && live(qe, nq, tn) != NULL;
        if (!asked(G, s->id) && done) {
            n_done++;
            continue;
        }
        if (!asked(G, s->id) && plan_ok && flying) {
            n_flight++;
            continue;
        }
        if (flying) { /* asked again, or its submission changed: the task under way is not this grading's */
            snprintf(cmd, sizeof cmd, "scancel %s", q(tn));
            sh(cmd, NULL);
        }
        static const char *const parts[] = { "results", "jobs", "started" };
        for (int k = 0; k < 3; k++) path_of(G, parts[k], s->id, path, sizeof path), unlink(path);
        keys[S->n_students] = key;
        cls[S->n_students] = i;
        S->st[S->n_students++] = *s;
    }
    free(qe);
    printf("Grading %d submission%s of", G->n_students, G->n_students == 1 ? "" : "s");
    for (int w = 0; w < G->n_weeks; w++) printf(" %s", G->weeks[w].dir);
    printf(" (seed %llu, %.0f s a checkpoint) through Slurm: %d to grade, %d graded already, %d with Slurm already "
           "(%s)\n", G->seed, G->limit, S->n_students, n_done, n_flight, G->slurm_dir);
    if (S->n_students) {
        prepare_build_check(S);
        printf("  prepared, built and checked in %.0f s\n", now_s() - t0);
        g_submit_errors = S->sandbox_errors;
        /* the submission's number, script and list */
        int submit = 1;
        for (;; submit++) {
            snprintf(path, sizeof path, "%s/submit-%d.sh", G->slurm_dir, submit);
            if (access(path, F_OK) != 0) break;
        }
        char list[800];
        snprintf(list, sizeof list, "%s/submit-%d.txt", G->slurm_dir, submit);
        write_list(list, G);
        size_t cap = 16384;
        char *script = malloc(cap);
        slurm_script(G, list, script, cap);
        if (write_text(path, script) != 0) return fprintf(stderr, "grade: cannot write %s\n", path), 2;
        free(script);
        int *idx = calloc((size_t)S->n_students, sizeof *idx), n_idx = 0;
        for (int k = 0; k < S->n_students; k++) {
            student *s = &S->st[k];
            blob_hdr h;
            memset(&h, 0, sizeof h);
            h.nonce = nonce64(), h.key = keys[k];
            path_of(G, "plans", s->id, path, sizeof path);
            if (write_blob(path, "WBPLAN1", &h, s) != 0) return fprintf(stderr, "grade: cannot write %s\n", path), 2;
            if (runnable(G, s)) idx[n_idx++] = cls[k];
            else { /* refused, not built, or refused by the object check: graded here, no task */
                snprintf(h.node, sizeof h.node, "(the submitting host)");
                path_of(G, "results", s->id, path, sizeof path);
                write_blob(path, "WBRES1", &h, s);
            }
        }
        if (n_idx) {
            char spec[8192];
            slurm_array_spec(idx, n_idx, G->slurm_max, spec, sizeof spec);
            long long job = sbatch(G, submit, spec);
            if (job < 0) return unlock_dir(lk), 2;
            for (int k = 0; k < n_idx; k++) {
                attempt a;
                memset(&a, 0, sizeof a);
                snprintf(a.job, sizeof a.job, "%lld", job);
                a.index = idx[k], a.submit = submit;
                write_attempts(G, G->st[idx[k]].id, &a, 1);
            }
            char req[200];
            slurm_request_text(G, req, sizeof req);
            printf("  submitted job %lld: %d task%s (--array=%s), %s each%s%s; script %s/submit-%d.sh, "
                   "logs %s/logs/\n", job, n_idx, n_idx == 1 ? "" : "s", spec, req, G->gres[0] ? ", --gres=" : "",
                   G->gres, G->slurm_dir, submit, G->slurm_dir);
        }
        free(idx);
    }
    unlock_dir(lk);
    free(S->st), free(S), free(cls), free(keys);
    fflush(stdout);
    int killed = 0, last[3] = { -1, -1, -1 };
    for (;;) {
        int flying = slurm_collect(G, 1, &killed);
        if (flying < 0) return 2;
        int graded = G->n_students - flying - killed;
        if (graded != last[0] || flying != last[1] || killed != last[2]) say_counts(graded, flying, killed);
        last[0] = graded, last[1] = flying, last[2] = killed;
        if (!G->slurm_wait) {
            if (flying) printf("  not waiting (--wait 0): make grade-collect GRADEBOOK=%s when the array has run\n", G->gradebook);
            break;
        }
        if (!flying) break;
        usleep((useconds_t)(G->slurm_poll * 1e6));
    }
    return finish(G, t0);
}
