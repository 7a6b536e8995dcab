/* What IMB-MT's program keeps per run and per thread (mt_main.c), and the
 * threads' buffers as -malloc_algo and -malloc_align place them (mt_buffers.c). */
#ifndef MPIMARK_MT_RUN_H
#define MPIMARK_MT_RUN_H

#include <mpi.h>
#include <stddef.h>
#include "engine/registry.h"
#include "suites/mt/kernels_mt.h"
#include "suites/mt/mt_options.h"

/* One thread's benchmark context and what it measured. */
typedef struct {
  bench_ctx c;
  mt_thread_t t;
  char *block;         /* the allocation behind sbuf and rbuf (NULL: part of another thread's) */
  double *samples;
  double time_s;       /* the timed loop, or the sum of the timed calls */
  int result;          /* 1: this thread took part */
  long defects;
} slot_t;

typedef struct {
  const mt_options_t *o;
  int multiple, threads, rank, np;
  MPI_Datatype type;
  size_t dt_size;
} mt_run_t;

/* This thread's number in the OpenMP team (0 without OpenMP). */
int mt_thread_id(void);

/* The send and receive areas of every thread (sbytes, rbytes each), aligned
 * and zeroed by the thread that allocates them: the master one by one
 * (serial), each thread its own (parallel), or one block sliced (continuous);
 * serial unless several threads run. 0, or -1 if memory could not be had. */
int mt_alloc_buffers(const mt_run_t *m, slot_t *slots, size_t sbytes, size_t rbytes);

#endif
