/* Issue 16, Gather: how much glibc's memcpy of X bytes loses when its
 * destination starts X + 16 bytes after its source, where Gather's root
 * copies its own block when the receive buffer follows the send buffer on the
 * heap (16 bytes apart modulo 4 KiB: 4K aliasing), against destinations 64 and
 * 2064 bytes further on. No MPI; best of 5 loops per cell, in microseconds.
 *
 *   gcc -O2 -o /tmp/memcpy_aliasing benchmarks/memcpy_aliasing.c && taskset -c 0 /tmp/memcpy_aliasing
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Best per-copy time of 5 loops copying X bytes from src to dst. */
static double best_copy_us(char *dst, const char *src, size_t X) {
  long reps = 200000000L / (long)X + 10;
  double best = 1e30;
  for (int t = 0; t < 5; t++) {
    double t0 = seconds();
    for (long i = 0; i < reps; i++) {
      memcpy(dst, src, X);
      __asm__ volatile("" ::: "memory");  /* keep every copy */
    }
    double per = (seconds() - t0) / (double)reps;
    if (per < best) best = per;
  }
  return best * 1e6;
}

int main(void) {
  const size_t max = (size_t)4 << 20, span = 2 * max + 4096;
  char *base = aligned_alloc(4096, span);
  if (!base) return 1;
  memset(base, 1, span);
  const size_t gaps[] = {16, 64, 2064};
  printf("%8s %6s %12s %12s %12s\n", "bytes", "src%64", "dst=+X+16", "dst=+X+64", "dst=+X+2064");
  for (size_t X = 1024; X <= max; X *= 2)
    for (size_t a = 0; a <= 16; a += 16) {
      printf("%8zu %6zu", X, a);
      for (int g = 0; g < 3; g++) printf(" %12.2f", best_copy_us(base + a + X + gaps[g], base + a, X));
      printf("\n");
    }
  return 0;
}
