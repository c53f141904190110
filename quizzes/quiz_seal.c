/* quiz_seal.c — part of the quiz program (quiz.h): sealing a source quiz
 * (answers as salted SHA-256 hashes, explanations XORed with a key stream;
 * quiz.c says why), and the authors' commands `seal` and `verify`. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb_file.h"
#include "sha256.h"
#include "quiz.h"

/* hex of SHA-256(a || b || c) */
void qz_hash_hex(const char *a, const char *b, const char *c, char out[65])
{
    sha256_ctx s;
    unsigned char d[32];
    sha256_init(&s);
    sha256_add(&s, a, strlen(a));
    sha256_add(&s, b, strlen(b));
    sha256_add(&s, c, strlen(c));
    sha256_end(&s, d);
    for (int i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", d[i]);
}

/* XOR `n` bytes with the key stream SHA-256("why:" salt counter). */
void qz_stream(const char *salt, unsigned char *buf, size_t n)
{
    for (size_t off = 0, ctr = 0; off < n; ctr++) {
        char cs[32];
        snprintf(cs, sizeof cs, ":%zu", ctr);
        sha256_ctx s;
        unsigned char d[32];
        sha256_init(&s);
        sha256_add(&s, "why:", 4);
        sha256_add(&s, salt, strlen(salt));
        sha256_add(&s, cs, strlen(cs));
        sha256_end(&s, d);
        for (int i = 0; i < 32 && off < n; i++) buf[off++] ^= d[i];
    }
}

/* The grid point of a number: round(v / step) as text. */
void qz_grid(double v, double step, long long off, char out[40])
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

void qz_write(FILE *f, qz_quiz *z, const char *source)
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
void qz_seal_all(qz_quiz *z)
{
    for (int i = 0; i < z->n; i++) qz_seal_question(z, &z->q[i]);
    z->sealed = 1;
}

int qz_cmd_seal(const char *src, const char *out)
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

int qz_cmd_verify(const char *src, const char *sealed_path)
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
