/* mpimark-core osu NAME [OSU options]: OSU Micro-Benchmarks 7.4's tests with
 * OSU's definitions, options and text (docs/osu-compatibility.md), and
 * mpimark's samples, records and checks.
 *
 * The contract between the parts of the suite:
 *   osu_options.c  OSU's command line -> osu_options_t (no MPI; CTest test_osu)
 *   osu_tests.c    the one table of OSU's programs (facts, names, titles, what each takes)
 *   osu_main.c     MPI start, the size/datatype loops, rows -> records and text
 *   osu_buffers.c  aligned, written buffers; OSU's -c patterns
 *   osu_latency.c, osu_bw.c, osu_multi_lat.c, osu_latency_mt.c, osu_latency_mp.c, osu_onesided.c,
 *   osu_coll.c, osu_nbc.c
 *                  one measure function per family (osu_families.h): one size, one datatype, every rank
 *   report/osu_text.c  OSU 7.4's text from the records (a reporter like the others)
 *
 * Every family reads the clock with now_ns() (util/timer.h: the clock the self-checks test) where OSU
 * calls MPI_Wtime, as often as OSU does inside what it times: a read costs 40-50 ns on small machines,
 * a third of a shared-memory put (benchmarks/README.md, "the binary was stale").
 */
#ifndef MPIMARK_OSU_H
#define MPIMARK_OSU_H

#include <mpi.h>
#include <stddef.h>
#include "engine/registry.h"

#define OSU_MAX_TAIL 5   /* -z: at most five percentiles, as OSU */
#define OSU_MAX_TYPES 3  /* -T: mpi_char, mpi_int, mpi_float */

typedef enum {
  OSU_FAM_LATENCY,      /* latency, latency_mp: ping-pong, rank 0 times RTT/2 */
  OSU_FAM_LATENCY_MT,   /* latency_mt: ping-pong with threads (-t) */
  OSU_FAM_BW,           /* bw, bibw: windows of Isend/Irecv */
  OSU_FAM_MBW_MR,       /* mbw_mr: pairs, MB/s and messages/s */
  OSU_FAM_MULTI_LAT,    /* multi_lat: pairs of ping-pongs */
  OSU_FAM_ONESIDED,     /* put/get/acc/fop/cas/get_acc latency, put/get bw, put_bibw (-w, -s) */
  OSU_FAM_COLL,         /* blocking collectives: avg (min, max, iterations with -f) */
  OSU_FAM_NBC,          /* non-blocking collectives: overall, compute, pure comm., overlap */
  OSU_FAM_STARTUP,      /* init, hello */
  OSU_FAM_NOT_RUN       /* an OMB 7.4 program the core only describes (facts for import) */
} osu_family_t;

typedef enum { OSU_WIN_CREATE, OSU_WIN_ALLOCATE, OSU_WIN_DYNAMIC } osu_win_t;
typedef enum { OSU_SYNC_LOCK, OSU_SYNC_FLUSH, OSU_SYNC_FLUSH_LOCAL, OSU_SYNC_LOCK_ALL, OSU_SYNC_PSCW,
               OSU_SYNC_FENCE } osu_sync_t;

/* One OSU program. The table (osu_tests.c) is the only place a program's facts
 * live: -list, the JSON facts (bench_facts), the importer's facts and the text
 * all read it. */
typedef struct osu_test osu_test_t;
typedef struct osu_ctx osu_ctx_t;
typedef struct osu_row osu_row_t;

/* Measures one size of one datatype on every rank of c->comm; fills row on
 * rank 0 (and may leave it untouched elsewhere). Collective over c->comm.
 * Returns 0, or -1 when the size could not be measured (buffers: row->status). */
typedef int (*osu_measure_fn)(osu_ctx_t *c, osu_row_t *row);
/* Optional, collective: before the first size / after the last (windows,
 * threads, buffers of the largest size). 0 or -1 (with one line in c->err). */
typedef int (*osu_setup_fn)(osu_ctx_t *c);

struct osu_test {
  const char *name;          /* OSU's program without "osu_": "latency", "put_bw", "iallreduce" */
  const char *title;         /* the title line without "# " and " v7.4": "OSU MPI Latency Test" */
  osu_family_t family;
  const char *optstring;     /* the OSU options this program takes (OSU 7.4's getopt letters) */
  int fixed_processes;       /* 2 for latency, bw, ...; 0: any count (>= min_processes) */
  int min_processes;
  size_t min_size_default;   /* OSU's defaults: latency 0, bw 1, collectives 1 (7.4 prints no 0 row) */
  size_t max_size_default;   /* 1<<22 point-to-point and one-sided, 1<<20 collectives */
  int iter_class;            /* OSU_ITER_LAT, OSU_ITER_BW, OSU_ITER_COLL: the default counts */
  int rooted, reduction;     /* collectives */
  osu_measure_fn measure;
  osu_setup_fn setup, teardown;  /* what a program does within its family (the collective, the one-sided
                                    operation) the family looks up by name in a table of its own */
  /* The layout facts (osu_columns.h, bench_facts, the text): */
  osu_family_t looks_like;   /* the family whose table it prints (a NOT_RUN program's too) */
  int bandwidth;             /* MB/s programs: OSU's bandwidth factor (bibw, put_bibw 2; bw 1); 0 latency */
  unsigned shape;            /* OSU_SHAPE_* */
};

enum {
  OSU_SHAPE_NO_SIZE = 1,          /* no Size column, no datatype (barrier, ibarrier, init, hello) */
  OSU_SHAPE_NO_DATATYPE_LINE = 2, /* sizes, but no "# Datatype:" line (get_acc_latency) */
  OSU_SHAPE_ONE_ELEMENT = 4       /* one row per datatype, one element of it, whatever -m (fop, cas) */
};

enum { OSU_ITER_LAT, OSU_ITER_BW, OSU_ITER_COLL };

typedef struct {
  /* What OSU's process_options sets, with OSU's defaults applied per program. */
  size_t min_size, max_size;          /* -m [MIN:]MAX */
  long iterations, iterations_large;  /* -i sets both */
  long skip, skip_large;              /* -x sets both */
  size_t large_threshold;             /* LARGE_MESSAGE_SIZE, 8192: sizes above it use the large counts */
  int window;                         /* -W (64) */
  int vary_window;                    /* -V */
  int pairs;                          /* -p (mbw_mr, multi_lat: np/2 when 0) */
  int print_rate;                     /* -R (1) */
  int full;                           /* -f */
  size_t mem_limit;                   /* -M (512 MiB) */
  int n_types;                        /* -T: datatypes in order; default one, the program's */
  MPI_Datatype types[OSU_MAX_TYPES];  /* filled by osu_main once MPI is up */
  int type_ids[OSU_MAX_TYPES];        /* 0 char, 1 int, 2 float (options parse without MPI) */
  int validate;                       /* -c */
  long validation_warmup;             /* -u (5) */
  int n_tail;                         /* -z */
  double tail[OSU_MAX_TAIL];          /* percentiles, default 50, 90, 99 */
  int buffer_multiple;                /* -b multiple */
  int num_test_calls;                 /* NBC -t (0: OSU 7.4 calls no MPI_Test unless asked) */
  int sender_threads, receiver_threads;     /* latency_mt -t SEND:[RECV] (1:2) */
  int sender_processes, receiver_processes; /* latency_mp -t */
  osu_win_t win;                      /* -w (allocate; the program's default) */
  osu_sync_t sync;                    /* -s (flush; put_bibw pscw, ...) */
  int in_place;                       /* -l */
  int root_rotate, root_rank;         /* -k rotate | fixed:R */
  /* mpimark's own (after OSU's, never changing OSU's columns) */
  char json_path[4096];               /* -json FILE */
  int selfcheck;                      /* -selfcheck on|off */
} osu_options_t;

/* What a measure function gets. The framework fills everything but user. */
struct osu_ctx {
  const osu_test_t *test;
  const osu_options_t *o;
  MPI_Comm comm;                      /* MPI_COMM_WORLD */
  int rank, np;
  MPI_Datatype type;                  /* this table's datatype */
  int type_size;
  const char *type_name;              /* "MPI_CHAR" */
  size_t bytes;                       /* the size OSU prints */
  size_t count;                       /* bytes / type_size (OSU skips sizes where it is 0) */
  int window;                         /* bw, bibw, mbw_mr: this row's window; 0: o->window (mbw_mr -V: each
                                         of OSU's WINDOW_SIZES in turn) */
  long iterations, skip;              /* for this size (small or large counts) */
  double *times_ns;                   /* iterations entries, for the family to fill per iteration */
  void *user;                         /* the family's state between setup and teardown */
  char err[512];
};

typedef enum { OSU_ROW_OK, OSU_ROW_OUT_OF_MEMORY, OSU_ROW_FAILED_CHECK } osu_row_status_t;

/* One printed row of OSU's table, on rank 0. NaN: not a column of this row. */
struct osu_row {
  osu_row_status_t status;
  double avg_us, min_us, max_us;      /* latency columns (-f adds min, max) */
  long iterations;                    /* the Iterations column (-f) */
  double mbytes_per_sec, msgs_per_sec;
  /* NBC: OSU's overlap columns */
  double compute_us, init_us, test_us, wait_us, pure_comm_us, min_comm_us, max_comm_us, overlap_pct;
  int validated;                      /* -c ran */
  long defects;                       /* -c: elements that differed; > 0 is OSU's "Fail" */
  double tail[OSU_MAX_TAIL];          /* -z, in the row's unit (us, or MB/s for bandwidth) */
  /* mpimark's samples: per iteration (or per window for bandwidth), the time
   * the row's figure comes from, in ns, rank 0's view (collectives: the rank
   * average per iteration, so that their mean is OSU's avg). */
  const double *samples_ns;
  long n_samples;
};

const osu_test_t *osu_find(const char *name);      /* "latency" or "osu_latency"; NULL unknown */
int osu_n_tests(void);
const osu_test_t *osu_test_at(int i);
/* The registry's row of a program (suite_osu, "osu_latency"), and back (NULL: not an osu row). */
const bench_desc *osu_bench_of(const osu_test_t *t);
const osu_test_t *osu_test_of(const bench_desc *b);

int osu_main(int argc, char **argv);

#endif
