#include "util/options.h"
#include "util/parse.h"
#include "util/policy.h"
#include "util/strutil.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest -msglog exponent accepted. IMB stops below 2^31; mpimark goes
 * beyond where memory allows (large counts), 2^40 is far past any node. */
#define MSGLOG_LIMIT 40

void options_defaults(options_t *o, const char *suite) {
  memset(o, 0, sizeof(*o));
  snprintf(o->suite, sizeof(o->suite), "%s", suite);
  o->npmin = 2;
  o->multi = -1;
  o->off_cache = 0;
  o->cache_size_mb = -1.0;
  o->cache_line = 0;
  o->msgspersample = 1000;
  o->overall_vol_mb = 40.0;
  o->msgs_nonaggr = 100;
  o->iter_policy = POLICY_DYNAMIC;
  o->time_secs = 10.0;
  o->min_samples = 1;
  o->mem_gb = 1.0;
  o->msglog_min = 0;
  o->msglog_max = 22;
  o->map_p = 1;
  o->map_q = 1;
  o->thread_level = THREAD_SINGLE;
  o->root_shift = 0;
  o->sync = 1;
  o->imb_barrier = 0;
  o->data_type = DT_BYTE;
  o->red_data_type = DT_FLOAT;
  o->zero_size = 1;
  o->warm_up = 1;
  o->window_size = 256;
  o->buffer_align = 0;
  o->selfcheck = 1;
  o->msg_pause = 0;
  o->check = 0;
  o->aggregate_mode = AGG_BOTH;
  if (str_ieq(suite, "io")) {
    /* IMB-IO's standard mode (user guide): fewer, larger transfers. */
    o->npmin = 1;
    o->msgspersample = 50;
    o->msgs_nonaggr = 10;
    o->overall_vol_mb = 16.0;
    o->msglog_max = 24;
  }
  if (str_ieq(suite, "ext") || str_ieq(suite, "rma")) {
    /* IMB-EXT and IMB-RMA never barrier between iterations of a collective
     * pattern (EXT has no -sync, RMA parses it and ignores it). */
    o->sync = 0;
  }
}

const char *imb_compat_name(int compat) { return compat == COMPAT_GUIDE ? "guide" : "2021"; }

const char *sync_name(int sync) { return sync == SYNC_WINDOW ? "window" : sync ? "on" : "off"; }

/* IMB's integer options are longs; the range check is parse_integer's. */
static int parse_long(const char *s, long lo, long hi, long *out) {
  long long v;
  if (parse_integer(s, lo, hi, &v)) return -1;
  *out = (long)v;
  return 0;
}

static const char *thread_names[] = {"single", "funneled", "serialized", "multiple", "nompiinit"};
static const char *policy_names[] = {"dynamic", "multiple_np", "auto", "off"};
static const char *dtype_names[] = {"byte", "char", "int", "float", "double", "float16", "bfloat16"};

const char *thread_level_name(thread_level_t t) { return thread_names[t]; }
const char *iter_policy_name(iter_policy_t p) { return policy_names[p]; }
const char *dtype_option_name(dtype_t t) { return dtype_names[t]; }

size_t dtype_size(dtype_t t) {
  switch (t) {
    case DT_BYTE: case DT_CHAR: return 1;
    case DT_INT: case DT_FLOAT: return 4;
    case DT_DOUBLE: return 8;
    case DT_FLOAT16: case DT_BFLOAT16: return 2;
  }
  return 1;
}

static int lookup(const char *s, const char **names, int n) {
  for (int i = 0; i < n; i++)
    if (str_ieq(s, names[i])) return i;
  return -1;
}

/* Appends the comma-separated items of s to list (names are kept as given;
 * matching against the registry is case-insensitive later). */
static int add_names(char **list, int *n, const char *s) {
  char *copy = str_dup(s);
  for (char *tok = strtok(copy, ", \t"); tok; tok = strtok(NULL, ", \t")) {
    if (*n >= OPT_MAX_NAMES) { free(copy); return -1; }
    list[(*n)++] = str_dup(tok);
  }
  free(copy);
  return 0;
}

/* Calls each_line(o, text, lineno, ...) for every line of path with its
 * '#' comment and surrounding blanks removed, skipping empty lines. The
 * callback returns -1 (after writing err) to stop. what names the option. */
typedef int (*line_fn)(options_t *o, const char *path, const char *text, int lineno, char *err, size_t errlen);

static int for_each_line(options_t *o, const char *path, const char *what, const char *hint, line_fn each,
                         char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errlen, "cannot read the %s file '%s': %s; give a readable file with %s", what, path,
             strerror(errno), hint);
    return -1;
  }
  char line[512];
  int lineno = 0, rc = 0;
  while (rc == 0 && fgets(line, sizeof(line), f)) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *t = str_trim(line);
    if (*t) rc = each(o, path, t, lineno, err, errlen);
  }
  fclose(f);
  return rc;
}

static int msglen_line(options_t *o, const char *path, const char *t, int lineno, char *err, size_t errlen) {
  size_t v;
  if (parse_size(t, &v) != 0) {
    snprintf(err, errlen, "-msglen file '%s' line %d: '%s' is not a size; write one non-negative byte count per line (k, m, g suffixes allowed)",
             path, lineno, t);
    return -1;
  }
  if (o->n_sizes >= OPT_MAX_SIZES) {
    snprintf(err, errlen, "-msglen file '%s' has more than %d sizes; shorten it", path, OPT_MAX_SIZES);
    return -1;
  }
  o->sizes[o->n_sizes++] = v;
  return 0;
}

static int read_msglen_file(options_t *o, const char *path, char *err, size_t errlen) {
  o->n_sizes = 0;
  if (for_each_line(o, path, "-msglen", "one size per line", msglen_line, err, errlen)) return -1;
  if (o->n_sizes == 0) {
    snprintf(err, errlen, "-msglen file '%s' holds no sizes; write one byte count per line", path);
    return -1;
  }
  o->have_size_list = 1;
  return 0;
}

int read_input_names(const char *path, char **names, int *n, int max, char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errlen, "cannot read the -input file '%s': %s; give a readable file with one benchmark name per line",
             path, strerror(errno));
    return -1;
  }
  char line[512];
  const char *prev = NULL;
  int before = *n, rc = 0;
  while (rc == 0 && fgets(line, sizeof(line), f)) {
    char *t = str_trim(line);
    if (*t == '#') continue;
    char *end = t;
    while (*end && !isspace((unsigned char)*end)) end++;
    *end = 0;
    const char *name = *t ? t : prev;
    if (!name) continue;
    if (*n >= max) {
      snprintf(err, errlen, "-input file '%s' names more than %d benchmarks", path, max);
      rc = -1;
      break;
    }
    names[(*n)++] = str_dup(name);
    prev = names[*n - 1];
  }
  fclose(f);
  if (rc == 0 && *n == before) { /* an empty file must not run the whole default set */
    snprintf(err, errlen, "-input file '%s' names no benchmark; write one benchmark name per line", path);
    return -1;
  }
  return rc;
}

static int parse_msglog(options_t *o, const char *v) {
  long lo = 0, hi;
  const char *colon = strchr(v, ':');
  if (colon) {
    char buf[64];
    size_t n = (size_t)(colon - v);
    if (n == 0 || n >= sizeof(buf)) return -1;
    memcpy(buf, v, n);
    buf[n] = 0;
    if (parse_long(buf, 0, MSGLOG_LIMIT, &lo)) return -1;
    if (parse_long(colon + 1, 0, MSGLOG_LIMIT, &hi)) return -1;
  } else if (parse_long(v, 0, MSGLOG_LIMIT, &hi)) {
    return -1;
  }
  if (lo > hi) return -1;
  o->msglog_min = (int)lo;
  o->msglog_max = (int)hi;
  o->have_size_list = 0;
  return 0;
}

static int parse_msgsize(options_t *o, const char *v) {
  char *copy = str_dup(v);
  int rc = 0;
  o->n_sizes = 0;
  for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
    size_t s;
    if (parse_size(str_trim(tok), &s) || o->n_sizes >= OPT_MAX_SIZES) { rc = -1; break; }
    o->sizes[o->n_sizes++] = s;
  }
  free(copy);
  if (rc == 0 && o->n_sizes == 0) rc = -1;
  if (rc == 0) o->have_size_list = 1;
  return rc;
}

static int parse_iter(options_t *o, const char *v) {
  char *copy = str_dup(v);
  char *fields[3] = {0};
  int n = 0;
  /* Split by hand: empty fields ("-iter ,80") keep their defaults. */
  for (char *p = copy; p && n < 3;) {
    fields[n++] = p;
    char *comma = strchr(p, ',');
    if (comma) *comma = 0;
    p = comma ? comma + 1 : NULL;
  }
  long a;
  int rc = 0;
  if (n >= 1 && *fields[0]) { if (parse_long(fields[0], 1, INT_MAX, &a)) rc = -1; else o->msgspersample = a; }
  /* IMB reads the volume as an integer number of MiB; a fraction is refused
   * rather than silently truncated. */
  if (n >= 2 && *fields[1]) { if (parse_long(fields[1], 1, INT_MAX / 1048576, &a)) rc = -1; else o->overall_vol_mb = (double)a; }
  if (n >= 3 && *fields[2]) { if (parse_long(fields[2], 1, INT_MAX, &a)) rc = -1; else o->msgs_nonaggr = a; }
  free(copy);
  return rc;
}

static int parse_off_cache(options_t *o, const char *v) {
  char *copy = str_dup(v);
  char *comma = strchr(copy, ',');
  if (comma) *comma = 0;
  double size, line = 0;
  int rc = parse_double(copy, &size);
  if (!rc && comma) rc = parse_double(comma + 1, &line);
  free(copy);
  if (rc || (size < 0 && size != -1.0) || line < 0) return -1;
  o->off_cache = 1;
  o->cache_size_mb = size;
  o->cache_line = (int)line;
  return 0;
}

#define NEED_VALUE()                                                                        \
  do {                                                                                      \
    if (i + 1 >= argc) {                                                                    \
      snprintf(err, errlen, "option %s needs a value; see -help %s", arg, arg + 1);       \
      return -1;                                                                            \
    }                                                                                       \
    val = argv[++i];                                                                        \
  } while (0)

#define BAD_VALUE(hint)                                                                     \
  do {                                                                                      \
    snprintf(err, errlen, "bad value '%s' for %s: %s", val, arg, hint);                    \
    return -1;                                                                              \
  } while (0)

/* Only the one-sided and IO suites know aggregate and non-aggregate modes. */
static int suite_has_modes(const char *suite) {
  return str_ieq(suite, "ext") || str_ieq(suite, "rma") || str_ieq(suite, "io");
}

static int is_help(const char *a) {
  return str_ieq(a, "-help") || str_ieq(a, "-h") || str_ieq(a, "--help");
}

int options_parse(options_t *o, int argc, char **argv, int first, char *err, size_t errlen) {
  err[0] = 0;
  /* -help anywhere on the line wins: never start a run the user asked to explain. */
  for (int i = first; i < argc; i++)
    if (is_help(argv[i])) {
      o->help = 1;
      /* -help OPTION (IMB's args parser: the option's name without its dash): that option's
       * text; main prints the whole text when the word names no option. */
      if (i + 1 < argc && argv[i + 1][0] && argv[i + 1][0] != '-')
        snprintf(o->help_topic, sizeof(o->help_topic), "%s", argv[i + 1]);
      return 0;
    }

  for (int i = first; i < argc; i++) {
    const char *arg = argv[i];
    const char *val = NULL;
    long l;
    double d;
    if (arg[0] != '-' || arg[1] == 0) {
      int before = o->n_names;
      if (add_names(o->names, &o->n_names, arg)) {
        snprintf(err, errlen, "more than %d benchmark names", OPT_MAX_NAMES);
        return -1;
      }
      if (o->n_names == before) { /* "" or ",": not the whole default set by accident */
        snprintf(err, errlen, "'%s' names no benchmark; give names such as PingPong,Allreduce", arg);
        return -1;
      }
      continue;
    }
    const char *name = arg + 1;
    if (str_ieq(name, "list")) {
      o->list = 1;
    } else if (str_ieq(name, "npmin")) {
      NEED_VALUE();
      if (parse_long(val, 1, INT_MAX, &l)) BAD_VALUE("give a positive process count");
      o->npmin = (int)l;
    } else if (str_ieq(name, "multi")) {
      NEED_VALUE();
      if (parse_long(val, 0, 1, &l)) BAD_VALUE("use -multi 0 (worst group) or -multi 1 (every group)");
      o->multi = (int)l;
    } else if (str_ieq(name, "off_cache")) {
      NEED_VALUE();
      if (parse_off_cache(o, val)) BAD_VALUE("use -off_cache SIZE_MB[,LINE_BYTES], -1 for 8 MB and 64 B");
    } else if (str_ieq(name, "iter")) {
      NEED_VALUE();
      if (parse_iter(o, val)) BAD_VALUE("use -iter MSGSPERSAMPLE[,OVERALL_VOL_MB[,MSGS_NONAGGR]], positive integers as IMB reads them");
    } else if (str_ieq(name, "iter_policy")) {
      NEED_VALUE();
      int p = lookup(val, policy_names, 4);
      if (p < 0) BAD_VALUE("use dynamic, multiple_np, auto or off");
      o->iter_policy = (iter_policy_t)p;
    } else if (str_ieq(name, "time")) {
      NEED_VALUE();
      if (parse_double(val, &d) || d <= 0) BAD_VALUE("give the seconds per message size, e.g. -time 10");
      o->time_secs = d;
    } else if (str_ieq(name, "ci_target")) {
      NEED_VALUE();
      if (parse_double(val, &d) || d <= 0 || d >= 1)
        BAD_VALUE("give the relative half-width of the median's 95 % CI, between 0 and 1, e.g. -ci_target 0.01");
      o->ci_target = d;
    } else if (str_ieq(name, "min_samples")) {
      NEED_VALUE();
      if (parse_long(val, 1, CI_MAX_SAMPLES, &l))
        BAD_VALUE("give the fewest samples per row, 1 (IMB's single timed loop, the default) to 20000, e.g. -min_samples 30");
      o->min_samples = l;
    } else if (str_ieq(name, "mem")) {
      NEED_VALUE();
      if (parse_double(val, &d) || d <= 0) BAD_VALUE("give the memory per process in GB, e.g. -mem 1");
      o->mem_gb = d;
    } else if (str_ieq(name, "msglen")) {
      NEED_VALUE();
      snprintf(o->msglen_file, sizeof(o->msglen_file), "%s", val);
      if (read_msglen_file(o, val, err, errlen)) return -1;
    } else if (str_ieq(name, "msgsize")) {
      NEED_VALUE();
      if (parse_msgsize(o, val)) BAD_VALUE("give a comma-separated list of byte sizes, e.g. -msgsize 0,8,1k,1m");
    } else if (str_ieq(name, "msglog")) {
      NEED_VALUE();
      if (parse_msglog(o, val)) BAD_VALUE("use -msglog MAX or -msglog MIN:MAX with 0 <= MIN <= MAX <= 40, e.g. -msglog 0:22");
    } else if (str_ieq(name, "map")) {
      NEED_VALUE();
      long p, q;
      char extra;
      if (sscanf(val, "%ldx%ld%c", &p, &q, &extra) != 2 || p < 1 || q < 1 || p > INT_MAX || q > INT_MAX)
        BAD_VALUE("use -map PxQ with positive P and Q, e.g. -map 2x2");
      o->map_p = (int)p;
      o->map_q = (int)q;
    } else if (str_ieq(name, "input")) {
      NEED_VALUE();
      snprintf(o->input_file, sizeof(o->input_file), "%s", val);  /* read after the positional names, as IMB */
    } else if (str_ieq(name, "include")) {
      NEED_VALUE();
      if (add_names(o->include, &o->n_include, val)) BAD_VALUE("too many names");
    } else if (str_ieq(name, "exclude")) {
      NEED_VALUE();
      if (add_names(o->exclude, &o->n_exclude, val)) BAD_VALUE("too many names");
    } else if (str_ieq(name, "thread_level")) {
      NEED_VALUE();
      int t = lookup(val, thread_names, 5);
      if (t < 0) BAD_VALUE("use single, funneled, serialized, multiple or nompiinit");
      o->thread_level = (thread_level_t)t;
    } else if (str_ieq(name, "data_type")) {
      NEED_VALUE();
      int t = lookup(val, dtype_names, 7);
      if (t < 0) BAD_VALUE("use byte, char, int, float, double, float16 or bfloat16");
      o->data_type = (dtype_t)t;
    } else if (str_ieq(name, "red_data_type")) {
      NEED_VALUE();
      int t = lookup(val, dtype_names, 7);
      if (t <= 0) BAD_VALUE("use char, int, float, double, float16 or bfloat16");
      o->red_data_type = (dtype_t)t;
    } else if (str_ieq(name, "buffer_align")) {
      NEED_VALUE();
      if (parse_long(val, 0, 1L << 21, &l) || (l != 0 && (l < (long)sizeof(void *) || (l & (l - 1)))))
        BAD_VALUE("give 0 (malloc's placement, as IMB) or a power of two from 8 to 2097152 bytes, e.g. 64 or 4096");
      o->buffer_align = l;
    } else if (str_ieq(name, "window_size")) {
      NEED_VALUE();
      if (parse_long(val, 1, 1 << 20, &l)) BAD_VALUE("give a positive number of messages in flight");
      o->window_size = (int)l;
    } else if (str_ieq(name, "aggregate_mode") && suite_has_modes(o->suite)) {
      NEED_VALUE();
      static const char *modes[] = {"multi", "aggregate", "non_aggregate"};
      int m = lookup(val, modes, 3);
      if (m < 0) BAD_VALUE("use aggregate, non_aggregate or multi (both)");
      o->aggregate_mode = m;
    } else if (str_ieq(name, "iodir") && str_ieq(o->suite, "io")) {
      NEED_VALUE();
      snprintf(o->io_dir, sizeof(o->io_dir), "%s", val);
    } else if (str_ieq(name, "json")) {
      /* -list -json: no FILE, the benchmark facts go to stdout (checked below). */
      if (i + 1 >= argc || (argv[i + 1][0] == '-' && argv[i + 1][1] != 0)) {
        o->json_stdout = 1;
        continue;
      }
      NEED_VALUE();
      snprintf(o->json_path, sizeof(o->json_path), "%s", val);
    } else if (str_ieq(name, "imb_compat")) {
      NEED_VALUE();
      static const char *compat[] = {"2021", "guide"};
      int m = lookup(val, compat, 2);
      if (m < 0) BAD_VALUE("use 2021 (today's IMB, the default) or guide (the IMB 4.0 user guide)");
      o->imb_compat = m;
    } else if (str_ieq(name, "check")) {
      /* Our own option: a bare -check means on; -check on|off also works. */
      int b;
      if (i + 1 < argc && parse_bool(argv[i + 1], &b) == 0) { o->check = b; i++; }
      else o->check = 1;
    } else {
      if (str_ieq(name, "sync") && i + 1 < argc && str_ieq(argv[i + 1], "window")) {
        o->sync = SYNC_WINDOW;
        i++;
        continue;
      }
      static const char *bools[] = {"root_shift", "sync", "imb_barrier", "zero_size", "warm_up", "msg_pause",
                                    "selfcheck"};
      int *targets[] = {&o->root_shift, &o->sync, &o->imb_barrier, &o->zero_size, &o->warm_up, &o->msg_pause,
                        &o->selfcheck};
      int k = lookup(name, bools, 7);
      if (k < 0) {
        snprintf(err, errlen, "unknown option '%s'; run with -help to see the options", arg);
        return -1;
      }
      NEED_VALUE();
      if (parse_bool(val, targets[k])) BAD_VALUE(k == 1 ? "use on, off or window" : "use on or off");
    }
  }
  if (o->input_file[0] && read_input_names(o->input_file, o->names, &o->n_names, OPT_MAX_NAMES, err, errlen))
    return -1;
  if (o->json_stdout && !o->list) {
    snprintf(err, errlen, "option -json needs a FILE; only -list -json writes to stdout");
    return -1;
  }
  return 0;
}
