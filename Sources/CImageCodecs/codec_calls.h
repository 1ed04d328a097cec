// The codecs' calls, by the names their headers give them. The libraries are opened when the
// first picture needs them (libraries.c); each call goes through a pointer of its function's
// own type, filled then.
#pragma once
#include <stdio.h> // jpeglib.h needs FILE
#include <gif_lib.h>
#include <jpeglib.h>
#include <png.h>
#include <webp/decode.h>

#define LC_JPEG_CALLS(X)                                                                                                  \
    X(jpeg_std_error)                                                                                                    \
    X(jpeg_CreateDecompress) X(jpeg_CreateCompress) X(jpeg_destroy_decompress) X(jpeg_destroy_compress) X(jpeg_mem_src) \
    X(jpeg_mem_dest) X(jpeg_read_header) X(jpeg_start_decompress) X(jpeg_read_scanlines) X(jpeg_finish_decompress)       \
    X(jpeg_set_defaults) X(jpeg_set_quality) X(jpeg_start_compress) X(jpeg_write_scanlines) X(jpeg_finish_compress)
#define LC_PNG_CALLS(X)                                                                                                   \
    X(png_image_begin_read_from_memory) X(png_image_finish_read) X(png_image_free) X(png_image_write_to_memory)
#define LC_WEBP_CALLS(X) X(WebPGetInfo) X(WebPDecodeRGBAInto)
#define LC_GIF_CALLS(X)                                                                                                   \
    X(DGifOpen) X(DGifCloseFile) X(DGifGetRecordType) X(DGifGetExtension) X(DGifGetExtensionNext) X(DGifGetImageDesc)   \
    X(DGifGetLine) X(GifErrorString)

#define LC_DECLARE_CALL(name) extern __typeof__(name) *lc_call_##name;
LC_JPEG_CALLS(LC_DECLARE_CALL)
LC_PNG_CALLS(LC_DECLARE_CALL)
LC_WEBP_CALLS(LC_DECLARE_CALL)
LC_GIF_CALLS(LC_DECLARE_CALL)

// In image_codecs.c: each call by its own name, through its pointer.
#ifdef LC_REDIRECT_CALLS
#define jpeg_std_error (*lc_call_jpeg_std_error)
#define jpeg_CreateDecompress (*lc_call_jpeg_CreateDecompress)
#define jpeg_CreateCompress (*lc_call_jpeg_CreateCompress)
#define jpeg_destroy_decompress (*lc_call_jpeg_destroy_decompress)
#define jpeg_destroy_compress (*lc_call_jpeg_destroy_compress)
#define jpeg_mem_src (*lc_call_jpeg_mem_src)
#define jpeg_mem_dest (*lc_call_jpeg_mem_dest)
#define jpeg_read_header (*lc_call_jpeg_read_header)
#define jpeg_start_decompress (*lc_call_jpeg_start_decompress)
#define jpeg_read_scanlines (*lc_call_jpeg_read_scanlines)
#define jpeg_finish_decompress (*lc_call_jpeg_finish_decompress)
#define jpeg_set_defaults (*lc_call_jpeg_set_defaults)
#define jpeg_set_quality (*lc_call_jpeg_set_quality)
#define jpeg_start_compress (*lc_call_jpeg_start_compress)
#define jpeg_write_scanlines (*lc_call_jpeg_write_scanlines)
#define jpeg_finish_compress (*lc_call_jpeg_finish_compress)
#define png_image_begin_read_from_memory (*lc_call_png_image_begin_read_from_memory)
#define png_image_finish_read (*lc_call_png_image_finish_read)
#define png_image_free (*lc_call_png_image_free)
#define png_image_write_to_memory (*lc_call_png_image_write_to_memory)
#define WebPGetInfo (*lc_call_WebPGetInfo)
#define WebPDecodeRGBAInto (*lc_call_WebPDecodeRGBAInto)
#define DGifOpen (*lc_call_DGifOpen)
#define DGifCloseFile (*lc_call_DGifCloseFile)
#define DGifGetRecordType (*lc_call_DGifGetRecordType)
#define DGifGetExtension (*lc_call_DGifGetExtension)
#define DGifGetExtensionNext (*lc_call_DGifGetExtensionNext)
#define DGifGetImageDesc (*lc_call_DGifGetImageDesc)
#define DGifGetLine (*lc_call_DGifGetLine)
#define GifErrorString (*lc_call_GifErrorString)
#endif
