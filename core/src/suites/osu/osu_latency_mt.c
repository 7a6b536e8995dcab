/* latency_mt (OSU 7.4's osu_latency_mt.c): ping-pong between rank 0's sender
 * threads and rank 1's receiver threads (-t SEND:RECV, default 1:2), POSIX
 * threads under MPI_THREAD_MULTIPLE as OSU's. The iterations are dealt out
 * round robin on each side: thread t of S does iterations t, t+S, ... With
 * one sender thread every message has the same tag and whichever receiver
 * thread is waiting takes it; with more, the iteration is the tag, so each
 * one reaches the receiver thread that counts it.
 *
 * OSU's figure is the sum of all sender threads' round trips over
 * 2 x iterations / S: S times the mean one-way time (OSU shares one clock
 * pair among its threads, which race on it; ours time each thread on its
 * own). Each sample is that iteration's one-way time times S, so that the
 * samples' mean is OSU's figure. */
#include "suites/osu/osu_families.h"
#include "suites/osu/osu_buffers.h"
#include "suites/osu/osu_figures.h"
#include "util/exitcodes.h"
#include "util/timer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_PING = 1, TAG_PONG = 2 };  /* OSU's, with one sender thread */

typedef struct {
  osu_ctx_t *c;
  int id, threads;  /* this thread, of how many on its side */
  int senders;      /* rank 0's threads: the tags, and the samples' factor */
  char *send, *recv;
  long defects;
} mt_thread_t;

static void *play(void *arg) {
  mt_thread_t *t = arg;
  osu_ctx_t *c = t->c;
  const osu_options_t *o = c->o;
  int sending = c->rank == 0, peer = 1 - c->rank, count = (int)c->count;
  long rounds = o->validate ? o->validation_warmup : 0;
  for (long i = t->id; i < c->skip + c->iterations; i += t->threads) {
    int out = t->senders > 1 ? (int)i : sending ? TAG_PING : TAG_PONG;
    int in = t->senders > 1 ? (int)i : sending ? TAG_PONG : TAG_PING;
    /* OSU's seed: the iteration counted from this thread's first. */
    long seed = (long)c->bytes + (i - t->id);
    if (o->validate) {
      osu_pattern_fill(t->send, c->count, c->type, seed);
      memset(t->recv, 0, c->bytes);
    }
    for (long k = 0; k <= rounds; k++) {
      if (sending) {
        int timed = i >= c->skip && k == rounds;
        int64_t t0 = timed ? now_ns() : 0;
        MPI_Send(t->send, count, c->type, peer, out, c->comm);
        MPI_Recv(t->recv, count, c->type, peer, in, c->comm, MPI_STATUS_IGNORE);
        /* Each timed iteration belongs to one thread: no two write the same element. */
        if (timed) c->times_ns[i - c->skip] = (double)(now_ns() - t0) / 2 * t->senders;
      } else {
        MPI_Recv(t->recv, count, c->type, peer, in, c->comm, MPI_STATUS_IGNORE);
        MPI_Send(t->send, count, c->type, peer, out, c->comm);
      }
    }
    if (o->validate) t->defects += osu_pattern_defects(t->recv, c->count, c->type, seed);
  }
  return NULL;
}

/* This rank's threads: rank 0's senders, rank 1's receivers. */
typedef struct {
  int n;
  mt_thread_t *th;
  pthread_t *ids;
} mt_side_t;

static void side_free(mt_side_t *s) {
  for (int t = 0; s && s->th && t < s->n; t++) {
    osu_free(s->th[t].send);
    osu_free(s->th[t].recv);
  }
  if (s) {
    free(s->th);
    free(s->ids);
  }
  free(s);
}

/* Each thread's pair of buffers of the largest size, made once, as OSU's
 * threads make theirs. (-c with unequal thread counts, which OSU refuses,
 * the option parser refuses.) */
int osu_setup_latency_mt(osu_ctx_t *c) {
  const osu_options_t *o = c->o;
  mt_side_t *s = calloc(1, sizeof(*s));
  int n = c->rank == 0 ? o->sender_threads : c->rank == 1 ? o->receiver_threads : 0;
  int failed = !s || !(s->th = calloc((size_t)(n > 0 ? n : 1), sizeof(*s->th))) ||
               !(s->ids = calloc((size_t)(n > 0 ? n : 1), sizeof(*s->ids)));
  for (int t = 0; !failed && t < n; t++, s->n++) {
    s->th[t] = (mt_thread_t){.c = c, .id = t, .threads = n, .senders = o->sender_threads};
    s->th[t].send = osu_alloc(o->max_size, 'a');
    s->th[t].recv = osu_alloc(o->max_size, 'b');
    failed = !s->th[t].send || !s->th[t].recv;
  }
  if (failed) {
    side_free(s);
    snprintf(c->err, sizeof(c->err), "no memory for %d pairs of %zu-byte buffers", n, o->max_size);
    return -1;
  }
  c->user = s;
  return 0;
}

int osu_teardown_latency_mt(osu_ctx_t *c) {
  side_free(c->user);
  c->user = NULL;
  return 0;
}

int osu_measure_latency_mt(osu_ctx_t *c, osu_row_t *row) {
  mt_side_t *s = c->user;
  long defects = 0;
  for (int t = 0; t < s->n; t++) {
    /* OSU writes its buffers at every size (set_buffer_pt2pt). */
    memset(s->th[t].send, 'a', c->bytes);
    memset(s->th[t].recv, 'b', c->bytes);
    s->th[t].defects = 0;
  }
  /* OSU's one barrier per size, between one thread of each side. */
  MPI_Barrier(c->comm);
  for (int t = 0; t < s->n; t++) {
    if (pthread_create(&s->ids[t], NULL, play, &s->th[t]) != 0) {
      /* The peer's threads would wait for this one's messages for ever. */
      fprintf(stderr, "mpimark-core osu: latency_mt could not start thread %d of %d on rank %d; lower -t\n", t + 1,
              s->n, c->rank);
      MPI_Abort(c->comm, EXIT_BAD_INPUT);
    }
  }
  for (int t = 0; t < s->n; t++) {
    pthread_join(s->ids[t], NULL);
    defects += s->th[t].defects;
  }
  osu_check_verdict(c, defects, row);
  if (c->rank == 0) osu_latency_figures(c, row);
  return 0;
}
