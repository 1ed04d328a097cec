// libchafa's calls as its headers declare them (chafa 1.x), through pointers filled when the
// first picture is drawn. Its headers need GLib's, which only pkg-config finds, and with them
// comes the link this loading avoids: the types here are opaque, the enums plain ints (their
// values in image_codecs.h, checked against chafa.h by PicturesTests).
#pragma once
#include <stddef.h>
#include <stdint.h>

// GLib's GString, as glib/gstring.h lays it out.
struct lc_gstring {
    char *str;
    size_t len;
    size_t allocated_len;
};

struct lc_chafa_calls {
    void *(*canvas_config_new)(void);
    void (*canvas_config_unref)(void *config);
    void (*canvas_config_set_geometry)(void *config, int width, int height);
    void (*canvas_config_set_cell_geometry)(void *config, int width, int height);
    void (*canvas_config_set_pixel_mode)(void *config, int mode);
    void (*canvas_config_set_canvas_mode)(void *config, int mode);
    void (*canvas_config_set_symbol_map)(void *config, const void *map);
    void *(*symbol_map_new)(void);
    void (*symbol_map_add_by_tags)(void *map, int tags);
    void (*symbol_map_remove_by_tags)(void *map, int tags);
    void (*symbol_map_unref)(void *map);
    void *(*canvas_new)(const void *config);
    void (*canvas_unref)(void *canvas);
    void (*canvas_draw_all_pixels)(void *canvas, int type, const uint8_t *pixels, int width, int height, int rowstride);
    uint32_t (*canvas_get_char_at)(void *canvas, int x, int y);
    void (*canvas_get_colors_at)(void *canvas, int x, int y, int *fg, int *bg);
    void *(*term_db_get_default)(void);
    void *(*term_db_detect)(void *db, char **envp);
    void (*term_info_unref)(void *info);
    struct lc_gstring *(*canvas_print)(void *canvas, void *info);
    char *(*string_free)(struct lc_gstring *string, int free_segment);
};
extern struct lc_chafa_calls lc_chafa;
