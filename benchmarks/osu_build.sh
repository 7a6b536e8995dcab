#!/usr/bin/env bash
# OSU Micro-Benchmarks 7.4 built from its source for one MPI, for benchmarks/osu_parity.sh and
# benchmarks/osu_device.sh (issue 25). Only what the parity measures is built: c/mpi/startup,
# pt2pt/standard, one-sided and the blocking and non-blocking collectives (the persistent and
# neighborhood ones need MPI-4 or are not in the suite).
#
#   bash benchmarks/osu_build.sh [-cc MPICC] [-cxx MPICXX] [-src DIR] DEST
#
#   bash benchmarks/osu_build.sh /tmp/osu74                                   # Open MPI (mpicc)
#   bash benchmarks/osu_build.sh -cc /usr/bin/mpicc.mpich -cxx /usr/bin/mpicxx.mpich /tmp/osu74-mpich
#
# The source: -src DIR (an unpacked OSU 7.4 tree), or else the first commit of the mirrored
# sherrywong1220/osu-micro-benchmarks-7.4 (the tool `fetch github:sherrywong1220/osu-micro-benchmarks-7.4`
# puts it in /work/.mirror; OSU_GIT_DIR names another git dir). That commit is OSU 7.4 as released; the
# later commits of the mirror add the fork's own osu_get_mbw and osu_get_multi_lat changes.
# The tarball's aclocal.m4 comes from libtool 2.4.7, and Debian 12's libtool 2.4.6 stops make with
# "libtool: Version mismatch": autoreconf -fi regenerates it (needs autoconf, automake, libtool).
# The programs end up next to their sources, e.g. DEST/c/mpi/pt2pt/standard/osu_latency.
set -euo pipefail

CC_MPI=mpicc CXX_MPI=mpicxx SRC="" DEST=""
OSU_GIT_DIR=${OSU_GIT_DIR:-/work/.mirror/sherrywong1220+osu-micro-benchmarks-7.4/repo}
OSU_74_COMMIT=bed60f564c2908a6123315f49f6dd0c0ff5440a3  # "first commit": the 7.4 release tree
while [[ $# -gt 0 ]]; do
  case "$1" in
    -cc) CC_MPI=$2; shift 2 ;;
    -cxx) CXX_MPI=$2; shift 2 ;;
    -src) SRC=$2; shift 2 ;;
    -h|-help|--help) sed -n '2,18p' "$0"; exit 0 ;;
    -*) echo "osu_build.sh: unknown option '$1'; see -help" >&2; exit 2 ;;
    *) DEST=$1; shift ;;
  esac
done
[[ -n $DEST ]] || { echo "osu_build.sh: name the directory to build in (DEST); see -help" >&2; exit 2; }
for tool in "$CC_MPI" "$CXX_MPI" autoreconf make; do
  command -v "$tool" >/dev/null || { echo "osu_build.sh: '$tool' not found; install it or name another with -cc/-cxx" >&2; exit 2; }
done
if [[ -e $DEST/make.done ]]; then
  echo "osu_build.sh: $DEST is already built (remove $DEST/make.done to build again)" >&2
  exit 0
fi

mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)
if [[ -n $SRC ]]; then
  [[ -f $SRC/configure.ac && -d $SRC/c/util ]] || { echo "osu_build.sh: -src '$SRC' is not an OSU source tree (no configure.ac, c/util)" >&2; exit 2; }
  cp -a "$SRC/." "$DEST/"
else
  git --git-dir="$OSU_GIT_DIR" cat-file -e "$OSU_74_COMMIT" 2>/dev/null ||
    { echo "osu_build.sh: no OSU 7.4 source in $OSU_GIT_DIR; fetch github:sherrywong1220/osu-micro-benchmarks-7.4 or give -src DIR" >&2; exit 2; }
  git --git-dir="$OSU_GIT_DIR" archive "$OSU_74_COMMIT" | tar -x -C "$DEST"
fi

cd "$DEST"
# A copied, already configured tree keeps the other MPI's objects and Makefiles: start clean.
[[ -f Makefile ]] && make distclean >/dev/null 2>&1 || true
autoreconf -fi >autoreconf.log 2>&1 || { echo "osu_build.sh: autoreconf failed; see $DEST/autoreconf.log" >&2; exit 1; }
./configure CC="$CC_MPI" CXX="$CXX_MPI" >configure.log 2>&1 || { echo "osu_build.sh: configure failed; see $DEST/configure.log" >&2; exit 1; }
for dir in c/mpi/startup c/mpi/pt2pt/standard c/mpi/one-sided c/mpi/collective/blocking c/mpi/collective/non_blocking; do
  log=make_$(basename "$dir").log
  make -C "$dir" -j"${OSU_BUILD_JOBS:-1}" >"$log" 2>&1 || { echo "osu_build.sh: make in $dir failed; see $DEST/$log" >&2; exit 1; }
done
date -u '+%Y-%m-%d %H:%M UTC' >make.done
echo "osu_build.sh: OSU 7.4 built with $CC_MPI in $DEST" >&2
