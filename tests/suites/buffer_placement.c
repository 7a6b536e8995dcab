/* Placement probe for tests/suites/test_buffer_placement.py: loaded into the
 * core with LD_PRELOAD, it notes for the benchmarks' MPI_Gather (on the
 * root, MPI_BYTE) and MPI_Allreduce calls (MPI_FLOAT, IMB's reduction type)
 * how far the receive buffer starts after the send buffer, once per call and
 * message size. The engine's own collectives (on MPI_COMM_WORLD itself, or
 * of doubles and ints) are left out. At MPI_Finalize each rank
 * prints "placement rank R: CALL BYTES OFFSET" lines to stderr.
 *
 * Built by the test with the MPI's own wrapper: mpicc -shared -fPIC. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define MAX_SEEN 256
static struct { const char *call; long bytes, offset; } seen[MAX_SEEN];
static int n_seen;

static void note(const char *call, const void *s, const void *r, int count, MPI_Datatype type, MPI_Comm comm) {
  int same;
  PMPI_Comm_compare(comm, MPI_COMM_WORLD, &same);
  if (same == MPI_IDENT || s == MPI_IN_PLACE) return;
  int size;
  PMPI_Type_size(type, &size);
  long bytes = (long)count * size, offset = (long)((const char *)r - (const char *)s);
  for (int i = 0; i < n_seen; i++)
    if (seen[i].call == call && seen[i].bytes == bytes) return;
  if (n_seen < MAX_SEEN) {
    seen[n_seen].call = call;
    seen[n_seen].bytes = bytes;
    seen[n_seen++].offset = offset;
  }
}

int MPI_Gather(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, int root, MPI_Comm comm) {
  int rank;
  PMPI_Comm_rank(comm, &rank);
  if (rank == root && st == MPI_BYTE) note("Gather", s, r, sc, st, comm);
  return PMPI_Gather(s, sc, st, r, rc, rt, root, comm);
}

int MPI_Allreduce(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  if (type == MPI_FLOAT) note("Allreduce", s, r, count, type, comm);
  return PMPI_Allreduce(s, r, count, type, op, comm);
}

int MPI_Finalize(void) {
  int rank;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < n_seen; i++)
    fprintf(stderr, "placement rank %d: %s %ld %ld\n", rank, seen[i].call, seen[i].bytes, seen[i].offset);
  return PMPI_Finalize();
}
