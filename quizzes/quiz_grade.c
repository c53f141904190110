/* quiz_grade.c — part of the quiz program (quiz.h): an answer checked
 * against its sealed key, and a set of answers scored, with feedback. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quiz.h"

/* The explanation of a sealed question (caller's buffer). */
void qz_why(const qz_question *x, char *out, size_t outsz)
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
