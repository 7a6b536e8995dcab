/* One-sided patterns: targets in issue order, senders, ring neighbours,
 * slot displacements and window extents. */
#include "check.h"
#include "util/rma_pattern.h"

static int same(const int *a, const int *b, int n) {
  for (int i = 0; i < n; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

int main(void) {
  int t[16];
  /* Pair: rank 0 -> np-1 only; reversed for IMB-EXT Unidir_Get. */
  CHECK_EQ_LONG(rp_targets(RP_PAIR, 0, 2, t), 1);
  CHECK_EQ_LONG(t[0], 1);
  CHECK_EQ_LONG(rp_targets(RP_PAIR, 1, 2, t), 0);
  CHECK_EQ_LONG(rp_targets(RP_PAIR, 0, 1, t), 0);
  CHECK_EQ_LONG(rp_targets(RP_PAIR_REV, 1, 2, t), 1);
  CHECK_EQ_LONG(t[0], 0);
  CHECK_EQ_LONG(rp_senders(RP_PAIR, 1, 2, t), 1);
  CHECK_EQ_LONG(t[0], 0);
  CHECK_EQ_LONG(rp_senders(RP_PAIR, 0, 2, t), 0);
  /* Bidir: each of the pair accesses the other. */
  CHECK_EQ_LONG(rp_targets(RP_BIDIR, 1, 2, t), 1);
  CHECK_EQ_LONG(t[0], 0);
  CHECK_EQ_LONG(rp_senders(RP_BIDIR, 0, 2, t), 1);
  CHECK_EQ_LONG(t[0], 1);

  /* *_ALL: (peer + rank) mod np, self skipped: rank 2 of 5 goes 3,4,0,1. */
  int all2[] = {3, 4, 0, 1};
  CHECK_EQ_LONG(rp_targets(RP_ALL_ALL, 2, 5, t), 4);
  CHECK(same(t, all2, 4));
  int one0[] = {1, 2, 3};
  CHECK_EQ_LONG(rp_targets(RP_ONE_ALL, 0, 4, t), 3);
  CHECK(same(t, one0, 3));
  CHECK_EQ_LONG(rp_targets(RP_ONE_ALL, 3, 4, t), 0);
  CHECK_EQ_LONG(rp_senders(RP_ONE_ALL, 3, 4, t), 1);
  CHECK_EQ_LONG(t[0], 0);
  CHECK_EQ_LONG(rp_senders(RP_ONE_ALL, 0, 4, t), 0);
  int others_of_1[] = {0, 2, 3};
  CHECK_EQ_LONG(rp_senders(RP_ALL_ALL, 1, 4, t), 3);
  CHECK(same(t, others_of_1, 3));
  CHECK_EQ_LONG(rp_targets(RP_ALL_ALL, 0, 1, t), 0);

  /* To root: every rank, rank 0 included, accesses rank 0. */
  CHECK_EQ_LONG(rp_targets(RP_TO_ROOT, 2, 3, t), 1);
  CHECK_EQ_LONG(t[0], 0);
  CHECK_EQ_LONG(rp_senders(RP_TO_ROOT, 0, 3, t), 3);
  CHECK_EQ_LONG(rp_senders(RP_TO_ROOT, 1, 3, t), 0);

  /* Ring: left and right, one entry when they coincide (np 2) or are self (np 1). */
  CHECK_EQ_LONG(rp_left(0, 4), 3);
  CHECK_EQ_LONG(rp_right(3, 4), 0);
  CHECK_EQ_LONG(rp_targets(RP_RING, 1, 4, t), 2);
  CHECK_EQ_LONG(t[0], 0);
  CHECK_EQ_LONG(t[1], 2);
  CHECK_EQ_LONG(rp_targets(RP_RING, 0, 2, t), 1);
  CHECK_EQ_LONG(t[0], 1);
  CHECK_EQ_LONG(rp_targets(RP_RING, 0, 1, t), 1);
  CHECK_EQ_LONG(t[0], 0);
  CHECK_EQ_LONG(rp_senders(RP_RING, 0, 3, t), 2);

  /* Displacements: one slot -> always 0; disjoint slots of X bytes -> i*X;
   * -off_cache slots cycle; reductions count in elements. */
  CHECK_EQ_LONG(rp_disp(7, 1, 64, 1), 0);
  CHECK_EQ_LONG(rp_disp(7, 1000, 64, 1), 448);
  CHECK_EQ_LONG(rp_disp(7, 1000, 64, 4), 112);
  CHECK_EQ_LONG(rp_disp(7, 3, 128, 1), 128);
  CHECK_EQ_LONG(rp_disp(5, 0, 128, 0), 0);
  CHECK_EQ_LONG(rp_disp(999, 1000, 4194304, 1), 999LL * 4194304);
  /* Window extents: the last slot's start plus one slot. */
  CHECK_EQ_LONG(rp_window_bytes(1, 4096, 4096), 4096);
  CHECK_EQ_LONG(rp_window_bytes(3, 128, 100), 356);
  CHECK_EQ_LONG(rp_window_bytes(1000, 8, 8), 8000);
  CHECK_EQ_LONG(rp_window_bytes(1, 0, 0), 0);
  TEST_MAIN_END();
}
