/* IMB-IO kernels. One set of functions serves every row: setup reads the
 * benchmark's name as IMB does (S_/P_/C_, I for nonblocking, Write/Read,
 * Indv/Expl/Shared/Priv) and keeps the file, view and this rank's portion
 * in c->user; run/start/finish pick the MPI-IO routine from that. */
#ifndef MPIMARK_KERNELS_IO_H
#define MPIMARK_KERNELS_IO_H

#include "engine/registry.h"

void s_io(bench_ctx *c);                                 /* setup: open, prepare, view, unlink */
void t_io(bench_ctx *c);                                 /* teardown: close */
void k_io(bench_ctx *c, long iter);                      /* the blocking transfer (t_pure of I flavours) */
void st_io(bench_ctx *c, long iter, MPI_Request *req);   /* I flavours: start */
void f_io(bench_ctx *c, long iter, MPI_Request *req);    /* I flavours: wait, or end a split collective */
void c_io(bench_ctx *c);                                 /* Write: sync, barrier, sync */
void p_io(bench_ctx *c, long iter);                      /* -check: poison */
long v_io(bench_ctx *c, long iter);                      /* -check: compare with the file's bytes */

void s_open_close(bench_ctx *c);
void t_open_close(bench_ctx *c);
void k_open_close(bench_ctx *c, long iter);

#endif
