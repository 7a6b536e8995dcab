/* The engine: runs a list of benchmarks over IMB's plan (process counts ×
 * groups × message sizes), owns buffers, iteration counts, warm-up, timing
 * and aggregation, and hands finished records to the reporters. */
#ifndef MPIMARK_ENGINE_H
#define MPIMARK_ENGINE_H

#include "engine/registry.h"
#include "engine/sysinfo.h"
#include "util/options.h"

typedef struct {
  const options_t *opt;
  const suite_desc *suite;
  host_share_t host;
  /* What happened, for the end record and the exit status. */
  long results;
  long skipped_sizes;       /* time-outs, out-of-memory, int-overflow rows */
  long oom_sizes;
  double worst_need_gb;     /* the largest need among out-of-memory rows */
  long defects;             /* -check: wrong elements in all */
  double cpu_reps_per_sec;  /* overlap protocol: this rank's calibrated CPU kernel */
  double cpu_mflops;
} engine_t;

/* Calibrates the CPU kernel when any benchmark of list uses the overlap
 * protocol (collective). Call before the run record is reported. */
void engine_prepare(engine_t *e, const bench_desc **list, int n);

/* Collective over MPI_COMM_WORLD; every rank passes the same list. */
void engine_run(engine_t *e, const bench_desc **list, int n);

#endif
