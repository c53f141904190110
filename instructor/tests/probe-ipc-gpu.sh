#!/usr/bin/env bash
# instructor/tests/probe-ipc-gpu.sh — on a GPU machine: how device memory
# crosses into the grader's sandbox, for the planned judge and runner
# (instructor/README.md, "The judge and the runner", says how the
# answer decides the design). Not a step of make test (no GPU in CI).
#
# Runs build/instructor/probe-ipc (instructor/probe_ipc.c) twice: the runner
# as a plain child (--no-sandbox, every namespace shared: the baseline), then
# in the grader's sandbox with a checkpoint run's options. Each run's output
# is printed and kept (build/probe-ipc/baseline.txt, sandbox.txt); then every
# step's status side by side, and for each way across (POSIX-fd memory,
# legacy IPC, a shared event) one line saying which case it is: works in the
# sandbox; works only without it (the sandbox blocks it); works in neither
# (the API does not work on this host, sandbox or not).
#
#   bash instructor/tests/probe-ipc-gpu.sh
# Settings: ITERS (1000 timed calls of each kind), DEVICE (0), ALLOW_NO_GPU=1
# (without a GPU: both runs in the probe's --plumbing mode, no CUDA call,
# which checks the sandbox, the socket and a descriptor passed in, and
# nothing about device memory). Exit: the sandbox run's (0 the fd path
# crossed both ways, 1 it did not, 2 no GPU or the runner could not start).
WB_TEST_GPU=1  # this script is the GPU's test: lib.sh must not hide it
. "$(dirname "$0")/lib.sh"
out=$WB_ROOT/$BUILD/probe-ipc
ITERS=${ITERS:-1000}
DEVICE=${DEVICE:-0}
PROBE=$BUILD/instructor/probe-ipc
mkdir -p "$out"

mode=()
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 && [ "$(nvidia-smi -L | grep -c '^GPU ')" != 0 ]; then
  echo "probe-ipc-gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sort | uniq -c | sed 's/^ *//' | paste -sd ';'); $(id -un) (uid $(id -u))"
else
  [ "${ALLOW_NO_GPU:-}" = 1 ] || { echo "probe-ipc-gpu: no GPU here (nvidia-smi -L): this is the GPU machine's test (ALLOW_NO_GPU=1 checks the probe's plumbing without CUDA)"; exit 2; }
  mode=(--plumbing)
  echo "probe-ipc-gpu: no GPU: the probe's plumbing only (--plumbing, no CUDA call)"
fi
$MAKE -s "$PROBE" >/dev/null || { echo "probe-ipc-gpu: $PROBE does not build (make $PROBE shows why)"; exit 2; }

"$PROBE" --no-sandbox --device "$DEVICE" --iters "$ITERS" "${mode[@]}" >"$out/baseline.txt" 2>&1
brc=$?
"$PROBE" --device "$DEVICE" --iters "$ITERS" "${mode[@]}" >"$out/sandbox.txt" 2>&1
src=$?
echo; echo "== baseline: the runner as a plain child (exit $brc)"; cat "$out/baseline.txt"
echo; echo "== sandbox: the runner in the grader's sandbox (exit $src)"; cat "$out/sandbox.txt"

# Step lines are "SIDE STEP STATUS detail"; TIME lines give their median.
echo; echo "== side by side"
awk '
  function status(line,   f) { split(line, f, " "); return f[3] != "TIME" ? f[3] : (f[4] == "median" ? f[5] : f[4]) " us" }
  $1 ~ /^(judge|runner|sandbox)$/ && NF >= 3 {
    k = $1 " " $2
    if (!(k in seen)) { seen[k] = 1; order[++n] = k }
    if (FILENAME ~ /baseline/) b[k] = status($0); else s[k] = status($0)
  }
  END {
    printf "%-24s %-12s %s\n", "step", "baseline", "sandbox"
    for (i = 1; i <= n; i++) { k = order[i]; printf "%-24s %-12s %s\n", k, (k in b) ? b[k] : "-", (k in s) ? s[k] : "-" }
    # one line a way across, from the judge step that proves it
    split("judge fd-verify|POSIX-fd memory (cuMemExportToShareableHandle, SCM_RIGHTS);judge legacy-verify|legacy IPC (cudaIpcOpenMemHandle);judge event-wait|a shared event (cudaIpcOpenEventHandle);judge memfd-verify|a memfd (plumbing, no GPU)", ways, ";")
    print ""
    for (i = 1; i in ways; i++) {
      split(ways[i], w, "|"); k = w[1]
      if (!(k in b) && !(k in s)) continue
      pb = b[k] == "PASS"; ps = s[k] == "PASS"
      printf "%s: %s\n", w[2], ps ? "works in the sandbox" : pb ? "works only without the sandbox: the sandbox blocks it" : "works in neither run: the API does not work on this host (or the probe failed before it; read the lines above)"
    }
  }' "$out/baseline.txt" "$out/sandbox.txt"
exit $src
