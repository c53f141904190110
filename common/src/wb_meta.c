/* wb_meta.c — parse a week's week.txt (format in wb_meta.h). */
#include "wb_meta.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    return s;
}

static void copy(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src);
}

/* Split s at the first '|' : returns the rest (trimmed) or NULL. */
static char *split_bar(char *s)
{
    char *bar = strchr(s, '|');
    if (!bar) return NULL;
    *bar = 0;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    return trim(bar + 1);
}

static int valid_id(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '.' && *s != '-' && *s != '_') return 0;
    return 1;
}

int wb_week_load(const char *path, wb_week *w, char *err, size_t errsz)
{
    memset(w, 0, sizeof *w);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsz, "%s: cannot open", path);
        return -1;
    }
    char line[1024];
    int lno = 0;
#define FAIL(...)                                                   \
    do {                                                            \
        int k_ = snprintf(err, errsz, "%s:%d: ", path, lno);        \
        if (k_ > 0 && (size_t)k_ < errsz) snprintf(err + k_, errsz - (size_t)k_, __VA_ARGS__); \
        fclose(f);                                                  \
        return -1;                                                  \
    } while (0)
    while (fgets(line, sizeof line, f)) {
        lno++;
        char *s = trim(line);
        if (!*s || *s == '#') continue;
        char *colon = strchr(s, ':');
        if (!colon) FAIL("expected 'key: value'");
        *colon = 0;
        char *key = trim(s), *val = trim(colon + 1);
        if (strcmp(key, "title") == 0) {
            copy(w->title, sizeof w->title, val);
        } else if (strcmp(key, "libs") == 0) {
            copy(w->libs, sizeof w->libs, val);
        } else if (strcmp(key, "nvflags") == 0) {
            copy(w->nvflags, sizeof w->nvflags, val);
        } else if (strcmp(key, "exercise") == 0) {
            if (w->n_exercises == WB_MAX_EXERCISES) FAIL("too many exercises");
            if (!valid_id(val)) FAIL("exercise name '%s' must be letters, digits, '_', '-', '.'", val);
            copy(w->exercises[w->n_exercises++], 64, val);
        } else if (strcmp(key, "checkpoint") == 0) {
            if (w->n_checkpoints == WB_MAX_CHECKPOINTS) FAIL("too many checkpoints");
            wb_checkpoint *c = &w->checkpoints[w->n_checkpoints];
            char *desc = split_bar(val);
            if (!desc) FAIL("checkpoint needs 'id | description [| >= ratio YARDSTICK]'");
            char *target = split_bar(desc);
            if (!valid_id(val)) FAIL("checkpoint id '%s' must be letters, digits, '_', '-', '.'", val);
            if (wb_week_checkpoint(w, val)) FAIL("checkpoint '%s' listed twice", val);
            copy(c->id, sizeof c->id, val);
            copy(c->desc, sizeof c->desc, desc);
            if (target) {
                char yard[32] = "";
                double t = 0;
                if (sscanf(target, ">= %lf %31s", &t, yard) != 2 || t <= 0)
                    FAIL("target '%s' must read '>= NUMBER YARDSTICK'", target);
                c->target = t;
                copy(c->yard, sizeof c->yard, yard);
            }
            w->n_checkpoints++;
        } else if (strcmp(key, "hint") == 0) {
            if (w->n_hints == WB_MAX_HINTS) FAIL("too many hints");
            char *text = split_bar(val);
            if (!text || !*text) FAIL("hint needs 'exercise | text'");
            copy(w->hint_exercise[w->n_hints], 64, val);
            copy(w->hints[w->n_hints], 600, text);
            w->n_hints++;
        } else {
            FAIL("unknown key '%s' (title, exercise, libs, nvflags, checkpoint, hint)", key);
        }
    }
#undef FAIL
    fclose(f);
    if (!w->title[0]) {
        snprintf(err, errsz, "%s: no 'title:' line", path);
        return -1;
    }
    return 0;
}

const wb_checkpoint *wb_week_checkpoint(const wb_week *w, const char *id)
{
    for (int i = 0; id && i < w->n_checkpoints; i++)
        if (strcmp(w->checkpoints[i].id, id) == 0) return &w->checkpoints[i];
    return NULL;
}
