/* The clock: int64 nanoseconds from CLOCK_MONOTONIC, read once per batch.
 * A double-precision epoch-based MPI_Wtime has only ~0.2 us resolution
 * (reference/method.md §4.1); integer ns from a monotonic clock has none of that. */
#ifndef MPIMARK_TIMER_H
#define MPIMARK_TIMER_H

#include <stdint.h>

static inline int64_t now_ns(void);

#include <time.h>
static inline int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

typedef struct {
  double overhead_ns;     /* median cost of one read */
  double granularity_ns;  /* smallest non-zero step seen */
  int monotonic;          /* no step went backwards */
} timer_selftest_t;

/* Reads the clock n times back to back and characterises it. */
void timer_selftest(int n, timer_selftest_t *out);

#endif
