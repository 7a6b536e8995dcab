#include "util/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int median_ci_ranks(int n, double level, int *l, int *u, double *coverage) {
  double alpha_half = (1.0 - level) / 2.0;
  /* Walk the CDF of Bin(n, 1/2) upwards in log space: the pmf of i is
   * exp(lgamma(n+1) - lgamma(i+1) - lgamma(n-i+1) - n ln 2). */
  double log_norm = lgamma(n + 1.0) - n * log(2.0);
  double cdf = 0.0;   /* P(X <= l-1) for the current l */
  int best = 0;
  double best_cdf = 0.0;
  for (int k = 1; k <= n / 2; k++) {
    cdf += exp(log_norm - lgamma(k) - lgamma(n - k + 2.0)); /* pmf at i = k-1 */
    if (cdf <= alpha_half * (1.0 + 1e-12)) {
      best = k;
      best_cdf = cdf;
    } else {
      break;
    }
  }
  if (best == 0) return -1;
  *l = best;
  *u = n - best + 1;
  *coverage = 1.0 - 2.0 * best_cdf;
  return 0;
}

double quantile_sorted(const double *x, int n, double q) {
  if (n <= 0) return 0.0;
  if (n == 1) return x[0];
  double h = (n - 1) * q;
  int lo = (int)floor(h);
  if (lo >= n - 1) return x[n - 1];
  return x[lo] + (h - lo) * (x[lo + 1] - x[lo]);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void summarize(double *x, int n, double level, summary_t *s) {
  memset(s, 0, sizeof(*s));
  s->n = n;
  s->ci_level = level;
  if (n <= 0) return;
  qsort(x, (size_t)n, sizeof(double), cmp_double);
  s->min = x[0];
  s->max = x[n - 1];
  s->median = quantile_sorted(x, n, 0.5);
  s->q1 = quantile_sorted(x, n, 0.25);
  s->q3 = quantile_sorted(x, n, 0.75);
  s->p5 = quantile_sorted(x, n, 0.05);
  s->p95 = quantile_sorted(x, n, 0.95);
  int l, u;
  double cov;
  if (median_ci_ranks(n, level, &l, &u, &cov) == 0) {
    s->has_ci = 1;
    s->ci_rank_low = l;
    s->ci_rank_high = u;
    s->ci_low = x[l - 1];
    s->ci_high = x[u - 1];
    s->ci_coverage = cov;
  }
}

void spread_init(spread_t *s) {
  s->min = INFINITY;
  s->max = -INFINITY;
  s->sum = 0;
  s->n = 0;
  s->argmin = s->argmax = -1;
}

void spread_add(spread_t *s, double v, int rank) {
  if (v < s->min) {
    s->min = v;
    s->argmin = rank;
  }
  if (v >= s->max) {
    s->max = v;
    s->argmax = rank;
  }
  s->sum += v;
  s->n++;
}

void spread_merge(spread_t *a, const spread_t *b) {
  if (b->n == 0) return;
  if (b->min < a->min) {
    a->min = b->min;
    a->argmin = b->argmin;
  }
  if (b->max >= a->max) {
    a->max = b->max;
    a->argmax = b->argmax;
  }
  a->sum += b->sum;
  a->n += b->n;
}

double spread_avg(const spread_t *s) { return s->n > 0 ? s->sum / (double)s->n : 0; }
