#!/usr/bin/env bash
# instructor/tests/slurm.sh — grading through Slurm (SCHEDULER=slurm) on a
# single-node cluster this script starts and stops itself: munged, slurmctld
# and slurmd from Debian's slurm-wlm and munge (installed by .ci/run, never
# here), a slurm.conf written under build/slurm/cluster/, ports of its own.
# Without a GPU (WB_NO_GPU=1, as fixtures.sh), so no --gres:
#   - the fixture class graded locally and through a job array: the two
#     gradebooks equal cell for cell, the feedback too (less its date line);
#   - graded again: no finished student graded again (no job submitted);
#   - the fault test: one student graded again with its task held RUNNING
#     (WB_GRADE_TASK_HOLD), collected while it runs (PENDING, never 0),
#     cancelled with scancel: the gradebook names it killed with sacct's
#     reason (JobCompType=jobcomp/filetxt, sacct -c), it is re-queued once,
#     and the class completes with the local marks.
# The daemons are stopped whatever happens (trap). Where a daemon cannot
# start, or bubblewrap cannot sandbox here, each check is SKIP with the
# reason, never PASS.
. "$(dirname "$0")/lib.sh"
t_begin instructor-slurm

L_START="slurm: munged, slurmctld and slurmd started on a single-node cluster"
L_EQUAL="slurm: the fixture class graded through a job array: the local gradebook, cell for cell"
L_AGAIN="slurm: graded again: no finished student is graded again"
L_PEND="slurm: collected while a task runs: its student PENDING, never 0"
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
have_libarchive || skip_all "libarchive's headers are missing: apt-get install -y libarchive-dev" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_PEND" "$L_FAULT"
why=$(mkdir -p "$BUILD" && sandbox_ok "$out") || skip_all "$why" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_PEND" "$L_FAULT"

# ------------------------------------------------------------ the cluster
PATH=$PATH:/usr/sbin:/sbin
missing=
for c in munged slurmctld slurmd sbatch squeue scancel sacct sinfo; do command -v $c >/dev/null || missing="$missing $c"; done
[ -z "$missing" ] || skip_all "not installed:$missing (apt-get install -y slurm-wlm munge; .ci/run does)" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_PEND" "$L_FAULT"
[ "$(id -u)" = 0 ] || skip_all "slurmd and munged's folder need root (here uid $(id -u))" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_PEND" "$L_FAULT"
id munge >/dev/null 2>&1 || skip_all "no munge user (the munge package makes it)" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_PEND" "$L_FAULT"

bg_pid=
# the daemons this script started, by their pid files (a pid only while it is still that daemon)
ours() { local p; p=$(cat "$cl/$1.pid" 2>/dev/null) && [ -n "$p" ] && [ "$(cat /proc/$p/comm 2>/dev/null)" = "${1#*/}" ] && echo "$p"; }
stop_cluster() {
  [ -n "$bg_pid" ] && kill "$bg_pid" 2>/dev/null
  local d p k
  # this cluster's jobs first (SLURM_CONF is this script's), so no task outlives its slurmd
  [ -n "$(ours slurmctld)" ] && SLURM_CONF=$cl/slurm.conf scancel -u "$(id -un)" 2>/dev/null && sleep 1
  for k in 1 2; do
    for d in slurmd slurmctld munge/munged; do
      p=$(ours $d) || continue
      [ $k = 1 ] && kill "$p" 2>/dev/null || kill -9 "$p" 2>/dev/null
    done
    [ $k = 1 ] && for i in $(seq 20); do [ -z "$(ours slurmd)$(ours slurmctld)$(ours munge/munged)" ] && break; sleep 0.25; done
  done
  rm -f "$sock" "$sock.lock"
}
# a stale cluster of an earlier run of this script (its pid files) goes first
[ -d "$cl" ] && { sock=$(cat "$cl/socket" 2>/dev/null || echo /nonexistent); stop_cluster; }
rm -rf "$cl"
mkdir -p "$cl"/{state,spool,log,munge}
# munged as its own user, as systemd would run it: /run/munge its own, a key of this cluster's
mkdir -p /run/munge && chown munge:munge /run/munge && chmod 755 /run/munge
sock=/run/munge/wb-test-$$.socket
echo "$sock" >"$cl/socket"
dd if=/dev/urandom of="$cl/munge/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$cl/munge" && chmod 700 "$cl/munge" && chmod 400 "$cl/munge/munge.key"
as_munge() { if command -v runuser >/dev/null; then runuser -u munge -- "$@"; else su -s /bin/sh munge -c "$(printf '%q ' "$@")"; fi; }
trap stop_cluster EXIT
t0=$(date +%s.%N)
if ! as_munge munged --socket="$sock" --key-file="$cl/munge/munge.key" --pid-file="$cl/munge/munged.pid" \
     --log-file="$cl/munge/munged.log" --seed-file="$cl/munge/seed" >"$cl/log/munged.out" 2>&1; then
  skip_all "munged did not start: $(tail -n 1 "$cl/log/munged.out")" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_PEND" "$L_FAULT"
fi
# two ports nothing listens on
free_port() { local p; for p in $(shuf -i 20000-40000 -n 40); do (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo $p; return; }; done; echo 6817; }
ctld_port=$(free_port); d_port=$(free_port); [ "$d_port" = "$ctld_port" ] && d_port=$((ctld_port + 1))
node_line=$(slurmd -C 2>/dev/null | head -n 1)
node=$(echo "$node_line" | sed -n 's/^NodeName=\([^ ]*\).*/\1/p')
[ -n "$node" ] || skip_all "slurmd -C does not describe this host: $(slurmd -C 2>&1 | head -n 1)" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_PEND" "$L_FAULT"
cat >"$cl/slurm.conf" <<EOF
# A single-node cluster for instructor/tests/slurm.sh (written by it; no GPU, no database)
ClusterName=wbtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock,cred_expire=10
StateSaveLocation=$cl/state
SlurmdSpoolDir=$cl/spool
SlurmctldPidFile=$cl/slurmctld.pid
SlurmdPidFile=$cl/slurmd.pid
SlurmctldLogFile=$cl/log/slurmctld.log
SlurmdLogFile=$cl/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$cl/jobcomp.txt
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SchedulerType=sched/backfill
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=wbtest Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$cl/slurm.conf
slurmctld -f "$SLURM_CONF" >"$cl/log/slurmctld.out" 2>&1 ||
  skip_all "slurmctld did not start: $(tail -n 1 "$cl/log/slurmctld.out") $(grep -m1 -i 'fatal' "$cl/log/slurmctld.log" 2>/dev/null)" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_PEND" "$L_FAULT"
slurmd -f "$SLURM_CONF" -N "$node" >"$cl/log/slurmd.out" 2>&1 ||
  skip_all "slurmd did not start: $(tail -n 1 "$cl/log/slurmd.out") $(grep -m1 -i 'fatal' "$cl/log/slurmd.log" 2>/dev/null)" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_PEND" "$L_FAULT"
state=
for i in $(seq 150); do
  state=$(sinfo -h -N -o %T 2>/dev/null | head -n 1)
  [ "$state" = idle ] && break
  sleep 0.2
done
if [ "$state" != idle ]; then
  skip_all "the node is not idle after 30 s (sinfo: '${state:-no answer}'; $(grep -m1 -iE 'fatal|error' "$cl/log/slurmd.log" 2>/dev/null))" "$L_START" "$L_EQUAL" "$L_AGAIN" "$L_PEND" "$L_FAULT"
fi
up=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "slurm: munged, slurmctld and slurmd started (Slurm $(sinfo -V | awk '{print $2}'); node $node idle after ${up} s; $SLURM_CONF)"
t_pass "$L_START" "node $node idle after ${up} s"

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
WB_NO_GPU=1 $MAKE -s grade SUBMISSIONS="$class" WEEKS="$FIXTURE_WEEK" GRADEBOOK="$local_gb" SEED="$SEED" LIMIT=60 \
  JOBS="$JOBS" GPU_SHARE="$GPU_SHARE" >"$out/local.log" 2>&1
rc=$(grade_rc $? "$out/local.log")
# the class through Slurm: no GPU here (no --gres), a node of this test's size
gb=$out/grade/gradebook.csv
slurm_grade() { # extra make arguments; the log is $out/$LOGNAME
  WB_NO_GPU=1 $MAKE -s grade SUBMISSIONS="$class" WEEKS="$FIXTURE_WEEK" GRADEBOOK="$gb" SEED="$SEED" LIMIT=60 \
    JOBS="$JOBS" GPU_SHARE="$GPU_SHARE" SCHEDULER=slurm GRES= SBATCH="--mem=512M --cpus-per-task=1" SLURM_POLL=1 "$@"
}
ts=$(date +%s)
slurm_grade >"$out/slurm.log" 2>&1
src=$(grade_rc $? "$out/slurm.log")
secs=$(( $(date +%s) - ts ))
job=$(sed -n 's/.*submitted job \([0-9]*\): \([0-9]*\) task.*/\1 (\2 tasks)/p' "$out/slurm.log" | head -n 1)
fb_same=yes
for f in "$out/local/gradebook-feedback"/*.md; do
  g=$out/grade/gradebook-feedback/$(basename "$f")
  cmp -s <(grep -v '^Graded ' "$f") <(grep -v '^Graded ' "$g" 2>/dev/null) || { fb_same="no: $(basename "$f") differs"; break; }
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
stop_cluster
trap - EXIT
echo "slurm: munged, slurmctld and slurmd stopped"
t_end
