# Sourced by scripts/setup.sh and scripts/slurm-local.sh: apt_get ARGS runs `apt-get ARGS` (its stdout
# dropped, as theirs was), waiting while another apt-get or dpkg (unattended-upgrades, a second
# setup) holds apt's locks, instead of failing at once with status 100.
#
# DPkg::Lock::Timeout makes `apt-get install` wait for dpkg's lock, but apt 2.6's `apt-get update` does
# not wait for the lists lock; so every apt-get is tried again while it fails on a lock, every
# APT_LOCK_POLL_S seconds, at most APT_LOCK_WAIT_S seconds in all, saying so on stderr.

APT_LOCK_WAIT_S=${APT_LOCK_WAIT_S:-600}
APT_LOCK_POLL_S=${APT_LOCK_POLL_S:-5}

apt_get() {
  local errors holder status started=$SECONDS said=0
  errors=$(mktemp)
  while :; do
    status=0
    apt-get -o DPkg::Lock::Timeout="$APT_LOCK_WAIT_S" "$@" >/dev/null 2>"$errors" || status=$?
    if [ "$status" = 0 ] || ! grep -q "Could not get lock" "$errors"; then
      cat "$errors" >&2
      rm -f "$errors"
      return "$status"
    fi
    if [ $((SECONDS - started)) -ge "$APT_LOCK_WAIT_S" ]; then
      cat "$errors" >&2
      echo "apt-get: gave up after waiting ${APT_LOCK_WAIT_S} s for apt's lock (APT_LOCK_WAIT_S)" >&2
      rm -f "$errors"
      return "$status"
    fi
    if [ "$said" = 0 ]; then
      holder=$(grep -o 'held by process [^.]*' "$errors" | head -1 || true)
      echo "apt-get $1: another apt-get or dpkg holds apt's lock${holder:+ ($holder)}; waiting for it," \
        "at most ${APT_LOCK_WAIT_S} s (APT_LOCK_WAIT_S)" >&2
      said=1
    fi
    sleep "$APT_LOCK_POLL_S"
  done
}
