// gzip in and out for tile archives (PMTiles internal compression, gzipped tiles), over zlib.
#include "mw_zlib.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int mw_gunzip(const unsigned char *data, size_t size, size_t max_out, unsigned char **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, 15 + 32) != Z_OK) return 3;  // 32: detect gzip or zlib headers
    size_t cap = size * 4 + 1024;
    if (cap > max_out) cap = max_out;
    if (cap == 0) cap = 1;
    unsigned char *buf = malloc(cap);
    if (!buf) { inflateEnd(&s); return 3; }
    s.next_in = (unsigned char *)data;
    s.avail_in = (uInt)(size > 0xFFFFFFFFu ? 0xFFFFFFFFu : size);
    size_t used = 0;
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        if (used == cap) {
            if (cap >= max_out) { free(buf); inflateEnd(&s); return 2; }
            size_t ncap = cap * 2 > max_out ? max_out : cap * 2;
            unsigned char *nb = realloc(buf, ncap);
            if (!nb) { free(buf); inflateEnd(&s); return 3; }
            buf = nb; cap = ncap;
        }
        s.next_out = buf + used;
        s.avail_out = (uInt)((cap - used) > 0xFFFFFFFFu ? 0xFFFFFFFFu : (cap - used));
        size_t before = s.avail_out;
        rc = inflate(&s, Z_NO_FLUSH);
        used += before - s.avail_out;
        if (rc == Z_STREAM_END) break;
        if (rc != Z_OK) { free(buf); inflateEnd(&s); return 1; }
        if (s.avail_in == 0 && s.avail_out != 0) { free(buf); inflateEnd(&s); return 1; }  // truncated
    }
    inflateEnd(&s);
    *out = buf;
    *out_size = used;
    return 0;
}

int mw_gzip(const unsigned char *data, size_t size, int level, unsigned char **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    z_stream s;
    memset(&s, 0, sizeof s);
    if (deflateInit2(&s, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 3;
    size_t cap = deflateBound(&s, (uLong)size) + 32;
    unsigned char *buf = malloc(cap);
    if (!buf) { deflateEnd(&s); return 3; }
    s.next_in = (unsigned char *)data;
    s.avail_in = (uInt)size;
    s.next_out = buf;
    s.avail_out = (uInt)cap;
    int rc = deflate(&s, Z_FINISH);
    if (rc != Z_STREAM_END) { free(buf); deflateEnd(&s); return 1; }
    *out_size = cap - s.avail_out;
    deflateEnd(&s);
    *out = buf;
    return 0;
}
