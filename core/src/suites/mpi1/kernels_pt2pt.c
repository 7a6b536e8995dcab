/* Point-to-point patterns. Sends carry tag 1 and receives accept any tag, as
 * in IMB; PingPong and PingPing name their source unless the descriptor asks
 * for MPI_ANY_SOURCE. */
#include "suites/mpi1/kernels.h"
#include "engine/check.h"

#define TAG 1

static int partner_of(const bench_ctx *c) { return c->rank == 0 ? c->np - 1 : 0; }

static int source_of(const bench_ctx *c, int partner) {
  return (c->desc->flags & BF_ANY_SOURCE) ? MPI_ANY_SOURCE : partner;
}

void k_pingpong(bench_ctx *c, long iter) {
  int peer = partner_of(c);
  if (c->rank == 0) {
    MPI_Send(sbuf_at(c, iter), c->n, c->type, peer, TAG, c->comm);
    MPI_Recv(rbuf_at(c, iter), c->n, c->type, source_of(c, peer), MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE);
  } else if (c->rank == c->np - 1) {
    MPI_Recv(rbuf_at(c, iter), c->n, c->type, source_of(c, peer), MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE);
    MPI_Send(sbuf_at(c, iter), c->n, c->type, peer, TAG, c->comm);
  }
}

void k_pingping(bench_ctx *c, long iter) {
  if (c->rank != 0 && c->rank != c->np - 1) return;
  int peer = partner_of(c);
  MPI_Request req;
  MPI_Isend(sbuf_at(c, iter), c->n, c->type, peer, TAG, c->comm, &req);
  MPI_Recv(rbuf_at(c, iter), c->n, c->type, source_of(c, peer), MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
}

long v_from_partner(bench_ctx *c, long iter) {
  if (c->rank != 0 && c->rank != c->np - 1) return 0;
  return check_block(c, rbuf_at(c, iter), partner_of(c), 0, c->count);
}

void k_sendrecv(bench_ctx *c, long iter) {
  int right = (c->rank + 1) % c->np, left = (c->rank - 1 + c->np) % c->np;
  MPI_Sendrecv(sbuf_at(c, iter), c->n, c->type, right, TAG,
               rbuf_at(c, iter), c->n, c->type, left, MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE);
}

long v_sendrecv(bench_ctx *c, long iter) {
  return check_block(c, rbuf_at(c, iter), (c->rank - 1 + c->np) % c->np, 0, c->count);
}

/* Two separate send buffers (IMB since 3.1); the two receives land in two
 * halves of the receive buffer so -check can see both messages. */
void k_exchange(bench_ctx *c, long iter) {
  int right = (c->rank + 1) % c->np, left = (c->rank - 1 + c->np) % c->np;
  char *s = sbuf_at(c, iter), *r = rbuf_at(c, iter);
  MPI_Request req[2];
  MPI_Isend(s, c->n, c->type, right, TAG, c->comm, &req[0]);
  MPI_Isend(s + c->bytes, c->n, c->type, left, TAG, c->comm, &req[1]);
  MPI_Recv(r, c->n, c->type, left, MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE);
  MPI_Recv(r + c->bytes, c->n, c->type, right, MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
}

long v_exchange(bench_ctx *c, long iter) {
  int right = (c->rank + 1) % c->np, left = (c->rank - 1 + c->np) % c->np;
  char *r = rbuf_at(c, iter);
  /* The left neighbour sent us the first half of its buffer, the right one the second. */
  return check_block(c, r, left, 0, c->count) + check_block(c, r + c->bytes, right, c->count, c->count);
}

/* Uniband/Biband pair rank r of the first half with r + np/2. One iteration
 * is a window of messages, their completion, and a one-byte acknowledgement. */
static int window_peer(const bench_ctx *c, int *sender) {
  int half = c->np / 2;
  *sender = c->rank < half;
  return *sender ? c->rank + half : c->rank - half;
}

void k_uniband(bench_ctx *c, long iter) {
  int sender, peer = window_peer(c, &sender);
  if (c->rank >= 2 * (c->np / 2)) return;
  for (int w = 0; w < c->window; w++) {
    if (sender) MPI_Isend(sbuf_at(c, w), c->n, c->type, peer, TAG, c->comm, &c->reqs[w]);
    else MPI_Irecv(rbuf_at(c, w), c->n, c->type, peer, TAG, c->comm, &c->reqs[w]);
  }
  MPI_Waitall(c->window, c->reqs, MPI_STATUSES_IGNORE);
  if (sender) MPI_Recv(&c->ack, 1, MPI_CHAR, peer, TAG, c->comm, MPI_STATUS_IGNORE);
  else MPI_Send(&c->ack, 1, MPI_CHAR, peer, TAG, c->comm);
}

void k_biband(bench_ctx *c, long iter) {
  int sender, peer = window_peer(c, &sender);
  if (c->rank >= 2 * (c->np / 2)) return;
  for (int w = 0; w < c->window; w++)
    MPI_Irecv(rbuf_at(c, w), c->n, c->type, peer, TAG, c->comm, &c->reqs[w]);
  for (int w = 0; w < c->window; w++)
    MPI_Isend(sbuf_at(c, w), c->n, c->type, peer, TAG, c->comm, &c->reqs[c->window + w]);
  MPI_Waitall(2 * c->window, c->reqs, MPI_STATUSES_IGNORE);
  if (sender) MPI_Recv(&c->ack, 1, MPI_CHAR, peer, TAG, c->comm, MPI_STATUS_IGNORE);
  else MPI_Send(&c->ack, 1, MPI_CHAR, peer, TAG, c->comm);
}

/* Every window slot a receiver uses is poisoned before and checked after. */
void p_window(bench_ctx *c, long iter) {
  long slots = c->window < c->r_slots ? c->window : c->r_slots;
  for (long w = 0; w < slots; w++) poison(rbuf_at(c, w), c->r_len);
}

long v_window(bench_ctx *c, long iter) {
  int sender, peer = window_peer(c, &sender);
  if (c->rank >= 2 * (c->np / 2)) return 0;
  if (sender && c->desc->run == k_uniband) return 0;
  long slots = c->window < c->r_slots ? c->window : c->r_slots, bad = 0;
  for (long w = 0; w < slots; w++) bad += check_block(c, rbuf_at(c, w), peer, 0, c->count);
  return bad;
}
