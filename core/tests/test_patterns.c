/* Process-count sweep, root rotation, Reduce_scatter split, -map and -multi groups. */
#include "check.h"
#include "util/patterns.h"

int main(void) {
  int q[16];
  int n = np_list(2, 4, 0, q, 16);
  CHECK_EQ_LONG(n, 2);
  CHECK_EQ_LONG(q[0], 2);
  CHECK_EQ_LONG(q[1], 4);
  n = np_list(2, 3, 0, q, 16);
  CHECK_EQ_LONG(n, 2);
  CHECK_EQ_LONG(q[1], 3);
  n = np_list(1, 12, 0, q, 16);
  CHECK_EQ_LONG(n, 5);
  CHECK_EQ_LONG(q[3], 8);
  CHECK_EQ_LONG(q[4], 12);
  n = np_list(3, 3, 0, q, 16);
  CHECK_EQ_LONG(n, 1);
  CHECK_EQ_LONG(q[0], 3);
  /* Uniband/Biband: even counts only. */
  n = np_list(2, 5, 1, q, 16);
  CHECK_EQ_LONG(n, 2);
  CHECK_EQ_LONG(q[1], 4);
  n = np_list(3, 8, 1, q, 16);
  CHECK_EQ_LONG(q[0], 4);
  CHECK_EQ_LONG(q[1], 8);

  /* Root: 0 without -root_shift; i mod np with it. */
  CHECK_EQ_LONG(root_of_iteration(7, 0, 3), 0);
  CHECK_EQ_LONG(root_of_iteration(7, 1, 3), 1);
  CHECK_EQ_LONG(root_of_iteration(0, 1, 3), 0);

  /* Reduce_scatter: L = r*np + s; ranks below s get r+1. L=10, np=4: 3,3,2,2. */
  CHECK_EQ_LONG(split_count(10, 4, 0), 3);
  CHECK_EQ_LONG(split_count(10, 4, 1), 3);
  CHECK_EQ_LONG(split_count(10, 4, 2), 2);
  CHECK_EQ_LONG(split_count(10, 4, 3), 2);
  CHECK_EQ_LONG(split_offset(10, 4, 2), 6);
  CHECK_EQ_LONG(split_offset(10, 4, 3), 8);
  CHECK_EQ_LONG(split_count(2, 3, 2), 0);
  size_t total = 0;
  for (int i = 0; i < 7; i++) total += split_count(1000003, 7, i);
  CHECK_EQ_LONG(total, 1000003);

  /* -map 2x3 on 6 ranks: keys 0,3,1,4,2,5 (the grid taken column-wise). */
  int keys[6] = {0, 3, 1, 4, 2, 5};
  for (int w = 0; w < 6; w++) CHECK_EQ_LONG(map_key(w, 2, 3), keys[w]);
  CHECK_EQ_LONG(map_key(4, 1, 6), 4);

  /* -multi: floor(P/np) groups of consecutive ranks, the rest idle. */
  CHECK_EQ_LONG(group_count(5, 2, 1), 2);
  CHECK_EQ_LONG(group_of_rank(3, 5, 2, 1, 1, 1), 1);
  CHECK_EQ_LONG(group_of_rank(4, 5, 2, 1, 1, 1), -1);
  /* Without -multi only the first np ranks work. */
  CHECK_EQ_LONG(group_count(5, 2, 0), 1);
  CHECK_EQ_LONG(group_of_rank(2, 5, 2, 0, 1, 1), -1);
  CHECK_EQ_LONG(group_of_rank(1, 5, 2, 0, 1, 1), 0);
  TEST_MAIN_END();
}
