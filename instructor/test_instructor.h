/* test_instructor.h — the Check tests of the grading and quiz logic, by
 * area: test_grade.c (the grader, grade.h, and its gradebook) and
 * test_quiz.c (the quizzes, quizzes/quiz.h, and `quiz grade`);
 * test_instructor.c runs them. */
#ifndef TEST_INSTRUCTOR_H
#define TEST_INSTRUCTOR_H

#include <check.h>

/* one case a test: Check reports results by case name (Suite *s in scope) */
#define ADD(t) do { TCase *tc = tcase_create(#t); tcase_set_timeout(tc, 60); tcase_add_test(tc, t); suite_add_tcase(s, tc); } while (0)

/* The tests of each area, added to s in the order they run. */
void add_grade_tests(Suite *s, int have_sandbox);
void add_quiz_tests(Suite *s);

#endif
