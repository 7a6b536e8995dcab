/* Call-order probe for tests/suites/test_rma_target_waits_in_barrier.py:
 * loaded into the core with LD_PRELOAD, it watches each rank's MPI calls
 * through the profiling interface and counts the collectives other than
 * MPI_Barrier that a rank enters while one-sided operations it started may
 * still need the target (from the first MPI_Put, _Get, _Accumulate,
 * _Get_accumulate, _Fetch_and_op or _Compare_and_swap to the next
 * MPI_Barrier). Collectives match in order across ranks, so such a call
 * means the target waits in that collective, not in MPI_Barrier as in
 * IMB-RMA, while the origin still needs its progress. At MPI_Finalize each
 * rank prints one line "rma_order rank R: N CALL[,CALL...]" to stderr.
 *
 * Built by the test with the MPI's own wrapper: mpicc -shared -fPIC. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int pending;       /* one-sided operations started since the last MPI_Barrier */
static long wrong;        /* other collectives entered while pending */
static char seen[256];    /* their names, each once */

static void started(void) { pending = 1; }

static void collective(const char *name) {
  if (!pending) return;
  wrong++;
  if (!strstr(seen, name) && strlen(seen) + strlen(name) + 2 < sizeof(seen)) {
    if (seen[0]) strcat(seen, ",");
    strcat(seen, name);
  }
}

int MPI_Put(const void *o, int oc, MPI_Datatype ot, int t, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Win w) {
  started();
  return PMPI_Put(o, oc, ot, t, d, tc, tt, w);
}
int MPI_Get(void *o, int oc, MPI_Datatype ot, int t, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Win w) {
  started();
  return PMPI_Get(o, oc, ot, t, d, tc, tt, w);
}
int MPI_Accumulate(const void *o, int oc, MPI_Datatype ot, int t, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Op op,
                   MPI_Win w) {
  started();
  return PMPI_Accumulate(o, oc, ot, t, d, tc, tt, op, w);
}
int MPI_Get_accumulate(const void *o, int oc, MPI_Datatype ot, void *r, int rc, MPI_Datatype rt, int t, MPI_Aint d,
                       int tc, MPI_Datatype tt, MPI_Op op, MPI_Win w) {
  started();
  return PMPI_Get_accumulate(o, oc, ot, r, rc, rt, t, d, tc, tt, op, w);
}
int MPI_Fetch_and_op(const void *o, void *r, MPI_Datatype dt, int t, MPI_Aint d, MPI_Op op, MPI_Win w) {
  started();
  return PMPI_Fetch_and_op(o, r, dt, t, d, op, w);
}
int MPI_Compare_and_swap(const void *o, const void *c, void *r, MPI_Datatype dt, int t, MPI_Aint d, MPI_Win w) {
  started();
  return PMPI_Compare_and_swap(o, c, r, dt, t, d, w);
}

int MPI_Barrier(MPI_Comm comm) {
  pending = 0;
  return PMPI_Barrier(comm);
}
int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {
  collective("MPI_Allreduce");
  return PMPI_Allreduce(s, r, n, dt, op, comm);
}
int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm) {
  collective("MPI_Reduce");
  return PMPI_Reduce(s, r, n, dt, op, root, comm);
}
int MPI_Bcast(void *b, int n, MPI_Datatype dt, int root, MPI_Comm comm) {
  collective("MPI_Bcast");
  return PMPI_Bcast(b, n, dt, root, comm);
}
int MPI_Gather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root, MPI_Comm comm) {
  collective("MPI_Gather");
  return PMPI_Gather(s, sn, st, r, rn, rt, root, comm);
}
int MPI_Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm comm) {
  collective("MPI_Allgather");
  return PMPI_Allgather(s, sn, st, r, rn, rt, comm);
}

int MPI_Win_free(MPI_Win *w) {
  collective("MPI_Win_free");
  return PMPI_Win_free(w);
}

int MPI_Finalize(void) {
  int rank;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fprintf(stderr, "rma_order rank %d: %ld %s\n", rank, wrong, seen[0] ? seen : "-");
  return PMPI_Finalize();
}
