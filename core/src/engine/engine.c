#include "engine/engine.h"
#include "engine/buffers.h"
#include "engine/check.h"
#include "engine/datatypes.h"
#include "engine/selfcheck.h"
#include "report/reporter.h"
#include "util/cpu_exploit.h"
#include "util/iterations.h"
#include "util/patterns.h"
#include "util/policy.h"
#include "util/sizes.h"
#include "util/stats.h"
#include "util/strutil.h"
#include "util/timer.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N_BARR 2               /* barriers before every timed loop, as IMB */
#define MAX_SIZES 4096
#define SAMPLES_TAG 4242
#define WINDOW_CHUNK 50        /* -sync window: samples between two fresh common starts */

static int is_collective(const bench_desc *d) { return d->cls == CLASS_COLLECTIVE || d->cls == CLASS_SYNC; }
static int is_reduction(const bench_desc *d) { return (d->flags & BF_REDUCTION) != 0; }

/* State that lives across the sizes of one table. */
typedef struct {
  engine_t *e;
  const bench_desc *d;
  const table_plan_t *plan;
  const groups_t *g;
  table_info_t table;
  iter_params_t ip;
  long n_prev;              /* dynamic policy: counts never grow with size */
  int first_size;
  int64_t t_start;
  int timed_out;
  int failed;               /* a size was not measured (time-out, out-of-mem, int-overflow) */
  int untimed_barrier;      /* -sync on a collective: an untimed barrier after every call */
  int window;               /* -sync window on a collective: every call starts at a common time */
  /* World rank 0: rows whose clock intervals were under TIMER_RESOLUTION_FACTOR resolutions. */
  int short_rows;
  size_t short_first, short_last;
  double short_min_ns;
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
  int estimate_only;        /* ITERS_TIME_LIMITED: the estimate is the measurement */
  long invalid;             /* -sync window: samples a rank started late (dropped), else -1 */
  double window_ns;         /* -sync window: the window used */
  double rank_median_us;    /* -sync window: this rank's median end-minus-start of the valid samples */
  int ci_stop;              /* -ci_target: why sampling stopped (policy.h), 0: not used */
  double ci_half_width;     /* -ci_target: relative half-width reached */
  long loops;               /* how often the timed loop of n_sample iterations ran */
} measurement_t;

/* What is decided about one size before anything is allocated. */
typedef struct {
  size_t bytes;
  long selected;            /* iterations before calibration */
  layout_t ls, lr;
  double need_gb;           /* per process */
} size_plan_t;

/* ---- Timed loops ---- */

/* The barriers that start a timed loop: IMB's two on the group, or one on
 * the world where groups must start together (mpiBench). */
static void loop_start(const table_run_t *tr, bench_ctx *c) {
  if (tr->plan->world_sync) MPI_Barrier(MPI_COMM_WORLD);
  else barriers(c->comm, N_BARR, c->opt->imb_barrier);
}

/* The untimed end of a timed loop. Passive target (IMB-RMA): IMB ends every
 * benchmark call with MPI_Barrier, so a target waits there while its origins
 * put and flush. Without it the target would go on to the engine's next
 * collective (the calibration's MPI_Allreduce, the results' MPI_Bcast and
 * MPI_Gather) while an origin still needs it: Intel MPI's flush then waits
 * tens of milliseconds for the target's progress, which IMB never measures
 * (benchmarks/README.md, "RMA: the target's collective"). */
static void loop_end(const bench_ctx *c) {
  if (c->end_barrier) MPI_Barrier(c->comm);
}

/* One call of the kernel as the timing sees it: with -check inside the
 * timing the receive area is poisoned before and verified after, and a
 * timed barrier (mpiBench) follows the call. Returns the defects seen. */
static long timed_call(const table_run_t *tr, bench_ctx *c, long i) {
  const bench_desc *d = c->desc;
  int check = tr->plan->check_each && d->verify;
  if (check) {
    if (c->whole) buffers_refill_whole(c);
    else if (d->poison) d->poison(c, i);
    else if (c->r_len) poison(rbuf_at(c, i), c->r_len);
  }
  d->run(c, i);
  if (tr->plan->timed_barrier) MPI_Barrier(c->comm);
  if (!check) return 0;
  return d->verify(c, i) + (c->whole ? buffers_send_changed(c) : 0);
}

/* Runs n iterations in batches of `batch`, one clock read per batch edge.
 * samples (if not NULL) receives each batch's per-iteration ns. Collectives
 * with -sync on take an untimed barrier after every call (batch is 1 then).
 * A benchmark with an assured completion gets it inside the timing: after
 * every iteration in non-aggregate mode, once after the loop in aggregate
 * mode (which is therefore a single batch). Defects seen by -check inside
 * the timing are added to *defects. Returns the timed ns in all. */
static int64_t timed_loop(const table_run_t *tr, bench_ctx *c, long n, long batch, double *samples, long *defects) {
  const bench_desc *d = c->desc;
  if (d->loop) return d->loop(c, n, samples);
  int each = d->complete && c->aggregate != 1, at_end = d->complete && c->aggregate == 1;
  loop_start(tr, c);
  int64_t total = 0;
  long b = 0, bad = 0;
  for (long i = 0; i < n; b++) {
    long k = n - i < batch ? n - i : batch;
    int64_t t0 = now_ns();
    for (long j = 0; j < k; j++) {
      bad += timed_call(tr, c, i + j);
      if (each) d->complete(c);
    }
    if (at_end && i + k == n) d->complete(c);
    int64_t t1 = now_ns();
    if (samples) samples[b] = (double)(t1 - t0) / (double)k;
    total += t1 - t0;
    i += k;
    if (tr->untimed_barrier) barriers(c->comm, 1, c->opt->imb_barrier);
  }
  loop_end(c);
  if (defects) *defects += bad;
  return total;
}

/* The overlap protocol (IMB-NBC, IMB-IO nonblocking): every iteration starts
 * the operation, runs cpu_reps of CPU work, and waits (or finishes it); t_CPU
 * is the CPU part measured inside the same loop, as the user guide defines
 * it. An assured completion follows every iteration, as in timed_loop's
 * non-aggregate case, so t_ovrl and t_pure time the same work. */
static int64_t overlap_loop(bench_ctx *c, long n, long cpu_reps, double *samples, int64_t *cpu_ns) {
  /* IMB 2021's Ireduce passes i mod np as the overlap loop's root (its _pure loop: -root_shift's). */
  int root_shift = c->root_shift;
  if ((c->desc->flags & BF_OVERLAP_ROOT_RR) && c->opt->imb_compat != COMPAT_GUIDE) c->root_shift = 1;
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
  c->root_shift = root_shift;
  return total;
}

/* -check after the timing: n iterations again, untimed, each receive area
 * poisoned before and compared with what must have arrived after. */
static long verify_untimed(bench_ctx *c, long n) {
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

static double allreduce_max(double v, MPI_Comm comm) {
  double out;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, comm);
  return out;
}

/* ---- The bench context of a size ---- */

static void setup_ctx(bench_ctx *c, table_run_t *tr, size_t bytes) {
  const options_t *o = tr->e->opt;
  const bench_desc *d = tr->d;
  memset(c, 0, sizeof(*c));
  c->desc = d;
  c->opt = o;
  c->comm = tr->g->comm;
  MPI_Comm_rank(c->comm, &c->rank);
  MPI_Comm_size(c->comm, &c->np);
  int red = is_reduction(d);
  c->dt = red ? o->red_data_type : o->data_type;
  c->elem = dtype_mpi(c->dt, red);
  c->op = MPI_SUM;
  c->bytes = bytes;
  c->count = bytes / dtype_size(c->dt);
  c->root_shift = o->root_shift;
  c->window = o->window_size;
  c->aggregate = tr->plan->mode;
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

/* ---- Measuring one size ---- */

/* IMB: iterations for this size from the policy, then its ~1 s time calibration. */
static long choose_iterations(table_run_t *tr, bench_ctx *c, long selected, double *t_iter) {
  const bench_desc *d = tr->d;
  int has_root = (d->flags & BF_HAS_ROOT) != 0;
  int sync = d->cls == CLASS_SYNC;
  int barrier_each = tr->untimed_barrier;
  *t_iter = -1;
  if (!iter_calibrates(&tr->ip, has_root)) return selected;
  if (tr->first_size || sync) tr->n_prev = tr->ip.msgspersample;
  double t1 = (double)timed_loop(tr, c, 1, 1, NULL, NULL) * 1e-9;
  t1 = allreduce_max(t1, tr->g->active);
  long rep = iter_rep_test(&tr->ip, t1);
  long n = selected < rep ? selected : rep;
  double t = t1;
  if (n > 1) {
    t = (double)timed_loop(tr, c, n, barrier_each ? 1 : n, NULL, NULL) * 1e-9 / (double)n;
    t = allreduce_max(t, tr->g->active);
  }
  *t_iter = t;
  long cap = iter_time_cap(t, tr->e->opt->time_secs, selected);
  long n_sample = selected < cap ? selected : cap;
  if (!(tr->e->opt->have_size_list && !sync) && tr->n_prev < n_sample) n_sample = tr->n_prev;
  tr->n_prev = n_sample;
  return n_sample;
}

/* Per batch, the slowest rank's sample on every rank of the active communicator. */
static double *samples_max_all(const table_run_t *tr, const double *mine, int n) {
  double *all = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  MPI_Allreduce(mine, all, n, MPI_DOUBLE, MPI_MAX, tr->g->active);
  return all;
}

/* -sync window (reference/method.md §1.2, SKaMPI's SYNC_REAL, Netgauge):
 * the group's first rank picks a common start a millisecond ahead on the
 * global clock (clocksync.h); sample i starts at start + i * window; every
 * rank waits for it on its own corrected clock, runs one call and notes its
 * end. A rank that finds the start already past arrived late: the sample is
 * invalid everywhere (flags reduced after the loop, so nothing but the clock
 * runs between calls) and dropped. A sample is the rank's end minus the
 * common start; the slowest rank's is the row's sample. When more than a
 * quarter are invalid the window doubles and the loop runs again (SKaMPI),
 * at most three times. */
static int64_t window_loop(table_run_t *tr, bench_ctx *c, long n, double window_ns, int64_t *dur, int *late,
                           long *defects) {
  const bench_desc *d = c->desc;
  const clock_model_t *clk = &tr->e->clock;
  int each = d->complete != NULL;
  int64_t start0 = 0;
  int64_t total = 0;
  long bad = 0;
  for (long i = 0; i < n; i++) {
    /* A fresh common start every WINDOW_CHUNK samples: a rank descheduled
     * for longer than a window then spoils only the rest of its chunk. */
    long j = i % WINDOW_CHUNK;
    if (j == 0) {
      barriers(c->comm, 1, c->opt->imb_barrier);
      if (c->rank == 0) start0 = clock_to_global(clk, now_ns()) + 200000 + (int64_t)(4 * window_ns);
      MPI_Bcast(&start0, 1, MPI_INT64_T, 0, c->comm);
    }
    int64_t lstart = clock_to_local(clk, start0 + (int64_t)((double)j * window_ns));
    int64_t t = now_ns();
    late[i] = t >= lstart;
    while (t < lstart) t = now_ns();
    bad += timed_call(tr, c, i);
    if (each) d->complete(c);
    int64_t t1 = now_ns();
    dur[i] = t1 - lstart;
    total += dur[i];
  }
  if (defects) *defects += bad;
  return total;
}

/* One window loop of n samples (the window doubling while more than a
 * quarter arrive late, at most twice); the valid ones are appended to
 * m->samples (room for n more needed). Returns the invalid count. */
static long window_round(table_run_t *tr, bench_ctx *c, long n, double *w, measurement_t *m, double *sum) {
  int64_t *dur = malloc(sizeof(int64_t) * (size_t)n);
  int *late = malloc(sizeof(int) * (size_t)n), *late_any = malloc(sizeof(int) * (size_t)n);
  long invalid = 0;
  for (int attempt = 0; attempt < 3; attempt++) {
    window_loop(tr, c, n, *w, dur, late, &m->defects);
    loop_end(c);
    MPI_Allreduce(late, late_any, (int)n, MPI_INT, MPI_MAX, tr->g->active);
    invalid = 0;
    for (long i = 0; i < n; i++) invalid += late_any[i] != 0;
    if (4 * invalid <= n || attempt == 2) break;
    *w *= 2;
  }
  for (long i = 0; i < n; i++)
    if (!late_any[i]) {
      m->samples[m->n_batches++] = (double)dur[i];
      *sum += (double)dur[i];
    }
  free(dur);
  free(late);
  free(late_any);
  return invalid;
}

/* -ci_target: whether sampling stops here (the median's CI narrow enough,
 * -time spent, or no room under CI_MAX_SAMPLES), decided on every rank at
 * once (the strictest rank's answer); records the width and the reason. */
static int ci_target_reached(table_run_t *tr, measurement_t *m, int64_t w0, int room) {
  const options_t *o = tr->e->opt;
  double *all = samples_max_all(tr, m->samples, m->n_batches);
  double hw;
  int r = policy_ci_stop(all, m->n_batches, o->ci_target, (double)(now_ns() - w0) * 1e-9, o->time_secs, room,
                         &hw);
  free(all);
  int rmax;
  MPI_Allreduce(&r, &rmax, 1, MPI_INT, MPI_MAX, tr->g->active);
  m->ci_half_width = hw;
  if (rmax == CI_CONTINUE) return 0;
  m->ci_stop = rmax;
  return 1;
}

/* Room in m->samples for `more` samples beyond those held (*cap: its size). */
static void room_for(measurement_t *m, int *cap, int more) {
  if (m->n_batches + more <= *cap) return;
  *cap = 2 * (m->n_batches + more);
  m->samples = realloc(m->samples, sizeof(double) * (size_t)*cap);
}

/* -sync window's samples; with -ci_target more rounds of n samples until
 * the median's CI (of the valid samples, slowest rank per sample) is
 * narrow enough, -time is spent or CI_MAX_SAMPLES, as measure_samples. */
static void measure_window(table_run_t *tr, bench_ctx *c, double t_iter, measurement_t *m) {
  const options_t *o = tr->e->opt;
  long n = m->n_sample;
  double w = policy_window_ns(t_iter * 1e9, tr->e->clock.max_bound_ns);
  MPI_Bcast(&w, 1, MPI_DOUBLE, 0, tr->g->active);
  int64_t w0 = now_ns();
  int cap = (int)n;
  m->samples = malloc(sizeof(double) * (size_t)(cap > 0 ? cap : 1));
  m->n_batches = 0;
  double sum = 0;
  long invalid = window_round(tr, c, n, &w, m, &sum), loops = 1;
  while (o->ci_target > 0 && !ci_target_reached(tr, m, w0, (int)(CI_MAX_SAMPLES - n))) {
    room_for(m, &cap, (int)n);
    invalid += window_round(tr, c, n, &w, m, &sum);
    loops++;
  }
  m->wall_s = (double)(now_ns() - w0) * 1e-9;
  m->batch = 1;
  m->loops = loops;
  int k = m->n_batches;
  m->mean_us = k ? sum / k * 1e-3 * tr->d->time_scale : 0;
  m->invalid = invalid;
  m->window_ns = w;
  m->rank_median_us = NAN;
  if (k) {
    double *x = malloc(sizeof(double) * (size_t)k);
    memcpy(x, m->samples, sizeof(double) * (size_t)k);
    summary_t s;
    summarize(x, k, 0.95, &s);
    free(x);
    m->rank_median_us = s.median * 1e-3 * tr->d->time_scale;
  }
}

/* The timed loop of n_sample iterations in batches, every batch a sample;
 * one loop, as IMB, by default: the interval of a comparison comes from
 * several launches (docs/analysis.md), not from more loops in one.
 * -min_samples N repeats the whole loop, IMB's definition unchanged (each
 * loop's mean per iteration, its completion included), until N samples
 * exist within -time (policy_repeats); -ci_target then repeats it until the
 * median's 95 % CI is narrow enough, -time ends, or CI_MAX_SAMPLES. n_sample
 * counts every timed iteration; IMB's figures are the mean over all. */
static void measure_samples(table_run_t *tr, bench_ctx *c, double t_iter, measurement_t *m) {
  const options_t *o = tr->e->opt;
  m->invalid = -1;
  if (tr->window && tr->e->clock.valid) {
    measure_window(tr, c, t_iter, m);
    return;
  }
  m->batch = policy_batch(m->n_sample, t_iter, tr->d->loop != NULL, tr->untimed_barrier, c->aggregate);
  long n = m->n_sample;
  int per_loop = (int)((n + m->batch - 1) / m->batch);
  int cap = per_loop;
  m->samples = malloc(sizeof(double) * (size_t)cap);
  int64_t w0 = now_ns();
  int64_t total = timed_loop(tr, c, n, m->batch, m->samples, &m->defects);
  m->n_batches = per_loop;
  long loops = 1, want = 1;
  int adaptive = o->ci_target > 0;
  if (per_loop < o->min_samples) {
    double loop_s = allreduce_max((double)(now_ns() - w0) * 1e-9, tr->g->active);
    want = policy_repeats(per_loop, o->min_samples, loop_s, o->time_secs);
  }
  for (;;) {
    if (loops >= want && !adaptive) break;
    if (loops >= want && adaptive && ci_target_reached(tr, m, w0, CI_MAX_SAMPLES - per_loop)) break;
    room_for(m, &cap, per_loop);
    total += timed_loop(tr, c, n, m->batch, m->samples + m->n_batches, &m->defects);
    m->n_batches += per_loop;
    loops++;
  }
  m->loops = loops;
  m->wall_s = (double)(now_ns() - w0) * 1e-9;
  m->mean_us = (double)total / ((double)n * (double)loops) * 1e-3 * tr->d->time_scale;
}

/* IMB: calibration, warm-up, the timed loop. */
static void measure_imb(table_run_t *tr, bench_ctx *c, long selected, measurement_t *m) {
  const options_t *o = tr->e->opt;
  double t_iter;
  m->n_sample = choose_iterations(tr, c, selected, &t_iter);
  c->n_sample = m->n_sample;
  if (o->warm_up) {
    long n_warm = iter_warmup(m->n_sample);
    if (n_warm > 0) {
      double tw = (double)timed_loop(tr, c, n_warm, tr->untimed_barrier ? 1 : n_warm, NULL, NULL) * 1e-9;
      if (t_iter < 0) t_iter = tw / (double)n_warm;
    }
  }
  measure_samples(tr, c, allreduce_max(t_iter, tr->g->active), m);
}

/* mpiBench: one priming call, the estimate over ITER_ESTIMATE calls, the
 * count from world rank 0's estimate, then the timed loop; or the estimate
 * itself (its calls are the samples) when the count is ITER_ESTIMATE or less. */
static void measure_time_limited(table_run_t *tr, bench_ctx *c, measurement_t *m) {
  engine_t *e = tr->e;
  timed_loop(tr, c, 1, 1, NULL, &m->defects);
  double *est = malloc(sizeof(double) * ITER_ESTIMATE);
  int64_t total = timed_loop(tr, c, ITER_ESTIMATE, 1, est, &m->defects);
  double plan[2] = {(double)total * 1e-3 / ITER_ESTIMATE, 0};
  plan[1] = (double)iter_time_limited(e->max_iters, e->time_limit_us, plan[0]);
  MPI_Bcast(plan, 2, MPI_DOUBLE, 0, tr->g->active);
  long iters = (long)plan[1];
  if (iters > ITER_ESTIMATE) {
    free(est);
    m->n_sample = c->n_sample = iters;
    measure_samples(tr, c, plan[0] * 1e-6, m);
    return;
  }
  m->estimate_only = 1;
  m->n_sample = c->n_sample = ITER_ESTIMATE;
  m->batch = 1;
  m->n_batches = ITER_ESTIMATE;
  m->samples = est;
  m->mean_us = (double)total * 1e-3 / ITER_ESTIMATE * tr->d->time_scale;
}

/* Iterations of measure_overlap's untimed loop that sizes the CPU work. */
#define OVERLAP_PROBE 50

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
  /* The kernel runs slower in short bursts between MPI calls than in
   * cpu_calibrate's long runs: t_CPU came out ~1.18 x t_pure where the user
   * guide sizes it to t_pure (benchmarks/README.md, "NBC: the CPU work inside
   * t_ovrl"). Untimed overlap loops of a few iterations measure the work
   * where it runs and rescale the count; the cost of a burst does not scale
   * with the count, so a second pass corrects the first. Not for IO (a
   * finish function): it would write the file before the timed loop does. */
  long probe = m->n_sample < OVERLAP_PROBE ? m->n_sample : OVERLAP_PROBE;
  for (int pass = 0; pass < 2 && !tr->d->finish && probe > 0; pass++) {
    overlap_loop(c, probe, reps, m->samples, &cpu_ns);
    double ran_us = (double)cpu_ns / (double)probe * 1e-3;
    if (ran_us > 0) reps = cpu_reps_for(m->t_pure_us / ran_us * (double)reps, 1.0);
  }
  int64_t total = overlap_loop(c, m->n_sample, reps, m->samples, &cpu_ns);
  m->mean_us = (double)total / (double)m->n_sample * 1e-3;
  m->t_cpu_us = (double)cpu_ns / (double)m->n_sample * 1e-3;
}

static void measure(table_run_t *tr, bench_ctx *c, long selected, measurement_t *m) {
  const bench_desc *d = tr->d;
  int limited = tr->e->iter_mode == ITERS_TIME_LIMITED;
  if (limited) measure_time_limited(tr, c, m);
  else measure_imb(tr, c, selected, m);
  m->t_pure_us = c->t_pure_us;
  if (d->flags & BF_OVERLAP) measure_overlap(tr, c, m);
  /* -check after the timing: every iteration again (IMB), or one call (mpiBench -c). */
  if (tr->e->opt->check && d->verify && !tr->plan->check_each)
    m->defects += verify_untimed(c, limited ? 1 : m->n_sample);
}

/* ---- Deciding, allocating, skipping ---- */

static void emit_event(const char *level, const char *kind, const char *msg, const table_run_t *tr, long long bytes) {
  event_t ev = {level, kind, msg, tr->d->name, tr->g->np, bytes, 0};
  report_event(&ev);
}

static size_t count_of(const table_run_t *tr, size_t bytes) {
  const options_t *o = tr->e->opt;
  return bytes / dtype_size(is_reduction(tr->d) ? o->red_data_type : o->data_type);
}

static void plan_size(table_run_t *tr, size_t bytes, size_plan_t *sp) {
  const bench_desc *d = tr->d;
  int has_root = (d->flags & BF_HAS_ROOT) != 0;
  int aggregate = tr->plan->mode != 0 && !(d->flags & BF_NONAGGR_ITERS);
  sp->bytes = bytes;
  sp->selected = iter_select(&tr->ip, bytes, tr->g->np, has_root, d->cls == CLASS_SYNC, aggregate);
  const options_t *o = tr->e->opt;
  /* -imb_compat 2021: EXT's aggregate transfers all target displacement 0, as
   * IMB's do; the guide's disjoint sections are -imb_compat guide. */
  int guide_only = (d->flags & BF_DISJOINT_GUIDE) && o->imb_compat != COMPAT_GUIDE;
  int disjoint = (d->flags & BF_DISJOINT) && tr->plan->mode == 1 && !guide_only;
  /* Reduce_scatter as IMB 2019+: every rank receives X bytes of an np·X vector. */
  bufsize_t sbuf = (d->flags & BF_SPLIT_GUIDE) && o->imb_compat != COMPAT_GUIDE ? BUF_NP_X : d->sbuf;
  double need = policy_need_bytes(sbuf, d->rbuf, disjoint, bytes, tr->g->np, o, sp->selected, &sp->ls, &sp->lr);
  sp->need_gb = need / 1073741824.0;
}

/* The verdict before anything is allocated, the same on every rank: the
 * time-out (rank 0's clock), -mem, the hosts' free memory, and counts the
 * library cannot express. */
static result_status_t size_verdict(table_run_t *tr, const size_plan_t *sp) {
  const engine_t *e = tr->e;
  int wrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  int status = ST_OK;
  if (wrank == 0 && (tr->timed_out || (double)(now_ns() - tr->t_start) * 1e-9 > tr->plan->limit_s))
    status = ST_TIMEOUT;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  mem_verdict_t mem = policy_memory(sp->need_gb * 1073741824.0, e->opt->mem_gb, e->host.ranks_on_host,
                                    e->host.mem_available);
  int local_short = mem == MEM_HOST_SHORT, any_short = 0;
  MPI_Allreduce(&local_short, &any_short, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (status == ST_OK && (mem == MEM_OVER_LIMIT || any_short)) status = ST_OUT_OF_MEMORY;
  int large_ok = MPI_VERSION >= 4 && (tr->d->flags & BF_LARGE_COUNT);
  if (status == ST_OK && is_reduction(tr->d) && count_of(tr, sp->bytes) > INT_MAX && !large_ok)
    status = ST_INT_OVERFLOW;
  return (result_status_t)status;
}

/* Buffers and the benchmark's setup on the ranks that take part; an
 * allocation failure anywhere makes the size out-of-memory everywhere.
 * *active says whether c is set up (and must be freed). */
static result_status_t prepare_size(table_run_t *tr, const size_plan_t *sp, bench_ctx *c, int *active) {
  int failed = 0, any_failed = 0;
  *active = tr->g->group >= 0;
  if (*active) {
    setup_ctx(c, tr, sp->bytes);
    layout_t ls = sp->ls, lr = sp->lr;
    if (tr->plan->check_each && tr->d->verify) c->whole = tr->plan->check_whole;
    buffers_grow(&ls, &lr, c->whole);
    failed = buffers_alloc(c, &ls, &lr) != 0 || buffers_send_reference(c) != 0;
  }
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (any_failed) {
    if (*active) free_ctx(c);
    *active = 0;
    return ST_OUT_OF_MEMORY;
  }
  /* Only once every rank has its buffers: a setup may be collective
   * (MPI_Win_create, MPI_*_init) and would wait for a rank that skips it. */
  if (*active && tr->d->setup) tr->d->setup(c);
  return ST_OK;
}

static void emit_skipped_rows(table_run_t *tr, size_t bytes, result_status_t st, double need_gb) {
  int groups = tr->table.multi == 1 ? tr->g->n_groups : 1;
  int red = is_reduction(tr->d);
  dtype_t dt = red ? tr->e->opt->red_data_type : tr->e->opt->data_type;
  for (int g = 0; g < groups; g++) {
    result_t r;
    memset(&r, 0, sizeof(r));
    r.table = &tr->table;
    r.group = tr->table.multi == 1 ? g : -1;
    r.bytes = bytes;
    r.count = count_of(tr, bytes);
    r.datatype = dtype_mpi_name(dt, red);
    r.status = st;
    r.needed_gb = need_gb;
    report_result(&r);
    tr->e->results++;
  }
}

/* A size that is not measured: rank 0 says why and reports the rows. */
static void skip_size(table_run_t *tr, const size_plan_t *sp, result_status_t status) {
  engine_t *e = tr->e;
  const char *name = tr->d->name;
  int wrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  if (wrank == 0) {
    char msg[320];
    if (status == ST_TIMEOUT && !tr->timed_out)
      snprintf(msg, sizeof(msg), "%s on %d processes: time limit of %.3g s reached at %zu bytes; the benchmark ends here, as in IMB; raise -time",
               name, tr->g->np, tr->plan->limit_s, sp->bytes);
    else if (status == ST_OUT_OF_MEMORY)
    {
      char need[32];
      snprintf(msg, sizeof(msg), "%s on %d processes at %zu bytes needs %s per process, more than -mem %.3g GB or the free memory allows; the benchmark ends here, as in IMB",
               name, tr->g->np, sp->bytes, str_gigabytes(sp->need_gb, need, sizeof(need)), e->opt->mem_gb);
    }
    else if (status == ST_INT_OVERFLOW)
      snprintf(msg, sizeof(msg), "%s at %zu bytes has more than INT_MAX elements and this MPI has no large-count reductions",
               name, sp->bytes);
    else msg[0] = 0;
    if (msg[0]) emit_event("warning", status == ST_TIMEOUT ? "timeout" : status == ST_OUT_OF_MEMORY ? "out_of_memory" : "int_overflow",
                           msg, tr, (long long)sp->bytes);
    emit_skipped_rows(tr, sp->bytes, status, sp->need_gb);
  }
  if (status == ST_TIMEOUT) tr->timed_out = 1;
  tr->failed = 1;
  e->skipped_sizes++;
  if (status == ST_OUT_OF_MEMORY) {
    e->oom_sizes++;
    if (sp->need_gb > e->worst_need_gb) e->worst_need_gb = sp->need_gb;
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- Gathering and reporting one size ---- */

/* What rank 0 holds after the gather: three doubles per world rank (the
 * mean time per iteration as reported, t_ovrl for the overlap protocol, -1
 * for untimed ranks; t_pure; t_CPU) and every rank's defects. */
typedef struct {
  double *means;
  long *defects;
  long n_sample, batch;
  int n_batches;
  int estimate_only;
  long invalid, loops;
  double window_ns, ci_half_width;
  double wall_s;            /* the timed loops' wall time on world rank 0 (all repeats) */
  int ci_stop;
  double *rank_median;      /* -sync window: every world rank's median end-minus-start (us) */
} gathered_t;

/* The median sample as the clock saw it (one interval per batch, before the
 * benchmark's time scale) against the timer's resolution: noted for the
 * table's warning (warn_timer_limited). */
static void note_timer_limited(table_run_t *tr, size_t bytes, const summary_t *dist, long batch) {
  double res = tr->e->timer_resolution_ns;
  if (res <= 0 || dist->n <= 0 || tr->d->time_scale <= 0) return;
  double interval_ns = dist->median * 1e3 / tr->d->time_scale * (double)(batch > 0 ? batch : 1);
  if (interval_ns >= TIMER_RESOLUTION_FACTOR * res) return;
  if (tr->short_rows == 0 || bytes < tr->short_first) tr->short_first = bytes;
  if (tr->short_rows == 0 || bytes > tr->short_last) tr->short_last = bytes;
  if (tr->short_rows == 0 || interval_ns < tr->short_min_ns) tr->short_min_ns = interval_ns;
  tr->short_rows++;
}

/* One warning per table, after it, for the rows note_timer_limited found. */
static void warn_timer_limited(const table_run_t *tr) {
  if (tr->short_rows == 0) return;
  char msg[400];
  snprintf(msg, sizeof(msg), "%s on %d processes: %d row(s) from %zu to %zu bytes were timed in clock intervals "
           "under %.0f times the timer's resolution of %.0f ns (the shortest %.3f us), so the resolution is more than "
           "1 %% of what was measured", tr->d->name, tr->g->np, tr->short_rows, tr->short_first, tr->short_last,
           TIMER_RESOLUTION_FACTOR, tr->e->timer_resolution_ns, tr->short_min_ns * 1e-3);
  event_t ev = {.level = "warning", .kind = "timer_resolution", .message = msg, .benchmark = tr->d->name,
                .processes = tr->g->np, .bytes = -1, .comment = 1};
  report_event(&ev);
}

/* On world rank 0: one result row from the gathered means and the batch maxima. */
static void emit_result(table_run_t *tr, int group, size_t bytes, const gathered_t *ga, double *samples_max) {
  const bench_desc *d = tr->d;
  const options_t *o = tr->e->opt;
  const groups_t *g = tr->g;
  result_t r;
  memset(&r, 0, sizeof(r));
  r.table = &tr->table;
  r.group = group;
  r.bytes = bytes;
  int red = is_reduction(d);
  dtype_t dt = red ? o->red_data_type : o->data_type;
  r.count = count_of(tr, bytes);
  r.datatype = d->cls == CLASS_SYNC ? "none" : dtype_mpi_name(dt, red);
  r.status = ST_OK;
  r.repetitions = ga->n_sample;
  r.estimate_only = ga->estimate_only;
  /* The row's ranks: one group's, or every member of every group. */
  int first = group < 0 ? 0 : group * g->np, last = group < 0 ? g->n_members : (group + 1) * g->np;
  double *rank_us = malloc(sizeof(double) * (size_t)(last - first + 1));
  spread_t s;
  spread_init(&s);
  for (int i = first; i < last; i++) {
    int w = g->group_ranks[i];
    double t = ga->means[3 * w];
    /* An untimed rank (a passive target) still received data: its defects count. */
    r.defects += ga->defects[w];
    rank_us[i - first] = t < 0 ? NAN : t;
    if (t >= 0) spread_add(&s, t, w);
  }
  r.rank_us = rank_us;
  r.n_rank_us = last - first;
  int wmax = s.n > 0 ? s.argmax : -1;
  r.t_min_us = s.n ? s.min : 0;
  r.t_max_us = s.n ? s.max : 0;
  r.t_avg_us = spread_avg(&s);
  double tmax = r.t_max_us;
  r.mbytes_per_sec = NAN;
  r.msgs_per_sec = NAN;
  r.t_pure_us = r.t_cpu_us = r.overlap_pct = r.overlap_pct_max = NAN;
  r.ovrl_rank = -1;
  if ((d->flags & BF_OVERLAP) && wmax >= 0) {
    /* The user guide: the figures of the process with the largest t_ovrl. */
    r.t_pure_us = ga->means[3 * wmax + 1];
    r.t_cpu_us = ga->means[3 * wmax + 2];
    r.ovrl_rank = wmax;
    policy_overlap(ga->means[3 * wmax], r.t_pure_us, r.t_cpu_us, &r.overlap_pct, &r.overlap_pct_max);
  }
  if (d->cls == CLASS_MSGRATE) {
    r.msgs_per_sec = policy_msgs_per_sec(d->bw_scale, o->window_size, g->np / 2, tmax);
    r.mbytes_per_sec = r.msgs_per_sec * (double)bytes * 1e-6;
  } else if (d->bw_scale > 0) {
    /* The guide's multiple-transfer throughput counts every target; IMB's
     * binary prints X/t (its factor is set before the process count is known). */
    int targets = (d->flags & BF_BW_TARGETS) && o->imb_compat == COMPAT_GUIDE;
    r.mbytes_per_sec = policy_mbytes_per_sec(targets ? g->np - 1 : d->bw_scale, bytes, tmax);
  }
  if (d->out == OUT_PURE_OVRL && wmax >= 0) {
    /* Only origins are timed. As for the overlap protocol, both figures are
     * those of the origin with the largest t_ovrl (t_max), named by ovrl_rank;
     * with -multi 0 that is the worst group's origin. */
    r.ovrl_rank = wmax;
    r.t_pure_us = ga->means[3 * wmax + 1];
  }
  r.checked = o->check && d->verify;
  for (int b = 0; b < ga->n_batches; b++) samples_max[b] *= d->time_scale;
  double *us = malloc(sizeof(double) * (size_t)(ga->n_batches + 1));
  for (int b = 0; b < ga->n_batches; b++) us[b] = samples_max[b] * 1e-3;
  summarize(us, ga->n_batches, 0.95, &r.dist);
  free(us);
  note_timer_limited(tr, bytes, &r.dist, ga->batch);
  r.batch_size = ga->batch;
  r.samples_ns = samples_max;
  r.loops = ga->loops;
  r.wall_s = ga->wall_s;
  r.sync_used = !is_collective(d) ? NULL : ga->invalid >= 0 ? "window" : tr->untimed_barrier ? "on" : "off";
  r.invalid_samples = ga->invalid;
  r.window_us = ga->window_ns * 1e-3;
  double *rank_med = NULL;
  if (ga->invalid >= 0 && ga->rank_median) {
    rank_med = malloc(sizeof(double) * (size_t)(last - first + 1));
    for (int i = first; i < last; i++) rank_med[i - first] = ga->rank_median[g->group_ranks[i]];
  }
  r.rank_median_us = rank_med;
  r.ci_target = o->ci_target > 0 && ga->ci_stop ? o->ci_target : NAN;
  r.ci_half_width = ga->ci_half_width;
  r.ci_stop = ga->ci_stop ? policy_ci_stop_name(ga->ci_stop) : NULL;
  report_result(&r);
  free(rank_med);
  if (ga->invalid > 0) {
    long attempted = ga->n_sample * (ga->loops > 0 ? ga->loops : 1);
    char msg[320];
    snprintf(msg, sizeof(msg), "-sync window: %ld of %ld samples of %s at %zu bytes started late on some rank and were dropped "
             "(window %.1f us)%s", ga->invalid, attempted, d->name, bytes, ga->window_ns * 1e-3,
             4 * ga->invalid > attempted ? "; more than a quarter: the machine is loaded or the clocks disagree" : "");
    emit_event(4 * ga->invalid > attempted ? "warning" : "info", "invalid_samples", msg, tr, (long long)bytes);
  }
  free(rank_us);
  tr->e->results++;
  tr->e->defects += r.defects;
  if (r.checked && r.defects > 0) {
    char msg[256];
    snprintf(msg, sizeof(msg), "-check: %ld received elements of %s at %zu bytes differ from what was sent",
             r.defects, d->name, bytes);
    emit_event("error", "check_failed", msg, tr, (long long)bytes);
  }
}

/* Every rank's means and defects to world rank 0; the shape of the sample
 * vector from group 0's leader (all groups agreed on n_sample and batch
 * through the active communicator). */
static void gather_means(const table_run_t *tr, int active, const bench_ctx *c, const measurement_t *m,
                         gathered_t *ga) {
  int wrank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  int shape[3] = {m->n_batches, (int)m->n_sample, m->estimate_only};
  long batch = m->batch;
  MPI_Bcast(shape, 3, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&batch, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  ga->n_batches = shape[0];
  ga->n_sample = shape[1];
  ga->estimate_only = shape[2];
  ga->batch = batch;
  double mine[3] = {active && !c->untimed ? m->mean_us : -1.0, m->t_pure_us, m->t_cpu_us};
  long my_defects = active ? m->defects : 0;
  double extra[6] = {(double)m->invalid, m->window_ns, m->ci_half_width, (double)m->ci_stop, (double)m->loops,
                     m->wall_s};
  MPI_Bcast(extra, 6, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  ga->invalid = (long)extra[0];
  ga->window_ns = extra[1];
  ga->ci_half_width = extra[2];
  ga->ci_stop = (int)extra[3];
  ga->loops = (long)extra[4];
  ga->wall_s = extra[5];
  ga->rank_median = NULL;
  if (ga->invalid >= 0) {
    double mine_med = active && !c->untimed ? m->rank_median_us : NAN;
    ga->rank_median = wrank == 0 ? malloc(sizeof(double) * (size_t)P) : NULL;
    MPI_Gather(&mine_med, 1, MPI_DOUBLE, ga->rank_median, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
  ga->means = wrank == 0 ? malloc(sizeof(double) * 3 * (size_t)P) : NULL;
  ga->defects = wrank == 0 ? malloc(sizeof(long) * (size_t)P) : NULL;
  MPI_Gather(mine, 3, MPI_DOUBLE, ga->means, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Gather(&my_defects, 1, MPI_LONG, ga->defects, 1, MPI_LONG, 0, MPI_COMM_WORLD);
}

/* Distribution: per batch the slowest rank, over every group (a table of
 * the worst) or per group (-multi 1, sent to rank 0 by each group leader);
 * rank 0 emits the rows. */
static void report_size(table_run_t *tr, size_t bytes, int active, const measurement_t *m, const gathered_t *ga) {
  int wrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  int nb = ga->n_batches;
  double *maxes = malloc(sizeof(double) * (size_t)(nb > 0 ? nb : 1));
  if (tr->table.multi == 1) {
    if (active) MPI_Reduce(m->samples, maxes, nb, MPI_DOUBLE, MPI_MAX, 0, tr->g->comm);
    int grank = -1;
    if (active) MPI_Comm_rank(tr->g->comm, &grank);
    if (active && grank == 0 && wrank != 0) MPI_Send(maxes, nb, MPI_DOUBLE, 0, SAMPLES_TAG, MPI_COMM_WORLD);
    if (wrank == 0) {
      for (int g = 0; g < tr->g->n_groups; g++) {
        if (g > 0)
          MPI_Recv(maxes, nb, MPI_DOUBLE, tr->g->group_ranks[g * tr->g->np], SAMPLES_TAG, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
        emit_result(tr, g, bytes, ga, maxes);
      }
    }
  } else {
    if (active) MPI_Reduce(m->samples, maxes, nb, MPI_DOUBLE, MPI_MAX, 0, tr->g->active);
    if (wrank == 0) emit_result(tr, -1, bytes, ga, maxes);
  }
  free(maxes);
}

/* -msg_pause: a tenth of rank 0's timed loop, at least 0.1 s. */
static void pause_after(const table_run_t *tr, const measurement_t *m) {
  if (!tr->e->opt->msg_pause) return;
  int wrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  double wall = wrank == 0 ? m->wall_s : 0;
  MPI_Bcast(&wall, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double pause = wall / 10 > 0.1 ? wall / 10 : 0.1;
  struct timespec ts = {(time_t)pause, (long)((pause - (double)(time_t)pause) * 1e9)};
  nanosleep(&ts, NULL);
}

/* One message size: decide, prepare, measure, gather, report, pause.
 * Collective over the world. */
static void run_size(table_run_t *tr, size_t bytes) {
  size_plan_t sp;
  plan_size(tr, bytes, &sp);
  bench_ctx c;
  int active = 0;
  result_status_t status = size_verdict(tr, &sp);
  if (status == ST_OK) status = prepare_size(tr, &sp, &c, &active);
  if (status != ST_OK) {
    skip_size(tr, &sp, status);
    return;
  }
  measurement_t m;
  memset(&m, 0, sizeof(m));
  m.invalid = -1;
  m.loops = 1;
  if (active) measure(tr, &c, sp.selected, &m);
  tr->first_size = 0;
  gathered_t ga;
  gather_means(tr, active, &c, &m, &ga);
  report_size(tr, bytes, active, &m, &ga);
  free(ga.means);
  free(ga.defects);
  free(ga.rank_median);
  free(m.samples);
  if (active) free_ctx(&c);
  MPI_Barrier(MPI_COMM_WORLD);
  pause_after(tr, &m);
}

/* ---- Tables ---- */

void engine_run_table(engine_t *e, const bench_desc *d, const table_plan_t *plan) {
  const options_t *o = e->opt;
  int wrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  table_run_t tr;
  memset(&tr, 0, sizeof(tr));
  tr.e = e;
  tr.d = d;
  tr.plan = plan;
  tr.g = &plan->g;
  tr.window = is_collective(d) && o->sync == SYNC_WINDOW && !(d->flags & BF_OVERLAP) && !d->loop &&
              plan->mode != 1 && !plan->timed_barrier && e->iter_mode == ITERS_IMB;
  /* -sync on puts an untimed barrier after every collective call, but IMB
   * times Barrier, Ibarrier (t_pure and t_ovrl) and Open_Close back to back
   * in one loop whatever -sync says: a barrier between barriers would time
   * each rank's exit skew instead. -sync window calibrates as -sync on does
   * (one call's time sizes the window), Barrier included. */
  tr.untimed_barrier = is_collective(d) && o->sync && (d->cls != CLASS_SYNC || tr.window);
  if (tr.window) clocksync_build(&e->clock);  /* a fresh model for every table, as ReproMPI per job */
  tr.table.suite = e->suite->name;
  tr.table.bench = d;
  tr.table.np = plan->g.np;
  tr.table.n_groups = plan->g.n_groups;
  tr.table.group_ranks = plan->g.group_ranks;
  tr.table.idle = plan->g.idle;
  tr.table.multi = o->multi;
  tr.table.map_p = o->map_p;
  tr.table.map_q = o->map_q;
  tr.table.mode = plan->mode;
  tr.table.n_sizes = plan->n_sizes;
  tr.table.label = plan->label;
  tr.table.label_index = plan->label_index;
  tr.table.timed_barrier = plan->timed_barrier;
  size_t largest = 0;
  for (int i = 0; i < plan->n_sizes; i++) largest = plan->sizes[i] > largest ? plan->sizes[i] : largest;
  tr.ip.policy = o->iter_policy;
  tr.ip.msgspersample = o->msgspersample;
  tr.ip.msgs_nonaggr = o->msgs_nonaggr;
  tr.ip.overall_vol = o->overall_vol_mb * 1048576.0;
  /* IMB keeps -msglog's maximum (default 22) with a size list too. */
  int list_log = log2_ceil(largest);
  tr.ip.max_msg_log = o->have_size_list && list_log > o->msglog_max ? list_log : o->msglog_max;
  tr.ip.rep_test_cap = e->suite->rep_test_cap > 0 ? e->suite->rep_test_cap : 1000;
  tr.n_prev = o->msgspersample;
  tr.first_size = 1;
  if (wrank == 0) report_table_begin(&tr.table);
  tr.t_start = now_ns();
  for (int i = 0; i < plan->n_sizes && !(plan->stop_on_failure && tr.failed); i++) run_size(&tr, plan->sizes[i]);
  e->table_failed = tr.failed;
  if (wrank == 0) warn_timer_limited(&tr);
}

/* The sizes of an IMB table: none for a sync benchmark, one element for
 * BF_SINGLE_ELEMENT, else -msglog / -msglen / -msgsize. */
static int imb_sizes(const options_t *o, const bench_desc *d, size_t *sizes) {
  size_t unit = dtype_size(is_reduction(d) ? o->red_data_type : o->data_type);
  if (d->cls == CLASS_SYNC) {
    sizes[0] = 0;
    return 1;
  }
  if (d->flags & BF_SINGLE_ELEMENT) {
    sizes[0] = unit;
    return 1;
  }
  return sizes_build(o, unit, sizes, MAX_SIZES);
}

/* One IMB table: the groups of np processes, IMB's sizes and time-out.
 * Returns 1 when a size failed: IMB then ends the benchmark (no further
 * sizes, modes or process counts). */
static int run_imb_table(engine_t *e, const bench_desc *d, int np, int mode) {
  const options_t *o = e->opt;
  int wrank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  int min_np = d->cls == CLASS_MSGRATE ? 2 : d->cls == CLASS_SINGLE ? (e->suite->single_np > 0 ? e->suite->single_np : 2) : 1;
  if (np > P || np < min_np) {
    table_info_t t = {.suite = e->suite->name, .bench = d, .np = np, .multi = o->multi, .map_p = o->map_p,
                      .map_q = o->map_q, .invalid = 1, .mode = mode};
    if (wrank == 0) report_table_begin(&t);
    return 0;
  }
  /* On the heap, not static: under SimGrid SMPI every rank holds its own copy of the static data. */
  size_t *sizes = malloc(sizeof(size_t) * MAX_SIZES);
  if (!sizes) return 1;
  table_plan_t plan = {.sizes = sizes, .mode = mode, .stop_on_failure = 1};
  plan.n_sizes = imb_sizes(o, d, sizes);
  plan.limit_s = iter_time_limit(o->have_size_list ? o->n_sizes : 0, o->msglog_min, o->msglog_max, o->time_secs);
  groups_create(&plan.g, np, o);
  engine_run_table(e, d, &plan);
  groups_free(&plan.g);
  free(sizes);
  return e->table_failed;
}

int64_t engine_begin_run(engine_t *e, run_info_t *info, int selfcheck, const clock_model_t *clock) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (selfcheck) selfcheck_run(&e->check, clock, e->host.ranks_on_host, e->host.machine_reader);
  info->selfcheck = &e->check;
  e->timer_resolution_ns = e->check.done ? e->check.resolution_ns : info->timer.granularity_ns;
  /* Simulated time has no resolution to warn about (0: note_timer_limited never warns). */
  if (MPIMARK_SIMULATED) e->timer_resolution_ns = 0;
  int64_t t0 = now_ns();
  if (rank == 0) {
    report_run_begin(info);
    selfcheck_report(&e->check);
  }
  return t0;
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
    int failed = 0;
    for (int i = 0; i < count && !failed; i++)
      for (int k = 0; k < n_modes && !failed; k++) failed = run_imb_table(e, d, nps[i], modes[k]);
  }
}
