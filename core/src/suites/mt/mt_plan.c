#include "suites/mt/mt_plan.h"

int mt_pairs(int rank, int size, int stride_option, int *stride, int *group) {
  int s = stride_option == 0 ? size / 2 : stride_option;
  *stride = s;
  *group = s > 0 ? rank / s : 0;
  if (s <= 0 || s > size / 2) return 0;
  return !(*group / 2 == size / (2 * s) && size % (2 * s) != 0);
}

int mt_pair_ranks(int size, int stride_option) {
  int n = 0, s, g;
  for (int r = 0; r < size; r++) n += mt_pairs(r, size, stride_option, &s, &g);
  return n;
}
