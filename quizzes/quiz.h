/* quiz.h — the quiz program's parts (quizzes/quiz*.c; the file formats are
 * described in quiz.c):
 *
 *   quiz_parse.c   quiz files and answer files read
 *   quiz_seal.c    sealing: answers as salted hashes, explanations obscured
 *                  (sha256.c); `seal` and `verify`
 *   quiz_grade.c   an answer checked against its key, a set of answers scored
 *   quiz_take.c    `take`: in the terminal or from a file; the progress record
 *   quiz.c         the command line
 *
 * `grade` (a class into the gradebook) is instructor/quiz_class.c, built in
 * only where instructor/ is (make grade-quiz; not in the student copy).
 */
#ifndef QUIZ_H
#define QUIZ_H

#include <stddef.h>
#include <stdio.h>

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

/* quiz_parse.c */
char *qz_trim(char *s);
void qz_append(char *dst, size_t sz, const char *sep, const char *s);
int qz_parse(const char *text, const char *path, qz_quiz *z, char *err, size_t errsz);
int qz_load(const char *path, qz_quiz *z, char *err, size_t errsz);
int qz_normalize(const qz_question *x, const char *in, char *out, size_t outsz);
void qz_accepts(const qz_question *x, char *out, size_t outsz);
int qz_read_answers(const qz_quiz *z, const char *text, const char *path, char ans[][QZ_ANS], char *problems,
                    size_t psz);

/* quiz_seal.c */
void qz_hash_hex(const char *a, const char *b, const char *c, char out[65]);
void qz_stream(const char *salt, unsigned char *buf, size_t n);
void qz_grid(double v, double step, long long off, char out[40]);
void qz_write(FILE *f, qz_quiz *z, const char *source);
void qz_seal_all(qz_quiz *z);
int qz_cmd_seal(const char *src, const char *out);
int qz_cmd_verify(const char *src, const char *sealed_path);

/* quiz_grade.c */
void qz_why(const qz_question *x, char *out, size_t outsz);
int qz_check(const qz_question *x, const char *ans_in, char *right);
int qz_grade(const qz_quiz *z, char ans[][QZ_ANS], FILE *f);

/* quiz_take.c */
int qz_cmd_take(const char *path, const char *answers);

/* instructor/quiz_class.c */
int qz_cmd_grade(const char *path, const char *dir, const char *gradebook);

#endif
