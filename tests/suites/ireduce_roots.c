/* For tests/suites/test_ireduce_overlap_root.py: loaded into the core with
 * LD_PRELOAD, it counts on every rank the MPI_Ireduce calls per root and
 * prints "ireduce_roots rank R: n0 n1 ..." (calls with root 0, 1, ...) on
 * stderr at MPI_Finalize. Built by the test with the MPI's own mpicc. */
#include <mpi.h>
#include <stdio.h>

#define MAX_ROOTS 64
static long calls[MAX_ROOTS];

int MPI_Ireduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request *req) {
  if (root >= 0 && root < MAX_ROOTS) calls[root]++;
  return PMPI_Ireduce(s, r, n, t, op, root, comm, req);
}

int MPI_Finalize(void) {
  int rank, size;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  char line[1024];
  int at = snprintf(line, sizeof(line), "ireduce_roots rank %d:", rank);
  for (int i = 0; i < size && i < MAX_ROOTS && at < (int)sizeof(line) - 24; i++)
    at += snprintf(line + at, sizeof(line) - (size_t)at, " %ld", calls[i]);
  fprintf(stderr, "%s\n", line);
  return PMPI_Finalize();
}
