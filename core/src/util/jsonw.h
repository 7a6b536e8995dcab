/* A minimal streaming JSON writer: enough for one record per line, with
 * correct string escaping. Keys are NULL inside arrays. */
#ifndef MPIMARK_JSONW_H
#define MPIMARK_JSONW_H

#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 16

typedef struct {
  FILE *f;
  int depth;
  int count[JW_MAX_DEPTH];  /* members written at each depth, for commas */
} jw_t;

void jw_init(jw_t *w, FILE *f);
void jw_obj_begin(jw_t *w, const char *key);
void jw_obj_end(jw_t *w);
void jw_arr_begin(jw_t *w, const char *key);
void jw_arr_end(jw_t *w);
void jw_str(jw_t *w, const char *key, const char *v);   /* NULL v writes null */
void jw_int(jw_t *w, const char *key, int64_t v);
void jw_num(jw_t *w, const char *key, double v);        /* NaN or inf writes null */
void jw_bool(jw_t *w, const char *key, int v);
void jw_null(jw_t *w, const char *key);
/* 1 when text is exactly one JSON object (RFC 8259, whitespace around it allowed, nesting at most
 * JW_MAX_DEPTH deep); 0 for anything else. Guards jw_raw_object against text from outside. */
int json_is_object(const char *text);
/* Writes text, which must pass json_is_object, as the member's value verbatim; its whitespace
 * (outside strings, where JSON allows no control characters) becomes spaces, so the record stays one line. */
void jw_raw_object(jw_t *w, const char *key, const char *text);
/* Ends a top-level record: newline and flush, so a killed run keeps it. */
void jw_end_line(jw_t *w);

/* Writes s as a JSON string literal (with quotes) to f. */
void json_escape(FILE *f, const char *s);

#endif
