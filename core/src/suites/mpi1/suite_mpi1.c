/* The IMB-MPI1 table, in IMB's default order, then the non-default ones.
 * Buffer sizes follow IMB, except Exchange's receive buffer (2X, so -check
 * sees both messages); Reduce_scatter gives every rank X bytes as IMB 2019+
 * does, the user guide's split of X under -imb_compat guide (BF_SPLIT_GUIDE);
 * docs/imb-compatibility.md says why. */
#include "engine/registry.h"
#include "suites/mpi1/kernels.h"

static const bench_desc mpi1[] = {
  {.name = "PingPong", .cls = CLASS_SINGLE, .flags = BF_DEFAULT, .time_scale = 0.5, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_pingpong, .verify = v_from_partner},
  {.name = "PingPing", .cls = CLASS_SINGLE, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_pingping, .verify = v_from_partner},
  {.name = "Sendrecv", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 2, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_sendrecv, .verify = v_sendrecv},
  {.name = "Exchange", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 4, .sbuf = BUF_2X,
   .rbuf = BUF_2X, .run = k_exchange, .verify = v_exchange},
  {.name = "Allreduce", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_REDUCTION | BF_LARGE_COUNT, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_allreduce, .verify = v_allreduce},
  {.name = "Reduce", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_REDUCTION | BF_LARGE_COUNT | BF_HAS_ROOT,
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_reduce, .verify = v_reduce},
  {.name = "Reduce_local", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_REDUCTION | BF_LARGE_COUNT,
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_reduce_local, .poison = p_reduce_local,
   .verify = v_reduce_local},
  {.name = "Reduce_scatter", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_REDUCTION | BF_SPLIT_GUIDE, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_reduce_scatter, .verify = v_reduce_scatter, .setup = s_reduce_scatter},
  {.name = "Reduce_scatter_block", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_REDUCTION | BF_LARGE_COUNT,
   .time_scale = 1, .sbuf = BUF_NP_X, .rbuf = BUF_X, .run = k_reduce_scatter_block, .verify = v_reduce_scatter_block},
  {.name = "Allgather", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_NP_X, .run = k_allgather, .verify = v_allgather},
  {.name = "Allgatherv", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_NP_X, .run = k_allgatherv, .verify = v_allgather},
  {.name = "Gather", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_NP_X, .run = k_gather, .verify = v_gather},
  {.name = "Gatherv", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_NP_X, .run = k_gatherv, .verify = v_gather},
  {.name = "Scatter", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_X, .run = k_scatter, .verify = v_scatter},
  {.name = "Scatterv", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_X, .run = k_scatterv, .verify = v_scatter},
  {.name = "Alltoall", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_NP_X, .run = k_alltoall, .verify = v_alltoall},
  {.name = "Alltoallv", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_NP_X, .run = k_alltoallv, .verify = v_alltoall},
  {.name = "Bcast", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_bcast, .verify = v_bcast},
  {.name = "Barrier", .cls = CLASS_SYNC, .flags = BF_DEFAULT, .time_scale = 1, .sbuf = BUF_NONE, .rbuf = BUF_NONE,
   .run = k_barrier},
  {.name = "PingPongSpecificSource", .cls = CLASS_SINGLE, .time_scale = 0.5, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_pingpong, .verify = v_from_partner},
  {.name = "PingPongAnySource", .cls = CLASS_SINGLE, .flags = BF_ANY_SOURCE, .time_scale = 0.5, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_pingpong, .verify = v_from_partner},
  {.name = "PingPingSpecificSource", .cls = CLASS_SINGLE, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_pingping, .verify = v_from_partner},
  {.name = "PingPingAnySource", .cls = CLASS_SINGLE, .flags = BF_ANY_SOURCE, .time_scale = 1, .bw_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_pingping, .verify = v_from_partner},
  {.name = "Uniband", .cls = CLASS_MSGRATE, .time_scale = 1, .bw_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X,
   .run = k_uniband, .poison = p_window, .verify = v_window},
  {.name = "Biband", .cls = CLASS_MSGRATE, .time_scale = 1, .bw_scale = 2, .sbuf = BUF_X, .rbuf = BUF_X,
   .run = k_biband, .poison = p_window, .verify = v_window},
};

const suite_desc suite_mpi1 = {.name = "mpi1", .title = "MPI-1", .benchmarks = mpi1,
                               .n_benchmarks = (int)(sizeof(mpi1) / sizeof(mpi1[0]))};
