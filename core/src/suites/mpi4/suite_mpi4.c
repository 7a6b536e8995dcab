/* The IMB-MPI4 table: persistent collectives, each as an overlap benchmark
 * (default) and a _pure flavour (non-default), like IMB-NBC. Libraries older
 * than MPI 4.0 have none; the suite is then empty and main says so. */
#include "engine/registry.h"
#include "suites/mpi1/kernels.h"
#include "suites/mpi4/kernels_mpi4.h"
#include "suites/nbc/kernels_nbc.h"

#if MPI_VERSION >= 4

static const bench_desc mpi4[] = {
  {.name = "Bcast_persist", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | BF_DEFAULT | BF_OVERLAP, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_bcast, .setup = su_bcast, .teardown = td_persistent,
   .start = st_persistent, .out = OUT_OVERLAP},
  {.name = "Bcast_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_bcast, .setup = su_bcast, .teardown = td_persistent,
   .start = st_persistent},
  {.name = "Allgather_persist", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_allgather, .setup = su_allgather,
   .teardown = td_persistent, .start = st_persistent, .out = OUT_OVERLAP},
  {.name = "Allgather_persist_pure", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_allgather, .setup = su_allgather, .teardown = td_persistent,
   .start = st_persistent},
  {.name = "Allgatherv_persist", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_allgather, .setup = su_allgatherv,
   .teardown = td_persistent, .start = st_persistent, .out = OUT_OVERLAP},
  {.name = "Allgatherv_persist_pure", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_allgather, .setup = su_allgatherv, .teardown = td_persistent,
   .start = st_persistent},
  {.name = "Gather_persist", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | BF_DEFAULT | BF_OVERLAP, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_gather, .setup = su_gather,
   .teardown = td_persistent, .start = st_persistent, .out = OUT_OVERLAP},
  {.name = "Gather_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_gather, .setup = su_gather, .teardown = td_persistent,
   .start = st_persistent},
  {.name = "Gatherv_persist", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | BF_DEFAULT | BF_OVERLAP,
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_gather, .setup = su_gatherv,
   .teardown = td_persistent, .start = st_persistent, .out = OUT_OVERLAP},
  {.name = "Gatherv_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_gather, .setup = su_gatherv, .teardown = td_persistent,
   .start = st_persistent},
  {.name = "Scatter_persist", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | BF_DEFAULT | BF_OVERLAP,
   .time_scale = 1, .sbuf = BUF_NP_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_scatter, .setup = su_scatter,
   .teardown = td_persistent, .start = st_persistent, .out = OUT_OVERLAP},
  {.name = "Scatter_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_scatter, .setup = su_scatter, .teardown = td_persistent,
   .start = st_persistent},
  {.name = "Scatterv_persist", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | BF_DEFAULT | BF_OVERLAP,
   .time_scale = 1, .sbuf = BUF_NP_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_scatter, .setup = su_scatterv,
   .teardown = td_persistent, .start = st_persistent, .out = OUT_OVERLAP},
  {.name = "Scatterv_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_scatter, .setup = su_scatterv, .teardown = td_persistent,
   .start = st_persistent},
  {.name = "Alltoall_persist", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1,
   .sbuf = BUF_NP_X, .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_alltoall, .setup = su_alltoall,
   .teardown = td_persistent, .start = st_persistent, .out = OUT_OVERLAP},
  {.name = "Alltoall_persist_pure", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_NP_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_alltoall, .setup = su_alltoall, .teardown = td_persistent, .start = st_persistent},
  {.name = "Alltoallv_persist", .cls = CLASS_COLLECTIVE, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1,
   .sbuf = BUF_NP_X, .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_alltoall, .setup = su_alltoallv,
   .teardown = td_persistent, .start = st_persistent, .out = OUT_OVERLAP},
  {.name = "Alltoallv_persist_pure", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_NP_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_alltoall, .setup = su_alltoallv, .teardown = td_persistent, .start = st_persistent},
  {.name = "Reduce_persist", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_HAS_ROOT | BF_DEFAULT | BF_OVERLAP,
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_reduce, .setup = su_reduce,
   .teardown = td_persistent, .start = st_persistent, .out = OUT_OVERLAP},
  {.name = "Reduce_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_HAS_ROOT, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_reduce, .setup = su_reduce, .teardown = td_persistent,
   .start = st_persistent},
  {.name = "Reduce_scatter_persist", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_DEFAULT | BF_OVERLAP,
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_reduce_scatter,
   .setup = su_reduce_scatter, .teardown = td_persistent, .start = st_persistent, .out = OUT_OVERLAP},
  {.name = "Reduce_scatter_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_reduce_scatter, .setup = su_reduce_scatter,
   .teardown = td_persistent, .start = st_persistent},
  {.name = "Allreduce_persist", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_DEFAULT | BF_OVERLAP,
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_allreduce, .setup = su_allreduce,
   .teardown = td_persistent, .start = st_persistent, .out = OUT_OVERLAP},
  {.name = "Allreduce_persist_pure", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_allreduce, .setup = su_allreduce, .teardown = td_persistent,
   .start = st_persistent},
  {.name = "Barrier_persist", .cls = CLASS_SYNC, .flags = BF_DEFAULT | BF_OVERLAP, .time_scale = 1, .sbuf = BUF_NONE,
   .rbuf = BUF_NONE, .run = k_nbc_wait, .setup = su_barrier, .teardown = td_persistent, .start = st_persistent,
   .out = OUT_OVERLAP_SYNC},
  {.name = "Barrier_persist_pure", .cls = CLASS_SYNC, .time_scale = 1, .sbuf = BUF_NONE, .rbuf = BUF_NONE,
   .run = k_nbc_wait, .setup = su_barrier, .teardown = td_persistent, .start = st_persistent},
};

const suite_desc suite_mpi4 = {.name = "mpi4", .title = "MPI-4", .benchmarks = mpi4,
                               .n_benchmarks = (int)(sizeof(mpi4) / sizeof(mpi4[0]))};

#else

const suite_desc suite_mpi4 = {.name = "mpi4", .title = "MPI-4", .benchmarks = NULL, .n_benchmarks = 0};

#endif
