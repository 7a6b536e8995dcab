/* For tests/suites/test_osu_onesided.py: loaded into the core with
 * LD_PRELOAD, it makes MPI refuse one synchronisation call (through the MPI
 * profiling interface): the call named in $MPIMARK_REFUSE (lock_all, fence)
 * returns MPI_ERR_RMA_SYNC without doing anything, as a library without that
 * mode would. The core must then say so in one line and exit, not crash or hang.
 *
 * Built by the test with the MPI's own wrapper: mpicc -shared -fPIC. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static int refused(const char *call) {
  const char *r = getenv("MPIMARK_REFUSE");
  return r && strcmp(r, call) == 0;
}

int MPI_Win_lock_all(int assert_, MPI_Win w) {
  if (refused("lock_all")) return MPI_ERR_RMA_SYNC;
  return PMPI_Win_lock_all(assert_, w);
}

int MPI_Win_fence(int assert_, MPI_Win w) {
  if (refused("fence")) return MPI_ERR_RMA_SYNC;
  return PMPI_Win_fence(assert_, w);
}
