/* OSU 7.4's blocking collectives (c/mpi/collective/blocking/osu_*.c): every
 * rank times only its call, each iteration alone, with an untimed barrier
 * after it (osu_reduce: before it; osu_barrier: none). A rank's figure is its
 * mean; the row's average is the mean over ranks, with their min and max. */
#include "suites/osu/osu_coll_calls.h"
#include "suites/osu/osu_families.h"
#include "suites/osu/osu_figures.h"
#include "util/timer.h"

int osu_setup_coll(osu_ctx_t *c) { return osu_coll_setup(c); }
int osu_teardown_coll(osu_ctx_t *c) { return osu_coll_teardown(c); }

int osu_measure_coll(osu_ctx_t *c, osu_row_t *row) {
  osu_coll_t *k = c->user;
  int validate = c->o->validate;
  long defects = 0;
  double sum_ns = 0;
  osu_coll_prepare(k, c);
  MPI_Barrier(c->comm);
  for (long i = 0; i < c->skip + c->iterations; i++) {
    int root = osu_coll_root(k, c, i);
    if (validate)
      osu_coll_check_prologue(k, c, root, i, 0);
    else if (k->kind == OSU_REDUCE)
      MPI_Barrier(c->comm);
    int64_t t0 = now_ns();
    osu_coll_call(k, c, root, 0, NULL);
    int64_t t1 = now_ns();
    /* Untimed: without it the ranks that leave the call first would start
     * the next one early and time their wait for the others. */
    if (k->kind != OSU_REDUCE && k->kind != OSU_BARRIER) MPI_Barrier(c->comm);
    if (validate) defects += osu_coll_defects(k, c, root, i);
    if (i >= c->skip) {
      c->times_ns[i - c->skip] = (double)(t1 - t0);
      sum_ns += (double)(t1 - t0);
    }
  }
  double mean_us = sum_ns / (double)c->iterations / 1e3, min_us = 0, max_us = 0, total_us = 0;
  MPI_Reduce(&mean_us, &min_us, 1, MPI_DOUBLE, MPI_MIN, 0, c->comm);
  MPI_Reduce(&mean_us, &max_us, 1, MPI_DOUBLE, MPI_MAX, 0, c->comm);
  MPI_Reduce(&mean_us, &total_us, 1, MPI_DOUBLE, MPI_SUM, 0, c->comm);
  osu_coll_samples(c, row);
  if (validate) osu_check_verdict(c, defects, row);
  if (c->rank == 0) {
    row->avg_us = total_us / c->np;
    row->min_us = min_us;
    row->max_us = max_us;
    row->iterations = c->iterations;
  }
  return 0;
}
