#!/usr/bin/env bash
# instructor/tests/fixtures.sh — the fixture classes graded without a GPU
# (WB_NO_GPU=1: every GPU checkpoint SKIP, grade exits 3), each gradebook
# checked by its instructor/tests/check_*.sh:
#   - class 1, week 01 (make grade-fixtures): sandboxed, object check, compile error;
#   - class 2, weeks 07 and 22 (make grade-fixtures2): CUB, its wrapper and cuBLAS refused;
#   - week 43's Python class (make grade-fixtures-py), where python3 can run in the sandbox;
#   - the class of 30 (make grade-class30) is made: 30 students, each with its code;
#   - one student twice (dup/ and dup.tar.gz) and a name that is no id refuse
#     those students, not the class;
#   - an exercise file missing from a submission is the derived starter, not
#     the instructor's working copy, and nothing untracked reaches scratch;
#   - without --keep-scratch the scratch copies are gone once the gradebook is written.
. "$(dirname "$0")/lib.sh"
t_begin instructor-fixtures

log=$BUILD/instructor
mkdir -p "$log"
sb=yes
have_libarchive || sb=
if [ -n "$sb" ] && ! why=$(mkdir -p "$BUILD" && sandbox_ok "$PWD/$BUILD"); then
  sb=
  # a host problem, not the grader's: each class is SKIP with the reason
  for l in "grade: fixture class without a GPU" "grade: fixture class of weeks 07 and 22 without a GPU" \
           "grade: Python fixture class of week 43 without a GPU" "grade: bad submissions refused, the class graded" \
           "grade: a missing exercise file is the derived starter"; do
    t_skip "$l" "$why"
  done
fi

if [ -n "$sb" ]; then
  if WB_NO_GPU=1 $MAKE -s grade-fixtures LIMIT=60 GRADE_OK_RC=3 GPU_SHARE=4 >"$log/fixtures.log" 2>&1 &&
     grep -q '^grade: INCOMPLETE: .* checkpoints could not run' "$log/fixtures.log" &&
     ! LC_ALL=C grep -q "$(printf '\033')" "$log/fixtures.log" &&
     bash instructor/tests/check_fixture_gradebook.sh "$BUILD/instructor/fixtures/gradebook.csv" nogpu >>"$log/fixtures.log" 2>&1; then
    t_pass "grade: fixture class without a GPU (sandboxed; SKIP and exit 3, object check, compile error, no raw escape printed)"
  else
    tail -n 20 "$log/fixtures.log"; t_fail "grade: fixture class without a GPU" "see $log/fixtures.log"
  fi

  if WB_NO_GPU=1 $MAKE -s grade-fixtures2 LIMIT=60 GRADE_OK_RC=3 >"$log/fixtures2.log" 2>&1 &&
     bash instructor/tests/check_fixture_gradebook2.sh "$BUILD/instructor/fixtures2/gradebook.csv" nogpu >>"$log/fixtures2.log" 2>&1; then
    t_pass "grade: fixture class of weeks 07 and 22 without a GPU (CUB, its wrapper and cuBLAS refused)"
  else
    tail -n 20 "$log/fixtures2.log"; t_fail "grade: fixture class of weeks 07 and 22 without a GPU" "see $log/fixtures2.log"
  fi

  py="grade: Python fixture class of week 43 without a GPU"
  if ! command -v python3 >/dev/null; then
    t_skip "$py" "python3 not installed"
  elif WB_NO_GPU=1 $MAKE -s grade-fixtures-py LIMIT=60 PYFX_MODE=nogpu >"$log/fixturespy.log" 2>&1; then
    t_pass "$py (every Python checkpoint SKIP, exit 3)"
  elif grep -q 'a graded week has Python checkpoints, and .*sandbox' "$log/fixturespy.log" && [ -x /usr/bin/python3 ] &&
       PATH=/usr/bin:$PATH WB_NO_GPU=1 $MAKE -s grade-fixtures-py LIMIT=60 PYFX_MODE=nogpu >"$log/fixturespy-usr.log" 2>&1; then
    t_pass "$py (every Python checkpoint SKIP, exit 3)" "with /usr/bin/python3: the python3 on PATH cannot run in the sandbox"
  elif why=$(grep -m1 -o 'a graded week has Python checkpoints, and .*sandbox.*' "$log/fixturespy.log"); then
    t_skip "$py" "this host's python3 cannot run in the sandbox ($why)"
  else
    tail -n 20 "$log/fixturespy.log"; t_fail "$py" "see $log/fixturespy.log"
  fi
fi

c=$BUILD/instructor/class30-made
rm -rf "$c"
if bash instructor/fixtures/class30.sh "$c/class" >"$c.log" 2>&1 && [ "$(ls "$c/class" | wc -l)" = 30 ] &&
   [ "$(ls "$c"/class/*/phase0/week01/vecadd.cu | wc -l)" = 30 ] && bash -n instructor/tests/check_class30.sh; then
  t_pass "grade: the class of 30 (make grade-class30) is made: 30 students, each with its code"
else
  cat "$c.log"; t_fail "grade: the class of 30 is made" "see $c.log"
fi

if [ -n "$sb" ]; then
  fx=$BUILD/instructor/fixtures
  if [ ! -d "$fx/dupclass/dup" ] || [ ! -f "$fx/dupclass/dup.tar.gz" ]; then
    t_fail "grade: bad submissions refused, the class graded" "no $fx/dupclass (made by grade-fixtures)"
  else
    rm -rf "$fx/dup"
    WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$fx/dupclass" --weeks "$FIXTURE_WEEK" \
      --gradebook "$fx/dup/gradebook.csv" --scratch "$fx/dup/scratch" --seed "$SEED" --limit 60 \
      --jobs "$JOBS" --gpu-share "$GPU_SHARE" $(grade_make_args) >"$log/dupclass.log" 2>&1
    rc=$?
    # exit 3 (no GPU: fine's checkpoints SKIP); with a GPU it is 4, refused students and a complete gradebook
    if [ $rc = 3 ] && bash instructor/tests/check_fixture_gradebook_dup.sh "$fx/dup/gradebook.csv" >>"$log/dupclass.log" 2>&1 &&
       grep -q "not the exercise's API" "$log/dupclass.log" && ! LC_ALL=C grep -q $'\x1b' "$log/dupclass.log" &&
       grep -q "^grade: 3 submissions refused by the class listing" "$log/dupclass.log"; then
      t_pass "grade: bad submissions refused, the class graded (dup/ and dup.tar.gz, 'bad name.tar.gz', '+1+1.tar.gz': 0 with the reason; termobj's escape-named symbol refused, escaped on the terminal; fine graded)"
    else
      cat "$log/dupclass.log"; t_fail "grade: bad submissions refused, the class graded" "exit $rc; see $log/dupclass.log"
    fi
  fi

  # the grader's own default: scratch removed after the gradebook (KEEP_SCRATCH=1 keeps it)
  one=$BUILD/instructor/fixtures-one
  rm -rf "$one" && mkdir -p "$one/class" && chmod 755 "$one" && cp -R instructor/fixtures/class/correct "$one/class/"
  WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$one/class" --weeks "$FIXTURE_WEEK" --gradebook "$one/gradebook.csv" \
    --scratch "$one/scratch" --seed "$SEED" --limit 60 --jobs "$JOBS" --gpu-share "$GPU_SHARE" $(grade_make_args) \
    >"$log/scratch-removed.log" 2>&1
  rc=$?
  if [ $rc = 3 ] && grep -q '^correct,' "$one/gradebook.csv" && [ ! -e "$one/scratch/correct" ] &&
     grep -q '^Scratch copies removed' "$log/scratch-removed.log"; then
    t_pass "grade: the scratch copies are removed once the gradebook is written (no --keep-scratch)"
  else
    tail -n 20 "$log/scratch-removed.log"; t_fail "grade: the scratch copies are removed after grading" "exit $rc; see $log/scratch-removed.log"
  fi
  # The instructor's working tree, solving the week: devquery.cu edited so it
  # does not compile, an untracked week.mk that stops any make reading it, a
  # *.bak. A submission without devquery.cu must build (the derived starter),
  # and nothing untracked may reach its scratch copy.
  st=$BUILD/instructor/starterfx
  rm -rf "$st" && mkdir -p "$st/root" "$st/class/partial/phase0/week01" && chmod 755 "$st"
  cp instructor/fixtures/class/correct/phase0/week01/vecadd.cu "$st/class/partial/phase0/week01/"
  if git ls-files -z -- Makefile mk common tools instructor/weeks/phase0 phase0/week01 | tar --null -T - -cf - | tar -C "$st/root" -xf - &&
     git -C "$st/root" init -q && git -C "$st/root" add -A && git -C "$st/root" -c user.name=wb -c user.email=wb@localhost commit -qm fixture &&
     ln -s "$PWD/$BUILD" "$st/root/build" &&
     echo '#error "the instructor working copy of devquery.cu"' >>"$st/root/phase0/week01/devquery.cu" &&
     echo '$(error an untracked week.mk of the instructor was copied)' >"$st/root/phase0/week01/week.mk" &&
     echo 'instructor notes' >"$st/root/phase0/week01/devquery.cu.bak"; then
    WB_NO_GPU=1 "$GRADE_BIN" --root "$st/root" --submissions "$st/class" --weeks "$FIXTURE_WEEK" \
      --gradebook "$st/gradebook.csv" --scratch "$st/scratch" --keep-scratch 1 --seed "$SEED" --limit 60 \
      --jobs "$JOBS" --gpu-share "$GPU_SHARE" $(grade_make_args) >"$log/starterfx.log" 2>&1
    rc=$?
    sc=$st/scratch/partial/wb/phase0/week01
    if [ $rc = 3 ] && bash instructor/tests/check_fixture_gradebook_starter.sh "$st/gradebook.csv" >>"$log/starterfx.log" 2>&1 &&
       [ -d "$sc" ] && [ ! -e "$sc/week.mk" ] && [ ! -e "$sc/devquery.cu.bak" ] &&
       build/wb strip phase0/week01/solution/devquery.cu | cmp -s - "$sc/devquery.cu"; then
      t_pass "grade: a missing exercise file is the derived starter, not the instructor's working copy; nothing untracked copied"
    else
      cat "$log/starterfx.log"; t_fail "grade: a missing exercise file is the derived starter" "exit $rc; see $log/starterfx.log"
    fi
  else
    t_fail "grade: a missing exercise file is the derived starter" "could not make the instructor's tree in $st"
  fi
fi
t_end
