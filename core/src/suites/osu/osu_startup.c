/* osu_init (OSU 7.4's startup/osu_init.c): MPI_Init's time on every rank,
 * whole milliseconds, and their minimum, maximum and average over the ranks
 * (the sum divided as whole numbers, as OSU). osu_main timed the call with
 * CLOCK_REALTIME, OSU's clock; c->user holds this rank's milliseconds.
 * Samples: every rank's time in ns. osu_hello measures nothing. */
#include "suites/osu/osu_families.h"

#include <stdlib.h>

int osu_measure_startup(osu_ctx_t *c, osu_row_t *row) {
  double ms = *(const double *)c->user;
  long whole = (long)ms, lo = 0, hi = 0, sum = 0;
  MPI_Reduce(&whole, &lo, 1, MPI_LONG, MPI_MIN, 0, c->comm);
  MPI_Reduce(&whole, &hi, 1, MPI_LONG, MPI_MAX, 0, c->comm);
  MPI_Reduce(&whole, &sum, 1, MPI_LONG, MPI_SUM, 0, c->comm);
  double ns = ms * 1e6;
  MPI_Gather(&ns, 1, MPI_DOUBLE, c->times_ns, 1, MPI_DOUBLE, 0, c->comm);
  if (c->rank != 0) return 0;
  row->min_us = (double)lo * 1e3;
  row->max_us = (double)hi * 1e3;
  row->avg_us = (double)(sum / c->np) * 1e3;
  row->iterations = 1;
  row->samples_ns = c->times_ns;
  row->n_samples = c->np;
  return 0;
}
