#include "tools/beff/beff_calc.h"

#include <math.h>
#include <stdio.h>

long long beff_lmax(long long mem_mb) {
  if (mem_mb < 1) mem_mb = 1;
  long long l = mem_mb * (1024LL * 1024LL / 128LL);
  return l < BEFF_LMAX_CAP ? l : BEFF_LMAX_CAP;
}

double beff_lengths(long long lmax, long long len[BEFF_MSGLENGTHS]) {
  len[0] = 1;
  for (int i = 1; i <= BEFF_MAX_FACT_2; i++) len[i] = 2 * len[i - 1];
  double l = (double)len[BEFF_MAX_FACT_2];
  double factor = pow((double)lmax / l, 1.0 / (BEFF_MSGLENGTHS - 1 - BEFF_MAX_FACT_2));
  for (int i = BEFF_MAX_FACT_2 + 1; i < BEFF_MSGLENGTHS; i++) {
    l *= factor;
    len[i] = (long long)(l + 0.5);
  }
  return factor;
}

void beff_ring_layout(int N, int i_ring, beff_ring_t *r) {
  int medium;
  switch (i_ring) {
    case 0: medium = 2; break;
    case 1: medium = 4; break;
    case 2: medium = 8; break;
    case 3: medium = N / 4 > 16 ? N / 4 : 16; break;
    case 4: medium = N / 2 > 32 ? N / 2 : 32; break;
    default: medium = N; break;
  }
  if (medium > N) medium = N;
  int rings = (int)(1.0 * N / medium + 0.4);
  if (rings > N / 2) rings = N / 2;
  if (rings < 1) rings = 1;
  int low = N / rings, high = low + 1;
  int high_count = N - low * rings, low_count = rings - high_count;
  r->rings = rings;
  if (low % 2 == 1 && high_count > 0) {
    r->first_size = high;
    r->first_count = high_count;
    r->second_size = low;
    r->second_count = low_count;
  } else {
    r->first_size = low;
    r->first_count = low_count;
    r->second_size = high;
    r->second_count = high_count;
  }
}

void beff_ring_neighbours(const beff_ring_t *r, int pos, int *prev, int *next) {
  int size, base;
  int first_span = r->first_count * r->first_size;
  if (pos < first_span) {
    size = r->first_size;
    base = pos / size * size;
  } else {
    size = r->second_size;
    base = (pos - first_span) / size * size + first_span;
  }
  *next = (pos - base + 1) % size + base;
  *prev = (pos - base + size - 1) % size + base;
}

void beff_ring_label(const beff_ring_t *r, char *buf, size_t n) {
  const char *tail = r->second_count == 0 ? "fix" : (r->second_size > r->first_size ? "&+1" : "&-1");
  snprintf(buf, n, "ring-%d*%d%s", r->rings, r->first_size, tail);
}

void beff_random_order(int N, double (*rnd)(void *), void *state, int *order) {
  for (int i = 0; i < N; i++) order[i] = -1;
  for (int i = 0; i < N; i++) {
    int j = (int)(rnd(state) * N);
    if (j >= N) j = N - 1;
    if (j < 0) j = 0;
    while (order[j] != -1) j = (j + 1) % N;
    order[j] = i;
  }
}

void beff_worst_order(int N, int *order) {
  for (int i = 0; i < N; i++) order[i] = i % 2 == 0 ? i / 2 : N - 1 - i / 2;
}

double beff_logavg(const double *v, int n) {
  if (n < 1) return NAN;
  double sum = 0;
  for (int i = 0; i < n; i++) {
    if (!(v[i] > 0)) return NAN;
    sum += log(v[i]);
  }
  return exp(sum / n);
}

static double maxd(double a, double b) { return a > b ? a : b; }

/* Ring, random and final logarithmic averages of one column v[pat]. */
static void logavg_pat(const beff_input_t *in, const double *v, size_t stride, double *ring, double *random,
                       double *final) {
  double buf[BEFF_MAX_PATTERNS];
  for (int i = 0; i < in->n_ring; i++) buf[i] = v[(size_t)(in->first_ring + i) * stride];
  *ring = beff_logavg(buf, in->n_ring);
  for (int i = 0; i < in->n_random; i++) buf[i] = v[(size_t)(in->first_random + i) * stride];
  *random = beff_logavg(buf, in->n_random);
  double two[2] = {*ring, *random};
  *final = beff_logavg(two, 2);
}

int beff_analyse(const beff_input_t *in, beff_analysis_t *a) {
  if (in->n_pat > BEFF_MAX_PATTERNS || in->n_rep > BEFF_MAX_REPS || in->n_mthd > BEFF_METHODS || in->n_rep < 1 ||
      in->n_mthd < 1 || in->first_ring + in->n_ring > in->n_pat || in->first_random + in->n_random > in->n_pat)
    return -1;
  const double *b = in->b;
  const int L = BEFF_MSGLENGTHS;

  /* Official path. */
  for (int p = 0; p < in->n_pat; p++) {
    double sum = 0;
    for (int l = 0; l < L; l++) {
      double best = 0;
      for (int m = 0; m < in->n_mthd; m++)
        for (int r = 0; r < in->n_rep; r++) best = maxd(best, b[beff_index(in, r, p, l, m)]);
      a->pat_msg[p][l] = best;
      sum += best;
    }
    a->pat_msg[p][BEFF_AVG] = sum / L;
  }
  for (int l = 0; l <= L; l++)
    logavg_pat(in, &a->pat_msg[0][l], L + 1, &a->rings_msg[l], &a->random_msg[l], &a->final_msg[l]);
  a->b_eff = a->final_msg[BEFF_AVG];

  /* 2nd and 4th paths: max over repetitions per method and L. */
  for (int p = 0; p < in->n_pat; p++) {
    double best_m = 0;
    for (int m = 0; m < in->n_mthd; m++) {
      double sum = 0;
      for (int l = 0; l < L; l++) {
        double best = 0;
        for (int r = 0; r < in->n_rep; r++) best = maxd(best, b[beff_index(in, r, p, l, m)]);
        a->pat_msg_mthd[p][l][m] = best;
        sum += best;
      }
      a->pat_msg_mthd[p][BEFF_AVG][m] = sum / L;
      a->pat_mthd[p][m] = sum / L;
      best_m = maxd(best_m, sum / L);
    }
    a->pat_mthd[p][in->n_mthd] = best_m;
  }
  for (int m = 0; m <= in->n_mthd; m++)
    logavg_pat(in, &a->pat_mthd[0][m], BEFF_METHODS + 1, &a->rings_mthd[m], &a->random_mthd[m], &a->final_mthd[m]);
  for (int l = 0; l <= L; l++)
    for (int m = 0; m < in->n_mthd; m++)
      logavg_pat(in, &a->pat_msg_mthd[0][l][m], (size_t)(L + 1) * BEFF_METHODS, &a->rings_msg_mthd[l][m],
                 &a->random_msg_mthd[l][m], &a->final_msg_mthd[l][m]);

  /* 3rd path: per repetition. */
  for (int p = 0; p < in->n_pat; p++) {
    double best_r = 0;
    for (int r = 0; r < in->n_rep; r++) {
      double sum = 0;
      for (int l = 0; l < L; l++) {
        double best = 0;
        for (int m = 0; m < in->n_mthd; m++) best = maxd(best, b[beff_index(in, r, p, l, m)]);
        sum += best;
      }
      a->pat_rep[p][r] = sum / L;
      best_r = maxd(best_r, sum / L);
    }
    a->pat_rep[p][in->n_rep] = best_r;
  }
  for (int r = 0; r <= in->n_rep; r++)
    logavg_pat(in, &a->pat_rep[0][r], BEFF_MAX_REPS + 1, &a->rings_rep[r], &a->random_rep[r], &a->final_rep[r]);
  return 0;
}

double beff_pingpong_latency(double b1, long all_msg, int sr_count) {
  if (!(b1 > 0) || sr_count < 1) return NAN;
  return (double)all_msg / (b1 * sr_count);
}

int beff_plot_extra_patterns(int first_extra, int pingpong, int n_pat, int out[BEFF_PLOT_EXTRA]) {
  int n = 0;
  for (int p = first_extra; p < n_pat && n < BEFF_PLOT_EXTRA; p++)
    if (p != pingpong) out[n++] = p;
  return n;
}
