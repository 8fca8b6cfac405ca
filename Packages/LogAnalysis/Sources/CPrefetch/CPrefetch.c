// The module is its header: `prefetch` is inline, so Swift calls compile to one instruction.
#include "CPrefetch.h"
