/* starters.c — `wb strip`, `wb drift`, `wb write-starters`, `wb reset`: a
 * week's starters, derived from its solutions.
 *
 * Starter regions in a solution file (lines, in this order):
 *   //@solution        what the solution has and the starter must not
 *   //@starter         lines below start with "//| ": the starter's text
 *   //@end
 * Everything outside these regions is shared, byte for byte. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wb_file.h"
#include "wb_tool.h"

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

int cmd_strip(int argc, char **argv)
{
    (void)argc;
    const char *path = argv[2];
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

int cmd_drift(int argc, char **argv)
{
    (void)argc;
    const char *wdir = argv[2];
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

/* Put the starter text s at path. The starter is written beside it first,
 * the backup made next (when keep: PATH.STAMP.bak, named in bak), and only
 * then renamed over the file: at every moment the learner's code is at
 * path, at the backup, or both. 0, or 2 with a message and path as it was. */
static int put_starter(const char *path, const char *s, int keep, char *bak, size_t baksz)
{
    char tmp[600];
    struct stat st;
    int mode = stat(path, &st) == 0 ? (int)(st.st_mode & 0777) : -1;
    if (write_beside(path, s, mode, tmp, sizeof tmp) != 0) {
        fprintf(stderr, "cannot write %s: %s; %s is as it was\n", tmp, strerror(errno), path);
        return 2;
    }
    if (keep && keep_backup(path, bak, baksz) != 0) {
        fprintf(stderr, "cannot keep a backup of %s at %s: %s; it is as it was\n", path, bak, strerror(errno));
        remove(tmp);
        return 2;
    }
    if (rename(tmp, path) != 0) {
        fprintf(stderr, "cannot replace %s: %s; it is as it was\n", path, strerror(errno));
        remove(tmp);
        return 2;
    }
    return 0;
}

/* 1 when git knows `path` and it has no edits since the last commit: an
 * author's starter, safe to regenerate. 0 otherwise (edited, untracked, no
 * git): a learner's work, kept as a backup before it is replaced. */
static int committed_unchanged(const char *path)
{
    if (strchr(path, '\'')) return 0;
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "git ls-files --error-unmatch -- '%s' >/dev/null 2>&1 && git diff --quiet HEAD -- '%s' >/dev/null 2>&1",
             path, path);
    return system(cmd) == 0;
}

/* Regenerate a week's starters from its solutions (authors: `make
 * starters`). A starter the learner has edited (it differs from the
 * derivation and from what git last committed) is kept as a .bak first, as
 * `wb reset` keeps it, and named; a student copy (no solution/) has nothing
 * to derive from and is refused, since its starters are .starter/'s. */
int cmd_write_starters(int argc, char **argv)
{
    (void)argc;
    const char *wdir = argv[2];
    wb_week w;
    if (load_week(wdir, &w)) return 2;
    char soldir[512];
    struct stat sst;
    snprintf(soldir, sizeof soldir, "%s/solution", wdir);
    if (stat(soldir, &sst) != 0 || !S_ISDIR(sst.st_mode)) {
        fprintf(stderr,
                "%s has no solution/ folder (a student copy): `make starters` is for the workbook's authors and "
                "changed nothing. To get an exercise's starter back: make %s reset EX=NAME (yours is kept as a .bak)\n",
                wdir, wdir);
        return 2;
    }
    for (int i = 0; i < n_ex_files(&w); i++) {
        char err[300], path[512], bak[600];
        char *s = pristine(wdir, ex_name(&w, i), ex_ext(&w, i), err, sizeof err);
        if (!s) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        snprintf(path, sizeof path, "%s/%s%s", wdir, ex_name(&w, i), ex_ext(&w, i));
        char *have = wb_read_file(path, NULL);
        struct stat lst;
        int present = lstat(path, &lst) == 0, rc = 0;
        if (!(have && strcmp(have, s) == 0)) {
            int keep = present && !committed_unchanged(path);
            rc = put_starter(path, s, keep, bak, sizeof bak);
            if (!rc && keep) printf("%s had edits of yours: kept as %s, the file is now the starter\n", path, bak);
            else if (!rc) printf("%s regenerated from %s/solution/%s%s\n", path, wdir, ex_name(&w, i), ex_ext(&w, i));
        }
        free(have);
        free(s);
        if (rc) return rc;
    }
    return 0;
}

/* EX= as a learner may type it: the exercise's name, its file name
 * (vecadd.cu, add.py), or that file's path (phase0/week01/vecadd.cu). */
static int names_exercise(const char *only, const char *name, const char *ext)
{
    const char *base = strrchr(only, '/') ? strrchr(only, '/') + 1 : only;
    size_t n = strlen(name);
    return strcmp(only, name) == 0 || (strncmp(base, name, n) == 0 && strcmp(base + n, ext) == 0);
}

int cmd_reset(int argc, char **argv)
{
    const char *wdir = argv[2], *only = argc > 3 ? argv[3] : NULL;
    wb_week w;
    if (load_week(wdir, &w)) return 2;
    int did = 0;
    for (int i = 0; i < n_ex_files(&w); i++) {
        if (only && *only && !names_exercise(only, ex_name(&w, i), ex_ext(&w, i))) continue;
        char err[300], path[512], bak[600];
        char *s = pristine(wdir, ex_name(&w, i), ex_ext(&w, i), err, sizeof err);
        if (!s) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        snprintf(path, sizeof path, "%s/%s%s", wdir, ex_name(&w, i), ex_ext(&w, i));
        char *have = wb_read_file(path, NULL);
        /* there, even when it cannot be read: it is kept all the same */
        struct stat lst;
        int present = lstat(path, &lst) == 0;
        if (have && strcmp(have, s) == 0) {
            printf("%s is already the starter\n", path);
        } else {
            if (put_starter(path, s, present, bak, sizeof bak) != 0) {
                free(have);
                free(s);
                return 2;
            }
            if (present) printf("your %s is kept as %s\n", path, bak);
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
