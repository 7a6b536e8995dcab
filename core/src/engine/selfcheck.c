#include "engine/selfcheck.h"
#include "engine/sysinfo.h"
#include "report/reporter.h"
#include "util/stats.h"
#include "util/timer.h"

#include <math.h>
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const skipped_check_t SELFCHECK_SKIPPED[] = {
  {"timer", "simulated time: the timer reads SimGrid's clock, which advances only when the simulation charges "
            "time, so its resolution, read cost and monotonicity describe the simulator, not a machine"},
  {"clock_sync", "simulated time: every rank reads the same simulated clock, so there are no clocks to compare"},
  {"noise", "simulated time: the fixed work quantum costs no simulated time (smpi/simulate-computation off), "
            "and interruptions on the host running the simulation never reach simulated times"},
  {"load", "the simulated ranks share one process on the host running the simulation; competition for its "
           "cores changes the wall time of the simulation, not the simulated times"},
  {"oversubscribed", "ranks per simulated host are the platform's placement; the cores of the host running "
                     "the simulation do not enter simulated times"},
};
const int SELFCHECK_SKIPPED_N = (int)(sizeof(SELFCHECK_SKIPPED) / sizeof(SELFCHECK_SKIPPED[0]));

/* The work of the noise probe: a dependent chain of floating-point
 * operations the compiler cannot shorten (the result is stored). */
static volatile double noise_sink;
static void work(long k) {
  double x = 1.0;
  for (long i = 0; i < k; i++) x = x * 1.0000001 + 1e-9;
  noise_sink = x;
}

static double time_work(long k) {
  int64_t t0 = now_ns();
  work(k);
  return (double)(now_ns() - t0);
}

/* k such that work(k) takes about NOISE_QUANTUM_NS on this core: doubled
 * until a run takes a tenth of it, then scaled, from the fastest of a few
 * runs so that an interruption does not mislead the calibration. */
static long calibrate_quantum(void) {
  long k = 64;
  while (k < (1L << 40) && time_work(k) < NOISE_QUANTUM_NS / 10) k *= 2;
  double best = INFINITY;
  for (int i = 0; i < 5; i++) {
    double t = time_work(k);
    if (t < best) best = t;
  }
  long q = (long)((double)k * NOISE_QUANTUM_NS / (best > 0 ? best : 1));
  return q > 0 ? q : 1;
}

/* The first line of a /proc file into buf; 0 when it cannot be read. */
static int first_line(const char *path, char *buf, int size) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  int ok = fgets(buf, size, f) != NULL;
  fclose(f);
  return ok;
}

static int read_runnable(void) {
  char line[128];
  return first_line("/proc/loadavg", line, sizeof(line)) ? runnable_parse(line) : -1;
}

static int read_cpu_times(cpu_times_t *t) {
  char line[512];
  return first_line("/proc/stat", line, sizeof(line)) && cpu_times_parse(line, t);
}

/* The machine's competition during the probe, read by one rank per machine
 * (sysinfo.h's machine_reader) between two quanta, so no quantum's time
 * includes a read: the tasks runnable at COMPETITION_SAMPLES moments spread
 * evenly over the probe (from /proc/loadavg, a few bytes, where /proc/stat,
 * which shows the same count, is kilobytes on a large machine), and the CPU
 * time of the machine from /proc/stat's cpu line before and after. */
typedef struct {
  int runnable[COMPETITION_SAMPLES];
  int n;
  int64_t next_ns, step_ns;
  int have_before;
  cpu_times_t before;
} sampler_t;

static void sampler_start(sampler_t *sm, int64_t start_ns) {
  memset(sm, 0, sizeof(*sm));
  sm->step_ns = (int64_t)(NOISE_PROBE_S * 1e9 / COMPETITION_SAMPLES);
  sm->next_ns = start_ns + sm->step_ns / 2;
  sm->have_before = read_cpu_times(&sm->before);
}

static void sampler_tick(sampler_t *sm, int64_t now) {
  if (sm->n < COMPETITION_SAMPLES && now >= sm->next_ns) {
    sm->runnable[sm->n++] = read_runnable();
    sm->next_ns += sm->step_ns;
  }
}

static void sampler_finish(sampler_t *sm, competition_t *c) {
  cpu_times_t after;
  int have_after = read_cpu_times(&after);
  competition_samples(c, sm->runnable, sm->n);
  competition_ticks(c, sm->have_before ? &sm->before : NULL, have_after ? &after : NULL);
}

/* Fixed-work-quantum probe (FWQ, as in the LLNL/Sandia noise benchmarks):
 * the same quantum again and again for NOISE_PROBE_S; the fastest run is
 * the undisturbed time, a run NOISE_GAP_SHARE longer was interrupted, and
 * what it took beyond the fastest is time lost. The machine's reader
 * samples its competition meanwhile (sampler_t). */
static void noise_probe(rank_check_t *me) {
  long k = calibrate_quantum();
  long cap = (long)(NOISE_PROBE_S * 1e9 / NOISE_QUANTUM_NS) * 4 + 16;
  long cap_heap = (long)(PRE_MEASURE_SCRATCH_BYTES / sizeof(double)); /* sysinfo.h: why */
  if (cap > cap_heap) cap = cap_heap;
  double *t = malloc(sizeof(double) * (size_t)cap);
  long n = 0;
  sampler_t sampler;
  int64_t start = now_ns(), end = start + (int64_t)(NOISE_PROBE_S * 1e9), now;
  if (me->reader) sampler_start(&sampler, start);
  while (n < cap && (now = now_ns()) < end) {
    if (me->reader) sampler_tick(&sampler, now);
    t[n++] = time_work(k);
  }
  if (me->reader) sampler_finish(&sampler, &me->competition);
  double base = INFINITY, total = 0;
  for (long i = 0; i < n; i++) {
    if (t[i] < base) base = t[i];
    total += t[i];
  }
  me->runs = n;
  me->quantum_ns = n ? base : NAN;
  me->interruptions = 0;
  me->max_interruption_ns = 0;
  double lost = 0;
  for (long i = 0; i < n; i++) {
    double extra = t[i] - base;
    if (extra <= NOISE_GAP_SHARE * base) continue;
    me->interruptions++;
    lost += extra;
    if (extra > me->max_interruption_ns) me->max_interruption_ns = extra;
  }
  me->lost_share = total > 0 ? lost / total : 0;
  free(t);
}

/* Loaded: competition for the cores measured during the probe on the rank's machine (util/competition.h). */
static int loaded_machine(const rank_check_t *r) {
  return r->reader && competition_verdict(&r->competition) != 0;
}

void selfcheck_run(selfcheck_t *s, const clock_model_t *clock, int ranks_on_host, int machine_reader) {
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  memset(s, 0, sizeof(*s));
#if MPIMARK_SIMULATED
  /* Not run, not merely unreported: the noise probe's calibration waits for the clock to advance past a
   * quantum, which simulated time without charged computation never does (the run would hang). */
  (void)clock;
  (void)ranks_on_host;
  (void)machine_reader;
  s->done = 1;
  s->simulated = 1;
  s->n = P;
  s->wtick_s = MPI_Wtick();
  return;
#endif
  MPI_Barrier(MPI_COMM_WORLD);
  int64_t t0 = now_ns();
  rank_check_t me;
  memset(&me, 0, sizeof(me));
  timer_selftest_t ts;
  timer_selftest(TIMER_SELFTEST_READS, &ts);
  me.overhead_ns = ts.overhead_ns;
  me.granularity_ns = ts.granularity_ns;
  me.monotonic = ts.monotonic;
  me.cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  me.ranks_on_host = ranks_on_host;
  me.reader = machine_reader;
  me.competition.cores = me.cores;
  me.competition.ranks = ranks_on_host;
  /* Every rank at once: the noise a measurement meets, and the competition
   * for the cores, are those of all ranks busy. */
  MPI_Barrier(MPI_COMM_WORLD);
  noise_probe(&me);
  double load[3];
  load_average(load);
  me.load1 = load[0];
  if (rank == 0) s->ranks = malloc(sizeof(rank_check_t) * (size_t)P);
  MPI_Gather(&me, (int)sizeof(me), MPI_BYTE, s->ranks, (int)sizeof(me), MPI_BYTE, 0, MPI_COMM_WORLD);
  s->wtick_s = MPI_Wtick();
  s->done = 1;
  s->n = P;
  s->duration_s = (double)(now_ns() - t0) * 1e-9;
  if (rank != 0) return;
  s->timer_ok = 1;
  for (int r = 0; r < P; r++) {
    const rank_check_t *x = &s->ranks[r];
    if (x->granularity_ns > s->resolution_ns) s->resolution_ns = x->granularity_ns;
    s->timer_ok &= x->monotonic;
    s->oversubscribed |= x->ranks_on_host > x->cores;
    s->loaded |= loaded_machine(x);
    s->noisy |= x->lost_share > NOISE_HIGH_LOST || x->max_interruption_ns > NOISE_HIGH_MAX_NS;
  }
  /* The model's check right after it was built: the offset measured again
   * must lie within both bounds (and the timer's step), else the ranks'
   * clocks do not agree as the model says. */
  s->clock_compared = clock && clock->valid && clock->all;
  if (s->clock_compared)
    for (int r = 1; r < P; r++) {
      double beyond = fabs(clock->residual_ns[r]) - clock->all[r].bound_ns - clock->residual_bound_ns[r] -
                      s->resolution_ns;
      if (beyond > s->clock_disagreement_ns) {
        s->clock_disagreement_ns = beyond;
        s->clock_worst_rank = r;
      }
    }
  s->timer_ok &= s->clock_disagreement_ns == 0;
}

/* The rank with the largest value of field f (an offset into rank_check_t of a double). */
static int worst_rank(const selfcheck_t *s, size_t f) {
  int w = 0;
  for (int r = 1; r < s->n; r++)
    if (*(const double *)((const char *)&s->ranks[r] + f) > *(const double *)((const char *)&s->ranks[w] + f)) w = r;
  return w;
}

/* A finding as a warning event: in the stream, and a # line in IMB's text. */
static void emit(const char *kind, const char *message) {
  event_t ev = {.level = "warning", .kind = kind, .message = message, .bytes = -1, .comment = 1};
  report_event(&ev);
}

/* What was measured on the machine of rank r, and against what. */
static void loaded_message(char *msg, size_t size, int r, const competition_t *c) {
  char steal[96] = "CPU steal unknown";
  if (c->ticks > 0)
    snprintf(steal, sizeof(steal), "CPU steal %.0f %% of its time (%.0f of %.0f ticks)",
             100 * competition_steal_share(c), c->steal_ticks, c->ticks);
  int free_cores = c->cores > c->ranks ? c->cores - c->ranks : 0;
  snprintf(msg, size, "loaded machine: %.1f tasks runnable beyond the %d ranks on average (%d samples) during the "
           "%.2f s noise probe on the machine of rank %d, which has %d cores (%d left free by the ranks); %s; other "
           "work competes for the ranks' cores and the times include that", c->beyond_mean, c->ranks, c->samples,
           NOISE_PROBE_S, r, c->cores, free_cores, steal);
}

void selfcheck_report(const selfcheck_t *s) {
  char msg[512];
  if (s->done && s->simulated) {
    /* Said once, in the stream and as a # line, so that no reader takes silence for a clean check. */
    int n = snprintf(msg, sizeof(msg), "self-checks skipped in simulation (simulated time):");
    for (int i = 0; i < SELFCHECK_SKIPPED_N && n > 0 && (size_t)n < sizeof(msg); i++)
      n += snprintf(msg + n, sizeof(msg) - (size_t)n, "%s %s", i ? "," : "", SELFCHECK_SKIPPED[i].check);
    if (n > 0 && (size_t)n < sizeof(msg))
      snprintf(msg + n, sizeof(msg) - (size_t)n, "; the run record's selfcheck.skipped gives each reason");
    event_t ev = {.level = "info", .kind = "selfcheck_skipped", .message = msg, .bytes = -1, .comment = 1};
    report_event(&ev);
    return;
  }
  if (!s->done || !s->ranks) return;
  for (int r = 0; r < s->n; r++)
    if (!s->ranks[r].monotonic) {
      snprintf(msg, sizeof(msg), "the clock went backwards on rank %d during the timer check; its times cannot be "
               "trusted", r);
      emit("timer", msg);
      break;
    }
  if (s->clock_disagreement_ns > 0) {
    snprintf(msg, sizeof(msg), "the clocks of rank 0 and rank %d disagree by %.0f ns beyond the clock model's bound; "
             "-sync window times are not to be trusted", s->clock_worst_rank, s->clock_disagreement_ns);
    emit("timer", msg);
  }
  for (int r = 0; r < s->n; r++) {
    const rank_check_t *x = &s->ranks[r];
    if (x->ranks_on_host > x->cores) {
      snprintf(msg, sizeof(msg), "oversubscribed: %d ranks on the machine of rank %d, which has %d cores; ranks wait for "
               "a core and the times include that", x->ranks_on_host, r, x->cores);
      emit("oversubscribed", msg);
      break;
    }
  }
  for (int r = 0; r < s->n; r++)
    if (loaded_machine(&s->ranks[r])) {
      loaded_message(msg, sizeof(msg), r, &s->ranks[r].competition);
      emit("loaded", msg);
      break;
    }
  if (s->noisy) {
    int w = worst_rank(s, offsetof(rank_check_t, lost_share));
    int m = worst_rank(s, offsetof(rank_check_t, max_interruption_ns));
    snprintf(msg, sizeof(msg), "high OS noise: rank %d lost %.1f %% of a fixed work quantum's time to %ld "
             "interruptions; the longest interruption was %.0f us (rank %d)", w, 100 * s->ranks[w].lost_share,
             s->ranks[w].interruptions, s->ranks[m].max_interruption_ns * 1e-3, m);
    emit("noise", msg);
  }
}

void selfcheck_free(selfcheck_t *s) {
  free(s->ranks);
  memset(s, 0, sizeof(*s));
}
