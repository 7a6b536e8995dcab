/* Communicators for one process count: the groups of -multi (or the single
 * group of the first np ranks), ordered by -map, and the barriers. */
#ifndef MPIMARK_COMMS_H
#define MPIMARK_COMMS_H

#include <mpi.h>
#include "util/options.h"
#include "util/stats.h"

typedef struct {
  int np;              /* processes per group */
  int n_groups;        /* groups running at once */
  int group;           /* this rank's group, -1 when it idles */
  MPI_Comm comm;       /* the group's communicator, MPI_COMM_NULL when idle */
  MPI_Comm active;     /* every rank of every group, MPI_COMM_NULL when idle */
  int *group_ranks;    /* world ranks, group by group, in group rank order */
  int n_members;       /* entries of group_ranks: n_groups * np, or every world rank */
  int idle;            /* ranks that wait in MPI_Barrier */
} groups_t;

/* Collective over MPI_COMM_WORLD. */
void groups_create(groups_t *g, int np, const options_t *o);
void groups_free(groups_t *g);

/* Collective over MPI_COMM_WORLD: every world rank in one of n_groups
 * communicators at once, comm being this rank's (mpiBench's levels; the
 * groups may differ in size). np is the size of world rank 0's group;
 * group_ranks lists the world ranks in order; comm is duplicated. */
void groups_from_comm(groups_t *g, MPI_Comm comm, int n_groups);

/* Element-wise over n spreads of every rank of comm (ranks that took no
 * part in an element leave it empty): the merged spreads on root, as if
 * each element's values had been added in rank order. */
void spread_reduce(const spread_t *in, spread_t *out, int n, int root, MPI_Comm comm);

/* count barriers on comm: MPI_Barrier, or IMB's own dissemination barrier
 * of zero-byte MPI_Sendrecv calls with -imb_barrier on. */
void barriers(MPI_Comm comm, int count, int imb_barrier);

#endif
