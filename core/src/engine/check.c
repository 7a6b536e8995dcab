#include "engine/check.h"
#include "engine/datatypes.h"

#include <stdlib.h>
#include <string.h>

void poison(void *buf, size_t bytes) { memset(buf, 0xFF, bytes); }

static void *scratch(const bench_ctx *c, size_t count) {
  void *p = malloc(count * dtype_size(c->dt) + 1);
  if (!p) MPI_Abort(MPI_COMM_WORLD, 1);
  return p;
}

long check_block(const bench_ctx *c, const void *buf, int src, size_t first, size_t count) {
  if (count == 0) return 0;
  void *want = scratch(c, count);
  fill_values(want, c->dt, count, src, first);
  long bad = count_mismatches(buf, want, c->dt, count);
  free(want);
  return bad;
}

long check_sum(const bench_ctx *c, const void *buf, const int *ranks, int nr, size_t first, size_t count) {
  if (count == 0) return 0;
  void *want = scratch(c, count);
  fill_sum(want, c->dt, count, ranks, nr, first);
  long bad = count_mismatches(buf, want, c->dt, count);
  free(want);
  return bad;
}

long check_sum_all(const bench_ctx *c, const void *buf, size_t first, size_t count) {
  int *ranks = malloc(sizeof(int) * (size_t)c->np);
  for (int i = 0; i < c->np; i++) ranks[i] = i;
  long bad = check_sum(c, buf, ranks, c->np, first, count);
  free(ranks);
  return bad;
}
