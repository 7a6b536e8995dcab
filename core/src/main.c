/* mpimark-core SUITE [IMB options]: the measurement core. Parses IMB's
 * command line, initialises MPI, builds the benchmark list, and runs the
 * engine with the IMB text reporter (stdout) and, with -json, the JSON
 * Lines reporter. Bad input ends every rank with one line and exit 2. */
#include "engine/datatypes.h"
#include "engine/engine.h"
#include "engine/finish.h"
#include "engine/registry.h"
#include "engine/simulation.h"
#include "engine/sysinfo.h"
#include "report/bench_facts.h"
#include "report/reporter.h"
#include "tools/tools.h"
#include "tools/mpit/mpit.h"
#include "util/options.h"
#include "util/strutil.h"
#include "util/timer.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


static const char usage_text[] =
    "usage: mpimark-core SUITE [benchmark[,benchmark...]] [options]\n"
    "\n"
    "SUITE: mpi1, nbc, mpi4, ext, rma, io (IMB-MPI1, -NBC, -MPI4, -EXT, -RMA, -IO). Benchmark names are IMB's,\n"
    "case-insensitive; -list shows them. p2p and mt (IMB-P2P, IMB-MT) take their own options\n"
    "(mpimark-core p2p -help, mpimark-core mt -help).\n"
    "Other tools, each with its own options (mpimark-core TOOL -help): beff (b_eff),\n"
    "mpibench (LLNL mpiBench), startup (MPI start-up time).\n"
    "\n"
    "IMB options (IMB's spelling and meaning):\n"
    "  -npmin N                  smallest process count of the sweep N, 2N, 4N, ..., P (default 2)\n"
    "  -multi 0|1                run groups of processes at once; 0 shows the worst group, 1 every group\n"
    "  -off_cache SIZE[,LINE]    use cold buffers: cache size in MB (-1: 8 MB), line size in bytes (64)\n"
    "  -iter N[,VOL[,NONAGGR]]   iterations per size, overall volume in MB, non-aggregate count (1000,40,100)\n"
    "  -iter_policy P            dynamic | multiple_np | auto | off (dynamic)\n"
    "  -time SECS                seconds per message size, also sets the time-out (10)\n"
    "  -mem GB                   memory per process for message buffers (1)\n"
    "  -msglog [MIN:]MAX         sizes 0, 2^MIN .. 2^MAX (0:22); MAX up to 40 where memory allows\n"
    "  -msglen FILE              sizes from a file, one per line (k, m, g suffixes)\n"
    "  -msgsize L1,L2,...        sizes as a list\n"
    "  -map PxQ                  reorder ranks as a PxQ grid (P*Q = number of processes)\n"
    "  -input FILE               benchmark names from a file, one per line\n"
    "  -include B1,B2            add benchmarks (also non-default ones) to the list\n"
    "  -exclude B1,B2            remove benchmarks from the list\n"
    "  -list                     list the benchmarks and exit; without SUITE every suite's\n"
    "  -list -json [FILE]        the benchmark facts as JSON, on stdout or in FILE (docs/results-format.md)\n"
    "  -thread_level L           single | funneled | serialized | multiple | nompiinit (single)\n"
    "  -root_shift on|off        rotate the root of rooted collectives every iteration (off)\n"
    "  -sync on|off|window       untimed barrier after every collective call (on); window: every call\n"
    "                            starts at a common time on the synchronised clock (docs/measurement.md)\n"
    "  -ci_target P              sample each size until the median's 95 % CI is within +-P (e.g. 0.01)\n"
    "                            or -time ends (default: IMB's repetitions)\n"
    "  -imb_barrier on|off       IMB's own dissemination barrier instead of MPI_Barrier (off)\n"
    "  -data_type T              byte | char | int | float | double (byte)\n"
    "  -red_data_type T          char | int | float | double for reductions (float)\n"
    "  -zero_size on|off         run the 0-byte size (on)\n"
    "  -warm_up on|off           untimed warm-up iterations at every size (on)\n"
    "  -window_size N            Uniband/Biband messages in flight (256)\n"
    "  -buffer_align BYTES       0: message buffers from malloc, placed as IMB's (default); a power of\n"
    "                            two (64, 4096): aligned to it (docs/imb-compatibility.md)\n"
    "  -msg_pause on|off         pause after every size (off)\n"
    "  -aggregate_mode M         ext, rma, io: aggregate | non_aggregate | multi (both; default)\n"
    "  -iodir DIR                io: directory of the benchmark files, which must exist (mkdir -p DIR first;\n"
    "                            default: the current directory)\n"
    "  -imb_compat 2021|guide    where IMB 2021 and its 4.0 user guide disagree: 2021 (default) as IMB 2021;\n"
    "                            guide: Reduce_scatter splits X bytes across the ranks, the overlap column\n"
    "                            divides by min(t_pure, t_CPU), EXT aggregate transfers go to disjoint\n"
    "                            targets, RMA *_all bandwidth counts np-1 targets, Ireduce's overlap loop\n"
    "                            keeps -root_shift's root (2021: i mod np) (docs/imb-compatibility.md)\n"
    "  -help [OPTION]            this text, or one option's (anywhere on the line)\n"
    "\n"
    "mpimark options:\n"
    "  -check [on|off]           verify every received buffer; adds a defects column (off)\n"
    "  -selfcheck on|off         timer, OS-noise and load checks before measuring, with warnings (on)\n"
    "  -min_samples N            repeat each size's timed loop (IMB's definition unchanged) until it has\n"
    "                            N samples, within -time; 1 (default): one loop, as IMB. Several launches\n"
    "                            give a comparison its interval; this gives one launch's rows their own\n"
    "                            (30: EXT and RMA aggregate rows as before issue 22; docs/measurement.md)\n"
    "  -json FILE                write the JSON Lines results stream to FILE\n";

static void usage(FILE *f) { fputs(usage_text, f); }

/* -help OPTION (IMB's args parser answers with that option's description):
 * the option's lines of the usage text. Returns -1, printing nothing, when
 * there is no such option. */
static int usage_option(FILE *f, const char *topic) {
  char want[48];
  snprintf(want, sizeof(want), "  -%s ", topic);
  const char *p = usage_text;
  int found = 0, in = 0;
  while (*p) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    int start = len > 3 && strncmp(p, "  -", 3) == 0;
    /* An option's text: its line and the continuation lines indented under it. */
    if (start) in = strncasecmp(p, want, strlen(want)) == 0;
    else if (len < 4 || strncmp(p, "    ", 4) != 0) in = 0;
    if (in) {
      if (!found) fprintf(f, "Option: -%s\n", topic);
      fprintf(f, "%.*s\n", (int)len, p);
      found = 1;
    }
    p += len + (nl ? 1 : 0);
  }
  return found ? 0 : -1;
}

/* The run list as IMB builds it: the -include names, then the named
 * benchmarks (or the suite's defaults), every occurrence of an -exclude name
 * removed; duplicates are kept and run again, as in IMB. */
static int build_list(const suite_desc *s, const options_t *o, const bench_desc **list, int *n, char *err) {
  *n = 0;
  for (int i = 0; i < o->n_names + o->n_include + o->n_exclude; i++) {
    const char *name = i < o->n_names ? o->names[i]
                     : i < o->n_names + o->n_include ? o->include[i - o->n_names]
                     : o->exclude[i - o->n_names - o->n_include];
    if (!find_benchmark(s, name)) {
      snprintf(err, OPT_ERR_LEN, "unknown benchmark '%s' in suite %s; run 'mpimark-core %s -list' to see the names",
               name, s->name, s->name);
      return -1;
    }
  }
  for (int i = 0; i < o->n_include; i++) list[(*n)++] = find_benchmark(s, o->include[i]);
  if (o->n_names > 0) {
    for (int i = 0; i < o->n_names; i++) list[(*n)++] = find_benchmark(s, o->names[i]);
  } else {
    for (int i = 0; i < s->n_benchmarks; i++)
      if (s->benchmarks[i].flags & BF_DEFAULT) list[(*n)++] = &s->benchmarks[i];
  }
  int k = 0;
  for (int i = 0; i < *n; i++) {
    int drop = 0;
    for (int j = 0; j < o->n_exclude; j++) drop |= find_benchmark(s, o->exclude[j]) == list[i];
    if (!drop) list[k++] = list[i];
  }
  *n = k;
  if (*n == 0) {
    snprintf(err, OPT_ERR_LEN, "no benchmark left to run; check -exclude");
    return -1;
  }
  return 0;
}

/* IMB's -list order: names sorted case-insensitively. */
static int by_name(const void *a, const void *b) {
  return strcasecmp((*(const bench_desc *const *)a)->name, (*(const bench_desc *const *)b)->name);
}

/* -list: IMB's list of suite s, or of every suite when s is NULL; with -json
 * the benchmark facts instead (bench_facts.h), on stdout or in the FILE. */
static int print_list(const suite_desc *s, const options_t *o, char *err) {
  if (o->json_stdout || o->json_path[0]) {
    FILE *f = o->json_stdout ? stdout : fopen(o->json_path, "w");
    if (!f) {
      snprintf(err, ERR_LEN, "cannot write the -json file '%.400s'; give a writable path", o->json_path);
      return -1;
    }
    bench_facts_print(f, s);
    if (f != stdout) fclose(f);
    return 0;
  }
  /* IMB's layout: the suite labelled as its program (IMB-MPI1), names in
   * alphabetical order, each followed by its comment lines (IMB-RMA's
   * Compare_and_swap, Truly_passive_put) indented by 8. */
  printf("mpimark-core %s\nList of benchmarks:\n", MPIMARK_VERSION);
  for (int k = 0; s ? k == 0 : suite_at(k) != NULL; k++) {
    const suite_desc *t = s ? s : suite_at(k);
    char label[32];
    suite_imb_label(t, label, sizeof(label));
    printf("%s:\n", label);
    const bench_desc *sorted[OPT_MAX_NAMES];
    int n = 0;
    for (int i = 0; i < t->n_benchmarks && n < OPT_MAX_NAMES; i++) sorted[n++] = &t->benchmarks[i];
    qsort(sorted, (size_t)n, sizeof(sorted[0]), by_name);
    for (int i = 0; i < n; i++) {
      printf("    %s%s\n", sorted[i]->name, (sorted[i]->flags & BF_DEFAULT) ? "" : " (non-default)");
      imb_comment_lines("        ", sorted[i]->comment);
    }
  }
  return 0;
}

static const char *mpi_thread_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
  }
  return "unknown";
}

int main(int argc, char **argv) {
  /* First instruction: mpimark-core startup measures from here. */
  startup_main_entry_ns = realtime_ns();
  /* The stand-alone tools have their own options; no IMB parser, no engine. */
  if (argc > 1 && str_ieq(argv[1], "beff")) return beff_main(argc, argv);
  if (argc > 1 && str_ieq(argv[1], "mpibench")) return mpibench_main(argc, argv);
  if (argc > 1 && str_ieq(argv[1], "startup")) return startup_main(argc, argv);
  if (argc > 1 && str_ieq(argv[1], "mpit")) return mpit_main(argc, argv);
  const suite_desc *suite = argc > 1 ? find_suite(argv[1]) : NULL;
  /* IMB-P2P and IMB-MT are programs of their own: their command line too;
   * -list (and -list -json) is every suite's, below. */
  int lists = 0;
  for (int i = 2; i < argc; i++) lists |= str_ieq(argv[i], "-list");
  if (suite && suite->own_main && !lists) return suite->own_main(argc, argv);
  static options_t opt;
  char err[OPT_ERR_LEN] = {0};
  int parse_rc = 0;
  int asks_help = 0;
  for (int i = 1; i < argc; i++)
    asks_help |= str_ieq(argv[i], "-help") || str_ieq(argv[i], "-h") || str_ieq(argv[i], "--help");
  if (!suite && asks_help) {
    /* -help wins anywhere on the line, suite or not; rank 0 answers below. */
    options_defaults(&opt, "mpi1");
    opt.help = 1;
  } else if (!suite && argc > 1 && argv[1][0] == '-') {
    /* No suite word: only -list, which then lists every suite. */
    options_defaults(&opt, "mpi1");
    parse_rc = options_parse(&opt, argc, argv, 1, err, sizeof(err));
    if (parse_rc == 0 && !opt.list) {
      char names[128];
      suite_names(names, sizeof(names));
      snprintf(err, sizeof(err), "no suite given; the first argument names the suite (%s) or a tool "
               "(beff, mpibench, startup); -list alone lists every suite", names);
      parse_rc = -1;
    }
  } else if (!suite) {
    char names[128];
    suite_names(names, sizeof(names));
    snprintf(err, sizeof(err), "%s%s%s; the first argument names the suite (%s) or a tool (beff, mpibench, startup)",
             argc > 1 ? "unknown suite '" : "no suite given", argc > 1 ? argv[1] : "", argc > 1 ? "'" : "", names);
    parse_rc = -1;
    options_defaults(&opt, "mpi1");
  } else {
    options_defaults(&opt, suite->name);
    parse_rc = options_parse(&opt, argc, argv, 2, err, sizeof(err));
  }

  /* MPI is initialised even for bad input, so that every rank can leave
   * through MPI_Finalize with the same exit code instead of the launcher
   * aborting the others. */
  static const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE,
                               MPI_THREAD_SINGLE};
  int provided = MPI_THREAD_SINGLE, rank;
  int requested = levels[opt.thread_level];
  if (opt.thread_level == THREAD_NOMPIINIT) MPI_Init(&argc, &argv);
  else MPI_Init_thread(&argc, &argv, requested, &provided);
  if (opt.thread_level == THREAD_NOMPIINIT) MPI_Query_thread(&provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  if (parse_rc != 0) return finish(rank, EXIT_BAD_INPUT, err);
  if (opt.help) {
    /* -help OPTION: that option's lines; a word that names no option gets the whole text. */
    if (rank == 0 && !(opt.help_topic[0] && usage_option(stdout, opt.help_topic) == 0)) usage(stdout);
    return finish(rank, 0, NULL);
  }
  if (opt.list) {
    int rc = rank == 0 ? print_list(suite, &opt, err) : 0;
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return finish(rank, rc ? EXIT_BAD_INPUT : 0, err);
  }
  if (!suite_runnable(suite)) {
    /* Not an error: the library predates what the suite measures. */
    int v, sv;
    MPI_Get_version(&v, &sv);
    if (rank == 0)
      printf("mpimark-core: the %s suite needs an %s library; this one implements MPI %d.%d, so the suite is skipped\n",
             suite->name, suite->title, v, sv);
    return finish(rank, 0, NULL);
  }
  if (provided < requested)
    return finish(rank, EXIT_BAD_INPUT, "the MPI library cannot provide the -thread_level asked for; ask for a lower level");

  static const bench_desc *list[OPT_MAX_NAMES + 64];
  int n = 0;
  if (build_list(suite, &opt, list, &n, err) != 0) return finish(rank, EXIT_BAD_INPUT, err);
  if (simulation_check_list(suite, list, n, err, sizeof(err)) != 0) return finish(rank, EXIT_BAD_INPUT, err);
  if (dtype_mpi(opt.data_type, 0) == MPI_DATATYPE_NULL || dtype_mpi(opt.red_data_type, 1) == MPI_DATATYPE_NULL)
    return finish(rank, EXIT_BAD_INPUT, "float16/bfloat16 need MPIX_C_FLOAT16/MPIX_C_BF16, which this MPI library lacks; use float or double");
  int P;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  if ((opt.map_p > 1 || opt.map_q > 1) && opt.map_p * opt.map_q != P) {
    snprintf(err, sizeof(err), "-map %dx%d does not cover the %d processes; give P and Q with P*Q = %d",
             opt.map_p, opt.map_q, P, P);
    return finish(rank, EXIT_BAD_INPUT, err);
  }

  if (suite->precheck && suite->precheck(&opt, list, n, err, sizeof(err)) != 0)
    return finish(rank, EXIT_BAD_INPUT, err);

  int json_failed = 0;
  if (rank == 0) {
    report_add(imb_text_reporter());
    if (opt.json_path[0]) {
      reporter_t *j = json_lines_reporter(opt.json_path, err, sizeof(err));
      if (j) report_add(j);
      else json_failed = 1;
    }
  }
  MPI_Bcast(&json_failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (json_failed) return finish(rank, EXIT_BAD_INPUT, err);

  run_info_t info;
  memset(&info, 0, sizeof(info));
  info.opt = &opt;
  info.suite = suite;
  info.benchmarks = list;
  info.n_benchmarks = n;
  engine_t engine;
  memset(&engine, 0, sizeof(engine));
  engine.opt = &opt;
  engine.suite = suite;
  run_info_collect(&info, &engine.host, argc, argv, mpi_thread_name(requested), mpi_thread_name(provided));

  engine_prepare(&engine, list, n);
  info.cpu_mflops = engine.cpu_mflops;
  clocksync_build(&engine.clock);
  info.clock = &engine.clock;
  int64_t t0 = engine_begin_run(&engine, &info, opt.selfcheck, &engine.clock);
  engine_run(&engine, list, n);
  /* The clock model checked again: what is left of it, and the drift seen. */
  int P_end;
  MPI_Comm_size(MPI_COMM_WORLD, &P_end);
  double *clk = rank == 0 ? calloc(3 * (size_t)P_end, sizeof(double)) : NULL;
  clocksync_check(&engine.clock, clk, clk ? clk + P_end : NULL, clk ? clk + 2 * P_end : NULL);
  if (rank == 0) {
    run_end_t end = run_end_now(engine.skipped_sizes == 0, t0, engine.results);
    end.clock_n = P_end;
    end.clock_residual_ns = clk;
    end.clock_bound_ns = clk + P_end;
    end.clock_drift_ppm = clk + 2 * P_end;
    end.clock_model_age_s = (double)(now_ns() - (engine.clock.n > 1 ? engine.clock.all[1].at_ns : t0)) * 1e-9;
    report_run_end(&end);
  }
  free(clk);
  clocksync_free(&engine.clock);
  selfcheck_free(&engine.check);

  /* The verdict is rank 0's; every rank returns it. */
  long verdict[3] = {engine.oom_sizes, engine.defects, engine.skipped_sizes};
  MPI_Bcast(verdict, 3, MPI_LONG, 0, MPI_COMM_WORLD);
  double worst = engine.worst_need_gb;
  MPI_Bcast(&worst, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (verdict[1] > 0) {
    snprintf(err, sizeof(err), "-check found %ld received elements that differ from what was sent; see the defects column",
             verdict[1]);
    return finish(rank, EXIT_CHECK_FAILED, err);
  }
  if (verdict[0] > 0) {
    char need[32];
    snprintf(err, sizeof(err), "%ld message size(s) did not fit in memory (largest need %s per process); raise -mem to at least %.3g (GB) or lower -msglog",
             verdict[0], str_gigabytes(worst, need, sizeof(need)), worst);
    return finish(rank, EXIT_SKIPPED, err);
  }
  return finish(rank, 0, NULL);
}
