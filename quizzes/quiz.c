/* quiz.c — the workbook's checkpoint quizzes.
 *
 *   quiz take QUIZ [ANSWERS]        grade an answer file (or ask, when stdin is a terminal:
 *                                   an answer the question cannot take is asked for again)
 *                                   and record quiz.ID in the progress file when it passes
 *                                   and beats the score recorded there (the best stays)
 *   quiz grade QUIZ DIR GRADEBOOK   grade a class's answer files (DIR/STUDENT.txt) into a CSV:
 *                                   its column quiz.ID is added, or replaced as a whole when
 *                                   grading again; every other column and row is kept. QUIZ
 *                                   is the sealed quiz or its source (a graded quiz: the source).
 *                                   Instructors only: instructor/quiz_class.c, built in where
 *                                   instructor/ is (QUIZ_GRADE)
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
#include <stdio.h>
#include <string.h>

#include "quiz.h"

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";
    if (strcmp(cmd, "take") == 0 && (argc == 3 || argc == 4)) return qz_cmd_take(argv[2], argc == 4 ? argv[3] : NULL);
#ifdef QUIZ_GRADE
    if (strcmp(cmd, "grade") == 0 && argc == 5) return qz_cmd_grade(argv[2], argv[3], argv[4]);
#endif
    if (strcmp(cmd, "seal") == 0 && argc == 4) return qz_cmd_seal(argv[2], argv[3]);
    if (strcmp(cmd, "verify") == 0 && argc == 4) return qz_cmd_verify(argv[2], argv[3]);
#ifdef QUIZ_GRADE
    fprintf(stderr, "usage: quiz take QUIZ [ANSWERS] | grade QUIZ DIR GRADEBOOK | seal SOURCE OUT | verify SOURCE QUIZ\n");
#else
    fprintf(stderr, "usage: quiz take QUIZ [ANSWERS] | seal SOURCE OUT | verify SOURCE QUIZ\n");
#endif
    return 2;
}
