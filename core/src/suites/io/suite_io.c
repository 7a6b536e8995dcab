/* The IMB-IO table in IMB's default order (IMB_bnames_io.h). Write
 * flavours run in aggregate mode (to disjoint file sections, one assured
 * completion after the loop) and then non-aggregate mode (the completion
 * after every write); Read flavours run once, with no completion step. Each
 * is followed by its nonblocking flavour, which uses the overlap protocol:
 * t_pure from the blocking routine, then start + CPU work + wait. S_ runs
 * on one process with a private file, P_ and C_ on every count of the sweep.
 *
 * C_ rows use the parallel-transfer class: IMB-IO times its collective
 * calls back to back after two barriers, which is the engine's parallel
 * loop (the collective class would add -sync's barrier after every call);
 * the columns are the same, IMB-IO's collective tables show MB/s too. */
#include "engine/registry.h"
#include "suites/io/files.h"
#include "suites/io/kernels_io.h"

#define IO_ROW(name_, cls_, flags_, complete_, start_, finish_, out_)                                    \
  {.name = name_, .cls = cls_, .flags = BF_DEFAULT | (flags_), .time_scale = 1, .bw_scale = 1,         \
   .sbuf = BUF_X, .rbuf = BUF_X, .run = k_io, .poison = p_io, .verify = v_io, .setup = s_io,           \
   .teardown = t_io, .complete = complete_, .start = start_, .finish = finish_, .out = out_}

#define WRITE(name_, cls_) IO_ROW(name_, cls_, BF_AGGREGATE | BF_DISJOINT, c_io, NULL, NULL, OUT_AUTO)
/* Nonblocking writes complete every transfer (IMB: no aggregate mode for
 * them), so they take the non-aggregate repetition count, MSGS_NONAGGR. */
#define IWRITE(name_, cls_) IO_ROW(name_, cls_, BF_OVERLAP | BF_NONAGGR_ITERS, c_io, st_io, f_io, OUT_OVERLAP)
#define READ(name_, cls_) IO_ROW(name_, cls_, 0, NULL, NULL, NULL, OUT_AUTO)
#define IREAD(name_, cls_) IO_ROW(name_, cls_, BF_OVERLAP, NULL, st_io, f_io, OUT_OVERLAP)

#define S_ CLASS_SINGLE
#define P_ CLASS_PARALLEL
#define C_ CLASS_PARALLEL

static const bench_desc io[] = {
  WRITE("S_Write_Indv", S_),   IWRITE("S_IWrite_Indv", S_),
  WRITE("S_Write_Expl", S_),   IWRITE("S_IWrite_Expl", S_),
  WRITE("P_Write_Indv", P_),   IWRITE("P_IWrite_Indv", P_),
  WRITE("P_Write_Shared", P_), IWRITE("P_IWrite_Shared", P_),
  WRITE("P_Write_Priv", P_),   IWRITE("P_IWrite_Priv", P_),
  WRITE("P_Write_Expl", P_),   IWRITE("P_IWrite_Expl", P_),
  WRITE("C_Write_Indv", C_),   IWRITE("C_IWrite_Indv", C_),
  WRITE("C_Write_Shared", C_), IWRITE("C_IWrite_Shared", C_),
  WRITE("C_Write_Expl", C_),   IWRITE("C_IWrite_Expl", C_),
  READ("S_Read_Indv", S_),     IREAD("S_IRead_Indv", S_),
  READ("S_Read_Expl", S_),     IREAD("S_IRead_Expl", S_),
  READ("P_Read_Indv", P_),     IREAD("P_IRead_Indv", P_),
  READ("P_Read_Shared", P_),   IREAD("P_IRead_Shared", P_),
  READ("P_Read_Priv", P_),     IREAD("P_IRead_Priv", P_),
  READ("P_Read_Expl", P_),     IREAD("P_IRead_Expl", P_),
  READ("C_Read_Indv", C_),     IREAD("C_IRead_Indv", C_),
  READ("C_Read_Shared", C_),   IREAD("C_IRead_Shared", C_),
  READ("C_Read_Expl", C_),     IREAD("C_IRead_Expl", C_),
  /* IMB's Sync type: no size, t_min/t_max/t_avg, no -check (nothing arrives). */
  {.name = "Open_Close", .cls = CLASS_SYNC, .flags = BF_DEFAULT, .time_scale = 1, .sbuf = BUF_NONE, .rbuf = BUF_NONE,
   .run = k_open_close, .setup = s_open_close, .teardown = t_open_close},
};

const suite_desc suite_io = {.name = "io", .title = "MPI-IO", .benchmarks = io,
                             .n_benchmarks = (int)(sizeof(io) / sizeof(io[0])),
                             .nonaggregate_first = 0, .single_np = 1, .rep_test_cap = 50,
                             .precheck = io_precheck};
