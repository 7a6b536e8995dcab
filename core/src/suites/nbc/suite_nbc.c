/* The IMB-NBC table: thirteen overlap benchmarks (default) and their _pure
 * flavours (non-default), each pair sharing a start function. The buffer
 * sizing, verification and Reduce_scatter split are MPI-1's. */
#include "engine/registry.h"
#include "suites/mpi1/kernels.h"
#include "suites/nbc/kernels_nbc.h"

#define OVERLAP (BF_DEFAULT | BF_OVERLAP)

/* One collective, twice: NAME (overlap) and NAME_pure. */
#define PAIR(name_, cls_, flags_, sb, rb, start_, verify_, setup_)                                             \
  {.name = name_, .cls = cls_, .flags = (flags_) | OVERLAP, .time_scale = 1, .sbuf = sb, .rbuf = rb,            \
   .run = k_nbc_wait, .verify = verify_, .setup = setup_, .start = start_,                                  \
   .out = (cls_) == CLASS_SYNC ? OUT_OVERLAP_SYNC : OUT_OVERLAP},                                             \
  {.name = name_ "_pure", .cls = cls_, .flags = (flags_), .time_scale = 1, .sbuf = sb, .rbuf = rb,              \
   .run = k_nbc_wait, .verify = verify_, .setup = setup_, .start = start_}

static const bench_desc nbc[] = {
  PAIR("Ibcast", CLASS_COLLECTIVE, BF_HAS_ROOT, BUF_X, BUF_X, st_ibcast, v_bcast, NULL),
  PAIR("Iallgather", CLASS_COLLECTIVE, 0, BUF_X, BUF_NP_X, st_iallgather, v_allgather, NULL),
  PAIR("Iallgatherv", CLASS_COLLECTIVE, 0, BUF_X, BUF_NP_X, st_iallgatherv, v_allgather, NULL),
  PAIR("Igather", CLASS_COLLECTIVE, BF_HAS_ROOT, BUF_X, BUF_NP_X, st_igather, v_gather, NULL),
  PAIR("Igatherv", CLASS_COLLECTIVE, BF_HAS_ROOT, BUF_X, BUF_NP_X, st_igatherv, v_gather, NULL),
  PAIR("Iscatter", CLASS_COLLECTIVE, BF_HAS_ROOT, BUF_NP_X, BUF_X, st_iscatter, v_scatter, NULL),
  PAIR("Iscatterv", CLASS_COLLECTIVE, BF_HAS_ROOT, BUF_NP_X, BUF_X, st_iscatterv, v_scatter, NULL),
  PAIR("Ialltoall", CLASS_COLLECTIVE, 0, BUF_NP_X, BUF_NP_X, st_ialltoall, v_alltoall, NULL),
  PAIR("Ialltoallv", CLASS_COLLECTIVE, 0, BUF_NP_X, BUF_NP_X, st_ialltoallv, v_alltoall, NULL),
  PAIR("Ireduce", CLASS_COLLECTIVE, BF_REDUCTION | BF_HAS_ROOT, BUF_X, BUF_X, st_ireduce, v_reduce, NULL),
  PAIR("Ireduce_scatter", CLASS_COLLECTIVE, BF_REDUCTION, BUF_X, BUF_X, st_ireduce_scatter, v_reduce_scatter,
       s_reduce_scatter),
  PAIR("Iallreduce", CLASS_COLLECTIVE, BF_REDUCTION, BUF_X, BUF_X, st_iallreduce, v_allreduce, NULL),
  PAIR("Ibarrier", CLASS_SYNC, 0, BUF_NONE, BUF_NONE, st_ibarrier, NULL, NULL),
};

const suite_desc suite_nbc = {.name = "nbc", .title = "MPI-NBC", .benchmarks = nbc,
                              .n_benchmarks = (int)(sizeof(nbc) / sizeof(nbc[0]))};
