#ifndef COFFER_CZLIB_SHIM_H
#define COFFER_CZLIB_SHIM_H
#include <zlib.h>
#endif
