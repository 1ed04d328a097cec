#include "image_codecs.h"
#include "libraries.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A canvas of `columns` x `rows` cells holding the picture, in `pixel_mode` and `canvas_mode`.
static void *draw(const uint8_t *rgba, int width, int height, int columns, int rows, int cell_width, int cell_height,
                  int pixel_mode, int canvas_mode) {
    void *config = lc_chafa.canvas_config_new();
    lc_chafa.canvas_config_set_geometry(config, columns, rows);
    lc_chafa.canvas_config_set_cell_geometry(config, cell_width, cell_height);
    lc_chafa.canvas_config_set_pixel_mode(config, pixel_mode);
    lc_chafa.canvas_config_set_canvas_mode(config, canvas_mode);
    if (pixel_mode == LC_CHAFA_PIXEL_MODE_SYMBOLS) {
        // Block symbols of one cell's width (no wide or ambiguous ones: their width is the font's).
        void *map = lc_chafa.symbol_map_new();
        lc_chafa.symbol_map_add_by_tags(map, LC_CHAFA_SYMBOL_TAG_BLOCK | LC_CHAFA_SYMBOL_TAG_SPACE);
        lc_chafa.symbol_map_remove_by_tags(map, LC_CHAFA_SYMBOL_TAG_WIDE | LC_CHAFA_SYMBOL_TAG_AMBIGUOUS);
        lc_chafa.canvas_config_set_symbol_map(config, map);
        lc_chafa.symbol_map_unref(map);
    }
    void *canvas = lc_chafa.canvas_new(config);
    lc_chafa.canvas_config_unref(config);
    if (canvas) lc_chafa.canvas_draw_all_pixels(canvas, LC_CHAFA_PIXEL_RGBA8_UNASSOCIATED, rgba, width, height, width * 4);
    return canvas;
}

int lc_chafa_cells(const uint8_t *rgba, int width, int height, int columns, int rows, int cell_width, int cell_height,
                   int canvas_mode, uint32_t *chars, int32_t *fg, int32_t *bg) {
    if (lc_chafa_load()) return 0;
    void *canvas = draw(rgba, width, height, columns, rows, cell_width, cell_height, LC_CHAFA_PIXEL_MODE_SYMBOLS, canvas_mode);
    if (!canvas) return 0;
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < columns; x++) {
            size_t i = (size_t)y * (size_t)columns + (size_t)x;
            int f = -1, b = -1;
            chars[i] = lc_chafa.canvas_get_char_at(canvas, x, y);
            lc_chafa.canvas_get_colors_at(canvas, x, y, &f, &b);
            fg[i] = f;
            bg[i] = b;
        }
    }
    lc_chafa.canvas_unref(canvas);
    return 1;
}

// As libchafa's terminal database writes sixel for mlterm (one that draws it).
char *lc_chafa_sixel(const uint8_t *rgba, int width, int height, int columns, int rows, int cell_width, int cell_height,
                     size_t *length) {
    if (lc_chafa_load()) return NULL;
    void *canvas = draw(rgba, width, height, columns, rows, cell_width, cell_height, LC_CHAFA_PIXEL_MODE_SIXELS,
                        LC_CHAFA_CANVAS_MODE_TRUECOLOR);
    if (!canvas) return NULL;
    char term[] = "TERM=mlterm";
    char *envp[] = {term, NULL};
    void *info = lc_chafa.term_db_detect(lc_chafa.term_db_get_default(), envp);
    struct lc_gstring *s = lc_chafa.canvas_print(canvas, info);
    char *out = malloc(s->len + 1);
    if (out) {
        memcpy(out, s->str, s->len);
        out[s->len] = 0;
        *length = s->len;
    }
    lc_chafa.string_free(s, 1);
    lc_chafa.term_info_unref(info);
    lc_chafa.canvas_unref(canvas);
    return out;
}
