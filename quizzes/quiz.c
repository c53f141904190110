/* quiz.c — the workbook's checkpoint quizzes.
 *
 *   quiz take QUIZ [ANSWERS]        grade an answer file (or ask, when stdin is a terminal:
 *                                   an answer the question cannot take is asked for again)
 *                                   and record quiz.ID in the progress file when it passes
 *                                   and beats the score recorded there (the best stays)
 *   quiz grade QUIZ DIR GRADEBOOK   grade a class's answer files (DIR/STUDENT.txt) into a CSV:
 *                                   its column quiz.ID is added, or replaced as a whole when
 *                                   grading again; every other column and row is kept. QUIZ
 *                                   is the sealed quiz or its source (a graded quiz: the source)
 *   quiz seal SOURCE OUT            authors: turn a quiz with plain answers into the sealed one
 *   quiz verify SOURCE QUIZ         authors: the sealed quiz accepts every source answer and is
 *                                   what `seal` writes today
 *
 * A quiz file (quizzes/phaseN.txt) is `key: value` lines; '#' starts a comment:
 *
 *   title: Phase 0 — Foundation        id: phase0        pass: 10
 *   q: 1
 *   text: How many threads are in a warp?   (several text: lines make one paragraph each)
 *   choice: a | 16
 *   choice: b | 32
 *   key: SALT:HASH                     a choice: the hash of the right letter
 *   key: SALT:STEP:HASH                a number: the hash of round(answer / STEP)
 *   why: HEX                           the explanation, shown after answering
 *
 * The author's source (instructor/quizzes/phaseN.txt) has instead
 * `answer: b` or `answer: 3352 +- 20` and `explain: text`, and may say
 * `graded: yes` (below). Answers are kept
 * only as salted SHA-256 hashes, so the file a learner gets does not say them;
 * a number within the tolerance is found by hashing the 17 grid points around
 * it (STEP = tolerance / 8, so the tolerance holds to within one eighth).
 * Explanations are XORed with a salt-derived key stream: not a secret (the
 * tool shows them after any answer), just not readable by opening the file.
 *
 * Graded quizzes. Hashes of one letter out of four, with the salt beside them,
 * only keep honest readers honest: hashing a, b, c and d finds the key, and so
 * does taking the quiz four times when it says right or wrong. So a quiz whose
 * source says `graded: yes` is sealed without any key or explanation: its
 * sealed file (the one the student copy gets) has the questions, the choices
 * and `graded: yes`, nothing else. `take` on it checks the answers' form only
 * (asks again, or refuses the file, as below), says how many questions are
 * answered and never right or wrong, records nothing in the progress file,
 * and in the terminal saves the answers to quiz-ID-answers.txt (-2, -3... when
 * taken again) to hand in. `grade` grades it from the source (make grade-quiz
 * does so for every quiz). A sealed file that says `graded: yes` and holds a
 * key is refused; release.sh checks the student copy for both. Ungraded
 * quizzes are self-study: feedback, the right letter and the explanation.
 *
 * An answer file: one `N: answer` a line ("3: b", "7: 3352"); '#' comments.
 * A choice is its letter ("b", "b) 32") or its text ("3: racecheck", any case).
 * A file with a line that is not `N: answer`, a question the quiz does not
 * have, a question answered twice or an answer its question cannot take (not
 * a choice; not a number) is refused, every problem shown as "file:line: what":
 * `take` exits 2 without grading or recording, `grade` writes REFUSED for
 * that student and the problems in the column "quiz.ID problems".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wb_file.h"
#include "wb_progress.h"

/* ------------------------------------------------------------ SHA-256 */

typedef struct {
    uint32_t h[8];
    uint64_t len;
    unsigned char buf[64];
    size_t nbuf;
} qz_sha;

static const uint32_t QZ_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2
};

#define QZ_ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void qz_sha_block(qz_sha *s, const unsigned char *p)
{
    uint32_t w[64], a, b, c, d, e, f, g, h;
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = QZ_ROR(w[i - 15], 7) ^ QZ_ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = QZ_ROR(w[i - 2], 17) ^ QZ_ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (QZ_ROR(e, 6) ^ QZ_ROR(e, 11) ^ QZ_ROR(e, 25)) + ((e & f) ^ (~e & g)) + QZ_K[i] + w[i];
        uint32_t t2 = (QZ_ROR(a, 2) ^ QZ_ROR(a, 13) ^ QZ_ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d, s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

static void qz_sha_init(qz_sha *s)
{
    static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
    memcpy(s->h, h0, sizeof h0);
    s->len = 0;
    s->nbuf = 0;
}

static void qz_sha_add(qz_sha *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    s->len += n;
    while (n--) {
        s->buf[s->nbuf++] = *p++;
        if (s->nbuf == 64) qz_sha_block(s, s->buf), s->nbuf = 0;
    }
}

static void qz_sha_end(qz_sha *s, unsigned char out[32])
{
    uint64_t bits = s->len * 8;
    unsigned char pad = 0x80, zero = 0;
    qz_sha_add(s, &pad, 1);
    while (s->nbuf != 56) qz_sha_add(s, &zero, 1);
    unsigned char l[8];
    for (int i = 0; i < 8; i++) l[i] = (unsigned char)(bits >> (56 - 8 * i));
    qz_sha_add(s, l, 8);
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 4; k++) out[4 * i + k] = (unsigned char)(s->h[i] >> (24 - 8 * k));
}

/* hex of SHA-256(a || b || c) */
static void qz_hash_hex(const char *a, const char *b, const char *c, char out[65])
{
    qz_sha s;
    unsigned char d[32];
    qz_sha_init(&s);
    qz_sha_add(&s, a, strlen(a));
    qz_sha_add(&s, b, strlen(b));
    qz_sha_add(&s, c, strlen(c));
    qz_sha_end(&s, d);
    for (int i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", d[i]);
}

/* XOR `n` bytes with the key stream SHA-256("why:" salt counter). */
static void qz_stream(const char *salt, unsigned char *buf, size_t n)
{
    for (size_t off = 0, ctr = 0; off < n; ctr++) {
        char cs[32];
        snprintf(cs, sizeof cs, ":%zu", ctr);
        qz_sha s;
        unsigned char d[32];
        qz_sha_init(&s);
        qz_sha_add(&s, "why:", 4);
        qz_sha_add(&s, salt, strlen(salt));
        qz_sha_add(&s, cs, strlen(cs));
        qz_sha_end(&s, d);
        for (int i = 0; i < 32 && off < n; i++) buf[off++] ^= d[i];
    }
}

/* ------------------------------------------------------------ the quiz */

#define QZ_MAX_Q 40
#define QZ_MAX_CHOICES 8
#define QZ_ANS 320 /* an answer, long enough for the text of a choice */

typedef struct {
    int    num;
    char   text[2000];
    int    n_choices;
    char   letter[QZ_MAX_CHOICES];
    char   choice[QZ_MAX_CHOICES][300];
    int    numeric;
    /* source form */
    char   answer[64];
    double value, tol;
    char   explain[2000];
    /* sealed form */
    char   salt[40];
    double step;
    char   hash[65];
    char   why_hex[4200];
} qz_question;

typedef struct {
    char        title[200];
    char        id[64];
    int         pass;
    int         sealed;     /* keys, not answers (a graded quiz's: neither) */
    int         graded;     /* `graded: yes`: the sealed copy holds no keys */
    int         n;
    qz_question q[QZ_MAX_Q];
} qz_quiz;

static char *qz_trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

static void qz_append(char *dst, size_t sz, const char *sep, const char *s)
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

/* The grid point of a number: round(v / step) as text. */
static void qz_grid(double v, double step, long long off, char out[40])
{
    snprintf(out, 40, "%lld", llround(v / step) + off);
}

/* Seal a source quiz: salts from the quiz id and question (so sealing is
 * reproducible), answers hashed, explanations obscured. */
static void qz_seal_question(const qz_quiz *z, qz_question *x)
{
    char num[16], h[65];
    snprintf(num, sizeof num, "%d", x->num);
    qz_hash_hex(z->id, num, x->text, h);
    snprintf(x->salt, sizeof x->salt, "%.16s", h);
    if (x->numeric) {
        x->step = x->tol / 8;
        char g[40];
        qz_grid(x->value, x->step, 0, g);
        qz_hash_hex(x->salt, ":", g, x->hash);
    } else {
        char a[2] = { x->answer[0], 0 };
        qz_hash_hex(x->salt, ":", a, x->hash);
    }
    size_t n = strlen(x->explain);
    unsigned char buf[2000];
    memcpy(buf, x->explain, n);
    qz_stream(x->salt, buf, n);
    for (size_t i = 0; i < n; i++) sprintf(x->why_hex + 2 * i, "%02x", buf[i]);
    x->why_hex[2 * n] = 0;
}

static void qz_write(FILE *f, qz_quiz *z, const char *source)
{
    const char *phase = strncmp(z->id, "phase", 5) == 0 ? z->id + 5 : z->id;
    if (z->graded)
        fprintf(f, "# Graded quiz: this copy holds no answers. Generated from %s by `make quiz-seal`; do not edit.\n"
                   "# Take it: make quiz PHASE=%s [ANSWERS=file], then hand in your answer file.\n",
                source, phase);
    else
        fprintf(f, "# Sealed quiz: answers are salted hashes. Generated from %s by `make quiz-seal`; do not edit.\n"
                   "# Take it: make quiz PHASE=%s [ANSWERS=file]   (answer file: one `N: answer` a line)\n",
                source, phase);
    fprintf(f, "title: %s\nid: %s\npass: %d\n", z->title, z->id, z->pass);
    if (z->graded) fprintf(f, "graded: yes\n");
    for (int i = 0; i < z->n; i++) {
        qz_question *x = &z->q[i];
        qz_seal_question(z, x);
        fprintf(f, "\nq: %d\n", x->num);
        char *t = strdup(x->text), *save = NULL;
        for (char *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) fprintf(f, "text: %s\n", l);
        free(t);
        for (int c = 0; c < x->n_choices; c++) fprintf(f, "choice: %c | %s\n", x->letter[c], x->choice[c]);
        if (z->graded) continue; /* no key, no explanation */
        if (x->numeric) fprintf(f, "key: %s:%.17g:%s\n", x->salt, x->step, x->hash);
        else fprintf(f, "key: %s:%s\n", x->salt, x->hash);
        fprintf(f, "why: %s\n", x->why_hex);
    }
}

/* A source quiz sealed in memory (to grade from the source). */
static void qz_seal_all(qz_quiz *z)
{
    for (int i = 0; i < z->n; i++) qz_seal_question(z, &z->q[i]);
    z->sealed = 1;
}

/* The explanation of a sealed question (caller's buffer). */
static void qz_why(const qz_question *x, char *out, size_t outsz)
{
    size_t n = strlen(x->why_hex) / 2;
    if (n >= outsz) n = outsz - 1;
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        sscanf(x->why_hex + 2 * i, "%2x", &v);
        out[i] = (char)v;
    }
    qz_stream(x->salt, (unsigned char *)out, n);
    out[n] = 0;
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

/* Is `ans` (anything qz_normalize takes) right for sealed question x? For a
 * choice, *right gets the right letter (found by hashing each one) so the
 * learner can be told. */
int qz_check(const qz_question *x, const char *ans_in, char *right)
{
    char a[QZ_ANS], h[65];
    if (right) *right = 0;
    if (!x->numeric && right)
        for (int c = 0; c < x->n_choices; c++) {
            char l[2] = { x->letter[c], 0 };
            qz_hash_hex(x->salt, ":", l, h);
            if (strcmp(h, x->hash) == 0) *right = x->letter[c];
        }
    if (!qz_normalize(x, ans_in, a, sizeof a)) return 0;
    if (x->numeric) {
        double v = strtod(a, NULL);
        if (x->step <= 0 || fabs(v / x->step) > 9e15) return 0;
        for (long long off = -8; off <= 8; off++) {
            char g[40];
            qz_grid(v, x->step, off, g);
            qz_hash_hex(x->salt, ":", g, h);
            if (strcmp(h, x->hash) == 0) return 1;
        }
        return 0;
    }
    qz_hash_hex(x->salt, ":", a, h);
    return strcmp(h, x->hash) == 0;
}

/* What question x takes, for messages: "a letter (a, b, c) or ...". */
static void qz_accepts(const qz_question *x, char *out, size_t outsz)
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

/* Grade answers; print feedback to f (NULL: quiet). Returns the score. */
int qz_grade(const qz_quiz *z, char ans[][QZ_ANS], FILE *f)
{
    int score = 0;
    for (int i = 0; i < z->n; i++) {
        const qz_question *x = &z->q[i];
        char right = 0, why[2100];
        int ok = qz_check(x, ans[i], &right);
        score += ok;
        if (!f) continue;
        qz_why(x, why, sizeof why);
        if (ok) fprintf(f, "  %2d  right   %s\n", x->num, ans[i]);
        else if (!ans[i][0] && right) fprintf(f, "  %2d  WRONG   (no answer); the answer is %c\n", x->num, right);
        else if (!ans[i][0]) fprintf(f, "  %2d  WRONG   (no answer)\n", x->num);
        else if (x->numeric) fprintf(f, "  %2d  WRONG   %s is not within the tolerance\n", x->num, ans[i]);
        else fprintf(f, "  %2d  WRONG   you answered %s; the answer is %c\n", x->num, ans[i], right);
        if (!ok) {
            fprintf(f, "        Q: %s\n", x->text);
            if (why[0]) fprintf(f, "        Why: %s\n", why);
        }
    }
    return score;
}

/* ------------------------------------------------------------ commands */

static int qz_cmd_seal(const char *src, const char *out)
{
    static qz_quiz z;
    char err[600];
    if (qz_load(src, &z, err, sizeof err) != 0) return fprintf(stderr, "%s\n", err), 2;
    if (z.sealed) return fprintf(stderr, "%s is already sealed\n", src), 2;
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *f = fopen(tmp, "w");
    if (!f) return fprintf(stderr, "cannot write %s\n", tmp), 2;
    const char *base = strrchr(src, '/');
    char shown[600];
    snprintf(shown, sizeof shown, "instructor/quizzes/%s", base ? base + 1 : src);
    qz_write(f, &z, shown);
    if (fclose(f) != 0 || rename(tmp, out) != 0) return fprintf(stderr, "cannot write %s\n", out), 2;
    printf("%s: %d questions sealed into %s%s\n", src, z.n, out, z.graded ? " (graded: no keys, no explanations)" : "");
    return 0;
}

static int qz_cmd_verify(const char *src, const char *sealed_path)
{
    static qz_quiz s, z;
    char err[600];
    if (qz_load(src, &s, err, sizeof err) != 0) return fprintf(stderr, "%s\n", err), 2;
    if (qz_load(sealed_path, &z, err, sizeof err) != 0) return fprintf(stderr, "%s\n", err), 2;
    int bad = 0;
    if (!z.sealed) fprintf(stderr, "%s is not sealed: it holds the answers\n", sealed_path), bad++;
    if (s.n != z.n) fprintf(stderr, "%s has %d questions, %s %d\n", src, s.n, sealed_path, z.n), bad++;
    for (int i = 0; i < s.n && i < z.n && !bad && !z.graded; i++) { /* a graded copy: no keys to check */
        char right;
        const char *a = s.q[i].answer;
        char num[64];
        if (s.q[i].numeric) snprintf(num, sizeof num, "%.17g", s.q[i].value), a = num;
        if (!qz_check(&z.q[i], a, &right)) fprintf(stderr, "%s: q %d does not accept its answer\n", sealed_path, i + 1), bad++;
        if (s.q[i].numeric) {
            char off[64];
            snprintf(off, sizeof off, "%.17g", s.q[i].value + 0.8 * s.q[i].tol);
            if (!qz_check(&z.q[i], off, NULL)) fprintf(stderr, "%s: q %d refuses an answer inside its tolerance\n", sealed_path, i + 1), bad++;
            snprintf(off, sizeof off, "%.17g", s.q[i].value + 1.5 * s.q[i].tol);
            if (qz_check(&z.q[i], off, NULL)) fprintf(stderr, "%s: q %d accepts an answer outside its tolerance\n", sealed_path, i + 1), bad++;
        }
    }
    /* what seal writes today, byte for byte */
    char tmp[] = "/tmp/wb-quiz-XXXXXX";
    int fd = mkstemp(tmp);
    if (fd >= 0) {
        FILE *f = fdopen(fd, "w");
        const char *base = strrchr(src, '/');
        char shown[600];
        snprintf(shown, sizeof shown, "instructor/quizzes/%s", base ? base + 1 : src);
        qz_write(f, &s, shown);
        fclose(f);
        char *want = wb_read_file(tmp, NULL), *have = wb_read_file(sealed_path, NULL);
        if (!want || !have || strcmp(want, have) != 0)
            fprintf(stderr, "%s is not what `make quiz-seal` makes from %s today: run it\n", sealed_path, src), bad++;
        free(want), free(have);
        unlink(tmp);
    }
    if (!bad) printf("%s: %d questions, sealed and up to date\n", sealed_path, z.n);
    return bad ? 1 : 0;
}

static void qz_record(const qz_quiz *z, int score)
{
    char id[80], fig[32], target[48], err[700];
    snprintf(id, sizeof id, "quiz.%s", z->id);
    snprintf(fig, sizeof fig, "%d/%d", score, z->n);
    snprintf(target, sizeof target, ">= %d/%d", z->pass, z->n);
    if (score < z->pass) {
        printf("Below the pass mark (%s): not recorded. Read the explanations above and take it again.\n", target);
        return;
    }
    /* Keep the best: a record that is as good or better stays. (Read before
     * wb_progress_update takes its lock: two quizzes taken at the same second
     * in one workbook are not a case to handle.) */
    wb_progress p;
    if (wb_progress_load(wb_progress_path(), &p, err, sizeof err) == 0) {
        const wb_record *old = wb_progress_find(&p, id);
        int os = 0, on = 0;
        if (old && sscanf(old->figure, "%d/%d", &os, &on) == 2 && on > 0 && (double)os / on >= (double)score / z->n) {
            if (os * z->n == score * on)
                printf("%s %s is already recorded in %s (%s).\n", id, old->figure, wb_progress_path(), old->date);
            else
                printf("Your best, %s on %s, stays recorded in %s; this %s is not recorded.\n", old->figure, old->date,
                       wb_progress_path(), fig);
            wb_progress_free(&p);
            return;
        }
        wb_progress_free(&p);
    }
    wb_record r;
    wb_record_set(&r, id, NULL, "-", fig, target);
    if (wb_progress_update(wb_progress_path(), &r, 1, err, sizeof err) == 0)
        printf("Recorded %s %s in %s.\n", id, fig, wb_progress_path());
    else printf("Progress NOT recorded: %s\n", err);
}

/* Ask each question on `in` (a terminal) and, unless the quiz is graded, say
 * right or wrong after it. An answer the question cannot take is asked for
 * again, saying what it takes; Enter skips. Stops early at the end of input. */
static void qz_ask(const qz_quiz *z, FILE *in, FILE *out, char ans[][QZ_ANS])
{
    if (z->graded)
        fprintf(out, "%s — %d questions, graded by your instructor: your answers are saved to hand in, not checked "
                     "here. Type a letter (or the text of a choice) or a number, Enter to skip.\n", z->title, z->n);
    else
        fprintf(out, "%s — %d questions; pass mark %d. Type a letter (or the text of a choice) or a number, Enter to "
                     "skip.\n", z->title, z->n, z->pass);
    for (int i = 0; i < z->n; i++) ans[i][0] = 0;
    for (int i = 0; i < z->n; i++) {
        const qz_question *x = &z->q[i];
        fprintf(out, "\n%d. %s\n", x->num, x->text);
        for (int c = 0; c < x->n_choices; c++) fprintf(out, "   %c) %s\n", x->letter[c], x->choice[c]);
        ans[i][0] = 0;
        for (;;) {
            fprintf(out, "> ");
            fflush(out);
            char line[1024];
            if (!fgets(line, sizeof line, in)) {
                fprintf(out, "\n");
                return;
            }
            if (!strchr(line, '\n')) /* the rest of a long line */
                for (int ch = getc(in); ch != EOF && ch != '\n'; ch = getc(in)) {}
            char *a = qz_trim(line);
            if (!*a || qz_normalize(x, a, ans[i], QZ_ANS)) break;
            char acc[200];
            qz_accepts(x, acc, sizeof acc);
            fprintf(out, "   '%s' is not an answer to this question: type %s, or Enter to skip.\n", a, acc);
        }
        if (z->graded) continue;
        char right, why[2100];
        int ok = qz_check(x, ans[i], &right);
        qz_why(x, why, sizeof why);
        if (ok) fprintf(out, "   right. %s\n", why);
        else if (right) fprintf(out, "   wrong: the answer is %c. %s\n", right, why);
        else fprintf(out, "   wrong. %s\n", why);
    }
    fprintf(out, "\n");
}

/* A graded quiz, answered: say how many questions have an answer (never
 * whether it is right: this copy cannot tell) and where the answer file to
 * hand in is; answers typed in the terminal are saved to a new file first. */
static int qz_collected(const qz_quiz *z, char ans[][QZ_ANS], const char *file)
{
    char saved[200];
    if (!file || !*file) {
        FILE *f = NULL;
        for (int k = 1; !f && k < 1000; k++) {
            if (k == 1) snprintf(saved, sizeof saved, "quiz-%s-answers.txt", z->id);
            else snprintf(saved, sizeof saved, "quiz-%s-answers-%d.txt", z->id, k);
            int fd = open(saved, O_WRONLY | O_CREAT | O_EXCL, 0644); /* never over an earlier attempt */
            if (fd >= 0) f = fdopen(fd, "w");
            else if (errno != EEXIST) break;
        }
        if (!f) return fprintf(stderr, "cannot save your answers to %s: %s\n", saved, strerror(errno)), 2;
        fprintf(f, "# %s\n", z->title);
        for (int i = 0; i < z->n; i++) fprintf(f, "%d:%s%s\n", z->q[i].num, ans[i][0] ? " " : "", ans[i]);
        if (fclose(f) != 0) return fprintf(stderr, "cannot save your answers to %s\n", saved), 2;
        file = saved;
    }
    char blank[200] = "";
    int got = 0;
    for (int i = 0; i < z->n; i++) {
        char num[16];
        snprintf(num, sizeof num, "%d", z->q[i].num);
        if (ans[i][0]) got++;
        else qz_append(blank, sizeof blank, ", ", num);
    }
    printf("%s\n  %d of %d questions answered%s%s%s.\n", z->title, got, z->n, blank[0] ? " (not answered: " : "",
           blank, blank[0] ? ")" : "");
    printf("  A graded quiz: your instructor grades it, so nothing is checked or recorded here. Hand in %s.\n", file);
    return 0;
}

static int qz_cmd_take(const char *path, const char *answers)
{
    static qz_quiz z;
    static char ans[QZ_MAX_Q][QZ_ANS];
    char err[600];
    if (qz_load(path, &z, err, sizeof err) != 0) return fprintf(stderr, "%s\n", err), 2;
    if (!z.sealed) return fprintf(stderr, "%s holds plain answers: take the sealed quiz in quizzes/\n", path), 2;
    if (answers && *answers) {
        char *t = wb_read_file(answers, NULL);
        if (!t) return fprintf(stderr, "cannot read the answer file %s: %s\n", answers, strerror(errno)), 2;
        static char problems[16384];
        int bad = qz_read_answers(&z, t, answers, ans, problems, sizeof problems);
        free(t);
        if (bad) {
            fputs(problems, stderr);
            fprintf(stderr, "%s: %d problem%s (above): not graded, nothing recorded. Fix the file and take it again.\n",
                    answers, bad, bad == 1 ? "" : "s");
            return 2;
        }
    } else if (isatty(0)) {
        qz_ask(&z, stdin, stdout, ans);
    } else {
        return fprintf(stderr, "no answers: give ANSWERS=file (one `N: answer` a line), or run it in a terminal\n"), 2;
    }
    if (z.graded) return qz_collected(&z, ans, answers);
    printf("%s\n", z.title);
    int score = qz_grade(&z, ans, stdout);
    printf("  -- %d of %d right (pass mark %d)\n", score, z.n, z.pass);
    qz_record(&z, score);
    return score >= z.pass ? 0 : 1;
}

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
static int qz_cmd_grade(const char *path, const char *dir, const char *gradebook)
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

int quiz_main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";
    if (strcmp(cmd, "take") == 0 && (argc == 3 || argc == 4)) return qz_cmd_take(argv[2], argc == 4 ? argv[3] : NULL);
    if (strcmp(cmd, "grade") == 0 && argc == 5) return qz_cmd_grade(argv[2], argv[3], argv[4]);
    if (strcmp(cmd, "seal") == 0 && argc == 4) return qz_cmd_seal(argv[2], argv[3]);
    if (strcmp(cmd, "verify") == 0 && argc == 4) return qz_cmd_verify(argv[2], argv[3]);
    fprintf(stderr, "usage: quiz take QUIZ [ANSWERS] | grade QUIZ DIR GRADEBOOK | seal SOURCE OUT | verify SOURCE QUIZ\n");
    return 2;
}

#ifndef QUIZ_NO_MAIN
int main(int argc, char **argv) { return quiz_main(argc, argv); }
#endif
