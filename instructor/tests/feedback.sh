# instructor/tests/feedback.sh — what the gradebook checks read from a
# student's feedback file (the grader's GRADEBOOK-feedback/ID.md).
# bw_ratio FILE: the measured w01.vecadd-bw ratio of COPY in its table (empty if none)
bw_ratio() { grep -F '| w01.vecadd-bw |' "$1" 2>/dev/null | cut -d'|' -f5 | grep -oE '[0-9]+\.[0-9]+' | head -1; }
# over_copy FILE: true when that ratio is past 1.2 of COPY (credit for work not done)
over_copy() { local r; r=$(bw_ratio "$1"); [ -n "$r" ] && awk -v r="$r" 'BEGIN { exit !(r > 1.2) }'; }
