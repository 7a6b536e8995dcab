/* What the families make of their per-iteration times: a latency row from
 * one-way times, -z's figures of ns samples (osu_tail.h), the mean over the
 * ranks that timed per iteration, and -c's verdict. */
#ifndef MPIMARK_OSU_FIGURES_H
#define MPIMARK_OSU_FIGURES_H

#include "suites/osu/osu.h"
#include "suites/osu/osu_tail.h"

/* Rank 0: a latency row from c->times_ns, c->iterations one-way times in ns
 * (the samples): the average in us, the iterations and -z's percentiles. */
void osu_latency_figures(osu_ctx_t *c, osu_row_t *row);

/* Rank 0: -z's percentiles (us) of n samples in ns, which keep their order. */
void osu_tail_of_samples(const osu_ctx_t *c, const double *samples_ns, long n, osu_row_t *row);

/* Collective, after the timing: c->times_ns on rank 0 becomes, per iteration,
 * the sum over the ranks divided by `timed`, the number that timed (the
 * others' times are zeros): the pairs' mean, or a collective's rank average. */
void osu_mean_over_ranks(osu_ctx_t *c, int timed);

/* Collective: every rank's defects summed on rank 0 into the row (-c only). */
void osu_check_verdict(const osu_ctx_t *c, long defects, osu_row_t *row);

#endif
