/* wb — the workbook's command-line tool, called by the Makefile.
 *
 *   wb help                     what to type, and the next week to do
 *   wb status                   all 52 weeks (and the optional track weeks), progress bars, quizzes, next step
 *   wb strip SOLUTION.cu        print the starter derived from a solution
 *   wb drift WEEKDIR            check committed starters equal the derived ones
 *   wb hint WEEKDIR             show the next hint of a week (one at a time)
 *   wb reset WEEKDIR [EX]       restore starters, keeping a backup of yours
 *   wb ledger FILE              sum a test ledger: "N passed, N failed, N skipped"
 *   wb ledger-add FILE STATUS LABEL [DETAIL]
 *   wb progress-check           parse the progress file, report problems
 *   wb report RESULTS WEEK [--record] [--status N]
 *                               after a check: record what passed, say what next
 *   wb ledger-results LEDGER RESULTS LABEL pass|fail
 *                               make test's ledger lines from a results record
 *   wb make-vars                every week.txt as make variables (build/weeks.mk)
 *   wb week-info WEEK exercises|uses|needs|title|speed
 *   wb regress-baseline OUT RESULTS...   a baseline from several runs' records
 *   wb regress-check BASELINE RESULTS... this run against it; exit 1 on a regression
 *
 * Starter regions in a solution file (lines, in this order):
 *   //@solution        what the solution has and the starter must not
 *   //@starter         lines below start with "//| ": the starter's text
 *   //@end
 * Everything outside these regions is shared, byte for byte. */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wb_file.h"
#include "wb_meta.h"
#include "wb_progress.h"
#include "wb_results.h"
#include "wb_regress.h"

/* ---------------- the curriculum map (common/curriculum.txt) ---------------- */

static wb_curriculum CUR;

static void load_curriculum(void)
{
    char err[600];
    if (wb_curriculum_load("common/curriculum.txt", &CUR, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n(run from the workbook's top folder)\n", err);
        exit(2);
    }
}

static int phase_of(int week) { return CUR.phase_of[week]; }

static void week_dir(int week, char *buf, size_t n) { snprintf(buf, n, "phase%d/week%02d", phase_of(week), week); }

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* ---------------- status and help ---------------- */

typedef struct {
    int present, total, done;
    wb_week meta;
} week_state;

static int load_states(week_state *ws, wb_progress *prog, int *prog_ok, char *perr, size_t perrsz)
{
    *prog_ok = wb_progress_load(wb_progress_path(), prog, perr, perrsz) == 0;
    for (int w = 1; w <= CUR.last_week; w++) {
        char dir[64], path[128], err[600];
        week_dir(w, dir, sizeof dir);
        snprintf(path, sizeof path, "%s/week.txt", dir);
        memset(&ws[w], 0, sizeof ws[w]);
        if (!exists(path)) continue;
        if (wb_week_load(path, &ws[w].meta, err, sizeof err) != 0) {
            fprintf(stderr, "warning: %s\n", err);
            continue;
        }
        ws[w].present = 1;
        ws[w].total = ws[w].meta.n_checkpoints;
        for (int c = 0; c < ws[w].total && *prog_ok; c++)
            ws[w].done += wb_progress_find(prog, ws[w].meta.checkpoints[c].id) != NULL;
    }
    return 0;
}

/* The first unfinished core week; once every core week is done, the first
 * unfinished track week (a track is optional: it never comes first). */
static int next_week(const week_state *ws)
{
    for (int w = 1; w <= CUR.last_week; w++)
        if (!CUR.track[w] && ws[w].present && ws[w].done < ws[w].total) return w;
    for (int w = 1; w <= CUR.last_week; w++)
        if (CUR.track[w] && ws[w].present && ws[w].done < ws[w].total) return w;
    return 0;
}

static void bar(char *out, int done, int total, int width)
{
    int fill = total ? (done * width + total / 2) / total : 0;
    for (int i = 0; i < width; i++) out[i] = i < fill ? '#' : '.';
    out[width] = 0;
}

/* The learner's last `make WEEK check` as its results record says (the
 * record `make check` leaves in build/WEEK/results-learner.tsv): "" when
 * there was none. */
static void last_check(const char *dir, char *out, size_t n)
{
    char path[256], err[700];
    snprintf(path, sizeof path, "build/%s/results-learner.tsv", dir);
    out[0] = 0;
    if (!exists(path)) return;
    wb_result *r = NULL;
    int k = wb_results_read(path, &r, err, sizeof err);
    if (k <= 0) return;
    int pass = 0, fail = 0, skip = 0, first_fail = -1;
    for (int i = 0; i < k; i++) {
        pass += r[i].status == WB_RES_PASS, skip += r[i].status == WB_RES_SKIP;
        if (r[i].status == WB_RES_FAIL && fail++ == 0) first_fail = i;
    }
    int m = snprintf(out, n, "last check: %d pass, %d fail%s", pass, fail, skip ? ", some skipped" : "");
    if (first_fail >= 0 && m > 0 && (size_t)m < n) {
        const wb_result *f = &r[first_fail];
        if (!isnan(f->ratio)) snprintf(out + m, n - (size_t)m, " (%s %.3f of %s, target %.2f)", f->id, f->ratio, f->yard,
                                       f->target);
        else snprintf(out + m, n - (size_t)m, " (%s)", f->id);
    }
    free(r);
}

/* One line of `wb status` for week w. */
static void status_line(const week_state *ws, int w)
{
    char dir[64], title[48], last[300];
    week_dir(w, dir, sizeof dir);
    /* long titles are cut so the counts stay in one column */
    if (strlen(CUR.week[w]) > 40) snprintf(title, sizeof title, "%.37s...", CUR.week[w]);
    else snprintf(title, sizeof title, "%s", CUR.week[w]);
    const char *opt = CUR.track[w] ? " (optional track)" : "";
    if (!ws[w].present) {
        printf("   -    %-16s %-40s (not in this workbook yet)%s\n", dir, title, opt);
        return;
    }
    const char *mark = ws[w].done == ws[w].total ? "done" : ws[w].done ? "part" : "todo";
    last[0] = 0;
    if (ws[w].done < ws[w].total) last_check(dir, last, sizeof last);
    printf("  %s  %-16s %-40s %2d/%-2d %s%s%s\n", mark, dir, title, ws[w].done, ws[w].total, CUR.track[w] ? "optional" : "",
           CUR.track[w] && *last ? ", " : "", last);
}

static int cmd_status(void)
{
    static week_state ws[WB_MAX_WEEK + 1];
    wb_progress prog;
    int ok;
    char perr[700];
    load_states(ws, &prog, &ok, perr, sizeof perr);
    /* what is wrong with the progress file comes first, before 60 lines of
     * weeks: refused (damaged, a directory, unreadable), or readable but
     * nothing can be recorded in it (its folder is missing or read-only) */
    char werr[700];
    int writable = !ok || wb_progress_check(wb_progress_path(), werr, sizeof werr) == 0;
    if (!ok)
        printf("! progress file refused: %s\n"
               "  (it is left exactly as it is; fix or move it, or set WB_PROGRESS to another file.\n"
               "   Until then the counts below show nothing and `make ... check` records nothing.)\n\n",
               perr);
    else if (!writable)
        printf("! progress cannot be recorded: %s\n"
               "  (`make ... check` runs the tests but records nothing until this is fixed)\n\n",
               werr);
    printf("Progress file: %s\n", wb_progress_path());
    const wb_record *pre = ok ? wb_progress_find(&prog, "quiz.preflight") : NULL;
    printf("Preflight quiz: %s\n\n", pre ? pre->figure : "not taken (make quiz PHASE=preflight: what to know before week 1)");
    int all_done = 0, all_total = 0, present_weeks = 0, tr_done = 0, tr_total = 0, tr_weeks = 0;
    for (int p = 0; p < 9; p++) {
        int pd = 0, pt = 0, pw = 0;
        for (int w = CUR.first_week[p]; w < CUR.first_week[p + 1]; w++) {
            pd += ws[w].done;
            pt += ws[w].total;
            pw += ws[w].present;
        }
        char b[32];
        bar(b, pd, pt, 20);
        char quiz[64] = "quiz: not taken";
        char qid[32];
        snprintf(qid, sizeof qid, "quiz.phase%d", p);
        const wb_record *q = ok ? wb_progress_find(&prog, qid) : NULL;
        if (q) snprintf(quiz, sizeof quiz, "quiz: %s", q->figure);
        if (pw) printf("Phase %d  %-26s [%s] %3d/%-3d checkpoints  %s\n", p, CUR.phase[p], b, pd, pt, quiz);
        else {
            int ptr = 0; /* the phase's track weeks present: they are listed below, outside the counts */
            for (int w = WB_CORE_WEEKS + 1; w <= CUR.last_week; w++) ptr += CUR.phase_of[w] == p && ws[w].present;
            printf("Phase %d  %-26s (%s)\n", p, CUR.phase[p],
                   ptr ? "no core weeks in this workbook; optional track weeks below" : "no weeks in this workbook yet");
        }
        for (int w = CUR.first_week[p]; w < CUR.first_week[p + 1]; w++) status_line(ws, w);
        /* the phase's optional track weeks, after its core weeks, outside its counts */
        for (int w = WB_CORE_WEEKS + 1; w <= CUR.last_week; w++) {
            if (CUR.phase_of[w] != p) continue;
            status_line(ws, w);
            tr_done += ws[w].done;
            tr_total += ws[w].total;
            tr_weeks += ws[w].present;
        }
        all_done += pd;
        all_total += pt;
        present_weeks += pw;
    }
    int nw = next_week(ws);
    printf("\n%d of %d checkpoints done across the %d weeks in this workbook (of 52).\n", all_done, all_total,
           present_weeks);
    if (tr_weeks)
        printf("Optional track: %d of %d checkpoints done across %d track week%s (not counted above).\n", tr_done,
               tr_total, tr_weeks, tr_weeks == 1 ? "" : "s");
    if (nw) {
        char dir[64];
        week_dir(nw, dir, sizeof dir);
        printf("Next: %s (%s%s): read %s/README.md, then `make %s check`.\n", dir, CUR.week[nw],
               CUR.track[nw] ? ", optional track" : "", dir, dir);
    } else if (present_weeks) {
        printf("Every week in this workbook is done.\n");
    }
    if (!ok) printf("! (the progress file was refused: see the first lines above)\n");
    else if (!writable) printf("! (progress cannot be recorded: see the first lines above)\n");
    if (ok) wb_progress_free(&prog);
    return 0;
}

static int cmd_help(void)
{
    static week_state ws[WB_MAX_WEEK + 1];
    wb_progress prog;
    int ok;
    char perr[700];
    load_states(ws, &prog, &ok, perr, sizeof perr);
    int nw = next_week(ws);
    char dir[64] = "phase0/week01";
    if (nw) week_dir(nw, dir, sizeof dir);
    /* A student copy (make release) has no solution/ folders: IMPL=solution
     * and the instructors' tools are not offered there. */
    int solutions = 0;
    for (int k = 1; k <= CUR.last_week && !solutions; k++) {
        char d[64], p[96];
        week_dir(k, d, sizeof d);
        snprintf(p, sizeof p, "%s/solution", d);
        solutions = exists(p);
    }
    int instructor = exists("instructor/grade.c");
    char ex[64] = "EX", cp[80] = "CHECKPOINT-ID";
    static wb_week w;
    char wpath[96], werr[300];
    snprintf(wpath, sizeof wpath, "%s/week.txt", dir);
    if (wb_week_load(wpath, &w, werr, sizeof werr) == 0) {
        if (w.n_exercises) snprintf(ex, sizeof ex, "%s", w.exercises[0]);
        if (w.n_checkpoints) snprintf(cp, sizeof cp, "%s", w.checkpoints[w.n_checkpoints - 1].id);
    }
    char c[32][120];
    const char *what[32];
    int n = 0;
#define ROW(desc, ...) (snprintf(c[n], sizeof c[n], __VA_ARGS__), what[n++] = (desc))
    ROW("build your code for that week", "make %s", dir);
    ROW("build and test it; passed checkpoints go to progress.md", "make %s check", dir);
    ROW("benchmark table (+ CSV in build/bench/); NAME= one of its rows", "make %s bench [NAME=name]", dir);
    ROW("the next hint, one at a time", "make %s hint", dir);
    ROW("restore the starters (yours kept as .bak files); EX= one file", "make %s reset [EX=%s]", dir, ex);
    ROW("compute-sanitizer: memcheck, racecheck, initcheck, synccheck", "make %s sanitize", dir);
    ROW("Nsight Compute on the week's benchmarks (NAME= one)", "make %s profile [NAME=name]", dir);
    ROW("the PTX or SASS of your kernels", "make %s ptx | sass", dir);
    ROW("the same with the untouched starter (never recorded)", "make %s check IMPL=starter", dir);
    if (solutions) ROW("the same with the reference solution (never recorded)", "make %s check IMPL=solution", dir);
    ROW("where you stand: the 52 weeks, optional track weeks apart", "make status");
    ROW("take a phase's checkpoint quiz (0-8, or preflight)", "make quiz PHASE=%c [ANSWERS=file]", dir[5]);
    ROW("make a lab-notebook entry for today", "make journal");
    ROW("this GPU's bandwidths and latencies (build/notebook/)", "make microbench");
    ROW("your roofline from the benchmarks you ran (PNG)", "make roofline");
    ROW("every speed checkpoint against this GPU's baseline", "make regress [WEEKS=...] (first: make regress-baseline)");
    ROW("week 47's ranks started by Open MPI's mpirun", "make phase8/week47 mpirun [NP=2]");
    ROW("the workbook's own tests (TEST_WEEKS= some weeks)", "make test [TEST_WEEKS=%s]", dir);
    ROW("remove build/ but benchmark CSVs and hint state", "make clean");
    ROW("remove build/ entirely", "make distclean");
#undef ROW
    printf("The CUDA workbook: one folder a week, phaseP/weekNN (phase0/week1 works too). Type, for example:\n\n");
    for (int i = 0; i < n; i++) printf("  %-46s %s\n", c[i], what[i]);
    printf("\nWith any of them:\n\n");
    printf("  %-46s %s\n", "V=1", "show the full compiler commands");
    printf("  %-46s %s\n", "WB_SEED=1234 (or WB_SEED=random)", "other random inputs (the default seed is fixed)");
    printf("  %-46s %s\n", "ARCH=sm_90", "the GPU to build for (default: this machine's)");
    char ck[120];
    snprintf(ck, sizeof ck, "CK_RUN_CASE=%s", cp);
    printf("  %-46s %s\n", ck, "check one checkpoint only");
    if (instructor)
        printf("\nInstructors: make release OUT=dir, make grade SUBMISSIONS=dir WEEKS=..., make grade-quiz "
               "(instructor/README.md).\n");
    printf("\n");
    if (nw) printf("Next for you: %s (%s).\n", dir, CUR.week[nw]);
    if (!ok) printf("! progress file refused: %s\n", perr);
    if (ok) wb_progress_free(&prog);
    return 0;
}

/* ---------------- starters ---------------- */

/* 1 when `name` is a Python file: its markers are comments in Python's form. */
static int is_py(const char *name)
{
    size_t l = strlen(name);
    return l >= 3 && strcmp(name + l - 3, ".py") == 0;
}

/* Derive the starter text from a solution text. Returns NULL with a message
 * on malformed markers. C and CUDA files mark regions with //@solution,
 * //@starter, //@end and starter lines with "//| "; Python files (Phase 7)
 * with #@solution, #@starter, #@end and "#| ". */
static char *strip(const char *src, const char *name, char *err, size_t errsz)
{
    const int py = is_py(name);
    const char *m_sol = py ? "#@solution" : "//@solution", *m_st = py ? "#@starter" : "//@starter",
               *m_end = py ? "#@end" : "//@end", *m_line = py ? "#|" : "//|";
    const size_t l_sol = strlen(m_sol), l_st = strlen(m_st), l_end = strlen(m_end), l_line = strlen(m_line);
    size_t cap = strlen(src) + 1, n = 0;
    char *out = malloc(cap);
    enum { SHARED, SOL, STARTER } state = SHARED;
    int lno = 0, open_lno = 0;
    for (const char *line = src; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        lno++;
        const char *t = line;
        while (*t == ' ' || *t == '\t') t++;
        size_t tl = len - (size_t)(t - line);
        int is_sol = strncmp(t, m_sol, l_sol) == 0, is_st = strncmp(t, m_st, l_st) == 0,
            is_end = strncmp(t, m_end, l_end) == 0;
        if (is_sol) {
            if (state != SHARED) goto bad;
            state = SOL;
            open_lno = lno;
        } else if (is_st) {
            if (state != SOL) goto bad;
            state = STARTER;
        } else if (is_end) {
            if (state == SHARED) goto bad;
            state = SHARED;
        } else if (state == SHARED) {
            memcpy(out + n, line, len);
            n += len;
        } else if (state == STARTER) {
            /* keep the indentation, drop the "//| " (or "//|") prefix */
            if (strncmp(t, m_line, l_line) != 0) {
                snprintf(err, errsz, "%s:%d: lines in a %s region must start with '%s '", name, lno, m_st, m_line);
                free(out);
                return NULL;
            }
            size_t ind = (size_t)(t - line), skip = (tl > l_line && t[l_line] == ' ') ? l_line + 1 : l_line;
            memcpy(out + n, line, ind);
            n += ind;
            memcpy(out + n, t + skip, tl - skip);
            n += tl - skip;
        }
        line += len;
        continue;
    bad:
        snprintf(err, errsz, "%s:%d: marker out of order (%s, %s, %s)", name, lno, m_sol, m_st, m_end);
        free(out);
        return NULL;
    }
    if (state != SHARED) {
        snprintf(err, errsz, "%s:%d: %s region never closed with %s", name, open_lno, m_sol, m_end);
        free(out);
        return NULL;
    }
    out[n] = 0;
    return out;
}

static int cmd_strip(const char *path)
{
    char *src = wb_read_file(path, NULL);
    if (!src) {
        fprintf(stderr, "wb strip: cannot read %s\n", path);
        return 2;
    }
    char err[300];
    char *out = strip(src, path, err, sizeof err);
    free(src);
    if (!out) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    fputs(out, stdout);
    free(out);
    return 0;
}

/* The pristine starter of one exercise: derived from the solution when it is
 * there, else the copy a release keeps in WEEKDIR/.starter/. */
static char *pristine(const char *wdir, const char *ex, const char *ext, char *err, size_t errsz)
{
    char sol[512], kept[512];
    snprintf(sol, sizeof sol, "%s/solution/%s%s", wdir, ex, ext);
    snprintf(kept, sizeof kept, "%s/.starter/%s%s", wdir, ex, ext);
    char *src = wb_read_file(sol, NULL);
    if (src) {
        char *s = strip(src, sol, err, errsz);
        free(src);
        return s;
    }
    src = wb_read_file(kept, NULL);
    if (!src) snprintf(err, errsz, "neither %s nor %s is there", sol, kept);
    return src;
}

/* A week's exercise files: its CUDA exercises (EX.cu), then its Python ones
 * (EX.py, Phase 7). Index k runs over both; the name and extension of k. */
static int n_ex_files(const wb_week *w) { return w->n_exercises + w->n_pyexercises; }
static const char *ex_name(const wb_week *w, int k)
{
    return k < w->n_exercises ? w->exercises[k] : w->pyexercises[k - w->n_exercises];
}
static const char *ex_ext(const wb_week *w, int k) { return k < w->n_exercises ? ".cu" : ".py"; }

static int load_week(const char *wdir, wb_week *w)
{
    char path[512], err[600];
    snprintf(path, sizeof path, "%s/week.txt", wdir);
    if (wb_week_load(path, w, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}

static int cmd_drift(const char *wdir)
{
    wb_week w;
    if (load_week(wdir, &w)) return 2;
    int bad = 0;
    for (int i = 0; i < n_ex_files(&w); i++) {
        char err[300], path[512];
        snprintf(path, sizeof path, "%s/%s%s", wdir, ex_name(&w, i), ex_ext(&w, i));
        char *want = pristine(wdir, ex_name(&w, i), ex_ext(&w, i), err, sizeof err);
        if (!want) {
            fprintf(stderr, "%s\n", err);
            bad++;
            continue;
        }
        char *have = wb_read_file(path, NULL);
        if (!have || strcmp(have, want) != 0) {
            fprintf(stderr,
                    "%s differs from the starter derived from %s/solution/%s%s\n"
                    "  (authors: edit the solution's marked regions and run `make starters`; learners: expected "
                    "once you edit it)\n",
                    path, wdir, ex_name(&w, i), ex_ext(&w, i));
            bad++;
        }
        free(have);
        free(want);
    }
    return bad ? 1 : 0;
}

static int cmd_write_starters(const char *wdir)
{
    wb_week w;
    if (load_week(wdir, &w)) return 2;
    for (int i = 0; i < n_ex_files(&w); i++) {
        char err[300], path[512];
        char *s = pristine(wdir, ex_name(&w, i), ex_ext(&w, i), err, sizeof err);
        if (!s) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        snprintf(path, sizeof path, "%s/%s%s", wdir, ex_name(&w, i), ex_ext(&w, i));
        FILE *f = fopen(path, "w");
        if (!f || fputs(s, f) < 0 || fclose(f) != 0) {
            fprintf(stderr, "cannot write %s\n", path);
            return 2;
        }
        free(s);
    }
    return 0;
}

/* Copy the file `from` to the new name `to`, never over an existing file
 * ("x": fails with EEXIST). 0, or -1 with errno; no partial copy is left. */
static int copy_new(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in) return -1;
    FILE *out = fopen(to, "wbx");
    if (!out) {
        int e = errno;
        fclose(in);
        errno = e;
        return -1;
    }
    struct stat st;
    if (fstat(fileno(in), &st) == 0) fchmod(fileno(out), st.st_mode & 0777);
    char buf[65536];
    size_t k;
    int bad = 0, e = 0;
    while (!bad && (k = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, k, out) != k) bad = 1, e = errno;
    if (!bad && ferror(in)) bad = 1, e = errno;
    fclose(in);
    if (!bad && (fflush(out) != 0 || fsync(fileno(out)) != 0)) bad = 1, e = errno;
    if (fclose(out) != 0 && !bad) bad = 1, e = errno;
    if (bad) {
        unlink(to);
        errno = e ? e : EIO;
        return -1;
    }
    return 0;
}

/* Keep the learner's `path` as PATH.YYYYMMDD-HHMMSS.bak, or -2, -3, ...
 * before .bak when a reset in the same second took that name: a hard link
 * (or, where there are none, a copy) made only under a name not yet there,
 * so no earlier backup is ever replaced. `path` itself is not touched.
 * 0 with the name in bak, or -1 with errno. */
static int keep_backup(const char *path, char *bak, size_t baksz)
{
    char stamp[32];
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    for (int n = 1; n < 1000; n++) {
        if (n == 1) snprintf(bak, baksz, "%s.%s.bak", path, stamp);
        else snprintf(bak, baksz, "%s.%s-%d.bak", path, stamp, n);
        if (link(path, bak) == 0) return 0;
        if (errno == EEXIST) continue;
        if (copy_new(path, bak) == 0) return 0;
        if (errno == EEXIST) continue;
        return -1;
    }
    errno = EEXIST;
    return -1;
}

/* Write `text` to a new temporary file beside `path` (its name in tmp),
 * with `mode` when it is not -1. 0, or -1 with errno and nothing left. */
static int write_beside(const char *path, const char *text, int mode, char *tmp, size_t tmpsz)
{
    snprintf(tmp, tmpsz, "%s.tmp.%ld", path, (long)getpid());
    remove(tmp); /* one a killed run of the same pid left */
    FILE *f = fopen(tmp, "wbx");
    if (!f) return -1;
    int bad = (mode != -1 && fchmod(fileno(f), (mode_t)mode) != 0) || fputs(text, f) < 0 || fflush(f) != 0 ||
              fsync(fileno(f)) != 0;
    int e = errno;
    if (fclose(f) != 0 && !bad) bad = 1, e = errno;
    if (bad) {
        remove(tmp);
        errno = e;
        return -1;
    }
    return 0;
}

static int cmd_reset(const char *wdir, const char *only)
{
    wb_week w;
    if (load_week(wdir, &w)) return 2;
    int did = 0;
    for (int i = 0; i < n_ex_files(&w); i++) {
        if (only && *only && strcmp(only, ex_name(&w, i)) != 0) continue;
        char err[300], path[512], bak[600], tmp[600];
        char *s = pristine(wdir, ex_name(&w, i), ex_ext(&w, i), err, sizeof err);
        if (!s) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        snprintf(path, sizeof path, "%s/%s%s", wdir, ex_name(&w, i), ex_ext(&w, i));
        char *have = wb_read_file(path, NULL);
        /* there, even when it cannot be read: it is kept all the same */
        struct stat lst, st;
        int present = lstat(path, &lst) == 0;
        int mode = stat(path, &st) == 0 ? (int)(st.st_mode & 0777) : -1;
        if (have && strcmp(have, s) == 0) {
            printf("%s is already the starter\n", path);
        } else {
            /* the starter is written first, the backup made next, and only
             * then the starter renamed over the learner's file: at every
             * moment their code is at `path`, at the backup, or both */
            if (write_beside(path, s, mode, tmp, sizeof tmp) != 0) {
                fprintf(stderr, "cannot write %s: %s; nothing changed\n", tmp, strerror(errno));
                free(have);
                free(s);
                return 2;
            }
            if (present) {
                if (keep_backup(path, bak, sizeof bak) != 0) {
                    fprintf(stderr, "cannot keep a backup at %s: %s; nothing changed\n", bak, strerror(errno));
                    remove(tmp);
                    free(have);
                    free(s);
                    return 2;
                }
                printf("your %s is kept as %s\n", path, bak);
            }
            if (rename(tmp, path) != 0) {
                fprintf(stderr, "cannot replace %s: %s; it is as it was\n", path, strerror(errno));
                remove(tmp);
                free(have);
                free(s);
                return 2;
            }
            printf("%s restored to the starter\n", path);
        }
        free(have);
        free(s);
        did++;
    }
    if (!did) {
        fprintf(stderr, "no exercise '%s' in %s (exercises: ", only, wdir);
        for (int i = 0; i < n_ex_files(&w); i++) fprintf(stderr, "%s%s", i ? ", " : "", ex_name(&w, i));
        fprintf(stderr, ")\n");
        return 2;
    }
    return 0;
}

/* ---------------- hints ---------------- */

static int cmd_hint(const char *wdir)
{
    wb_week w;
    if (load_week(wdir, &w)) return 2;
    if (!w.n_hints) {
        printf("%s has no hints; its README's Hints section is the place to look.\n", wdir);
        return 0;
    }
    const char *state = getenv("WB_STATE");
    char dir[512], path[700];
    snprintf(dir, sizeof dir, "%s", state && *state ? state : "build/.wb-state");
    char mk[600];
    snprintf(mk, sizeof mk, "mkdir -p '%s'", dir);
    if (system(mk) != 0) return 2;
    char key[128];
    snprintf(key, sizeof key, "%s", wdir);
    for (char *p = key; *p; p++)
        if (*p == '/') *p = '-';
    snprintf(path, sizeof path, "%s/hints-%s", dir, key);
    int shown = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%d", &shown) != 1) shown = 0;
        fclose(f);
    }
    if (shown >= w.n_hints) {
        printf("All %d hints of %s were shown. Again, all of them:\n", w.n_hints, wdir);
        for (int i = 0; i < w.n_hints; i++) printf("  %d. [%s] %s\n", i + 1, w.hint_exercise[i], w.hints[i]);
        return 0;
    }
    const char *hext = ".cu";
    for (int i = 0; i < w.n_pyexercises; i++)
        if (strcmp(w.pyexercises[i], w.hint_exercise[shown]) == 0) hext = ".py";
    printf("Hint %d of %d for %s (%s%s):\n  %s\n", shown + 1, w.n_hints, wdir, w.hint_exercise[shown], hext,
           w.hints[shown]);
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "%d\n", shown + 1);
        fclose(f);
    }
    return 0;
}

/* ---------------- ledger ---------------- */

static int cmd_ledger(const char *path)
{
    FILE *f = fopen(path, "r");
    int pass = 0, fail = 0, skip = 0;
    char line[4096];
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "PASS\t", 5) == 0) pass++;
            else if (strncmp(line, "SKIP\t", 5) == 0) skip++;
            else if (strncmp(line, "FAIL\t", 5) == 0) {
                fail++;
                line[strcspn(line, "\n")] = 0;
                char *label = line + 5, *detail = strchr(label, '\t');
                if (detail) *detail++ = 0;
                printf("FAILED: %s%s%s\n", label, detail && *detail ? ": " : "", detail ? detail : "");
            }
        }
        fclose(f);
    }
    printf("%d passed, %d failed, %d skipped\n", pass, fail, skip);
    return fail ? 1 : 0;
}

static int cmd_ledger_add(int argc, char **argv)
{
    FILE *f = fopen(argv[2], "a");
    if (!f) return 2;
    fprintf(f, "%s\t%s\t%s\n", argv[3], argv[4], argc > 5 ? argv[5] : "");
    fclose(f);
    return 0;
}

static int cmd_progress_check(void)
{
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

/* ---------------- the results record ---------------- */

/* `wb report RESULTS WEEK [--record] [--status N]`: after `make check`, read
 * the run's results record, record the passed checkpoints in the progress
 * file (--record: the learner's own code), and print the one line that says
 * what to do next. N is the test program's exit status. Exit 0, 1 (a
 * checkpoint failed or the test program stopped early) or 3 (the progress
 * file could not be written). */
static int cmd_report(int argc, char **argv)
{
    const char *rpath = argv[2], *wdir = argv[3];
    int record = 0, status = 0;
    for (int i = 4; i < argc; i++) {
        if (strcmp(argv[i], "--record") == 0) record = 1;
        else if (strcmp(argv[i], "--status") == 0 && i + 1 < argc) status = atoi(argv[++i]);
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
    int fail = 0, pass = 0, nogpu = 0, notsel = 0, rc = status == 0 ? 0 : 1;
    wb_record recs[WB_MAX_CHECKPOINTS];
    int nrec = 0;
    char why[600] = "";
    for (int i = 0; i < n; i++) {
        if (r[i].status == WB_RES_FAIL) fail++;
        if (r[i].status == WB_RES_PASS) pass++;
        if (r[i].status == WB_RES_SKIP) {
            if (r[i].reason == WB_WHY_NOTSELECTED) notsel++;
            else {
                nogpu++;
                if (!why[0]) snprintf(why, sizeof why, "%s", r[i].message);
            }
        }
        /* Only what a GPU ran is recorded: without one nothing is done. */
        if (record && r[i].status == WB_RES_PASS && r[i].gpu[0] && nrec < WB_MAX_CHECKPOINTS) {
            char fig[400], tgt[96];
            wb_result_figure(&r[i], fig, sizeof fig);
            wb_result_target(&r[i], tgt, sizeof tgt);
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
        printf("Next: fix the failing checkpoint%s in ", fail == 1 ? "" : "s");
        for (int i = 0; i < n_ex_files(&w); i++) printf("%s%s/%s%s", i ? ", " : "", wdir, ex_name(&w, i), ex_ext(&w, i));
        printf(" (look for TODO), then check again; `make %s hint` shows a hint.\n", wdir);
        return 1;
    }
    if (nogpu) {
        printf("Next: %d checkpoint%s could not run here (%s); nothing was recorded for %s. Run the same check on a "
               "machine with an NVIDIA GPU.\n", nogpu, nogpu == 1 ? "" : "s", why, nogpu == 1 ? "it" : "them");
        return rc;
    }
    if (notsel) {
        printf("%d of %d checkpoints passed; %d not selected (CK_RUN_CASE). Unset it to check the whole week.\n",
               pass, n, notsel);
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

static int ledger_line(FILE *f, const char *st, const char *label, const char *detail)
{
    return fprintf(f, "%s\t%s\t%s\n", st, label, detail ? detail : "") < 0;
}

/* `wb ledger-results LEDGER RESULTS LABEL pass|fail`: the `make test`
 * ledger's lines for one run, from its results record. With `fail` (an
 * untouched starter) a checkpoint must fail wherever it could run. */
static int cmd_ledger_results(char **argv)
{
    const char *lpath = argv[2], *rpath = argv[3], *label = argv[4];
    int expect_fail = strcmp(argv[5], "fail") == 0;
    FILE *f = fopen(lpath, "a");
    if (!f) {
        fprintf(stderr, "cannot append to %s: %s\n", lpath, strerror(errno));
        return 2;
    }
    wb_result *r = NULL;
    char err[700], l[400];
    int n = wb_results_read(rpath, &r, err, sizeof err);
    if (n <= 0) {
        ledger_line(f, "FAIL", label, n < 0 ? err : "no checkpoints in the results record");
        fclose(f);
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < n; i++) {
        snprintf(l, sizeof l, "%s %s", label, r[i].id);
        if (expect_fail) {
            if (r[i].status == WB_RES_FAIL) ledger_line(f, "PASS", l, "fails on the starter, as it must");
            else if (r[i].status == WB_RES_SKIP) ledger_line(f, "SKIP", l, r[i].message);
            else ledger_line(f, "FAIL", l, "passes on the untouched starter: its tests cannot catch it"), bad = 1;
        } else {
            char fig[400];
            wb_result_figure(&r[i], fig, sizeof fig);
            ledger_line(f, r[i].status == WB_RES_PASS ? "PASS" : r[i].status == WB_RES_FAIL ? "FAIL" : "SKIP", l,
                        r[i].status == WB_RES_PASS ? fig : r[i].message);
            bad |= r[i].status == WB_RES_FAIL;
        }
    }
    free(r);
    fclose(f);
    return bad;
}

/* `wb results RESULTS [PREFIX]`: one short line a checkpoint, for logs. */
static int cmd_results(const char *rpath, const char *prefix)
{
    wb_result *r = NULL;
    char err[700];
    int n = wb_results_read(rpath, &r, err, sizeof err);
    if (n < 0) {
        printf("%s%s\n", prefix, err);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        char fig[400], line[600];
        wb_result_figure(&r[i], fig, sizeof fig);
        snprintf(line, sizeof line, "%s%s  %-22s %s", prefix, r[i].status == WB_RES_PASS ? "PASS" :
                 r[i].status == WB_RES_FAIL ? "FAIL" : "SKIP", r[i].id,
                 r[i].status == WB_RES_PASS ? fig : r[i].message);
        printf("%.110s\n", line);
    }
    free(r);
    return 0;
}

/* ---------------- week.txt for make and scripts ---------------- */

static int week_exists(const char *wdir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/week.txt", wdir);
    return exists(path);
}

static void mk_value(const char *s)
{
    for (; *s; s++) {
        if (*s == '$') fputs("$$", stdout);
        else if (*s == '#') fputs("\\#", stdout);
        else putchar(*s);
    }
}

/* `wb make-vars`: every week's week.txt as make variables (the Makefile
 * includes this; week.txt has one reader, this C one). */
static int cmd_make_vars(void)
{
    printf("# Generated by `wb make-vars` from every phaseP/weekNN/week.txt; do not edit.\n");
    char weeks[WB_MAX_WEEK + 1][32];
    int nw = 0;
    for (int k = 1; k <= CUR.last_week; k++) {
        char dir[32];
        week_dir(k, dir, sizeof dir);
        if (week_exists(dir)) snprintf(weeks[nw++], 32, "%s", dir);
    }
    for (int i = 0; i < nw; i++) {
        wb_week w;
        if (load_week(weeks[i], &w)) return 2;
        for (int u = 0; u < w.n_uses; u++) {
            if (!week_exists(w.uses[u])) {
                fprintf(stderr, "%s/week.txt: uses %s, which is not a week of this workbook\n", weeks[i], w.uses[u]);
                return 2;
            }
            int k = atoi(w.uses[u] + 11);
            if (k >= w.number) {
                fprintf(stderr, "%s/week.txt: uses %s, which is not an earlier week\n", weeks[i], w.uses[u]);
                return 2;
            }
        }
        printf("%s_EX :=", weeks[i]);
        for (int e = 0; e < w.n_exercises; e++) printf(" %s", w.exercises[e]);
        printf("\n%s_LIBS := ", weeks[i]);
        mk_value(w.libs);
        printf("\n%s_NVF := ", weeks[i]);
        mk_value(w.nvflags);
        printf("\n%s_USES :=", weeks[i]);
        for (int u = 0; u < w.n_uses; u++) printf(" %s", w.uses[u]);
        printf("\n%s_NEEDS :=", weeks[i]);
        for (int u = 0; u < w.n_needs; u++) printf(" %s", w.needs[u]);
        printf("\n%s_PY :=", weeks[i]);
        for (int e = 0; e < w.n_pyexercises; e++) printf(" %s", w.pyexercises[e]);
        printf("\n");
    }
    return 0;
}

/* `wb week-info WEEK exercises|pyexercises|uses|needs|title|speed|checkpoints`: one fact a line, for
 * scripts. `checkpoints`: "ID<TAB>TARGET<TAB>YARDSTICK" a line, in week.txt's order, TARGET and
 * YARDSTICK "-" where there is no target (Phase 7's pytest plugin reads this, never week.txt). */
static int cmd_week_info(const char *wdir, const char *what)
{
    wb_week w;
    if (load_week(wdir, &w)) return 2;
    if (strcmp(what, "exercises") == 0)
        for (int i = 0; i < w.n_exercises; i++) printf("%s\n", w.exercises[i]);
    else if (strcmp(what, "pyexercises") == 0)
        for (int i = 0; i < w.n_pyexercises; i++) printf("%s\n", w.pyexercises[i]);
    else if (strcmp(what, "checkpoints") == 0)
        for (int i = 0; i < w.n_checkpoints; i++) {
            const wb_checkpoint *c = &w.checkpoints[i];
            if (c->target > 0) printf("%s\t%.15g\t%s\n", c->id, c->target, c->yard);
            else printf("%s\t-\t-\n", c->id);
        }
    else if (strcmp(what, "uses") == 0)
        for (int i = 0; i < w.n_uses; i++) printf("%s\n", w.uses[i]);
    else if (strcmp(what, "needs") == 0)
        for (int i = 0; i < w.n_needs; i++) printf("%s\n", w.needs[i]);
    else if (strcmp(what, "title") == 0) printf("%s\n", w.title);
    else if (strcmp(what, "speed") == 0) /* the checkpoints with a target */
        for (int i = 0; i < w.n_checkpoints; i++) {
            if (w.checkpoints[i].target > 0) printf("%s\n", w.checkpoints[i].id);
        }
    else return 2;
    return 0;
}

/* `wb regress-baseline OUT RESULTS...` and `wb regress-check BASELINE
 * RESULTS...` (make regress-baseline, make regress; common/include/wb_regress.h). */
static int cmd_regress(int argc, char **argv)
{
    char err[700];
    const char *const *recs = (const char *const *)argv + 3;
    if (strcmp(argv[1], "regress-baseline") == 0) {
        int n = wb_regress_baseline(argv[2], recs, argc - 3, err, sizeof err);
        if (n < 0) { fprintf(stderr, ">>> %s\n", err); return 2; }
        printf("baseline of %d checkpoints written to %s\n", n, argv[2]);
        return 0;
    }
    int bad = wb_regress_check(argv[2], recs, argc - 3, stdout, err, sizeof err);
    if (bad < 0) { fprintf(stderr, ">>> %s\n", err); return 2; }
    printf("%s\n", bad ? "regressions found (the lines marked REGRESSION above)" : "no regression against the baseline");
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "help";
    load_curriculum();
    if (strcmp(cmd, "report") == 0 && argc >= 4) return cmd_report(argc, argv);
    if (strcmp(cmd, "ledger-results") == 0 && argc == 6) return cmd_ledger_results(argv);
    if (strcmp(cmd, "make-vars") == 0) return cmd_make_vars();
    if (strcmp(cmd, "results") == 0 && argc >= 3) return cmd_results(argv[2], argc > 3 ? argv[3] : "");
    if (strcmp(cmd, "week-info") == 0 && argc == 4) return cmd_week_info(argv[2], argv[3]);
    if ((strcmp(cmd, "regress-baseline") == 0 || strcmp(cmd, "regress-check") == 0) && argc >= 4) return cmd_regress(argc, argv);
    if (strcmp(cmd, "help") == 0) return cmd_help();
    if (strcmp(cmd, "status") == 0) return cmd_status();
    if (strcmp(cmd, "strip") == 0 && argc == 3) return cmd_strip(argv[2]);
    if (strcmp(cmd, "drift") == 0 && argc == 3) return cmd_drift(argv[2]);
    if (strcmp(cmd, "write-starters") == 0 && argc == 3) return cmd_write_starters(argv[2]);
    if (strcmp(cmd, "reset") == 0 && argc >= 3) return cmd_reset(argv[2], argc > 3 ? argv[3] : NULL);
    if (strcmp(cmd, "hint") == 0 && argc == 3) return cmd_hint(argv[2]);
    if (strcmp(cmd, "ledger") == 0 && argc == 3) return cmd_ledger(argv[2]);
    if (strcmp(cmd, "ledger-add") == 0 && argc >= 5) return cmd_ledger_add(argc, argv);
    if (strcmp(cmd, "progress-check") == 0) return cmd_progress_check();
    fprintf(stderr, "usage: wb help|status|strip F|drift W|write-starters W|reset W [EX]|hint W|ledger F|"
                    "ledger-add F ST LABEL [DETAIL]|ledger-results F RESULTS LABEL pass|fail|"
                    "report RESULTS W [--record] [--status N]|make-vars|week-info W exercises|pyexercises|uses|needs|title|speed|checkpoints|regress-baseline OUT RESULTS...|regress-check BASELINE RESULTS...|"
                    "progress-check\n");
    return 2;
}
