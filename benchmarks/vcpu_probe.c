/* How close two CPUs are right now, seen from inside a VM: the round trip of
 * one cache line between a thread pinned to CPU A and one pinned to CPU B,
 * and how fast B copies 4 MiB that A has just written (the shared-memory
 * copy a large MPI message makes). On a KVM guest the host may move the
 * vCPUs (another core complex, an SMT sibling) or share memory bandwidth
 * with other guests; imb_parity.sh -probe runs this before and after every
 * launch to see whether a launch's level follows it (benchmarks/README.md,
 * "Ibcast t_pure at 64 KiB and above"). Only meaningful on a quiet machine:
 * a third busy process on A or B makes the round trip a scheduler figure.
 *
 *   cc -O2 -pthread -o vcpu_probe benchmarks/vcpu_probe.c && ./vcpu_probe [A B]
 *
 * Prints one line: "vcpu_probe cpus A,B round_trip_ns N copy_4MiB_us N copy_GBs N",
 * the round trip as the median of 20 runs of 10000, the copy as the best of 20. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COPY_BYTES (4u << 20)
#define TRIPS 10000
#define RUNS 20

/* The phases the two threads step through; the peer answers each. */
enum { IDLE, PING, COPY, COPIED, STOP };

static _Alignas(64) atomic_int state;
static char *src, *dst;
static int cpu_b;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void wait_for(int want) {
  while (atomic_load_explicit(&state, memory_order_acquire) != want) {
  }
}

static atomic_int peer_pinned; /* 0 until the peer tried, then 1 or -1 */

static void *peer(void *unused) {
  (void)unused;
  int ok = pin(cpu_b) == 0;
  atomic_store(&peer_pinned, ok ? 1 : -1);
  if (!ok) return NULL;
  for (;;) {
    int s;
    while ((s = atomic_load_explicit(&state, memory_order_acquire)) == IDLE || s == COPIED) {
    }
    if (s == STOP) return NULL;
    if (s == COPY) memcpy(dst, src, COPY_BYTES);
    atomic_store_explicit(&state, s == COPY ? COPIED : IDLE, memory_order_release);
  }
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int cpu_a = argc > 2 ? atoi(argv[1]) : 0;
  cpu_b = argc > 2 ? atoi(argv[2]) : 1;
  if (cpu_a == cpu_b) { /* the two spinning threads would only meet at time slices */
    fprintf(stderr, "vcpu_probe: CPUs %d and %d are the same; give two different CPUs\n", cpu_a, cpu_b);
    return 2;
  }
  src = aligned_alloc(4096, COPY_BYTES);
  dst = aligned_alloc(4096, COPY_BYTES);
  if (!src || !dst || pin(cpu_a) != 0) {
    fprintf(stderr, "vcpu_probe: cannot pin to CPU %d or allocate 8 MiB; give two CPUs this process may use\n", cpu_a);
    return 2;
  }
  memset(dst, 1, COPY_BYTES); /* first touch outside the timing */
  pthread_t t;
  pthread_create(&t, NULL, peer, NULL);
  while (atomic_load(&peer_pinned) == 0) {
  }
  if (atomic_load(&peer_pinned) < 0) {
    pthread_join(t, NULL);
    fprintf(stderr, "vcpu_probe: cannot pin to CPU %d; give two CPUs this process may use\n", cpu_b);
    return 2;
  }
  double trips[RUNS], best_copy = 1e9;
  for (int r = 0; r < RUNS; r++) {
    double t0 = now();
    for (int i = 0; i < TRIPS; i++) {
      atomic_store_explicit(&state, PING, memory_order_release);
      wait_for(IDLE);
    }
    trips[r] = (now() - t0) / TRIPS * 1e9;
  }
  for (int r = 0; r < RUNS; r++) {
    memset(src, r, COPY_BYTES); /* A writes, so B's copy reads lines A owns */
    double t0 = now();
    atomic_store_explicit(&state, COPY, memory_order_release);
    wait_for(COPIED);
    double d = now() - t0;
    if (d < best_copy) best_copy = d;
    atomic_store_explicit(&state, IDLE, memory_order_release);
  }
  atomic_store_explicit(&state, STOP, memory_order_release);
  pthread_join(t, NULL);
  qsort(trips, RUNS, sizeof trips[0], by_value);
  printf("vcpu_probe cpus %d,%d round_trip_ns %.0f copy_4MiB_us %.0f copy_GBs %.1f\n", cpu_a, cpu_b,
         (trips[RUNS / 2 - 1] + trips[RUNS / 2]) / 2, best_copy * 1e6, COPY_BYTES / best_copy * 1e-9);
  free(src);
  free(dst);
  return 0;
}
