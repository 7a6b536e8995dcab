/* Self-checks before measuring (docs/measurement.md, "Self-checks"): every
 * rank's timer (resolution, read overhead, monotonicity) and its agreement
 * with the others through the clock model's check; a fixed-work-quantum
 * noise probe on every rank at once (how often and how long the OS takes
 * the core away); the load average and the ranks per host against its
 * cores. Rank 0 keeps every rank's figures and turns them into warnings. */
#ifndef MPIMARK_SELFCHECK_H
#define MPIMARK_SELFCHECK_H

#include "engine/clocksync.h"

#define SELFCHECK_TIMER_READS 20000
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
  double load1;             /* 1-minute load average of the rank's host, -1 unknown */
  int cores;                /* cores online on the rank's host */
  int ranks_on_host;
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
} selfcheck_t;

/* Collective over MPI_COMM_WORLD, after clocksync_build (its check is the
 * agreement test; NULL where a tool builds no clock model: not compared).
 * ranks_on_host from sysinfo_collect. */
void selfcheck_run(selfcheck_t *s, const clock_model_t *clock, int ranks_on_host);

/* Rank 0, after report_run_begin: one warning event per finding (report_event). */
void selfcheck_report(const selfcheck_t *s);

void selfcheck_free(selfcheck_t *s);

#endif
