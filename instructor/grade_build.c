/* grade_build.c — part of the grader (grade.h): each student's scratch copy: import, sandbox options, and the builds run
 * in the sandbox, several at once; steps 1-4 for a class (prepare_build_check). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wb_file.h"
#include "sha256.h"
#include "unpack.h"
#include "grade.h"

/* --------------------------------------------------------- preparation */

/* The files of PATHS (words, relative to the workbook ROOT) that git tracks,
 * as the working tree has them, into DEST (same relative paths): nothing
 * untracked (an instructor's *.bak, notes, a stray build) reaches a scratch
 * copy. A file tracked but deleted is skipped. 0, or sh's status. */
static int copy_tracked(const char *root, const char *paths, const char *dest, const char *log)
{
    char cmd[4000];
    snprintf(cmd, sizeof cmd, "cd %s && git -c safe.directory='*' ls-files -z -- %s | tar --null -T - --ignore-failed-read -cf - | tar -C %s -xf -",
             q(root), paths, q(dest));
    return sh(cmd, log);
}

/* The pristine starter of WEEK's NAME.EXT into the student's tree: derived
 * from the reference (`wb strip` of WEEK/solution/NAME.EXT, the derivation
 * make and `wb drift` use), or the copy a release keeps in WEEK/.starter/;
 * never the instructor's working copy of the exercise file, which may hold
 * the instructor's own attempt. 0, or -1 with err. */
static int put_starter(const grader *G, student *s, const char *wk, const char *name, const char *ext,
                       const char *log, char *err, size_t errsz)
{
    char sol[1500], kept[1500], to[1500], cmd[5000];
    snprintf(sol, sizeof sol, "%s/%s/solution/%s.%s", G->root, wk, name, ext);
    snprintf(kept, sizeof kept, "%s/%s/.starter/%s.%s", G->root, wk, name, ext);
    snprintf(to, sizeof to, "%s/%s/%s.%s", s->tree, wk, name, ext);
    if (is_file(sol)) snprintf(cmd, sizeof cmd, "%s/build/wb strip %s > %s", q(G->root), q(sol), q(to));
    else if (is_file(kept)) snprintf(cmd, sizeof cmd, "cp %s %s", q(kept), q(to));
    else return snprintf(err, errsz, "%s has neither solution/%s.%s nor .starter/%s.%s to derive the starter from", wk,
                         name, ext, name, ext), -1;
    if (sh(cmd, log)) return snprintf(err, errsz, "cannot derive the starter %s/%s.%s (see %s)", wk, name, ext, log), -1;
    return 0;
}

/* Copy the submission's NAME.EXT (in src) over the starter in the student's
 * tree, or note that the starter was graded; `take`: src holds this week.
 * 0, or -1 with err when the copy fails. */
static int overlay(student *s, int w, const char *src, const char *wk, const char *name, const char *ext, int take,
                   int *used, const char *log, char *err, size_t errsz)
{
    char from[1500], to[1500], cmd[3200];
    snprintf(from, sizeof from, "%s/%s.%s", src, name, ext);
    snprintf(to, sizeof to, "%s/%s/%s.%s", s->tree, wk, name, ext);
    if (!take || !is_file(from)) {
        appendf(s->note[w], sizeof s->note[w], "- %s.%s was not in the submission: the starter was graded.\n", name, ext);
        return 0;
    }
    snprintf(cmd, sizeof cmd, "cp %s %s", q(from), q(to));
    if (sh(cmd, log)) return snprintf(err, errsz, "cannot copy %s", from), -1;
    (*used)++;
    return 0;
}

/* The .cu and .py files of a submission (rel: the path so far), escaped,
 * "a/b.cu, c.py", at most 6 named and 4 folders deep, for a feedback line
 * that shows a student where the files went when the grader found none of
 * a week's. *n counts every one found. */
static void list_sources(const char *dir, const char *rel, int depth, char *buf, size_t sz, int *n)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[1500], r[700];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(r, sizeof r, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            if (depth < 4) list_sources(path, r, depth + 1, buf, sz, n);
            continue;
        }
        const char *ext = strrchr(e->d_name, '.');
        if (!S_ISREG(st.st_mode) || !ext || ext == e->d_name || (strcmp(ext, ".cu") && strcmp(ext, ".py"))) continue;
        if (++*n <= 6) {
            char esc[400];
            up_escape(r, esc, sizeof esc);
            appendf(buf, sz, "%s", *n > 1 ? ", " : "");
            md_code(buf, sz, esc); /* a name may hold backticks, HTML, a link: a code span no backtick in it closes */
        }
    }
    closedir(d);
}

int prepare_student(grader *G, student *s, char *err, size_t errsz)
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
    snprintf(cmd, sizeof cmd, "cd %s && { [ ! -d .deps ] || ln -s \"$(cd .deps && pwd -P)\" %s/.deps; }", q(G->root), q(s->tree));
    if (copy_tracked(G->root, "Makefile mk common tools", s->tree, log) || sh(cmd, log))
        return snprintf(err, errsz, "cannot copy the workbook (see %s)", log), -1;
    snprintf(cmd, sizeof cmd, "cd %s && mkdir -p %s/build && cp -a build/libwb.a build/wb build/.deps-ok build/common %s/build/ && "
             "{ [ ! -f build/.nvcc-flags ] || cp -a build/.nvcc-flags %s/build/; }",
             q(G->root), q(s->tree), q(s->tree), q(s->tree));
    if (sh(cmd, log)) return snprintf(err, errsz, "the instructor's build/ lacks libwb.a or wb (see %s)", log), -1;
    /* --judge 1: the runners' mains and judge_runner.c, built by the
     * instructor; the runner is linked in the sandbox with the student's objects */
    for (int w = 0; w < G->n_weeks; w++)
        if (G->weeks[w].judge[0]) {
            snprintf(cmd, sizeof cmd, "mkdir -p %s/build/instructor && cp %s %s/build/instructor/judge_runner_cuda.o "
                     "%s/build/instructor/", q(s->tree), q(G->weeks[w].judge_runner_obj), q(G->root), q(s->tree));
            if (sh(cmd, log)) return snprintf(err, errsz, "cannot copy the judge's runner objects (see %s)", log), -1;
        }
    /* Weeks a graded week `uses:` (week.txt) and is not graded itself: as the
     * instructor has them, with their prebuilt objects, the reference's (the
     * same for every student) in build/WEEK/prebuilt/, which the Makefile's
     * used_objs links, and the reference's sources left out: a build in the
     * sandbox could read them (#include) and quote them in its errors. A
     * week's pyuses: (week 52's Python capstone builds from their sources)
     * keep theirs. And the phaseP/common/ folders of every week in the copy. */
    for (int w = 0; w < G->n_weeks; w++)
        for (int u = 0; u < G->weeks[w].meta.n_uses + G->weeks[w].meta.n_pyuses; u++) {
            /* pyuses: too (week 52's capstone, week.txt's check of its names needs them there) */
            const char *v = u < G->weeks[w].meta.n_uses ? G->weeks[w].meta.uses[u]
                                                          : G->weeks[w].meta.pyuses[u - G->weeks[w].meta.n_uses];
            int graded = 0;
            for (int k = 0; k < G->n_weeks; k++) graded |= strcmp(G->weeks[k].dir, v) == 0;
            char there[1400];
            snprintf(there, sizeof there, "%s/%s", s->tree, v);
            if (graded || is_dir(there)) continue;
            snprintf(cmd, sizeof cmd, "cd %s && rm -rf %s/%s/instructor && "
                     "{ [ ! -d build/%s ] || { mkdir -p %s/build/%s && cp -a build/%s/. %s/build/%s/; }; }",
                     q(G->root), q(s->tree), v, v, q(s->tree), v, v, q(s->tree), v);
            if (copy_tracked(G->root, v, s->tree, log) || sh(cmd, log))
                return snprintf(err, errsz, "cannot copy %s, which %s uses (see %s)", v, G->weeks[w].dir, log), -1;
            /* its exercise files the pristine starters (put_starter, as a graded
             * week's), never the instructor's working copies, nor objects built
             * from them; the reference's objects set apart for a C test to link
             * (uses:), none kept for pyuses: */
            wb_week *um = malloc(sizeof *um);
            char wt[1500], werr[300];
            snprintf(wt, sizeof wt, "%s/%s/week.txt", G->root, v);
            if (!um) return snprintf(err, errsz, "no memory for %s's week.txt", v), -1;
            if (wb_week_load(wt, um, werr, sizeof werr) != 0) {
                free(um);
                return snprintf(err, errsz, "cannot read %s, which %s uses: %s", wt, G->weeks[w].dir, werr), -1;
            }
            int bad = 0;
            for (int e = 0; !bad && e < um->n_exercises; e++) bad = put_starter(G, s, v, um->exercises[e], "cu", log, err, errsz);
            for (int e = 0; !bad && e < um->n_pyexercises; e++) bad = put_starter(G, s, v, um->pyexercises[e], "py", log, err, errsz);
            free(um);
            if (bad) return -1;
            char keep[1400];
            if (u < G->weeks[w].meta.n_uses) snprintf(keep, sizeof keep, "mv build/%s/solution build/%s/prebuilt", v, v);
            else snprintf(keep, sizeof keep, "rm -rf build/%s/solution", v);
            snprintf(cmd, sizeof cmd, "cd %s && rm -rf %s/solution build/%s/prebuilt build/%s/learner && "
                     "{ [ ! -d build/%s/solution ] || %s; }", q(s->tree), v, v, v, v, keep);
            if (sh(cmd, log))
                return snprintf(err, errsz, "cannot set %s's reference apart (see %s)", v, log), -1;
        }
    for (int w = 0; w <= G->n_weeks; w++) {
        char ph[16];
        /* and phase7/common after the weeks: the Python runner every week with Python checkpoints uses */
        if (w == G->n_weeks) snprintf(ph, sizeof ph, "phase7");
        else snprintf(ph, sizeof ph, "%.*s", (int)strcspn(G->weeks[w].dir, "/"), G->weeks[w].dir);
        char there[1400], pc[40];
        snprintf(there, sizeof there, "%s/%s/common", s->tree, ph);
        snprintf(pc, sizeof pc, "%s/common", ph);
        if (is_dir(there)) continue;
        snprintf(cmd, sizeof cmd, "cd %s && { [ ! -d build/%s/common ] || { mkdir -p %s/build/%s && cp -a build/%s/common %s/build/%s/; }; }",
                 q(G->root), ph, q(s->tree), ph, ph, q(s->tree), ph);
        if (copy_tracked(G->root, pc, s->tree, log) || sh(cmd, log))
            return snprintf(err, errsz, "cannot copy %s/common (see %s)", ph, log), -1;
    }
    for (int w = 0; w < G->n_weeks; w++) {
        const char *wk = G->weeks[w].dir;
        /* a week without a C test (week 43: Python only) has no test object to copy */
        char ctest[1400] = "true";
        if (G->weeks[w].has_c)
            snprintf(ctest, sizeof ctest, "cp -a build/%s/test.o build/%s/test.d %s/build/%s/", wk, wk, q(s->tree), wk);
        snprintf(cmd, sizeof cmd,
                 "cd %s && mkdir -p %s/%s %s/build/%s && rm -rf %s/%s/solution %s/%s/instructor && "
                 "%s && { [ ! -d build/%s/support ] || cp -a build/%s/support %s/build/%s/; }",
                 q(G->root), q(s->tree), wk, q(s->tree), wk, q(s->tree), wk, q(s->tree), wk, ctest,
                 wk, wk, q(s->tree), wk);
        if (copy_tracked(G->root, wk, s->tree, log) || sh(cmd, log))
            return snprintf(err, errsz, "cannot copy %s (is it built? see %s)", wk, log), -1;
        /* every exercise file starts as the pristine starter, whatever the
         * instructor's working copy holds; the submission's replace them */
        const wb_week *m = &G->weeks[w].meta;
        for (int e = 0; e < m->n_exercises; e++)
            if (put_starter(G, s, wk, m->exercises[e], "cu", log, err, errsz)) return -1;
        for (int e = 0; e < m->n_pyexercises; e++)
            if (put_starter(G, s, wk, m->pyexercises[e], "py", log, err, errsz)) return -1;
        /* overlay the exercise files */
        char src[1400];
        int have_week = find_week_in_sub(s->sub, wk, src, sizeof src) == 0;
        if (!have_week && G->n_weeks == 1) snprintf(src, sizeof src, "%s", s->sub); /* flat: vecadd.cu at the top */
        int used = 0, take = have_week || G->n_weeks == 1;
        for (int e = 0; e < m->n_exercises; e++)
            if (overlay(s, w, src, wk, m->exercises[e], "cu", take, &used, log, err, errsz)) return -1;
        /* Phase 7's Python exercises (pyexercise: NAME), NAME.py, the same way */
        for (int e = 0; e < m->n_pyexercises; e++)
            if (overlay(s, w, src, wk, m->pyexercises[e], "py", take, &used, log, err, errsz)) return -1;
        if (!used) {
            /* nothing of the week was submitted: its starters would score 0
             * (every test catches the untouched starter), at the cost of a
             * build and a GPU run of the week's slowest code (week 22's
             * naive SGEMM among it); so neither built nor run */
            char why[300];
            snprintf(why, sizeof why, "not submitted: no file of %s was in the submission", wk);
            set_all(G, s, w, ST_FAIL, why, strlen(why));
            s->built[w] = -1;
            s->note[w][0] = 0;
            appendf(s->note[w], sizeof s->note[w],
                    "- No file of %s was in the submission: the week was neither built nor run, and each of its "
                    "checkpoints scores 0. The grader looks for ", wk);
            const int nx = m->n_exercises, n_all = nx + m->n_pyexercises; /* "a.cu, b.cu and c.py" */
            for (int e = 0; e < n_all; e++) {
                const char *sep = e == 0 ? "" : e + 1 == n_all ? " and " : ", ";
                if (e < nx) appendf(s->note[w], sizeof s->note[w], "%s%s.cu", sep, m->exercises[e]);
                else appendf(s->note[w], sizeof s->note[w], "%s%s.py", sep, m->pyexercises[e - nx]);
            }
            appendf(s->note[w], sizeof s->note[w], " in a folder %s/ at the submission's top or one folder down%s; ", wk,
                    G->n_weeks == 1 ? " (or at its top)" : "");
            char found[700] = "";
            int n_found = 0;
            list_sources(s->sub, "", 0, found, sizeof found, &n_found);
            if (n_found) appendf(s->note[w], sizeof s->note[w], "the submission's .cu and .py files: %s%s.\n", found,
                                 n_found > 6 ? " and more" : "");
            else appendf(s->note[w], sizeof s->note[w], "the submission holds no .cu or .py file.\n");
        }
    }
    /* What week.txt says, for make, written once here: the weeks of one
     * student build at the same time in this tree, and would each write it. */
    snprintf(cmd, sizeof cmd, "cd %s && build/wb make-vars > build/weeks.mk", q(s->tree));
    if (sh(cmd, log)) return snprintf(err, errsz, "wb make-vars failed in the scratch copy (see %s)", log), -1;
    return 0;
}

/* ------------------------------------------------------------ the sandbox */

/* Options every sandboxed command of student s starts from: the scratch
 * workbook read-write; the toolkit, .deps/ and Check read-only; the
 * workbook, the class, the gradebook and the feedback absent. */
void sandbox_opts(const grader *G, const student *s, sb_opts *o)
{
    memset(o, 0, sizeof *o);
    o->scratch = s->tree;
    o->ro_binds = G->ro;
    o->hide = G->hide;
    o->path = G->sb_path;
    o->max_procs = MAX_PROCS;
    o->file_bytes = FILE_LIMIT;
    o->disk_bytes = G->disk_quota; /* the whole scratch workbook: many files each under FILE_LIMIT */
    o->disk_entries = DISK_ENTRIES; /* empty files cost inodes, not blocks */
    o->seccomp = G->seccomp;       /* builds too: nothing of make, nvcc, gcc or ld needs a call deny kills */
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
    case SB_LIMIT_DISK:
        snprintf(out, sz, "disk quota: it wrote more than %lld MiB, or more than %ld files and folders, into its "
                 "scratch folder and was stopped", o->disk_bytes >> 20, o->disk_entries);
        break;
    default: snprintf(out, sz, "it stopped"); break;
    }
}

/* A file's SHA-256 (quizzes/sha256.c), not following a symlink: 0, or -1
 * when it is not a regular file that can be read. */
int file_sha256(const char *path, unsigned char out[32])
{
    memset(out, 0, 32);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return close(fd), -1;
    sha256_ctx c;
    sha256_init(&c);
    unsigned char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) sha256_add(&c, buf, (size_t)n);
    close(fd);
    sha256_end(&c, out);
    return n < 0 ? -1 : 0;
}

/* A file's contents hashed, not following a symlink: the first 64 bits of
 * its SHA-256 (a student's code that rewrites a file must find a second
 * preimage of those, 2^64 work; FNV-1a's, used before, can be solved for);
 * 0 if it cannot be read. */
unsigned long long file_hash(const char *path)
{
    unsigned char d[32];
    if (file_sha256(path, d) != 0) return 0;
    unsigned long long h = 0;
    for (int i = 0; i < 8; i++) h = h << 8 | d[i];
    return h ? h : 1;
}

/* The judge's runner of week w of student s: as the build left it in the
 * scratch workbook (`built`, build/WEEK/learner/judge-runner, which every
 * run of the student's code can write) and the grader's copy of it beside
 * the scratch workbook (`kept`, judge-runner-W in the student's scratch
 * folder, which no sandbox can see, let alone write), each sz bytes. */
void judge_runner_paths(const student *s, const week_cfg *W, int w, char *built, char *kept, size_t sz)
{
    snprintf(built, sz, "%s/build/%s/learner/judge-runner", s->tree, W->dir);
    const char *slash = strrchr(s->tree, '/');
    int base = slash ? (int)(slash - s->tree) : 0;
    snprintf(kept, sz, "%.*s/judge-runner-%d", base, s->tree, w);
}

/* Right after the build linked the judge's runner (the grader's main
 * object, the student's checked objects) and before any of the student's
 * code has run: its SHA-256 noted, and a copy of it kept where the sandbox
 * cannot reach (judge_runner_paths), which every judged run starts, shown
 * read-only (run_checkpoint). A run of the student's code can rewrite the
 * runner in its scratch workbook (week 17's and 18's code may open files;
 * other code that slips a system call past the object check can too): the
 * next run would then start a program no object check has read, and a
 * kept scratch copy would hold it for whoever runs make there. 0, or -1
 * (said on stderr: the grader's problem, not the student's). */
int keep_judge_runner(grader *G, student *s, int w)
{
    char built[1500], kept[1500];
    judge_runner_paths(s, &G->weeks[w], w, built, kept, sizeof built);
    s->runner_kept[w] = -1;
    unsigned char a[32], b[32];
    int in = open(built, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), out = -1, bad = 0;
    struct stat st;
    if (in < 0 || fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) bad = 1;
    if (!bad && (unlink(kept) == 0 || errno == ENOENT))
        out = open(kept, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0755);
    if (!bad && out >= 0) {
        sha256_ctx c;
        sha256_init(&c);
        unsigned char buf[65536];
        ssize_t n;
        while ((n = read(in, buf, sizeof buf)) > 0) {
            sha256_add(&c, buf, (size_t)n);
            if (write(out, buf, (size_t)n) != n) break;
        }
        sha256_end(&c, a);
        bad = n != 0;
    } else bad = 1;
    if (in >= 0) close(in);
    if (out >= 0 && (fchmod(out, 0755) != 0 || close(out) != 0)) bad = 1;
    if (bad || file_sha256(kept, b) != 0 || memcmp(a, b, 32) != 0) {
        fprintf(stderr, "grade: %s %s: cannot keep a copy of the judge's runner (%s) beside the scratch workbook\n",
                s->id, G->weeks[w].dir, built);
        unlink(kept);
        return -1;
    }
    memcpy(s->runner_sha[w], a, 32);
    s->runner_kept[w] = 1;
    return 0;
}

/* Copy a file the sandbox wrote (untrusted: perhaps a symlink, a fifo, or
 * huge) to `to`, a regular file of at most `max` bytes. 0, or -1 with why. */
int copy_untrusted(const char *from, const char *to, long max, char *why, size_t whysz)
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

/* Bytes of one make argument build_argv writes (a rule: the judge's runner
 * names every object of its week). */
#define BUILD_ARG_MAX 2048

/* The make command of one week of one student, run in the sandbox: the
 * learner test, and for each exercise its full dependency list (nvcc -M:
 * make's -MMD leaves out system headers, and nvcc counts CCCL's cub and
 * thrust among them), which the object check reads. -k: a file that does
 * not compile still leaves the others' objects and lists to check. */
static int build_argv(const grader *G, const student *s, int w, char **argv, char store[][BUILD_ARG_MAX])
{
    const week_cfg *W = &G->weeks[w];
    int k = 0, t = 0;
    argv[k++] = "make";
    argv[k++] = "-C";
    argv[k++] = (char *)s->tree;
    /* no "Entering directory" lines: they name the scratch folder's path on the
     * instructor's machine, and the log's tail reaches the student's feedback */
    argv[k++] = "--no-print-directory";
    argv[k++] = "-k";
    argv[k++] = "-j4";
    for (int i = 0; i < G->n_make_args; i++) argv[k++] = G->make_args[i];
    for (int e = 0; e < W->meta.n_exercises; e++) {
        argv[k++] = "--eval";
        snprintf(store[t], BUILD_ARG_MAX, "build/%s/learner/%s.fulldeps: %s/%s.cu ; @mkdir -p $(@D) && $(NVCC) $(NVFLAGS) $(call week_nvf,%s) -I%s -M "
                 "-MT build/%s/learner/%s.o -MF $@ $<", W->dir, W->meta.exercises[e], W->dir, W->meta.exercises[e],
                 W->dir, W->dir, W->dir, W->meta.exercises[e]);
        argv[k++] = store[t++];
    }
    snprintf(store[t], BUILD_ARG_MAX, "build/%s/learner/test", W->dir);
    argv[k++] = store[t++];
    if (W->judge[0]) {
        /* the runner: its main, judge_runner.c, the student's objects, libwb (grade_run.c,
         * run_judged); --eval is read before the Makefile: no variable of it in the prerequisites */
        const char *main_o = strrchr(W->judge_runner_obj, '/');
        char objs[1400] = ""; /* week 13: seven exercises and three support objects */
        for (int e = 0; e < W->meta.n_exercises; e++)
            snprintf(objs + strlen(objs), sizeof objs - strlen(objs), " build/%s/learner/%s.o", W->dir, W->meta.exercises[e]);
        /* the week's given support sources (week 02's launcher), linked as its test program links them */
        char pat[1400];
        glob_t g;
        snprintf(pat, sizeof pat, "%s/%s/support/*.cu", G->root, W->dir);
        if (glob(pat, 0, NULL, &g) == 0) {
            for (size_t i = 0; i < g.gl_pathc; i++) {
                const char *b = strrchr(g.gl_pathv[i], '/') + 1;
                snprintf(objs + strlen(objs), sizeof objs - strlen(objs), " build/%s/support/%.*s.o", W->dir,
                         (int)(strlen(b) - 3), b);
            }
            globfree(&g);
        }
        argv[k++] = "--eval";
        /* the objects of the weeks it uses (week.txt's uses:, week 34's of week 33, prebuilt and copied
         * into the tree above) and the week's libraries (week.txt's libs:, week 21's cuBLAS) as its test
         * program links them: the recipe is expanded when it runs, after the Makefile has defined
         * used_objs and week_libs */
        snprintf(store[t], BUILD_ARG_MAX, "build/%s/learner/judge-runner: build/instructor%s build/instructor/judge_runner_cuda.o%s "
                 "build/libwb.a ; $(CXX) -o $@ $^ $(call used_objs,%s) $(call week_libs,%s) $(LDCUDA)", W->dir,
                 main_o ? main_o : "/missing.o", objs, W->dir, W->dir);
        argv[k++] = store[t++];
        snprintf(store[t], BUILD_ARG_MAX, "build/%s/learner/judge-runner", W->dir);
        argv[k++] = store[t++];
    }
    for (int e = 0; e < W->meta.n_exercises; e++) {
        snprintf(store[t], BUILD_ARG_MAX, "build/%s/learner/%s.fulldeps", W->dir, W->meta.exercises[e]);
        argv[k++] = store[t++];
    }
    argv[k] = NULL;
    return k;
}

/* The line of a failed build's log that says why: the first a compiler,
 * linker or the system wrote ("error", "fatal", "undefined reference",
 * "cannot find", "No such file", "Killed", ...), never one of make's own
 * summaries ("make: *** ... Error 1", "not remade because of errors"),
 * which name no cause; without such a line, the log's last lines (at
 * most 300 bytes, from the start of a line). */
static void first_error(const char *log, char *out, size_t outsz)
{
    static const char *const why[] = { ">>>", "error", "Error", "fatal", "undefined reference", "cannot find",
                                       "No such file", "Killed", "Segmentation fault", "Aborted", NULL };
    char *t = wb_read_file(log, NULL);
    out[0] = 0;
    if (!t) return;
    for (char *ls = t; *ls;) {
        size_t len = strcspn(ls, "\n");
        char saved = ls[len];
        ls[len] = 0;
        int hit = 0;
        if (strncmp(ls, "make:", 5) && strncmp(ls, "make[", 5))
            for (int k = 0; why[k] && !hit; k++) hit = strstr(ls, why[k]) != NULL;
        ls[len] = saved;
        if (hit) {
            snprintf(out, outsz, "%.*s", (int)len, ls);
            free(t);
            return;
        }
        ls += len + (saved != 0);
    }
    size_t n = strlen(t);
    const char *tail = n > 300 ? t + n - 300 : t;
    if (tail > t && tail[-1] != '\n' && strchr(tail, '\n') && strchr(tail, '\n')[1]) tail = strchr(tail, '\n') + 1;
    snprintf(out, outsz, "%s", tail);
    free(t);
}

void set_all(grader *G, student *s, int w, int status, const char *why, size_t own)
{
    for (int c = 0; c < G->weeks[w].meta.n_checkpoints; c++) {
        cp_grade *g = &s->g[w][c];
        g->status = status;
        g->points = 0;
        why_clear(g);
        why_own(g, "%.*s", (int)own, why);
        why_text(g, why + strnlen(why, own));
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
        static char store[2 * WB_MAX_EXERCISES + 4][BUILD_ARG_MAX]; /* + the judge's runner: its rule and its target */
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
        set_all(G, s, w, ST_FAIL, why, strlen(why));
        s->built[w] = -1;
        return;
    }
    if (msg.r.limit == SB_LIMIT_NONE && msg.r.signal == 0 && msg.r.exit_code == 0) {
        s->built[w] = 1;
        return;
    }
    char e[400];
    size_t own;
    first_error(log, e, sizeof e);
    if (msg.r.limit != SB_LIMIT_NONE) {
        sb_opts o;
        sandbox_opts(G, s, &o);
        o.wall_s = G->build_limit, o.mem_bytes = BUILD_MEM;
        char lt[300];
        limit_text(&msg.r, &o, lt, sizeof lt);
        snprintf(why, sizeof why, "did not build: %s", lt);
        own = strlen(why); /* the limit's words: the grader's */
        if (msg.r.limit == SB_LIMIT_DISK) { /* what the build wrote goes now, not after the class */
            char cmd[3200], dir[1500];
            snprintf(dir, sizeof dir, "%s/build/%s/learner", s->tree, G->weeks[w].dir);
            snprintf(cmd, sizeof cmd, "chmod -R u+rwX %s 2>/dev/null; rm -rf %s", q(dir), q(dir));
            sh(cmd, NULL);
            printf("  %-24s %s: %s\n", s->id, G->weeks[w].dir, lt);
        }
    } else if (msg.r.signal == SIGSYS && msg.r.why[0]) {
        snprintf(why, sizeof why, "did not build: the build was %s", msg.r.why);
        own = strlen(why); /* the sandbox's words */
    } else {
        /* then the compiler's line: it quotes the student's source */
        own = (size_t)snprintf(why, sizeof why, "did not compile: ");
        appendf(why, sizeof why, "%s", e);
    }
    set_all(G, s, w, ST_FAIL, why, own);
    /* the log quotes the student's source (an #error line, a name): a fence nothing in it can close */
    appendf(s->note[w], sizeof s->note[w], "- The build failed; from its log:\n\n");
    md_fence(s->note[w], sizeof s->note[w], e);
}

/* Build every student's weeks, `jobs` at a time, each in the sandbox. */
void build_all(grader *G)
{
    int total = G->n_students * G->n_weeks, next = 0, running = 0;
    build_slot *slots = calloc(G->jobs, sizeof *slots);
    for (int i = 0; i < G->jobs; i++) slots[i].pid = 0;
    while (next < total || running) {
        for (int i = 0; i < G->jobs && next < total; i++) {
            if (slots[i].pid) continue;
            int t = next++;
            if (G->st[t / G->n_weeks].built[t % G->n_weeks] < 0) continue; /* preparation failed */
            if (!G->weeks[t % G->n_weeks].has_c) { /* Python only: nothing to build, no object to check */
                G->st[t / G->n_weeks].built[t % G->n_weeks] = 1;
                continue;
            }
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

/* ------------------------------------------------------- steps 1-4 */

/* Steps 1-4 for every student of G (which may be part of a class): the
 * scratch copy, the build, the object check. */
void prepare_build_check(grader *G)
{
    char err[4000];
    for (int i = 0; i < G->n_students; i++) {
        student *s = &G->st[i];
        if (s->refusal[0]) snprintf(err, sizeof err, "%s", s->refusal); /* by the class listing: nothing to import */
        if (s->refusal[0] || prepare_student(G, s, err, sizeof err) != 0) {
            if (s->refused) printf("  %-24s %s\n", s->id, err);
            else fprintf(stderr, "grade: %s: %s\n", s->id, err);
            for (int w = 0; w < G->n_weeks; w++) {
                set_all(G, s, w, ST_FAIL, err, 0); /* it names the submission's entries */
                if (s->refused) { /* err names the submission's entries (escaped, but for Markdown) */
                    appendf(s->note[w], sizeof s->note[w], "- ");
                    md_code(s->note[w], sizeof s->note[w], err);
                    appendf(s->note[w], sizeof s->note[w], ". Every checkpoint scores 0.\n");
                }
                s->built[w] = -1;
            }
            continue;
        }
    }
    build_all(G);
    /* before any student's code runs: it could change its own files */
    for (int i = 0; i < G->n_students; i++)
        for (int w = 0; w < G->n_weeks; w++) check_objects(G, &G->st[i], w);
}
