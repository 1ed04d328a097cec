#include "image_codecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Every codec call below goes through its pointer, filled by lc_codecs_load.
#define LC_REDIRECT_CALLS
#include "codec_calls.h"
#include <jerror.h>

#define WHY(...) snprintf(why, 128, __VA_ARGS__)

int lc_sniff(const uint8_t *d, size_t n) {
    if (n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF) return LC_JPEG;
    if (n >= 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0) return LC_PNG;
    if (n >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0) return LC_WEBP;
    if (n >= 6 && (memcmp(d, "GIF87a", 6) == 0 || memcmp(d, "GIF89a", 6) == 0)) return LC_GIF;
    return LC_UNKNOWN;
}

// libjpeg reports errors through a callback that must not return: it jumps back here.
struct jpeg_fail {
    struct jpeg_error_mgr mgr;
    jmp_buf back;
    char message[JMSG_LENGTH_MAX];
};

static void jpeg_fail_exit(j_common_ptr c) {
    struct jpeg_fail *f = (struct jpeg_fail *)c->err;
    c->err->format_message(c, f->message);
    longjmp(f->back, 1);
}

// A progressive JPEG of endless scans is refused (a known way to spend a decoder's time).
static void jpeg_scan_limit(j_common_ptr c) {
    struct jpeg_decompress_struct *d = (struct jpeg_decompress_struct *)c;
    struct jpeg_fail *f = (struct jpeg_fail *)c->err;
    if (c->is_decompressor && d->input_scan_number > 100) {
        snprintf(f->message, sizeof f->message, "more than 100 scans");
        longjmp(f->back, 1);
    }
}

// A file that ends before its picture does is an error, not a grey half.
static void jpeg_fail_warn(j_common_ptr c, int level) {
    struct jpeg_fail *f = (struct jpeg_fail *)c->err;
    if (level < 0 && c->err->msg_code == JWRN_JPEG_EOF) {
        snprintf(f->message, sizeof f->message, "the file ends before the picture does");
        longjmp(f->back, 1);
    }
}

static int png_header(const uint8_t *d, size_t n, int *w, int *h) {
    if (n < 24 || memcmp(d + 12, "IHDR", 4) != 0) return 0;
    uint32_t pw = (uint32_t)d[16] << 24 | (uint32_t)d[17] << 16 | (uint32_t)d[18] << 8 | d[19];
    uint32_t ph = (uint32_t)d[20] << 24 | (uint32_t)d[21] << 16 | (uint32_t)d[22] << 8 | d[23];
    if (pw == 0 || ph == 0 || pw > 0x7fffffff || ph > 0x7fffffff) return 0;
    *w = (int)pw;
    *h = (int)ph;
    return 1;
}

int lc_probe(const uint8_t *d, size_t n, int *w, int *h, char *why) {
    int format = lc_sniff(d, n);
    *w = *h = 0;
    // Cut to the 128 bytes of `why`: callers ask lc_codecs_load for the whole of it first.
    const char *problem = format != LC_UNKNOWN ? lc_codecs_load() : NULL;
    if (problem) {
        WHY("%s", problem);
        return 0;
    }
    switch (format) {
    case LC_JPEG: {
        struct jpeg_decompress_struct c;
        struct jpeg_fail f;
        c.err = jpeg_std_error(&f.mgr);
        f.mgr.error_exit = jpeg_fail_exit;
        f.mgr.emit_message = jpeg_fail_warn;
        if (setjmp(f.back)) {
            WHY("a JPEG whose header cannot be read (%s)", f.message);
            jpeg_destroy_decompress(&c);
            return 0;
        }
        jpeg_create_decompress(&c);
        jpeg_mem_src(&c, d, (unsigned long)n);
        jpeg_read_header(&c, TRUE);
        *w = (int)c.image_width;
        *h = (int)c.image_height;
        jpeg_destroy_decompress(&c);
        break;
    }
    case LC_PNG:
        if (!png_header(d, n, w, h)) {
            WHY("a PNG whose header cannot be read");
            return 0;
        }
        break;
    case LC_WEBP:
        if (!WebPGetInfo(d, n, w, h)) {
            WHY("a WebP whose header cannot be read");
            return 0;
        }
        break;
    case LC_GIF:
        if (n < 13) {
            WHY("a GIF whose header cannot be read");
            return 0;
        }
        *w = d[6] | d[7] << 8;
        *h = d[8] | d[9] << 8;
        break;
    default:
        WHY("not a picture (neither JPEG, PNG, WebP nor GIF)");
        return 0;
    }
    if (*w <= 0 || *h <= 0) {
        WHY("a picture of no size");
        return 0;
    }
    return format;
}

static uint8_t *decode_jpeg(const uint8_t *d, size_t n, int min_w, int min_h, int *w, int *h, char *why) {
    struct jpeg_decompress_struct c;
    struct jpeg_fail f;
    uint8_t *volatile out = NULL;
    uint8_t *volatile row = NULL;
    c.err = jpeg_std_error(&f.mgr);
    f.mgr.error_exit = jpeg_fail_exit;
    f.mgr.emit_message = jpeg_fail_warn;
    if (setjmp(f.back)) {
        WHY("a JPEG that cannot be decoded (%s)", f.message);
        jpeg_destroy_decompress(&c);
        free(out);
        free(row);
        return NULL;
    }
    jpeg_create_decompress(&c);
    struct jpeg_progress_mgr progress = {jpeg_scan_limit, 0, 0, 0, 0};
    c.progress = &progress;
    jpeg_mem_src(&c, d, (unsigned long)n);
    jpeg_read_header(&c, TRUE);
    int cmyk = c.jpeg_color_space == JCS_CMYK || c.jpeg_color_space == JCS_YCCK;
    c.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    // The smallest DCT scale that still covers the size asked for: fewer pixels decoded.
    c.scale_denom = 8;
    c.scale_num = 8;
    if (min_w > 0 && min_h > 0) {
        for (unsigned k = 1; k <= 8; k++) {
            if ((c.image_width * k + 7) / 8 >= (unsigned)min_w && (c.image_height * k + 7) / 8 >= (unsigned)min_h) {
                c.scale_num = k;
                break;
            }
        }
    }
    jpeg_start_decompress(&c);
    *w = (int)c.output_width;
    *h = (int)c.output_height;
    out = malloc((size_t)*w * (size_t)*h * 4);
    if (!out) {
        WHY("not enough memory for the picture");
        jpeg_destroy_decompress(&c);
        return NULL;
    }
    if (cmyk && !(row = malloc((size_t)*w * 4))) {
        WHY("not enough memory for the picture");
        jpeg_destroy_decompress(&c);
        free(out);
        return NULL;
    }
    while (c.output_scanline < c.output_height) {
        uint8_t *dest = out + (size_t)c.output_scanline * (size_t)*w * 4;
        JSAMPROW r = cmyk ? (JSAMPROW)row : (JSAMPROW)dest;
        jpeg_read_scanlines(&c, &r, 1);
        if (cmyk) {
            // Adobe writes CMYK inverted: each channel times K, over 255, is the colour.
            for (int x = 0; x < *w; x++) {
                int k = row[x * 4 + 3];
                dest[x * 4] = (uint8_t)(row[x * 4] * k / 255);
                dest[x * 4 + 1] = (uint8_t)(row[x * 4 + 1] * k / 255);
                dest[x * 4 + 2] = (uint8_t)(row[x * 4 + 2] * k / 255);
                dest[x * 4 + 3] = 255;
            }
        }
    }
    jpeg_finish_decompress(&c);
    jpeg_destroy_decompress(&c);
    free(row);
    return out;
}

static uint8_t *decode_png(const uint8_t *d, size_t n, int *w, int *h, char *why) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, d, n)) {
        WHY("a PNG that cannot be read (%s)", image.message);
        return NULL;
    }
    image.format = PNG_FORMAT_RGBA;
    uint8_t *out = malloc(PNG_IMAGE_SIZE(image));
    if (!out) {
        png_image_free(&image);
        WHY("not enough memory for the picture");
        return NULL;
    }
    if (!png_image_finish_read(&image, NULL, out, 0, NULL)) {
        WHY("a PNG that cannot be decoded (%s)", image.message);
        free(out);
        return NULL;
    }
    *w = (int)image.width;
    *h = (int)image.height;
    return out;
}

static uint8_t *decode_webp(const uint8_t *d, size_t n, int *w, int *h, char *why) {
    size_t size = (size_t)*w * (size_t)*h * 4;
    uint8_t *out = malloc(size);
    if (!out) {
        WHY("not enough memory for the picture");
        return NULL;
    }
    if (!WebPDecodeRGBAInto(d, n, out, size, *w * 4)) {
        WHY("a WebP that cannot be decoded");
        free(out);
        return NULL;
    }
    return out;
}

struct gif_source {
    const uint8_t *data;
    size_t length, at;
};

static int gif_read(GifFileType *g, GifByteType *buf, int want) {
    struct gif_source *s = g->UserData;
    size_t left = s->length - s->at;
    size_t n = (size_t)want < left ? (size_t)want : left;
    memcpy(buf, s->data + s->at, n);
    s->at += n;
    return (int)n;
}

// The first frame only (an animation's poster), on the logical screen's canvas.
static uint8_t *decode_gif(const uint8_t *d, size_t n, int *w, int *h, char *why) {
    struct gif_source src = {d, n, 0};
    int err = 0;
    GifFileType *g = DGifOpen(&src, gif_read, &err);
    if (!g) {
        WHY("a GIF that cannot be read (%s)", GifErrorString(err));
        return NULL;
    }
    int cw = g->SWidth, ch = g->SHeight, transparent = -1;
    uint8_t *out = calloc((size_t)cw * (size_t)ch, 4);
    GifByteType *line = NULL;
    int ok = 0;
    if (!out) goto done;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(g, &type) == GIF_ERROR) break;
        if (type == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *ext;
            if (DGifGetExtension(g, &code, &ext) == GIF_ERROR) break;
            while (ext) {
                if (code == GRAPHICS_EXT_FUNC_CODE && ext[0] >= 4 && (ext[1] & 1)) transparent = ext[4];
                if (DGifGetExtensionNext(g, &ext) == GIF_ERROR) goto done;
            }
        } else if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(g) == GIF_ERROR) break;
            GifImageDesc *desc = &g->Image;
            ColorMapObject *map = desc->ColorMap ? desc->ColorMap : g->SColorMap;
            // A frame outside the canvas is refused, not decoded row by row into nothing.
            if (!map || desc->Width <= 0 || desc->Height <= 0 || desc->Left < 0 || desc->Top < 0 ||
                desc->Left + desc->Width > cw || desc->Top + desc->Height > ch)
                break;
            line = malloc((size_t)desc->Width);
            if (!line) break;
            static const int start[] = {0, 4, 2, 1}, step[] = {8, 8, 4, 2};
            int passes = desc->Interlace ? 4 : 1;
            for (int p = 0; p < passes; p++) {
                int y0 = desc->Interlace ? start[p] : 0, dy = desc->Interlace ? step[p] : 1;
                for (int y = y0; y < desc->Height; y += dy) {
                    if (DGifGetLine(g, line, desc->Width) == GIF_ERROR) goto done;
                    int ty = desc->Top + y;
                    if (ty < 0 || ty >= ch) continue;
                    for (int x = 0; x < desc->Width; x++) {
                        int tx = desc->Left + x;
                        if (tx < 0 || tx >= cw || line[x] == transparent || line[x] >= map->ColorCount) continue;
                        GifColorType c = map->Colors[line[x]];
                        uint8_t *px = out + ((size_t)ty * cw + tx) * 4;
                        px[0] = c.Red;
                        px[1] = c.Green;
                        px[2] = c.Blue;
                        px[3] = 255;
                    }
                }
            }
            ok = 1;
            break;
        } else if (type == TERMINATE_RECORD_TYPE) {
            break;
        }
    }
done:
    if (!ok) WHY("a GIF that cannot be decoded (%s)", GifErrorString(g->Error ? g->Error : D_GIF_ERR_READ_FAILED));
    DGifCloseFile(g, &err);
    free(line);
    if (!ok) {
        free(out);
        return NULL;
    }
    *w = cw;
    *h = ch;
    return out;
}

uint8_t *lc_decode(const uint8_t *d, size_t n, size_t max_pixels, int min_w, int min_h, int *w, int *h, char *why) {
    int format = lc_probe(d, n, w, h, why);
    if (!format) return NULL;
    if ((size_t)*w * (size_t)*h > max_pixels || *w > 65535 || *h > 65535) {
        WHY("a picture of %dx%d pixels, more than Linnet decodes (%zu pixels)", *w, *h, max_pixels);
        return NULL;
    }
    switch (format) {
    case LC_JPEG: return decode_jpeg(d, n, min_w, min_h, w, h, why);
    case LC_PNG: return decode_png(d, n, w, h, why);
    case LC_WEBP: return decode_webp(d, n, w, h, why);
    case LC_GIF: return decode_gif(d, n, w, h, why);
    }
    return NULL;
}

static uint8_t *encode_png(const uint8_t *pixels, int width, int height, png_uint_32 format, size_t *length) {
    if (lc_codecs_load()) return NULL;
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)width;
    image.height = (png_uint_32)height;
    image.format = format;
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&image, NULL, &size, 0, pixels, 0, NULL)) return NULL;
    uint8_t *out = malloc(size);
    if (!out) return NULL;
    if (!png_image_write_to_memory(&image, out, &size, 0, pixels, 0, NULL)) {
        free(out);
        return NULL;
    }
    *length = size;
    return out;
}

uint8_t *lc_encode_png(const uint8_t *rgba, int width, int height, size_t *length) {
    return encode_png(rgba, width, height, PNG_FORMAT_RGBA, length);
}

uint8_t *lc_encode_png_rgb(const uint8_t *rgba, int width, int height, size_t *length) {
    if (width <= 0 || height <= 0) return NULL;
    size_t n = (size_t)width * (size_t)height;
    uint8_t *rgb = malloc(n * 3);
    if (!rgb) return NULL;
    for (size_t i = 0; i < n; i++) memcpy(rgb + i * 3, rgba + i * 4, 3);
    uint8_t *out = encode_png(rgb, width, height, PNG_FORMAT_RGB, length);
    free(rgb);
    return out;
}

uint8_t *lc_scale_down(const uint8_t *rgba, int width, int height, int to_width, int to_height) {
    if (to_width <= 0 || to_height <= 0 || to_width > width || to_height > height) return NULL;
    uint8_t *out = malloc((size_t)to_width * (size_t)to_height * 4);
    if (!out) return NULL;
    for (int ty = 0; ty < to_height; ty++) {
        int y0 = (int)((int64_t)ty * height / to_height), y1 = (int)((int64_t)(ty + 1) * height / to_height);
        if (y1 <= y0) y1 = y0 + 1;
        for (int tx = 0; tx < to_width; tx++) {
            int x0 = (int)((int64_t)tx * width / to_width), x1 = (int)((int64_t)(tx + 1) * width / to_width);
            if (x1 <= x0) x1 = x0 + 1;
            uint64_t sum[4] = {0, 0, 0, 0}, n = 0;
            for (int y = y0; y < y1; y++) {
                const uint8_t *p = rgba + ((size_t)y * (size_t)width + (size_t)x0) * 4;
                for (int x = x0; x < x1; x++, p += 4, n++) {
                    sum[0] += p[0];
                    sum[1] += p[1];
                    sum[2] += p[2];
                    sum[3] += p[3];
                }
            }
            uint8_t *o = out + ((size_t)ty * (size_t)to_width + (size_t)tx) * 4;
            for (int c = 0; c < 4; c++) o[c] = (uint8_t)((sum[c] + n / 2) / n);
        }
    }
    return out;
}

uint8_t *lc_encode_jpeg(const uint8_t *rgba, int width, int height, int quality, size_t *length) {
    if (lc_codecs_load()) return NULL;
    struct jpeg_compress_struct c;
    struct jpeg_fail f;
    unsigned char *volatile out = NULL;
    unsigned long size = 0;
    c.err = jpeg_std_error(&f.mgr);
    f.mgr.error_exit = jpeg_fail_exit;
    if (setjmp(f.back)) {
        // libjpeg may have moved the buffer without telling `out`: leaked, never freed twice.
        jpeg_destroy_compress(&c);
        return NULL;
    }
    jpeg_create_compress(&c);
    jpeg_mem_dest(&c, (unsigned char **)&out, &size);
    c.image_width = (JDIMENSION)width;
    c.image_height = (JDIMENSION)height;
    c.input_components = 4;
    c.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, quality, TRUE);
    jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < c.image_height) {
        JSAMPROW r = (JSAMPROW)(rgba + (size_t)c.next_scanline * (size_t)width * 4);
        jpeg_write_scanlines(&c, &r, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    *length = size;
    return out;
}

void lc_free(void *p) { free(p); }
