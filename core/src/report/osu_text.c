/* OSU 7.4's text on stdout, from the records: the settings lines some
 * programs print first, the title, the lines of how the test runs, then per
 * datatype its line and the column line, and one row per size, with OSU's
 * widths (osu_columns.h decides the columns). mpimark's own lines start with
 * "# mpimark:" and come after OSU's table, never inside its columns. */
#include "report/reporter.h"
#include "suites/osu/osu.h"
#include "suites/osu/osu_columns.h"
#include "suites/osu/osu_options.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NOTES 32

static struct {
  const osu_ctx_t *ctx;
  const osu_test_t *test;
  osu_column_t cols[OSU_MAX_COLUMNS];
  int n_cols, sized;
  const char *datatype;      /* of the last row printed */
  long failed_size;          /* the size whose Validation said Fail, or -1 */
  int varied;                /* mbw_mr -V: OSU's window-by-size matrix instead of the table */
  size_t rate_sizes[64];     /* -V with -R 1: the sizes and MB/s of the datatype, for the message rates */
  double rate_mbs[64][8];
  int n_rate_sizes, n_in_row;
  char *notes[MAX_NOTES];    /* mpimark's comment lines, printed after the table */
  int n_notes;
} st;

static void note(const char *msg) {
  if (st.n_notes < MAX_NOTES) st.notes[st.n_notes++] = strdup(msg);
}

static void text_run_begin(reporter_t *r, const run_info_t *in) {
  st.ctx = in->options_ctx;
  st.test = st.ctx ? st.ctx->test : NULL;
}

/* What OSU prints before the first datatype's column line. */
static void print_title_block(const osu_test_t *t, const osu_options_t *o, int np) {
  if (t->family == OSU_FAM_LATENCY_MT)
    printf("# Number of Sender threads: %d \n# Number of Receiver threads: %d\n", o->sender_threads,
           o->receiver_threads);
  if (!strcmp(t->name, "latency_mp"))
    printf("# Number of forked processes in sender: %d\n# Number of forked processes in receiver: %d\n",
           o->sender_processes, o->receiver_processes);
  int blank_first = t->family != OSU_FAM_ONESIDED && t->family != OSU_FAM_MBW_MR && t->family != OSU_FAM_STARTUP;
  printf("%s# %s v7.4\n", blank_first ? "\n" : "", t->title);
  if (!strcmp(t->name, "hello")) printf("This is a test with %d processes\n", np);
  if (t->family == OSU_FAM_NBC) printf("# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait\n\n");
  if (t->family == OSU_FAM_MBW_MR) {
    if (o->vary_window) printf("# [ pairs: %d ] [ window size: varied ]\n\n# Uni-directional Bandwidth (MB/sec)\n", o->pairs);
    else printf("# [ pairs: %d ] [ window size: %d ]\n", o->pairs, o->window);
  }
  if (t->family == OSU_FAM_ONESIDED)
    printf("# Window creation: %s\n# Synchronization: %s\n", osu_win_name(o->win), osu_sync_name(o->sync));
}

static void text_table_begin(reporter_t *r, const table_info_t *ti) {
  if (!st.test) return;
  st.n_cols = osu_columns(st.test, st.ctx->o, st.cols, &st.sized);
  st.datatype = NULL;
  st.failed_size = -1;
  st.varied = st.test->family == OSU_FAM_MBW_MR && st.ctx->o->vary_window;
  st.n_rate_sizes = st.n_in_row = 0;
  print_title_block(st.test, st.ctx->o, ti->np);
  fflush(stdout);
}

static void print_column_line(void) {
  if (st.sized) printf("%-10s", "# Size");
  for (int i = 0; i < st.n_cols; i++) {
    const osu_column_t *c = &st.cols[i];
    if (!st.sized && i == 0) printf("# %s", c->header);
    else printf("%*s%s", c->pad, "", c->header);
  }
  printf("\n");
}

/* A field of the record by its name (records/osu_columns.py): 1 number, 2 text, 0 none. */
static int field(const result_t *res, const char *name, double *num, const char **text) {
  static const struct { const char *name; size_t at; } standard[] = {
      {"t_avg_usec", offsetof(result_t, t_avg_us)},         {"t_min_usec", offsetof(result_t, t_min_us)},
      {"t_max_usec", offsetof(result_t, t_max_us)},         {"mbytes_per_sec", offsetof(result_t, mbytes_per_sec)},
      {"msgs_per_sec", offsetof(result_t, msgs_per_sec)}};
  for (size_t i = 0; i < sizeof(standard) / sizeof(standard[0]); i++)
    if (!strcmp(name, standard[i].name)) {
      *num = *(const double *)((const char *)res + standard[i].at);
      return isnan(*num) ? 0 : 1;
    }
  if (!strcmp(name, "repetitions")) {
    *num = (double)res->repetitions;
    return 1;
  }
  if (!strcmp(name, "processes")) {
    *num = res->table->np;
    return 1;
  }
  for (int i = 0; i < res->n_extras; i++) {
    const result_extra_t *x = &res->extras[i];
    if (strcmp(x->name, name)) continue;
    if (x->kind == 's') {
      *text = x->text;
      return 2;
    }
    *num = x->kind == 'i' ? (double)x->integer : x->num;
    return isnan(*num) ? 0 : 1;
  }
  return 0;
}

static void print_row(const result_t *res) {
  if (st.sized) printf("%-10zu", res->bytes);
  for (int i = 0; i < st.n_cols; i++) {
    const osu_column_t *c = &st.cols[i];
    /* Without a Size column OSU prints the first figure as wide as its "# <name>" header. */
    int width = !st.sized && i == 0 ? (int)strlen(c->header) + 2 : c->width;
    double num = 0;
    const char *text = NULL;
    int kind = field(res, c->field, &num, &text);
    if (kind == 0) printf("%*s", width, "");
    else if (kind == 2) printf("%*s", width, text);
    else if (c->kind == 'i') printf("%*lld", width, (long long)num);
    else printf("%*.2f", width, num);
  }
  printf("\n");
}

/* mbw_mr -V (OSU's osu_mbw_mr.c): per size a line of MB/s over OSU's eight windows, and with -R 1, after
 * the datatype's sizes, the same matrix of messages per second (1e6 * MB/s / size). */
#define N_WINDOWS 8

static void window_header(void) {
  static const int windows[N_WINDOWS] = {1, 2, 4, 8, 16, 32, 64, 128};
  printf("#      ");
  for (int i = 0; i < N_WINDOWS; i++) printf("  %10d", windows[i]);
  printf("\n");
}

static void varied_rates(void) {
  if (!st.varied || !st.ctx->o->print_rate || st.n_rate_sizes == 0) return;
  printf("\n# Message Rate Profile\n");
  window_header();
  for (int k = 0; k < st.n_rate_sizes; k++) {
    printf("%-7zu", st.rate_sizes[k]);
    for (int i = 0; i < N_WINDOWS; i++) printf("  %10.2f", 1e6 * st.rate_mbs[k][i] / (double)st.rate_sizes[k]);
    printf("\n");
  }
  st.n_rate_sizes = 0;
}

static void varied_result(const result_t *res) {
  if (st.n_in_row == 0) {
    printf("%-7zu", res->bytes);
    if (st.n_rate_sizes < 64) st.rate_sizes[st.n_rate_sizes++] = res->bytes;
  }
  printf("  %10.2f", res->mbytes_per_sec);
  if (st.n_rate_sizes > 0) st.rate_mbs[st.n_rate_sizes - 1][st.n_in_row] = res->mbytes_per_sec;
  if (++st.n_in_row == N_WINDOWS) {
    printf("\n");
    st.n_in_row = 0;
  }
}

static void text_result(reporter_t *r, const result_t *res) {
  if (!st.test) return;
  if (res->status != ST_OK) {
    char msg[160];
    snprintf(msg, sizeof(msg), "# mpimark: %zu bytes (%s) not measured: no memory for its buffers", res->bytes,
             res->datatype);
    note(msg);
    return;
  }
  if (!strcmp(st.test->name, "init")) {
    printf("nprocs: %d, min: %ld ms, max: %ld ms, avg: %ld ms\n", res->table->np, (long)(res->t_min_us / 1e3),
           (long)(res->t_max_us / 1e3), (long)(res->t_avg_us / 1e3));
    fflush(stdout);
    return;
  }
  if (!st.datatype || strcmp(st.datatype, res->datatype)) {
    varied_rates();
    /* OSU's acc, fop and cas latency print their whole header again for every datatype. */
    if (st.datatype && st.test->family == OSU_FAM_ONESIDED) print_title_block(st.test, st.ctx->o, res->table->np);
    st.datatype = res->datatype;
    if (st.sized && !(st.test->shape & OSU_SHAPE_NO_DATATYPE_LINE)) printf("# Datatype: %s.\n", res->datatype);
    if (st.varied) window_header();
    else print_column_line();
  }
  if (st.varied) varied_result(res);
  else print_row(res);
  /* OSU's one-sided tests neither stop nor say more after a failed row. */
  if (res->checked && res->defects > 0 && st.failed_size < 0 && st.test->family != OSU_FAM_ONESIDED)
    st.failed_size = (long)res->bytes;
  fflush(stdout);
}

static void text_event(reporter_t *r, const event_t *ev) {
  if (!ev->comment && strcmp(ev->level, "error")) return;
  char msg[600];
  snprintf(msg, sizeof(msg), "# mpimark: %s", ev->message);
  note(msg);
}

static void text_run_end(reporter_t *r, const run_end_t *end) {
  varied_rates();
  /* OSU's last line after a failed validation; the status is ours (EXIT_CHECK_FAILED). */
  if (st.test && st.failed_size >= 0)
    printf("DATA VALIDATION ERROR: osu_%s exited with status 4 on message size %ld.\n", st.test->name,
           st.failed_size);
  for (int i = 0; i < st.n_notes; i++) {
    printf("%s\n", st.notes[i]);
    free(st.notes[i]);
  }
  st.n_notes = 0;
  fflush(stdout);
}

reporter_t *osu_text_reporter(void) {
  static reporter_t rep = {text_run_begin, text_table_begin, text_result, text_event, text_run_end, NULL};
  return &rep;
}
