/* mpimark-core startup [-json FILE] [-launch-ns NS] [-hello] [-init-only]:
 * how long MPI takes to start (docs/startup.md). Every rank reads
 * CLOCK_REALTIME at the first instruction of main() (before MPI_Init), after
 * MPI_Init and after a first MPI_Barrier. Given the wall-clock time the
 * launcher was started (-launch-ns, or MPIMARK_LAUNCH_NS), it reports per
 * phase the minimum and maximum over ranks of (t - launch), as RIKEN's
 * "MPI process generation time" table; it also reports the MPI_Init and
 * first-barrier durations, osu_init's line and, with -hello, osu_hello's. */
#include "tools/tools.h"
#include "engine/finish.h"
#include "engine/simulation.h"
#include "util/parse.h"
#include "util/stats.h"
#include "util/strutil.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_STAMPS 4               /* main entry, before MPI_Init, after MPI_Init, after the first barrier */

int64_t startup_main_entry_ns;

enum { T_ENTRY, T_BEFORE_INIT, T_INIT, T_BARRIER };

typedef struct {
  char json[1024];
  int64_t launch_ns;
  const char *launch_source;     /* "option", "environment" or NULL */
  int hello, init_only, help;
} startup_opts_t;

/* What the rows of startup's stream are, for the benchmark facts: times of
 * start-up phases, with no message size. Nothing runs these rows. */
static const bench_desc startup_rows[] = {
  {.name = "MPI_Init", .cls = CLASS_SYNC, .flags = BF_DEFAULT, .time_scale = 1},
  {.name = "MPI_Barrier_first", .cls = CLASS_SYNC, .flags = BF_DEFAULT, .time_scale = 1},
  {.name = "startup_since_first_entry", .cls = CLASS_SYNC, .flags = BF_DEFAULT, .time_scale = 1},
  {.name = "startup_since_launch", .cls = CLASS_SYNC, .flags = BF_DEFAULT, .time_scale = 1},
};
const suite_desc suite_startup = {.name = "startup", .title = "MPI start-up time", .tool = 1,
                                  .benchmarks = startup_rows,
                                  .n_benchmarks = (int)(sizeof(startup_rows) / sizeof(startup_rows[0]))};

static void usage(FILE *f) {
  fprintf(f,
    "usage: mpimark-core startup [options]\n"
    "\n"
    "MPI start-up time: every rank stamps CLOCK_REALTIME at the start of main(), after\n"
    "MPI_Init and after a first MPI_Barrier.\n"
    "\n"
    "  -launch-ns NS   wall-clock time (ns since the epoch) when the launcher was started,\n"
    "                  e.g. NS=$(date +%%s%%N) just before mpiexec; also read from the\n"
    "                  environment variable MPIMARK_LAUNCH_NS. Gives the time since launch\n"
    "                  (min and max over ranks) of every phase, as RIKEN reports it\n"
    "  -init-only      time only MPI_Init (and MPI_Finalize), like osu_init: min/avg/max\n"
    "  -hello          also print osu_hello's line 'This is a test with N processes'\n"
    "  -json FILE      write the JSON Lines results stream to FILE\n"
    "  -help           this text\n");
}

/* Nanoseconds since the epoch: a positive integer. */
static int parse_ns(const char *s, int64_t *out) {
  long long v;
  if (parse_integer(s, 1, LLONG_MAX, &v)) return -1;
  *out = v;
  return 0;
}

static int parse_args(startup_opts_t *o, int argc, char **argv, char *err) {
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (str_ieq(a, "-help") || str_ieq(a, "-h") || str_ieq(a, "--help")) o->help = 1;
    else if (str_ieq(a, "-hello")) o->hello = 1;
    else if (str_ieq(a, "-init-only") || str_ieq(a, "-init_only")) o->init_only = 1;
    else if (str_ieq(a, "-launch-ns") || str_ieq(a, "-launch_ns")) {
      if (i + 1 >= argc || parse_ns(argv[i + 1], &o->launch_ns)) {
        snprintf(err, ERR_LEN, "-launch-ns needs the launcher's start time in ns since the epoch, e.g. $(date +%%s%%N)");
        return -1;
      }
      o->launch_source = "option";
      i++;
    } else if (str_ieq(a, "-json")) {
      if (i + 1 >= argc || !*argv[i + 1] || strlen(argv[i + 1]) >= sizeof(o->json)) {
        snprintf(err, ERR_LEN, "-json needs a file name");
        return -1;
      }
      snprintf(o->json, sizeof(o->json), "%s", argv[++i]);
    } else {
      snprintf(err, ERR_LEN, "unknown startup option '%s'; see 'mpimark-core startup -help'", a);
      return -1;
    }
  }
  return 0;
}

/* (stamps[r*N_STAMPS + hi] - base_r) in ms for every rank r, where base_r
 * is stamps[r*N_STAMPS + lo] (lo >= 0) or the constant base (lo < 0), and
 * their min / avg / max over ranks. */
static spread_t phase_spread(const int64_t *stamps, int n, int hi, int lo, int64_t base, double *per_rank_ms) {
  spread_t s;
  spread_init(&s);
  for (int r = 0; r < n; r++) {
    int64_t b = lo >= 0 ? stamps[(size_t)r * N_STAMPS + lo] : base;
    per_rank_ms[r] = (double)(stamps[(size_t)r * N_STAMPS + hi] - b) * 1e-6;
    spread_add(&s, per_rank_ms[r], r);
  }
  return s;
}

static void json_row(tool_run_t *tr, const char *bench, const char *phase, const char *reference, int n,
                     const spread_t *s, const double *per_rank_ms) {
  jw_t *w = tool_result_begin(tr, bench, "startup", n, 0, 0, "none", 1, s->min * 1e3, s->max * 1e3, spread_avg(s) * 1e3,
                              NAN, -1);
  if (!w) return;
  if (phase) jw_str(w, "phase", phase);
  jw_str(w, "reference", reference);
  jw_num(w, "min_ms", s->min);
  jw_num(w, "max_ms", s->max);
  jw_num(w, "avg_ms", spread_avg(s));
  jw_int(w, "min_rank", s->argmin);
  jw_int(w, "max_rank", s->argmax);
  if (n <= 4096) {
    jw_arr_begin(w, "rank_ms");
    for (int r = 0; r < n; r++) jw_num(w, NULL, per_rank_ms[r]);
    jw_arr_end(w);
  }
  tool_record_end(tr);
}

int startup_main(int argc, char **argv) {
  int64_t t[N_STAMPS] = {startup_main_entry_ns, 0, 0, 0};
  static startup_opts_t o;
  char err[ERR_LEN] = {0};
  int parse_rc = parse_args(&o, argc, argv, err);
  if (!t[T_ENTRY]) t[T_ENTRY] = realtime_ns();
  t[T_BEFORE_INIT] = realtime_ns();
  MPI_Init(&argc, &argv);
  t[T_INIT] = realtime_ns();
  if (!o.init_only) {
    MPI_Barrier(MPI_COMM_WORLD);
    t[T_BARRIER] = realtime_ns();
  }
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (parse_rc) return finish(rank, EXIT_BAD_INPUT, err);
  if (o.help) {
    if (rank == 0) usage(stdout);
    return finish(rank, 0, NULL);
  }
  if (simulation_refuse("startup", MPIMARK_SIMULATED ? SIMULATION_WHY_STARTUP : NULL, err, sizeof(err)) != 0)
    return finish(rank, EXIT_BAD_INPUT, err);

  /* The launch time: the option, else rank 0's environment. */
  int64_t launch[2] = {0, 0};    /* value, 1 option / 2 environment */
  if (rank == 0) {
    const char *env = getenv("MPIMARK_LAUNCH_NS");
    if (o.launch_source) {
      launch[0] = o.launch_ns;
      launch[1] = 1;
    } else if (env && *env) {
      if (parse_ns(env, &launch[0]) == 0) launch[1] = 2;
      else fprintf(stderr, "mpimark-core: warning: MPIMARK_LAUNCH_NS='%s' is not ns since the epoch; ignored\n", env);
    }
  }
  MPI_Bcast(launch, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
  const char *launch_source = launch[1] == 1 ? "option" : launch[1] == 2 ? "environment" : NULL;

  int64_t *all = rank == 0 ? malloc(sizeof(int64_t) * N_STAMPS * (size_t)n) : NULL;
  MPI_Gather(t, N_STAMPS, MPI_INT64_T, all, N_STAMPS, MPI_INT64_T, 0, MPI_COMM_WORLD);

  static tool_run_t tr;
  int json_failed = 0;
  if (o.json[0]) {
    /* Machine facts only for the record: after the measurement, and only with -json. */
    tool_collect(&tr, argc, argv);
    if (rank == 0) json_failed = tool_json_open(&tr, o.json, err, sizeof(err)) != 0;
  }
  MPI_Bcast(&json_failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (json_failed) return finish(rank, EXIT_BAD_INPUT, err);

  if (rank == 0) {
    double *ms = malloc(sizeof(double) * (size_t)n);
    jw_t *w = tool_run_begin(&tr, &suite_startup);
    if (w) {
      jw_obj_begin(w, "options");
      if (launch_source) jw_int(w, "launch_ns", launch[0]); else jw_null(w, "launch_ns");
      jw_str(w, "launch_source", launch_source);
      jw_bool(w, "hello", o.hello);
      jw_bool(w, "init_only", o.init_only);
      jw_str(w, "clock", "clock_gettime(CLOCK_REALTIME)");
      jw_obj_end(w);
      jw_arr_begin(w, "benchmarks");
      jw_str(w, NULL, "MPI_Init");
      if (!o.init_only) jw_str(w, NULL, "MPI_Barrier_first");
      jw_str(w, NULL, "startup_since_first_entry");
      if (launch_source) jw_str(w, NULL, "startup_since_launch");
      jw_arr_end(w);
      tool_record_end(&tr);
    }

    if (o.hello) {
      printf("# OSU MPI Hello World Test (mpimark-core %s startup -hello)\n", MPIMARK_VERSION);
      printf("This is a test with %d processes\n", n);
    }

    /* osu_init: per-rank MPI_Init time truncated to whole ms, then min, max and the integer average. */
    long lo = 0, hi = 0, sum = 0;
    for (int r = 0; r < n; r++) {
      long d = (long)((all[(size_t)r * N_STAMPS + T_INIT] - all[(size_t)r * N_STAMPS + T_BEFORE_INIT]) / 1000000);
      if (r == 0 || d < lo) lo = d;
      if (r == 0 || d > hi) hi = d;
      sum += d;
    }

    printf("# mpimark-core %s startup: %d processes, clock CLOCK_REALTIME, times in ms\n", MPIMARK_VERSION, n);
    static const char *phase_name[N_STAMPS] = {"process start (main entry)", "before MPI_Init", "MPI_Init returned",
                                               "first MPI_Barrier returned"};
    static const char *phase_key[N_STAMPS] = {"process_start", "before_mpi_init", "mpi_init_done",
                                              "first_barrier_done"};
    const int phases[3] = {T_ENTRY, T_INIT, T_BARRIER};
    const int n_phases = o.init_only ? 2 : 3;

    spread_t s = phase_spread(all, n, T_INIT, T_BEFORE_INIT, 0, ms);
    printf("# %-36s %12s %12s %12s\n", "duration", "min", "avg", "max");
    printf("  %-36s %12.3f %12.3f %12.3f\n", "MPI_Init", s.min, spread_avg(&s), s.max);
    json_row(&tr, "MPI_Init", NULL, "before MPI_Init", n, &s, ms);
    if (!o.init_only) {
      s = phase_spread(all, n, T_BARRIER, T_INIT, 0, ms);
      printf("  %-36s %12.3f %12.3f %12.3f\n", "first MPI_Barrier", s.min, spread_avg(&s), s.max);
      json_row(&tr, "MPI_Barrier_first", NULL, "MPI_Init returned", n, &s, ms);
    }

    /* Relative to the earliest main entry over all ranks: the skew of process start and the time course. */
    int64_t first = all[T_ENTRY];
    for (int r = 1; r < n; r++)
      if (all[(size_t)r * N_STAMPS + T_ENTRY] < first) first = all[(size_t)r * N_STAMPS + T_ENTRY];
    printf("# %-36s %12s %12s %12s\n", "since the first process start", "min", "avg", "max");
    for (int i = 0; i < n_phases; i++) {
      s = phase_spread(all, n, phases[i], -1, first, ms);
      printf("  %-36s %12.3f %12.3f %12.3f\n", phase_name[phases[i]], s.min, spread_avg(&s), s.max);
      json_row(&tr, "startup_since_first_entry", phase_key[phases[i]], "earliest main entry", n, &s, ms);
    }

    if (launch_source) {
      printf("# %-36s %12s %12s %12s   (launch %" PRId64 " ns, from %s)\n", "since launch", "TIME(MIN)", "avg",
             "TIME(MAX)", launch[0], launch_source);
      spread_t start = {0};
      for (int i = 0; i < n_phases; i++) {
        s = phase_spread(all, n, phases[i], -1, launch[0], ms);
        if (i == 0) start = s;
        printf("  %-36s %12.3f %12.3f %12.3f\n", phase_name[phases[i]], s.min, spread_avg(&s), s.max);
        json_row(&tr, "startup_since_launch", phase_key[phases[i]], "launch", n, &s, ms);
      }
      if (start.min < 0)
        fprintf(stderr, "mpimark-core: warning: a process started %.3f ms before the given launch time: clocks "
                "of different hosts disagree or the launch time is wrong\n", -start.min);
      printf("# RIKEN style, process start since launch [s]: TIME(MIN) %.3f TIME(MAX) %.3f\n", start.min * 1e-3,
             start.max * 1e-3);
    } else {
      printf("# no launch time: give -launch-ns $(date +%%s%%N) or MPIMARK_LAUNCH_NS for the time since launch\n");
    }
    printf("# OSU MPI Init Test style\nnprocs: %d, min: %ld ms, max: %ld ms, avg: %ld ms\n", n, lo, hi, sum / n);
    fflush(stdout);
    tool_run_end(&tr, 1);
    free(ms);
    free(all);
  }
  return finish(rank, 0, NULL);
}
