/* MPICH 4.0.2 (ch4:ucx, Debian 12), MPI-4 persistent collectives started
 * three times, root 0, one int per rank, 2 ranks: the root's own block of
 * MPI_Gather_init never arrives, and MPI_Scatter_init delivers to the other
 * rank only at the first start. (mpimark-core mpi4 -check shows these as
 * defects in Gather_persist and Scatter_persist, next to Allgather_persist.)
 *
 *   mpicc.mpich -o pcoll mpich-4.0.2-persistent-gather-scatter.c
 *   mpiexec.mpich -n 2 ./pcoll
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int mine = 100 + rank, gathered[2], parts[2] = {200, 201}, part;
  MPI_Request g, s;
  MPI_Gather_init(&mine, 1, MPI_INT, gathered, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &g);
  MPI_Scatter_init(parts, 1, MPI_INT, &part, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
  for (int k = 0; k < 3; k++) {
    gathered[0] = gathered[1] = part = -1;
    MPI_Start(&g);
    MPI_Wait(&g, MPI_STATUS_IGNORE);
    MPI_Start(&s);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    if (rank == 0)
      printf("start %d: gather at root %d %d (want 100 101)%s\n", k, gathered[0], gathered[1],
             gathered[0] == 100 && gathered[1] == 101 ? "" : " WRONG");
    printf("start %d: rank %d scatter got %d (want %d)%s\n", k, rank, part, 200 + rank,
           part == 200 + rank ? "" : " WRONG");
  }
  MPI_Request_free(&g);
  MPI_Request_free(&s);
  MPI_Finalize();
  return 0;
}
