#include "suites/osu/osu_buffers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void *osu_alloc(size_t bytes, int fill) {
  void *p = NULL;
  size_t n = bytes > 0 ? bytes : 1;
  if (posix_memalign(&p, OSU_ALIGNMENT, n) != 0) return NULL;
  /* Written now, so the first timed iteration does not pay for page faults. */
  memset(p, fill, n);
  return p;
}

void osu_free(void *p) { free(p); }

static long base_value(size_t i, long seed) { return 7 * (long)(i + 1) + seed; }

void osu_pattern_fill(void *buf, size_t count, MPI_Datatype type, long seed) {
  for (size_t i = 0; i < count; i++) {
    long v = base_value(i, seed);
    if (type == MPI_INT) ((int *)buf)[i] = (int)(v * 10);
    else if (type == MPI_FLOAT) ((float *)buf)[i] = (float)v * 2.0f;
    else ((char *)buf)[i] = (char)((7 * (char)v) % 256);
  }
}

long osu_pattern_defects(const void *buf, size_t count, MPI_Datatype type, long seed) {
  long bad = 0;
  for (size_t i = 0; i < count; i++) {
    long v = base_value(i, seed);
    if (type == MPI_INT) bad += ((const int *)buf)[i] != (int)(v * 10);
    else if (type == MPI_FLOAT) bad += fabsf(((const float *)buf)[i] - (float)v * 2.0f) > 0.001f;
    else bad += ((const char *)buf)[i] != (char)((7 * (char)v) % 256);
  }
  return bad;
}
