#ifndef MAPWRIGHT_CPNG_SHIM_H
#define MAPWRIGHT_CPNG_SHIM_H
#include <png.h>
#endif
