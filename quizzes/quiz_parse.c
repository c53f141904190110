/* quiz_parse.c — part of the quiz program (quiz.h): a quiz file (the author's
 * source or the sealed copy) and an answer file read, each problem said. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "wb_file.h"
#include "quiz.h"

char *qz_trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

void qz_append(char *dst, size_t sz, const char *sep, const char *s)
{
    if (dst[0]) strncat(dst, sep, sz - strlen(dst) - 1);
    strncat(dst, s, sz - strlen(dst) - 1);
}

/* Parse "3352 +- 20" (or "3352 ± 20", or "3352" meaning exact to 1e-9). */
static int qz_parse_number(const char *s, double *v, double *tol)
{
    char *e;
    *v = strtod(s, &e);
    if (e == s) return -1;
    while (*e == ' ') e++;
    *tol = 1e-9 * (fabs(*v) > 1 ? fabs(*v) : 1);
    if (!*e) return 0;
    if (strncmp(e, "+-", 2) == 0) e += 2;
    else if (strncmp(e, "\xc2\xb1", 2) == 0) e += 2;
    else return -1;
    char *e2;
    *tol = strtod(e, &e2);
    if (e2 == e || *tol <= 0) return -1;
    return 0;
}

int qz_parse(const char *text, const char *path, qz_quiz *z, char *err, size_t errsz)
{
    memset(z, 0, sizeof *z);
    char *t = strdup(text);
    int lno = 0, has_keys = 0, has_answers = 0;
    qz_question *cur = NULL;
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lno++;
        (void)lno;
        char *l = qz_trim(line);
        if (!*l || *l == '#') continue;
        char *colon = strchr(l, ':');
        if (!colon) {
            snprintf(err, errsz, "%s: '%s' is not `key: value`", path, l);
            free(t);
            return -1;
        }
        *colon = 0;
        char *k = qz_trim(l), *v = qz_trim(colon + 1);
        if (strcmp(k, "title") == 0) snprintf(z->title, sizeof z->title, "%s", v);
        else if (strcmp(k, "id") == 0) snprintf(z->id, sizeof z->id, "%s", v);
        else if (strcmp(k, "pass") == 0) z->pass = atoi(v);
        else if (strcmp(k, "graded") == 0) {
            if (strcmp(v, "yes") != 0 && strcmp(v, "no") != 0) {
                snprintf(err, errsz, "%s: graded: is yes or no, not '%s'", path, v);
                free(t);
                return -1;
            }
            z->graded = strcmp(v, "yes") == 0;
        }
        else if (strcmp(k, "q") == 0) {
            if (z->n == QZ_MAX_Q) {
                snprintf(err, errsz, "%s: more than %d questions", path, QZ_MAX_Q);
                free(t);
                return -1;
            }
            cur = &z->q[z->n++];
            cur->num = atoi(v);
            if (cur->num != z->n) {
                snprintf(err, errsz, "%s: question %d follows question %d (number them 1, 2, 3...)", path, cur->num,
                         z->n - 1);
                free(t);
                return -1;
            }
        } else if (!cur) {
            snprintf(err, errsz, "%s: '%s:' before the first `q:`", path, k);
            free(t);
            return -1;
        } else if (strcmp(k, "text") == 0) qz_append(cur->text, sizeof cur->text, "\n", v);
        else if (strcmp(k, "choice") == 0) {
            char *bar = strchr(v, '|');
            if (!bar || cur->n_choices == QZ_MAX_CHOICES) {
                snprintf(err, errsz, "%s: q %d: a choice reads `choice: a | text`", path, cur->num);
                free(t);
                return -1;
            }
            *bar = 0;
            cur->letter[cur->n_choices] = (char)tolower((unsigned char)*qz_trim(v));
            snprintf(cur->choice[cur->n_choices], sizeof cur->choice[0], "%s", qz_trim(bar + 1));
            cur->n_choices++;
        } else if (strcmp(k, "answer") == 0) {
            has_answers = 1;
            snprintf(cur->answer, sizeof cur->answer, "%s", v);
            if (cur->n_choices == 0) {
                cur->numeric = 1;
                if (qz_parse_number(v, &cur->value, &cur->tol) != 0) {
                    snprintf(err, errsz, "%s: q %d: a number answer reads `answer: 3352 +- 20`", path, cur->num);
                    free(t);
                    return -1;
                }
            } else {
                cur->answer[0] = (char)tolower((unsigned char)cur->answer[0]);
                cur->answer[1] = 0;
                if (!memchr(cur->letter, cur->answer[0], (size_t)cur->n_choices)) {
                    snprintf(err, errsz, "%s: q %d: the answer '%s' is not one of the choices", path, cur->num, v);
                    free(t);
                    return -1;
                }
            }
        } else if (strcmp(k, "explain") == 0) qz_append(cur->explain, sizeof cur->explain, " ", v);
        else if (strcmp(k, "key") == 0) {
            has_keys = 1;
            char *a = v, *b = strchr(a, ':'), *c = b ? strchr(b + 1, ':') : NULL;
            if (!b) {
                snprintf(err, errsz, "%s: q %d: bad key", path, cur->num);
                free(t);
                return -1;
            }
            *b++ = 0;
            snprintf(cur->salt, sizeof cur->salt, "%s", a);
            if (c) {
                *c++ = 0;
                cur->numeric = 1;
                cur->step = strtod(b, NULL);
                snprintf(cur->hash, sizeof cur->hash, "%s", c);
            } else snprintf(cur->hash, sizeof cur->hash, "%s", b);
        } else if (strcmp(k, "why") == 0) snprintf(cur->why_hex, sizeof cur->why_hex, "%s", v);
        else {
            snprintf(err, errsz, "%s: unknown key '%s'", path, k);
            free(t);
            return -1;
        }
    }
    free(t);
    if (has_keys && has_answers) {
        snprintf(err, errsz, "%s: holds both answers and keys", path);
        return -1;
    }
    if (z->graded && has_keys) {
        snprintf(err, errsz, "%s: a graded quiz's sealed copy must hold no keys, and this one does: run make quiz-seal",
                 path);
        return -1;
    }
    z->sealed = has_keys || (z->graded && !has_answers);
    if (!z->id[0] || !z->title[0] || z->n == 0 || z->pass <= 0 || z->pass > z->n) {
        snprintf(err, errsz, "%s: needs title:, id:, at least one q: and 0 < pass: <= the number of questions", path);
        return -1;
    }
    for (int i = 0; i < z->n; i++) {
        qz_question *x = &z->q[i];
        if (z->sealed && z->graded) x->numeric = x->n_choices == 0; /* no key to say so */
        if (!x->text[0] || (z->sealed ? !z->graded && !x->hash[0] : !x->answer[0])) {
            snprintf(err, errsz, "%s: q %d needs text: and %s", path, x->num, z->sealed ? "key:" : "answer:");
            return -1;
        }
    }
    return 0;
}

int qz_load(const char *path, qz_quiz *z, char *err, size_t errsz)
{
    char *s = wb_read_file(path, NULL);
    if (!s) {
        snprintf(err, errsz, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    int r = qz_parse(s, path, z, err, errsz);
    free(s);
    return r;
}

/* An answer as question x takes it, in out: for a choice its letter, given
 * as the letter ("b", "B) 32") or as the text of a choice ("racecheck", any
 * case); for a number, the number. A lone listed letter is that letter even
 * where another choice's text is that letter; the whole text of a choice wins
 * over a letter followed by words. Returns 0 (out empty) when `in` is none of
 * these, or empty. */
int qz_normalize(const qz_question *x, const char *in, char *out, size_t outsz)
{
    char buf[QZ_ANS];
    snprintf(buf, sizeof buf, "%s", in ? in : "");
    char *a = qz_trim(buf);
    out[0] = 0;
    if (!*a) return 0;
    if (x->numeric) {
        char *e;
        double v = strtod(a, &e);
        if (e == a || !isfinite(v) || *qz_trim(e)) return 0;
        snprintf(out, outsz, "%s", a);
        return 1;
    }
    char l = (char)tolower((unsigned char)a[0]);
    int listed = memchr(x->letter, l, (size_t)x->n_choices) != NULL;
    if (listed && !a[1]) return snprintf(out, outsz, "%c", l), 1;
    for (int c = 0; c < x->n_choices; c++)
        if (strcasecmp(a, x->choice[c]) == 0) return snprintf(out, outsz, "%c", x->letter[c]), 1;
    if (listed && (a[1] == ')' || a[1] == '.' || isspace((unsigned char)a[1]))) return snprintf(out, outsz, "%c", l), 1;
    return 0;
}

/* What question x takes, for messages: "a letter (a, b, c) or ...". */
void qz_accepts(const qz_question *x, char *out, size_t outsz)
{
    if (x->numeric) {
        snprintf(out, outsz, "a number (digits only, no units: 1500, 0.25, 2.5e3)");
        return;
    }
    char l[3 * QZ_MAX_CHOICES] = "";
    for (int c = 0; c < x->n_choices; c++) qz_append(l, sizeof l, ", ", (char[]){ x->letter[c], 0 });
    snprintf(out, outsz, "a letter (%s) or the text of a choice", l);
}

static void qz_problem(char *buf, size_t sz, int *n, const char *path, int lno, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void qz_problem(char *buf, size_t sz, int *n, const char *path, int lno, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t used = strlen(buf);
    if (used + 1 < sz) snprintf(buf + used, sz - used, "%s:%d: %s\n", path, lno, msg);
    (*n)++;
}

/* Answers from a file: ans[i] for question i+1, as qz_normalize gives it
 * (empty if not answered; "3:" with nothing after it is not an answer).
 * Every problem goes into `problems` as a "path:line: what" line: a line that
 * is not `N: answer`, a question the quiz does not have, a question answered
 * twice, an answer its question cannot take. Returns the number of problems:
 * a file with any is not to be graded. */
int qz_read_answers(const qz_quiz *z, const char *text, const char *path, char ans[][QZ_ANS], char *problems,
                    size_t psz)
{
    int first[QZ_MAX_Q] = { 0 }, bad = 0, lno = 0;
    for (int i = 0; i < z->n; i++) ans[i][0] = 0;
    problems[0] = 0;
    if (strncmp(text, "\xef\xbb\xbf", 3) == 0) text += 3; /* the byte-order mark some editors write */
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
        p += len + (nl ? 1 : 0);
        lno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *l = qz_trim(line), *e;
        if (!*l) continue;
        long k = strtol(l, &e, 10);
        if (e == l || !(*e == ':' || *e == '.' || *e == ')' || isspace((unsigned char)*e) || !*e)) {
            qz_problem(problems, psz, &bad, path, lno, "'%s' is not `N: answer` (e.g. `3: b`)", l);
            continue;
        }
        if (k < 1 || k > z->n) {
            qz_problem(problems, psz, &bad, path, lno, "question %ld does not exist (questions 1-%d)", k, z->n);
            continue;
        }
        while (*e == ':' || *e == '.' || *e == ')' || isspace((unsigned char)*e)) e++;
        char *a = qz_trim(e);
        if (!*a) continue;
        const qz_question *x = &z->q[k - 1];
        if (first[k - 1]) {
            qz_problem(problems, psz, &bad, path, lno, "question %ld is answered twice (also on line %d)", k,
                       first[k - 1]);
            continue;
        }
        first[k - 1] = lno;
        if (!qz_normalize(x, a, ans[k - 1], QZ_ANS)) {
            char acc[200];
            qz_accepts(x, acc, sizeof acc);
            qz_problem(problems, psz, &bad, path, lno, "question %ld: '%s' is not %s; give %s", k, a,
                       x->numeric ? "a number" : "a choice", acc);
        }
    }
    return bad;
}
