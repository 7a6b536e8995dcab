/* mpimark-core mpibench: mpiBench 1.5's command line (mpib_main.c), run
 * through the engine (suites/mpibench/), reported by mpiBench's own lines
 * and the results stream (report/mpibench_lines.c). docs/mpibench.md. */
#ifndef MPIMARK_MPIBENCH_H
#define MPIMARK_MPIBENCH_H

#include "report/reporter.h"
#include "tools/mpibench/mpib_calc.h"

#include <stddef.h>

#define MPIB_VERSION "1.5"               /* the mpiBench version whose output is reproduced */

/* mpiBench's options. */
typedef struct {
  size_t start, stop, mem_limit;
  long iters;
  double time_limit_us;
  int time_set;
  int ndims, partsize;
  int check_once, check_every;
  int barrier;
  int selfcheck;              /* -selfcheck on|off */
  unsigned ops;               /* bit i: operation i of suite_mpibench; 0 means all */
  char json[1024];
  int help;
} mpib_opts_t;

/* What the reporters print besides the results: the run's shape. */
typedef struct {
  const mpib_opts_t *o;
  size_t stop;                /* -e after -m */
  int dims[MPIB_MAX_DIMS];    /* -d: MPI_Dims_create's grid */
  char (*labels)[64];         /* the communicators, in run order */
  int n_comms;
  int processes;
  const char *hosts;          /* rank 0: every rank's host name, host_len bytes each */
  size_t host_len;
  size_t buffer_bytes;        /* the "Message buffers (KB)" line */
} mpib_run_t;

/* Whether -C checks every call of d inside the timing, as mpiBench: not for
 * the reductions, which mpiBench never checks (they get the one untimed call
 * after the loop that -c gives), nor for Barrier, which moves no data. */
static inline int mpib_checks_every_call(const bench_desc *d, int check_every) {
  return check_every && d->verify && !(d->flags & BF_REDUCTION);
}

/* mpiBench's lines on stdout: the header, one line per result, the end. */
reporter_t *mpibench_text_reporter(const mpib_run_t *run);
/* The results stream: run record with mpiBench's options and communicators,
 * result records with the engine's samples and mpiBench's fields. NULL with
 * one line in err when path cannot be written. */
reporter_t *mpibench_json_reporter(const mpib_run_t *run, const char *path, char *err, size_t errlen);

#endif
