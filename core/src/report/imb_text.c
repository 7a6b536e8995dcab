/* IMB's text output on stdout, layout for layout (reference/imb.md §4), so a
 * parser written for IMB reads ours unchanged: 13-character columns, the
 * dash lines of ncols*13-1 dashes, "# Benchmarking <Name> ", the process and
 * group lines, the failure rows and the closing line. */
#include "report/reporter.h"
#include "report/bench_facts.h"
#include "engine/datatypes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define W 13
#define IMB_METHOD_VERSION "2021.11"

/* The lines of IMB's header that say where and on what it ran (every IMB program prints them alike). */
void imb_text_system_lines(const run_info_t *in) {
  printf("# Date                  : %s\n", in->start_local);
  printf("# Machine               : %s\n", in->machine);
  printf("# System                : %s\n", in->sysname);
  printf("# Release               : %s\n", in->release);
  printf("# Version               : %s\n", in->version);
  printf("# MPI Version           : %d.%d\n", in->mpi_version, in->mpi_subversion);
}

static void dash_line(int ncols) {
  putchar('#');
  for (int i = 0; i < ncols * W - 1; i++) putchar('-');
  putchar('\n');
}

/* The header's spacing differs between IMB's suites (each prepare() prints
 * its own); a parser diffing headers sees IMB's bytes. */
typedef struct {
  const char *suite;
  int call_space;   /* "# <calling sequence> " with a trailing blank */
  int red_space;    /* "MPI_FLOAT " with a trailing blank */
  int hash_space;   /* the two lines after MPI_Op (IMB-IO: after the io portions): "# " rather than "#" */
} header_style_t;

static header_style_t header_style(const char *suite) {
  static const header_style_t styles[] = {
    {"mpi1", 1, 1, 1}, {"mpi4", 1, 1, 1}, {"nbc", 0, 0, 0}, {"rma", 1, 0, 1}, {"ext", 0, 0, 0}, {"io", 1, 1, 0},
  };
  for (size_t i = 0; i < sizeof(styles) / sizeof(styles[0]); i++)
    if (strcmp(styles[i].suite, suite) == 0) return styles[i];
  return styles[0];
}

void imb_comment_lines(const char *indent, const char *comment) {
  for (const char *c = comment; c && *c;) {
    size_t len = strcspn(c, "\n");
    printf("%s%.*s\n", indent, (int)len, c);
    c += len + (c[len] == '\n');
  }
}

static void text_run_begin(reporter_t *r, const run_info_t *in) {
  const options_t *o = in->opt;
  header_style_t hs = header_style(in->suite->name);
  printf("#----------------------------------------------------------------\n");
  /* Which side of -imb_compat: IMB 2021's definitions, or the 4.0 user guide's where they differ. */
  printf("#    mpimark-core %s (Intel(R) MPI Benchmarks %s methodology%s), %s part\n", MPIMARK_VERSION,
         IMB_METHOD_VERSION, o->imb_compat == COMPAT_GUIDE ? ", -imb_compat guide" : "", in->suite->title);
  printf("#----------------------------------------------------------------\n");
  imb_text_system_lines(in);
  printf("# MPI Thread Environment: %s\n\n\n", in->thread_provided);
  printf("# Calling sequence was: \n\n#");
  for (int i = 0; i < in->argc; i++) printf(" %s", in->argv[i]);
  printf("%s\n\n", hs.call_space ? " " : "");
  /* IMB-IO speaks of io portions and prints no datatype lines (IMB_show_selections). */
  int io = strcmp(in->suite->name, "io") == 0;
  if (o->have_size_list) {
    printf(io ? "# IO lengths were user defined\n" : "# Message lengths were user defined\n");
  } else {
    const char *what = io ? "io portion" : "message length";
    /* IMB-IO's prepare() prints a minimum of 0 whatever -zero_size says. */
    printf("# Minimum %s in bytes:   %zu\n", what, o->zero_size || io ? (size_t)0 : (size_t)1 << o->msglog_min);
    printf("# Maximum %s in bytes:   %zu\n", what, (size_t)1 << o->msglog_max);
  }
  printf("#\n");
  if (!io) {
    printf("# MPI_Datatype                   :   %s \n", dtype_mpi_name(o->data_type, 0));
    printf("# MPI_Datatype for reductions    :   %s%s\n", dtype_mpi_name(o->red_data_type, 1), hs.red_space ? " " : "");
    printf("# MPI_Op                         :   MPI_SUM  \n");
  }
  printf(hs.hash_space ? "# \n# \n" : "#\n#\n");
  printf("\n# List of Benchmarks to run:\n\n");
  for (int i = 0; i < in->n_benchmarks; i++) {
    printf("# %s\n", in->benchmarks[i]->name);
    /* IMB-EXT and IMB-RMA print a benchmark's comment lines under its name. */
    imb_comment_lines("#     ", in->benchmarks[i]->comment);
  }
  if (in->cpu_mflops > 0)
    printf("\n# For nonblocking benchmarks:\n\n# Function CPU_Exploit obtains an undisturbed\n"
           "# performance of %7.2f MFlops\n", in->cpu_mflops);
  fflush(stdout);
}

/* How a table's rows look: IMB's out_format sets, decided in bench_facts.c
 * (the same answer the benchmark facts give the front end). */
static bench_layout_t layout_of(const table_info_t *t) { return bench_layout(t->bench, t->multi); }

/* The column titles of a table. */
static int columns(const table_info_t *t, const options_t *o, const char **cols) {
  int n = 0;
  if (t->multi == 1) cols[n++] = "Group";
  n += bench_layout_columns(layout_of(t), cols + n);
  if (o->check && t->bench->verify) cols[n++] = "defects";
  return n;
}

/* A row of world ranks, 16 to a line, each line led by "# ". */
static void rank_row(const char *label, const int *ranks, int n) {
  printf("# %s", label);
  for (int i = 0; i < n; i++) {
    if (i > 0 && i % 16 == 0) printf("\n# ");
    printf(" %4d", ranks[i]);
  }
  printf("\n# \n");
}

static const options_t *current_opt;

static void text_table_begin(reporter_t *r, const table_info_t *t) {
  if (t->invalid) {
    printf("\n# !! Benchmark %s invalid for %d processes !! \n\n", t->bench->name, t->np);
    fflush(stdout);
    return;
  }
  const char *cols[BENCH_MAX_COLUMNS + 2];
  int ncols = columns(t, current_opt, cols);
  printf("\n");
  dash_line(ncols);
  printf("# Benchmarking %s%s \n", t->n_groups > 1 ? "Multi-" : "", t->bench->name);
  if (t->n_groups > 1) {
    printf("# ( %d groups of %d processes each running simultaneous ) \n", t->n_groups, t->np);
    for (int g = 0; g < t->n_groups; g++) {
      char label[32];
      snprintf(label, sizeof(label), "Group  %d: ", g);
      rank_row(label, t->group_ranks + (size_t)g * t->np, t->np);
    }
  } else if (t->map_p > 1 && t->map_q > 1) {
    printf("# #processes = %d; rank order (rowwise): \n", t->np);
    int world = t->np + t->idle, done = 0;
    for (int i = 0; i < t->map_p && done < t->np; i++) {
      int row = world / t->map_p + (i < world % t->map_p ? 1 : 0);
      if (row > t->np - done) row = t->np - done;
      rank_row("", t->group_ranks + done, row);
      done += row;
    }
  } else {
    printf("# #processes = %d \n", t->np);
  }
  if (t->idle == 1) printf("# ( %d additional process waiting in MPI_Barrier)\n", t->idle);
  else if (t->idle > 1) printf("# ( %d additional processes waiting in MPI_Barrier)\n", t->idle);
  /* IMB 2019+ and the user guide define Reduce_scatter differently; say which this table measured. */
  if (t->bench->flags & BF_SPLIT_GUIDE)
    printf(current_opt->imb_compat == COMPAT_GUIDE ? "# ( #bytes split across the processes: the user guide's definition ) \n"
                                                   : "# ( every process receives #bytes: IMB 2019+ ) \n");
  dash_line(ncols);
  if (t->mode >= 0) printf("#\n#    MODE: %s \n#\n", t->mode ? "AGGREGATE" : "NON-AGGREGATE");
  for (int i = 0; i < ncols; i++) printf("%*s", W, cols[i]);
  printf("\n");
  fflush(stdout);
}

static void text_result(reporter_t *r, const result_t *res) {
  const table_info_t *t = res->table;
  const bench_desc *b = t->bench;
  if (t->multi == 1 && res->group == 0) printf("\n");
  if (t->multi == 1) printf("%*d", W, res->group < 0 ? 0 : res->group);
  if (layout_of(t) != LAYOUT_SYNC && layout_of(t) != LAYOUT_OVERLAP_SYNC) printf("%*zu", W, res->bytes);
  switch (res->status) {
    case ST_TIMEOUT:
      printf(" time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is over; use \"-time X\" to increase time limit.\n");
      fflush(stdout);
      return;
    case ST_OUT_OF_MEMORY:
      printf(" out-of-mem.; needed X=%8.3f GB; use flag \"-mem X\" or raise the memory limit\n", res->needed_gb);
      fflush(stdout);
      return;
    case ST_INT_OVERFLOW:
      printf(" int-overflow.; The production rank*size caused int overflow for given sample; this MPI has no large-count reductions, use a larger -red_data_type\n");
      fflush(stdout);
      return;
    case ST_OK:
      break;
  }
  printf("%*ld", W, res->repetitions);
  switch (layout_of(t)) {
    case LAYOUT_T_BW:
      printf("%*.2f%*.2f", W, res->t_max_us, W, res->mbytes_per_sec);
      break;
    case LAYOUT_RANGE_BW:
    case LAYOUT_RANGE:
    case LAYOUT_SYNC:
      printf("%*.2f%*.2f%*.2f", W, res->t_min_us, W, res->t_max_us, W, res->t_avg_us);
      if (layout_of(t) == LAYOUT_RANGE_BW) printf("%*.2f", W, res->mbytes_per_sec);
      break;
    case LAYOUT_RATE:
      printf("%*.2f%*.0f", W, res->mbytes_per_sec, W, res->msgs_per_sec);
      break;
    case LAYOUT_OVERLAP:
    case LAYOUT_OVERLAP_SYNC:
      /* IMB-NBC's and IMB-MPI4's code divide by max(t_pure, t_CPU), the guide and IMB-IO by min;
       * the stream keeps both. */
      printf("%*.2f%*.2f%*.2f%*.2f", W, res->t_max_us, W, res->t_pure_us, W, res->t_cpu_us, W,
             current_opt->imb_compat == COMPAT_GUIDE || strcmp(t->suite, "io") == 0 ? res->overlap_pct
                                                                                   : res->overlap_pct_max);
      break;
    case LAYOUT_PURE_OVRL:
      printf("%*.2f%*.2f", W, res->t_pure_us, W, res->t_max_us);
      break;
    case LAYOUT_P2P:
    case LAYOUT_AVG_RATE:
      printf("%*.2f%*.2f%*.0f", W, res->t_avg_us, W, res->mbytes_per_sec, W, res->msgs_per_sec);
      break;
  }
  if (res->checked && b->verify) printf("%*ld", W, res->defects);
  printf("\n");
  fflush(stdout);
}

static void text_event(reporter_t *r, const event_t *ev) {
  /* Self-check warnings are # lines, which IMB parsers skip; the others go
   * to stderr so the tables on stdout stay IMB's. */
  if (ev->comment) {
    printf("# mpimark %s: %s\n", ev->level, ev->message);
    fflush(stdout);
  } else if (strcmp(ev->level, "info") != 0) {
    fprintf(stderr, "mpimark-core: %s: %s\n", ev->level, ev->message);
  }
}

static void text_run_end(reporter_t *r, const run_end_t *end) {
  printf("\n\n# All processes entering MPI_Finalize\n\n");
  fflush(stdout);
}

static void text_run_begin_hook(reporter_t *r, const run_info_t *in) {
  current_opt = in->opt;
  text_run_begin(r, in);
}

reporter_t *imb_text_reporter(void) {
  static reporter_t rep = {text_run_begin_hook, text_table_begin, text_result, text_event, text_run_end, NULL};
  return &rep;
}
