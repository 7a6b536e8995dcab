/* The IMB-MPI4 table: persistent collectives, each as an overlap benchmark
 * (default) and a _pure flavour (non-default), like IMB-NBC. Libraries older
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

#define PAIR(name_, cls_, flags_, sb, rb, setup_, verify_)                                                     \
  {.name = name_, .cls = cls_, .flags = (flags_) | BF_DEFAULT | BF_OVERLAP, .time_scale = 1, .sbuf = sb,        \
   .rbuf = rb, .run = k_nbc_wait, .verify = verify_, .setup = K(setup_), .teardown = K(td_persistent),      \
   .start = K(st_persistent), .out = (cls_) == CLASS_SYNC ? OUT_OVERLAP_SYNC : OUT_OVERLAP},                     \
  {.name = name_ "_pure", .cls = cls_, .flags = (flags_), .time_scale = 1, .sbuf = sb, .rbuf = rb,              \
   .run = k_nbc_wait, .verify = verify_, .setup = K(setup_), .teardown = K(td_persistent),                 \
   .start = K(st_persistent)}

static const bench_desc mpi4[] = {
  PAIR("Bcast_persist", CLASS_COLLECTIVE, BF_HAS_ROOT, BUF_X, BUF_X, su_bcast, v_bcast),
  PAIR("Allgather_persist", CLASS_COLLECTIVE, 0, BUF_X, BUF_NP_X, su_allgather, v_allgather),
  PAIR("Allgatherv_persist", CLASS_COLLECTIVE, 0, BUF_X, BUF_NP_X, su_allgatherv, v_allgather),
  PAIR("Gather_persist", CLASS_COLLECTIVE, BF_HAS_ROOT, BUF_X, BUF_NP_X, su_gather, v_gather),
  PAIR("Gatherv_persist", CLASS_COLLECTIVE, BF_HAS_ROOT, BUF_X, BUF_NP_X, su_gatherv, v_gather),
  PAIR("Scatter_persist", CLASS_COLLECTIVE, BF_HAS_ROOT, BUF_NP_X, BUF_X, su_scatter, v_scatter),
  PAIR("Scatterv_persist", CLASS_COLLECTIVE, BF_HAS_ROOT, BUF_NP_X, BUF_X, su_scatterv, v_scatter),
  PAIR("Alltoall_persist", CLASS_COLLECTIVE, 0, BUF_NP_X, BUF_NP_X, su_alltoall, v_alltoall),
  PAIR("Alltoallv_persist", CLASS_COLLECTIVE, 0, BUF_NP_X, BUF_NP_X, su_alltoallv, v_alltoall),
  PAIR("Reduce_persist", CLASS_COLLECTIVE, BF_REDUCTION | BF_HAS_ROOT, BUF_X, BUF_X, su_reduce, v_reduce),
  PAIR("Reduce_scatter_persist", CLASS_COLLECTIVE, BF_REDUCTION, BUF_X, BUF_X, su_reduce_scatter, v_reduce_scatter),
  PAIR("Allreduce_persist", CLASS_COLLECTIVE, BF_REDUCTION, BUF_X, BUF_X, su_allreduce, v_allreduce),
  PAIR("Barrier_persist", CLASS_SYNC, 0, BUF_NONE, BUF_NONE, su_barrier, NULL),
};

const suite_desc suite_mpi4 = {.name = "mpi4", .title = "MPI-4", .benchmarks = mpi4,
                               .n_benchmarks = (int)(sizeof(mpi4) / sizeof(mpi4[0])), .min_mpi_version = 4};
