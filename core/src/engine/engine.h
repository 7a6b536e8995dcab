/* The engine: runs a list of benchmarks over IMB's plan (process counts ×
 * groups × message sizes), or one table at a time over a plan the caller
 * made (mpibench), owns buffers, iteration counts, warm-up, timing and
 * aggregation, and hands finished records to the reporters. */
#ifndef MPIMARK_ENGINE_H
#define MPIMARK_ENGINE_H

#include "engine/clocksync.h"
#include "engine/comms.h"
#include "engine/registry.h"
#include "engine/selfcheck.h"
#include "engine/sysinfo.h"
#include "report/reporter.h"
#include "util/options.h"

#include <stdint.h>

/* How the iterations of a size are chosen. */
typedef enum {
  ITERS_IMB,           /* IMB's policies, calibration and warm-up (options_t) */
  ITERS_TIME_LIMITED   /* mpiBench's: one priming call, a 5-call estimate, then min(max_iters,
                          time_limit / estimate) from world rank 0's estimate; the estimate
                          itself is reported when that is 5 or fewer; -check verifies one call */
} iter_mode_t;

typedef struct {
  const options_t *opt;
  const suite_desc *suite;
  host_share_t host;
  iter_mode_t iter_mode;
  long max_iters;           /* ITERS_TIME_LIMITED: the cap (mpiBench -i) */
  double time_limit_us;     /* ITERS_TIME_LIMITED: per size, 0 = none (mpiBench -t) */
  /* What happened, for the end record and the exit status. */
  long results;
  long skipped_sizes;       /* time-outs, out-of-memory, int-overflow rows */
  long oom_sizes;
  double worst_need_gb;     /* the largest need among out-of-memory rows */
  long defects;             /* -check: wrong elements in all */
  int table_failed;         /* the last table ended at a size it could not measure */
  double cpu_reps_per_sec;  /* overlap protocol: this rank's calibrated CPU kernel */
  double cpu_mflops;
  clock_model_t clock;      /* offsets against world rank 0 (clocksync.h), rebuilt per -sync window table */
  double timer_resolution_ns; /* world rank 0: the timer's resolution (selfcheck.h), 0: unknown */
  selfcheck_t check;        /* the checks before measuring (engine_begin_run); selfcheck_free at the end */
} engine_t;

/* One table: a benchmark on groups of processes over a list of sizes. */
typedef struct {
  groups_t g;               /* the groups running at once (comms.h); freed by the caller */
  const size_t *sizes;
  int n_sizes;
  int mode;                 /* -1 no modes, 1 aggregate, 0 non-aggregate */
  double limit_s;           /* time-out: after this, the remaining sizes are skipped */
  const char *label;        /* the communicator's name for the reporters, or NULL */
  int label_index;
  int timed_barrier;        /* a barrier on the group's communicator after every call, inside
                               the timing (mpiBench's kernel) */
  int check_each;           /* -check inside the timing: every call's receive area poisoned
                               before and verified after (mpiBench -C) */
  size_t check_whole;       /* with check_each, mpiBench's -C work: these bytes of both buffers
                               (its -e times processes) refilled / cleared before every call and
                               the send buffer checked after it; 0: the receive area only */
  int world_sync;           /* timed loops start after one MPI_COMM_WORLD barrier (groups
                               start together) instead of IMB's two on the group */
  int stop_on_failure;      /* IMB: a size that fails (time-out, out-of-mem, int-overflow)
                               gets its row and ends the table */
} table_plan_t;

/* Calibrates the CPU kernel when any benchmark of list uses the overlap
 * protocol (collective). Call before the run record is reported. */
void engine_prepare(engine_t *e, const bench_desc **list, int n);

/* Collective over MPI_COMM_WORLD, after engine_prepare: the start of a run,
 * the same for the IMB suites and mpibench. The checks before measuring when
 * selfcheck is on (clock: the clock model whose agreement they test, or NULL
 * where none was built), then on world rank 0 the run record and the checks'
 * warnings. Sets info->selfcheck and e->timer_resolution_ns (without the
 * checks, rank 0's own timer test gives it). Returns now_ns() after the
 * checks: the run's elapsed time counts from there. info->selfcheck points
 * at e->check. */
int64_t engine_begin_run(engine_t *e, run_info_t *info, int selfcheck, const clock_model_t *clock);

/* Collective over MPI_COMM_WORLD; every rank passes the same list. */
void engine_run(engine_t *e, const bench_desc **list, int n);

/* Collective over MPI_COMM_WORLD: one table over a plan, reported as it goes. */
void engine_run_table(engine_t *e, const bench_desc *d, const table_plan_t *plan);

#endif
