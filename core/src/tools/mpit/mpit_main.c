/* mpimark-core mpit [-match TEXT[,TEXT...]] [-json FILE]: the control
 * variables of the MPI library through MPI_T, as one JSON document:
 *
 *   {"library_version": "...", "mpi_t": true, "cvars": [
 *     {"index": 12, "name": "coll_tuned_bcast_algorithm", "description": "...",
 *      "datatype": "int", "scope": "all_eq", "verbosity": 2, "bind": "no_object",
 *      "value": 0, "enumeration": {"name": "...", "items": [{"value": 0, "name": "ignore"}, ...]}},
 *     ...]}
 *
 * Run as a singleton (no launcher needed). MPI_Init comes first, because
 * Open MPI registers its components' variables (coll_tuned_*) only when it
 * opens the frameworks. A library whose MPI_T_init_thread fails ends with
 * one line and exit 5 (EXIT_NO_MPIT), and so does a library whose header has
 * no MPI_T at all (CMake's MPIMARK_HAVE_MPI_T is 0, e.g. SimGrid SMPI): then
 * everything that names MPI_T is left out of the build. */
#include "tools/mpit/mpit.h"
#include "engine/finish.h"
#include "util/strutil.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NAME_LEN 256
#define DESC_LEN 4096
#define MATCH_MAX 32

#if MPIMARK_HAVE_MPI_T
static const char *scope_name(int scope) {
  switch (scope) {
    case MPI_T_SCOPE_CONSTANT: return "constant";
    case MPI_T_SCOPE_READONLY: return "readonly";
    case MPI_T_SCOPE_LOCAL: return "local";
    case MPI_T_SCOPE_GROUP: return "group";
    case MPI_T_SCOPE_GROUP_EQ: return "group_eq";
    case MPI_T_SCOPE_ALL: return "all";
    case MPI_T_SCOPE_ALL_EQ: return "all_eq";
    default: return "unknown";
  }
}

static const char *bind_name(int bind) {
  switch (bind) {
    case MPI_T_BIND_NO_OBJECT: return "no_object";
    case MPI_T_BIND_MPI_COMM: return "comm";
    case MPI_T_BIND_MPI_DATATYPE: return "datatype";
    case MPI_T_BIND_MPI_ERRHANDLER: return "errhandler";
    case MPI_T_BIND_MPI_FILE: return "file";
    case MPI_T_BIND_MPI_GROUP: return "group";
    case MPI_T_BIND_MPI_OP: return "op";
    case MPI_T_BIND_MPI_REQUEST: return "request";
    case MPI_T_BIND_MPI_WIN: return "win";
    case MPI_T_BIND_MPI_MESSAGE: return "message";
    case MPI_T_BIND_MPI_INFO: return "info";
    default: return "other";
  }
}

static const char *type_name(MPI_Datatype t) {
  if (t == MPI_INT) return "int";
  if (t == MPI_UNSIGNED) return "unsigned";
  if (t == MPI_UNSIGNED_LONG) return "unsigned_long";
  if (t == MPI_UNSIGNED_LONG_LONG) return "unsigned_long_long";
  if (t == MPI_COUNT) return "count";
  if (t == MPI_CHAR) return "char";
  if (t == MPI_DOUBLE) return "double";
  if (t == MPI_C_BOOL) return "bool";
  return "other";
}

/* The enumeration item named for value, or NULL. */
static int enum_item_name(MPI_T_enum e, int value, char *out, int len) {
  int num = 0;
  char ename[NAME_LEN];
  int elen = sizeof(ename);
  if (e == MPI_T_ENUM_NULL || MPI_T_enum_get_info(e, &num, ename, &elen) != MPI_SUCCESS) return 0;
  for (int j = 0; j < num; j++) {
    int v = 0, n = len;
    if (MPI_T_enum_get_item(e, j, &v, out, &n) == MPI_SUCCESS && v == value) return 1;
  }
  return 0;
}

/* Writes the variable's current value as "value" (and "item", its
 * enumeration name); null when it cannot be read without an object. */
static void write_value(jw_t *w, int index, MPI_Datatype type, MPI_T_enum e, int bind) {
  if (bind != MPI_T_BIND_NO_OBJECT) {
    jw_null(w, "value");
    return;
  }
  MPI_T_cvar_handle h;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, NULL, &h, &count) != MPI_SUCCESS) {
    jw_null(w, "value");
    return;
  }
  if (type == MPI_CHAR) {
    char *s = calloc((size_t)(count > 0 ? count : 1) + 1, 1);
    if (s && count > 0 && MPI_T_cvar_read(h, s) == MPI_SUCCESS) jw_str(w, "value", s);
    else jw_str(w, "value", "");
    free(s);
  } else if (count == 1 && (type == MPI_INT || type == MPI_UNSIGNED)) {
    int v = 0;
    if (MPI_T_cvar_read(h, &v) == MPI_SUCCESS) {
      jw_int(w, "value", type == MPI_UNSIGNED ? (int64_t)(unsigned)v : v);
      char item[NAME_LEN];
      if (type == MPI_INT && enum_item_name(e, v, item, sizeof(item))) jw_str(w, "item", item);
    } else jw_null(w, "value");
  } else if (count == 1 && (type == MPI_UNSIGNED_LONG || type == MPI_UNSIGNED_LONG_LONG || type == MPI_COUNT)) {
    unsigned long ul = 0;
    unsigned long long ull = 0;
    MPI_Count c = 0;
    void *buf = type == MPI_UNSIGNED_LONG ? (void *)&ul : type == MPI_COUNT ? (void *)&c : (void *)&ull;
    if (MPI_T_cvar_read(h, buf) == MPI_SUCCESS)
      jw_int(w, "value", type == MPI_UNSIGNED_LONG ? (int64_t)ul : type == MPI_COUNT ? (int64_t)c : (int64_t)ull);
    else jw_null(w, "value");
  } else if (count == 1 && type == MPI_C_BOOL) {
    /* Open MPI's boolean MCA variables (coll_tuned_use_dynamic_rules): read as 0 or 1 */
    _Bool b = 0;
    if (MPI_T_cvar_read(h, &b) == MPI_SUCCESS) {
      jw_int(w, "value", b ? 1 : 0);
      char item[NAME_LEN];
      if (enum_item_name(e, b ? 1 : 0, item, sizeof(item))) jw_str(w, "item", item);
    } else jw_null(w, "value");
  } else if (count == 1 && type == MPI_DOUBLE) {
    double d = 0;
    if (MPI_T_cvar_read(h, &d) == MPI_SUCCESS) jw_num(w, "value", d);
    else jw_null(w, "value");
  } else {
    jw_null(w, "value");
  }
  MPI_T_cvar_handle_free(&h);
}

static void write_enum(jw_t *w, MPI_T_enum e) {
  int num = 0;
  char ename[NAME_LEN];
  int elen = sizeof(ename);
  if (e == MPI_T_ENUM_NULL || MPI_T_enum_get_info(e, &num, ename, &elen) != MPI_SUCCESS) {
    jw_null(w, "enumeration");
    return;
  }
  jw_obj_begin(w, "enumeration");
  jw_str(w, "name", ename);
  jw_arr_begin(w, "items");
  for (int j = 0; j < num; j++) {
    int v = 0;
    char iname[NAME_LEN];
    int ilen = sizeof(iname);
    if (MPI_T_enum_get_item(e, j, &v, iname, &ilen) != MPI_SUCCESS) continue;
    jw_obj_begin(w, NULL);
    jw_int(w, "value", v);
    jw_str(w, "name", iname);
    jw_obj_end(w);
  }
  jw_arr_end(w);
  jw_obj_end(w);
}

static int matches(const char *name, char match[][NAME_LEN], int n_match) {
  if (n_match == 0) return 1;
  for (int i = 0; i < n_match; i++) {
    size_t m = strlen(match[i]), n = strlen(name);
    for (size_t k = 0; m <= n && k + m <= n; k++)
      if (strncasecmp(name + k, match[i], m) == 0) return 1;
  }
  return 0;
}

static void write_cvar(jw_t *w, int i, const char *name, const char *desc, int verbosity, MPI_Datatype type,
                       MPI_T_enum e, int bind, int scope) {
  jw_obj_begin(w, NULL);
  jw_int(w, "index", i);
  jw_str(w, "name", name);
  jw_str(w, "description", desc);
  jw_str(w, "datatype", type_name(type));
  jw_str(w, "scope", scope_name(scope));
  jw_int(w, "verbosity", verbosity);
  jw_str(w, "bind", bind_name(bind));
  write_value(w, i, type, e, bind);
  write_enum(w, e);
  jw_obj_end(w);
}

#endif /* MPIMARK_HAVE_MPI_T */

static int usage(FILE *f, int code) {
  fprintf(f,
    "usage: mpimark-core mpit [-match TEXT[,TEXT...]] [-json FILE]\n"
    "The MPI library's control variables (MPI_T) as JSON: name, description, datatype,\n"
    "scope, current value and enumeration items. Run without a launcher.\n"
    "  -match TEXT,...   only variables whose name contains one of the texts (case-insensitive)\n"
    "  -json FILE        write the document to FILE instead of stdout\n");
  return code;
}

int mpit_main(int argc, char **argv) {
  static char match[MATCH_MAX][NAME_LEN];
  int n_match = 0;
  const char *path = NULL;
  for (int i = 2; i < argc; i++) {
    if (str_ieq(argv[i], "-help") || str_ieq(argv[i], "--help")) return usage(stdout, 0);
    if (str_ieq(argv[i], "-match") && i + 1 < argc) {
      const char *list = argv[++i];
      while (*list && n_match < MATCH_MAX) {
        size_t n = strcspn(list, ",");
        if (n > 0 && n < NAME_LEN) {
          memcpy(match[n_match], list, n);
          match[n_match++][n] = 0;
        }
        list += n;
        if (*list == ',') list++;
      }
    } else if (str_ieq(argv[i], "-json") && i + 1 < argc) {
      path = argv[++i];
    } else {
      error_linef("mpit: unknown or incomplete option '%s'; see mpimark-core mpit -help", argv[i]);
      return EXIT_BAD_INPUT;
    }
  }
#if !MPIMARK_HAVE_MPI_T
  /* Checked after the options, so that a wrong option is still exit 2; MPI_Init and
   * MPI_Finalize still pair up, because a launcher (smpirun) expects every rank to. */
  (void)path;
  (void)n_match;
  MPI_Init(&argc, &argv);
  int rank0 = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank0);
  if (rank0 == 0)
    error_linef("this MPI library has no MPI_T interface (its mpi.h lacks the tool information interface; "
                "this core was built with MPIMARK_HAVE_MPI_T=0): mpit cannot list control variables");
  MPI_Finalize();
  return EXIT_NO_MPIT;
#else
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int provided = 0, rc = MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  if (rc != MPI_SUCCESS) {
    if (rank == 0)
      error_linef("mpit: this MPI library has no tool information interface (MPI_T_init_thread returned %d)", rc);
    MPI_Finalize();
    return EXIT_NO_MPIT;
  }
  int code = 0;
  if (rank == 0) {
    FILE *f = path ? fopen(path, "w") : stdout;
    if (!f) {
      error_linef("mpit: cannot write %s", path);
      code = EXIT_BAD_INPUT;
    } else {
      char lib[MPI_MAX_LIBRARY_VERSION_STRING];
      int len = 0;
      MPI_Get_library_version(lib, &len);
      int num = 0;
      MPI_T_cvar_get_num(&num);
      jw_t w;
      jw_init(&w, f);
      jw_obj_begin(&w, NULL);
      jw_str(&w, "library_version", lib);
      jw_bool(&w, "mpi_t", 1);
      jw_int(&w, "cvars_total", num);
      jw_arr_begin(&w, "cvars");
      for (int i = 0; i < num; i++) {
        char name[NAME_LEN], desc[DESC_LEN];
        int name_len = sizeof(name), desc_len = sizeof(desc), verbosity = 0, bind = 0, scope = 0;
        MPI_Datatype type;
        MPI_T_enum e;
        if (MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &e, desc, &desc_len, &bind, &scope)
            != MPI_SUCCESS)
          continue;
        if (!matches(name, match, n_match)) continue;
        write_cvar(&w, i, name, desc, verbosity, type, e, bind, scope);
      }
      jw_arr_end(&w);
      jw_obj_end(&w);
      jw_end_line(&w);
      if (path) fclose(f);
    }
  }
  MPI_T_finalize();
  MPI_Finalize();
  return code;
#endif
}

void mpit_write_cvars(jw_t *w) {
  const char *list = getenv(MPIT_CVARS_ENV);
  if (!list || !*list) return;
#if !MPIMARK_HAVE_MPI_T
  /* No MPI_T: the same null as a library whose MPI_T_init_thread fails (the front end reads it as unread). */
  jw_null(w, "mpit_cvars");
#else
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
    jw_null(w, "mpit_cvars");
    return;
  }
  int num = 0;
  MPI_T_cvar_get_num(&num);
  jw_obj_begin(w, "mpit_cvars");
  while (*list) {
    size_t n = strcspn(list, ",");
    char want[NAME_LEN];
    if (n > 0 && n < sizeof(want)) {
      memcpy(want, list, n);
      want[n] = 0;
      int found = 0;
      for (int i = 0; i < num && !found; i++) {
        char name[NAME_LEN], desc[8];
        int name_len = sizeof(name), desc_len = sizeof(desc), verbosity = 0, bind = 0, scope = 0;
        MPI_Datatype type;
        MPI_T_enum e;
        if (MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &e, desc, &desc_len, &bind, &scope)
                != MPI_SUCCESS || strcmp(name, want) != 0)
          continue;
        found = 1;
        jw_obj_begin(w, want);
        write_value(w, i, type, e, bind);
        jw_obj_end(w);
      }
      if (!found) jw_null(w, want);
    }
    list += n;
    if (*list == ',') list++;
  }
  jw_obj_end(w);
  MPI_T_finalize();
#endif
}
