/* util/policy.c: the engine's batch choice, overlap and bandwidth figures,
 * and memory verdicts, against hand-computed values; util/stats.c's spread. */
#include "check.h"
#include "util/policy.h"
#include "util/stats.h"

#include <math.h>

static void test_batch(void) {
  CHECK_EQ_LONG(policy_batch(1000, 1e-6, 1, 0, -1), 1);        /* own loop: every iteration a sample */
  CHECK_EQ_LONG(policy_batch(1000, 1e-6, 0, 0, 1), 1000);      /* aggregate: one batch */
  CHECK_EQ_LONG(policy_batch(1000, 1e-6, 0, 1, -1), 1);        /* -sync: barrier after every call */
  CHECK_EQ_LONG(policy_batch(1000, 1e-6, 0, 0, -1), 10);       /* 10 us of 1 us calls */
  CHECK_EQ_LONG(policy_batch(1000, 1e-7, 0, 0, -1), 20);       /* 100 wanted, capped at 1000 / 50 */
  CHECK_EQ_LONG(policy_batch(1000, 1e-3, 0, 0, -1), 1);        /* slow calls: one per sample */
  CHECK_EQ_LONG(policy_batch(1000, -1, 0, 0, -1), 20);         /* unknown time: n / 50 */
  CHECK_EQ_LONG(policy_batch(30, 1e-8, 0, 0, -1), 1);          /* too few for 50 batches: 1 */
  CHECK_EQ_LONG(policy_batch(5, -1, 0, 0, 0), 1);
}

static void test_overlap(void) {
  double pct, pct_max;
  policy_overlap(10, 10, 10, &pct, &pct_max);                   /* gain 10 of min 10 and max 10 */
  CHECK_NEAR(pct, 100, 1e-12);
  CHECK_NEAR(pct_max, 100, 1e-12);
  policy_overlap(15, 10, 20, &pct, &pct_max);                   /* gain 15: /10 clipped to 1, /20 = .75 */
  CHECK_NEAR(pct, 100, 1e-12);
  CHECK_NEAR(pct_max, 75, 1e-12);
  policy_overlap(28, 10, 20, &pct, &pct_max);                   /* gain 2: 20 % and 10 % */
  CHECK_NEAR(pct, 20, 1e-12);
  CHECK_NEAR(pct_max, 10, 1e-12);
  policy_overlap(40, 10, 20, &pct, &pct_max);                   /* no gain: 0 */
  CHECK_NEAR(pct, 0, 1e-12);
  CHECK_NEAR(pct_max, 0, 1e-12);
  policy_overlap(1, 0, 0, &pct, &pct_max);                      /* zero denominators */
  CHECK_NEAR(pct, 0, 1e-12);
}

static void test_bandwidth(void) {
  CHECK_NEAR(policy_mbytes_per_sec(1, 1000000, 1000), 1000, 1e-9);  /* 1 MB in 1 ms */
  CHECK_NEAR(policy_mbytes_per_sec(2, 1000, 1), 2000, 1e-9);
  CHECK_NEAR(policy_mbytes_per_sec(1, 1000, 0), 0, 0);
  CHECK_NEAR(policy_msgs_per_sec(1, 64, 1, 64), 1e6, 1e-6);         /* 64 messages in 64 us */
  CHECK_NEAR(policy_msgs_per_sec(2, 64, 2, 128), 2e6, 1e-6);
}

static void test_memory(void) {
  options_t o;
  options_defaults(&o, "mpi1");
  layout_t ls, lr;
  CHECK_NEAR(policy_need_bytes(BUF_X, BUF_NP_X, 0, 1000, 4, &o, 100, &ls, &lr), 5000, 0);
  CHECK_EQ_LONG(ls.slots, 1);
  CHECK_NEAR(policy_need_bytes(BUF_NONE, BUF_2X, 0, 1000, 4, &o, 100, &ls, &lr), 2000, 0);
  CHECK_NEAR(policy_need_bytes(BUF_X, BUF_X, 1, 1000, 4, &o, 8, &ls, &lr), 16000, 0);   /* 8 disjoint slots each */
  CHECK_EQ_LONG(lr.slots, 8);
  CHECK_EQ_LONG(policy_memory(0.5 * 1073741824.0, 1, 1, 1e12), MEM_FITS);
  CHECK_EQ_LONG(policy_memory(1.5 * 1073741824.0, 1, 1, 1e12), MEM_OVER_LIMIT);
  CHECK_EQ_LONG(policy_memory(1e9, 2, 4, 4e9), MEM_HOST_SHORT);    /* 4 GB of 0.9 * 4 GB */
  CHECK_EQ_LONG(policy_memory(1e9, 2, 3, 4e9), MEM_FITS);
}

static void test_spread(void) {
  spread_t s;
  spread_init(&s);
  CHECK_EQ_LONG(s.n, 0);
  CHECK_NEAR(spread_avg(&s), 0, 0);
  double v[] = {3, 1, 4, 1, 5, 5};
  for (int i = 0; i < 6; i++) spread_add(&s, v[i], i);
  CHECK_NEAR(s.min, 1, 0);
  CHECK_NEAR(s.max, 5, 0);
  CHECK_NEAR(spread_avg(&s), 19.0 / 6, 1e-12);
  CHECK_EQ_LONG(s.argmin, 1);    /* the first of the ties */
  CHECK_EQ_LONG(s.argmax, 5);    /* the last of the ties */
  spread_t a, b;
  spread_init(&a);
  spread_init(&b);
  for (int i = 0; i < 3; i++) spread_add(&a, v[i], i);
  for (int i = 3; i < 6; i++) spread_add(&b, v[i], i);
  spread_merge(&a, &b);
  CHECK(a.min == s.min && a.max == s.max && a.sum == s.sum && a.n == s.n);
  CHECK(a.argmin == s.argmin && a.argmax == s.argmax);
  spread_t empty;
  spread_init(&empty);
  spread_merge(&a, &empty);
  CHECK_EQ_LONG(a.n, 6);
}

static void test_rigour(void) {
  CHECK_EQ_LONG(policy_repeats(1, 1, 0.001, 10), 1);           /* the default: one loop, as IMB */
  CHECK_EQ_LONG(policy_repeats(50, 1, 0.001, 10), 1);
  CHECK_EQ_LONG(policy_repeats(1, 30, 0.001, 10), 30);         /* -min_samples 30, one sample a loop */
  CHECK_EQ_LONG(policy_repeats(10, 30, 0.001, 10), 3);         /* ten a loop: 3 loops */
  CHECK_EQ_LONG(policy_repeats(7, 30, 0.001, 10), 5);          /* 35 samples: the loop is never cut */
  CHECK_EQ_LONG(policy_repeats(50, 30, 0.001, 10), 1);         /* enough already */
  CHECK_EQ_LONG(policy_repeats(1, 30, 1.0, 10), 10);           /* the budget allows 10 */
  CHECK_EQ_LONG(policy_repeats(1, 30, 5.0, 10), 6);            /* never below 6 samples ... */
  CHECK_EQ_LONG(policy_repeats(1, 3, 5.0, 10), 3);             /* ... or below what was asked, if fewer */
  CHECK_EQ_LONG(policy_repeats(0, 30, 0, 10), 30);             /* no sample count known: one a loop */
  double hw;
  double flat[40];
  for (int i = 0; i < 40; i++) flat[i] = 100.0 + (i % 2) * 0.1;
  CHECK_EQ_LONG(policy_ci_stop(flat, 40, 0.01, 0, 10, 1000, &hw), CI_STOP_TARGET);
  CHECK(hw <= 0.01);
  double wide[40];
  for (int i = 0; i < 40; i++) wide[i] = 50.0 + 5.0 * i;       /* spread far beyond 1 % */
  CHECK_EQ_LONG(policy_ci_stop(wide, 40, 0.01, 0, 10, 1000, &hw), CI_CONTINUE);
  CHECK(hw > 0.01);
  CHECK_EQ_LONG(policy_ci_stop(wide, 40, 0.01, 11, 10, 1000, &hw), CI_STOP_TIME);
  CHECK_EQ_LONG(policy_ci_stop(wide, 40, 0.01, 0, 10, 40, &hw), CI_STOP_MAX);
  CHECK_EQ_LONG(policy_ci_stop(wide, 3, 0.5, 0, 10, 1000, &hw), CI_CONTINUE);  /* no interval yet */
  CHECK(isnan(hw));
  CHECK_NEAR(policy_window_ns(1000, 100), 20000, 1e-9);
  CHECK_NEAR(policy_window_ns(10000, 1000), 29000, 1e-9);
}

int main(void) {
  test_rigour();
  test_batch();
  test_overlap();
  test_bandwidth();
  test_memory();
  test_spread();
  TEST_MAIN_END();
}
