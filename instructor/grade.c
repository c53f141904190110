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
 *   2. the student's exercise files named in week.txt laid over the starters
 *      (nothing else: not the test, not week.txt); a missing file leaves the
 *      starter and the feedback says so;
 *   3. forbidden libraries (instructor/weeks/WEEK/forbid.txt or
 *      WEEK/instructor/forbid.txt: one name a line) looked for in the
 *      submitted sources and in the compiled objects' symbols;
 *   4. the learner test binary built there (students in parallel, --jobs);
 *   5. run on the GPU one student at a time, one process per checkpoint
 *      (CK_RUN_CASE), each in its own process group with a time limit, with
 *      WB_SEED=the class seed, WB_PROGRESS in the scratch folder; a hang is
 *      stopped (SIGTERM, then SIGKILL to the whole group) and costs only that
 *      checkpoint. The outcome (status, ratio, target, message) comes from
 *      the results record the program writes to WB_RESULTS (a file in the
 *      scratch folder; common/include/wb_results.h), never from what it
 *      prints: no record (a crash before the end) is a FAIL;
 *   6. hidden tests: every correctness checkpoint that passed is run again
 *      with each seed of instructor/weeks/WEEK/seeds.txt (or
 *      WEEK/instructor/seeds.txt); failing one costs the checkpoint.
 *
 * Points: 10 a checkpoint unless points.txt (same folders; lines
 * `checkpoint-id points`) says otherwise. A speed checkpoint that misses its
 * target earns points * ratio / target (its same-run ratio to the yardstick).
 * A checkpoint that could not run for want of a GPU is SKIP in the gradebook
 * and earns nothing.
 *
 * Output: the gradebook CSV (a row a student, a column a week/checkpoint, the
 * total and the most possible) and FEEDBACK/ID.md per student.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
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

#include "wb_meta.h"
#include "wb_results.h"

#define MAX_STUDENTS 512
#define MAX_WEEKS    8
#define MAX_SEEDS    16
#define MAX_FORBID   16
#define DEFAULT_POINTS 10.0

/* ------------------------------------------------------------------ utils */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    size_t k;
    while ((k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n < 2) s = realloc(s, cap *= 2);
    }
    s[n] = 0;
    fclose(f);
    return s;
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

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
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

typedef struct {
    const char *name;
    const char *src;  /* extended regex over the submitted source */
    const char *sym;  /* extended regex over `nm -C` of the compiled object */
} forbid_rule;

static const forbid_rule RULES[] = {
    { "cublas", "#[[:space:]]*include[[:space:]]*[<\"]cublas|cublas[A-Z_]", "cublas" },
    { "cublaslt", "#[[:space:]]*include[[:space:]]*[<\"]cublasLt|cublasLt", "cublasLt" },
    { "cub", "#[[:space:]]*include[[:space:]]*[<\"]cub/|cub::", "(^|[^a-zA-Z_])cub::" },
    { "thrust", "#[[:space:]]*include[[:space:]]*[<\"]thrust/|thrust::", "thrust::" },
    { "cudnn", "#[[:space:]]*include[[:space:]]*[<\"]cudnn|cudnn[A-Z]", "cudnn" },
    { "cusparse", "#[[:space:]]*include[[:space:]]*[<\"]cusparse|cusparse[A-Z]", "cusparse" },
    { "cufft", "#[[:space:]]*include[[:space:]]*[<\"]cufft|cufft[A-Z]", "cufft" },
    { "curand", "#[[:space:]]*include[[:space:]]*[<\"]curand|curand[A-Z_]", "curand" },
};

static const forbid_rule *forbid_find(const char *name)
{
    for (size_t i = 0; i < sizeof RULES / sizeof RULES[0]; i++)
        if (strcasecmp(RULES[i].name, name) == 0) return &RULES[i];
    return NULL;
}

/* Does `text` match `rule`'s source pattern outside comments? Returns the
 * 1-based line of the first use, 0 if none. Comments are blanked first so a
 * "do not use cublas" remark does not count. */
static int forbid_scan_source(const char *text, const char *pattern, char *what, size_t whatsz)
{
    char *t = strdup(text);
    /* blank comments, keep newlines */
    for (char *c = t; *c; c++) {
        if (c[0] == '/' && c[1] == '/') {
            while (*c && *c != '\n') *c++ = ' ';
            if (!*c) break;
        } else if (c[0] == '/' && c[1] == '*') {
            *c++ = ' ';
            *c = ' ';
            while (c[1] && !(c[1] == '*' && c[2] == '/')) {
                c++;
                if (*c != '\n') *c = ' ';
            }
            if (c[1]) c[1] = c[2] = ' ', c += 2;
        } else if (c[0] == '"') { /* skip string literals, but keep #include "x" visible */
            const char *ls = c;
            while (ls > t && ls[-1] != '\n') ls--;
            while (*ls == ' ' || *ls == '\t') ls++;
            if (*ls == '#') continue;
            c++;
            while (*c && *c != '"' && *c != '\n') {
                if (*c == '\\' && c[1]) *c++ = ' ';
                *c++ = ' ';
            }
            if (!*c) break;
        }
    }
    regex_t re;
    int line = 0;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE) == 0) {
        regmatch_t m;
        if (regexec(&re, t, 1, &m, 0) == 0) {
            line = 1;
            for (regoff_t i = 0; i < m.rm_so; i++) line += t[i] == '\n';
            const char *ls = text;
            for (int k = 1; k < line && ls; k++) ls = strchr(ls, '\n') ? strchr(ls, '\n') + 1 : NULL;
            if (ls && what) {
                while (*ls == ' ' || *ls == '\t') ls++;
                snprintf(what, whatsz, "%.*s", (int)strcspn(ls, "\n"), ls);
                if (strlen(what) > 80) strcpy(what + 77, "...");
            }
        }
        regfree(&re);
    }
    free(t);
    return line;
}

static int forbid_scan_symbols(const char *object, const char *pattern, char *what, size_t whatsz)
{
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "nm -C %s 2>/dev/null", q(object));
    FILE *p = popen(cmd, "r");
    if (!p) return 0;
    regex_t re;
    int found = 0;
    if (regcomp(&re, pattern, REG_EXTENDED) == 0) {
        char line[2048];
        while (fgets(line, sizeof line, p))
            if (!found && regexec(&re, line, 0, NULL, 0) == 0) {
                line[strcspn(line, "\n")] = 0;
                snprintf(what, whatsz, "%.120s", line);
                found = 1;
            }
        regfree(&re);
    }
    pclose(p);
    return found;
}

/* ------------------------------------------------------------ the class */

typedef struct {
    char   dir[600];           /* the week folder, e.g. phase0/week01 */
    wb_week meta;
    double points[WB_MAX_CHECKPOINTS];
    int    n_seeds;
    unsigned long long seeds[MAX_SEEDS];
    int    n_forbid;
    char   forbid[MAX_FORBID][32];
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
    char *s = slurp(p);
    if (s) return s;
    snprintf(p, sizeof p, "%s/%s/instructor/%s", root, week, name);
    return slurp(p);
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
        if (line[0] == '#' || sscanf(line, "%31s", name) != 1) continue;
        if (!forbid_find(name)) {
            snprintf(err, errsz, "%s forbid.txt: unknown library '%s' (known: cublas cublaslt cub thrust cudnn "
                     "cusparse cufft curand)", week, name);
            free(s);
            return -1;
        }
        if (w->n_forbid < MAX_FORBID) snprintf(w->forbid[w->n_forbid++], 32, "%s", name);
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

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Submissions in `dir`: folders and archives, sorted by name. */
static int list_submissions(const char *dir, student *st, int max, char *err, size_t errsz)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errsz, "cannot open the submissions folder %s: %s", dir, strerror(errno));
        return -1;
    }
    char *names[MAX_STUDENTS];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < MAX_STUDENTS)
        if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_str);
    int k = 0;
    for (int i = 0; i < n; i++) {
        char path[1400], id[256];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(id, sizeof id, "%s", names[i]);
        const char *exts[] = { ".tar.gz", ".tgz", ".tar", ".zip" };
        int ok = is_dir(path);
        for (int x = 0; !ok && x < 4; x++)
            if (ends_with(id, exts[x]) && is_file(path)) {
                id[strlen(id) - strlen(exts[x])] = 0;
                ok = 1;
            }
        if (ok && k < max) {
            for (char *c = id; *c; c++)
                if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != '.') *c = '_';
            memset(&st[k], 0, sizeof st[k]);
            snprintf(st[k].id, sizeof st[k].id, "%s", id);
            snprintf(st[k].source, sizeof st[k].source, "%s", path);
            k++;
        }
        free(names[i]);
    }
    return k;
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
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s %s", q(base), q(s->sub), q(s->tree));
    if (sh(cmd, NULL)) return snprintf(err, errsz, "cannot make %s", base), -1;
    /* the submission */
    if (is_dir(s->source)) snprintf(cmd, sizeof cmd, "cp -R %s/. %s/", q(s->source), q(s->sub));
    else if (ends_with(s->source, ".zip")) snprintf(cmd, sizeof cmd, "unzip -qq -o %s -d %s", q(s->source), q(s->sub));
    else snprintf(cmd, sizeof cmd, "tar -xf %s -C %s --no-same-owner", q(s->source), q(s->sub));
    if (sh(cmd, log)) return snprintf(err, errsz, "cannot unpack %s (see %s)", s->source, log), -1;
    /* the workbook: sources, the graded weeks without solutions, prebuilt parts */
    snprintf(cmd, sizeof cmd, "cd %s && cp -a Makefile mk common tools %s/ && { [ ! -d .deps ] || ln -s \"$PWD/.deps\" %s/.deps; }",
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
        /* forbidden libraries in the submitted sources */
        for (int f = 0; f < G->weeks[w].n_forbid; f++) {
            const forbid_rule *r = forbid_find(G->weeks[w].forbid[f]);
            for (int e = 0; e < m->n_exercises && !s->forbidden[w]; e++) {
                char to[1500], what[200] = "";
                snprintf(to, sizeof to, "%s/%s/%s.cu", s->tree, wk, m->exercises[e]);
                char *text = slurp(to);
                int line = text ? forbid_scan_source(text, r->src, what, sizeof what) : 0;
                free(text);
                if (line) {
                    s->forbidden[w] = 1;
                    appendf(s->note[w], sizeof s->note[w],
                            "- Uses %s, which this week forbids: %s.cu line %d: `%s`. Every checkpoint of the week "
                            "scores 0.\n", r->name, m->exercises[e], line, what);
                }
            }
        }
    }
    /* What week.txt says, for make, written once here: the weeks of one
     * student build at the same time in this tree, and would each write it. */
    snprintf(cmd, sizeof cmd, "cd %s && build/wb make-vars > build/weeks.mk", q(s->tree));
    if (sh(cmd, log)) return snprintf(err, errsz, "wb make-vars failed in the scratch copy (see %s)", log), -1;
    return 0;
}

static void build_argv(grader *G, student *s, int w, char **argv, char *target, size_t tsz)
{
    int k = 0;
    argv[k++] = "make";
    argv[k++] = "-C";
    argv[k++] = s->tree;
    argv[k++] = "-j4";
    for (int i = 0; i < G->n_make_args; i++) argv[k++] = G->make_args[i];
    snprintf(target, tsz, "build/%s/learner/test", G->weeks[w].dir);
    argv[k++] = target;
    argv[k] = NULL;
}

/* The first compiler error in a build log, for the feedback. */
static void first_error(const char *log, char *out, size_t outsz)
{
    char *t = slurp(log);
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

/* Build every student's weeks, `jobs` at a time. */
static void build_all(grader *G)
{
    int total = G->n_students * G->n_weeks, next = 0, running = 0;
    job *jobs = calloc(G->jobs, sizeof *jobs);
    int *slot_task = calloc(G->jobs, sizeof *slot_task);
    for (int i = 0; i < G->jobs; i++) slot_task[i] = -1;
    while (next < total || running) {
        for (int i = 0; i < G->jobs && next < total; i++) {
            if (slot_task[i] >= 0) continue;
            int t = next++;
            student *s = &G->st[t / G->n_weeks];
            int w = t % G->n_weeks;
            if (s->built[w] < 0) continue; /* preparation failed or forbidden */
            char *argv[48], target[700], log[1400];
            build_argv(G, s, w, argv, target, sizeof target);
            snprintf(log, sizeof log, "%s/../build-%d.log", s->tree, w);
            unlink(log);
            if (job_start(&jobs[i], argv, NULL, log, (char *[]){ "MAKEFLAGS=", "MAKELEVEL=", NULL }, G->build_limit) == 0) {
                slot_task[i] = t;
                running++;
            }
        }
        for (int i = 0; i < G->jobs; i++) {
            if (slot_task[i] < 0 || !job_poll(&jobs[i])) continue;
            int t = slot_task[i];
            student *s = &G->st[t / G->n_weeks];
            int w = t % G->n_weeks;
            char log[1400];
            snprintf(log, sizeof log, "%s/../build-%d.log", s->tree, w);
            if (!jobs[i].timed_out && !jobs[i].signaled && jobs[i].exit_code == 0) {
                s->built[w] = 1;
            } else {
                char e[400], why[700];
                first_error(log, e, sizeof e);
                if (jobs[i].timed_out) snprintf(why, sizeof why, "did not build within %.0f s", G->build_limit);
                else snprintf(why, sizeof why, "did not compile: %s", e);
                set_all(G, s, w, ST_FAIL, why);
                appendf(s->note[w], sizeof s->note[w], "- The build failed; its log ends:\n\n```\n%s\n```\n", e);
            }
            slot_task[i] = -1;
            running--;
        }
        usleep(20000);
    }
    free(jobs);
    free(slot_task);
}

/* Forbidden symbols in the compiled exercise objects. */
static void scan_objects(grader *G, student *s, int w)
{
    const week_cfg *W = &G->weeks[w];
    for (int f = 0; f < W->n_forbid && !s->forbidden[w]; f++) {
        const forbid_rule *r = forbid_find(W->forbid[f]);
        for (int e = 0; e < W->meta.n_exercises; e++) {
            char obj[1500], what[200];
            snprintf(obj, sizeof obj, "%s/build/%s/learner/%s.o", s->tree, W->dir, W->meta.exercises[e]);
            if (forbid_scan_symbols(obj, r->sym, what, sizeof what)) {
                s->forbidden[w] = 1;
                appendf(s->note[w], sizeof s->note[w],
                        "- The compiled %s.o refers to %s (`%s`), which this week forbids. Every checkpoint of the "
                        "week scores 0.\n", W->meta.exercises[e], r->name, what);
                break;
            }
        }
    }
}

/* A checkpoint's outcome from its results record (common/include/wb_results.h),
 * which the test program writes to WB_RESULTS when it has run; `j` says how
 * the process ended and `log` holds what it printed (shown to people when
 * there is no record, never read for a result). A missing or unreadable
 * record is a FAIL: the program died or stopped before writing it. */
static void outcome_from_record(const char *rpath, const char *id, const job *j, double limit, const char *log,
                                cp_grade *out)
{
    memset(out, 0, sizeof *out);
    out->ratio = NAN;
    out->status = ST_FAIL;
    if (j->timed_out) {
        snprintf(out->why, sizeof out->why, "hang: no result within %.0f s; the run was stopped (instructors: if a "
                 "correct solution needs longer, raise LIMIT)", limit);
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
        if (j->signaled)
            snprintf(out->why, sizeof out->why, "crash: the test program died of signal %d (%s); %s", j->signaled,
                     strsignal(j->signaled), what);
        else {
            /* the last line it printed, for people (the program may have said why it stopped) */
            char tail[240] = "";
            char *text = log ? slurp(log) : NULL;
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

/* Run one checkpoint of one week of one student with `seed`: the test
 * program with CK_RUN_CASE=the checkpoint and WB_RESULTS=a file in the
 * scratch folder, whose record gives the outcome. */
static void run_checkpoint(grader *G, student *s, int w, int c, unsigned long long seed, const char *tag,
                           cp_grade *out)
{
    const week_cfg *W = &G->weeks[w];
    const char *id = W->meta.checkpoints[c].id;
    char bin[1400], log[1600], rec[1600], seedv[64], casev[100], weekv[700], weekd[700], progv[1500], tov[64],
        implv[200], recv[1700];
    snprintf(bin, sizeof bin, "build/%s/learner/test", W->dir);
    snprintf(log, sizeof log, "%s/../run-%d-%s%s.log", s->tree, w, id, tag);
    snprintf(rec, sizeof rec, "%s/../results-%d-%s%s.tsv", s->tree, w, id, tag);
    unlink(log);
    unlink(rec);
    snprintf(seedv, sizeof seedv, "WB_SEED=%llu", seed);
    snprintf(casev, sizeof casev, "CK_RUN_CASE=%s", id);
    snprintf(weekv, sizeof weekv, "WB_WEEK_DIR=%s", W->dir);
    snprintf(weekd, sizeof weekd, "WB_WEEK=%s", W->dir);
    snprintf(progv, sizeof progv, "WB_PROGRESS=%s/../progress.md", s->tree);
    snprintf(tov, sizeof tov, "WB_TEST_TIMEOUT=%d", (int)G->limit);
    snprintf(implv, sizeof implv, "WB_IMPL=submission of %s", s->id);
    snprintf(recv, sizeof recv, "WB_RESULTS=%s", rec);
    char *env[] = { seedv, casev, weekv, weekd, progv, tov, implv, recv, "WB_RECORD=0", "WB_LEDGER=", "WB_CSV=",
                    "WB_EXPECT=", "CK_FORK=no", "CK_VERBOSITY=", NULL };
    char abs_bin[1600];
    snprintf(abs_bin, sizeof abs_bin, "%s/%s", s->tree, bin);
    char *argv[] = { abs_bin, NULL };
    job j;
    memset(&j, 0, sizeof j);
    if (run_limited(argv, s->tree, log, env, G->limit, &j) < 0) j.exit_code = 127; /* could not fork */
    outcome_from_record(rec, id, &j, G->limit, log, out);
}

static void grade_student_week(grader *G, student *s, int w)
{
    const week_cfg *W = &G->weeks[w];
    if (s->built[w] < 0 && !s->forbidden[w]) return; /* already set by preparation */
    if (s->forbidden[w]) {
        set_all(G, s, w, ST_FAIL, "uses a forbidden library (see the notes)");
        return;
    }
    if (s->built[w] != 1) return; /* the build failure is already recorded */
    scan_objects(G, s, w);
    if (s->forbidden[w]) {
        set_all(G, s, w, ST_FAIL, "uses a forbidden library (see the notes)");
        return;
    }
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
    char *text = slurp(path);
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
    char err[1000];
    char list[MAX_WEEKS][64];
    int n_list = split_weeks(weeks, list, err, sizeof err);
    if (n_list < 0) return fprintf(stderr, "%s\n", err), 2;
    for (int k = 0; k < n_list; k++) {
        if (load_week_cfg(G.root, list[k], &G.weeks[G.n_weeks], err, sizeof err) != 0)
            return fprintf(stderr, "%s\n", err), 2;
        G.n_weeks++;
    }
    G.st = calloc(MAX_STUDENTS, sizeof *G.st);
    G.n_students = list_submissions(G.subs, G.st, MAX_STUDENTS, err, sizeof err);
    if (G.n_students < 0) return fprintf(stderr, "%s\n", err), 2;
    if (G.n_students == 0) return fprintf(stderr, "no submissions (folders or archives) in %s\n", G.subs), 2;
    double t0 = now_s();
    printf("Grading %d submission%s of", G.n_students, G.n_students == 1 ? "" : "s");
    for (int w = 0; w < G.n_weeks; w++) printf(" %s", G.weeks[w].dir);
    printf(" (seed %llu, %.0f s a checkpoint)\n", G.seed, G.limit);
    for (int i = 0; i < G.n_students; i++) {
        student *s = &G.st[i];
        if (prepare_student(&G, s, err, sizeof err) != 0) {
            for (int w = 0; w < G.n_weeks; w++) {
                set_all(&G, s, w, ST_FAIL, err);
                s->built[w] = -1;
            }
            continue;
        }
        for (int w = 0; w < G.n_weeks; w++)
            if (s->forbidden[w]) s->built[w] = -1;
    }
    build_all(&G);
    printf("  prepared and built in %.0f s\n", now_s() - t0);
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
    free(G.st);
    return 0;
}

#ifndef GRADE_NO_MAIN
int main(int argc, char **argv) { return grade_main(argc, argv); }
#endif
