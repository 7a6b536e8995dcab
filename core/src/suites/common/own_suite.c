#include "suites/common/own_suite.h"
#include "engine/sysinfo.h"
#include "util/exitcodes.h"
#include "util/stats.h"
#include "util/strutil.h"
#include "util/timer.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int own_list(const suite_desc *s, char *const *names, int n_names, const bench_desc **list, int *n, char *err,
             size_t errlen) {
  *n = 0;
  for (int i = 0; i < n_names; i++) {
    const bench_desc *b = find_benchmark(s, names[i]);
    if (!b) {
      snprintf(err, errlen, "unknown benchmark '%s' in suite %s; run 'mpimark-core %s -list' to see the names",
               names[i], s->name, s->name);
      return -1;
    }
    list[(*n)++] = b;
  }
  if (n_names == 0)
    for (int i = 0; i < s->n_benchmarks; i++)
      if (s->benchmarks[i].flags & BF_DEFAULT) list[(*n)++] = &s->benchmarks[i];
  return 0;
}

int own_reporters(reporter_t *text, const char *json_path, char *err, size_t errlen) {
  int rank, failed = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    report_add(text);
    if (json_path[0]) {
      reporter_t *j = json_lines_reporter(json_path, err, errlen);
      if (j) report_add(j);
      else failed = 1;
    }
  }
  MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return failed ? -1 : 0;
}

void own_samples(result_t *res, double *samples_ns, long n, long batch) {
  double *us = malloc(sizeof(double) * (size_t)(n + 1));
  for (long i = 0; i < n; i++) us[i] = samples_ns[i] * 1e-3;
  summarize(us, (int)n, 0.95, &res->dist);
  free(us);
  res->batch_size = batch;
  res->samples_ns = samples_ns;
}

int own_buffers_ok(int failed, const char *benchmark, double bytes) {
  int any = 0, rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (any && rank == 0) {
    char msg[256];
    snprintf(msg, sizeof(msg), "%s skipped: %.0f bytes of message buffers per process could not be allocated; "
             "lower the largest size", benchmark, bytes);
    event_t ev = {"error", "out_of_memory", msg, benchmark, 0, -1, 0};
    report_event(&ev);
  }
  return !any;
}

int own_run(const run_info_t *info, int rank, int np, const own_driver_t *drv, char *err, size_t errlen) {
  int *ranks = malloc(sizeof(int) * (size_t)np);
  for (int r = 0; r < np; r++) ranks[r] = r;
  int64_t t0 = now_ns();
  if (rank == 0) report_run_begin(info);
  long defects = 0, rows = 0;
  int complete = 1;
  for (int i = 0; i < info->n_benchmarks; i++) {
    long bad = drv->run(drv->ctx, info->benchmarks[i], ranks, &rows);
    if (bad < 0) complete = 0;
    else defects += bad;
  }
  if (drv->before_end) drv->before_end();
  if (rank == 0) {
    run_end_t end = run_end_now(complete, t0, rows);
    report_run_end(&end);
  }
  free(ranks);
  /* Every rank leaves with rank 0's verdict. */
  MPI_Bcast(&defects, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (defects > 0) {
    snprintf(err, errlen, "-check found %ld %s that differ from what was sent; see the defects column", defects,
             drv->defects_what);
    return EXIT_CHECK_FAILED;
  }
  if (complete) return 0;
  snprintf(err, errlen, "some benchmarks did not get their message buffers; lower %s", drv->too_big);
  return EXIT_SKIPPED;
}
