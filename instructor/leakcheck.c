/* leakcheck.c — does a student copy hold a solution's code, wherever it sits?
 *
 *   leakcheck ROOT OUT [ALLOW]
 *
 * ROOT is the instructor's workbook (with its solutions), OUT the student
 * copy `make release` made. For every solution file of ROOT
 * (phaseP/weekNN/solution/NAME), the lines inside its //@solution regions
 * (up to the //@starter or //@end that closes each) are the solution's code.
 * Each is normalised (runs of blanks made one space, trimmed) and taken with
 * its other forms (what follows a leading "return " or its first " = ", so
 * the same call with another left-hand side is found too); those of at
 * least MIN_LEN characters that are not also lines of a starter (the text
 * `wb strip` derives: shared lines and //@starter text, which the copy shows
 * anyway) are the lines that give a solution away. Every regular file under
 * OUT is read line by line, normalised the same way, and each line equal to
 * one of them is reported:
 *
 *   OUT/phase5/week21/support/yard.cu:45: solution of phase5/week21/solution/naive.cu:16: `...`
 *
 * ALLOW (instructor/leakcheck-allow.txt) lists lines that are commonplace,
 * not a giveaway (`for (size_t i = 0; i < n; i++) {` is in solutions and in
 * the workbook's own library alike): one a line, normalised the same way;
 * lines starting "# " and blank lines are comments.
 *
 * Exit 0 when there is no hit, 1 when there is any (release.sh then refuses
 * the copy), 2 when ROOT or OUT cannot be read. A line is matched whole, so a
 * copied kernel is found wherever it was pasted (a support file, a header, a
 * README, a renamed file); a line rewritten by hand is not.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wb_file.h"

#define MIN_LEN 30

/* A line with runs of blanks made one space, trimmed: malloc'd. */
static char *norm(const char *line, size_t len)
{
    char *o = malloc(len + 1);
    size_t k = 0;
    int space = 0;
    for (size_t i = 0; i < len; i++) {
        char c = line[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            space = k > 0;
            continue;
        }
        if (space) o[k++] = ' ';
        space = 0;
        o[k++] = c;
    }
    o[k] = 0;
    return o;
}

/* A normalised line and the forms a copy of it may take: the line, what
 * follows a leading "return ", and what follows its first " = " (the same
 * call or expression given another left-hand side). Returns how many. */
static int forms(const char *t, const char *v[3])
{
    int n = 0;
    v[n++] = t;
    if (strncmp(t, "return ", 7) == 0) v[n++] = t + 7;
    const char *eq = strstr(t, " = ");
    if (eq) v[n++] = eq + 3;
    return n;
}

/* ---------------------------------------------------------- a string set */

typedef struct {
    char *key;   /* normalised line */
    char *where; /* "phase5/week21/solution/naive.cu:31" */
} entry;

typedef struct {
    entry *e;
    size_t cap, n;
} set;

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static entry *set_find(const set *t, const char *key)
{
    if (!t->cap) return NULL;
    for (size_t i = hash(key) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        if (!t->e[i].key) return NULL;
        if (strcmp(t->e[i].key, key) == 0) return &t->e[i];
    }
}

/* Adds key (taken) unless there; returns whether it was added. */
static int set_add(set *t, char *key, char *where)
{
    if (2 * (t->n + 1) > t->cap) {
        set old = *t;
        t->cap = old.cap ? 2 * old.cap : 1024;
        t->e = calloc(t->cap, sizeof *t->e);
        t->n = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.e[i].key) set_add(t, old.e[i].key, old.e[i].where);
        free(old.e);
    }
    size_t i = hash(key) & (t->cap - 1);
    while (t->e[i].key) {
        if (strcmp(t->e[i].key, key) == 0) {
            free(key);
            free(where);
            return 0;
        }
        i = (i + 1) & (t->cap - 1);
    }
    t->e[i].key = key, t->e[i].where = where;
    t->n++;
    return 1;
}

/* ------------------------------------------------------ solution lines */

static set SOLUTION, STARTERS, ALLOW;
static int n_solution_files;

/* The lines of one solution file that give it away, added to SOLUTION. */
static void add_solution(const char *root, const char *rel)
{
    char path[8200];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    char *src = wb_read_file(path, NULL);
    if (!src) return;
    n_solution_files++;
    /* Python solutions (Phase 7) mark their regions with #@solution, #@starter, #@end and "#|" */
    size_t rl = strlen(rel);
    int py = rl >= 3 && strcmp(rel + rl - 3, ".py") == 0;
    const char *m_sol = py ? "#@solution" : "//@solution", *m_st = py ? "#@starter" : "//@starter",
               *m_end = py ? "#@end" : "//@end", *m_line = py ? "#|" : "//|";
    enum { SHARED, SOL, STARTER } state = SHARED;
    set starter = { 0 };
    /* two passes: the starter's lines first, then the solution's not in it */
    for (int pass = 0; pass < 2; pass++) {
        state = SHARED;
        int lno = 0;
        for (const char *line = src; *line;) {
            const char *nl = strchr(line, '\n');
            size_t len = nl ? (size_t)(nl - line) : strlen(line);
            lno++;
            char *t = norm(line, len);
            int is_sol = strncmp(t, m_sol, strlen(m_sol)) == 0, is_st = strncmp(t, m_st, strlen(m_st)) == 0,
                is_end = strncmp(t, m_end, strlen(m_end)) == 0;
            if (is_sol) state = SOL;
            else if (is_st) state = STARTER;
            else if (is_end) state = SHARED;
            else if (pass == 0 && (state == SHARED || (state == STARTER && strncmp(t, m_line, strlen(m_line)) == 0))) {
                char *st = state == SHARED ? strdup(t) : norm(t + strlen(m_line), strlen(t + strlen(m_line)));
                const char *v[3];
                for (int k = forms(st, v); k-- > 0;) {
                    set_add(&starter, strdup(v[k]), NULL);
                    set_add(&STARTERS, strdup(v[k]), NULL);
                }
                free(st);
            } else if (pass == 1 && state == SOL) {
                const char *v[3];
                for (int k = forms(t, v); k-- > 0;) {
                    if (strlen(v[k]) < MIN_LEN || set_find(&starter, v[k])) continue;
                    char *where = malloc(strlen(rel) + 16);
                    sprintf(where, "%s:%d", rel, lno);
                    set_add(&SOLUTION, strdup(v[k]), where);
                }
            }
            free(t);
            line += len + (nl ? 1 : 0);
        }
    }
    for (size_t i = 0; i < starter.cap; i++) free(starter.e[i].key);
    free(starter.e);
    free(src);
}

static int load_allow(const char *path)
{
    char *text = wb_read_file(path, NULL);
    if (!text) return -1;
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char *t = norm(line, len);
        if (!*t || (t[0] == '#' && (t[1] == ' ' || !t[1]))) free(t);
        else {
            const char *v[3];
            for (int k = forms(t, v); k-- > 0;) set_add(&ALLOW, strdup(v[k]), NULL);
            free(t);
        }
        line += len + (nl ? 1 : 0);
    }
    free(text);
    return 0;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted names in a folder (no dot files unless dots), NULL-terminated. */
static char **list(const char *dir, int dots)
{
    DIR *d = opendir(dir);
    if (!d) return NULL;
    size_t n = 0, cap = 16;
    char **v = malloc(cap * sizeof *v);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (!dots && e->d_name[0] == '.') continue;
        if (n + 1 == cap) v = realloc(v, (cap *= 2) * sizeof *v);
        v[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(v, n, sizeof *v, cmp_str);
    v[n] = NULL;
    return v;
}

static void free_list(char **v)
{
    for (char **p = v; p && *p; p++) free(*p);
    free(v);
}

/* Every ROOT/phaseP/weekNN/solution/ file. */
static void load_solutions(const char *root)
{
    char **phases = list(root, 0);
    for (char **p = phases; p && *p; p++) {
        if (strncmp(*p, "phase", 5) != 0) continue;
        char pd[4096];
        snprintf(pd, sizeof pd, "%s/%s", root, *p);
        char **weeks = list(pd, 0);
        for (char **w = weeks; w && *w; w++) {
            if (strncmp(*w, "week", 4) != 0) continue;
            char sd[8200];
            snprintf(sd, sizeof sd, "%s/%s/solution", pd, *w);
            char **files = list(sd, 0);
            for (char **f = files; f && *f; f++) {
                char rel[8200];
                snprintf(rel, sizeof rel, "%s/%s/solution/%s", *p, *w, *f);
                add_solution(root, rel);
            }
            free_list(files);
        }
        free_list(weeks);
    }
    free_list(phases);
}

/* ---------------------------------------------------------- the copy */

static int hits;

static void scan_file(const char *path)
{
    size_t len;
    char *text = wb_read_file(path, &len);
    if (!text) return;
    int lno = 0;
    for (const char *line = text; line < text + len;) {
        const char *nl = memchr(line, '\n', (size_t)(text + len - line));
        size_t l = nl ? (size_t)(nl - line) : (size_t)(text + len - line);
        lno++;
        if (l >= MIN_LEN) {
            char *t = norm(line, l);
            const char *v[3];
            const entry *e = NULL;
            int n = forms(t, v), shown = 0;
            /* a line a starter shows, or an allowed one, in any of its forms, is none */
            for (int k = 0; k < n; k++) shown |= set_find(&STARTERS, v[k]) || set_find(&ALLOW, v[k]);
            for (int k = 0; k < n && !e && !shown; k++)
                if (strlen(v[k]) >= MIN_LEN) e = set_find(&SOLUTION, v[k]);
            if (e) {
                printf("%s:%d: solution of %s: `%.100s%s`\n", path, lno, e->where, t, strlen(t) > 100 ? "..." : "");
                hits++;
            }
            free(t);
        }
        line += l + 1;
    }
    free(text);
}

static void scan_tree(const char *dir)
{
    char **names = list(dir, 1);
    for (char **n = names; n && *n; n++) {
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", dir, *n);
        struct stat st;
        if (lstat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) scan_tree(p);
        else if (S_ISREG(st.st_mode)) scan_file(p);
    }
    free_list(names);
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: leakcheck ROOT OUT [ALLOW]  (ROOT: the workbook with solutions; OUT: a student copy; "
                        "ALLOW: commonplace lines)\n");
        return 2;
    }
    if (argc == 4 && load_allow(argv[3]) != 0) {
        fprintf(stderr, "leakcheck: cannot read %s: %s\n", argv[3], strerror(errno));
        return 2;
    }
    if (!is_dir(argv[1]) || !is_dir(argv[2])) {
        fprintf(stderr, "leakcheck: %s or %s is not a folder\n", argv[1], argv[2]);
        return 2;
    }
    load_solutions(argv[1]);
    if (n_solution_files == 0) {
        fprintf(stderr, "leakcheck: no solution files under %s/phaseP/weekNN/solution/\n", argv[1]);
        return 2;
    }
    scan_tree(argv[2]);
    if (hits)
        fprintf(stderr, "leakcheck: %d line%s of solutions in %s (%zu solution lines of %d files looked for); a line "
                "that is commonplace, not a giveaway, goes in instructor/leakcheck-allow.txt\n", hits,
                hits == 1 ? "" : "s", argv[2], SOLUTION.n, n_solution_files);
    return hits ? 1 : 0;
}
