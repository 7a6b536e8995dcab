/* IMB-MT's kernels: one iteration of each benchmark on one thread's own
 * communicator (docs/mt.md). The pair benchmarks use the stride pairing of
 * mt_plan.h; the collectives' root is 0. Verification (-check) compares
 * what the last iteration left with what its sender wrote. */
#ifndef MPIMARK_KERNELS_MT_H
#define MPIMARK_KERNELS_MT_H

#include "engine/registry.h"

/* The suite's row flags (bits 16 and up, registry.h). */
enum {
  BF_MT_PAIRS = 1 << 16,     /* pairs by stride: ranks of an incomplete double group idle */
  BF_MT_WINDOW = 1 << 17,    /* a window of messages: time divided by -window_size */
  BF_MT_EACH_CALL = 1 << 18, /* collectives: every call timed alone, barriers between calls */
};

typedef struct {
  int stride, group, paired;   /* mt_pairs() */
  int multiple;                /* several threads: BarrierMT also waits for the process's threads */
} mt_thread_t;

void k_mt_pingpong(bench_ctx *c, long iter);
void k_mt_pingping(bench_ctx *c, long iter);
void k_mt_sendrecv(bench_ctx *c, long iter);
void k_mt_exchange(bench_ctx *c, long iter);
void k_mt_uniband(bench_ctx *c, long iter);
void k_mt_biband(bench_ctx *c, long iter);
void k_mt_barrier(bench_ctx *c, long iter);
void k_mt_bcast(bench_ctx *c, long iter);
void k_mt_reduce(bench_ctx *c, long iter);
void k_mt_allreduce(bench_ctx *c, long iter);

long v_mt_pair(bench_ctx *c, long iter);      /* PingPongMT, PingPingMT, BiBandMT */
long v_mt_uniband(bench_ctx *c, long iter);
long v_mt_sendrecv(bench_ctx *c, long iter);
long v_mt_exchange(bench_ctx *c, long iter);
long v_mt_bcast(bench_ctx *c, long iter);
long v_mt_reduce(bench_ctx *c, long iter);
long v_mt_allreduce(bench_ctx *c, long iter);

#endif
