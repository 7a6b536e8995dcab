#include "tools/tools.h"
int64_t startup_main_entry_ns;
