/* wb_meta.c — parse a week's week.txt (format in wb_meta.h). */
#include "wb_meta.h"

#include <ctype.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
    /* `belongs:` lines, resolved once every checkpoint and exercise is known */
    struct { int lno; char ids[400], files[200]; } bel[WB_MAX_CHECKPOINTS];
    int n_bel = 0;
    while (fgets(line, sizeof line, f)) {
        lno++;
        /* a line longer than the buffer would be read as two, its tail a line of its own (a key of its
         * own where it holds a ':') */
        if (!strchr(line, '\n')) {
            int next = fgetc(f);
            if (next != EOF) FAIL("a line longer than %d characters", (int)sizeof line - 2);
        }
        char *s = trim(line);
        if (!*s || *s == '#') continue;
        char *colon = strchr(s, ':');
        if (!colon) FAIL("expected 'key: value'");
        *colon = 0;
        char *key = trim(s), *val = trim(colon + 1);
        if (strcmp(key, "title") == 0) {
            FAIL("a week's title lives in common/curriculum.txt, not in week.txt");
        } else if (strcmp(key, "uses") == 0 || strcmp(key, "pyuses") == 0 || strcmp(key, "needs") == 0) {
            int is_needs = key[0] == 'n', is_py = key[0] == 'p';
            char *save = NULL;
            for (char *tok = strtok_r(val, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
                int *n = is_needs ? &w->n_needs : is_py ? &w->n_pyuses : &w->n_uses;
                char (*list)[32] = is_needs ? w->needs : is_py ? w->pyuses : w->uses;
                if (*n == WB_MAX_USES) FAIL("too many '%s' entries", key);
                if (!is_needs) {
                    int p, k, len = 0;
                    if (sscanf(tok, "phase%1d/week%2d%n", &p, &k, &len) != 2 || len != (int)strlen(tok) ||
                        strlen(tok) != 13)
                        FAIL("%s: '%s' must name a week as phaseP/weekNN", key, tok);
                } else if (!valid_id(tok)) {
                    FAIL("needs: '%s' must be a name (letters, digits, '_', '-', '.')", tok);
                }
                for (int i = 0; i < *n; i++)
                    if (strcmp(list[i], tok) == 0) FAIL("%s: '%s' listed twice", key, tok);
                copy(list[(*n)++], 32, tok);
            }
        } else if (strcmp(key, "fileio") == 0) {
            char *save = NULL;
            for (char *tok = strtok_r(val, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
                if (w->n_fileio == WB_MAX_EXERCISES) FAIL("too many 'fileio' entries");
                if (!valid_id(tok)) FAIL("fileio: '%s' must be an exercise's name", tok);
                for (int i = 0; i < w->n_fileio; i++)
                    if (strcmp(w->fileio[i], tok) == 0) FAIL("fileio: '%s' listed twice", tok);
                copy(w->fileio[w->n_fileio++], 64, tok);
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
            /* a description longer than the field ends at a word, with "...": the whole is in week.txt */
            if (strlen(desc) >= sizeof c->desc) {
                size_t cut = sizeof c->desc - 4;
                while (cut > 0 && desc[cut] != ' ') cut--;
                snprintf(c->desc, sizeof c->desc, "%.*s...", (int)(cut ? cut : sizeof c->desc - 4), desc);
            } else copy(c->desc, sizeof c->desc, desc);
            if (target) {
                char why[400];
                if (wb_target_parse(target, c, why, sizeof why) != 0) FAIL("checkpoint '%s': %s", c->id, why);
            }
            w->n_checkpoints++;
        } else if (strcmp(key, "belongs") == 0) {
            if (n_bel == WB_MAX_CHECKPOINTS) FAIL("too many 'belongs' lines");
            char *files = split_bar(val);
            if (!files || !*val || !*files) FAIL("belongs needs 'checkpoint ... | exercise ...'");
            /* cut, a name at the cut would be another (w18.model-speed as w18.model): refused instead */
            if (strlen(val) >= sizeof bel[n_bel].ids || strlen(files) >= sizeof bel[n_bel].files)
                FAIL("belongs: the line names more than fits (%d characters of checkpoints, %d of exercises): "
                     "split it", (int)sizeof bel[n_bel].ids - 1, (int)sizeof bel[n_bel].files - 1);
            bel[n_bel].lno = lno;
            copy(bel[n_bel].ids, sizeof bel[n_bel].ids, val);
            copy(bel[n_bel].files, sizeof bel[n_bel].files, files);
            n_bel++;
        } else if (strcmp(key, "hint") == 0) {
            if (w->n_hints == WB_MAX_HINTS) FAIL("too many hints");
            char *text = split_bar(val);
            if (!text || !*text) FAIL("hint needs 'exercise | text'");
            copy(w->hint_exercise[w->n_hints], 64, val);
            copy(w->hints[w->n_hints], 600, text);
            w->n_hints++;
        } else {
            FAIL("unknown key '%s' (exercise, pyexercise, libs, nvflags, uses, pyuses, needs, fileio, checkpoint, pycheckpoint, belongs, hint)", key);
        }
    }
    for (int b = 0; b < n_bel; b++) {
        lno = bel[b].lno;
        char files[200] = "", *save = NULL;
        for (char *tok = strtok_r(bel[b].files, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
            int k = 0;
            while (k < w->n_exercises && strcmp(w->exercises[k], tok)) k++;
            for (int j = 0; k == w->n_exercises && j < w->n_pyexercises; j++)
                if (!strcmp(w->pyexercises[j], tok)) k = -1;
            if (k == w->n_exercises) FAIL("belongs: '%s' is not an exercise of the week", tok);
            if (strlen(files) + strlen(tok) + 2 > sizeof files) FAIL("belongs: too many exercises");
            strcat(strcat(files, *files ? " " : ""), tok);
        }
        for (char *tok = strtok_r(bel[b].ids, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
            wb_checkpoint *c = (wb_checkpoint *)wb_week_checkpoint(w, tok);
            if (!c) FAIL("belongs: '%s' is not a checkpoint of the week", tok);
            if (c->files[0]) FAIL("belongs: '%s' is named twice", tok);
            copy(c->files, sizeof c->files, files);
        }
    }
    for (int i = 0; i < w->n_fileio; i++) {
        int k = 0;
        while (k < w->n_exercises && strcmp(w->exercises[k], w->fileio[i])) k++;
        if (k == w->n_exercises) FAIL("fileio: '%s' is not an exercise of the week", w->fileio[i]);
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
    for (int i = 0; i < w->n_pyuses; i++) {
        if (strcmp(w->pyuses[i], w->dir) == 0) {
            snprintf(err, errsz, "%s: a week cannot use itself (pyuses: %s)", path, w->pyuses[i]);
            return -1;
        }
        for (int j = 0; j < w->n_uses; j++)
            if (strcmp(w->pyuses[i], w->uses[j]) == 0) {
                snprintf(err, errsz, "%s: %s is in both uses: and pyuses: (uses: already releases it)", path,
                         w->pyuses[i]);
                return -1;
            }
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

/* ---- targets, and the target for a GPU model ---- */

/* NUMBER: digits with at most one '.', at least one digit, above 0. */
static int parse_number(const char *tok, double *out)
{
    int digits = 0, dots = 0;
    for (const char *p = tok; *p; p++) {
        if (*p >= '0' && *p <= '9') digits++;
        else if (*p == '.' && !dots) dots++;
        else return -1;
    }
    if (!digits) return -1;
    *out = strtod(tok, NULL);
    return *out > 0 ? 0 : -1;
}

/* MODEL: letters, digits, '-', '_', at least one letter. */
static int valid_model(const char *tok)
{
    int letters = 0;
    for (const char *p = tok; *p; p++) {
        if (isalpha((unsigned char)*p)) letters++;
        else if (!isdigit((unsigned char)*p) && *p != '-' && *p != '_') return 0;
    }
    return letters > 0;
}

/* Split one '|' field into whitespace-separated tokens (at most max). */
static int tokens(char *field, char **tok, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(field, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == max) return max + 1;
        tok[n++] = t;
    }
    return n;
}

int wb_target_parse(const char *text, wb_checkpoint *c, char *err, size_t errsz)
{
    char buf[512];
    if (strlen(text) >= sizeof buf) {
        snprintf(err, errsz, "target fields too long");
        return -1;
    }
    copy(buf, sizeof buf, text);
    c->target = 0, c->yard[0] = 0, c->n_models = 0;
    char *field = buf;
    for (int k = 0; field; k++) {
        char *rest = split_bar(field);
        field = trim(field);
        char shown[200];
        copy(shown, sizeof shown, field);
        char *tok[5];
        int n = tokens(field, tok, 4);
        if (k == 0) {
            double t;
            if (n != 3 || strcmp(tok[0], ">=") != 0 || parse_number(tok[1], &t) != 0) {
                snprintf(err, errsz, "target '%s' must read '>= NUMBER YARDSTICK' (NUMBER above 0; the default "
                         "target comes first, then any '| MODEL >= NUMBER')", shown);
                return -1;
            }
            if (strlen(tok[2]) >= sizeof c->yard) {
                snprintf(err, errsz, "yardstick '%s' is too long", tok[2]);
                return -1;
            }
            c->target = t;
            copy(c->yard, sizeof c->yard, tok[2]);
        } else {
            double t;
            if ((n != 3 && n != 4) || strcmp(tok[1], ">=") != 0 || parse_number(tok[2], &t) != 0 ||
                !valid_model(tok[0])) {
                snprintf(err, errsz, "per-model target '%s' must read 'MODEL >= NUMBER' (MODEL a word of the GPU's "
                         "name such as H200: letters, digits, '-', '_'; NUMBER above 0)", shown);
                return -1;
            }
            if (n == 4 && strcmp(tok[3], c->yard) != 0) {
                snprintf(err, errsz, "per-model target '%s' names yardstick %s, the default target %s: one "
                         "yardstick for every GPU", shown, tok[3], c->yard);
                return -1;
            }
            if (strlen(tok[0]) >= sizeof c->models[0].model) {
                snprintf(err, errsz, "model '%s' is too long", tok[0]);
                return -1;
            }
            for (int i = 0; i < c->n_models; i++)
                if (strcasecmp(c->models[i].model, tok[0]) == 0) {
                    snprintf(err, errsz, "model %s has two targets", tok[0]);
                    return -1;
                }
            if (c->n_models == WB_MAX_MODELS) {
                snprintf(err, errsz, "more than %d per-model targets", WB_MAX_MODELS);
                return -1;
            }
            copy(c->models[c->n_models].model, sizeof c->models[0].model, tok[0]);
            c->models[c->n_models++].target = t;
        }
        field = rest;
    }
    return 0;
}

int wb_model_matches(const char *device, const char *model)
{
    size_t m = strlen(model);
    if (!device || !m) return 0;
    for (const char *p = device; *p; p++) {
        if (strncasecmp(p, model, m) != 0) continue;
        int before = p > device && isalnum((unsigned char)p[-1]);
        int after = isalnum((unsigned char)p[m]);
        if (!before && !after) return 1;
    }
    return 0;
}

double wb_target_for(const wb_checkpoint *c, const char *device, const char **model)
{
    if (model) *model = NULL;
    if (!(c->target > 0)) return 0;
    for (int i = 0; device && *device && i < c->n_models; i++)
        if (wb_model_matches(device, c->models[i].model)) {
            if (model) *model = c->models[i].model;
            return c->models[i].target;
        }
    return c->target;
}

char *wb_target_text(const wb_checkpoint *c, const char *device, char *buf, size_t n)
{
    const char *model;
    double t = wb_target_for(c, device, &model);
    if (!(t > 0)) snprintf(buf, n, "%s", "");
    else if (model) snprintf(buf, n, ">= %.2f %s (%s)", t, c->yard, model);
    else if (c->n_models) snprintf(buf, n, ">= %.2f %s (default)", t, c->yard);
    else snprintf(buf, n, ">= %.2f %s", t, c->yard);
    return buf;
}

/* Every target of a checkpoint: the default, then each model's, joined by
 * sep, each number printed with fmt ("%.2f" to read, "%.15g" to parse back). */
static char *targets_join(const wb_checkpoint *c, char *buf, size_t n, const char *sep, const char *fmt)
{
    char num[40];
    size_t k = 0;
    buf[0] = 0;
    if (!(c->target > 0)) return buf;
    snprintf(num, sizeof num, fmt, c->target);
    k += (size_t)snprintf(buf, n, ">= %s %s", num, c->yard);
    for (int i = 0; i < c->n_models && k < n; i++) {
        snprintf(num, sizeof num, fmt, c->models[i].target);
        k += (size_t)snprintf(buf + k, n - k, "%s%s >= %s", sep, c->models[i].model, num);
    }
    return buf;
}

char *wb_targets_all(const wb_checkpoint *c, char *buf, size_t n) { return targets_join(c, buf, n, "; ", "%.2f"); }

char *wb_target_spec(const wb_checkpoint *c, char *buf, size_t n) { return targets_join(c, buf, n, " | ", "%.15g"); }
