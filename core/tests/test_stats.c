/* Exact median confidence intervals (reference/method.md §4.4 table) and quantiles. */
#include "check.h"
#include "util/stats.h"

int main(void) {
  struct { int n, l, u; double cov; } want[] = {
    {6, 1, 6, .969}, {8, 1, 8, .992}, {10, 2, 9, .979}, {15, 4, 12, .965}, {20, 6, 15, .959},
    {30, 10, 21, .957}, {50, 18, 33, .967}, {100, 40, 61, .965}, {200, 86, 115, .960},
    {500, 228, 273, .956}, {1000, 469, 532, .954}, {10000, 4902, 5099, .951}};
  for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
    int l, u;
    double cov;
    CHECK(median_ci_ranks(want[i].n, 0.95, &l, &u, &cov) == 0);
    CHECK_EQ_LONG(l, want[i].l);
    CHECK_EQ_LONG(u, want[i].u);
    CHECK_NEAR(cov, want[i].cov, 0.0015);
  }
  int l, u;
  double cov;
  CHECK(median_ci_ranks(5, 0.95, &l, &u, &cov) == -1);
  CHECK(median_ci_ranks(1, 0.95, &l, &u, &cov) == -1);
  /* 99 %: n=20 (4,17), n=100 (37,64). */
  CHECK(median_ci_ranks(20, 0.99, &l, &u, &cov) == 0);
  CHECK_EQ_LONG(l, 4);
  CHECK_EQ_LONG(u, 17);
  CHECK(median_ci_ranks(100, 0.99, &l, &u, &cov) == 0);
  CHECK_EQ_LONG(l, 37);

  /* Quantiles, type 7: 1..10 reversed. */
  double x[10] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  summary_t s;
  summarize(x, 10, 0.95, &s);
  CHECK_NEAR(s.median, 5.5, 1e-12);
  CHECK_NEAR(s.q1, 3.25, 1e-12);
  CHECK_NEAR(s.q3, 7.75, 1e-12);
  CHECK_NEAR(s.p5, 1.45, 1e-12);
  CHECK_NEAR(s.p95, 9.55, 1e-12);
  CHECK_NEAR(s.min, 1, 0);
  CHECK_NEAR(s.max, 10, 0);
  CHECK(s.has_ci);
  CHECK_NEAR(s.ci_low, 2, 0);   /* x_(2) */
  CHECK_NEAR(s.ci_high, 9, 0);  /* x_(9) */
  double y[3] = {3, 1, 2};
  summarize(y, 3, 0.95, &s);
  CHECK(!s.has_ci);
  CHECK_NEAR(s.median, 2, 0);
  summarize(y, 0, 0.95, &s);
  CHECK_EQ_LONG(s.n, 0);
  TEST_MAIN_END();
}
