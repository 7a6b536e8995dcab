#!/usr/bin/env bash
# A one-node Slurm on this machine, for the tests of mpimark's Slurm support
# (tests/slurm) and for trying `mpimark submit` without a cluster: munge,
# slurmctld and slurmd of Debian's slurm-wlm, started without systemd.
#
#   bash scripts/slurm-local.sh start    install (root with apt-get) and start; idempotent
#   bash scripts/slurm-local.sh status   exit 0 when sinfo shows an idle or busy node
#   bash scripts/slurm-local.sh stop     stop slurmctld, slurmd and munged
#
# Root only: the daemons run as root and the configuration is
# /etc/slurm/slurm.conf (written by start, for this host alone). One partition,
# debug, holding this node; OverSubscribe=FORCE:4 lets the tests' jobs share
# its cores. No accounting storage: sacct does not work here, so mpimark
# learns a job's end from scontrol and the files the job leaves.
set -euo pipefail

say() { echo "slurm-local: $*" >&2; }

up() { sinfo -h -o %t 2>/dev/null | grep -Eq '^(idle|mix|alloc)'; }

case "${1:-start}" in
start)
  if [ "$(id -u)" != 0 ]; then
    say "needs root (it installs slurm-wlm and writes /etc/slurm/slurm.conf)"
    exit 1
  fi
  if command -v sinfo >/dev/null && up; then
    say "already running"
    exit 0
  fi
  if ! command -v slurmctld >/dev/null; then
    if ! command -v apt-get >/dev/null; then
      say "no slurmctld and no apt-get to install slurm-wlm"
      exit 1
    fi
    say "installing slurm-wlm and munge from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck source=apt-wait.sh
    . "$(dirname "${BASH_SOURCE[0]}")/apt-wait.sh"  # apt_get: waits (bounded) while another apt-get holds the lock
    apt_get install -y -q slurm-wlm munge 2>/dev/null ||
      { apt_get update -q && apt_get install -y -q slurm-wlm munge; }
  fi
  # munge: Debian's package made /etc/munge/munge.key when it was installed.
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  chmod 0755 /run/munge
  pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged
  munge -n | unmunge >/dev/null
  host=$(hostname -s)
  cpus=$(nproc)
  memory=$(($(awk '/MemTotal/ { print $2 }' /proc/meminfo) / 1024 - 1024))
  mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/slurm
  cat >/etc/slurm/slurm.conf <<CONF
# Written by mpimark's scripts/slurm-local.sh: one node, this host.
ClusterName=local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
  pgrep -x slurmctld >/dev/null || slurmctld
  for _ in $(seq 1 20); do scontrol ping >/dev/null 2>&1 && break; sleep 0.5; done
  pgrep -x slurmd >/dev/null || slurmd
  for _ in $(seq 1 40); do up && break; sleep 0.5; done
  if ! up; then
    say "slurmd did not come up; see /var/log/slurm/slurmctld.log and slurmd.log"
    exit 1
  fi
  sinfo >&2
  ;;
status)
  command -v sinfo >/dev/null && up
  ;;
stop)
  scontrol shutdown >/dev/null 2>&1 || true
  sleep 2
  if [ -f /run/munge/munged.pid ]; then kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true; fi
  ;;
*)
  say "usage: slurm-local.sh start|status|stop"
  exit 2
  ;;
esac
