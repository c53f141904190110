#!/usr/bin/env bash
# instructor/tests/slurm-gpu.sh — on a GPU machine (root): the fixture class
# graded locally and through a single-node Slurm cluster whose gres.conf
# names the machine's GPUs (a task a student, --gres=gpu:1), each grading
# timed; both gradebooks printed and compared: every mark equal, speed
# credit within NOISE points. Not a step of make test (no GPU in CI).
#
# Slurm need not be installed there. Its .deb files (Debian 12: slurm-wlm
# 22.05 and munge; the binaries need glibc 2.34 or later), fetched once on a
# machine with a network into .dev/slurm/:
#
#   mkdir -p .dev/slurm && (cd .dev/slurm && apt-get download slurmctld slurmd slurm-client \
#     slurm-wlm-basic-plugins munge libmunge2 libhwloc15 libnuma1 liblz4-1 libjson-c5 libdbus-1-3 \
#     libyaml-0-2 liblua5.1-0 libreadline8 readline-common)
#
# are unpacked here (dpkg -x, or ar and tar) into .dev/slurm/root and
# run from there (PATH, LD_LIBRARY_PATH, PluginDir; /usr/sbin/slurmstepd,
# which slurmd runs by that path, linked for the run where it is missing).
# Without .dev/slurm the installed slurm-wlm and munge are used.
#
#   bash instructor/tests/slurm-gpu.sh            both gradings, then the comparison
#   STEPS=local bash instructor/tests/slurm-gpu.sh   one grading (a machine whose commands are
#   STEPS=slurm bash instructor/tests/slurm-gpu.sh   time-limited); the comparison once both exist
# Settings: LIMIT (60), JOBS (16), GPU_SHARE (4: the local grading's),
# NOISE (1.0 point of a speed checkpoint's 10), SBATCH (extra sbatch
# options), JUDGE (1: make grade's default; 0 grades week 01 by its linked
# test both ways), ALLOW_NO_GPU=1 (a rehearsal without a GPU: WB_NO_GPU=1, no
# gres; the gradebooks must then be equal cell for cell).
WB_TEST_GPU=1  # this script is the GPU's test: lib.sh must not hide it
. "$(dirname "$0")/lib.sh"
set -o pipefail
out=$WB_ROOT/$BUILD/slurm-gpu
STEPS=${STEPS:-local slurm}
LIMIT=${LIMIT:-60}
JOBS=${JOBS:-16}
GPU_SHARE=${GPU_SHARE:-4}
NOISE=${NOISE:-1.0}
mkdir -p "$out" && chmod 755 "$out"

gpus=0
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  gpus=$(nvidia-smi -L | grep -c '^GPU ')
fi
if [ "$gpus" = 0 ]; then
  [ "${ALLOW_NO_GPU:-}" = 1 ] || { echo "slurm-gpu: no GPU here (nvidia-smi -L): this is the GPU machine's test (ALLOW_NO_GPU=1 rehearses it)"; exit 2; }
  export WB_NO_GPU=1
  echo "slurm-gpu: no GPU: a rehearsal (WB_NO_GPU=1, no gres)"
else
  echo "slurm-gpu: $gpus GPU(s): $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sort | uniq -c | sed 's/^ *//' | paste -sd ';')"
fi

# ------------------------------------------------------------ the class
class=$out/class
if [ ! -d "$class" ]; then
  mkdir -p "$class"
  cp -R instructor/fixtures/class/. "$class/"
  tar -czf "$class/archived.tar.gz" -C instructor/fixtures/archived .
  bash instructor/fixtures/hostile.sh "$class" "$out/dupclass" >/dev/null
fi
$MAKE -s "$GRADE_BIN" build/gpu-probe >/dev/null || { echo "slurm-gpu: the grader does not build"; exit 2; }
# JUDGE (make grade's default, 1: week 01 judged) the same both ways: the tasks judge on their node as a
# local grading does, and the checks below expect the marks of that JUDGE
JUDGE=${JUDGE:-1}
grade_args=(SUBMISSIONS="$class" WEEKS="$FIXTURE_WEEK" SEED="$SEED" LIMIT="$LIMIT" JOBS="$JOBS" GPU_SHARE="$GPU_SHARE" JUDGE="$JUDGE")
want=$([ "$gpus" = 0 ] && echo 3 || echo 0)
# the grader's exit status through make (which exits 2 for a recipe's 3)
grade_rc() { if [ "$1" = 2 ] && grep -qE '\] Error [0-9]+$' "$2"; then grep -oE '\] Error [0-9]+$' "$2" | tail -n 1 | grep -oE '[0-9]+$'; else echo "$1"; fi; }

# a .deb's files into a folder: dpkg-deb -x, else ar and tar (binutils' ar, which the grader's objdump comes with)
unpack_deb() {
  if command -v dpkg-deb >/dev/null; then dpkg-deb -x "$1" "$2"; return; fi
  local m; m=$(ar t "$1" | grep '^data\.tar') || return 1
  case $m in
    *.xz) ar p "$1" "$m" | tar -xJ -C "$2" ;;
    *.zst) ar p "$1" "$m" | zstd -dc | tar -x -C "$2" ;;
    *.gz) ar p "$1" "$m" | tar -xz -C "$2" ;;
    *) ar p "$1" "$m" | tar -x -C "$2" ;;
  esac
}

# ------------------------------------------------------------ locally
if [[ " $STEPS " == *" local "* ]]; then
  rm -rf "$out/local" && mkdir -p "$out/local" && chmod 755 "$out/local"
  t0=$(date +%s)
  $MAKE -s grade "${grade_args[@]}" GRADEBOOK="$out/local/gradebook.csv" DISK_QUOTA=256 KEEP_SCRATCH=1 >"$out/local/grade.log" 2>&1
  rc=$(grade_rc $? "$out/local/grade.log")
  echo "local: exit $rc after $(( $(date +%s) - t0 )) s ($JOBS jobs, $GPU_SHARE students sharing the GPU for correctness runs, limit $LIMIT s)" | tee "$out/local/time.txt"
  [ "$rc" = "$want" ] || { tail -n 20 "$out/local/grade.log"; echo "slurm-gpu: the local grading exited $rc, $want expected"; }
fi

# ------------------------------------------------------------ through Slurm
if [[ " $STEPS " == *" slurm "* ]]; then
  . "$(dirname "$0")/slurm-lib.sh"
  root=
  if ls .dev/slurm/*.deb >/dev/null 2>&1; then
    root=$WB_ROOT/.dev/slurm/root   # not under build/: make reads every *.d there (plugstack.conf.d)
    rm -rf "$root" && mkdir -p "$root"
    for d in .dev/slurm/*.deb; do unpack_deb "$d" "$root" || { echo "slurm-gpu: cannot unpack $d"; exit 2; }; done
    echo "slurm-gpu: Slurm unpacked from $(ls .dev/slurm/*.deb | wc -l) .deb files of .dev/slurm into $root"
  fi
  slurm_find "$root" || { echo "slurm-gpu: $SLURM_WHY"; exit 2; }
  trap slurm_stop EXIT
  slurm_start "$out/cluster" "$gpus" || { echo "slurm-gpu: $SLURM_WHY"; exit 2; }
  echo "slurm-gpu: munged, slurmctld and slurmd started (Slurm $(sinfo -V | awk '{print $2}'); node $SLURM_NODE with gres gpu:$gpus idle after $SLURM_UP_S s)"
  [ "$SLURM_CGROUP" = "as is" ] || echo "slurm-gpu: slurmd started with cgroup.conf: $SLURM_CGROUP"
  [ "$gpus" -gt 0 ] && sed 's/^/  gres.conf: /' "$out/cluster/gres.conf"
  rm -rf "$out/slurm" && mkdir -p "$out/slurm" && chmod 755 "$out/slurm"
  t0=$(date +%s)
  $MAKE -s grade "${grade_args[@]}" GRADEBOOK="$out/slurm/gradebook.csv" DISK_QUOTA=256 KEEP_SCRATCH=1 SCHEDULER=slurm SLURM_POLL=2 \
    GRES="$([ "$gpus" -gt 0 ] && echo gpu:1)" SBATCH="${SBATCH:-}" >"$out/slurm/grade.log" 2>&1
  rc=$(grade_rc $? "$out/slurm/grade.log")
  echo "slurm: exit $rc after $(( $(date +%s) - t0 )) s (a task a student, one GPU each, $gpus GPU(s) on the node, limit $LIMIT s)" | tee "$out/slurm/time.txt"
  grep -E 'submitted job|re-queued|Slurm, ' "$out/slurm/grade.log" | sed 's/^ */  /'
  [ "$rc" = "$want" ] || { tail -n 20 "$out/slurm/grade.log"; echo "slurm-gpu: the Slurm grading exited $rc, $want expected"; }
  slurm_stop
  trap - EXIT
  echo "slurm-gpu: munged, slurmctld and slurmd stopped"
fi

# ------------------------------------------------------------ both
a=$out/local/gradebook.csv b=$out/slurm/gradebook.csv
if [ ! -f "$a" ] || [ ! -f "$b" ]; then
  echo "slurm-gpu: one gradebook so far ($( [ -f "$a" ] && echo local || echo slurm)); run again with STEPS= the other"
  exit 0
fi
echo; echo "== local gradebook ($(cat "$out/local/time.txt"))"; cat "$a"
echo; echo "== Slurm gradebook ($(cat "$out/slurm/time.txt"))"; cat "$b"
echo
# every cell equal, but a speed checkpoint's (a header with -bw, -speed or a
# target: the feedback's "target" column) within NOISE points; the slurm
# column, where there is one, is not the local grader's
bad=$(awk -F, -v noise="$NOISE" -v tol_all="$([ "$gpus" = 0 ] && echo 0 || echo 1)" '
  NR == FNR { row[FNR] = $0; n = FNR; next }
  FNR == 1 { split(row[1], h, ","); for (c = 1; c <= length(h); c++) speed[c] = (h[c] ~ /-(bw|speed)[ (]/ || h[c] == "total"); next }
  { split(row[FNR], l, ",")
    for (c = 1; c <= length(l); c++) {
      if (l[c] == $c) continue
      d = l[c] - $c; if (d < 0) d = -d
      if (tol_all && speed[c] && l[c] ~ /^[0-9.]+$/ && $c ~ /^[0-9.]+$/ && d <= noise) continue
      printf "%s: column %d (%s): local %s, Slurm %s\n", $1, c, h[c], l[c], $c
    } }
  END { if (FNR != n) printf "rows: local %d, Slurm %d\n", n, FNR }' "$a" "$b")
for g in "$a" "$b"; do
  sc=$WB_ROOT/$BUILD/instructor/scratch; [ "$g" = "$b" ] && sc=$out/slurm/gradebook-slurm/scratch  # make grade keeps a local grading's scratch there
  JUDGE=$JUDGE SCRATCH=$sc bash instructor/tests/check_fixture_gradebook.sh "$g" "$([ "$gpus" = 0 ] && echo nogpu || echo gpu)" >"$g.check" 2>&1 &&
    echo "check_fixture_gradebook.sh: $g as expected" || { echo "check_fixture_gradebook.sh: $g:"; cat "$g.check"; }
done
if [ -z "$bad" ]; then
  echo "slurm-gpu: the gradebooks agree (every mark; speed credit within $NOISE points); local $(sed 's/.*after \([0-9]*\) s.*/\1 s/' "$out/local/time.txt"), Slurm $(sed 's/.*after \([0-9]*\) s.*/\1 s/' "$out/slurm/time.txt")"
else
  echo "slurm-gpu: the gradebooks differ:"; echo "$bad"
  # each differing student's feedback from both gradings, so one run says why
  for id in $(printf '%s\n' "$bad" | sed -n 's/^\([^:]*\): column.*/\1/p' | sort -u); do
    for g in "$a" "$b"; do
      f=${g%.csv}-feedback/$id.md
      echo "-- $id, $( [ "$g" = "$a" ] && echo local || echo Slurm ) feedback ($f):"
      grep -E '^\| *w|^- |failed|FAIL|speed|ratio|target' "$f" 2>/dev/null | head -n 20 | cut -c1-300 | sed 's/^/   /'
    done
  done
  exit 1
fi
