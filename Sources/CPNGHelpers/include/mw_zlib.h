#ifndef MW_ZLIB_H
#define MW_ZLIB_H
#include <stddef.h>
#include <stdint.h>

/// Inflates a gzip (or zlib) stream into a malloc'd buffer of at most `max_out` bytes.
/// Returns 0 on success (caller frees *out with mw_png_free), 1 for bad data, 2 when the
/// output would exceed max_out, 3 out of memory.
int mw_gunzip(const unsigned char *data, size_t size, size_t max_out, unsigned char **out, size_t *out_size);

/// Compresses `data` as a gzip stream into a malloc'd buffer. Returns 0 on success.
int mw_gzip(const unsigned char *data, size_t size, int level, unsigned char **out, size_t *out_size);
#endif
