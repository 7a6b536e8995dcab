/* What the blocking (osu_coll.c) and the non-blocking (osu_nbc.c) OSU
 * collectives share: which MPI collective a program runs, its buffers sized
 * as OSU sizes them, its counts per size, the call itself (blocking, or
 * started with a request), OSU's -c patterns for it, and the figures every
 * collective row derives from per-rank times. */
#ifndef MPIMARK_OSU_COLL_CALLS_H
#define MPIMARK_OSU_COLL_CALLS_H

#include <mpi.h>
#include <stddef.h>
#include "suites/osu/osu.h"

typedef enum {
  OSU_ALLGATHER, OSU_ALLGATHERV, OSU_ALLREDUCE, OSU_ALLTOALL, OSU_ALLTOALLV, OSU_ALLTOALLW,
  OSU_BARRIER, OSU_BCAST, OSU_GATHER, OSU_GATHERV, OSU_REDUCE, OSU_REDUCE_SCATTER,
  OSU_REDUCE_SCATTER_BLOCK, OSU_SCATTER, OSU_SCATTERV
} osu_coll_kind_t;

/* A collective's state between setup and teardown (c->user). */
typedef struct {
  osu_coll_kind_t kind;
  int rooted;                 /* the root follows -k (gather, scatter, reduce and their v/i forms) */
  char *send, *recv, *warm;   /* warm: where -u's untimed repetitions receive */
  size_t send_bytes, recv_bytes;
  int *counts, *displs;       /* v/w forms and reduce_scatter, per size */
  MPI_Datatype *types;        /* alltoallw */
  size_t n;                   /* elements per process at this size (c->count) */
  size_t part;                /* reduce_scatter_block's elements per process */
} osu_coll_t;

/* Collective: c->user = the state of c->test's collective, its buffers for
 * c->o->max_size written (OSU: send 1s, receive 0s). -1 on every rank with
 * one line in c->err when a rank lacks memory or -k names no rank. */
int osu_coll_setup(osu_ctx_t *c);
int osu_coll_teardown(osu_ctx_t *c);

/* Counts and displacements for c->count elements (each size, each datatype). */
void osu_coll_prepare(osu_coll_t *k, const osu_ctx_t *c);

/* The root of iteration i (counted from 0 over warm-up and timed ones, as OSU). */
int osu_coll_root(const osu_coll_t *k, const osu_ctx_t *c, long i);

/* The collective once: blocking when req is NULL, started otherwise.
 * warm: the untimed -u repetition (never in place, receiving into k->warm). */
int osu_coll_call(osu_coll_t *k, const osu_ctx_t *c, int root, int warm, MPI_Request *req);

/* -c (osu_coll_check.c): the inputs of iteration i written with values that
 * depend on the sending rank, the root and i, the results cleared; then, after
 * the call, the elements of this rank's results that differ (0 where this
 * rank receives nothing). */
void osu_coll_fill(osu_coll_t *k, const osu_ctx_t *c, int root, long i);
long osu_coll_defects(const osu_coll_t *k, const osu_ctx_t *c, int root, long i);

/* -c around one iteration, before its timed call: the pattern, then -u
 * untimed repetitions each after a barrier (nbc: started and waited for),
 * then a barrier (osu_reduce's barrier before its timed call is that one). */
void osu_coll_check_prologue(osu_coll_t *k, const osu_ctx_t *c, int root, long i, int nbc);

/* Collective, after the timed loop: c->times_ns (each rank's per-iteration
 * times) becomes, on rank 0, the rank average per iteration (row->samples_ns)
 * and the -z tails of that average, as OSU computes collective tails. */
void osu_coll_samples(osu_ctx_t *c, osu_row_t *row);

#endif
