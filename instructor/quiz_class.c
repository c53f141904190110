/* quiz_class.c — `quiz grade QUIZ DIR GRADEBOOK` (make grade-quiz): a
 * class's answer files graded into the gradebook (gradebook.h). Instructors
 * only: linked into the quiz program (quizzes/quiz.c, built with QUIZ_GRADE)
 * where instructor/ is; the student copy's quiz has no `grade`. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_file.h"
#include "gradebook.h"
#include "names.h"
#include "quiz.h"

/* Grade a class into the gradebook: this quiz's column ("quiz.ID (of N)") is
 * replaced as a whole (a student without an answer file now is blank in it),
 * and so is "quiz.ID problems"; every other column and row is kept. */
int qz_cmd_grade(const char *path, const char *dir, const char *gradebook)
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
    gb_table t;
    gb_load(gradebook, &t);
    /* a class already in the gradebook: an answer file of someone not in it
     * (a misspelt id, another section's file) is graded, but named */
    int had_rows = t.rows > 1, added = 0, skipped = 0;
    int why_col, refused = 0, col = gb_quiz_cols(&t, z.id, z.n, &why_col);
    char col_name[128], why_name[128];
    snprintf(col_name, sizeof col_name, "%s", GB_CELL(&t, 0, col));
    gb_quiz_why_name(z.id, why_name, sizeof why_name);
    printf("%s: %d answer file%s in %s\n", z.title, n, n == 1 ? "" : "s", dir);
    for (int i = 0; i < n; i++) {
        char p[1400], id[256], shown[1100];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        up_escape(names[i], shown, sizeof shown);
        /* ID.txt only, and an ID that can be one (names.h): anything else is
         * named, escaped, and skipped; never a row, never a second file for one id */
        size_t len = strlen(names[i]);
        if (len <= 4 || strcmp(names[i] + len - 4, ".txt") != 0 || len - 4 >= sizeof id || !up_id_ok(names[i], len - 4)) {
            printf("  skipped: '%s' is not an answer file STUDENT.txt (letters, digits and ._-+@ in STUDENT, none of "
                   "- + @ first): rename it and grade again\n", shown);
            skipped++;
            free(names[i]);
            continue;
        }
        snprintf(id, sizeof id, "%.*s", (int)(len - 4), names[i]);
        char *text = wb_read_file(p, NULL);
        if (!text) {
            printf("  %-24s skipped: %s: %s\n", id, shown, strerror(errno));
            skipped++;
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
                char esc[4100]; /* a problem quotes the answer file: escaped for the terminal and the gradebook */
                up_escape(l, esc, sizeof esc);
                printf("      %s\n", esc);
                qz_append(joined, sizeof joined, "; ", esc);
            }
            refused++;
            if (why_col < 0) why_col = gb_add_col(&t, why_name);
        } else printf("  %-24s %d/%d%s\n", id, score, z.n, score >= z.pass ? "" : "  (below the pass mark)");
        int known = gb_find(&t, id) > 0;
        int r = gb_row(&t, id);
        if (had_rows && !known) {
            printf("      (%s is not in %s yet: added as a new row; if that is a misspelt id, rename the file and "
                   "grade again)\n", id, gradebook);
            added++;
        }
        char v[32];
        snprintf(v, sizeof v, bad ? "REFUSED" : "%d", score);
        gb_set(&t, r, col, v);
        if (bad) gb_set(&t, r, why_col, joined);
        free(names[i]);
    }
    char tmp[1200];
    FILE *f = gb_create(gradebook, tmp, sizeof tmp);
    if (!f) return fprintf(stderr, "cannot write %s\n", tmp), 2;
    gb_write(f, &t);
    if (gb_commit(f, tmp, gradebook) != 0) return fprintf(stderr, "cannot write %s\n", gradebook), 2;
    gb_free(&t);
    printf("Gradebook: %s (column \"%s\")\n", gradebook, col_name);
    if (added)
        printf("%d student%s added to the gradebook as new row%s (named above).\n", added, added == 1 ? "" : "s",
               added == 1 ? "" : "s");
    if (skipped)
        printf("%d file%s skipped (above): not in the gradebook.\n", skipped, skipped == 1 ? "" : "s");
    if (refused)
        printf("%d answer file%s REFUSED (above): %s score says REFUSED and \"%s\" says why; fix and grade again.\n",
               refused, refused == 1 ? "" : "s", refused == 1 ? "its" : "their", why_name);
    return 0;
}
