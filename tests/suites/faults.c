/* Fault injection for tests/suites/test_check_finds_faults.py: loaded into
 * the core with LD_PRELOAD, it intercepts the MPI calls of the one-sided and
 * nonblocking suites (and mpibench's Bcast, OSU's Alltoall) (through the MPI profiling interface) and, for the
 * call named in $MPIMARK_FAULT (lower case, e.g. put, ibcast, bcast_init),
 * moves one element less than asked (or, for
 * Fetch_and_op and Compare_and_swap, which move one element, makes the
 * operation a no-op / the comparison fail). send and isend spoil the point to
 * point calls (the OSU suite's ping-pongs and windows: test_osu_pt2pt.py). -check must then report defects
 * in exactly the benchmarks that use that call; the rest stay clean.
 *
 * Built by the test with the MPI's own wrapper: mpicc -shared -fPIC. The
 * count arrays of the v-collectives are copied and never freed: a
 * nonblocking or persistent call may read them until it completes. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static int on(const char *call) {
  const char *f = getenv("MPIMARK_FAULT");
  return f && strcmp(f, call) == 0;
}

/* One element less, never below zero. */
static int less(int count) { return count > 0 ? count - 1 : 0; }

/* A copy of counts[0..n) with one element less each; leaked on purpose. */
static int *fewer(const int *counts, MPI_Comm comm, int remote_size) {
  int n = remote_size;
  if (n <= 0) MPI_Comm_size(comm, &n);
  int *out = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; i++) out[i] = less(counts[i]);
  return out;
}

/* --- point to point --------------------------------------------------------- */

int MPI_Send(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c) {
  if (on("send")) n = less(n);
  return PMPI_Send(b, n, t, dest, tag, c);
}

int MPI_Isend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r) {
  if (on("isend")) n = less(n);
  return PMPI_Isend(b, n, t, dest, tag, c, r);
}

/* --- one-sided ------------------------------------------------------------ */

int MPI_Put(const void *o, int oc, MPI_Datatype ot, int t, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Win w) {
  if (on("put")) oc = less(oc), tc = less(tc);
  return PMPI_Put(o, oc, ot, t, d, tc, tt, w);
}

int MPI_Get(void *o, int oc, MPI_Datatype ot, int t, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Win w) {
  if (on("get")) oc = less(oc), tc = less(tc);
  return PMPI_Get(o, oc, ot, t, d, tc, tt, w);
}

int MPI_Accumulate(const void *o, int oc, MPI_Datatype ot, int t, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Op op,
                   MPI_Win w) {
  if (on("accumulate")) oc = less(oc), tc = less(tc);
  return PMPI_Accumulate(o, oc, ot, t, d, tc, tt, op, w);
}

int MPI_Get_accumulate(const void *o, int oc, MPI_Datatype ot, void *r, int rc, MPI_Datatype rt, int t, MPI_Aint d,
                       int tc, MPI_Datatype tt, MPI_Op op, MPI_Win w) {
  if (on("get_accumulate")) oc = less(oc), rc = less(rc), tc = less(tc);
  return PMPI_Get_accumulate(o, oc, ot, r, rc, rt, t, d, tc, tt, op, w);
}

int MPI_Fetch_and_op(const void *o, void *r, MPI_Datatype dt, int t, MPI_Aint d, MPI_Op op, MPI_Win w) {
  if (on("fetch_and_op")) op = MPI_NO_OP;  /* fetches, but leaves the target as it was */
  return PMPI_Fetch_and_op(o, r, dt, t, d, op, w);
}

int MPI_Compare_and_swap(const void *o, const void *c, void *r, MPI_Datatype dt, int t, MPI_Aint d, MPI_Win w) {
  static int never[64];
  if (on("compare_and_swap")) {  /* a compare value the target never holds: no swap */
    memcpy(never, c, sizeof(int));
    never[0] ^= 0x5a5a5a5a;
    c = never;
  }
  return PMPI_Compare_and_swap(o, c, r, dt, t, d, w);
}

/* --- blocking collectives (mpibench -C) ------------------------------------------ */

/* Only MPI_BYTE data, mpiBench's: the core's own broadcasts (loop control) carry other types. */
int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c) {
  if (t != MPI_BYTE) return PMPI_Bcast(b, n, t, root, c);
  if (on("bcast")) n = less(n);
  int rc = PMPI_Bcast(b, n, t, root, c), me;
  MPI_Comm_rank(c, &me);
  /* The root's send buffer changed just past the message: what only a check of
   * the whole send buffer in every call (mpiBench's -C) can see. */
  if (on("bcast_send_tail") && me == root) ((unsigned char *)b)[n] ^= 0x5a;
  return rc;
}

/* The OSU suite's blocking collectives (test_osu_coll.py): Alltoall, which the core never uses for its own
 * control messages. */
int MPI_Alltoall(const void *s, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, MPI_Comm c) {
  if (on("alltoall")) sn = less(sn), rn = less(rn);
  return PMPI_Alltoall(s, sn, st, rb, rn, rt, c);
}

/* --- nonblocking collectives ----------------------------------------------------- */

int MPI_Ibcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request *r) {
  if (on("ibcast")) n = less(n);
  return PMPI_Ibcast(b, n, t, root, c, r);
}

int MPI_Iallgather(const void *s, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, MPI_Comm c,
                   MPI_Request *r) {
  if (on("iallgather")) sn = less(sn), rn = less(rn);
  return PMPI_Iallgather(s, sn, st, rb, rn, rt, c, r);
}

int MPI_Iallgatherv(const void *s, int sn, MPI_Datatype st, void *rb, const int rn[], const int dis[], MPI_Datatype rt,
                    MPI_Comm c, MPI_Request *r) {
  if (on("iallgatherv")) sn = less(sn), rn = fewer(rn, c, 0);
  return PMPI_Iallgatherv(s, sn, st, rb, rn, dis, rt, c, r);
}

int MPI_Igather(const void *s, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root, MPI_Comm c,
                MPI_Request *r) {
  if (on("igather")) sn = less(sn), rn = less(rn);
  return PMPI_Igather(s, sn, st, rb, rn, rt, root, c, r);
}

int MPI_Igatherv(const void *s, int sn, MPI_Datatype st, void *rb, const int rn[], const int dis[], MPI_Datatype rt,
                 int root, MPI_Comm c, MPI_Request *r) {
  int me;
  MPI_Comm_rank(c, &me);
  if (on("igatherv")) {
    sn = less(sn);
    if (me == root) rn = fewer(rn, c, 0);
  }
  return PMPI_Igatherv(s, sn, st, rb, rn, dis, rt, root, c, r);
}

int MPI_Iscatter(const void *s, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root, MPI_Comm c,
                 MPI_Request *r) {
  if (on("iscatter")) sn = less(sn), rn = less(rn);
  return PMPI_Iscatter(s, sn, st, rb, rn, rt, root, c, r);
}

int MPI_Iscatterv(const void *s, const int sn[], const int dis[], MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                  int root, MPI_Comm c, MPI_Request *r) {
  int me;
  MPI_Comm_rank(c, &me);
  if (on("iscatterv")) {
    rn = less(rn);
    if (me == root) sn = fewer(sn, c, 0);
  }
  return PMPI_Iscatterv(s, sn, dis, st, rb, rn, rt, root, c, r);
}

int MPI_Ialltoall(const void *s, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, MPI_Comm c,
                  MPI_Request *r) {
  if (on("ialltoall")) sn = less(sn), rn = less(rn);
  return PMPI_Ialltoall(s, sn, st, rb, rn, rt, c, r);
}

int MPI_Ialltoallv(const void *s, const int sn[], const int sd[], MPI_Datatype st, void *rb, const int rn[],
                   const int rd[], MPI_Datatype rt, MPI_Comm c, MPI_Request *r) {
  if (on("ialltoallv")) sn = fewer(sn, c, 0), rn = fewer(rn, c, 0);
  return PMPI_Ialltoallv(s, sn, sd, st, rb, rn, rd, rt, c, r);
}

int MPI_Ireduce(const void *s, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c, MPI_Request *r) {
  if (on("ireduce")) n = less(n);
  return PMPI_Ireduce(s, rb, n, t, op, root, c, r);
}

int MPI_Ireduce_scatter(const void *s, void *rb, const int rn[], MPI_Datatype t, MPI_Op op, MPI_Comm c,
                        MPI_Request *r) {
  if (on("ireduce_scatter")) rn = fewer(rn, c, 0);
  return PMPI_Ireduce_scatter(s, rb, rn, t, op, c, r);
}

int MPI_Iallreduce(const void *s, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c, MPI_Request *r) {
  if (on("iallreduce")) n = less(n);
  return PMPI_Iallreduce(s, rb, n, t, op, c, r);
}

/* --- MPI-4 persistent collectives ---------------------------------------------- */
#if MPI_VERSION >= 4

int MPI_Bcast_init(void *b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Info i, MPI_Request *r) {
  if (on("bcast_init")) n = less(n);
  return PMPI_Bcast_init(b, n, t, root, c, i, r);
}

int MPI_Allgather_init(const void *s, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, MPI_Comm c,
                       MPI_Info i, MPI_Request *r) {
  if (on("allgather_init")) sn = less(sn), rn = less(rn);
  return PMPI_Allgather_init(s, sn, st, rb, rn, rt, c, i, r);
}

int MPI_Allgatherv_init(const void *s, int sn, MPI_Datatype st, void *rb, const int rn[], const int dis[],
                        MPI_Datatype rt, MPI_Comm c, MPI_Info i, MPI_Request *r) {
  if (on("allgatherv_init")) sn = less(sn), rn = fewer(rn, c, 0);
  return PMPI_Allgatherv_init(s, sn, st, rb, rn, dis, rt, c, i, r);
}

int MPI_Gather_init(const void *s, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root, MPI_Comm c,
                    MPI_Info i, MPI_Request *r) {
  if (on("gather_init")) sn = less(sn), rn = less(rn);
  return PMPI_Gather_init(s, sn, st, rb, rn, rt, root, c, i, r);
}

int MPI_Gatherv_init(const void *s, int sn, MPI_Datatype st, void *rb, const int rn[], const int dis[],
                     MPI_Datatype rt, int root, MPI_Comm c, MPI_Info i, MPI_Request *r) {
  int me;
  MPI_Comm_rank(c, &me);
  if (on("gatherv_init")) {
    sn = less(sn);
    if (me == root) rn = fewer(rn, c, 0);
  }
  return PMPI_Gatherv_init(s, sn, st, rb, rn, dis, rt, root, c, i, r);
}

int MPI_Scatter_init(const void *s, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                     MPI_Comm c, MPI_Info i, MPI_Request *r) {
  if (on("scatter_init")) sn = less(sn), rn = less(rn);
  return PMPI_Scatter_init(s, sn, st, rb, rn, rt, root, c, i, r);
}

int MPI_Scatterv_init(const void *s, const int sn[], const int dis[], MPI_Datatype st, void *rb, int rn,
                      MPI_Datatype rt, int root, MPI_Comm c, MPI_Info i, MPI_Request *r) {
  int me;
  MPI_Comm_rank(c, &me);
  if (on("scatterv_init")) {
    rn = less(rn);
    if (me == root) sn = fewer(sn, c, 0);
  }
  return PMPI_Scatterv_init(s, sn, dis, st, rb, rn, rt, root, c, i, r);
}

int MPI_Alltoall_init(const void *s, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, MPI_Comm c,
                      MPI_Info i, MPI_Request *r) {
  if (on("alltoall_init")) sn = less(sn), rn = less(rn);
  return PMPI_Alltoall_init(s, sn, st, rb, rn, rt, c, i, r);
}

int MPI_Alltoallv_init(const void *s, const int sn[], const int sd[], MPI_Datatype st, void *rb, const int rn[],
                       const int rd[], MPI_Datatype rt, MPI_Comm c, MPI_Info i, MPI_Request *r) {
  if (on("alltoallv_init")) sn = fewer(sn, c, 0), rn = fewer(rn, c, 0);
  return PMPI_Alltoallv_init(s, sn, sd, st, rb, rn, rd, rt, c, i, r);
}

int MPI_Reduce_init(const void *s, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c, MPI_Info i,
                    MPI_Request *r) {
  if (on("reduce_init")) n = less(n);
  return PMPI_Reduce_init(s, rb, n, t, op, root, c, i, r);
}

int MPI_Reduce_scatter_init(const void *s, void *rb, const int rn[], MPI_Datatype t, MPI_Op op, MPI_Comm c,
                            MPI_Info i, MPI_Request *r) {
  if (on("reduce_scatter_init")) rn = fewer(rn, c, 0);
  return PMPI_Reduce_scatter_init(s, rb, rn, t, op, c, i, r);
}

int MPI_Allreduce_init(const void *s, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c, MPI_Info i,
                       MPI_Request *r) {
  if (on("allreduce_init")) n = less(n);
  return PMPI_Allreduce_init(s, rb, n, t, op, c, i, r);
}

#endif
