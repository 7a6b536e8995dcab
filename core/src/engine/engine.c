#include "engine/engine.h"
#include "engine/buffers.h"
#include "engine/check.h"
#include "engine/comms.h"
#include "engine/datatypes.h"
#include "report/reporter.h"
#include "util/iterations.h"
#include "util/patterns.h"
#include "util/sizes.h"
#include "util/stats.h"
#include "util/timer.h"
#include "util/cpu_exploit.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N_BARR 2               /* barriers before every timed loop, as IMB */
#define BATCH_MIN_NS 10000.0   /* a batch lasts at least this long when it can ... */
#define MIN_BATCHES 50         /* ... but a measurement keeps at least this many samples */
#define MAX_SIZES 4096
#define SAMPLES_TAG 4242

/* Runs n iterations in batches of `batch`, one clock read per batch edge.
 * samples (if not NULL) receives each batch's per-iteration ns. Collectives
 * with -sync on take an untimed barrier after every call (batch is 1 then).
 * A benchmark with an assured completion gets it inside the timing: after
 * every iteration in non-aggregate mode, once after the loop in aggregate
 * mode (which is therefore a single batch). Returns the timed ns in all. */
static int64_t timed_loop(bench_ctx *c, long n, long batch, int barrier_each, double *samples) {
  const bench_desc *d = c->desc;
  if (d->loop) return d->loop(c, n, samples);
  int each = d->complete && c->aggregate != 1, at_end = d->complete && c->aggregate == 1;
  barriers(c->comm, N_BARR, c->opt->imb_barrier);
  int64_t total = 0;
  long b = 0;
  for (long i = 0; i < n; b++) {
    long k = n - i < batch ? n - i : batch;
    int64_t t0 = now_ns();
    for (long j = 0; j < k; j++) {
      d->run(c, i + j);
      if (each) d->complete(c);
    }
    if (at_end && i + k == n) d->complete(c);
    int64_t t1 = now_ns();
    if (samples) samples[b] = (double)(t1 - t0) / (double)k;
    total += t1 - t0;
    i += k;
    if (barrier_each) barriers(c->comm, 1, c->opt->imb_barrier);
  }
  return total;
}

/* The overlap protocol (IMB-NBC, IMB-IO nonblocking): every iteration starts
 * the operation, runs cpu_reps of CPU work, and waits (or finishes it); t_CPU
 * is the CPU part measured inside the same loop, as the user guide defines
 * it. An assured completion follows every iteration, as in timed_loop's
 * non-aggregate case, so t_ovrl and t_pure time the same work. */
static int64_t overlap_loop(bench_ctx *c, long n, long cpu_reps, double *samples, int64_t *cpu_ns) {
  barriers(c->comm, N_BARR, c->opt->imb_barrier);
  int64_t total = 0;
  *cpu_ns = 0;
  for (long i = 0; i < n; i++) {
    MPI_Request req;
    int64_t t0 = now_ns();
    c->desc->start(c, i, &req);
    int64_t c0 = now_ns();
    cpu_run(cpu_reps);
    int64_t c1 = now_ns();
    if (c->desc->finish) c->desc->finish(c, i, &req);
    else MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (c->desc->complete && c->aggregate != 1) c->desc->complete(c);
    int64_t t1 = now_ns();
    samples[i] = (double)(t1 - t0);
    total += t1 - t0;
    *cpu_ns += c1 - c0;
    /* IMB separates the calls by an untimed barrier, except for Ibarrier. */
    if (c->opt->sync && c->desc->cls != CLASS_SYNC) barriers(c->comm, 1, c->opt->imb_barrier);
  }
  return total;
}

static double allreduce_max(double v, MPI_Comm comm) {
  double out;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, comm);
  return out;
}

static int is_collective(const bench_desc *d) { return d->cls == CLASS_COLLECTIVE || d->cls == CLASS_SYNC; }

/* State that lives across the sizes of one (benchmark, process count). */
typedef struct {
  engine_t *e;
  const bench_desc *d;
  groups_t g;
  table_info_t table;
  iter_params_t ip;
  long n_prev;              /* dynamic policy: counts never grow with size */
  int first_size;
  double limit_s;
  int64_t t_start;
  int timed_out;
  int mode;                 /* -1 no modes, 1 aggregate, 0 non-aggregate */
} table_run_t;

/* What one rank measured at one size. */
typedef struct {
  long n_sample, batch;
  int n_batches;
  double *samples;          /* per batch, per-iteration ns (unscaled) */
  double mean_us;           /* per-iteration mean, scaled as reported */
  long defects;
  double wall_s;            /* the timed loop's duration, for -msg_pause */
  double t_pure_us, t_cpu_us; /* overlap protocol: this rank's means */
} measurement_t;

static void setup_ctx(bench_ctx *c, table_run_t *tr, size_t bytes) {
  const options_t *o = tr->e->opt;
  const bench_desc *d = tr->d;
  memset(c, 0, sizeof(*c));
  c->desc = d;
  c->opt = o;
  c->comm = tr->g.comm;
  MPI_Comm_rank(c->comm, &c->rank);
  MPI_Comm_size(c->comm, &c->np);
  int red = (d->flags & BF_REDUCTION) != 0;
  c->dt = red ? o->red_data_type : o->data_type;
  c->elem = dtype_mpi(c->dt, red);
  c->op = MPI_SUM;
  c->bytes = bytes;
  c->count = bytes / dtype_size(c->dt);
  c->root_shift = o->root_shift;
  c->window = o->window_size;
  c->aggregate = tr->mode;
  c->win = MPI_WIN_NULL;
  c->preq = MPI_REQUEST_NULL;
  c->type = c->elem;
  c->n = (int)(c->count <= INT_MAX ? c->count : 0);
  /* Large counts: reductions need MPI-4 calls (kernels use c->count then);
   * data movement travels as one block of X bytes. Displacements of the
   * v-collectives are ints too, so np*count must fit as well. */
  if (c->count > INT_MAX || (!red && (double)c->count * c->np > INT_MAX)) {
    c->large_count = 1;
    if (!red) {
      c->type = block_type(bytes);
      c->n = 1;
    }
  }
}

static void free_ctx(bench_ctx *c) {
  if (c->desc->teardown) c->desc->teardown(c);
  if (c->type != c->elem && c->type != MPI_DATATYPE_NULL) MPI_Type_free(&c->type);
  buffers_free(c);
}

/* Iterations for this size: IMB's policy, then its ~1 s time calibration. */
static long choose_iterations(table_run_t *tr, bench_ctx *c, long selected, double *t_iter) {
  const bench_desc *d = tr->d;
  int has_root = (d->flags & BF_HAS_ROOT) != 0;
  int sync = d->cls == CLASS_SYNC;
  int barrier_each = is_collective(d) && tr->e->opt->sync;
  *t_iter = -1;
  if (!iter_calibrates(&tr->ip, has_root)) return selected;
  if (tr->first_size || sync) tr->n_prev = tr->ip.msgspersample;
  double t1 = (double)timed_loop(c, 1, 1, barrier_each, NULL) * 1e-9;
  t1 = allreduce_max(t1, tr->g.active);
  long rep = iter_rep_test(&tr->ip, t1);
  long n = selected < rep ? selected : rep;
  double t = t1;
  if (n > 1) {
    t = (double)timed_loop(c, n, barrier_each ? 1 : n, barrier_each, NULL) * 1e-9 / (double)n;
    t = allreduce_max(t, tr->g.active);
  }
  *t_iter = t;
  long cap = iter_time_cap(t, tr->e->opt->time_secs, selected);
  long n_sample = selected < cap ? selected : cap;
  if (!(tr->e->opt->have_size_list && !sync) && tr->n_prev < n_sample) n_sample = tr->n_prev;
  tr->n_prev = n_sample;
  return n_sample;
}

static long choose_batch(const bench_desc *d, long n, double t_iter_s, int barrier_each, int aggregate) {
  if (d->loop) return 1;
  if (aggregate == 1) return n;
  if (barrier_each || t_iter_s <= 0) return barrier_each ? 1 : (n / MIN_BATCHES > 1 ? n / MIN_BATCHES : 1);
  long want = (long)ceil(BATCH_MIN_NS / (t_iter_s * 1e9));
  long cap = n / MIN_BATCHES;
  if (want > cap) want = cap;
  return want < 1 ? 1 : want;
}

/* -check: every iteration again, untimed, each receive area poisoned before
 * and compared with what must have arrived after. */
static long verify_all(bench_ctx *c, long n) {
  const bench_desc *d = c->desc;
  long bad = 0;
  barriers(c->comm, 1, 0);
  for (long i = 0; i < n; i++) {
    if (d->poison) d->poison(c, i);
    else if (c->r_len) poison(rbuf_at(c, i), c->r_len);
    d->run(c, i);
    if (d->complete) d->complete(c);
    bad += d->verify(c, i);
  }
  return bad;
}

/* After the pure measurement (m holds t_pure): CPU work calibrated to this
 * rank's t_pure, then the overlap loop, whose samples replace the pure ones. */
static void measure_overlap(table_run_t *tr, bench_ctx *c, measurement_t *m) {
  m->t_pure_us = m->mean_us;
  long reps = cpu_reps_for(m->mean_us * 1e-6, tr->e->cpu_reps_per_sec);
  int64_t cpu_ns;
  free(m->samples);
  m->batch = 1;
  m->n_batches = (int)m->n_sample;
  m->samples = malloc(sizeof(double) * (size_t)m->n_sample);
  int64_t total = overlap_loop(c, m->n_sample, reps, m->samples, &cpu_ns);
  m->mean_us = (double)total / (double)m->n_sample * 1e-3;
  m->t_cpu_us = (double)cpu_ns / (double)m->n_sample * 1e-3;
}

static void measure(table_run_t *tr, bench_ctx *c, long selected, measurement_t *m) {
  const bench_desc *d = tr->d;
  const options_t *o = tr->e->opt;
  int barrier_each = is_collective(d) && o->sync;
  double t_iter;
  m->n_sample = choose_iterations(tr, c, selected, &t_iter);
  c->n_sample = m->n_sample;
  if (o->warm_up) {
    long n_warm = iter_warmup(m->n_sample);
    if (n_warm > 0) {
      double tw = (double)timed_loop(c, n_warm, barrier_each ? 1 : n_warm, barrier_each, NULL) * 1e-9;
      if (t_iter < 0) t_iter = tw / (double)n_warm;
    }
  }
  t_iter = allreduce_max(t_iter, tr->g.active);
  m->batch = choose_batch(d, m->n_sample, t_iter, barrier_each, c->aggregate);
  m->n_batches = (int)((m->n_sample + m->batch - 1) / m->batch);
  m->samples = malloc(sizeof(double) * (size_t)m->n_batches);
  int64_t w0 = now_ns();
  int64_t total = timed_loop(c, m->n_sample, m->batch, barrier_each, m->samples);
  m->wall_s = (double)(now_ns() - w0) * 1e-9;
  m->mean_us = (double)total / (double)m->n_sample * 1e-3 * d->time_scale;
  m->t_pure_us = c->t_pure_us;
  if (d->flags & BF_OVERLAP) measure_overlap(tr, c, m);
  m->defects = (o->check && d->verify) ? verify_all(c, m->n_sample) : 0;
}

/* Per-process memory the size needs, in bytes, with the layout it would use. */
static double need_bytes(const bench_desc *d, int mode, size_t bytes, int np, const options_t *o, long n_sel,
                         layout_t *ls, layout_t *lr) {
  if ((d->flags & BF_DISJOINT) && mode == 1) {
    buffer_layout_disjoint(buffer_bytes(d->sbuf, bytes, np), n_sel, ls);
    buffer_layout_disjoint(buffer_bytes(d->rbuf, bytes, np), n_sel, lr);
  } else {
    buffer_layout(buffer_bytes(d->sbuf, bytes, np), o, n_sel, ls);
    buffer_layout(buffer_bytes(d->rbuf, bytes, np), o, n_sel, lr);
  }
  return (double)ls->alloc + (double)lr->alloc;
}

static void emit_event(const char *level, const char *kind, const char *msg, const table_run_t *tr, long long bytes) {
  event_t ev = {level, kind, msg, tr->d->name, tr->g.np, bytes};
  report_event(&ev);
}

/* On world rank 0: one result row from the gathered means and the batch maxima. */
/* means holds three doubles per world rank: the mean time per iteration as
 * reported (t_ovrl for the overlap protocol; -1 for idle ranks), t_pure, t_CPU. */
static void emit_result(table_run_t *tr, int group, size_t bytes, const double *means, const long *defects,
                        const measurement_t *m, double *samples_max) {
  const bench_desc *d = tr->d;
  const options_t *o = tr->e->opt;
  result_t r;
  memset(&r, 0, sizeof(r));
  r.table = &tr->table;
  r.group = group;
  r.bytes = bytes;
  int red = (d->flags & BF_REDUCTION) != 0;
  dtype_t dt = red ? o->red_data_type : o->data_type;
  r.count = bytes / dtype_size(dt);
  r.datatype = d->cls == CLASS_SYNC ? "none" : dtype_mpi_name(dt, red);
  r.status = ST_OK;
  r.repetitions = m->n_sample;
  int g0 = group < 0 ? 0 : group, g1 = group < 0 ? tr->g.n_groups : group + 1;
  double tmin = INFINITY, tmax = 0, tsum = 0;
  int cnt = 0, wmax = -1;
  for (int g = g0; g < g1; g++)
    for (int i = 0; i < tr->g.np; i++) {
      int w = tr->g.group_ranks[g * tr->g.np + i];
      double t = means[3 * w];
      /* An untimed rank (a passive target) still received data: its defects count. */
      r.defects += defects[w];
      if (t < 0) continue;
      tmin = t < tmin ? t : tmin;
      if (t >= tmax) {
        tmax = t;
        wmax = w;
      }
      tsum += t;
      cnt++;
    }
  r.t_min_us = cnt ? tmin : 0;
  r.t_max_us = tmax;
  r.t_avg_us = cnt ? tsum / cnt : 0;
  r.mbytes_per_sec = NAN;
  r.msgs_per_sec = NAN;
  r.t_pure_us = r.t_cpu_us = r.overlap_pct = r.overlap_pct_max = NAN;
  r.ovrl_rank = -1;
  if ((d->flags & BF_OVERLAP) && wmax >= 0) {
    /* The user guide: the figures of the process with the largest t_ovrl. */
    double to = means[3 * wmax], tp = means[3 * wmax + 1], tc = means[3 * wmax + 2];
    r.t_pure_us = tp;
    r.t_cpu_us = tc;
    r.ovrl_rank = wmax;
    double lo = tp < tc ? tp : tc, hi = tp > tc ? tp : tc, gain = tp + tc - to;
    r.overlap_pct = lo > 0 ? 100.0 * fmax(0.0, fmin(1.0, gain / lo)) : 0.0;
    r.overlap_pct_max = hi > 0 ? 100.0 * fmax(0.0, fmin(1.0, gain / hi)) : 0.0;
  }
  if (d->cls == CLASS_MSGRATE) {
    r.msgs_per_sec = tmax > 0 ? d->bw_scale * 1e6 * o->window_size * (tr->g.np / 2) / tmax : 0;
    r.mbytes_per_sec = r.msgs_per_sec * (double)bytes * 1e-6;
  } else if (d->bw_scale > 0) {
    double factor = (d->flags & BF_BW_TARGETS) ? tr->g.np - 1 : d->bw_scale;
    r.mbytes_per_sec = tmax > 0 ? factor * (double)bytes / tmax : 0;
  }
  if (d->out == OUT_PURE_OVRL && wmax >= 0) {
    /* Only origins are timed. As for the overlap protocol, both figures are
     * those of the origin with the largest t_ovrl (t_max), named by ovrl_rank;
     * with -multi 0 that is the worst group's origin. */
    r.ovrl_rank = wmax;
    r.t_pure_us = means[3 * wmax + 1];
  }
  r.checked = o->check && d->verify;
  for (int b = 0; b < m->n_batches; b++) samples_max[b] *= d->time_scale;
  double *us = malloc(sizeof(double) * (size_t)(m->n_batches + 1));
  for (int b = 0; b < m->n_batches; b++) us[b] = samples_max[b] * 1e-3;
  summarize(us, m->n_batches, 0.95, &r.dist);
  free(us);
  r.batch_size = m->batch;
  r.samples_ns = samples_max;
  report_result(&r);
  tr->e->results++;
  tr->e->defects += r.defects;
  if (r.checked && r.defects > 0) {
    char msg[256];
    snprintf(msg, sizeof(msg), "-check: %ld received elements of %s at %zu bytes differ from what was sent",
             r.defects, d->name, bytes);
    emit_event("error", "check_failed", msg, tr, (long long)bytes);
  }
}

static void emit_skipped(table_run_t *tr, size_t bytes, result_status_t st, double need_gb) {
  int groups = tr->table.multi == 1 ? tr->g.n_groups : 1;
  for (int g = 0; g < groups; g++) {
    result_t r;
    memset(&r, 0, sizeof(r));
    r.table = &tr->table;
    r.group = tr->table.multi == 1 ? g : -1;
    r.bytes = bytes;
    int red = (tr->d->flags & BF_REDUCTION) != 0;
    dtype_t dt = red ? tr->e->opt->red_data_type : tr->e->opt->data_type;
    r.count = bytes / dtype_size(dt);
    r.datatype = dtype_mpi_name(dt, red);
    r.status = st;
    r.needed_gb = need_gb;
    report_result(&r);
    tr->e->results++;
  }
}

/* One message size: decide, measure, gather, report. Collective over the world. */
static void run_size(table_run_t *tr, size_t bytes) {
  engine_t *e = tr->e;
  const options_t *o = e->opt;
  const bench_desc *d = tr->d;
  int wrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  int has_root = (d->flags & BF_HAS_ROOT) != 0;
  int aggregate = tr->mode != 0 && !(d->flags & BF_NONAGGR_ITERS);
  long selected = iter_select(&tr->ip, bytes, tr->g.np, has_root, d->cls == CLASS_SYNC, aggregate);
  layout_t ls, lr;
  double need = need_bytes(d, tr->mode, bytes, tr->g.np, o, selected, &ls, &lr);
  double need_gb = need / 1073741824.0;

  /* The verdict before anything is allocated: time-out (rank 0's clock),
   * -mem, the host's free memory, and counts the library cannot express. */
  int status = ST_OK;
  if (wrank == 0 && (tr->timed_out || (double)(now_ns() - tr->t_start) * 1e-9 > tr->limit_s)) status = ST_TIMEOUT;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int red = (d->flags & BF_REDUCTION) != 0;
  size_t count = bytes / dtype_size(red ? o->red_data_type : o->data_type);
  if (status == ST_OK && need_gb > o->mem_gb) status = ST_OUT_OF_MEMORY;
  int local_short = need * e->host.ranks_on_host > 0.9 * e->host.mem_available, any_short = 0;
  MPI_Allreduce(&local_short, &any_short, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (status == ST_OK && any_short) status = ST_OUT_OF_MEMORY;
  int large_ok = MPI_VERSION >= 4 && (d->flags & BF_LARGE_COUNT);
  if (status == ST_OK && red && count > INT_MAX && !large_ok) status = ST_INT_OVERFLOW;

  bench_ctx c;
  int alloc_failed = 0;
  int active = tr->g.group >= 0 && status == ST_OK;
  if (active) {
    setup_ctx(&c, tr, bytes);
    alloc_failed = buffers_alloc(&c, &ls, &lr) != 0;
  }
  int any_failed = 0;
  MPI_Allreduce(&alloc_failed, &any_failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (status == ST_OK && any_failed) {
    status = ST_OUT_OF_MEMORY;
    if (active) free_ctx(&c);
    active = 0;
  }
  /* Only once every rank has its buffers: a setup may be collective
   * (MPI_Win_create, MPI_*_init) and would wait for a rank that skips it. */
  if (active && d->setup) d->setup(&c);

  if (status != ST_OK) {
    if (wrank == 0) {
      char msg[320];
      if (status == ST_TIMEOUT && !tr->timed_out)
        snprintf(msg, sizeof(msg), "%s on %d processes: time limit of %.3g s reached at %zu bytes; the remaining sizes are skipped; raise -time",
                 d->name, tr->g.np, tr->limit_s, bytes);
      else if (status == ST_OUT_OF_MEMORY)
        snprintf(msg, sizeof(msg), "%s on %d processes at %zu bytes needs %.3f GB per process, more than -mem %.3g GB or the free memory allows",
                 d->name, tr->g.np, bytes, need_gb, o->mem_gb);
      else if (status == ST_INT_OVERFLOW)
        snprintf(msg, sizeof(msg), "%s at %zu bytes has more than INT_MAX elements and this MPI has no large-count reductions",
                 d->name, bytes);
      else msg[0] = 0;
      if (msg[0]) emit_event("warning", status == ST_TIMEOUT ? "timeout" : status == ST_OUT_OF_MEMORY ? "out_of_memory" : "int_overflow",
                             msg, tr, (long long)bytes);
      emit_skipped(tr, bytes, (result_status_t)status, need_gb);
    }
    if (status == ST_TIMEOUT) tr->timed_out = 1;
    e->skipped_sizes++;
    if (status == ST_OUT_OF_MEMORY) {
      e->oom_sizes++;
      if (need_gb > e->worst_need_gb) e->worst_need_gb = need_gb;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return;
  }

  measurement_t m;
  memset(&m, 0, sizeof(m));
  if (active) measure(tr, &c, selected, &m);
  tr->first_size = 0;

  /* Every rank learns the shape of the sample vector from group 0's leader
   * (all groups agreed on n_sample and batch through the active communicator). */
  int shape[2] = {m.n_batches, (int)m.n_sample};
  long batch = m.batch;
  MPI_Bcast(shape, 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&batch, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  int P;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  double mine[3] = {active && !c.untimed ? m.mean_us : -1.0, m.t_pure_us, m.t_cpu_us};
  long my_defects = active ? m.defects : 0;
  double *means = wrank == 0 ? malloc(sizeof(double) * 3 * (size_t)P) : NULL;
  long *defects = wrank == 0 ? malloc(sizeof(long) * (size_t)P) : NULL;
  MPI_Gather(mine, 3, MPI_DOUBLE, means, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Gather(&my_defects, 1, MPI_LONG, defects, 1, MPI_LONG, 0, MPI_COMM_WORLD);

  /* Distribution: per batch the slowest rank, over every group (a table of
   * the worst) or per group (-multi 1, sent to rank 0 by each group leader). */
  int nb = shape[0];
  double *maxes = malloc(sizeof(double) * (size_t)(nb > 0 ? nb : 1));
  measurement_t shown = {shape[1], batch, nb, NULL, 0, 0, 0, 0, 0};
  if (tr->table.multi == 1) {
    if (active) MPI_Reduce(m.samples, maxes, nb, MPI_DOUBLE, MPI_MAX, 0, tr->g.comm);
    int grank = -1;
    if (active) MPI_Comm_rank(tr->g.comm, &grank);
    if (active && grank == 0 && wrank != 0) MPI_Send(maxes, nb, MPI_DOUBLE, 0, SAMPLES_TAG, MPI_COMM_WORLD);
    if (wrank == 0) {
      for (int g = 0; g < tr->g.n_groups; g++) {
        if (g > 0)
          MPI_Recv(maxes, nb, MPI_DOUBLE, tr->g.group_ranks[g * tr->g.np], SAMPLES_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        emit_result(tr, g, bytes, means, defects, &shown, maxes);
      }
    }
  } else {
    if (active) MPI_Reduce(m.samples, maxes, nb, MPI_DOUBLE, MPI_MAX, 0, tr->g.active);
    if (wrank == 0) emit_result(tr, -1, bytes, means, defects, &shown, maxes);
  }
  free(maxes);
  free(means);
  free(defects);
  free(m.samples);
  if (active) free_ctx(&c);
  MPI_Barrier(MPI_COMM_WORLD);
  if (o->msg_pause) {
    double wall = 0;
    if (wrank == 0) wall = m.wall_s;
    MPI_Bcast(&wall, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    double pause = wall / 10 > 0.1 ? wall / 10 : 0.1;
    struct timespec ts = {(time_t)pause, (long)((pause - (double)(time_t)pause) * 1e9)};
    nanosleep(&ts, NULL);
  }
}

static void run_table(engine_t *e, const bench_desc *d, int np, int mode) {
  const options_t *o = e->opt;
  int wrank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  table_run_t tr;
  memset(&tr, 0, sizeof(tr));
  tr.e = e;
  tr.d = d;
  tr.table.suite = e->suite->name;
  tr.table.bench = d;
  tr.table.np = np;
  tr.table.multi = o->multi;
  tr.table.map_p = o->map_p;
  tr.table.map_q = o->map_q;
  tr.mode = mode;
  tr.table.mode = mode;
  int min_np = d->cls == CLASS_MSGRATE ? 2 : d->cls == CLASS_SINGLE ? (e->suite->single_np > 0 ? e->suite->single_np : 2) : 1;
  if (np > P || np < min_np) {
    tr.table.invalid = 1;
    if (wrank == 0) report_table_begin(&tr.table);
    return;
  }
  groups_create(&tr.g, np, o);
  tr.table.n_groups = tr.g.n_groups;
  tr.table.group_ranks = tr.g.group_ranks;
  tr.table.idle = tr.g.idle;

  int red = (d->flags & BF_REDUCTION) != 0;
  size_t unit = dtype_size(red ? o->red_data_type : o->data_type);
  static size_t sizes[MAX_SIZES];
  int n_sizes;
  if (d->cls == CLASS_SYNC) {
    sizes[0] = 0;
    n_sizes = 1;
  } else if (d->flags & BF_SINGLE_ELEMENT) {
    sizes[0] = unit;
    n_sizes = 1;
  } else {
    n_sizes = sizes_build(o, unit, sizes, MAX_SIZES);
  }
  tr.table.n_sizes = n_sizes;
  size_t largest = 0;
  for (int i = 0; i < n_sizes; i++) largest = sizes[i] > largest ? sizes[i] : largest;
  tr.ip.policy = o->iter_policy;
  tr.ip.msgspersample = o->msgspersample;
  tr.ip.msgs_nonaggr = o->msgs_nonaggr;
  tr.ip.overall_vol = o->overall_vol_mb * 1048576.0;
  tr.ip.max_msg_log = o->have_size_list ? log2_ceil(largest) : o->msglog_max;
  tr.ip.rep_test_cap = e->suite->rep_test_cap > 0 ? e->suite->rep_test_cap : 1000;
  tr.n_prev = o->msgspersample;
  tr.first_size = 1;
  tr.limit_s = o->have_size_list ? iter_time_limit(n_sizes, 0, 0, o->time_secs)
                                 : iter_time_limit(n_sizes, o->msglog_min, o->msglog_max, o->time_secs);
  if (wrank == 0) report_table_begin(&tr.table);
  tr.t_start = now_ns();
  for (int i = 0; i < n_sizes; i++) run_size(&tr, sizes[i]);
  groups_free(&tr.g);
}

void engine_prepare(engine_t *e, const bench_desc **list, int n) {
  for (int b = 0; b < n; b++)
    if (list[b]->flags & BF_OVERLAP) {
      e->cpu_reps_per_sec = cpu_calibrate(&e->cpu_mflops);
      return;
    }
}

void engine_run(engine_t *e, const bench_desc **list, int n) {
  int P;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  for (int b = 0; b < n; b++) {
    const bench_desc *d = list[b];
    int nps[64], count;
    if (d->cls == CLASS_SINGLE) {
      nps[0] = e->suite->single_np > 0 ? e->suite->single_np : 2;
      if (nps[0] > P) nps[0] = P;  /* reported as invalid for P processes, as IMB does */
      count = 1;
    } else {
      count = np_list(e->opt->npmin, P, d->cls == CLASS_MSGRATE, nps, 64);
      if (count == 0) {
        nps[0] = P;
        count = 1;
      }
    }
    /* IMB's scope: process counts, then modes, then sizes. */
    int modes[2], n_modes = 0;
    if (!(d->flags & BF_AGGREGATE)) modes[n_modes++] = -1;
    else {
      int first = e->suite->nonaggregate_first ? 0 : 1;
      if (e->opt->aggregate_mode != (first ? AGG_NONE : AGG_ONLY)) modes[n_modes++] = first;
      if (e->opt->aggregate_mode != (first ? AGG_ONLY : AGG_NONE)) modes[n_modes++] = !first;
    }
    for (int i = 0; i < count; i++)
      for (int k = 0; k < n_modes; k++) run_table(e, d, nps[i], modes[k]);
  }
}
