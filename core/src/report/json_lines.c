/* The JSON Lines stream of docs/results-format.md: one record per line,
 * flushed as soon as it is written so a killed run keeps what it finished. */
#include "report/reporter.h"
#include "report/bench_facts.h"
#include "engine/datatypes.h"
#include "engine/sysinfo.h"
#include "tools/mpit/mpit.h"
#include "util/jsonw.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define SCHEMA_VERSION 1

static jw_t jw;
static FILE *out;

static const char *bool_name(int v) { return v ? "on" : "off"; }

static void write_options(const options_t *o) {
  jw_obj_begin(&jw, "options");
  jw_int(&jw, "npmin", o->npmin);
  if (o->multi < 0) jw_null(&jw, "multi"); else jw_int(&jw, "multi", o->multi);
  jw_bool(&jw, "off_cache", o->off_cache);
  jw_num(&jw, "off_cache_size_mb", o->off_cache ? (o->cache_size_mb < 0 ? 8.0 : o->cache_size_mb) : NAN);
  jw_int(&jw, "off_cache_line_bytes", o->cache_line > 0 ? o->cache_line : 64);
  jw_int(&jw, "msgspersample", o->msgspersample);
  jw_num(&jw, "overall_vol_mb", o->overall_vol_mb);
  jw_int(&jw, "msgs_nonaggr", o->msgs_nonaggr);
  jw_str(&jw, "iter_policy", iter_policy_name(o->iter_policy));
  jw_num(&jw, "time_s", o->time_secs);
  jw_num(&jw, "mem_gb", o->mem_gb);
  if (o->have_size_list) {
    jw_arr_begin(&jw, "msgsizes");
    for (int i = 0; i < o->n_sizes; i++) jw_int(&jw, NULL, (int64_t)o->sizes[i]);
    jw_arr_end(&jw);
    jw_str(&jw, "msglen", o->msglen_file[0] ? o->msglen_file : NULL);
    jw_null(&jw, "msglog");
  } else {
    jw_null(&jw, "msgsizes");
    jw_null(&jw, "msglen");
    char buf[32];
    snprintf(buf, sizeof(buf), "%d:%d", o->msglog_min, o->msglog_max);
    jw_str(&jw, "msglog", buf);
  }
  char map[48];
  snprintf(map, sizeof(map), "%dx%d", o->map_p, o->map_q);
  jw_str(&jw, "map", map);
  jw_str(&jw, "thread_level", thread_level_name(o->thread_level));
  jw_str(&jw, "root_shift", bool_name(o->root_shift));
  jw_str(&jw, "sync", bool_name(o->sync));
  jw_str(&jw, "imb_barrier", bool_name(o->imb_barrier));
  jw_str(&jw, "data_type", dtype_option_name(o->data_type));
  jw_str(&jw, "red_data_type", dtype_option_name(o->red_data_type));
  jw_str(&jw, "zero_size", bool_name(o->zero_size));
  jw_str(&jw, "warm_up", bool_name(o->warm_up));
  jw_int(&jw, "window_size", o->window_size);
  jw_str(&jw, "msg_pause", bool_name(o->msg_pause));
  jw_str(&jw, "check", bool_name(o->check));
  static const char *agg[] = {"multi", "aggregate", "non_aggregate"};
  jw_str(&jw, "aggregate_mode", agg[o->aggregate_mode]);
  jw_obj_end(&jw);
}

static void json_run_begin(reporter_t *r, const run_info_t *in) {
  jw_obj_begin(&jw, NULL);
  jw_str(&jw, "type", "run");
  jw_int(&jw, "schema_version", SCHEMA_VERSION);
  jw_obj_begin(&jw, "tool");
  jw_str(&jw, "name", "mpimark-core");
  jw_str(&jw, "version", MPIMARK_VERSION);
  jw_obj_end(&jw);
  jw_str(&jw, "suite", in->suite->name);
  jw_arr_begin(&jw, "command_line");
  for (int i = 0; i < in->argc; i++) jw_str(&jw, NULL, in->argv[i]);
  jw_arr_end(&jw);
  jw_str(&jw, "start_utc", in->start_utc);
  jw_obj_begin(&jw, "mpi");
  jw_str(&jw, "library_version", in->mpi_library);
  char std[16];
  snprintf(std, sizeof(std), "%d.%d", in->mpi_version, in->mpi_subversion);
  jw_str(&jw, "standard_version", std);
  jw_str(&jw, "thread_level_requested", in->thread_requested);
  jw_str(&jw, "thread_level_provided", in->thread_provided);
  jw_obj_end(&jw);
  jw_arr_begin(&jw, "hosts");
  for (int i = 0; i < in->n_hosts; i++) jw_str(&jw, NULL, in->hosts[i]);
  jw_arr_end(&jw);
  jw_int(&jw, "processes", in->processes);
  jw_int(&jw, "cores_online", in->cores_online);
  jw_bool(&jw, "oversubscribed", in->oversubscribed);
  sysinfo_write_placement(&jw, in);
  mpit_write_cvars(&jw);
  jw_obj_begin(&jw, "uname");
  jw_str(&jw, "sysname", in->sysname);
  jw_str(&jw, "release", in->release);
  jw_str(&jw, "version", in->version);
  jw_str(&jw, "machine", in->machine);
  jw_obj_end(&jw);
  jw_obj_begin(&jw, "timer");
  jw_str(&jw, "source", "clock_gettime(CLOCK_MONOTONIC)");
  jw_num(&jw, "overhead_ns", in->timer.overhead_ns);
  jw_num(&jw, "granularity_ns", in->timer.granularity_ns);
  jw_bool(&jw, "monotonic", in->timer.monotonic);
  jw_num(&jw, "mpi_wtick_s", in->mpi_wtick);
  jw_obj_end(&jw);
  jw_arr_begin(&jw, "load_average_before");
  for (int i = 0; i < 3; i++) jw_num(&jw, NULL, in->load_before[i]);
  jw_arr_end(&jw);
  write_options(in->opt);
  if (in->cpu_mflops > 0) jw_num(&jw, "cpu_exploit_mflops", in->cpu_mflops);
  jw_arr_begin(&jw, "benchmarks");
  for (int i = 0; i < in->n_benchmarks; i++) jw_str(&jw, NULL, in->benchmarks[i]->name);
  jw_arr_end(&jw);
  bench_facts_write_suite(&jw, "benchmark_facts", in->suite);
  jw_obj_end(&jw);
  jw_end_line(&jw);
}

static void json_table_begin(reporter_t *r, const table_info_t *t) {
  jw_obj_begin(&jw, NULL);
  jw_str(&jw, "type", "event");
  jw_str(&jw, "level", t->invalid ? "warning" : "info");
  jw_str(&jw, "kind", t->invalid ? "invalid_process_count" : "benchmark_start");
  char msg[256];
  if (t->invalid) snprintf(msg, sizeof(msg), "%s cannot run on %d processes", t->bench->name, t->np);
  else snprintf(msg, sizeof(msg), "%s on %d processes, %d group(s), %d sizes", t->bench->name, t->np, t->n_groups, t->n_sizes);
  jw_str(&jw, "message", msg);
  jw_str(&jw, "benchmark", t->bench->name);
  jw_int(&jw, "processes", t->np);
  jw_int(&jw, "groups", t->n_groups);
  jw_int(&jw, "sizes", t->invalid ? 0 : t->n_sizes);
  /* The one-sided suites' tables come in modes; a reader opening the table needs it. */
  if (t->mode >= 0) jw_str(&jw, "mode", t->mode ? "aggregate" : "non_aggregate");
  jw_obj_end(&jw);
  jw_end_line(&jw);
}

static const char *status_name(result_status_t s) {
  switch (s) {
    case ST_OK: return "ok";
    case ST_TIMEOUT: return "timeout";
    case ST_OUT_OF_MEMORY: return "out_of_memory";
    case ST_INT_OVERFLOW: return "int_overflow";
  }
  return "ok";
}

static void json_result(reporter_t *r, const result_t *res) {
  const table_info_t *t = res->table;
  int ok = res->status == ST_OK;
  jw_obj_begin(&jw, NULL);
  jw_str(&jw, "type", "result");
  jw_str(&jw, "benchmark", t->bench->name);
  jw_str(&jw, "suite", t->suite);
  jw_int(&jw, "processes", t->np);
  if (t->multi < 0) jw_null(&jw, "multi"); else jw_int(&jw, "multi", t->multi);
  jw_int(&jw, "groups", t->n_groups);
  if (t->mode < 0) jw_null(&jw, "mode"); else jw_str(&jw, "mode", t->mode ? "aggregate" : "non_aggregate");
  if (res->group < 0) jw_null(&jw, "group"); else jw_int(&jw, "group", res->group);
  jw_int(&jw, "bytes", (int64_t)res->bytes);
  jw_int(&jw, "count", (int64_t)res->count);
  jw_str(&jw, "datatype", res->datatype);
  jw_str(&jw, "status", status_name(res->status));
  if (ok) jw_int(&jw, "repetitions", res->repetitions); else jw_null(&jw, "repetitions");
  jw_num(&jw, "t_min_usec", ok ? res->t_min_us : NAN);
  jw_num(&jw, "t_max_usec", ok ? res->t_max_us : NAN);
  jw_num(&jw, "t_avg_usec", ok ? res->t_avg_us : NAN);
  jw_num(&jw, "mbytes_per_sec", ok ? res->mbytes_per_sec : NAN);
  jw_num(&jw, "msgs_per_sec", ok ? res->msgs_per_sec : NAN);
  if (ok && res->checked) jw_int(&jw, "defects", res->defects); else jw_null(&jw, "defects");
  if (!isnan(res->t_pure_us) && ok) {
    jw_obj_begin(&jw, "overlap");
    jw_num(&jw, "t_ovrl_usec", res->t_max_us);
    jw_num(&jw, "t_pure_usec", res->t_pure_us);
    jw_num(&jw, "t_cpu_usec", res->t_cpu_us);
    jw_num(&jw, "overlap_percent", res->overlap_pct);
    jw_num(&jw, "overlap_percent_max_denominator", res->overlap_pct_max);
    jw_int(&jw, "rank", res->ovrl_rank);
    jw_obj_end(&jw);
  } else {
    jw_null(&jw, "overlap");
  }
  jw_num(&jw, "needed_gb", res->status == ST_OUT_OF_MEMORY ? res->needed_gb : NAN);
  if (ok && res->dist.n > 0) {
    const summary_t *d = &res->dist;
    jw_obj_begin(&jw, "distribution");
    jw_int(&jw, "samples", d->n);
    jw_int(&jw, "batch_size", res->batch_size);
    jw_num(&jw, "median_usec", d->median);
    jw_num(&jw, "ci_low_usec", d->has_ci ? d->ci_low : NAN);
    jw_num(&jw, "ci_high_usec", d->has_ci ? d->ci_high : NAN);
    jw_num(&jw, "ci_level", d->ci_level);
    jw_num(&jw, "ci_coverage", d->has_ci ? d->ci_coverage : NAN);
    jw_num(&jw, "q1_usec", d->q1);
    jw_num(&jw, "q3_usec", d->q3);
    jw_num(&jw, "p5_usec", d->p5);
    jw_num(&jw, "p95_usec", d->p95);
    jw_num(&jw, "min_usec", d->min);
    jw_num(&jw, "max_usec", d->max);
    jw_obj_end(&jw);
    jw_arr_begin(&jw, "samples_ns");
    for (int i = 0; i < d->n; i++) jw_num(&jw, NULL, round(res->samples_ns[i] * 10.0) / 10.0);
    jw_arr_end(&jw);
  } else {
    jw_null(&jw, "distribution");
    jw_arr_begin(&jw, "samples_ns");
    jw_arr_end(&jw);
  }
  jw_obj_end(&jw);
  jw_end_line(&jw);
}

static void json_event(reporter_t *r, const event_t *ev) {
  jw_obj_begin(&jw, NULL);
  jw_str(&jw, "type", "event");
  jw_str(&jw, "level", ev->level);
  jw_str(&jw, "kind", ev->kind);
  jw_str(&jw, "message", ev->message);
  if (ev->benchmark) jw_str(&jw, "benchmark", ev->benchmark);
  if (ev->processes > 0) jw_int(&jw, "processes", ev->processes);
  if (ev->bytes >= 0) jw_int(&jw, "bytes", ev->bytes);
  jw_obj_end(&jw);
  jw_end_line(&jw);
}

static void json_run_end(reporter_t *r, const run_end_t *end) {
  jw_obj_begin(&jw, NULL);
  jw_str(&jw, "type", "end");
  jw_str(&jw, "status", end->complete ? "complete" : "incomplete");
  jw_num(&jw, "elapsed_s", end->elapsed_s);
  jw_int(&jw, "results", end->results);
  jw_arr_begin(&jw, "load_average_after");
  for (int i = 0; i < 3; i++) jw_num(&jw, NULL, end->load_after[i]);
  jw_arr_end(&jw);
  jw_obj_end(&jw);
  jw_end_line(&jw);
  fclose(out);
  out = NULL;
}

reporter_t *json_lines_reporter(const char *path, char *err, size_t errlen) {
  static reporter_t rep = {json_run_begin, json_table_begin, json_result, json_event, json_run_end, NULL};
  out = fopen(path, "w");
  if (!out) {
    snprintf(err, errlen, "cannot write the -json file '%s': %s; give a writable path", path, strerror(errno));
    return NULL;
  }
  jw_init(&jw, out);
  return &rep;
}
