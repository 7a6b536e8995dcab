/* IMB's command line, parsed into one struct that the engine reads.
 * Parsing needs no MPI, so every rank parses the same argv the same way and
 * reaches the same verdict; the unit tests call it directly. */
#ifndef MPIMARK_OPTIONS_H
#define MPIMARK_OPTIONS_H

#include <stddef.h>
#include "util/parse.h"

enum { AGG_BOTH, AGG_ONLY, AGG_NONE };

typedef enum { POLICY_DYNAMIC, POLICY_MULTIPLE_NP, POLICY_AUTO, POLICY_OFF } iter_policy_t;

typedef enum {
  THREAD_SINGLE, THREAD_FUNNELED, THREAD_SERIALIZED, THREAD_MULTIPLE, THREAD_NOMPIINIT
} thread_level_t;

/* Element types of -data_type / -red_data_type. */
typedef enum { DT_BYTE, DT_CHAR, DT_INT, DT_FLOAT, DT_DOUBLE, DT_FLOAT16, DT_BFLOAT16 } dtype_t;

#define OPT_MAX_NAMES 256
#define OPT_MAX_SIZES 4096
#define OPT_ERR_LEN 512

typedef struct {
  char suite[16];

  /* Benchmark selection. names: positional list (empty = the defaults). */
  char *names[OPT_MAX_NAMES];
  int n_names;
  char *include[OPT_MAX_NAMES];
  int n_include;
  char *exclude[OPT_MAX_NAMES];
  int n_exclude;
  char input_file[1024];

  int npmin;              /* -npmin, default 2 */
  int multi;              /* -multi: -1 off, 0 worst group, 1 every group */
  int off_cache;          /* -off_cache given with a size >= 0 or -1 */
  double cache_size_mb;   /* -off_cache size (MB), -1 means 8 MB */
  int cache_line;         /* -off_cache ,line (bytes), 0 means 64 */

  long msgspersample;     /* -iter 1st */
  double overall_vol_mb;  /* -iter 2nd (MiB) */
  long msgs_nonaggr;      /* -iter 3rd */
  iter_policy_t iter_policy;
  double time_secs;       /* -time */
  double mem_gb;          /* -mem */

  /* Message sizes: an explicit list (-msglen file, -msgsize) or -msglog. */
  int have_size_list;
  size_t sizes[OPT_MAX_SIZES];
  int n_sizes;
  char msglen_file[1024];
  int msglog_min, msglog_max;

  int map_p, map_q;       /* -map PxQ; 1x1 = identity */
  thread_level_t thread_level;
  int root_shift;         /* -root_shift on|off */
  int sync;               /* -sync on|off|window: SYNC_OFF, SYNC_ON (IMB's barrier), SYNC_WINDOW */
  double ci_target;       /* -ci_target P: sample until the median's 95 % CI is within ±P (0: IMB's counts) */
  long min_samples;       /* -min_samples N: repeat the timed loop until N samples exist (1: IMB's one loop) */
  int imb_barrier;        /* -imb_barrier on|off */
  dtype_t data_type, red_data_type;
  int zero_size;          /* -zero_size on|off */
  int warm_up;            /* -warm_up on|off */
  int window_size;        /* -window_size (Uniband/Biband) */
  long buffer_align;      /* -buffer_align BYTES: 0 = malloc's placement, as IMB; else buffers aligned to BYTES */
  int msg_pause;          /* -msg_pause on|off */
  int check;              /* -check on|off (IMB's compile-time CHECK) */
  int selfcheck;          /* -selfcheck on|off: timer, noise and load checks before measuring */
  int aggregate_mode;     /* -aggregate_mode (EXT, RMA, IO): AGG_BOTH, AGG_ONLY, AGG_NONE */
  char json_path[1024];   /* -json FILE */
  int json_stdout;        /* a bare -json (no FILE): only with -list, the benchmark facts on stdout */
  char io_dir[1024];      /* -iodir DIR (IO): where the benchmark files go; "" = current directory */

  int imb_compat;         /* -imb_compat 2021|guide: where IMB 2021 and its 4.0 user guide disagree
                             (Reduce_scatter split, NBC overlap column, EXT targets, RMA *_all bandwidth) */

  int list;               /* -list */
  int help;               /* -help */
  char help_topic[32];    /* -help OPTION: that option's help only ("" = the whole text) */
} options_t;

/* -imb_compat: today's IMB (the default) or the 4.0 user guide. */
enum { COMPAT_2021 = 0, COMPAT_GUIDE = 1 };
const char *imb_compat_name(int compat);

enum { SYNC_OFF = 0, SYNC_ON = 1, SYNC_WINDOW = 2 };
const char *sync_name(int sync);

/* Fills *o with IMB's defaults for the suite. */
void options_defaults(options_t *o, const char *suite);

/* Parses argv[first..argc-1] (IMB's options) into *o, defaults already set.
 * Returns 0, or -1 with one line in err saying what is wrong and how to fix it. */
int options_parse(options_t *o, int argc, char **argv, int first, char *err, size_t errlen);

const char *thread_level_name(thread_level_t t);
/* IMB's -input FILE (IMB-MPI1's and the C++ suites' alike): the first word
 * of every line names a benchmark, '#' starts a comment line, and a blank
 * line repeats the name before it. Appends to names[*n..max-1]; -1 with one
 * line in err for a file that cannot be read, names none or too many. */
int read_input_names(const char *path, char **names, int *n, int max, char *err, size_t errlen);
const char *iter_policy_name(iter_policy_t p);
const char *dtype_option_name(dtype_t t);
size_t dtype_size(dtype_t t);

#endif
