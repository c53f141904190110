#!/usr/bin/env bash
# instructor/tests/slurm.sh — grading through Slurm (SCHEDULER=slurm) on a
# single-node cluster this script starts and stops itself: munged, slurmctld
# and slurmd from Debian's slurm-wlm and munge (installed by .ci/run, never
# here), a slurm.conf written under build/slurm/cluster/, ports of its own.
# Without a GPU (WB_NO_GPU=1, as fixtures.sh), so no --gres:
#   - the fixture class graded locally and through a job array, both judged
#     (make grade's default): the two gradebooks equal cell for cell, the
#     feedback too (less its date line and the build logs it quotes);
#   - graded again: no finished student graded again (no job submitted);
#   - a judged week (04, whose CPU checkpoints the judge forms without a
#     GPU) through a job array: the local judged gradebook cell for cell,
#     and a submission only the judge fails (greedy) fails in its task;
#   - the fault test: one student graded again with its task held RUNNING
#     (WB_GRADE_TASK_HOLD), collected while it runs (PENDING, never 0),
#     cancelled with scancel: the gradebook names it killed with sacct's
#     reason (JobCompType=jobcomp/filetxt, sacct -c), it is re-queued once,
#     and the class completes with the local marks.
# The daemons are stopped whatever happens (trap). Where a daemon cannot
# start, or bubblewrap cannot sandbox here, each check is SKIP with the
# reason, never PASS. The cluster is slurm-lib.sh's.
. "$(dirname "$0")/lib.sh"
t_begin instructor-slurm

L_START="slurm: munged, slurmctld and slurmd started on a single-node cluster"
L_EQUAL="slurm: the fixture class graded through a job array: the local gradebook, cell for cell"
L_AGAIN="slurm: graded again: no finished student is graded again"
L_PEND="slurm: collected while a task runs: its student PENDING, never 0"
L_JUDGED="slurm: a judged week (04) through the job array: each task judges on its node, as a local judged grading"
L_FAULT="slurm: a task cancelled while RUNNING is named killed with sacct's reason, re-queued once, and the class completes"
skip_all() { # reason [labels...]: each SKIP, and the end
  local why=$1 l; shift
  for l in "$@"; do t_skip "$l" "$why"; done
  echo "slurm: SKIP: $why"
  t_end
}

out=$WB_ROOT/$BUILD/slurm
cl=$out/cluster
mkdir -p "$out"
have_libarchive || skip_all "libarchive's headers are missing: apt-get install -y libarchive-dev" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_JUDGED" "$L_PEND" "$L_FAULT"
why=$(mkdir -p "$BUILD" && sandbox_ok "$out") || skip_all "$why" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_JUDGED" "$L_PEND" "$L_FAULT"

# ------------------------------------------------------------ the cluster
. "$(dirname "$0")/slurm-lib.sh"
bg_pid=
stop_all() { [ -n "$bg_pid" ] && kill "$bg_pid" 2>/dev/null; slurm_stop; }
slurm_find || skip_all "$SLURM_WHY" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_JUDGED" "$L_PEND" "$L_FAULT"
trap stop_all EXIT
slurm_start "$cl" 0 || skip_all "$SLURM_WHY" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_JUDGED" "$L_PEND" "$L_FAULT"
echo "slurm: munged, slurmctld and slurmd started (Slurm $(sinfo -V | awk '{print $2}'); node $SLURM_NODE idle after $SLURM_UP_S s; $SLURM_CONF)"
t_pass "$L_START" "node $SLURM_NODE idle after $SLURM_UP_S s"

# ------------------------------------------------------------ the fixture class
class=$out/class
rm -rf "$class" "$out/dupclass" "$out/local" "$out/grade"
mkdir -p "$class" "$out/local" "$out/grade"
chmod 755 "$out" "$out/local" "$out/grade"
cp -R instructor/fixtures/class/. "$class/"
tar -czf "$class/archived.tar.gz" -C instructor/fixtures/archived .
bash instructor/fixtures/hostile.sh "$class" "$out/dupclass" >/dev/null
# the grader's exit status through make (which exits 2 for a recipe's 3): status log
grade_rc() { if [ "$1" = 2 ] && grep -q '\] Error 3$' "$2"; then echo 3; else echo "$1"; fi; }
$MAKE -s "$GRADE_BIN" build/gpu-probe >/dev/null 2>&1
local_gb=$out/local/gradebook.csv
# the fixture class's quota and scratch (mk/instructor.mk: FIXTURE_SCRATCH_ARGS): diskfill passes 256 MiB.
# both gradings with make grade's default, JUDGE=1: week 01 judged locally and in the tasks alike
WB_NO_GPU=1 $MAKE -s grade SUBMISSIONS="$class" WEEKS="$FIXTURE_WEEK" GRADEBOOK="$local_gb" SEED="$SEED" LIMIT=60 \
  JOBS="$JOBS" GPU_SHARE="$GPU_SHARE" DISK_QUOTA=256 KEEP_SCRATCH=1 >"$out/local.log" 2>&1
rc=$(grade_rc $? "$out/local.log")
# the class through Slurm: no GPU here (no --gres), a node of this test's size
gb=$out/grade/gradebook.csv
slurm_grade() { # extra make arguments; the log is $out/$LOGNAME
  WB_NO_GPU=1 $MAKE -s grade SUBMISSIONS="$class" WEEKS="$FIXTURE_WEEK" GRADEBOOK="$gb" SEED="$SEED" LIMIT=60 \
    JOBS="$JOBS" GPU_SHARE="$GPU_SHARE" DISK_QUOTA=256 KEEP_SCRATCH=1 SCHEDULER=slurm GRES= SBATCH="--mem=512M --cpus-per-task=1" SLURM_POLL=1 "$@"
}
ts=$(date +%s)
slurm_grade >"$out/slurm.log" 2>&1
src=$(grade_rc $? "$out/slurm.log")
secs=$(( $(date +%s) - ts ))
job=$(sed -n 's/.*submitted job \([0-9]*\): \([0-9]*\) task.*/\1 (\2 tasks)/p' "$out/slurm.log" | head -n 1)
fb_same=yes
for f in "$out/local/gradebook-feedback"/*.md; do
  g=$out/grade/gradebook-feedback/$(basename "$f")
  # (a build log quoted in a fence names its scratch folder, which differs,
  # and a build stopped mid-way, by the disk quota, ends at another line)
  norm() { grep -v '^Graded ' "$1" 2>/dev/null | sed '/^```$/,/^```$/d'; }
  cmp -s <(norm "$f") <(norm "$g") || { fb_same="no: $(basename "$f") differs"; break; }
done
if [ $rc != 3 ] || [ ! -f "$local_gb" ]; then
  tail -n 20 "$out/local.log"; t_fail "$L_EQUAL" "the local grading failed (exit $rc; see $out/local.log)"
elif [ $src != 3 ] || [ -z "$job" ]; then
  tail -n 20 "$out/slurm.log"; t_fail "$L_EQUAL" "the Slurm grading exited $src (3 expected: no GPU; see $out/slurm.log)"
elif ! cmp -s "$local_gb" "$gb"; then
  diff "$local_gb" "$gb" | head -n 20; t_fail "$L_EQUAL" "the gradebooks differ ($local_gb, $gb)"
elif [ "$fb_same" != yes ]; then
  t_fail "$L_EQUAL" "the feedback differs ($fb_same)"
else
  echo "slurm: job array $job ran: $(($(wc -l <"$gb") - 1)) students graded through Slurm in $secs s"
  echo "slurm: the gradebook compared equal to the local grader's, cell for cell ($(wc -l <"$gb") rows, $(head -n 1 "$gb" | tr ',' '\n' | wc -l) columns), and the feedback"
  t_pass "$L_EQUAL" "job $job, $secs s; $gb"
fi

# ------------------------------------------------------------ graded again
slurm_grade >"$out/again.log" 2>&1
arc=$(grade_rc $? "$out/again.log")
n=$(($(wc -l <"$local_gb") - 1))
if [ $arc = 3 ] && grep -q "through Slurm: 0 to grade, $n graded already" "$out/again.log" && ! grep -q 'submitted job' "$out/again.log" &&
   cmp -s "$local_gb" "$gb"; then
  echo "slurm: graded again: 0 to grade, $n graded already, no job submitted"
  t_pass "$L_AGAIN" "0 to grade, $n graded already; no job; the same gradebook"
else
  tail -n 20 "$out/again.log"; t_fail "$L_AGAIN" "exit $arc; see $out/again.log"
fi

# ------------------------------------------------------------ a judged week
# Week 04's CPU checkpoints are judged through the runner without a GPU (judge_w04.sh): the reference
# and greedy (the reference's checks after 1100 SAXPYs it ignores). Judged, greedy's w04.mytest FAILs,
# past the judge's 1024 SAXPYs a call; linked, it passes. Through Slurm, judged by default, the tasks
# must start the judge on their node: the local judged gradebook, cell for cell, greedy's FAIL with
# the judge's reason, and the tasks' options saying --judge 1.
jc=$out/judged-class
jgb=$out/judged/gradebook.csv
rm -rf "$jc" "$out/judged" "$out/judged-local"
mkdir -p "$jc/correct/phase0/week04" "$out/judged" "$out/judged-local"
chmod 755 "$out/judged" "$out/judged-local"
cp phase0/week04/solution/saxpylib.cu phase0/week04/solution/cli.cu phase0/week04/solution/mytest.cu "$jc/correct/phase0/week04/"
greedy_w04 "$jc/greedy/phase0/week04" || echo "slurm: greedy's mytest.cu was not made"
jgrade() { # GRADEBOOK extra make arguments
  WB_NO_GPU=1 $MAKE -s grade SUBMISSIONS="$jc" WEEKS=phase0/week04 GRADEBOOK="$1" SEED="$SEED" LIMIT=60 \
    JOBS="$JOBS" GPU_SHARE="$GPU_SHARE" DISK_QUOTA=256 KEEP_SCRATCH=1 "${@:2}"
}
jgrade "$out/judged-local/gradebook.csv" >"$out/judged-local.log" 2>&1
jlrc=$(grade_rc $? "$out/judged-local.log")
jgrade "$jgb" SCHEDULER=slurm GRES= SBATCH="--mem=512M --cpus-per-task=1" SLURM_POLL=1 >"$out/judged.log" 2>&1
jsrc=$(grade_rc $? "$out/judged.log")
# the ten checkpoints in week.txt's order: saxpy dot cli-args cli saxpy-bw mytest mytest-lib mybench-csv mybench dot-bw
greedy=$(awk -F, '$1 == "greedy" { print $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 "," $10 "," $11 }' "$jgb" 2>/dev/null)
if ! grep -q 'phase0/week04' "$out/judged-local/gradebook.csv" 2>/dev/null || [ $jlrc != 3 ]; then
  tail -n 20 "$out/judged-local.log"; t_fail "$L_JUDGED" "the local judged grading failed (exit $jlrc; see $out/judged-local.log)"
elif [ $jsrc != 3 ] || ! grep -q 'submitted job' "$out/judged.log"; then
  tail -n 20 "$out/judged.log"; t_fail "$L_JUDGED" "the Slurm grading exited $jsrc (3 expected: no GPU; see $out/judged.log)"
elif ! cmp -s "$out/judged-local/gradebook.csv" "$jgb"; then
  diff "$out/judged-local/gradebook.csv" "$jgb" | head -n 10; t_fail "$L_JUDGED" "the gradebooks differ"
elif [ "$greedy" != "SKIP,SKIP,10.00,SKIP,SKIP,0.00,SKIP,10.00,SKIP,SKIP" ] ||
     ! grep -q "w04.mytest.*your checks asked the judge for more than 1024 SAXPYs in one mt_check_saxpy call" "$out/judged/gradebook-feedback/greedy.md"; then
  t_fail "$L_JUDGED" "greedy: $greedy, expected w04.mytest 0.00 with the judge's reason (see $out/judged/gradebook-feedback/greedy.md)"
elif ! grep -q "^judge calibration: not run on this host (SCHEDULER=slurm" "$out/judged.log" ||
     grep -q "every GPU checkpoint is SKIP" "$out/judged.log" ||
     ! grep -q "^judge calibration: w04.saxpy-bw not run" "$out/judged-local.log"; then
  # the submitting host's GPU (a login node's, often none) is not the tasks': it calibrates nothing there
  t_fail "$L_JUDGED" "the calibration was run on the submitting host of a Slurm grading, or not run locally (see $out/judged.log, $out/judged-local.log)"
elif ! grep -qx -- '--judge' "$out/judged/gradebook-slurm/args" || [ "$(grep -x -A1 -- '--judge' "$out/judged/gradebook-slurm/args" | tail -n 1)" != 1 ] ||
     ! grep -q "phase0/week04: judged outside the student's process" "$out/judged/gradebook-slurm/logs/"*.out; then
  t_fail "$L_JUDGED" "the tasks' options ($out/judged/gradebook-slurm/args) or logs do not say they judged"
else
  echo "slurm: week 04 judged in the tasks: the local judged gradebook, cell for cell; greedy $greedy"
  t_pass "$L_JUDGED" "greedy's w04.mytest 0.00, past the judge's 1024 SAXPYs, in a task"
fi

# ------------------------------------------------------------ the fault test
# `correct` graded again (REGRADE), its task held RUNNING until the file goes
hold=$out/hold
touch "$hold"
WB_GRADE_TASK_HOLD=$hold slurm_grade REGRADE=correct >"$out/fault.log" 2>&1 &
bg_pid=$!
task=
for i in $(seq 600); do
  task=$(squeue -h -r -o '%i %T' 2>/dev/null | awk '$2 == "RUNNING" {print $1; exit}')
  [ -n "$task" ] && break
  kill -0 $bg_pid 2>/dev/null || break
  sleep 0.5
done
if [ -z "$task" ]; then
  rm -f "$hold"; wait $bg_pid; bg_pid=
  tail -n 20 "$out/fault.log"
  t_fail "$L_PEND" "no task of the grading ran (see $out/fault.log)"
  t_fail "$L_FAULT" "no task of the grading ran (see $out/fault.log)"
else
  # collected while it runs
  $MAKE -s grade-collect GRADEBOOK="$gb" >"$out/collect.log" 2>&1
  crc=$(grade_rc $? "$out/collect.log")
  row=$(grep '^correct,' "$gb")
  if [ $crc = 3 ] && [[ "$row" == correct,PENDING,PENDING,PENDING,PENDING,40,,"$SEED","task $task running on "* ]] &&
     [ "$(grep -c ',PENDING,' "$gb")" = 1 ] && cmp -s <(grep -v '^correct,' "$local_gb") <(grep -v '^correct,' "$gb" | cut -d, -f1-8); then
    echo "slurm: collected while task $task runs: $row"
    t_pass "$L_PEND" "$row"
  else
    cat "$out/collect.log"; t_fail "$L_PEND" "exit $crc; its row: $row"
  fi
  # killed while RUNNING: the waiting grader finds why (sacct) and re-queues it, once
  scancel "$task"
  for i in $(seq 120); do grep -q 're-queued as' "$out/fault.log" && break; sleep 0.5; done
  rm -f "$hold"
  for i in $(seq 600); do kill -0 $bg_pid 2>/dev/null || break; sleep 0.5; done
  kill -0 $bg_pid 2>/dev/null && { kill $bg_pid; echo "slurm: the grading did not end within 5 minutes"; }
  wait $bg_pid
  frc=$(grade_rc $? "$out/fault.log")
  bg_pid=
  row=$(grep '^correct,' "$gb")
  requeued=$(sed -n 's/.*ended without a result (\(.*\)): re-queued as \([0-9_]*\).*/\1 -> \2/p' "$out/fault.log" | head -n 1)
  if [ $frc = 3 ] && [ -n "$requeued" ] && cmp -s "$local_gb" <(cut -d, -f1-8 "$gb") &&
     [[ "$row" == *"task $task killed: CANCELLED"*"re-queued as "*", which graded it"* ]] &&
     grep -q "task $task killed: CANCELLED" "$out/grade/gradebook-feedback/correct.md" &&
     ! grep -q 'PENDING\|KILLED' "$gb"; then
    echo "slurm: fault test: task $task cancelled while RUNNING; ${requeued}; the class completed: $row"
    t_pass "$L_FAULT" "$row"
  else
    tail -n 30 "$out/fault.log"; t_fail "$L_FAULT" "exit $frc; its row: $row; see $out/fault.log"
  fi
fi
stop_all
trap - EXIT
echo "slurm: munged, slurmctld and slurmd stopped"
t_end
