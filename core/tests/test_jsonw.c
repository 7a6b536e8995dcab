/* The JSON writer: escaping, nesting and commas, nulls for non-finite numbers. */
#include "check.h"
#include "util/jsonw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  jw_t w;
  jw_init(&w, f);
  jw_obj_begin(&w, NULL);
  jw_str(&w, "s", "a\"b\\c\n\x01");
  jw_int(&w, "i", -42);
  jw_num(&w, "x", 0.25);
  jw_num(&w, "nan", NAN);
  jw_bool(&w, "t", 1);
  jw_null(&w, "z");
  jw_arr_begin(&w, "a");
  jw_int(&w, NULL, 1);
  jw_obj_begin(&w, NULL);
  jw_str(&w, "k", NULL);
  jw_obj_end(&w);
  jw_arr_end(&w);
  jw_obj_end(&w);
  jw_end_line(&w);
  fclose(f);
  const char *want = "{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"i\":-42,\"x\":0.25,\"nan\":null,\"t\":true,\"z\":null,"
                     "\"a\":[1,{\"k\":null}]}\n";
  CHECK(strcmp(buf, want) == 0);
  if (strcmp(buf, want) != 0) fprintf(stderr, "got:  %s\nwant: %s\n", buf, want);
  free(buf);

  /* json_is_object: exactly one object, nothing else (it guards text copied from the environment). */
  CHECK(json_is_object("{}"));
  CHECK(json_is_object(" {\"a\": [1, -2.5e+3, 0, true, false, null, \"x\\\"\\u00e9\"], \"b\": {\"c\": {}}}\n"));
  CHECK(!json_is_object(NULL));
  CHECK(!json_is_object(""));
  CHECK(!json_is_object("[]"));
  CHECK(!json_is_object("null"));
  CHECK(!json_is_object("{\"a\": 1"));
  CHECK(!json_is_object("{\"a\": 1} {}"));
  CHECK(!json_is_object("{\"a\": 1,}"));
  CHECK(!json_is_object("{a: 1}"));
  CHECK(!json_is_object("{\"a\": 01}"));
  CHECK(!json_is_object("{\"a\": \"raw\nnewline\"}"));
  CHECK(!json_is_object("{\"a\": \"\\x\"}"));
  CHECK(!json_is_object("{\"a\": NaN}"));
  CHECK(!json_is_object("{\"a\":[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}"));  /* deeper than the writer nests */

  /* jw_raw_object: verbatim, with whitespace made spaces so the record stays one line. */
  f = open_memstream(&buf, &len);
  jw_init(&w, f);
  jw_obj_begin(&w, NULL);
  jw_int(&w, "i", 1);
  jw_raw_object(&w, "o", "{\n\t\"k\": [1, 2]\r\n}");
  jw_obj_end(&w);
  jw_end_line(&w);
  fclose(f);
  CHECK(strcmp(buf, "{\"i\":1,\"o\":{  \"k\": [1, 2]  }}\n") == 0);
  free(buf);
  TEST_MAIN_END();
}
