#include "suites/common/batched_loop.h"
#include "util/timer.h"

long batch_count(long n, long batch) { return (n + batch - 1) / batch; }

int64_t batched_loop(bench_ctx *c, long n, long batch, double *samples) {
  kernel_fn run = c->desc->run;
  int64_t start = now_ns(), t0 = start;
  long b = 0;
  for (long i = 0; i < n; b++) {
    long k = n - i < batch ? n - i : batch;
    for (long j = 0; j < k; j++, i++) run(c, i);
    int64_t t1 = now_ns();
    samples[b] = (double)(t1 - t0) / (double)k;
    t0 = t1;
  }
  return t0 - start;
}
