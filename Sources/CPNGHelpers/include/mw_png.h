// C wrappers around libpng for MapImage.
//
// libpng reports errors by longjmp-ing out of its error callback. A longjmp must never cross
// Swift frames, so every libpng call lives in these C functions, each with its own setjmp;
// Swift sees only return codes and a message buffer.
#ifndef MAPWRIGHT_MW_PNG_H
#define MAPWRIGHT_MW_PNG_H

#include <stddef.h>
#include <stdint.h>
#include "mw_zlib.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Length of the message buffers below, in bytes (NUL included).
#define MW_PNG_MESSAGE_LENGTH 256

/// Filter choices for mw_png_encode (mirrors libpng's PNG_FILTER_* bits, plus "adaptive").
enum {
    MW_PNG_FILTER_NONE = 0,
    MW_PNG_FILTER_SUB = 1,
    MW_PNG_FILTER_UP = 2,
    MW_PNG_FILTER_AVG = 3,
    MW_PNG_FILTER_PAETH = 4,
    MW_PNG_FILTER_ADAPTIVE = 5
};

/// zlib strategies for mw_png_encode.
enum {
    MW_PNG_STRATEGY_DEFAULT = 0,
    MW_PNG_STRATEGY_FILTERED = 1,
    MW_PNG_STRATEGY_RLE = 2
};

/// Result of mw_png_encode: a malloc'ed PNG byte stream (free with mw_png_free) or a message.
typedef struct mw_png_encoded {
    unsigned char *data;
    size_t size;
    char message[MW_PNG_MESSAGE_LENGTH];
} mw_png_encoded;

/// Result of mw_png_decode: malloc'ed straight-alpha RGBA8 rows, top-down (free with mw_png_free).
typedef struct mw_png_decoded {
    unsigned char *rgba;
    uint32_t width;
    uint32_t height;
    char message[MW_PNG_MESSAGE_LENGTH];
} mw_png_decoded;

/// Encodes `height` rows of `width` RGBA8 pixels (4 bytes each, `stride` bytes apart).
/// `drop_alpha` != 0 writes an RGB PNG (the alpha bytes are skipped). `level` is zlib's 0–9.
/// Returns 0 on success; otherwise non-zero with `out->message` set and `out->data` NULL.
int mw_png_encode(const unsigned char *rgba, uint32_t width, uint32_t height, size_t stride,
                  int drop_alpha, int level, int filter, int strategy, mw_png_encoded *out);

/// Encodes like mw_png_encode with filter "none", without libpng: the scanlines are split into
/// up to `bands` horizontal bands (0: one per online CPU, at most 8; small images get fewer)
/// deflated in parallel on threads and joined into one zlib stream (see mw_png_fast.c).
/// Returns 0 on success; otherwise non-zero with `out->message` set and `out->data` NULL.
int mw_png_encode_bands(const unsigned char *rgba, uint32_t width, uint32_t height, size_t stride,
                        int drop_alpha, int level, int strategy, int bands, mw_png_encoded *out);

/// An encoder for successive frames of one size (see mw_png_fast.c): like mw_png_encode_bands,
/// but with fixed bands of about 64 KiB whose compressed bytes are kept and re-used while their
/// pixels do not change. Not thread-safe: one frame at a time per encoder.
typedef struct mw_png_frames mw_png_frames;
mw_png_frames *mw_png_frames_new(void);
void mw_png_frames_free(mw_png_frames *frames);
/// Encodes one frame; `reused`/`total` (may be NULL) receive how many bands were re-used of how
/// many. Returns 0 on success; otherwise non-zero with `out->message` set and `out->data` NULL.
int mw_png_frames_encode(mw_png_frames *frames, const unsigned char *rgba, uint32_t width, uint32_t height,
                         size_t stride, int drop_alpha, int level, int strategy, int threads, mw_png_encoded *out,
                         uint32_t *reused, uint32_t *total);

/// Encodes an 8-bit palette PNG: `height` rows of `width` palette indices (one byte each, no
/// padding), `colors` (1–256) RGBA8 palette entries (alpha goes to tRNS where any is below 255),
/// unfiltered, deflated at zlib `level`. Returns 0 on success; otherwise non-zero with
/// `out->message` set and `out->data` NULL.
int mw_png_encode_palette(const unsigned char *indices, uint32_t width, uint32_t height,
                          const unsigned char *palette_rgba, int colors, int level, mw_png_encoded *out);

/// 1 when every alpha byte (the 4th of each RGBA8 pixel) is 255, else 0.
int mw_png_is_opaque(const unsigned char *rgba, uint32_t width, uint32_t height, size_t stride);

/// Decodes a PNG byte stream of any colour type and bit depth into RGBA8 (16-bit samples are
/// scaled to 8 bits, palettes and grey expanded, gamma left untouched). Images wider or taller
/// than `max_side` pixels or with more than `max_pixels` pixels are refused.
/// Returns 0 on success; otherwise non-zero with `out->message` set and `out->rgba` NULL.
int mw_png_decode(const unsigned char *data, size_t size, uint32_t max_side, uint64_t max_pixels,
                  mw_png_decoded *out);

/// Frees memory returned by mw_png_encode / mw_png_decode (NULL is fine).
void mw_png_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
