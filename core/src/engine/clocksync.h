/* Clock offsets of every rank against world rank 0, SKaMPI's way: ping-pongs
 * of time stamps, each of which bounds the offset from both sides
 * (reference/method.md §1.3, §3.1). The model is offset-only; it is rebuilt
 * where it is used (every window-synchronised table) and checked again at
 * the end of the run, which records the drift seen. */
#ifndef MPIMARK_CLOCKSYNC_H
#define MPIMARK_CLOCKSYNC_H

#include <mpi.h>
#include <stdint.h>

#define CLOCKSYNC_MIN_PINGPONGS 10
#define CLOCKSYNC_MAX_PINGPONGS 100

typedef struct {
  int64_t offset_ns;      /* this rank's clock minus rank 0's, estimated */
  double bound_ns;        /* |error| of offset_ns is at most this (half the width of the bounds) */
  double rtt_min_ns;      /* the best round trip seen */
  int64_t at_ns;          /* local time of the estimate */
} clock_est_t;

typedef struct {
  int valid;
  int n;                  /* world size */
  double duration_s;      /* time the synchronisation took (rank 0) */
  clock_est_t mine;       /* this rank's model */
  /* On world rank 0 only, one entry per world rank (rank 0: zeros). */
  clock_est_t *all;
  double *residual_ns;    /* the check right after: the offset left with the model applied */
  double *residual_bound_ns;
  double max_bound_ns, max_residual_ns;
} clock_model_t;

/* Collective over MPI_COMM_WORLD: builds the model and checks it at once. */
void clocksync_build(clock_model_t *m);

/* Collective: the model's offsets measured again; on rank 0, per rank, what
 * is left (residual_ns, bound) and the drift since the model was built in
 * parts per million. Arrays of the world size on rank 0, else untouched. */
void clocksync_check(const clock_model_t *m, double *residual_ns, double *bound_ns, double *drift_ppm);

/* Rank 0's time (the global clock) of a local time stamp, and back. */
static inline int64_t clock_to_global(const clock_model_t *m, int64_t local) { return local - m->mine.offset_ns; }
static inline int64_t clock_to_local(const clock_model_t *m, int64_t global) { return global + m->mine.offset_ns; }

void clocksync_free(clock_model_t *m);

#endif
