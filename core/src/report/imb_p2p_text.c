/* IMB-P2P's text output on stdout (docs/p2p.md): its header, one table per
 * benchmark with 13-character columns (" %12s"), "# !! Benchmark ... is
 * invalid ..." where the process count does not fit, and the closing line,
 * so a parser written for IMB-P2P reads ours. -check adds a defects column. */
#include "report/reporter.h"

#include <stdio.h>

#define IMB_METHOD_VERSION "2021.11"

static int header_due;   /* the column line waits for the first row (-check adds a column) */

static void dashes(void) { printf("#----------------------------------------------------------------\n"); }

static void p2p_run_begin(reporter_t *r, const run_info_t *in) {
  printf("#------------------------------------------------------------\n");
  printf("#    mpimark-core %s (Intel(R) MPI Benchmarks %s methodology), IMB-P2P part\n", MPIMARK_VERSION,
         IMB_METHOD_VERSION);
  printf("#------------------------------------------------------------\n");
  imb_text_system_lines(in);
  printf("# MPI Thread Environment:\n#\n# Calling sequence was:\n#\n#");
  for (int i = 0; i < in->argc; i++) printf(" %s", in->argv[i]);
  printf("\n#\n# List of Benchmarks to run:\n#\n");
  for (int i = 0; i < in->n_benchmarks; i++) printf("# %s\n", in->benchmarks[i]->name);
  printf("#\n# Minimum message length in bytes:   %zu\n", in->min_bytes);
  printf("# Maximum message length in bytes:   %zu\n#\n", in->max_bytes);
  fflush(stdout);
}

static void p2p_table_begin(reporter_t *r, const table_info_t *t) {
  if (t->invalid) {
    printf("\n# !! Benchmark %s is invalid for %d processes !!\n", t->bench->name, t->np);
    fflush(stdout);
    return;
  }
  printf("\n");
  dashes();
  if (t->grid) printf("# Benchmarking %s (%s)\n", t->bench->name, t->grid);
  else printf("# Benchmarking %s\n", t->bench->name);
  printf("# #processes = %d\n", t->np);
  dashes();
  header_due = 1;
}

static void p2p_result(reporter_t *r, const result_t *res) {
  if (header_due) {
    printf(" %12s %12s %12s %12s %12s", "#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "Msg/sec");
    if (res->checked) printf(" %12s", "defects");
    printf("\n");
    header_due = 0;
  }
  printf(" %12zu %12ld %12.2f %12.2f %12.0f", res->bytes, res->repetitions, res->t_avg_us, res->mbytes_per_sec,
         res->msgs_per_sec);
  if (res->checked) printf(" %12ld", res->defects);
  printf("\n");
  fflush(stdout);
}

static void p2p_event(reporter_t *r, const event_t *ev) {}

static void p2p_run_end(reporter_t *r, const run_end_t *end) {
  printf("\n\n# All processes entering MPI_Finalize\n\n");
  fflush(stdout);
}

reporter_t *imb_p2p_text_reporter(void) {
  static reporter_t rep = {p2p_run_begin, p2p_table_begin, p2p_result, p2p_event, p2p_run_end, NULL};
  return &rep;
}
