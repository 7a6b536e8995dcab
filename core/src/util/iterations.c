#include "util/iterations.h"

#include <limits.h>

/* IMB sizes every buffer at least as large as its assign type (4 bytes). */
#define ASSIGN_TYPE_SIZE 4

long iter_select(const iter_params_t *p, size_t size, int num_procs, int has_root, int sync, int aggregate) {
  long x_sample = aggregate ? p->msgspersample : p->msgs_nonaggr;
  /* IMB's order: -iter_policy off sets MSGSPERSAMPLE before Sync takes its x_sample. */
  if (p->policy == POLICY_OFF) return p->msgspersample;
  if (sync) return x_sample;
  if (p->policy == POLICY_MULTIPLE_NP || (p->policy == POLICY_AUTO && has_root)) {
    double init_size = size > ASSIGN_TYPE_SIZE ? (double)size : ASSIGN_TYPE_SIZE;
    double top = (double)((size_t)1 << p->max_msg_log);
    long tmp = (long)((double)p->msgspersample * top / ((double)num_procs * init_size + top) + 0.5);
    long n = tmp - tmp % num_procs;
    return n > num_procs ? n : num_procs;
  }
  if (size == 0) return x_sample;
  double by_volume = p->overall_vol / (double)size;
  long n = by_volume < (double)x_sample ? (long)by_volume : x_sample;
  return n > 1 ? n : 1;
}

int iter_calibrates(const iter_params_t *p, int has_root) {
  return p->policy == POLICY_DYNAMIC || (p->policy == POLICY_AUTO && !has_root);
}

long iter_rep_test(const iter_params_t *p, double t_one) {
  if (t_one < 1.0 / (double)p->rep_test_cap) return p->rep_test_cap;
  if (t_one < 1.0) return (long)(1.0 / t_one + 0.5);
  return 1;
}

long iter_time_cap(double t_per_iter, double secs, long selected) {
  if (t_per_iter > 1e-8 && 1.0 + secs / t_per_iter <= (double)INT_MAX) return (long)(1.0 + secs / t_per_iter);
  return selected;
}

long iter_warmup(long n_sample) {
  long n = n_sample / 10;
  if (n < 10) n = n_sample < 10 ? n_sample : 10;
  return n;
}

double iter_time_limit(int n_list, int min_log, int max_log, double secs) {
  int span = max_log - min_log;
  int m = n_list > span ? n_list : span;
  m -= 1;
  if (m < 1) m = 1;
  return m * secs;
}

int log2_ceil(size_t x) {
  int k = 0;
  while (((size_t)1 << k) < x && k < 63) k++;
  return k;
}

long iter_time_limited(long max_iters, double time_limit_us, double estimate_us) {
  if (!(time_limit_us > 0) || !(estimate_us > 0)) return max_iters;
  double lim = time_limit_us / estimate_us;
  return lim >= (double)max_iters ? max_iters : (long)lim;
}
