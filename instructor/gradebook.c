/* gradebook.c — the class's gradebook CSV, for grade and `quiz grade` alike
 * (gradebook.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_file.h"
#include "gradebook.h"

/* One field at *p, malloc'd; *p is left after it. */
static char *field(const char **p)
{
    const char *s = *p;
    char *out = malloc(strlen(s) + 1);
    size_t n = 0;
    if (*s == '"') {
        s++;
        while (*s && !(*s == '"' && s[1] != '"')) {
            if (*s == '"') s++; /* "" is one quote */
            out[n++] = *s++;
        }
        if (*s == '"') s++;
    } else
        while (*s && *s != ',' && *s != '\n' && *s != '\r') out[n++] = *s++;
    out[n] = 0;
    *p = s;
    return out;
}

static void parse(const char *text, gb_table *t)
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
            f[k++] = field(&p);
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
        for (int c = 0; c < cols; c++) GB_CELL(t, r, c) = c < len[r] ? row[r][c] : strdup("");
        free(row[r]);
    }
    free(row), free(len);
}

void gb_load(const char *path, gb_table *t)
{
    t->rows = t->cols = 0;
    t->cell = NULL;
    char *text = wb_read_file(path, NULL);
    if (text) parse(text, t);
    free(text);
    if (t->rows == 0) {
        free(t->cell);
        t->cell = malloc(sizeof(char *));
        t->cell[0] = strdup("student");
        t->rows = t->cols = 1;
    }
}

void gb_free(gb_table *t)
{
    for (size_t k = 0; k < (size_t)t->rows * (size_t)t->cols; k++) free(t->cell[k]);
    free(t->cell);
    t->cell = NULL;
    t->rows = t->cols = 0;
}

int gb_add_col(gb_table *t, const char *name)
{
    char **cell = malloc(sizeof(char *) * (size_t)t->rows * (size_t)(t->cols + 1));
    for (int r = 0; r < t->rows; r++) {
        memcpy(cell + (size_t)r * (size_t)(t->cols + 1), &GB_CELL(t, r, 0), sizeof(char *) * (size_t)t->cols);
        cell[(size_t)r * (size_t)(t->cols + 1) + (size_t)t->cols] = strdup(r ? "" : name);
    }
    free(t->cell);
    t->cell = cell;
    return t->cols++;
}

int gb_find(const gb_table *t, const char *id)
{
    for (int r = 1; r < t->rows; r++)
        if (strcmp(GB_CELL(t, r, 0), id) == 0) return r;
    return -1;
}

int gb_row(gb_table *t, const char *id)
{
    int r = gb_find(t, id);
    if (r > 0) return r;
    t->cell = realloc(t->cell, sizeof(char *) * (size_t)(t->rows + 1) * (size_t)t->cols);
    r = t->rows++;
    for (int c = 0; c < t->cols; c++) GB_CELL(t, r, c) = strdup(c ? "" : id);
    return r;
}

void gb_set(gb_table *t, int r, int c, const char *v)
{
    free(GB_CELL(t, r, c));
    GB_CELL(t, r, c) = strdup(v);
}

int gb_is_quiz_col(const char *head) { return strncmp(head, "quiz.", 5) == 0; }

void gb_quiz_why_name(const char *id, char *out, size_t outsz) { snprintf(out, outsz, "quiz.%s problems", id); }

int gb_quiz_cols(gb_table *t, const char *id, int n, int *why_col)
{
    char col_name[128], why_name[128], prefix[128];
    snprintf(col_name, sizeof col_name, "quiz.%s (of %d)", id, n);
    gb_quiz_why_name(id, why_name, sizeof why_name);
    snprintf(prefix, sizeof prefix, "quiz.%s (of ", id);
    int col = -1;
    *why_col = -1;
    for (int c = 0; c < t->cols; c++) {
        if (strncmp(GB_CELL(t, 0, c), prefix, strlen(prefix)) == 0) col = c;
        if (strcmp(GB_CELL(t, 0, c), why_name) == 0) *why_col = c;
    }
    if (col < 0) col = gb_add_col(t, col_name);
    gb_set(t, 0, col, col_name);
    for (int r = 1; r < t->rows; r++) {
        gb_set(t, r, col, "");
        if (*why_col >= 0) gb_set(t, r, *why_col, "");
    }
    return col;
}

FILE *gb_create(const char *path, char *tmp, size_t tmpsz)
{
    snprintf(tmp, tmpsz, "%s.tmp", path);
    return fopen(tmp, "w");
}

int gb_commit(FILE *f, const char *tmp, const char *path)
{
    return fclose(f) != 0 || rename(tmp, path) != 0 ? -1 : 0;
}

void gb_put(FILE *f, const char *s)
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

void gb_write(FILE *f, const gb_table *t)
{
    for (int r = 0; r < t->rows; r++) {
        for (int c = 0; c < t->cols; c++) {
            if (c) fputc(',', f);
            gb_put(f, GB_CELL(t, r, c));
        }
        fputc('\n', f);
    }
}
