#!/usr/bin/env bash
# tools/watch.sh WEEK [IMPL=...] — `make WEEK watch`: check the week again
# each time one of its exercise files is saved, the short result on top.
#
# Each check is `make WEEK check`, so it records what passes exactly as a
# check typed by hand does (your own code only, the progress file written
# whole). One save gives one check: the files' state is read before a check
# starts, and a check runs again only when it differs from that state.
# Saves are noticed with inotifywait (Debian: inotify-tools) where it is
# installed, else by looking at the files' times once a second. Ctrl-C
# stops it; a check it interrupts records nothing half-done.
set -u
week=$1; shift
wb=build/wb
files=$( { $wb week-info "$week" exercises | sed "s#^#$week/#; s#\$#.cu#"
           $wb week-info "$week" pyexercises | sed "s#^#$week/#; s#\$#.py#"; } 2>/dev/null)
[ -n "$files" ] || { echo ">>> $week has no exercise files to watch"; exit 2; }
state() { stat -c '%n %Y %s %i' $files 2>&1 | md5sum; }
if command -v inotifywait >/dev/null; then how="inotifywait"; else how="a look at the files' times each second"; fi
trap 'echo; echo "Stopped watching $week."; exit 0' INT TERM

run_check() {
  local log out rc t
  log=$(mktemp /tmp/wb-watch-XXXXXX)
  t=$(date +%H:%M:%S)
  make --no-print-directory "$week" check "$@" >"$log" 2>&1; rc=$?
  [ -t 1 ] && printf '\033[H\033[2J'
  out=$(grep -E '^  -- [0-9]+ of [0-9]+ checkpoints' "$log" | tail -n 1)
  echo "[$t] $week: ${out#  -- }${out:+  }$( [ $rc = 0 ] && echo "(all passed)" )"
  grep -E '^(Next|>>>|Recorded|All )' "$log" | head -n 3
  echo "----------------------------------------------------------------------"
  grep -vE '^  (CC|NVCC|LD|AR) |^make(\[[0-9]+\])?: \*\*\* ' "$log"
  rm -f "$log"
  echo "----------------------------------------------------------------------"
  echo "Watching $(echo $files | wc -w) file(s) of $week with $how: save one to check again, Ctrl-C to stop."
}

last=$(state)
run_check "$@"
while :; do
  if [ "$how" = inotifywait ]; then
    inotifywait -qq -t 60 -e close_write -e moved_to -e create "$week" >/dev/null 2>&1
    sleep 0.2   # an editor's save is several events: let them land
  else
    sleep 1
  fi
  now=$(state)
  [ "$now" = "$last" ] && continue
  last=$now
  run_check "$@"
done
