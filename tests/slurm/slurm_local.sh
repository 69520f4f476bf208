#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A single-node Slurm on this machine, for tests/slurm/run_slurm_ci.sh:
# munged, slurmctld and slurmd as root without systemd, every file under
# one directory. Source it, then:
#   slurm_local_start DIR   start the daemons (DIR is created), export SLURM_CONF
#   slurm_local_stop        cancel the jobs, stop the daemons (safe to call
#                           twice, and from a trap)
# cred_expire=10: Slurm holds a requeued job for cred_expire + 1 seconds
# (120 by default) before it may start again.
# Debian's slurm-wlm 22.05 and munge; installs them when missing.

slurm_local_install() {
  local need=()
  command -v munged >/dev/null 2>&1 || need+=(munge)
  command -v slurmctld >/dev/null 2>&1 && command -v slurmd >/dev/null 2>&1 && command -v sbatch >/dev/null 2>&1 ||
    need+=(slurm-wlm)
  [ ${#need[@]} -eq 0 ] && return 0
  echo "slurm_local: installing ${need[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
}

# A free TCP port from 20000 up (slurmctld and slurmd need one each).
slurm_local_port() {
  local p=$1
  while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
  echo "$p"
}

slurm_local_start() {
  SLURM_LOCAL_DIR=$1
  mkdir -p "$SLURM_LOCAL_DIR"/{munge,state,spool,log}
  chmod 700 "$SLURM_LOCAL_DIR" "$SLURM_LOCAL_DIR/munge"
  local d=$SLURM_LOCAL_DIR host cpus ctl_port node_port
  host=$(hostname -s)
  cpus=${SLURM_LOCAL_CPUS:-2}
  ctl_port=$(slurm_local_port 26817)
  node_port=$(slurm_local_port $((ctl_port + 1)))

  dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$d/munge/munge.key"
  cd "$d" || return 1 # the daemons' working directory
  munged -F --force --key-file="$d/munge/munge.key" --socket="$d/munge/munge.sock" \
    --pid-file="$d/munge/munged.pid" --log-file="$d/log/munged.log" --seed-file="$d/munge/munged.seed" >"$d/log/munged.out" 2>&1 &
  SLURM_LOCAL_PIDS=($!)
  for _ in $(seq 50); do [ -S "$d/munge/munge.sock" ] && break; sleep 0.1; done

  cat >"$d/slurm.conf" <<CONF
ClusterName=tuongci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctl_port
SlurmdPort=$node_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$d/munge/munge.sock,cred_expire=10
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
JobRequeue=1
MinJobAge=600
KillWait=2
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
  export SLURM_CONF=$d/slurm.conf
  slurmctld -D -i -f "$SLURM_CONF" >"$d/log/slurmctld.out" 2>&1 &
  SLURM_LOCAL_PIDS+=($!)
  slurmd -D -f "$SLURM_CONF" >"$d/log/slurmd.out" 2>&1 &
  SLURM_LOCAL_PIDS+=($!)
  cd - >/dev/null || return 1
  # Up when the node is idle.
  for _ in $(seq 100); do
    if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then return 0; fi
    sleep 0.3
  done
  echo "slurm_local: the node did not come up; logs:"
  tail -n 20 "$d"/log/*
  return 1
}

slurm_local_stop() {
  local pid i
  [ -n "${SLURM_LOCAL_PIDS:-}" ] || return 0
  # Jobs first, while slurmd can still clean up after them, so no task
  # outlives the daemons; only this cluster's (never a real cluster's,
  # should the start have failed before SLURM_CONF was set).
  if [ "${SLURM_CONF:-}" = "$SLURM_LOCAL_DIR/slurm.conf" ]; then
    scancel --user=root >/dev/null 2>&1 || true
    for _ in $(seq 50); do
      [ -z "$(squeue -h -t pending,running,configuring,completing,suspended,requeued 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  for ((i = ${#SLURM_LOCAL_PIDS[@]} - 1; i >= 0; i--)); do
    pid=${SLURM_LOCAL_PIDS[$i]}
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${SLURM_LOCAL_PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  SLURM_LOCAL_PIDS=()
  # A step daemon left behind listens on a socket in this cluster's spool
  # directory: end those (and only those).
  if command -v ss >/dev/null 2>&1; then
    for pid in $(ss -xlpn 2>/dev/null | grep -F "$SLURM_LOCAL_DIR/spool/" | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -u); do
      kill -9 "$pid" 2>/dev/null || true
    done
  fi
}
