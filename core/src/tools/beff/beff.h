/* mpimark-core beff: the effective bandwidth b_eff (HLRS b_eff 3.6
 * definition, docs/beff.md). beff_main.c measures; beff_output.c writes the
 * protocol files, the summary and the JSON records from the state below. */
#ifndef MPIMARK_BEFF_H
#define MPIMARK_BEFF_H

#include "tools/beff/beff_calc.h"
#include "tools/common/tool_run.h"

#include <mpi.h>
#include <stdint.h>
#include <sys/utsname.h>

#define BEFF_MAXSR 6               /* sendrecv slots of one pattern at most */
#define BEFF_PRE_LOOPS 1           /* untimed iterations before the timed loop ... */
#define BEFF_WITH_PRELOOPS 18      /* ... for length indices below this */
#define BEFF_MIN_LOOPS 1
#define BEFF_PRE_MSG_LOOPS 10      /* loop length of the calibration pass at L = 1 */
#define BEFF_MIN_REPETITIONS 2     /* repetitions of Lmax when the last two lengths are shortened */

enum { BEFF_SNDRCV, BEFF_ALLTOALLV, BEFF_NONBLK };

typedef enum { PAT_RING, PAT_RANDOM, PAT_EXTRA } beff_class_t;

typedef struct {
  char label[24];
  beff_class_t klass;
  MPI_Comm comm;                   /* the pattern runs on it; MPI_COMM_NULL: this rank is outside */
  int participate;                 /* this rank: 1 measured, -1 only joins the Alltoallv, 0 outside */
  int sr_count;                    /* this rank's sendrecv slots (ping, pong, ...) */
  int sdest[BEFF_MAXSR], rsrc[BEFF_MAXSR];
  int sendrecv_only;               /* "one PingPong Pair": measured with MPI_Sendrecv only */
  /* Over all ranks, after setup: */
  long all_msg;                    /* messages sent in one loop iteration */
  int participants;                /* ranks with participate == 1 */
  int sr_max;                      /* largest sr_count */
} beff_pattern_t;

typedef struct {
  /* Options. */
  long long mem_mb;                /* memory per process, MiB */
  int mem_given;                   /* -mem given; else MemTotal / ranks on the host */
  char prefix[1024];               /* -out / -f */
  char json[1024];
  char yrange[64];                 /* gnuplot y range of the .gps script */
  int short_mode, test_mode;       /* -short, -test: the original's -DSHORT / -DTEST */
  const char *tag;                 /* "", "SHORT", "TEST", "SHORT&TEST" */
  int reps;                        /* 3, or 2 with -short */
  int n_random;                    /* 30, 6 with -short, 2 with -test */
  double time_per_loop;            /* 0.5 s, 0.05 with -short, 0.005 with -test */
  double max_for_last_two;         /* 60 s, 1 with -test */
  int no_short_last_two;           /* -noshortlasttwo */
  unsigned long long seed;         /* random patterns; -seed, else the time */
  int help;

  /* Geometry. */
  int N, rank;
  long long lmax;
  double factor;
  long long len[BEFF_MSGLENGTHS];
  beff_pattern_t pat[BEFF_MAX_PATTERNS];
  int n_pat, first_ring, first_random, first_extra, pingpong_pat;
  char dims_line[4][64];           /* "2-dim-patterns: size = 2 * 1" ... */
  int n_dims_lines;

  /* Loop control, identical on every rank. */
  int looplng[BEFF_MSGLENGTHS][BEFF_MAX_REPS][BEFF_METHODS];
  int repetitions[BEFF_MSGLENGTHS];
  int best_method[BEFF_MAX_REPS][BEFF_MAX_PATTERNS];   /* -1: every method measured */
  int shortened;                   /* the last two lengths were shortened */
  /* Rank 0's own loop times, summed / min / max over patterns, seconds. */
  double comm_time[BEFF_MSGLENGTHS][BEFF_MAX_REPS][BEFF_METHODS];
  double min_looptime[BEFF_MSGLENGTHS][BEFF_MAX_REPS][BEFF_METHODS];
  double max_looptime[BEFF_MSGLENGTHS][BEFF_MAX_REPS][BEFF_METHODS];

  /* Per cell [rep][pat][msg][mthd] (index beff_cell): */
  size_t n_cells;
  unsigned char *measured;         /* 1: measured, else copied or empty (every rank) */
  int *loops;                      /* timed iterations (every rank) */
  double *t_max, *t_min, *t_avg;   /* timed loop, seconds, over participants (rank 0) */
  double *bw_min, *bw_avg, *bw_max;/* per process, B/s, over participants (rank 0) */
  double *b;                       /* accumulated bandwidth, B/s (rank 0) */
  beff_analysis_t *an;             /* rank 0 */
  double latency_pp_s, bw_pp;      /* ping-pong latency (s) and bandwidth at Lmax (B/s) */

  long defects;                    /* first/last byte mismatches, all ranks (rank 0) */
  double loop_elapsed_s;           /* measurement loop, slowest rank */
  double total_elapsed_s;
  char date[64];
  struct utsname uts;
  char uname_line[400];
} beff_t;

static inline size_t beff_cell(const beff_t *s, int rep, int pat, int msg, int mthd) {
  return (((size_t)rep * BEFF_MAX_PATTERNS + (size_t)pat) * BEFF_MSGLENGTHS + (size_t)msg) * BEFF_METHODS
         + (size_t)mthd;
}

extern const char *const beff_method_name[BEFF_METHODS];

/* beff_output.c (rank 0). The files return 0, or -1 with one line in err. */
int beff_write_files(const beff_t *s, char *err, size_t errlen);
void beff_print_summary(const beff_t *s, FILE *f);
void beff_final_line(const beff_t *s, char *buf, size_t n);
void beff_write_json(const beff_t *s, tool_run_t *t);

int beff_main(int argc, char **argv);

#endif
