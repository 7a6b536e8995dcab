/* The collectives of OSU 7.4's c/mpi/collective/{blocking,non_blocking}: one
 * table for both forms, so that osu_allreduce and osu_iallreduce run the same
 * buffers, counts, roots and in-place conventions. */
#include "suites/osu/osu_coll_calls.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "suites/osu/osu_buffers.h"
#include "suites/osu/osu_figures.h"
#include "util/patterns.h"

/* The send and receive buffers as multiples of the largest size: 1 (one
 * size), 'P' (one size per process), 0 (none). OSU's allocations in each
 * program; scatter's receive buffer holds a whole send buffer because the
 * in-place root scatters from it. bcast has one buffer (the receive one). */
typedef struct {
  const char *name;
  osu_coll_kind_t kind;
  char send, recv;
  int rooted;
} coll_fact_t;

static const coll_fact_t FACTS[] = {
    {"allgather", OSU_ALLGATHER, 1, 'P', 0},
    {"allgatherv", OSU_ALLGATHERV, 1, 'P', 0},
    {"allreduce", OSU_ALLREDUCE, 1, 1, 0},
    {"alltoall", OSU_ALLTOALL, 'P', 'P', 0},
    {"alltoallv", OSU_ALLTOALLV, 'P', 'P', 0},
    {"alltoallw", OSU_ALLTOALLW, 'P', 'P', 0},
    {"barrier", OSU_BARRIER, 0, 0, 0},
    {"bcast", OSU_BCAST, 0, 1, 0},
    {"gather", OSU_GATHER, 1, 'P', 1},
    {"gatherv", OSU_GATHERV, 1, 'P', 1},
    {"reduce", OSU_REDUCE, 1, 1, 1},
    {"reduce_scatter", OSU_REDUCE_SCATTER, 1, 1, 0},
    {"reduce_scatter_block", OSU_REDUCE_SCATTER_BLOCK, 1, 1, 0},
    {"scatter", OSU_SCATTER, 'P', 'P', 1},
    {"scatterv", OSU_SCATTERV, 'P', 'P', 1},
};

static const coll_fact_t *fact_of(const osu_test_t *t) {
  const char *name = t->name;
  if (strncmp(name, "osu_", 4) == 0) name += 4;
  if (t->family == OSU_FAM_NBC && name[0] == 'i') name++;
  for (size_t i = 0; i < sizeof FACTS / sizeof FACTS[0]; i++)
    if (strcmp(FACTS[i].name, name) == 0) return &FACTS[i];
  return NULL;
}

static size_t bytes_for(char multiple, size_t max, int np) {
  return multiple == 'P' ? max * (size_t)np : multiple == 1 ? max : 0;
}

static char *written(size_t bytes, int value, int *failed) {
  char *p = osu_alloc(bytes, value);
  if (!p) *failed = 1;
  return p;
}

static void release(osu_coll_t *k) {
  if (!k) return;
  osu_free(k->send);
  osu_free(k->recv);
  osu_free(k->warm);
  free(k->counts);
  free(k->displs);
  free(k->types);
  free(k);
}

int osu_coll_setup(osu_ctx_t *c) {
  const coll_fact_t *f = fact_of(c->test);
  if (!f) {
    snprintf(c->err, sizeof c->err, "osu_%s is not a collective this core knows", c->test->name);
    return -1;
  }
  if (f->rooted && !c->o->root_rotate && c->o->root_rank >= c->np) {
    snprintf(c->err, sizeof c->err,
             "-k fixed:%d names no rank of %d processes; give a root below %d or -k rotate",
             c->o->root_rank, c->np, c->np);
    return -1;
  }
  size_t whole = c->o->max_size * (size_t)c->np;
  if (f->kind == OSU_ALLGATHERV || f->kind == OSU_ALLTOALLV || f->kind == OSU_ALLTOALLW || f->kind == OSU_GATHERV ||
      f->kind == OSU_SCATTERV) {
    if (whole > INT_MAX) {
      snprintf(c->err, sizeof c->err,
               "osu_%s's displacements are ints: -m MAX times %d processes must stay below 2 GiB; lower -m or -M",
               c->test->name, c->np);
      return -1;
    }
  }
  int failed = 0;
  osu_coll_t *k = calloc(1, sizeof *k);
  if (!k) failed = 1;
  if (k) {
    size_t max = c->o->max_size;
    k->kind = f->kind;
    k->rooted = f->rooted;
    k->send_bytes = bytes_for(f->send, max, c->np);
    k->recv_bytes = bytes_for(f->recv, max, c->np);
    k->send = written(k->send_bytes, 1, &failed);
    k->recv = written(k->recv_bytes, 0, &failed);
    /* Only -c's untimed repetitions receive here. */
    if (c->o->validate) k->warm = written(k->recv_bytes, 0, &failed);
    k->counts = calloc((size_t)c->np, sizeof *k->counts);
    k->displs = calloc((size_t)c->np, sizeof *k->displs);
    k->types = calloc((size_t)c->np, sizeof *k->types);
    if (!k->counts || !k->displs || !k->types) failed = 1;
  }
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, c->comm);
  if (any_failed) {
    size_t per_process = k ? k->send_bytes + k->recv_bytes * (c->o->validate ? 2 : 1) : 0;
    release(k);
    snprintf(c->err, sizeof c->err,
             "no memory for osu_%s's %zu bytes of buffers per process; lower -m or -M", c->test->name,
             per_process);
    return -1;
  }
  c->user = k;
  return 0;
}

int osu_coll_teardown(osu_ctx_t *c) {
  release(c->user);
  c->user = NULL;
  return 0;
}

void osu_coll_prepare(osu_coll_t *k, const osu_ctx_t *c) {
  size_t n = c->count;
  k->n = n;
  k->part = n / (size_t)c->np;
  for (int p = 0; p < c->np; p++) {
    if (k->kind == OSU_REDUCE_SCATTER) {
      /* OSU's split: the first n mod np processes one element more. */
      k->counts[p] = (int)split_count(n, c->np, p);
      k->displs[p] = (int)split_offset(n, c->np, p);
    } else {
      k->counts[p] = (int)n;
      /* alltoallw's displacements are in bytes, the others' in elements. */
      k->displs[p] = (int)(k->kind == OSU_ALLTOALLW ? (size_t)p * n * (size_t)c->type_size : (size_t)p * n);
    }
    k->types[p] = c->type;
  }
}

int osu_coll_root(const osu_coll_t *k, const osu_ctx_t *c, long i) {
  if (!k->rooted) return 0;
  return c->o->root_rotate ? root_of_iteration(i, 1, c->np) : c->o->root_rank;
}

/* OSU's -l: MPI_IN_PLACE where the collective allows it; a rooted one only at
 * its root (the root of scatter sends from its receive buffer). osu_reduce's
 * other ranks pass their receive buffer as the send buffer; here they keep
 * their send buffer, which MPI allows and which moves the same data. */
int osu_coll_call(osu_coll_t *k, const osu_ctx_t *c, int root, int warm, MPI_Request *req) {
  MPI_Comm comm = c->comm;
  MPI_Datatype t = c->type;
  int n = (int)k->n;
  int in_place = c->o->in_place && !warm;
  int at_root = c->rank == root;
  void *s = k->send, *r = warm ? k->warm : k->recv;
  if (in_place) {
    switch (k->kind) {
      case OSU_GATHER: case OSU_GATHERV: case OSU_REDUCE:
        if (at_root) s = MPI_IN_PLACE;
        break;
      case OSU_SCATTER: case OSU_SCATTERV:
        if (at_root) {
          s = k->recv;
          r = MPI_IN_PLACE;
        }
        break;
      case OSU_BARRIER: case OSU_BCAST:
        break;
      default:
        s = MPI_IN_PLACE;
    }
  }
  switch (k->kind) {
    case OSU_ALLGATHER:
      return req ? MPI_Iallgather(s, n, t, r, n, t, comm, req) : MPI_Allgather(s, n, t, r, n, t, comm);
    case OSU_ALLGATHERV:
      return req ? MPI_Iallgatherv(s, n, t, r, k->counts, k->displs, t, comm, req)
                 : MPI_Allgatherv(s, n, t, r, k->counts, k->displs, t, comm);
    case OSU_ALLREDUCE:
      return req ? MPI_Iallreduce(s, r, n, t, MPI_SUM, comm, req) : MPI_Allreduce(s, r, n, t, MPI_SUM, comm);
    case OSU_ALLTOALL:
      return req ? MPI_Ialltoall(s, n, t, r, n, t, comm, req) : MPI_Alltoall(s, n, t, r, n, t, comm);
    case OSU_ALLTOALLV:
      return req ? MPI_Ialltoallv(s, k->counts, k->displs, t, r, k->counts, k->displs, t, comm, req)
                 : MPI_Alltoallv(s, k->counts, k->displs, t, r, k->counts, k->displs, t, comm);
    case OSU_ALLTOALLW:
      return req ? MPI_Ialltoallw(s, k->counts, k->displs, k->types, r, k->counts, k->displs, k->types, comm, req)
                 : MPI_Alltoallw(s, k->counts, k->displs, k->types, r, k->counts, k->displs, k->types, comm);
    case OSU_BARRIER:
      return req ? MPI_Ibarrier(comm, req) : MPI_Barrier(comm);
    case OSU_BCAST:
      return req ? MPI_Ibcast(r, n, t, root, comm, req) : MPI_Bcast(r, n, t, root, comm);
    case OSU_GATHER:
      return req ? MPI_Igather(s, n, t, r, n, t, root, comm, req) : MPI_Gather(s, n, t, r, n, t, root, comm);
    case OSU_GATHERV:
      return req ? MPI_Igatherv(s, n, t, r, k->counts, k->displs, t, root, comm, req)
                 : MPI_Gatherv(s, n, t, r, k->counts, k->displs, t, root, comm);
    case OSU_REDUCE:
      return req ? MPI_Ireduce(s, r, n, t, MPI_SUM, root, comm, req) : MPI_Reduce(s, r, n, t, MPI_SUM, root, comm);
    case OSU_REDUCE_SCATTER:
      return req ? MPI_Ireduce_scatter(s, r, k->counts, t, MPI_SUM, comm, req)
                 : MPI_Reduce_scatter(s, r, k->counts, t, MPI_SUM, comm);
    case OSU_REDUCE_SCATTER_BLOCK:
      return req ? MPI_Ireduce_scatter_block(s, r, (int)k->part, t, MPI_SUM, comm, req)
                 : MPI_Reduce_scatter_block(s, r, (int)k->part, t, MPI_SUM, comm);
    case OSU_SCATTER:
      return req ? MPI_Iscatter(s, n, t, r, n, t, root, comm, req) : MPI_Scatter(s, n, t, r, n, t, root, comm);
    case OSU_SCATTERV:
      return req ? MPI_Iscatterv(s, k->counts, k->displs, t, r, n, t, root, comm, req)
                 : MPI_Scatterv(s, k->counts, k->displs, t, r, n, t, root, comm);
  }
  return MPI_ERR_OTHER;
}

void osu_coll_check_prologue(osu_coll_t *k, const osu_ctx_t *c, int root, long i, int nbc) {
  osu_coll_fill(k, c, root, i);
  for (long j = 0; j < c->o->validation_warmup; j++) {
    MPI_Barrier(c->comm);
    MPI_Request req;
    osu_coll_call(k, c, root, 1, nbc ? &req : NULL);
    if (nbc) MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(c->comm);
}

void osu_coll_samples(osu_ctx_t *c, osu_row_t *row) {
  long n = c->iterations;
  /* OSU's omb_get_stats: the per-iteration times summed over ranks; divided
   * by np here once, so that they are the samples as well as the tails' input. */
  osu_mean_over_ranks(c, c->np);
  if (c->rank != 0) return;
  row->samples_ns = c->times_ns;
  row->n_samples = n;
  osu_tail_of_samples(c, c->times_ns, n, row);
}
