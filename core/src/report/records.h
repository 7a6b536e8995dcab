/* The records of the results stream (docs/results-format.md), written in one
 * place for the engine's JSON Lines reporter and the stand-alone tools: the
 * run record's common fields, the fields every result record has, the
 * distribution with its samples, events and the end record, and the file
 * they go to. Each record is one line, flushed when it ends. */
#ifndef MPIMARK_RECORDS_H
#define MPIMARK_RECORDS_H

#include "report/reporter.h"
#include "util/jsonw.h"

#include <stdio.h>

#define SCHEMA_VERSION 1

typedef struct {
  FILE *f;                /* NULL: no -json, every rec_file_* call does nothing */
  jw_t jw;
  long results;           /* result records begun */
} rec_file_t;

/* Opens path for writing. 0, or -1 with one line in err. */
int rec_file_open(rec_file_t *rf, const char *path, char *err, size_t errlen);
void rec_file_close(rec_file_t *rf);

/* Opens the run record and writes its common fields (type, schema_version,
 * tool, suite, command_line, start_utc, mpi, hosts, processes, cores_online,
 * oversubscribed, the placement, uname, timer, load_average_before) and the
 * facts of the suite's (or tool's) table, benchmark_facts. The caller adds
 * "options", "benchmarks" (both required) and its own fields, then rec_close. */
void rec_run_begin(jw_t *w, const run_info_t *in, const suite_desc *suite);

/* The fields every result record has, up to "defects". */
typedef struct {
  const char *benchmark, *suite;
  int processes;
  int multi;                /* < 0: null */
  int groups;
  int with_mode;            /* write "mode" (the one-sided and IO suites' mode; NULL writes null) */
  const char *mode;
  int group;                /* < 0: null (the row covers every group) */
  long long bytes, count;
  const char *datatype;
  const char *status;       /* ok, timeout, out_of_memory, int_overflow */
  long repetitions;         /* < 0: null */
  double t_min_usec, t_max_usec, t_avg_usec;
  double mbytes_per_sec, msgs_per_sec;   /* NaN: null */
  long defects;             /* < 0: null (no check ran) */
} rec_result_t;

/* The fields of an engine result_t (bytes .. defects; null figures unless
 * the status is ok); the caller sets the names, processes and groups. */
void rec_result_figures(rec_result_t *rr, const result_t *res);

/* Opens a result record with r's fields; the caller adds its own, then
 * rec_samples and rec_close. Counts the record in rf->results. */
void rec_result_begin(rec_file_t *rf, const rec_result_t *r);

/* "distribution" and "samples_ns": dist NULL writes null for both (the tools'
 * rows without samples); dist->n == 0 writes null and [] (a skipped size). */
void rec_samples(jw_t *w, const summary_t *dist, long batch_size, const double *samples_ns);

/* rec_samples for an engine result_t: its distribution when ok, else none. */
void rec_result_samples(jw_t *w, const result_t *res);

/* Ends the record begun last: closes the object and the line. */
void rec_close(jw_t *w);

/* A whole event record; benchmark NULL, processes 0 and bytes < 0 are left out. */
void rec_event(jw_t *w, const event_t *ev);

/* A whole end record. */
void rec_end(jw_t *w, const run_end_t *end);
/* The end record, then the file closed: how every stream ends. */
void rec_file_end(rec_file_t *rf, const run_end_t *end);

#endif
