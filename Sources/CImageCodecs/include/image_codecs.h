// Decoding and encoding pictures with Debian's libraries (libjpeg-turbo, libpng, libwebp,
// giflib), for Linnet's pictures and the simulator's photos. Everything is from memory to
// memory; C owns the setjmp error handling libjpeg needs, which Swift cannot do.
#pragma once
#include <stddef.h>
#include <stdint.h>

enum lc_format { LC_UNKNOWN = 0, LC_JPEG = 1, LC_PNG = 2, LC_WEBP = 3, LC_GIF = 4 };

// The format from the first bytes.
int lc_sniff(const uint8_t *data, size_t length);

// Width and height from the header alone (nothing is decoded). Returns the format, or 0 when
// the header cannot be read; `why` (at least 128 bytes) then says what was wrong.
int lc_probe(const uint8_t *data, size_t length, int *width, int *height, char *why);

// Decodes into 8-bit RGBA (unassociated alpha). JPEG is decoded at the smallest DCT scale
// (1/8 to 1) that is still at least `min_width` x `min_height` (0: full size). Pictures
// whose header claims more than `max_pixels` are refused before any decoding. Returns the
// pixels (free with lc_free) or NULL with `why` filled.
uint8_t *lc_decode(const uint8_t *data, size_t length, size_t max_pixels, int min_width, int min_height, int *width,
                   int *height, char *why);

// PNG and JPEG (quality 1-100) from 8-bit RGBA, for the simulator and for pictures sent to
// the terminal as files. NULL on failure. `lc_encode_png_rgb` leaves alpha out (an opaque
// picture: a quarter fewer bytes before compression).
uint8_t *lc_encode_png(const uint8_t *rgba, int width, int height, size_t *length);
uint8_t *lc_encode_png_rgb(const uint8_t *rgba, int width, int height, size_t *length);

// 8-bit RGBA made smaller, to `to_width` x `to_height` (each at most the source's), each pixel
// the average of the source pixels it covers. NULL on bad sizes or out of memory.
uint8_t *lc_scale_down(const uint8_t *rgba, int width, int height, int to_width, int to_height);
uint8_t *lc_encode_jpeg(const uint8_t *rgba, int width, int height, int quality, size_t *length);

void lc_free(void *p);

// The libraries are opened when the first picture needs them (about 3 ms of every start
// when linked). Each answers NULL, or what went wrong in words; the calls above and below
// fail (saying so, where they can) until it is NULL. Later calls give the first answer.
const char *lc_codecs_load(void);
const char *lc_chafa_load(void);
// What loading `call` from the library file `file` answers; nothing is kept (for the tests).
const char *lc_library_probe(const char *file, const char *call, char *text, size_t size);

// libchafa's values used here, as chafa.h numbers them (PicturesTests compare them).
enum {
    LC_CHAFA_PIXEL_MODE_SYMBOLS = 0,
    LC_CHAFA_PIXEL_MODE_SIXELS = 1,
    LC_CHAFA_CANVAS_MODE_TRUECOLOR = 0,
    LC_CHAFA_CANVAS_MODE_INDEXED_16 = 3,
    LC_CHAFA_CANVAS_MODE_FGBG = 5,
    LC_CHAFA_PIXEL_RGBA8_UNASSOCIATED = 4,
    LC_CHAFA_SYMBOL_TAG_SPACE = 1 << 0,
    LC_CHAFA_SYMBOL_TAG_BLOCK = 1 << 3,
    LC_CHAFA_SYMBOL_TAG_WIDE = 1 << 18,
    LC_CHAFA_SYMBOL_TAG_AMBIGUOUS = 1 << 19,
};

// 8-bit RGBA (unassociated) as `columns` x `rows` cells of one-column block symbols, in
// `canvas_mode`: a code point and two colours (0xRRGGBB, or -1 for the terminal's own) per
// cell, row by row, into arrays of columns * rows. 0 when it cannot be drawn.
int lc_chafa_cells(const uint8_t *rgba, int width, int height, int columns, int rows, int cell_width, int cell_height,
                   int canvas_mode, uint32_t *chars, int32_t *fg, int32_t *bg);
// The same as sixel, as libchafa writes it for a terminal that draws it. malloc'd, NULL when
// it cannot be drawn.
char *lc_chafa_sixel(const uint8_t *rgba, int width, int height, int columns, int rows, int cell_width, int cell_height,
                     size_t *length);
