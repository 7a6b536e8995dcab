#include "util/competition.h"

#include <stdio.h>
#include <string.h>

int cpu_times_parse(const char *text, cpu_times_t *out) {
  memset(out, 0, sizeof(*out));
  /* "cpu " then at least user, nice, system, idle; the per-CPU lines ("cpu0 ") follow it. */
  if (!text || strncmp(text, "cpu ", 4) != 0) return 0;
  int n = sscanf(text + 4, "%lf %lf %lf %lf %lf %lf %lf %lf", &out->user, &out->nice, &out->system, &out->idle,
                 &out->iowait, &out->irq, &out->softirq, &out->steal);
  if (n < 4) {
    memset(out, 0, sizeof(*out));
    return 0;
  }
  return 1;
}

double cpu_times_total(const cpu_times_t *t) {
  return t->user + t->nice + t->system + t->idle + t->iowait + t->irq + t->softirq + t->steal;
}

int runnable_parse(const char *text) {
  double l1, l5, l15;
  int running, total;
  if (!text || sscanf(text, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &running, &total) != 5 || running < 0) return -1;
  return running;
}

void competition_samples(competition_t *c, const int *runnable, int n) {
  double sum = 0, beyond = 0;
  c->samples = 0;
  c->runnable_max = 0;
  for (int i = 0; i < n; i++) {
    if (runnable[i] < 0) continue;
    c->samples++;
    sum += runnable[i];
    if (runnable[i] > c->runnable_max) c->runnable_max = runnable[i];
    if (runnable[i] > c->ranks) beyond += runnable[i] - c->ranks;
  }
  c->runnable_mean = c->samples ? sum / c->samples : 0;
  c->beyond_mean = c->samples ? beyond / c->samples : 0;
}

void competition_ticks(competition_t *c, const cpu_times_t *before, const cpu_times_t *after) {
  c->ticks = c->steal_ticks = c->idle_ticks = 0;
  if (!before || !after) return;
  double total = cpu_times_total(after) - cpu_times_total(before);
  if (total <= 0) return; /* under one tick passed, or the counters went back: unknown */
  c->ticks = total;
  c->steal_ticks = after->steal > before->steal ? after->steal - before->steal : 0;
  c->idle_ticks = after->idle > before->idle ? after->idle - before->idle : 0;
}

double competition_steal_share(const competition_t *c) {
  return c->ticks > 0 ? c->steal_ticks / c->ticks : -1;
}

double competition_idle_share(const competition_t *c) {
  return c->ticks > 0 ? c->idle_ticks / c->ticks : -1;
}

int competition_verdict(const competition_t *c) {
  int why = 0;
  int free_cores = c->cores > c->ranks ? c->cores - c->ranks : 0;
  if (c->samples > 0 && c->beyond_mean > free_cores + COMPETITION_SLACK_TASKS) why |= COMPETITION_TASKS;
  if (c->steal_ticks >= COMPETITION_MIN_STEAL_TICKS && competition_steal_share(c) > COMPETITION_HIGH_STEAL)
    why |= COMPETITION_STEAL;
  return why;
}
