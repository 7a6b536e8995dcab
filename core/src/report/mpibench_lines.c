/* The reporters of mpimark-core mpibench (docs/mpibench.md): mpiBench's
 * output lines on stdout, so crunch_mpiBench and other parsers keep working,
 * and the results stream with mpiBench's fields on top of the common ones
 * (report/records.c). Times are the engine's: each rank's time per call,
 * then min / avg / max over every world rank. */
#include "report/records.h"
#include "tools/mpibench/mpibench.h"

#include <math.h>
#include <stdio.h>

static const mpib_run_t *text_run;

static void text_run_begin(reporter_t *r, const run_info_t *in) {
  const mpib_run_t *run = text_run;
  const mpib_opts_t *o = run->o;
  printf("# mpimark-core %s mpibench: barrier after every call %s, time limit %.0f usec, at most %ld iterations%s\n",
         MPIMARK_VERSION, o->barrier ? "on" : "off (-nobar)", o->time_limit_us, o->iters,
         o->check_every ? ", -C check every iteration" : o->check_once ? ", -c check" : "");
  if (run->stop != o->stop) printf("# -e %zu lowered to %zu by -m %zu\n", o->stop, run->stop, o->mem_limit);
  printf("START mpiBench v%s\n", MPIB_VERSION);
  for (int i = 0; i < run->processes; i++) printf("%d : %s\n", i, run->hosts + (size_t)i * run->host_len);
  fflush(stdout);
}

static void text_result(reporter_t *r, const result_t *res) {
  const table_info_t *t = res->table;
  if (res->status != ST_OK)
    printf("# %s\tBytes:\t%zu\tskipped: needs %.3f GB per process\tComm: %s\n", t->bench->name, res->bytes,
           res->needed_gb, t->label);
  else
    printf("%-20.20s\tBytes:\t%8zu\tIters:\t%7ld\tAvg:\t%8.4f\tMin:\t%8.4f\tMax:\t%8.4f\tComm: %s\tRanks: %d\n",
           t->bench->name, res->bytes, res->repetitions, res->t_avg_us, res->t_min_us, res->t_max_us, t->label,
           t->np);
  fflush(stdout);
}

static void text_run_end(reporter_t *r, const run_end_t *end) {
  printf("Message buffers (KB):\t%zu\n", text_run->buffer_bytes / 1024);
  printf("END mpiBench\n");
  fflush(stdout);
}

reporter_t *mpibench_text_reporter(const mpib_run_t *run) {
  static reporter_t rep = {text_run_begin, NULL, text_result, NULL, text_run_end, NULL};
  text_run = run;
  return &rep;
}

static rec_file_t file;
static const mpib_run_t *json_run;

static void json_run_begin(reporter_t *r, const run_info_t *in) {
  const mpib_run_t *run = json_run;
  const mpib_opts_t *o = run->o;
  jw_t *w = &file.jw;
  rec_run_begin(w, in, &suite_mpibench);
  jw_obj_begin(w, "options");
  jw_int(w, "b_bytes", (int64_t)o->start);
  jw_int(w, "e_bytes", (int64_t)o->stop);
  jw_int(w, "e_bytes_after_m", (int64_t)run->stop);
  jw_int(w, "m_bytes", (int64_t)o->mem_limit);
  jw_int(w, "i_iterations", o->iters);
  jw_num(w, "t_usec", o->time_limit_us);
  jw_bool(w, "t_default", !o->time_set);
  jw_int(w, "d_dims", o->ndims);
  jw_int(w, "p_partsize", o->partsize);
  jw_str(w, "check", o->check_every ? "every" : o->check_once ? "once" : "off");
  jw_bool(w, "barrier", o->barrier);
  jw_arr_begin(w, "cart_dims");
  for (int d = 0; d < o->ndims; d++) jw_int(w, NULL, run->dims[d]);
  jw_arr_end(w);
  jw_obj_end(w);
  jw_arr_begin(w, "benchmarks");
  for (int i = 0; i < in->n_benchmarks; i++) jw_str(w, NULL, in->benchmarks[i]->name);
  jw_arr_end(w);
  jw_arr_begin(w, "communicators");
  for (int i = 0; i < run->n_comms; i++) jw_str(w, NULL, run->labels[i]);
  jw_arr_end(w);
  rec_close(w);
}

/* One record per line, for all world ranks at once: processes is the world
 * size, groups 1; the communicator and its groups are mpiBench's fields. */
static void json_result(reporter_t *r, const result_t *res) {
  const table_info_t *t = res->table;
  const mpib_opts_t *o = json_run->o;
  int ok = res->status == ST_OK;
  rec_result_t rr = {.benchmark = t->bench->name, .suite = "mpibench", .processes = json_run->processes,
                     .multi = -1, .groups = 1, .group = -1};
  rec_result_figures(&rr, res);
  jw_t *w = &file.jw;
  rec_result_begin(&file, &rr);
  rec_result_samples(w, res);
  jw_str(w, "comm", t->label);
  jw_int(w, "comm_index", t->label_index);
  jw_int(w, "comm_ranks", t->np);
  jw_int(w, "comm_groups", t->n_groups);
  jw_bool(w, "barrier", t->timed_barrier);
  jw_bool(w, "estimate_only", res->estimate_only);
  if (res->checked) jw_str(w, "check", mpib_checks_every_call(t->bench, o->check_every) ? "every" : "once");
  else jw_null(w, "check");
  if (ok && res->n_rank_us <= 4096) {
    jw_arr_begin(w, "rank_usec");
    for (int i = 0; i < res->n_rank_us; i++) jw_num(w, NULL, res->rank_us[i]);
    jw_arr_end(w);
  }
  rec_close(w);
}

static void json_event(reporter_t *r, const event_t *ev) { rec_event(&file.jw, ev); }

static void json_run_end(reporter_t *r, const run_end_t *end) { rec_file_end(&file, end); }

reporter_t *mpibench_json_reporter(const mpib_run_t *run, const char *path, char *err, size_t errlen) {
  static reporter_t rep = {json_run_begin, NULL, json_result, json_event, json_run_end, NULL};
  json_run = run;
  return rec_file_open(&file, path, err, errlen) == 0 ? &rep : NULL;
}
