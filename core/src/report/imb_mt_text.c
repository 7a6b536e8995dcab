/* IMB-MT's text output on stdout (docs/mt.md): its title block (unless
 * -noheader), per benchmark "# Benchmarking <Name>", "# #processes = N
 * (threads: T)", the window size of the windowed ones, 13-character
 * columns, and "# NO SUCCESSFUL EXECUTIONS" where no process could take
 * part; so a parser written for IMB-MT reads ours. -check adds a defects column. */
#include "report/reporter.h"
#include "report/bench_facts.h"

#include <stdio.h>

#define W 13
#define IMB_METHOD_VERSION "2021.11"

static int header_due;

static void dashes(void) {
  printf("#-----------------------------------------------------------------------------\n");
}

static void mt_run_begin(reporter_t *r, const run_info_t *in) {
  if (in->quiet_header) return;
  printf("#------------------------------------------------------------------\n");
  printf("#    mpimark-core %s (Intel(R) MPI Benchmarks %s methodology), MT part    \n", MPIMARK_VERSION,
         IMB_METHOD_VERSION);
  printf("#------------------------------------------------------------------\n#\n");
  fflush(stdout);
}

static void mt_table_begin(reporter_t *r, const table_info_t *t) {
  printf("\n");
  dashes();
  printf("# Benchmarking %s\n", t->bench->name);
  if (t->invalid) {
    printf("# NO SUCCESSFUL EXECUTIONS\n");
    dashes();
    fflush(stdout);
    return;
  }
  printf("# #processes = %d (threads: %d)\n", t->np, t->threads);
  if (t->window_size > 0) printf("# window_size = %d\n", t->window_size);
  dashes();
  header_due = 1;
}

static void mt_result(reporter_t *r, const result_t *res) {
  bench_layout_t k = bench_layout(res->table->bench, -1);
  if (header_due) {
    const char *cols[BENCH_MAX_COLUMNS];
    int n = bench_layout_columns(k, cols);
    for (int i = 0; i < n; i++) printf("%*s", W, cols[i]);
    if (res->checked) printf("%*s", W, "defects");
    printf("\n");
    header_due = 0;
  }
  if (k != LAYOUT_SYNC) printf("%*zu", W, res->bytes);
  printf("%*ld", W, res->repetitions);
  if (k == LAYOUT_AVG_RATE) {
    printf("%*.2f%*.2f%*.0f", W, res->t_avg_us, W, res->mbytes_per_sec, W, res->msgs_per_sec);
  } else {
    printf("%*.2f%*.2f%*.2f", W, res->t_min_us, W, res->t_max_us, W, res->t_avg_us);
    if (k == LAYOUT_RANGE_BW) printf("%*.2f", W, res->mbytes_per_sec);
  }
  if (res->checked) printf("%*ld", W, res->defects);
  printf("\n");
  fflush(stdout);
}

static void mt_event(reporter_t *r, const event_t *ev) {}

static void mt_run_end(reporter_t *r, const run_end_t *end) {
  printf("\n");
  fflush(stdout);
}

reporter_t *imb_mt_text_reporter(void) {
  static reporter_t rep = {mt_run_begin, mt_table_begin, mt_result, mt_event, mt_run_end, NULL};
  return &rep;
}
