// Calls into RE2 for Swift, which imports C and not RE2's C++ API.
#include "RE2Shim.h"

#include <re2/re2.h>

#include <cstdio>

extern "C" void *linnet_re2_compile(const char *pattern, size_t length, char *error, size_t error_size) {
    RE2::Options options;
    options.set_log_errors(false);
    // The automaton's memory: far above any filter a person writes, and a bound on a hostile one.
    options.set_max_mem(8 << 20);
    RE2 *re = new RE2(re2::StringPiece(pattern, length), options);
    if (!re->ok()) {
        if (error_size > 0) std::snprintf(error, error_size, "%s", re->error().c_str());
        delete re;
        return nullptr;
    }
    return re;
}

extern "C" int linnet_re2_search(const void *compiled, const char *text, size_t length) {
    return RE2::PartialMatch(re2::StringPiece(text, length), *static_cast<const RE2 *>(compiled)) ? 1 : 0;
}

extern "C" void linnet_re2_free(void *compiled) { delete static_cast<RE2 *>(compiled); }
