#!/usr/bin/env bash
# instructor/tests/grade_cudnn.sh — cuDNN's headers reach the sandboxed
# builds (weeks 17, 30, 34-38 include cudnn.h). The instructor's make finds
# them (mk/needs-cudnn.mk) and `make grade` hands the folder to the grader
# (`--make-arg CUDNN_INCLUDE=DIR`), which passes it to every build and shows
# it read-only in the sandbox: inside, the build cannot look for them
# itself where they are a Python package's (its PATH and environment are
# the grader's; on an H200 host with cuDNN only in torch's package, week
# 30's reference scored 0 in every cell, "cuDNN's headers (cudnn.h) were
# not found"). Here a copy of the headers in a folder of its own under
# $TMPDIR: week 30's class of two (the reference's files, the starter)
# graded without a GPU builds (the reference's w30.online-cpu full marks,
# the starter's 0); the same folder closed to the sandbox's user (mode
# 0700) and the grader refuses the class before building, naming it: the
# folder is one the sandbox shows. SKIP where this machine has no cudnn.h.
. "$(dirname "$0")/lib.sh"
t_begin instructor-grade-cudnn

label="cuDNN's headers from a folder of their own reach the sandboxed builds"
grading_or_skip "$label"
inc=$($MAKE -s --no-print-directory --eval 'build/.cudnn-inc: ; @echo $(CUDNN_INCLUDE)' build/.cudnn-inc)
if [ -z "$inc" ] || [ ! -f "$inc/cudnn.h" ]; then t_skip "$label" "cuDNN's headers are not on this machine"; t_end; fi
log=$BUILD/instructor/grade-cudnn-test
w=phase6/week30
judge_class "$log" $w $w/solution/*.cu
if ! $MAKE -s "$GRADE_BIN" "$BUILD/$w/starter/test" >"$log/build.log" 2>&1; then
  t_fail "$label" "the grader or week 30 does not build (see $log/build.log)"; t_end
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wb-cudnn-XXXXXX")
mkdir -p "$tmp/include" && cp "$inc"/cudnn*.h "$tmp/include/" && chmod -R a+rX "$tmp"
args=$(grade_make_args | sed "s|CUDNN_INCLUDE=[^ ]*|CUDNN_INCLUDE=$tmp/include|")
bad=
case "$args" in *"CUDNN_INCLUDE=$tmp/include"*) ;; *) bad="make grade does not pass CUDNN_INCLUDE ($args);" ;; esac
grade_once() {
  # shellcheck disable=SC2086
  WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$log/class" --weeks $w --gradebook "$log/$1.csv" --seed "$SEED" \
    --limit 60 --jobs 2 --scratch "$log/scratch/linked" --keep-scratch 1 $args >"$log/$1.log" 2>&1
}
grade_once open
got=$(awk -F, '$1 == "correct" || $1 == "starter" { printf "%s=%s ", $1, $2 }' "$log/open.csv" 2>/dev/null)
[ "$got" = "correct=10.00 starter=0.00 " ] || bad="$bad w30.online-cpu: ${got:-no gradebook}, expected correct=10.00 starter=0.00 (see $log/open.log);"
grep -q "cuDNN's headers" "$log"/scratch/linked/*/build-*.log 2>/dev/null && bad="$bad a build did not find cuDNN's headers;"
chmod 700 "$tmp"
grade_once closed
rc=$?
[ $rc = 2 ] && grep -q "refusing to grade.*$tmp" "$log/closed.log" ||
  bad="$bad with the folder closed to the sandbox's user the grader exited $rc, not refusing it by name (see $log/closed.log);"
rm -rf "$tmp"
if [ -z "$bad" ]; then t_pass "$label" "week 30 built and graded (w30.online-cpu 10.00 and 0.00); the folder closed, the class refused by name"
else t_fail "$label" "$bad"; fi
t_end
