/* mpimark-core mpibench [options] [operations]: LLNL mpiBench 1.5's
 * command line and measurement (docs/mpibench.md), run by the engine. Every
 * operation runs on MPI_COMM_WORLD, then on the 1-D Cartesian
 * sub-communicators (-d) and on the halving partitions (-p); all
 * sub-communicators of a level run at the same time (one engine table per
 * communicator and operation). Each rank times back-to-back calls with a
 * barrier after every call (unless -nobar), with mpiBench's time-limited
 * iteration count; the reporters print the average, minimum and maximum of
 * the per-rank times over all ranks, as mpiBench's lines and as the stream. */
#include "engine/engine.h"
#include "engine/finish.h"
#include "engine/selfcheck.h"
#include "engine/sysinfo.h"
#include "tools/mpibench/mpibench.h"
#include "tools/tools.h"
#include "util/parse.h"
#include "util/strutil.h"
#include "util/timer.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_TIME_LIMIT_US 50000.0    /* no -t given, with or without -i (as mpiBench runs) */
#define N_OPS 11                         /* the rows of suite_mpibench */
#define OP_BARRIER 0
#define MAX_LADDER 128

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
    "    -t <usec>  Time limit for any single test in microseconds (default 50000, also with -i;\n"
    "               0 = infinity)\n"
    "    -d <ndim>  Number of Cartesian dimensions to split processes in (default 0 = MPI_COMM_WORLD only)\n"
    "    -p <size>  Minimum partition size (number of ranks) to divide MPI_COMM_WORLD by\n"
    "    -c         Check receive buffer for expected data after the timed loop (default disabled)\n"
    "    -C         Refill and check the whole buffers in every iteration, inside the timing, as mpiBench\n"
    "               (Allreduce, Reduce: checked after the timed loop, as -c) (default disabled)\n"
    "    -h         Print this help screen and exit\n"
    "    where <byte> = [0-9.]+[KMG][B], e.g., 32K or 64M (base 1024)\n"
    "\n"
    "  mpimark options:\n"
    "    -nobar     No barrier between consecutive calls (mpiBench's 'make nobar')\n"
    "    -check     Same as -c\n"
    "    -selfcheck on|off  Timer, OS-noise and load checks before measuring (on; docs/measurement.md)\n"
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
  o->selfcheck = 1;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-') {
      int k;
      for (k = 0; k < N_OPS; k++)
        if (str_ieq(a, suite_mpibench.benchmarks[k].name)) break;
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
    if (str_ieq(a, "-sync")) {
      /* Decided (docs/mpibench.md): a common start per call would replace the
       * barrier that mpiBench's definition times with every call. */
      snprintf(err, ERR_LEN, "mpibench has no -sync: mpiBench times every call together with the barrier after it, "
               "so a window's common start would measure something else; for window-mode collectives run "
               "'mpimark-core mpi1 Allreduce -sync window' (any IMB collective), or -nobar for calls back to back");
      return -1;
    }
    if (str_ieq(a, "-selfcheck")) {
      const char *v = i + 1 < argc ? argv[++i] : "";
      if (!str_ieq(v, "on") && !str_ieq(v, "off")) {
        snprintf(err, ERR_LEN, "-selfcheck needs on or off");
        return -1;
      }
      o->selfcheck = str_ieq(v, "on");
      continue;
    }
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
  if (o->start > o->stop) {
    snprintf(err, ERR_LEN, "-b %zu is larger than -e %zu: no message size to measure", o->start, o->stop);
    return -1;
  }
  /* mpiBench's code sets its 50 ms limit before it reads any option, so -i
   * alone keeps it (its README says "neither"; its users' runs do this). */
  if (!o->time_set) o->time_limit_us = DEFAULT_TIME_LIMIT_US;
  if (o->ops == 0) o->ops = (1u << N_OPS) - 1;
  return 0;
}

/* The size ladder of an operation: -b, doubling, up to the capped -e;
 * vectors of doubles skip 1, 2 and 4 bytes; Barrier has size 0 only. */
static int op_sizes(const bench_desc *d, const mpib_opts_t *o, size_t stop, size_t *sizes) {
  if (d->sbuf == BUF_NONE) {
    sizes[0] = 0;
    return 1;
  }
  int n = 0;
  for (size_t sz = o->start; sz <= stop && n < MAX_LADDER; sz = mpib_next_size(sz))
    if (!((d->flags & BF_REDUCTION) && sz < sizeof(double))) sizes[n++] = sz;
  return n;
}

/* The communicators of the run: world, the -d lines, the -p partitions. */
static int make_comms(const mpib_opts_t *o, int rank, int P, int *dims, MPI_Comm *comms, int *groups,
                      char (*labels)[64]) {
  int levels[64], n_levels = mpib_partition_levels(P, o->partsize, levels, 64);
  comms[0] = MPI_COMM_WORLD;
  snprintf(labels[0], 64, "MPI_COMM_WORLD");
  groups[0] = 1;
  int k = 1;
  if (o->ndims > 0) {
    MPI_Dims_create(P, o->ndims, dims);
    for (int d = 0; d < o->ndims; d++, k++) {
      int color, key;
      mpib_cart_split(rank, o->ndims, dims, d, &color, &key);
      MPI_Comm_split(MPI_COMM_WORLD, color, key, &comms[k]);
      snprintf(labels[k], 64, "CartDim-%dof%d", d + 1, o->ndims);
      groups[k] = mpib_cart_groups(P, dims, d);
    }
  }
  for (int l = 0; l < n_levels; l++, k++) {
    MPI_Comm_split(MPI_COMM_WORLD, mpib_partition_color(rank, levels[l]), rank, &comms[k]);
    snprintf(labels[k], 64, "PartSize-%d", levels[l]);
    groups[k] = mpib_partition_groups(P, levels[l]);
  }
  return k;
}

/* The engine's options for mpiBench's measurement: MPI_BYTE data, MPI_DOUBLE
 * reductions, no warm-up, no -sync barrier, -check for -c/-C, no -mem limit
 * (mpiBench caps -e by -m itself). */
static void engine_options(options_t *opt, const mpib_opts_t *o) {
  options_defaults(opt, "mpi1");
  opt->data_type = DT_BYTE;
  opt->red_data_type = DT_DOUBLE;
  opt->warm_up = 0;
  opt->sync = 0;
  opt->check = o->check_once || o->check_every;
  opt->mem_gb = INFINITY;
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

  /* Buffers: the stop size halved until send + receive fit -m (an Alltoall
   * on all ranks at the stop size). */
  static mpib_run_t run;
  run.o = &o;
  run.processes = P;
  run.stop = mpib_cap_stop(o.stop, P, o.mem_limit);
  if ((double)run.stop * P > (double)INT_MAX) {
    snprintf(err, sizeof(err), "-e %zu bytes on %d ranks needs counts beyond 2^31; lower -e or -m", o.stop, P);
    return finish(rank, EXIT_BAD_INPUT, err);
  }
  run.buffer_bytes = 2 * (run.stop * (size_t)P + 8) + 4 * sizeof(int) * (size_t)P;

  static run_info_t info;
  static engine_t e;
  static options_t opt;
  engine_options(&opt, &o);
  e.opt = &opt;
  e.suite = &suite_mpibench;
  e.iter_mode = ITERS_TIME_LIMITED;
  e.max_iters = o.iters;
  e.time_limit_us = o.time_limit_us;
  run_info_collect(&info, &e.host, argc, argv, "MPI_THREAD_SINGLE", "MPI_THREAD_SINGLE");
  const bench_desc *list[N_OPS];
  for (int op = 0; op < N_OPS; op++)
    if (o.ops & (1u << op)) list[info.n_benchmarks++] = &suite_mpibench.benchmarks[op];
  info.benchmarks = list;
  info.opt = &opt;
  info.suite = &suite_mpibench;

  int max_comms = 1 + o.ndims + 64;
  MPI_Comm *comms = calloc((size_t)max_comms, sizeof(MPI_Comm));
  int *groups = calloc((size_t)max_comms, sizeof(int));
  run.labels = calloc((size_t)max_comms, sizeof(*run.labels));
  run.n_comms = make_comms(&o, rank, P, run.dims, comms, groups, run.labels);

  /* The rank -> host map of mpiBench's START block. */
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  char *hosts = rank == 0 ? malloc((size_t)P * sizeof(host)) : NULL;
  MPI_Gather(host, sizeof(host), MPI_CHAR, hosts, sizeof(host), MPI_CHAR, 0, MPI_COMM_WORLD);
  run.hosts = hosts;
  run.host_len = sizeof(host);

  int json_failed = 0;
  if (rank == 0) {
    report_add(mpibench_text_reporter(&run));
    if (o.json[0]) {
      reporter_t *j = mpibench_json_reporter(&run, o.json, err, sizeof(err));
      if (j) report_add(j);
      else json_failed = 1;
    }
  }
  MPI_Bcast(&json_failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (json_failed) return finish(rank, EXIT_BAD_INPUT, err);

  /* The checks before measuring as for the IMB suites; no clock model here, so no clock comparison. */
  int64_t t0 = engine_begin_run(&e, &info, o.selfcheck, NULL);
  static size_t sizes[MAX_LADDER];
  for (int ci = 0; ci < run.n_comms; ci++) {
    table_plan_t plan = {.sizes = sizes, .mode = -1, .limit_s = INFINITY, .label = run.labels[ci],
                         .label_index = ci, .check_whole = run.stop * (size_t)P, .world_sync = 1};
    groups_from_comm(&plan.g, comms[ci], groups[ci]);
    for (int op = 0; op < N_OPS; op++) {
      if (!(o.ops & (1u << op))) continue;
      const bench_desc *d = &suite_mpibench.benchmarks[op];
      plan.n_sizes = op_sizes(d, &o, run.stop, sizes);
      plan.timed_barrier = o.barrier && op != OP_BARRIER;
      /* mpiBench's -C refills and checks its whole buffers in every call, but
       * not for Allreduce and Reduce (it checks no reduction): those get the
       * engine's one untimed call after the loop, as -c. */
      plan.check_each = mpib_checks_every_call(d, o.check_every);
      engine_run_table(&e, d, &plan);
    }
    groups_free(&plan.g);
  }
  if (rank == 0) {
    run_end_t end = run_end_now(e.skipped_sizes == 0, t0, e.results);
    report_run_end(&end);
  }
  for (int i = 1; i < run.n_comms; i++) MPI_Comm_free(&comms[i]);
  free(comms);
  free(groups);
  free(run.labels);
  free(hosts);
  selfcheck_free(&e.check);
  long defects = e.defects;
  MPI_Bcast(&defects, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (defects > 0) {
    snprintf(err, sizeof(err), "-c/-C found %ld received bytes or elements that differ from what was sent", defects);
    return finish(rank, EXIT_CHECK_FAILED, err);
  }
  return finish(rank, 0, NULL);
}
