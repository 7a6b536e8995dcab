#include "suites/p2p/p2p_options.h"
#include "util/parse.h"
#include "util/strutil.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_MAX_SIZE ((size_t)4 << 20)

static void set_log_sizes(p2p_options_t *o, int with_zero, int lo, int hi) {
  o->n_sizes = 0;
  if (with_zero) o->sizes[o->n_sizes++] = 0;
  for (int k = lo; k <= hi; k++) o->sizes[o->n_sizes++] = (size_t)1 << k;
}

void p2p_options_defaults(p2p_options_t *o) {
  memset(o, 0, sizeof(*o));
  o->iter_max = 100000;
  o->numerator = (size_t)800 << 20;
  o->touch_send = o->touch_recv = 1;
  o->pause_usec = 100000;
  set_log_sizes(o, 1, 0, 22);
}

static int add_size(p2p_options_t *o, size_t v, char *err, size_t errlen) {
  if (o->n_sizes >= P2P_MAX_SIZES) {
    snprintf(err, errlen, "more than %d message sizes; give fewer with -msgsz or -msglen", P2P_MAX_SIZES);
    return -1;
  }
  o->sizes[o->n_sizes++] = v;
  return 0;
}

/* IMB-P2P: an explicit size list starts afresh at the first -msgsz or -msglen
 * after the default; later -msgsz add to it, -msglog and -msglen replace it. */
static void fresh_list(p2p_options_t *o) {
  if (!o->sizes_given) o->n_sizes = 0;
  o->sizes_given = 1;
}

static int parse_msglog(p2p_options_t *o, const char *v, char *err, size_t errlen) {
  long long lo, hi;
  char a[32], b[32];
  const char *colon = strchr(v, ':');
  int ok;
  if (colon) {
    snprintf(a, sizeof(a), "%.*s", (int)(colon - v), v);
    snprintf(b, sizeof(b), "%s", colon + 1);
    ok = parse_integer(a, 0, P2P_MAX_MSG_LOG, &lo) == 0 && parse_integer(b, 0, P2P_MAX_MSG_LOG, &hi) == 0 && lo <= hi;
  } else {
    ok = parse_integer(v, 0, P2P_MAX_MSG_LOG, &hi) == 0;
    lo = 0;
  }
  if (!ok) {
    snprintf(err, errlen, "-msglog '%s' is not n or k:n with 0 <= k <= n <= %d; e.g. -msglog 0:10",
             v, P2P_MAX_MSG_LOG);
    return -1;
  }
  o->sizes_given = 1;
  set_log_sizes(o, !colon, (int)lo, (int)hi);
  return 0;
}

static int read_msglen(p2p_options_t *o, const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errlen, "cannot read the -msglen file '%s': %s; give a readable file with one size per line",
             path, strerror(errno));
    return -1;
  }
  snprintf(o->msglen_file, sizeof(o->msglen_file), "%s", path);
  o->sizes_given = 1;
  o->n_sizes = 0;
  char line[512];
  int lineno = 0, rc = 0;
  while (rc == 0 && fgets(line, sizeof(line), f)) {
    lineno++;
    char *t = str_trim(line);
    if (!*t || *t == '#') continue;
    size_t v;
    if (parse_size(t, &v) != 0) {
      snprintf(err, errlen, "-msglen file '%s' line %d: '%s' is not a size; write one byte count per line "
               "(K, M, G suffixes allowed)", path, lineno, t);
      rc = -1;
    } else {
      rc = add_size(o, v, err, errlen);
    }
  }
  fclose(f);
  if (rc == 0 && o->n_sizes == 0) {
    snprintf(err, errlen, "-msglen file '%s' holds no sizes; write one byte count per line", path);
    rc = -1;
  }
  return rc;
}

static int parse_iter(p2p_options_t *o, const char *v, char *err, size_t errlen) {
  char a[32] = "", b[32] = "";
  const char *comma = strchr(v, ',');
  long long mx, mb = 0;
  snprintf(a, sizeof(a), "%.*s", comma ? (int)(comma - v) : (int)strlen(v), v);
  if (comma) snprintf(b, sizeof(b), "%s", comma + 1);
  if (parse_integer(a, 1, 2147483647LL, &mx) != 0 || (comma && parse_integer(b, 1, 2147483647LL, &mb) != 0)) {
    snprintf(err, errlen, "-iter '%s' is not max or max,numerator (positive integers; numerator in MB); "
             "e.g. -iter 1000,100", v);
    return -1;
  }
  o->iter_max = (size_t)mx;
  if (comma) o->numerator = (size_t)mb << 20;
  return 0;
}

static int parse_flag(const char *opt, const char *v, int *out, char *err, size_t errlen) {
  if (parse_bool(v, out) == 0) return 0;
  snprintf(err, errlen, "%s '%s' is not a boolean; give on or off (also 1/0, true/false, yes/no, enable/disable)",
           opt, v);
  return -1;
}

static int add_names(p2p_options_t *o, char *word, char *err, size_t errlen) {
  for (char *tok = strtok(word, ","); tok; tok = strtok(NULL, ",")) {
    if (o->n_names >= P2P_MAX_NAMES) {
      snprintf(err, errlen, "more than %d benchmark names; name fewer", P2P_MAX_NAMES);
      return -1;
    }
    o->names[o->n_names++] = tok;
  }
  return 0;
}

int p2p_options_parse(p2p_options_t *o, int argc, char **argv, int first, char *err, size_t errlen) {
  static char words[4096];
  size_t used = 0;
  for (int i = first; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (str_ieq(a, "-help") || str_ieq(a, "-h") || str_ieq(a, "--help")) {
      o->help = 1;
      if (v && v[0] != '\0') snprintf(o->help_topic, sizeof(o->help_topic), "%s", v[0] == '-' ? v + 1 : v);
      return 0;
    }
    if (str_ieq(a, "-check")) {
      o->check = 1;
      if (v && parse_bool(v, &o->check) == 0) i++;
      continue;
    }
    if (a[0] != '-') {
      size_t len = strlen(a) + 1;
      if (used + len > sizeof(words)) {
        snprintf(err, errlen, "the benchmark list is too long; name fewer benchmarks");
        return -1;
      }
      memcpy(words + used, a, len);
      if (add_names(o, words + used, err, errlen)) return -1;
      used += len;
      continue;
    }
    if (!v) {
      snprintf(err, errlen, "%s needs a value; see mpimark-core p2p -help", a);
      return -1;
    }
    int rc;
    size_t sz;
    long long us;
    if (str_ieq(a, "-msglog")) rc = parse_msglog(o, v, err, errlen);
    else if (str_ieq(a, "-msglen")) rc = read_msglen(o, v, err, errlen);
    else if (str_ieq(a, "-msgsz")) {
      if (parse_size(v, &sz) != 0) {
        snprintf(err, errlen, "-msgsz '%s' is not a size; give bytes with an optional K, M or G", v);
        return -1;
      }
      fresh_list(o);
      rc = add_size(o, sz, err, errlen);
    } else if (str_ieq(a, "-iter")) rc = parse_iter(o, v, err, errlen);
    else if (str_ieq(a, "-msgwr")) rc = parse_flag("-msgwr", v, &o->touch_send, err, errlen);
    else if (str_ieq(a, "-msgrd")) rc = parse_flag("-msgrd", v, &o->touch_recv, err, errlen);
    else if (str_ieq(a, "-pause")) {
      rc = parse_integer(v, -1, 2147483647LL, &us);
      if (rc) snprintf(err, errlen, "-pause '%s' is not a number of microseconds; e.g. -pause 0", v);
      else o->pause_usec = (int)us;
    } else if (str_ieq(a, "-json")) {
      snprintf(o->json_path, sizeof(o->json_path), "%s", v);
      rc = 0;
    } else {
      snprintf(err, errlen, "unknown option '%s' for p2p (IMB-P2P's are -iter, -msglog, -msglen, -msgsz, -msgwr, "
               "-msgrd, -pause, -list, -help; mpimark adds -check and -json)", a);
      return -1;
    }
    if (rc) return -1;
    i++;
  }
  for (int k = 0; k < o->n_sizes; k++)
    if (o->sizes[k] > 2147483647u) {
      snprintf(err, errlen, "message size %zu exceeds 2^31-1 bytes, the largest count of MPI_BYTE p2p can pass; "
               "lower -msglog, -msglen or -msgsz", o->sizes[k]);
      return -1;
    }
  return 0;
}

size_t p2p_max_size(const p2p_options_t *o) {
  size_t m = 0;
  for (int i = 0; i < o->n_sizes; i++) m = o->sizes[i] > m ? o->sizes[i] : m;
  return m;
}

size_t p2p_min_size(const p2p_options_t *o) {
  size_t m = o->n_sizes ? o->sizes[0] : 0;
  for (int i = 0; i < o->n_sizes; i++) m = o->sizes[i] < m ? o->sizes[i] : m;
  return m;
}
