#ifndef MAPWRIGHT_CTurboJPEG_SHIM_H
#define MAPWRIGHT_CTurboJPEG_SHIM_H
#include <turbojpeg.h>
#endif
