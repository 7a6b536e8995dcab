/* IMB-MT's command line (docs/mt.md): benchmark names, -include, -exclude,
 * -thread_level, -count, -repeat, -warmup, -window_size, -stride, -barrier,
 * -malloc_align, -malloc_algo, -check, -noheader, -datatype, -input, -help; and
 * mpimark's -json FILE (-list is every suite's, main.c). Pure parsing (no MPI); where IMB-MT ignores or
 * mis-reads a bad value this parser refuses it with one line. */
#ifndef MPIMARK_MT_OPTIONS_H
#define MPIMARK_MT_OPTIONS_H

#include <stddef.h>
#include "util/options.h"

#define MT_MAX_COUNTS 256
#define MT_MAX_NAMES 64

enum { MT_BARRIER_OFF, MT_BARRIER_ON, MT_BARRIER_SPECIAL };
enum { MT_MALLOC_SERIAL, MT_MALLOC_CONTINUOUS, MT_MALLOC_PARALLEL };

typedef struct {
  int counts[MT_MAX_COUNTS];   /* elements per message, per thread (1,2,4,8) */
  int n_counts;
  int repeat, warmup;          /* timed and warm-up iterations (1000, 100) */
  int window_size;             /* UniBandMT, BiBandMT (64) */
  int stride;                  /* pair distance; 0: half the processes */
  int barrier;                 /* MT_BARRIER_*: between the collectives' iterations (on) */
  int malloc_align;            /* buffer alignment in bytes (64) */
  int malloc_algo;             /* MT_MALLOC_*: who allocates the threads' buffers (serial) */
  int check;                   /* verify the received data (off; int only) */
  int noheader;                /* no title block */
  dtype_t datatype;            /* DT_INT or DT_CHAR (int) */
  thread_level_t thread_level; /* single: one thread; multiple: OpenMP's threads */
  char *names[MT_MAX_NAMES], *include[MT_MAX_NAMES], *exclude[MT_MAX_NAMES];
  int n_names, n_include, n_exclude;
  char input_file[1024];       /* -input: more names, read after the command line (as IMB) */
  char json_path[1024];
  int help;
} mt_options_t;

void mt_options_defaults(mt_options_t *o);
/* argv[first..argc-1]; 0, or -1 with one line in err. Names point into a
 * static copy of the words. */
int mt_options_parse(mt_options_t *o, int argc, char **argv, int first, char *err, size_t errlen);
/* "int" or "char". */
const char *mt_datatype_name(dtype_t t);

#endif
