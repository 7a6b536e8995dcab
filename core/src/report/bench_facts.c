/* The benchmark facts of bench_facts.h, derived from the registry rows. */
#include "report/bench_facts.h"
#include "suites/osu/osu_columns.h"

#include <math.h>
#include <mpi.h>
#include <string.h>

bench_layout_t bench_layout(const bench_desc *b, int multi) {
  switch (b->out) {
    case OUT_OVERLAP: return LAYOUT_OVERLAP;
    case OUT_OVERLAP_SYNC: return LAYOUT_OVERLAP_SYNC;
    case OUT_PURE_OVRL: return LAYOUT_PURE_OVRL;
    case OUT_P2P: return LAYOUT_P2P;
    case OUT_AVG_RATE: return LAYOUT_AVG_RATE;
    case OUT_AUTO: break;
  }
  switch (b->cls) {
    case CLASS_SYNC: return LAYOUT_SYNC;
    case CLASS_MSGRATE: return LAYOUT_RATE;
    case CLASS_SINGLE: return multi == 0 ? LAYOUT_RANGE_BW : LAYOUT_T_BW;
    case CLASS_PARALLEL: return LAYOUT_RANGE_BW;
    /* IMB-RMA's multiple transfers (One_put_all): t and MB/s of the one origin. */
    case CLASS_COLLECTIVE:
      return (b->flags & BF_BW_TARGETS) ? LAYOUT_T_BW : b->bw_scale > 0 ? LAYOUT_RANGE_BW : LAYOUT_RANGE;
  }
  return LAYOUT_RANGE;
}

const char *bench_layout_name(bench_layout_t k) {
  static const char *names[] = {"t_bw", "range_bw", "range", "sync", "rate", "overlap", "overlap_sync", "pure_ovrl",
                                 "p2p", "avg_rate"};
  return names[k];
}

int bench_layout_columns(bench_layout_t k, const char **cols) {
  int n = 0;
  if (k != LAYOUT_SYNC && k != LAYOUT_OVERLAP_SYNC) cols[n++] = "#bytes";
  cols[n++] = "#repetitions";
  switch (k) {
    case LAYOUT_T_BW:
      cols[n++] = "t[usec]";
      cols[n++] = "Mbytes/sec";
      break;
    case LAYOUT_RANGE_BW:
    case LAYOUT_RANGE:
    case LAYOUT_SYNC:
      cols[n++] = "t_min[usec]";
      cols[n++] = "t_max[usec]";
      cols[n++] = "t_avg[usec]";
      if (k == LAYOUT_RANGE_BW) cols[n++] = "Mbytes/sec";
      break;
    case LAYOUT_RATE:
      cols[n++] = "Mbytes/sec";
      cols[n++] = "Msg/sec";
      break;
    case LAYOUT_OVERLAP:
    case LAYOUT_OVERLAP_SYNC:
      cols[n++] = "t_ovrl[usec]";
      cols[n++] = "t_pure[usec]";
      cols[n++] = "t_CPU[usec]";
      cols[n++] = "overlap[%]";
      break;
    case LAYOUT_PURE_OVRL:
      cols[n++] = "t_pure[usec]";
      cols[n++] = "t_ovrl[usec]";
      break;
    case LAYOUT_P2P:
      cols[n++] = "t[usec]";
      cols[n++] = "Mbytes/sec";
      cols[n++] = "Msg/sec";
      break;
    case LAYOUT_AVG_RATE:
      cols[n++] = "t_avg[usec]";
      cols[n++] = "Mbytes/sec";
      cols[n++] = "Msg/sec";
      break;
  }
  return n;
}

int suite_runnable(const suite_desc *s) { return MPI_VERSION >= s->min_mpi_version; }

static const char *class_name(bench_class_t c) {
  switch (c) {
    case CLASS_SINGLE: return "single";
    case CLASS_PARALLEL: return "parallel";
    case CLASS_MSGRATE: return "msgrate";
    case CLASS_COLLECTIVE: return "collective";
    case CLASS_SYNC: return "sync";
  }
  return "collective";
}

static void write_layout(jw_t *w, const char *key, bench_layout_t k) {
  jw_str(w, key, bench_layout_name(k));
}

/* One benchmark; the rules are the engine's (engine.c: run_table, engine_run,
 * the bandwidth of a result) and the text reporter's (columns). */
static void write_bench(jw_t *w, const suite_desc *s, const bench_desc *b) {
  jw_obj_begin(w, NULL);
  jw_str(w, "name", b->name);
  jw_str(w, "comment", b->comment);
  jw_str(w, "class", class_name(b->cls));
  jw_bool(w, "default", (b->flags & BF_DEFAULT) != 0);
  bench_layout_t k = bench_layout(b, -1);
  write_layout(w, "layout", k);
  write_layout(w, "layout_multi0", bench_layout(b, 0));
  const char *cols[BENCH_MAX_COLUMNS];
  int n = bench_layout_columns(k, cols);
  jw_arr_begin(w, "columns");
  for (int i = 0; i < n; i++) jw_str(w, NULL, cols[i]);
  jw_arr_end(w);
  jw_num(w, "time_scale", b->time_scale);
  /* MB/s = factor * bytes / t_max_usec; "targets": the factor is processes - 1
   * under -imb_compat guide (bandwidth_factor under 2021, as IMB prints);
   * "window": factor * window_size * processes/2 messages of bytes per t_max. */
  jw_num(w, "bandwidth_factor", b->bw_scale > 0 ? b->bw_scale : NAN);
  /* "messages": messages sent in all * bytes / the slowest process's loop
   * (IMB-P2P); "thread_pairs": factor * bytes per thread * thread pairs / t_max
   * (IMB-MT's windowed). */
  jw_str(w, "bandwidth_rule", b->bw_scale <= 0 ? NULL
                              : b->out == OUT_P2P ? "messages"
                              : b->out == OUT_AVG_RATE ? "thread_pairs"
                              : b->cls == CLASS_MSGRATE ? "window"
                              : (b->flags & BF_BW_TARGETS) ? "targets" : "fixed");
  jw_bool(w, "reduction", (b->flags & BF_REDUCTION) != 0);
  jw_bool(w, "rooted", (b->flags & BF_HAS_ROOT) != 0);
  jw_bool(w, "overlap", (b->flags & BF_OVERLAP) != 0);
  jw_arr_begin(w, "modes");
  if (b->flags & BF_AGGREGATE) {
    jw_str(w, NULL, s->nonaggregate_first ? "non_aggregate" : "aggregate");
    jw_str(w, NULL, s->nonaggregate_first ? "aggregate" : "non_aggregate");
  }
  jw_arr_end(w);
  jw_bool(w, "checks_data", b->verify != NULL);
  int fixed = b->cls == CLASS_SINGLE;
  /* "world": one table on all processes, no sweep (IMB-P2P, IMB-MT). */
  jw_str(w, "process_counts", s->own_main ? "world" : fixed ? "fixed" : b->cls == CLASS_MSGRATE ? "even_sweep" : "sweep");
  if (fixed) jw_int(w, "fixed_processes", s->single_np > 0 ? s->single_np : 2);
  else jw_null(w, "fixed_processes");
  jw_str(w, "sizes", b->cls == CLASS_SYNC ? "none" : (b->flags & BF_SINGLE_ELEMENT) ? "one_element" : "sweep");
  /* What -imb_compat changes in this benchmark (engine.c, imb_text.c). */
  jw_arr_begin(w, "imb_compat");
  if (b->flags & BF_SPLIT_GUIDE) jw_str(w, NULL, "reduce_scatter");
  if ((b->flags & BF_OVERLAP) && strcmp(s->name, "io") != 0) jw_str(w, NULL, "overlap");  /* IMB-IO: min already */
  if (b->flags & BF_DISJOINT_GUIDE) jw_str(w, NULL, "disjoint");
  if (b->flags & BF_BW_TARGETS) jw_str(w, NULL, "bandwidth_targets");
  if (b->flags & BF_OVERLAP_ROOT_RR) jw_str(w, NULL, "overlap_root");
  jw_arr_end(w);
  jw_obj_end(w);
}

/* An OSU program: the fields of records/peers/osu.json, from the one table (osu_tests.c). */
static void write_osu_bench(jw_t *w, const bench_desc *b) {
  const osu_test_t *t = osu_test_of(b);
  int sized = 0;
  osu_column_t cols[OSU_MAX_COLUMNS];
  int n = osu_columns(t, NULL, cols, &sized);
  jw_obj_begin(w, NULL);
  jw_str(w, "name", b->name);
  jw_null(w, "comment");
  jw_str(w, "class", class_name(b->cls));
  jw_bool(w, "default", 1);
  jw_str(w, "layout", "osu");
  jw_str(w, "layout_multi0", "osu");
  jw_arr_begin(w, "columns");
  if (sized) jw_str(w, NULL, "Size");
  for (int i = 0; i < n; i++) jw_str(w, NULL, cols[i].header);
  jw_arr_end(w);
  jw_null(w, "time_scale");
  if (t->bandwidth) jw_int(w, "bandwidth_factor", t->bandwidth);
  else jw_null(w, "bandwidth_factor");
  jw_null(w, "bandwidth_rule");
  jw_bool(w, "reduction", t->reduction);
  jw_bool(w, "rooted", t->rooted);
  jw_bool(w, "overlap", t->looks_like == OSU_FAM_NBC);
  jw_arr_begin(w, "modes");
  jw_arr_end(w);
  jw_bool(w, "checks_data", sized);
  jw_str(w, "process_counts", t->fixed_processes ? "fixed" : "any");
  if (t->fixed_processes) jw_int(w, "fixed_processes", t->fixed_processes);
  else jw_null(w, "fixed_processes");
  jw_str(w, "sizes", sized ? "sweep" : "none");
  jw_arr_begin(w, "imb_compat");
  jw_arr_end(w);
  jw_str(w, "header", t->title);
  jw_str(w, "datatype", sized ? "MPI_CHAR" : "none");
  jw_bool(w, "blank_line_first", t->looks_like != OSU_FAM_ONESIDED && t->looks_like != OSU_FAM_MBW_MR &&
                                     t->looks_like != OSU_FAM_STARTUP);
  jw_bool(w, "datatype_line", sized && !(t->shape & OSU_SHAPE_NO_DATATYPE_LINE));
  /* Beyond peers/osu.json: whether this core runs it, and OSU's least process count. */
  jw_bool(w, "runs", t->family != OSU_FAM_NOT_RUN);
  jw_int(w, "min_processes", t->min_processes);
  jw_obj_end(w);
}

void bench_facts_write_suite(jw_t *w, const char *key, const suite_desc *s) {
  jw_obj_begin(w, key);
  jw_str(w, "name", s->name);
  jw_str(w, "title", s->title);
  jw_str(w, "kind", s->tool ? "tool" : s == &suite_osu ? "osu" : "imb");
  jw_bool(w, "runnable", suite_runnable(s));
  if (s->min_mpi_version > 0) {
    char v[16];
    snprintf(v, sizeof(v), "%d.0", s->min_mpi_version);
    jw_str(w, "needs_mpi", v);
  } else {
    jw_null(w, "needs_mpi");
  }
  jw_arr_begin(w, "benchmarks");
  for (int i = 0; i < s->n_benchmarks; i++) {
    if (s == &suite_osu) write_osu_bench(w, &s->benchmarks[i]);
    else write_bench(w, s, &s->benchmarks[i]);
  }
  jw_arr_end(w);
  jw_obj_end(w);
}

void bench_facts_print(FILE *f, const suite_desc *s) {
  jw_t w;
  jw_init(&w, f);
  jw_obj_begin(&w, NULL);
  jw_str(&w, "type", "benchmark_facts");
  jw_int(&w, "schema_version", 1);
  jw_obj_begin(&w, "tool");
  jw_str(&w, "name", "mpimark-core");
  jw_str(&w, "version", MPIMARK_VERSION);
  jw_obj_end(&w);
  jw_arr_begin(&w, "suites");
  if (s) {
    bench_facts_write_suite(&w, NULL, s);
  } else {
    for (int i = 0; suite_at(i); i++) bench_facts_write_suite(&w, NULL, suite_at(i));
  }
  jw_arr_end(&w);
  if (!s) {
    jw_arr_begin(&w, "tools");
    for (int i = 0; tool_suite_at(i); i++) bench_facts_write_suite(&w, NULL, tool_suite_at(i));
    jw_arr_end(&w);
  }
  jw_obj_end(&w);
  jw_end_line(&w);
}
