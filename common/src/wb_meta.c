/* wb_meta.c — parse a week's week.txt (format in wb_meta.h). */
#include "wb_meta.h"

#include <ctype.h>
#include <regex.h>
#include <stdarg.h>
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

/* "path:line: what is wrong" into err. */
static void fail_at(char *err, size_t errsz, const char *path, int lno, const char *fmt, ...)
{
    int k = snprintf(err, errsz, "%s:%d: ", path, lno);
    if (k < 0 || (size_t)k >= errsz) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + k, errsz - (size_t)k, fmt, ap);
    va_end(ap);
}

/* Inside the two parsers below: report the line, close the file, fail. */
#define FAIL(...)                                        \
    do {                                                 \
        fail_at(err, errsz, path, lno, __VA_ARGS__);     \
        fclose(f);                                       \
        return -1;                                       \
    } while (0)

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
    while (fgets(line, sizeof line, f)) {
        lno++;
        char *s = trim(line);
        if (!*s || *s == '#') continue;
        char *colon = strchr(s, ':');
        if (!colon) FAIL("expected 'key: value'");
        *colon = 0;
        char *key = trim(s), *val = trim(colon + 1);
        if (strcmp(key, "title") == 0) {
            FAIL("a week's title lives in common/curriculum.txt, not in week.txt");
        } else if (strcmp(key, "uses") == 0 || strcmp(key, "needs") == 0) {
            int is_uses = key[0] == 'u';
            char *save = NULL;
            for (char *tok = strtok_r(val, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
                int *n = is_uses ? &w->n_uses : &w->n_needs;
                char (*list)[32] = is_uses ? w->uses : w->needs;
                if (*n == WB_MAX_USES) FAIL("too many '%s' entries", key);
                if (is_uses) {
                    int p, k, len = 0;
                    if (sscanf(tok, "phase%1d/week%2d%n", &p, &k, &len) != 2 || len != (int)strlen(tok) ||
                        strlen(tok) != 13)
                        FAIL("uses: '%s' must name a week as phaseP/weekNN", tok);
                } else if (!valid_id(tok)) {
                    FAIL("needs: '%s' must be a name (letters, digits, '_', '-', '.')", tok);
                }
                for (int i = 0; i < *n; i++)
                    if (strcmp(list[i], tok) == 0) FAIL("%s: '%s' listed twice", key, tok);
                copy(list[(*n)++], 32, tok);
            }
        } else if (strcmp(key, "libs") == 0) {
            copy(w->libs, sizeof w->libs, val);
        } else if (strcmp(key, "nvflags") == 0) {
            copy(w->nvflags, sizeof w->nvflags, val);
        } else if (strcmp(key, "exercise") == 0) {
            if (w->n_exercises == WB_MAX_EXERCISES) FAIL("too many exercises");
            if (!valid_id(val)) FAIL("exercise name '%s' must be letters, digits, '_', '-', '.'", val);
            copy(w->exercises[w->n_exercises++], 64, val);
        } else if (strcmp(key, "pyexercise") == 0) {
            if (w->n_pyexercises == WB_MAX_EXERCISES) FAIL("too many Python exercises");
            if (!valid_id(val) || strchr(val, '.') || strchr(val, '-'))
                FAIL("Python exercise name '%s' must be a module name: letters, digits, '_'", val);
            copy(w->pyexercises[w->n_pyexercises++], 64, val);
        } else if (strcmp(key, "checkpoint") == 0 || strcmp(key, "pycheckpoint") == 0) {
            if (w->n_checkpoints == WB_MAX_CHECKPOINTS) FAIL("too many checkpoints");
            wb_checkpoint *c = &w->checkpoints[w->n_checkpoints];
            char *desc = split_bar(val);
            if (!desc) FAIL("checkpoint needs 'id | description [| >= ratio YARDSTICK]'");
            char *target = split_bar(desc);
            if (!valid_id(val)) FAIL("checkpoint id '%s' must be letters, digits, '_', '-', '.'", val);
            if (wb_week_checkpoint(w, val)) FAIL("checkpoint '%s' listed twice", val);
            copy(c->id, sizeof c->id, val);
            c->py = strcmp(key, "pycheckpoint") == 0;
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
            FAIL("unknown key '%s' (exercise, pyexercise, libs, nvflags, uses, needs, checkpoint, pycheckpoint, hint)", key);
        }
    }
    fclose(f);
    /* The folder names the week; the curriculum gives its title. */
    regex_t re;
    regmatch_t m[4];
    regcomp(&re, "(^|/)phase([0-9])/week([0-9][0-9])/week\\.txt$", REG_EXTENDED);
    int found = regexec(&re, path, 4, m, 0) == 0;
    regfree(&re);
    if (!found) {
        snprintf(err, errsz, "%s: a week's file must be phaseP/weekNN/week.txt", path);
        return -1;
    }
    size_t root_len = (size_t)m[0].rm_so + (m[1].rm_eo > m[1].rm_so ? 1 : 0);
    w->phase = path[m[2].rm_so] - '0';
    w->number = atoi(path + m[3].rm_so);
    snprintf(w->dir, sizeof w->dir, "phase%d/week%02d", w->phase, w->number);
    char cpath[1024];
    snprintf(cpath, sizeof cpath, "%.*scommon/curriculum.txt", (int)root_len, path);
    wb_curriculum cur;
    if (wb_curriculum_load(cpath, &cur, err, errsz) != 0) return -1;
    if (w->number < 1 || w->number > cur.last_week || !cur.week[w->number][0]) {
        snprintf(err, errsz,
                 "%s: week %d has no line in common/curriculum.txt: add `%s` there (AUTHORING.md, \"A week, step "
                 "by step\")",
                 path, w->number, w->number > 52 ? "track: N | P | title" : "week: N | title");
        return -1;
    }
    if (cur.phase_of[w->number] != w->phase) {
        snprintf(err, errsz, "%s: common/curriculum.txt puts week %d in phase %d, not phase %d: move the folder",
                 path, w->number, cur.phase_of[w->number], w->phase);
        return -1;
    }
    /* A checkpoint id starts with its week ("w22."): one copied from another
     * week would share that week's progress record. */
    char pre[8];
    snprintf(pre, sizeof pre, "w%02d.", w->number);
    for (int i = 0; i < w->n_checkpoints; i++)
        if (strncmp(w->checkpoints[i].id, pre, strlen(pre)) != 0) {
            snprintf(err, errsz, "%s: checkpoint '%s' must start with '%s' (this week's number): rename it", path,
                     w->checkpoints[i].id, pre);
            return -1;
        }
    w->track = cur.track[w->number];
    copy(w->title, sizeof w->title, cur.week[w->number]);
    for (int i = 0; i < w->n_uses; i++)
        if (strcmp(w->uses[i], w->dir) == 0) {
            snprintf(err, errsz, "%s: a week cannot use itself", path);
            return -1;
        }
    return 0;
}

int wb_curriculum_load(const char *path, wb_curriculum *c, char *err, size_t errsz)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsz, "%s: cannot open (the map of the 52 weeks and the track weeks)", path);
        return -1;
    }
    char line[512];
    int lno = 0, phase = -1, last = 0;
    while (fgets(line, sizeof line, f)) {
        lno++;
        char *s = trim(line);
        if (!*s || *s == '#') continue;
        char *colon = strchr(s, ':');
        if (!colon) FAIL("expected 'phase: P | name', 'week: N | title' or 'track: N | P | title'");
        *colon = 0;
        char *key = trim(s), *val = trim(colon + 1), *text = split_bar(val);
        if (!text || !*text) FAIL("expected '%s: NUMBER | text'", key);
        char *end;
        long num = strtol(val, &end, 10);
        if (*end || end == val) FAIL("'%s' is not a number", val);
        if (strcmp(key, "phase") == 0) {
            if (num != phase + 1 || num > 8) FAIL("phases come in order 0..8; expected %d", phase + 1);
            phase = (int)num;
            copy(c->phase[phase], sizeof c->phase[phase], text);
            c->first_week[phase] = last + 1;
        } else if (strcmp(key, "week") == 0) {
            if (phase < 0) FAIL("a week before any phase");
            if (last >= WB_CORE_WEEKS) FAIL("a core week after week %d (track weeks come last)", WB_CORE_WEEKS);
            if (num != last + 1 || num > WB_CORE_WEEKS) FAIL("weeks come in order 1..52; expected %d", last + 1);
            last = (int)num;
            copy(c->week[last], sizeof c->week[last], text);
            c->phase_of[last] = phase;
        } else if (strcmp(key, "track") == 0) {
            /* track: N | P | title, after week 52 and phase 8, N = 53, 54, ... */
            if (phase != 8 || last < WB_CORE_WEEKS)
                FAIL("track weeks come after week %d and the last phase", WB_CORE_WEEKS);
            if (num != last + 1 || num > WB_MAX_WEEK)
                FAIL("track weeks come in order %d..%d; expected %d", WB_CORE_WEEKS + 1, WB_MAX_WEEK, last + 1);
            char *title = split_bar(text);
            if (!title || !*title) FAIL("expected 'track: N | PHASE | title'");
            long tp = strtol(text, &end, 10);
            if (*end || end == text || tp < 0 || tp > 8) FAIL("track %ld: '%s' is not a phase 0..8", num, text);
            last = (int)num;
            copy(c->week[last], sizeof c->week[last], title);
            c->phase_of[last] = (int)tp;
            c->track[last] = 1;
        } else {
            FAIL("unknown key '%s' (phase, week, track)", key);
        }
    }
    fclose(f);
    if (phase != 8 || last < WB_CORE_WEEKS) {
        snprintf(err, errsz, "%s: needs phases 0..8 and weeks 1..52 (has up to phase %d, week %d)", path, phase, last);
        return -1;
    }
    c->first_week[9] = WB_CORE_WEEKS + 1;
    c->last_week = last;
    return 0;
}

const wb_checkpoint *wb_week_checkpoint(const wb_week *w, const char *id)
{
    for (int i = 0; id && i < w->n_checkpoints; i++)
        if (strcmp(w->checkpoints[i].id, id) == 0) return &w->checkpoints[i];
    return NULL;
}
