// See include/mw_png.h (mw_png_encode_bands). A PNG writer of its own for the common case
// (8-bit RGB/RGBA, filter "none"): the scanlines are cut into horizontal bands that are
// deflated on separate threads, pigz-style, and joined into one zlib stream:
//
//   zlib header · band 0 (raw deflate, ends with a sync flush: byte-aligned, not final) ·
//   band 1 … · last band (the final block) · Adler-32 of all scanlines
//
// A sync flush ends a band on a byte boundary with an empty stored block, so the raw streams
// concatenate into one valid deflate stream (RFC 1951 §3.2.4); each band starts with an empty
// window, which costs a little compression at each seam. The Adler-32 of the whole is
// combined from the bands' (zlib's adler32_combine); chunk CRCs are zlib's crc32.
//
// Levels 1 and 2 with the default strategy deflate with Intel's ISA-L (igzip, its levels 1 and
// 2): on a 1024×768 map its deflate is about 7× faster than zlib's level 1 and its streams are
// slightly smaller; the whole PNG is about 4× faster (`scripts/bench-png.sh`). Other levels and
// strategies use zlib.
#include "mw_png.h"

#include <isa-l/igzip_lib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

// One band's raw deflate stream: malloc'ed bytes (NULL until deflated), the Adler-32 and length
// of the scanlines it holds.
typedef struct mw_deflated {
    unsigned char *out;
    size_t out_size;
    uLong adler, raw_size;
} mw_deflated;

typedef struct mw_band {
    const unsigned char *rgba;
    size_t stride;
    uint32_t width;
    uint32_t first_row, row_count;
    int channels, level, strategy, last;
    mw_deflated result;
    int failed;
} mw_band;

// ISA-L deflates levels 1 and 2 with zlib's default strategy; everything else goes to zlib.
static int mw_uses_isal(int level, int zstrategy) {
    return (level == 1 || level == 2) && zstrategy == Z_DEFAULT_STRATEGY;
}

// ISA-L's working memory for its levels 1 and 2 (hash tables and a token buffer; ~270 KiB),
// allocated once per thread and reused for each of its bands.
#define MW_ISAL_LEVEL_BUF_SIZE \
    (ISAL_DEF_LVL1_DEFAULT > ISAL_DEF_LVL2_DEFAULT ? ISAL_DEF_LVL1_DEFAULT : ISAL_DEF_LVL2_DEFAULT)

// Deflates `raw` as one raw deflate band with ISA-L into d->out (grown as needed). Returns 1 on success.
static int mw_isal_band(const unsigned char *raw, size_t raw_size, int level, int last, unsigned char *level_buf,
                        mw_deflated *d) {
    struct isal_zstream s;
    isal_deflate_init(&s);  // raw deflate (no gzip or zlib wrapper), 32 KiB window
    s.level = (uint32_t)level;
    s.level_buf = level_buf;
    s.level_buf_size = MW_ISAL_LEVEL_BUF_SIZE;
    s.next_in = (uint8_t *)raw;
    s.avail_in = (uint32_t)raw_size;  // < 4 GiB (checked by mw_check_layout)
    s.end_of_stream = (uint16_t)(last ? 1 : 0);
    s.flush = (uint16_t)(last ? NO_FLUSH : SYNC_FLUSH);
    // Flat map colours compress ~20×; start at a quarter of the input and grow if it does not fit.
    size_t cap = raw_size / 4 + 4096;
    d->out = (unsigned char *)malloc(cap);
    if (!d->out) return 0;
    size_t used = 0;
    for (;;) {
        s.next_out = d->out + used;
        s.avail_out = cap - used > UINT32_MAX ? UINT32_MAX : (uint32_t)(cap - used);
        if (isal_deflate(&s) != COMP_OK) return 0;
        used = cap - s.avail_out;
        int done = s.avail_in == 0 && s.avail_out > 0 && (!last || s.internal_state.state == ZSTATE_END);
        if (done) break;
        if (s.avail_out > 0) return 0;  // stopped with room left and work undone: not expected
        if (cap > ((size_t)1 << 32)) return 0;
        size_t grown = cap * 2;
        unsigned char *bigger = (unsigned char *)realloc(d->out, grown);
        if (!bigger) return 0;
        d->out = bigger;
        cap = grown;
    }
    d->out_size = used;
    return 1;
}

// Deflates `raw` as one raw deflate band with zlib into d->out. Returns 1 on success.
static int mw_zlib_band(const unsigned char *raw, size_t raw_size, int level, int strategy, int last,
                        mw_deflated *d) {
    z_stream z;
    memset(&z, 0, sizeof z);
    // windowBits -15: a raw deflate stream (no zlib header or trailer of its own).
    if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, strategy) != Z_OK) return 0;
    size_t cap = deflateBound(&z, (uLong)raw_size) + 16;
    d->out = (unsigned char *)malloc(cap);
    if (!d->out) { deflateEnd(&z); return 0; }
    z.next_in = (unsigned char *)raw;
    z.avail_in = (uInt)raw_size;
    z.next_out = d->out;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
    int ok = last ? (rc == Z_STREAM_END) : (rc == Z_OK && z.avail_in == 0 && z.avail_out > 0);
    d->out_size = cap - z.avail_out;
    deflateEnd(&z);
    return ok;
}

// Filters and deflates one band: with ISA-L when `level_buf` (its working memory) is given, else zlib.
static void mw_band_run(mw_band *b, unsigned char *level_buf) {
    size_t row_bytes = 1 + (size_t)b->width * (size_t)b->channels;
    size_t raw_size = row_bytes * b->row_count;
    unsigned char *raw = (unsigned char *)malloc(raw_size ? raw_size : 1);
    if (!raw) { b->failed = 1; return; }
    // Filter byte 0 ("none") then the samples; RGBA→RGB drops every fourth byte.
    for (uint32_t r = 0; r < b->row_count; r++) {
        const unsigned char *src = b->rgba + (size_t)(b->first_row + r) * b->stride;
        unsigned char *dst = raw + (size_t)r * row_bytes;
        dst[0] = 0;
        dst++;
        if (b->channels == 4) {
            memcpy(dst, src, (size_t)b->width * 4);
        } else {
            // Four bytes copied per pixel, each store overlapping the next pixel's first byte
            // (one 32-bit load and store instead of three byte moves); the last pixel exactly.
            for (uint32_t x = 0; x + 1 < b->width; x++) {
                memcpy(dst, src, 4);
                dst += 3; src += 4;
            }
            dst[0] = src[0]; dst[1] = src[1]; dst[2] = src[2];
        }
    }
    mw_deflated *d = &b->result;
    d->adler = isal_adler32(1, raw, (uint64_t)raw_size);  // raw_size < 4 GiB (Bitmap.maxPixelCount·4 + rows)
    d->raw_size = (uLong)raw_size;
    int ok = level_buf
        ? mw_isal_band(raw, raw_size, b->level, b->last, level_buf, d)
        : mw_zlib_band(raw, raw_size, b->level, b->strategy, b->last, d);
    free(raw);
    if (!ok) b->failed = 1;
}

typedef struct mw_band_batch {
    mw_band *jobs;
    int count, first, step;
} mw_band_batch;

static void *mw_band_batch_run(void *arg) {
    mw_band_batch *b = (mw_band_batch *)arg;
    unsigned char *level_buf = NULL;
    for (int i = b->first; i < b->count; i += b->step) {
        mw_band *job = &b->jobs[i];
        int isal = mw_uses_isal(job->level, job->strategy);
        if (isal && !level_buf) {
            level_buf = (unsigned char *)malloc(MW_ISAL_LEVEL_BUF_SIZE);
            if (!level_buf) { job->failed = 1; continue; }
        }
        mw_band_run(job, isal ? level_buf : NULL);
    }
    free(level_buf);
    return NULL;
}

// Deflates `count` bands on up to `threads` threads (1…8): thread t takes bands t, t + threads, …;
// batch 0 runs here, and so does any batch whose thread did not start. Returns 1 if any failed.
static int mw_run_bands(mw_band *jobs, int count, int threads) {
    if (threads > count) threads = count;
    mw_band_batch batch[8];
    pthread_t tids[8];
    int started[8] = {0};
    for (int t = 0; t < threads; t++) batch[t] = (mw_band_batch){jobs, count, t, threads};
    for (int t = 1; t < threads; t++) started[t] = pthread_create(&tids[t], NULL, mw_band_batch_run, &batch[t]) == 0;
    if (threads > 0) mw_band_batch_run(&batch[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t]) pthread_join(tids[t], NULL);
        else mw_band_batch_run(&batch[t]);
    }
    int failed = 0;
    for (int i = 0; i < count; i++) failed |= jobs[i].failed;
    return failed;
}

// Threads asked for (0: one per online CPU) as a count of 1…8.
static int mw_thread_count(int requested) {
    if (requested <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        requested = cpus > 0 ? (int)cpus : 1;
    }
    return requested > 8 ? 8 : requested;
}

// zlib's strategy for an MW_PNG_STRATEGY_*.
static int mw_zstrategy(int strategy) {
    return strategy == MW_PNG_STRATEGY_RLE ? Z_RLE : strategy == MW_PNG_STRATEGY_FILTERED ? Z_FILTERED : Z_DEFAULT_STRATEGY;
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

// Joins raw deflate bands (all but the last ending in a sync flush, the last final) into a PNG:
// signature, IHDR, one IDAT (zlib header, the bands, the Adler-32 combined from theirs), IEND.
static int mw_png_assemble(uint32_t width, uint32_t height, int drop_alpha, int level, int count,
                           const mw_deflated *bands, mw_png_encoded *out) {
    size_t idat = 2 + 4;  // zlib header + Adler-32
    uLong adler = 1L;
    for (int i = 0; i < count; i++) {
        idat += bands[i].out_size;
        adler = i == 0 ? bands[i].adler : adler32_combine(adler, bands[i].adler, (z_off_t)bands[i].raw_size);
    }
    if (idat > 0x7fffffffu) {
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "compressed image too large");
        return 1;
    }
    mw_out o = {NULL, 0, 8 + 25 + 12 + idat + 12};
    o.data = (unsigned char *)malloc(o.capacity);
    if (!o.data) {
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
    for (int i = 0; i < count; i++) put(&o, bands[i].out, bands[i].out_size);
    put32(&o, (uint32_t)adler);
    chunk_end(&o, at);
    at = chunk_begin(&o, 0, "IEND");
    chunk_end(&o, at);
    out->data = o.data;
    out->size = o.size;
    return 0;
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

// Clears `out` and checks the pixel layout and that the scanlines fit one zlib stream; 1 (with
// the message set) when they do not.
static int mw_check_layout(const unsigned char *rgba, uint32_t width, uint32_t height, size_t stride, int drop_alpha,
                           mw_png_encoded *out) {
    out->data = NULL;
    out->size = 0;
    out->message[0] = 0;
    if (!rgba || width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu ||
        stride < (size_t)width * 4) {
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "invalid image layout");
        return 1;
    }
    if ((uint64_t)width * height * (drop_alpha ? 3 : 4) + height > 0xF0000000ull) {
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "image too large for one PNG stream");
        return 1;
    }
    return 0;
}

int mw_png_encode_bands(const unsigned char *rgba, uint32_t width, uint32_t height, size_t stride,
                        int drop_alpha, int level, int strategy, int bands, mw_png_encoded *out) {
    if (mw_check_layout(rgba, width, height, stride, drop_alpha, out)) return 1;
    int channels = drop_alpha ? 3 : 4;
    if (level < 0) level = 0;
    if (level > 9) level = 9;
    bands = mw_thread_count(bands);
    // Bands of fewer than 64 rows or 256 Ki samples are not worth a thread.
    uint64_t samples = (uint64_t)width * height * channels;
    while (bands > 1 && (height / (uint32_t)bands < 64 || samples / (uint64_t)bands < 262144)) bands--;

    mw_band band[8];
    uint32_t row = 0;
    for (int i = 0; i < bands; i++) {
        uint32_t count = height / (uint32_t)bands + ((uint32_t)i < height % (uint32_t)bands ? 1 : 0);
        band[i] = (mw_band){.rgba = rgba, .stride = stride, .width = width, .first_row = row, .row_count = count,
                            .channels = channels, .level = level, .strategy = mw_zstrategy(strategy),
                            .last = i == bands - 1};
        row += count;
    }
    // One band per thread.
    int failed = mw_run_bands(band, bands, bands);
    mw_deflated results[8];
    for (int i = 0; i < bands; i++) results[i] = band[i].result;
    int rc = failed ? 1 : mw_png_assemble(width, height, drop_alpha, level, bands, results, out);
    for (int i = 0; i < bands; i++) free(band[i].result.out);
    if (failed) snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "deflate failed (out of memory?)");
    return rc;
}

// ---- Successive frames (mw_png_frames) ----
//
// An animation's frames mostly repeat the previous frame: a pulse or a moving marker changes a
// few places. The frame encoder cuts every frame into the same fixed bands of rows, deflates each
// band on its own (empty window; a sync flush, the last band final), and keeps each band's
// compressed bytes beside a copy of its pixels. A band whose pixels equal the previous frame's,
// byte for byte, re-uses its bytes; the others are deflated on up to `threads` threads. The PNG
// is byte-identical to the one a fresh encoder would write.

struct mw_png_frames {
    uint32_t width, height, band_rows, band_count;
    int channels, level, strategy;
    unsigned char *previous;  // the last frame's RGBA rows, width·4 bytes apart
    mw_deflated *bands;       // each band's bytes; `out` is NULL until the band has been deflated
};

mw_png_frames *mw_png_frames_new(void) { return (mw_png_frames *)calloc(1, sizeof(mw_png_frames)); }

static void mw_png_frames_reset(mw_png_frames *f) {
    if (f->bands) {
        for (uint32_t i = 0; i < f->band_count; i++) free(f->bands[i].out);
    }
    free(f->bands);
    free(f->previous);
    memset(f, 0, sizeof *f);
}

void mw_png_frames_free(mw_png_frames *f) {
    if (!f) return;
    mw_png_frames_reset(f);
    free(f);
}

int mw_png_frames_encode(mw_png_frames *f, const unsigned char *rgba, uint32_t width, uint32_t height, size_t stride,
                         int drop_alpha, int level, int strategy, int threads, mw_png_encoded *out,
                         uint32_t *reused, uint32_t *total) {
    if (reused) *reused = 0;
    if (total) *total = 0;
    if (mw_check_layout(rgba, width, height, stride, drop_alpha, out)) return 1;
    if (!f) {
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "no frame encoder");
        return 1;
    }
    int channels = drop_alpha ? 3 : 4;
    if (level < 0) level = 0;
    if (level > 9) level = 9;
    int zstrategy = mw_zstrategy(strategy);
    size_t row_pixels = (size_t)width * 4;
    if (!f->bands || f->width != width || f->height != height || f->channels != channels || f->level != level ||
        f->strategy != zstrategy) {
        mw_png_frames_reset(f);
        // Bands of about 64 KiB of scanlines: small enough that a change re-deflates little,
        // large enough that the empty window at each band's start costs little.
        size_t row_bytes = 1 + (size_t)width * (size_t)channels;
        uint32_t rows = (uint32_t)((65536 + row_bytes - 1) / row_bytes);
        if (rows < 8) rows = 8;
        if (rows > height) rows = height;
        f->width = width; f->height = height; f->channels = channels; f->level = level; f->strategy = zstrategy;
        f->band_rows = rows;
        f->band_count = (height + rows - 1) / rows;
        f->previous = (unsigned char *)malloc(row_pixels * height);
        f->bands = (mw_deflated *)calloc(f->band_count, sizeof(mw_deflated));
        if (!f->previous || !f->bands) {
            mw_png_frames_reset(f);
            snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "out of memory");
            return 1;
        }
    }
    uint32_t count = f->band_count;
    mw_band *jobs = (mw_band *)calloc(count, sizeof(mw_band));
    if (!jobs) {
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "out of memory");
        return 1;
    }
    int dirty = 0;
    for (uint32_t b = 0; b < count; b++) {
        uint32_t first = b * f->band_rows;
        uint32_t n = first + f->band_rows <= height ? f->band_rows : height - first;
        int same = f->bands[b].out != NULL;
        for (uint32_t r = 0; same && r < n; r++) {
            same = memcmp(f->previous + (size_t)(first + r) * row_pixels, rgba + (size_t)(first + r) * stride, row_pixels) == 0;
        }
        if (same) continue;
        jobs[dirty++] = (mw_band){.rgba = rgba, .stride = stride, .width = width, .first_row = first, .row_count = n,
                                  .channels = channels, .level = level, .strategy = zstrategy, .last = b == count - 1};
    }
    if (mw_run_bands(jobs, dirty, mw_thread_count(threads))) {
        for (int i = 0; i < dirty; i++) free(jobs[i].result.out);
        free(jobs);
        mw_png_frames_reset(f);
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "deflate failed (out of memory?)");
        return 1;
    }
    for (int i = 0; i < dirty; i++) {
        mw_deflated *c = &f->bands[jobs[i].first_row / f->band_rows];
        free(c->out);
        *c = jobs[i].result;
        for (uint32_t r = 0; r < jobs[i].row_count; r++) {
            uint32_t y = jobs[i].first_row + r;
            memcpy(f->previous + (size_t)y * row_pixels, rgba + (size_t)y * stride, row_pixels);
        }
    }
    free(jobs);
    int rc = mw_png_assemble(width, height, drop_alpha, level, (int)count, f->bands, out);
    if (reused) *reused = count - (uint32_t)dirty;
    if (total) *total = count;
    return rc;
}
