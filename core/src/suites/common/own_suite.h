/* What the suites with a program of their own (p2p, mt) share around their
 * measurement: the run list from names, the reporters, the finished row
 * for the reporters from what every rank measured, and the driver that runs
 * the list between the run's begin and end records. */
#ifndef MPIMARK_OWN_SUITE_H
#define MPIMARK_OWN_SUITE_H

#include "engine/registry.h"
#include "report/reporter.h"

/* The rows named (case-insensitive, in the order given, duplicates kept as
 * IMB keeps them), or the suite's default rows. -1 with one line in err for
 * a name the suite lacks. */
int own_list(const suite_desc *s, char *const *names, int n_names, const bench_desc **list, int *n, char *err,
             size_t errlen);

/* Collective: rank 0 adds text and, with a json_path, the JSON Lines
 * reporter. -1 on every rank (err on rank 0) when the file cannot be opened. */
int own_reporters(reporter_t *text, const char *json_path, char *err, size_t errlen);

/* Collective: whether every rank has its buffers (failed: this rank has
 * not). When one lacks them, rank 0 reports an out_of_memory error event
 * naming the benchmark and the bytes per process, and 0 is returned. */
int own_buffers_ok(int failed, const char *benchmark, double bytes);

/* Rank 0: summarises samples_ns (n, already scaled, slowest rank per
 * batch) into res->dist and points res at them. */
void own_samples(result_t *res, double *samples_ns, long n, long batch);

/* One benchmark of an own suite on all of MPI_COMM_WORLD (ranks: 0..np-1):
 * its defects (>= 0; rank 0's count is the one used), or -1 when its buffers
 * could not be had. Adds the rows it reported to *rows. */
typedef long (*own_bench_fn)(void *ctx, const bench_desc *d, const int *ranks, long *rows);

typedef struct {
  own_bench_fn run;
  void *ctx;
  void (*before_end)(void);  /* collective, after the last benchmark (IMB-P2P's barrier); NULL for none */
  const char *defects_what;  /* what -check counts: "received bytes" */
  const char *too_big;       /* what to lower when buffers were missing: "the largest size" */
} own_driver_t;

/* Collective: info's benchmarks one after the other between the run's begin
 * and end records. Returns the exit code (0, EXIT_CHECK_FAILED when -check
 * found defects, EXIT_SKIPPED when a benchmark lacked its buffers) with its
 * one line in err, for finish(). */
int own_run(const run_info_t *info, int rank, int np, const own_driver_t *drv, char *err, size_t errlen);

#endif
