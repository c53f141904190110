#!/usr/bin/env bash
# instructor/tests/quizzes.sh — every quiz's sealed copy in quizzes/ is up to
# date with its source in instructor/quizzes/ (make quiz-seal writes them).
. "$(dirname "$0")/lib.sh"
t_begin instructor-quizzes

quiz=$BUILD/quizzes/quiz
$MAKE -s "$quiz" >/dev/null || { t_fail "quiz program builds" "make $quiz"; t_end; }
for s in instructor/quizzes/*.txt; do
  if "$quiz" verify "$s" "quizzes/$(basename "$s")" >/dev/null; then t_pass "quiz $(basename "$s") sealed, up to date"
  else t_fail "quiz $(basename "$s") sealed, up to date" "run make quiz-seal"; fi
done
t_end
