/* LD_PRELOAD=libclockshift.so: shifts CLOCK_MONOTONIC (the core's clock) of
 * this process by a known amount, to test the clock model. The amount is the
 * rank's entry of MPIMARK_CLOCKSHIFT_NS, a comma-separated list of signed
 * nanoseconds indexed by the launcher's rank variable (OMPI_COMM_WORLD_RANK,
 * PMI_RANK, PMIX_RANK); processes without a rank (the launcher) are not
 * shifted. MPIMARK_CLOCKSHIFT_PPM (same form) adds a drift: the shift grows
 * by that many ns per ms of the real clock. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static int (*real_gettime)(clockid_t, struct timespec *);
static int ready;
static long long shift_ns;
static double drift_ppm;
static long long t_first = -1;

static const char *nth(const char *list, int n) {
  while (list && n-- > 0) {
    while (*list && *list != ',') list++;
    if (!*list) return NULL;
    list++;
  }
  return list;
}

static void init(void) {
  real_gettime = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
  const char *r = getenv("OMPI_COMM_WORLD_RANK");
  if (!r) r = getenv("PMI_RANK");
  if (!r) r = getenv("PMIX_RANK");
  if (r) {
    int rank = atoi(r);
    const char *v = nth(getenv("MPIMARK_CLOCKSHIFT_NS"), rank);
    if (v && *v) shift_ns = strtoll(v, NULL, 10);
    const char *d = nth(getenv("MPIMARK_CLOCKSHIFT_PPM"), rank);
    if (d && *d) drift_ppm = strtod(d, NULL);
  }
  ready = 1;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
  if (!ready) init();
  int rc = real_gettime(id, ts);
  if (rc != 0 || id != CLOCK_MONOTONIC || (shift_ns == 0 && drift_ppm == 0)) return rc;
  long long t = (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec;
  if (t_first < 0) t_first = t;
  t += shift_ns + (long long)((double)(t - t_first) * drift_ppm * 1e-6);
  ts->tv_sec = (time_t)(t / 1000000000LL);
  ts->tv_nsec = (long)(t % 1000000000LL);
  return rc;
}
