/* Reporters turn finished records into output. They know nothing of MPI or of
 * each other; the engine calls them on world rank 0 only, through
 * report_* fan-out functions that call every registered reporter. */
#ifndef MPIMARK_REPORTER_H
#define MPIMARK_REPORTER_H

#include <stddef.h>
#include "engine/clocksync.h"
#include "engine/registry.h"
#include "engine/selfcheck.h"
#include "util/options.h"
#include "util/jsonw.h"
#include "util/stats.h"
#include "util/timer.h"

typedef struct {
  const options_t *opt;
  const suite_desc *suite;
  double cpu_mflops;              /* overlap suites: the CPU kernel's rate, else 0 */
  int argc;
  char **argv;
  char start_utc[32];
  char start_local[64];           /* asctime-style, for IMB's "# Date" line */
  char mpi_library[512];          /* first line of MPI_Get_library_version */
  int mpi_version, mpi_subversion;
  const char *thread_requested, *thread_provided;
  char **hosts;                   /* distinct host names */
  int n_hosts;
  int processes;
  int cores_online;
  int oversubscribed;
  char sysname[128], release[128], version[256], machine[128];
  char cpu_model[128];            /* rank 0's host, "" unknown */
  int sockets;                    /* 0 unknown */
  double memory_bytes;            /* physical memory of rank 0's host, -1 unknown */
  timer_selftest_t timer;
  double mpi_wtick;
  double load_before[3];
  const clock_model_t *clock;     /* the clock model of the run's start (rank 0's view), or NULL */
  const selfcheck_t *selfcheck;   /* the checks before measuring, or NULL (tools; -selfcheck off: done 0) */
  const bench_desc **benchmarks;  /* the run list, in order */
  int n_benchmarks;
  /* Suites with a command line of their own (p2p, mt): the run record's
   * "options" from their options, and the sizes their header names. NULL:
   * IMB's options from opt. */
  void (*write_options)(jw_t *w, const void *ctx);
  const void *options_ctx;
  size_t min_bytes, max_bytes;
  int quiet_header;               /* the text's title block left out (IMB-MT -noheader) */
} run_info_t;

/* Opens one (benchmark, process count) table. */
typedef struct {
  const char *suite;              /* "mpi1", ... */
  const bench_desc *bench;
  int np;                         /* processes per group */
  int n_groups;                   /* groups running at once */
  int multi;                      /* -1, 0, 1 */
  const int *group_ranks;         /* world ranks, n_groups * np, group by group */
  int idle;                       /* world ranks waiting in MPI_Barrier */
  int map_p, map_q;               /* -map in force (1x1: none) */
  int n_sizes;                    /* sizes planned */
  int invalid;                    /* the benchmark cannot run at this count */
  int mode;                       /* -1 no modes, 1 aggregate, 0 non-aggregate */
  const char *label;              /* the communicator's name (mpibench), else NULL */
  int label_index;                /* its position in the run */
  int timed_barrier;              /* a barrier followed every call inside the timing (mpibench) */
  int threads;                    /* mt: threads per process, each its own communicator; 0 otherwise */
  int window_size;                /* mt: UniBandMT/BiBandMT's messages in flight; 0 otherwise */
  const char *grid;               /* p2p stencils: the process grid, "2 x 2" (IMB's order: y x x), else NULL */
} table_info_t;

typedef enum { ST_OK, ST_TIMEOUT, ST_OUT_OF_MEMORY, ST_INT_OVERFLOW } result_status_t;

/* A figure a suite's rows have beyond the standard ones (OSU's Validation,
 * overlap columns, tail percentiles, settings): written into the result
 * record under its name, after the standard fields. */
typedef struct {
  const char *name;
  char kind;                      /* 'n' number (NaN: null), 'i' whole number, 's' text */
  double num;
  long long integer;
  const char *text;
} result_extra_t;

typedef struct {
  const table_info_t *table;
  int group;                      /* -1: the row covers every group */
  size_t bytes, count;
  const char *datatype;
  result_status_t status;
  double needed_gb;               /* out-of-memory: memory the size needs per process */
  long repetitions;
  double t_min_us, t_max_us, t_avg_us;
  double mbytes_per_sec;          /* NaN: none reported */
  double msgs_per_sec;            /* NaN: none reported */
  /* Overlap protocol (NaN otherwise), from the rank with the largest t_ovrl;
   * t_ovrl itself is t_max_us. overlap_pct divides by min(t_pure, t_CPU) as
   * the IMB user guide does; overlap_pct_max by the max, as IMB's code does. */
  double t_pure_us, t_cpu_us, overlap_pct, overlap_pct_max;
  int ovrl_rank;                  /* world rank whose figures are shown */
  int checked;                    /* -check ran */
  long defects;
  summary_t dist;                 /* per-iteration times in us, slowest rank per batch */
  long batch_size;
  const double *samples_ns;       /* dist.n values, in run order */
  int estimate_only;              /* mpibench: the time-limit estimate is the measurement */
  const double *rank_us;          /* every member rank's time per call, in group_ranks order (NaN: untimed) */
  int n_rank_us;
  /* Rigour beyond IMB (docs/measurement.md). */
  const char *sync_used;          /* collectives: "on" (IMB's barrier), "window", "off"; else NULL */
  long invalid_samples;           /* -sync window: samples dropped, else -1 */
  double window_us;               /* -sync window: the window */
  const double *rank_median_us;   /* -sync window: per rank (rank_us order) median end-minus-start, or NULL */
  long loops;                     /* how often the timed loop ran (EXT/RMA repeats, -ci_target) */
  double wall_s;                  /* the timed loops' wall time (world rank 0), 0: not known */
  double ci_target;               /* -ci_target in force, else NaN */
  double ci_half_width;           /* -ci_target: relative half-width of the median's CI reached */
  const char *ci_stop;            /* -ci_target: target, time or max; else NULL */
  const result_extra_t *extras;   /* the suite's own fields, or NULL */
  int n_extras;
} result_t;

typedef struct {
  const char *level;              /* info, warning, error */
  const char *kind;
  const char *message;
  const char *benchmark;          /* or NULL */
  int processes;                  /* or 0 */
  long long bytes;                /* or -1 */
  int comment;                    /* a self-check warning: IMB's text shows it as a # line on stdout */
} event_t;

typedef struct {
  int complete;
  double elapsed_s;
  long results;
  double load_after[3];
  /* The clock model checked again at the end (NULL: not checked): per world rank. */
  int clock_n;
  const double *clock_residual_ns, *clock_bound_ns, *clock_drift_ppm;
  double clock_model_age_s;
} run_end_t;

typedef struct reporter {
  void (*run_begin)(struct reporter *r, const run_info_t *info);
  void (*table_begin)(struct reporter *r, const table_info_t *t);
  void (*result)(struct reporter *r, const result_t *res);
  void (*event)(struct reporter *r, const event_t *ev);
  void (*run_end)(struct reporter *r, const run_end_t *end);
  void *state;
} reporter_t;

void report_add(reporter_t *r);
void report_run_begin(const run_info_t *info);
void report_table_begin(const table_info_t *t);
void report_result(const result_t *res);
void report_event(const event_t *ev);
void report_run_end(const run_end_t *end);

/* The reporters. */
reporter_t *imb_text_reporter(void);          /* IMB's tables on stdout */
reporter_t *json_lines_reporter(const char *path, char *err, size_t errlen);
reporter_t *imb_p2p_text_reporter(void);      /* IMB-P2P's tables on stdout */
void imb_text_system_lines(const run_info_t *in); /* IMB's "# Date ... # MPI Version" header lines */
/* A benchmark's comment lines ('\n' between them), each after indent: "#     " in
 * the run's header, 8 blanks under the name in -list (IMB-RMA's, IMB-EXT's). */
void imb_comment_lines(const char *indent, const char *comment);
reporter_t *imb_mt_text_reporter(void);       /* IMB-MT's tables on stdout */
reporter_t *osu_text_reporter(void);          /* OSU 7.4's text on stdout (report/osu_text.c) */

#endif
