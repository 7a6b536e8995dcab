/* OSU's -z percentile pick (osu_tail.h). */
#include "suites/osu/osu_tail.h"

#include <stdlib.h>

static int ascending(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void osu_tail_pick(const osu_options_t *o, double *values, long n, double *out) {
  if (n <= 0 || o->n_tail <= 0) return;
  qsort(values, (size_t)n, sizeof(*values), ascending);
  for (int p = 0; p < o->n_tail && p < OSU_MAX_TAIL; p++) {
    long at = (long)((size_t)n * (size_t)o->tail[p] / 100) - 1;
    if (at < 0) at = 0;
    if (at >= n) at = n - 1;
    out[p] = values[at];
  }
}
