/* IMB's iteration formulas under each policy (reference/imb.md §3.3, §3.5). */
#include "check.h"
#include "util/iterations.h"

int main(void) {
  iter_params_t p = {POLICY_DYNAMIC, 1000, 100, 40.0 * 1048576, 22, 1000};
  /* dynamic: min(1000, 40 MiB / size), at least 1: 1000 up to 32 KiB, 640 at 64 KiB, 40 at 1 MiB, 10 at 4 MiB. */
  CHECK_EQ_LONG(iter_select(&p, 0, 2, 0, 0, 1), 1000);
  CHECK_EQ_LONG(iter_select(&p, 32768, 2, 0, 0, 1), 1000);
  CHECK_EQ_LONG(iter_select(&p, 65536, 2, 0, 0, 1), 640);
  CHECK_EQ_LONG(iter_select(&p, 1048576, 2, 0, 0, 1), 40);
  CHECK_EQ_LONG(iter_select(&p, 4194304, 2, 0, 0, 1), 10);
  CHECK_EQ_LONG(iter_select(&p, (size_t)1 << 30, 2, 0, 0, 1), 1);
  /* Non-aggregate mode uses MSGS_NONAGGR. */
  CHECK_EQ_LONG(iter_select(&p, 8, 2, 0, 0, 0), 100);
  /* Barrier-like: always MSGSPERSAMPLE. */
  CHECK_EQ_LONG(iter_select(&p, 4194304, 4, 0, 1, 1), 1000);
  /* A Sync benchmark that moves no data (IMB-IO's Open_Close): MSGS_NONAGGR, as IMB. */
  CHECK_EQ_LONG(iter_select(&p, 0, 2, 0, 1, 0), 100);
  CHECK(iter_calibrates(&p, 1));

  /* off: always MSGSPERSAMPLE. */
  p.policy = POLICY_OFF;
  CHECK_EQ_LONG(iter_select(&p, 4194304, 2, 0, 0, 1), 1000);
  CHECK_EQ_LONG(iter_select(&p, 0, 2, 0, 1, 0), 1000);  /* Open_Close too: off sets MSGSPERSAMPLE first */
  CHECK(!iter_calibrates(&p, 0));

  /* multiple_np: tmp = (int)(1000 * 2^22 / (np * max(size,4) + 2^22) + 0.5), rounded down to a multiple of np. */
  p.policy = POLICY_MULTIPLE_NP;
  /* size 0, np 3: 1000*4194304/(12+4194304)+0.5 = 999.997.. +0.5 -> 1000; 1000 - 1000%3 = 999. */
  CHECK_EQ_LONG(iter_select(&p, 0, 3, 1, 0, 1), 999);
  /* size 2^22, np 4: 1000/5 = 200 -> 200. */
  CHECK_EQ_LONG(iter_select(&p, 4194304, 4, 1, 0, 1), 200);
  /* size 2^22, np 3: 1000/4 = 250 -> 249. */
  CHECK_EQ_LONG(iter_select(&p, 4194304, 3, 1, 0, 1), 249);
  /* Never below np. */
  p.msgspersample = 2;
  CHECK_EQ_LONG(iter_select(&p, 4194304, 4, 1, 0, 1), 4);
  p.msgspersample = 1000;

  /* auto: multiple_np for rooted collectives, dynamic otherwise. */
  p.policy = POLICY_AUTO;
  CHECK_EQ_LONG(iter_select(&p, 4194304, 4, 1, 0, 1), 200);
  CHECK_EQ_LONG(iter_select(&p, 4194304, 4, 0, 0, 1), 10);
  CHECK(iter_calibrates(&p, 0));
  CHECK(!iter_calibrates(&p, 1));

  /* Calibration: 1000 iterations below 1 ms, 1/t rounded below 1 s, else 1. */
  CHECK_EQ_LONG(iter_rep_test(&p, 0.0005), 1000);
  CHECK_EQ_LONG(iter_rep_test(&p, 0.004), 250);
  CHECK_EQ_LONG(iter_rep_test(&p, 0.3), 3);
  CHECK_EQ_LONG(iter_rep_test(&p, 2.0), 1);
  /* Time cap: 1 + secs/t. */
  CHECK_EQ_LONG(iter_time_cap(0.001, 10, 1000), 10001);
  CHECK_EQ_LONG(iter_time_cap(0.5, 10, 1000), 21);
  CHECK_EQ_LONG(iter_time_cap(0.0, 10, 1000), 1000);

  /* Warm-up: a tenth, at least min(10, n). */
  CHECK_EQ_LONG(iter_warmup(1000), 100);
  CHECK_EQ_LONG(iter_warmup(40), 10);
  CHECK_EQ_LONG(iter_warmup(5), 5);
  CHECK_EQ_LONG(iter_warmup(1), 1);

  /* Time-out as IMB: (max(n_list, max - min) - 1) * secs, at least secs; n_list is 0 with -msglog. */
  CHECK_NEAR(iter_time_limit(0, 0, 22, 10), 210, 1e-9);    /* the defaults */
  CHECK_NEAR(iter_time_limit(0, 10, 16, 0.1), 0.5, 1e-9);  /* the issue's -msglog 10:16 -time 0.1 */
  CHECK_NEAR(iter_time_limit(0, 0, 2, 0.5), 0.5, 1e-9);
  CHECK_NEAR(iter_time_limit(0, 3, 3, 2), 2.0, 1e-9);      /* one size: at least secs */
  CHECK_NEAR(iter_time_limit(5, 0, 22, 1), 21, 1e-9);      /* a short list keeps -msglog's default span */
  CHECK_NEAR(iter_time_limit(30, 0, 22, 1), 29, 1e-9);     /* a long list counts its entries */
  CHECK_NEAR(iter_time_limit(5, 0, 2, 1), 4, 1e-9);
  CHECK_EQ_LONG(log2_ceil(1), 0);
  CHECK_EQ_LONG(log2_ceil(1000), 10);
  CHECK_EQ_LONG(log2_ceil(1024), 10);
  /* mpiBench's time limit from the 5-call estimate. */
  CHECK_EQ_LONG(iter_time_limited(1000, 50000, 10), 1000);          /* 5000 >= 1000 */
  CHECK_EQ_LONG(iter_time_limited(1000, 50000, 100), 500);
  CHECK_EQ_LONG(iter_time_limited(1000, 0, 100), 1000);             /* no limit */
  CHECK_EQ_LONG(iter_time_limited(1000, 50000, 20000), 2);          /* <= 5: the caller reports the estimate */
  CHECK_EQ_LONG(iter_time_limited(1000, 50000, 0), 1000);
  TEST_MAIN_END();
}
