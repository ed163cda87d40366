#pragma once

// hiredis 0.14 for C++: its sds.h declares the buffer functions (sdsRemoveFreeSpace) without
// extern "C", so it is included inside one first.
extern "C" {
#include <hiredis/sds.h>
}
#include <hiredis/hiredis.h>
