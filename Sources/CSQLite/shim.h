#ifndef MAPWRIGHT_CSQLite_SHIM_H
#define MAPWRIGHT_CSQLite_SHIM_H
#include <sqlite3.h>
#endif
