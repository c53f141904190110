/* test_quiz.c — Check tests of the quizzes (quizzes/quiz.h): SHA-256,
 * sealing, answers and their files, `take` in a terminal and from a file,
 * the progress record, `quiz grade` into a gradebook, graded quizzes. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "wb_file.h"
#include "wb_progress.h"
#include "grade.h"
#include "quiz.h"
#include "test_instructor.h"

/* ------------------------------------------------------- quizzes */

START_TEST(sha256_vectors)
{
    char h[65];
    qz_hash_hex("abc", "", "", h);
    ck_assert_str_eq(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    qz_hash_hex("", "", "", h);
    ck_assert_str_eq(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    qz_hash_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "", "", h);
    ck_assert_str_eq(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

static const char *SRC =
    "title: Test quiz\nid: t0\npass: 2\n"
    "q: 1\ntext: How many threads in a warp?\nchoice: a | 16\nchoice: b | 32\nanswer: b\n"
    "explain: A warp is 32 threads on every NVIDIA GPU so far.\n"
    "q: 2\ntext: Peak GB/s of 2619 MHz on 5120 bits?\nanswer: 3352 +- 20\nexplain: 2 x 2.619e9 x 640 bytes.\n"
    "q: 3\ntext: pi?\nanswer: 3.14159 +- 0.001\nexplain: circles.\n"
    "q: 4\ntext: Which tool finds shared-memory races?\nchoice: a | memcheck\nchoice: b | racecheck\nanswer: b\n"
    "q: 5\ntext: Odd choices\nchoice: a | c\nchoice: b | b\nchoice: c | x\nanswer: c\n"
    "q: 6\ntext: How many?\nchoice: a | none\nchoice: b | a lot of them\nanswer: b\n";

static void seal_src(qz_quiz *sealed, char **text_out)
{
    static qz_quiz src;
    char err[300];
    ck_assert_msg(qz_parse(SRC, "src", &src, err, sizeof err) == 0, "%s", err);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    qz_write(f, &src, "src");
    fclose(f);
    ck_assert_msg(qz_parse(buf, "sealed", sealed, err, sizeof err) == 0, "%s", err);
    *text_out = buf;
}

START_TEST(quiz_seal_and_check)
{
    static qz_quiz z;
    char *text;
    seal_src(&z, &text);
    ck_assert(z.sealed);
    ck_assert_int_eq(z.n, 6);
    ck_assert_msg(!strstr(text, "\nanswer:") && !strstr(text, "explain:") && !strstr(text, "3352") && !strstr(text, "warp is 32"),
                  "the sealed quiz gives the answer away:\n%s", text);
    char right;
    ck_assert(qz_check(&z.q[0], "b", &right));
    ck_assert_int_eq(right, 'b');
    ck_assert(qz_check(&z.q[0], "B) 32", NULL));
    ck_assert(!qz_check(&z.q[0], "a", &right));
    ck_assert_int_eq(right, 'b');
    ck_assert(!qz_check(&z.q[0], "bb", NULL));
    ck_assert(!qz_check(&z.q[0], "", NULL));
    /* the text of a choice is that choice (any case, trimmed) */
    ck_assert(qz_check(&z.q[0], "32", NULL));
    ck_assert(qz_check(&z.q[0], "  32 ", NULL));
    ck_assert(!qz_check(&z.q[0], "16", NULL));
    ck_assert(qz_check(&z.q[3], "RaceCheck", NULL));
    ck_assert(qz_check(&z.q[3], "racecheck", NULL));
    ck_assert(!qz_check(&z.q[3], "memcheck", NULL));
    ck_assert(!qz_check(&z.q[3], "race", NULL));
    ck_assert(qz_check(&z.q[4], "c", NULL)); /* a letter first, even if a choice's text is a letter */
    ck_assert(qz_check(&z.q[4], "c) x", NULL));
    ck_assert(qz_check(&z.q[4], "X", NULL)); /* the text of choice c */
    ck_assert(!qz_check(&z.q[4], "b", NULL));
    ck_assert(qz_check(&z.q[5], "A lot of them", NULL)); /* the text, not "a" and a remark */
    ck_assert(qz_check(&z.q[1], "3352", NULL));
    ck_assert(qz_check(&z.q[1], "3335", NULL));
    ck_assert(qz_check(&z.q[1], "3369.5", NULL));
    ck_assert(!qz_check(&z.q[1], "3380", NULL));
    ck_assert(!qz_check(&z.q[1], "3320", NULL));
    ck_assert(!qz_check(&z.q[1], "lots", NULL));
    ck_assert(!qz_check(&z.q[1], "1e300", NULL));
    ck_assert(qz_check(&z.q[2], "3.1416", NULL));
    ck_assert(!qz_check(&z.q[2], "3.15", NULL));
    char why[300];
    qz_why(&z.q[0], why, sizeof why);
    ck_assert_str_eq(why, "A warp is 32 threads on every NVIDIA GPU so far.");
    free(text);
}
END_TEST

START_TEST(quiz_answer_files)
{
    static qz_quiz z;
    char *text;
    seal_src(&z, &text);
    free(text);
    static char ans[QZ_MAX_Q][QZ_ANS];
    char problems[2000];
    ck_assert_int_eq(qz_read_answers(&z, "\xef\xbb\xbf# mine\r\n1: B\r\n2) 3350   # roughly\n3:\n", "a.txt", ans, problems,
                                     sizeof problems), 0);
    ck_assert_str_eq(problems, "");
    ck_assert_str_eq(ans[0], "b");
    ck_assert_str_eq(ans[1], "3350");
    ck_assert_str_eq(ans[2], "");
    ck_assert_int_eq(qz_grade(&z, ans, NULL), 2);
    ck_assert_int_eq(qz_read_answers(&z, "4: RaceCheck\n9: x\n1 b\n1b\n", "a.txt", ans, problems, sizeof problems), 2);
    ck_assert_str_eq(ans[3], "b");
    ck_assert_str_eq(problems, "a.txt:2: question 9 does not exist (questions 1-6)\n"
                               "a.txt:4: '1b' is not `N: answer` (e.g. `3: b`)\n");
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    ck_assert_int_eq(qz_read_answers(&z, "1: a\n2: 1\n3: 3.14159\n", "a.txt", ans, problems, sizeof problems), 0);
    ck_assert_int_eq(qz_grade(&z, ans, f), 1);
    fclose(f);
    ck_assert_msg(strstr(out, "you answered a; the answer is b"), "%s", out);
    ck_assert_msg(strstr(out, "Why: 2 x 2.619e9 x 640 bytes."), "%s", out);
    free(out);
}
END_TEST

/* Run f with stdout and stderr going to a file; returns what they printed. */
static char *captured(int (*f)(const char *, const char *), const char *a, const char *b, int *rc)
{
    char path[] = "/tmp/wb-quiz-out-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    fflush(stdout), fflush(stderr);
    int o = dup(1), e = dup(2);
    dup2(fd, 1), dup2(fd, 2);
    *rc = f(a, b);
    fflush(stdout), fflush(stderr);
    dup2(o, 1), dup2(e, 2);
    close(o), close(e), close(fd);
    char *t = wb_read_file(path, NULL);
    unlink(path);
    return t;
}

static char *captured2_grade(const char *quiz, const char *dir, const char *csv, int *rc)
{
    char path[] = "/tmp/wb-quiz-out-XXXXXX";
    int fd = mkstemp(path);
    fflush(stdout), fflush(stderr);
    int o = dup(1), e = dup(2);
    dup2(fd, 1), dup2(fd, 2);
    *rc = qz_cmd_grade(quiz, dir, csv);
    fflush(stdout), fflush(stderr);
    dup2(o, 1), dup2(e, 2);
    close(o), close(e), close(fd);
    char *t = wb_read_file(path, NULL);
    unlink(path);
    return t;
}

/* A sealed copy of SRC (with `extra` lines before its first question) in a
 * temporary file; the name in path. */
static void sealed_file(const char *extra, char path[64])
{
    static qz_quiz src;
    char err[300], *text = NULL;
    size_t n = 0;
    snprintf(err, sizeof err, "%s", SRC);
    char *q1 = strstr(SRC, "q: 1\n");
    ck_assert(asprintf(&text, "%.*s%s%s", (int)(q1 - SRC), SRC, extra, q1) > 0);
    ck_assert_msg(qz_parse(text, "src", &src, err, sizeof err) == 0, "%s", err);
    free(text);
    snprintf(path, 64, "/tmp/wb-quiz-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    qz_write(f, &src, "src");
    fclose(f);
    (void)n;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(quiz_answer_file_problems)
{
    char quiz[64], ans[] = "/tmp/wb-answers-XXXXXX", prog[] = "/tmp/wb-progress-XXXXXX";
    sealed_file("", quiz);
    close(mkstemp(ans));
    close(mkstemp(prog));
    unlink(prog);
    setenv("WB_PROGRESS", prog, 1);
    write_text(ans, "# mine\n1: b\nthis line is nonsense\n9: a\n1: a\n2: lots\n4: racecheck\n5: q\n\n6:\n");
    int rc;
    char *out = captured(qz_cmd_take, quiz, ans, &rc);
    ck_assert_msg(rc == 2, "rc %d: a file with problems must not be graded:\n%s", rc, out);
    char want[200];
    const char *each[] = { "3: 'this line is nonsense' is not", "4: question 9 does not exist (questions 1-6)",
                           "5: question 1 is answered twice (also on line 2)", "6: question 2: 'lots' is not a number",
                           "8: question 5: 'q' is not a choice" };
    for (int i = 0; i < 5; i++) {
        snprintf(want, sizeof want, "%s:%s", ans, each[i]);
        ck_assert_msg(strstr(out, want), "no \"%s\" in:\n%s", want, out);
    }
    ck_assert_msg(!strstr(out, "right") && !strstr(out, "WRONG"), "graded anyway:\n%s", out);
    ck_assert_msg(access(prog, F_OK) != 0, "a refused file was recorded");
    free(out);
    /* the same answers, fixed: graded and recorded */
    write_text(ans, "1: b\n2: 3352\n4: racecheck\n");
    out = captured(qz_cmd_take, quiz, ans, &rc);
    ck_assert_msg(rc == 0 && strstr(out, "3 of 6 right"), "rc %d:\n%s", rc, out);
    ck_assert_msg(access(prog, F_OK) == 0, "a pass was not recorded:\n%s", out);
    free(out);
    unlink(prog), unlink(ans), unlink(quiz);
    unsetenv("WB_PROGRESS");
}
END_TEST

/* `take` in a terminal (a pseudo-terminal on stdin) typed `typed`, then ^D. */
static const char *typed_input;

static int take_typed(const char *quiz, const char *unused)
{
    (void)unused;
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    ck_assert_int_ge(m, 0);
    ck_assert_int_eq(grantpt(m), 0);
    ck_assert_int_eq(unlockpt(m), 0);
    int sl = open(ptsname(m), O_RDWR | O_NOCTTY);
    ck_assert_int_ge(sl, 0);
    struct termios tio;
    tcgetattr(sl, &tio);
    tio.c_lflag &= ~(tcflag_t)ECHO; /* what is typed is not printed back */
    tcsetattr(sl, TCSANOW, &tio);
    ck_assert(write(m, typed_input, strlen(typed_input)) == (ssize_t)strlen(typed_input));
    ck_assert(write(m, "\x04", 1) == 1);
    int in = dup(0);
    dup2(sl, 0);
    int rc = qz_cmd_take(quiz, NULL);
    dup2(in, 0);
    close(in), close(sl), close(m);
    return rc;
}

START_TEST(quiz_asks_again)
{
    char quiz[64], prog[] = "/tmp/wb-progress-XXXXXX";
    sealed_file("", quiz);
    close(mkstemp(prog));
    setenv("WB_PROGRESS", prog, 1);
    typed_input = "z\n32\nlots\n3352 GB/s\n3352\n\nRaceCheck\n";
    int rc;
    char *out = captured(take_typed, quiz, NULL, &rc);
    ck_assert_msg(strstr(out, "'z' is not an answer to this question: type a letter (a, b) or the text of a choice, "
                              "or Enter to skip."), "%s", out);
    ck_assert_msg(strstr(out, "'lots' is not an answer to this question: type a number"), "%s", out);
    ck_assert_msg(strstr(out, "'3352 GB/s' is not an answer"), "%s", out);
    ck_assert_msg(strstr(out, "   1  right   b\n") && strstr(out, "   2  right   3352\n") &&
                  strstr(out, "   3  WRONG   (no answer)\n") && strstr(out, "   4  right   b\n"), "%s", out);
    ck_assert_msg(strstr(out, "-- 3 of 6 right"), "%s", out);
    ck_assert_int_eq(rc, 0);
    free(out);
    unlink(prog), unlink(quiz);
    unsetenv("WB_PROGRESS");
}
END_TEST

START_TEST(quiz_keeps_the_best)
{
    char quiz[64], ans[] = "/tmp/wb-answers-XXXXXX", prog[] = "/tmp/wb-progress-XXXXXX";
    sealed_file("", quiz);
    close(mkstemp(ans));
    close(mkstemp(prog));
    unlink(prog);
    setenv("WB_PROGRESS", prog, 1);
    const char *tries[] = { "1: b\n2: 3352\n", "1: b\n2: 3352\n3: 3.1416\n", "1: b\n2: 3352\n", "1: b\n4: b\n" };
    const char *said[] = { "Recorded quiz.t0 2/6", "Recorded quiz.t0 3/6", "Your best, 3/6", "Your best, 3/6" };
    for (int i = 0; i < 4; i++) {
        write_text(ans, tries[i]);
        int rc;
        char *out = captured(qz_cmd_take, quiz, ans, &rc);
        ck_assert_msg(strstr(out, said[i]), "try %d:\n%s", i + 1, out);
        free(out);
        static wb_progress p;
        char err[300];
        ck_assert_int_eq(wb_progress_load(prog, &p, err, sizeof err), 0);
        const wb_record *r = wb_progress_find(&p, "quiz.t0");
        ck_assert_ptr_nonnull(r);
        ck_assert_str_eq(r->figure, i == 0 ? "2/6" : "3/6");
        wb_progress_free(&p);
    }
    unlink(prog), unlink(ans), unlink(quiz);
    unsetenv("WB_PROGRESS");
}
END_TEST

/* `quiz grade` of SRC's quiz on `answers` (NAME=TEXT pairs) into a gradebook
 * that holds `book`; returns the gradebook after it (twice: the same). */
static char *grade_into(const char *book, const char *const *answers, int n)
{
    char quiz[64], dir[] = "/tmp/wb-answers-XXXXXX", csv[] = "/tmp/wb-gradebook-XXXXXX", p[300];
    sealed_file("", quiz);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    close(mkstemp(csv));
    write_text(csv, book);
    for (int i = 0; i < n; i += 2) {
        snprintf(p, sizeof p, "%s/%s", dir, answers[i]);
        write_text(p, answers[i + 1]);
    }
    char *once = NULL;
    for (int k = 0; k < 2; k++) {
        int fd = open("/dev/null", O_WRONLY), o = dup(1);
        fflush(stdout), dup2(fd, 1), close(fd);
        int rc = qz_cmd_grade(quiz, dir, csv);
        fflush(stdout), dup2(o, 1), close(o);
        ck_assert_int_eq(rc, 0);
        char *t = wb_read_file(csv, NULL);
        if (once) ck_assert_msg(strcmp(once, t) == 0, "grading again changed the gradebook:\n%s\nthen\n%s", once, t);
        free(once);
        once = t;
    }
    snprintf(p, sizeof p, "rm -rf %s %s %s", dir, csv, quiz);
    sh(p, NULL);
    return once;
}

START_TEST(quiz_gradebook_columns)
{
    /* its own column replaced (a student with no file now: blank), other
     * quizzes' and the week grader's columns kept, a row longer than the
     * header kept whole, a blank line not made a row */
    const char *answers[] = { "ann.txt", "1: b\n2: 3352\n", "pat.txt", "1: b\n" };
    char *t = grade_into("student,a,quiz.t0 (of 5),quiz.t1 (of 5)\nann,1,5,4,extra\r\nold,2,5,3\n\n"
                         "zed,\"multi\nline, x\",,2\n", answers, 4);
    ck_assert_str_eq(t, "student,a,quiz.t0 (of 6),quiz.t1 (of 5),\nann,1,2,4,extra\nold,2,,3,\n"
                        "zed,\"multi\nline, x\",,2,\npat,,1,,\n");
    free(t);
    /* a wide gradebook (a whole course) keeps every column */
    char *wide = NULL, *ann = NULL;
    size_t n1 = 0, n2 = 0;
    FILE *h = open_memstream(&wide, &n1), *r = open_memstream(&ann, &n2);
    fputs("student", h), fputs("ann", r);
    for (int c = 0; c < 300; c++) fprintf(h, ",c%d", c), fprintf(r, ",%d", c);
    fclose(h), fclose(r);
    char *book = NULL;
    ck_assert(asprintf(&book, "%s\n%s\n", wide, ann) > 0);
    t = grade_into(book, answers, 2);
    char *want = NULL;
    ck_assert(asprintf(&want, "%s,quiz.t0 (of 6)\n%s,2\n", wide, ann) > 0);
    ck_assert_str_eq(t, want);
    free(t), free(want), free(book), free(wide), free(ann);
}
END_TEST

/* Names a student chose: only STUDENT.txt with a usable id is graded (a
 * second file for one id, a name a spreadsheet would take for a formula,
 * control characters: skipped, no row); what a refused file's problems
 * quote of it reaches the gradebook escaped. */
START_TEST(quiz_names_a_student_chose)
{
    const char *answers[] = { "ann.txt", "1: b\n", "ann.zzz", "1: a\n", "+1+1.txt", "1: b\n",
                              "=HYPERLINK(\"x\").txt", "1: b\n", "@A2.txt", "1: b\n", "eve\x1b[31m.txt", "1: b\n",
                              "zoe.txt", "1: \x1b]0;owned\x07\n" };
    char *t = grade_into("student\n", answers, 14);
    ck_assert_msg(strncmp(t, "student,quiz.t0 (of 6)", 22) == 0, "%s", t);
    ck_assert_msg(strstr(t, "\nann,1"), "ann's answer file not graded as hers:\n%s", t);
    ck_assert_msg(strstr(t, "\nzoe,REFUSED") && strstr(t, "\\x1b]0;owned\\x07"), "zoe's problem not escaped:\n%s", t);
    ck_assert_msg(!strchr(t, '\x1b') && !strchr(t, '\x07'), "a control character in the gradebook:\n%s", t);
    for (const char *l = t; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        ck_assert_msg(!*l || !strchr("=+-@", *l), "a row begins with a formula character:\n%s", t);
    ck_assert_msg(!strstr(t, "eve") && !strstr(t, "HYPERLINK") && !strstr(t, "1+1") && !strstr(t, "A2"),
                  "a skipped file has a row:\n%s", t);
    free(t);
}
END_TEST

/* A graded quiz: its sealed copy holds neither keys nor explanations, `take`
 * only checks the form of the answers and says nothing of right or wrong,
 * `grade` grades from the source. */
START_TEST(quiz_graded_keeps_its_key)
{
    char quiz[64], ans[] = "/tmp/wb-answers-XXXXXX", prog[] = "/tmp/wb-progress-XXXXXX";
    sealed_file("graded: yes\n", quiz);
    char *text = wb_read_file(quiz, NULL);
    ck_assert_msg(strstr(text, "\ngraded: yes\n") && !strstr(text, "\nkey:") && !strstr(text, "\nwhy:"),
                  "a graded quiz's sealed copy holds keys or explanations:\n%s", text);
    free(text);
    static qz_quiz z;
    char err[300];
    ck_assert_msg(qz_load(quiz, &z, err, sizeof err) == 0, "%s", err);
    ck_assert(z.graded && z.sealed && !z.q[0].numeric && z.q[1].numeric);
    close(mkstemp(ans));
    close(mkstemp(prog));
    unlink(prog);
    setenv("WB_PROGRESS", prog, 1);
    /* an answer file: nothing about right or wrong, nothing recorded */
    write_text(ans, "1: a\n2: 3352\n4: racecheck\n");
    int rc;
    char *out = captured(qz_cmd_take, quiz, ans, &rc);
    ck_assert_msg(rc == 0 && strstr(out, "3 of 6 questions answered (not answered: 3, 5, 6)"), "rc %d:\n%s", rc, out);
    ck_assert_msg(!strcasestr(out, "right") && !strcasestr(out, "wrong") && !strstr(out, "answer is") &&
                  !strstr(out, "warp is") && !strstr(out, "2.619e9"), "a graded quiz tells:\n%s", out);
    ck_assert_msg(access(prog, F_OK) != 0, "a graded quiz was recorded in the progress file");
    free(out);
    write_text(ans, "1: z\n");
    out = captured(qz_cmd_take, quiz, ans, &rc);
    ck_assert_msg(rc == 2 && strstr(out, ":1: question 1: 'z' is not a choice"), "rc %d:\n%s", rc, out);
    free(out);
    /* in the terminal: asked, not told, and the answers saved to hand in */
    char dir[] = "/tmp/wb-graded-XXXXXX", cwd[1024];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(dir), 0);
    typed_input = "z\na\n3352\n";
    out = captured(take_typed, quiz, NULL, &rc);
    ck_assert_msg(strstr(out, "'z' is not an answer to this question"), "%s", out);
    ck_assert_msg(!strcasestr(out, "right") && !strcasestr(out, "wrong") && !strstr(out, "warp is"),
                  "a graded quiz tells:\n%s", out);
    ck_assert_msg(rc == 0 && strstr(out, "quiz-t0-answers.txt"), "rc %d:\n%s", rc, out);
    text = wb_read_file("quiz-t0-answers.txt", NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, "\n1: a\n2: 3352\n3:\n"), "%s", text);
    free(text), free(out);
    out = captured(take_typed, quiz, NULL, &rc); /* a second time: the first file is kept */
    ck_assert_msg(strstr(out, "quiz-t0-answers-2.txt") && access("quiz-t0-answers.txt", F_OK) == 0, "%s", out);
    free(out);
    ck_assert_int_eq(chdir(cwd), 0);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd, NULL);
    /* grading: refused from the student copy, done from the source */
    char cls[] = "/tmp/wb-class-XXXXXX", csv[] = "/tmp/wb-gradebook-XXXXXX", src[] = "/tmp/wb-source-XXXXXX", p[200];
    ck_assert_ptr_nonnull(mkdtemp(cls));
    close(mkstemp(csv));
    unlink(csv);
    close(mkstemp(src));
    char *q1 = strstr(SRC, "q: 1\n"), *body = NULL;
    ck_assert(asprintf(&body, "%.*sgraded: yes\n%s", (int)(q1 - SRC), SRC, q1) > 0);
    write_text(src, body);
    free(body);
    snprintf(p, sizeof p, "%s/ann.txt", cls);
    write_text(p, "1: b\n2: 3352\n3: 3\n");
    out = captured2_grade(quiz, cls, csv, &rc);
    ck_assert_msg(rc == 2 && strstr(out, "grade with its source"), "rc %d:\n%s", rc, out);
    free(out);
    out = captured2_grade(src, cls, csv, &rc);
    ck_assert_msg(rc == 0 && strstr(out, "ann                      2/6"), "rc %d:\n%s", rc, out);
    free(out);
    snprintf(p, sizeof p, "rm -rf %s %s %s %s %s", cls, csv, src, quiz, ans);
    sh(p, NULL);
    unsetenv("WB_PROGRESS");
    /* a graded quiz whose sealed copy holds keys is refused */
    static qz_quiz w;
    ck_assert_int_eq(qz_parse("title: t\nid: t\npass: 1\ngraded: yes\nq: 1\ntext: x\nchoice: a | 1\nkey: ab:cd\n", "w",
                              &w, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "make quiz-seal"), "%s", err);
}
END_TEST

START_TEST(quiz_files_parse)
{
    const char *names[] = { "preflight", "phase0", "phase1", "phase2", "phase3", "phase4",
                            "phase5", "phase6", "phase7", "phase8" };
    for (int i = 0; i < 10; i++) {
        static qz_quiz z;
        char p[100], err[600];
        snprintf(p, sizeof p, "quizzes/%s.txt", names[i]);
        ck_assert_msg(qz_load(p, &z, err, sizeof err) == 0, "%s", err);
        ck_assert_msg(z.sealed, "%s is not sealed", p);
        ck_assert_msg(strcmp(z.id, names[i]) == 0, "%s: id %s", p, z.id);
        /* 10 to 15 for a phase's core weeks, and one more for each optional track week (phase 6 has 57-61) */
        if (i > 0) ck_assert_msg(z.n >= 10 && z.n <= 20, "%s: %d questions", p, z.n);
    }
}
END_TEST

void add_quiz_tests(Suite *s)
{
    ADD(sha256_vectors);
    ADD(quiz_seal_and_check);
    ADD(quiz_answer_files);
    ADD(quiz_answer_file_problems);
    ADD(quiz_asks_again);
    ADD(quiz_keeps_the_best);
    ADD(quiz_gradebook_columns);
    ADD(quiz_names_a_student_chose);
    ADD(quiz_graded_keeps_its_key);
    ADD(quiz_files_parse);
}
