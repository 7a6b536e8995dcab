/* Open MPI 4.1.4 with osc/rdma as the only one-sided component (Debian's
 * /etc/openmpi/openmpi-mca-params.conf has "osc = ^ucx,pt2pt"):
 *  1. MPI_Win_create on a one-process communicator fails (MPI_ERR_WIN);
 *  2. the halves of one MPI_Comm_split creating windows at the same time:
 *     the second half fails (MPI_ERR_WIN, "open(2) ... No such file"), since
 *     the shared-memory file name repeats the communicator id, which both
 *     halves share (open-mpi/ompi#9492).
 *
 *   mpicc -o wincreate ompi-4.1-osc-rdma-win-create.c
 *   mpiexec --oversubscribe -n 4 ./wincreate                 # failures
 *   mpiexec --oversubscribe --mca osc pt2pt -n 4 ./wincreate # all rc=0
 */
#include <mpi.h>
#include <stdio.h>

static int create(MPI_Comm comm) {
  static int mem[16];
  MPI_Win w;
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int rc = MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL, comm, &w);
  if (rc == MPI_SUCCESS) MPI_Win_free(&w);
  return rc;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int wrank, wsize;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  int rc_self = create(MPI_COMM_SELF);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, wrank < wsize / 2, wrank, &half);
  int rc_half = create(half);
  printf("world rank %d: MPI_COMM_SELF rc=%d, half of MPI_COMM_WORLD rc=%d\n", wrank, rc_self, rc_half);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
