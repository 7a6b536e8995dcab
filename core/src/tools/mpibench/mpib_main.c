/* mpimark-core mpibench [options] [operations]: LLNL mpiBench 1.5's
 * measurement (docs/mpibench.md). Every operation runs on MPI_COMM_WORLD,
 * then on the 1-D Cartesian sub-communicators (-d) and on the halving
 * partitions (-p); all sub-communicators of a level run at the same time.
 * Each rank times a loop of back-to-back calls (with a barrier after every
 * call unless -nobar) and divides by the iterations; the line shows the
 * average, minimum and maximum of those per-rank times over all ranks. */
#include "tools/common/tool_run.h"
#include "engine/finish.h"
#include "util/iterations.h"
#include "util/parse.h"
#include "tools/mpibench/mpib_calc.h"
#include "tools/tools.h"
#include "util/strutil.h"
#include "util/timer.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MPIB_VERSION "1.5"               /* the mpiBench version whose output is reproduced */
#define DEFAULT_TIME_LIMIT_US 50000.0    /* neither -i nor -t given */

enum {
  OP_BARRIER, OP_BCAST, OP_ALLTOALL, OP_ALLTOALLV, OP_ALLGATHER, OP_ALLGATHERV, OP_GATHER, OP_GATHERV, OP_SCATTER,
  OP_ALLREDUCE, OP_REDUCE, N_OPS
};
static const char *const op_name[N_OPS] = {"Barrier", "Bcast", "Alltoall", "Alltoallv", "Allgather", "Allgatherv",
                                            "Gather", "Gatherv", "Scatter", "Allreduce", "Reduce"};

typedef struct {
  size_t start, stop, mem_limit;
  long iters;
  int iters_set;
  double time_limit_us;
  int time_set;
  int ndims, partsize;
  int check_once, check_every;
  int barrier;
  unsigned ops;               /* bit i: op i; 0 means all */
  char json[1024];
  int help;
} mpib_opts_t;

static void usage(FILE *f) {
  fprintf(f,
    "\n"
    "  Usage:  mpimark-core mpibench [options] [operations]\n"
    "\n"
    "  Options (mpiBench 1.5's):\n"
    "    -b <byte>  Beginning message size in bytes (default 0)\n"
    "    -e <byte>  Ending message size in bytes (default 256K)\n"
    "    -m <byte>  Process memory buffer limit (send+recv) in bytes (default 1G)\n"
    "    -i <itrs>  Maximum number of iterations for a single test (default 1000)\n"
    "    -t <usec>  Time limit for any single test in microseconds (default 0 = infinity;\n"
    "               50000 when neither -i nor -t is given)\n"
    "    -d <ndim>  Number of Cartesian dimensions to split processes in (default 0 = MPI_COMM_WORLD only)\n"
    "    -p <size>  Minimum partition size (number of ranks) to divide MPI_COMM_WORLD by\n"
    "    -c         Check receive buffer for expected data after the timed loop (default disabled)\n"
    "    -C         Check receive buffer for expected data every iteration (default disabled)\n"
    "    -h         Print this help screen and exit\n"
    "    where <byte> = [0-9.]+[KMG][B], e.g., 32K or 64M (base 1024)\n"
    "\n"
    "  mpimark options:\n"
    "    -nobar     No barrier between consecutive calls (mpiBench's 'make nobar')\n"
    "    -check     Same as -c\n"
    "    -json FILE Write the JSON Lines results stream to FILE\n"
    "\n"
    "  Operations (case-insensitive; default all):\n"
    "    Barrier\n"
    "    Bcast\n"
    "    Alltoall, Alltoallv\n"
    "    Allgather, Allgatherv\n"
    "    Gather, Gatherv\n"
    "    Scatter\n"
    "    Allreduce\n"
    "    Reduce\n"
    "\n");
}

static int parse_args(mpib_opts_t *o, int argc, char **argv, char *err) {
  memset(o, 0, sizeof(*o));
  o->start = 0;
  o->stop = 256 * 1024;
  o->mem_limit = 1024UL * 1024 * 1024;
  o->iters = 1000;
  o->barrier = 1;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-') {
      int k;
      for (k = 0; k < N_OPS; k++)
        if (str_ieq(a, op_name[k])) break;
      if (k == N_OPS) {
        snprintf(err, ERR_LEN, "unknown operation '%s'; the operations are Barrier, Bcast, Alltoall, Alltoallv, "
                 "Allgather, Allgatherv, Gather, Gatherv, Scatter, Allreduce, Reduce", a);
        return -1;
      }
      o->ops |= 1u << k;
      continue;
    }
    if (str_ieq(a, "-help") || str_ieq(a, "--help") || strcmp(a, "-h") == 0) { o->help = 1; continue; }
    if (str_ieq(a, "-nobar") || str_ieq(a, "-no-barrier")) { o->barrier = 0; continue; }
    if (str_ieq(a, "-check") || strcmp(a, "-c") == 0) { o->check_once = 1; continue; }
    if (strcmp(a, "-C") == 0) { o->check_every = 1; continue; }
    if (str_ieq(a, "-json")) {
      if (i + 1 >= argc || !*argv[i + 1] || strlen(argv[i + 1]) >= sizeof(o->json)) {
        snprintf(err, ERR_LEN, "-json needs a file name");
        return -1;
      }
      snprintf(o->json, sizeof(o->json), "%s", argv[++i]);
      continue;
    }
    char flag = a[1];
    if (!flag || !strchr("beimtdp", flag) || (a[2] && !(isdigit((unsigned char)a[2]) || a[2] == '.'))) {
      snprintf(err, ERR_LEN, "unknown mpibench option '%s'; see 'mpimark-core mpibench -h'", a);
      return -1;
    }
    /* "-i100" or "-i 100", as mpiBench. */
    const char *v = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
    if (!v) {
      snprintf(err, ERR_LEN, "-%c needs a value; see 'mpimark-core mpibench -h'", flag);
      return -1;
    }
    long long n;
    switch (flag) {
      case 'b': case 'e': case 'm': {
        size_t bytes;
        if (mpib_parse_bytes(v, &bytes)) {
          snprintf(err, ERR_LEN, "-%c '%s' is not a byte count; give e.g. 1024, 32K, 64M or 1G", flag, v);
          return -1;
        }
        if (flag == 'b') o->start = bytes;
        else if (flag == 'e') o->stop = bytes;
        else o->mem_limit = bytes;
        break;
      }
      case 'i':
        if (parse_integer(v, 1, LONG_MAX, &n)) {
          snprintf(err, ERR_LEN, "-i '%s' is not a positive iteration count", v);
          return -1;
        }
        o->iters = n;
        o->iters_set = 1;
        break;
      case 't':
        if (parse_integer(v, 0, LONG_MAX, &n)) {
          snprintf(err, ERR_LEN, "-t '%s' is not a time limit in microseconds (0 = none)", v);
          return -1;
        }
        o->time_limit_us = (double)n;
        o->time_set = 1;
        break;
      case 'd':
        if (parse_integer(v, 0, MPIB_MAX_DIMS, &n)) {
          snprintf(err, ERR_LEN, "-d '%s' is not a number of dimensions from 0 to %d", v, MPIB_MAX_DIMS);
          return -1;
        }
        o->ndims = (int)n;
        break;
      default:
        if (parse_integer(v, 0, INT_MAX, &n)) {
          snprintf(err, ERR_LEN, "-p '%s' is not a partition size (number of ranks)", v);
          return -1;
        }
        o->partsize = (int)n;
        break;
    }
  }
  if (!o->iters_set && !o->time_set) o->time_limit_us = DEFAULT_TIME_LIMIT_US;
  if (o->ops == 0) o->ops = (1u << N_OPS) - 1;
  return 0;
}

/* One communicator of the run: world, a Cartesian line, or a partition. */
typedef struct {
  MPI_Comm comm;
  char label[64];
  int groups;                 /* sub-communicators of this level, all running at once */
} comm_entry_t;

/* The state of one measurement. */
typedef struct {
  const mpib_opts_t *o;
  char *sbuf, *rbuf;
  size_t buffer_size;
  int *scounts, *sdispls, *rcounts, *rdispls;
  MPI_Comm comm;
  int me, n, root;
  int op;
  size_t size;                /* bytes */
  int count;                  /* elements */
  MPI_Datatype type;
  int vcount;                 /* Allgatherv/Gatherv: this rank's contribution */
  long defects;
} coll_t;

static void fill_send(coll_t *c) {
  if (c->op == OP_ALLREDUCE || c->op == OP_REDUCE) {
    /* Small integers, exact in double and in any sum over ranks. */
    double *d = (double *)(void *)c->sbuf;
    for (int i = 0; i < c->count; i++) d[i] = (double)((i % 7 + 1) * (c->me + 1));
    return;
  }
  for (size_t i = 0; i < c->buffer_size; i++) c->sbuf[i] = mpib_pattern(i, c->me);
}

static void prepare(coll_t *c) {
  fill_send(c);
  memset(c->rbuf, 0, c->buffer_size);
}

/* Counts the bytes of rbuf[off..off+len) that are not what rank src put at
 * offset src_off.. of its send buffer. */
static void expect(coll_t *c, size_t off, int src, size_t src_off, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (c->rbuf[off + i] != mpib_pattern(src_off + i, src)) c->defects++;
}

static void verify(coll_t *c) {
  size_t sz = c->size;
  int n = c->n, me = c->me, root = c->root;
  switch (c->op) {
    case OP_BCAST:
      if (me != root) expect(c, 0, root, 0, sz);
      break;
    case OP_ALLTOALL:
      for (int j = 0; j < n; j++) expect(c, (size_t)j * sz, j, (size_t)me * sz, sz);
      break;
    case OP_ALLTOALLV: {
      int chunk = mpib_chunk(c->count, n);
      for (int k = 0; k < n; k++) {
        size_t src_off = 0;
        for (int j = 0; j < me; j++) src_off += (size_t)mpib_alltoallv_count(j, k, chunk, c->count);
        expect(c, (size_t)c->rdispls[k], k, src_off, (size_t)c->rcounts[k]);
      }
      break;
    }
    case OP_ALLGATHER:
    case OP_GATHER:
      if (c->op == OP_GATHER && me != root) break;
      for (int j = 0; j < n; j++) expect(c, (size_t)j * sz, j, 0, sz);
      break;
    case OP_ALLGATHERV:
    case OP_GATHERV:
      if (c->op == OP_GATHERV && me != root) break;
      for (int j = 0; j < n; j++) expect(c, (size_t)c->rdispls[j], j, 0, (size_t)c->rcounts[j]);
      break;
    case OP_SCATTER:
      expect(c, 0, root, (size_t)me * sz, sz);
      break;
    case OP_ALLREDUCE:
    case OP_REDUCE: {
      if (c->op == OP_REDUCE && me != root) break;
      const double *d = (const double *)(const void *)c->rbuf;
      double ranks = (double)n * (n + 1) / 2;
      for (int i = 0; i < c->count; i++)
        if (d[i] != (double)(i % 7 + 1) * ranks) c->defects++;
      break;
    }
    default:
      break;
  }
}

/* The v-collectives' irregular counts (mpiBench's), in elements. */
static void setup_counts(coll_t *c) {
  int chunk = mpib_chunk(c->count, c->n), disp = 0;
  if (c->op == OP_ALLTOALLV) {
    for (int i = 0; i < c->n; i++) {
      int k = mpib_alltoallv_count(i, c->me, chunk, c->count);
      c->scounts[i] = c->rcounts[i] = k;
      c->sdispls[i] = c->rdispls[i] = disp;
      disp += k;
    }
  } else if (c->op == OP_ALLGATHERV || c->op == OP_GATHERV) {
    for (int i = 0; i < c->n; i++) {
      int k = mpib_gatherv_count(i, chunk, c->count);
      c->rcounts[i] = k;
      c->rdispls[i] = disp;
      disp += k;
    }
    c->vcount = mpib_gatherv_count(c->me, chunk, c->count);
  }
}

static void run_once(coll_t *c) {
  switch (c->op) {
    case OP_BARRIER: MPI_Barrier(c->comm); break;
    case OP_BCAST: MPI_Bcast(c->me == c->root ? c->sbuf : c->rbuf, c->count, c->type, c->root, c->comm); break;
    case OP_ALLTOALL: MPI_Alltoall(c->sbuf, c->count, c->type, c->rbuf, c->count, c->type, c->comm); break;
    case OP_ALLTOALLV:
      MPI_Alltoallv(c->sbuf, c->scounts, c->sdispls, c->type, c->rbuf, c->rcounts, c->rdispls, c->type, c->comm);
      break;
    case OP_ALLGATHER: MPI_Allgather(c->sbuf, c->count, c->type, c->rbuf, c->count, c->type, c->comm); break;
    case OP_ALLGATHERV:
      MPI_Allgatherv(c->sbuf, c->vcount, c->type, c->rbuf, c->rcounts, c->rdispls, c->type, c->comm);
      break;
    case OP_GATHER: MPI_Gather(c->sbuf, c->count, c->type, c->rbuf, c->count, c->type, c->root, c->comm); break;
    case OP_GATHERV:
      MPI_Gatherv(c->sbuf, c->vcount, c->type, c->rbuf, c->rcounts, c->rdispls, c->type, c->root, c->comm);
      break;
    case OP_SCATTER: MPI_Scatter(c->sbuf, c->count, c->type, c->rbuf, c->count, c->type, c->root, c->comm); break;
    case OP_ALLREDUCE: MPI_Allreduce(c->sbuf, c->rbuf, c->count, c->type, MPI_SUM, c->comm); break;
    case OP_REDUCE: MPI_Reduce(c->sbuf, c->rbuf, c->count, c->type, MPI_SUM, c->root, c->comm); break;
    default: break;
  }
}

/* The timing kernel: a world barrier, then iters calls each followed by a
 * barrier on the communicator (none for Barrier itself, none with -nobar).
 * With -C every iteration also refills and checks the buffers, inside the
 * timing as in mpiBench. Returns microseconds per call. */
static double time_loop(coll_t *c, long iters) {
  int bar = c->o->barrier && c->op != OP_BARRIER;
  int check = c->o->check_every && c->op != OP_BARRIER;
  MPI_Barrier(MPI_COMM_WORLD);
  int64_t t0 = now_ns();
  for (long i = 0; i < iters; i++) {
    if (check) prepare(c);
    run_once(c);
    if (bar) MPI_Barrier(c->comm);
    if (check) verify(c);
  }
  int64_t t1 = now_ns();
  return (double)(t1 - t0) * 1e-3 / (double)iters;
}

typedef struct {
  tool_run_t *tr;
  int world_rank, world_size;
  char *all;                  /* rank 0: gathered per-rank values */
} report_t;

/* Gathers every world rank's time (and defects) to rank 0, prints the
 * mpiBench line and writes the JSON record. */
static void print_timings(report_t *r, coll_t *c, const comm_entry_t *ce, int ci, double t_us, long iters,
                          int estimated, int checked) {
  double mine[2] = {t_us, (double)c->defects}, *all = (double *)(void *)r->all;
  MPI_Gather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (r->world_rank != 0) return;
  double sum = 0, lo = INFINITY, hi = -INFINITY;
  long defects = 0;
  for (int i = 0; i < r->world_size; i++) {
    double v = all[2 * i];
    sum += v;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    defects += (long)all[2 * i + 1];
  }
  double avg = sum / r->world_size;
  printf("%-20.20s\tBytes:\t%8zu\tIters:\t%7ld\tAvg:\t%8.4f\tMin:\t%8.4f\tMax:\t%8.4f\tComm: %s\tRanks: %d\n",
         op_name[c->op], c->size, iters, avg, lo, hi, ce->label, c->n);
  fflush(stdout);
  jw_t *w = tool_result_begin(r->tr, op_name[c->op], "mpibench", r->world_size, (long long)c->size, c->count,
                              c->op == OP_ALLREDUCE || c->op == OP_REDUCE ? "MPI_DOUBLE" : "MPI_BYTE", iters, lo, hi,
                              avg, NAN, checked ? defects : -1);
  if (!w) return;
  jw_str(w, "comm", ce->label);
  jw_int(w, "comm_index", ci);
  jw_int(w, "comm_ranks", c->n);
  jw_int(w, "comm_groups", ce->groups);
  jw_bool(w, "barrier", c->o->barrier && c->op != OP_BARRIER);
  jw_bool(w, "estimate_only", estimated);
  if (checked) jw_str(w, "check", c->o->check_every ? "every" : "once"); else jw_null(w, "check");
  if (r->world_size <= 4096) {
    jw_arr_begin(w, "rank_usec");
    for (int i = 0; i < r->world_size; i++) jw_num(w, NULL, all[2 * i]);
    jw_arr_end(w);
  }
  tool_record_end(r->tr);
}

/* mpiBench's get_time: prime with one call, estimate over 5, limit the
 * iterations by the time limit with rank 0's estimate, time, report. */
static void measure(report_t *r, coll_t *c, const comm_entry_t *ce, int ci) {
  const mpib_opts_t *o = c->o;
  c->defects = 0;
  setup_counts(c);
  prepare(c);
  time_loop(c, 1);
  double t = time_loop(c, ITER_ESTIMATE);
  long iters = iter_time_limited(o->iters, o->time_limit_us, t);
  MPI_Bcast(&iters, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  int estimated = 0;
  if (iters > ITER_ESTIMATE) {
    t = time_loop(c, iters);
  } else {
    iters = ITER_ESTIMATE;
    estimated = 1;
  }
  int checked = (o->check_once || o->check_every) && c->op != OP_BARRIER;
  if (o->check_once && !o->check_every && c->op != OP_BARRIER) {
    /* -c: one more call, untimed, with fresh buffers, then the check. */
    prepare(c);
    run_once(c);
    verify(c);
  }
  print_timings(r, c, ce, ci, t, iters, estimated, checked);
}

int mpibench_main(int argc, char **argv) {
  static mpib_opts_t o;
  char err[ERR_LEN] = {0};
  int parse_rc = parse_args(&o, argc, argv, err);
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  if (parse_rc) return finish(rank, EXIT_BAD_INPUT, err);
  if (o.help) {
    if (rank == 0) usage(stdout);
    return finish(rank, 0, NULL);
  }

  static tool_run_t tr;
  tool_collect(&tr, argc, argv);
  int json_failed = 0;
  if (rank == 0 && o.json[0]) json_failed = tool_json_open(&tr, o.json, err, sizeof(err)) != 0;
  MPI_Bcast(&json_failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (json_failed) return finish(rank, EXIT_BAD_INPUT, err);

  /* Buffers: the stop size halved until send + receive fit -m, then
   * stop * P bytes each (an Alltoall on all ranks at the stop size). */
  size_t stop = mpib_cap_stop(o.stop, P, o.mem_limit);
  if ((double)stop * P > (double)INT_MAX) {
    snprintf(err, sizeof(err), "-e %zu bytes on %d ranks needs counts beyond 2^31; lower -e or -m", o.stop, P);
    return finish(rank, EXIT_BAD_INPUT, err);
  }
  coll_t c;
  memset(&c, 0, sizeof(c));
  c.o = &o;
  c.buffer_size = stop * (size_t)P;
  c.sbuf = malloc(c.buffer_size + 8);
  c.rbuf = malloc(c.buffer_size + 8);
  c.scounts = malloc(sizeof(int) * (size_t)P);
  c.sdispls = malloc(sizeof(int) * (size_t)P);
  c.rcounts = malloc(sizeof(int) * (size_t)P);
  c.rdispls = malloc(sizeof(int) * (size_t)P);
  int oom = !c.sbuf || !c.rbuf || !c.scounts || !c.sdispls || !c.rcounts || !c.rdispls;
  MPI_Allreduce(MPI_IN_PLACE, &oom, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (oom) {
    snprintf(err, sizeof(err), "cannot allocate 2 x %zu bytes of message buffers; lower -e or -m", c.buffer_size);
    return finish(rank, EXIT_BAD_INPUT, err);
  }
  memset(c.sbuf, 0, c.buffer_size + 8);
  memset(c.rbuf, 0, c.buffer_size + 8);
  size_t allocated = 2 * (c.buffer_size + 8) + 4 * sizeof(int) * (size_t)P;

  /* Communicators: world, the -d lines, the -p partitions. */
  int levels[64], n_levels = mpib_partition_levels(P, o.partsize, levels, 64);
  int n_comms = 1 + o.ndims + n_levels;
  comm_entry_t *comms = calloc((size_t)n_comms, sizeof(comm_entry_t));
  comms[0].comm = MPI_COMM_WORLD;
  snprintf(comms[0].label, sizeof(comms[0].label), "MPI_COMM_WORLD");
  comms[0].groups = 1;
  int k = 1, dims[MPIB_MAX_DIMS] = {0};
  if (o.ndims > 0) {
    MPI_Dims_create(P, o.ndims, dims);
    for (int d = 0; d < o.ndims; d++, k++) {
      int color, key;
      mpib_cart_split(rank, o.ndims, dims, d, &color, &key);
      MPI_Comm_split(MPI_COMM_WORLD, color, key, &comms[k].comm);
      snprintf(comms[k].label, sizeof(comms[k].label), "CartDim-%dof%d", d + 1, o.ndims);
      comms[k].groups = mpib_cart_groups(P, dims, d);
    }
  }
  for (int l = 0; l < n_levels; l++, k++) {
    MPI_Comm_split(MPI_COMM_WORLD, mpib_partition_color(rank, levels[l]), rank, &comms[k].comm);
    snprintf(comms[k].label, sizeof(comms[k].label), "PartSize-%d", levels[l]);
    comms[k].groups = mpib_partition_groups(P, levels[l]);
  }

  /* The run record. */
  jw_t *w = rank == 0 ? tool_run_begin(&tr, "mpibench") : NULL;
  if (w) {
    jw_obj_begin(w, "options");
    jw_int(w, "b_bytes", (int64_t)o.start);
    jw_int(w, "e_bytes", (int64_t)o.stop);
    jw_int(w, "e_bytes_after_m", (int64_t)stop);
    jw_int(w, "m_bytes", (int64_t)o.mem_limit);
    jw_int(w, "i_iterations", o.iters);
    jw_num(w, "t_usec", o.time_limit_us);
    jw_bool(w, "t_default", !o.iters_set && !o.time_set);
    jw_int(w, "d_dims", o.ndims);
    jw_int(w, "p_partsize", o.partsize);
    jw_str(w, "check", o.check_every ? "every" : o.check_once ? "once" : "off");
    jw_bool(w, "barrier", o.barrier);
    jw_arr_begin(w, "cart_dims");
    for (int d = 0; d < o.ndims; d++) jw_int(w, NULL, dims[d]);
    jw_arr_end(w);
    jw_obj_end(w);
    jw_arr_begin(w, "benchmarks");
    for (int i = 0; i < N_OPS; i++)
      if (o.ops & (1u << i)) jw_str(w, NULL, op_name[i]);
    jw_arr_end(w);
    jw_arr_begin(w, "communicators");
    for (int i = 0; i < n_comms; i++) jw_str(w, NULL, comms[i].label);
    jw_arr_end(w);
    tool_record_end(&tr);
  }

  /* START line and the rank -> host map, as mpiBench prints them. */
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  char *hosts = rank == 0 ? malloc((size_t)P * sizeof(host)) : NULL;
  MPI_Gather(host, sizeof(host), MPI_CHAR, hosts, sizeof(host), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("# mpimark-core %s mpibench: barrier after every call %s, time limit %.0f usec, at most %ld iterations%s\n",
           MPIMARK_VERSION, o.barrier ? "on" : "off (-nobar)", o.time_limit_us, o.iters,
           o.check_every ? ", -C check every iteration" : o.check_once ? ", -c check" : "");
    if (stop != o.stop) printf("# -e %zu lowered to %zu by -m %zu\n", o.stop, stop, o.mem_limit);
    printf("START mpiBench v%s\n", MPIB_VERSION);
    for (int i = 0; i < P; i++) printf("%d : %s\n", i, hosts + (size_t)i * sizeof(host));
    fflush(stdout);
    free(hosts);
  }

  report_t r = {&tr, rank, P, rank == 0 ? malloc(sizeof(double) * 2 * (size_t)P) : NULL};
  long defects_total = 0;
  for (int ci = 0; ci < n_comms; ci++) {
    c.comm = comms[ci].comm;
    MPI_Comm_rank(c.comm, &c.me);
    MPI_Comm_size(c.comm, &c.n);
    c.root = 0;
    for (int op = 0; op < N_OPS; op++) {
      if (!(o.ops & (1u << op))) continue;
      c.op = op;
      if (op == OP_BARRIER) {
        c.size = 0;
        c.count = 0;
        c.type = MPI_BYTE;
        measure(&r, &c, &comms[ci], ci);
        defects_total += c.defects;
        continue;
      }
      int red = op == OP_ALLREDUCE || op == OP_REDUCE;
      c.type = red ? MPI_DOUBLE : MPI_BYTE;
      for (size_t sz = o.start; sz <= stop; sz = mpib_next_size(sz)) {
        if (red && sz < sizeof(double)) continue;   /* vectors of doubles: 1, 2, 4 bytes are skipped */
        c.size = sz;
        c.count = (int)(red ? sz / sizeof(double) : sz);
        measure(&r, &c, &comms[ci], ci);
        defects_total += c.defects;
      }
    }
  }
  long defects = 0;
  MPI_Reduce(&defects_total, &defects, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("Message buffers (KB):\t%zu\n", allocated / 1024);
    printf("END mpiBench\n");
    fflush(stdout);
    if (defects > 0) {
      char msg[256];
      snprintf(msg, sizeof(msg), "%ld received bytes or elements differ from what was sent", defects);
      tool_event(&tr, "error", "check_failed", msg);
    }
    tool_run_end(&tr, 1);
  }
  for (int i = 1; i < n_comms; i++) MPI_Comm_free(&comms[i].comm);
  MPI_Bcast(&defects, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (defects > 0) {
    snprintf(err, sizeof(err), "-c/-C found %ld received bytes or elements that differ from what was sent", defects);
    return finish(rank, EXIT_CHECK_FAILED, err);
  }
  return finish(rank, 0, NULL);
}
