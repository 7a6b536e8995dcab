/* The IMB-NBC table: thirteen overlap benchmarks (default) and their _pure
 * flavours (non-default), each pair sharing a start function. The buffer
 * sizing, verification and Reduce_scatter rule (-imb_compat) are MPI-1's. */
#include "engine/registry.h"
#include "suites/mpi1/kernels.h"
#include "suites/nbc/kernels_nbc.h"

#define OVERLAP (BF_DEFAULT | BF_OVERLAP)

/* One row per benchmark, every field written out: each collective twice,
 * NAME (overlap) and NAME_pure. */
static const bench_desc nbc[] = {
  {.name = "Ibcast", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | OVERLAP, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_bcast, .start = st_ibcast, .out = OUT_OVERLAP},
  {.name = "Ibcast_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_bcast, .start = st_ibcast},
  {.name = "Iallgather", .cls = CLASS_COLLECTIVE, .flags = OVERLAP, .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_allgather, .start = st_iallgather, .out = OUT_OVERLAP},
  {.name = "Iallgather_pure", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_allgather, .start = st_iallgather},
  {.name = "Iallgatherv", .cls = CLASS_COLLECTIVE, .flags = OVERLAP, .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_allgather, .start = st_iallgatherv, .out = OUT_OVERLAP},
  {.name = "Iallgatherv_pure", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_allgather, .start = st_iallgatherv},
  {.name = "Igather", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | OVERLAP, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_gather, .start = st_igather, .out = OUT_OVERLAP},
  {.name = "Igather_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_gather, .start = st_igather},
  {.name = "Igatherv", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | OVERLAP, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_gather, .start = st_igatherv, .out = OUT_OVERLAP},
  {.name = "Igatherv_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_gather, .start = st_igatherv},
  {.name = "Iscatter", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | OVERLAP, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_scatter, .start = st_iscatter, .out = OUT_OVERLAP},
  {.name = "Iscatter_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_scatter, .start = st_iscatter},
  {.name = "Iscatterv", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT | OVERLAP, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_scatter, .start = st_iscatterv, .out = OUT_OVERLAP},
  {.name = "Iscatterv_pure", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_scatter, .start = st_iscatterv},
  {.name = "Ialltoall", .cls = CLASS_COLLECTIVE, .flags = OVERLAP, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_alltoall, .start = st_ialltoall, .out = OUT_OVERLAP},
  {.name = "Ialltoall_pure", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_NP_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_alltoall, .start = st_ialltoall},
  {.name = "Ialltoallv", .cls = CLASS_COLLECTIVE, .flags = OVERLAP, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_NP_X, .run = k_nbc_wait, .verify = v_alltoall, .start = st_ialltoallv, .out = OUT_OVERLAP},
  {.name = "Ialltoallv_pure", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_NP_X, .rbuf = BUF_NP_X,
   .run = k_nbc_wait, .verify = v_alltoall, .start = st_ialltoallv},
  {.name = "Ireduce", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_HAS_ROOT | OVERLAP | BF_OVERLAP_ROOT_RR,
   .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_reduce, .start = st_ireduce, .out = OUT_OVERLAP},
  {.name = "Ireduce_pure", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_HAS_ROOT, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_reduce, .start = st_ireduce},
  {.name = "Ireduce_scatter", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_SPLIT_GUIDE | OVERLAP, .time_scale = 1,
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_reduce_scatter, .setup = s_reduce_scatter,
   .start = st_ireduce_scatter, .out = OUT_OVERLAP},
  {.name = "Ireduce_scatter_pure", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_SPLIT_GUIDE, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_reduce_scatter, .setup = s_reduce_scatter,
   .start = st_ireduce_scatter},
  {.name = "Iallreduce", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | OVERLAP, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_allreduce, .start = st_iallreduce, .out = OUT_OVERLAP},
  {.name = "Iallreduce_pure", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_nbc_wait, .verify = v_allreduce, .start = st_iallreduce},
  {.name = "Ibarrier", .cls = CLASS_SYNC, .flags = OVERLAP, .time_scale = 1, .sbuf = BUF_NONE, .rbuf = BUF_NONE,
   .run = k_nbc_wait, .start = st_ibarrier, .out = OUT_OVERLAP_SYNC},
  {.name = "Ibarrier_pure", .cls = CLASS_SYNC, .time_scale = 1, .sbuf = BUF_NONE, .rbuf = BUF_NONE, .run = k_nbc_wait,
   .start = st_ibarrier},
};

const suite_desc suite_nbc = {.name = "nbc", .title = "MPI-NBC", .benchmarks = nbc,
                              .n_benchmarks = (int)(sizeof(nbc) / sizeof(nbc[0]))};
