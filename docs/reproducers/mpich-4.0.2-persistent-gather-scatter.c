/* MPICH 4.0.2 (ch4:ucx, Debian 12), MPI-4 persistent collectives started
 * three times, root 0, one int per rank:
 *  - MPI_Gather_init: the root's own block never arrives (every count);
 *  - MPI_Allgather_init: wrong data from the second start on, at 2 and 4
 *    ranks (not at 3);
 *  - MPI_Scatter_init: at 2 ranks it delivers to the other rank only at the
 *    first start; at 3 or more ranks the second start's MPI_Wait aborts the
 *    job ("MPIDU_Sched_progress_state(1183): Invalid communicator").
 * (mpimark-core mpi4 -check shows the wrong data as defects in
 * Allgather_persist, Gather_persist and Scatter_persist and their _pure
 * flavours; Scatter_persist on 3 or more processes ends the run.)
 *
 *   mpicc.mpich -o pcoll mpich-4.0.2-persistent-gather-scatter.c
 *   mpiexec.mpich -n 2 ./pcoll     # WRONG lines
 *   mpiexec.mpich -n 3 ./pcoll     # WRONG gather lines, then the abort
 *   mpicc -o pcoll_ompi ... needs an MPI-4 library (Open MPI 4.1 has none)
 */
#include <mpi.h>
#include <stdio.h>

#define MAXP 64

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (np > MAXP) MPI_Abort(MPI_COMM_WORLD, 1);
  int mine = 100 + rank, gathered[MAXP], all[MAXP], parts[MAXP], part;
  for (int i = 0; i < np; i++) parts[i] = 200 + i;
  MPI_Request g, a, s;
  MPI_Gather_init(&mine, 1, MPI_INT, gathered, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &g);
  MPI_Allgather_init(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &a);
  MPI_Scatter_init(parts, 1, MPI_INT, &part, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
  for (int k = 0; k < 3; k++) {
    for (int i = 0; i < np; i++) gathered[i] = all[i] = -1;
    part = -1;
    MPI_Start(&g);
    MPI_Wait(&g, MPI_STATUS_IGNORE);
    MPI_Start(&a);
    MPI_Wait(&a, MPI_STATUS_IGNORE);
    int bad_g = 0, bad_a = 0;
    for (int i = 0; i < np; i++) {
      bad_g += gathered[i] != 100 + i;
      bad_a += all[i] != 100 + i;
    }
    if (rank == 0) printf("start %d: gather at root%s\n", k, bad_g ? " WRONG" : " ok");
    printf("start %d: rank %d allgather%s\n", k, rank, bad_a ? " WRONG" : " ok");
    fflush(stdout);
    MPI_Start(&s);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    printf("start %d: rank %d scatter got %d (want %d)%s\n", k, rank, part, 200 + rank,
           part == 200 + rank ? "" : " WRONG");
    fflush(stdout);
  }
  MPI_Request_free(&g);
  MPI_Request_free(&a);
  MPI_Request_free(&s);
  MPI_Finalize();
  return 0;
}
