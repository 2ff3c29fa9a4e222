#ifndef MAPWRIGHT_CCAIRO_SHIM_H
#define MAPWRIGHT_CCAIRO_SHIM_H
#include <cairo/cairo.h>
#endif
