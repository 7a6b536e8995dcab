/* A benchmark is a row in a table: IMB's name, its class, flags, buffer
 * sizing, scaling of time and bandwidth, and a kernel that performs one
 * iteration. The engine (engine.c) owns everything else: sizes, process
 * counts, groups, buffers, iteration counts, warm-up, timing, aggregation.
 * Adding a benchmark means adding a row and a kernel. */
#ifndef MPIMARK_REGISTRY_H
#define MPIMARK_REGISTRY_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include "util/buflayout.h"
#include "util/options.h"

typedef enum {
  CLASS_SINGLE,      /* two active processes (PingPong family) */
  CLASS_PARALLEL,    /* every process sends and receives (Sendrecv, Exchange) */
  CLASS_MSGRATE,     /* pairs with a window of messages (Uniband, Biband) */
  CLASS_COLLECTIVE,  /* a collective call, timed call by call */
  CLASS_SYNC         /* no message size (Barrier) */
} bench_class_t;

/* The column set of a table (IMB's out_format). OUT_AUTO derives it from
 * the class: single transfer t + MB/s, parallel t_min/t_max/t_avg + MB/s,
 * collective t_min/t_max/t_avg, sync without #bytes, msgrate MB/s + Msg/sec. */
typedef enum {
  OUT_AUTO,
  OUT_OVERLAP,       /* #bytes #repetitions t_ovrl t_pure t_CPU overlap[%] */
  OUT_OVERLAP_SYNC,  /* the same without #bytes (Ibarrier) */
  OUT_PURE_OVRL,     /* #bytes #repetitions t_pure t_ovrl (Truly_passive_put) */
  OUT_P2P,           /* #bytes #repetitions t Mbytes/sec Msg/sec (IMB-P2P) */
  OUT_AVG_RATE       /* #bytes #repetitions t_avg Mbytes/sec Msg/sec (IMB-MT's UniBandMT, BiBandMT) */
} out_format_t;


enum {
  BF_DEFAULT = 1 << 0,    /* in the default list */
  BF_HAS_ROOT = 1 << 1,   /* rooted collective (auto iteration policy, -root_shift) */
  BF_REDUCTION = 1 << 2,  /* uses -red_data_type and MPI_SUM */
  BF_AGGREGATE = 1 << 3,  /* runs in aggregate and non-aggregate mode (-aggregate_mode) */
  BF_DISJOINT = 1 << 4,   /* aggregate mode: iteration i uses its own slot of the receive side
                             (disjoint window or file sections), n_sample slots in all */
  BF_OVERLAP = 1 << 5,    /* overlap protocol: t_pure from run(), then start() + CPU work + wait */
  BF_LARGE_COUNT = 1 << 6,/* a reduction whose kernel has an MPI-4 large-count path */
  BF_NONAGGR_ITERS = 1 << 7, /* iterations from MSGS_NONAGGR although the benchmark has no modes (Window) */
  BF_SINGLE_ELEMENT = 1 << 8,/* one message size: one element (Fetch_and_op, Compare_and_swap) */
  BF_BW_TARGETS = 1 << 9, /* -imb_compat guide: bandwidth factor np-1, one origin, every other rank a
                             target (One_put_all); IMB 2021 prints X/t */
  BF_SPLIT_GUIDE = 1 << 10,  /* Reduce_scatter family: every rank gets X bytes of an np·X vector (IMB
                                2019+), the guide's split of X (-imb_compat guide) */
  BF_DISJOINT_GUIDE = 1 << 11, /* BF_DISJOINT only under -imb_compat guide (EXT; IMB uses displacement 0) */
  BF_OVERLAP_ROOT_RR = 1 << 12, /* -imb_compat 2021: the overlap loop's root is i mod np whatever -root_shift
                                   says, as IMB's Ireduce; guide: -root_shift's root in both loops */
  /* Bits 16 and up belong to the suites (BF_ANY_SOURCE, the one-sided RF_* bits). */
};

typedef struct bench_ctx bench_ctx;
typedef struct bench_desc bench_desc;

/* One iteration of the measured pattern. iter counts from 0 within a timed
 * loop and selects the -off_cache slot and the root. */
typedef void (*kernel_fn)(bench_ctx *c, long iter);

/* -check: fills the receive side with a poison pattern before iteration
 * iter, and afterwards counts the received elements that differ from what
 * must have arrived. */
typedef void (*poison_fn)(bench_ctx *c, long iter);
typedef long (*verify_fn)(bench_ctx *c, long iter);
/* Optional per-size preparation after the engine set the buffers, counts
 * (n per rank) and displacements (i*n); e.g. Reduce_scatter's split. */
typedef void (*setup_fn)(bench_ctx *c);
/* Replaces the engine's timed loop for a benchmark whose timing is its own
 * (Truly_passive_put): runs n iterations, writes each one's ns to samples
 * when samples is not NULL, returns the ns of the reported time in all. It
 * may set c->t_pure_us (OUT_PURE_OVRL). */
typedef int64_t (*loop_fn)(bench_ctx *c, long n, double *samples);
/* Starts the nonblocking operation of iteration iter (overlap protocol). */
typedef void (*start_fn)(bench_ctx *c, long iter, MPI_Request *req);
/* Ends what start() began where MPI_Wait cannot: MPI-IO split collectives
 * (MPI_File_write_all_begin/_end) have no request. */
typedef void (*finish_fn)(bench_ctx *c, long iter, MPI_Request *req);

struct bench_desc {
  const char *name;       /* IMB's exact spelling */
  const char *comment;    /* IMB's lines under the name in the header's list ('\n' between lines), or NULL */
  bench_class_t cls;
  unsigned flags;
  double time_scale;      /* reported time = measured * scale (PingPong: 0.5) */
  double bw_scale;        /* MB/s = bw_scale * bytes / t_max; 0 = no bandwidth */
  bufsize_t sbuf, rbuf;
  kernel_fn run;
  poison_fn poison;       /* NULL: default poison (receive buffer of iter) */
  verify_fn verify;       /* NULL: nothing is received (Barrier) */
  setup_fn setup;         /* NULL: nothing to prepare */
  /* The fields below are for the suites beyond MPI-1; rows that leave them
   * out get zeros, which mean "none". */
  setup_fn teardown;      /* undoes setup (windows, persistent requests) */
  setup_fn complete;      /* assured completion, timed: after every iteration in
                             non-aggregate mode, once after the loop in aggregate mode */
  start_fn start;         /* BF_OVERLAP: begin iteration iter without waiting */
  finish_fn finish;       /* BF_OVERLAP: end it; NULL means MPI_Wait on the request */
  loop_fn loop;           /* its own timed loop instead of the engine's */
  out_format_t out;
};

/* Everything a kernel may touch, prepared by the engine per message size. */
struct bench_ctx {
  const bench_desc *desc;
  const options_t *opt;
  MPI_Comm comm;          /* the group's communicator */
  int rank, np;

  size_t bytes;           /* message size X */
  size_t count;           /* elements per message: X / element size */
  dtype_t dt;             /* element type */
  MPI_Datatype type;      /* datatype for calls: the element, or a block of X bytes for large counts */
  int n;                  /* count to pass with type (1 when type is a block) */
  MPI_Datatype elem;      /* the element's own datatype */
  MPI_Op op;              /* MPI_SUM for reductions */
  int large_count;        /* count exceeds INT_MAX */

  char *sbuf, *rbuf;      /* slot 0 of each buffer */
  size_t s_len, r_len;    /* bytes of one slot */
  size_t s_stride, r_stride;  /* -off_cache: distance between slots; 0 otherwise */
  long s_slots, r_slots;  /* -off_cache: number of slots; 1 otherwise */

  int root_shift;
  int window;             /* Uniband/Biband messages in flight */
  MPI_Request *reqs;      /* 2*window requests */
  int *counts, *displs;   /* per-rank counts and displacements, in units of type */
  char ack;               /* Uniband/Biband acknowledgement byte */

  int aggregate;          /* -1 no modes, 1 aggregate, 0 non-aggregate */
  long n_sample;          /* iterations of the timed loop (BF_DISJOINT sizing) */
  MPI_Win win;            /* one-sided suites: the window over the receive buffer */
  MPI_Request preq;       /* MPI-4 suites: the persistent request */
  void *user;             /* anything else a suite's setup wants to keep */
  size_t whole;           /* mpiBench -C: bytes of the whole send and receive buffers, refilled, cleared
                             and (send) checked around every call; 0 otherwise */
  void *send_ref;         /* with whole: the send buffer's values, to compare it against */
  int untimed;            /* set by setup: this rank's time is left out of t_min/t_max/t_avg
                             (passive targets of IMB-RMA) */
  int end_barrier;        /* set by setup: every timed loop ends with an untimed MPI_Barrier on the
                             group, as each IMB-RMA benchmark does (engine.c, timed_loop) */
  double t_pure_us;       /* set by a loop_fn: the pure time for OUT_PURE_OVRL */
};

static inline char *sbuf_at(const bench_ctx *c, long slot) {
  return c->sbuf + (size_t)(slot % c->s_slots) * c->s_stride;
}
static inline char *rbuf_at(const bench_ctx *c, long slot) {
  return c->rbuf + (size_t)(slot % c->r_slots) * c->r_stride;
}

/* A suite: its name in the command line, its title in the text header, and its table. */
typedef struct {
  const char *name;       /* "mpi1" */
  const char *title;      /* "MPI-1" */
  const bench_desc *benchmarks;
  int n_benchmarks;
  int nonaggregate_first; /* mode order: IMB-RMA runs non-aggregate first, EXT and IO aggregate first */
  int single_np;          /* processes of a single-transfer benchmark; 0 means 2 (IO: 1) */
  long rep_test_cap;      /* the suite's compile-time MSGSPERSAMPLE for calibration; 0 means 1000 (IO: 50) */
  int min_mpi_version;    /* MPI major version the kernels need (MPI-4: 4); 0 any. On an older
                             library the rows are listed (-list, facts) but not run */
  int tool;               /* a stand-alone tool's table (mpibench, b_eff, startup): not a suite word of
                             the IMB command line; its rows describe the tool's result records */
  /* Collective over MPI_COMM_WORLD before any benchmark runs (IO: -iodir is
   * writable and has room). Returns 0, or -1 on every rank with one line in
   * err on rank 0. NULL: nothing to check. */
  int (*precheck)(const options_t *o, const bench_desc *const *list, int n, char *err, size_t errlen);
  /* A suite that is a separate IMB program with its own command line and
   * timing (IMB-P2P, IMB-MT): main() hands it the whole command line. Its
   * rows still describe every benchmark (-list, facts) and its records go
   * through the reporters. NULL: IMB's options and the engine. */
  int (*own_main)(int argc, char **argv);
} suite_desc;

const suite_desc *find_suite(const char *name);
/* "mpi1, nbc, ..." for messages. */
int suite_names(char *buf, size_t len);
/* The IMB program a suite stands for, as IMB's -list labels it: "IMB-MPI1". */
void suite_imb_label(const suite_desc *s, char *buf, size_t len);
/* The i-th suite in the registry's order; NULL past the last. */
const suite_desc *suite_at(int i);
/* Case-insensitive lookup; NULL if unknown. */
const bench_desc *find_benchmark(const suite_desc *s, const char *name);

extern const suite_desc suite_mpi1;
extern const suite_desc suite_nbc;
extern const suite_desc suite_mpi4;
extern const suite_desc suite_ext;
extern const suite_desc suite_rma;
extern const suite_desc suite_io;
extern const suite_desc suite_p2p;
extern const suite_desc suite_mt;
extern const suite_desc suite_osu;   /* OSU Micro-Benchmarks 7.4 (suites/osu) */
/* The tools' tables (.tool = 1), in the order -list -json prints them.
 * mpiBench's operations are run by tools/mpibench/mpib_main.c through the
 * engine; b_eff's and startup's rows only describe their result records
 * (their loops are their own), so the front end knows them as it knows
 * every benchmark. */
extern const suite_desc suite_mpibench;
extern const suite_desc suite_beff;
extern const suite_desc suite_startup;
/* The i-th tool table; NULL past the last. */
const suite_desc *tool_suite_at(int i);

#endif
