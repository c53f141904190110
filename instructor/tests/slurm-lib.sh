# instructor/tests/slurm-lib.sh — a single-node Slurm cluster for the
# grader's tests, started and stopped by the test itself (sourced by
# slurm.sh and slurm-gpu.sh; needs root):
#   slurm_find [ROOT]    the commands: installed (slurm-wlm, munge), or
#                        unpacked from .deb files into ROOT (dpkg -x); 1 and
#                        SLURM_WHY when they are not all there
#   slurm_start DIR [N]  munged, slurmctld and slurmd, configuration, state,
#                        logs and pid files under DIR, ports nothing listens
#                        on; N GPUs named in gres.conf (/dev/nvidia0 ...);
#                        exports SLURM_CONF; 1 and SLURM_WHY when a daemon
#                        does not start or the node is not idle within 30 s
#   slurm_stop           this cluster's jobs cancelled, its daemons stopped
#                        (by their pid files, only while each is still that
#                        daemon)
# Settings from a machine like CI's (root, no systemd, no database):
# proctrack/linuxproc, task/none, no accounting storage (sacct -c reads the
# job completion file, jobcomp/filetxt), cred_expire=10 (a re-queued task
# waits for the credential's expiry).

SLURM_ROOT=
SLURM_WHY=
SLURM_NODE=
SLURM_UP_S=
_sl_dir=
_sl_sock=
_sl_stepd_link=

slurm_find() {
  SLURM_ROOT=${1:-}
  local c missing=
  if [ -n "$SLURM_ROOT" ]; then
    local lib=$SLURM_ROOT/usr/lib/x86_64-linux-gnu
    [ -d "$lib/slurm-wlm" ] || { SLURM_WHY="no Slurm unpacked in $SLURM_ROOT ($lib/slurm-wlm is missing)"; return 1; }
    # Debian's daemons are slurmd-wlm, slurmctld-wlm, slurmstepd-wlm (update-alternatives names them)
    for c in slurmd slurmctld slurmstepd; do
      [ -e "$SLURM_ROOT/usr/sbin/$c" ] || ln -s "$c-wlm" "$SLURM_ROOT/usr/sbin/$c"
    done
    export PATH=$SLURM_ROOT/usr/sbin:$SLURM_ROOT/usr/bin:$PATH
    export LD_LIBRARY_PATH=$lib/slurm-wlm:$lib:$SLURM_ROOT/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  fi
  export PATH=$PATH:/usr/sbin:/sbin
  for c in munged slurmctld slurmd sbatch squeue scancel sacct sinfo; do command -v $c >/dev/null || missing="$missing $c"; done
  [ -z "$missing" ] || { SLURM_WHY="not installed:$missing (apt-get install -y slurm-wlm munge)"; return 1; }
  [ "$(id -u)" = 0 ] || { SLURM_WHY="slurmd and munged's folder need root (here uid $(id -u))"; return 1; }
  return 0
}

# the pid of daemon NAME (slurmd, slurmctld, munged) from its pid file, while it is still that daemon
_sl_pid() {
  local p
  p=$(cat "$_sl_dir/$1.pid" 2>/dev/null) && [ -n "$p" ] && [ "$(cat /proc/$p/comm 2>/dev/null)" = "$1" ] && echo "$p"
}

slurm_stop() {
  [ -n "$_sl_dir" ] || return 0
  local d p k i pids=() left
  [ -n "$(_sl_pid slurmctld)" ] && SLURM_CONF=$_sl_dir/slurm.conf scancel -u "$(id -un)" 2>/dev/null && sleep 1
  # the pids first: a daemon removes its pid file as it begins to stop
  for d in slurmd slurmctld munged; do p=$(_sl_pid $d) && pids+=("$p:$d"); done
  for k in TERM KILL; do
    for p in "${pids[@]}"; do [ "$(cat /proc/${p%%:*}/comm 2>/dev/null)" = "${p#*:}" ] && kill -$k "${p%%:*}" 2>/dev/null; done
    for i in $(seq 40); do
      left=
      for p in "${pids[@]}"; do [ "$(cat /proc/${p%%:*}/comm 2>/dev/null)" = "${p#*:}" ] && left=1; done
      [ -z "$left" ] && break
      sleep 0.25
    done
    [ -z "$left" ] && break
  done
  [ -n "$_sl_sock" ] && rm -f "$_sl_sock" "$_sl_sock.lock"
  [ -n "$_sl_stepd_link" ] && rm -f "$_sl_stepd_link"
  _sl_stepd_link=
}

_sl_free_port() {
  local p
  for p in $(shuf -i 20000-40000 -n 40); do
    [ "$p" = "${1:-}" ] && continue
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
  echo 6817
}

slurm_start() {
  local dir=$1 gpus=${2:-0} i
  _sl_dir=$dir
  # a cluster an earlier run left behind in DIR (its pid files) goes first
  [ -d "$dir" ] && { _sl_sock=$(cat "$dir/socket" 2>/dev/null); slurm_stop; }
  rm -rf "$dir"
  mkdir -p "$dir"/{state,spool,log,munge}
  chmod 755 "$dir"
  local t0; t0=$(date +%s.%N)
  # slurmd runs the slurmstepd compiled into it (/usr/sbin/slurmstepd): an unpacked one is linked there for the test
  if [ -n "$SLURM_ROOT" ] && [ ! -e /usr/sbin/slurmstepd ]; then
    ln -s "$SLURM_ROOT/usr/sbin/slurmstepd-wlm" /usr/sbin/slurmstepd 2>/dev/null ||
      { SLURM_WHY="slurmd runs /usr/sbin/slurmstepd, which is missing and cannot be linked"; return 1; }
    _sl_stepd_link=/usr/sbin/slurmstepd
  fi
  # munged as the munge user where there is one (as systemd would run it, /run/munge its own), else as root
  _sl_sock=/run/munge/wb-test-$$.socket
  mkdir -p /run/munge && chmod 755 /run/munge
  echo "$_sl_sock" >"$dir/socket"
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 700 "$dir/munge" && chmod 400 "$dir/munge/munge.key"
  local as=()
  if id munge >/dev/null 2>&1; then
    chown munge:munge /run/munge && chown -R munge:munge "$dir/munge"
    if command -v runuser >/dev/null; then as=(runuser -u munge --); else as=(setpriv --reuid=munge --regid=munge --init-groups); fi
  fi
  if ! "${as[@]}" munged --socket="$_sl_sock" --key-file="$dir/munge/munge.key" --pid-file="$dir/munge/munged.pid" \
       --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/seed" >"$dir/log/munged.out" 2>&1; then
    SLURM_WHY="munged did not start: $(tail -n 1 "$dir/log/munged.out")"
    return 1
  fi
  ln -sf munge/munged.pid "$dir/munged.pid"
  local ctld_port d_port node_line
  ctld_port=$(_sl_free_port); d_port=$(_sl_free_port "$ctld_port")
  node_line=$(slurmd -C 2>/dev/null | head -n 1)
  SLURM_NODE=$(echo "$node_line" | sed -n 's/^NodeName=\([^ ]*\).*/\1/p')
  [ -n "$SLURM_NODE" ] || { SLURM_WHY="slurmd -C does not describe this host: $(slurmd -C 2>&1 | head -n 1)"; return 1; }
  local gres_node= gres_types=
  rm -f "$dir/gres.conf"
  if [ "$gpus" -gt 0 ]; then
    gres_types=GresTypes=gpu
    gres_node=" Gres=gpu:$gpus"
    for ((i = 0; i < gpus; i++)); do echo "NodeName=$SLURM_NODE Name=gpu File=/dev/nvidia$i" >>"$dir/gres.conf"; done
  fi
  cat >"$dir/slurm.conf" <<EOF
# A single-node cluster for the grader's tests (instructor/tests/slurm-lib.sh)
ClusterName=wbtest
SlurmctldHost=$SLURM_NODE(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$_sl_sock,cred_expire=10
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SchedulerType=sched/backfill
${SLURM_ROOT:+PluginDir=$SLURM_ROOT/usr/lib/x86_64-linux-gnu/slurm-wlm}
$gres_types
$node_line NodeAddr=127.0.0.1$gres_node State=UNKNOWN
PartitionName=wbtest Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  if ! slurmctld -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1; then
    SLURM_WHY="slurmctld did not start: $(tail -n 1 "$dir/log/slurmctld.out") $(grep -m1 -i fatal "$dir/log/slurmctld.log" 2>/dev/null)"
    return 1
  fi
  # slurmd starts its cgroup plugin even with proctrack/linuxproc and
  # task/none. Where cgroup v2 cannot make its directory for the step daemons
  # (a VM whose cgroup tree slurmd may not write, seen on the GPU machine), a
  # cgroup.conf beside slurm.conf tries the other ways: without systemd, then
  # cgroup v1. A host where slurmd starts as it is never gets one.
  rm -f "$dir/cgroup.conf"
  local cg tried=
  for cg in "" "IgnoreSystemd=yes" "CgroupPlugin=cgroup/v1"; do
    if [ -n "$cg" ]; then
      grep -qi cgroup "$dir/log/slurmd.log" 2>/dev/null || break
      printf '%s\n' "$cg" >"$dir/cgroup.conf"
      tried="$tried; then cgroup.conf '$cg'"
      : >"$dir/log/slurmd.log"
    fi
    slurmd -f "$SLURM_CONF" -N "$SLURM_NODE" >"$dir/log/slurmd.out" 2>&1 && { SLURM_CGROUP=${cg:-as is}; break; }
    SLURM_CGROUP=
  done
  if [ -z "$SLURM_CGROUP" ]; then
    SLURM_WHY="slurmd did not start$tried: $(tail -n 1 "$dir/log/slurmd.out") $(grep -i -E 'fatal|error' "$dir/log/slurmd.log" 2>/dev/null | tail -n 2 | tr '\n' ' ')"
    return 1
  fi
  local state=
  for i in $(seq 150); do
    state=$(sinfo -h -N -o %T 2>/dev/null | head -n 1)
    [ "$state" = idle ] && break
    sleep 0.2
  done
  if [ "$state" != idle ]; then
    SLURM_WHY="the node is not idle after 30 s (sinfo: '${state:-no answer}'; $(grep -m1 -iE 'fatal|error' "$dir/log/slurmd.log" 2>/dev/null))"
    return 1
  fi
  SLURM_UP_S=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  return 0
}
