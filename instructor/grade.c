/* grade.c — grades a class's submissions of chosen weeks into a gradebook.
 *
 *   grade --submissions DIR --weeks "phase0/week01 ..." --gradebook OUT.csv
 *         [--feedback DIR] [--scratch DIR] [--root DIR] [--seed N]
 *         [--limit SECONDS] [--build-limit SECONDS] [--jobs N] [--make-arg ARG]...
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
 *   5. run on the GPU one student at a time, one sandboxed process per
 *      checkpoint (CK_RUN_CASE; Check's fork mode on, so each test runs in
 *      its own child), with WB_SEED=the class seed and WB_RESULTS and
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
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wb_file.h"
#include "wb_meta.h"
#include "wb_results.h"
#include "objcheck.h"
#include "sandbox.h"
#include "unpack.h"

#define MAX_STUDENTS 512
#define MAX_WEEKS    8
#define MAX_SEEDS    16
#define MAX_FORBID   32
#define MAX_API      128
#define MAX_RECORD   (1L << 20) /* a results record larger than this is refused */
#define DEFAULT_POINTS 10.0

/* ------------------------------------------------------------------ utils */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* ------------------------------------------------- running with a limit */

typedef struct {
    pid_t  pid;
    double deadline;
    int    done;
    int    exit_code;  /* valid when !signaled && !timed_out */
    int    signaled;   /* the signal that ended it, 0 if none */
    int    timed_out;
    double seconds;
    double started;
} job;

/* Start argv in its own process group, in `cwd`, output to `log` (appended),
 * with the NULL-terminated "KEY=VALUE" list `env` added ("KEY=" unsets). */
static int job_start(job *j, char *const argv[], const char *cwd, const char *log, char *const env[],
                     double limit_s)
{
    memset(j, 0, sizeof *j);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        setpgid(0, 0);
        if (cwd && chdir(cwd) != 0) _exit(126);
        int fd = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0) dup2(nul, 0), close(nul);
        for (int i = 0; env && env[i]; i++) {
            char kv[1024];
            snprintf(kv, sizeof kv, "%s", env[i]);
            char *eq = strchr(kv, '=');
            if (!eq) continue;
            *eq = 0;
            if (eq[1]) setenv(kv, eq + 1, 1);
            else unsetenv(kv);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* both sides, whichever runs first */
    j->pid = pid;
    j->started = now_s();
    j->deadline = j->started + limit_s;
    return 0;
}

static void job_reap(job *j, int status)
{
    j->done = 1;
    j->seconds = now_s() - j->started;
    if (WIFEXITED(status)) j->exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) j->signaled = WTERMSIG(status);
    killpg(j->pid, SIGKILL); /* whatever it left behind (a test's child) goes too */
}

/* Poll: returns 1 when the job has finished (or was stopped for its time). */
static int job_poll(job *j)
{
    if (j->done) return 1;
    int status;
    pid_t r = waitpid(j->pid, &status, WNOHANG);
    if (r == j->pid) {
        job_reap(j, status);
        return 1;
    }
    if (now_s() >= j->deadline) {
        killpg(j->pid, SIGTERM);
        for (int k = 0; k < 40; k++) { /* 2 s to go quietly */
            if (waitpid(j->pid, &status, WNOHANG) == j->pid) goto reaped;
            usleep(50000);
        }
        killpg(j->pid, SIGKILL);
        waitpid(j->pid, &status, 0);
    reaped:
        job_reap(j, status);
        j->timed_out = 1;
        j->signaled = 0;
        return 1;
    }
    return 0;
}

static void job_wait(job *j)
{
    while (!job_poll(j)) usleep(20000);
}

/* Run and wait. Returns 0 when it exited 0 in time. */
static int run_limited(char *const argv[], const char *cwd, const char *log, char *const env[], double limit_s,
                       job *out)
{
    job j;
    if (job_start(&j, argv, cwd, log, env, limit_s) != 0) return -1;
    job_wait(&j);
    if (out) *out = j;
    return (!j.timed_out && !j.signaled && j.exit_code == 0) ? 0 : 1;
}

static int sh(const char *cmd, const char *log)
{
    char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
    return run_limited(argv, NULL, log, NULL, 600, NULL);
}

/* Single-quote a path for /bin/sh. */
static const char *q(const char *s)
{
    static char buf[8][1200];
    static int k;
    char *o = buf[k++ & 7];
    size_t n = 0;
    o[n++] = '\'';
    for (; *s && n < sizeof buf[0] - 6; s++) {
        if (*s == '\'') {
            memcpy(o + n, "'\\''", 4);
            n += 4;
        } else o[n++] = *s;
    }
    o[n++] = '\'';
    o[n] = 0;
    return o;
}

/* ------------------------------------------ what a checkpoint's run gave */

enum { ST_NONE = 0, ST_PASS, ST_FAIL, ST_SKIP };

/* Points a speed checkpoint earns: proportional to ratio/target, capped. */
static double speed_points(double points, double ratio, double target)
{
    if (!(target > 0) || isnan(ratio) || ratio <= 0) return 0;
    double f = ratio / target;
    return points * (f > 1 ? 1 : f);
}

/* A short name for why a test failed, from Check's or WB_CUDA's message. */
static const char *classify(const char *msg)
{
    if (!msg || !*msg) return "failed";
    if (strstr(msg, "timeout") || strstr(msg, "Timeout")) return "hang (a test ran past its time limit)";
    if (strstr(msg, "out of memory")) return "out of memory";
    if (strstr(msg, "illegal") || strstr(msg, "misaligned") || strstr(msg, "unspecified launch failure") ||
        strstr(msg, "exception") || strstr(msg, "Xid") || strstr(msg, "device-side assert"))
        return "GPU fault";
    if (strstr(msg, "Received signal") || strstr(msg, "signal")) return "crash";
    return "wrong result";
}

/* --------------------------------------------------- forbidden libraries */

/* What forbid.txt may name: a library objcheck knows (by its C prefix, C++
 * namespace and headers), or a raw symbol prefix ending in '*' ("yard_*"). */
static const char *const KNOWN_LIBS[] = { "cublas", "cublaslt", "cufft", "curand", "cusparse", "cusolver",
                                          "cudnn", "nccl", "cub", "thrust", "cutlass", "cute", NULL };

static int forbid_name_ok(const char *name)
{
    for (int i = 0; KNOWN_LIBS[i]; i++)
        if (strcmp(KNOWN_LIBS[i], name) == 0) return 1;
    size_t n = strlen(name);
    if (n < 2 || name[n - 1] != '*') return 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '_') return 0;
    return 1;
}

/* Harness functions an exercise file may call (wb_cuda.h's WB_CUDA and
 * WB_LAUNCH, the device facts, the input generator week 04's CLI uses). */
static const char *const HARNESS_ALLOW[] = { "wb_cuda_check_", "wb_launch_status_", "wb_fp32_lanes_per_sm",
                                             "wb_rng_seed", "wb_fill_uniform_f32", NULL };

/* ------------------------------------------------------------ the class */

typedef struct {
    char   dir[600];           /* the week folder, e.g. phase0/week01 */
    wb_week meta;
    double points[WB_MAX_CHECKPOINTS];
    int    n_seeds;
    unsigned long long seeds[MAX_SEEDS];
    int    n_forbid;
    char   forbid[MAX_FORBID][32];
    char   forbid_except[MAX_FORBID][300]; /* " ex1 ex2 ": exercises allowed this library */
    int    n_api;
    char  *api[MAX_API];       /* the exercises' C functions, from the instructor's starter objects */
} week_cfg;

typedef struct {
    int    status;             /* ST_PASS / ST_FAIL / ST_SKIP */
    double points;
    char   figure[400];        /* for people: wb_result_figure of the record, "" if none */
    char   why[700];
    double ratio, target;      /* from the results record; NAN / 0 when none */
    char   yard[32];
} cp_grade;

typedef struct {
    char     id[128];
    char     source[700];      /* the folder or archive */
    char     sub[700];         /* the extracted submission (scratch) */
    char     tree[700];        /* the scratch workbook */
    char     note[MAX_WEEKS][1200];
    int      built[MAX_WEEKS];
    int      forbidden[MAX_WEEKS];
    int      refused;          /* the submission itself was refused (unpack) */
    unsigned long long bin_hash[MAX_WEEKS]; /* the test program as built, before any of it ran */
    double   seconds;
    cp_grade g[MAX_WEEKS][WB_MAX_CHECKPOINTS];
} student;

typedef struct {
    char root[600], subs[600], gradebook[600], feedback[600], scratch[600];
    unsigned long long seed;
    double limit, build_limit;
    int jobs;
    int n_make_args;
    char *make_args[32];
    int n_weeks;
    week_cfg weeks[MAX_WEEKS];
    int n_students;
    student *st;
    /* the sandbox (sandbox.h): what it shows read-only besides the system,
     * what must stay absent from it */
    char nvcc[600], cuda_home[600], deps_real[600], check_dir[600], sb_path[800];
    const char *ro[8], *hide[8];
    int no_gpu_env;            /* WB_NO_GPU=1 in the grader's environment: passed on */
    int sandbox_errors;        /* runs the sandbox could not start (the grader's problem, not a student's) */
    unsigned run_seq;
} grader;

static void appendf(char *buf, size_t sz, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n + 1 >= sz) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, sz - n, fmt, ap);
    va_end(ap);
}

/* The instructor-only config file of a week: ROOT/instructor/weeks/WEEK/name,
 * else ROOT/WEEK/instructor/name. */
static char *week_config(const char *root, const char *week, const char *name)
{
    char p[1400];
    snprintf(p, sizeof p, "%s/instructor/weeks/%s/%s", root, week, name);
    char *s = wb_read_file(p, NULL);
    if (s) return s;
    snprintf(p, sizeof p, "%s/%s/instructor/%s", root, week, name);
    return wb_read_file(p, NULL);
}

static int load_week_cfg(const char *root, const char *week, week_cfg *w, char *err, size_t errsz)
{
    memset(w, 0, sizeof *w);
    snprintf(w->dir, sizeof w->dir, "%s", week);
    char p[1400];
    snprintf(p, sizeof p, "%s/%s/week.txt", root, week);
    if (wb_week_load(p, &w->meta, err, errsz) != 0) return -1;
    for (int c = 0; c < w->meta.n_checkpoints; c++) w->points[c] = DEFAULT_POINTS;
    char *s = week_config(root, week, "points.txt"), *save = NULL;
    for (char *line = s ? strtok_r(s, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        char id[64];
        double pts;
        if (line[0] == '#' || sscanf(line, "%63s %lf", id, &pts) != 2) continue;
        int found = 0;
        for (int c = 0; c < w->meta.n_checkpoints; c++)
            if (strcmp(w->meta.checkpoints[c].id, id) == 0) w->points[c] = pts, found = 1;
        if (!found) {
            snprintf(err, errsz, "%s points.txt: no checkpoint '%s' in week.txt", week, id);
            free(s);
            return -1;
        }
    }
    free(s);
    s = week_config(root, week, "seeds.txt");
    for (char *line = s ? strtok_r(s, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        char *e;
        while (*line == ' ') line++;
        if (!*line || *line == '#') continue;
        unsigned long long v = strtoull(line, &e, 0);
        if (e != line && w->n_seeds < MAX_SEEDS) w->seeds[w->n_seeds++] = v;
    }
    free(s);
    s = week_config(root, week, "forbid.txt");
    for (char *line = s ? strtok_r(s, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        char name[32];
        int used = 0;
        if (line[0] == '#' || sscanf(line, "%31s%n", name, &used) != 1) continue;
        if (!forbid_name_ok(name)) {
            snprintf(err, errsz, "%s forbid.txt: unknown library '%s' (known: cublas cublaslt cufft curand cusparse "
                     "cusolver cudnn nccl cub thrust cutlass cute, or a symbol prefix such as yard_*)", week, name);
            free(s);
            return -1;
        }
        if (w->n_forbid == MAX_FORBID) continue;
        int f = w->n_forbid++;
        snprintf(w->forbid[f], 32, "%s", name);
        /* "NAME except EX ...": those exercises may use it (week 21's cublas_rm calls cuBLAS) */
        char word[64], *rest = line + used;
        int k;
        snprintf(w->forbid_except[f], sizeof w->forbid_except[f], " ");
        if (sscanf(rest, "%63s%n", word, &k) == 1) {
            if (strcmp(word, "except") != 0) {
                snprintf(err, errsz, "%s forbid.txt: '%s %s': expected 'NAME' or 'NAME except EXERCISE ...'", week,
                         name, word);
                free(s);
                return -1;
            }
            for (rest += k; sscanf(rest, "%63s%n", word, &k) == 1; rest += k) {
                int known = 0;
                for (int e = 0; e < w->meta.n_exercises; e++) known |= strcmp(w->meta.exercises[e], word) == 0;
                if (!known) {
                    snprintf(err, errsz, "%s forbid.txt: '%s except %s': %s is not an exercise of the week", week,
                             name, word, word);
                    free(s);
                    return -1;
                }
                appendf(w->forbid_except[f], sizeof w->forbid_except[f], "%s ", word);
            }
        }
    }
    free(s);
    return 0;
}

/* The --weeks list: names split on blanks, each made canonical
 * (phase0/week1 and phase0/week01/ are phase0/week01), a repeat dropped.
 * Returns how many, or -1 with the reason in err. */
static int split_weeks(const char *text, char out[][64], char *err, size_t errsz)
{
    int n = 0;
    const char *p = text;
    for (;;) {
        p += strspn(p, " \t\n");
        if (!*p) break;
        size_t len = strcspn(p, " \t\n");
        char w[64];
        snprintf(w, sizeof w, "%.*s", (int)(len < 63 ? len : 63), p);
        p += len;
        size_t k = strlen(w);
        while (k && w[k - 1] == '/') w[--k] = 0;
        int ph, wk, used = 0;
        if (sscanf(w, "phase%1d/week%2d%n", &ph, &wk, &used) == 2 && used == (int)k && wk >= 1 && wk <= 52)
            snprintf(w, sizeof w, "phase%d/week%02d", ph, wk);
        else {
            snprintf(err, errsz, "'%s' is not a week name (phaseP/weekNN, e.g. phase0/week01)", w);
            return -1;
        }
        int dup = 0;
        for (int i = 0; i < n; i++) dup |= strcmp(out[i], w) == 0;
        if (dup) continue;
        if (n == MAX_WEEKS) {
            snprintf(err, errsz, "at most %d weeks at a time", MAX_WEEKS);
            return -1;
        }
        snprintf(out[n++], 64, "%s", w);
    }
    return n;
}

/* Submissions in `dir` (unpack.c's up_list: folders and archives, sorted by
 * id; two entries with one id, bob/ and bob.tar.gz, are an error naming
 * both, and so is a name unusable as an id). Other entries are listed in
 * `ignored`. Returns how many, or -1 with the problems in err. */
static int list_submissions(const char *dir, student *st, int max, char *err, size_t errsz, char *ignored,
                            size_t ignsz)
{
    up_submission *subs = NULL;
    int n = 0;
    if (up_list(dir, &subs, &n, err, errsz, ignored, ignsz) != 0) {
        free(subs);
        return -1;
    }
    if (n > max) {
        snprintf(err, errsz, "%d submissions in %s: at most %d at a time", n, dir, max);
        free(subs);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        memset(&st[i], 0, sizeof st[i]);
        snprintf(st[i].id, sizeof st[i].id, "%s", subs[i].id);
        snprintf(st[i].source, sizeof st[i].source, "%s", subs[i].path);
    }
    free(subs);
    return n;
}

/* The folder inside a submission that holds `week`: SUB/WEEK, or one level
 * down (an archive of a folder). NULL if neither. */
static int find_week_in_sub(const char *sub, const char *week, char *out, size_t outsz)
{
    snprintf(out, outsz, "%s/%s", sub, week);
    if (is_dir(out)) return 0;
    DIR *d = opendir(sub);
    if (!d) return -1;
    struct dirent *e;
    int found = -1;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            char p[1400];
            snprintf(p, sizeof p, "%s/%s/%s", sub, e->d_name, week);
            if (is_dir(p)) {
                snprintf(out, outsz, "%s", p);
                found = 0;
                break;
            }
        }
    closedir(d);
    return found;
}

/* --------------------------------------------------------- preparation */

static int prepare_student(grader *G, student *s, char *err, size_t errsz)
{
    char base[1400], log[1500], cmd[6000];
    snprintf(base, sizeof base, "%s/%s", G->scratch, s->id);
    snprintf(s->sub, sizeof s->sub, "%s/sub", base);
    snprintf(s->tree, sizeof s->tree, "%s/wb", base);
    snprintf(log, sizeof log, "%s/prepare.log", base);
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s && chmod 755 %s %s", q(base), q(s->tree), q(base), q(s->tree));
    if (sh(cmd, NULL)) return snprintf(err, errsz, "cannot make %s", base), -1;
    /* the submission: plain files and folders only, or refused whole (unpack.h) */
    up_limits lim = { 0, 0, 0 };
    char why[1000];
    if (up_import(s->source, s->sub, &lim, why, sizeof why) != 0) {
        s->refused = 1;
        return snprintf(err, errsz, "submission refused: %s", why), -1;
    }
    /* the workbook: sources, the graded weeks without solutions, prebuilt
     * parts; .deps/ by its real path, which the sandbox shows read-only */
    snprintf(cmd, sizeof cmd, "cd %s && cp -a Makefile mk common tools %s/ && { [ ! -d .deps ] || ln -s \"$(cd .deps && pwd -P)\" %s/.deps; }",
             q(G->root), q(s->tree), q(s->tree));
    if (sh(cmd, log)) return snprintf(err, errsz, "cannot copy the workbook (see %s)", log), -1;
    snprintf(cmd, sizeof cmd, "cd %s && mkdir -p %s/build && cp -a build/libwb.a build/wb build/.deps-ok build/common %s/build/ && "
             "{ [ ! -f build/.nvcc-flags ] || cp -a build/.nvcc-flags %s/build/; }",
             q(G->root), q(s->tree), q(s->tree), q(s->tree));
    if (sh(cmd, log)) return snprintf(err, errsz, "the instructor's build/ lacks libwb.a or wb (see %s)", log), -1;
    /* Weeks a graded week `uses:` (week.txt) and is not graded itself: as the
     * instructor has them, reference solution included (the same for every
     * student), with their prebuilt objects; and the phaseP/common/ folders
     * of every week in the copy. */
    for (int w = 0; w < G->n_weeks; w++)
        for (int u = 0; u < G->weeks[w].meta.n_uses; u++) {
            const char *v = G->weeks[w].meta.uses[u];
            int graded = 0;
            for (int k = 0; k < G->n_weeks; k++) graded |= strcmp(G->weeks[k].dir, v) == 0;
            char there[1400];
            snprintf(there, sizeof there, "%s/%s", s->tree, v);
            if (graded || is_dir(there)) continue;
            snprintf(cmd, sizeof cmd, "cd %s && mkdir -p %s/%s && cp -a %s/. %s/%s/ && rm -rf %s/%s/instructor && "
                     "{ [ ! -d build/%s ] || { mkdir -p %s/build/%s && cp -a build/%s/. %s/build/%s/; }; }",
                     q(G->root), q(s->tree), v, v, q(s->tree), v, q(s->tree), v, v, q(s->tree), v, v, q(s->tree), v);
            if (sh(cmd, log)) return snprintf(err, errsz, "cannot copy %s, which %s uses (see %s)", v, G->weeks[w].dir, log), -1;
        }
    for (int w = 0; w < G->n_weeks; w++) {
        char ph[16];
        snprintf(ph, sizeof ph, "%.*s", (int)strcspn(G->weeks[w].dir, "/"), G->weeks[w].dir);
        snprintf(cmd, sizeof cmd, "cd %s && { [ ! -d %s/common ] || [ -d %s/%s/common ] || { mkdir -p %s/%s && cp -a %s/common %s/%s/ && "
                 "{ [ ! -d build/%s/common ] || { mkdir -p %s/build/%s && cp -a build/%s/common %s/build/%s/; }; }; }; }",
                 q(G->root), ph, q(s->tree), ph, q(s->tree), ph, ph, q(s->tree), ph, ph, q(s->tree), ph, ph, q(s->tree), ph);
        if (sh(cmd, log)) return snprintf(err, errsz, "cannot copy %s/common (see %s)", ph, log), -1;
    }
    for (int w = 0; w < G->n_weeks; w++) {
        const char *wk = G->weeks[w].dir;
        snprintf(cmd, sizeof cmd,
                 "cd %s && mkdir -p %s/%s %s/build/%s && cp -a %s/. %s/%s/ && rm -rf %s/%s/solution %s/%s/instructor && "
                 "cp -a build/%s/test.o build/%s/test.d %s/build/%s/ && { [ ! -d build/%s/support ] || cp -a build/%s/support %s/build/%s/; }",
                 q(G->root), q(s->tree), wk, q(s->tree), wk, wk, q(s->tree), wk, q(s->tree), wk, q(s->tree), wk, wk,
                 wk, q(s->tree), wk, wk, wk, q(s->tree), wk);
        if (sh(cmd, log)) return snprintf(err, errsz, "cannot copy %s (is it built? see %s)", wk, log), -1;
        /* overlay the exercise files */
        const wb_week *m = &G->weeks[w].meta;
        char src[1400];
        int have_week = find_week_in_sub(s->sub, wk, src, sizeof src) == 0;
        if (!have_week && G->n_weeks == 1) snprintf(src, sizeof src, "%s", s->sub); /* flat: vecadd.cu at the top */
        int used = 0;
        for (int e = 0; e < m->n_exercises; e++) {
            char from[1500], to[1500];
            snprintf(from, sizeof from, "%s/%s.cu", src, m->exercises[e]);
            snprintf(to, sizeof to, "%s/%s/%s.cu", s->tree, wk, m->exercises[e]);
            if ((have_week || G->n_weeks == 1) && is_file(from)) {
                snprintf(cmd, sizeof cmd, "cp %s %s", q(from), q(to));
                if (sh(cmd, log)) return snprintf(err, errsz, "cannot copy %s", from), -1;
                used++;
            } else {
                appendf(s->note[w], sizeof s->note[w], "- %s.cu was not in the submission: the starter was graded.\n",
                        m->exercises[e]);
            }
        }
        if (!used) appendf(s->note[w], sizeof s->note[w], "- No file of %s was found in the submission.\n", wk);
    }
    /* What week.txt says, for make, written once here: the weeks of one
     * student build at the same time in this tree, and would each write it. */
    snprintf(cmd, sizeof cmd, "cd %s && build/wb make-vars > build/weeks.mk", q(s->tree));
    if (sh(cmd, log)) return snprintf(err, errsz, "wb make-vars failed in the scratch copy (see %s)", log), -1;
    return 0;
}

/* ------------------------------------------------------------ the sandbox */

#define GIB (1LL << 30)
#define BUILD_MEM   (8 * GIB)   /* nvcc on CUTLASS templates needs a few GiB */
#define RUN_MEM     (16 * GIB)  /* host buffers of the largest tests, with room */
#define FILE_LIMIT  (2 * GIB)
#define MAX_PROCS   256

/* Options every sandboxed command of student s starts from: the scratch
 * workbook read-write; the toolkit, .deps/ and Check read-only; the
 * workbook, the class, the gradebook and the feedback absent. */
static void sandbox_opts(const grader *G, const student *s, sb_opts *o)
{
    memset(o, 0, sizeof *o);
    o->scratch = s->tree;
    o->ro_binds = G->ro;
    o->hide = G->hide;
    o->path = G->sb_path;
    o->max_procs = MAX_PROCS;
    o->file_bytes = FILE_LIMIT;
}

/* Why a sandboxed command stopped at a limit, for people. */
static void limit_text(const sb_result *r, const sb_opts *o, char *out, size_t sz)
{
    switch (r->limit) {
    case SB_LIMIT_WALL: snprintf(out, sz, "it ran past %.0f s and was stopped", o->wall_s); break;
    case SB_LIMIT_CPU: snprintf(out, sz, "it used more than %.0f s of CPU time", o->cpu_s); break;
    case SB_LIMIT_MEM: snprintf(out, sz, "it ran out of memory (the limit is %lld GiB of host memory)", o->mem_bytes / GIB); break;
    case SB_LIMIT_FILE: snprintf(out, sz, "it wrote a file larger than %lld GiB", o->file_bytes / GIB); break;
    case SB_LIMIT_OUTPUT: snprintf(out, sz, "it printed more than the output limit and was stopped"); break;
    default: snprintf(out, sz, "it stopped"); break;
    }
}

/* A file's contents hashed (FNV-1a, 64 bits), not following a symlink; 0 if
 * it cannot be read. */
static unsigned long long file_hash(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return close(fd), 0ULL;
    unsigned long long h = 1469598103934665603ULL;
    unsigned char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; i++) h = (h ^ buf[i]) * 1099511628211ULL;
    close(fd);
    return h ? h : 1;
}

/* Copy a file the sandbox wrote (untrusted: perhaps a symlink, a fifo, or
 * huge) to `to`, a regular file of at most `max` bytes. 0, or -1 with why. */
static int copy_untrusted(const char *from, const char *to, long max, char *why, size_t whysz)
{
    int in = open(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (in < 0) return snprintf(why, whysz, "%s", errno == ENOENT ? "absent" : strerror(errno)), -1;
    struct stat st;
    if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > max) {
        snprintf(why, whysz, "%s", S_ISREG(st.st_mode) ? "larger than the grader reads" : "not a regular file");
        close(in);
        return -1;
    }
    int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (out < 0) return close(in), snprintf(why, whysz, "cannot write %s", to), -1;
    char buf[65536];
    long total = 0;
    ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0 && total <= max) {
        total += n;
        if (write(out, buf, (size_t)n) != n) break;
    }
    close(in);
    close(out);
    if (total > max) return unlink(to), snprintf(why, whysz, "larger than the grader reads"), -1;
    return 0;
}

/* ------------------------------------------------------------------ builds */

/* The make command of one week of one student, run in the sandbox: the
 * learner test, and for each exercise its full dependency list (nvcc -M:
 * make's -MMD leaves out system headers, and nvcc counts CCCL's cub and
 * thrust among them), which the object check reads. -k: a file that does
 * not compile still leaves the others' objects and lists to check. */
static int build_argv(const grader *G, const student *s, int w, char **argv, char store[][700])
{
    const week_cfg *W = &G->weeks[w];
    int k = 0, t = 0;
    argv[k++] = "make";
    argv[k++] = "-C";
    argv[k++] = (char *)s->tree;
    argv[k++] = "-k";
    argv[k++] = "-j4";
    for (int i = 0; i < G->n_make_args; i++) argv[k++] = G->make_args[i];
    for (int e = 0; e < W->meta.n_exercises; e++) {
        argv[k++] = "--eval";
        snprintf(store[t], 700, "build/%s/learner/%s.fulldeps: %s/%s.cu ; @mkdir -p $(@D) && $(NVCC) $(NVFLAGS) $(call week_nvf,%s) -I%s -M "
                 "-MT build/%s/learner/%s.o -MF $@ $<", W->dir, W->meta.exercises[e], W->dir, W->meta.exercises[e],
                 W->dir, W->dir, W->dir, W->meta.exercises[e]);
        argv[k++] = store[t++];
    }
    snprintf(store[t], 700, "build/%s/learner/test", W->dir);
    argv[k++] = store[t++];
    for (int e = 0; e < W->meta.n_exercises; e++) {
        snprintf(store[t], 700, "build/%s/learner/%s.fulldeps", W->dir, W->meta.exercises[e]);
        argv[k++] = store[t++];
    }
    argv[k] = NULL;
    return k;
}

/* The first compiler error in a build log, for the feedback. */
static void first_error(const char *log, char *out, size_t outsz)
{
    char *t = wb_read_file(log, NULL);
    out[0] = 0;
    if (!t) return;
    char *p = strstr(t, "error");
    if (p) {
        char *ls = p;
        while (ls > t && ls[-1] != '\n') ls--;
        snprintf(out, outsz, "%.*s", (int)strcspn(ls, "\n"), ls);
    } else {
        size_t n = strlen(t);
        snprintf(out, outsz, "%s", n > 300 ? t + n - 300 : t);
    }
    free(t);
}

static void set_all(grader *G, student *s, int w, int status, const char *why)
{
    for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) {
        cp_grade *g = &s->g[w][c];
        g->status = status;
        g->points = 0;
        snprintf(g->why, sizeof g->why, "%s", why);
    }
}

typedef struct {
    pid_t pid;
    int   fd;      /* the sb_result comes back through this pipe */
    int   task;
} build_slot;

/* One build in a child process (sb_run blocks and is not reentrant): the
 * sb_result and sb_run's return code go back through a pipe. */
static int build_start(grader *G, int t, build_slot *slot)
{
    student *s = &G->st[t / G->n_weeks];
    int w = t % G->n_weeks;
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) != 0) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return close(fd[0]), close(fd[1]), -1;
    if (pid == 0) {
        close(fd[0]);
        static char store[2 * WB_MAX_EXERCISES + 2][700];
        char *argv[2 * WB_MAX_EXERCISES + 3 * WB_MAX_EXERCISES + 48], log[1400];
        build_argv(G, s, w, argv, store);
        snprintf(log, sizeof log, "%s/../build-%d.log", s->tree, w);
        sb_opts o;
        sandbox_opts(G, s, &o);
        o.wall_s = G->build_limit;
        o.mem_bytes = BUILD_MEM;
        o.log_path = log;
        struct { int rc; sb_result r; } msg;
        msg.rc = sb_run(&o, argv, &msg.r);
        ssize_t n = write(fd[1], &msg, sizeof msg);
        _exit(n == (ssize_t)sizeof msg ? 0 : 1);
    }
    close(fd[1]);
    slot->pid = pid, slot->fd = fd[0], slot->task = t;
    return 0;
}

static void build_done(grader *G, build_slot *slot)
{
    student *s = &G->st[slot->task / G->n_weeks];
    int w = slot->task % G->n_weeks;
    struct { int rc; sb_result r; } msg;
    memset(&msg, 0, sizeof msg);
    if (read(slot->fd, &msg, sizeof msg) != (ssize_t)sizeof msg) {
        msg.rc = -1;
        snprintf(msg.r.why, sizeof msg.r.why, "the build process died");
    }
    close(slot->fd);
    char log[1400], why[900];
    snprintf(log, sizeof log, "%s/../build-%d.log", s->tree, w);
    if (msg.rc != 0) {
        G->sandbox_errors++;
        fprintf(stderr, "grade: %s %s: the sandbox could not start the build: %s\n", s->id, G->weeks[w].dir, msg.r.why);
        snprintf(why, sizeof why, "not graded: the grader could not start the build (%s); the instructor was told",
                 msg.r.why);
        set_all(G, s, w, ST_FAIL, why);
        s->built[w] = -1;
        return;
    }
    if (msg.r.limit == SB_LIMIT_NONE && msg.r.signal == 0 && msg.r.exit_code == 0) {
        s->built[w] = 1;
        return;
    }
    char e[400];
    first_error(log, e, sizeof e);
    if (msg.r.limit != SB_LIMIT_NONE) {
        sb_opts o;
        sandbox_opts(G, s, &o);
        o.wall_s = G->build_limit, o.mem_bytes = BUILD_MEM;
        char lt[300];
        limit_text(&msg.r, &o, lt, sizeof lt);
        snprintf(why, sizeof why, "did not build: %s", lt);
    } else snprintf(why, sizeof why, "did not compile: %s", e);
    set_all(G, s, w, ST_FAIL, why);
    appendf(s->note[w], sizeof s->note[w], "- The build failed; its log ends:\n\n```\n%s\n```\n", e);
}

/* Build every student's weeks, `jobs` at a time, each in the sandbox. */
static void build_all(grader *G)
{
    int total = G->n_students * G->n_weeks, next = 0, running = 0;
    build_slot *slots = calloc(G->jobs, sizeof *slots);
    for (int i = 0; i < G->jobs; i++) slots[i].pid = 0;
    while (next < total || running) {
        for (int i = 0; i < G->jobs && next < total; i++) {
            if (slots[i].pid) continue;
            int t = next++;
            if (G->st[t / G->n_weeks].built[t % G->n_weeks] < 0) continue; /* preparation failed */
            if (build_start(G, t, &slots[i]) == 0) running++;
        }
        for (int i = 0; i < G->jobs; i++) {
            int status;
            if (!slots[i].pid || waitpid(slots[i].pid, &status, WNOHANG) != slots[i].pid) continue;
            build_done(G, &slots[i]);
            slots[i].pid = 0;
            running--;
        }
        usleep(20000);
    }
    free(slots);
}

/* ------------------------------------------------------------ object check */

/* The exercise API of week w: the C functions the instructor's own build of
 * the starters defines (build/WEEK/starter/EX.o, made by `make grade`). */
static int load_week_api(const char *root, week_cfg *W, char *err, size_t errsz)
{
    for (int e = 0; e < W->meta.n_exercises; e++) {
        char obj[1400];
        snprintf(obj, sizeof obj, "%s/build/%s/starter/%s.o", root, W->dir, W->meta.exercises[e]);
        if (oc_api_symbols(obj, W->api, &W->n_api, MAX_API - 1) < 0)
            return snprintf(err, errsz, "%s: cannot read the exercise API from %s (make grade builds it)", W->dir, obj), -1;
    }
    W->api[W->n_api] = NULL;
    return 0;
}

/* The policy for exercise e of week w in student s's tree (objcheck.h):
 * headers from the week, the weeks it uses, common/include, the phase's
 * common/, the toolkit, the system, .deps/ for a week that needs it. */
static void exercise_policy(const grader *G, const student *s, int w, int e, oc_policy *p, const char **forbid,
                            char inc[][1400], const char **incp)
{
    const week_cfg *W = &G->weeks[w];
    int nf = 0, ni = 0;
    char pad[80];
    snprintf(pad, sizeof pad, " %s ", W->meta.exercises[e]);
    for (int f = 0; f < W->n_forbid; f++)
        if (!strstr(W->forbid_except[f], pad)) forbid[nf++] = W->forbid[f];
    forbid[nf] = NULL;
    char ph[16];
    snprintf(ph, sizeof ph, "%.*s", (int)strcspn(W->dir, "/"), W->dir);
    snprintf(inc[ni++], 1400, "%s/%s", s->tree, W->dir);
    snprintf(inc[ni++], 1400, "%s/common/include", s->tree);
    snprintf(inc[ni++], 1400, "%s/%s/common", s->tree, ph);
    for (int u = 0; u < W->meta.n_uses && ni < 12; u++) snprintf(inc[ni++], 1400, "%s/%s", s->tree, W->meta.uses[u]);
    if (G->cuda_home[0]) snprintf(inc[ni++], 1400, "%s", G->cuda_home);
    snprintf(inc[ni++], 1400, "/usr/include");
    snprintf(inc[ni++], 1400, "/usr/lib/gcc");
    if (W->meta.n_needs && G->deps_real[0]) snprintf(inc[ni++], 1400, "%s", G->deps_real);
    for (int i = 0; i < ni; i++) incp[i] = inc[i];
    incp[ni] = NULL;
    memset(p, 0, sizeof *p);
    p->api = (const char *const *)W->api;
    p->harness_allow = HARNESS_ALLOW;
    p->allow_refs = (const char *const *)W->api; /* one exercise may call another of its week (week 04's cli) */
    p->forbid = forbid;
    p->include_dirs = incp;
}

/* The object check of every built week of student s: each exercise object
 * and its full dependency list. Runs after the build and before any of the
 * student's code has run (a run could change the files). A violation scores
 * the week 0, its lines in the notes. Also notes the test program's hash. */
static void check_objects(grader *G, student *s, int w)
{
    const week_cfg *W = &G->weeks[w];
    if (s->built[w] < 0) return;
    oc_report rep;
    memset(&rep, 0, sizeof rep);
    for (int e = 0; e < W->meta.n_exercises; e++) {
        char obj[1500], deps[1500], inc[16][1400];
        const char *forbid[MAX_FORBID + 1], *incp[17];
        oc_policy p;
        exercise_policy(G, s, w, e, &p, forbid, inc, incp);
        snprintf(obj, sizeof obj, "%s/build/%s/learner/%s.o", s->tree, W->dir, W->meta.exercises[e]);
        snprintf(deps, sizeof deps, "%s/build/%s/learner/%s.fulldeps", s->tree, W->dir, W->meta.exercises[e]);
        if (!is_file(obj)) continue; /* it did not compile: the build failure says so */
        oc_check_object(obj, &p, &rep);
        oc_check_deps(deps, s->tree, &p, &rep);
    }
    if (rep.violations) {
        s->forbidden[w] = 1;
        char why[300];
        snprintf(why, sizeof why, "the compiled exercise code breaks the week's rules (%d finding%s, see the notes): "
                 "every checkpoint of the week scores 0", rep.violations, rep.violations == 1 ? "" : "s");
        set_all(G, s, w, ST_FAIL, why);
        appendf(s->note[w], sizeof s->note[w], "- The object check refused the compiled exercise code:\n\n```\n");
        /* paths in the scratch copy are the grader's business: show them relative to it */
        size_t tl = strlen(s->tree);
        for (const char *l = rep.text; l && *l;) {
            size_t n = strcspn(l, "\n");
            char line[400];
            snprintf(line, sizeof line, "%.*s", (int)(n < 399 ? n : 399), l);
            char *t;
            while ((t = strstr(line, s->tree))) memmove(t, t + tl + (t[tl] == '/'), strlen(t + tl + (t[tl] == '/')) + 1);
            appendf(s->note[w], sizeof s->note[w], "%s\n", line);
            l += n + (l[n] == '\n');
        }
        appendf(s->note[w], sizeof s->note[w], "```\n");
        printf("  %-24s %s: object check: %d finding%s\n", s->id, W->dir, rep.violations, rep.violations == 1 ? "" : "s");
        for (const char *l = rep.text; l && *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n'))
            printf("      %.*s\n", (int)strcspn(l, "\n"), l);
        s->built[w] = -1;
    } else if (s->built[w] == 1) {
        char bin[1500];
        snprintf(bin, sizeof bin, "%s/build/%s/learner/test", s->tree, W->dir);
        s->bin_hash[w] = file_hash(bin);
    }
    oc_report_free(&rep);
}

/* -------------------------------------------------------------- checkpoints */

/* GPUs the driver reports on this host (host_gpu_count, asked once before
 * grading), 0 without one or with WB_NO_GPU=1. */
static int g_host_gpus;

/* The harness's reasons for skipping a GPU test (common/src/wb_test.c,
 * probe_gpu): the run found no usable GPU. */
static int gpu_unavailable(const char *msg)
{
    static const char *const why[] = { "no NVIDIA GPU", "the GPU cannot be used", "the GPU probe process failed",
                                       "WB_NO_GPU=1 is set", NULL };
    for (int i = 0; why[i]; i++)
        if (strncmp(msg, why[i], strlen(why[i])) == 0) return 1;
    return 0;
}

/* GPUs on this host, asked of the driver (libcuda) in a child process so the
 * grader itself never holds a CUDA context across its forks; 0 without a
 * driver or a GPU. */
static int host_gpu_count(void)
{
    int fd[2];
    if (pipe(fd) != 0) return 0;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        int n = 0;
        void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (h) {
            int (*init)(unsigned) = (int (*)(unsigned))dlsym(h, "cuInit");
            int (*count)(int *) = (int (*)(int *))dlsym(h, "cuDeviceGetCount");
            if (!init || !count || init(0) != 0 || count(&n) != 0) n = 0;
        }
        ssize_t k = write(fd[1], &n, sizeof n);
        (void)k;
        _exit(0);
    }
    close(fd[1]);
    int n = 0;
    if (pid < 0 || read(fd[0], &n, sizeof n) != (ssize_t)sizeof n) n = 0;
    close(fd[0]);
    if (pid > 0) waitpid(pid, NULL, 0);
    return n;
}

/* A checkpoint's outcome from its results record (common/include/wb_results.h),
 * which the test program writes to WB_RESULTS when it has run (the grader
 * reads a bounded copy); `r` says how the sandboxed run ended and `log`
 * holds what it printed (shown to people when there is no record, never read
 * for a result). A missing or unreadable record is a FAIL: the program died
 * or stopped before writing it. */
static void outcome_from_record(const char *rpath, const char *id, const sb_result *j, double limit, const char *log,
                                cp_grade *out)
{
    memset(out, 0, sizeof *out);
    out->ratio = NAN;
    out->status = ST_FAIL;
    if (j->limit == SB_LIMIT_WALL) {
        snprintf(out->why, sizeof out->why, "hang: no result within %.0f s; the run was stopped (instructors: if a "
                 "correct solution needs longer, raise LIMIT)", limit);
        return;
    }
    if (j->limit != SB_LIMIT_NONE) {
        const char *what = j->limit == SB_LIMIT_MEM    ? "out of memory: the run passed the sandbox's host-memory limit"
                           : j->limit == SB_LIMIT_CPU  ? "CPU time limit: the run used more CPU time than allowed"
                           : j->limit == SB_LIMIT_FILE ? "file size limit: the run wrote too large a file"
                                                       : "output limit: the run printed too much and was stopped";
        snprintf(out->why, sizeof out->why, "%s", what);
        return;
    }
    wb_result *r = NULL;
    char err[700];
    int n = wb_results_read(rpath, &r, err, sizeof err);
    const wb_result *mine = NULL;
    for (int i = 0; i < n && !mine; i++)
        if (strcmp(r[i].id, id) == 0) mine = &r[i];
    if (!mine) {
        char what[800];
        if (n < 0 && access(rpath, F_OK) != 0) snprintf(what, sizeof what, "it wrote no results record");
        else if (n < 0) snprintf(what, sizeof what, "its results record is unreadable (%s)", err);
        else snprintf(what, sizeof what, "its results record has no checkpoint %s", id);
        if (j->signal)
            snprintf(out->why, sizeof out->why, "crash: the test program died of signal %d (%s); %s", j->signal,
                     strsignal(j->signal), what);
        else {
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
            snprintf(out->why, sizeof out->why, "the test program stopped before its results (exit %d): %s%s%s%s",
                     j->exit_code, what, tail[0] ? "; its last line: \"" : "", tail, tail[0] ? "\"" : "");
        }
        free(r);
        return;
    }
    out->status = mine->status == WB_RES_PASS ? ST_PASS : mine->status == WB_RES_FAIL ? ST_FAIL : ST_SKIP;
    if (out->status == ST_SKIP && g_host_gpus > 0 && gpu_unavailable(mine->message)) {
        /* This host has a GPU, so the run lost it by its own doing (a fork
         * storm leaves the harness no process for its GPU probe; a changed
         * environment says WB_NO_GPU=1): a FAIL, not a SKIP to grade again. */
        out->status = ST_FAIL;
        snprintf(out->why, sizeof out->why, "no GPU in the run, on a host that has one: \"%s\" (a submission that "
                 "starves the process limit or hides the GPU from its own test earns nothing)", mine->message);
        free(r);
        return;
    }
    out->ratio = mine->ratio;
    out->target = mine->target > 0 ? mine->target : 0;
    snprintf(out->yard, sizeof out->yard, "%s", mine->yard);
    wb_result_figure(mine, out->figure, sizeof out->figure);
    if (out->status == ST_FAIL)
        snprintf(out->why, sizeof out->why, "%s: %s", classify(mine->message), mine->message[0] ? mine->message : "failed");
    else if (out->status == ST_SKIP)
        snprintf(out->why, sizeof out->why, "not graded: %s", mine->message[0] ? mine->message : "skipped");
    free(r);
}

/* The points a checkpoint's outcome earns out of `pts`: all for a pass; for a
 * speed checkpoint that ran and missed its target, pts * ratio / target (the
 * ratio and target its results record gives); nothing otherwise. */
static void score_checkpoint(cp_grade *g, double pts)
{
    g->points = 0;
    if (g->status == ST_PASS) g->points = pts;
    else if (g->status == ST_FAIL && g->target > 0 && !isnan(g->ratio)) {
        g->points = speed_points(pts, g->ratio, g->target);
        snprintf(g->why, sizeof g->why, "below target: %.3f of %s, target >= %.2f %s: %.2f of %g points", g->ratio,
                 g->yard, g->target, g->yard, g->points, pts);
    }
}

/* The environment of a checkpoint's run, besides PATH and HOME (the sandbox
 * sets those and nothing else). No CK_FORK: Check's fork mode is on, so
 * each test of the checkpoint runs in its own child process, as in
 * practice (week 02's fault tests skip themselves under CK_FORK=no). */
static int checkpoint_env(const grader *G, const student *s, int w, const char *id, unsigned long long seed,
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
    for (int i = 0; i < k; i++) env[i] = store[i];
    env[k] = NULL;
    return k;
}

/* Run one checkpoint of one week of one student with `seed`, in the
 * sandbox with the GPU: the test program with CK_RUN_CASE=the checkpoint
 * and WB_RESULTS=a file in the scratch tree, whose record gives the outcome. */
static void run_checkpoint(grader *G, student *s, int w, int c, unsigned long long seed, const char *tag,
                           cp_grade *out)
{
    const week_cfg *W = &G->weeks[w];
    const char *id = W->meta.checkpoints[c].id;
    char bin[1400], log[1600], rec[1600], copy[1600], why[300];
    snprintf(bin, sizeof bin, "%s/build/%s/learner/test", s->tree, W->dir);
    snprintf(log, sizeof log, "%s/../run-%d-%s%s.log", s->tree, w, id, tag);
    snprintf(rec, sizeof rec, "%s/.grade-results-%u.tsv", s->tree, G->run_seq++); /* a new name: nothing to remove first */
    snprintf(copy, sizeof copy, "%s/../results-%d-%s%s.tsv", s->tree, w, id, tag);
    unlink(copy);
    sb_result r;
    memset(&r, 0, sizeof r);
    /* an earlier run of this student's code could have rewritten the test program */
    if (s->bin_hash[w] && file_hash(bin) != s->bin_hash[w]) {
        memset(out, 0, sizeof *out);
        out->ratio = NAN;
        out->status = ST_FAIL;
        snprintf(out->why, sizeof out->why, "the test program changed after it was built (an earlier run of this "
                 "submission rewrote it): not run");
        return;
    }
    char store[12][1700];
    const char *env[13];
    checkpoint_env(G, s, w, id, seed, rec, store, env);
    sb_opts o;
    sandbox_opts(G, s, &o);
    o.gpu = 1;
    o.env = env;
    o.wall_s = G->limit + 10; /* Check's own per-test limit (WB_TEST_TIMEOUT) comes first */
    o.mem_bytes = RUN_MEM;
    o.log_path = log;
    if (is_dir("/usr/local/nvidia/lib64")) o.ld_library_path = "/usr/local/nvidia/lib64";
    char *argv[] = { bin, NULL };
    if (sb_run(&o, argv, &r) != 0) {
        G->sandbox_errors++;
        fprintf(stderr, "grade: %s %s: the sandbox could not start the run: %s\n", s->id, id, r.why);
        memset(out, 0, sizeof *out);
        out->ratio = NAN;
        out->status = ST_FAIL;
        snprintf(out->why, sizeof out->why, "not graded: the grader could not start the run (%s)", r.why);
        return;
    }
    if (copy_untrusted(rec, copy, MAX_RECORD, why, sizeof why) != 0 && strcmp(why, "absent") != 0) {
        /* a record that is a link, a fifo or huge: as good as none */
        FILE *f = fopen(copy, "w");
        if (f) fprintf(f, "refused by the grader: %s\n", why), fclose(f);
    }
    outcome_from_record(copy, id, &r, G->limit, log, out);
}

static void grade_student_week(grader *G, student *s, int w)
{
    const week_cfg *W = &G->weeks[w];
    if (s->built[w] != 1) return; /* refused, not built, or the object check said no: already recorded */
    for (int c = 0; c < W->meta.n_checkpoints; c++) {
        const wb_checkpoint *cp = &W->meta.checkpoints[c];
        cp_grade *g = &s->g[w][c];
        run_checkpoint(G, s, w, c, G->seed, "", g);
        score_checkpoint(g, W->points[c]);
        /* hidden tests: the same checkpoint with the instructor's other seeds */
        if (g->status == ST_PASS && cp->target <= 0)
            for (int k = 0; k < W->n_seeds; k++) {
                cp_grade h;
                char tag[40];
                snprintf(tag, sizeof tag, "-hidden%d", k + 1);
                run_checkpoint(G, s, w, c, W->seeds[k], tag, &h);
                if (h.status == ST_FAIL) {
                    g->status = ST_FAIL;
                    g->points = 0;
                    snprintf(g->why, sizeof g->why, "failed hidden test %d of %d: %s", k + 1, W->n_seeds, h.why);
                    break;
                }
            }
    }
}

/* --------------------------------------------------------------- output */

static const char *st_name(int s) { return s == ST_PASS ? "PASS" : s == ST_FAIL ? "FAIL" : s == ST_SKIP ? "SKIP" : "-"; }

static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"') fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else fputs(s, f);
}

static double max_points(const grader *G)
{
    double m = 0;
    for (int w = 0; w < G->n_weeks; w++)
        for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) m += G->weeks[w].points[c];
    return m;
}

/* One CSV row at *p (a quoted field may hold commas, "" and newlines): its
 * fields, malloc'd, in *out; returns how many. */
static int csv_parse_row(const char **p, char ***out)
{
    const char *s = *p;
    char **f = NULL;
    int n = 0;
    for (;;) {
        char *v = malloc(strlen(s) + 1);
        size_t k = 0;
        if (*s == '"') {
            for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
                if (*s == '"') s++; /* "" is one quote */
                v[k++] = *s;
            }
            if (*s == '"') s++;
        } else
            while (*s && *s != ',' && *s != '\n' && *s != '\r') v[k++] = *s++;
        v[k] = 0;
        f = realloc(f, sizeof *f * (size_t)(n + 1));
        f[n++] = v;
        if (*s != ',') break;
        s++;
    }
    while (*s == '\r') s++;
    if (*s == '\n') s++;
    *p = s;
    *out = f;
    return n;
}

/* The quiz columns of a gradebook: `quiz grade` (quizzes/quiz.c) adds its
 * columns, headed "quiz.ID ...", to the gradebook this file writes. */
typedef struct {
    int    ncol, nrow, nhead;
    int   *col;   /* their indexes in the old file */
    char **head;  /* the old file's header row, nhead cells */
    char ***row;  /* the old file's other rows; row[r][0] is the student */
    int   *len;
} quiz_cols;

static void quiz_cols_load(const char *path, quiz_cols *q)
{
    memset(q, 0, sizeof *q);
    char *text = wb_read_file(path, NULL);
    if (!text) return;
    for (const char *p = text; *p;) {
        if (*p == '\n' || *p == '\r') { /* a blank line is no row */
            p++;
            continue;
        }
        char **r;
        int n = csv_parse_row(&p, &r);
        if (!q->head) {
            q->head = r, q->nhead = n;
            continue;
        }
        q->row = realloc(q->row, sizeof *q->row * (size_t)(q->nrow + 1));
        q->len = realloc(q->len, sizeof *q->len * (size_t)(q->nrow + 1));
        q->row[q->nrow] = r, q->len[q->nrow++] = n;
    }
    free(text);
    for (int c = 0; c < q->nhead; c++)
        if (strncmp(q->head[c], "quiz.", 5) == 0) {
            q->col = realloc(q->col, sizeof *q->col * (size_t)(q->ncol + 1));
            q->col[q->ncol++] = c;
        }
}

/* Row r's quiz cells, each after a comma (empty ones for r < 0). Returns
 * whether any is non-empty. */
static int quiz_cols_put(FILE *f, const quiz_cols *q, int r)
{
    int any = 0;
    for (int k = 0; k < q->ncol; k++) {
        const char *v = r >= 0 && q->col[k] < q->len[r] ? q->row[r][q->col[k]] : "";
        any |= *v != 0;
        if (f) fputc(',', f), csv_field(f, v);
    }
    return any;
}

static int write_gradebook(const grader *G, const char *path)
{
    /* The gradebook is rewritten from this grading; its quiz columns (and the
     * rows of students who only have quiz scores) are kept, after ours, so
     * grading the weeks again does not lose `make grade-quiz`'s work. */
    quiz_cols q;
    quiz_cols_load(path, &q);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs("student", f);
    for (int w = 0; w < G->n_weeks; w++)
        for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) {
            char h[800];
            snprintf(h, sizeof h, "%s %s (%g)", G->weeks[w].dir, G->weeks[w].meta.checkpoints[c].id,
                     G->weeks[w].points[c]);
            fputc(',', f);
            csv_field(f, h);
        }
    fputs(",total,out_of,skipped,seed", f);
    for (int k = 0; k < q.ncol; k++) fputc(',', f), csv_field(f, q.head[q.col[k]]);
    fputc('\n', f);
    double mx = max_points(G);
    int week_cols = 4; /* total, out_of, skipped, seed */
    for (int w = 0; w < G->n_weeks; w++) week_cols += G->weeks[w].meta.n_checkpoints;
    for (int i = 0; i < G->n_students; i++) {
        const student *s = &G->st[i];
        csv_field(f, s->id);
        double tot = 0;
        int skipped = 0;
        for (int w = 0; w < G->n_weeks; w++)
            for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) {
                const cp_grade *g = &s->g[w][c];
                if (g->status == ST_SKIP) {
                    fputs(",SKIP", f);
                    skipped++;
                } else fprintf(f, ",%.2f", g->points);
                tot += g->points;
            }
        fprintf(f, ",%.2f,%g,%d,%llu", tot, mx, skipped, G->seed);
        int r = 0;
        while (r < q.nrow && strcmp(q.row[r][0], s->id) != 0) r++;
        quiz_cols_put(f, &q, r < q.nrow ? r : -1);
        fputc('\n', f);
    }
    for (int r = 0; r < q.nrow; r++) { /* students with quiz scores only */
        int graded = 0;
        for (int i = 0; i < G->n_students && !graded; i++) graded = strcmp(q.row[r][0], G->st[i].id) == 0;
        if (graded || !quiz_cols_put(NULL, &q, r)) continue;
        csv_field(f, q.row[r][0]);
        for (int c = 0; c < week_cols; c++) fputc(',', f);
        quiz_cols_put(f, &q, r);
        fputc('\n', f);
    }
    for (int r = 0; r < q.nrow; r++) {
        for (int c = 0; c < q.len[r]; c++) free(q.row[r][c]);
        free(q.row[r]);
    }
    for (int c = 0; c < q.nhead; c++) free(q.head[c]);
    free(q.row), free(q.len), free(q.col), free(q.head);
    return fclose(f);
}

static int write_feedback(const grader *G, const student *s, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    double tot = 0;
    for (int w = 0; w < G->n_weeks; w++)
        for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) tot += s->g[w][c].points;
    time_t t = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", localtime(&t));
    fprintf(f, "# Feedback for %s\n\nGraded %s with the class seed %llu (fresh inputs, the same for everyone); "
               "%.0f s.\n\n**Total: %.2f of %g points.**\n", s->id, date, G->seed, s->seconds, tot, max_points(G));
    for (int w = 0; w < G->n_weeks; w++) {
        const week_cfg *W = &G->weeks[w];
        fprintf(f, "\n## %s — %s\n\n", W->dir, W->meta.title);
        if (W->n_seeds)
            fprintf(f, "Correctness checkpoints were also run with %d hidden seed%s.\n\n", W->n_seeds,
                    W->n_seeds == 1 ? "" : "s");
        fprintf(f, "| checkpoint | result | points | measured | target |\n|---|---|---|---|---|\n");
        for (int c = 0; c < W->meta.n_checkpoints; c++) {
            const wb_checkpoint *cp = &W->meta.checkpoints[c];
            const cp_grade *g = &s->g[w][c];
            char target[64] = "-";
            if (cp->target > 0) snprintf(target, sizeof target, ">= %.2f %s", cp->target, cp->yard);
            fprintf(f, "| %s | %s | %.2f / %g | %s | %s |\n", cp->id, st_name(g->status), g->points, W->points[c],
                    g->figure[0] ? g->figure : "-", target);
        }
        fprintf(f, "\n");
        for (int c = 0; c < W->meta.n_checkpoints; c++) {
            const wb_checkpoint *cp = &W->meta.checkpoints[c];
            const cp_grade *g = &s->g[w][c];
            if (g->status == ST_PASS) fprintf(f, "- **%s** (%s): passed.\n", cp->id, cp->desc);
            else fprintf(f, "- **%s** (%s): %s — %s\n", cp->id, cp->desc, st_name(g->status), g->why);
        }
        if (s->note[w][0]) fprintf(f, "\nNotes:\n\n%s", s->note[w]);
    }
    return fclose(f);
}

/* ------------------------------------------------------------------ main */

static void usage(void)
{
    fprintf(stderr, "usage: grade --submissions DIR --weeks \"phaseP/weekNN ...\" --gradebook OUT.csv [--feedback DIR]\n"
                    "             [--scratch DIR] [--root DIR] [--seed N] [--limit S] [--build-limit S] [--jobs N]\n"
                    "             [--make-arg ARG]...\n");
}

int grade_main(int argc, char **argv)
{
    static grader G;
    memset(&G, 0, sizeof G);
    snprintf(G.root, sizeof G.root, ".");
    G.seed = 20261122;
    G.limit = 120;
    G.build_limit = 300;
    G.jobs = 8;
    char weeks[2000] = "";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) return usage(), 2;
        if (strcmp(a, "--submissions") == 0) snprintf(G.subs, sizeof G.subs, "%s", v);
        else if (strcmp(a, "--weeks") == 0) snprintf(weeks, sizeof weeks, "%s", v);
        else if (strcmp(a, "--gradebook") == 0) snprintf(G.gradebook, sizeof G.gradebook, "%s", v);
        else if (strcmp(a, "--feedback") == 0) snprintf(G.feedback, sizeof G.feedback, "%s", v);
        else if (strcmp(a, "--scratch") == 0) snprintf(G.scratch, sizeof G.scratch, "%s", v);
        else if (strcmp(a, "--root") == 0) snprintf(G.root, sizeof G.root, "%s", v);
        else if (strcmp(a, "--seed") == 0) G.seed = strtoull(v, NULL, 0);
        else if (strcmp(a, "--limit") == 0) G.limit = atof(v);
        else if (strcmp(a, "--build-limit") == 0) G.build_limit = atof(v);
        else if (strcmp(a, "--jobs") == 0) G.jobs = atoi(v) > 0 ? atoi(v) : 1;
        else if (strcmp(a, "--make-arg") == 0 && G.n_make_args < 32) G.make_args[G.n_make_args++] = (char *)v;
        else return usage(), 2;
        i++;
    }
    if (!G.subs[0] || !weeks[0] || !G.gradebook[0]) return usage(), 2;
    /* Student code runs only in the sandbox: without one, nothing is graded. */
    char why[512];
    if (!sb_available(NULL, why))
        return fprintf(stderr, "grade: refusing to grade: student code runs only in a bubblewrap sandbox, and %s\n", why), 2;
    char *r = realpath(G.root, NULL);
    if (!r) return fprintf(stderr, "no workbook at %s\n", G.root), 2;
    snprintf(G.root, sizeof G.root, "%s", r);
    free(r);
    if (!G.scratch[0]) snprintf(G.scratch, sizeof G.scratch, "%s/build/instructor/scratch", G.root);
    if (!G.feedback[0]) {
        snprintf(G.feedback, sizeof G.feedback, "%s", G.gradebook);
        char *dot = strrchr(G.feedback, '.');
        if (dot && !strchr(dot, '/')) *dot = 0;
        strncat(G.feedback, "-feedback", sizeof G.feedback - strlen(G.feedback) - 1);
    }
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "mkdir -p %s %s", q(G.scratch), q(G.feedback));
    if (sh(cmd, NULL)) return fprintf(stderr, "cannot make %s or %s\n", G.scratch, G.feedback), 2;
    r = realpath(G.scratch, NULL);
    snprintf(G.scratch, sizeof G.scratch, "%s", r);
    free(r);
    /* What the sandbox shows read-only besides the system: the toolkit of the
     * nvcc make is given, .deps/ (third-party headers), Check if it lives
     * elsewhere; what must not be there: this workbook, the class, the
     * gradebook and the feedback. */
    snprintf(G.nvcc, sizeof G.nvcc, "/usr/local/cuda/bin/nvcc");
    for (int i = 0; i < G.n_make_args; i++) {
        if (strncmp(G.make_args[i], "NVCC=", 5) == 0) snprintf(G.nvcc, sizeof G.nvcc, "%s", G.make_args[i] + 5);
        if (strncmp(G.make_args[i], "CHECK_DIR=", 10) == 0 && G.make_args[i][10]) {
            r = realpath(G.make_args[i] + 10, NULL);
            if (r) snprintf(G.check_dir, sizeof G.check_dir, "%s", r);
            free(r);
        }
    }
    {
        char home[600];
        snprintf(home, sizeof home, "%s", G.nvcc);
        for (int k = 0; k < 2; k++) {
            char *sl = strrchr(home, '/');
            if (sl) *sl = 0;
        }
        r = home[0] ? realpath(home, NULL) : NULL;
        if (r) snprintf(G.cuda_home, sizeof G.cuda_home, "%s", r);
        free(r);
        snprintf(G.sb_path, sizeof G.sb_path, "%.*s:/usr/local/cuda/bin:/usr/bin:/bin",
                 (int)(strrchr(G.nvcc, '/') ? strrchr(G.nvcc, '/') - G.nvcc : 0), G.nvcc);
        if (G.sb_path[0] == ':') memmove(G.sb_path, G.sb_path + 1, strlen(G.sb_path));
        char deps[700];
        snprintf(deps, sizeof deps, "%s/.deps", G.root);
        r = is_dir(deps) ? realpath(deps, NULL) : NULL;
        if (r) snprintf(G.deps_real, sizeof G.deps_real, "%s", r);
        free(r);
        int k = 0;
        if (G.cuda_home[0]) G.ro[k++] = G.cuda_home;
        if (G.deps_real[0]) G.ro[k++] = G.deps_real;
        if (G.check_dir[0]) G.ro[k++] = G.check_dir;
        G.ro[k] = NULL;
        r = realpath(G.subs, NULL);
        if (!r) return fprintf(stderr, "no submissions folder %s\n", G.subs), 2;
        snprintf(G.subs, sizeof G.subs, "%s", r);
        free(r);
        k = 0;
        G.hide[k++] = G.root, G.hide[k++] = G.subs, G.hide[k++] = G.feedback, G.hide[k++] = G.gradebook;
        G.hide[k] = NULL;
        const char *ng = getenv("WB_NO_GPU");
        G.no_gpu_env = ng && *ng == '1';
        g_host_gpus = G.no_gpu_env ? 0 : host_gpu_count();
    }
    char err[4000];
    char list[MAX_WEEKS][64];
    int n_list = split_weeks(weeks, list, err, sizeof err);
    if (n_list < 0) return fprintf(stderr, "%s\n", err), 2;
    for (int k = 0; k < n_list; k++) {
        if (load_week_cfg(G.root, list[k], &G.weeks[G.n_weeks], err, sizeof err) != 0 ||
            load_week_api(G.root, &G.weeks[G.n_weeks], err, sizeof err) != 0)
            return fprintf(stderr, "%s\n", err), 2;
        G.n_weeks++;
    }
    G.st = calloc(MAX_STUDENTS, sizeof *G.st);
    char ignored[2000] = "";
    G.n_students = list_submissions(G.subs, G.st, MAX_STUDENTS, err, sizeof err, ignored, sizeof ignored);
    if (G.n_students < 0) return fprintf(stderr, "grade: the class folder %s cannot be graded:\n%s\n", G.subs, err), 2;
    if (ignored[0]) printf("Not submissions (ignored):\n%s%s", ignored, ignored[strlen(ignored) - 1] == '\n' ? "" : "\n");
    if (G.n_students == 0) return fprintf(stderr, "no submissions (folders or archives) in %s\n", G.subs), 2;
    double t0 = now_s();
    printf("Grading %d submission%s of", G.n_students, G.n_students == 1 ? "" : "s");
    for (int w = 0; w < G.n_weeks; w++) printf(" %s", G.weeks[w].dir);
    printf(" (seed %llu, %.0f s a checkpoint)\n", G.seed, G.limit);
    for (int i = 0; i < G.n_students; i++) {
        student *s = &G.st[i];
        if (prepare_student(&G, s, err, sizeof err) != 0) {
            if (s->refused) printf("  %-24s %s\n", s->id, err);
            else fprintf(stderr, "grade: %s: %s\n", s->id, err);
            for (int w = 0; w < G.n_weeks; w++) {
                set_all(&G, s, w, ST_FAIL, err);
                if (s->refused) appendf(s->note[w], sizeof s->note[w], "- %s. Every checkpoint scores 0.\n", err);
                s->built[w] = -1;
            }
            continue;
        }
    }
    build_all(&G);
    /* before any student's code runs: it could change its own files */
    for (int i = 0; i < G.n_students; i++)
        for (int w = 0; w < G.n_weeks; w++) check_objects(&G, &G.st[i], w);
    printf("  prepared, built and checked in %.0f s\n", now_s() - t0);
    for (int i = 0; i < G.n_students; i++) {
        student *s = &G.st[i];
        double ts = now_s();
        for (int w = 0; w < G.n_weeks; w++) grade_student_week(&G, s, w);
        s->seconds = now_s() - ts;
        double tot = 0;
        printf("  %-24s", s->id);
        for (int w = 0; w < G.n_weeks; w++)
            for (int c = 0; c < G.weeks[w].meta.n_checkpoints; c++) {
                printf(" %s", st_name(s->g[w][c].status));
                tot += s->g[w][c].points;
            }
        printf("  %6.2f / %g  (%.0f s)\n", tot, max_points(&G), s->seconds);
        char fb[1400];
        snprintf(fb, sizeof fb, "%s/%s.md", G.feedback, s->id);
        if (write_feedback(&G, s, fb) != 0) fprintf(stderr, "cannot write %s\n", fb);
    }
    if (write_gradebook(&G, G.gradebook) != 0) return fprintf(stderr, "cannot write %s\n", G.gradebook), 1;
    printf("Gradebook: %s; feedback: %s/ID.md; %.0f s in all.\n", G.gradebook, G.feedback, now_s() - t0);
    int skipped = 0;
    for (int i = 0; i < G.n_students; i++)
        for (int w = 0; w < G.n_weeks; w++)
            for (int c = 0; c < G.weeks[w].meta.n_checkpoints; c++) skipped += G.st[i].g[w][c].status == ST_SKIP;
    free(G.st);
    for (int w = 0; w < G.n_weeks; w++)
        for (int k = 0; k < G.weeks[w].n_api; k++) free(G.weeks[w].api[k]);
    if (G.sandbox_errors) {
        fprintf(stderr, "grade: INCOMPLETE: the sandbox could not start %d build%s or run%s (above); those are not "
                "the students' doing: fix the host and grade again\n", G.sandbox_errors, G.sandbox_errors == 1 ? "" : "s",
                G.sandbox_errors == 1 ? "" : "s");
        return 1;
    }
    if (skipped) {
        if (g_host_gpus > 0)
            fprintf(stderr, "grade: INCOMPLETE: %d checkpoint%s could not run on this host for a reason that is not the "
                    "student's (each one's feedback says why, a missing gnuplot for instance) and %s SKIP in the "
                    "gradebook, earning nothing: fix the host and grade again before using these totals\n", skipped,
                    skipped == 1 ? "" : "s", skipped == 1 ? "is" : "are");
        else
            fprintf(stderr, "grade: INCOMPLETE: %d checkpoint%s could not run (no GPU here%s) and %s SKIP in the gradebook, "
                    "earning nothing: grade again on a GPU host before using these totals\n", skipped,
                    skipped == 1 ? "" : "s", G.no_gpu_env ? ": WB_NO_GPU=1 is set" : "", skipped == 1 ? "is" : "are");
        return 3;
    }
    return 0;
}

#ifndef GRADE_NO_MAIN
int main(int argc, char **argv) { return grade_main(argc, argv); }
#endif
