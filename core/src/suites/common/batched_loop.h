/* The timed loop of the suites that keep IMB's own timing (p2p, mt): n
 * iterations of a row's kernel timed as one loop, as IMB times them, with
 * the clock also read at batch edges so that the stream has samples: one
 * read per batch of util/policy.h's size (at least 10 us of work), which
 * adds a few clock reads to the loop and nothing inside an iteration. */
#ifndef MPIMARK_BATCHED_LOOP_H
#define MPIMARK_BATCHED_LOOP_H

#include <stdint.h>
#include "engine/registry.h"

/* Number of batches of n iterations in batches of `batch`. */
long batch_count(long n, long batch);

/* Runs c->desc->run for iterations 0..n-1; samples[b] (batch_count entries)
 * gets batch b's ns per iteration. Returns the loop's ns. */
int64_t batched_loop(bench_ctx *c, long n, long batch, double *samples);

#endif
