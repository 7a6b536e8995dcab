/* Competition for a machine's cores, measured while the ranks run (the
 * self-checks' noise probe, engine/selfcheck.c): how many tasks were
 * runnable beyond the ranks, and how much of the CPUs' time the hypervisor
 * gave to others (steal). The parsing and the verdict need no MPI, so CTest
 * checks them (core/tests/test_competition.c).
 *
 * Why not the load average: the 1-minute load average decays with a
 * 60 s time constant, so the ranks of the launch before (a series of
 * launches back to back) are still in it for minutes after they ended, and
 * a quiet dedicated machine is called loaded on every launch but the first.
 * The kernel's count of tasks runnable now (nr_running) has no memory. */
#ifndef MPIMARK_COMPETITION_H
#define MPIMARK_COMPETITION_H

/* Samples of the runnable count spread evenly over the probe: enough that
 * one kernel worker caught in one sample adds a tenth of a task. */
#define COMPETITION_SAMPLES 10
/* Loaded when the tasks runnable beyond the ranks, on average over the
 * samples, exceed the cores the ranks leave free by more than this: half a
 * task of slack, so that a task runnable in fewer than half the samples (a
 * kernel worker, the launcher waking up) is not competition. */
#define COMPETITION_SLACK_TASKS 0.5
/* Or when the hypervisor took more than this share of the machine's CPU
 * time during the probe (steal): then every rank may lose its core at any
 * moment, as on an oversubscribed host. 5 %: five times the share of lost
 * time at which the noise probe warns (NOISE_HIGH_LOST), because the
 * counters are coarse (next line). */
#define COMPETITION_HIGH_STEAL 0.05
/* /proc/stat counts CPU time in ticks of 1/USER_HZ s (10 ms) summed over
 * the machine, and a sum that just crossed a tick boundary reads as one
 * tick; at least two ticks of steal (10 ms or more for certain) are needed
 * before steal can make a machine loaded. */
#define COMPETITION_MIN_STEAL_TICKS 2

/* The aggregate "cpu" line of /proc/stat, in ticks. */
typedef struct {
  double user, nice, system, idle, iowait, irq, softirq, steal;
} cpu_times_t;

/* One machine's figures over the probe (the rank that read them, one per machine). */
typedef struct {
  int cores;               /* CPUs online */
  int ranks;               /* world ranks on the machine, the reader among them */
  int samples;             /* runnable counts read; 0: none could be read */
  double runnable_mean;    /* tasks runnable (running or waiting for a CPU), ranks included */
  int runnable_max;
  double beyond_mean;      /* mean over the samples of max(runnable - ranks, 0) */
  double ticks;            /* CPU time of the machine over the probe, ticks; 0: /proc/stat unread */
  double steal_ticks, idle_ticks;
} competition_t;

/* The aggregate "cpu" line at the start of text (/proc/stat's content): 1
 * and *out filled, 0 when text does not start with one. Fields a kernel
 * does not print (steal before 2.6.11) are 0. */
int cpu_times_parse(const char *text, cpu_times_t *out);
/* Total ticks of a cpu line (guest time is inside user and nice already). */
double cpu_times_total(const cpu_times_t *t);
/* Tasks runnable now from /proc/loadavg's content ("0.52 0.40 0.17 3/91
 * 7160": the 3, the kernel's nr_running, which /proc/stat prints as
 * procs_running); -1 when text is not of that form. */
int runnable_parse(const char *text);

/* Fills c's sample fields from n runnable counts (negative ones: unread,
 * skipped) with c->ranks set; and its tick fields from the cpu lines before
 * and after (NULL either: unknown). */
void competition_samples(competition_t *c, const int *runnable, int n);
void competition_ticks(competition_t *c, const cpu_times_t *before, const cpu_times_t *after);
/* Steal share of the machine's CPU time over the probe, idle share; -1 unknown. */
double competition_steal_share(const competition_t *c);
double competition_idle_share(const competition_t *c);
/* What made other work compete for the ranks' cores (the rules above), as
 * bits: COMPETITION_TASKS, COMPETITION_STEAL; 0: nothing, not loaded. */
#define COMPETITION_TASKS 1
#define COMPETITION_STEAL 2
int competition_verdict(const competition_t *c);

#endif
