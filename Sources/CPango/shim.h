#ifndef MAPWRIGHT_CPANGO_SHIM_H
#define MAPWRIGHT_CPANGO_SHIM_H
#include <pango/pangocairo.h>
#endif
