/* quiz_take.c — part of the quiz program (quiz.h): `take`: the answers from
 * a file, or asked in the terminal; the score recorded in the progress file
 * (the best stays), or, for a graded quiz, the answers kept to hand in. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb_file.h"
#include "wb_progress.h"
#include "quiz.h"

/* Record a passing score (the best one stays). 0, or -1 when the progress
 * file could not take it (the file is left as it was). */
static int qz_record(const qz_quiz *z, int score)
{
    char id[80], fig[32], target[48], err[700];
    snprintf(id, sizeof id, "quiz.%s", z->id);
    snprintf(fig, sizeof fig, "%d/%d", score, z->n);
    snprintf(target, sizeof target, ">= %d/%d", z->pass, z->n);
    if (score < z->pass) {
        printf("Below the pass mark (%s): not recorded. Read the explanations above and take it again.\n", target);
        return 0;
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
            return 0;
        }
        wb_progress_free(&p);
    }
    wb_record r;
    wb_record_set(&r, id, NULL, "-", fig, target);
    if (wb_progress_update(wb_progress_path(), &r, 1, err, sizeof err) == 0)
        printf("Recorded %s %s in %s.\n", id, fig, wb_progress_path());
    else {
        printf("Progress NOT recorded: %s\n>>> Next: fix that (the progress file was left as it was), then take the "
               "quiz again.\n", err);
        return -1;
    }
    return 0;
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

int qz_cmd_take(const char *path, const char *answers)
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
    if (qz_record(&z, score) != 0) return 3;
    return score >= z.pass ? 0 : 1;
}
