/* util/competition.c: /proc/stat's cpu line and /proc/loadavg's runnable
 * count parsed from real kernels' text, and the "loaded" verdict against
 * hand-computed cases (docs/measurement.md, "Self-checks before measuring"). */
#include "check.h"
#include "util/competition.h"

static void test_parse(void) {
  cpu_times_t t;
  /* Linux 6.x: ten fields; the per-CPU lines after it are not read. */
  CHECK(cpu_times_parse("cpu  10459 1302 2474 29537 374 0 121 16 0 0\ncpu0 4365 786 1166 15506 267 0 46 7 0 0\n",
                        &t));
  CHECK_NEAR(t.user, 10459, 0);
  CHECK_NEAR(t.idle, 29537, 0);
  CHECK_NEAR(t.steal, 16, 0);
  CHECK_NEAR(cpu_times_total(&t), 10459 + 1302 + 2474 + 29537 + 374 + 0 + 121 + 16, 0);
  /* Before 2.6.11 there was no steal field: 0, still a line. */
  CHECK(cpu_times_parse("cpu  1 2 3 4 5 6 7\n", &t));
  CHECK_NEAR(t.steal, 0, 0);
  CHECK_NEAR(cpu_times_total(&t), 28, 0);
  CHECK(!cpu_times_parse("cpu0 1 2 3 4\n", &t));  /* a per-CPU line is not the machine's */
  CHECK(!cpu_times_parse("cpu  1 2\n", &t));
  CHECK(!cpu_times_parse("", &t));
  CHECK(!cpu_times_parse(NULL, &t));

  CHECK_EQ_LONG(runnable_parse("0.72 0.42 0.17 2/91 7160\n"), 2);
  CHECK_EQ_LONG(runnable_parse("12.60 11.02 6.30 17/1204 99"), 17);
  CHECK_EQ_LONG(runnable_parse("0.72 0.42 0.17\n"), -1);
  CHECK_EQ_LONG(runnable_parse(NULL), -1);
}

static void test_samples(void) {
  competition_t c = {.cores = 2, .ranks = 2};
  int quiet[] = {2, 2, 3, 2};  /* a kernel worker in one sample of four */
  competition_samples(&c, quiet, 4);
  CHECK_EQ_LONG(c.samples, 4);
  CHECK_NEAR(c.runnable_mean, 2.25, 1e-12);
  CHECK_EQ_LONG(c.runnable_max, 3);
  CHECK_NEAR(c.beyond_mean, 0.25, 1e-12);
  CHECK_EQ_LONG(competition_verdict(&c), 0);  /* 0.25 beyond 0 free cores: within the half task of slack */

  int busy[] = {6, 6, -1, 5};  /* four spinners beside the two ranks; one sample unread */
  competition_samples(&c, busy, 4);
  CHECK_EQ_LONG(c.samples, 3);
  CHECK_NEAR(c.beyond_mean, 11.0 / 3, 1e-12);
  CHECK_EQ_LONG(competition_verdict(&c), COMPETITION_TASKS);

  /* The same spinners on 16 cores leave the 2 ranks 14 free: no competition. */
  c.cores = 16;
  CHECK_EQ_LONG(competition_verdict(&c), 0);

  /* Fewer runnable than ranks (a rank blocked in the kernel): nothing beyond, never negative. */
  c.cores = 2;
  int fewer[] = {1, 0};
  competition_samples(&c, fewer, 2);
  CHECK_NEAR(c.beyond_mean, 0, 0);

  int none[] = {-1, -1};
  competition_samples(&c, none, 2);
  CHECK_EQ_LONG(c.samples, 0);
  CHECK_EQ_LONG(competition_verdict(&c), 0);  /* nothing read: no verdict of load */
}

static void test_ticks(void) {
  competition_t c = {.cores = 16, .ranks = 16};
  cpu_times_t before, after;
  cpu_times_parse("cpu  1000 0 100 5000 0 0 0 10 0 0\n", &before);
  cpu_times_parse("cpu  1070 0 5 5002 0 0 0 18 0 0\n", &after);  /* the total went back (6110 to 6095) */
  competition_ticks(&c, &before, &after);
  CHECK_NEAR(c.ticks, 0, 0);  /* unknown, not a negative share */
  competition_ticks(&c, NULL, &after);
  CHECK_NEAR(c.ticks, 0, 0);
  CHECK_NEAR(competition_steal_share(&c), -1, 0);

  /* 16 cores for 0.05 s: 80 ticks; 8 of them stolen (10 %). */
  cpu_times_parse("cpu  1000 0 100 5000 0 0 0 10 0 0\n", &before);
  cpu_times_parse("cpu  1070 0 100 5002 0 0 0 18 0 0\n", &after);
  competition_ticks(&c, &before, &after);
  CHECK_NEAR(c.ticks, 80, 1e-12);
  CHECK_NEAR(c.steal_ticks, 8, 0);
  CHECK_NEAR(competition_steal_share(&c), 0.1, 1e-12);
  CHECK_NEAR(competition_idle_share(&c), 2.0 / 80, 1e-12);
  c.samples = 0;
  CHECK_EQ_LONG(competition_verdict(&c), COMPETITION_STEAL);
  c.samples = 10;
  c.beyond_mean = 3;  /* and 3 tasks beyond 16 ranks on 16 cores */
  CHECK_EQ_LONG(competition_verdict(&c), COMPETITION_TASKS | COMPETITION_STEAL);

  /* 2 cores for 0.05 s: 10 ticks; one tick of steal is 10 % but may be a boundary crossed: not enough. */
  competition_t small = {.cores = 2, .ranks = 2, .ticks = 10, .steal_ticks = 1};
  CHECK_EQ_LONG(competition_verdict(&small), 0);
  small.steal_ticks = 2;
  CHECK_EQ_LONG(competition_verdict(&small), COMPETITION_STEAL);
  /* A large machine with 2 ticks of 800 stolen: 0.25 %, not loaded. */
  competition_t large = {.cores = 160, .ranks = 2, .ticks = 800, .steal_ticks = 2};
  CHECK_EQ_LONG(competition_verdict(&large), 0);
}

int main(void) {
  test_parse();
  test_samples();
  test_ticks();
  TEST_MAIN_END();
}
