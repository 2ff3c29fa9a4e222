#ifndef MAPWRIGHT_CWebP_SHIM_H
#define MAPWRIGHT_CWebP_SHIM_H
#include <webp/decode.h>
#include <webp/encode.h>
#endif
