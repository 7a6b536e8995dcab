/* OSU 7.4's non-blocking collectives (c/mpi/collective/non_blocking/osu_i*.c),
 * each size in two loops. The first times start + MPI_Wait: the pure
 * communication time. The second starts the collective, computes for as long
 * as this rank's pure time (with -t N: N slices, each followed by an
 * MPI_Test), then waits; it times the whole (Overall) and its parts. OSU's
 * overlap: how much of the pure time the compute hid,
 * max(0, 100 - (overall - compute) / pure * 100), compute without the tests. */
#include <math.h>
#include "suites/osu/osu_coll_calls.h"
#include "suites/osu/osu_families.h"
#include "suites/osu/osu_figures.h"
#include "util/cpu_exploit.h"
#include "util/timer.h"

/* OSU computes in passes of its kernel (a 25x25 sweep, 0.45 us on the
 * 2-core reference VM) until the target is reached, so its compute overshoots
 * by up to one pass; slices of about that length keep that overshoot. */
#define COMPUTE_SLICE_S 0.45e-6

static long slice_reps;

int osu_setup_nbc(osu_ctx_t *c) {
  slice_reps = cpu_reps_for(COMPUTE_SLICE_S, cpu_calibrate(NULL));
  return osu_coll_setup(c);
}

int osu_teardown_nbc(osu_ctx_t *c) { return osu_coll_teardown(c); }

static void compute_for(double target_ns) {
  double elapsed = 0;
  while (elapsed < target_ns) {
    int64_t t0 = now_ns();
    cpu_run(slice_reps);
    elapsed += (double)(now_ns() - t0);
  }
}

/* OSU's dummy_compute: returns the time spent in MPI_Test. */
static double compute_and_test(double target_ns, int tests, MPI_Request *req) {
  if (tests <= 0) {
    compute_for(target_ns);
    return 0;
  }
  double test_ns = 0;
  for (int t = 0; t < tests; t++) {
    compute_for(target_ns / tests);
    int done;
    int64_t t0 = now_ns();
    MPI_Test(req, &done, MPI_STATUS_IGNORE);
    test_ns += (double)(now_ns() - t0);
  }
  return test_ns;
}

/* The first loop: this rank's mean of start + wait, in ns. Apart from
 * overlapped(): no clock is read between the start and the wait here, as in
 * OSU's first loop. */
static double pure_communication(osu_coll_t *k, osu_ctx_t *c, long *defects) {
  double sum_ns = 0;
  MPI_Barrier(c->comm);
  for (long i = 0; i < c->skip + c->iterations; i++) {
    int root = osu_coll_root(k, c, i);
    if (c->o->validate) osu_coll_check_prologue(k, c, root, i, 1);
    MPI_Request req;
    int64_t t0 = now_ns();
    osu_coll_call(k, c, root, 0, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int64_t t1 = now_ns();
    /* osu_ibarrier's first loop has no barrier between iterations. */
    if (k->kind != OSU_BARRIER) MPI_Barrier(c->comm);
    if (c->o->validate) *defects += osu_coll_defects(k, c, root, i);
    if (i >= c->skip) sum_ns += (double)(t1 - t0);
  }
  MPI_Barrier(c->comm);
  return sum_ns / (double)c->iterations;
}

enum { OVERALL, COMPUTE, TEST, WAIT, INIT, PURE, N_PARTS };

/* The second loop: per-rank sums of its parts in ns; c->times_ns the overall time per iteration. */
static void overlapped(osu_coll_t *k, osu_ctx_t *c, double pure_ns, double part[N_PARTS], long *defects) {
  MPI_Barrier(c->comm);
  for (long i = 0; i < c->skip + c->iterations; i++) {
    int root = osu_coll_root(k, c, i);
    if (c->o->validate) osu_coll_check_prologue(k, c, root, i, 1);
    MPI_Request req;
    int64_t start = now_ns();
    osu_coll_call(k, c, root, 0, &req);
    int64_t started = now_ns();
    double test_ns = compute_and_test(pure_ns, c->o->num_test_calls, &req);
    int64_t computed = now_ns();
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int64_t stop = now_ns();
    MPI_Barrier(c->comm);
    if (c->o->validate) *defects += osu_coll_defects(k, c, root, i);
    if (i >= c->skip) {
      part[OVERALL] += (double)(stop - start);
      part[INIT] += (double)(started - start);
      part[COMPUTE] += (double)(computed - started);
      part[TEST] += test_ns;
      part[WAIT] += (double)(stop - computed);
      c->times_ns[i - c->skip] = (double)(stop - start);
    }
  }
  MPI_Barrier(c->comm);
}

int osu_measure_nbc(osu_ctx_t *c, osu_row_t *row) {
  osu_coll_t *k = c->user;
  long defects = 0;
  double part[N_PARTS] = {0};
  /* osu_ibarrier runs OSU's counts for large messages (100 and 10 by default; -i and -x set both). */
  if (k->kind == OSU_BARRIER && c->o->iterations_large <= c->iterations) {
    c->iterations = c->o->iterations_large;
    c->skip = c->o->skip_large;
  }
  osu_coll_prepare(k, c);
  double pure_ns = pure_communication(k, c, &defects);
  overlapped(k, c, pure_ns, part, &defects);
  /* Per-rank means in us, then OSU's calculate_and_print_stats: their sums
   * over ranks (divided by np below) and the min and max pure time. */
  double mean_us[N_PARTS], sum_us[N_PARTS] = {0}, pure_us = pure_ns / 1e3, min_pure = 0, max_pure = 0;
  for (int p = 0; p < N_PARTS; p++) mean_us[p] = part[p] / (double)c->iterations / 1e3;
  mean_us[PURE] = pure_us;
  MPI_Reduce(mean_us, sum_us, N_PARTS, MPI_DOUBLE, MPI_SUM, 0, c->comm);
  MPI_Reduce(&pure_us, &min_pure, 1, MPI_DOUBLE, MPI_MIN, 0, c->comm);
  MPI_Reduce(&pure_us, &max_pure, 1, MPI_DOUBLE, MPI_MAX, 0, c->comm);
  if (c->o->validate) osu_check_verdict(c, defects, row);
  osu_coll_samples(c, row);
  if (c->rank != 0) return 0;
  double avg[N_PARTS];
  for (int p = 0; p < N_PARTS; p++) avg[p] = sum_us[p] / c->np;
  row->avg_us = avg[OVERALL];
  row->compute_us = avg[COMPUTE] - avg[TEST];  /* the Compute column: the tests are overhead */
  row->init_us = avg[INIT];
  row->test_us = avg[TEST];
  row->wait_us = avg[WAIT];
  row->pure_comm_us = avg[PURE];
  row->min_comm_us = min_pure;
  row->max_comm_us = max_pure;
  row->overlap_pct = fmax(0.0, 100.0 - (avg[OVERALL] - row->compute_us) / avg[PURE] * 100.0);
  row->iterations = c->iterations;
  return 0;
}
