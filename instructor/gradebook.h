/* gradebook.h — the class's gradebook, a CSV file: a header row, then a row
 * a student whose first cell is the student's id. Two tools write it and
 * each keeps the other's work:
 *   grade (grade_report.c)       rewrites it from a grading: "student", a
 *                                column a week's checkpoint, total, out_of,
 *                                skipped, seed; then every quiz column kept,
 *                                and the rows of students with quiz marks only;
 *   quiz grade (quiz_class.c)    replaces one quiz's columns, "quiz.ID (of N)"
 *                                and "quiz.ID problems", keeping every other
 *                                column and row.
 * A field holding a comma, a quote or a line break is quoted ("" for a
 * quote); the file is written whole to PATH.tmp, then renamed over PATH.
 */
#ifndef GRADEBOOK_H
#define GRADEBOOK_H

#include <stdio.h>

/* A gradebook in memory: rows x cols cells, row 0 the header; short rows
 * padded with "". */
typedef struct {
    int    rows, cols;
    char **cell;
} gb_table;

#define GB_CELL(t, r, c) ((t)->cell[(size_t)(r) * (size_t)(t)->cols + (size_t)(c)])

/* The gradebook at path: every row and field of it, however many (a quoted
 * field may hold commas, "" and line breaks; a blank line is no row). No file,
 * or an empty one: the header "student" alone. */
void gb_load(const char *path, gb_table *t);
void gb_free(gb_table *t);
/* Add a column (header `name`, empty cells); returns its index. */
int gb_add_col(gb_table *t, const char *name);
/* The row of student `id`, or -1 (gb_find); added, empty, if none (gb_row). */
int gb_find(const gb_table *t, const char *id);
int gb_row(gb_table *t, const char *id);
void gb_set(gb_table *t, int r, int c, const char *v);

/* Is this header a quiz's column ("quiz.ID ...")? */
int gb_is_quiz_col(const char *head);
/* Quiz `id` (of n questions) graded again: its score column "quiz.ID (of N)"
 * found (whatever N it had) or added, headed for n, and emptied; its column
 * "quiz.ID problems", where there is one, emptied (its index in *why_col, else
 * -1). Returns the score column. */
int gb_quiz_cols(gb_table *t, const char *id, int n, int *why_col);
/* The header of quiz id's "problems" column, added when a refused file needs it. */
void gb_quiz_why_name(const char *id, char *out, size_t outsz);

/* Writing, atomically: gb_create opens PATH.tmp (its name in tmp), gb_commit
 * closes it and renames it over path; 0, or -1 with path as it was. */
FILE *gb_create(const char *path, char *tmp, size_t tmpsz);
int gb_commit(FILE *f, const char *tmp, const char *path);
/* One field, quoted where it must be. */
void gb_put(FILE *f, const char *s);
/* Every row of t. */
void gb_write(FILE *f, const gb_table *t);

#endif
