/* quiz_class.c — `quiz grade QUIZ DIR GRADEBOOK` (make grade-quiz): a
 * class's answer files graded into the gradebook. Instructors only: linked
 * into the quiz program (quizzes/quiz.c, built with QUIZ_GRADE) where
 * instructor/ is; the student copy's quiz has no `grade`. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_file.h"
#include "quiz.h"

/* ---- a small CSV table: the gradebook, whose other columns are kept ---- */

typedef struct {
    int    rows, cols;
    char **cell; /* rows x cols, row 0 the header; short rows padded with "" */
} qz_csv;

#define QZ_CELL(t, r, c) ((t)->cell[(size_t)(r) * (size_t)(t)->cols + (size_t)(c)])

static char *qz_csv_field(const char **p)
{
    const char *s = *p;
    char *out = malloc(strlen(s) + 1);
    size_t n = 0;
    if (*s == '"') {
        s++;
        while (*s && !(*s == '"' && s[1] != '"')) {
            if (*s == '"') s++;
            out[n++] = *s++;
        }
        if (*s == '"') s++;
    } else
        while (*s && *s != ',' && *s != '\n' && *s != '\r') out[n++] = *s++;
    out[n] = 0;
    *p = s;
    return out;
}

/* Every row and every field of `text`, however many; a blank line is no row. */
static void qz_csv_load(const char *text, qz_csv *t)
{
    char ***row = NULL;
    int *len = NULL, n = 0, cols = 0;
    for (const char *p = text; *p;) {
        if (*p == '\n' || *p == '\r') {
            p++;
            continue;
        }
        char **f = NULL;
        int k = 0;
        for (;;) {
            f = realloc(f, sizeof *f * (size_t)(k + 1));
            f[k++] = qz_csv_field(&p);
            if (*p != ',') break;
            p++;
        }
        row = realloc(row, sizeof *row * (size_t)(n + 1));
        len = realloc(len, sizeof *len * (size_t)(n + 1));
        row[n] = f, len[n++] = k;
        if (k > cols) cols = k;
    }
    t->rows = n, t->cols = cols;
    t->cell = malloc(sizeof(char *) * ((size_t)n * (size_t)cols + 1));
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < cols; c++) QZ_CELL(t, r, c) = c < len[r] ? row[r][c] : strdup("");
        free(row[r]);
    }
    free(row), free(len);
}

/* Add a column (header `name`, empty cells); returns its index. */
static int qz_csv_add_col(qz_csv *t, const char *name)
{
    char **cell = malloc(sizeof(char *) * (size_t)t->rows * (size_t)(t->cols + 1));
    for (int r = 0; r < t->rows; r++) {
        memcpy(cell + (size_t)r * (size_t)(t->cols + 1), &QZ_CELL(t, r, 0), sizeof(char *) * (size_t)t->cols);
        cell[(size_t)r * (size_t)(t->cols + 1) + (size_t)t->cols] = strdup(r ? "" : name);
    }
    free(t->cell);
    t->cell = cell;
    return t->cols++;
}

/* The row whose first cell is `id`, added (empty cells) if there is none. */
static int qz_csv_row(qz_csv *t, const char *id)
{
    for (int r = 1; r < t->rows; r++)
        if (strcmp(QZ_CELL(t, r, 0), id) == 0) return r;
    t->cell = realloc(t->cell, sizeof(char *) * (size_t)(t->rows + 1) * (size_t)t->cols);
    int r = t->rows++;
    for (int c = 0; c < t->cols; c++) QZ_CELL(t, r, c) = strdup(c ? "" : id);
    return r;
}

static void qz_csv_set(qz_csv *t, int r, int c, const char *v)
{
    free(QZ_CELL(t, r, c));
    QZ_CELL(t, r, c) = strdup(v);
}

static void qz_csv_put(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"') fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else fputs(s, f);
}

/* Grade a class into the gradebook: this quiz's column ("quiz.ID (of N)") is
 * replaced as a whole (a student without an answer file now is blank in it),
 * and so is "quiz.ID problems"; every other column and row is kept. */
int qz_cmd_grade(const char *path, const char *dir, const char *gradebook)
{
    static qz_quiz z;
    static char ans[QZ_MAX_Q][QZ_ANS];
    char err[600];
    if (qz_load(path, &z, err, sizeof err) != 0) return fprintf(stderr, "%s\n", err), 2;
    if (!z.sealed) qz_seal_all(&z); /* the source: the same keys as the sealed copy */
    else if (z.graded) {
        const char *base = strrchr(path, '/');
        return fprintf(stderr, "%s is a graded quiz's student copy: it holds no keys. grade with its source, "
                               "instructor/quizzes/%s\n", path, base ? base + 1 : path), 2;
    }
    DIR *d = opendir(dir);
    if (!d) return fprintf(stderr, "cannot open %s: %s\n", dir, strerror(errno)), 2;
    char *names[1024];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 1024)
        if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
    closedir(d);
    for (int i = 1; i < n; i++) /* insertion sort: a class is small */
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *x = names[j];
            names[j] = names[j - 1];
            names[j - 1] = x;
        }
    /* the gradebook so far (if any), then our columns, emptied */
    qz_csv t = { 0, 0, NULL };
    char *old = wb_read_file(gradebook, NULL);
    if (old) qz_csv_load(old, &t);
    free(old);
    if (t.rows == 0) {
        t.cell = malloc(sizeof(char *));
        t.cell[0] = strdup("student");
        t.rows = t.cols = 1;
    }
    char col_name[128], why_name[128], prefix[128];
    snprintf(col_name, sizeof col_name, "quiz.%s (of %d)", z.id, z.n);
    snprintf(why_name, sizeof why_name, "quiz.%s problems", z.id);
    snprintf(prefix, sizeof prefix, "quiz.%s (of ", z.id);
    int col = -1, why_col = -1, refused = 0;
    for (int c = 0; c < t.cols; c++) {
        if (strncmp(QZ_CELL(&t, 0, c), prefix, strlen(prefix)) == 0) col = c;
        if (strcmp(QZ_CELL(&t, 0, c), why_name) == 0) why_col = c;
    }
    if (col < 0) col = qz_csv_add_col(&t, col_name);
    qz_csv_set(&t, 0, col, col_name);
    for (int r = 1; r < t.rows; r++) {
        qz_csv_set(&t, r, col, "");
        if (why_col >= 0) qz_csv_set(&t, r, why_col, "");
    }
    printf("%s: %d answer file%s in %s\n", z.title, n, n == 1 ? "" : "s", dir);
    for (int i = 0; i < n; i++) {
        char p[1400], id[256];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        snprintf(id, sizeof id, "%s", names[i]);
        char *dot = strrchr(id, '.');
        if (dot) *dot = 0;
        char *text = wb_read_file(p, NULL);
        if (!text) {
            printf("  %-24s skipped: %s: %s\n", id, names[i], strerror(errno));
            free(names[i]);
            continue;
        }
        static char problems[16384], joined[16384];
        int bad = qz_read_answers(&z, text, names[i], ans, problems, sizeof problems);
        free(text);
        int score = bad ? 0 : qz_grade(&z, ans, NULL);
        if (bad) {
            printf("  %-24s REFUSED: %d problem%s in its answer file, not graded\n", id, bad, bad == 1 ? "" : "s");
            joined[0] = 0; /* one line, for the gradebook */
            for (char *l = problems, *nl; *l && (nl = strchr(l, '\n')); l = nl + 1) {
                *nl = 0;
                printf("      %s\n", l);
                qz_append(joined, sizeof joined, "; ", l);
            }
            refused++;
            if (why_col < 0) why_col = qz_csv_add_col(&t, why_name);
        } else printf("  %-24s %d/%d%s\n", id, score, z.n, score >= z.pass ? "" : "  (below the pass mark)");
        int r = qz_csv_row(&t, id);
        char v[32];
        snprintf(v, sizeof v, bad ? "REFUSED" : "%d", score);
        qz_csv_set(&t, r, col, v);
        if (bad) qz_csv_set(&t, r, why_col, joined);
        free(names[i]);
    }
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s.tmp", gradebook);
    FILE *f = fopen(tmp, "w");
    if (!f) return fprintf(stderr, "cannot write %s\n", tmp), 2;
    for (int r = 0; r < t.rows; r++) {
        for (int c = 0; c < t.cols; c++) {
            if (c) fputc(',', f);
            qz_csv_put(f, QZ_CELL(&t, r, c));
        }
        fputc('\n', f);
    }
    if (fclose(f) != 0 || rename(tmp, gradebook) != 0) return fprintf(stderr, "cannot write %s\n", gradebook), 2;
    for (size_t k = 0; k < (size_t)t.rows * (size_t)t.cols; k++) free(t.cell[k]);
    free(t.cell);
    printf("Gradebook: %s (column \"%s\")\n", gradebook, col_name);
    if (refused)
        printf("%d answer file%s REFUSED (above): %s score says REFUSED and \"%s\" says why; fix and grade again.\n",
               refused, refused == 1 ? "" : "s", refused == 1 ? "its" : "their", why_name);
    return 0;
}
