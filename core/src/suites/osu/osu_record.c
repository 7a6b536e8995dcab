#include "suites/osu/osu_record.h"
#include "suites/common/own_suite.h"
#include "suites/osu/osu_buffers.h"
#include "suites/osu/osu_options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The run record's "options": osu_options_t's fields under their own names (the front end reads
 * full, validate, tail... to know which columns OSU printed). */
void osu_write_options(jw_t *w, const void *ctx) {
  const osu_ctx_t *c = ctx;
  const osu_options_t *o = c->o;
  jw_obj_begin(w, "options");
  jw_int(w, "min_size", (int64_t)o->min_size);
  jw_int(w, "max_size", (int64_t)o->max_size);
  jw_int(w, "iterations", o->iterations);
  jw_int(w, "iterations_large", o->iterations_large);
  jw_int(w, "skip", o->skip);
  jw_int(w, "skip_large", o->skip_large);
  jw_int(w, "large_threshold", (int64_t)o->large_threshold);
  jw_int(w, "window", o->window);
  jw_bool(w, "vary_window", o->vary_window);
  jw_int(w, "pairs", o->pairs);
  jw_int(w, "print_rate", o->print_rate);
  jw_bool(w, "full", o->full);
  jw_int(w, "mem_limit", (int64_t)o->mem_limit);
  jw_arr_begin(w, "types");
  for (int i = 0; i < o->n_types; i++) jw_str(w, NULL, osu_type_name(o->type_ids[i]));
  jw_arr_end(w);
  jw_bool(w, "validate", o->validate);
  jw_int(w, "validation_warmup", o->validation_warmup);
  if (o->n_tail == 0) {
    jw_null(w, "tail");
  } else {
    jw_arr_begin(w, "tail");
    for (int i = 0; i < o->n_tail; i++) jw_num(w, NULL, o->tail[i]);
    jw_arr_end(w);
  }
  jw_bool(w, "buffer_multiple", o->buffer_multiple);
  jw_int(w, "num_test_calls", o->num_test_calls);
  jw_int(w, "sender_threads", o->sender_threads);
  jw_int(w, "receiver_threads", o->receiver_threads);
  jw_int(w, "sender_processes", o->sender_processes);
  jw_int(w, "receiver_processes", o->receiver_processes);
  jw_str(w, "win", osu_win_word(o->win));
  jw_str(w, "sync", osu_sync_word(o->sync));
  jw_bool(w, "in_place", o->in_place);
  jw_bool(w, "root_rotate", o->root_rotate);
  jw_int(w, "root_rank", o->root_rank);
  jw_str(w, "selfcheck", o->selfcheck ? "on" : "off");
  jw_obj_end(w);
}

/* The record's extra fields (records/osu_columns.py's names) of one row. */
typedef struct {
  result_extra_t e[32];
  int n;
  char names[OSU_MAX_TAIL][24];
} extras_t;

static void extra_num(extras_t *x, const char *name, double v) {
  if (!isnan(v)) x->e[x->n++] = (result_extra_t){.name = name, .kind = 'n', .num = v};
}
static void extra_int(extras_t *x, const char *name, long long v) {
  x->e[x->n++] = (result_extra_t){.name = name, .kind = 'i', .integer = v};
}
static void extra_str(extras_t *x, const char *name, const char *v) {
  x->e[x->n++] = (result_extra_t){.name = name, .kind = 's', .text = v};
}

static const char *class_name(const bench_desc *b) {
  static const char *names[] = {"single", "parallel", "msgrate", "collective", "sync"};
  return names[b->cls];
}

/* How the table ran (SETTINGS of records/osu_columns.py), then OSU's columns beyond the standard ones. */
static void row_extras(const osu_ctx_t *c, const osu_row_t *row, extras_t *x) {
  const osu_test_t *t = c->test;
  const osu_options_t *o = c->o;
  x->n = 0;
  extra_str(x, "benchmark_class", class_name(osu_bench_of(t)));
  if (t->family == OSU_FAM_ONESIDED) {
    extra_str(x, "window_creation", osu_win_name(o->win));
    extra_str(x, "synchronization", osu_sync_name(o->sync));
  }
  if (t->family == OSU_FAM_LATENCY_MT) {
    extra_int(x, "sender_threads", o->sender_threads);
    extra_int(x, "receiver_threads", o->receiver_threads);
  }
  if (!strcmp(t->name, "latency_mp")) {
    extra_int(x, "sender_processes", o->sender_processes);
    extra_int(x, "receiver_processes", o->receiver_processes);
  }
  /* -W: messages in flight, part of what a bandwidth row measured (a -W 16 row is no -W 64 row). */
  if (strchr(t->optstring, 'W')) extra_int(x, "window_size", c->window > 0 ? c->window : o->window);
  if (t->family == OSU_FAM_MBW_MR) extra_int(x, "pairs", o->pairs);
  if (t->family == OSU_FAM_MULTI_LAT) extra_int(x, "pairs", o->pairs);
  extra_num(x, "compute_usec", row->compute_us);
  extra_num(x, "coll_init_usec", row->init_us);
  extra_num(x, "mpi_test_usec", row->test_us);
  extra_num(x, "mpi_wait_usec", row->wait_us);
  extra_num(x, "pure_comm_usec", row->pure_comm_us);
  extra_num(x, "min_comm_usec", row->min_comm_us);
  extra_num(x, "max_comm_usec", row->max_comm_us);
  extra_num(x, "overlap_percent", row->overlap_pct);
  if (row->validated) extra_str(x, "validation", osu_validation_word(t->family == OSU_FAM_ONESIDED, row->defects));
  for (int i = 0; i < o->n_tail; i++) {
    snprintf(x->names[i], sizeof(x->names[i]), "p%d_tail_%s", (int)o->tail[i], t->bandwidth ? "bw_mb_s" : "lat_us");
    extra_num(x, x->names[i], row->tail[i]);
  }
}

void osu_row_init(osu_row_t *row) {
  memset(row, 0, sizeof(*row));
  row->avg_us = row->min_us = row->max_us = row->mbytes_per_sec = row->msgs_per_sec = NAN;
  row->compute_us = row->init_us = row->test_us = row->wait_us = NAN;
  row->pure_comm_us = row->min_comm_us = row->max_comm_us = row->overlap_pct = NAN;
  for (int i = 0; i < OSU_MAX_TAIL; i++) row->tail[i] = NAN;
}

void osu_report_row(const table_info_t *ti, const osu_ctx_t *c, osu_row_t *row) {
  result_t res;
  memset(&res, 0, sizeof(res));
  res.table = ti;
  res.group = -1;
  res.bytes = c->bytes;
  res.count = c->count;
  res.datatype = (c->test->shape & OSU_SHAPE_NO_SIZE) ? "none" : c->type_name;
  res.status = row->status == OSU_ROW_OUT_OF_MEMORY ? ST_OUT_OF_MEMORY : ST_OK;
  res.repetitions = row->iterations > 0 ? row->iterations : c->iterations;
  /* A bandwidth row's time is the mean of its samples (one window each): MB/s = bytes x window / t_avg,
   * and a measured row needs a time (the results schema). */
  res.t_avg_us = row->avg_us;
  if (isnan(res.t_avg_us) && row->n_samples > 0 && row->samples_ns) {
    double sum = 0;
    for (long i = 0; i < row->n_samples; i++) sum += row->samples_ns[i];
    res.t_avg_us = sum / (double)row->n_samples / 1000.0;
  }
  /* A row of one figure (OSU prints no min or max) has it as its range too, as IMB's single transfers. */
  res.t_min_us = isnan(row->min_us) ? row->avg_us : row->min_us;
  res.t_max_us = isnan(row->max_us) ? row->avg_us : row->max_us;
  res.mbytes_per_sec = row->mbytes_per_sec;
  res.msgs_per_sec = row->msgs_per_sec;
  res.t_pure_us = res.t_cpu_us = res.overlap_pct = res.overlap_pct_max = NAN;
  res.ovrl_rank = -1;
  res.checked = row->validated;
  res.defects = row->defects;
  res.invalid_samples = -1;
  res.loops = 1;
  res.ci_target = NAN;
  extras_t x;
  row_extras(c, row, &x);
  res.extras = x.e;
  res.n_extras = x.n;
  double *copy = NULL;
  if (row->n_samples > 0 && row->samples_ns) {
    /* own_samples keeps the pointer for the reporters; the family's array is its scratch. */
    copy = malloc(sizeof(double) * (size_t)row->n_samples);
    memcpy(copy, row->samples_ns, sizeof(double) * (size_t)row->n_samples);
    own_samples(&res, copy, row->n_samples, 1);
  }
  report_result(&res);
  free(copy);
}

