// libchafa linked (Debian libchafa-dev; its pkg-config needs libglib2.0-dev), for the tests
// alone: what the library CImageCodecs opens at run time is compared with. The helpers keep
// GLib's strings and environment lists on the C side.
#pragma once
#include <chafa.h>
#include <stdlib.h>
#include <string.h>

// The canvas printed as the sequence its pixel mode draws (sixel here), for the
// terminal named by `term` (TERM's value: the database knows each one's sequences) and, for
// iTerm2, `program` (TERM_PROGRAM). Returns malloc'd bytes, the length in *length.
static inline char *cc_print(ChafaCanvas *canvas, const char *term, const char *program, size_t *length) {
    char term_var[128], program_var[128];
    snprintf(term_var, sizeof term_var, "TERM=%s", term);
    snprintf(program_var, sizeof program_var, "TERM_PROGRAM=%s", program ? program : "");
    gchar *envp[] = {term_var, program ? program_var : NULL, NULL};
    ChafaTermDb *db = chafa_term_db_get_default();
    ChafaTermInfo *info = chafa_term_db_detect(db, envp);
    GString *s = chafa_canvas_print(canvas, info);
    char *out = malloc(s->len + 1);
    if (out) {
        memcpy(out, s->str, s->len);
        out[s->len] = 0;
        *length = s->len;
    }
    g_string_free(s, TRUE);
    chafa_term_info_unref(info);
    return out;
}

// Block symbols of one cell's width (no wide or ambiguous ones: their width is the font's).
static inline ChafaSymbolMap *cc_block_symbols(void) {
    ChafaSymbolMap *map = chafa_symbol_map_new();
    chafa_symbol_map_add_by_tags(map, (ChafaSymbolTags)(CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_SPACE));
    chafa_symbol_map_remove_by_tags(map, (ChafaSymbolTags)(CHAFA_SYMBOL_TAG_WIDE | CHAFA_SYMBOL_TAG_AMBIGUOUS));
    return map;
}
