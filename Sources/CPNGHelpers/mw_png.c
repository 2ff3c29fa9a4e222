// See include/mw_png.h. Every setjmp and every libpng call stays inside this file.
#include "mw_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Shared error state: libpng's error callback copies the message here, then longjmps back
// into the C function that called setjmp (never into Swift).
typedef struct mw_error_state {
    jmp_buf jump;
    char *message;
} mw_error_state;

static void mw_png_error_fn(png_structp png, png_const_charp text) {
    mw_error_state *state = (mw_error_state *)png_get_error_ptr(png);
    snprintf(state->message, MW_PNG_MESSAGE_LENGTH, "%s", text ? text : "libpng error");
    longjmp(state->jump, 1);
}

static void mw_png_warning_fn(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;  // Warnings (e.g. a bad ancillary-chunk CRC) are not failures.
}

// ---- Encoding ----

typedef struct mw_write_buffer {
    unsigned char *data;
    size_t size;
    size_t capacity;
    int failed;
} mw_write_buffer;

static void mw_write_fn(png_structp png, png_bytep bytes, png_size_t length) {
    mw_write_buffer *buffer = (mw_write_buffer *)png_get_io_ptr(png);
    if (buffer->size + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < buffer->size + length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(buffer->data, capacity);
        if (!grown) {
            buffer->failed = 1;
            png_error(png, "out of memory while writing PNG");
        }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, length);
    buffer->size += length;
}

static void mw_flush_fn(png_structp png) { (void)png; }

static int mw_filter_bits(int filter) {
    switch (filter) {
    case MW_PNG_FILTER_SUB: return PNG_FILTER_SUB;
    case MW_PNG_FILTER_UP: return PNG_FILTER_UP;
    case MW_PNG_FILTER_AVG: return PNG_FILTER_AVG;
    case MW_PNG_FILTER_PAETH: return PNG_FILTER_PAETH;
    case MW_PNG_FILTER_ADAPTIVE: return PNG_ALL_FILTERS;
    default: return PNG_FILTER_NONE;
    }
}

// One image to write: its rows, its colour type and the settings both encoders pass to libpng.
typedef struct mw_png_job {
    const unsigned char *rows;
    size_t stride;
    uint32_t width, height;
    int color_type;
    int drop_alpha;                      // RGBA rows written as RGB
    const unsigned char *palette_rgba;   // PNG_COLOR_TYPE_PALETTE: `colors` RGBA8 entries
    int colors;
    int filter_bits;
    int level;
    int zstrategy;
    size_t capacity_guess;               // a first guess at the output size saves most reallocations
} mw_png_job;

// Writes `job` with libpng: the setjmp, the buffer and libpng's set-up for both encoders.
static int mw_png_write(const mw_png_job *job, mw_png_encoded *out) {
    mw_error_state state;
    state.message = out->message;
    // Everything read after a longjmp must be volatile or unchanged since setjmp.
    mw_write_buffer *volatile buffer = (mw_write_buffer *)calloc(1, sizeof(mw_write_buffer));
    if (!buffer) {
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "out of memory");
        return 1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, mw_png_error_fn,
                                              mw_png_warning_fn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        if (png) png_destroy_write_struct(&png, NULL);
        free(buffer);
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "out of memory");
        return 1;
    }
    if (setjmp(state.jump)) {
        png_destroy_write_struct(&png, &info);
        free(buffer->data);
        free(buffer);
        return 1;
    }
    buffer->capacity = job->capacity_guess;
    buffer->data = (unsigned char *)malloc(buffer->capacity);
    if (!buffer->data) png_error(png, "out of memory");

    png_set_write_fn(png, buffer, mw_write_fn, mw_flush_fn);
    png_set_IHDR(png, info, job->width, job->height, 8, job->color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (job->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color entries[256];
        png_byte alphas[256];
        int last_translucent = -1;
        for (int i = 0; i < job->colors; i++) {
            entries[i].red = job->palette_rgba[4 * i];
            entries[i].green = job->palette_rgba[4 * i + 1];
            entries[i].blue = job->palette_rgba[4 * i + 2];
            alphas[i] = job->palette_rgba[4 * i + 3];
            if (alphas[i] != 255) last_translucent = i;
        }
        png_set_PLTE(png, info, entries, job->colors);
        // tRNS up to the last entry that is not opaque (later entries are opaque by default).
        if (last_translucent >= 0) png_set_tRNS(png, info, alphas, last_translucent + 1, NULL);
    }
    png_set_filter(png, PNG_FILTER_TYPE_BASE, job->filter_bits);
    png_set_compression_level(png, job->level < 0 ? 0 : (job->level > 9 ? 9 : job->level));
    png_set_compression_strategy(png, job->zstrategy);
    png_write_info(png, info);
    if (job->drop_alpha) png_set_filler(png, 0, PNG_FILLER_AFTER);  // On write: strip the 4th byte.
    for (uint32_t y = 0; y < job->height; y++) {
        png_write_row(png, (png_const_bytep)(job->rows + (size_t)y * job->stride));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    out->data = buffer->data;
    out->size = buffer->size;
    free(buffer);
    return 0;
}

int mw_png_encode(const unsigned char *rgba, uint32_t width, uint32_t height, size_t stride,
                  int drop_alpha, int level, int filter, int strategy, mw_png_encoded *out) {
    out->data = NULL;
    out->size = 0;
    out->message[0] = 0;
    if (!rgba || width == 0 || height == 0 || stride < (size_t)width * 4) {
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "invalid image layout");
        return 1;
    }
    mw_png_job job = {0};
    job.rows = rgba;
    job.stride = stride;
    job.width = width;
    job.height = height;
    job.color_type = drop_alpha ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA;
    job.drop_alpha = drop_alpha;
    job.filter_bits = mw_filter_bits(filter);
    job.level = level;
    job.zstrategy = strategy == MW_PNG_STRATEGY_RLE        ? 3   /* Z_RLE */
                    : strategy == MW_PNG_STRATEGY_FILTERED ? 1   /* Z_FILTERED */
                                                           : 0;  /* Z_DEFAULT_STRATEGY */
    job.capacity_guess = (size_t)width * height * (drop_alpha ? 3 : 4) / 4 + 1024;
    return mw_png_write(&job, out);
}

int mw_png_encode_palette(const unsigned char *indices, uint32_t width, uint32_t height,
                          const unsigned char *palette_rgba, int colors, int level, mw_png_encoded *out) {
    out->data = NULL;
    out->size = 0;
    out->message[0] = 0;
    if (!indices || !palette_rgba || width == 0 || height == 0 || colors < 1 || colors > 256) {
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "invalid palette image");
        return 1;
    }
    mw_png_job job = {0};
    job.rows = indices;
    job.stride = width;
    job.width = width;
    job.height = height;
    job.color_type = PNG_COLOR_TYPE_PALETTE;
    job.palette_rgba = palette_rgba;
    job.colors = colors;
    // Palette indices compress best unfiltered (the PNG specification's advice).
    job.filter_bits = PNG_FILTER_NONE;
    job.level = level;
    job.zstrategy = 0;  /* Z_DEFAULT_STRATEGY */
    job.capacity_guess = (size_t)width * height / 4 + 2048;
    return mw_png_write(&job, out);
}

// ---- Decoding ----

typedef struct mw_read_source {
    const unsigned char *data;
    size_t size;
    size_t offset;
} mw_read_source;

static void mw_read_fn(png_structp png, png_bytep bytes, png_size_t length) {
    mw_read_source *source = (mw_read_source *)png_get_io_ptr(png);
    if (length > source->size - source->offset) png_error(png, "unexpected end of PNG data (truncated file)");
    memcpy(bytes, source->data + source->offset, length);
    source->offset += length;
}

int mw_png_decode(const unsigned char *data, size_t size, uint32_t max_side, uint64_t max_pixels,
                  mw_png_decoded *out) {
    out->rgba = NULL;
    out->width = 0;
    out->height = 0;
    out->message[0] = 0;
    if (!data || size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "not a PNG (the 8-byte PNG signature is missing)");
        return 1;
    }
    mw_error_state state;
    state.message = out->message;
    mw_read_source source = {data, size, 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, mw_png_error_fn,
                                             mw_png_warning_fn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        if (png) png_destroy_read_struct(&png, NULL, NULL);
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "out of memory");
        return 1;
    }
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(state.jump)) {
        png_destroy_read_struct(&png, &info, NULL);
        free(pixels);
        free(rows);
        return 1;
    }
    png_set_read_fn(png, &source, mw_read_fn);
    png_set_user_limits(png, max_side, max_side);
    png_read_info(png, info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    if ((uint64_t)width * (uint64_t)height > max_pixels) {
        snprintf(out->message, MW_PNG_MESSAGE_LENGTH, "image of %ux%u pixels exceeds the limit of %llu pixels",
                 (unsigned)width, (unsigned)height, (unsigned long long)max_pixels);
        png_destroy_read_struct(&png, &info, NULL);
        return 1;
    }
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if (rowbytes != (size_t)width * 4) png_error(png, "unsupported PNG layout after conversion to RGBA");

    pixels = (unsigned char *)malloc(rowbytes * height);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * rowbytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    out->rgba = pixels;
    out->width = width;
    out->height = height;
    return 0;
}

void mw_png_free(void *pointer) { free(pointer); }
