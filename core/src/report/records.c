#include "report/records.h"
#include "report/bench_facts.h"
#include "report/build_info.h"
#include "tools/mpit/mpit.h"
#include "engine/sysinfo.h"

#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#if MPIMARK_SIMULATED
#include <simgrid/version.h>  /* sg_version_get: the SimGrid library the simulation ran on */
#endif

/* The front end (mpimark run --mpi smpi) describes the simulation it set up, as one JSON object, here. */
#define SIMULATION_ENV "MPIMARK_SIMULATION"

/* A launcher of another MPI starts N singletons of this core, each rank 0 of
 * a world of one, all given the same -json path. Were they all to write it,
 * each open would truncate the others' records, leaving holes and half lines
 * in which the front end could not find the run record that says what went
 * wrong. Only the singleton its launcher numbered 0 writes the file; the rest
 * write to /dev/null. */
static int foreign_launcher_peer(void) {
  static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"};
  int initialized = 0, size = 0;
  MPI_Initialized(&initialized);
  if (!initialized) return 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 1) return 0;
  for (size_t k = 0; k < sizeof(rank_vars) / sizeof(rank_vars[0]); k++) {
    const char *v = getenv(rank_vars[k]);
    if (v && atoi(v) != 0) return 1;
  }
  return 0;
}

int rec_file_open(rec_file_t *rf, const char *path, char *err, size_t errlen) {
  memset(rf, 0, sizeof(*rf));
  rf->f = fopen(foreign_launcher_peer() ? "/dev/null" : path, "w");
  if (!rf->f) {
    snprintf(err, errlen, "cannot write the -json file '%s': %s; give a writable path", path, strerror(errno));
    return -1;
  }
  jw_init(&rf->jw, rf->f);
  return 0;
}

void rec_file_close(rec_file_t *rf) {
  if (rf->f) fclose(rf->f);
  rf->f = NULL;
}

void rec_file_end(rec_file_t *rf, const run_end_t *end) {
  if (!rf->f) return;
  rec_end(&rf->jw, end);
  rec_file_close(rf);
}

/* 1, 5, 15 minute load average, or null where /proc/loadavg could not be
 * read (load_average() leaves -1 then). */
static void load_field(jw_t *w, const char *key, const double load[3]) {
  if (load[0] < 0 || load[1] < 0 || load[2] < 0) {
    jw_null(w, key);
    return;
  }
  jw_arr_begin(w, key);
  for (int i = 0; i < 3; i++) jw_num(w, NULL, load[i]);
  jw_arr_end(w);
}

/* Past PER_RANK_LIST_MAX ranks (sysinfo.h) a per-rank list keeps rank 0 and the extreme rank of each figure:
 * the worst case a reader looks for stays in the record, and the list's length does not grow with P. */
#define PICKED_MAX 8
typedef struct {
  int all; /* every rank listed */
  int rank[PICKED_MAX];
  int n;
} rank_pick_t;

static void pick_init(rank_pick_t *k, int P) {
  k->all = per_rank_listed(P);
  k->n = 1;
  k->rank[0] = 0;
}

/* Adds the rank at which value(r) is largest (NaN never). */
static void pick_max(rank_pick_t *k, int P, double (*value)(const void *, int), const void *ctx) {
  int best = -1;
  double top = 0;
  for (int r = 0; r < P; r++) {
    double v = value(ctx, r);
    if (!isnan(v) && (best < 0 || v > top)) best = r, top = v;
  }
  if (best < 0) return;
  for (int i = 0; i < k->n; i++)
    if (k->rank[i] == best) return;
  if (k->n < PICKED_MAX) k->rank[k->n++] = best;
}

static int picked(const rank_pick_t *k, int r) {
  if (k->all) return 1;
  for (int i = 0; i < k->n; i++)
    if (k->rank[i] == r) return 1;
  return 0;
}

/* After a per-rank array: how many ranks it left out, only where it left some. */
static void pick_omitted(jw_t *w, const rank_pick_t *k, int P) {
  if (!k->all) jw_int(w, "ranks_omitted", P - k->n);
}

static double clk_offset(const void *m, int r) { return fabs((double)((const clock_model_t *)m)->all[r].offset_ns); }
static double clk_bound(const void *m, int r) { return ((const clock_model_t *)m)->all[r].bound_ns; }
static double clk_residual(const void *m, int r) { return fabs(((const clock_model_t *)m)->residual_ns[r]); }
static double clk_residual_bound(const void *m, int r) { return ((const clock_model_t *)m)->residual_bound_ns[r]; }

/* The clock model (clocksync.h): SKaMPI offsets against world rank 0, their
 * bounds, and the check made right after with the model applied. */
static void rec_clock_sync(jw_t *w, const clock_model_t *m) {
  jw_obj_begin(w, "clock_sync");
  jw_str(w, "method", "skampi_offset");
  jw_str(w, "model", "offset");
  jw_str(w, "reference", "world rank 0");
  jw_int(w, "min_pingpongs", CLOCKSYNC_MIN_PINGPONGS);
  jw_int(w, "max_pingpongs", CLOCKSYNC_MAX_PINGPONGS);
  jw_num(w, "duration_s", m->duration_s);
  jw_num(w, "max_bound_ns", m->max_bound_ns);
  jw_num(w, "max_residual_ns", m->max_residual_ns);
  rank_pick_t k;
  pick_init(&k, m->n);
  pick_max(&k, m->n, clk_offset, m);
  pick_max(&k, m->n, clk_bound, m);
  pick_max(&k, m->n, clk_residual, m);
  pick_max(&k, m->n, clk_residual_bound, m);
  jw_arr_begin(w, "ranks");
  for (int r = 0; r < m->n; r++) {
    if (!picked(&k, r)) continue;
    jw_obj_begin(w, NULL);
    jw_int(w, "rank", r);
    jw_int(w, "offset_ns", m->all[r].offset_ns);
    jw_num(w, "bound_ns", m->all[r].bound_ns);
    jw_num(w, "rtt_min_ns", r ? m->all[r].rtt_min_ns : NAN);
    jw_num(w, "residual_ns", m->residual_ns[r]);
    jw_num(w, "residual_bound_ns", m->residual_bound_ns[r]);
    jw_obj_end(w);
  }
  jw_arr_end(w);
  pick_omitted(w, &k, m->n);
  jw_obj_end(w);
}

/* The competition for the cores measured during the noise probe: the rule
 * (util/competition.h), then one entry per machine, by the rank that read it. */
static void rec_competition(jw_t *w, const selfcheck_t *s) {
  jw_obj_begin(w, "competition_rule");
  jw_int(w, "samples", COMPETITION_SAMPLES);
  jw_num(w, "slack_tasks", COMPETITION_SLACK_TASKS);
  jw_num(w, "high_steal_share", COMPETITION_HIGH_STEAL);
  jw_int(w, "min_steal_ticks", COMPETITION_MIN_STEAL_TICKS);
  jw_obj_end(w);
  jw_arr_begin(w, "machines");
  for (int r = 0; r < s->n; r++) {
    const rank_check_t *x = &s->ranks[r];
    if (!x->reader) continue;
    const competition_t *c = &x->competition;
    jw_obj_begin(w, NULL);
    jw_int(w, "rank", r);
    jw_int(w, "ranks", c->ranks);
    jw_int(w, "cores", c->cores);
    jw_int(w, "runnable_samples", c->samples);
    jw_num(w, "runnable_mean", c->samples ? c->runnable_mean : NAN);
    if (c->samples) jw_int(w, "runnable_max", c->runnable_max); else jw_null(w, "runnable_max");
    jw_num(w, "beyond_ranks_mean", c->samples ? c->beyond_mean : NAN);
    jw_num(w, "cpu_ticks", c->ticks > 0 ? c->ticks : NAN);
    double steal = competition_steal_share(c), idle = competition_idle_share(c);
    jw_num(w, "steal_share", steal >= 0 ? steal : NAN);
    jw_num(w, "idle_share", idle >= 0 ? idle : NAN);
    jw_bool(w, "loaded", competition_verdict(c) != 0);
    jw_obj_end(w);
  }
  jw_arr_end(w);
}

#define CHK(r) (&((const selfcheck_t *)s)->ranks[r])
static double chk_overhead(const void *s, int r) { return CHK(r)->overhead_ns; }
static double chk_granularity(const void *s, int r) { return CHK(r)->granularity_ns; }
static double chk_not_monotonic(const void *s, int r) { return CHK(r)->monotonic ? NAN : 1; }
static double chk_lost(const void *s, int r) { return CHK(r)->lost_share; }
static double chk_interruption(const void *s, int r) { return CHK(r)->max_interruption_ns; }
static double chk_crowding(const void *s, int r) {
  return CHK(r)->cores > 0 ? (double)CHK(r)->ranks_on_host / CHK(r)->cores : NAN;
}
#undef CHK

/* The self-checks (selfcheck.h): the verdicts, then every rank's figures (past the bound
 * rank 0's and the worst ranks'). */
static void rec_selfcheck(jw_t *w, const selfcheck_t *s) {
  if (!s->done) {
    jw_null(w, "selfcheck");
    return;
  }
  if (s->simulated) {  /* nothing measured: which checks were skipped, and why (selfcheck.h) */
    jw_obj_begin(w, "selfcheck");
    jw_bool(w, "simulated", 1);
    jw_num(w, "mpi_wtick_s", s->wtick_s);
    jw_arr_begin(w, "skipped");
    for (int i = 0; i < SELFCHECK_SKIPPED_N; i++) {
      jw_obj_begin(w, NULL);
      jw_str(w, "check", SELFCHECK_SKIPPED[i].check);
      jw_str(w, "reason", SELFCHECK_SKIPPED[i].reason);
      jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
    return;
  }
  jw_obj_begin(w, "selfcheck");
  jw_num(w, "duration_s", s->duration_s);
  jw_num(w, "mpi_wtick_s", s->wtick_s);
  jw_num(w, "timer_resolution_ns", s->resolution_ns);
  jw_num(w, "clock_disagreement_ns", s->clock_compared ? s->clock_disagreement_ns : NAN);
  jw_bool(w, "timer_ok", s->timer_ok);
  jw_bool(w, "loaded", s->loaded);
  jw_bool(w, "oversubscribed", s->oversubscribed);
  jw_bool(w, "noisy", s->noisy);
  jw_obj_begin(w, "noise_probe");
  jw_num(w, "quantum_ns", NOISE_QUANTUM_NS);
  jw_num(w, "duration_s", NOISE_PROBE_S);
  jw_num(w, "gap_share", NOISE_GAP_SHARE);
  jw_num(w, "high_lost_share", NOISE_HIGH_LOST);
  jw_num(w, "high_interruption_ns", NOISE_HIGH_MAX_NS);
  jw_obj_end(w);
  rank_pick_t k;
  pick_init(&k, s->n);
  pick_max(&k, s->n, chk_overhead, s);
  pick_max(&k, s->n, chk_granularity, s);
  pick_max(&k, s->n, chk_not_monotonic, s);
  pick_max(&k, s->n, chk_lost, s);
  pick_max(&k, s->n, chk_interruption, s);
  pick_max(&k, s->n, chk_crowding, s);
  jw_arr_begin(w, "ranks");
  for (int r = 0; r < s->n; r++) {
    const rank_check_t *x = &s->ranks[r];
    if (!picked(&k, r)) continue;
    jw_obj_begin(w, NULL);
    jw_int(w, "rank", r);
    jw_num(w, "timer_overhead_ns", x->overhead_ns);
    jw_num(w, "timer_granularity_ns", x->granularity_ns);
    jw_bool(w, "timer_monotonic", x->monotonic);
    jw_num(w, "noise_quantum_ns", x->quantum_ns);
    jw_int(w, "noise_runs", x->runs);
    jw_int(w, "noise_interruptions", x->interruptions);
    jw_num(w, "noise_max_interruption_ns", x->max_interruption_ns);
    jw_num(w, "noise_lost_share", x->lost_share);
    jw_num(w, "load_average_1min", x->load1 >= 0 ? x->load1 : NAN);
    jw_int(w, "cores", x->cores);
    jw_int(w, "ranks_on_host", x->ranks_on_host);
    jw_obj_end(w);
  }
  jw_arr_end(w);
  pick_omitted(w, &k, s->n);
  rec_competition(w, s);
  jw_obj_end(w);
}

/* Only in a core built against SimGrid SMPI: the times of this run are the simulator's, on the platform
 * described by "setup" ($MPIMARK_SIMULATION copied verbatim when it is one JSON object, else null:
 * an smpirun started by hand, or text the core cannot vouch for). */
static void rec_simulation(jw_t *w) {
#if MPIMARK_SIMULATED
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  char version[48];
  snprintf(version, sizeof(version), "%d.%d.%d", major, minor, patch);
  jw_obj_begin(w, "simulation");
  jw_str(w, "simulator", "SimGrid SMPI");
  jw_str(w, "version", version);
  const char *setup = getenv(SIMULATION_ENV);
  if (setup && json_is_object(setup)) jw_raw_object(w, "setup", setup);
  else jw_null(w, "setup");
  jw_obj_end(w);
#else
  (void)w;
#endif
}

void rec_run_begin(jw_t *w, const run_info_t *in, const suite_desc *suite) {
  jw_obj_begin(w, NULL);
  jw_str(w, "type", "run");
  jw_int(w, "schema_version", SCHEMA_VERSION);
  jw_obj_begin(w, "tool");
  jw_str(w, "name", "mpimark-core");
  jw_str(w, "version", MPIMARK_VERSION);
  jw_obj_end(w);
  jw_str(w, "suite", suite->name);
  jw_arr_begin(w, "command_line");
  for (int i = 0; i < in->argc; i++) jw_str(w, NULL, in->argv[i]);
  jw_arr_end(w);
  jw_str(w, "start_utc", in->start_utc);
  jw_obj_begin(w, "mpi");
  jw_str(w, "library_version", in->mpi_library);
  char std[16];
  snprintf(std, sizeof(std), "%d.%d", in->mpi_version, in->mpi_subversion);
  jw_str(w, "standard_version", std);
  jw_str(w, "thread_level_requested", in->thread_requested);
  jw_str(w, "thread_level_provided", in->thread_provided);
  jw_obj_end(w);
  rec_simulation(w);
  sysinfo_write_hosts(w, in);
  jw_int(w, "processes", in->processes);
  jw_int(w, "cores_online", in->cores_online);
  jw_bool(w, "oversubscribed", in->oversubscribed);
  sysinfo_write_placement(w, in);
  mpit_write_cvars(w);
  jw_obj_begin(w, "uname");
  jw_str(w, "sysname", in->sysname);
  jw_str(w, "release", in->release);
  jw_str(w, "version", in->version);
  jw_str(w, "machine", in->machine);
  jw_obj_end(w);
  /* What a run launched by hand, or by Slurm on nodes mpimark never sees, tells about its machine (rank 0's
   * node) and how the core was built; the front end stores the launching host's facts beside it. */
  jw_obj_begin(w, "machine");
  jw_str(w, "cpu_model", in->cpu_model[0] ? in->cpu_model : NULL);
  if (in->sockets > 0) jw_int(w, "sockets", in->sockets); else jw_null(w, "sockets");
  jw_num(w, "memory_bytes", in->memory_bytes > 0 ? in->memory_bytes : NAN);
  jw_str(w, "compiler", MPIMARK_C_COMPILER);
  jw_str(w, "c_flags", MPIMARK_C_FLAGS);
  jw_obj_end(w);
  jw_obj_begin(w, "timer");
  /* SMPI's smpicc turns the core's clock_gettime into smpi_clock_gettime: the simulated clock. */
  jw_str(w, "source", MPIMARK_SIMULATED ? "SimGrid's simulated clock (clock_gettime under SMPI)"
                                        : "clock_gettime(CLOCK_MONOTONIC)");
  jw_num(w, "overhead_ns", in->timer.overhead_ns);
  jw_num(w, "granularity_ns", in->timer.granularity_ns);
  jw_bool(w, "monotonic", in->timer.monotonic);
  jw_num(w, "mpi_wtick_s", in->mpi_wtick);
  jw_obj_end(w);
  load_field(w, "load_average_before", in->load_before);
  /* From the run record's gathering to this record: what the core spent before its first timed loop. */
  jw_num(w, "startup_s", sysinfo_startup_s());
  if (in->clock && in->clock->valid) rec_clock_sync(w, in->clock);
  if (in->selfcheck) rec_selfcheck(w, in->selfcheck);
  bench_facts_write_suite(w, "benchmark_facts", suite);
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

void rec_result_figures(rec_result_t *rr, const result_t *res) {
  int ok = res->status == ST_OK;
  rr->bytes = (long long)res->bytes;
  rr->count = (long long)res->count;
  rr->datatype = res->datatype;
  rr->status = status_name(res->status);
  rr->repetitions = ok ? res->repetitions : -1;
  rr->t_min_usec = ok ? res->t_min_us : NAN;
  rr->t_max_usec = ok ? res->t_max_us : NAN;
  rr->t_avg_usec = ok ? res->t_avg_us : NAN;
  rr->mbytes_per_sec = ok ? res->mbytes_per_sec : NAN;
  rr->msgs_per_sec = ok ? res->msgs_per_sec : NAN;
  rr->defects = ok && res->checked ? res->defects : -1;
}

void rec_result_samples(jw_t *w, const result_t *res) {
  static const summary_t none;
  rec_samples(w, res->status == ST_OK ? &res->dist : &none, res->batch_size, res->samples_ns);
}

void rec_result_begin(rec_file_t *rf, const rec_result_t *r) {
  jw_t *w = &rf->jw;
  rf->results++;
  jw_obj_begin(w, NULL);
  jw_str(w, "type", "result");
  jw_str(w, "benchmark", r->benchmark);
  jw_str(w, "suite", r->suite);
  jw_int(w, "processes", r->processes);
  if (r->multi < 0) jw_null(w, "multi"); else jw_int(w, "multi", r->multi);
  jw_int(w, "groups", r->groups);
  if (r->with_mode) jw_str(w, "mode", r->mode);
  if (r->group < 0) jw_null(w, "group"); else jw_int(w, "group", r->group);
  jw_int(w, "bytes", r->bytes);
  jw_int(w, "count", r->count);
  jw_str(w, "datatype", r->datatype);
  jw_str(w, "status", r->status);
  if (r->repetitions < 0) jw_null(w, "repetitions"); else jw_int(w, "repetitions", r->repetitions);
  jw_num(w, "t_min_usec", r->t_min_usec);
  jw_num(w, "t_max_usec", r->t_max_usec);
  jw_num(w, "t_avg_usec", r->t_avg_usec);
  jw_num(w, "mbytes_per_sec", r->mbytes_per_sec);
  jw_num(w, "msgs_per_sec", r->msgs_per_sec);
  if (r->defects < 0) jw_null(w, "defects"); else jw_int(w, "defects", r->defects);
}

void rec_samples(jw_t *w, const summary_t *d, long batch_size, const double *samples_ns) {
  if (!d || d->n <= 0) {
    jw_null(w, "distribution");
    if (d) {
      jw_arr_begin(w, "samples_ns");
      jw_arr_end(w);
    } else {
      jw_null(w, "samples_ns");
    }
    return;
  }
  jw_obj_begin(w, "distribution");
  jw_int(w, "samples", d->n);
  jw_int(w, "batch_size", batch_size);
  jw_num(w, "median_usec", d->median);
  jw_num(w, "ci_low_usec", d->has_ci ? d->ci_low : NAN);
  jw_num(w, "ci_high_usec", d->has_ci ? d->ci_high : NAN);
  jw_num(w, "ci_level", d->ci_level);
  jw_num(w, "ci_coverage", d->has_ci ? d->ci_coverage : NAN);
  jw_num(w, "q1_usec", d->q1);
  jw_num(w, "q3_usec", d->q3);
  jw_num(w, "p5_usec", d->p5);
  jw_num(w, "p95_usec", d->p95);
  jw_num(w, "min_usec", d->min);
  jw_num(w, "max_usec", d->max);
  jw_obj_end(w);
  jw_arr_begin(w, "samples_ns");
  for (int i = 0; i < d->n; i++) jw_num(w, NULL, round(samples_ns[i] * 10.0) / 10.0);
  jw_arr_end(w);
}

void rec_close(jw_t *w) {
  jw_obj_end(w);
  jw_end_line(w);
}

void rec_event(jw_t *w, const event_t *ev) {
  jw_obj_begin(w, NULL);
  jw_str(w, "type", "event");
  jw_str(w, "level", ev->level);
  jw_str(w, "kind", ev->kind);
  jw_str(w, "message", ev->message);
  if (ev->benchmark) jw_str(w, "benchmark", ev->benchmark);
  if (ev->processes > 0) jw_int(w, "processes", ev->processes);
  if (ev->bytes >= 0) jw_int(w, "bytes", ev->bytes);
  rec_close(w);
}

static double end_error(const void *e, int r) {
  const run_end_t *end = e;
  return fabs(end->clock_residual_ns[r]) + end->clock_bound_ns[r];
}
static double end_drift(const void *e, int r) { return fabs(((const run_end_t *)e)->clock_drift_ppm[r]); }

void rec_end(jw_t *w, const run_end_t *end) {
  jw_obj_begin(w, NULL);
  jw_str(w, "type", "end");
  jw_str(w, "status", end->complete ? "complete" : "incomplete");
  jw_num(w, "elapsed_s", end->elapsed_s);
  jw_int(w, "results", end->results);
  load_field(w, "load_average_after", end->load_after);
  if (end->clock_residual_ns) {
    jw_obj_begin(w, "clock_check");
    jw_num(w, "model_age_s", end->clock_model_age_s);
    double worst = 0, worst_drift = 0;
    for (int r = 1; r < end->clock_n; r++) {
      double e = fabs(end->clock_residual_ns[r]) + end->clock_bound_ns[r];
      if (e > worst) worst = e;
      if (fabs(end->clock_drift_ppm[r]) > fabs(worst_drift)) worst_drift = end->clock_drift_ppm[r];
    }
    jw_num(w, "max_residual_ns", worst);
    jw_num(w, "max_drift_ppm", worst_drift);
    rank_pick_t k;
    pick_init(&k, end->clock_n);
    pick_max(&k, end->clock_n, end_error, end);
    pick_max(&k, end->clock_n, end_drift, end);
    jw_arr_begin(w, "ranks");
    for (int r = 0; r < end->clock_n; r++) {
      if (!picked(&k, r)) continue;
      jw_obj_begin(w, NULL);
      jw_int(w, "rank", r);
      jw_num(w, "residual_ns", end->clock_residual_ns[r]);
      jw_num(w, "bound_ns", end->clock_bound_ns[r]);
      jw_num(w, "drift_ppm", end->clock_drift_ppm[r]);
      jw_obj_end(w);
    }
    jw_arr_end(w);
    pick_omitted(w, &k, end->clock_n);
    jw_obj_end(w);
  }
  rec_close(w);
}
