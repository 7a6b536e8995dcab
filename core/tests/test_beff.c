/* b_eff arithmetic: Lmax, the 21 lengths, ring layouts, random orders and
 * the averaging that gives b_eff, checked against values worked out by hand. */
#include "check.h"
#include "tools/beff/beff_calc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double always(void *s) { return *(double *)s; }

/* Bandwidths, in MB/s, for the averaging test: see main. */
static double best_ring(int p, int l) { return ldexp(1.0, p) * (l + 1); }
static double best_random(int q, int l) { return (q % 2 ? 9.0 : 4.0) * (l + 1); }

int main(void) {
  /* Lmax = min(128 MiB, memory/128). */
  CHECK_EQ_LONG(beff_lmax(128), 1048576);             /* 128 MiB / 128 = 1 MiB */
  CHECK_EQ_LONG(beff_lmax(1024), 8388608);            /* 1 GiB / 128 = 8 MiB */
  CHECK_EQ_LONG(beff_lmax(100), 819200);              /* 100 MiB / 128 */
  CHECK_EQ_LONG(beff_lmax(12288), 100663296);         /* 12 GiB / 128 = 96 MiB */
  CHECK_EQ_LONG(beff_lmax(16384), 134217728);         /* 16 GiB / 128 = 128 MiB, the cap */
  CHECK_EQ_LONG(beff_lmax(65536), 134217728);         /* capped */

  /* 128 MB per process: Lmax = 1 MiB, factor 2, so all 21 lengths are 2^i. */
  long long len[BEFF_MSGLENGTHS];
  double f = beff_lengths(beff_lmax(128), len);
  CHECK_NEAR(f, 2.0, 1e-12);
  for (int i = 0; i < BEFF_MSGLENGTHS; i++) CHECK_EQ_LONG(len[i], 1L << i);
  /* 1024 MB: factor = (8 MiB / 4 KiB)^(1/8) = 2^(11/8); lengths accumulate
   * 4096 * factor^k and round: 10624 27554 71468 185364 480774 1246974 3234251 8388608. */
  f = beff_lengths(beff_lmax(1024), len);
  CHECK_NEAR(f, pow(2.0, 11.0 / 8.0), 1e-12);
  long long want1024[8] = {10624, 27554, 71468, 185364, 480774, 1246974, 3234251, 8388608};
  for (int i = 0; i <= 12; i++) CHECK_EQ_LONG(len[i], 1L << i);
  for (int i = 0; i < 8; i++) CHECK_EQ_LONG(len[13 + i], want1024[i]);
  /* 100 MB: Lmax = 819200, factor = 200^(1/8). */
  beff_lengths(beff_lmax(100), len);
  long long want100[8] = {7943, 15403, 29871, 57926, 112332, 217837, 422436, 819200};
  for (int i = 0; i < 8; i++) CHECK_EQ_LONG(len[13 + i], want100[i]);

  /* Ring layouts. N = 2: every pattern is one ring of 2. */
  beff_ring_t r;
  char label[32];
  for (int i = 0; i < BEFF_RINGS; i++) {
    beff_ring_layout(2, i, &r);
    CHECK_EQ_LONG(r.rings, 1);
    CHECK_EQ_LONG(r.first_size, 2);
    CHECK_EQ_LONG(r.second_count, 0);
  }
  beff_ring_label(&r, label, sizeof label);
  CHECK(strcmp(label, "ring-1*2fix") == 0);
  /* N = 5, medium size 2: rings = min((int)(2.5+0.4), 5/2) = 2; low = 2 (even)
   * first, then one ring of 3. */
  beff_ring_layout(5, 0, &r);
  CHECK_EQ_LONG(r.rings, 2);
  CHECK_EQ_LONG(r.first_size, 2);
  CHECK_EQ_LONG(r.first_count, 1);
  CHECK_EQ_LONG(r.second_size, 3);
  CHECK_EQ_LONG(r.second_count, 1);
  beff_ring_label(&r, label, sizeof label);
  CHECK(strcmp(label, "ring-2*2&+1") == 0);
  int prev, next;
  beff_ring_neighbours(&r, 1, &prev, &next);
  CHECK_EQ_LONG(prev, 0);
  CHECK_EQ_LONG(next, 0);
  beff_ring_neighbours(&r, 4, &prev, &next);
  CHECK_EQ_LONG(prev, 3);
  CHECK_EQ_LONG(next, 2);
  /* N = 7, medium size 4: rings = min((int)(1.75+0.4), 3) = 2; low = 3 is odd
   * and one ring is larger, so the ring of 4 comes first: "ring-2*4&-1". */
  beff_ring_layout(7, 1, &r);
  CHECK_EQ_LONG(r.rings, 2);
  CHECK_EQ_LONG(r.first_size, 4);
  CHECK_EQ_LONG(r.second_size, 3);
  beff_ring_label(&r, label, sizeof label);
  CHECK(strcmp(label, "ring-2*4&-1") == 0);
  beff_ring_neighbours(&r, 3, &prev, &next);
  CHECK_EQ_LONG(prev, 2);
  CHECK_EQ_LONG(next, 0);
  beff_ring_neighbours(&r, 4, &prev, &next);
  CHECK_EQ_LONG(prev, 6);
  CHECK_EQ_LONG(next, 5);
  /* N = 7, medium size 2: 3 rings, 2 of size 2 then 1 of size 3. */
  beff_ring_layout(7, 0, &r);
  beff_ring_label(&r, label, sizeof label);
  CHECK(strcmp(label, "ring-3*2&+1") == 0);
  /* N = 64: sizes 2, 4, 8, 16, 32, 64 -> 32, 16, 8, 4, 2, 1 rings. */
  int want_rings[6] = {32, 16, 8, 4, 2, 1};
  for (int i = 0; i < 6; i++) {
    beff_ring_layout(64, i, &r);
    CHECK_EQ_LONG(r.rings, want_rings[i]);
  }
  /* N = 256: 4th ring size max(16, 64) = 64, 5th max(32, 128) = 128. */
  beff_ring_layout(256, 3, &r);
  CHECK_EQ_LONG(r.first_size, 64);
  beff_ring_layout(256, 4, &r);
  CHECK_EQ_LONG(r.first_size, 128);

  /* Random order with linear probing. */
  int order[8];
  double zero = 0.0, high = 0.999;
  beff_random_order(5, always, &zero, order);
  for (int i = 0; i < 5; i++) CHECK_EQ_LONG(order[i], i);
  beff_random_order(5, always, &high, order);
  int want_high[5] = {1, 2, 3, 4, 0};
  for (int i = 0; i < 5; i++) CHECK_EQ_LONG(order[i], want_high[i]);
  beff_worst_order(6, order);
  int want_worst[6] = {0, 5, 1, 4, 2, 3};
  for (int i = 0; i < 6; i++) CHECK_EQ_LONG(order[i], want_worst[i]);

  /* Logarithmic average. */
  double v3[3] = {1, 8, 27};
  CHECK_NEAR(beff_logavg(v3, 3), 6.0, 1e-12);        /* (1*8*27)^(1/3) = 216^(1/3) = 6 */
  double bad[2] = {5, 0};
  CHECK(isnan(beff_logavg(bad, 2)));

  /* b_eff by hand. 3 repetitions, 3 methods, patterns 0-5 rings, 6-35 random,
   * 36-39 reported only (given 1e6 MB/s, which must not count).
   *
   * For ring p and length index l the best value over methods and
   * repetitions is 2^p * (l+1) MB/s; it sits at repetition (p+l) mod 3 and
   * method (p+2l) mod 3, every other (rep, method) holds half of it or 0.
   * Random pattern q: best value c_q * (l+1) with c_q = 4 (q even), 9 (q odd).
   *
   *   max_mthd max_rep b(ring p, L_l)      = 2^p (l+1)
   *   avg_L over the 21 lengths             = 2^p * (1+2+...+21)/21 = 2^p * 231/21 = 11 * 2^p
   *   logavg over the 6 rings               = 11 * 2^((0+1+2+3+4+5)/6) = 11 * 2^2.5 = 62.2253967...
   *   random q: avg_L                       = 11 c_q
   *   logavg over 30 random (15x44, 15x99)  = sqrt(44 * 99) = 66
   *   b_eff = logavg(ring, random)          = sqrt(11 * 2^2.5 * 66) = 11 * sqrt(6 * 2^2.5)
   *                                         = 64.0849138653667 MB/s
   * At L = 1 byte alone: rings 2^2.5, random sqrt(36) = 6, final sqrt(6 * 2^2.5) = 5.8259012... */
  beff_input_t in = {.n_rep = 3, .n_pat = 40, .n_mthd = 3, .first_ring = 0, .n_ring = 6,
                     .first_random = 6, .n_random = 30};
  size_t n = (size_t)in.n_rep * in.n_pat * BEFF_MSGLENGTHS * in.n_mthd;
  double *b = calloc(n, sizeof(double));
  in.b = b;
  for (int p = 0; p < in.n_pat; p++)
    for (int l = 0; l < BEFF_MSGLENGTHS; l++) {
      double best = p < 6 ? best_ring(p, l) : p < 36 ? best_random(p - 6, l) : 1e6;
      int br = (p + l) % 3, bm = (p + 2 * l) % 3;
      for (int rep = 0; rep < 3; rep++)
        for (int m = 0; m < 3; m++) {
          double v = (rep == br && m == bm) ? best : ((rep + m) % 2 ? best / 2 : 0);
          b[beff_index(&in, rep, p, l, m)] = v * 1e6;
        }
    }
  beff_analysis_t *a = malloc(sizeof *a);
  CHECK(beff_analyse(&in, a) == 0);
  const double want_beff = 11.0 * sqrt(6.0 * pow(2.0, 2.5));
  CHECK_NEAR(want_beff, 64.0849138653667, 1e-9);
  CHECK_NEAR(a->b_eff / 1e6, want_beff, 1e-9);
  CHECK_NEAR(a->rings_msg[BEFF_AVG] / 1e6, 11.0 * pow(2.0, 2.5), 1e-9);
  CHECK_NEAR(a->random_msg[BEFF_AVG] / 1e6, 66.0, 1e-9);
  CHECK_NEAR(a->pat_msg[3][BEFF_AVG] / 1e6, 88.0, 1e-9);          /* 11 * 2^3 */
  CHECK_NEAR(a->pat_msg[3][20] / 1e6, 8.0 * 21, 1e-9);            /* 2^3 * 21 at L_20 */
  CHECK_NEAR(a->final_msg[0] / 1e6, sqrt(6.0 * pow(2.0, 2.5)), 1e-9);
  /* Information paths can never exceed the official per-pattern average:
   * a max of averages is at most the average of maxima. */
  for (int p = 0; p < 36; p++) {
    CHECK(a->pat_mthd[p][3] <= a->pat_msg[p][BEFF_AVG] * (1 + 1e-12));
    CHECK(a->pat_rep[p][3] <= a->pat_msg[p][BEFF_AVG] * (1 + 1e-12));
  }
  /* A zero bandwidth in an averaged pattern makes the average undefined. */
  for (int rep = 0; rep < 3; rep++)
    for (int m = 0; m < 3; m++)
      for (int l = 0; l < BEFF_MSGLENGTHS; l++) b[beff_index(&in, rep, 7, l, m)] = 0;
  beff_analyse(&in, a);
  CHECK(isnan(a->b_eff));
  free(a);
  free(b);

  /* Ping-pong: b(L=1) = 2 messages * 1 B per loop / t; latency = half a round trip. */
  CHECK_NEAR(beff_pingpong_latency(2e6, 2, 2), 0.5e-6, 1e-18);

  /* The .plot "additional" columns, the original's patterns 36-38 and 40-45:
   * at 2 (and 3) processes 46 patterns, the ping-pong pair (39) left out; at
   * 4 processes 48 patterns, 39 and 46-47 left out. With -short's 6 random
   * patterns the same rule counts from the first pattern after them. */
  int cols[BEFF_PLOT_EXTRA], want_cols[BEFF_PLOT_EXTRA] = {36, 37, 38, 40, 41, 42, 43, 44, 45};
  for (int n_pat = 46; n_pat <= 48; n_pat += 2) {
    CHECK_EQ_LONG(beff_plot_extra_patterns(36, 39, n_pat, cols), BEFF_PLOT_EXTRA);
    for (int k = 0; k < BEFF_PLOT_EXTRA; k++) CHECK_EQ_LONG(cols[k], want_cols[k]);
  }
  CHECK_EQ_LONG(beff_plot_extra_patterns(12, 15, 24, cols), BEFF_PLOT_EXTRA);
  CHECK_EQ_LONG(cols[2], 14);
  CHECK_EQ_LONG(cols[3], 16);
  CHECK_EQ_LONG(cols[8], 21);
  TEST_MAIN_END();
}
