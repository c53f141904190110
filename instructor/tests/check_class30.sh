#!/usr/bin/env bash
# check_class30.sh GRADEBOOK1 GRADEBOOK2 gpu|nogpu — two gradings of the
# class of 30 (instructor/fixtures/class30.sh) with the same seed must agree
# on every mark but speed credit (w01.vecadd-bw); each kind of student must
# get what its code earns. Columns: student, w01.devquery (10), w01.vecadd
# (20), w01.vecadd-bw (10), total, out_of, skipped, seed. JUDGE as the
# gradings had it (make's default: 1; 0 for the linked test).
set -u
. "$(dirname "$0")/feedback.sh"
g1=${1:?gradebook 1}; g2=${2:?gradebook 2}; mode=${3:?gpu or nogpu}
bad=0
for g in "$g1" "$g2"; do
  [ "$(grep -c . "$g")" = 31 ] || { echo "$g: expected a header and 30 students"; bad=1; }
done
# every mark but speed credit (and the total, which holds it) the same
d=$(diff <(cut -d, -f1-3 "$g1") <(cut -d, -f1-3 "$g2"))
[ -z "$d" ] || { echo "the two gradings differ outside speed credit:"; echo "$d"; bad=1; }
speed=$(paste -d, <(cut -d, -f1,4 "$g1") <(cut -d, -f4 "$g2") | awk -F, 'NR > 1 && $2 != $3 { print $1 " " $2 " -> " $3 }')
echo "speed credit that differs between the two runs: ${speed:-none}"
cells() { grep "^$1," "$g1" | cut -d, -f2-4; }
expect() { # id-pattern expected devquery,vecadd,bw ('*' matches anything)
  local id
  for id in $(cut -d, -f1 "$g1" | grep -E "^s[0-9]+-$1\$"); do
    local got; got=$(cells "$id")
    IFS=, read -r a b c <<<"$got"; IFS=, read -r x y z <<<"$2"
    { [ "$x" = "*" ] || [ "$a" = "$x" ]; } && { [ "$y" = "*" ] || [ "$b" = "$y" ]; } && { [ "$z" = "*" ] || [ "$c" = "$z" ]; } ||
      { echo "$id: got $got, expected $2"; bad=1; }
  done
}
expect broken "0.00,0.00,0.00"
expect forged "0.00,0.00,0.00"
expect override "0.00,0.00,0.00"
if [ "$mode" = gpu ]; then
  expect wrong "*,0.00,0.00"
  expect correct "10.00,20.00,10.00"
  expect scalar "10.00,20.00,*"
  # far below the target: the grader's partial credit, points * ratio /
  # target (8 blocks reach about 0.02 of COPY: 0.23 of 10 on an H100), so
  # more than nothing and less than one point
  expect tiny "10.00,20.00,*"
  for id in $(cut -d, -f1 "$g1" | grep -E '^s[0-9]+-tiny$'); do
    c=$(cells "$id" | cut -d, -f3)
    awk -v c="$c" 'BEGIN { exit !(c > 0 && c < 1) }' || { echo "$id: speed credit $c, expected partial credit under 1 point"; bad=1; }
  done
  expect unwritten "*,0.00,0.00"
  if [ "${JUDGE:-1}" = 1 ]; then
    # Judged (make's default): the judge's clock stops after the runner's reply, which comes
    # after the device is idle, and every timed call has buffers of its own, so neither the
    # side stream nor the cache of arguments hides work; both are timed doing it and earn
    # what their speed earns. What must not happen is a figure past the copy's.
    for k in sidestream cached; do
      expect "$k" "*,20.00,*"
      for id in $(cut -d, -f1 "$g1" | grep -E "^s[0-9]+-$k\$"); do
        f=${g1%.csv}-feedback/$id.md
        [ -f "$f" ] || continue
        if over_copy "$f"; then echo "$id: measured $(bw_ratio "$f") of COPY under the judge"; bad=1; fi
      done
    done
  else
    # by the linked test: no figure (the events do not wait for the side stream; the spot check
    # finds the cached output still the poison)
    expect sidestream "*,*,0.00"
    expect cached "*,*,0.00"
  fi
else
  # without a GPU every GPU checkpoint is SKIP and earns nothing; a week-01
  # folder without devquery.cu has the starter's, which fails its CPU part
  for k in correct scalar tiny unwritten fault hang; do expect "$k" "SKIP,SKIP,SKIP"; done
  for k in wrong sidestream cached; do expect "$k" "0.00,SKIP,SKIP"; done
fi
[ $bad = 0 ] && echo "class of 30: both gradings as expected" || echo "class of 30: NOT as expected"
exit $bad
