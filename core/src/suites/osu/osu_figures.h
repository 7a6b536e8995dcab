/* What the point-to-point families make of their per-iteration times: a
 * latency row from one-way times (with -z's figures, osu_tail.h), the pairs'
 * mean per iteration, and -c's verdict. */
#ifndef MPIMARK_OSU_FIGURES_H
#define MPIMARK_OSU_FIGURES_H

#include "suites/osu/osu.h"
#include "suites/osu/osu_tail.h"

/* Rank 0: a latency row from c->times_ns, c->iterations one-way times in ns
 * (the samples): the average in us, the iterations and -z's percentiles. */
void osu_latency_figures(osu_ctx_t *c, osu_row_t *row);

/* Collective, after the timing: c->times_ns on rank 0 becomes, per iteration,
 * the mean over the `pairs` ranks that timed (the others' times are zeros). */
void osu_pairs_mean(osu_ctx_t *c, int pairs);

/* Collective: every rank's defects summed on rank 0 into the row (-c only). */
void osu_check_verdict(const osu_ctx_t *c, long defects, osu_row_t *row);

#endif
