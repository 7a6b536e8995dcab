/* The JSON Lines stream of docs/results-format.md: one record per line,
 * flushed as soon as it is written so a killed run keeps what it finished. */
#include "report/reporter.h"
#include "engine/datatypes.h"
#include "report/records.h"
#include "engine/sysinfo.h"

#include <math.h>
#include <stdio.h>

static rec_file_t file;

static const char *bool_name(int v) { return v ? "on" : "off"; }

static void write_options(jw_t *w, const options_t *o) {
  jw_obj_begin(w, "options");
  jw_int(w, "npmin", o->npmin);
  if (o->multi < 0) jw_null(w, "multi"); else jw_int(w, "multi", o->multi);
  jw_bool(w, "off_cache", o->off_cache);
  jw_num(w, "off_cache_size_mb", o->off_cache ? (o->cache_size_mb < 0 ? 8.0 : o->cache_size_mb) : NAN);
  jw_int(w, "off_cache_line_bytes", o->cache_line > 0 ? o->cache_line : 64);
  jw_int(w, "msgspersample", o->msgspersample);
  jw_num(w, "overall_vol_mb", o->overall_vol_mb);
  jw_int(w, "msgs_nonaggr", o->msgs_nonaggr);
  jw_str(w, "iter_policy", iter_policy_name(o->iter_policy));
  jw_num(w, "time_s", o->time_secs);
  jw_num(w, "mem_gb", o->mem_gb);
  if (o->have_size_list) {
    jw_arr_begin(w, "msgsizes");
    for (int i = 0; i < o->n_sizes; i++) jw_int(w, NULL, (int64_t)o->sizes[i]);
    jw_arr_end(w);
    jw_str(w, "msglen", o->msglen_file[0] ? o->msglen_file : NULL);
    jw_null(w, "msglog");
  } else {
    jw_null(w, "msgsizes");
    jw_null(w, "msglen");
    char buf[32];
    snprintf(buf, sizeof(buf), "%d:%d", o->msglog_min, o->msglog_max);
    jw_str(w, "msglog", buf);
  }
  char map[48];
  snprintf(map, sizeof(map), "%dx%d", o->map_p, o->map_q);
  jw_str(w, "map", map);
  jw_str(w, "thread_level", thread_level_name(o->thread_level));
  jw_str(w, "root_shift", bool_name(o->root_shift));
  jw_str(w, "sync", sync_name(o->sync));
  jw_num(w, "ci_target", o->ci_target > 0 ? o->ci_target : NAN);
  jw_int(w, "min_samples", o->min_samples);
  jw_str(w, "imb_barrier", bool_name(o->imb_barrier));
  jw_str(w, "data_type", dtype_option_name(o->data_type));
  jw_str(w, "red_data_type", dtype_option_name(o->red_data_type));
  jw_str(w, "zero_size", bool_name(o->zero_size));
  jw_str(w, "warm_up", bool_name(o->warm_up));
  jw_int(w, "window_size", o->window_size);
  jw_int(w, "buffer_align", o->buffer_align);
  jw_str(w, "msg_pause", bool_name(o->msg_pause));
  jw_str(w, "check", bool_name(o->check));
  static const char *agg[] = {"multi", "aggregate", "non_aggregate"};
  jw_str(w, "aggregate_mode", agg[o->aggregate_mode]);
  jw_str(w, "imb_compat", imb_compat_name(o->imb_compat));
  jw_obj_end(w);
}

static void json_run_begin(reporter_t *r, const run_info_t *in) {
  jw_t *w = &file.jw;
  rec_run_begin(w, in, in->suite);
  if (in->write_options) in->write_options(w, in->options_ctx);
  else write_options(w, in->opt);
  if (in->cpu_mflops > 0) jw_num(w, "cpu_exploit_mflops", in->cpu_mflops);
  jw_arr_begin(w, "benchmarks");
  for (int i = 0; i < in->n_benchmarks; i++) jw_str(w, NULL, in->benchmarks[i]->name);
  jw_arr_end(w);
  rec_close(w);
}

static void json_table_begin(reporter_t *r, const table_info_t *t) {
  jw_t *w = &file.jw;
  jw_obj_begin(w, NULL);
  jw_str(w, "type", "event");
  jw_str(w, "level", t->invalid ? "warning" : "info");
  jw_str(w, "kind", t->invalid ? "invalid_process_count" : "benchmark_start");
  char msg[256];
  if (t->invalid) snprintf(msg, sizeof(msg), "%s cannot run on %d processes", t->bench->name, t->np);
  else snprintf(msg, sizeof(msg), "%s on %d processes, %d group(s), %d sizes", t->bench->name, t->np, t->n_groups, t->n_sizes);
  jw_str(w, "message", msg);
  jw_str(w, "benchmark", t->bench->name);
  jw_int(w, "processes", t->np);
  jw_int(w, "groups", t->n_groups);
  jw_int(w, "sizes", t->invalid ? 0 : t->n_sizes);
  /* The one-sided suites' tables come in modes; a reader opening the table needs it. */
  if (t->mode >= 0) jw_str(w, "mode", t->mode ? "aggregate" : "non_aggregate");
  if (t->threads > 0) jw_int(w, "threads", t->threads);
  if (t->grid) jw_str(w, "grid", t->grid);
  rec_close(w);
}

static void json_result(reporter_t *r, const result_t *res) {
  const table_info_t *t = res->table;
  int ok = res->status == ST_OK;
  rec_result_t rr = {.benchmark = t->bench->name, .suite = t->suite, .processes = t->np, .multi = t->multi,
                     .groups = t->n_groups, .with_mode = 1,
                     .mode = t->mode < 0 ? NULL : t->mode ? "aggregate" : "non_aggregate", .group = res->group};
  rec_result_figures(&rr, res);
  jw_t *w = &file.jw;
  rec_result_begin(&file, &rr);
  if (!isnan(res->t_pure_us) && ok) {
    jw_obj_begin(w, "overlap");
    jw_num(w, "t_ovrl_usec", res->t_max_us);
    jw_num(w, "t_pure_usec", res->t_pure_us);
    jw_num(w, "t_cpu_usec", res->t_cpu_us);
    jw_num(w, "overlap_percent", res->overlap_pct);
    jw_num(w, "overlap_percent_max_denominator", res->overlap_pct_max);
    jw_int(w, "rank", res->ovrl_rank);
    jw_obj_end(w);
  } else {
    jw_null(w, "overlap");
  }
  jw_num(w, "needed_gb", res->status == ST_OUT_OF_MEMORY ? res->needed_gb : NAN);
  if (t->threads > 0) jw_int(w, "threads", t->threads);
  if (t->window_size > 0) jw_int(w, "window_size", t->window_size);
  if (t->grid) jw_str(w, "grid", t->grid);
  /* Rigour beyond IMB: how the calls were separated, and what sampling did. */
  jw_str(w, "sync", res->sync_used);
  if (ok) jw_int(w, "loops", res->loops > 0 ? res->loops : 1);
  if (ok && res->wall_s > 0) jw_num(w, "wall_s", res->wall_s);
  if (ok && res->sync_used && res->invalid_samples >= 0) {
    jw_obj_begin(w, "window");
    jw_num(w, "window_usec", res->window_us);
    jw_int(w, "samples_attempted", res->repetitions * (res->loops > 0 ? res->loops : 1));
    jw_int(w, "invalid_samples", res->invalid_samples);
    if (per_rank_listed(res->n_rank_us)) {
      jw_arr_begin(w, "rank_median_usec");
      for (int i = 0; i < res->n_rank_us; i++) jw_num(w, NULL, res->rank_median_us ? res->rank_median_us[i] : NAN);
      jw_arr_end(w);
    } else { /* past the bound (sysinfo.h): the range, not one value per rank in every result */
      double lo = NAN, hi = NAN;
      for (int i = 0; res->rank_median_us && i < res->n_rank_us; i++) {
        double v = res->rank_median_us[i];
        if (!isnan(v) && (isnan(lo) || v < lo)) lo = v;
        if (!isnan(v) && (isnan(hi) || v > hi)) hi = v;
      }
      jw_arr_begin(w, "rank_median_usec_range");
      jw_num(w, NULL, lo);
      jw_num(w, NULL, hi);
      jw_arr_end(w);
    }
    jw_obj_end(w);
  }
  if (ok && res->ci_stop) {
    jw_obj_begin(w, "ci_target");
    jw_num(w, "target", res->ci_target);
    jw_num(w, "half_width", res->ci_half_width);
    jw_str(w, "stop", res->ci_stop);
    jw_obj_end(w);
  }
  for (int i = 0; i < res->n_extras; i++) {
    const result_extra_t *x = &res->extras[i];
    if (x->kind == 'n') jw_num(w, x->name, x->num);
    else if (x->kind == 'i') jw_int(w, x->name, x->integer);
    else jw_str(w, x->name, x->text);
  }
  rec_result_samples(w, res);
  rec_close(w);
}

static void json_event(reporter_t *r, const event_t *ev) { rec_event(&file.jw, ev); }

static void json_run_end(reporter_t *r, const run_end_t *end) { rec_file_end(&file, end); }

reporter_t *json_lines_reporter(const char *path, char *err, size_t errlen) {
  static reporter_t rep = {json_run_begin, json_table_begin, json_result, json_event, json_run_end, NULL};
  return rec_file_open(&file, path, err, errlen) == 0 ? &rep : NULL;
}
