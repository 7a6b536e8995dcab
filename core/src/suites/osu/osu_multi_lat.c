/* multi_lat (OSU 7.4's osu_multi_lat.c): rank r < pairs plays ping-pong with
 * rank r + pairs, all pairs at once, an untimed barrier of every rank before
 * each round trip. The figure is the senders' summed round trips over the
 * pairs, halved: the mean one-way latency of a pair. With an odd count the
 * last rank only joins the barriers (OSU 7.4 hangs there).
 *
 * latency_mp measures the same way at its two ranks (osu_latency_mp.c's loop
 * is this one with one pair), so it calls this function. */
#include "suites/osu/osu_families.h"
#include "suites/osu/osu_buffers.h"
#include "suites/osu/osu_figures.h"
#include "suites/common/own_suite.h"
#include "util/timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_PING = 1 };  /* OSU's, both ways */

int osu_measure_multi_lat(osu_ctx_t *c, osu_row_t *row) {
  const osu_options_t *o = c->o;
  int pairs = o->pairs > 0 ? o->pairs : c->np / 2;
  int sender = c->rank < pairs, receiver = !sender && c->rank < 2 * pairs;
  int peer = sender ? c->rank + pairs : c->rank - pairs, count = (int)c->count;
  char *sbuf = NULL, *rbuf = NULL;
  int failed = 0;
  if (sender || receiver) {
    sbuf = osu_alloc(c->bytes, 'a');
    rbuf = osu_alloc(c->bytes, 'b');
    failed = !sbuf || !rbuf;
  }
  char name[64];
  snprintf(name, sizeof(name), "osu_%s", c->test->name);
  if (!own_buffers_ok(failed, name, 2.0 * (double)c->bytes)) {
    osu_free(sbuf);
    osu_free(rbuf);
    row->status = OSU_ROW_OUT_OF_MEMORY;
    return -1;
  }
  long rounds = o->validate ? o->validation_warmup : 0, defects = 0;
  int active = sender || receiver;
  MPI_Barrier(c->comm);
  for (long i = 0; i < c->skip + c->iterations; i++) {
    long seed = (long)c->bytes + i;
    if (o->validate && active) {
      osu_pattern_fill(sbuf, c->count, c->type, seed);
      memset(rbuf, 0, c->bytes);
    }
    /* -c's -u rounds repeat the round trip untimed first; the last is timed. */
    for (long k = 0; k <= rounds; k++) {
      MPI_Barrier(c->comm);
      if (sender) {
        int timed = i >= c->skip && k == rounds;
        int64_t t0 = timed ? now_ns() : 0;
        MPI_Send(sbuf, count, c->type, peer, TAG_PING, c->comm);
        MPI_Recv(rbuf, count, c->type, peer, TAG_PING, c->comm, MPI_STATUS_IGNORE);
        if (timed) c->times_ns[i - c->skip] = (double)(now_ns() - t0) / 2;
      } else if (receiver) {
        MPI_Recv(rbuf, count, c->type, peer, TAG_PING, c->comm, MPI_STATUS_IGNORE);
        MPI_Send(sbuf, count, c->type, peer, TAG_PING, c->comm);
      }
    }
    if (o->validate && active) defects += osu_pattern_defects(rbuf, c->count, c->type, seed);
  }
  osu_free(sbuf);
  osu_free(rbuf);

  /* The samples: per iteration, the pairs' mean one-way time. Their mean is OSU's figure. */
  osu_mean_over_ranks(c, pairs);
  osu_check_verdict(c, defects, row);
  if (c->rank == 0) osu_latency_figures(c, row);
  return 0;
}
