#!/usr/bin/env bash
# A one-node Slurm on this machine (Debian's slurm-wlm and munge), for CI
# and for trying the job array before a cluster: everything under DIR, the
# daemons as root on localhost, no systemd, no cgroups.
#   scripts/slurm/local-slurm.sh start DIR   prints: export SLURM_CONF=DIR/slurm.conf
#   scripts/slurm/local-slurm.sh stop DIR
# Exit 77 when slurm-wlm or munge is not installed, or this is not root.
set -euo pipefail
action=${1:?usage: local-slurm.sh start|stop DIR}
dir=$(mkdir -p "${2:?usage: local-slurm.sh start|stop DIR}" && cd "$2" && pwd)
for tool in slurmctld slurmd munged sbatch; do
  command -v "$tool" >/dev/null || { echo "local-slurm: no $tool (apt-get install slurm-wlm munge)" >&2; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "local-slurm: the daemons need root" >&2; exit 77; }

stop() {
  for pid_file in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munge/munged.pid; do
    [ -s "$pid_file" ] && kill "$(cat "$pid_file")" 2>/dev/null || true
  done
  rm -f "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munge/munged.pid
}
if [ "$action" = stop ]; then stop; exit 0; fi

host=$(hostname -s)
mkdir -p "$dir"/state "$dir"/spool "$dir"/munge
# munge: its own key and socket, so a system munged (if any) is not touched
[ -s "$dir/munge/munge.key" ] || dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$dir/munge"; chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/socket" \
       --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
       --seed-file="$dir/munge/seed"
memory=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
cat > "$dir/slurm.conf" <<CONF
ClusterName=synclab
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SlurmctldPort=${SYNCLAB_SLURMCTLD_PORT:-6817}
SlurmdPort=${SYNCLAB_SLURMD_PORT:-6818}
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" -i   # -i: no state from an earlier run
slurmd -f "$SLURM_CONF"
# ready when the node takes jobs
for _ in $(seq 30); do
  state=$(timeout 5 sinfo -h -N -o %T 2>/dev/null | head -1 || true)
  case $state in idle*|mixed*|allocated*) echo "export SLURM_CONF=$SLURM_CONF"; exit 0 ;; esac
  sleep 1
done
echo "local-slurm: the node did not come up (state '${state:-none}'); logs in $dir" >&2
stop
exit 1
