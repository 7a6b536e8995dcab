/* Order statistics of a sample: median with its exact 95 % confidence
 * interval from binomial order statistics (reference/method.md §4.4),
 * quartiles and tail percentiles. */
#ifndef MPIMARK_STATS_H
#define MPIMARK_STATS_H

typedef struct {
  int n;                 /* samples */
  double min, max, median, q1, q3, p5, p95;
  int has_ci;            /* 0 when n is too small for any interval at this level */
  double ci_low, ci_high, ci_level, ci_coverage;
  int ci_rank_low, ci_rank_high;  /* 1-based order statistics of the interval */
} summary_t;

/* Ranks (1-based) l < u of the exact symmetric interval x_(l) <= median <= x_(u)
 * at confidence level (e.g. 0.95): the largest l with P(Bin(n,1/2) <= l-1) <= (1-level)/2,
 * u = n-l+1. Returns 0 and the actual coverage, or -1 when n is too small. */
int median_ci_ranks(int n, double level, int *l, int *u, double *coverage);

/* Quantile q of sorted x[0..n-1], linear interpolation between order statistics
 * (Hyndman-Fan type 7, as numpy's default). */
double quantile_sorted(const double *x, int n, double q);

/* Sorts x in place and fills *s. n may be 0 (all fields then 0, has_ci 0). */
void summarize(double *x, int n, double level, summary_t *s);

/* min / max / average over ranks of one value per rank, the figures IMB,
 * mpiBench, b_eff and the start-up table print. Feed values with spread_add
 * (or combine partial spreads with spread_merge, e.g. in an MPI reduction);
 * ties: argmin is the first rank with the minimum, argmax the last with the
 * maximum. An empty spread has n == 0, min +inf and max -inf. */
typedef struct {
  double min, max, sum;
  long n;
  int argmin, argmax;
} spread_t;

void spread_init(spread_t *s);
void spread_add(spread_t *s, double v, int rank);
/* Folds b into a as if b's values had been added after a's. */
void spread_merge(spread_t *a, const spread_t *b);
/* sum / n, 0 when empty. */
double spread_avg(const spread_t *s);

#endif
