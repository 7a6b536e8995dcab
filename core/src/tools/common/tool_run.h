/* What the stand-alone tools that keep their own loops (beff, startup) share:
 * the run record's machine facts, the JSON Lines file, and the wall clock.
 * The records themselves are report/records.c's, as for the engine, so the
 * Python side stores every stream the same way. */
#ifndef MPIMARK_TOOL_RUN_H
#define MPIMARK_TOOL_RUN_H

#include "engine/registry.h"
#include "engine/sysinfo.h"
#include "report/records.h"
#include "report/reporter.h"
#include "util/jsonw.h"

#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* CLOCK_REALTIME in ns since the epoch: comparable across processes (and,
 * with synchronised clocks, across hosts), unlike now_ns(). */
static inline int64_t realtime_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

typedef struct {
  run_info_t info;        /* machine facts; the host list etc. on rank 0 only */
  host_share_t share;     /* every rank: ranks on its host, MemAvailable */
  int rank, size;
  rec_file_t file;        /* rank 0 with -json; file.f NULL otherwise */
  int64_t t0;             /* now_ns() at tool_collect */
} tool_run_t;

/* Collective over MPI_COMM_WORLD: run_info_collect for a tool (thread level
 * single). */
void tool_collect(tool_run_t *t, int argc, char **argv);

/* Rank 0: opens the -json file. 0, or -1 with one line in err. */
int tool_json_open(tool_run_t *t, const char *path, char *err, size_t errlen);

/* rec_run_begin with the tool's suite name and its table's facts
 * (benchmark_facts): the caller adds "options" and "benchmarks" and calls
 * tool_record_end. NULL without -json. */
jw_t *tool_run_begin(tool_run_t *t, const suite_desc *tool);

/* rec_result_begin with what a tool's row has: multi null, groups 1, group
 * null, status ok, msgs_per_sec null, distribution and samples_ns null;
 * defects < 0 writes null; NaN times or bandwidth write null. The caller adds
 * its own fields and calls tool_record_end. NULL without -json. */
jw_t *tool_result_begin(tool_run_t *t, const char *benchmark, const char *suite, int processes,
                        long long bytes, long long count, const char *datatype, long repetitions,
                        double t_min_usec, double t_max_usec, double t_avg_usec,
                        double mbytes_per_sec, long defects);

void tool_record_end(tool_run_t *t);

/* One event record (level info|warning|error). Also fine without -json. */
void tool_event(tool_run_t *t, const char *level, const char *kind, const char *message);

/* The end record; closes the file. */
void tool_run_end(tool_run_t *t, int complete);

#endif
