#include "suites/p2p/kernels_p2p.h"
#include "suites/p2p/p2p_plan.h"
#include "engine/check.h"

#define LINE 64   /* IMB-P2P touches one byte per cache line */

void p2p_state_restart(p2p_state_t *s, int nranks) {
  s->seed = 0;
  if (s->ring)
    for (int i = 0; i < nranks; i++) s->ring[i] = i;
}

/* -msgwr: a store per cache line of the message before it is sent (IMB-P2P
 * makes the sender's cache hold dirty lines as an application's would). */
static void touch_send(p2p_state_t *s, char *buf, size_t size) {
  if (!s->touch_send) return;
  for (size_t i = 0; i < size; i += LINE) buf[i] = (char)s->dummy++;
}

/* -msgrd: a load per cache line of what arrived. */
static void touch_recv(p2p_state_t *s, const char *buf, size_t size) {
  if (!s->touch_recv) return;
  for (size_t i = 0; i < size; i += LINE) s->dummy += (size_t)buf[i];
}

static p2p_state_t *state(bench_ctx *c) { return (p2p_state_t *)c->user; }

void k_p2p_pingpong(bench_ctx *c, long iter) {
  p2p_state_t *s = state(c);
  int n = (int)c->bytes;
  if (c->rank < c->np / 2) {
    touch_send(s, c->sbuf, c->bytes);
    MPI_Send(c->sbuf, n, MPI_BYTE, s->partner, 0, c->comm);
    MPI_Recv(c->rbuf, n, MPI_BYTE, s->partner, 0, c->comm, MPI_STATUS_IGNORE);
    touch_recv(s, c->rbuf, c->bytes);
  } else {
    MPI_Recv(c->rbuf, n, MPI_BYTE, s->partner, 0, c->comm, MPI_STATUS_IGNORE);
    touch_recv(s, c->rbuf, c->bytes);
    touch_send(s, c->sbuf, c->bytes);
    MPI_Send(c->sbuf, n, MPI_BYTE, s->partner, 0, c->comm);
  }
  s->last_from = s->partner;
  s->sent += 1;
}

/* Receive posted, then a blocking send to the same peer, then the wait. */
static void exchange_with(bench_ctx *c, p2p_state_t *s, int peer) {
  MPI_Request req;
  int n = (int)c->bytes;
  MPI_Irecv(c->rbuf, n, MPI_BYTE, peer, 0, c->comm, &req);
  touch_send(s, c->sbuf, c->bytes);
  MPI_Send(c->sbuf, n, MPI_BYTE, peer, 0, c->comm);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  touch_recv(s, c->rbuf, c->bytes);
  s->last_from = peer;
}

void k_p2p_pingping(bench_ctx *c, long iter) {
  p2p_state_t *s = state(c);
  exchange_with(c, s, s->partner);
  s->sent += 1;
}

/* One iteration is np steps; each step one random pair, the first sending. */
void k_p2p_unirandom(bench_ctx *c, long iter) {
  p2p_state_t *s = state(c);
  int n = (int)c->bytes;
  for (int step = 0; step < c->np; step++) {
    int r0, r1;
    p2p_random_pair(&s->seed, c->np, &r0, &r1);
    if (c->rank == r0) {
      touch_send(s, c->sbuf, c->bytes);
      MPI_Send(c->sbuf, n, MPI_BYTE, r1, 0, c->comm);
      s->sent += 1;
    } else if (c->rank == r1) {
      MPI_Recv(c->rbuf, n, MPI_BYTE, r0, 0, c->comm, MPI_STATUS_IGNORE);
      touch_recv(s, c->rbuf, c->bytes);
      s->last_from = r0;
    }
  }
}

/* As Unirandom, but the pair exchanges: both send. */
void k_p2p_birandom(bench_ctx *c, long iter) {
  p2p_state_t *s = state(c);
  for (int step = 0; step < c->np; step++) {
    int r0, r1;
    p2p_random_pair(&s->seed, c->np, &r0, &r1);
    if (c->rank == r0 || c->rank == r1) {
      exchange_with(c, s, c->rank == r0 ? r1 : r0);
      s->sent += 1;
    }
  }
}

/* Every rank receives from its predecessor and sends to its successor on a
 * ring shuffled afresh every iteration. */
void k_p2p_corandom(bench_ctx *c, long iter) {
  p2p_state_t *s = state(c);
  int from, to, n = (int)c->bytes;
  p2p_ring_step(&s->seed, s->ring, c->np, c->rank, &from, &to);
  MPI_Request req;
  MPI_Irecv(c->rbuf, n, MPI_BYTE, from, 0, c->comm, &req);
  touch_send(s, c->sbuf, c->bytes);
  MPI_Send(c->sbuf, n, MPI_BYTE, to, 0, c->comm);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  touch_recv(s, c->rbuf, c->bytes);
  s->last_from = from;
  s->sent += 1;
}

/* Halo exchange: a buffer per neighbour each way, all receives posted, then
 * all sends, then one wait for everything. */
void k_p2p_stencil(bench_ctx *c, long iter) {
  p2p_state_t *s = state(c);
  int k = s->n_neighbours, n = (int)c->bytes;
  MPI_Request req[2 * P2P_MAX_NEIGHBOURS];
  for (int i = 0; i < k; i++) touch_send(s, c->sbuf + (size_t)i * s->slot, c->bytes);
  for (int i = 0; i < k; i++) MPI_Irecv(c->rbuf + (size_t)i * s->slot, n, MPI_BYTE, s->neighbours[i], 0, c->comm, &req[i]);
  for (int i = 0; i < k; i++) MPI_Isend(c->sbuf + (size_t)i * s->slot, n, MPI_BYTE, s->neighbours[i], 0, c->comm, &req[k + i]);
  MPI_Waitall(2 * k, req, MPI_STATUSES_IGNORE);
  for (int i = 0; i < k; i++) touch_recv(s, c->rbuf + (size_t)i * s->slot, c->bytes);
  s->sent += k;
}

/* A ring shift in one buffer: send to rank+1, receive from rank-1. */
void k_p2p_sendrecv_replace(bench_ctx *c, long iter) {
  p2p_state_t *s = state(c);
  touch_send(s, c->sbuf, c->bytes);
  MPI_Sendrecv_replace(c->sbuf, (int)c->bytes, MPI_BYTE, (c->rank + 1) % c->np, 0, (c->rank + c->np - 1) % c->np, 0,
                       c->comm, MPI_STATUS_IGNORE);
  s->last_from = (c->rank + c->np - 1) % c->np;
  s->sent += 1;
}

long p2p_verify(bench_ctx *c, long iter) {
  p2p_state_t *s = state(c);
  if (c->desc->run == k_p2p_stencil) {
    long bad = 0;
    for (int i = 0; i < s->n_neighbours; i++) bad += check_block(c, c->rbuf + (size_t)i * s->slot, s->neighbours[i], 0, c->bytes);
    return bad;
  }
  /* SendRecv_Replace receives into its send buffer. */
  const char *got = c->desc->run == k_p2p_sendrecv_replace ? c->sbuf : c->rbuf;
  return s->last_from < 0 ? 0 : check_block(c, got, s->last_from, 0, c->bytes);
}
