/* mpimark-core osu NAME [OSU options] [mpimark options]: one OSU 7.4
 * program (osu_tests.c) on all processes. MPI starts here (timed for
 * osu_init, with the clock OSU uses), then per datatype (-T) and size the
 * family measures and rank 0 hands the row to the reporters as a record
 * (OSU's figures, mpimark's samples) and OSU's text (report/osu_text.c). */
#include "suites/osu/osu.h"
#include "engine/engine.h"
#include "engine/finish.h"
#include "engine/simulation.h"
#include "engine/sysinfo.h"
#include "report/reporter.h"
#include "suites/common/own_suite.h"
#include "suites/osu/osu_options.h"
#include "suites/osu/osu_record.h"
#include "tools/common/tool_run.h"
#include "util/strutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { ASK_RUN, ASK_SUITE_HELP, ASK_SUITE_VERSION, ASK_HELP, ASK_VERSION, ASK_BAD } ask_t;

/* What the command line asks, before MPI starts (OSU parses its options first too). -list and
 * -list -json are main.c's, as for every suite (the table's bench_desc view). */
static ask_t read_command_line(int argc, char **argv, const osu_test_t **t, osu_options_t *o, char *err,
                               size_t errlen) {
  if (argc < 3) {
    snprintf(err, errlen, "no OSU program named; mpimark-core osu -list lists them (mpimark-core osu latency)");
    return ASK_BAD;
  }
  const char *name = argv[2];
  if (str_ieq(name, "-help") || str_ieq(name, "-h") || str_ieq(name, "--help")) return ASK_SUITE_HELP;
  if (str_ieq(name, "-v") || str_ieq(name, "--version")) return ASK_SUITE_VERSION;
  *t = osu_find(name);
  if (!*t) {
    snprintf(err, errlen, "'%s' is no OSU 7.4 program; mpimark-core osu -list lists them", name);
    return ASK_BAD;
  }
  if ((*t)->family == OSU_FAM_NOT_RUN) {
    snprintf(err, errlen, "osu_%s is an OMB 7.4 program the core does not run (its output can be imported: "
             "mpimark import --format osu)", (*t)->name);
    return ASK_BAD;
  }
  osu_options_defaults(o, *t);
  int rc = osu_options_parse(o, *t, argc, argv, 3, err, errlen);
  return rc == OSU_PARSE_HELP ? ASK_HELP : rc == OSU_PARSE_VERSION ? ASK_VERSION : rc == 0 ? ASK_RUN : ASK_BAD;
}

static void suite_usage(void) {
  printf("usage: mpimark-core osu NAME [OSU options] [mpimark options]\n\n"
         "NAME: an OSU Micro-Benchmarks 7.4 program without osu_ (latency, bw, allreduce, put_latency, init);\n"
         "      mpimark-core osu -list lists them, mpimark-core osu NAME -h its options (OSU's letters and\n"
         "      meaning, docs/osu-compatibility.md).\n"
         "  -list [-json [FILE]]   the programs (osu_NAME), or their facts as JSON\n"
         "  -v                     the version\n");
}

/* OSU's checks of the process count, in our words. */
static int processes_ok(const osu_test_t *t, int np, char *err, size_t errlen) {
  if (t->fixed_processes && np != t->fixed_processes) {
    snprintf(err, errlen, "osu_%s needs exactly %d processes, not %d; launch it with mpiexec -n %d", t->name,
             t->fixed_processes, np, t->fixed_processes);
    return 0;
  }
  if (np < t->min_processes) {
    snprintf(err, errlen, "osu_%s needs at least %d processes, not %d; launch it with mpiexec -n %d", t->name,
             t->min_processes, np, t->min_processes);
    return 0;
  }
  if ((t->family == OSU_FAM_MBW_MR || t->family == OSU_FAM_MULTI_LAT) && np % 2) {
    snprintf(err, errlen, "osu_%s pairs the processes, so their number must be even, not %d", t->name, np);
    return 0;
  }
  return 1;
}

/* OSU's -M (check_mem_limit): collectives whose buffers grow with the process
 * count are capped at the limit over np, the others at the limit. Returns
 * whether the largest size was lowered. */
static int cap_by_mem_limit(const osu_test_t *t, osu_options_t *o, int np) {
  if (t->family != OSU_FAM_COLL && t->family != OSU_FAM_NBC) return 0;
  if (t->shape & OSU_SHAPE_NO_SIZE) return 0;
  int per_rank = !strstr(t->name, "reduce") && !strstr(t->name, "bcast");
  size_t cap = per_rank ? o->mem_limit / (size_t)np : o->mem_limit;
  if (o->max_size <= cap) return 0;
  o->max_size = cap;
  return 1;
}

/* Rank 0: OSU's warning about -M, as a warning event (a "# mpimark:" line after the table). */
static void report_capped(const osu_test_t *t, const osu_options_t *o, int np) {
  char msg[256];
  snprintf(msg, sizeof(msg), "osu_%s: the largest size is limited to %zu bytes by -M %zu, as OSU does; raise -M "
           "for larger sizes", t->name, o->max_size, o->mem_limit);
  event_t ev = {"warning", "osu_mem_limit", msg, osu_bench_of(t)->name, np, -1, 1};
  report_event(&ev);
}

/* The size loop of OSU: MIN, doubling (0 goes to 1), up to MAX. */
static size_t next_size(size_t s) { return s ? s * 2 : 1; }

typedef struct {
  long rows, defects;
  int failed;          /* a size could not be measured (buffers): the run is incomplete */
  int refused;         /* a measure failed with its own line in c->err (an MPI call refused): the run ends */
} tally_t;

/* A setup's c->err that says its buffers did not fit ("no memory ..."), as opposed to a refusal. */
static int is_out_of_memory(const char *err) { return !err[0] || !strncmp(err, "no memory", 9); }

/* One size of one datatype on every rank; returns whether to go on. */
static int one_size(osu_ctx_t *c, const table_info_t *ti, tally_t *tally) {
  osu_row_t row;
  osu_row_init(&row);
  int large = c->bytes > c->o->large_threshold;
  c->iterations = large ? c->o->iterations_large : c->o->iterations;
  c->skip = large ? c->o->skip_large : c->o->skip;
  /* Per iteration, or per rank (osu_init). */
  double *times = calloc((size_t)(c->iterations > c->np ? c->iterations : c->np) + 1, sizeof(double));
  c->times_ns = times;
  int rc = c->test->measure(c, &row);
  /* A failure with a line of its own (one-sided: a synchronisation the MPI refuses) stores no row. */
  int refused = rc != 0 && !is_out_of_memory(c->err);
  if (rc != 0 && row.status == OSU_ROW_OK) row.status = OSU_ROW_OUT_OF_MEMORY;
  if (c->rank == 0 && !refused) {
    osu_report_row(ti, c, &row);
    tally->rows++;
  }
  free(times);
  c->times_ns = NULL;
  long verdict[3] = {row.defects, rc != 0, refused};
  MPI_Bcast(verdict, 3, MPI_LONG, 0, c->comm);
  tally->defects += verdict[0];
  tally->failed |= verdict[1] != 0;
  tally->refused |= verdict[2] != 0;
  if (verdict[2]) return 0;
  /* OSU ends the test after a size that failed validation; its one-sided tests go on. */
  return verdict[0] == 0 || c->test->family == OSU_FAM_ONESIDED;
}

/* One row to measure: a datatype (index into o->type_ids; -1 none), a size, a window (0: -W's). */
typedef struct {
  int type;
  size_t bytes;
  int window;
} step_t;

static MPI_Datatype const mpi_types[] = {MPI_CHAR, MPI_INT, MPI_FLOAT};
/* mbw_mr -V: each size at each of OSU's windows (WINDOW_SIZES). */
static const int varied_windows[] = {1, 2, 4, 8, 16, 32, 64, 128};
#define N_VARIED ((int)(sizeof(varied_windows) / sizeof(varied_windows[0])))

static void add_step(step_t *steps, int *n, int type, size_t bytes, int window) {
  if (steps) steps[*n] = (step_t){type, bytes, window};
  (*n)++;
}

/* OSU's loops as a list: per datatype (-T) the sizes from MIN, doubling, to MAX that hold a whole
 * element (7.4 prints no 0-byte row), one element for fop/cas, one size-less row for barrier and init,
 * and for mbw_mr -V every size at each window. steps NULL: only counts them. */
static int plan(const osu_test_t *t, const osu_options_t *o, step_t *steps) {
  int n = 0;
  if (t->shape & OSU_SHAPE_NO_SIZE) {
    add_step(steps, &n, -1, 0, 0);
    return n;
  }
  int varied = t->family == OSU_FAM_MBW_MR && o->vary_window;
  for (int k = 0; k < o->n_types; k++) {
    int type_size;
    MPI_Type_size(mpi_types[o->type_ids[k]], &type_size);
    if (t->shape & OSU_SHAPE_ONE_ELEMENT) {
      add_step(steps, &n, k, (size_t)type_size, 0);
      continue;
    }
    for (size_t s = o->min_size; s <= o->max_size; s = next_size(s)) {
      if (s / (size_t)type_size == 0) continue;
      for (int w = 0; w < (varied ? N_VARIED : 1); w++) add_step(steps, &n, k, s, varied ? varied_windows[w] : 0);
    }
  }
  return n;
}

/* The planned rows one after the other, until OSU would stop. */
static void run_steps(osu_ctx_t *c, osu_options_t *o, const step_t *steps, int n, const table_info_t *ti,
                      tally_t *tally) {
  for (int i = 0; i < n; i++) {
    const step_t *st = &steps[i];
    c->type = st->type < 0 ? MPI_CHAR : (o->types[st->type] = mpi_types[o->type_ids[st->type]]);
    MPI_Type_size(c->type, &c->type_size);
    c->type_name = st->type < 0 ? "none" : osu_type_name(o->type_ids[st->type]);
    c->bytes = st->bytes;
    c->count = st->type < 0 ? 0 : st->bytes / (size_t)c->type_size;
    c->window = st->window;
    if (!one_size(c, ti, tally)) break;
  }
  c->window = 0;
}

/* MPI_Init's time on this rank, for osu_init: OSU's clock (CLOCK_REALTIME) around the call. */
static double init_ms;

/* What SimGrid SMPI cannot run of OSU's programs (engine/simulation.h; docs/core.md's table), or NULL. */
static const char *osu_simulation_why(const osu_test_t *t) {
  if (!MPIMARK_SIMULATED) return NULL;
  /* osu_nbc.c times its compute slices with cpu_calibrate, like IMB's overlap benchmarks */
  if (t->family == OSU_FAM_NBC) return SIMULATION_WHY_CPU_TIMED;
  if (t->family == OSU_FAM_STARTUP && strcmp(t->name, "init") == 0) return SIMULATION_WHY_STARTUP;
  return NULL;
}

int osu_main(int argc, char **argv) {
  static osu_options_t o;
  char err[ERR_LEN] = {0};
  const osu_test_t *t = NULL;
  ask_t ask = read_command_line(argc, argv, &t, &o, err, sizeof(err));
  int wanted = t && t->family == OSU_FAM_LATENCY_MT ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, provided;
  /* MPI_Init as OSU calls it (osu_latency_mt: MPI_Init_thread), timed with its clock for osu_init. */
  int64_t before = realtime_ns();
  if (wanted == MPI_THREAD_MULTIPLE) MPI_Init_thread(&argc, &argv, wanted, &provided);
  else MPI_Init(&argc, &argv);
  int64_t after = realtime_ns();
  if (wanted != MPI_THREAD_MULTIPLE) MPI_Query_thread(&provided);
  init_ms = (double)(after - before) * 1e-6;
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  switch (ask) {
    case ASK_BAD: return finish(rank, EXIT_BAD_INPUT, err);
    case ASK_SUITE_HELP:
      if (rank == 0) suite_usage();
      return finish(rank, 0, NULL);
    case ASK_SUITE_VERSION:
      if (rank == 0) printf("mpimark-core %s: OSU Micro-Benchmarks 7.4's tests\n", MPIMARK_VERSION);
      return finish(rank, 0, NULL);
    case ASK_HELP:
      if (rank == 0) osu_options_usage(stdout, t);
      return finish(rank, 0, NULL);
    case ASK_VERSION:
      if (rank == 0) printf("# %s v7.4 (mpimark-core %s)\n", t->title, MPIMARK_VERSION);
      return finish(rank, 0, NULL);
    case ASK_RUN: break;
  }
  if (!processes_ok(t, np, err, sizeof(err))) return finish(rank, EXIT_BAD_INPUT, err);
  char osu_name[64];
  snprintf(osu_name, sizeof(osu_name), "osu_%s", t->name);
  if (simulation_refuse(osu_name, osu_simulation_why(t), err, sizeof(err)) != 0)
    return finish(rank, EXIT_BAD_INPUT, err);
  if (provided < wanted) {
    snprintf(err, sizeof(err), "osu_%s needs MPI_THREAD_MULTIPLE, which this MPI library does not provide", t->name);
    return finish(rank, EXIT_BAD_INPUT, err);
  }
  /* OSU 7.4 pairs every process (osu_mbw_mr overwrites its -p with np/2, so -p is taken and ignored). */
  if (t->family == OSU_FAM_MBW_MR || t->family == OSU_FAM_MULTI_LAT) o.pairs = np / 2;
  if (own_reporters(osu_text_reporter(), o.json_path, err, sizeof(err)) != 0)
    return finish(rank, EXIT_BAD_INPUT, err);

  osu_ctx_t c;
  memset(&c, 0, sizeof(c));
  c.test = t;
  c.o = &o;
  c.comm = MPI_COMM_WORLD;
  c.rank = rank;
  c.np = np;
  c.user = t->family == OSU_FAM_STARTUP ? &init_ms : NULL;

  static run_info_t info;
  static const bench_desc *list[1];
  list[0] = osu_bench_of(t);
  engine_t e;
  memset(&e, 0, sizeof(e));
  run_info_collect(&info, &e.host, argc, argv, wanted == MPI_THREAD_MULTIPLE ? "MPI_THREAD_MULTIPLE" : "MPI_THREAD_SINGLE",
                   provided == MPI_THREAD_MULTIPLE ? "MPI_THREAD_MULTIPLE" : "MPI_THREAD_SINGLE");
  info.suite = &suite_osu;
  info.benchmarks = list;
  info.n_benchmarks = 1;
  info.write_options = osu_write_options;
  info.options_ctx = &c;
  int capped = cap_by_mem_limit(t, &o, np);
  info.min_bytes = o.min_size;
  info.max_bytes = o.max_size;
  int64_t t0 = engine_begin_run(&e, &info, o.selfcheck, NULL);
  if (capped && rank == 0) report_capped(t, &o, np);

  int *ranks = malloc(sizeof(int) * (size_t)np);
  for (int r = 0; r < np; r++) ranks[r] = r;
  int n_steps = plan(t, &o, NULL);
  step_t *steps = malloc(sizeof(step_t) * (size_t)(n_steps + 1));
  plan(t, &o, steps);
  table_info_t ti = {.suite = "osu", .bench = list[0], .np = np, .n_groups = 1, .multi = -1, .group_ranks = ranks,
                     .map_p = 1, .map_q = 1, .mode = -1, .n_sizes = n_steps};
  if (rank == 0) report_table_begin(&ti);
  tally_t tally = {0};
  int setup_failed = t->setup && t->setup(&c) != 0;
  int refused = setup_failed && !is_out_of_memory(c.err);
  MPI_Allreduce(MPI_IN_PLACE, &refused, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (refused) {
    /* A setup that refuses what it was asked (it says why in c->err): bad input, as the parser's. */
    if (rank == 0 && !c.err[0]) snprintf(c.err, sizeof(c.err), "osu_%s could not start (see its setup)", t->name);
    if (rank == 0) {
      run_end_t end = run_end_now(0, t0, 0);
      report_run_end(&end);
    }
    free(ranks);
    free(steps);
    selfcheck_free(&e.check);
    return finish(rank, EXIT_BAD_INPUT, c.err);
  }
  if (!own_buffers_ok(setup_failed, list[0]->name, (double)o.max_size)) {
    tally.failed = 1;
  } else if (t->measure) {
    run_steps(&c, &o, steps, n_steps, &ti, &tally);
  }
  if (!setup_failed && t->teardown) t->teardown(&c);
  if (rank == 0) {
    run_end_t end = run_end_now(!tally.failed, t0, tally.rows);
    report_run_end(&end);
  }
  free(ranks);
  free(steps);
  selfcheck_free(&e.check);
  /* rank 0's line: what the family said when an MPI call refused (c.err, the same on every rank) */
  if (tally.refused) return finish(rank, EXIT_BAD_INPUT, c.err);
  if (tally.defects > 0) {
    snprintf(err, sizeof(err), "-c found %ld received elements that differ from what was sent (Validation Fail)",
             tally.defects);
    return finish(rank, EXIT_CHECK_FAILED, err);
  }
  if (tally.failed) {
    snprintf(err, sizeof(err), "some sizes of osu_%s could not be measured (no memory for their buffers); lower "
             "-m's MAX", t->name);
    return finish(rank, EXIT_SKIPPED, err);
  }
  return finish(rank, 0, NULL);
}
