#include "engine/comms.h"
#include "util/patterns.h"

#include <stdlib.h>

void groups_create(groups_t *g, int np, const options_t *o) {
  int wrank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  int multi = o->multi >= 0;
  g->np = np;
  g->n_groups = group_count(P, np, multi);
  g->group = group_of_rank(wrank, P, np, multi, o->map_p, o->map_q);
  g->idle = P - g->n_groups * np;
  g->n_members = g->n_groups * np;
  g->group_ranks = malloc(sizeof(int) * (size_t)(g->n_members + 1));
  for (int w = 0; w < P; w++) {
    int gw = group_of_rank(w, P, np, multi, o->map_p, o->map_q);
    if (gw >= 0) g->group_ranks[gw * np + map_key(w, o->map_p, o->map_q) % np] = w;
  }
  int key = map_key(wrank, o->map_p, o->map_q);
  MPI_Comm_split(MPI_COMM_WORLD, g->group >= 0 ? g->group : MPI_UNDEFINED, key, &g->comm);
  MPI_Comm_split(MPI_COMM_WORLD, g->group >= 0 ? 0 : MPI_UNDEFINED, key, &g->active);
}

void groups_free(groups_t *g) {
  if (g->comm != MPI_COMM_NULL) MPI_Comm_free(&g->comm);
  if (g->active != MPI_COMM_NULL) MPI_Comm_free(&g->active);
  free(g->group_ranks);
  g->group_ranks = NULL;
}

void groups_from_comm(groups_t *g, MPI_Comm comm, int n_groups) {
  int P;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_size(comm, &g->np);
  MPI_Bcast(&g->np, 1, MPI_INT, 0, MPI_COMM_WORLD);
  g->n_groups = n_groups;
  g->group = 0;
  g->idle = 0;
  g->n_members = P;
  g->group_ranks = malloc(sizeof(int) * (size_t)P);
  for (int w = 0; w < P; w++) g->group_ranks[w] = w;
  MPI_Comm_dup(comm, &g->comm);
  MPI_Comm_dup(MPI_COMM_WORLD, &g->active);
}

/* MPI applies a non-commutative op as inout = in (lower ranks) op inout. */
static void merge_spreads(void *in, void *inout, int *len, MPI_Datatype *type) {
  const spread_t *lower = in;
  spread_t *higher = inout;
  for (int i = 0; i < *len; i++) {
    spread_t s = lower[i];
    spread_merge(&s, &higher[i]);
    higher[i] = s;
  }
}

void spread_reduce(const spread_t *in, spread_t *out, int n, int root, MPI_Comm comm) {
  MPI_Datatype type;
  MPI_Op op;
  MPI_Type_contiguous((int)sizeof(spread_t), MPI_BYTE, &type);
  MPI_Type_commit(&type);
  MPI_Op_create(merge_spreads, 0, &op);
  MPI_Reduce(in, out, n, type, op, root, comm);
  MPI_Op_free(&op);
  MPI_Type_free(&type);
}

static void dissemination_barrier(MPI_Comm comm) {
  int rank, n;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &n);
  for (int mask = 1; mask < n; mask <<= 1) {
    int dst = (rank + mask) % n, src = (rank - mask + n) % n;
    MPI_Sendrecv(NULL, 0, MPI_BYTE, dst, 1000, NULL, 0, MPI_BYTE, src, 1000, comm, MPI_STATUS_IGNORE);
  }
}

void barriers(MPI_Comm comm, int count, int imb_barrier) {
  for (int i = 0; i < count; i++) {
    if (imb_barrier) dissemination_barrier(comm);
    else MPI_Barrier(comm);
  }
}
