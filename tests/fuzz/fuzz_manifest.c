// SPDX-License-Identifier: GPL-3.0-or-later
/* Fuzz the data pool's manifest parser (bench/nnue/manifest.h). Any bytes
 * may come in; when manifest_parse() accepts them, every entry must pass
 * manifest_entry_check(), and writing the manifest out and parsing that
 * again must give the same entries (and the same text once more). */
#include "fuzz_common.h"
#include "manifest.h"

enum { MANIFEST_INPUT_MAX = 1 << 16 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > MANIFEST_INPUT_MAX) return 0;
    Manifest m = {0}, again = {0};
    char err[300];
    for (size_t errlen = 1; errlen <= 16; errlen *= 4) { /* short error buffers are never overrun */
        (void)manifest_parse(&m, (const char *)data, size, err, errlen);
        manifest_free(&m);
    }
    if (!manifest_parse(&m, (const char *)data, size, err, sizeof err)) {
        FUZZ_CHECK(memchr(err, '\0', sizeof err) != NULL && err[0] != '\0');
        manifest_free(&m);
        return 0;
    }
    for (int i = 0; i < m.count; i++)
        FUZZ_CHECK(manifest_entry_check(&m.entries[i], err, sizeof err));
    size_t len, len2;
    char *text = manifest_format(&m, &len);
    FUZZ_CHECK(text != NULL && strlen(text) == len);
    FUZZ_CHECK(manifest_parse(&again, text, len, err, sizeof err));
    FUZZ_CHECK(again.count == m.count);
    for (int i = 0; i < m.count; i++)
        FUZZ_CHECK(!memcmp(&again.entries[i], &m.entries[i], sizeof m.entries[i]));
    char *text2 = manifest_format(&again, &len2);
    FUZZ_CHECK(text2 != NULL && len2 == len && !memcmp(text, text2, len));
    free(text);
    free(text2);
    manifest_free(&m);
    manifest_free(&again);
    return 0;
}
