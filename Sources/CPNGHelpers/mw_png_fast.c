// See include/mw_png.h (mw_png_encode_bands). A PNG writer of its own for the common case
// (8-bit RGB/RGBA, filter "none"): the scanlines are cut into horizontal bands that are
// deflated on separate threads, pigz-style, and joined into one zlib stream:
//
//   zlib header · band 0 (raw deflate, ends with a sync flush: byte-aligned, not final) ·
//   band 1 … · last band (ends with Z_FINISH: the final block) · Adler-32 of all scanlines
//
// A sync flush ends a band on a byte boundary with an empty stored block, so the raw streams
// concatenate into one valid deflate stream (RFC 1951 §3.2.4); each band starts with an empty
// window, which costs a little compression at each seam. The Adler-32 of the whole is
// combined from the bands' (zlib's adler32_combine); chunk CRCs are zlib's crc32.
#include "mw_png.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

typedef struct mw_band {
    const unsigned char *rgba;
    size_t stride;
    uint32_t width;
    uint32_t first_row, row_count;
    int channels, level, strategy, last;
    unsigned char *out;  // malloc'ed raw deflate bytes
    size_t out_size;
    uLong adler;
    uLong raw_size;
    int failed;
} mw_band;

static void *mw_band_run(void *arg) {
    mw_band *b = (mw_band *)arg;
    size_t row_bytes = 1 + (size_t)b->width * (size_t)b->channels;
    size_t raw_size = row_bytes * b->row_count;
    unsigned char *raw = (unsigned char *)malloc(raw_size ? raw_size : 1);
    if (!raw) { b->failed = 1; return NULL; }
    // Filter byte 0 ("none") then the samples; RGBA→RGB drops every fourth byte.
    for (uint32_t r = 0; r < b->row_count; r++) {
        const unsigned char *src = b->rgba + (size_t)(b->first_row + r) * b->stride;
        unsigned char *dst = raw + (size_t)r * row_bytes;
        dst[0] = 0;
        dst++;
        if (b->channels == 4) {
            memcpy(dst, src, (size_t)b->width * 4);
        } else {
            for (uint32_t x = 0; x < b->width; x++) {
                dst[0] = src[0]; dst[1] = src[1]; dst[2] = src[2];
                dst += 3; src += 4;
            }
        }
    }
    b->adler = adler32(1L, raw, (uInt)raw_size);  // raw_size < 4 GiB (Bitmap.maxPixelCount·4 + rows)
    b->raw_size = (uLong)raw_size;
    z_stream z;
    memset(&z, 0, sizeof z);
    // windowBits -15: a raw deflate stream (no zlib header or trailer of its own).
    if (deflateInit2(&z, b->level, Z_DEFLATED, -15, 8, b->strategy) != Z_OK) {
        free(raw); b->failed = 1; return NULL;
    }
    size_t cap = deflateBound(&z, (uLong)raw_size) + 16;
    b->out = (unsigned char *)malloc(cap);
    if (!b->out) { deflateEnd(&z); free(raw); b->failed = 1; return NULL; }
    z.next_in = raw;
    z.avail_in = (uInt)raw_size;
    z.next_out = b->out;
    z.avail_out = (uInt)cap;
    int flush = b->last ? Z_FINISH : Z_SYNC_FLUSH;
    int rc = deflate(&z, flush);
    int ok = b->last ? (rc == Z_STREAM_END) : (rc == Z_OK && z.avail_in == 0 && z.avail_out > 0);
    b->out_size = cap - z.avail_out;
    deflateEnd(&z);
    free(raw);
    if (!ok) b->failed = 1;
    return NULL;
}

typedef struct mw_out {
    unsigned char *data;
    size_t size, capacity;
} mw_out;

static void put(mw_out *o, const void *bytes, size_t n) {
    memcpy(o->data + o->size, bytes, n);
    o->size += n;
}

static void put32(mw_out *o, uint32_t v) {
    unsigned char b[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8), (unsigned char)v};
    put(o, b, 4);
}

// Starts a chunk: length and type; returns the offset of the type for the CRC.
static size_t chunk_begin(mw_out *o, uint32_t length, const char type[4]) {
    put32(o, length);
    size_t at = o->size;
    put(o, type, 4);
    return at;
}

static void chunk_end(mw_out *o, size_t type_at) {
    uLong crc = crc32(0L, o->data + type_at, (uInt)(o->size - type_at));
    put32(o, (uint32_t)crc);
}

int mw_png_is_opaque(const unsigned char *rgba, uint32_t width, uint32_t height, size_t stride) {
    for (uint32_t y = 0; y < height; y++) {
        const unsigned char *row = rgba + (size_t)y * stride;
        unsigned char all = 255;
        for (uint32_t x = 0; x < width; x++) all &= row[(size_t)x * 4 + 3];
        if (all != 255) return 0;
    }
    return 1;
}

int mw_png_encode_bands(const unsigned char *rgba, uint32_t width, uint32_t height, size_t stride,
                        int drop_alpha, int level, int strategy, int bands, mw_png_encoded *out) {
    out->data = NULL;
    out->size = 0;
    out->message[0] = 0;
    if (!rgba || width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu ||
        stride < (size_t)width * 4) {
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "invalid image layout");
        return 1;
    }
    int channels = drop_alpha ? 3 : 4;
    if ((uint64_t)width * height * channels + height > 0xF0000000ull) {
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "image too large for one PNG stream");
        return 1;
    }
    if (level < 0) level = 0;
    if (level > 9) level = 9;
    int zstrategy = strategy == MW_PNG_STRATEGY_RLE ? Z_RLE : strategy == MW_PNG_STRATEGY_FILTERED ? Z_FILTERED : Z_DEFAULT_STRATEGY;
    if (bands <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        bands = cpus > 0 ? (int)cpus : 1;
    }
    if (bands > 8) bands = 8;
    // Bands of fewer than 64 rows or 256 Ki samples are not worth a thread.
    uint64_t samples = (uint64_t)width * height * channels;
    while (bands > 1 && (height / (uint32_t)bands < 64 || samples / (uint64_t)bands < 262144)) bands--;

    mw_band band[8];
    memset(band, 0, sizeof band);
    pthread_t threads[8];
    int started[8] = {0};
    uint32_t row = 0;
    for (int i = 0; i < bands; i++) {
        uint32_t count = height / (uint32_t)bands + ((uint32_t)i < height % (uint32_t)bands ? 1 : 0);
        band[i] = (mw_band){rgba, stride, width, row, count, channels, level, zstrategy, i == bands - 1, NULL, 0, 0, 0, 0};
        row += count;
    }
    // Bands 1… on their own threads; band 0 here (and any band whose thread did not start).
    for (int i = 1; i < bands; i++) started[i] = pthread_create(&threads[i], NULL, mw_band_run, &band[i]) == 0;
    mw_band_run(&band[0]);
    for (int i = 1; i < bands; i++) {
        if (started[i]) pthread_join(threads[i], NULL);
        else mw_band_run(&band[i]);
    }
    int failed = 0;
    size_t idat = 2 + 4;  // zlib header + Adler-32
    uLong adler = 1L;
    for (int i = 0; i < bands; i++) {
        failed |= band[i].failed;
        idat += band[i].out_size;
        adler = i == 0 ? band[i].adler : adler32_combine(adler, band[i].adler, (z_off_t)band[i].raw_size);
    }
    if (failed || idat > 0x7fffffffu) {
        for (int i = 0; i < bands; i++) free(band[i].out);
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, failed ? "deflate failed (out of memory?)" : "compressed image too large");
        return 1;
    }
    mw_out o = {NULL, 0, 8 + 25 + 12 + idat + 12};
    o.data = (unsigned char *)malloc(o.capacity);
    if (!o.data) {
        for (int i = 0; i < bands; i++) free(band[i].out);
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "out of memory");
        return 1;
    }
    static const unsigned char signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    put(&o, signature, 8);
    size_t at = chunk_begin(&o, 13, "IHDR");
    put32(&o, width);
    put32(&o, height);
    unsigned char ihdr_tail[5] = {8, (unsigned char)(drop_alpha ? 2 : 6), 0, 0, 0};  // depth, colour type, deflate, filter 0, no interlace
    put(&o, ihdr_tail, 5);
    chunk_end(&o, at);
    at = chunk_begin(&o, (uint32_t)idat, "IDAT");
    // zlib header: CM 8 (deflate), CINFO 7 (32 KiB window), FLEVEL from the level; FCHECK makes
    // the 16-bit value a multiple of 31 (RFC 1950 §2.2).
    unsigned flevel = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
    unsigned header = (0x78u << 8) | (flevel << 6);
    header += 31 - header % 31;
    unsigned char zh[2] = {(unsigned char)(header >> 8), (unsigned char)header};
    put(&o, zh, 2);
    for (int i = 0; i < bands; i++) {
        put(&o, band[i].out, band[i].out_size);
        free(band[i].out);
    }
    put32(&o, (uint32_t)adler);
    chunk_end(&o, at);
    at = chunk_begin(&o, 0, "IEND");
    chunk_end(&o, at);
    out->data = o.data;
    out->size = o.size;
    return 0;
}
