/* IMB's iteration-count formulas (reference/imb.md §3.3, §3.5), as pure
 * functions so that CTest can check them against hand-computed values. */
#ifndef MPIMARK_ITERATIONS_H
#define MPIMARK_ITERATIONS_H

#include <stddef.h>
#include "util/options.h"

typedef struct {
  iter_policy_t policy;
  long msgspersample;     /* -iter 1st field */
  long msgs_nonaggr;      /* -iter 3rd field */
  double overall_vol;     /* -iter 2nd field, in bytes */
  int max_msg_log;        /* log2 of the largest size, rounded up */
  long rep_test_cap;      /* compile-time MSGSPERSAMPLE of the suite: 1000 (50 for IO) */
} iter_params_t;

/* Iterations before time calibration. aggregate: the mode's multiplicity
 * (MPI-1 is always aggregate). sync: Barrier-like benchmarks with no size. */
long iter_select(const iter_params_t *p, size_t size, int num_procs, int has_root, int sync, int aggregate);

/* Whether the dynamic time calibration runs: policy dynamic, or auto for a
 * benchmark without a root. */
int iter_calibrates(const iter_params_t *p, int has_root);

/* Iterations of the ~1 s calibration run, from the seconds one iteration took. */
long iter_rep_test(const iter_params_t *p, double t_one);

/* Iterations that fit in secs, from the seconds per iteration (t_sample). */
long iter_time_cap(double t_per_iter, double secs, long selected);

/* Untimed warm-up iterations before the measurement. */
long iter_warmup(long n_sample);

/* Seconds a (benchmark, process count, mode) may take before the next size
 * is reported as a time-out, as IMB computes it: max(n_list, max_log −
 * min_log) − 1 times secs, at least secs. n_list is the number of entries of
 * a -msglen/-msgsize list, 0 with -msglog; min_log:max_log is -msglog (its
 * default 0:22 when a list is given). */
double iter_time_limit(int n_list, int min_log, int max_log, double secs);

/* mpiBench's time-limited policy: calls timed for the estimate. */
#define ITER_ESTIMATE 5

/* Iterations of the timed loop: min(max_iters, time_limit_us / estimate_us)
 * with a time limit (> 0), else max_iters. A result of at most ITER_ESTIMATE
 * means "report the estimate itself" (the caller decides). */
long iter_time_limited(long max_iters, double time_limit_us, double estimate_us);

/* ceil(log2(x)) for x >= 1, 0 for x <= 1. */
int log2_ceil(size_t x);

#endif
