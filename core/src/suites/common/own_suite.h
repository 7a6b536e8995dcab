/* What the suites with a program of their own (p2p, mt) share around their
 * measurement: the run list from names, the reporters, and the finished row
 * for the reporters from what every rank measured. */
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

#endif
