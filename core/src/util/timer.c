#include "util/timer.h"
#include "util/stats.h"

#include <stdlib.h>

void timer_selftest(int n, timer_selftest_t *out) {
  int64_t *t = malloc(sizeof(int64_t) * (size_t)(n + 1));
  double *d = malloc(sizeof(double) * (size_t)n);
  out->overhead_ns = 0;
  out->granularity_ns = 0;
  out->monotonic = 1;
  if (!t || !d) { free(t); free(d); return; }
  for (int i = 0; i <= n; i++) t[i] = now_ns();
  int64_t gran = 0;
  for (int i = 0; i < n; i++) {
    int64_t step = t[i + 1] - t[i];
    if (step < 0) out->monotonic = 0;
    if (step > 0 && (gran == 0 || step < gran)) gran = step;
    d[i] = (double)step;
  }
  summary_t s;
  summarize(d, n, 0.95, &s);
  out->overhead_ns = s.median;
  out->granularity_ns = (double)gran;
  free(t);
  free(d);
}
