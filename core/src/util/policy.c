#include "util/policy.h"

#include "util/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

long policy_batch(long n, double t_iter_s, int own_loop, int barrier_each, int aggregate) {
  if (own_loop) return 1;
  if (aggregate == 1) return n;
  if (barrier_each) return 1;
  long cap = n / MIN_BATCHES;
  if (t_iter_s <= 0) return cap > 1 ? cap : 1;
  long want = (long)ceil(BATCH_MIN_NS / (t_iter_s * 1e9));
  if (want > cap) want = cap;
  return want < 1 ? 1 : want;
}

void policy_overlap(double t_ovrl, double t_pure, double t_cpu, double *pct, double *pct_max) {
  double lo = t_pure < t_cpu ? t_pure : t_cpu, hi = t_pure > t_cpu ? t_pure : t_cpu;
  double gain = t_pure + t_cpu - t_ovrl;
  *pct = lo > 0 ? 100.0 * fmax(0.0, fmin(1.0, gain / lo)) : 0.0;
  *pct_max = hi > 0 ? 100.0 * fmax(0.0, fmin(1.0, gain / hi)) : 0.0;
}

double policy_mbytes_per_sec(double factor, size_t bytes, double t_max_us) {
  return t_max_us > 0 ? factor * (double)bytes / t_max_us : 0;
}

double policy_msgs_per_sec(double bw_scale, int window, int pairs, double t_max_us) {
  return t_max_us > 0 ? bw_scale * 1e6 * window * pairs / t_max_us : 0;
}

double policy_need_bytes(bufsize_t sbuf, bufsize_t rbuf, int disjoint, size_t bytes, int np, const options_t *o,
                         long n_sel, layout_t *ls, layout_t *lr) {
  if (disjoint) {
    buffer_layout_disjoint(buffer_bytes(sbuf, bytes, np), n_sel, ls);
    buffer_layout_disjoint(buffer_bytes(rbuf, bytes, np), n_sel, lr);
  } else {
    buffer_layout(buffer_bytes(sbuf, bytes, np), o, n_sel, ls);
    buffer_layout(buffer_bytes(rbuf, bytes, np), o, n_sel, lr);
  }
  return (double)ls->alloc + (double)lr->alloc;
}

mem_verdict_t policy_memory(double need_bytes, double mem_gb, int ranks_on_host, double mem_available) {
  if (need_bytes / 1073741824.0 > mem_gb) return MEM_OVER_LIMIT;
  if (need_bytes * ranks_on_host > 0.9 * mem_available) return MEM_HOST_SHORT;
  return MEM_FITS;
}

long policy_repeats(int per_loop, long min_samples, double loop_s, double budget_s) {
  if (per_loop <= 0) per_loop = 1;
  long want = (min_samples + per_loop - 1) / per_loop;
  if (loop_s > 0 && budget_s > 0 && (double)want * loop_s > budget_s) {
    long fit = (long)(budget_s / loop_s);
    long floor_samples = min_samples < CI_MIN_SAMPLES ? min_samples : CI_MIN_SAMPLES;
    long floor_n = (floor_samples + per_loop - 1) / per_loop;
    want = fit > floor_n ? fit : floor_n;
  }
  return want < 1 ? 1 : want;
}

int policy_ci_stop(const double *samples, int n, double target, double elapsed_s, double budget_s, int max_n,
                   double *half_width) {
  *half_width = NAN;
  if (n > 0) {
    double *x = malloc(sizeof(double) * (size_t)n);
    memcpy(x, samples, sizeof(double) * (size_t)n);
    summary_t s;
    summarize(x, n, 0.95, &s);
    free(x);
    if (s.has_ci && s.median > 0) {
      double lo = s.median - s.ci_low, hi = s.ci_high - s.median;
      *half_width = (lo > hi ? lo : hi) / s.median;
      if (*half_width <= target) return CI_STOP_TARGET;
    }
  }
  if (n >= max_n) return CI_STOP_MAX;
  if (elapsed_s >= budget_s) return CI_STOP_TIME;
  return CI_CONTINUE;
}

const char *policy_ci_stop_name(int reason) {
  return reason == CI_STOP_TARGET ? "target" : reason == CI_STOP_TIME ? "time" : reason == CI_STOP_MAX ? "max" : NULL;
}

double policy_window_ns(double t_call_ns, double clock_err_ns) {
  if (t_call_ns < 0) t_call_ns = 0;
  double w = 2.0 * t_call_ns + 4.0 * clock_err_ns + 5000.0;
  return w > 20000.0 ? w : 20000.0;
}
