/* The IMB-MPI1 table, in IMB's default order, then the non-default ones.
 * Buffer sizes follow IMB, except Exchange's receive buffer (2X, so -check
 * sees both messages) and Reduce_scatter (the user guide's split of X bytes,
 * not IMB 2019+'s X bytes per rank); docs/imb-compatibility.md says why. */
#include "engine/registry.h"
#include "suites/mpi1/kernels.h"

#define ROW(name_, cls_, flags_, tscale, bw, sb, rb, run_, poison_, verify_, setup_)                    \
  {.name = name_, .cls = cls_, .flags = flags_, .time_scale = tscale, .bw_scale = bw, .sbuf = sb, .rbuf = rb, \
   .run = run_, .poison = poison_, .verify = verify_, .setup = setup_}

static const bench_desc mpi1[] = {
  ROW("PingPong", CLASS_SINGLE, BF_DEFAULT, 0.5, 1, BUF_X, BUF_X, k_pingpong, NULL, v_from_partner, NULL),
  ROW("PingPing", CLASS_SINGLE, BF_DEFAULT, 1, 1, BUF_X, BUF_X, k_pingping, NULL, v_from_partner, NULL),
  ROW("Sendrecv", CLASS_PARALLEL, BF_DEFAULT, 1, 2, BUF_X, BUF_X, k_sendrecv, NULL, v_sendrecv, NULL),
  ROW("Exchange", CLASS_PARALLEL, BF_DEFAULT, 1, 4, BUF_2X, BUF_2X, k_exchange, NULL, v_exchange, NULL),
  ROW("Allreduce", CLASS_COLLECTIVE, BF_DEFAULT | BF_REDUCTION | BF_LARGE_COUNT, 1, 0, BUF_X, BUF_X, k_allreduce, NULL, v_allreduce, NULL),
  ROW("Reduce", CLASS_COLLECTIVE, BF_DEFAULT | BF_REDUCTION | BF_LARGE_COUNT | BF_HAS_ROOT, 1, 0, BUF_X, BUF_X, k_reduce, NULL, v_reduce, NULL),
  ROW("Reduce_local", CLASS_COLLECTIVE, BF_DEFAULT | BF_REDUCTION | BF_LARGE_COUNT, 1, 0, BUF_X, BUF_X, k_reduce_local, p_reduce_local, v_reduce_local, NULL),
  ROW("Reduce_scatter", CLASS_COLLECTIVE, BF_DEFAULT | BF_REDUCTION, 1, 0, BUF_X, BUF_X, k_reduce_scatter, NULL, v_reduce_scatter, s_reduce_scatter),
  ROW("Reduce_scatter_block", CLASS_COLLECTIVE, BF_DEFAULT | BF_REDUCTION | BF_LARGE_COUNT, 1, 0, BUF_NP_X, BUF_X, k_reduce_scatter_block, NULL, v_reduce_scatter_block, NULL),
  ROW("Allgather", CLASS_COLLECTIVE, BF_DEFAULT, 1, 0, BUF_X, BUF_NP_X, k_allgather, NULL, v_allgather, NULL),
  ROW("Allgatherv", CLASS_COLLECTIVE, BF_DEFAULT, 1, 0, BUF_X, BUF_NP_X, k_allgatherv, NULL, v_allgather, NULL),
  ROW("Gather", CLASS_COLLECTIVE, BF_DEFAULT | BF_HAS_ROOT, 1, 0, BUF_X, BUF_NP_X, k_gather, NULL, v_gather, NULL),
  ROW("Gatherv", CLASS_COLLECTIVE, BF_DEFAULT | BF_HAS_ROOT, 1, 0, BUF_X, BUF_NP_X, k_gatherv, NULL, v_gather, NULL),
  ROW("Scatter", CLASS_COLLECTIVE, BF_DEFAULT | BF_HAS_ROOT, 1, 0, BUF_NP_X, BUF_X, k_scatter, NULL, v_scatter, NULL),
  ROW("Scatterv", CLASS_COLLECTIVE, BF_DEFAULT | BF_HAS_ROOT, 1, 0, BUF_NP_X, BUF_X, k_scatterv, NULL, v_scatter, NULL),
  ROW("Alltoall", CLASS_COLLECTIVE, BF_DEFAULT, 1, 0, BUF_NP_X, BUF_NP_X, k_alltoall, NULL, v_alltoall, NULL),
  ROW("Alltoallv", CLASS_COLLECTIVE, BF_DEFAULT, 1, 0, BUF_NP_X, BUF_NP_X, k_alltoallv, NULL, v_alltoall, NULL),
  ROW("Bcast", CLASS_COLLECTIVE, BF_DEFAULT | BF_HAS_ROOT, 1, 0, BUF_X, BUF_X, k_bcast, NULL, v_bcast, NULL),
  ROW("Barrier", CLASS_SYNC, BF_DEFAULT, 1, 0, BUF_NONE, BUF_NONE, k_barrier, NULL, NULL, NULL),
  ROW("PingPongSpecificSource", CLASS_SINGLE, 0, 0.5, 1, BUF_X, BUF_X, k_pingpong, NULL, v_from_partner, NULL),
  ROW("PingPongAnySource", CLASS_SINGLE, BF_ANY_SOURCE, 0.5, 1, BUF_X, BUF_X, k_pingpong, NULL, v_from_partner, NULL),
  ROW("PingPingSpecificSource", CLASS_SINGLE, 0, 1, 1, BUF_X, BUF_X, k_pingping, NULL, v_from_partner, NULL),
  ROW("PingPingAnySource", CLASS_SINGLE, BF_ANY_SOURCE, 1, 1, BUF_X, BUF_X, k_pingping, NULL, v_from_partner, NULL),
  ROW("Uniband", CLASS_MSGRATE, 0, 1, 1, BUF_X, BUF_X, k_uniband, p_window, v_window, NULL),
  ROW("Biband", CLASS_MSGRATE, 0, 1, 2, BUF_X, BUF_X, k_biband, p_window, v_window, NULL),
};

const suite_desc suite_mpi1 = {.name = "mpi1", .title = "MPI-1", .benchmarks = mpi1,
                               .n_benchmarks = (int)(sizeof(mpi1) / sizeof(mpi1[0]))};
