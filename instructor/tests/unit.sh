#!/usr/bin/env bash
# instructor/tests/unit.sh — the Check tests of the grading and quiz logic
# (instructor/test_instructor.c): one ledger line a test, from WB_UNIT_TSV.
. "$(dirname "$0")/lib.sh"
t_begin instructor-unit

if ! have_libarchive; then
  for l in "instructor unit tests (grade.c, quiz.c)" "sandbox, unpack, objcheck: module tests" "grade: fixture class without a GPU"; do
    t_skip "$l" "libarchive's headers are missing: apt-get install -y libarchive-dev"
  done
  t_end
fi
bin=$BUILD/instructor/test_instructor
mkdir -p "$BUILD/instructor"
# (forbidden_libraries reads week 01's API from its starter objects: built
# here, so a run of make test TEST_WEEKS= that leaves week 01 out has them)
if ! $MAKE -s "$bin" "$BUILD/phase0/week01/starter/test" >"$BUILD/instructor/unit-build.log" 2>&1; then
  cat "$BUILD/instructor/unit-build.log"
  t_fail "instructor unit tests (grade.c, quiz.c)" "they do not build (log above)"
  t_end
fi
rm -f "$BUILD/instructor/unit.tsv"
WB_UNIT_TSV=$BUILD/instructor/unit.tsv "$bin" >"$BUILD/instructor/unit.log" 2>&1
tail -n 3 "$BUILD/instructor/unit.log"
t_tsv "$BUILD/instructor/unit.tsv"
t_end
