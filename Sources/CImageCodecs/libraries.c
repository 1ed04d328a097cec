/* The pictures' libraries by dlopen, when the first picture needs them: linked, they and what
   they bring (GLib, PCRE2, zlib) were bound before main at every start, about 3 ms of
   `linnet --version` (DECISIONS.md, 2026-11-27). */
#include "codec_calls.h"
#include "image_codecs.h"
#include "libraries.h"

#include "CLoading.h"
#include <pthread.h>
#include <stdio.h>

#define LC_DEFINE_CALL(name) __typeof__(name) *lc_call_##name;
LC_JPEG_CALLS(LC_DEFINE_CALL)
LC_PNG_CALLS(LC_DEFINE_CALL)
LC_WEBP_CALLS(LC_DEFINE_CALL)
LC_GIF_CALLS(LC_DEFINE_CALL)

#define LC_NAME(name) #name,
#define LC_SLOT(name) (void **)&lc_call_##name,

struct library {
    const char *file, *package;
    const char *const *names;
    void **const *slots;
    size_t count;
};

/* Opens `file` and fills `slots` only when every call is found: NULL, or what went wrong in
   words (in `text`). `slots` may be NULL (a probe). */
static const char *bind(const struct library *l, char *text, size_t size) {
    const char *why = NULL;
    size_t missing = 0;
    switch (cl_bind(l->file, l->names, l->slots, l->count, &why, &missing)) {
    case CL_NOT_OPENED:
        snprintf(text, size, "pictures are off: %s could not be loaded (%s); install %s, then start Linnet again", l->file,
                 why ? why : "no reason given", l->package);
        return text;
    case CL_CALL_MISSING:
        snprintf(text, size, "pictures are off: %s has no %s; install %s as Debian ships it", l->file, l->names[missing],
                 l->package);
        return text;
    }
    return NULL;
}

static const char *const jpeg_names[] = {LC_JPEG_CALLS(LC_NAME)};
static void **const jpeg_slots[] = {LC_JPEG_CALLS(LC_SLOT)};
static const char *const png_names[] = {LC_PNG_CALLS(LC_NAME)};
static void **const png_slots[] = {LC_PNG_CALLS(LC_SLOT)};
static const char *const webp_names[] = {LC_WEBP_CALLS(LC_NAME)};
static void **const webp_slots[] = {LC_WEBP_CALLS(LC_SLOT)};
static const char *const gif_names[] = {LC_GIF_CALLS(LC_NAME)};
static void **const gif_slots[] = {LC_GIF_CALLS(LC_SLOT)};
#define LC_COUNT(a) (sizeof a / sizeof a[0])

/* Debian's sonames, the ones the headers match, and the packages that ship them. */
static const struct library codecs[] = {
    {"libjpeg.so.62", "libjpeg62-turbo", jpeg_names, jpeg_slots, LC_COUNT(jpeg_names)},
    {"libpng16.so.16", "libpng16-16", png_names, png_slots, LC_COUNT(png_names)},
    {"libwebp.so.7", "libwebp7", webp_names, webp_slots, LC_COUNT(webp_names)},
    {"libgif.so.7", "libgif7", gif_names, gif_slots, LC_COUNT(gif_names)},
};

static pthread_once_t codecs_once = PTHREAD_ONCE_INIT;
static const char *codecs_problem;
static char codecs_text[512];

static void load_codecs(void) {
    for (size_t i = 0; i < LC_COUNT(codecs) && !codecs_problem; i++)
        codecs_problem = bind(&codecs[i], codecs_text, sizeof codecs_text);
}

const char *lc_codecs_load(void) {
    pthread_once(&codecs_once, load_codecs);
    return codecs_problem;
}

struct lc_chafa_calls lc_chafa;
static const char *const chafa_names[] = {
    "chafa_canvas_config_new", "chafa_canvas_config_unref", "chafa_canvas_config_set_geometry",
    "chafa_canvas_config_set_cell_geometry", "chafa_canvas_config_set_pixel_mode", "chafa_canvas_config_set_canvas_mode",
    "chafa_canvas_config_set_symbol_map", "chafa_symbol_map_new", "chafa_symbol_map_add_by_tags",
    "chafa_symbol_map_remove_by_tags", "chafa_symbol_map_unref", "chafa_canvas_new", "chafa_canvas_unref",
    "chafa_canvas_draw_all_pixels", "chafa_canvas_get_char_at", "chafa_canvas_get_colors_at", "chafa_term_db_get_default",
    "chafa_term_db_detect", "chafa_term_info_unref", "chafa_canvas_print",
    /* GLib's, found through libchafa, which links it. */
    "g_string_free",
};
static void **const chafa_slots[] = {
    (void **)&lc_chafa.canvas_config_new, (void **)&lc_chafa.canvas_config_unref,
    (void **)&lc_chafa.canvas_config_set_geometry, (void **)&lc_chafa.canvas_config_set_cell_geometry,
    (void **)&lc_chafa.canvas_config_set_pixel_mode, (void **)&lc_chafa.canvas_config_set_canvas_mode,
    (void **)&lc_chafa.canvas_config_set_symbol_map, (void **)&lc_chafa.symbol_map_new,
    (void **)&lc_chafa.symbol_map_add_by_tags, (void **)&lc_chafa.symbol_map_remove_by_tags,
    (void **)&lc_chafa.symbol_map_unref, (void **)&lc_chafa.canvas_new, (void **)&lc_chafa.canvas_unref,
    (void **)&lc_chafa.canvas_draw_all_pixels, (void **)&lc_chafa.canvas_get_char_at,
    (void **)&lc_chafa.canvas_get_colors_at, (void **)&lc_chafa.term_db_get_default, (void **)&lc_chafa.term_db_detect,
    (void **)&lc_chafa.term_info_unref, (void **)&lc_chafa.canvas_print, (void **)&lc_chafa.string_free,
};
_Static_assert(LC_COUNT(chafa_names) == LC_COUNT(chafa_slots), "a name for every slot");
static const struct library chafa = {"libchafa.so.0", "libchafa0", chafa_names, chafa_slots, LC_COUNT(chafa_names)};

static pthread_once_t chafa_once = PTHREAD_ONCE_INIT;
static const char *chafa_problem;
static char chafa_text[512];

static void load_chafa(void) { chafa_problem = bind(&chafa, chafa_text, sizeof chafa_text); }

const char *lc_chafa_load(void) {
    pthread_once(&chafa_once, load_chafa);
    return chafa_problem;
}

const char *lc_library_probe(const char *file, const char *call, char *text, size_t size) {
    const char *names[] = {call};
    struct library l = {file, "it", names, NULL, 1};
    return bind(&l, text, size);
}
