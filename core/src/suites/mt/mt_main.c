/* mpimark-core mt [options] [benchmarks]: IMB-MT's program (docs/mt.md).
 * With -thread_level multiple every process runs OpenMP's threads (as many
 * as OMP_NUM_THREADS says), each on a duplicate of MPI_COMM_WORLD and its
 * own buffers, all running the same benchmark at once; otherwise one thread
 * on MPI_COMM_WORLD. The pair benchmarks time their loop as one after a
 * warm-up and a barrier; the collectives time every call and sum the
 * calls, with -barrier's barriers between calls. Rank 0 forms IMB-MT's
 * figures from every thread's time and hands the row to the reporters. */
#include "suites/mt/mt_main.h"
#include "engine/check.h"
#include "engine/comms.h"
#include "engine/datatypes.h"
#include "engine/finish.h"
#include "engine/sysinfo.h"
#include "suites/common/batched_loop.h"
#include "suites/common/own_suite.h"
#include "suites/mt/kernels_mt.h"
#include "suites/mt/mt_options.h"
#include "suites/mt/mt_plan.h"
#include "suites/mt/mt_run.h"
#include "util/policy.h"
#include "util/timer.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>  /* omp_get_max_threads */
#endif

#define CALL_BARRIERS 5   /* IMB-MT: barriers after every collective call */

static void usage(void) {
  printf("usage: mpimark-core mt [benchmark[,benchmark...]] [options]   (IMB-MT)\n\n"
         "IMB-MT's options:\n"
         "  -thread_level L       single | funneled | serialized | multiple | nompiinit (single);\n"
         "                        multiple runs OMP_NUM_THREADS threads per process\n"
         "  -count N,N,...        elements per message and thread (1,2,4,8)\n"
         "  -repeat N             timed iterations (1000)\n"
         "  -warmup N             untimed iterations first (100)\n"
         "  -window_size N        UniBandMT/BiBandMT messages in flight (64)\n"
         "  -stride N             pair distance (0: half the processes)\n"
         "  -barrier on|off|special  barriers between collective calls: MPI_Barrier, none, or\n"
         "                        IMB's dissemination barrier (on)\n"
         "  -malloc_align N       buffer alignment in bytes (64)\n"
         "  -malloc_algo A        serial | continuous | parallel: who allocates the threads' buffers (serial)\n"
         "  -check BOOL           verify the received data (off; int only)\n"
         "  -datatype int|char    element type (int)\n"
         "  -noheader             no title block\n"
         "  -input FILE           run the benchmarks FILE names (first word of a line; # comments;\n"
         "                        a blank line repeats the name before it), after those given\n"
         "  -include B,B / -exclude B,B   add to / remove from the list\n"
         "  -list                 the benchmarks (mpimark-core's list), -help\n\n"
         "mpimark options:\n"
         "  -json FILE            write the JSON Lines results stream to FILE\n");
}



static void write_options(jw_t *w, const void *ctx) {
  static const char *barrier[] = {"off", "on", "special"};
  static const char *algo[] = {"serial", "continuous", "parallel"};
  const mt_options_t *o = ctx;
  jw_obj_begin(w, "options");
  jw_arr_begin(w, "count");
  for (int i = 0; i < o->n_counts; i++) jw_int(w, NULL, o->counts[i]);
  jw_arr_end(w);
  jw_int(w, "repeat", o->repeat);
  jw_int(w, "warmup", o->warmup);
  jw_int(w, "window_size", o->window_size);
  jw_int(w, "stride", o->stride);
  jw_str(w, "barrier", barrier[o->barrier]);
  jw_int(w, "malloc_align", o->malloc_align);
  jw_str(w, "malloc_algo", algo[o->malloc_algo]);
  jw_str(w, "check", o->check ? "on" : "off");
  jw_str(w, "datatype", mt_datatype_name(o->datatype));
  jw_str(w, "thread_level", thread_level_name(o->thread_level));
  jw_obj_end(w);
}

/* -barrier: nothing, MPI_Barrier or IMB's dissemination barrier on
 * MPI_COMM_WORLD, by one thread while the process's others wait. */
static void barrier_between(const mt_run_t *m) {
  if (m->o->barrier == MT_BARRIER_OFF) return;
  int special = m->o->barrier == MT_BARRIER_SPECIAL;
  if (!m->multiple) {
    barriers(MPI_COMM_WORLD, 1, special);
    return;
  }
#pragma omp barrier
  if (mt_thread_id() == 0) barriers(MPI_COMM_WORLD, 1, special);
#pragma omp barrier
}

/* One size on one thread: IMB-MT's run_instance. */
static void run_thread(const mt_run_t *m, slot_t *s, const bench_desc *d, int count, long batch) {
  const mt_options_t *o = m->o;
  bench_ctx *c = &s->c;
  c->count = (size_t)count;
  c->n = count;
  c->bytes = (size_t)count * m->dt_size;
  int active = !(d->flags & BF_MT_PAIRS) || s->t.paired;
  if (o->check && d->verify) {
    fill_values(c->sbuf, c->dt, c->count, m->rank, 0);
    poison(c->rbuf, d->rbuf == BUF_2X ? 2 * c->bytes : c->bytes);
  }
  if (d->flags & BF_MT_EACH_CALL) {
    int64_t sum = 0;
    for (long i = 0; i < o->warmup + o->repeat; i++) {
      int64_t t0 = now_ns();
      d->run(c, i);
      int64_t t = now_ns() - t0;
      if (i >= o->warmup) {
        sum += t;
        s->samples[i - o->warmup] = (double)t;
      }
      if (d->cls != CLASS_SYNC)
        for (int k = 0; k < CALL_BARRIERS; k++) barrier_between(m);
    }
    s->time_s = (double)sum * 1e-9;
    s->result = 1;
  } else {
    if (active)
      for (long i = 0; i < o->warmup; i++) d->run(c, i);
    barrier_between(m);
    if (active) {
      s->time_s = (double)batched_loop(c, o->repeat, batch, s->samples) * 1e-9;
    } else {
      s->time_s = 0;
      memset(s->samples, 0, sizeof(double) * (size_t)batch_count(o->repeat, batch));
    }
    s->result = active;
  }
  s->defects = o->check && d->verify ? d->verify(c, 0) : 0;
}

/* Rank 0: IMB-MT's row. sums: time sum, min, max over every thread of
 * every process; nres: threads that took part. */
static void report_row(const mt_run_t *m, const table_info_t *ti, const bench_desc *d, int count,
                       const double *tsum, const double *tmin, const double *tmax, int nres, long defects,
                       double *samples, long n_samples, long batch) {
  const mt_options_t *o = m->o;
  double divider = 1.0 / d->time_scale * ((d->flags & BF_MT_WINDOW) ? o->window_size : 1);
  double avg = nres ? *tsum / nres : 0;
  avg = avg / o->repeat / divider;
  double lo = *tmin / o->repeat / divider, hi = *tmax / o->repeat / divider;
  size_t real_size = (size_t)count * m->dt_size * (size_t)m->threads;
  result_t res;
  memset(&res, 0, sizeof(res));
  res.table = ti;
  res.group = -1;
  res.bytes = real_size;
  res.count = (size_t)count;
  res.datatype = d->cls == CLASS_SYNC ? "none" : dtype_mpi_name(o->datatype, 0);
  res.status = ST_OK;
  res.repetitions = o->repeat;
  res.t_min_us = lo * 1e6;
  res.t_max_us = hi * 1e6;
  res.t_avg_us = avg * 1e6;
  res.mbytes_per_sec = res.msgs_per_sec = NAN;
  if (d->flags & BF_MT_WINDOW) {
    res.mbytes_per_sec = hi > 0 ? (double)real_size / m->threads * d->bw_scale * (nres / 2) / hi / 1e6 : 0;
    res.msgs_per_sec = avg > 0 ? (double)(int)((double)(nres / 2) / avg) : 0;
  } else if (d->bw_scale > 0) {
    res.mbytes_per_sec = hi > 0 ? (double)real_size * d->bw_scale / hi / 1e6 : 0;
  }
  res.t_pure_us = res.t_cpu_us = res.overlap_pct = res.overlap_pct_max = NAN;
  res.ovrl_rank = -1;
  res.checked = o->check && d->verify;
  res.defects = defects;
  res.invalid_samples = -1;
  res.loops = 1;
  res.ci_target = NAN;
  for (long b = 0; b < n_samples; b++) samples[b] /= divider;
  own_samples(&res, samples, n_samples, batch);
  report_result(&res);
}

/* One benchmark over every count; returns its defects, or -1 when the buffers could not be had, and
 * counts its rows. */
/* What every benchmark of the run needs (own_run's context). */
typedef struct {
  const mt_run_t *m;
  slot_t *slots;
} mt_ctx_t;

static long run_benchmark(void *ctx, const bench_desc *d, const int *ranks, long *rows) {
  const mt_run_t *m = ((mt_ctx_t *)ctx)->m;
  slot_t *slots = ((mt_ctx_t *)ctx)->slots;
  const mt_options_t *o = m->o;
  int pairs = (d->flags & BF_MT_PAIRS) != 0;
  static const int no_count[] = {0};
  const int *counts = d->cls == CLASS_SYNC ? no_count : o->counts;
  int n_counts = d->cls == CLASS_SYNC ? 1 : o->n_counts;
  table_info_t ti = {.suite = "mt", .bench = d, .n_groups = 1, .multi = -1, .group_ranks = ranks, .map_p = 1,
                     .map_q = 1, .n_sizes = n_counts, .mode = -1, .threads = m->threads,
                     .window_size = (d->flags & BF_MT_WINDOW) ? o->window_size : 0};
  ti.np = pairs ? mt_pair_ranks(m->np, o->stride) : m->np;
  ti.invalid = ti.np == 0;
  if (m->rank == 0) report_table_begin(&ti);
  if (ti.invalid) return 0;
  int max_count = 0;
  for (int i = 0; i < n_counts; i++) max_count = counts[i] > max_count ? counts[i] : max_count;
  size_t sbytes = (size_t)max_count * m->dt_size;
  size_t rbytes = d->rbuf == BUF_2X ? 2 * sbytes : sbytes;
  if (!own_buffers_ok(mt_alloc_buffers(m, slots, sbytes, rbytes) != 0, d->name,
                      (double)(sbytes + rbytes) * m->threads)) {
    for (int i = 0; i < m->threads; i++) {
      free(slots[i].block);
      slots[i].block = NULL;
    }
    return -1;
  }
  long each_call = (d->flags & BF_MT_EACH_CALL) != 0;
  long batch = each_call ? 1 : policy_batch(o->repeat, -1, 0, 0, 0);
  long n_samples = batch_count(o->repeat, batch);
  for (int i = 0; i < m->threads; i++) {
    slots[i].samples = malloc(sizeof(double) * (size_t)n_samples);
    slots[i].c.desc = d;
  }
  double *mine = malloc(sizeof(double) * (size_t)n_samples);
  double *worst = m->rank == 0 ? malloc(sizeof(double) * (size_t)n_samples) : NULL;
  long defects = 0;
  for (int k = 0; k < n_counts; k++) {
    if (m->multiple) {
#pragma omp parallel num_threads(m->threads)
      run_thread(m, &slots[mt_thread_id()], d, counts[k], batch);
    } else {
      run_thread(m, &slots[0], d, counts[k], batch);
    }
    double t[3] = {0, INFINITY, 0};
    int nres = 0;
    long bad = 0;
    for (long b = 0; b < n_samples; b++) mine[b] = 0;
    for (int i = 0; i < m->threads; i++) {
      t[0] += slots[i].time_s;
      t[1] = fmin(t[1], slots[i].time_s);
      t[2] = fmax(t[2], slots[i].time_s);
      nres += slots[i].result;
      bad += slots[i].defects;
      for (long b = 0; b < n_samples; b++) mine[b] = fmax(mine[b], slots[i].samples[b]);
    }
    double sum, lo, hi;
    MPI_Allreduce(&t[0], &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&t[1], &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&t[2], &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &nres, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(mine, worst, (int)n_samples, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (m->rank == 0) report_row(m, &ti, d, counts[k], &sum, &lo, &hi, nres, bad, worst, n_samples, batch);
    defects += bad;
    (*rows)++;
  }
  free(mine);
  free(worst);
  for (int i = 0; i < m->threads; i++) {
    free(slots[i].samples);
    free(slots[i].block);
    slots[i].block = NULL;
  }
  return defects;
}

/* The run list: names (or the defaults), plus -include, minus -exclude. */
static int build_list(const mt_options_t *o, const bench_desc **list, int *n, char *err, size_t errlen) {
  static const bench_desc *extra[MT_MAX_NAMES], *drop[MT_MAX_NAMES];
  int n_extra, n_drop;
  if (own_list(&suite_mt, o->names, o->n_names, list, n, err, errlen) ||
      (o->n_include && own_list(&suite_mt, o->include, o->n_include, extra, &n_extra, err, errlen)) ||
      (o->n_exclude && own_list(&suite_mt, o->exclude, o->n_exclude, drop, &n_drop, err, errlen)))
    return -1;
  for (int i = 0; i < o->n_include; i++) list[(*n)++] = extra[i];
  int k = 0;
  for (int i = 0; i < *n; i++) {
    int gone = 0;
    for (int j = 0; j < o->n_exclude; j++) gone |= drop[j] == list[i];
    if (!gone) list[k++] = list[i];
  }
  *n = k;
  if (k == 0) {
    snprintf(err, errlen, "no benchmark left to run; check -exclude");
    return -1;
  }
  return 0;
}

static const char *thread_name(int level) {
  static const char *names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                "MPI_THREAD_MULTIPLE"};
  return level >= 0 && level <= 3 ? names[level] : "unknown";
}

int mt_main(int argc, char **argv) {
  static mt_options_t o;
  char err[ERR_LEN] = {0};
  mt_options_defaults(&o);
  int parse_rc = mt_options_parse(&o, argc, argv, 2, err, sizeof(err));
  static const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE,
                               MPI_THREAD_SINGLE};
  int requested = levels[o.thread_level], provided = MPI_THREAD_SINGLE;
  if (o.thread_level == THREAD_NOMPIINIT) {
    MPI_Init(&argc, &argv);
    MPI_Query_thread(&provided);
  } else {
    MPI_Init_thread(&argc, &argv, requested, &provided);
  }
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (parse_rc != 0) return finish(rank, EXIT_BAD_INPUT, err);
  if (o.help) {
    if (rank == 0) usage();
    return finish(rank, 0, NULL);
  }
  if (provided < requested) {
    snprintf(err, sizeof(err), "the MPI library grants %s, below the -thread_level %s asked for; use a library "
             "built with thread support or a lower -thread_level", thread_name(provided),
             thread_level_name(o.thread_level));
    return finish(rank, EXIT_BAD_INPUT, err);
  }
  static const bench_desc *list[2 * MT_MAX_NAMES + 16];
  int n = 0;
  if (build_list(&o, list, &n, err, sizeof(err)) != 0) return finish(rank, EXIT_BAD_INPUT, err);
  if (own_reporters(imb_mt_text_reporter(), o.json_path, err, sizeof(err)) != 0)
    return finish(rank, EXIT_BAD_INPUT, err);

  mt_run_t m = {.o = &o, .multiple = o.thread_level == THREAD_MULTIPLE, .threads = 1, .rank = rank, .np = np};
#ifdef _OPENMP
  if (m.multiple) m.threads = omp_get_max_threads();
#endif
  m.type = o.datatype == DT_CHAR ? MPI_CHAR : MPI_INT;
  m.dt_size = dtype_size(o.datatype);
  slot_t *slots = calloc((size_t)m.threads, sizeof(slot_t));
  for (int i = 0; i < m.threads; i++) {
    slot_t *s = &slots[i];
    if (m.multiple) {
      /* IMB-MT: a communicator per thread, its number in the info key thread_id. */
      MPI_Info info;
      char id[16];
      MPI_Comm_dup(MPI_COMM_WORLD, &s->c.comm);
      MPI_Info_create(&info);
      snprintf(id, sizeof(id), "%d", i);
      MPI_Info_set(info, "thread_id", id);
      MPI_Comm_set_info(s->c.comm, info);
      MPI_Info_free(&info);
    } else {
      s->c.comm = MPI_COMM_WORLD;
    }
    s->c.rank = rank;
    s->c.np = np;
    s->c.dt = o.datatype;
    s->c.type = s->c.elem = m.type;
    s->c.op = MPI_SUM;
    s->c.s_slots = s->c.r_slots = 1;
    s->c.window = o.window_size;
    s->c.reqs = malloc(sizeof(MPI_Request) * 2 * (size_t)o.window_size);
    s->c.user = &s->t;
    s->t.paired = mt_pairs(rank, np, o.stride, &s->t.stride, &s->t.group);
    s->t.multiple = m.multiple;
  }

  static run_info_t info;
  host_share_t host;
  run_info_collect(&info, &host, argc, argv, thread_name(requested), thread_name(provided));
  info.suite = &suite_mt;
  info.benchmarks = list;
  info.n_benchmarks = n;
  info.write_options = write_options;
  info.options_ctx = &o;
  info.quiet_header = o.noheader;
  mt_ctx_t ctx = {.m = &m, .slots = slots};
  own_driver_t drv = {.run = run_benchmark, .ctx = &ctx, .defects_what = "received elements",
                      .too_big = "the largest -count"};
  int code = own_run(&info, rank, np, &drv, err, sizeof(err));
  for (int i = 0; i < m.threads; i++) {
    if (m.multiple) MPI_Comm_free(&slots[i].c.comm);
    free(slots[i].c.reqs);
  }
  free(slots);
  return finish(rank, code, err);
}
