/* Self-checks before measuring (docs/measurement.md, "Self-checks"): every
 * rank's timer (resolution, read overhead, monotonicity) and its agreement
 * with the others through the clock model's check; a fixed-work-quantum
 * noise probe on every rank at once (how often and how long the OS takes
 * the core away); during that probe, on each machine, the competition for
 * its cores (util/competition.h: tasks runnable beyond the ranks, steal);
 * and the ranks per machine against its cores. Rank 0 keeps every rank's
 * figures and turns them into warnings. */
#ifndef MPIMARK_SELFCHECK_H
#define MPIMARK_SELFCHECK_H

#include "engine/clocksync.h"
#include "util/competition.h"

#define NOISE_QUANTUM_NS 10000.0   /* the fixed work quantum, calibrated per rank */
#define NOISE_PROBE_S 0.05         /* how long every rank repeats it */
#define NOISE_GAP_SHARE 0.1        /* a run longer than the fastest by this share was interrupted */
#define NOISE_HIGH_LOST 0.01       /* warn when more than this share of the probe's time was lost, */
#define NOISE_HIGH_MAX_NS 1e6      /* or when one interruption took longer than this */
#define TIMER_RESOLUTION_FACTOR 100.0 /* warn when a timed interval is under this many resolutions */

typedef struct {
  double overhead_ns;       /* median cost of one clock read */
  double granularity_ns;    /* smallest non-zero step of back-to-back reads: the resolution seen */
  int monotonic;
  double quantum_ns;        /* the quantum's undisturbed time: its fastest run */
  long runs, interruptions;
  double max_interruption_ns; /* the longest run minus the fastest */
  double lost_share;        /* time of the interrupted runs beyond the fastest, over the probe's time */
  double load1;             /* 1-minute load average of the rank's machine, -1 unknown: context, not a verdict */
  int cores;                /* cores online on the rank's machine */
  int ranks_on_host;        /* world ranks on the rank's machine (sysinfo.h) */
  int reader;               /* this rank read its machine's competition figures (the lowest rank there) */
  competition_t competition; /* its machine's, during the probe; reader only */
} rank_check_t;

typedef struct {
  int done;                 /* 0: -selfcheck off */
  double duration_s;        /* what the checks took */
  double wtick_s;           /* MPI_Wtick, for comparison: mpimark reads clock_gettime */
  /* The rest on world rank 0 only. */
  int n;                    /* world size */
  rank_check_t *ranks;      /* one per world rank */
  double resolution_ns;     /* the coarsest rank's granularity */
  int clock_compared;       /* a clock model was there to compare the ranks' clocks with */
  double clock_disagreement_ns; /* largest |residual| of the clock model's check beyond its bound, 0: agree */
  int clock_worst_rank;
  int timer_ok;             /* every rank monotonic and the clocks agree within the model's bounds */
  int loaded, oversubscribed, noisy;
  int simulated;            /* MPIMARK_SIMULATED: nothing measured, every check skipped (SELFCHECK_SKIPPED) */
} selfcheck_t;

/* The checks a core built against a simulator (SimGrid SMPI) skips, and why: under simulation the
 * timer reads the simulator's clock and the ranks share one process of the host running it, so the
 * timer, noise, load and core checks say nothing about the simulated platform. The run record lists
 * them (selfcheck.skipped); the rest of the core (-check data validation) is unchanged. */
typedef struct {
  const char *check;
  const char *reason;
} skipped_check_t;
extern const skipped_check_t SELFCHECK_SKIPPED[];
extern const int SELFCHECK_SKIPPED_N;

/* Collective over MPI_COMM_WORLD, after clocksync_build (its check is the
 * agreement test; NULL where a tool builds no clock model: not compared).
 * ranks_on_host and machine_reader from sysinfo_collect (host_share_t): the
 * ranks on this rank's machine, and whether this rank reads its counters. */
void selfcheck_run(selfcheck_t *s, const clock_model_t *clock, int ranks_on_host, int machine_reader);

/* Rank 0, after report_run_begin: one warning event per finding (report_event). */
void selfcheck_report(const selfcheck_t *s);

void selfcheck_free(selfcheck_t *s);

#endif
