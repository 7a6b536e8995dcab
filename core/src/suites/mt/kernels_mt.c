#include "suites/mt/kernels_mt.h"
#include "engine/check.h"

static mt_thread_t *th(bench_ctx *c) { return (mt_thread_t *)c->user; }

/* The pair partner: up for even groups, down for odd ones. */
static int partner(bench_ctx *c) {
  mt_thread_t *t = th(c);
  return t->group % 2 == 0 ? c->rank + t->stride : c->rank - t->stride;
}

void k_mt_pingpong(bench_ctx *c, long iter) {
  int p = partner(c);
  if (th(c)->group % 2 == 0) {
    MPI_Send(c->sbuf, c->n, c->type, p, 0, c->comm);
    MPI_Recv(c->rbuf, c->n, c->type, p, 0, c->comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(c->rbuf, c->n, c->type, p, 0, c->comm, MPI_STATUS_IGNORE);
    MPI_Send(c->sbuf, c->n, c->type, p, 0, c->comm);
  }
}

void k_mt_pingping(bench_ctx *c, long iter) {
  int p = partner(c);
  MPI_Request req;
  MPI_Isend(c->sbuf, c->n, c->type, p, 0, c->comm, &req);
  MPI_Recv(c->rbuf, c->n, c->type, p, 0, c->comm, MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
}

static int right(bench_ctx *c) { return (c->rank + th(c)->stride) % c->np; }
static int left(bench_ctx *c) { return (c->rank + c->np - th(c)->stride) % c->np; }

void k_mt_sendrecv(bench_ctx *c, long iter) {
  MPI_Sendrecv(c->sbuf, c->n, c->type, right(c), 0, c->rbuf, c->n, c->type, left(c), 0, c->comm, MPI_STATUS_IGNORE);
}

void k_mt_exchange(bench_ctx *c, long iter) {
  MPI_Request req[2];
  MPI_Isend(c->sbuf, c->n, c->type, left(c), 0, c->comm, &req[0]);
  MPI_Isend(c->sbuf, c->n, c->type, right(c), 0, c->comm, &req[1]);
  MPI_Recv(c->rbuf, c->n, c->type, left(c), 0, c->comm, MPI_STATUS_IGNORE);
  MPI_Recv(c->rbuf + c->bytes, c->n, c->type, right(c), 0, c->comm, MPI_STATUS_IGNORE);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
}

/* Even groups send a window, odd ones receive it and acknowledge. */
void k_mt_uniband(bench_ctx *c, long iter) {
  int p = partner(c), w = c->window;
  if (th(c)->group % 2 == 0) {
    for (int i = 0; i < w; i++) MPI_Isend(c->sbuf, c->n, c->type, p, 0, c->comm, &c->reqs[i]);
    MPI_Waitall(w, c->reqs, MPI_STATUSES_IGNORE);
    MPI_Recv(&c->ack, 1, MPI_CHAR, p, 0, c->comm, MPI_STATUS_IGNORE);
  } else {
    for (int i = 0; i < w; i++) MPI_Irecv(c->rbuf, c->n, c->type, p, 0, c->comm, &c->reqs[i]);
    MPI_Waitall(w, c->reqs, MPI_STATUSES_IGNORE);
    MPI_Send(&c->ack, 1, MPI_CHAR, p, 0, c->comm);
  }
}

/* Both send a window and receive one; the odd group acknowledges. */
void k_mt_biband(bench_ctx *c, long iter) {
  int p = partner(c), w = c->window;
  for (int i = 0; i < w; i++) MPI_Irecv(c->rbuf, c->n, c->type, p, 0, c->comm, &c->reqs[i]);
  for (int i = 0; i < w; i++) MPI_Isend(c->sbuf, c->n, c->type, p, 0, c->comm, &c->reqs[w + i]);
  MPI_Waitall(2 * w, c->reqs, MPI_STATUSES_IGNORE);
  if (th(c)->group % 2 == 0) MPI_Recv(&c->ack, 1, MPI_CHAR, p, 0, c->comm, MPI_STATUS_IGNORE);
  else MPI_Send(&c->ack, 1, MPI_CHAR, p, 0, c->comm);
}

void k_mt_barrier(bench_ctx *c, long iter) {
  if (th(c)->multiple) {
#pragma omp barrier
  }
  MPI_Barrier(c->comm);
}

void k_mt_bcast(bench_ctx *c, long iter) {
  MPI_Bcast(c->rank == 0 ? c->sbuf : c->rbuf, c->n, c->type, 0, c->comm);
}

void k_mt_reduce(bench_ctx *c, long iter) { MPI_Reduce(c->sbuf, c->rbuf, c->n, c->type, MPI_SUM, 0, c->comm); }

void k_mt_allreduce(bench_ctx *c, long iter) { MPI_Allreduce(c->sbuf, c->rbuf, c->n, c->type, MPI_SUM, c->comm); }

long v_mt_pair(bench_ctx *c, long iter) { return th(c)->paired ? check_block(c, c->rbuf, partner(c), 0, c->count) : 0; }

long v_mt_uniband(bench_ctx *c, long iter) { return th(c)->group % 2 ? v_mt_pair(c, iter) : 0; }

long v_mt_sendrecv(bench_ctx *c, long iter) { return check_block(c, c->rbuf, left(c), 0, c->count); }

long v_mt_exchange(bench_ctx *c, long iter) {
  return check_block(c, c->rbuf, left(c), 0, c->count) + check_block(c, c->rbuf + c->bytes, right(c), 0, c->count);
}

long v_mt_bcast(bench_ctx *c, long iter) { return c->rank == 0 ? 0 : check_block(c, c->rbuf, 0, 0, c->count); }

long v_mt_reduce(bench_ctx *c, long iter) { return c->rank == 0 ? check_sum_all(c, c->rbuf, 0, c->count) : 0; }

long v_mt_allreduce(bench_ctx *c, long iter) { return check_sum_all(c, c->rbuf, 0, c->count); }
