/* The IMB-MPI4 table: persistent collectives, each as an overlap benchmark
 * (default, except Allgather_persist, which IMB-MPI4 leaves out of its default
 * list) and a _pure flavour (non-default), like IMB-NBC. Libraries older
 * than MPI 4.0 have no persistent collectives: the rows are still listed
 * (-list, the benchmark facts) but have no kernels, and main skips the suite. */
#include "engine/registry.h"
#include "suites/mpi1/kernels.h"
#include "suites/mpi4/kernels_mpi4.h"
#include "suites/nbc/kernels_nbc.h"

#if MPI_VERSION >= 4
#define K(f) f
#else
#define K(f) NULL
#endif

static const bench_desc mpi4[] = {
  {.name = "Bcast_persist", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | BF_DEFAULT | BF_OVERLAP, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_bcast, .setup = K(su_bcast), .teardown = K(td_persistent),
   .start = K(st_persistent), .out = OUT_OVERLAP},
  {.name = "Bcast_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_bcast, .setup = K(su_bcast), .teardown = K(td_persistent),
   .start = K(st_persistent)},
  {.name = "Allgather_persist", .cls = CLASS_COLLECTIVE, .flags = BF_OVERLAP, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_allgather, .setup = K(su_allgather),
   .teardown = K(td_persistent), .start = K(st_persistent), .out = OUT_OVERLAP},
  {.name = "Allgather_persist_pure", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_allgather, .setup = K(su_allgather), .teardown = K(td_persistent),
   .start = K(st_persistent)},
  {.name = "Allgatherv_persist", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_allgather, .setup = K(su_allgatherv),
   .teardown = K(td_persistent), .start = K(st_persistent), .out = OUT_OVERLAP},
  {.name = "Allgatherv_persist_pure", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_allgather, .setup = K(su_allgatherv), .teardown = K(td_persistent),
   .start = K(st_persistent)},
  {.name = "Gather_persist", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | BF_DEFAULT | BF_OVERLAP, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_gather, .setup = K(su_gather),
   .teardown = K(td_persistent), .start = K(st_persistent), .out = OUT_OVERLAP},
  {.name = "Gather_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_gather, .setup = K(su_gather), .teardown = K(td_persistent),
   .start = K(st_persistent)},
  {.name = "Gatherv_persist", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | BF_DEFAULT | BF_OVERLAP,
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_gather, .setup = K(su_gatherv),
   .teardown = K(td_persistent), .start = K(st_persistent), .out = OUT_OVERLAP},
  {.name = "Gatherv_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_gather, .setup = K(su_gatherv), .teardown = K(td_persistent),
   .start = K(st_persistent)},
  {.name = "Scatter_persist", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | BF_DEFAULT | BF_OVERLAP,
   .time_scale = 1, .sbuf = BUF_NP_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_scatter, .setup = K(su_scatter),
   .teardown = K(td_persistent), .start = K(st_persistent), .out = OUT_OVERLAP},
  {.name = "Scatter_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_scatter, .setup = K(su_scatter), .teardown = K(td_persistent),
   .start = K(st_persistent)},
  {.name = "Scatterv_persist", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | BF_DEFAULT | BF_OVERLAP,
   .time_scale = 1, .sbuf = BUF_NP_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_scatter, .setup = K(su_scatterv),
   .teardown = K(td_persistent), .start = K(st_persistent), .out = OUT_OVERLAP},
  {.name = "Scatterv_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_scatter, .setup = K(su_scatterv), .teardown = K(td_persistent),
   .start = K(st_persistent)},
  {.name = "Alltoall_persist", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1,
   .sbuf = BUF_NP_X, .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_alltoall, .setup = K(su_alltoall),
   .teardown = K(td_persistent), .start = K(st_persistent), .out = OUT_OVERLAP},
  {.name = "Alltoall_persist_pure", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_NP_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_alltoall, .setup = K(su_alltoall), .teardown = K(td_persistent), .start = K(st_persistent)},
  {.name = "Alltoallv_persist", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1,
   .sbuf = BUF_NP_X, .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_alltoall, .setup = K(su_alltoallv),
   .teardown = K(td_persistent), .start = K(st_persistent), .out = OUT_OVERLAP},
  {.name = "Alltoallv_persist_pure", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_NP_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_alltoall, .setup = K(su_alltoallv), .teardown = K(td_persistent), .start = K(st_persistent)},
  {.name = "Reduce_persist", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_HAS_ROOT | BF_DEFAULT | BF_OVERLAP,
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_reduce, .setup = K(su_reduce),
   .teardown = K(td_persistent), .start = K(st_persistent), .out = OUT_OVERLAP},
  {.name = "Reduce_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_HAS_ROOT, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_reduce, .setup = K(su_reduce), .teardown = K(td_persistent),
   .start = K(st_persistent)},
  {.name = "Reduce_scatter_persist", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_SPLIT_GUIDE | BF_DEFAULT | BF_OVERLAP,
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_reduce_scatter,
   .setup = K(su_reduce_scatter), .teardown = K(td_persistent), .start = K(st_persistent), .out = OUT_OVERLAP},
  {.name = "Reduce_scatter_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_SPLIT_GUIDE, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_reduce_scatter, .setup = K(su_reduce_scatter),
   .teardown = K(td_persistent), .start = K(st_persistent)},
  {.name = "Allreduce_persist", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_DEFAULT | BF_OVERLAP,
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_allreduce, .setup = K(su_allreduce),
   .teardown = K(td_persistent), .start = K(st_persistent), .out = OUT_OVERLAP},
  {.name = "Allreduce_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_allreduce, .setup = K(su_allreduce), .teardown = K(td_persistent),
   .start = K(st_persistent)},
  {.name = "Barrier_persist", .cls = CLASS_SYNC, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1, .sbuf = BUF_NONE,
   .rbuf = BUF_NONE, .run = k_nbc_wait, .setup = K(su_barrier), .teardown = K(td_persistent), .start = K(st_persistent),
   .out = OUT_OVERLAP_SYNC},
  {.name = "Barrier_persist_pure", .cls = CLASS_SYNC, .time_scale = 1, .sbuf = BUF_NONE, .rbuf = BUF_NONE,
   .run = k_nbc_wait, .setup = K(su_barrier), .teardown = K(td_persistent), .start = K(st_persistent)},
};

const suite_desc suite_mpi4 = {.name = "mpi4", .title = "MPI-4", .benchmarks = mpi4,
                               .n_benchmarks = (int)(sizeof(mpi4) / sizeof(mpi4[0])), .min_mpi_version = 4};
