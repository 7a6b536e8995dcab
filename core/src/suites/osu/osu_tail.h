/* OSU's -z figures: percentiles of per-iteration values, picked as OSU 7.4
 * picks them (c/util/osu_util_mpi.c, omb_calculate_tail_lat). No MPI. */
#ifndef MPIMARK_OSU_TAIL_H
#define MPIMARK_OSU_TAIL_H

#include "suites/osu/osu.h"

/* Sorts values[0..n) ascending in place and writes o->tail's percentiles to
 * out[0..o->n_tail): element n*p/100 - 1, the product divided in whole numbers
 * first (OSU's ints), clamped to the array where OSU would read outside it
 * (n*p < 100). Bandwidths sort the same way, so a bandwidth's P99 is its high
 * end, as in OSU's "P99 Tail BW(MB/s)". */
void osu_tail_pick(const osu_options_t *o, double *values, long n, double *out);

#endif
