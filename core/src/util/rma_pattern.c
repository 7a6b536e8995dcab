#include "util/rma_pattern.h"

#include <stdlib.h>

int rp_left(int rank, int np) { return (rank - 1 + np) % np; }
int rp_right(int rank, int np) { return (rank + 1) % np; }

int rp_targets(rma_pattern_t p, int rank, int np, int *out) {
  int n = 0, last = np - 1;
  switch (p) {
    case RP_PAIR:
      if (rank == 0 && last > 0) out[n++] = last;
      break;
    case RP_PAIR_REV:
      if (rank == last && last > 0) out[n++] = 0;
      break;
    case RP_BIDIR:
      if (last > 0 && (rank == 0 || rank == last)) out[n++] = rank == 0 ? last : 0;
      break;
    case RP_ONE_ALL:
    case RP_ALL_ALL:
      if (p == RP_ONE_ALL && rank != 0) break;
      for (int k = 1; k < np; k++) out[n++] = (rank + k) % np;
      break;
    case RP_TO_ROOT:
      out[n++] = 0;
      break;
    case RP_RING:
      out[n++] = rp_left(rank, np);
      if (rp_right(rank, np) != out[0]) out[n++] = rp_right(rank, np);
      break;
  }
  return n;
}

int rp_senders(rma_pattern_t p, int rank, int np, int *out) {
  int n = 0, *t = malloc(sizeof(int) * (size_t)(np > 0 ? np : 1));
  if (!t) return 0;
  for (int s = 0; s < np; s++) {
    int k = rp_targets(p, s, np, t);
    for (int j = 0; j < k; j++)
      if (t[j] == rank) {
        out[n++] = s;
        break;
      }
  }
  free(t);
  return n;
}

long long rp_disp(long iter, long slots, size_t stride, size_t disp_unit) {
  if (slots < 1) slots = 1;
  if (disp_unit == 0) disp_unit = 1;
  return (long long)((size_t)(iter % slots) * stride / disp_unit);
}

size_t rp_window_bytes(long slots, size_t stride, size_t len) {
  return slots > 1 ? (size_t)(slots - 1) * stride + len : len;
}
