/* names.h — what the grading tools do with a name a student chose (an
 * upload's file name, an answer file's, a symbol in an object): no libarchive,
 * no CUDA, so the quiz grader links it as well as the grader. */
#ifndef WB_NAMES_H
#define WB_NAMES_H

#include <stddef.h>

/* `in` as printable ASCII for a terminal, a log or a feedback file: a
 * backslash doubled, any other byte outside 0x20-0x7e (control characters,
 * escape sequences, newlines, bytes of UTF-8) as \xNN. Cut to outsz, never
 * inside an escape; NULL gives "". Every name from a submission goes through
 * it before it is printed or written. */
void up_escape(const char *in, char *out, size_t outsz);

/* 1 when the n characters at s can be a student's id: letters, digits and
 * ._-+@ only (ids end up in file names, feedback and the gradebook), none
 * of - + @ first (a spreadsheet would read the gradebook's cell as a
 * formula), not empty, no dot first (a hidden file). */
int up_id_ok(const char *s, size_t n);

#endif
