#ifndef MAPWRIGHT_CGIF_SHIM_H
#define MAPWRIGHT_CGIF_SHIM_H
#include <gif_lib.h>
#endif
