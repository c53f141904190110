#!/usr/bin/env bash
# check_fixture_gradebook.sh GRADEBOOK nogpu|gpu — what grading the fixture
# class (instructor/fixtures) must give. Columns: student, w01.devquery (10),
# w01.vecadd (20), w01.vecadd-bw (10), total, out_of, skipped, seed.
# Besides the rows: the reason each adversarial fixture was stopped (from
# GRADEBOOK-feedback/ID.md), what the ones that ran left behind in the
# scratch folder beside the gradebook (SCRATCH= another: marks, log sizes), and that none of
# their processes outlived grading (pgrep). Run it right after grading, with
# JUDGE as the grading had it (JUDGE=0 for a grading by the linked test).
set -u
gb=${1:?gradebook}; mode=${2:?nogpu or gpu}
fb=${gb%.csv}-feedback
scratch=${SCRATCH:-$(dirname "$gb")/scratch}   # a Slurm grading's: GRADEBOOK-slurm/scratch
bad=0
row() { grep "^$1," "$gb" | cut -d, -f2-5; }
expect() { # student expected-cells (devquery,vecadd,bw,total); '*' matches anything
  local got; got=$(row "$1")
  IFS=, read -r g1 g2 g3 g4 <<<"$got"; IFS=, read -r e1 e2 e3 e4 <<<"$2"
  for k in 1 2 3 4; do
    local g e; eval "g=\$g$k; e=\$e$k"
    if [ "$e" != "*" ] && [ "$g" != "$e" ]; then echo "fixture $1: got $got, expected $2"; bad=1; return; fi
  done
}
said() { # student text: the feedback says why
  grep -qF -- "$2" "$fb/$1.md" 2>/dev/null || { echo "fixture $1: its feedback does not say \"$2\""; bad=1; }
}
. "$(dirname "$0")/feedback.sh"
past_copy() { # student why: its w01.vecadd-bw figure (the feedback's table) must not pass 1.2 of COPY
  if over_copy "$fb/$1.md"; then echo "fixture $1: measured $(bw_ratio "$fb/$1.md") of COPY: $2"; bad=1; fi
}
said_either() { # student text1 text2: the feedback says one of them (the linked test's words, the judge's)
  grep -qF -e "$2" -e "$3" "$fb/$1.md" 2>/dev/null || { echo "fixture $1: its feedback says neither \"$2\" nor \"$3\""; bad=1; }
}
# A runner that ended mid-check, in the judge's words (grade_class.c, classify; make grade-fixtures JUDGE=1)
judge_early="early exit (the process running your code ended mid-check)"

# 8 plain fixtures, 24 adversarial ones (6 of them made at grading time by
# instructor/fixtures/hostile.sh: linked, symlink, hardlink, device, longline, ctrlname)
[ "$(grep -c . "$gb")" = 33 ] || { echo "expected a header and 32 students in $gb"; bad=1; }
expect broken "0.00,0.00,0.00,0.00"
expect cublas "0.00,0.00,0.00,0.00"

# Refused whatever the GPU: by the object check, the build, or the import.
for s in forged override dlopen climb linked symlink hardlink device syscall daemon storm saboteur ctrlname premain hiddensys diskfill retarget; do expect $s "0.00,0.00,0.00,0.00"; done
said forged "references: getenv"; said forged "references: fopen"; said forged "references: exit"
said saboteur "references: fopen"   # and correct, its victim, keeps its marks (below)
said override "defines: wb_compare_f32: a harness internal"; said override "defines: wb_close: a harness internal"
said dlopen "references: dlopen"; said dlopen "references: dlsym"
# the target rewritten in the program's data, found between two linker symbols
said retarget "references: __data_start"; said retarget "references: _end"
# raw system calls and code run before main: the syscall instruction and the constructor
for s in syscall daemon storm; do said $s "instruction: syscall in"; said $s "runs before the test"; done
# code before main through an ifunc resolver; a syscall in a .stub section assembled as data
said premain "ifunc: hook: its resolver runs when the program is loaded"
said premain "startup: 1 ifunc resolution(s) beyond the starter build's"   # the linked program compared with the starter build
said hiddensys "section: .stub: the linker places it among the program's code"
# two 200 MiB objects, each under the file size limit: the scratch folder's disk quota (256 MiB for
# the fixture classes) stops the build, and what it wrote is gone before the class is done
said diskfill "did not build: disk quota: it wrote more than 256 MiB, or more than 20000 files and folders, into its scratch folder and was stopped"
df=$(du -sk "$scratch/diskfill" 2>/dev/null | cut -f1)
[ "${df:-0}" -le $((64 << 10)) ] || { echo "fixture diskfill: its scratch folder holds ${df} KiB after grading (expected under 64 MiB)"; bad=1; }
said climb "did not compile"; said climb "solution/vecadd.cu: No such file or directory"
said linked "entry 'phase0/week01/vecadd.cu' is a symbolic link"
said symlink "entry 'phase0/week01/vecadd.cu' is a symbolic link"
said hardlink "is a hard link"
said device "entry 'phase0/week01/vecadd.cu' is not a regular file or folder (device"
# an entry name with escape sequences and a fake table row: refused, and named escaped, never raw
said ctrlname "entry 'phase0/week01/x\\x1b[2J\\x1b[31m\\x0a| w01.vecadd | PASS | 20.00 | - | - |\\x0a.cu' has a control character"
if LC_ALL=C grep -q "$(printf '\033')" "$fb/ctrlname.md" "$gb"; then echo "fixture ctrlname: an escape character reached the feedback or the gradebook raw"; bad=1; fi
if grep -q '^| w01.vecadd | PASS' "$fb/ctrlname.md"; then echo "fixture ctrlname: its entry name forged a row of the feedback's table"; bad=1; fi
# a refused submission is named by its own file's name: no feedback shows the instructor's folders
if here=$(grep -lF "$(pwd -P)/" "$fb"/*.md 2>/dev/null); then echo "feedback naming the instructor's folders ($(pwd -P)/): $here"; bad=1; fi
# Refused before they ran (the object check): none of their processes may
# exist after grading. Their containment, had they run, is the sandbox's own
# tests' (daemon_dies_with_the_run, fork_storm_is_contained).
for s in daemon storm; do
  [ -e "$scratch/$s/wb/$s-was-here" ] && { echo "fixture $s: it ran (a $s-was-here mark), though the object check refuses it"; bad=1; }
done
for p in wbfx-daemon wbfx-storm; do
  if left=$(pgrep -x "$p"); then echo "fixture ${p#wbfx-}: process(es) $(echo $left) outlived grading"; bad=1; fi
done

if [ "$mode" = nogpu ]; then
  for s in archived correct fault hang unwritten longline; do expect $s "SKIP,SKIP,SKIP,0.00"; done
  for s in sidestream cached pattern; do expect $s "0.00,SKIP,SKIP,0.00"; done   # vecadd.cu alone: devquery is the starter's
  expect flood "0.00,SKIP,SKIP,0.00"          # devquery.cu not submitted; its vector add is never called
  expect wrong "0.00,SKIP,SKIP,0.00"          # devquery.cu not submitted: the starter fails the CPU test
  # its CPU test's process exits with status 0 mid-test: a FAIL, not a pass (SKIP before the harness checked)
  expect earlyexit "0.00,SKIP,SKIP,0.00"
  said_either earlyexit "ended before reaching its end" "$judge_early"   # the judge checks the CPU formulas too
  expect seedleak "SKIP,SKIP,SKIP,0.00"       # its hidden-seed failure needs a GPU to show
else
  expect correct "10.00,20.00,10.00,40.00"
  expect wrong "0.00,0.00,0.00,0.00"
  expect fault "10.00,0.00,0.00,10.00"
  said fault "FAIL — GPU fault: "   # the grader's word for it, then the run's message quoted; the runtime's words (linked) or the error's name (judged): never "wrong result"
  expect hang "10.00,0.00,0.00,10.00"
  expect unwritten "10.00,0.00,0.00,10.00"
  expect archived "10.00,20.00,*,*"           # slow but right: partial speed credit
  bw=$(row archived | cut -d, -f3)
  awk -v b="$bw" 'BEGIN { exit !(b > 0 && b < 10) }' || { echo "archived: speed credit $bw, expected partial (0 < x < 10)"; bad=1; }
  # Stopped by the output cap at its first vector add: each run's log at the cap (16 MiB), not 1 GiB.
  expect flood "0.00,0.00,0.00,0.00"
  said flood "output limit: the run printed too much and was stopped"
  n=0
  for l in "$scratch"/flood/run-*.log; do
    [ -f "$l" ] || continue; n=$((n + 1))
    sz=$(stat -c %s "$l")
    [ "$sz" -le $((16 << 20)) ] || { echo "fixture flood: $l is $sz bytes, past the 16 MiB output cap"; bad=1; }
  done
  [ $n -gt 0 ] || { echo "fixture flood: no run log in $scratch/flood (did it run?)"; bad=1; }
  fl=$(du -sk "$scratch/flood" 2>/dev/null | cut -f1)
  [ "${fl:-0}" -le $((64 << 10)) ] || { echo "fixture flood: its scratch folder holds ${fl} KiB (expected under 64 MiB)"; bad=1; }
  # right, but timed on a stream the events do not wait for: no figure from the linked test.
  # The judge's clock stops after the runner's reply, which comes after cudaDeviceSynchronize
  # (judge_runner.c): there the side stream's work is inside the time, the figure is honest and
  # earns what it earns, and what must not happen is a figure past the copy's.
  # JUDGE as the grading had it (make's default: 1).
  if [ "${JUDGE:-1}" = 1 ]; then
    expect sidestream "0.00,20.00,*,*"
    past_copy sidestream "under the judge: its clock stopped before the work did"
  else
    expect sidestream "0.00,20.00,0.00,20.00"
    said sidestream "device work went on after the timed region"
  fi
  # right, but skips the work when called again with the same arguments. The linked test's
  # spot check gives one timed run new inputs and finds its output still the poison: no figure.
  # The judge gives every timed call its own buffers (judge_w01.c, w01.vecadd-bw), so the
  # shortcut never fires: the kernel is timed doing its work and earns what its speed earns
  # (0.727 of COPY on an H200, 9.20 of 10); what must not happen is a figure past the copy's.
  if [ "${JUDGE:-1}" = 1 ]; then
    expect cached "0.00,20.00,*,*"
    past_copy cached "under the judge: a timed call skipped its work"
  else
    expect cached "0.00,20.00,0.00,20.00"
    said cached "a timed run on fresh inputs gave a wrong output"   # its final output is the poison too: the spot check
  fi
  # right, but adds only when the output still holds the poison, so that a benchmark's repeats
  # (their output already the sums) cost two launches: week 01's benchmark poisons the output
  # before every sample, so it adds every time and is timed doing its work. Its speed is its
  # own (partial or full credit, at about the correct submission's figure); what must not happen
  # is credit for work skipped: a figure far past the copy's (the second class took 29 x COPY).
  expect pattern "0.00,20.00,*,*"
  said pattern "| w01.vecadd | PASS"
  past_copy pattern "the benchmark timed runs that skipped their work"
  # every test's process ends with _exit(0) before its checks: nothing passes (40 of 40 before the harness checked)
  expect earlyexit "0.00,0.00,0.00,0.00"
  said_either earlyexit "early exit (a test's process ended mid-test)" "$judge_early"
  # right but for one size only the hidden seed draws: the feedback says which hidden test, never the seed
  expect seedleak "10.00,0.00,*,*"
  said seedleak "hidden test 1 of 1 failed: wrong result"
  if grep -q 7340011 "$fb/seedleak.md"; then echo "fixture seedleak: its feedback shows the hidden seed"; bad=1; fi
  # longline is the correct submission plus a 1 MiB comment
  expect longline "10.00,20.00,10.00,40.00"
fi
[ $bad = 0 ] && echo "fixture gradebook ($mode): as expected"
exit $bad
