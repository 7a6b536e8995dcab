#!/usr/bin/env bash
# scripts/fake-hosts.sh: give this one machine the host names the placement
# tests launch on, each on a loopback address of its own:
#
#   127.0.0.2 mm-node1    127.0.0.3 mm-node2    127.0.0.4 mm-node3
#
# Adds the missing lines to /etc/hosts (root only) and changes nothing else;
# safe to run again. scripts/test.sh runs it. Without root and without the
# names, it says so and exits 1; the tests that need them then skip and say why.
# The remote shell that "reaches" these hosts is scripts/fake-rsh.
set -euo pipefail

HOSTS_FILE=${MPIMARK_HOSTS_FILE:-/etc/hosts}
NAMES=(mm-node1 mm-node2 mm-node3)

missing=()
for i in "${!NAMES[@]}"; do
  name=${NAMES[$i]}
  addr=127.0.0.$((i + 2))
  # An exact "ADDR ... NAME" line; a name mapped elsewhere is left alone and reported.
  if awk -v a="$addr" -v n="$name" '$1 == a { for (i = 2; i <= NF; i++) if ($i == n) f = 1 } END { exit !f }' "$HOSTS_FILE"; then
    continue
  fi
  if getent hosts "$name" >/dev/null; then
    echo "fake-hosts: warning: $name resolves to $(getent hosts "$name" | awk '{print $1}'), not $addr; left as it is" >&2
    continue
  fi
  missing+=("$addr $name")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ ! -w "$HOSTS_FILE" ]; then
  echo "fake-hosts: error: cannot add ${missing[*]} to $HOSTS_FILE (not writable; run as root)" >&2
  exit 1
fi
{
  echo "# mpimark placement tests (scripts/fake-hosts.sh): names for loopback addresses"
  printf '%s\n' "${missing[@]}"
} >>"$HOSTS_FILE"
echo "fake-hosts: added to $HOSTS_FILE: ${missing[*]}" >&2
