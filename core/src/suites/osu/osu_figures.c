/* Latency rows, the pairs' mean and -c's verdict (osu_figures.h). */
#include "suites/osu/osu_figures.h"

#include <stdlib.h>

void osu_latency_figures(osu_ctx_t *c, osu_row_t *row) {
  long n = c->iterations;
  double sum_ns = 0;
  for (long i = 0; i < n; i++) sum_ns += c->times_ns[i];
  row->avg_us = sum_ns / (double)n / 1e3;
  row->iterations = n;
  row->samples_ns = c->times_ns;
  row->n_samples = n;
  osu_tail_of_samples(c, c->times_ns, n, row);
}

void osu_tail_of_samples(const osu_ctx_t *c, const double *samples_ns, long n, osu_row_t *row) {
  if (c->o->n_tail <= 0 || n <= 0) return;
  double *us = malloc(sizeof(double) * (size_t)n);  /* sorted: the samples keep their order */
  if (!us) return;
  for (long i = 0; i < n; i++) us[i] = samples_ns[i] / 1e3;
  osu_tail_pick(c->o, us, n, row->tail);
  free(us);
}

void osu_mean_over_ranks(osu_ctx_t *c, int timed) {
  int n = (int)c->iterations;
  if (c->rank == 0) MPI_Reduce(MPI_IN_PLACE, c->times_ns, n, MPI_DOUBLE, MPI_SUM, 0, c->comm);
  else MPI_Reduce(c->times_ns, NULL, n, MPI_DOUBLE, MPI_SUM, 0, c->comm);
  if (c->rank == 0)
    for (int i = 0; i < n; i++) c->times_ns[i] /= timed;
}

void osu_check_verdict(const osu_ctx_t *c, long defects, osu_row_t *row) {
  long total = 0;
  MPI_Reduce(&defects, &total, 1, MPI_LONG, MPI_SUM, 0, c->comm);
  if (c->rank != 0 || !c->o->validate) return;
  row->validated = 1;
  row->defects = total;
  if (total > 0) row->status = OSU_ROW_FAILED_CHECK;
}
